"""The ``ppo`` agent: a saved MaskablePPO policy (sb3-contrib) acting with the env's action mask.

``make_agent("ppo", env_id, num_players=N)`` loads the model shipped for ``env_id`` at a table of
``N`` (default: the game's default count), as declared in ``agents/pretrained/MODELS.json``: one
entry per game and player count, the strongest model shipped for it, with its file, the env version
it was trained on, the commands that made it, its budget and its measured figures
(:func:`shipped_models`; a stale entry is refused in one line). ``make_agent("ppo", env_id,
path="run/model.zip")`` loads any other model.
``deterministic=True`` (the default) plays the most probable legal action, the same action as
``MaskablePPO.predict(obs, action_masks=mask, deterministic=True)``; ``deterministic=False``
samples from the masked policy with the agent's own seeded generator.

Only the policy network is rebuilt from the zip (no algorithm, no optimizer), under a forked torch
random state, so loading a model never moves the global random streams of a training run. For the
standard ``MlpPolicy`` the agent then acts through a numpy copy of the actor's layers: one
observation at a time, that is about ten times faster than a torch call, which matters when
snapshots play thousands of self-play games. Other policies act through torch.
Needs the ``train`` extra (torch, sb3-contrib).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import check_env

__all__ = [
    "MODELS_FILE",
    "PRETRAINED_DIR",
    "ModelError",
    "PPOAgent",
    "ShippedModel",
    "has_shipped_model",
    "load_policy",
    "pretrained_path",
    "shipped_model",
    "shipped_models",
]

PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
#: The table of shipped models: ``{env_id: {"N": entry}}`` (:class:`ShippedModel` lists the fields).
MODELS_FILE = PRETRAINED_DIR / "MODELS.json"
#: ``current``: plays today's game; ``stale``: kept with its figures, refused (the game changed under it).
STATUSES = ("current", "stale")


class ModelError(ValueError):
    """A model file that is missing, unreadable or made for another env."""


@dataclass(frozen=True)
class ShippedModel:
    """One entry of ``agents/pretrained/MODELS.json``: the model shipped for ``env_id`` at ``num_players``.

    - ``file``: the zip in ``agents/pretrained/`` (:attr:`path`); ``status``: one of :data:`STATUSES`;
      ``note``: what a reader should know (why it is stale, what it was made from).
    - ``env_version``: ``observation_size`` and ``num_actions`` it was trained for, ``rules`` (the
      game's state it was trained on, in words) and ``shipped_in`` (the commit that shipped it).
    - ``commands``: the exact commands that made the file; ``budget``: ``timesteps``, ``wall_time``,
      ``machine``.
    - ``figures``: its measured results, each ``opponent``, ``games``, ``win_rate``, ``ci95`` (the 95%
      Wilson interval), ``command`` and an optional ``note``; ``progress``: its run's CSV, if shipped.
    """

    env_id: str
    num_players: int
    file: str
    status: str
    note: str
    env_version: dict[str, Any]
    commands: tuple[str, ...]
    budget: dict[str, Any]
    figures: tuple[dict[str, Any], ...]
    progress: str | None = None

    @property
    def path(self) -> Path:
        return PRETRAINED_DIR / self.file


_ENTRY_FIELDS = {"file", "status", "note", "env_version", "commands", "budget", "figures", "progress"}
_ENV_VERSION_FIELDS = {"observation_size", "num_actions", "rules", "shipped_in"}
_BUDGET_FIELDS = {"timesteps", "wall_time", "machine"}
_FIGURE_FIELDS = {"opponent", "games", "win_rate", "ci95", "command"}


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.load keeps the last of two equal keys; a table with two entries for one key is an error.
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise ModelError(f"key {k!r} appears twice")
    return dict(pairs)


def shipped_models(path: str | Path | None = None) -> dict[tuple[str, int], ShippedModel]:
    """Every entry of the shipped-model table at ``path`` (default :data:`MODELS_FILE`), keyed by
    ``(env_id, num_players)``.

    Raises :class:`ModelError` (one line: the file, the entry, what is wrong) for a table that is
    not valid JSON, names an unknown game or a player count the game does not have, or has an entry
    with a missing field, an unknown status or a figure whose interval does not hold its win rate.
    """
    path = Path(MODELS_FILE if path is None else path)
    try:
        table = json.loads(path.read_text(), object_pairs_hook=_refuse_duplicates)
    except (OSError, ValueError) as exc:
        first_line = next(iter(str(exc).splitlines()), "")
        raise ModelError(f"shipped-model table {str(path)!r} is unreadable: {first_line}") from None
    if not isinstance(table, dict):
        raise ModelError(f"shipped-model table {str(path)!r} is not an object of env ids")
    models = {}
    for env_id, by_count in table.items():
        for count, entry in by_count.items() if isinstance(by_count, dict) else [(None, by_count)]:
            where = f"shipped-model table {str(path)!r}, {env_id} at {count} players"
            problem = _entry_problem(env_id, count, entry)
            if problem:
                raise ModelError(f"{where}: {problem}")
            models[env_id, int(count)] = ShippedModel(
                env_id=env_id,
                num_players=int(count),
                file=entry["file"],
                status=entry["status"],
                note=entry["note"],
                env_version=dict(entry["env_version"]),
                commands=tuple(entry["commands"]),
                budget=dict(entry["budget"]),
                figures=tuple(dict(f) for f in entry["figures"]),
                progress=entry.get("progress"),
            )
    return models


def _entry_problem(env_id: str, count: Any, entry: Any) -> str | None:
    """What is wrong with one entry of the table, or None."""
    if env_id not in mystic_envs.ENV_IDS:
        return f"unknown env id; the games are {', '.join(mystic_envs.ENV_IDS)}"
    counts = mystic_envs.player_counts(env_id)
    if not isinstance(count, str) or not count.isdigit() or int(count) not in counts:
        return f"the player count must be one of {', '.join(map(str, counts))}"
    if not isinstance(entry, dict):
        return "an entry is an object"
    missing = (_ENTRY_FIELDS - {"progress"}) - set(entry)
    unknown = set(entry) - _ENTRY_FIELDS
    if missing or unknown:
        return f"missing field(s) {sorted(missing)}, unknown field(s) {sorted(unknown)}"
    if entry["status"] not in STATUSES:
        return f"status must be one of {list(STATUSES)}, got {entry['status']!r}"
    if not isinstance(entry["file"], str) or Path(entry["file"]).name != entry["file"]:
        return f"file must be a file name in {str(PRETRAINED_DIR)!r}, got {entry['file']!r}"
    if not isinstance(entry["commands"], list) or not entry["commands"]:
        return "commands must be a non-empty list of command lines"
    for key, fields in (("env_version", _ENV_VERSION_FIELDS), ("budget", _BUDGET_FIELDS)):
        if not isinstance(entry[key], dict) or fields - set(entry[key]):
            return f"{key} must have {sorted(fields)}"
    if not isinstance(entry["figures"], list):
        return "figures must be a list"
    for figure in entry["figures"]:
        if not isinstance(figure, dict) or _FIGURE_FIELDS - set(figure):
            return f"every figure must have {sorted(_FIGURE_FIELDS)}"
        games, rate, ci = figure["games"], figure["win_rate"], figure["ci95"]
        if not (
            isinstance(games, int)
            and games > 0
            and isinstance(ci, list)
            and len(ci) == 2
            and all(isinstance(x, (int, float)) for x in (rate, *ci))
            and 0 <= ci[0] <= rate <= ci[1] <= 1
        ):
            return (
                f"figure against {figure['opponent']!r}: "
                "needs games > 0 and 0 <= ci95[0] <= win_rate <= ci95[1] <= 1"
            )
    return None


def _check_num_players(env_id: str, num_players: Any) -> int:
    """``num_players`` checked against the game's counts (one-line ``ValueError``); None: its default."""
    if num_players is None:
        return len(mystic_envs.make_raw(env_id).possible_agents)
    counts = mystic_envs.player_counts(env_id)
    if isinstance(num_players, bool) or not isinstance(num_players, int) or num_players not in counts:
        raise ValueError(
            f"num_players: {env_id} is played by {', '.join(map(str, counts))} players, got {num_players!r}"
        )
    return num_players


def shipped_model(env_id: str, num_players: int | None = None, stale: bool = False) -> ShippedModel:
    """The entry of the table for ``env_id`` at ``num_players`` (default: the game's default count).
    :class:`ModelError` in one line when there is none, naming the counts that have one, or when the
    entry is stale (unless ``stale=True``, which returns it as well)."""
    n = _check_num_players(env_id, num_players)
    models = shipped_models()
    entry = models.get((env_id, n))
    if entry is None:
        current = [str(c) for (e, c), m in sorted(models.items()) if e == env_id and m.status == "current"]
        old = [str(c) for (e, c), m in sorted(models.items()) if e == env_id and m.status == "stale"]
        have = f"models exist for {', '.join(current)} players" if current else "no current model"
        if old:
            have += f"; a stale one for {', '.join(old)}"
        raise ModelError(
            f"no PPO model is shipped for {env_id} at {n} players ({have}; {MODELS_FILE.name}); "
            "pass path='model.zip'"
        )
    if entry.status == "stale" and not stale:
        obs_size, _ = _env_shapes(env_id, n)
        raise ModelError(
            f"the PPO model shipped for {env_id} at {n} players is stale: {entry.file} was trained for "
            f"observations of shape ({entry.env_version['observation_size']},), and the game has "
            f"({obs_size},) now ({MODELS_FILE.name}); pass path='model.zip'"
        )
    return entry


def has_shipped_model(env_id: str, num_players: int | None = None) -> bool:
    """Whether :func:`shipped_model` has a current model for ``env_id`` (at ``num_players``; None:
    at any count)."""
    return any(
        e == env_id and m.status == "current" and (num_players is None or c == num_players)
        for (e, c), m in shipped_models().items()
    )


def pretrained_path(env_id: str, num_players: int | None = None) -> Path:
    """Where the shipped PPO model of ``env_id`` at ``num_players`` lives, a stale one too
    (:func:`shipped_model`; ``make_agent`` refuses a stale one)."""
    return shipped_model(env_id, num_players, stale=True).path


def _env_shapes(env_id: str, num_players: int | None = None) -> tuple[int, int]:
    env = mystic_envs.make_raw(env_id, **({} if num_players is None else {"num_players": num_players}))
    agent = env.possible_agents[0]
    return env.observation_space(agent)["observation"].shape[0], int(env.action_space(agent).n)


def load_policy(path: str | Path, env_id: str, num_players: int | None = None) -> Any:
    """The ``MaskableActorCriticPolicy`` saved in the MaskablePPO zip at ``path``, checked against ``env_id``.

    Raises :class:`ModelError` (one line: the file, what is wrong, what was expected) for a missing
    or corrupt file, a zip that is not a MaskablePPO model, or a model whose observation or action
    shape differs from ``env_id``'s: at ``num_players`` when it is given, else at any of its counts.
    """
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.save_util import load_from_zip_file

    path = Path(path)
    if path.is_dir():
        raise ModelError(f"model path {str(path)!r} is a folder, not a MaskablePPO .zip file")
    if not path.is_file():
        raise ModelError(f"model file {str(path)!r} does not exist")
    try:
        data, params, _ = load_from_zip_file(path, device="cpu", print_system_info=False)
    except Exception as exc:  # zipfile, pickle and torch each raise their own kinds
        first_line = next(iter(str(exc).splitlines()), "")
        raise ModelError(
            f"model file {str(path)!r} is not a readable MaskablePPO zip ({type(exc).__name__}: {first_line})"
        ) from None
    if not data or "policy_class" not in data or not params or "policy" not in params:
        raise ModelError(f"model file {str(path)!r} is not a MaskablePPO model (no policy in the zip)")
    # SB3 only warns and drops a saved space it cannot unpickle (say, from another gymnasium).
    for key in ("observation_space", "action_space"):
        if key not in data:
            raise ModelError(f"model file {str(path)!r} has no readable {key}")
    policy_class = data["policy_class"]
    if not (isinstance(policy_class, type) and issubclass(policy_class, MaskableActorCriticPolicy)):
        raise ModelError(
            f"model file {str(path)!r} holds a {getattr(policy_class, '__name__', policy_class)}, "
            "not a MaskablePPO policy"
        )
    obs_size, num_actions = _env_shapes(env_id, num_players)
    obs_shape = tuple(data["observation_space"].shape)
    n = getattr(data["action_space"], "n", None)
    # Without num_players, a model trained at another player count of the game (another
    # observation size) loads, and refuses a table of another size when it acts.
    counts = mystic_envs.player_counts(env_id) if num_players is None else ()
    if (obs_shape != (obs_size,) or n != num_actions) and all(
        (*obs_shape, n) != _env_shapes(env_id, c) for c in counts if len(counts) > 1
    ):
        table = env_id if num_players is None else f"{env_id} at {num_players} players"
        raise ModelError(
            f"model file {str(path)!r} was trained for observations of shape {obs_shape} and {n} actions; "
            f"{table} has shape ({obs_size},) and {num_actions} actions"
        )
    # Building the network draws initial weights from torch's global stream; fork it so that a
    # training run that loads snapshots stays reproducible.
    with torch.random.fork_rng(devices=[]):
        try:
            policy = policy_class(
                data["observation_space"],
                data["action_space"],
                lambda _: 0.0,
                **data.get("policy_kwargs", {}),
            )
        except (TypeError, ValueError) as exc:
            first_line = next(iter(str(exc).splitlines()), "")
            raise ModelError(
                f"model file {str(path)!r} has policy settings its policy cannot take: {first_line}"
            ) from None
    try:
        policy.load_state_dict(params["policy"])
    except RuntimeError as exc:
        first_line = next(iter(str(exc).splitlines()), "")
        raise ModelError(
            f"model file {str(path)!r} has weights that do not fit its policy: {first_line}"
        ) from None
    policy.set_training_mode(False)
    return policy


def _numpy_actor(policy: Any) -> list[tuple[np.ndarray, np.ndarray, Any]] | None:
    """The actor of a standard MlpPolicy as (weight, bias, activation) layers, or None if it is not one."""
    return _numpy_layers(
        policy, policy.pi_features_extractor, [*policy.mlp_extractor.policy_net, policy.action_net]
    )


def _numpy_critic(policy: Any) -> list[tuple[np.ndarray, np.ndarray, Any]] | None:
    """The value head of a standard MlpPolicy as layers, as :func:`_numpy_actor`."""
    return _numpy_layers(
        policy, policy.vf_features_extractor, [*policy.mlp_extractor.value_net, policy.value_net]
    )


def _numpy_layers(
    policy: Any, extractor: Any, modules: list[Any]
) -> list[tuple[np.ndarray, np.ndarray, Any]] | None:
    from stable_baselines3.common.torch_layers import FlattenExtractor
    from torch import nn

    activations = {nn.Tanh: np.tanh, nn.ReLU: lambda x: np.maximum(x, 0), nn.Identity: None}
    if not isinstance(extractor, FlattenExtractor) or policy.normalize_images is None:
        return None
    if len(policy.observation_space.shape) != 1:
        return None
    layers: list[tuple[np.ndarray, np.ndarray, Any]] = []
    for module in modules:
        if isinstance(module, nn.Linear) and module.bias is not None:
            layers.append(
                (module.weight.detach().numpy().T.copy(), module.bias.detach().numpy().copy(), None)
            )
        elif type(module) in activations and layers and layers[-1][2] is None:
            w, b, _ = layers[-1]
            layers[-1] = (w, b, activations[type(module)])
        else:
            return None
    return layers


class PPOAgent:
    """Acts with a MaskablePPO policy on the observation and mask of its seat."""

    def __init__(
        self,
        env_id: str,
        path: str | Path | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        policy: Any = None,
        num_players: int | None = None,
    ) -> None:
        if not isinstance(deterministic, bool):
            raise TypeError(f"deterministic must be True or False, got {deterministic!r}")
        if num_players is not None:
            _check_num_players(env_id, num_players)
        #: The table's entry of the shipped model this agent plays (None for a model given by path).
        self.shipped: ShippedModel | None = None
        if policy is None:
            if path is None:
                self.shipped = shipped_model(env_id, num_players)
                path = self.shipped.path
                if not path.is_file():
                    raise ModelError(
                        f"the PPO model shipped for {env_id!r} is missing (looked for {str(path)!r}); "
                        "pass path='model.zip'"
                    )
            policy = load_policy(path, env_id, num_players)
        self.env_id = env_id
        self.path = None if path is None else str(path)
        self.policy = policy
        self.deterministic = deterministic
        self.seed(seed)
        # Copied once: an agent built from a model that keeps training (from_model) must use torch.
        self._layers = _numpy_actor(policy) if path is not None else None
        self._critic = _numpy_critic(policy) if path is not None else None

    @classmethod
    def from_model(cls, model: Any, env_id: str, **kw: Any) -> PPOAgent:
        """An agent around the policy of an in-memory MaskablePPO ``model`` (not copied)."""
        return cls(env_id, policy=model.policy, **kw)

    def seed(self, seed: int | None) -> None:
        # A spawned child stream, as it always was: a seed samples the games it always did.
        self.rng = np.random.default_rng(np.random.SeedSequence(check_seed(seed)).spawn(1)[0])

    def action_probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked policy's probability of every action for one observation vector."""
        mask = np.asarray(mask, dtype=bool).reshape(-1)
        if self._layers is not None:
            return _softmax(np.where(mask, _forward(self._layers, observation).astype(np.float64), -np.inf))
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1)
            dist = self.policy.get_distribution(obs, action_masks=mask.reshape(1, -1))
            return dist.distribution.probs[0].numpy().astype(np.float64)

    def policy_and_value(self, observation: np.ndarray) -> tuple[np.ndarray, float]:
        """The policy's probability of every action, unmasked, and the value head's estimate, for one
        observation vector: the two numbers the guided search (``agents.puct``) asks of a node. The
        same numbers as :meth:`action_probabilities` with every action allowed and :meth:`value`."""
        if self._layers is None or self._critic is None:
            every = np.ones(self.policy.action_space.n, dtype=bool)
            return self.action_probabilities(observation, every), self.value(observation)
        logits = _forward(self._layers, observation).astype(np.float64)
        return _softmax(logits), float(_forward(self._critic, observation)[0])

    def value(self, observation: np.ndarray) -> float:
        """The value head's estimate of the observing seat's return, for one observation vector."""
        if self._critic is not None:
            return float(_forward(self._critic, observation)[0])
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1)
            return float(self.policy.predict_values(obs)[0, 0])

    def act(self, env: Any, agent_id: str) -> int:
        check_env(env, self.env_id)
        obs = env.observe(agent_id)  # built once: Mystria's look-ahead makes an observation costly
        mask = np.asarray(obs["action_mask"], dtype=bool)
        if not mask.any():
            raise ValueError(f"{agent_id} has no legal action; is it this agent's turn?")
        if obs["observation"].shape != self.policy.observation_space.shape:
            raise ValueError(
                f"this model was trained for observations of shape {self.policy.observation_space.shape}, "
                f"and {agent_id} observes {obs['observation'].shape}: a table of another num_players?"
            )
        probs = self.action_probabilities(obs["observation"], mask)
        if self.deterministic:
            # argmax over the masked probabilities, as MaskablePPO.predict(deterministic=True) does
            action = int(np.argmax(probs))
        else:
            probs = np.where(mask, probs, 0.0)
            action = int(self.rng.choice(probs.size, p=probs / probs.sum()))
        return action


def _softmax(logits: np.ndarray) -> np.ndarray:
    # Shifted by the largest logit so that exp cannot overflow; masked actions are -inf and get 0.
    e = np.exp(logits - logits.max())
    return e / e.sum()


def _forward(layers: list[tuple[np.ndarray, np.ndarray, Any]], observation: np.ndarray) -> np.ndarray:
    x = np.asarray(observation, dtype=np.float32).reshape(-1)
    for weight, bias, activation in layers:
        x = x @ weight + bias
        if activation is not None:
            x = activation(x)
    return x
