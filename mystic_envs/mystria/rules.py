"""Mystria rules engine: a small state machine over integer state, no PettingZoo.

Setup (chance: who goes first, the stacks, the Objective tiles) -> keep_objective (full rules: the
first, then the second magician keeps one of their two tiles) -> score_board (the second player
places the score tokens, highest value first; the last one goes on the last free value without a
decision) -> turns: take_token (move or flip whole stacks, one Energy drop to the opponent each,
until a triangle stands; then take the top token of one of its stacks) -> place_token -> the
opponent's turn. After 12 turns each, scoring; a player who must act with no drop left (or with
no move or flip at all) loses at once.

A stack is a small int code (``STACKS[code]`` is its tokens, top first), so a move swaps two ints
and a flip or a take is one table lookup. A Magician board is one 12-bit mask per colour, and the
size of a colour's largest group is ``board.LARGEST_GROUP[mask]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from mystic_envs.core.game import (
    Game,
    GameState,
    InfoField,
    LayoutEntry,
    check_rng,
    check_seed,
    zero_sum_returns,
)
from mystic_envs.core.rng import Rng, fresh_seed, from_generator
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    FIRST_PLAYER_DROPS,
    IS_LINE,
    LARGEST_GROUP,
    LINES,
    MAJORITY_POINTS,
    MOVE_PAIRS,
    NUM_COLOURS,
    NUM_OBJECTIVES,
    NUM_PLACES,
    NUM_SPACES,
    OBJECTIVE_MASKS,
    OBJECTIVE_POINTS,
    OBJECTIVES,
    OBJECTIVES_DRAWN,
    SCORE_VALUES,
    SPACE_NAMES,
    STACK_HEIGHT,
    STACK_SPACES,
    TOKENS_PER_COLOUR,
    TOTAL_DROPS,
    TRIANGLES,
    TURNS,
    VARIANTS,
)

# --- stacks --------------------------------------------------------------------------------
# Every stack that can exist (0 to 3 tokens, top first); its index is the stack's code, 0 = empty.
STACKS: tuple[tuple[int, ...], ...] = tuple(
    t for h in range(STACK_HEIGHT + 1) for t in itertools.product(range(NUM_COLOURS), repeat=h)
)
STACK_CODE = {t: i for i, t in enumerate(STACKS)}
EMPTY = STACK_CODE[()]
HEIGHT = tuple(len(t) for t in STACKS)
TOP = tuple(t[0] if t else -1 for t in STACKS)
FLIPPED = tuple(STACK_CODE[t[::-1]] for t in STACKS)
TAKEN = tuple(STACK_CODE[t[1:]] if t else EMPTY for t in STACKS)  # the stack once its top is taken
# Stacks of three are listed last, in product order: (a, b, c) has code FIRST + a*16 + b*4 + c.
_FULL_STACK_FIRST = STACK_CODE[(0,) * STACK_HEIGHT]
_FULL_STACK_WEIGHTS = NUM_COLOURS ** np.arange(STACK_HEIGHT - 1, -1, -1)
if STACK_CODE[(1, 2, 3)] != _FULL_STACK_FIRST + int(_FULL_STACK_WEIGHTS @ (1, 2, 3)):
    raise AssertionError("stacks of three are not in product order")

# --- actions -------------------------------------------------------------------------------
KEEP = 0  # KEEP + t: keep Objective tile t (one of the two drawn)
ASSIGN = KEEP + NUM_OBJECTIVES  # ASSIGN + c: colour c's score token on the highest free value
MOVE = ASSIGN + NUM_COLOURS  # MOVE + k: move a stack between MOVE_PAIRS[k], into its empty end
FLIP = MOVE + len(MOVE_PAIRS)  # FLIP + s: flip the stack on space s
TAKE = FLIP + NUM_SPACES  # TAKE + s: take the top token of the stack on space s
PLACE = TAKE + NUM_SPACES  # PLACE + i: put the token taken on place i + 1 of one's Magician board
NUM_ACTIONS = PLACE + NUM_PLACES

# --- phases and ends -----------------------------------------------------------------------
KEEP_PHASE, SCORE_BOARD, TAKE_PHASE, PLACE_PHASE, GAME_OVER = range(5)
PHASE_NAMES = ("keep_objective", "score_board", "take_token", "place_token", "game_over")
NOT_OVER, SCORED, OUT_OF_ENERGY, NO_ACTION = range(4)
END_REASONS = ("not over", "final scoring", "out of Energy drops", "no move or flip possible")

# The moves along the board's lines (a pair across a gap has an action that is never legal).
_LINE_ACTIONS = tuple((a, b, MOVE + MOVE_PAIRS.index((a, b))) for a, b in LINES)
# Lines at each space, as (other end, action): moves are found from the few empty spaces.
_LINES_AT = tuple(
    tuple((b if a == s else a, action) for a, b, action in _LINE_ACTIONS if s in (a, b))
    for s in range(NUM_SPACES)
)
FLIPPABLE = tuple(FLIPPED[code] != code for code in range(len(STACKS)))  # a flip that changes the stack
_TRIANGLE_SPACES = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in TRIANGLES)
# Triangles through each space, as (bit in ``formed``, its three spaces): a move, flip or take
# changes one or two stacks, so only these need a new look.
_TRIANGLES_AT = tuple(
    tuple((1 << k, a, b, c) for k, (a, b, c) in enumerate(TRIANGLES) if s in (a, b, c))
    for s in range(NUM_SPACES)
)
_FULL_BOARD = (1 << NUM_PLACES) - 1


def action_meaning(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"out of range ({action})"
    if action < ASSIGN:
        t = OBJECTIVES[action - KEEP]
        return f"keep Objective tile {t.name} ({t.points} points)"
    if action < MOVE:
        return f"score board: {COLOUR_NAMES[action - ASSIGN]} on the highest free value"
    if action < FLIP:
        a, b = MOVE_PAIRS[action - MOVE]
        if not IS_LINE[action - MOVE]:
            return f"move a stack across the gap {SPACE_NAMES[a]}-{SPACE_NAMES[b]} (no line: never legal)"
        return f"move a stack along the line {SPACE_NAMES[a]}-{SPACE_NAMES[b]}, into its empty end"
    if action < TAKE:
        return f"flip the stack on {SPACE_NAMES[action - FLIP]}"
    if action < PLACE:
        return f"take the top token on {SPACE_NAMES[action - TAKE]}"
    return f"place the token on place {action - PLACE + 1}"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class MystriaGame(Game):
    """Mystria for two players. Options: ``num_players`` (only 2), ``variant`` (``"full"``, the
    default, or ``"intro"``: the introductory rules, no Objective tiles)."""

    PLAYER_COUNTS = (2,)
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, num_players: int = 2, variant: str = "full") -> None:
        self.num_players = self.player_count(num_players, "Mystria")
        if not isinstance(variant, str):
            raise TypeError(f"variant must be a str, one of {VARIANTS}, got {variant!r}")
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        self.num_actions = NUM_ACTIONS
        self.variant = variant
        self.full = variant == "full"
        self.score_values = SCORE_VALUES[variant]
        self.majority_points = MAJORITY_POINTS[variant]

    def new_initial_state(self, seed: int | None = None) -> MystriaState:
        seed = check_seed(seed)
        return MystriaState.new(self, Rng(fresh_seed() if seed is None else seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        from mystic_envs.mystria.observation import LAYOUT

        return LAYOUT

    def action_meaning(self, action: int) -> str:
        return action_meaning(action)

    def public_action_meaning(self, action: int) -> str:
        if KEEP <= action < ASSIGN:
            return "keep one of the two Objective tiles drawn, face down"
        return action_meaning(action)

    def info_fields(self) -> tuple[InfoField, ...]:
        return (
            InfoField("drops", (2,), "int64", "Energy drops left per seat"),
            InfoField("tokens_placed", (2,), "int64", "tokens on each seat's Magician board"),
            InfoField("game_end", (), "int", "how the rules ended the game (0 while it runs)", END_REASONS),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (MystriaGame, (self.num_players, self.variant))


class Score(NamedTuple):
    """One seat's points by scoring step; ``total`` adds them."""

    colours: int
    objective: int
    majority: int
    drops: int

    @property
    def total(self) -> int:
        return self.colours + self.objective + self.majority + self.drops


