"""A 2-5 player test fixture game, ``race_toy_v0``: the multi-player machinery's proving ground.

No game of the collection has more than two players yet, so ``training.evaluate``,
``training.train``, ``single_agent``, ``agents.mcts`` and ``agents.play`` are tested at 3-5 players
on this one. It is a real game through the same ``Game``/``GameState`` interface and the same
``MysticAECEnv`` adapter, small enough to play thousands of times in a test:

- Every player has a token on a track (0 to ``target``, default 10) and a hidden hand of
  ``HAND`` cards worth 1-3 (drawn from the state's generator: an endless deck).
- On your turn you play a hand card (your token advances by its value; you draw a replacement) or
  push your luck: roll a die, 1 or 2 eliminates you, 3-6 advance you by 3.
- The first token to reach ``target`` ends the game; tokens still in the race are ranked by
  position (ties share a place), above every eliminated player; an eliminated player ranks below
  everyone still in the race when it went out and above those out before it. The last player left
  in the race wins at once.

Hidden information: the other players' hands (only their sizes show). ``determinize`` re-deals
them. A ``heuristic`` (play the highest card, never roll) and a ``ROLLOUT_POLICY`` come with it.
Tests register it through the :func:`register` helper (``mystic_envs._REGISTRY`` and the
heuristic tables, patched), never for the library's users.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np

from mystic_envs.core.aec import MysticAECEnv, MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.core.game import UNIT, Game, GameState, LayoutEntry, build_layout, zero_sum_returns
from mystic_envs.core.policies import seat_to_move

ENV_ID = "race_toy_v0"
HAND = 3
ROLL = HAND  # the action after the hand slots
ROLL_ADVANCE = 3
ROLL_BUST = 2  # die faces that eliminate
CARD_VALUES = (1, 2, 3)


class RaceGame(Game):
    PLAYER_COUNTS = (2, 3, 4, 5)
    PHASE_NAMES = ("move",)

    def __init__(self, num_players: int = 2, target: int = 10) -> None:
        self.num_players = self.player_count(num_players, "Race toy")
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            raise ValueError(f"target must be an int >= 1, got {target!r}")
        self.target = target
        self.num_actions = HAND + 1
        n = self.num_players
        # The race ends at the target: the last step starts at most 1 short of it.
        farthest = (target - 1 + max(ROLL_ADVANCE, *CARD_VALUES)) / target
        self._layout = build_layout(
            [
                ("positions", n, "each seat's position / target, own seat first", (0.0, farthest)),
                ("in_race", n, "1 for each seat still in the race, own seat first", UNIT),
                ("hand", HAND * len(CARD_VALUES), "own hand: one-hot value of each slot", UNIT),
                ("to_move", n, "one-hot seat to move, own seat first", UNIT),
            ]
        )

    def new_initial_state(self, seed: int | None = None) -> RaceState:
        return RaceState(self, np.random.default_rng(seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        return self._layout

    def action_meaning(self, action: int) -> str:
        return "roll the die" if action == ROLL else f"play hand card {action}"


class RaceState(GameState):
    def __init__(self, game: RaceGame, rng: np.random.Generator) -> None:
        n = game.num_players
        self.game = game
        self.phase = 0
        self.rng = rng
        self.positions = np.zeros(n, dtype=np.int64)
        self.hands = rng.choice(CARD_VALUES, size=(n, HAND)).astype(np.int64)
        self.in_race = np.ones(n, dtype=bool)
        # Placement (0 = best) of each eliminated seat, fixed when it goes out; -1 while in the race.
        self.out_place = np.full(n, -1, dtype=np.int64)
        self.to_move = int(rng.integers(n))
        self.over = False

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.to_move

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def phase_name(self) -> str:
        return "game over" if self.over else "move"

    def legal_actions(self) -> list[int]:
        return [] if self.over else list(range(HAND + 1))

    def _apply(self, action: int) -> None:
        p = self.to_move
        if action == ROLL:
            if int(self.rng.integers(1, 7)) <= ROLL_BUST:
                self.out_place[p] = int(self.in_race.sum()) - 1
                self.in_race[p] = False
            else:
                self.positions[p] += ROLL_ADVANCE
        else:
            self.positions[p] += self.hands[p, action]
            self.hands[p, action] = int(self.rng.choice(CARD_VALUES))
        if self.positions[p] >= self.game.target or self.in_race.sum() <= 1:
            self.over = True
            return
        n = self.game.num_players
        nxt = (p + 1) % n
        while not self.in_race[nxt]:
            nxt = (nxt + 1) % n
        self.to_move = nxt

    def _placements(self) -> list[int]:
        pos = self.positions
        alive = self.in_race
        return [
            int(np.sum(alive & (pos > pos[i]))) if alive[i] else int(self.out_place[i])
            for i in range(self.game.num_players)
        ]

    def returns(self) -> np.ndarray:
        if self.over:
            return zero_sum_returns(self._placements())
        n = self.game.num_players
        out = np.zeros(n)
        for i in np.flatnonzero(~self.in_race):
            k = self.out_place[i] + 1  # seats in the race when it went out, itself included
            out[i] = (n - k - (k - 1)) / (n - 1)
        return out

    def player_done(self, player: int) -> bool:
        return self.over or not self.in_race[player]

    def clone(self) -> RaceState:
        other = object.__new__(RaceState)
        other.__dict__.update(self.__dict__)
        for name in ("positions", "hands", "in_race", "out_place"):
            setattr(other, name, getattr(self, name).copy())
        other.rng = copy.deepcopy(self.rng)
        return other

    def _order(self, player: int) -> list[int]:
        n = self.game.num_players
        return [(player + k) % n for k in range(n)]

    def observation(self, player: int) -> np.ndarray:
        player = self.check_seat(player)
        order = self._order(player)
        one_hot = np.zeros((HAND, len(CARD_VALUES)), dtype=np.float32)
        one_hot[np.arange(HAND), self.hands[player] - 1] = 1
        to_move = np.zeros(self.game.num_players, dtype=np.float32)
        if not self.over:
            to_move[order.index(self.to_move)] = 1
        return np.concatenate(
            [
                self.positions[order] / self.game.target,
                self.in_race[order],
                one_hot.ravel(),
                to_move,
            ]
        ).astype(np.float32)

    def determinize(self, player: int, rng: np.random.Generator) -> RaceState:
        player = self.check_seat(player)
        other = self.clone()
        others = [p for p in range(self.game.num_players) if p != player]
        other.hands[others] = rng.choice(CARD_VALUES, size=(len(others), HAND))
        other.rng = np.random.default_rng(int(rng.integers(2**63)))
        return other

    def describe(self, viewer: int | None = None) -> str:
        rows = []
        for p in range(self.game.num_players):
            status = "in the race" if self.in_race[p] else "eliminated"
            hand = " ".join(map(str, self.hands[p])) if p == viewer else "? " * HAND
            rows.append(f"player_{p}: {self.positions[p]}/{self.game.target} {status} hand {hand.strip()}")
        return "\n".join(rows)

    def scores(self) -> list[float]:
        return [float(x) for x in self.positions]

    def check_invariants(self) -> None:
        assert (self.positions >= 0).all()
        assert np.isin(self.hands, CARD_VALUES).all()
        assert self.in_race.sum() >= 1


class RaceEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": ENV_ID,
        "is_parallelizable": False,
    }
    game_class = RaceGame
    default_max_steps = 500


def raw_env(**kwargs: Any) -> RaceEnv:
    return RaceEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    return TurnBasedParallelEnv(env(**kwargs))


def rollout_policy(state: RaceState, rng: np.random.Generator) -> int:
    """The heuristic on a state: the highest card in hand, never the die."""
    return int(np.argmax(state.hands[state.current_player]))


class RaceHeuristic:
    """Plays its highest card and never rolls (a roll risks a 1 in 3 elimination for 3 steps)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any, agent_id: str) -> int:
        seat_to_move(env, agent_id, ENV_ID)
        return rollout_policy(env.unwrapped.game_state, self.rng)


def register(monkeypatch: Any) -> str:
    """Make ``race_toy_v0`` a registered env (and give it a heuristic) for one test; returns its id."""
    import mystic_envs
    from agents import heuristic

    monkeypatch.setitem(mystic_envs._REGISTRY, ENV_ID, (__name__, RaceGame.PLAYER_COUNTS, "RaceToy"))
    monkeypatch.setattr(mystic_envs, "ENV_IDS", (*mystic_envs.ENV_IDS, ENV_ID))
    monkeypatch.setitem(heuristic.HEURISTICS, ENV_ID, RaceHeuristic)
    monkeypatch.setitem(heuristic.ROLLOUT_POLICIES, ENV_ID, rollout_policy)
    return ENV_ID
