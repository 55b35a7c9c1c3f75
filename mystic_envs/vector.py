"""Batched games on the compiled core: N games of one env stepped by one call (docs/core.md).

>>> from mystic_envs import vector
>>> v = vector.make("elemystic_v0", num_envs=1024, seed=0)
>>> v.reset()
>>> for _ in range(1000):
...     v.step(v.sample_legal())        # or your policy's actions for v.observation, v.action_mask
...     v.rewards, v.terminated         # (N, P) and (N,), rewritten in place by every step

The arrays are rewritten in place by ``reset()`` and ``step()``: ``current_player`` (N,) int32,
``observation`` (N, obs_dim) float32 (the mover's view), ``action_mask`` (N, A) bool, ``rewards``
(N, P) float32 (each seat's reward at the last step), ``terminated`` and ``truncated`` (N,) bool.

- **Autoreset (Gymnasium's next-step mode).** A step that ends a game (``terminated`` or
  ``truncated``) writes ``current_player = -1``, an empty mask and the final view of the seat that
  moved last; the next ``step()`` starts that env's next game and ignores its action.
- **Exactness.** Env ``i``'s ``k``-th game is seeded ``seed + i + k*num_envs`` (modulo 2**64) and is
  exactly the game that ``mystic_envs.make(env_id, **kwargs)`` plays after ``reset(seed=...)`` with
  that seed, under the same actions: mover, observation (bit for bit), mask, each seat's reward and
  termination at every step (``tests/core/``).
- **Errors.** An action out of range is a ``ValueError`` and an illegal one an
  ``IllegalActionError``, both naming the env and the action; the batch is left unchanged.
- ``sample_legal()`` draws uniform legal actions in C from each env's own seeded stream (the same
  whatever ``num_threads``). ``observe(seat)`` is any seat's view. ``observe_privileged()`` adds
  every hidden card, for centralized critics in training only: never give it to an acting policy.
- ``step`` releases the GIL and ``num_threads`` splits the batch over POSIX threads.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.compiled import CoreGame, core_module
from mystic_envs.core.game import LayoutEntry, is_integer
from mystic_envs.core.rng import check_seed64, fresh_seed

__all__ = ["VectorEnv", "make"]

#: AEC keywords a batch does not take: it has no renderer and always raises on an illegal action.
_AEC_ONLY = ("render_mode", "illegal_action", "illegal_reward", "engine")


def make(
    env_id: str, num_envs: int = 1, seed: int | None = None, num_threads: int = 1, **env_kwargs: Any
) -> VectorEnv:
    """``num_envs`` games of ``env_id`` on the compiled core, with ``mystic_envs.make``'s keywords
    (the game's own and ``max_steps``). ``seed=None`` draws one from the operating system."""
    return VectorEnv(env_id, num_envs=num_envs, seed=seed, num_threads=num_threads, **env_kwargs)


def _count(name: str, value: Any, high: int | None = None) -> int:
    if not is_integer(value):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 1 or (high is not None and value > high):
        bound = f"1-{high}" if high is not None else ">= 1"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return int(value)


class VectorEnv:
    """A batch of games of one env on the compiled core (see the module docstring)."""

    def __init__(
        self, env_id: str, num_envs: int = 1, seed: int | None = None, num_threads: int = 1, **env_kwargs: Any
    ) -> None:
        for key in _AEC_ONLY:
            if key in env_kwargs:
                raise TypeError(
                    f"vector.make does not take {key!r}: it belongs to the AEC env (a batch has no "
                    "renderer, runs on the core and raises on an illegal action)"
                )
        self.num_envs = _count("num_envs", num_envs)
        self.num_threads = _count("num_threads", num_threads, 256)
        self.seed = fresh_seed() if seed is None else check_seed64(seed)
        self.env_id = env_id
        # The AEC env checks the keywords exactly as mystic_envs.make does, and gives the defaults.
        env = mystic_envs.env_module(env_id).raw_env(**env_kwargs)
        self.kwargs = dict(env_kwargs)
        self.max_steps: int = env.max_steps
        self.game = CoreGame(env.game)
        self.num_players: int = self.game.num_players
        self.num_actions: int = self.game.num_actions
        self.observation_layout: tuple[LayoutEntry, ...] = self.game.observation_layout()
        self.obs_size: int = self.game.observation_size
        self.privileged_size: int = self.game.dims["privileged_size"]
        n, p = self.num_envs, self.num_players
        self.current_player = np.full(n, -1, dtype=np.int32)
        self.observation = np.zeros((n, self.obs_size), dtype=np.float32)
        self.action_mask = np.zeros((n, self.num_actions), dtype=bool)
        self.rewards = np.zeros((n, p), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self._actions = np.zeros(n, dtype=np.int64)
        self._shape = (n,)
        self._batch = core_module().Batch(
            self.game.core_name,
            p,
            self.game.options,
            n,
            self.seed,
            self.max_steps,
            self.num_threads,
            self.current_player,
            self.observation,
            self.action_mask,
            self.rewards,
            self.terminated,
            self.truncated,
        )
        self._reset_done = False
        n_actions = functools.partial(np.empty, n, dtype=np.int64)
        self._batch.hooks(self._convert, self._bad_action, n_actions)
        # The two calls of every rollout step go straight to C: a Python frame around each would cost
        # as much as the step of a small batch (docs/core.md, "Speed"). The methods above stay the
        # documented interface and are what these names did before __init__.
        self.step = self._batch.step  # type: ignore[method-assign]
        self.sample_legal = self._batch.sample_legal  # type: ignore[method-assign]

    def __repr__(self) -> str:
        return (
            f"VectorEnv({self.env_id!r}, num_envs={self.num_envs}, seed={self.seed}, "
            f"num_threads={self.num_threads})"
        )

    def _require_reset(self) -> None:
        if not self._reset_done:
            raise RuntimeError("call reset() before using the batch")

    def reset(self, seed: int | None = None) -> None:
        """Start every env's first game: env ``i``'s ``k``-th game from now on is seeded
        ``seed + i + k*num_envs``, with ``seed`` the one given here or else the batch's."""
        if seed is not None:
            self.seed = check_seed64(seed)
        self._batch.reset(self.seed)
        self._reset_done = True

    def step(self, actions: Any) -> None:
        """Play each env's mover's action (ignored where the last step ended the game: that env
        starts its next game instead). ``actions``: integers of shape (N,), best an int64 array.

        After ``__init__`` this name is the core's own method: the checks below run in C, and only
        actions that are not already an int64 array come back to Python (``_convert``)."""
        self._require_reset()
        self._batch.step(actions)

    def _convert(self, actions: Any) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got dtype {a.dtype}")
        if a.dtype.kind == "u" and a.size and int(a.max()) > np.iinfo(np.int64).max:
            raise ValueError(f"actions must be 0-{self.num_actions - 1}, got {int(a.max())}")
        np.copyto(self._actions, a, casting="unsafe")
        return self._actions

    def step_active(self, actions: np.ndarray, active: np.ndarray) -> None:
        """``step`` for the envs where ``active`` (bool (N,)) is True only; the others keep their game
        and their rows of every array (a learner seat waiting while other envs play opponents)."""
        self._require_reset()
        a = np.ascontiguousarray(actions, dtype=np.int64)
        m = np.ascontiguousarray(active, dtype=bool)
        if a.shape != self._shape or m.shape != self._shape:
            raise ValueError(f"actions and active must have shape ({self.num_envs},)")
        bad = self._batch.step_active(a, m.view(np.uint8))
        if bad >= 0:
            raise self._bad_action(bad, int(a[bad]))

    def _bad_action(self, i: int, action: int) -> Exception:
        if not 0 <= action < self.num_actions:
            return ValueError(f"env {i}: action {action} is out of range 0-{self.num_actions - 1}")
        state = self.state(i)
        legal = state.legal_actions()
        shown = ", ".join(str(x) for x in legal[:12]) + (
            f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        )
        return mystic_envs.IllegalActionError(
            f"env {i}: action {action} ({self.game.action_meaning(action)}) is illegal for "
            f"player_{state.current_player} in phase {state.phase_name!r}; legal: {shown}"
        )

    def sample_legal(self, out: np.ndarray | None = None) -> np.ndarray:
        """One uniform legal action per env (0 where the last step ended the game), drawn in C from
        each env's own stream, seeded from ``seed`` and the env index. ``out``: an int64 array of
        shape (N,) to write them into instead of a new one. (After ``__init__``, the core's own
        method, like ``step``.)"""
        self._require_reset()
        return self._batch.sample_legal(out)

    def observe(self, seat: int) -> np.ndarray:
        """(N, obs_dim): seat ``seat``'s view of every env's game."""
        self._require_reset()
        if not is_integer(seat):
            raise TypeError(f"seat must be an int, got {seat!r}")
        out = np.empty((self.num_envs, self.obs_size), dtype=np.float32)
        self._batch.observe(int(seat), out)
        return out

    def observe_privileged(self) -> np.ndarray:
        """(N, privileged_dim): every seat's view, then every hidden card (``privileged_layout``).
        For centralized critics in training: never give it to a policy that acts."""
        self._require_reset()
        out = np.empty((self.num_envs, self.privileged_size), dtype=np.float32)
        self._batch.privileged(out)
        return out

    def privileged_layout(self) -> tuple[LayoutEntry, ...]:
        return self.game.privileged_layout()

    def state(self, i: int) -> Any:
        """A copy of env ``i``'s game as a compiled single-game state (its ``GameState`` methods
        work; ``describe`` does not, since a batch keeps no history to replay)."""
        from mystic_envs.core.compiled import CoreState

        self._require_reset()
        if not is_integer(i):
            raise TypeError(f"env index must be an int, got {i!r}")
        return CoreState(self.game, self._batch.state(int(i)), None)

    def games_started(self) -> np.ndarray:
        """(N,) int64: how many games each env has started since ``reset()`` (``k + 1`` for its
        ``k``-th game)."""
        self._require_reset()
        out = np.empty(self.num_envs, dtype=np.int64)
        self._batch.game_counts(out)
        return out

    def env_status(self, i: int) -> tuple[int, int, int, bool]:
        """Env ``i``'s ``(k, seed of its current game, actions played in it, ended at the last step)``."""
        self._require_reset()
        return self._batch.env_status(int(i))

    def memory_per_game(self) -> dict[str, int]:
        """Bytes per game: what the core holds (state, mask, counters) and the arrays it writes."""
        driver, arrays = self._batch.memory()
        return {"core": driver, "arrays": arrays, "total": driver + arrays}

    def action_meaning(self, action: int) -> str:
        return self.game.action_meaning(action)
