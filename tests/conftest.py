"""Options shared by the whole test suite.

``--soak`` switches the randomized conformance checks to their long form (100,000 random games
per env id and player count instead of 2,000); the default run stays fast enough for CI.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--soak",
        action="store_true",
        default=False,
        help="run the long forms of the randomized checks (100,000 random games per env id and count)",
    )
