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
heuristic plans exactly these). They are most of the cost of building the public board view
(about 29 us of CPU), which the state keeps until a stack changes; an observation that finds it
kept costs about 6 us (``docs/rules/mystria.md``, "Observation").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import UNIT, build_layout
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    IS_LINE,
    LINES,
    MOVE_PAIRS,
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
            UNIT,
        ),
        (
            "triangle_spaces",
            NUM_SPACES,
            "1 where the stack is in a triangle (its top token may be taken)",
            UNIT,
        ),
        ("own_board", NUM_PLACES * NUM_COLOURS, "own Magician board, places 1-12: one-hot colour", UNIT),
        (
            "opp_board",
            NUM_PLACES * NUM_COLOURS,
            "opponent's Magician board, places 1-12: one-hot colour",
            UNIT,
        ),
        ("drops", 2, f"Energy drops of [self, opponent] / {TOTAL_DROPS}", UNIT),
        ("tokens_placed", 2, f"tokens on the Magician board of [self, opponent] / {TURNS}", UNIT),
        ("score_values", NUM_COLOURS, f"score-board value of ({_COLOURS}) / 10; 0 until assigned", UNIT),
        ("phase", len(PHASE_NAMES), f"one-hot: {', '.join(PHASE_NAMES)}", UNIT),
        ("to_move", 1, "1 if this seat is to act", UNIT),
        ("first_player", 2, "the first player is [self, opponent]", UNIT),
        ("token_in_hand", NUM_COLOURS, "one-hot colour of the token taken and not yet placed", UNIT),
        (
            "full_rules",
            1,
            "1 with the full rules (Objective tiles, Majority 3), 0 with the introductory",
            UNIT,
        ),
        ("own_objectives_drawn", NUM_OBJECTIVES, "the two Objective tiles this seat drew", UNIT),
        ("own_objective_kept", NUM_OBJECTIVES, "one-hot: the Objective tile this seat kept", UNIT),
        (
            "opp_objective_revealed",
            NUM_OBJECTIVES,
            "one-hot: opponent's kept tile, once the game is over",
            UNIT,
        ),
        (
            "move_forms",
            len(MOVE_PAIRS) * NUM_COLOURS,
            "pair by pair of neighbouring spaces (``board.MOVE_PAIRS``, the order of the move actions): "
            "one-hot colour of the triangle a move along its line would leave standing through its empty "
            "end; all zero across a gap (no line), if the board allows no such move (no stack at one end "
            "or no empty end) or it forms none (drops and the phase are not considered: this is the board "
            "the opponent could face)",
            UNIT,
        ),
        (
            "flip_forms",
            NUM_SPACES * NUM_COLOURS,
            "space by space: one-hot colour of the triangle flipping its stack would leave standing "
            "through it; all zero if the flip changes nothing or forms none (drops and the phase are not "
            "considered)",
            UNIT,
        ),
        (
            "completes",
            NUM_SPACES * NUM_COLOURS,
            f"space by space, colour by colour ({_COLOURS}): 1 where two joined stacks already show "
            "that colour, so a top token of it on this space would stand in a triangle",
            UNIT,
        ),
        (
            "take_leaves_triangle",
            NUM_SPACES,
            "space by space: 1 where taking the top token would still leave a triangle on the board "
            "(a free take for the next magician)",
            UNIT,
        ),
    ]
)
OBS_SIZE = LAYOUT[-1].stop
_AT = {e.name: e for e in LAYOUT}
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

# The board view: the observation's public parts (a function of the stacks alone) already in
# place in an otherwise zero vector, so an observation is one copy of it plus the seat's own values.
# The stacks come from one gather of each stack's values; the look-ahead's colour sets (moves, flips,
# completes: 4-bit sets one after the other) from one one-hot gather.
_STACK_VALUES = _AT["stacks"].slice
_LOOK_VALUES = slice(_AT["move_forms"].start, _AT["completes"].stop)
_LOOK_SETS = (_LOOK_VALUES.stop - _LOOK_VALUES.start) // NUM_COLOURS
_TRIANGLES = _AT["triangle_spaces"].start
_TAKE_LEAVES = _AT["take_leaves_triangle"].start
if [e.name for e in LAYOUT[-4:]] != ["move_forms", "flip_forms", "completes", "take_leaves_triangle"]:
    raise AssertionError("the look-ahead's colour sets lie together at the end of the layout")

