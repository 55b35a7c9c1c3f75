"""Mystria component data: the central board, the Magician board, the Objective tiles, the counts.

Declarations first, then the tables derived from them once at import. The rulebook gives the
counts; the layouts and the tiles are designed (``docs/rules/mystria.md``, "Designed components",
gives the reasons):

- Central board: 24 spaces on a triangular lattice in rows of 4, 5, 6, 5, 4 (named A1 ... E4).
  Lines join each space to its lattice neighbours (in its row, and diagonally in the rows above and
  below) except across four gaps (``GAPS``); a triangle is three spaces joined pairwise by lines.
  Four spaces carry a star (B2, B4, D2, D4) and start empty; the other 20 start with a stack of
  three.
- Magician board: 12 places in 3 rows of 4, each joined to its orthogonal neighbours, except three
  neighbouring pairs that are not connected (1-5, 6-7, 8-12).
- Objective tiles: 8 patterns of 4 places in four pairs that a half turn of the Magician board
  maps onto each other; a pair's points (4, 6 or 7) follow how often the heuristic player fulfils
  it, so that every tile is worth about the same expected points (about 2).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

# --- counts (rulebook) -------------------------------------------------------------------------
COLOUR_NAMES = ("purple", "green", "blue", "red")
NUM_COLOURS = len(COLOUR_NAMES)
PURPLE, GREEN, BLUE, RED = range(NUM_COLOURS)
TOKENS_PER_COLOUR = 16  # 64 tokens in 4 colours
STACK_HEIGHT = 3
TOTAL_DROPS = 11
FIRST_PLAYER_DROPS = 6  # the second player takes the other 5
TURNS = 12  # per player; also the number of places on a Magician board

# Score board faces, highest value first: the order in which the second player places the tokens.
SCORE_VALUES = {"intro": (4, 3, 3, 2), "full": (10, 7, 5, 3)}
MAJORITY_POINTS = {"intro": 5, "full": 3}
VARIANTS = tuple(SCORE_VALUES)

# --- central board (designed) ------------------------------------------------------------------
ROW_NAMES = "ABCDE"
ROW_LENGTHS = (4, 5, 6, 5, 4)
STAR_SPACES = ("B2", "B4", "D2", "D4")  # start empty: every move of the opening goes into one
# The lattice's neighbouring pairs that no printed line joins: spaces linked by lines are adjacent,
# these are not (a stack cannot move between them, and no triangle has them as a side).
GAPS = ("A2-A3", "C1-C2", "C5-C6", "E2-E3")


def _lattice() -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    # "Doubled" coordinates: row r, column x with x + r even; neighbours are (r, x +- 2) and
    # (r +- 1, x +- 1), which is exactly a triangular lattice.
    names, coords = [], []
    widest = max(ROW_LENGTHS)
    for r, length in enumerate(ROW_LENGTHS):
        for k in range(length):
            names.append(f"{ROW_NAMES[r]}{k + 1}")
            coords.append((r, widest - length + 2 * k))
    return tuple(names), tuple(coords)


SPACE_NAMES, SPACE_COORDS = _lattice()
NUM_SPACES = len(SPACE_NAMES)
SPACE_INDEX = {name: i for i, name in enumerate(SPACE_NAMES)}
STARS = tuple(SPACE_INDEX[name] for name in STAR_SPACES)
STACK_SPACES = tuple(i for i in range(NUM_SPACES) if i not in STARS)

_AT = {c: i for i, c in enumerate(SPACE_COORDS)}
LATTICE_STEPS = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))  # W, E, NW, NE, SW, SE


def _pair(name: str) -> tuple[int, int]:
    a, b = sorted(SPACE_INDEX[n] for n in name.split("-"))
    return a, b


_GAP_PAIRS = frozenset(_pair(g) for g in GAPS)
_LATTICE_PAIRS = frozenset(
    (min(a, _AT[(r + dr, x + dx)]), max(a, _AT[(r + dr, x + dx)]))
    for a, (r, x) in enumerate(SPACE_COORDS)
    for dr, dx in LATTICE_STEPS
    if (r + dr, x + dx) in _AT
)
if not _GAP_PAIRS <= _LATTICE_PAIRS:
    raise ValueError(f"a gap that joins no lattice neighbours: {sorted(_GAP_PAIRS - _LATTICE_PAIRS)}")
# The lines of the board, (a, b) with a < b, sorted: every pair of lattice neighbours but the gaps.
# A stack moves along a line only into an empty space, so one line names one move in any position:
# from its full end to its empty end.
LINES: tuple[tuple[int, int], ...] = tuple(sorted(_LATTICE_PAIRS - _GAP_PAIRS))
# The move actions name every pair of lattice neighbours, the gaps' too (whose moves are never
# legal): the action and observation layouts stay those of every Mystria model, gaps or not.
MOVE_PAIRS: tuple[tuple[int, int], ...] = tuple(sorted(_LATTICE_PAIRS))
IS_LINE: tuple[bool, ...] = tuple(pair not in _GAP_PAIRS for pair in MOVE_PAIRS)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted([b for a, b in LINES if a == s] + [a for a, b in LINES if b == s]))
    for s in range(NUM_SPACES)
)
TRIANGLES: tuple[tuple[int, int, int], ...] = tuple(
    t
    for t in itertools.combinations(range(NUM_SPACES), 3)
    if t[1] in NEIGHBOURS[t[0]] and t[2] in NEIGHBOURS[t[0]] and t[2] in NEIGHBOURS[t[1]]
)

# --- Magician board (designed) -----------------------------------------------------------------
MAGICIAN_ROWS, MAGICIAN_COLUMNS = 3, 4
NUM_PLACES = MAGICIAN_ROWS * MAGICIAN_COLUMNS  # places 1-12, row by row
# The three neighbouring pairs that are not connected ("three places are not connected").
UNCONNECTED = ((1, 5), (6, 7), (8, 12))


def _connections() -> tuple[tuple[int, int], ...]:
    pairs = []
    for p in range(1, NUM_PLACES + 1):
        r, c = divmod(p - 1, MAGICIAN_COLUMNS)
        if c + 1 < MAGICIAN_COLUMNS:
            pairs.append((p, p + 1))
        if r + 1 < MAGICIAN_ROWS:
            pairs.append((p, p + MAGICIAN_COLUMNS))
    return tuple(pair for pair in pairs if pair not in UNCONNECTED)


CONNECTIONS = _connections()  # 1-based place pairs
# PLACE_LINKS[i]: bitmask of the places connected to place i (0-based bits).
PLACE_LINKS: tuple[int, ...] = tuple(
    sum(1 << (b - 1) for a, b in CONNECTIONS if a == i + 1)
    | sum(1 << (a - 1) for a, b in CONNECTIONS if b == i + 1)
    for i in range(NUM_PLACES)
)


def groups(mask: int) -> list[int]:
    """The separate colour groups the places of ``mask`` form on the Magician board's connections."""
    out, left = [], mask
    while left:
        group, grown = left & -left, 0
        while grown != group:
            grown = group
            bits = group
            while bits:
                low = bits & -bits
                group |= PLACE_LINKS[low.bit_length() - 1] & mask
                bits ^= low
        out.append(group)
        left &= ~group
    return out


