"""The ``rllib`` agent: a policy trained with Ray RLlib (``training.rllib_train``), played without Ray.

``make_agent("rllib", env_id)`` loads the policy shipped for ``env_id`` in ``agents/pretrained/``
(the module folder ``<env_id>_rllib/``). ``make_agent("rllib", env_id, path=P)`` loads ``P``: a run
folder of ``training.rllib_train`` (its latest checkpoint), any RLlib algorithm checkpoint folder
(``Algorithm.save_to_path``) or the folder of one module in it
(``.../learner_group/learner/rl_module/<module id>``). The modules must be
``training.rllib_module.MaskedPPOModule``s. Which module plays: ``module="NAME"`` if given; else the
checkpoint's only trained module (``policies="shared"``), or, for one module per seat named after the
seats (``policies="per-seat"``), each seat's own. ``deterministic=True`` (the default) plays the most
probable legal action, as RLlib's ``forward_inference`` does; ``deterministic=False`` samples from the
masked policy with the agent's seeded generator.

Only the policy's weights are read, from the module's ``module_state.pkl`` (a dict of numpy arrays,
which RLlib writes by pickle); an unpickler that admits nothing but arrays reads it, so neither Ray nor
torch is needed, nothing in the file can run code, and acting is a few numpy matrix products (the
``pi`` layout of ``MaskedPPOModule``: linear layers with tanh between them). A missing, unreadable or
other-env checkpoint is a one-line :class:`CheckpointError` (an ``agents.ppo.ModelError``).
"""

from __future__ import annotations

import io
import json
import pickle
import re
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents.ppo import PRETRAINED_DIR, ModelError
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import check_env

__all__ = ["MODULES_SUBDIR", "CheckpointError", "RLlibAgent", "load_policies", "pretrained_path"]

# Where an RLlib algorithm checkpoint keeps its modules, one folder each.
MODULES_SUBDIR = Path("learner_group", "learner", "rl_module")
STATE_FILE = "module_state.pkl"
META_FILE = "mystic_envs.json"  # written by training.rllib_train beside each checkpoint's state

Layers = list[tuple[np.ndarray, np.ndarray]]


class CheckpointError(ModelError):
    """An RLlib checkpoint that is missing, unreadable or made for another env."""


class _ArraysOnly(pickle.Unpickler):
    """Unpickles dicts of numpy arrays, as RLlib saves a torch module's state, and nothing else."""

    ALLOWED = frozenset(
        {
            ("collections", "OrderedDict"),
            ("numpy", "dtype"),
            ("numpy", "ndarray"),
            ("numpy._core.numeric", "_frombuffer"),
            ("numpy.core.numeric", "_frombuffer"),
            ("numpy._core.multiarray", "_reconstruct"),
            ("numpy.core.multiarray", "_reconstruct"),
        }
    )

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not a numpy array part")
        return super().find_class(module, name)


def pretrained_path(env_id: str) -> Path:
    """Where the shipped RLlib policy of ``env_id`` lives (a module folder with its metadata)."""
    return PRETRAINED_DIR / f"{env_id}_rllib"


def _module_dirs(path: Path) -> tuple[dict[str, Path], Path | None]:
    """The module folders under ``path`` by module id, and the folder that may hold their metadata."""
    if (path / STATE_FILE).is_file():
        return {path.name: path}, path
    for checkpoint in (path / "checkpoint", path):
        root = checkpoint / MODULES_SUBDIR
        if root.is_dir():
            found = {d.name: d for d in sorted(root.iterdir()) if (d / STATE_FILE).is_file()}
            return found, checkpoint
    return {}, None