# STACK_VALUES[code]: the stack's part of ``stacks`` (1st, 2nd and 3rd token from the top, one-hot
# colour each); the last row, all zero, is the padding space's.
STACK_VALUES = np.zeros((len(STACKS) + 1, STACK_HEIGHT * NUM_COLOURS), dtype=np.float32)
for _code, _tokens in enumerate(STACKS):
    for _level, _c in enumerate(_tokens):
        STACK_VALUES[_code, _level * NUM_COLOURS + _c] = 1.0
# OWN_ONES[c][mask], OPP_ONES[c][mask]: the observation indices of the ones that colour c's tokens on
# the places of ``mask`` set in the own or the opponent's board part (built once: the hot path then
# only unpacks tuples). The indices are shared int objects, so the tables hold pointers.
_INDEX = list(range(OBS_SIZE))
_PLACE_BITS = tuple(tuple(i for i in range(NUM_PLACES) if m >> i & 1) for m in range(1 << NUM_PLACES))
OWN_ONES, OPP_ONES = (
    tuple(
        tuple(tuple(_INDEX[start + i * NUM_COLOURS + c] for i in bits) for bits in _PLACE_BITS)
        for c in range(NUM_COLOURS)
    )
    for start in (_OWN_BOARD, _OPP_BOARD)
)


# --- look-ahead tables -----------------------------------------------------------------------
# On the lattice the triangles through a space are among its pairs of neighbours in consecutive
# directions; a pair is a triangle of the board when all three of its lines are printed (the board
# has gaps). So everything the look-ahead needs at one space is a function of its six neighbours'
# top colours and of which of those pairs are triangles there, and one table per such pattern over
# the 5**6 neighbourhoods (each top empty or one of 4 colours) answers it for every space at once:
# an observation costs a few gathers, no Python loop over spaces (it runs on every step). Table
# entries are 4-bit colour sets.
_DIRECTIONS = ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1))  # E NE NW W SW SE, doubled coords
_NUM_DIRECTIONS = len(_DIRECTIONS)
_NUM_CODES = 5**_NUM_DIRECTIONS
_AT_COORD = {xy: i for i, xy in enumerate(SPACE_COORDS)}
_LINKED = frozenset(LINES)
_OFF_BOARD = NUM_SPACES  # a padding space that always reads empty


def _linked_neighbour(s: int, k: int) -> int:
    r, x = SPACE_COORDS[s]
    dr, dx = _DIRECTIONS[k]
    n = _AT_COORD.get((r + dr, x + dx), _OFF_BOARD)
    return n if n != _OFF_BOARD and (min(s, n), max(s, n)) in _LINKED else _OFF_BOARD


# _NEIGHBOURHOOD[s, k]: the neighbour a line joins to s in direction k, or the padding space; the
# padding space's own row (last) is all padding: it lies in no triangle.
_NEIGHBOURHOOD = np.array(
    [[_linked_neighbour(s, k) for k in range(_NUM_DIRECTIONS)] for s in range(NUM_SPACES)]
    + [[_OFF_BOARD] * _NUM_DIRECTIONS],
    dtype=np.intp,
)


def _slots(s: int) -> int:
    """Bit k set where s and its neighbours in directions k and k + 1 form a triangle of the board."""
    out = 0
    for k in range(_NUM_DIRECTIONS):
        u, v = _NEIGHBOURHOOD[s, k], _NEIGHBOURHOOD[s, (k + 1) % _NUM_DIRECTIONS]
        if u != _OFF_BOARD and v != _OFF_BOARD and (min(u, v), max(u, v)) in _LINKED:
            out |= 1 << k
    return out


