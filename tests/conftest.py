"""Options shared by the whole test suite.

``--soak`` switches the long checks to their full form: the randomized conformance checks
(100,000 random games per env id and player count instead of 2,000), Tarot Dice's anti-stall soak
and Elemystic's balance run (20,000 games instead of 10,000); the default run stays fast enough
for CI.
"""

from __future__ import annotations

import os

import pytest

from training.workers import ONE_THREAD_VARIABLES

# Set before pytest-xdist starts its workers, which inherit it and import numpy and torch after: the
# suite runs two workers on two cores, where a thread a core in each only spins (measured in
# training.workers). A variable the caller set wins.
for _name in ONE_THREAD_VARIABLES:
    os.environ.setdefault(_name, "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="run the full forms of the long checks (conformance games, soaks, balance runs)",
    )
