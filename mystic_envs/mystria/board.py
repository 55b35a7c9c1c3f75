"""Mystria component data: the central board, the Magician board, the Objective tiles, the counts.

Declarations first, then the tables derived from them once at import. The rulebook gives the
counts; the layouts and the tiles are designed (``docs/rules/mystria.md``, "Designed components",
gives the reasons):

- Central board: a triangular lattice of 24 spaces in rows of 4, 5, 6, 5, 4 (named A1 ... E4).
  Every space is joined by a line to its horizontal neighbours and to its two diagonal neighbours
  in the rows above and below; a triangle is three mutually joined spaces (a unit triangle of the
  lattice). Four spaces carry a star (the corners A1, A4, E1, E4) and start empty; the other 20
  start with a stack of three.
- Magician board: 12 places in 3 rows of 4, each joined to its orthogonal neighbours, except three
  neighbouring pairs that are not connected (1-5, 6-7, 8-12).
- Objective tiles: 8 patterns of 4 places; a tile is worth 3 points plus one per separate part
  the pattern has on the Magician board's connections (4 to 7 points).
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
STAR_SPACES = ("A1", "A4", "E1", "E4")  # the four corners on the players' sides


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
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            _AT[(r + dr, x + dx)]
            for dr, dx in ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))
            if (r + dr, x + dx) in _AT
        )
    )
    for r, x in SPACE_COORDS
)
# The lines of the board, (a, b) with a < b, sorted. A stack moves along a line only into an empty
# space, so one line names one move in any position: from its full end to its empty end.
LINES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(NUM_SPACES) for b in NEIGHBOURS[a] if a < b)
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
    # name            places            points = 3 + separate parts
    ("Pillar",        (1, 2, 5, 6),     4),  # one part: 1-5 is cut, but 1-2-6-5 joins it
    ("Riverbank",     (9, 10, 11, 12),  4),  # the bottom row
    ("Broken Bridge", (5, 6, 7, 8),     5),  # the middle row, split by the 6-7 cut
    ("Fallen Tower",  (4, 8, 11, 12),   5),  # the right column and 11, split by the 8-12 cut
    ("Crossing",      (2, 3, 9, 12),    6),  # a pair and two lone corners
    ("Falling Star",  (1, 5, 6, 12),    6),  # 1 is cut from 5; 12 lies apart
    ("Four Winds",    (1, 4, 9, 12),    7),  # the four corners
    ("Diamond",       (2, 5, 8, 11),    7),  # four lone places, one on each side
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
