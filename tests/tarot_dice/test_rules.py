"""Tarot Dice rules as scripted turns: one table row per rule (every Minor rank, Zodiac face, Planet
face and Major Arcana); see the rule -> code -> test table of docs/rules/tarot_dice.md.

Every row builds a table (``script.position``: player_0 to act unless it says otherwise, dice D4
... D20 showing 1, 2, 3, 4, 5, 6 on both sides, the Sun on the Planet die and Aries on the Zodiac
die, so no die effect acts unless the row names it), scripts the dice rolls, plays the moves and
checks what must hold. player_0's cards are Cups and Swords, player_1's Wands and Pentacles.
"""

from __future__ import annotations

from typing import Any

import pytest

from mystic_envs.core.errors import IllegalActionError
from mystic_envs.tarot_dice.cards import MAJORS

from .script import (
    CARD,
    banished,
    dice_of,
    is_legal,
    legal_moves,
    names,
    planet_of,
    play,
    position,
    zodiac_of,
)

NEUTRAL = {"planet": "Uranus", "zodiac": "Aquarius"}  # faces that do nothing while they just show


def row(rid: str, table: dict[str, Any], moves: list[tuple[int, str]], expect: dict[str, Any]) -> Any:
    return pytest.param(table, moves, expect, id=rid)


def check(s, expect: dict[str, Any]) -> None:
    for key, want in expect.items():
        if key == "dice":
            for seat, values in want.items():
                assert dice_of(s, seat) == list(values), f"player_{seat}'s dice"
        elif key == "planet":
            assert planet_of(s) == want
        elif key == "zodiac":
            assert zodiac_of(s) == want
        elif key == "phase":
            assert s.phase_name == want
        elif key == "to_move":
            assert s.current_player == want
        elif key == "banished":
            assert banished(s) == set(want)
        elif key == "points":
            assert s.points == list(want)
        elif key == "graveyard":
            for seat, cards in want.items():
                assert names(s.graveyard[seat]) == list(cards)
        elif key == "hand":
            for seat, cards in want.items():
                assert names(s.hand[seat]) == list(cards)
        elif key == "wells":
            for seat, wells in want.items():
                assert [names(w) for w in s.wells[seat]] == [list(w) for w in wells]
        elif key == "legal":
            for seat, move in want:
                assert is_legal(s, seat, move), f"{move!r} should be legal; legal: {legal_moves(s)}"
        elif key == "illegal":
            for seat, move in want:
                assert not is_legal(s, seat, move), f"{move!r} should be illegal"
        else:
            raise KeyError(key)


# --- Minor Arcana ---------------------------------------------------------------------------------
MINOR_ROWS = [
    row(
        "number-card-sets-a-die-to-its-value",
        {"hands": (["7 of Cups"], [])},
        [(0, "play 7 of Cups"), (0, "die opp D8")],
        {"dice": {1: (1, 2, 7, 4, 5, 6)}, "graveyard": {0: ["7 of Cups"]}, "to_move": 1},
    ),
    row(
        "number-card-cannot-target-a-die-that-cannot-show-its-value",
        {"hands": (["7 of Cups"], [])},
        [(0, "play 7 of Cups")],
        {
            "phase": "card_target",
            "legal": [(0, "die opp D8"), (0, "die my D20"), (0, "die planet"), (0, "die zodiac")],
            "illegal": [(0, "die my D4"), (0, "die my D6"), (0, "die opp D6")],
        },
    ),
    row(
        "ace-is-a-1-or-an-11",
        {"hands": (["Ace of Swords"], [])},
        [(0, "play Ace of Swords"), (0, "value 11")],
        {
            "phase": "card_target",
            "legal": [(0, "die my D12"), (0, "die opp D20")],
            "illegal": [(0, "die my D10")],
        },
    ),
    row(
        "ace-played-as-11-on-a-d12",
        {"hands": (["Ace of Swords"], [])},
        [(0, "play Ace of Swords"), (0, "value 11"), (0, "die my D12")],
        {"dice": {0: (1, 2, 3, 4, 11, 6)}, "to_move": 1},
    ),
    row(
        "page-jack-sets-a-die-to-1",
        {"hands": (["Page of Cups"], [])},
        [(0, "play Page of Cups"), (0, "die opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 1)}},
    ),
    row(
        "knight-banishes-a-die-no-capture-no-target-no-reroll",
        {"hands": (["Knight of Cups"], []), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "play Knight of Cups"), (0, "die opp D20")],
        {
            "banished": {"p1 D20"},
            "to_move": 1,
            "illegal": [(1, "capture D20 D4"), (1, "reroll my D20")],
            "legal": [(1, "capture D12 D12")],
        },
    ),
    row(
        "knight-banished-die-cannot-be-targeted",
        {"hands": (["Knight of Cups"], ["7 of Wands"]), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "play Knight of Cups"), (0, "die opp D20"), (1, "play 7 of Wands")],
        {"phase": "card_target", "illegal": [(1, "die my D20")], "legal": [(1, "die opp D20")]},
    ),
    row(
        "knight-banished-die-cannot-be-captured",
        {"hands": (["Knight of Cups"], []), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "play Knight of Cups"), (0, "die my D20")],
        {"to_move": 1, "illegal": [(1, "capture D20 D20")], "legal": [(1, "capture D20 D12")]},
    ),
    row(
        "knight-banish-ends-at-the-start-of-the-banishers-next-turn",
        {"hands": (["Knight of Cups"], []), "planet": "Venus", "zodiac": "Taurus", "rolls": [9]},
        [(0, "play Knight of Cups"), (0, "die opp D20"), (1, "reroll opp D20")],
        {"to_move": 0, "banished": set(), "dice": {0: (1, 2, 3, 4, 5, 9)}},
    ),
    row(
        "knight-cannot-target-the-symbol-dice",
        {"hands": (["Knight of Cups"], [])},
        [(0, "play Knight of Cups")],
        {"illegal": [(0, "die planet"), (0, "die zodiac")], "legal": [(0, "die my D4")]},
    ),
    row(
        "queen-performs-the-reroll-action-twice",
        {"hands": (["Queen of Cups"], []), "rolls": [17, 3]},
        [(0, "play Queen of Cups"), (0, "die opp D20"), (0, "die my D4")],
        {"dice": {0: (3, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 17)}, "to_move": 1},
    ),
    row(
        "king-sets-a-die-to-its-maximum",
        {"hands": (["King of Swords"], [])},
        [(0, "play King of Swords"), (0, "die my D12")],
        {"dice": {0: (1, 2, 3, 4, 12, 6)}},
    ),
    row(
        "number-card-sets-the-planet-die",
        {"hands": (["7 of Cups"], [])},
        [(0, "play 7 of Cups"), (0, "die planet")],
        # North Node now shows and Aries (no longer negated by the Sun) holds it back: no capture.
        {"planet": "North Node", "dice": {0: (1, 2, 3, 4, 5, 6)}, "to_move": 1},
    ),
    row(
        "number-card-sets-the-zodiac-die",
        {"hands": (["5 of Cups"], [])},
        [(0, "play 5 of Cups"), (0, "die zodiac")],
        {"zodiac": "Leo", "to_move": 1},
    ),
    row(
        # The Planet die's text lets numbered cards change it, the Zodiac die's numbered cards,
        # rerolls and Major effects: face cards change numbered dice only (I-34).
        "king-changes-numbered-dice-only-never-the-planet-or-zodiac-die",
        {"hands": (["King of Cups"], [])},
        [(0, "play King of Cups")],
        {
            "phase": "card_target",
            "legal": [(0, "die my D4"), (0, "die opp D20")],
            "illegal": [(0, "die planet"), (0, "die zodiac")],
        },
    ),
    row(
        "page-changes-numbered-dice-only-never-the-planet-or-zodiac-die",
        {"hands": (["Page of Swords"], [])},
        [(0, "play Page of Swords")],
        {
            "phase": "card_target",
            "legal": [(0, "die my D4"), (0, "die opp D20")],
            "illegal": [(0, "die planet"), (0, "die zodiac")],
        },
    ),
    row(
        "a-king-with-no-numbered-die-it-may-change-cannot-be-played",
        {
            "planet": "Uranus",
            "zodiac": "Leo",
            "dice": ((0, 0, 0, 0, 0, 20), (0, 0, 0, 0, 0, 20)),
            "hands": (["King of Cups", "5 of Cups"], []),
        },
        [],
        {"illegal": [(0, "play King of Cups")], "legal": [(0, "play 5 of Cups")]},
    ),
    row(
        "a-well-top-goes-to-the-graveyard-and-the-card-under-it-turns-face-up",
        {"wells": ([["2 of Cups", "3 of Cups"]], []), "hidden": (1, 0)},
        [(0, "play 3 of Cups"), (0, "die opp D8")],
        {
            "wells": {0: [["2 of Cups"], [], []]},
            "graveyard": {0: ["3 of Cups"]},
            "dice": {1: (1, 2, 3, 4, 5, 6)},
        },
    ),
    row(
        "a-face-down-well-card-cannot-be-played",
        {"wells": ([["2 of Cups", "3 of Cups"]], []), "hidden": (1, 0)},
        [],
        {"illegal": [(0, "play 2 of Cups")], "legal": [(0, "play 3 of Cups")]},
    ),
]

