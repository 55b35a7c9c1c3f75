"""The rulebook's Attacks Example (``test_attack_example.py``), told as the narration tells it:
each attack's Strength and Defense with the cards and Invocation numbers behind them."""

from __future__ import annotations

from script import deal, draft, new_state, play

from mystic_envs.core.rng import Rng
from mystic_envs.elemystic import narrate
from mystic_envs.elemystic.rules import ElemysticState


def test_the_rulebooks_attack_example_is_told_with_what_makes_each_total():
    s = ElemysticState.new(new_state().game, Rng(0))
    s.starting_player = s.draft_first = s.play_first = s.player = 0
    deal(s, unknown="Shadow", secret0="Water", secret1="Earth")
    draft(s, ["Light", "Life", "Fire", "Air", "Thunder"])  # Storm goes to player 2
    play(s, [(0, "front Life"), (1, "front Air"), (0, "back Thunder"), (1, "back Storm"), (0, "front Light")])
    before = s.clone()
    play(s, [(1, "front Fire")])
    story = narrate.events(before, s, viewer=0)
    assert story[:3] == [
        "Round 1 fight: your column has Light in front (Speed 2), behind it Thunder, Life.",
        "Round 1 fight: player_1's column has Fire in front (Speed 6), behind it Air, Storm.",
        "player_1 attacks first (Speed 6 against 2).",
    ]
    # Player 2: 4 + 3 + 2 + 2 = 11 Strength against 3 + 3 + 1 + 2 = 9 Defense; Fire zeroed
    # Light's Invocation Strength, so Player 1 attacks with 3 (Life's Strength is 0).
    assert story[3] == (
        "Fire's ability resolves: Set your opponent's Invocation Strength to 0. player_1 attacks with "
        "Strength 11 (2 Air + 2 Storm + 3 Fire + 4 Fire's Invocation) against Defense 9 "
        "(3 Light + 1 Thunder + 2 Life + 3 Light's Invocation): 2 damage."
    )
    assert story[4].startswith("Light's ability resolves: ")
    assert story[4].endswith(
        "You attack with Strength 3 (1 Light + 2 Thunder) against Defense 2 (2 Storm): 1 damage."
    )
    assert story[5:7] == ["Your Energy: 8.", "player_1's Energy: 9."]
    assert story[7].startswith("Round 2 begins; the drafting pool: ")
