"""Options shared by the whole test suite.

``--soak`` switches the long checks to their full form: the randomized conformance checks
(100,000 random games per env id and player count instead of 2,000), Tarot Dice's anti-stall soak
and Elemystic's balance run (20,000 games instead of 10,000); the default run stays fast enough
for CI.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="run the full forms of the long checks (conformance games, soaks, balance runs)",
    )
