"""Every round ends: no round of a random game outlasts the anti-stall bound (docs/rules/tarot_dice.md,
D-3: the nightfall duel ends a round after ``round_turn_limit`` turns).

The short form (300 games) runs with the suite; ``pytest --soak`` (or ``TAROT_DICE_SOAK=1``) plays
100,000 games. The figures of the last full run are in the docs ("Anti-stall soak").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pytest

from mystic_envs.tarot_dice.rules import NIGHTFALL, TarotDiceGame

SHORT_GAMES = 300
SOAK_GAMES = 100_000


@dataclass
class SoakReport:
    games: int = 0
    rounds: int = 0
    nightfalls: int = 0
    longest_round_turns: int = 0
    longest_round_actions: int = 0
    longest_game_actions: int = 0
    most_rounds: int = 0
    turns: list[int] = field(default_factory=list)

    def row(self) -> str:
        t = np.array(self.turns)
        return (
            f"{self.games} games, {self.rounds} rounds ({self.nightfalls} nightfall duels, "
            f"{self.nightfalls / self.rounds:.1%}); turns per round: median {np.median(t):.0f}, "
            f"99th percentile {np.percentile(t, 99):.0f}, longest {self.longest_round_turns}; "
            f"longest round {self.longest_round_actions} actions; longest game "
            f"{self.longest_game_actions} actions; most rounds in a match {self.most_rounds}"
        )


def soak(games: int, seed: int = 0, **options: int) -> SoakReport:
    """Random legal play on the raw engine; the length of every round, in turns and actions."""
    game = TarotDiceGame(**options)
    limit = game.round_turn_limit
    rng = np.random.default_rng(seed)
    report = SoakReport()
    for g in range(games):
        s = game.new_initial_state(seed * 1_000_003 + g)
        actions = round_actions = 0
        while not s.is_terminal:
            before, turn = s.rounds_done, s.turn_in_round
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
            actions += 1
            round_actions += 1
            if s.rounds_done != before:
                _winner, points, how = s.last_round
                turns = limit if how == NIGHTFALL else turn + 1
                assert turns <= limit, f"game {g}: a round of {turns} turns (limit {limit})"
                assert 8 <= points <= 40
                report.rounds += 1
                report.nightfalls += how == NIGHTFALL
                report.turns.append(turns)
                report.longest_round_turns = max(report.longest_round_turns, turns)
                report.longest_round_actions = max(report.longest_round_actions, round_actions)
                round_actions = 0
        report.games += 1
        report.longest_game_actions = max(report.longest_game_actions, actions)
        report.most_rounds = max(report.most_rounds, s.rounds_done)
    return report


@pytest.mark.slow
def test_no_round_outlasts_the_anti_stall_bound(request):
    full = request.config.getoption("soak") or os.environ.get("TAROT_DICE_SOAK") == "1"
    report = soak(SOAK_GAMES if full else SHORT_GAMES)
    print("\n" + report.row())
    limit = TarotDiceGame().round_turn_limit
    assert report.longest_round_turns <= limit
    # Both ends happen: random players capture the last pair in most rounds, and the bound is
    # reached (the duel, not a cut) in the others.
    assert 0 < report.nightfalls < report.rounds
    # Level totals after the last round bring one sudden-death round, which always decides.
    assert report.most_rounds <= TarotDiceGame().num_rounds + 1


def test_a_short_turn_limit_still_ends_every_round():
    report = soak(100, seed=1, round_turn_limit=3, num_rounds=3)
    assert report.longest_round_turns <= 3 and report.nightfalls > 50
