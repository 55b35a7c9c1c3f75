"""The ``ppo`` agent: a saved MaskablePPO policy (sb3-contrib) acting with the env's action mask.

``make_agent("ppo", env_id)`` loads the model shipped for ``env_id`` in ``agents/pretrained/``
(``<env_id>_ppo.zip``); ``make_agent("ppo", env_id, path="run/model.zip")`` loads any other.
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

from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import check_env

__all__ = ["PRETRAINED_DIR", "ModelError", "PPOAgent", "load_policy", "pretrained_path"]

PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"


class ModelError(ValueError):
    """A model file that is missing, unreadable or made for another env."""


def pretrained_path(env_id: str) -> Path:
    """Where the shipped PPO model of ``env_id`` lives."""
    return PRETRAINED_DIR / f"{env_id}_ppo.zip"


def _env_shapes(env_id: str, num_players: int | None = None) -> tuple[int, int]:
    env = mystic_envs.make_raw(env_id, **({} if num_players is None else {"num_players": num_players}))
    agent = env.possible_agents[0]
    return env.observation_space(agent)["observation"].shape[0], int(env.action_space(agent).n)


def load_policy(path: str | Path, env_id: str) -> Any:
    """The ``MaskableActorCriticPolicy`` saved in the MaskablePPO zip at ``path``, checked against ``env_id``.

    Raises :class:`ModelError` (one line: the file, what is wrong, what was expected) for a missing
    or corrupt file, a zip that is not a MaskablePPO model, or a model whose observation or action
    shape differs from ``env_id``'s.
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
    obs_size, num_actions = _env_shapes(env_id)
    obs_shape = tuple(data["observation_space"].shape)
    n = getattr(data["action_space"], "n", None)
    counts = mystic_envs.player_counts(env_id)
    # A model trained at another player count of the game (``num_players``: another observation size).
    if (obs_shape != (obs_size,) or n != num_actions) and all(
        (*obs_shape, n) != _env_shapes(env_id, c) for c in counts if len(counts) > 1
    ):
        raise ModelError(
            f"model file {str(path)!r} was trained for observations of shape {obs_shape} and {n} actions; "
            f"{env_id} has shape ({obs_size},) and {num_actions} actions"
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
    ) -> None:
        if not isinstance(deterministic, bool):
            raise TypeError(f"deterministic must be True or False, got {deterministic!r}")
        if policy is None:
            if path is None:
                path = pretrained_path(env_id)
                if not path.is_file():
                    raise ModelError(
                        f"no pretrained PPO model is shipped for {env_id!r} (looked for {str(path)!r}); "
                        "pass path='model.zip'"
                    )
            policy = load_policy(path, env_id)
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
            logits = np.where(mask, _forward(self._layers, observation).astype(np.float64), -np.inf)
            e = np.exp(logits - logits.max())
            return e / e.sum()
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).reshape(1, -1)
            dist = self.policy.get_distribution(obs, action_masks=mask.reshape(1, -1))
            return dist.distribution.probs[0].numpy().astype(np.float64)

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


def _forward(layers: list[tuple[np.ndarray, np.ndarray, Any]], observation: np.ndarray) -> np.ndarray:
    x = np.asarray(observation, dtype=np.float32).reshape(-1)
    for weight, bias, activation in layers:
        x = x @ weight + bias
        if activation is not None:
            x = activation(x)
    return x
