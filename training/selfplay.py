"""The training env of ``training.train``: one learning seat against a pool of opponents.

Every episode, :class:`OpponentPool` draws who plays the other seats: ``"self"`` (a frozen snapshot
of the learner, chosen uniformly among the latest ``pool_size`` ones, sampling its masked policy)
or an agent name such as ``"heuristic"`` or ``"random"``, with the configured weights. The learner's
seat is drawn anew every episode too (``SingleAgentEnv`` with ``seat=None``), so it learns both
seats. Each env holds its own generator, seeded from ``reset(seed=...)``, so a vector of these envs
is reproducible; ``get_state``/``set_state`` carry an env mid-episode across a checkpoint.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from mystic_envs.core.single_agent import SingleAgentEnv

__all__ = ["MARGIN_SCALES", "SELF", "OpponentPool", "SelfPlayEnv", "check_margin"]

SELF = "self"
# Per game, about one standard deviation of the final score margin between two heuristics
# (``final_scores`` of the env's infos; measured over 200 Elemystic, 100 Mystria and 60 Tarot Dice
# heuristic-vs-heuristic games: 5.0, 10.2 and 27.3 points), so ``tanh(margin / scale)`` spreads
# typical games over most of (-1, 1).
MARGIN_SCALES: dict[str, float] = {"elemystic_v0": 5.0, "mystria_v0": 10.0, "tarot_dice_v0": 25.0}


def check_shaping(env_id: str, shaping: Any) -> float:
    """``shaping`` as a float if it is a finite number >= 0 and ``env_id``'s heuristic values positions."""
    from agents.heuristic import POTENTIALS

    if isinstance(shaping, bool) or not isinstance(shaping, (int, float)) or not 0 <= shaping < float("inf"):
        raise ValueError(f"shaping must be a finite number >= 0, got {shaping!r}")
    if shaping and env_id not in POTENTIALS:
        raise ValueError(
            f"shaping: {env_id}'s heuristic does not value positions (only {sorted(POTENTIALS)})"
        )
    return float(shaping)


def check_margin(env_id: str, margin: Any) -> None:
    """ValueError unless ``margin`` is a number in [0, 1) and, if positive, ``env_id`` has a scale."""
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin < 1:
        raise ValueError(f"margin must be a number in [0, 1), got {margin!r}")
    if margin and env_id not in MARGIN_SCALES:
        raise ValueError(f"margin: no score scale for {env_id!r}; known: {sorted(MARGIN_SCALES)}")


class OpponentPool:
    """Chooses and plays the opponent of each episode (see the module docstring)."""

    def __init__(self, env_id: str, weights: dict[str, float], pool_size: int = 8, seed: int | None = None):
        if not weights or min(weights.values()) < 0 or sum(weights.values()) <= 0:
            raise ValueError(f"opponent weights must be non-negative with a positive sum, got {weights!r}")
        self.env_id = env_id
        self.names = list(weights)
        total = sum(weights.values())
        self.probabilities = np.array([weights[n] / total for n in self.names])
        self.pool_size = pool_size
        self.snapshots: list[str] = []
        self.rng = np.random.default_rng(seed)
        self._agents: dict[str, Any] = {}
        self.current: Any = None
        self.label = ""

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
                self._agents[key] = make_agent(key, self.env_id)
        return self._agents[key]

    def start_episode(self) -> str:
        """Draw the opponent of the next episode; returns its label (``self`` or the agent name)."""
        name = self.names[int(self.rng.choice(len(self.names), p=self.probabilities))]
        if name == SELF:
            if not self.snapshots:
                raise RuntimeError("the opponent pool has no snapshot of the learner yet; add_snapshot first")
            key = "snapshot:" + self.snapshots[int(self.rng.integers(len(self.snapshots)))]
        else:
            key = name
        self.current = self._agent(key)
        reseed = getattr(self.current, "seed", None)
        if callable(reseed):
            reseed(int(self.rng.integers(2**63)))
        self.label = name
        return name

    def act(self, env: Any, agent_id: str) -> int:
        return self.current.act(env, agent_id)