def _policy_layers(state: dict[str, Any], where: str, obs_size: int, num_actions: int) -> Layers:
    """The ``pi.<i>`` linear layers of a MaskedPPOModule state, checked to chain from obs to actions."""
    indices = sorted({int(m.group(1)) for key in state if (m := re.fullmatch(r"pi\.(\d+)\.weight", key))})
    layers: Layers = []
    for i in indices:
        weight, bias = state.get(f"pi.{i}.weight"), state.get(f"pi.{i}.bias")
        if not (isinstance(weight, np.ndarray) and isinstance(bias, np.ndarray)):
            raise CheckpointError(f"{where}: policy layer pi.{i} lacks a weight or bias array")
        if weight.ndim != 2 or bias.shape != weight.shape[:1]:
            raise CheckpointError(f"{where}: policy layer pi.{i} has shapes {weight.shape} and {bias.shape}")
        if layers and layers[-1][0].shape[1] != weight.shape[1]:
            raise CheckpointError(f"{where}: policy layer pi.{i} does not fit the layer before it")
        try:
            # Stored transposed, so that acting is x @ weight + bias on one observation row.
            weight, bias = weight.astype(np.float32).T.copy(), bias.astype(np.float32).copy()
        except (TypeError, ValueError) as exc:
            raise CheckpointError(f"{where}: policy layer pi.{i} is not numeric ({exc})") from None
        if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
            raise CheckpointError(f"{where}: policy layer pi.{i} holds NaN or infinite weights")
        layers.append((weight, bias))
    if not layers:
        raise CheckpointError(f"{where}: no policy network (pi.<i> layers of a MaskedPPOModule)")
    shape = (layers[0][0].shape[0], layers[-1][0].shape[1])
    if shape != (obs_size, num_actions):
        raise CheckpointError(
            f"{where} was trained for observations of size {shape[0]} and {shape[1]} actions; "
            f"this env has {obs_size} and {num_actions}"
        )
    return layers


def load_policies(
    path: str | Path, env_id: str, module: str | None = None
) -> tuple[dict[str, Layers], dict[str, Any]]:
    """The policy layers of every trained module in the checkpoint at ``path``, and its metadata.

    The metadata is ``training.rllib_train``'s record (env, player count, modules) where the
    checkpoint has one, else empty. Raises :class:`CheckpointError` as described in the module docstring.
    """
    path = Path(path)
    name = f"RLlib checkpoint {str(path)!r}"
    if not path.exists():
        raise CheckpointError(f"{name} does not exist")
    folders, checkpoint = _module_dirs(path)
    if not folders:
        raise CheckpointError(
            f"{str(path)!r} is not an RLlib checkpoint: no {MODULES_SUBDIR}/<module>/{STATE_FILE} in it "
            f"or in its checkpoint/ folder"
        )
    meta: dict[str, Any] = {}
    if checkpoint is not None and (checkpoint / META_FILE).is_file():
        try:
            meta = json.loads((checkpoint / META_FILE).read_text())
        except ValueError as exc:
            raise CheckpointError(f"{str(checkpoint / META_FILE)!r} is unreadable ({exc})") from None
        if not isinstance(meta, dict):
            raise CheckpointError(f"{str(checkpoint / META_FILE)!r} does not describe a checkpoint")
        if meta.get("env_id") != env_id:
            raise CheckpointError(f"{name} was trained on {meta.get('env_id')}, not {env_id}")
    if (path / STATE_FILE).is_file() and len(meta.get("modules", [])) == 1:
        # A module folder copied out of its checkpoint (as shipped): its id is in the metadata.
        folders = {meta["modules"][0]: path}
    num_players = meta.get("num_players")
    try:
        env = mystic_envs.make_raw(env_id, **({"num_players": num_players} if num_players else {}))
    except (TypeError, ValueError) as exc:
        raise CheckpointError(f"{name} names a game this library cannot make ({exc})") from None
    seat = env.possible_agents[0]
    obs_size = env.observation_space(seat)["observation"].shape[0]
    num_actions = int(env.action_space(seat).n)
    if module is not None:
        if module not in folders:
            raise CheckpointError(f"{name} has no module {module!r}; it has {sorted(folders)}")
        folders = {module: folders[module]}
    policies: dict[str, Layers] = {}
    for module_id, folder in folders.items():
        where = f"module {module_id!r} of {str(path)!r}"
        try:
            state = _ArraysOnly(io.BytesIO((folder / STATE_FILE).read_bytes())).load()
        except Exception as exc:  # truncated files, foreign objects and bad pickles each raise their own
            first_line = next(iter(str(exc).splitlines()), "")
            raise CheckpointError(f"{where} is unreadable ({type(exc).__name__}: {first_line})") from None
        if not isinstance(state, dict):
            raise CheckpointError(f"{where} does not hold a module state (a dict of arrays)")
        if not state and module is None:
            continue  # a module without weights, such as the masked random opponent
        policies[module_id] = _policy_layers(state, where, obs_size, num_actions)
    if not policies:
        raise CheckpointError(f"{name} holds no trained module; it has {sorted(folders)}")
    return policies, meta