def _parts(mask: int) -> int:
    """Number of separate groups ``mask`` forms on the Magician board's connections."""
    return len(groups(mask))


# LARGEST_GROUP[mask]: size of the largest connected group among the places of ``mask``.
LARGEST_GROUP = tuple(max((g.bit_count() for g in groups(m)), default=0) for m in range(1 << NUM_PLACES))


# --- Objective tiles (designed) ----------------------------------------------------------------
class Objective(NamedTuple):
    name: str
    places: tuple[int, int, int, int]  # 1-based places that must all hold one colour
    points: int


# fmt: off
_TILES = (
    # name        places            points: by the measured share fulfilled (see the docstring)
    ("Banner",    (3, 4, 7, 11),    4),  # down the third column from a flag on 4
    ("Wand",      (2, 6, 9, 10),    4),  # Banner turned half round
    ("Pillar",    (1, 2, 5, 6),     4),  # 1-5 is cut, but 1-2-6-5 joins it
    ("Anvil",     (7, 8, 11, 12),   4),  # Pillar turned half round (8-12 cut, 8-7-11-12 joined)
    ("Gate",      (2, 3, 6, 7),     6),  # a square whose bottom side is the 6-7 cut
    ("Cradle",    (6, 7, 10, 11),   6),  # Gate turned half round
    ("Crook",     (1, 2, 3, 5),     7),  # 1-2-3 and a 5 cut from 1: two parts, one place (6) apart
    ("Hook",      (8, 10, 11, 12),  7),  # Crook turned half round (8-12 cut)
)
# fmt: on
OBJECTIVES: tuple[Objective, ...] = tuple(Objective(*row) for row in _TILES)
NUM_OBJECTIVES = len(OBJECTIVES)
OBJECTIVE_MASKS = tuple(sum(1 << (p - 1) for p in t.places) for t in OBJECTIVES)
OBJECTIVE_POINTS = tuple(t.points for t in OBJECTIVES)
OBJECTIVES_DRAWN = 2  # each magician draws two and keeps one


def objective_parts(tile: int) -> int:
    """Separate parts of tile ``tile``'s pattern on the Magician board (its points are 3 + this)."""
    return _parts(OBJECTIVE_MASKS[tile])
