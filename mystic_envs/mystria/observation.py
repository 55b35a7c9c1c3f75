"""Mystria observer: state -> float32 vector for one seat (egocentric: own seat first).

Everything on the table is public (whole stacks, both Magician boards, drops, the score board)
except the Objective tiles: a seat sees its own two drawn tiles and which it kept, and the
opponent's kept tile only once the game is over; discarded tiles never. ``LAYOUT`` is the
documented layout (``observation_layout``).

Besides the table itself, the vector carries one-action look-ahead features: which move or flip
would leave a triangle standing (and of which colour), where a top token of each colour would
complete a triangle, and which take would leave a triangle for the opponent. They are functions of
the public board only, so they hide nothing and leak nothing; they are there because a learner
that must discover triangle geometry from raw one-hot stacks wastes most of its samples (the
heuristic plans exactly these), and they cost about 10 us of an observation's 15
(``docs/rules/mystria.md``, "Observation").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import build_layout
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    LINES,
    NUM_COLOURS,
    NUM_OBJECTIVES,
    NUM_PLACES,
    NUM_SPACES,
    SPACE_COORDS,
    SPACE_NAMES,
    STACK_HEIGHT,
    TOTAL_DROPS,
    TRIANGLES,
    TURNS,
)
from mystic_envs.mystria.rules import FLIPPABLE, FLIPPED, PHASE_NAMES, STACKS, TAKEN, TOP

if TYPE_CHECKING:
    from mystic_envs.mystria.rules import MystriaState

_COLOURS = ", ".join(COLOUR_NAMES)
_SPACES = f"{SPACE_NAMES[0]} ... {SPACE_NAMES[-1]}"
VALUE_SCALE = 10.0  # the highest score-board value

LAYOUT = build_layout(
    [
        (
            "stacks",
            NUM_SPACES * STACK_HEIGHT * NUM_COLOURS,
            f"central board, space by space ({_SPACES}), then the 1st (top), 2nd and 3rd token from the "
            f"top: one-hot colour ({_COLOURS}); all zero where the stack has no such token",
        ),
        ("triangle_spaces", NUM_SPACES, "1 where the stack is in a triangle (its top token may be taken)"),
        ("own_board", NUM_PLACES * NUM_COLOURS, "own Magician board, places 1-12: one-hot colour"),
        ("opp_board", NUM_PLACES * NUM_COLOURS, "opponent's Magician board, places 1-12: one-hot colour"),
        ("drops", 2, f"Energy drops of [self, opponent] / {TOTAL_DROPS}"),
        ("tokens_placed", 2, f"tokens on the Magician board of [self, opponent] / {TURNS}"),
        ("score_values", NUM_COLOURS, f"score-board value of ({_COLOURS}) / 10; 0 until assigned"),
        ("phase", len(PHASE_NAMES), f"one-hot: {', '.join(PHASE_NAMES)}"),
        ("to_move", 1, "1 if this seat is to act"),
        ("first_player", 2, "the first player is [self, opponent]"),
        ("token_in_hand", NUM_COLOURS, "one-hot colour of the token taken and not yet placed"),
        ("full_rules", 1, "1 with the full rules (Objective tiles, Majority 3), 0 with the introductory"),
        ("own_objectives_drawn", NUM_OBJECTIVES, "the two Objective tiles this seat drew"),
        ("own_objective_kept", NUM_OBJECTIVES, "one-hot: the Objective tile this seat kept"),
        ("opp_objective_revealed", NUM_OBJECTIVES, "one-hot: opponent's kept tile, once the game is over"),
        (
            "move_forms",
            len(LINES) * NUM_COLOURS,
            "line by line (``board.LINES``, the order of the move actions): one-hot colour of the "
            "triangle a move along it would leave standing through its empty end; all zero if the board "
            "allows no such move (no stack at one end or no empty end) or it forms none (drops and the "
            "phase are not considered: this is the board the opponent could face)",
        ),
        (
            "flip_forms",
            NUM_SPACES * NUM_COLOURS,
            "space by space: one-hot colour of the triangle flipping its stack would leave standing "
            "through it; all zero if the flip changes nothing or forms none (drops and the phase are not "
            "considered)",
        ),
        (
            "completes",
            NUM_SPACES * NUM_COLOURS,
            f"space by space, colour by colour ({_COLOURS}): 1 where two joined stacks already show "
            "that colour, so a top token of it on this space would stand in a triangle",
        ),
        (
            "take_leaves_triangle",
            NUM_SPACES,
            "space by space: 1 where taking the top token would still leave a triangle on the board "
            "(a free take for the next magician)",
        ),
    ]
)
OBS_SIZE = LAYOUT[-1].stop
_AT = {e.name: e for e in LAYOUT}
_STACKS = _AT["stacks"].slice
_TRIANGLES = _AT["triangle_spaces"].start
_OWN_BOARD = _AT["own_board"].start
_OPP_BOARD = _AT["opp_board"].start
_DROPS = _AT["drops"].start
# drops, tokens_placed and score_values follow each other in the layout: one assignment fills them.
_SCALARS = slice(_DROPS, _AT["score_values"].stop)
_PHASE = _AT["phase"].start
_TO_MOVE = _AT["to_move"].start
_FIRST = _AT["first_player"].start
_HAND = _AT["token_in_hand"].start
_FULL = _AT["full_rules"].start
_DRAWN = _AT["own_objectives_drawn"].start
_KEPT = _AT["own_objective_kept"].start
_REVEALED = _AT["opp_objective_revealed"].start
_MOVE_FORMS = _AT["move_forms"].slice
_COMPLETES = _AT["completes"].slice
_TAKE_LEAVES = _AT["take_leaves_triangle"].start
_LOOK_AHEAD = slice(_MOVE_FORMS.start, _COMPLETES.stop)

# STACK_ROWS[code]: the 12 values of one space (3 levels x one-hot colour).
STACK_ROWS = np.zeros((len(STACKS), STACK_HEIGHT * NUM_COLOURS), dtype=np.float32)
for _code, _tokens in enumerate(STACKS):
    for _level, _c in enumerate(_tokens):
        STACK_ROWS[_code, _level * NUM_COLOURS + _c] = 1.0
# BOARD_ONES[c][mask]: offsets (from a board's start) of the ones of colour c's tokens on ``mask``.
_PLACE_BITS = tuple(tuple(i for i in range(NUM_PLACES) if m >> i & 1) for m in range(1 << NUM_PLACES))
BOARD_ONES = tuple(
    tuple(tuple(i * NUM_COLOURS + c for i in bits) for bits in _PLACE_BITS) for c in range(NUM_COLOURS)
)


# --- look-ahead tables -----------------------------------------------------------------------
# On a triangular lattice the triangles through a space are exactly its pairs of neighbours in
# consecutive directions. So everything the look-ahead needs at one space is a function of its six
# neighbours' top colours, and one table over the 5**6 neighbourhoods (each top empty or one of 4
# colours) answers it for every space at once: an observation costs a few gathers, no Python loop
# over spaces (it runs on every step). Table entries are 4-bit colour sets.
_DIRECTIONS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))  # E NE NW W SW SE, doubled coords
_NUM_DIRECTIONS = len(_DIRECTIONS)
_AT_COORD = {xy: i for i, xy in enumerate(SPACE_COORDS)}
_OFF_BOARD = NUM_SPACES  # a padding space that always reads empty
# _NEIGHBOURHOOD[s, k]: the neighbour of s in direction k, or the padding space.
_NEIGHBOURHOOD = np.array(
    [[_AT_COORD.get((r + dr, x + dx), _OFF_BOARD) for dr, dx in _DIRECTIONS] for r, x in SPACE_COORDS],
    dtype=np.intp,
)
_DIGIT = 5 ** np.arange(_NUM_DIRECTIONS)
# Top of each stack code as 0 (empty) or colour + 1; the last entry is the padding space's.
_TOP5 = np.array([t + 1 for t in TOP] + [0], dtype=np.intp)
_PAD_CODE = len(STACKS)


def _neighbourhood_tables() -> tuple[np.ndarray, np.ndarray]:
    """COMPLETES[n]: colours that would stand in a triangle at a space whose neighbourhood is n;
    MOVED_IN[k, n]: the colour a stack coming from direction k would stand in a triangle with
    (its old space is then empty, so only triangles not through direction k count)."""
    tops = (np.arange(5**_NUM_DIRECTIONS)[:, None] // _DIGIT) % 5
    colour_bit = np.where(tops > 0, 1 << np.maximum(tops - 1, 0), 0)
    pair = [(tops[:, k] == tops[:, (k + 1) % 6]) & (tops[:, k] > 0) for k in range(_NUM_DIRECTIONS)]
    completes = np.zeros(len(tops), dtype=np.uint8)
    moved_in = np.zeros((_NUM_DIRECTIONS, len(tops)), dtype=np.uint8)
    for k in range(_NUM_DIRECTIONS):
        completes |= np.where(pair[k], colour_bit[:, k], 0).astype(np.uint8)
    for src in range(_NUM_DIRECTIONS):
        for k in range(_NUM_DIRECTIONS):
            if src in (k, (k + 1) % _NUM_DIRECTIONS):
                continue
            same = pair[k] & (tops[:, k] == tops[:, src])
            moved_in[src] |= np.where(same, colour_bit[:, src], 0).astype(np.uint8)
    return completes, moved_in


_COMPLETES_TABLE, _MOVED_IN_TABLE = _neighbourhood_tables()
# Directed moves: d < len(LINES) goes along LINES[d] from its first end into its second, the
# others the other way; _FROM_DIRECTION[d] is where the source lies as seen from the destination.
_SRC = np.array([a for a, _ in LINES] + [b for _, b in LINES], dtype=np.intp)
_DST = np.array([b for _, b in LINES] + [a for a, _ in LINES], dtype=np.intp)
_FROM_DIRECTION = np.array(
    [list(_NEIGHBOURHOOD[d]).index(s) for s, d in zip(_SRC, _DST, strict=True)], dtype=np.intp
)
# A flip's new top as a colour bit (0 when the flip changes nothing and is no action).
_FLIP_BIT = np.array(
    [1 << TOP[FLIPPED[code]] if FLIPPABLE[code] else 0 for code in range(len(STACKS))], dtype=np.uint8
)
_INTO_EMPTY = np.array([0b1111, 0, 0, 0, 0], dtype=np.uint8)  # by destination top: only into empty
_NUM_LINES = len(LINES)
_LOOK_AHEAD_SETS = _NUM_LINES + 2 * NUM_SPACES
_ONE_HOT = np.array([[b >> c & 1 for c in range(NUM_COLOURS)] for b in range(16)], dtype=np.float32)
# Bit k of ``state.formed`` is TRIANGLES[k]; _NOT_THROUGH[s] keeps the triangles not through s.
_NOT_THROUGH = tuple(sum(1 << k for k, t in enumerate(TRIANGLES) if s not in t) for s in range(NUM_SPACES))


def _look_ahead(state: MystriaState, o: np.ndarray) -> None:
    """Fill the look-ahead parts of ``o``."""
    codes = np.array([*state.stacks, _PAD_CODE], dtype=np.intp)
    tops = _TOP5[codes]
    around = tops[_NEIGHBOURHOOD] @ _DIGIT
    completes = _COMPLETES_TABLE[around]
    # move_forms, flip_forms and completes follow each other in the layout: their colour sets go
    # into one buffer and out through one one-hot gather.
    sets = np.empty(_LOOK_AHEAD_SETS, dtype=np.uint8)
    moves = _MOVED_IN_TABLE[_FROM_DIRECTION, around[_DST]]
    moves &= _INTO_EMPTY[tops[_DST]]
    np.bitwise_or(moves[:_NUM_LINES], moves[_NUM_LINES:], out=sets[:_NUM_LINES])
    np.bitwise_and(completes, _FLIP_BIT[codes[:NUM_SPACES]], out=sets[_NUM_LINES:-NUM_SPACES])
    sets[-NUM_SPACES:] = completes
    o[_LOOK_AHEAD] = _ONE_HOT[sets].ravel()
    # A take leaves a triangle if one not through the space stands, or the stack's new top forms one.
    m = state.triangles
    while m:
        low = m & -m
        space = low.bit_length() - 1
        m ^= low
        left = TOP[TAKEN[state.stacks[space]]]
        if state.formed & _NOT_THROUGH[space] or (left >= 0 and completes[space] >> left & 1):
            o[_TAKE_LEAVES + space] = 1.0


def _board_ones(masks: list[int], start: int) -> list[int]:
    ones = []
    for c in range(NUM_COLOURS):
        ones += BOARD_ONES[c][masks[c]]
    return [start + i for i in ones]


def observe(state: MystriaState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array)."""
    s = state
    me, opp = player, 1 - player
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    o[_STACKS] = STACK_ROWS.take(s.stacks, axis=0).ravel()
    ones = _board_ones(s.masks[me], _OWN_BOARD) + _board_ones(s.masks[opp], _OPP_BOARD)
    m = s.triangles
    while m:
        low = m & -m
        ones.append(_TRIANGLES + low.bit_length() - 1)
        m ^= low
    ones.append(_PHASE + s.phase)
    ones.append(_FIRST + (s.first != me))
    if s.player == me:
        ones.append(_TO_MOVE)
    if s.held >= 0:
        ones.append(_HAND + s.held)
    if s.game.full:
        ones.append(_FULL)
        ones += [_DRAWN + t for t in s.drawn[me]]
        if s.kept[me] >= 0:
            ones.append(_KEPT + s.kept[me])
        if s.objective_visible_to(me) and s.kept[opp] >= 0:
            ones.append(_REVEALED + s.kept[opp])
    o[ones] = 1.0
    mine, theirs = s.masks[me], s.masks[opp]
    values = s.values
    o[_SCALARS] = (
        s.drops[me] / TOTAL_DROPS,
        s.drops[opp] / TOTAL_DROPS,
        (mine[0] | mine[1] | mine[2] | mine[3]).bit_count() / TURNS,
        (theirs[0] | theirs[1] | theirs[2] | theirs[3]).bit_count() / TURNS,
        values[0] / VALUE_SCALE,
        values[1] / VALUE_SCALE,
        values[2] / VALUE_SCALE,
        values[3] / VALUE_SCALE,
    )
    _look_ahead(s, o)
    return o
