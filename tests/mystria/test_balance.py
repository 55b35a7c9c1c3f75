"""Balance of Mystria under heuristic self-play (docs/rules/mystria.md, "Balance").

A short re-run of ``python -m agents.balance --env mystria_v0``: 400 games per variant (the
documented figures use 2,000), with bounds wide enough for that sample.
"""

from __future__ import annotations

import pytest

from agents.balance import measure_mystria
from mystic_envs.mystria.board import VARIANTS

GAMES = 400


@pytest.fixture(scope="module", params=VARIANTS)
def report(request):
    r = measure_mystria(GAMES, request.param, seed=0)
    print("\n" + r.row())
    return r


@pytest.mark.slow
def test_the_first_player_wins_more_often_but_not_always(report):
    assert report.games == GAMES
    assert 0.50 <= report.first_rate <= 0.75


@pytest.mark.slow
def test_most_games_reach_the_12_turn_end(report):
    assert report.scored >= 0.8 * GAMES
    assert report.dry_ends == GAMES - report.scored


@pytest.mark.slow
def test_the_drops_tie_break_decides_a_few_games(report):
    assert 0 < report.tie_breaks <= 0.15 * GAMES


def test_a_tile_never_kept_shows_a_dash_not_nan():
    from agents.balance import MystriaReport

    r = MystriaReport(variant="full")
    r.drawn[0], r.kept_scored[0], r.achieved[0], r.kept[0] = 8, 4, 1, 4
    rows = r.tiles().splitlines()[2:]
    assert rows[0] == "| Banner | 4 | 8 | 4 (50%) | 25% | 1.00 |"
    assert all(row.endswith("| 0 | 0 | - | - |") for row in rows[1:]) and "nan" not in r.tiles()
