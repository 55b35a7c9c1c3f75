"""Mystic Vale's narration (``mystic_envs.mystic_vale.narrate``) of a scripted harvest: the mana,
spirits and VP tokens the field and the vales yield, the Harvest abilities and vales behind them,
and the VP tokens taken when the Harvest ends."""

from __future__ import annotations

from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale import narrate
from tests.mystic_vale.script import BLANKS, FERTILE_CARD, act, craft, give_vales, lay_out, new, start


def test_a_harvest_is_told_with_the_abilities_and_vales_that_gave_it():
    s = new()
    craft(s, 0, BLANKS[0], "Dawnsinger")  # middle: 1 guardian, 1 sky; Harvest: +1 mana per guardian
    craft(s, 0, BLANKS[1], "Magic Seed")  # Harvest: +1 mana for each other card in the field
    give_vales(s, 0, "Azure Lake")  # Harvest: +1 mana
    lay_out(s, 0, field=[FERTILE_CARD["top"], BLANKS[0], BLANKS[1]], on_deck=BLANKS[2], deck=[BLANKS[3]])
    start(s, 0)
    before = s.clone()
    act(s, d.PASS)
    # 1 (Fertile Soil) + 1 (Dawnsinger's guardian) + 2 (Magic Seed's two other cards) + 1 (Azure Lake).
    assert narrate.events(before, s, viewer=1) == [
        "player_0 harvests 5 mana, spirits: 1 sky, 0 VP tokens at the end of the Harvest; "
        "abilities: Dawnsinger, Magic Seed, Azure Lake."
    ]
