"""Every mystic-envs game as an OpenSpiel (``pyspiel``) Python game.

Importing this module registers one game per env id in :data:`mystic_envs.ENV_IDS`, named
``python_mystic_<game>`` (:data:`SHORT_NAMES`), the way OpenSpiel's own Python games register when
``open_spiel.python.games`` is imported. ``import mystic_envs`` never imports this module (nor
``pyspiel``); install the client with ``pip install "mystic-envs[clients]"``.

>>> import pyspiel
>>> import mystic_envs.openspiel  # registers python_mystic_elemystic, python_mystic_mystria, ...
>>> game = pyspiel.load_game("python_mystic_elemystic", {"rng_seed": 3})
>>> state = game.new_initial_state()
>>> while not state.is_terminal():
...     state.apply_action(state.legal_actions()[0])
>>> state.returns()  # doctest: +SKIP
[1.0, -1.0]

How the engine maps (``docs/openspiel.md`` has the full table):

- ``GameType``: sequential, ``SAMPLED_STOCHASTIC`` chance (the engine draws shuffles and dice
  inside ``apply()`` from the state's own generator (``mystic_envs.core.rng``), so there are no chance
  nodes), imperfect information, zero-sum, terminal rewards.
- Parameters: ``rng_seed`` (OpenSpiel's name for the seed of sampled-chance games; default 0,
  ``-1`` draws one from the OS), ``max_steps`` (``-1``: the env's default), and every keyword the
  game's rules take with its default (``num_players`` for all; ``variant`` for Mystria;
  ``num_rounds``, ``round_turn_limit`` for Tarot Dice).
- Seeding: the game holds one seed stream from ``rng_seed``; each state draws its deal from it when
  the state is first used, as an env's resets draw theirs, so the game's first deal is
  ``env.reset(seed=rng_seed)``'s. Two games loaded with the same ``rng_seed`` deal the same
  sequence, and a clone continues its original's chance stream exactly. ``clone()`` draws nothing (OpenSpiel
  clones a Python state through a scratch ``new_initial_state()``, which stays unused); the only
  other draws are the scratch states OpenSpiel's C++ side builds to measure a tensor when C++ code
  asks for one (Python calls are answered here without one).
- Tensors: the observation tensor and the information-state tensor are both
  ``state.observation(player)`` (egocentric, only what that player may see), split into the named
  pieces of the game's ``observation_layout``. The information state is therefore not perfect
  recall: it holds what the game's observation keeps, not the whole history.
- Strings: ``action_to_string(p, a)`` is the move's label as seat ``p`` hears it
  (``mystic_envs.core.narration.action_label``: the card, die or target named, the imperative for
  the mover, the third person for anyone else), with the index's fixed name ``action_meaning(a)``
  in brackets where two legal actions would read alike (two copies of a card on offer).
  ``observation_string(p)`` is the table as seat ``p`` sees it (``describe(viewer=p)``);
  ``information_state_string(p)`` lists the observation's named pieces with their exact values
  (equal strings mean equal tensors, which is what tabular algorithms key on); ``str(state)`` is
  the public table.
- ``max_steps`` agent actions end a game that has not ended by the rules, with every return 0
  (the PettingZoo env's truncation; OpenSpiel has no truncation, so such a state is terminal).
- Search: ``resample_from_infostate(player, sampler)`` re-deals what ``player`` cannot see (the
  engine's ``determinize``), so OpenSpiel's Python ``ISMCTSBot`` searches fairly. Its ``MCTSBot``
  searches the true state, hidden cards and (a clone copies the generator) future draws included.
"""

from __future__ import annotations

import inspect
from typing import Any, ClassVar

import numpy as np
import pyspiel

import mystic_envs
from mystic_envs.core.aec import SEED_STREAM_SALT, MysticAECEnv
from mystic_envs.core.game import Game, GameState, is_integer
from mystic_envs.core.narration import action_label
from mystic_envs.core.rng import Rng, fresh_seed

__all__ = [
    "GAME_CLASSES",
    "SHORT_NAMES",
    "MysticObserver",
    "MysticOpenSpielGame",
    "MysticOpenSpielState",
    "register",
    "short_name",
]

# Keywords of MysticAECEnv itself: everything else the env takes goes to the rules.
_ENV_ONLY_KEYWORDS = frozenset({"render_mode", "illegal_action", "illegal_reward", "max_steps"})
_PARAM_TYPES = (bool, int, float, str)


def short_name(env_id: str) -> str:
    """The OpenSpiel name of ``env_id``: ``"elemystic_v0"`` -> ``"python_mystic_elemystic"``."""
    mystic_envs.env_module(env_id)  # a clear error for an unknown id
    return "python_mystic_" + env_id.removesuffix("_v0")


