"""mystic-envs games as RLlib multi-agent envs: RLlib's own ``PettingZooEnv`` over the AEC env, audited.

``register_envs()`` registers every id of ``mystic_envs.ENV_IDS`` with RLlib under its PettingZoo
registry name (``"mystic/elemystic-v0"``); the env config holds ``mystic_envs.make`` keywords, so
``config.environment("mystic/elemystic-v0", env_config={"num_players": 2})`` picks a player count.

:class:`AuditedPettingZooEnv` is RLlib's ``PettingZooEnv`` plus an audit of each game, handed over in
the info of every agent at the game's last step under ``"audit"``:

- ``actions``: actions it received, each checked against the mask it last showed the acting agent;
- ``illegal_actions``: those the mask forbade. Each is counted before the game sees it (which then,
  by default, ends the game with -1 for the offender), so an RLlib run can prove it sampled none.
- ``returns``: every seat's total reward. RLlib's own episode metrics keep only the rewards of agents
  that acted, so a seat eliminated before its first turn would be missing there.

RLlib's env pre-check steps the env with unmasked random actions, which this env correctly treats as
illegal; :func:`check_rllib_env` is the check to run instead (``training.rllib_config`` disables
RLlib's and ``training.rllib_train`` runs this one before training).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

import mystic_envs

__all__ = [
    "AUDIT_KEY",
    "AuditedPettingZooEnv",
    "RLlibEnvError",
    "check_rllib_env",
    "make_rllib_env",
    "register_envs",
    "rllib_env_name",
]

AUDIT_KEY = "audit"


class RLlibEnvError(ValueError):
    """The RLlib view of an env breaks the contract training relies on."""


def rllib_env_name(env_id: str) -> str:
    """The name ``env_id`` is registered under with RLlib: its PettingZoo registry name."""
    mystic_envs.env_module(env_id)  # a clear error for unknown ids
    return f"mystic/{env_id.removesuffix('_v0')}-v0"


class AuditedPettingZooEnv(PettingZooEnv):
    """RLlib's ``PettingZooEnv`` that checks every action against the acting agent's mask.

    The counts and returns described in the module docstring reach RLlib through the infos of the
    game's last step; ``actions`` and ``illegal_actions`` also hold the counts of the game in progress.
    """

    def __init__(self, env: Any) -> None:
        self._masks: dict[str, np.ndarray] = {}
        self.actions = 0
        self.illegal_actions = 0
        self._returns: dict[str, float] = {}
        super().__init__(env)

    def _record(self, observations: dict[str, Any]) -> None:
        for agent, obs in observations.items():
            self._masks[agent] = np.asarray(obs["action_mask"], dtype=bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        observations, infos = super().reset(seed=seed, options=options)
        self._masks.clear()
        self.actions = 0
        self.illegal_actions = 0
        self._returns = dict.fromkeys(self.env.possible_agents, 0.0)
        self._record(observations)
        return observations, infos

    def step(self, action: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.env.agent_selection
        chosen = action.get(agent)
        mask = self._masks.get(agent)
        self.actions += 1
        if chosen is None or mask is None or not 0 <= int(chosen) < mask.size or not mask[int(chosen)]:
            self.illegal_actions += 1
        observations, rewards, terminateds, truncateds, infos = super().step(action)
        self._record(observations)
        for agent_id, reward in rewards.items():
            self._returns[agent_id] += float(reward)
        if not self.env.agents:
            audit = {
                "actions": self.actions,
                "illegal_actions": self.illegal_actions,
                "returns": dict(self._returns),
            }
            for agent_id in observations:
                infos[agent_id] = {**infos.get(agent_id, {}), AUDIT_KEY: audit}
        return observations, rewards, terminateds, truncateds, infos


def make_rllib_env(env_id: str, env_config: dict[str, Any] | None = None) -> AuditedPettingZooEnv:
    """The audited RLlib env of ``env_id``; ``env_config`` holds ``mystic_envs.make`` keywords."""
    # RLlib passes an EnvContext (a dict with worker attributes); only its items are make() keywords.
    return AuditedPettingZooEnv(mystic_envs.make(env_id, **dict(env_config or {})))


def register_envs() -> dict[str, str]:
    """Register every env of ``mystic_envs.ENV_IDS`` with RLlib; returns env id -> registered name.

    Ray's registry is cluster-wide: call this in the driver (before or after ``ray.init``) and every
    env runner finds the envs, as long as mystic-envs is installed on its node.
    """
    names = {}
    for env_id in mystic_envs.ENV_IDS:
        names[env_id] = rllib_env_name(env_id)
        register_env(names[env_id], partial(make_rllib_env, env_id))
    return names


def check_rllib_env(env: AuditedPettingZooEnv, games: int = 3, seed: int = 0) -> None:
    """Play ``games`` masked-random games through ``env``'s RLlib API; :class:`RLlibEnvError` on a breach.

    Checks what RLlib's pre-check would, with legal actions only: one agent to act after every reset
    and step, its observation inside its space with a non-empty mask, every game ending with
    ``__all__`` done, no illegal action counted, and zero-sum returns with every seat accounted for.
    Build ``env`` with :func:`make_rllib_env`.
    """
    rng = np.random.default_rng(seed)
    name = env.env.metadata.get("name", type(env.env.unwrapped).__name__)
    where = f"{name} ({len(env.possible_agents)} players)"
    for game in range(games):
        observations, _ = env.reset(seed=seed + game)
        for _step in range(100_000):
            acting = [a for a, obs in observations.items() if np.asarray(obs["action_mask"]).any()]
            if len(acting) != 1 or acting[0] != env.env.agent_selection:
                raise RLlibEnvError(
                    f"{where}, game {game}: expected the one agent to move, {env.env.agent_selection}, "
                    f"to hold a legal action; agents with one: {acting}"
                )
            agent = acting[0]
            if not env.observation_spaces[agent].contains(observations[agent]):
                raise RLlibEnvError(f"{where}, game {game}: {agent}'s observation is outside its space")
            action = int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            observations, _, terminateds, truncateds, infos = env.step({agent: action})
            if terminateds["__all__"] or truncateds["__all__"]:
                break
        else:
            raise RLlibEnvError(f"{where}, game {game}: no end after 100,000 steps")
        audits = [info[AUDIT_KEY] for info in infos.values() if AUDIT_KEY in info]
        if not audits:
            raise RLlibEnvError(f"{where}, game {game}: no audit in the infos of the last step")
        illegal, returns = audits[0]["illegal_actions"], audits[0]["returns"]
        if illegal:
            raise RLlibEnvError(f"{where}, game {game}: {illegal} legal actions were counted illegal")
        if set(returns) != set(env.env.possible_agents) or abs(sum(returns.values())) > 1e-6:
            raise RLlibEnvError(f"{where}, game {game}: returns {returns} are not zero-sum over every seat")