class SelfPlayEnv(SingleAgentEnv):
    """``SingleAgentEnv`` whose opponent is an :class:`OpponentPool`; infos carry ``opponent``.

    With ``advice=True`` every observation is followed by the learner's heuristic advice
    (``agents.advice.Adviser``: a one-hot of the heuristic's choice for the learner's seat), the
    input of an ``AdvisedPolicy``; ``advice_softness`` > 0 makes it soft advice (``Adviser``).

    With ``margin=w > 0`` the learner's final reward also gets ``w * tanh(d / MARGIN_SCALES[env])``,
    ``d`` its final score less the best other seat's: a win by a street and a win by a hair are
    told apart, so a departure that gains points is seen long before it turns a loss into a win.
    With ``w < 1`` the sign of the reward is still the game's result. The env's own rewards and
    the evaluations are untouched.

    With ``shaping=k > 0`` every learner step also gets ``gamma * phi(s') - phi(s)``, ``phi`` k times
    the heuristic's own value of the learner's position (``agents.heuristic.POTENTIALS``; carried
    forward where it has none, 0 once the game is over). Being potential-based it changes no
    policy's ranking, and it turns each action's dice luck into an immediate reward instead of
    noise in a far-off result. ``gamma`` must be the learner's discount.
    """

    def __init__(
        self,
        env_id: str,
        weights: dict[str, float],
        pool_size: int = 8,
        advice: bool = False,
        margin: float = 0.0,
        advice_softness: float = 0.0,
        shaping: float = 0.0,
        gamma: float = 0.99,
        **env_kwargs: Any,
    ) -> None:
        check_margin(env_id, margin)
        self.pool = OpponentPool(env_id, weights, pool_size)
        super().__init__(env_id, mystic_envs.make_raw(env_id, **env_kwargs), opponent=self.pool, seat=None)
        self.margin = float(margin)
        self.potential = None
        self.shaping = check_shaping(env_id, shaping)
        if self.shaping:
            from agents.heuristic import POTENTIALS

            self.potential = POTENTIALS[env_id]
        self.gamma = float(gamma)
        self._phi = 0.0
        self.margin_scale = MARGIN_SCALES.get(env_id, 1.0)
        self.adviser = None
        if advice:
            from gymnasium import spaces

            from agents.advice import Adviser

            # Seeded now and again at every seeded reset, so a vector of these envs is reproducible.
            self.adviser = Adviser(env_id, seed=0, softness=advice_softness)
            size = self.observation_space.shape[0] + self.adviser.size
            self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)

    def _learner_obs(self) -> np.ndarray:
        if self.adviser is None:
            return super()._learner_obs()
        return self.adviser.observe(self.aec_env, self.learner)

    def add_snapshot(self, path: str) -> None:
        self.pool.add_snapshot(path)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self.pool.reseed(int(np.random.SeedSequence([seed, 1]).generate_state(1)[0]))
            if self.adviser is not None:
                self.adviser.seed(int(np.random.SeedSequence([seed, 2]).generate_state(1)[0]))
        self.pool.start_episode()
        obs, info = super().reset(seed=seed, options=options)
        self._phi = 0.0
        if self.potential is not None:
            self._phi = self._potential(0.0)
        return obs, {**info, "opponent": self.pool.label}

    def _potential(self, last: float) -> float:
        """The heuristic's value of the learner's position now, or ``last`` where it has none
        (outside the action phase): carried forward, the shaping still telescopes."""
        value = self.potential(self.aec_env.unwrapped.game_state, self.seat)
        return last if value is None else self.shaping * float(value)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = super().step(action)
        if terminated or truncated:
            info = {**info, "result": reward}  # before margin and shaping: train_win_rate's sign
        scores = info.get("final_scores")
        if self.margin and terminated and scores is not None:
            own = scores[self.seat]
            best_other = max(v for i, v in enumerate(scores) if i != self.seat)
            reward += self.margin * float(np.tanh((own - best_other) / self.margin_scale))
        if self.potential is not None:
            # Potential-based shaping (Ng, Harada & Russell 1999): gamma * phi(s') - phi(s), with
            # phi 0 once the game is over, leaves the best policy unchanged and takes the dice's
            # swings out of each step's return.
            # On truncation SB3 bootstraps from V(s'), so phi(s') stays what it is.
            phi = 0.0 if terminated else self._potential(self._phi)
            reward += self.gamma * phi - self._phi
            self._phi = phi
        return obs, reward, terminated, truncated, {**info, "opponent": self.pool.label}

    def get_state(self) -> bytes:
        """This env mid-episode (game, generators, opponents) as bytes, for a checkpoint."""
        return pickle.dumps(self.__dict__, protocol=pickle.HIGHEST_PROTOCOL)

    def set_state(self, state: bytes) -> None:
        self.__dict__.update(pickle.loads(state))
