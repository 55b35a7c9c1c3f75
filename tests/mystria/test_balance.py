"""Balance of Mystria under heuristic self-play (docs/rules/mystria.md, "Balance").

A short re-run of ``python -m agents.balance --env mystria_v0``: 400 games per variant (the
documented figures use 2,000), with bounds wide enough for that sample.
"""

from __future__ import annotations

import pytest

from agents.balance import measure_mystria
from mystic_envs.mystria.board import OBJECTIVES, VARIANTS

GAMES = 400


@pytest.fixture(scope="module", params=VARIANTS)
def report(request):
    r = measure_mystria(GAMES, request.param, seed=0)
    print("\n" + r.row())
    return r


@pytest.mark.slow
def test_the_first_players_sixth_drop_is_answered_by_the_score_board(report):
    # 48.5% (intro) and 49.8% (full) at these 400 games (52.8% and 49.7% over 2,000); the
    # heuristic's earlier score board gave 56.5% and 56.2% here, the first board 60-65% over 2,000.
    assert report.games == GAMES
    assert 0.43 <= report.first_rate <= 0.55


@pytest.mark.slow
def test_most_games_reach_the_12_turn_end(report):
    assert report.scored >= 0.8 * GAMES
    assert report.dry_ends == GAMES - report.scored


@pytest.mark.slow
@pytest.mark.parametrize("report", ["full"], indirect=True)  # the introductory rules have no tiles
def test_every_objective_tile_is_kept_and_pays_about_the_same(report):
    """Full rules: each tile kept in about half of its draws (the heuristic's coin), and its points
    times its share fulfilled within one band (the first tiles ran from 0.4 to 2.1, one never kept)."""
    for t, tile in enumerate(OBJECTIVES):
        assert 0.3 <= report.kept[t] / report.drawn[t] <= 0.7, tile.name
        expected = tile.points * report.achieved[t] / report.kept_scored[t]
        assert 1.2 <= expected <= 3.6, (tile.name, expected)


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
