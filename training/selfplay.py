"""The training env of ``training.train``: one learning seat against a pool of opponents.

Every episode, :class:`OpponentPool` draws who plays the other seats: ``"self"`` (a frozen snapshot
of the learner, chosen uniformly among the latest ``pool_size`` ones, sampling its masked policy)
or an agent spec such as ``"heuristic"``, ``"random"`` or ``"mcts:simulations=50"`` (the syntax of
``training.evaluate --agents``), with the configured weights. With more than two players every
opponent seat draws its own opponent from the mix. The learner's seat is drawn anew every episode
too (``SingleAgentEnv`` with ``seat=None``), so it learns every seat. Each env holds
its own generator, seeded from ``reset(seed=...)``, so a vector of these envs is reproducible;
``get_state``/``set_state`` carry an env mid-episode across a checkpoint.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from mystic_envs.core.single_agent import SingleAgentEnv

__all__ = ["SELF", "OpponentPool", "SelfPlayEnv", "build_opponent"]

SELF = "self"


def build_opponent(spec: str, env_id: str) -> Any:
    """The agent an opponent spec names (``agents.spec.parse_agent_spec``'s syntax), for ``env_id``.

    The one place both the pool and ``training.train``'s up-front check build opponents, so what
    the check accepts is what the pool plays.
    """
    from agents.spec import parse_agent_spec

    parsed = parse_agent_spec(spec)
    return make_agent(parsed.name, env_id, **parsed.options)


class OpponentPool:
    """Chooses and plays the opponent of each episode (see the module docstring)."""

    def __init__(
        self,
        env_id: str,
        weights: dict[str, float],
        pool_size: int = 8,
        seed: int | None = None,
        num_players: int = 2,
    ):
        if not weights or min(weights.values()) < 0 or sum(weights.values()) <= 0:
            raise ValueError(f"opponent weights must be non-negative with a positive sum, got {weights!r}")
        self.env_id = env_id
        self.num_players = num_players
        self.names = list(weights)
        total = sum(weights.values())
        self.probabilities = np.array([weights[n] / total for n in self.names])
        self.pool_size = pool_size
        self.snapshots: list[str] = []
        self.rng = np.random.default_rng(seed)
        self._agents: dict[str, Any] = {}
        self.current: Any = None
        self.label = ""
        # The opponent and its label in every seat (the learner's own entry is drawn but unused: the
        # pool does not know the learner's seat before the episode starts).
        self.by_seat: list[Any] = []
        self.labels: list[str] = []

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A checkpoint from before the pool drew per seat: two players, one opponent in both seats.
        if "by_seat" not in state:
            current, label = state.get("current"), state.get("label", "")
            state = {**state, "num_players": 2, "by_seat": [current] * 2, "labels": [label] * 2}
        self.__dict__.update(state)

    def reseed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def add_snapshot(self, path: str) -> None:
        self.snapshots = [*self.snapshots, path][-self.pool_size :]
        # Evicted snapshots leave the cache, so memory stays bounded by the pool size.
        self._agents = {
            k: v for k, v in self._agents.items() if not k.startswith("snapshot:") or k[9:] in self.snapshots
        }

    def _agent(self, key: str) -> Any:
        if key not in self._agents:
            if key.startswith("snapshot:"):
                import torch

                # One env per core: intra-op threads would only fight over the same cores.
                torch.set_num_threads(1)
                self._agents[key] = make_agent("ppo", self.env_id, path=key[9:], deterministic=False)
            else:
                self._agents[key] = build_opponent(key, self.env_id)
        return self._agents[key]

    def start_episode(self) -> str:
        """Draw the opponents of the next episode; returns the first one's label (``self`` or the
        agent spec), which with two players is the opponent's."""
        # Two players: one draw, the stream of every run made before more seats were supported.
        draws = [self._draw() for _ in range(1 if self.num_players == 2 else self.num_players)]
        self.by_seat = [agent for agent, _ in draws] * (self.num_players if len(draws) == 1 else 1)
        self.labels = [label for _, label in draws] * (self.num_players if len(draws) == 1 else 1)
        self.current, self.label = draws[0]
        return self.label

    def label_for(self, learner_seat: int) -> str:
        """The label of the episode's opponents seen from ``learner_seat``: one spec if every other
        seat plays it, else the seats' specs in seat order joined by ``+``."""
        others = [label for seat, label in enumerate(self.labels) if seat != learner_seat]
        return others[0] if len(set(others)) == 1 else "+".join(others)

    def _draw(self) -> tuple[Any, str]:
        name = self.names[int(self.rng.choice(len(self.names), p=self.probabilities))]
        if name == SELF:
            if not self.snapshots:
                raise RuntimeError("the opponent pool has no snapshot of the learner yet; add_snapshot first")
            key = "snapshot:" + self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        else:
            key = name
        agent = self._agent(key)
        reseed = getattr(agent, "seed", None)
        if callable(reseed):
            reseed(int(self.rng.integers(2**63)))
        return agent, name

    def act(self, env: Any, agent_id: str) -> int:
        return self.by_seat[env.unwrapped.agent_name_mapping[agent_id]].act(env, agent_id)


class SelfPlayEnv(SingleAgentEnv):
    """``SingleAgentEnv`` whose opponent is an :class:`OpponentPool`; infos carry ``opponent``.

    ``opponent`` (the label of the episode's opponent: ``self`` or its spec) is in the infos of
    every step from ``reset()`` on, so SB3's episode statistics can be told apart by opponent.
    Rewards are the env's own: the learner's final +1/-1/0 and 0 before it.
    """

    def __init__(self, env_id: str, weights: dict[str, float], pool_size: int = 8, **env_kwargs: Any) -> None:
        aec_env = mystic_envs.make_raw(env_id, **env_kwargs)
        self.pool = OpponentPool(env_id, weights, pool_size, num_players=len(aec_env.possible_agents))
        super().__init__(env_id, aec_env, opponent=self.pool, seat=None)

    def add_snapshot(self, path: str) -> None:
        self.pool.add_snapshot(path)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.pool.reseed(int(np.random.SeedSequence([seed, 1]).generate_state(1)[0]))
        self.pool.start_episode()
        obs, info = super().reset(seed=seed, options=options)
        self.pool.label = self.pool.label_for(self.seat)
        return obs, {**info, "opponent": self.pool.label}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, truncated, {**info, "opponent": self.pool.label}

    def get_state(self) -> bytes:
        """This env mid-episode (game, generators, opponents) as bytes, for a checkpoint."""
        return pickle.dumps(self.__dict__, protocol=pickle.HIGHEST_PROTOCOL)

    def set_state(self, state: bytes) -> None:
        self.__dict__.update(pickle.loads(state))
