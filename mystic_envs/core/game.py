"""The interface every rules engine implements (CONVENTIONS section 2).

A game module defines a ``Game`` (immutable configuration, validates its options) and a
``State`` that holds everything, including its own ``numpy.random.Generator``. Nothing here
imports PettingZoo: the adapter in :mod:`mystic_envs.core.aec` wraps any ``GameState``.
"""

from __future__ import annotations

import abc
import numbers
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mystic_envs.core.errors import GameOverError, IllegalActionError

#: The bounds of a layout part: one ``(low, high)`` pair for all its values, or one pair per value.
Bounds = tuple[float, float] | tuple[tuple[float, float], ...]


class LayoutEntry(NamedTuple):
    """One named part of an observation vector: ``(name, slice, meaning, bounds)`` (CONVENTIONS).
    ``bounds`` is what the rules let its values reach (None only in a privileged view's hidden
    parts, which no space describes)."""

    name: str
    slice: slice
    meaning: str
    bounds: Bounds | None = None

    @property
    def start(self) -> int:
        return self.slice.start

    @property
    def stop(self) -> int:
        return self.slice.stop

    @property
    def size(self) -> int:
        return self.slice.stop - self.slice.start


class InfoField(NamedTuple):
    """One key of an env's ``infos[agent]`` (CONVENTIONS section 3): present on every step from
    ``reset()`` on, always numeric. ``shape`` is ``()`` for a number, ``(n,)`` for a per-seat array;
    ``names`` is the table an integer code indexes, if it is a code."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    meaning: str
    names: tuple[str, ...] | None = None


#: The bounds of a part whose values are flags, one-hots, or shares of a quantity's rule-given maximum.
UNIT: tuple[float, float] = (0.0, 1.0)


def _check_bounds(name: str, size: int, bounds: Any) -> Bounds:
    """``bounds`` as a tuple, or ValueError unless it is a (low, high) pair of finite numbers with
    low <= high, or ``size`` such pairs."""
    single = len(bounds) == 2 and all(isinstance(b, numbers.Real) for b in bounds)
    pairs = ((bounds[0], bounds[1]),) if single else tuple((lo, hi) for lo, hi in bounds)
    if len(pairs) not in (1, size):
        raise ValueError(f"layout part {name!r} of size {size} has {len(pairs)} (low, high) pairs")
    for low, high in pairs:
        if not (np.isfinite(low) and np.isfinite(high) and low <= high):
            raise ValueError(f"layout part {name!r} has bounds ({low}, {high}): finite low <= high expected")
    out = tuple((float(lo), float(hi)) for lo, hi in pairs)
    return out[0] if single else out


def build_layout(parts: list[tuple]) -> tuple[LayoutEntry, ...]:
    """Turn ``(name, size, meaning, bounds)`` rows into contiguous :class:`LayoutEntry` rows;
    ``bounds`` is a ``(low, high)`` pair for the whole part or a pair per value (a privileged
    view's hidden parts may leave it out: ``(name, size, meaning)``)."""
    entries = []
    start = 0
    for name, size, meaning, *rest in parts:
        if size <= 0:
            raise ValueError(f"layout part {name!r} has size {size}")
        bounds = _check_bounds(name, size, rest[0]) if rest else None
        entries.append(LayoutEntry(name, slice(start, start + size), meaning, bounds))
        start += size
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate layout names in {names}")
    return tuple(entries)


def observation_bounds(layout: tuple[LayoutEntry, ...]) -> tuple[np.ndarray, np.ndarray]:
    """float32 ``(low, high)`` vectors of an observation laid out by ``layout``: the one source
    of every observation space (the AEC env's, its ``state_space``, the single-agent and training
    wrappers'). ValueError if a part declares no bounds."""
    size = layout[-1].stop
    low = np.empty(size, dtype=np.float32)
    high = np.empty(size, dtype=np.float32)
    for entry in layout:
        if entry.bounds is None:
            raise ValueError(f"layout part {entry.name!r} declares no bounds")
        pairs = np.array(entry.bounds, dtype=np.float64).reshape(-1, 2)
        low[entry.slice] = pairs[:, 0]
        high[entry.slice] = pairs[:, 1]
    return low, high


def observation_box(layout: tuple[LayoutEntry, ...], copies: int = 1) -> Any:
    """The ``gymnasium.spaces.Box`` of an observation laid out by ``layout`` (``copies`` of it side
    by side: every seat's, for ``state_space``)."""
    from gymnasium import spaces  # the engines themselves do not need gymnasium

    low, high = observation_bounds(layout)
    return spaces.Box(np.tile(low, copies), np.tile(high, copies), dtype=np.float32)


def privileged_view_layout(
    num_players: int, obs_size: int, hidden: list[tuple[str, int, str]]
) -> tuple[LayoutEntry, ...]:
    """The layout of a compiled twin's privileged view: every seat's observation in seat order
    (``observation_<p>``), then the ``hidden`` parts (``(name, size, meaning)``)."""
    seats = [(f"observation_{p}", obs_size, f"player_{p}'s observation") for p in range(num_players)]
    return build_layout([*seats, *hidden])


def zero_sum_returns(placement: list[int] | tuple[int, ...]) -> np.ndarray:
    """Rewards from final placements (0 = best; equal numbers are ties).

    Each player gets (players it beat - players it lost to) / (n - 1): +1/-1/0 with two players,
    and the rewards of any game sum to zero.
    """
    n = len(placement)
    out = np.zeros(n, dtype=np.float64)
    for i in range(n):
        beat = sum(1 for j in range(n) if placement[j] > placement[i])
        lost = sum(1 for j in range(n) if placement[j] < placement[i])
        out[i] = (beat - lost) / (n - 1)
    return out


def is_integer(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer; ``bool`` is not one here, since True would
    quietly mean 1. A plain ``int`` skips the slower ABC test: engines check on their hot paths."""
    return type(value) is int or (
        not isinstance(value, bool | np.bool_) and isinstance(value, numbers.Integral)
    )


def check_seed(seed: Any, name: str = "seed") -> int | None:
    """``seed`` as an ``int`` in [0, 2**64), or None: ``TypeError`` unless None or an integer,
    ``ValueError`` outside (the core generator takes 64-bit seeds; mystic_envs.core.rng)."""
    if seed is None:
        return None
    if not is_integer(seed):
        kind = type(seed).__name__
        raise TypeError(f"{name} must be None or an integer 0 <= {name} < 2**64, got {seed!r} of type {kind}")
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"{name} must be None or an integer 0 <= {name} < 2**64, got {seed!r}")
    return int(seed)


def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """``rng`` if it is a ``numpy.random.Generator``; ``TypeError`` otherwise (``None`` or a seed
    would fail deep inside a re-deal, a ``random.Random`` would draw differently)."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"{name} must be a numpy.random.Generator (numpy.random.default_rng(seed)), got {rng!r}"
        )
    return rng


class Game(abc.ABC):
    """Immutable configuration of one game; creates states."""

    #: Allowed player counts, declared by each game.
    PLAYER_COUNTS: ClassVar[tuple[int, ...]] = (2,)
    #: Names of the values of ``GameState.phase``, in order (the ``phase`` info is an index into it).
    PHASE_NAMES: ClassVar[tuple[str, ...]]

    @classmethod
    def player_count(cls, num_players: Any, title: str) -> int:
        """``num_players`` checked against ``PLAYER_COUNTS`` (``title`` names the game in the error)."""
        if not is_integer(num_players):
            raise TypeError(f"num_players must be an int, got {num_players!r}")
        counts = cls.PLAYER_COUNTS
        if num_players not in counts:
            allowed = f"exactly {counts[0]}" if len(counts) == 1 else f"{min(counts)}-{max(counts)}"
            raise ValueError(f"{title} is a game for {allowed} players, got num_players={num_players}")
        return int(num_players)

    num_players: int
    num_actions: int

    @abc.abstractmethod
    def new_initial_state(self, seed: int | None = None) -> GameState:
        """A new game whose chance events all come from ``numpy.random.default_rng(seed)``."""

    @abc.abstractmethod
    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        """The named parts of ``State.observation(player)``."""

    @abc.abstractmethod
    def action_meaning(self, action: int) -> str:
        """A short human name for ``action``."""

    def public_action_meaning(self, action: int) -> str:
        """What the other players learn when ``action`` is played: all of it, unless the game has
        secret actions (Mystria's keeping of an Objective tile) and overrides this."""
        return self.action_meaning(action)

    @property
    def observation_size(self) -> int:
        return self.observation_layout()[-1].stop

    def info_fields(self) -> tuple[InfoField, ...]:
        """The game's own info keys, after the common ones (``GameState.info`` fills them)."""
        return ()


class GameState(abc.ABC):
    """Everything about one game in progress. Method names are fixed by CONVENTIONS."""

    game: Game
    #: Index into ``game.PHASE_NAMES``.
    phase: int

    @property
    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to act, or -1 once the game is over."""

    @property
    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @property
    @abc.abstractmethod
    def phase_name(self) -> str:
        """Name of the current phase or sub-decision, for errors, infos and renders."""

    @abc.abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions of the current player, ascending."""

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=bool)
        mask[self.legal_actions()] = True
        return mask

    def is_legal(self, action: int) -> bool:
        return action in self.legal_actions()

    def apply(self, action: int) -> None:
        """Check legality, then play ``action`` for the current player."""
        if self.is_terminal:
            raise GameOverError(f"the game is over; action {action} cannot be applied")
        if type(action) is not int and not is_integer(action):  # the common case without a call
            raise TypeError(f"action must be an integer, got {action!r} of type {type(action).__name__}")
        if not self.is_legal(action):
            raise IllegalActionError(self.illegal_message(action))
        self._apply(action)

    def illegal_message(self, action: int) -> str:
        """Why ``action`` is illegal, with the legal actions (for the player to move only: they can
        name its hidden cards or Objective tiles)."""
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self.game.action_meaning(a)})" for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        return (
            f"illegal action {action} ({self.game.action_meaning(action)}) for player_"
            f"{self.current_player} in phase {self.phase_name!r}; legal: {shown}{more}"
        )

    @abc.abstractmethod
    def _apply(self, action: int) -> None:
        """Play a legal action (legality already checked)."""

    @abc.abstractmethod
    def returns(self) -> np.ndarray:
        """Zero-sum rewards per seat: final once the game is over; while it runs, zeros for the
        seats still playing and the fixed reward of any seat already out (``player_done``)."""

    def player_done(self, player: int) -> bool:
        """True once ``player`` has left the game (eliminated, or the game is over)."""
        return self.is_terminal

    @abc.abstractmethod
    def clone(self) -> GameState: ...

    def check_seat(self, player: Any, name: str = "player") -> int:
        """``player`` as a seat of this game: ``TypeError`` unless an integer, ``ValueError`` if
        no such seat (a bad seat must not index into another seat's arrays)."""
        n = self.game.num_players
        if type(player) is not int and not is_integer(player):  # the common case without a call
            raise TypeError(f"{name} must be a seat index (0 to {n - 1}), got {player!r}")
        if not 0 <= player < n:
            raise ValueError(f"{name} must be a seat index (0 to {n - 1}), got {player!r}")
        return int(player)

    @abc.abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """float32 vector of what ``player`` may see, laid out by ``game.observation_layout()``."""

    @abc.abstractmethod
    def determinize(self, player: int, rng: np.random.Generator) -> GameState:
        """A copy where everything ``player`` cannot see is re-dealt consistently, and the
        future chance stream is re-seeded from ``rng``."""

    @abc.abstractmethod
    def describe(self, viewer: int | None = None) -> str:
        """Text render of the table. ``viewer=None``: the public table, as every player sees it
        (hidden cards masked). ``viewer=p``: the same table plus what seat ``p`` alone may see (its
        own hidden cards, anything revealed to it), and never what is hidden from ``p``; an agent
        that shows a human player the table uses this. A seat out of range raises ``ValueError``,
        a non-integer ``TypeError``."""

    def scores(self) -> list[float]:
        """Per-seat scores shown in ``infos`` (for example energy or victory points)."""
        return [0.0] * self.game.num_players

    def winners(self) -> list[int]:
        """Seats that won, once the game is over."""
        r = self.returns()
        return [i for i in range(len(r)) if r[i] == r.max()] if self.is_terminal else []

    @abc.abstractmethod
    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if the state breaks a conservation rule."""

    def info(self) -> dict[str, Any]:
        """The engine's part of every info: the phase code, the scores and ``info_extras()``."""
        return {
            "phase": self.phase,
            "scores": np.array(self.scores(), dtype=np.float32),
            **self.info_extras(),
        }

    def info_extras(self) -> dict[str, Any]:
        """Values of ``game.info_fields()``, numeric, the same keys in every state."""
        return {}