#: env id -> OpenSpiel short name, for every implemented game.
SHORT_NAMES: dict[str, str] = {env_id: short_name(env_id) for env_id in mystic_envs.ENV_IDS}


def _env_class(env_id: str) -> type[MysticAECEnv]:
    return type(mystic_envs.make_raw(env_id))


def _rules_parameters(game_class: type[Game]) -> dict[str, Any]:
    """The keywords of ``game_class`` with their defaults, as OpenSpiel parameters (which must be
    bool, int, float or str; a keyword of another type is not offered)."""
    out = {}
    for name, p in inspect.signature(game_class.__init__).parameters.items():
        if name == "self" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        if isinstance(p.default, _PARAM_TYPES):
            out[name] = p.default
    return out


def _parameter_specification(env_id: str) -> dict[str, Any]:
    rules = _rules_parameters(_env_class(env_id).game_class)
    clash = (_ENV_ONLY_KEYWORDS | {"rng_seed"}) & set(rules)
    if clash:
        raise TypeError(f"{env_id}: rules keywords {sorted(clash)} clash with OpenSpiel parameters")
    return {"rng_seed": 0, "max_steps": -1, **rules}


def _game_type(env_id: str) -> pyspiel.GameType:
    counts = mystic_envs.player_counts(env_id)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[env_id],
        long_name=f"Python mystic-envs {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(env_id),
    )


class _Dealer:
    """The game's seed stream, drawn as the AEC env draws its games' seeds: the first deal is seeded
    ``rng_seed`` itself (``env.reset(seed=rng_seed)``'s game), the later ones from the stream an env's
    later unseeded resets use."""

    def __init__(self, rules: Game, rng_seed: int) -> None:
        self.rules = rules
        self.first = fresh_seed() if rng_seed == -1 else int(rng_seed)
        self.stream: Rng | None = None

    def position(self) -> tuple[int, int | None]:
        """Where the stream stands (for pickling): the first seed, and the stream's state once drawn."""
        return self.first, None if self.stream is None else self.stream.state

    def restore(self, position: tuple[int, int | None]) -> None:
        self.first, state = position
        self.stream = None if state is None else Rng(state)  # a SplitMix64 state is its own seed

    def next_seed(self) -> int:
        if self.stream is None:
            self.stream = Rng(self.first ^ SEED_STREAM_SALT)
            return self.first
        return self.stream.next_u64()


class _Deal:
    """A state's engine state, dealt on first use.

    OpenSpiel's ``Clone()`` of a Python state calls ``new_initial_state()`` and then overwrites the
    new state's attributes with deep copies of the original's, and its tensor-shape queries build a
    scratch state too. Dealing on first use keeps the clones' scratch states from drawing on the
    game's seed stream, and ``__deepcopy__`` uses the engine's own ``clone()`` (which copies the
    generator, so a clone continues the original's chance stream exactly).
    """

    __slots__ = ("_dealer", "_state", "seed")

    def __init__(self, dealer: _Dealer | None, seed: int | None = None, state: GameState | None = None):
        self._dealer = dealer
        self.seed = seed  # the deal's seed, kept so that a pickled state can be replayed
        self._state = state

    def get(self) -> GameState:
        if self._state is None:
            assert self._dealer is not None
            if self.seed is None:
                self.seed = self._dealer.next_seed()
            self._state = self._dealer.rules.new_initial_state(self.seed)
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        state = self.get().clone()
        return _Deal(None, self.seed, state)


