"""Games on the compiled core, one at a time: ``mystic_envs.make(env_id, engine="c")`` and search.

Each game's room holds a compiled twin of its engine (``mystic_envs/<game>/<game>.c``) and the
twin's Python side (``twin.py``: its name, its options as integers and the component tables it
receives at start, so that the data stay declared once, in Python). :class:`CoreGame` wraps the
Python ``Game`` (which still validates the keywords and names the actions) and makes
:class:`CoreState` games: a ``GameState`` whose every method runs in C and equals the Python
engine's (``tests/core/``).

What only the Python engine can do (``describe``, ``check_invariants``) runs on its *mirror*: the
Python state reached by replaying this game's seed, actions and re-deals, which are equal by the
exactness guarantee. It costs a replay, so it is for people and tests, not for search loops.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

import numpy as np

from mystic_envs.core.errors import GameOverError, IllegalActionError
from mystic_envs.core.game import Game, GameState, InfoField, LayoutEntry, check_rng, check_seed, is_integer
from mystic_envs.core.rng import check_seed64, fresh_seed

HOW_TO_BUILD = (
    "the compiled core (mystic_envs.core._core) is not built: install gcc and the Python headers, "
    "then `pip install -e .` (or `make core` in a checkout)"
)


class CoreUnavailableError(ImportError):
    """The compiled core is not built, or this build lacks the twin of a game."""


def core_module() -> ModuleType:
    """The extension module, or :class:`CoreUnavailableError` saying how to build it.

    ``MYSTIC_CORE_LIB=path/to/_core.so`` loads another build of it in place of the installed one
    (``make sanitize`` runs the tests on a build with the sanitizers this way)."""
    if "mystic_envs.core._core" not in sys.modules and os.environ.get("MYSTIC_CORE_LIB"):
        path = os.environ["MYSTIC_CORE_LIB"]
        spec = importlib.util.spec_from_file_location("mystic_envs.core._core", path)
        if spec is None or spec.loader is None or not os.path.exists(path):
            raise CoreUnavailableError(f"MYSTIC_CORE_LIB={path} is not a build of the core")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["mystic_envs.core._core"] = module
    try:
        from mystic_envs.core import _core
    except ImportError:
        raise CoreUnavailableError(HOW_TO_BUILD) from None
    return _core


def is_available() -> bool:
    """Whether the compiled core is built and importable."""
    try:
        core_module()
    except CoreUnavailableError:
        return False
    return True


_LOADED: set[str] = set()


def twin_module(game_class: type[Game]) -> ModuleType:
    """The ``twin`` module of the room that holds ``game_class``."""
    room = game_class.__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{room}.twin")
    except ModuleNotFoundError:
        raise CoreUnavailableError(f"{game_class.__name__} has no compiled twin yet") from None


def load_twin(game: Game) -> tuple[ModuleType, str, tuple[int, ...]]:
    """The twin of ``game``'s class, its core name and ``game``'s options; the twin's tables are
    handed to the core the first time."""
    core = core_module()
    twin = twin_module(type(game))
    name = twin.CORE_NAME
    if name not in core.games():
        raise CoreUnavailableError(
            f"this build of the core has no {name} twin; rebuild it (`pip install -e .` or `make core`)"
        )
    if name not in _LOADED:
        core.load_tables(name, twin.core_tables())
        _LOADED.add(name)
    return twin, name, tuple(twin.core_options(game))


#: A game's replay log: None, or (the log before, one entry).
Log = tuple[Any, tuple[Any, ...]] | None


class _FixedSeed(np.random.Generator):
    """A numpy Generator whose draws all give one seed: how the mirror replays a re-deal, since
    both engines turn the caller's generator into the core generator with one draw."""

    def __init__(self, seed: int) -> None:
        super().__init__(np.random.PCG64(0))
        self._seed = seed

    def integers(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self._seed


class CoreGame(Game):
    """A Python ``Game`` whose states run on its compiled twin. Everything that is configuration
    (keywords, layouts, action names, info fields) comes from the Python game it wraps."""

    def __init__(self, base: Game) -> None:
        if isinstance(base, CoreGame):
            base = base.base
        self.base = base
        self.twin, self.core_name, self.options = load_twin(base)
        self.num_players = base.num_players
        self.num_actions = base.num_actions
        self.PLAYER_COUNTS = base.PLAYER_COUNTS
        self.PHASE_NAMES = base.PHASE_NAMES
        self.dims: dict[str, int] = core_module().dims(self.core_name, self.num_players, self.options)
        self._info_fields = base.info_fields()

    def __repr__(self) -> str:
        return f"CoreGame({self.base!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (CoreGame, (self.base,))

    def new_initial_state(self, seed: int | None = None) -> CoreState:
        seed = check_seed(seed)
        seed = fresh_seed() if seed is None else seed
        raw = core_module().State(self.core_name, self.num_players, self.options, seed)
        return CoreState(self, raw, (None, ("seed", seed)))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        return self.base.observation_layout()

    def privileged_layout(self) -> tuple[LayoutEntry, ...]:
        """The parts of :meth:`CoreState.privileged_observation` (every seat's view, then every hidden
        card): for centralized critics, never for an acting policy."""
        return self.twin.privileged_layout(self.base)

    def action_meaning(self, action: int) -> str:
        return self.base.action_meaning(action)

    def public_action_meaning(self, action: int) -> str:
        return self.base.public_action_meaning(action)

    def info_fields(self) -> tuple[InfoField, ...]:
        return self._info_fields

    def __getattr__(self, name: str) -> Any:
        # Game-specific configuration (a variant, a round limit) reads through to the Python game.
        if name == "base":
            raise AttributeError(name)
        return getattr(self.base, name)


def info_dict(game: CoreGame, values: np.ndarray) -> dict[str, Any]:
    """A twin's flat info vector as ``GameState.info()`` gives it: phase, scores, then the game's
    fields in order (a per-seat field spans ``num_players`` values)."""
    n = game.num_players
    out: dict[str, Any] = {"phase": int(values[0]), "scores": values[1 : 1 + n].astype(np.float32)}
    k = 1 + n
    for f in game.info_fields():
        size = int(np.prod(f.shape)) if f.shape else 1
        chunk = values[k : k + size]
        k += size
        dtype = np.dtype(f.dtype)
        out[f.name] = chunk.astype(dtype).reshape(f.shape) if f.shape else dtype.type(chunk[0]).item()
    return out


class CoreState(GameState):
    """One game on the compiled twin, with the ``GameState`` methods (and ``rollout`` for search)."""

    def __init__(
        self, game: CoreGame, raw: Any, log: Log, mirrored: tuple[Log, GameState] | None = None
    ) -> None:
        self.game = game
        self._raw = raw
        # How to replay this game on the Python engine (the mirror): its seed, then each action and
        # re-deal, as a chain of (earlier, entry) pairs that clones share and an action extends in
        # constant time.
        self._log = log
        # The last mirror made along this chain, with the link it stands for: the next mirror replays
        # only the entries after it (a conformance run asks for one after every step).
        self._mirrored = mirrored

    # -- pickling: the game and the replay log, replayed on the twin with every step checked (bytes
    # from a pickle are never trusted as a state: forged ones could send a twin out of bounds) --------
    def __reduce__(self) -> tuple[Any, ...]:
        if self._log is None:
            raise TypeError(
                "a state copied out of a batch keeps no history to pickle; pickle a game made by "
                "new_initial_state or make(engine='c') instead"
            )
        return (_replay, (self.game, _unchain(self._log)))

    @property
    def current_player(self) -> int:
        return self._raw.current_player()

    @property
    def is_terminal(self) -> bool:
        return self._raw.current_player() < 0

    @property
    def phase(self) -> int:  # type: ignore[override]
        return int(self._info_values()[0])

    @property
    def phase_name(self) -> str:
        return self.game.PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[int]:
        return self._raw.legal_actions()

    def legal_mask(self) -> np.ndarray:
        mask = np.empty(self.game.num_actions, dtype=bool)
        self._raw.legal_mask(mask)
        return mask

    def is_legal(self, action: int) -> bool:
        return self._raw.is_legal(action)

    def apply(self, action: int) -> None:
        if type(action) is not int and not is_integer(action):
            raise TypeError(f"action must be an integer, got {action!r} of type {type(action).__name__}")
        if not self._raw.apply(action):
            if self.is_terminal:
                raise GameOverError(f"the game is over; action {action} cannot be applied")
            raise IllegalActionError(self.illegal_message(action))
        self._log = (self._log, ("apply", int(action)))

    def _apply(self, action: int) -> None:
        self.apply(action)

    def returns(self) -> np.ndarray:
        out = np.empty(self.game.num_players, dtype=np.float64)
        self._raw.returns(out)
        return out

    def player_done(self, player: int) -> bool:
        return self._raw.player_done(self.check_seat(player))

    def clone(self) -> CoreState:
        return CoreState(self.game, self._raw.clone(), self._log, self._mirrored)

    def observation(self, player: int) -> np.ndarray:
        out = np.empty(self.game.observation_size, dtype=np.float32)
        self._raw.observe(self.check_seat(player), out)
        return out

    def privileged_observation(self) -> np.ndarray:
        """Every seat's observation, then every hidden card (``game.privileged_layout()``): for
        centralized critics in training, never for an acting policy."""
        out = np.empty(self.game.dims["privileged_size"], dtype=np.float32)
        self._raw.privileged(out)
        return out

    def determinize(self, player: int, rng: np.random.Generator) -> CoreState:
        player = self.check_seat(player)
        seed = int(check_rng(rng).integers(2**63))
        return CoreState(
            self.game,
            self._raw.determinize(player, seed),
            (self._log, ("redeal", player, seed)),
            self._mirrored,
        )

    def rollout(self, seed: int, max_moves: int = 1 << 40) -> int:
        """Play uniform random legal moves in C until the game ends (or ``max_moves``), drawing from
        a generator seeded ``seed``; returns the moves played. ``returns()`` then scores it."""
        return self._raw.rollout(check_seed64(seed), max_moves)

    def search(
        self,
        seat: int,
        simulations: int,
        c: float,
        seed: int,
        rollout_depth: int | None = None,
        time_budget: float | None = None,
    ) -> tuple[np.ndarray, int]:
        """``agents.mcts``'s information-set MCTS for ``seat``, run in C from this (true) state,
        which it reads only through ``determinize(seat, ...)``: each root action's visit count
        (int64, ``num_actions`` long) and the iterations run. ``MCTSAgent(engine="c")`` calls it;
        every argument is checked in C (one-line ``ValueError``)."""
        visits = np.zeros(self.game.num_actions, dtype=np.int64)
        depth = -1 if rollout_depth is None else rollout_depth
        budget = -1.0 if time_budget is None else time_budget
        seat = self.check_seat(seat)
        done = self._raw.search(seat, simulations, c, depth, budget, check_seed64(seed), visits)
        return visits, done

    def _info_values(self) -> np.ndarray:
        out = np.empty(self.game.dims["info_size"], dtype=np.float64)
        self._raw.info(out)
        return out

    def info(self) -> dict[str, Any]:
        return info_dict(self.game, self._info_values())

    def scores(self) -> list[float]:
        return [float(v) for v in self.info()["scores"]]

    # -- what runs on the Python mirror ----------------------------------------------------------------
    def mirror(self) -> GameState:
        """The Python engine's state for this game, by replaying its log (see the module docstring)."""
        if self._log is None:
            raise RuntimeError(
                "this state was copied out of a batch, which keeps no history to replay: describe() and "
                "check_invariants() need a game made by new_initial_state or make(engine='c')"
            )
        state: GameState | None = None
        since: list[tuple[Any, ...]] = []
        link = self._log
        while link is not None:
            if self._mirrored is not None and link is self._mirrored[0]:
                state = self._mirrored[1].clone()
                break
            link, entry = link
            since.append(entry)
        for entry in reversed(since):
            if entry[0] == "seed":
                state = self.game.base.new_initial_state(entry[1])
            elif entry[0] == "apply":
                state.apply(entry[1])  # type: ignore[union-attr]
            else:
                state = state.determinize(entry[1], _FixedSeed(entry[2]))  # type: ignore[union-attr]
        assert state is not None
        self._mirrored = (self._log, state.clone())
        return state

    def describe(self, viewer: int | None = None) -> str:
        return self.mirror().describe(viewer)

    def check_invariants(self) -> None:
        mirror = self.mirror()
        mirror.check_invariants()
        for p in range(self.game.num_players):
            assert np.array_equal(mirror.observation(p), self.observation(p)), f"seat {p}'s view differs"


def _unchain(log: Log) -> list[tuple[Any, ...]]:
    entries = []
    while log is not None:
        log, entry = log
        entries.append(entry)
    return entries[::-1]


def _replay(game: CoreGame, entries: list[tuple[Any, ...]]) -> CoreState:
    if not entries or entries[0][0] != "seed":
        raise ValueError("a compiled state's history starts with its seed")
    state = game.new_initial_state(entries[0][1])
    for entry in entries[1:]:
        if entry[0] == "apply":
            state.apply(entry[1])
        elif entry[0] == "redeal":
            seat, seed = state.check_seat(entry[1]), check_seed64(entry[2])
            state = CoreState(game, state._raw.determinize(seat, seed), (state._log, ("redeal", seat, seed)))
        else:
            raise ValueError(f"unknown entry {entry[0]!r} in a compiled state's history")
    return state