class RLlibAgent:
    """Acts with the masked policy of an RLlib checkpoint on the observation and mask of its seat."""

    def __init__(
        self,
        env_id: str,
        path: str | Path | None = None,
        module: str | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        if path is None:
            path = pretrained_path(env_id)
            if not path.is_dir():
                raise CheckpointError(
                    f"no pretrained RLlib policy is shipped for {env_id!r} "
                    f"(no agents/pretrained/{path.name}); "
                    "pass path=CHECKPOINT (a training.rllib_train run folder)"
                )
        if not isinstance(deterministic, bool):
            raise TypeError(f"deterministic must be True or False, got {deterministic!r}")
        check_seed(seed)  # before a checkpoint is read
        self.env_id = env_id
        self.path = str(path)
        self.policies, self.meta = load_policies(path, env_id, module)
        seats = mystic_envs.make_raw(
            env_id, **({"num_players": self.meta["num_players"]} if self.meta.get("num_players") else {})
        ).possible_agents
        if len(self.policies) == 1:
            only = next(iter(self.policies.values()))
            self._by_seat = dict.fromkeys(seats, only)
        elif set(self.policies) == set(seats):
            self._by_seat = dict(self.policies)
        else:
            raise CheckpointError(
                f"RLlib checkpoint {self.path!r} holds modules {sorted(self.policies)}; choose one with "
                "module=NAME"
            )
        self.deterministic = deterministic
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def action_probabilities(self, observation: np.ndarray, mask: np.ndarray, agent_id: str) -> np.ndarray:
        """The masked policy's probability of every action for one observation of seat ``agent_id``."""
        layers = self._by_seat.get(agent_id)
        if layers is None:
            raise ValueError(f"{agent_id!r} is not a seat this checkpoint plays: {sorted(self._by_seat)}")
        x = np.asarray(observation, dtype=np.float32).reshape(-1)
        if x.size != layers[0][0].shape[0]:
            raise ValueError(
                f"observation of size {x.size}; the checkpoint {self.path!r} expects {layers[0][0].shape[0]}"
            )
        for i, (weight, bias) in enumerate(layers):
            x = x @ weight + bias
            if i < len(layers) - 1:
                x = np.tanh(x)
        legal = np.asarray(mask, dtype=bool).reshape(-1)
        scores = x.astype(np.float64)
        # Finite weights can still overflow float32; a NaN would make argmax pick an illegal action.
        if not np.isfinite(scores[legal]).all():
            raise ValueError(f"the checkpoint {self.path!r} gives non-finite action scores for {agent_id}")
        logits = np.where(legal, scores, -np.inf)
        e = np.exp(logits - logits.max())
        return e / e.sum()

    def act(self, env: Any, agent_id: str) -> int:
        check_env(env, self.env_id)
        obs = env.observe(agent_id)
        mask = np.asarray(obs["action_mask"], dtype=bool)
        if not mask.any():
            raise ValueError(f"{agent_id} has no legal action; is it this agent's turn?")
        probs = self.action_probabilities(obs["observation"], mask, agent_id)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(probs.size, p=probs))
