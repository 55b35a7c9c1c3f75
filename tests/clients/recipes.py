"""The recipes of ``docs/clients.md``, run as the tests' own code.

Each ``## <client>`` section of the page holds one ```` ```python ```` block, a complete script for one
game whose first assignment is ``ENV_ID, NUM_PLAYERS = "<env id>", <count>``. :func:`run_recipe`
swaps that line for the case under test and executes the block, so the page cannot drift from what
the tests run; the tests then check the objects the script left behind.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import mystic_envs

DOC = Path(__file__).resolve().parents[2] / "docs" / "clients.md"
CASE_LINE = re.compile(r'^ENV_ID, NUM_PLAYERS = "[a-z_0-9]+", \d+$', re.MULTILINE)

CASES = [
    pytest.param(env_id, n, id=f"{env_id}-{n}p")
    for env_id in mystic_envs.ENV_IDS
    for n in mystic_envs.player_counts(env_id)
]


def recipes() -> dict[str, tuple[int, str]]:
    """Section title -> (line of the block's first code line, code) for every python block."""
    found: dict[str, tuple[int, str]] = {}
    title = None
    block: list[str] | None = None
    start = 0
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), start=1):
        if block is not None:
            if line.startswith("```"):
                assert title is not None, f"{DOC.name}:{start}: a python block before any section"
                assert title not in found, f"{DOC.name}: section {title!r} has two python blocks"
                found[title] = (start, "\n".join(block) + "\n")
                block = None
            else:
                block.append(line)
        elif line.startswith("## "):
            title = line[3:].strip()
        elif line.strip() == "```python":
            block, start = [], number + 1
    assert block is None, f"{DOC.name}:{start}: unclosed python block"
    return found


def recipe_code(title: str, env_id: str, num_players: int) -> str:
    """The section's block with its case line set to ``env_id`` and ``num_players``; the code keeps
    its line numbers in ``docs/clients.md``, so a traceback points at the page."""
    available = recipes()
    if title not in available:
        raise LookupError(f"{DOC.name} has no section {title!r} with a python block: {sorted(available)}")
    start, code = available[title]
    if len(CASE_LINE.findall(code)) != 1:
        raise AssertionError(f"{DOC.name} [{title}]: needs exactly one line like {CASE_LINE.pattern}")
    code = CASE_LINE.sub(lambda _: f"ENV_ID, NUM_PLAYERS = {env_id!r}, {num_players}", code)
    return "\n" * (start - 1) + code


def run_recipe(title: str, env_id: str, num_players: int) -> dict[str, Any]:
    """Execute the section's recipe for one case; returns the names it defined."""
    module_name = "clients_recipe_" + re.sub(r"\W+", "_", title).lower()
    namespace: dict[str, Any] = {"__name__": module_name}
    exec(compile(recipe_code(title, env_id, num_players), str(DOC), "exec"), namespace)
    return namespace