_SLOTS = (*(_slots(s) for s in range(NUM_SPACES)), 0)  # the padding space last
# The slots name the board's triangles exactly (each once from each of its three corners).
if sorted(
    tuple(sorted((s, int(_NEIGHBOURHOOD[s, k]), int(_NEIGHBOURHOOD[s, (k + 1) % _NUM_DIRECTIONS]))))
    for s in range(NUM_SPACES + 1)
    for k in range(_NUM_DIRECTIONS)
    if _SLOTS[s] >> k & 1
) != sorted(t for t in TRIANGLES for _ in range(3)):
    raise AssertionError("the look-ahead's neighbourhoods do not match board.TRIANGLES")
_PATTERNS = sorted(set(_SLOTS))
# Offset of each space's pattern table: a space's neighbourhood code plus this indexes the tables.
_PATTERN_OFFSET = np.array([_PATTERNS.index(m) * _NUM_CODES for m in _SLOTS], dtype=np.intp)
_DIGIT = 5 ** np.arange(_NUM_DIRECTIONS)
# Top of each stack code as 0 (empty) or colour + 1; the last entry is the padding space's.
_TOP5 = np.array([t + 1 for t in TOP] + [0], dtype=np.intp)
_PAD_CODE = len(STACKS)


def _neighbourhood_tables(slots: int) -> tuple[np.ndarray, np.ndarray]:
    """For a space whose triangles are the pairs ``slots``: COMPLETES[n], the colours that would
    stand in a triangle there when its neighbourhood is n; MOVED_IN[k, n], the colour a stack
    coming from direction k would stand in a triangle with (its old space is then empty, so only
    triangles not through direction k count)."""
    tops = (np.arange(_NUM_CODES)[:, None] // _DIGIT) % 5
    colour_bit = np.where(tops > 0, 1 << np.maximum(tops - 1, 0), 0)
    pair = [
        (tops[:, k] == tops[:, (k + 1) % 6]) & (tops[:, k] > 0) & bool(slots >> k & 1)
        for k in range(_NUM_DIRECTIONS)
    ]
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


_TABLES = [_neighbourhood_tables(m) for m in _PATTERNS]
_COMPLETES_TABLE = np.concatenate([c for c, _ in _TABLES])
# Flat, by direction then neighbourhood: one 1-D gather (a 2-D fancy index costs twice as much).
_MOVED_IN_TABLE = np.concatenate([m for _, m in _TABLES], axis=1).ravel()
_PER_DIRECTION = len(_COMPLETES_TABLE)
del _TABLES
# Directed moves: d < len(MOVE_PAIRS) goes from the pair's first space into its second, the others
# the other way; _FROM_DIRECTION[d] is where the source lies as seen from the destination. A pair
# across a gap has no move: its destination is the padding space, which completes nothing.
_PAIRS = [pair if IS_LINE[k] else (_OFF_BOARD, _OFF_BOARD) for k, pair in enumerate(MOVE_PAIRS)]
_SRC = np.array([a for a, _ in _PAIRS] + [b for _, b in _PAIRS], dtype=np.intp)
_DST = np.array([b for _, b in _PAIRS] + [a for a, _ in _PAIRS], dtype=np.intp)
_FROM_DIRECTION = np.array(
    [list(_NEIGHBOURHOOD[d]).index(s) if d != _OFF_BOARD else 0 for s, d in zip(_SRC, _DST, strict=True)],
    dtype=np.intp,
)
_FROM_OFFSET = _FROM_DIRECTION * _PER_DIRECTION
# A flip's new top as a colour bit (0 when the flip changes nothing and is no action).
_FLIP_BIT = np.array(
    [1 << TOP[FLIPPED[code]] if FLIPPABLE[code] else 0 for code in range(len(STACKS))], dtype=np.uint8
)
_INTO_EMPTY = np.array([0b1111, 0, 0, 0, 0], dtype=np.uint8)  # by destination top: only into empty
_NUM_LINES = len(MOVE_PAIRS)
_MOVE_SETS = slice(0, _NUM_LINES)
_FLIP_SETS = slice(_MOVE_SETS.stop, _MOVE_SETS.stop + NUM_SPACES)
_COMPLETE_SETS = slice(_FLIP_SETS.stop, _FLIP_SETS.stop + NUM_SPACES)
_ONE_HOT = np.array([[b >> c & 1 for c in range(NUM_COLOURS)] for b in range(16)], dtype=np.float32)
# Bit k of ``state.formed`` is TRIANGLES[k]; _NOT_THROUGH[s] keeps the triangles not through s.
_NOT_THROUGH = tuple(sum(1 << k for k, t in enumerate(TRIANGLES) if s not in t) for s in range(NUM_SPACES))
# _SPACE_ONES[m]: the set bits of a 12-bit half of a space mask (two lookups cover the 24 spaces).
_HALF = 12
if NUM_SPACES > 2 * _HALF:
    raise AssertionError("space masks are read in two 12-bit halves")
_SPACE_ONES = tuple(tuple(i for i in range(_HALF) if m >> i & 1) for m in range(1 << _HALF))


def board_view(state: MystriaState) -> np.ndarray:
    """The public board's parts of every observation in place (the stacks, the triangle spaces,
    the look-ahead; the seat's own values 0): a function of the stacks alone, so the state keeps it
    until a stack changes (a place, the next turn's start and the other seat's view all reuse it);
    never written to once made."""
    view = state.board_view
    if view is None:
        view = state.board_view = _make_board_view(state)
    return view


def _make_board_view(state: MystriaState) -> np.ndarray:
    stacks = state.stacks
    codes = np.array([*stacks, _PAD_CODE], dtype=np.intp)
    tops = _TOP5[codes]
    around = tops[_NEIGHBOURHOOD] @ _DIGIT + _PATTERN_OFFSET
    completes = _COMPLETES_TABLE[around]
    # The look-ahead's colour sets (moves, flips, completes) lie one after the other: one buffer,
    # one one-hot gather.
    sets = np.empty(_LOOK_SETS, dtype=np.uint8)
    moves = _MOVED_IN_TABLE[around[_DST] + _FROM_OFFSET]
    moves &= _INTO_EMPTY[tops[_DST]]
    np.bitwise_or(moves[:_NUM_LINES], moves[_NUM_LINES:], out=sets[_MOVE_SETS])
    completes = completes[:NUM_SPACES]
    np.bitwise_and(completes, _FLIP_BIT[codes[:NUM_SPACES]], out=sets[_FLIP_SETS])
    sets[_COMPLETE_SETS] = completes
    view = np.zeros(OBS_SIZE, dtype=np.float32)
    view[_STACK_VALUES] = STACK_VALUES[codes[:NUM_SPACES]].ravel()
    view[_LOOK_VALUES] = _ONE_HOT[sets].ravel()
    m = state.triangles
    if m:
        spaces = [*_SPACE_ONES[m & (1 << _HALF) - 1], *(_HALF + i for i in _SPACE_ONES[m >> _HALF])]
        ones = [_TRIANGLES + space for space in spaces]
        # A take leaves a triangle if one not through the space stands, or the stack's new top
        # forms one.
        formed = state.formed
        for space in spaces:
            left = TOP[TAKEN[stacks[space]]]
            if formed & _NOT_THROUGH[space] or (left >= 0 and completes[space] >> left & 1):
                ones.append(_TAKE_LEAVES + space)
        view[ones] = 1.0
    view.flags.writeable = False
    return view


def observe(state: MystriaState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array)."""
    s = state
    me, opp = player, 1 - player
    o = board_view(s).copy()
    mine, theirs = s.masks[me], s.masks[opp]
    own, other = OWN_ONES, OPP_ONES
    ones = [
        *own[0][mine[0]], *own[1][mine[1]], *own[2][mine[2]], *own[3][mine[3]],
        *other[0][theirs[0]], *other[1][theirs[1]], *other[2][theirs[2]], *other[3][theirs[3]],
        _PHASE + s.phase,
        _FIRST + (s.first != me),
    ]  # fmt: skip
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
    return o
