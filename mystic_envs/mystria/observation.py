"""Mystria observer: state -> float32 vector for one seat (egocentric: own seat first).

Everything on the table is public (whole stacks, both Magician boards, drops, the score board)
except the Objective tiles: a seat sees its own two drawn tiles and which it kept, and the
opponent's kept tile only once the game is over; discarded tiles never. ``LAYOUT`` is the
documented layout (``observation_layout``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import build_layout
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    NUM_COLOURS,
    NUM_OBJECTIVES,
    NUM_PLACES,
    NUM_SPACES,
    SPACE_NAMES,
    STACK_HEIGHT,
    TOTAL_DROPS,
    TURNS,
)
from mystic_envs.mystria.rules import PHASE_NAMES, STACKS

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
            f"central board, space by space ({_SPACES}), then top, middle, bottom token: "
            f"one-hot colour ({_COLOURS}); all zero where there is no token",
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
    return o
