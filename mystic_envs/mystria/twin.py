"""The Python side of Mystria's compiled twin, ``mystria.c`` (CONVENTIONS section 8).

The twin plays exactly the game of :mod:`mystic_envs.mystria.rules`, both rule sets (same seed,
same chance draws, same observations bit for bit); this module is what the core's glue asks of
the game:

- ``core_options(game)``: the game's keywords as the integers of ``me_config.options``:
  ``(full,)``, 1 with the full rules (Objective tiles), 0 with the introductory rules.
- ``core_tables()``: every component table the C file reads, by the names of its ``me_table``
  list, derived here from :mod:`mystic_envs.mystria.board`, the stack codes of
  :mod:`mystic_envs.mystria.rules` and the observation's layout, so that no number is typed
  twice. ``consts`` carries the sizes and ids the C file names as constants (counts, action
  offsets, phases, the observation's layout), which its ``dims()`` compares with its own, so a
  change here cannot pass unnoticed.
- ``privileged_layout(game)`` and ``privileged_observation(state)``: the privileged view for
  centralized critics, and its Python reference: both seats' observations, then the only hidden
  things of Mystria, the Objective tiles (the two each seat drew and the one it kept). The four
  tokens left in the bag are not in it: counting the table tells anyone what they are. Never for
  an acting policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, privileged_view_layout
from mystic_envs.mystria import board, observation, rules

if TYPE_CHECKING:
    from mystic_envs.mystria.rules import MystriaGame, MystriaState

CORE_NAME = "mystria"

# The C file's "consts" table, in the order of its C_* enum: sizes and ids the C file uses as
# compile-time constants (checked in its dims()), then the observation's layout starts.
CONSTS: tuple[tuple[str, int], ...] = (
    ("NUM_COLOURS", board.NUM_COLOURS),
    ("STACK_HEIGHT", board.STACK_HEIGHT),
    ("NUM_SPACES", board.NUM_SPACES),
    ("NUM_STACK_SPACES", len(board.STACK_SPACES)),
    ("NUM_TOKENS", board.NUM_COLOURS * board.TOKENS_PER_COLOUR),
    ("TOKENS_PER_COLOUR", board.TOKENS_PER_COLOUR),
    ("NUM_PLACES", board.NUM_PLACES),
    ("TURNS", board.TURNS),
    ("NUM_OBJECTIVES", board.NUM_OBJECTIVES),
    ("OBJECTIVES_DRAWN", board.OBJECTIVES_DRAWN),
    ("NUM_STACKS", len(rules.STACKS)),
    ("NUM_PAIRS", len(board.MOVE_PAIRS)),
    ("NUM_TRIANGLES", len(board.TRIANGLES)),
    ("KEEP", rules.KEEP),
    ("ASSIGN", rules.ASSIGN),
    ("MOVE", rules.MOVE),
    ("FLIP", rules.FLIP),
    ("TAKE", rules.TAKE),
    ("PLACE", rules.PLACE),
    ("NUM_ACTIONS", rules.NUM_ACTIONS),
    ("KEEP_PHASE", rules.KEEP_PHASE),
    ("SCORE_BOARD", rules.SCORE_BOARD),
    ("TAKE_PHASE", rules.TAKE_PHASE),
    ("PLACE_PHASE", rules.PLACE_PHASE),
    ("GAME_OVER", rules.GAME_OVER),
    ("NUM_PHASES", len(rules.PHASE_NAMES)),
    ("SCORED", rules.SCORED),
    ("OUT_OF_ENERGY", rules.OUT_OF_ENERGY),
    ("NO_ACTION", rules.NO_ACTION),
    ("OBS_SIZE", observation.OBS_SIZE),
    *((f"AT_{entry.name.upper()}", entry.start) for entry in observation.LAYOUT),
)

# The hidden block of the privileged view: per seat, the tiles it drew and the one it kept.
HIDDEN_PARTS = (
    ("objectives_drawn", board.NUM_OBJECTIVES, "the two Objective tiles drawn (none with the intro rules)"),
    ("objective_kept", board.NUM_OBJECTIVES, "one-hot: the Objective tile kept (0 until kept)"),
)
HIDDEN_SIZE = 2 * sum(size for _, size, _ in HIDDEN_PARTS)
AT_MOST = 6  # lines and triangles at one space (TRIANGLES_AT and LINES_AT in the C file)


def _padded(items: Iterable[int]) -> list[int]:
    """``items`` then -1 up to the C file's six places a space (a lattice space has six neighbours,
    so at most six lines and six triangles)."""
    out = list(items)
    assert len(out) <= AT_MOST, out
    return out + [-1] * (AT_MOST - len(out))


def core_options(game: MystriaGame) -> tuple[int, ...]:
    """``me_config.options``: ``(full,)``, 1 with the full rules, 0 with the introductory."""
    return (int(game.full),)


def core_tables() -> dict[str, list[int]]:
    """Every table of the C file's ``TABLES``, by name."""
    assert int(observation.VALUE_SCALE) == observation.VALUE_SCALE, "the twin takes the scale as an integer"
    stacks = rules.STACKS
    height = board.STACK_HEIGHT
    return {
        "consts": [value for _, value in CONSTS],
        # Rule numbers: the drops, the score values (highest first) and the Majority token of
        # each rule set (introductory, then full), the observation's value scale.
        "numbers": [
            board.TOTAL_DROPS,
            board.FIRST_PLAYER_DROPS,
            *board.SCORE_VALUES["intro"],
            *board.SCORE_VALUES["full"],
            board.MAJORITY_POINTS["intro"],
            board.MAJORITY_POINTS["full"],
            int(observation.VALUE_SCALE),
        ],
        # A stack code's tokens, top first (-1 past its height), and what a flip or a take leaves.
        "stack_tokens": [t[level] if level < len(t) else -1 for t in stacks for level in range(height)],
        "stack_top": list(rules.TOP),
        "stack_flipped": list(rules.FLIPPED),
        "stack_taken": list(rules.TAKEN),
        "stack_flippable": [int(f) for f in rules.FLIPPABLE],
        # The code of the stack of three (a, b, c), top first, at a * 16 + b * 4 + c: the deal.
        "full_stack_code": [
            rules.STACK_CODE[(a, b, c)]
            for a in range(board.NUM_COLOURS)
            for b in range(board.NUM_COLOURS)
            for c in range(board.NUM_COLOURS)
        ],
        "stack_spaces": list(board.STACK_SPACES),
        "move_pairs": [s for pair in board.MOVE_PAIRS for s in pair],
        "triangles": [s for t in board.TRIANGLES for s in t],
        # The triangles through each space and the lines at it (move-pair indices), six places a
        # space: a move, flip or take changes one or two stacks, so only their triangles need a new
        # look, and moves are found from the few empty spaces.
        "triangles_at": [
            k
            for s in range(board.NUM_SPACES)
            for k in _padded(k for k, t in enumerate(board.TRIANGLES) if s in t)
        ],
        "lines_at": [
            k
            for s in range(board.NUM_SPACES)
            for k in _padded(k for k, pair in enumerate(board.MOVE_PAIRS) if board.IS_LINE[k] and s in pair)
        ],
        "largest_group": list(board.LARGEST_GROUP),
        "objective_masks": list(board.OBJECTIVE_MASKS),
        "objective_points": list(board.OBJECTIVE_POINTS),
    }


def privileged_layout(game: MystriaGame) -> tuple[LayoutEntry, ...]:
    """Both seats' observations (``observation.LAYOUT`` each), then each seat's Objective tiles."""
    hidden = [
        (f"{name}_{p}", size, f"player_{p}'s {meaning}")
        for p in range(game.num_players)
        for name, size, meaning in HIDDEN_PARTS
    ]
    return privileged_view_layout(game.num_players, observation.OBS_SIZE, hidden)


def privileged_observation(state: MystriaState) -> np.ndarray:
    """The privileged view of ``state`` (float32), laid out by ``privileged_layout``."""
    n = board.NUM_OBJECTIVES
    hidden = np.zeros(HIDDEN_SIZE, dtype=np.float32)
    for p in (0, 1):
        base = 2 * n * p
        for t in state.drawn[p]:
            hidden[base + t] = 1.0
        if state.kept[p] >= 0:
            hidden[base + n + state.kept[p]] = 1.0
    return np.concatenate([state.observation(0), state.observation(1), hidden])


__all__ = [
    "CONSTS",
    "CORE_NAME",
    "core_options",
    "core_tables",
    "privileged_layout",
    "privileged_observation",
]
