"""The terminal's central board: read back from the text alone, it shows every space with its stack
and exactly the lines of ``board.LINES`` (so gaps, adjacency and triangles can be seen)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from mystic_envs.mystria.board import LINES, SPACE_NAMES, STARS, TRIANGLES
from mystic_envs.mystria.render import LETTERS
from mystic_envs.mystria.rules import STACKS

from .script import new_state

_CELL = re.compile(r"([A-E]\d):(.{3})")  # a stack is at most 3 tokens: 6 characters a space


def _board_text(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Lines - / \\ join")) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith(" "))
    return lines[start:end]


def _read_board(rows: list[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """Spaces and their shown stacks, and the pairs that a drawn line joins, read as a person would:
    ``-`` between two cells of a row, a slash touching a cell above and a cell below."""
    width = max(map(len, rows)) + 3  # the last cell of a row lost its padding to rstrip
    cells = [
        [(m.group(1), m.group(2).strip(), m.start(), m.end()) for m in _CELL.finditer(row.ljust(width))]
        for row in rows[::2]
    ]
    shown = {name: stack for row in cells for name, stack, _, _ in row}
    joined = set()
    for row, text in zip(cells, rows[::2], strict=True):
        for (a, _, _, end), (b, _, start, _) in itertools.pairwise(row):
            if "-" in text[end:start]:
                joined.add((a, b))
    for k, links in enumerate(rows[1::2]):
        for col, mark in enumerate(links):
            if mark == " ":
                continue
            above = [name for name, _, start, end in cells[k] if start <= col < end]
            below = [name for name, _, start, end in cells[k + 1] if start <= col < end]
            assert mark in "/\\" and len(above) == len(below) == 1, f"a stray {mark!r} at column {col}"
            joined.add((above[0], below[0]))
    return shown, joined


@pytest.mark.parametrize("seed", range(4))
def test_the_terminal_board_shows_every_space_and_exactly_the_lines_of_the_data(seed):
    s = new_state("full", seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(0, 30))):
        if s.is_terminal:
            break
        s.apply(int(rng.choice(np.flatnonzero(s.legal_mask()))))
    shown, joined = _read_board(_board_text(s.describe()))
    expected_stacks = {
        name: "".join(LETTERS[c] for c in STACKS[s.stacks[i]]) or ("*" if i in STARS else ".")
        for i, name in enumerate(SPACE_NAMES)
    }
    assert shown == expected_stacks
    assert joined == {(SPACE_NAMES[a], SPACE_NAMES[b]) for a, b in LINES}
    for t in TRIANGLES:  # every triangle is three drawn lines
        a, b, c = (SPACE_NAMES[i] for i in t)
        assert {(a, b), (a, c), (b, c)} <= joined