# --- capture, reroll, round end ---------------------------------------------------------------------
ACTION_ROWS = [
    row(
        "capture-a-die-showing-equal-or-lower-removes-both",
        {"planet": "Venus", "zodiac": "Taurus"},
        [(0, "capture D10 D10")],
        {
            "dice": {0: (1, 2, 3, 0, 5, 6), 1: (1, 2, 3, 0, 5, 6)},
            "to_move": 1,
            "legal": [(1, "capture D20 D4"), (1, "capture D4 D4")],
            "illegal": [(1, "capture D4 D6"), (1, "capture D8 D10")],
        },
    ),
    row(
        "no-capture-while-virgo-shows",
        {"planet": "Venus", "zodiac": "Virgo"},
        [],
        {"illegal": [(0, "capture D20 D4"), (0, "capture D4 D4")], "legal": [(0, "reroll zodiac")]},
    ),
    row(
        "reroll-any-numbered-die-of-either-player",
        {"rolls": [13]},
        [(0, "reroll opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 13)}, "to_move": 1},
    ),
    row(
        "reroll-the-planet-die",
        {"planet": "Venus", "zodiac": "Taurus", "rolls": [9]},
        [(0, "reroll planet")],
        {"planet": "Jupiter", "to_move": 1},
    ),
    row(
        "reroll-the-zodiac-die",
        {"rolls": [4]},
        [(0, "reroll zodiac")],
        {"zodiac": "Cancer", "to_move": 1},
    ),
    row(
        # Libra rolls a repeated value again, but the Zodiac die's own roll does not affect itself:
        # one scripted roll, Libra again, and no second.
        "the-zodiac-die-rerolled-does-not-affect-itself",
        {"zodiac": "Libra", "planet": "Mars", "rolls": [7]},
        [(0, "reroll zodiac")],
        {"zodiac": "Libra"},
    ),
    row(
        "the-last-pair-captured-wins-the-round-d20-and-d4-score-24",
        {"dice": ((0, 0, 0, 0, 0, 20), (4, 0, 0, 0, 0, 0)), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "capture D20 D4")],
        {"points": (24, 0), "phase": "draft", "planet": "Venus", "zodiac": "Virgo"},
    ),
    row(
        "nightfall-the-highest-dice-duel-when-the-round-reaches-its-turn-limit",
        {
            "dice": ((0, 0, 0, 0, 9, 5), (0, 0, 0, 0, 7, 12)),
            "round_turn_limit": 2,
            "rolls": [5, 5],
            "zodiac": "Virgo",
        },
        [(0, "reroll planet"), (1, "reroll planet")],
        # player_0's best die shows 9 (its D12), player_1's shows 12 (its D20): D20 + D12 = 32.
        {"points": (0, 32), "phase": "draft"},
    ),
    row(
        "nightfall-ties-go-to-the-next-pair",
        {
            "dice": ((0, 0, 0, 6, 0, 6), (0, 0, 0, 0, 6, 3)),
            "round_turn_limit": 1,
            "rolls": [5],
            "zodiac": "Virgo",
        },
        [(0, "reroll planet")],
        # 6 against 6 (player_0's D20, the larger of its two 6s, against player_1's D12), then
        # player_0's D10 showing 6 beats player_1's D20 showing 3: D10 + D20 = 30.
        {"points": (30, 0), "phase": "draft"},
    ),
]

# --- the Zodiac die -------------------------------------------------------------------------------
ZODIAC_ROWS = [
    row(
        "aries-the-planet-acts-only-after-a-capture-none",
        {"planet": "Saturn", "zodiac": "Aries", "rolls": [10]},
        [(0, "reroll opp D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 10)}},
    ),
    row(
        "aries-the-planet-acts-only-after-a-capture-captured",
        {"planet": "Saturn", "zodiac": "Aries"},
        [(0, "capture D4 D4")],
        {"dice": {0: (0, 2, 4, 4, 6, 6), 1: (0, 2, 4, 4, 6, 6)}},
    ),
    row(
        "taurus-negates-the-planet-die",
        {"planet": "Saturn", "zodiac": "Taurus", "rolls": [10]},
        [(0, "reroll opp D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 10)}},
    ),
    row(
        "taurus-negates-uranus-appearing",
        {"hands": (["Ace of Cups"], []), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "play Ace of Cups"), (0, "value 11"), (0, "die planet")],
        {"planet": "Uranus", "to_move": 1},
    ),
    row(
        "gemini-rolls-the-opposite-die-of-the-same-size",
        {"planet": "Uranus", "zodiac": "Gemini", "rolls": [7, 2]},
        [(0, "reroll my D8")],
        {"dice": {0: (1, 2, 7, 4, 5, 6), 1: (1, 2, 2, 4, 5, 6)}, "to_move": 1},
    ),
    row(
        "cancer-6-and-9-count-as-either-when-capturing",
        {"planet": "Uranus", "zodiac": "Cancer", "dice": ((1, 6, 1, 1, 1, 1), (2, 2, 8, 9, 2, 2))},
        [],
        {
            "legal": [(0, "capture D6 D8"), (0, "capture D6 D10"), (0, "capture D6 D4")],
            "illegal": [(0, "capture D4 D4"), (0, "capture D8 D8")],
        },
    ),
    row(
        "without-cancer-a-6-does-not-take-an-8",
        {"planet": "Uranus", "zodiac": "Aries", "dice": ((1, 6, 1, 1, 1, 1), (2, 2, 8, 9, 2, 2))},
        [],
        {"illegal": [(0, "capture D6 D8"), (0, "capture D6 D10")], "legal": [(0, "capture D6 D4")]},
    ),
    row(
        "leo-locks-the-highest-die",
        {"planet": "Uranus", "zodiac": "Leo", "dice": ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 20))},
        [],
        {
            "illegal": [(0, "reroll opp D20")],
            "legal": [(0, "reroll my D20"), (0, "capture D20 D12")],
        },
    ),
    row(
        "leo-locks-the-highest-die-even-against-pluto",
        {"planet": "Pluto", "zodiac": "Leo", "dice": ((2, 2, 4, 4, 6, 20), (1, 2, 3, 4, 5, 6)), "rolls": [4]},
        [(0, "reroll my D4")],
        {"dice": {0: (2, 1, 2, 2, 3, 20), 1: (1, 1, 3, 2, 5, 3)}},
    ),
    row(
        "virgo-forbids-capturing",
        {"planet": "Uranus", "zodiac": "Virgo"},
        [],
        {"illegal": [(0, "capture D20 D4")]},
    ),
    row(
        "libra-a-roll-that-repeats-the-value-is-rolled-again",
        {"planet": "Uranus", "zodiac": "Libra", "rolls": [2, 5]},
        [(0, "reroll my D6")],
        {"dice": {0: (1, 5, 3, 4, 5, 6)}},
    ),
    row(
        "libra-a-new-value-stands",
        {"planet": "Uranus", "zodiac": "Libra", "rolls": [4]},
        [(0, "reroll my D6")],
        {"dice": {0: (1, 4, 3, 4, 5, 6)}},
    ),
    row(
        "libra-also-rerolls-the-planet-die-landing-on-its-symbol",
        {"planet": "Uranus", "zodiac": "Libra", "rolls": [11, 10]},
        [(0, "reroll planet")],
        # Uranus again, so Libra rolls again: Saturn; then Saturn acts at the end of the turn.
        {"planet": "Saturn", "dice": {0: (2, 2, 4, 4, 6, 6)}},
    ),
    row(
        "scorpio-subtracts-1-from-rolls-never-below-1-queen-rerolls-trigger-it",
        {"hands": (["Queen of Cups"], []), "planet": "Uranus", "zodiac": "Scorpio", "rolls": [1, 14]},
        [(0, "play Queen of Cups"), (0, "die my D4"), (0, "die my D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 13)}},
    ),
    row(
        "sagittarius-rolls-planet-and-zodiac-and-the-chain-goes-on",
        {"planet": "Uranus", "zodiac": "Sagittarius", "rolls": [7, 11, 3, 17, 9]},
        [
            (0, "reroll my D8"),  # 7; Sagittarius rolls the Planet die: Uranus appears (11) ...
            (0, "planet Mars"),  # ... and becomes Mars; then the Zodiac die: Gemini (3)
            (0, "die opp D20"),  # Mars at the end of the turn: 17, and Gemini rolls my D20: 9
        ],
        {"planet": "Mars", "zodiac": "Gemini", "dice": {0: (1, 2, 7, 4, 5, 9), 1: (1, 2, 3, 4, 5, 17)}},
    ),
    row(
        "capricorn-adds-1-to-rolls-never-above-the-maximum",
        {"hands": (["Queen of Cups"], []), "planet": "Uranus", "zodiac": "Capricorn", "rolls": [4, 3]},
        [(0, "play Queen of Cups"), (0, "die my D4"), (0, "die my D20")],
        {"dice": {0: (4, 2, 3, 4, 5, 4)}},
    ),
    row(
        "aquarius-rolled-becomes-any-other-symbol",
        {"planet": "Uranus", "zodiac": "Aries", "rolls": [11]},
        [(0, "reroll zodiac")],
        {
            "phase": "aquarius_symbol",
            "illegal": [(0, "zodiac Aquarius")],
            "legal": [(0, "zodiac Leo"), (0, "zodiac Aries")],
        },
    ),
    row(
        "aquarius-choice-made",
        {"planet": "Uranus", "zodiac": "Aries", "rolls": [11]},
        [(0, "reroll zodiac"), (0, "zodiac Leo")],
        {"zodiac": "Leo", "to_move": 1},
    ),
    row(
        "aquarius-set-by-a-card-is-no-roll",
        {"hands": (["Ace of Cups"], []), "planet": "Uranus"},
        [(0, "play Ace of Cups"), (0, "value 11"), (0, "die zodiac")],
        {"zodiac": "Aquarius", "to_move": 1},
    ),
    row(
        "pisces-rolls-the-other-dice-showing-the-same-value",
        {"planet": "Uranus", "zodiac": "Pisces", "rolls": [4, 7, 4]},
        [(0, "reroll my D20")],
        # my D20 rolls 4: my D10 and the opponent's D10 showed 4 and roll too (their 4 does not
        # set Pisces off again).
        {"dice": {0: (1, 2, 3, 7, 5, 4), 1: (1, 2, 3, 4, 5, 6)}},
    ),
]

# --- the Planet die (Aquarius on the Zodiac die: no Zodiac effect unless it is rolled) -----------
PLANET_ROWS = [
    row(
        "mars-roll-one-die-your-opponent-controls",
        {**NEUTRAL, "planet": "Mars", "rolls": [3]},
        [(0, "reroll my D4")],
        {
            "phase": "mars_roll",
            "legal": [(0, "die opp D20"), (0, "die opp D4")],
            "illegal": [(0, "die my D20"), (0, "die planet")],
        },
    ),
    row(
        "mars-rolled",
        {**NEUTRAL, "planet": "Mars", "rolls": [3, 19]},
        [(0, "reroll my D4"), (0, "die opp D20")],
        {"dice": {0: (3, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 19)}, "to_move": 1},
    ),
    row(
        "venus-roll-one-die-you-control",
        {**NEUTRAL, "planet": "Venus", "rolls": [3, 19]},
        [(0, "reroll opp D4"), (0, "die my D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 19), 1: (3, 2, 3, 4, 5, 6)}},
    ),
    row(
        "venus-only-your-dice",
        {**NEUTRAL, "planet": "Venus", "rolls": [3]},
        [(0, "reroll opp D4")],
        {"illegal": [(0, "die opp D20")], "legal": [(0, "die my D4")]},
    ),
    row(
        "mercury-rolls-the-smallest-dice-in-play",
        {**NEUTRAL, "planet": "Mercury", "rolls": [7, 3, 4]},
        [(0, "reroll my D20")],
        {"dice": {0: (3, 2, 3, 4, 5, 7), 1: (4, 2, 3, 4, 5, 6)}},
    ),
    row(
        "mercury-once-the-d4s-are-gone-the-d6s",
        {
            **NEUTRAL,
            "planet": "Mercury",
            "dice": ((0, 2, 3, 4, 5, 6), (0, 2, 3, 4, 5, 6)),
            "rolls": [7, 6, 1],
        },
        [(0, "reroll my D20")],
        {"dice": {0: (0, 6, 3, 4, 5, 7), 1: (0, 1, 3, 4, 5, 6)}},
    ),
    row(
        "moon-rolls-planet-and-zodiac-and-the-new-planet-does-not-activate-a-second-time",
        {**NEUTRAL, "planet": "Moon", "rolls": [2, 1, 3]},
        [(0, "reroll my D4")],
        # The Planet die lands on Mars: Mars does not act this turn.
        {
            "planet": "Mars",
            "zodiac": "Gemini",
            "to_move": 1,
            "phase": "action",
            "dice": {0: (2, 2, 3, 4, 5, 6)},
        },
    ),
    row(
        "sun-negates-the-zodiac-virgo-no-longer-stops-captures",
        {"planet": "Sun", "zodiac": "Virgo"},
        [],
        {"legal": [(0, "capture D20 D4")]},
    ),
    row(
        "sun-negates-the-zodiac-no-scorpio",
        {"planet": "Sun", "zodiac": "Scorpio", "rolls": [7]},
        [(0, "reroll my D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 7)}},
    ),
    row(
        "south-node-rerolls-dice-showing-1-or-2",
        {**NEUTRAL, "planet": "South Node", "rolls": [10, 3, 5, 2, 6]},
        [(0, "reroll my D20")],
        {"dice": {0: (3, 5, 3, 4, 5, 10), 1: (2, 6, 3, 4, 5, 6)}},
    ),
    row(
        "north-node-rerolls-dice-showing-their-maximum",
        {
            **NEUTRAL,
            "planet": "North Node",
            "dice": ((4, 2, 3, 4, 5, 6), (1, 6, 3, 4, 5, 6)),
            "rolls": [20, 2, 5, 3],
        },
        [(0, "reroll my D20")],
        {"dice": {0: (2, 2, 3, 4, 5, 5), 1: (1, 3, 3, 4, 5, 6)}},
    ),
    row(
        "pluto-halves-every-even-die",
        {**NEUTRAL, "planet": "Pluto", "rolls": [12]},
        [(0, "reroll my D20")],
        {"dice": {0: (1, 1, 3, 2, 5, 6), 1: (1, 1, 3, 2, 5, 3)}},
    ),
    row(
        "jupiter-rolls-the-largest-dice",
        {**NEUTRAL, "planet": "Jupiter", "rolls": [2, 15, 16]},
        [(0, "reroll my D4")],
        {"dice": {0: (2, 2, 3, 4, 5, 15), 1: (1, 2, 3, 4, 5, 16)}},
    ),
    row(
        "saturn-adds-1-to-every-odd-die",
        {**NEUTRAL, "planet": "Saturn", "rolls": [3]},
        [(0, "reroll my D4")],
        {"dice": {0: (4, 2, 4, 4, 6, 6), 1: (2, 2, 4, 4, 6, 6)}},
    ),
    row(
        "uranus-appearing-becomes-any-other-symbol",
        {**NEUTRAL, "planet": "Venus", "hands": (["Ace of Cups"], [])},
        [(0, "play Ace of Cups"), (0, "value 11"), (0, "die planet")],
        {"phase": "uranus_symbol", "illegal": [(0, "planet Uranus")], "legal": [(0, "planet Saturn")]},
    ),
    row(
        "uranus-choice-then-the-new-planet-acts-at-the-end-of-the-turn",
        {**NEUTRAL, "planet": "Venus", "hands": (["Ace of Cups"], [])},
        [(0, "play Ace of Cups"), (0, "value 11"), (0, "die planet"), (0, "planet Saturn")],
        {"planet": "Saturn", "dice": {0: (2, 2, 4, 4, 6, 6), 1: (2, 2, 4, 4, 6, 6)}, "to_move": 1},
    ),
    row(
        "neptune-appearing-banishes-a-die-while-it-shows",
        {**NEUTRAL, "planet": "Venus", "rolls": [12]},
        [(0, "reroll planet"), (0, "die opp D20")],
        {
            "planet": "Neptune",
            "banished": {"p1 D20"},
            "to_move": 1,
            "illegal": [(1, "reroll my D20"), (1, "capture D20 D4")],
        },
    ),
    row(
        "neptune-banish-ends-when-the-planet-leaves-neptune",
        {**NEUTRAL, "planet": "Venus", "rolls": [12, 2, 3]},
        [
            (0, "reroll planet"),
            (0, "die opp D20"),
            (1, "reroll planet"),
            (1, "die my D4"),
        ],
        {"planet": "Venus", "banished": set(), "dice": {1: (3, 2, 3, 4, 5, 6)}, "to_move": 0},
    ),
    row(
        "neptune-banish-ends-when-taurus-negates-it",
        {**NEUTRAL, "planet": "Venus", "hands": ([], ["2 of Wands"]), "rolls": [12]},
        [
            (0, "reroll planet"),
            (0, "die opp D20"),
            (1, "play 2 of Wands"),
            (1, "die zodiac"),
        ],
        {"planet": "Neptune", "zodiac": "Taurus", "banished": set()},
    ),
]

# --- the Major Arcana (Sun on the Planet die, Aries on the Zodiac die) -------------------------------
MAJOR_ROWS = [
    row(
        "the-fool-a-number-on-a-matching-die-may-roll-any-die",
        {"majors": (["The Fool"], []), "hands": (["3 of Cups"], []), "rolls": [15]},
        [(0, "play 3 of Cups"), (0, "die my D8"), (0, "use The Fool"), (0, "die opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 15)}, "to_move": 1},
    ),
    row(
        "the-fool-is-a-may",
        {"majors": (["The Fool"], []), "hands": (["3 of Cups"], [])},
        [(0, "play 3 of Cups"), (0, "die my D8"), (0, "pass")],
        {"dice": {0: (1, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 6)}, "to_move": 1},
    ),
    row(
        "the-fool-not-on-a-die-showing-something-else",
        {"majors": (["The Fool"], []), "hands": (["3 of Cups"], [])},
        [(0, "play 3 of Cups"), (0, "die my D10")],
        {"dice": {0: (1, 2, 3, 3, 5, 6)}, "to_move": 1},
    ),
    row(
        "the-fool-cancer-lets-a-9-match-a-die-showing-6",
        {"majors": (["The Fool"], []), "hands": (["9 of Cups"], []), "planet": "Uranus", "zodiac": "Cancer"},
        [(0, "play 9 of Cups"), (0, "die opp D20")],
        {"phase": "triggers", "legal": [(0, "use The Fool")]},
    ),
    row(
        "the-high-priestess-a-card-on-the-zodiac-die-may-roll-a-die",
        {"majors": (["The High Priestess"], []), "hands": (["4 of Cups"], []), "rolls": [20]},
        [(0, "play 4 of Cups"), (0, "die zodiac"), (0, "use The High Priestess"), (0, "die my D20")],
        {"zodiac": "Cancer", "dice": {0: (1, 2, 3, 4, 5, 20)}},
    ),
    row(
        "the-empress-a-face-card-may-roll-a-die",
        {"majors": (["The Empress"], []), "hands": (["Page of Cups", "Page of Swords"], []), "rolls": [4]},
        [(0, "play Page of Cups"), (0, "die opp D20"), (0, "use The Empress"), (0, "die my D4")],
        {"dice": {0: (4, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 1)}},
    ),
    row(
        # The "$" mark has no rule effect (D-1): used once, The Empress triggers again.
        "the-empress-triggers-on-every-face-card-the-dollar-mark-limits-nothing",
        {"majors": (["The Empress"], []), "hands": (["Page of Cups", "Page of Swords"], []), "rolls": [4, 9]},
        [
            (0, "play Page of Cups"),
            (0, "die opp D20"),
            (0, "use The Empress"),
            (0, "die my D4"),
            (1, "reroll my D20"),
            (0, "play Page of Swords"),
            (0, "die opp D20"),
        ],
        {
            "phase": "triggers",
            "to_move": 0,
            "dice": {1: (1, 2, 3, 4, 5, 1)},
            "legal": [(0, "use The Empress")],
        },
    ),
    row(
        "the-emperor-a-number-on-a-matching-die-may-set-it-to-its-maximum",
        {"majors": (["The Emperor"], []), "hands": (["5 of Cups"], [])},
        [(0, "play 5 of Cups"), (0, "die my D12"), (0, "use The Emperor")],
        {"dice": {0: (1, 2, 3, 4, 12, 6)}},
    ),
    row(
        "the-hierophant-a-prime-number-changes-the-planet-die-it-is-no-may",
        {"majors": (["The Hierophant"], []), "hands": (["7 of Cups"], [])},
        [(0, "play 7 of Cups"), (0, "die opp D8")],
        {"phase": "triggers", "legal": [(0, "use The Hierophant")], "illegal": [(0, "pass")]},
    ),
    row(
        "the-hierophant-sets-any-symbol",
        {"majors": (["The Hierophant"], []), "hands": (["7 of Cups"], [])},
        [(0, "play 7 of Cups"), (0, "die opp D8"), (0, "use The Hierophant"), (0, "planet Jupiter")],
        # Jupiter now shows, but Aries (the Sun is gone) holds the Planet die back: no capture.
        {"planet": "Jupiter", "dice": {1: (1, 2, 7, 4, 5, 6)}, "to_move": 1},
    ),
    row(
        "the-hierophant-not-for-a-4",
        {"majors": (["The Hierophant"], []), "hands": (["4 of Cups"], [])},
        [(0, "play 4 of Cups"), (0, "die opp D8")],
        {"to_move": 1},
    ),
    row(
        "the-lovers-the-number-on-a-second-die-you-control",
        {"majors": (["The Lovers"], []), "hands": (["4 of Cups"], [])},
        [(0, "play 4 of Cups"), (0, "die my D8"), (0, "use The Lovers")],
        {
            "phase": "lovers_target",
            "legal": [(0, "die my D4"), (0, "die my D20")],
            "illegal": [(0, "die my D8"), (0, "die opp D20"), (0, "die planet")],
        },
    ),
    row(
        "the-lovers-done",
        {"majors": (["The Lovers"], []), "hands": (["4 of Cups"], [])},
        [(0, "play 4 of Cups"), (0, "die my D8"), (0, "use The Lovers"), (0, "die my D20")],
        {"dice": {0: (1, 2, 4, 4, 5, 4)}},
    ),
    row(
        "the-chariot-a-face-card-returns-a-numbered-card-to-a-well",
        {"majors": (["The Chariot"], []), "hands": (["King of Cups"], []), "graveyards": (["9 of Cups"], [])},
        [(0, "play King of Cups"), (0, "die opp D4"), (0, "use The Chariot")],
        {
            "phase": "chariot_card",
            "legal": [(0, "return 9 of Cups")],
            "illegal": [(0, "return King of Cups")],
        },
    ),
    row(
        "the-chariot-done",
        {"majors": (["The Chariot"], []), "hands": (["King of Cups"], []), "graveyards": (["9 of Cups"], [])},
        [
            (0, "play King of Cups"),
            (0, "die opp D4"),
            (0, "use The Chariot"),
            (0, "return 9 of Cups"),
            (0, "well 2"),
        ],
        {
            "wells": {0: [[], ["9 of Cups"], []]},
            "graveyard": {0: ["King of Cups"]},
            "dice": {1: (4, 2, 3, 4, 5, 6)},
        },
    ),
    row(
        "strength-played-from-the-hand-as-any-face-card",
        {"majors": (["Strength"], [])},
        [(0, "play Strength"), (0, "face King"), (0, "die my D6")],
        {"dice": {0: (1, 6, 3, 4, 5, 6)}, "graveyard": {0: ["Strength"]}},
    ),
    row(
        "the-hermit-a-number-on-a-matching-die-may-banish-it",
        {"majors": (["The Hermit"], []), "hands": (["3 of Cups"], [])},
        [(0, "play 3 of Cups"), (0, "die opp D8"), (0, "use The Hermit")],
        {"banished": {"p1 D8"}, "to_move": 1, "illegal": [(1, "reroll my D8")]},
    ),
    row(
        "wheel-of-fortune-a-hidden-card-rolls-a-die-no-may",
        {"majors": (["Wheel of Fortune"], []), "hands": (["2 of Cups"], [])},
        [(0, "play 2 of Cups"), (0, "die opp D4")],
        {"phase": "triggers", "illegal": [(0, "pass")], "legal": [(0, "use Wheel of Fortune")]},
    ),
    row(
        "wheel-of-fortune-done",
        {"majors": (["Wheel of Fortune"], []), "hands": (["2 of Cups"], []), "rolls": [11]},
        [(0, "play 2 of Cups"), (0, "die opp D4"), (0, "use Wheel of Fortune"), (0, "die my D20")],
        {"dice": {0: (1, 2, 3, 4, 5, 11), 1: (2, 2, 3, 4, 5, 6)}},
    ),
    row(
        "wheel-of-fortune-not-for-a-well-card",
        {"majors": (["Wheel of Fortune"], []), "wells": ([["2 of Cups"]], [])},
        [(0, "play 2 of Cups"), (0, "die opp D4")],
        {"to_move": 1},
    ),
    row(
        "justice-a-number-on-your-die-may-also-target-an-enemy-die",
        {"majors": (["Justice"], []), "hands": (["4 of Cups"], [])},
        [(0, "play 4 of Cups"), (0, "die my D8"), (0, "use Justice")],
        {"legal": [(0, "die opp D4"), (0, "die opp D20")], "illegal": [(0, "die my D20"), (0, "die zodiac")]},
    ),
    row(
        "justice-done",
        {"majors": (["Justice"], []), "hands": (["4 of Cups"], [])},
        [(0, "play 4 of Cups"), (0, "die my D8"), (0, "use Justice"), (0, "die opp D20")],
        {"dice": {0: (1, 2, 4, 4, 5, 6), 1: (1, 2, 3, 4, 5, 4)}},
    ),
    row(
        "the-hanged-man-a-card-with-the-effect-of-the-graveyard-top",
        {
            "majors": (["The Hanged Man"], []),
            "hands": (["2 of Cups"], []),
            "graveyards": (["King of Cups"], []),
        },
        [(0, "play 2 of Cups"), (0, "use The Hanged Man"), (0, "die my D8")],
        {
            "dice": {0: (1, 2, 8, 4, 5, 6)},
            "graveyard": {0: ["King of Cups", "2 of Cups"]},
        },
    ),
    row(
        "the-hanged-man-is-a-may",
        {
            "majors": (["The Hanged Man"], []),
            "hands": (["2 of Cups"], []),
            "graveyards": (["King of Cups"], []),
        },
        [(0, "play 2 of Cups"), (0, "pass"), (0, "die my D8")],
        {"dice": {0: (1, 2, 2, 4, 5, 6)}},
    ),
    row(
        "death-enters-your-hand-when-you-capture-even-from-the-graveyard",
        {"majors": (["Death"], []), "graveyards": (["Death"], []), "planet": "Venus", "zodiac": "Taurus"},
        [(0, "capture D4 D4")],
        {"graveyard": {0: []}, "to_move": 1, "dice": {0: (0, 2, 3, 4, 5, 6)}},
    ),
    row(
        "death-a-face-card-with-no-effect",
        {"majors": (["Death", "The Empress"], []), "hands": (["Death"], []), "rolls": [7]},
        [(0, "play Death"), (0, "use The Empress"), (0, "die my D20")],
        {"graveyard": {0: ["Death"]}, "dice": {0: (1, 2, 3, 4, 5, 7)}},
    ),
    row(
        "temperance-a-number-one-higher-or-lower",
        {"majors": (["Temperance"], []), "hands": (["9 of Cups"], [])},
        [(0, "play 9 of Cups")],
        {
            "phase": "card_value",
            "legal": [(0, "value 8"), (0, "value 9"), (0, "value 10")],
            "illegal": [(0, "value 7"), (0, "value 11")],
        },
    ),
    row(
        "temperance-done",
        {"majors": (["Temperance"], []), "hands": (["9 of Cups"], [])},
        [(0, "play 9 of Cups"), (0, "value 10"), (0, "die opp D10")],
        {"dice": {1: (1, 2, 3, 10, 5, 6)}},
    ),
    row(
        "the-devil-a-hidden-card-may-bring-the-sacrificed-card",
        {"majors": (["The Devil"], []), "hands": (["2 of Cups"], []), "sacrificed": ("5 of Cups", None)},
        [(0, "play 2 of Cups"), (0, "die opp D4"), (0, "use The Devil"), (0, "die my D20")],
        {
            "dice": {0: (1, 2, 3, 4, 5, 5), 1: (2, 2, 3, 4, 5, 6)},
            "graveyard": {0: ["2 of Cups", "5 of Cups"]},
        },
    ),
    row(
        "the-tower-a-card-trumping-the-graveyard-top-may-reroll-a-numbered-die",
        {"majors": (["The Tower"], []), "hands": (["Page of Cups"], []), "graveyards": (["3 of Cups"], [])},
        [(0, "play Page of Cups"), (0, "die opp D4"), (0, "use The Tower")],
        {
            "phase": "tower_reroll",
            "legal": [(0, "die opp D20")],
            "illegal": [(0, "die planet"), (0, "die zodiac")],
        },
    ),
    row(
        "the-tower-done",
        {
            "majors": (["The Tower"], []),
            "hands": (["Page of Cups"], []),
            "graveyards": (["3 of Cups"], []),
            "rolls": [2],
        },
        [(0, "play Page of Cups"), (0, "die opp D4"), (0, "use The Tower"), (0, "die opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 2)}},
    ),
    row(
        "the-tower-not-under-a-higher-card",
        {
            "majors": (["The Tower"], []),
            "hands": (["Page of Cups"], []),
            "graveyards": (["King of Cups"], []),
        },
        [(0, "play Page of Cups"), (0, "die opp D4")],
        {"to_move": 1},
    ),
    row(
        "the-star-a-number-on-a-matching-die-may-change-the-zodiac",
        {"majors": (["The Star"], []), "hands": (["3 of Cups"], [])},
        [(0, "play 3 of Cups"), (0, "die my D8"), (0, "use The Star"), (0, "zodiac Leo")],
        {"zodiac": "Leo"},
    ),
    row(
        "the-moon-a-hidden-card-may-change-the-zodiac",
        {"majors": (["The Moon"], []), "hands": (["2 of Cups"], [])},
        [(0, "play 2 of Cups"), (0, "die opp D4"), (0, "use The Moon"), (0, "zodiac Virgo")],
        {"zodiac": "Virgo"},
    ),
    row(
        "the-sun-a-face-card-may-change-the-planet",
        {"majors": (["The Sun"], []), "hands": (["Knight of Cups"], [])},
        [(0, "play Knight of Cups"), (0, "die opp D4"), (0, "use The Sun"), (0, "planet Mercury")],
        {"planet": "Mercury", "banished": {"p1 D4"}},
    ),
    row(
        "judgement-a-number-as-any-value-between-it-and-a-numbered-graveyard-top",
        {"majors": (["Judgement"], []), "hands": (["3 of Cups"], []), "graveyards": (["9 of Cups"], [])},
        [(0, "play 3 of Cups")],
        {
            "phase": "card_value",
            "legal": [(0, f"value {v}") for v in range(3, 10)],
            "illegal": [(0, "value 2"), (0, "value 10")],
        },
    ),
    row(
        "judgement-used",
        {"majors": (["Judgement"], []), "hands": (["3 of Cups"], []), "graveyards": (["9 of Cups"], [])},
        [(0, "play 3 of Cups"), (0, "value 7"), (0, "die opp D8")],
        {"dice": {1: (1, 2, 7, 4, 5, 6)}},
    ),
    row(
        "the-world-a-number-on-a-symbol-die-may-target-a-numbered-die-as-well",
        {"majors": (["The World"], []), "hands": (["6 of Cups"], [])},
        [(0, "play 6 of Cups"), (0, "die zodiac"), (0, "use The World")],
        {"legal": [(0, "die opp D12"), (0, "die my D6")], "illegal": [(0, "die my D4"), (0, "die planet")]},
    ),
    row(
        "the-world-done",
        {"majors": (["The World"], []), "hands": (["6 of Cups"], [])},
        [(0, "play 6 of Cups"), (0, "die zodiac"), (0, "use The World"), (0, "die opp D12")],
        {"zodiac": "Virgo", "dice": {1: (1, 2, 3, 4, 6, 6)}},
    ),
    row(
        "several-majors-in-the-players-order",
        {
            "majors": (["The Fool", "The Emperor", "The Hermit"], []),
            "hands": (["5 of Cups"], []),
            "rolls": [9],
        },
        [
            (0, "play 5 of Cups"),
            (0, "die my D12"),
            (0, "use The Emperor"),  # my D12 to 12 first ...
            (0, "use The Fool"),  # ... then roll any die ...
            (0, "die opp D20"),
            (0, "pass"),  # ... and keep The Hermit's banish unused
        ],
        {"dice": {0: (1, 2, 3, 4, 12, 6), 1: (1, 2, 3, 4, 5, 9)}, "banished": set(), "to_move": 1},
    ),
]


# --- how the effects meet ---------------------------------------------------------------------------
INTERACTION_ROWS = [
    # Jupiter rolls both D20s but Leo locks the higher when Jupiter acts (I-13); the dice roll
    # together, so the unlocked D20 rolling past it frees nothing, whichever seat holds which.
    row(
        "leo-locks-what-jupiter-finds-player_1s-d20-stays",
        {
            "planet": "Jupiter",
            "zodiac": "Leo",
            "dice": ((1, 2, 3, 4, 5, 10), (1, 2, 3, 4, 5, 15)),
            "rolls": [2, 18],
        },
        [(0, "reroll my D4")],
        {"dice": {0: (2, 2, 3, 4, 5, 18), 1: (1, 2, 3, 4, 5, 15)}, "to_move": 1},
    ),
    row(
        "leo-locks-what-jupiter-finds-player_0s-d20-stays",
        {
            "planet": "Jupiter",
            "zodiac": "Leo",
            "dice": ((1, 2, 3, 4, 5, 15), (1, 2, 3, 4, 5, 10)),
            "rolls": [2, 18],
        },
        [(0, "reroll my D4")],
        {"dice": {0: (2, 2, 3, 4, 5, 15), 1: (1, 2, 3, 4, 5, 18)}, "to_move": 1},
    ),
    # The dice a Planet face rolls read the Zodiac face once, as they roll, and its "as well"
    # follows once for them all (I-39): player_1's D20 does not meet what player_0's set off.
    row(
        "jupiter-under-sagittarius-rolls-both-d20s-then-the-planet-and-zodiac-once",
        {"planet": "Jupiter", "zodiac": "Sagittarius", "rolls": [15, 3, 8, 10]},
        [(0, "capture D4 D4")],  # Jupiter: D20s 15 and 3, then Pluto (8) and Capricorn (10)
        {
            "planet": "Pluto",
            "zodiac": "Capricorn",
            "dice": {0: (0, 2, 3, 4, 5, 15), 1: (0, 2, 3, 4, 5, 3)},
            "to_move": 1,
        },
    ),
    row(
        "jupiter-under-gemini-rolls-each-d20-once",
        {"planet": "Jupiter", "zodiac": "Gemini", "rolls": [15, 3]},
        [(0, "capture D4 D4")],  # each D20 is the other's twin, and both have rolled
        {"dice": {0: (0, 2, 3, 4, 5, 15), 1: (0, 2, 3, 4, 5, 3)}, "to_move": 1},
    ),
    row(
        "the-south-node-under-gemini-rolls-its-dice-then-their-twins",
        {
            "planet": "South Node",
            "zodiac": "Gemini",
            "dice": ((1, 2, 3, 4, 5, 6), (3, 3, 3, 4, 5, 6)),
            "rolls": [3, 4, 5, 2, 6],
        },
        # the Zodiac die rolls Gemini (3), which does not act on its own roll; then the South
        # Node rolls my D4 and D6 (4, 5), and Gemini their twins (2, 6)
        [(0, "reroll zodiac")],
        {"zodiac": "Gemini", "dice": {0: (4, 5, 3, 4, 5, 6), 1: (2, 6, 3, 4, 5, 6)}},
    ),
    row(
        "jupiter-under-pisces-rolls-the-other-dice-showing-what-either-d20-rolled",
        {
            "planet": "Jupiter",
            "zodiac": "Pisces",
            "dice": ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 5)),
            "rolls": [3, 5, 7, 1, 2, 9],
        },
        # D20s 3 and 5; then the D8s (3) and D12s (5), lowest die first; player_1's D20 showed 5
        # but is one of the dice rolled, not another die showing the value
        [(0, "capture D4 D4")],
        {"dice": {0: (0, 2, 7, 4, 1, 3), 1: (0, 2, 2, 4, 9, 5)}, "to_move": 1},
    ),
    # A card that sets the Planet die to the face it shows changes nothing ([x]): Neptune and
    # Uranus do not appear again (I-17); a roll that lands on the same face does.
    row(
        "the-hierophant-naming-neptune-again-keeps-its-banish",
        {
            **NEUTRAL,
            "planet": "Venus",
            "majors": ([], ["The Hierophant"]),
            "hands": ([], ["2 of Wands"]),
            "rolls": [12],
        },
        [
            (0, "reroll planet"),
            (0, "die opp D20"),
            (1, "play 2 of Wands"),
            (1, "die my D4"),
            (1, "use The Hierophant"),
            (1, "planet Neptune"),
        ],
        {"planet": "Neptune", "banished": {"p1 D20"}, "to_move": 0},
    ),
    row(
        # A maximum on the Planet die would be Neptune on demand; only numbered cards (and the
        # Majors that name the Planet die) change it (I-34).
        "the-emperor-does-not-set-the-planet-die",
        {"majors": (["The Emperor"], []), "hands": (["5 of Cups"], [])},
        [(0, "play 5 of Cups"), (0, "die planet")],
        {"planet": "Sun", "to_move": 1},
    ),
    row(
        "the-emperor-on-the-zodiac-die-a-major-effect-may-change-it",
        {"majors": (["The Emperor"], []), "hands": (["Ace of Cups"], [])},
        [(0, "play Ace of Cups"), (0, "value 1"), (0, "die zodiac"), (0, "use The Emperor")],
        {"zodiac": "Pisces"},
    ),
    row(
        "neptune-may-banish-a-die-a-knight-banished-it-is-no-card",
        {**NEUTRAL, "hands": (["Knight of Cups"], []), "rolls": [12]},
        [(0, "play Knight of Cups"), (0, "die opp D20"), (1, "reroll planet")],
        {"phase": "neptune_banish", "legal": [(1, "die my D20"), (1, "die opp D4")]},
    ),
    row(
        "an-11-on-a-planet-die-showing-uranus-asks-for-no-symbol",
        {**NEUTRAL, "hands": (["Ace of Cups"], [])},
        [(0, "play Ace of Cups"), (0, "value 11"), (0, "die planet")],
        {"planet": "Uranus", "to_move": 1},
    ),
    row(
        "neptune-rolled-again-appears-again",
        {**NEUTRAL, "planet": "Venus", "rolls": [12, 12]},
        [
            (0, "reroll planet"),
            (0, "die opp D20"),
            (1, "reroll planet"),
        ],
        {"planet": "Neptune", "phase": "neptune_banish", "banished": set(), "to_move": 1},
    ),
    row(
        "planet-phase-rolls-trigger-the-zodiac",
        {"planet": "Mars", "zodiac": "Capricorn", "rolls": [1, 20]},
        [(0, "reroll my D4"), (0, "die opp D20")],
        {"dice": {0: (2, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 20)}},
    ),
    row(
        "a-zodiac-face-rolled-by-a-queen-governs-her-second-reroll",
        {"hands": (["Queen of Cups"], []), **NEUTRAL, "rolls": [8, 10]},
        [(0, "play Queen of Cups"), (0, "die zodiac"), (0, "die my D20")],
        {"zodiac": "Scorpio", "dice": {0: (1, 2, 3, 4, 5, 9)}},
    ),
    row(
        "sagittarius-the-new-zodiac-face-does-not-act-on-the-roll-that-caused-it",
        {"planet": "Uranus", "zodiac": "Sagittarius", "rolls": [10, 9, 10, 3, 20]},
        [(0, "reroll my D20")],
        # 10 stands (not Capricorn's 11); Jupiter then rolls both D20s under Capricorn: 3 + 1, 20.
        {"planet": "Jupiter", "zodiac": "Capricorn", "dice": {0: (1, 2, 3, 4, 5, 4), 1: (1, 2, 3, 4, 5, 20)}},
    ),
    row(
        "gemini-with-the-opposite-die-captured-rolls-nothing-more",
        {
            "planet": "Uranus",
            "zodiac": "Gemini",
            "dice": ((1, 2, 3, 4, 5, 0), (1, 2, 0, 4, 5, 6)),
            "rolls": [5],
        },
        [(0, "reroll my D8")],
        {"dice": {0: (1, 2, 5, 4, 5, 0)}},
    ),
    row(
        # The Knight's text takes from a banished die capturing, being captured, cards and
        # rerolls; "all odd / even dice" is none of these (I-7, I-10).
        "saturn-raises-a-banished-die-too",
        {**NEUTRAL, "planet": "Saturn", "hands": (["Knight of Cups"], [])},
        [(0, "play Knight of Cups"), (0, "die opp D8")],
        {"dice": {0: (2, 2, 4, 4, 6, 6), 1: (2, 2, 4, 4, 6, 6)}, "banished": {"p1 D8"}},
    ),
    row(
        "pluto-halves-a-banished-die-too",
        {**NEUTRAL, "planet": "Pluto", "hands": (["Knight of Cups"], [])},
        [(0, "play Knight of Cups"), (0, "die opp D10")],
        {"dice": {0: (1, 1, 3, 2, 5, 3), 1: (1, 1, 3, 2, 5, 3)}, "banished": {"p1 D10"}},
    ),
    row(
        # The banished D20 shows the highest value, so Leo locks it and leaves player_0's 19 free.
        "leo-locks-a-banished-die-showing-the-highest-value",
        {
            "planet": "Uranus",
            "zodiac": "Leo",
            "dice": ((1, 2, 3, 4, 5, 19), (1, 2, 3, 4, 5, 20)),
            "hands": (["Knight of Cups"], []),
        },
        [(0, "play Knight of Cups"), (0, "die opp D20")],
        {"to_move": 1, "banished": {"p1 D20"}, "legal": [(1, "reroll opp D20")]},
    ),
    row(
        # Mercury's "smallest sized die still in play": a banished D4 is still in play (a capture
        # takes dice out of play), so the D4s are the smallest, and a banished die does not roll.
        "mercury-counts-a-banished-d4-which-does-not-roll",
        {
            **NEUTRAL,
            "planet": "Mercury",
            "dice": ((0, 2, 3, 4, 5, 6), (1, 0, 3, 4, 5, 6)),
            "hands": (["Knight of Cups"], []),
        },
        [(0, "play Knight of Cups"), (0, "die opp D4")],
        {"dice": {0: (0, 2, 3, 4, 5, 6), 1: (1, 0, 3, 4, 5, 6)}, "banished": {"p1 D4"}, "to_move": 1},
    ),
    row(
        "uranus-may-become-neptune-which-then-banishes",
        {**NEUTRAL, "planet": "Venus", "hands": (["Ace of Cups"], [])},
        [
            (0, "play Ace of Cups"),
            (0, "value 11"),
            (0, "die planet"),
            (0, "planet Neptune"),
            (0, "die opp D12"),
        ],
        {"planet": "Neptune", "banished": {"p1 D12"}, "to_move": 1},
    ),
    row(
        "a-leo-locked-die-cannot-be-targeted-by-a-card",
        {
            "planet": "Uranus",
            "zodiac": "Leo",
            "dice": ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 20)),
            "hands": (["7 of Cups"], []),
        },
        [(0, "play 7 of Cups")],
        {"phase": "card_target", "illegal": [(0, "die opp D20")], "legal": [(0, "die my D20")]},
    ),
    row(
        "a-leo-locked-die-cannot-be-targeted-by-a-face-card",
        {
            "planet": "Uranus",
            "zodiac": "Leo",
            "dice": ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 20)),
            "hands": (["King of Cups"], []),
        },
        [(0, "play King of Cups")],
        {"phase": "card_target", "illegal": [(0, "die opp D20")], "legal": [(0, "die my D20")]},
    ),
    row(
        "a-leo-locked-die-still-captures-and-can-be-captured",
        {"planet": "Uranus", "zodiac": "Leo", "dice": ((1, 2, 3, 4, 5, 20), (1, 2, 3, 4, 5, 20))},
        [],
        {"legal": [(0, "capture D20 D20")]},
    ),
    row(
        "the-devils-card-is-not-a-hidden-card-wheel-still-waits",
        {
            "majors": (["The Devil", "Wheel of Fortune"], []),
            "hands": (["2 of Cups"], []),
            "sacrificed": ("5 of Cups", None),
        },
        [(0, "play 2 of Cups"), (0, "die opp D4"), (0, "use The Devil"), (0, "die my D12")],
        {"phase": "triggers", "legal": [(0, "use Wheel of Fortune")], "illegal": [(0, "pass")]},
    ),
    row(
        "the-devil-then-wheel-of-fortune",
        {
            "majors": (["The Devil", "Wheel of Fortune"], []),
            "hands": (["2 of Cups"], []),
            "sacrificed": ("5 of Cups", None),
            "rolls": [9],
        },
        [
            (0, "play 2 of Cups"),
            (0, "die opp D4"),
            (0, "use The Devil"),
            (0, "die my D12"),
            (0, "use Wheel of Fortune"),
            (0, "die my D20"),
        ],
        {
            "dice": {0: (1, 2, 3, 4, 5, 9), 1: (2, 2, 3, 4, 5, 6)},
            "graveyard": {0: ["2 of Cups", "5 of Cups"]},
        },
    ),
    row(
        # The Empress, used on The Devil's King, is offered again to the Queen that brought The
        # Devil: the "$" mark limits nothing (D-1).
        "a-major-used-inside-the-devils-card-is-offered-again-to-the-card-that-brought-it",
        {
            "majors": (["The Devil", "The Empress"], []),
            "hands": (["Queen of Cups"], []),
            "sacrificed": ("King of Cups", None),
            "rolls": [1, 1, 1],
        },
        [
            (0, "play Queen of Cups"),
            (0, "die my D4"),
            (0, "die my D6"),
            (0, "use The Devil"),
            (0, "die my D8"),
            (0, "use The Empress"),
            (0, "die my D10"),
        ],
        {"phase": "triggers", "to_move": 0, "legal": [(0, "use The Empress")]},
    ),
    row(
        "the-hanged-man-over-strength-plays-as-any-face-card",
        {
            "majors": (["The Hanged Man", "Strength"], []),
            "hands": (["2 of Cups"], []),
            "graveyards": (["Strength"], []),
        },
        [(0, "play 2 of Cups"), (0, "use The Hanged Man"), (0, "face Page"), (0, "die opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 1)}},
    ),
    row(
        # The Hidden Card is the Minor Arcana card in hand (Dealing Out Minor Arcana); Strength
        # and Death are Majors that reached the hand in the open (I-30).
        "strength-from-the-hand-is-no-hidden-card",
        {"majors": (["Strength", "Wheel of Fortune", "The Moon"], [])},
        [(0, "play Strength"), (0, "face Page"), (0, "die opp D20")],
        {"dice": {1: (1, 2, 3, 4, 5, 1)}, "to_move": 1},
    ),
    row(
        "death-from-the-hand-is-no-hidden-card",
        {"majors": (["Death", "Wheel of Fortune", "The Moon"], []), "hands": (["Death"], [])},
        [(0, "play Death")],
        {"to_move": 1, "graveyard": {0: ["Death"]}},
    ),
    row(
        "a-minor-from-the-hand-is-a-hidden-card",
        {"majors": (["Wheel of Fortune"], []), "hands": (["2 of Cups"], []), "rolls": [4]},
        [(0, "play 2 of Cups"), (0, "die opp D20"), (0, "use Wheel of Fortune"), (0, "die my D4")],
        {"dice": {0: (4, 2, 3, 4, 5, 6), 1: (1, 2, 3, 4, 5, 2)}},
    ),
    row(
        "the-hanged-man-makes-an-unplayable-knight-playable",
        {
            "majors": (["The Hanged Man"], []),
            "dice": ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)),
            "hands": (["Knight of Cups"], []),
            "graveyards": (["King of Cups"], []),
        },
        [(0, "play Knight of Cups")],
        {"phase": "hanged_man", "legal": [(0, "use The Hanged Man"), (0, "pass")]},
    ),
]


@pytest.mark.parametrize(("table", "moves", "expect"), MINOR_ROWS + ACTION_ROWS)
def test_move_scripts(table, moves, expect):
    s = position(**table)
    play(s, moves)
    check(s, expect)
    assert not s.rng.values, f"scripted rolls left over: {s.rng.values}"


@pytest.mark.parametrize(("table", "moves", "expect"), ZODIAC_ROWS)
def test_zodiac_faces(table, moves, expect):
    s = position(**table)
    play(s, moves)
    check(s, expect)
    assert not s.rng.values, f"scripted rolls left over: {s.rng.values}"


@pytest.mark.parametrize(("table", "moves", "expect"), PLANET_ROWS)
def test_planet_faces(table, moves, expect):
    s = position(**table)
    play(s, moves)
    check(s, expect)
    assert not s.rng.values, f"scripted rolls left over: {s.rng.values}"


@pytest.mark.parametrize(("table", "moves", "expect"), MAJOR_ROWS)
def test_major_arcana(table, moves, expect):
    s = position(**table)
    play(s, moves)
    check(s, expect)
    assert not s.rng.values, f"scripted rolls left over: {s.rng.values}"


@pytest.mark.parametrize(("table", "moves", "expect"), INTERACTION_ROWS)
def test_interactions(table, moves, expect):
    s = position(**table)
    play(s, moves)
    check(s, expect)
    assert not s.rng.values, f"scripted rolls left over: {s.rng.values}"


def test_sun_and_taurus_together_leave_both_dice_without_effect():
    """Each negates the other die; whichever negation one applies first, neither die does anything
    else, so the game is the same either way (I-11)."""
    s = position(planet="Sun", zodiac="Taurus", rolls=[7])
    assert not s.zodiac_active()  # the Sun wins ...
    assert s.planet_active()  # ... and the Sun itself has no end-of-turn effect
    assert s.is_legal(action_of("capture D20 D4"))
    play(s, [(0, "reroll my D20")])
    assert dice_of(s, 0) == [1, 2, 3, 4, 5, 7] and s.current_player == 1


def test_every_face_and_major_has_a_row():
    ids = " ".join(p.id for p in ZODIAC_ROWS + PLANET_ROWS + MAJOR_ROWS)
    from mystic_envs.tarot_dice.cards import PLANET_NAMES, ZODIAC_NAMES

    for name in ZODIAC_NAMES + PLANET_NAMES:
        assert name.lower().replace(" ", "-") in ids, name
    for m in MAJORS:
        if m.name != "The Magician":  # a setup effect: test_components.py
            assert m.name.lower().replace(" ", "-") in ids, m.name
    ranks = " ".join(p.id for p in MINOR_ROWS)
    for rank in ("number", "ace", "page", "knight", "queen", "king"):
        assert rank in ranks


def test_death_enters_the_hand_when_its_owner_captures():
    s = position(majors=(["Death"], []), graveyards=(["Death"], []), planet="Venus", zodiac="Taurus")
    assert not s.is_legal(action_of("play Death"))
    play(s, [(0, "capture D4 D4")])
    assert s.major_hand[0] >> 13 & 1
    play(s, [(1, "capture D6 D6")])
    assert s.current_player == 0 and s.is_legal(action_of("play Death"))


def action_of(move: str) -> int:
    from .script import action

    return action(0, move)


def test_illegal_actions_are_refused_with_a_clear_message():
    s = position(hands=(["7 of Cups"], []))
    play(s, [(0, "play 7 of Cups")])
    with pytest.raises(IllegalActionError, match=r"your D4: reroll it.*player_0 in phase 'card_target'"):
        s.apply(action_of("die my D4"))
    assert CARD["7 of Cups"] in s.graveyard[0]
