"""Balance of Tarot Dice under heuristic self-play (docs/rules/tarot_dice.md, "Balance").

A short re-run of ``python -m agents.balance --env tarot_dice_v0``: 24 matches (the documented
figures use 2,000), with bounds wide enough for that sample.
"""

from __future__ import annotations

import pytest

from agents.balance import measure_tarot_dice
from mystic_envs.tarot_dice.rules import TarotDiceGame

GAMES = 24


@pytest.fixture(scope="module")
def report():
    r = measure_tarot_dice(GAMES, seed=0)
    print("\n" + r.table())
    return r


@pytest.mark.slow
def test_every_match_has_its_two_rounds_and_each_round_its_points(report):
    assert report.games == GAMES
    assert 2 * GAMES <= report.rounds <= 3 * GAMES
    assert 8 * report.rounds <= report.points <= 40 * report.rounds
    assert max(report.turns) <= TarotDiceGame().round_turn_limit  # the nightfall duel at 60 turns


@pytest.mark.slow
def test_most_rounds_end_by_a_capture_not_the_nightfall_duel(report):
    # About 1 round in 6 reaches the duel (2,000 matches); a player that waits out Virgo for the
    # whole round would send most rounds there.
    assert report.nightfall_rate <= 0.4


@pytest.mark.slow
def test_neither_seat_nor_the_round_starter_dominates(report):
    assert 0.2 <= report.first_rate <= 0.8
    # About 50 rounds: 3 standard errors (7 points each) around the 48.2% of 2,000 matches.
    assert 0.27 <= report.starter_rate <= 0.7
