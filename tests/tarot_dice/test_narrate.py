"""Tarot Dice's narration (``mystic_envs.tarot_dice.narrate``) on scripted positions
(``script.position``, rolls worked out by hand): rolls and what the Zodiac face does to them, the
Planet phase, a Major Arcana acting, a capture that wins the round."""

from __future__ import annotations

from mystic_envs.tarot_dice import narrate
from mystic_envs.tarot_dice.cards import MAJORS, PLANET_FACES, ZODIAC_FACES

from .script import play, position


def told(s, moves, viewer=0):
    before = s.clone()
    play(s, moves)
    return narrate.events(before, s, viewer=viewer)


def test_a_reroll_under_gemini_rolls_the_twin_and_the_planet_phase_follows():
    dice = (3, 4, 5, 6, 7, 8)
    s = position(planet="South Node", zodiac="Gemini", dice=(dice, dice), rolls=[5, 6])
    assert told(s, [(0, "reroll my D20")]) == [
        "The Zodiac die's Gemini acts on the roll: " + ZODIAC_FACES[2].text,
        "Your D20 rolls 5 (was 8).",
        "player_1's D20 rolls 6 (was 8).",
        "Planet phase: South Node acts: " + PLANET_FACES[5].text,
    ]


def test_scorpio_lowers_a_roll_and_the_opponent_hears_the_same():
    s = position(planet="Mercury", zodiac="Scorpio", rolls=[7, 3, 1])
    story = told(s, [(0, "reroll my D20")], viewer=1)
    assert story[:2] == [
        "The Zodiac die's Scorpio acts on the roll: " + ZODIAC_FACES[7].text,
        "player_0's D20 rolls 6 (was 6).",
    ]
    # Mercury rolls the smallest dice in play, both D4s, under Scorpio too.
    assert story[2].startswith("Planet phase: Mercury acts: ")
    assert story[3:] == [
        "The Zodiac die's Scorpio acts on the roll: " + ZODIAC_FACES[7].text,
        "player_0's D4 rolls 2 (was 1).",
        "Your D4 rolls 1 (was 1).",
    ]


def test_a_major_arcana_is_told_as_it_acts():
    s = position(majors=(["The Fool"], []), hands=(["3 of Cups"], []), rolls=[15])
    play(s, [(0, "play 3 of Cups"), (0, "die my D8")])
    assert told(s, [(0, "use The Fool")]) == [f"The Fool acts for you: {MAJORS[0].text}"]
    assert told(s, [(0, "die opp D20")], viewer=1) == [
        "Your D20 rolls 15 (was 6).",
        "Planet phase: Sun acts: " + PLANET_FACES[4].text,
    ]


def test_capturing_the_last_pair_wins_the_round_with_its_points():
    s = position(dice=((0, 0, 0, 0, 0, 9), (3, 0, 0, 0, 0, 0)))
    assert told(s, [(0, "capture D20 D4")]) == [
        "You capture player_1's D4 (showing 3) with your D20 (showing 9); both leave the board.",
        "You win the round by capturing the last pair, scoring 24; match points: you 24, player_1 0.",
    ]