def _check_parameters(env_id: str, spec: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    # pyspiel.load_game has already refused unknown names and filled in defaults; a game class
    # constructed directly has not.
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(f"{SHORT_NAMES[env_id]}: unknown parameters {unknown}; accepted: {sorted(spec)}")
    full = {**spec, **params}
    seed = full["rng_seed"]
    if not is_integer(seed) or not -1 <= seed < 2**64:
        raise ValueError(f"{SHORT_NAMES[env_id]}: rng_seed must be -1 or an integer 0-2**64-1, got {seed!r}")
    steps = full["max_steps"]
    if not is_integer(steps) or (steps < 1 and steps != -1):
        raise ValueError(f"{SHORT_NAMES[env_id]}: max_steps must be -1 or >= 1, got {steps!r}")
    return full


class MysticOpenSpielGame(pyspiel.Game):
    """An OpenSpiel game over one mystic-envs rules engine (one subclass per env id)."""

    env_id: ClassVar[str]
    game_type: ClassVar[pyspiel.GameType]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = dict(self.game_type.parameter_specification)
        full = _check_parameters(self.env_id, spec, dict(params or {}))
        rules_kwargs = {k: v for k, v in full.items() if k not in ("rng_seed", "max_steps")}
        max_steps = None if full["max_steps"] == -1 else full["max_steps"]
        # The env validates the rules keywords and sizes its max_steps guard for them.
        env = mystic_envs.make_raw(self.env_id, max_steps=max_steps, **rules_kwargs)
        self.rules: Game = env.game
        self.max_steps: int = env.max_steps
        self.layout = self.rules.observation_layout()
        self.observation_size: int = self.rules.observation_size
        self._rng_seed: int = int(full["rng_seed"])
        self._dealer = _Dealer(self.rules, self._rng_seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.num_actions,
            max_chance_outcomes=0,
            num_players=self.rules.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_steps,
        )
        super().__init__(self.game_type, info, full)

    def new_initial_state(self) -> MysticOpenSpielState:
        """A new game; its deal is drawn from the ``rng_seed`` stream when it is first used."""
        return MysticOpenSpielState(self, _Deal(self._dealer))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> MysticObserver:
        """The observer OpenSpiel builds observation and information-state tensors with."""
        return MysticObserver(self, iig_obs_type, params)

    # Answered here, so that Python callers do not make OpenSpiel build a scratch state to measure.
    def information_state_tensor_shape(self) -> list[int]:
        return [self.observation_size]

    def information_state_tensor_size(self) -> int:
        return self.observation_size

    def observation_tensor_shape(self) -> list[int]:
        return [self.observation_size]

    def observation_tensor_size(self) -> int:
        return self.observation_size

    # OpenSpiel pickles a game through its C++ serialization, which asks the game for its RNG
    # state, and Python games cannot answer that. A pickled game keeps its seed stream where it
    # was, as OpenSpiel's sampled-stochastic games do: unpickled, it deals what the original
    # deals next.
    def __reduce__(self) -> tuple[Any, ...]:
        return _restore_game, (self.env_id, self.get_parameters(), self._dealer.position())


class MysticOpenSpielState(pyspiel.State):
    """An OpenSpiel state over one engine state (``game_state``)."""

    def __init__(self, game: MysticOpenSpielGame, deal: _Deal) -> None:
        super().__init__(game)
        self._deal = deal
        self._steps = 0
        self._max_steps = game.max_steps
        self._truncated = False

    @property
    def game_state(self) -> GameState:
        """The engine state (``mystic_envs`` rules), as ``env.unwrapped.game_state`` is for the env."""
        return self._deal.get()

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._deal.get().current_player

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel only asks for the player to move (it answers [] for the others itself).
        return self._deal.get().legal_actions()

    def _apply_action(self, action: int) -> None:
        state = self._deal.get()
        state.apply(int(action))  # checks legality: IllegalActionError names the action and phase
        self._steps += 1
        if not state.is_terminal and self._steps >= self._max_steps:
            self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        # The label the terminal gives (the card, die or target named), as ``player`` hears it.
        state = self._deal.get()
        label = action_label(state, int(action), viewer=player)
        # OpenSpiel needs one string per legal action; two copies of a card on offer (Mystic Vale's
        # commons) read alike, so such a label also gets the index's fixed name.
        if any(a != action and action_label(state, a, viewer=player) == label for a in state.legal_actions()):
            label += f" [{state.game.action_meaning(int(action))}]"
        return label

    def is_terminal(self) -> bool:
        return self._truncated or self._deal.get().is_terminal

    def returns(self) -> list[float]:
        # Terminal rewards only: 0 while the game runs and after a max_steps truncation (as the
        # env gives), so that the returns of every state sum to 0.
        state = self._deal.get()
        if not state.is_terminal:
            return [0.0] * state.game.num_players
        return [float(r) for r in state.returns()]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        # Overridden for Python callers: OpenSpiel's own path builds a scratch state per call.
        return self._tensor(player)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(player)

    def _tensor(self, player: int | None) -> list[float]:
        if player is None:
            player = self.current_player()
        return self._deal.get().observation(_seat(player, self.num_players())).tolist()

    def __str__(self) -> str:
        return self._deal.get().describe()

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> MysticOpenSpielState:
        """A copy in which everything ``player`` cannot see is re-dealt consistently with what it
        can (the engine's ``determinize``), for OpenSpiel's IS-MCTS: ``player``'s information
        state is unchanged. ``probability_sampler`` is OpenSpiel's (a callable returning floats in
        [0, 1)) or a ``numpy.random.Generator``. The copy keeps this state's ``history()``, which
        names the true deal's actions, and cannot be pickled (it has no seed to replay from).
        """
        seat = _seat(player, self.num_players())
        if isinstance(probability_sampler, np.random.Generator):
            rng = probability_sampler
        elif callable(probability_sampler):
            rng = np.random.default_rng(int(probability_sampler() * 2**53))
        else:
            raise TypeError(
                f"probability_sampler must be callable or a numpy Generator, got {probability_sampler!r}"
            )
        resampled = self.clone()
        resampled._deal = _Deal(None, None, self.game_state.determinize(seat, rng))
        return resampled

    # Pickled (and copy.deepcopy-ed) as its game, its deal's seed and its history, and rebuilt by
    # replaying the history: the engine makes the same trajectory from the same seed and actions.
    def __reduce__(self) -> tuple[Any, ...]:
        self._deal.get()  # an unused state draws its deal now, so that the copy has the same one
        if self._deal.seed is None:
            raise TypeError("a state from resample_from_infostate() cannot be pickled: use clone()")
        return _restore_state, (self.get_game(), self._deal.seed, [int(a) for a in self.history()])


def _restore_game(
    env_id: str, params: dict[str, Any], position: tuple[int, int | None]
) -> MysticOpenSpielGame:
    game = GAME_CLASSES[env_id](params)
    game._dealer.restore(position)
    return game


def _restore_state(game: MysticOpenSpielGame, seed: int, history: list[int]) -> MysticOpenSpielState:
    state = MysticOpenSpielState(game, _Deal(game._dealer, seed))
    for action in history:
        state.apply_action(action)
    return state


def _seat(player: Any, n: int) -> int:
    if not is_integer(player) or not 0 <= player < n:
        raise ValueError(f"player must be a seat index (0 to {n - 1}), got {player!r}")
    return int(player)


class MysticObserver:
    """Builds a player's tensor and string from ``state.observation(player)`` (OpenSpiel's
    PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``).

    Every observation type with public information and the observing player's private
    information is served (the game's observation is exactly that); ``perfect_recall=True``
    (the information state) gets the same tensor, and an exact string of it.
    """

    def __init__(
        self,
        game: MysticOpenSpielGame,
        iig_obs_type: pyspiel.IIGObservationType | None,
        params: dict | None,
    ) -> None:
        if params:
            raise ValueError(f"{game.env_id}: observation parameters are not supported, got {params}")
        self.perfect_recall = False
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    f"{game.env_id}: only observations with public_info=True and "
                    "private_info=SINGLE_PLAYER exist (the player's own view), got "
                    f"public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}"
                )
            self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.layout = game.layout
        self.tensor = np.zeros(game.observation_size, np.float32)
        # Views into the flat tensor, one per named part of the observation layout.
        self.dict = {entry.name: self.tensor[entry.slice] for entry in self.layout}

    def set_from(self, state: MysticOpenSpielState, player: int) -> None:
        self.tensor[:] = state.game_state.observation(_seat(player, state.num_players()))

    def string_from(self, state: MysticOpenSpielState, player: int) -> str:
        seat = _seat(player, state.num_players())
        if not self.perfect_recall:
            return state.game_state.describe(viewer=seat)
        obs = state.game_state.observation(seat)
        parts = [f"player_{seat}"]
        for entry in self.layout:
            values = obs[entry.slice]
            if np.array_equal(values, np.trunc(values)):  # the common case, written as integers
                text = ",".join(map(str, values.astype(np.int64).tolist()))
            else:  # float32's shortest exact form: 0.1, not 0.10000000149011612
                text = ",".join(str(v) for v in values)
            parts.append(f"{entry.name}={text}")
        return " ".join(parts)


def _game_class(env_id: str) -> type[MysticOpenSpielGame]:
    name = "".join(w.capitalize() for w in env_id.removesuffix("_v0").split("_")) + "OpenSpielGame"
    return type(
        name,
        (MysticOpenSpielGame,),
        {"env_id": env_id, "game_type": _game_type(env_id), "__module__": __name__},
    )


#: env id -> its OpenSpiel game class.
GAME_CLASSES: dict[str, type[MysticOpenSpielGame]] = {}


def register() -> None:
    """Register every env id with OpenSpiel (done on import; calling it again changes nothing)."""
    registered = set(pyspiel.registered_names())
    for env_id, name in SHORT_NAMES.items():
        cls = GAME_CLASSES.get(env_id) or _game_class(env_id)
        GAME_CLASSES[env_id] = cls
        globals()[cls.__name__] = cls  # pickle finds the class by its module-level name
        if name not in registered:
            pyspiel.register_game(cls.game_type, cls)


register()
