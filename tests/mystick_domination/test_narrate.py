"""Mystick Domination's narration (``mystic_envs.mystick_domination.narrate``) on scripted tables
(``script.table``): a challenge's Fate cards, a redraw, the successes, the Power moved and the
points, as the challenger and as another seat hear them."""

from __future__ import annotations

from mystic_envs.mystick_domination import narrate

from .script import action, table


def told(s, move: str, viewer: int | None = 0) -> list[str]:
    before = s.clone()
    s.apply(action(s, move))
    return narrate.events(before, s, viewer=viewer)


def test_a_challenge_is_told_with_its_fate_its_redraw_and_the_power_it_moves():
    tops = ["Ace of Wands", "Two of Cups", "Three of Wands", "Four of Wands", "Five of Cups"]
    s = table(pawns={0: [("Seven of Wands", 0)]}, pool=11, tops={0: tops})
    # Seven of Wands draws 3 Fate (its influence), in the order of the deck's top.
    assert told(s, "challenge 0") == ["Fate for your challenge: Ace of Wands, Two of Cups, Three of Wands."]
    assert told(s, "mark 2") == []  # a mark is a choice still open: its label says it all
    assert told(s, "done", viewer=1) == [
        "player_0 redraws Two of Cups: new Fate Four of Wands.",
        "player_0's Seven of Wands challenges the pool: 3 successes (Wands and Majors in the Fate "
        "count); 3 Power moves from the pool, scoring 3 points.",
    ]
    assert s.last_challenge == (3, 3, False) and s.pool == 8


def test_a_round_end_tells_the_points_then_the_initiative_draw():
    tops = {0: ["Two of Cups", "Nine of Wands"], 1: ["XIII Death", "Five of Swords"]}
    s = table(pawns={0: [("Seven of Wands", 2)]}, draw_count=2, pool=9, tops=tops)
    # The third draw of the round ends it: player_0's Pawn scores its 2 Power, then each seat
    # shows its deck's top card (a Major is discarded and the next one shown); Nine beats Five.
    assert told(s, "draw", viewer=1) == [
        "Round 1 ends; the Power on the Pawns scores: player_0 2, you 0.",
        "Initiative: player_0 shows Nine of Wands.",
        "Initiative: You draw XIII Death, a Major: discarded.",
        "Initiative: You show Five of Swords.",
        "player_0 wins the initiative and moves first.",
    ]