class MystriaState(GameState):
    """One Mystria game. Seats are 0 and 1; ``1 - p`` is ``p``'s opponent."""

    __slots__ = (
        "assigned",
        "bag",
        "board_view",
        "drawn",
        "drops",
        "end_reason",
        "first",
        "formed",
        "game",
        "held",
        "kept",
        "masks",
        "phase",
        "player",
        "points",
        "rng",
        "stacks",
        "triangles",
        "values",
        "winner",
    )

    @classmethod
    def new(cls, game: MystriaGame, rng: Rng) -> MystriaState:
        # The draws' order is part of the game (the compiled twin, mystria.c, draws the same):
        # the first player, the stacks, then the four Objective tiles.
        s = cls.__new__(cls)
        s.game = game
        s.rng = rng
        s.first = rng.below(2)
        s.drops = [0, 0]
        s.drops[s.first] = FIRST_PLAYER_DROPS
        s.drops[1 - s.first] = TOTAL_DROPS - FIRST_PLAYER_DROPS
        s._deal_stacks()
        s.masks = [[0] * NUM_COLOURS, [0] * NUM_COLOURS]
        s.values = [0] * NUM_COLOURS
        s.assigned = 0
        s.held = -1
        s.winner = -1
        s.end_reason = NOT_OVER
        s.kept = [-1, -1]
        s.drawn = [(), ()]
        if game.full:
            tiles = rng.sample(NUM_OBJECTIVES, 2 * OBJECTIVES_DRAWN)
            s.drawn[s.first] = tuple(sorted(tiles[:OBJECTIVES_DRAWN]))
            s.drawn[1 - s.first] = tuple(sorted(tiles[OBJECTIVES_DRAWN:]))
            s.phase = KEEP_PHASE
            s.player = s.first
        else:
            s.phase = SCORE_BOARD
            s.player = 1 - s.first
        s._find_triangles()
        s._count_points()
        return s

    def _deal_stacks(self) -> None:
        # Drawing from the bag until no stack is three identical tokens is the same as redrawing
        # the whole deal: every allowed deal is equally likely (about 3 draws on average).
        while True:
            tokens = np.array(self.rng.permutation(NUM_COLOURS * TOKENS_PER_COLOUR)) // TOKENS_PER_COLOUR
            stacks = tokens[: STACK_HEIGHT * len(STACK_SPACES)].reshape(len(STACK_SPACES), STACK_HEIGHT)
            if not ((stacks[:, 0] == stacks[:, 1]) & (stacks[:, 1] == stacks[:, 2])).any():
                break
        self.stacks = [EMPTY] * NUM_SPACES
        for space, code in zip(
            STACK_SPACES, (stacks @ _FULL_STACK_WEIGHTS + _FULL_STACK_FIRST).tolist(), strict=True
        ):
            self.stacks[space] = code
        # The four tokens left in the bag are never used.
        self.bag = np.bincount(tokens[STACK_HEIGHT * len(STACK_SPACES) :], minlength=NUM_COLOURS).tolist()

    def set_board(self, stacks: dict[str, tuple[int, ...]]) -> None:
        """Replace the central board (rule tests, tutorials): space name -> tokens, top first.

        Spaces not named become empty; the bag holds whatever no stack, Magician board or hand
        holds.
        """
        codes = [EMPTY] * NUM_SPACES
        for name, tokens in stacks.items():
            codes[SPACE_NAMES.index(name)] = STACK_CODE[tuple(tokens)]
        bag = [TOKENS_PER_COLOUR] * NUM_COLOURS
        for code in codes:
            for c in STACKS[code]:
                bag[c] -= 1
        for p in (0, 1):
            for c in range(NUM_COLOURS):
                bag[c] -= self.masks[p][c].bit_count()
        if self.held >= 0:
            bag[self.held] -= 1
        if min(bag) < 0:
            raise ValueError(f"more than {TOKENS_PER_COLOUR} tokens of one colour (bag would be {bag})")
        self.stacks = codes
        self.bag = bag
        self._find_triangles()
        self._count_points()
        if self.phase == TAKE_PHASE:
            self._check_can_take()

    def deal_objectives(self, drawn: tuple[tuple[int, int], tuple[int, int]]) -> None:
        """Replace the Objective tiles drawn (rule tests): ``drawn[p]`` is seat ``p``'s pair.

        Allowed only before the first tile is kept.
        """
        if self.phase != KEEP_PHASE or self.kept != [-1, -1]:
            raise ValueError("deal_objectives() is only allowed before the first tile is kept")
        tiles = [*drawn[0], *drawn[1]]
        if len(set(tiles)) != 2 * OBJECTIVES_DRAWN or not all(0 <= t < NUM_OBJECTIVES for t in tiles):
            raise ValueError(f"deal_objectives() needs four different tiles in [0, 8), got {drawn}")
        self.drawn = [tuple(sorted(drawn[0])), tuple(sorted(drawn[1]))]

    # -- board ----------------------------------------------------------------------------------
    def _find_triangles(self) -> None:
        self.formed = 0
        self._look_again(range(NUM_SPACES))

    def _look_again(self, spaces: Iterable[int]) -> None:
        """Re-test the triangles through ``spaces``; ``triangles`` becomes the spaces of those standing.

        Every change of a stack comes through here, so it also drops the cached board view (the
        observation's public board part, ``observation.board_view``)."""
        self.board_view = None
        stacks = self.stacks
        formed = self.formed
        for space in spaces:
            for bit, a, b, c in _TRIANGLES_AT[space]:
                t = TOP[stacks[a]]
                if t >= 0 and t == TOP[stacks[b]] == TOP[stacks[c]]:
                    formed |= bit
                else:
                    formed &= ~bit
        self.formed = formed
        found = 0
        while formed:
            low = formed & -formed
            found |= _TRIANGLE_SPACES[low.bit_length() - 1]
            formed ^= low
        self.triangles = found

    def standing_triangles(self) -> list[tuple[int, int, int]]:
        """The triangles on the board now: three joined spaces whose top tokens share a colour."""
        tops = [TOP[code] for code in self.stacks]
        return [t for t in TRIANGLES if tops[t[0]] >= 0 and tops[t[0]] == tops[t[1]] == tops[t[2]]]

    def can_act(self) -> bool:
        """Whether some move or flip is possible (whatever the drops)."""
        stacks = self.stacks
        if any(FLIPPABLE[code] for code in stacks):
            return True
        return any((not stacks[a]) != (not stacks[b]) for a, b, _ in _LINE_ACTIONS)

    def _check_can_take(self) -> None:
        # "If you must perform an action but are out of Energy drops, you immediately lose": a
        # player facing no triangle must act. With no possible action at all no triangle can
        # ever form, so that player cannot take a token either and loses the same way (I-5).
        if self.triangles:
            return
        p = self.player
        if self.drops[p] == 0:
            self._end(winner=1 - p, reason=OUT_OF_ENERGY)
        elif not self.can_act():
            self._end(winner=1 - p, reason=NO_ACTION)

    def _end(self, winner: int, reason: int) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = GAME_OVER
        self.player = -1

    # -- scoring --------------------------------------------------------------------------------
    def largest_groups(self, p: int) -> list[int]:
        """Size of ``p``'s largest group of each colour on their Magician board."""
        return [LARGEST_GROUP[m] for m in self.masks[p]]

    def objective_done(self, p: int) -> bool:
        """Whether ``p``'s kept Objective tile is covered by tokens of one colour."""
        if self.kept[p] < 0:
            return False
        need = OBJECTIVE_MASKS[self.kept[p]]
        return any(m & need == need for m in self.masks[p])

    def _objective_points(self, p: int) -> int:
        return OBJECTIVE_POINTS[self.kept[p]] if self.objective_done(p) else 0

    def score(self, p: int, with_objective: bool = True) -> Score:
        """``p``'s points if the game were scored now. ``with_objective=False`` leaves out the
        secret objective (what the opponent can count before the end)."""
        return self._score(p, (self.largest_groups(0), self.largest_groups(1)), with_objective)

    def _score(self, p: int, groups: tuple[list[int], list[int]], with_objective: bool) -> Score:
        mine, other = groups[p], groups[1 - p]
        values = self.values
        if self.game.full:
            colours = sum(values[c] for c in range(NUM_COLOURS) if mine[c] > other[c])
        else:
            colours = mine[0] * values[0] + mine[1] * values[1] + mine[2] * values[2] + mine[3] * values[3]
        objective = self._objective_points(p) if with_objective else 0
        majority = self.game.majority_points if max(mine) > max(other) else 0
        return Score(colours, objective, majority, self.drops[p])

    def _count_points(self) -> None:
        # Colour and Majority points change only when a token is placed or the score board is set;
        # the infos show them after every action, so they are kept rather than recounted.
        groups = (self.largest_groups(0), self.largest_groups(1))
        self.points = [sum(self._score(p, groups, False)[:3]) for p in (0, 1)]

    def _final_scoring(self) -> None:
        # A tie on points goes to the most drops left. The 11 drops never split evenly, so that
        # always decides: a Mystria game cannot end in a draw.
        key = [(self.score(p).total, self.drops[p]) for p in (0, 1)]
        self._end(winner=0 if key[0] > key[1] else 1, reason=SCORED)

    # -- GameState API --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.player

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def placed(self, p: int) -> int:
        """Tokens on ``p``'s Magician board (their finished turns)."""
        m = self.masks[p]
        return (m[0] | m[1] | m[2] | m[3]).bit_count()

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TAKE_PHASE:
            takes = [TAKE + s for s in _bits(self.triangles)]
            if not self.drops[self.player]:
                return takes
            stacks = self.stacks
            moves = [
                action
                for e in range(NUM_SPACES)
                if not stacks[e]
                for other, action in _LINES_AT[e]
                if stacks[other]
            ]
            moves.sort()
            flips = [FLIP + s for s in range(NUM_SPACES) if FLIPPABLE[stacks[s]]]
            return moves + flips + takes
        if phase == PLACE_PHASE:
            m = self.masks[self.player]
            free = _FULL_BOARD & ~(m[0] | m[1] | m[2] | m[3])
            return [PLACE + i for i in _bits(free)]
        if phase == KEEP_PHASE:
            return [KEEP + t for t in self.drawn[self.player]]
        if phase == SCORE_BOARD:
            return [ASSIGN + c for c in range(NUM_COLOURS) if not self.values[c]]
        return []

    def is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == TAKE_PHASE:
            if TAKE <= action < PLACE:
                return bool(self.triangles >> (action - TAKE) & 1)
            if not self.drops[self.player]:
                return False
            if MOVE <= action < FLIP:
                if not IS_LINE[action - MOVE]:
                    return False
                a, b = MOVE_PAIRS[action - MOVE]
                return (not self.stacks[a]) != (not self.stacks[b])
            if FLIP <= action < TAKE:
                return FLIPPABLE[self.stacks[action - FLIP]]
            return False
        if phase == PLACE_PHASE:
            if not PLACE <= action < NUM_ACTIONS:
                return False
            m = self.masks[self.player]
            return not (m[0] | m[1] | m[2] | m[3]) >> (action - PLACE) & 1
        if phase == KEEP_PHASE:
            return KEEP <= action < ASSIGN and action - KEEP in self.drawn[self.player]
        if phase == SCORE_BOARD:
            return ASSIGN <= action < MOVE and not self.values[action - ASSIGN]
        return False

    def _apply(self, action: int) -> None:
        phase = self.phase
        p = self.player
        if phase == TAKE_PHASE:
            if action >= TAKE:
                code = self.stacks[action - TAKE]
                self.held = TOP[code]
                self.stacks[action - TAKE] = TAKEN[code]
                self._look_again((action - TAKE,))
                self.phase = PLACE_PHASE
                return
            if action >= FLIP:
                changed: tuple[int, ...] = (action - FLIP,)
                self.stacks[changed[0]] = FLIPPED[self.stacks[changed[0]]]
            else:
                changed = MOVE_PAIRS[action - MOVE]
                a, b = changed
                # Exactly one end is empty (legality): the stacks swap places with the empty space.
                self.stacks[a], self.stacks[b] = self.stacks[b], self.stacks[a]
            # Each action weakens the actor: one drop goes to the opponent.
            self.drops[p] -= 1
            self.drops[1 - p] += 1
            self._look_again(changed)
            self._check_can_take()
        elif phase == PLACE_PHASE:
            self.masks[p][self.held] |= 1 << (action - PLACE)
            self.held = -1
            self._count_points()
            if self.placed(p) == TURNS and self.placed(1 - p) == TURNS:
                self._final_scoring()
                return
            self.phase = TAKE_PHASE
            self.player = 1 - p
            self._check_can_take()
        elif phase == KEEP_PHASE:
            self.kept[p] = action - KEEP
            if p == self.first:
                self.player = 1 - p
            else:
                self.phase = SCORE_BOARD
        else:  # SCORE_BOARD
            values = self.game.score_values
            self.values[action - ASSIGN] = values[self.assigned]
            self.assigned += 1
            if self.assigned == NUM_COLOURS - 1:
                # The last score token has one free value left: no decision.
                last = self.values.index(0)
                self.values[last] = values[self.assigned]
                self.assigned += 1
                self._count_points()
                self.phase = TAKE_PHASE
                self.player = self.first
                self._check_can_take()

    def returns(self) -> np.ndarray:
        if self.winner < 0:
            return np.zeros(2)
        return zero_sum_returns([0 if p == self.winner else 1 for p in range(2)])

    def winners(self) -> list[int]:
        return [self.winner] if self.winner >= 0 else []

    def scores(self) -> list[float]:
        # Infos go to every seat: a secret objective counts only once the game is over.
        over = self.phase == GAME_OVER
        return [
            float(self.points[p] + self.drops[p] + (self._objective_points(p) if over else 0)) for p in (0, 1)
        ]

    def info_extras(self) -> dict[str, Any]:
        return {
            "drops": np.array(self.drops, dtype=np.int64),
            "tokens_placed": np.array([self.placed(0), self.placed(1)], dtype=np.int64),
            "game_end": self.end_reason,
        }

    def clone(self, *, share_rng: bool = False) -> MystriaState:
        """An independent copy, chance stream included.

        ``share_rng=True`` lets the copy draw from this state's generator instead of a copy of it:
        only for throwaway search copies of a state the caller owns (a determinized one).
        """
        c = MystriaState.__new__(MystriaState)
        c.game = self.game
        c.rng = self.rng if share_rng else self.rng.copy()
        c.assigned = self.assigned
        c.bag = self.bag[:]
        c.board_view = self.board_view  # never written to: the copy may share it
        c.drawn = self.drawn[:]
        c.drops = self.drops[:]
        c.end_reason = self.end_reason
        c.first = self.first
        c.formed = self.formed
        c.held = self.held
        c.kept = self.kept[:]
        c.masks = [self.masks[0][:], self.masks[1][:]]
        c.phase = self.phase
        c.player = self.player
        c.points = self.points[:]
        c.stacks = self.stacks[:]
        c.triangles = self.triangles
        c.values = self.values[:]
        c.winner = self.winner
        return c

    def observation(self, player: int) -> np.ndarray:
        from mystic_envs.mystria.observation import observe

        return observe(self, self.check_seat(player))

    def objective_visible_to(self, viewer: int) -> bool:
        """Whether ``viewer`` sees the opponent's kept tile: only once the game is over."""
        return self.phase == GAME_OVER

    def determinize(self, player: int, rng: np.random.Generator) -> MystriaState:
        self.check_seat(player)
        # One draw of the caller's generator seeds the core generator that re-deals and then goes
        # on as the copy's chance stream: the compiled twin does the same from the same draw.
        r = from_generator(check_rng(rng))
        c = self.clone(share_rng=True)  # the copy gets r below
        opp = 1 - player
        if self.game.full:
            # Unseen by `player`: the opponent's two tiles (which one was kept, if it was; only the
            # kept one once revealed) among the six not in `player`'s hand. Drawing from the sorted
            # candidates makes the result depend only on what `player` sees.
            revealed = self.objective_visible_to(player)
            unseen = [t for t in range(NUM_OBJECTIVES) if t not in self.drawn[player]]
            if revealed:
                unseen.remove(self.kept[opp])
                other = unseen[r.below(len(unseen))]
                c.drawn[opp] = tuple(sorted((self.kept[opp], other)))
            else:
                pick = r.sample(len(unseen), OBJECTIVES_DRAWN)
                c.drawn[opp] = tuple(sorted(unseen[i] for i in pick))
                if self.kept[opp] >= 0:
                    c.kept[opp] = c.drawn[opp][r.below(OBJECTIVES_DRAWN)]
        c.rng = r
        return c

    def describe(self, viewer: int | None = None) -> str:
        from mystic_envs.mystria.render import describe

        return describe(self, viewer)

    def check_invariants(self) -> None:
        counts = self.bag[:]
        for code in self.stacks:
            assert HEIGHT[code] <= STACK_HEIGHT
            t = STACKS[code]
            assert not (len(t) == STACK_HEIGHT and t[0] == t[1] == t[2]), f"three identical: {t}"
            for c in t:
                counts[c] += 1
        occupied = [0, 0]
        for p in (0, 1):
            for c in range(NUM_COLOURS):
                m = self.masks[p][c]
                assert m & occupied[p] == 0, f"two tokens on one place of player {p}'s board"
                occupied[p] |= m
                counts[c] += m.bit_count()
        if self.held >= 0:
            counts[self.held] += 1
        assert counts == [TOKENS_PER_COLOUR] * NUM_COLOURS, f"tokens lost or doubled: {counts}"
        assert sum(self.drops) == TOTAL_DROPS and min(self.drops) >= 0, f"drops: {self.drops}"
        placed = [occupied[0].bit_count(), occupied[1].bit_count()]
        # The first player is never behind, and never more than one token ahead.
        taken = [placed[p] + (self.held >= 0 and self.player == p) for p in (0, 1)]
        assert 0 <= taken[self.first] - taken[1 - self.first] <= 1, f"turns out of step: {taken}"
        assert (self.held >= 0) == (self.phase == PLACE_PHASE)
        if self.phase in (TAKE_PHASE, PLACE_PHASE) or placed != [0, 0]:
            assert self.assigned == NUM_COLOURS
            assert sorted(self.values) == sorted(self.game.score_values)
        if self.game.full:
            assert len(set(self.drawn[0] + self.drawn[1])) == 2 * OBJECTIVES_DRAWN
            for p in (0, 1):
                assert self.kept[p] == -1 or self.kept[p] in self.drawn[p]
        else:
            assert self.drawn == [(), ()] and self.kept == [-1, -1]
        standing = self.standing_triangles()
        assert self.formed == sum(1 << k for k, t in enumerate(TRIANGLES) if t in standing), "stale triangles"
        spaces = 0
        for a, b, c in standing:
            spaces |= (1 << a) | (1 << b) | (1 << c)
        assert self.triangles == spaces, "stale triangle spaces"
        assert self.points == [self.score(p).total - self.drops[p] - self.score(p).objective for p in (0, 1)]
        if self.phase == GAME_OVER:
            assert self.player == -1 and self.end_reason != NOT_OVER and self.winner in (0, 1)
            if self.end_reason == SCORED:
                assert placed == [TURNS, TURNS]
        else:
            assert self.winner == -1 and self.end_reason == NOT_OVER
            if self.phase == TAKE_PHASE:
                assert self.triangles or (self.drops[self.player] > 0 and self.can_act())


__all__ = ["NUM_ACTIONS", "MystriaGame", "MystriaState", "Score", "action_meaning"]
