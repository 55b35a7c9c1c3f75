"""One scripted row per card effect: every Environment, Attachment, Action and Major Arcana of the
designed set does what its text says (Pawns are plain data: influence and printed traits, checked
in test_rules.py). Each row is (card, table, moves, check); ``check(s)`` must hold after the moves.

Fate rows challenge the pool with a 2-influence Pawn whose Fate Draw is the card and a failure:
Five of Wands over ``wands_cups`` (even Majors), Five of Cups over ``cups_swords`` (odd Majors).
"""

from __future__ import annotations

from typing import Any

import pytest

from mystic_envs.mystick_domination.cards import (
    AGGRESSION,
    ATTACHMENT,
    CARDS,
    IMMUNITY,
    INFLUENCE,
    IS_MAJOR,
    MAJOR,
    PAWN,
    PRESENCE,
    RESOURCES,
)
from mystic_envs.mystick_domination.rules import MOVE

from .script import cid, cross_names, legal, names, play, table

CHALLENGE = [(0, "challenge 0"), (0, "done")]
POOL_CHALLENGE = [(0, "challenge 0"), (0, "pool"), (0, "done")]  # an enemy Pawn could be the target too


def fate(major: str, **extra: Any) -> dict[str, Any]:
    """A table where player_0's Pawn challenges the pool and draws ``major`` and a failure."""
    even = CARDS[cid(major)].number % 2 == 0
    kwargs: dict[str, Any] = {
        "decks": ["wands_cups", "swords_pentacles"] if even else ["cups_swords", "wands_pentacles"],
        "pawns": {0: [("Five of Wands" if even else "Five of Cups", 0)]},
        "tops": {0: [major, "Four of Cups" if even else "Four of Swords"]},
        "pool": 11,
    }
    for key, value in extra.items():
        if key == "pawns":
            kwargs["pawns"] = {**kwargs["pawns"], **value}
        else:
            kwargs[key] = value
    return kwargs


def attach(card: str, deck: str, pawn: str) -> dict[str, Any]:
    return {"decks": [deck, "swords_pentacles" if "wands" in deck else "wands_cups"], "hands": {0: [card]},
            "pawns": {0: [(pawn, 0)]}}  # fmt: skip


def row(card: str, kwargs: dict[str, Any], moves: list[tuple[int, str]], check) -> Any:
    return pytest.param(card, kwargs, moves, check, id=card)


ROWS = [
    # --- Environments --------------------------------------------------------------------------
    row(
        "Ace of Wands",
        # Only the Pawn with no Power may take it: the Seven of Wands has room but holds 1 already.
        {
            "envs": {0: ["Ace of Wands"]},
            "pawns": {0: [("Seven of Wands", 1), ("Five of Wands", 0)]},
            "pool": 3,
        },
        [(0, "special Ace of Wands")],
        lambda s: s.power[0][:2] == [1, 1] and s.pool == 2 and s.score[0] == 0,
    ),
    row(
        "Two of Wands",
        {"envs": {0: ["Two of Wands"]}, "pawns": {0: [("Five of Wands", 0), ("Four of Wands", 0)]}},
        [],
        lambda s: s.infl[0][:2] == [3, 2],
    ),
    row(
        "Ace of Cups",
        {
            "envs": {0: ["Ace of Cups"]},
            "cross": {0: ["Five of Cups", "The Tower", "Six of Cups", "Strength"]},
        },
        [(0, "special Ace of Cups")],
        lambda s: (
            s.score[0] == 0  # the cross is cleared, its Majors score nothing
            and max(s.cross[0]) < 0
            and names(s.discard[0])[-4:] == ["Five of Cups", "XVI The Tower", "Six of Cups", "VIII Strength"]
        ),
    ),
    row(
        "Two of Cups",
        {"envs": {0: ["Two of Cups"]}, "pawns": {0: [("Five of Cups", 0), ("Four of Cups", 0)]}},
        [],
        lambda s: s.infl[0][:2] == [3, 2],
    ),
    row(
        "Ace of Swords",
        {"decks": ["swords_pentacles", "wands_cups"], "envs": {0: ["Ace of Swords"]}, "draw_count": 1},
        [(0, "special Ace of Swords")],  # no card: both decks and hands as they were
        lambda s: s.draw_count == 2 and len(s.deck[0]) == 38 and s.hand_size == [0, 0] and s.current_player,
    ),
    row(
        "Two of Swords",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "envs": {0: ["Two of Swords"]},
            "pawns": {0: [("Five of Swords", 0), ("Six of Swords", 0)]},
        },
        [],
        lambda s: s.infl[0][:2] == [3, 2],
    ),
    row(
        "Ace of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "envs": {0: ["Ace of Pentacles"]},
            "tops": {0: ["Two of Swords"]},
        },
        [(0, "special Ace of Pentacles")],
        lambda s: s.hand[0][cid("Two of Swords")] == 1 and s.draw_count == 0,
    ),
    row(
        "Two of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "envs": {0: ["Two of Pentacles"]},
            "discards": {0: ["Ace of Swords", "Three of Pentacles", "Four of Pentacles"]},
            "draw_count": 2,
            "tops": {0: ["Two of Swords", "Three of Swords"], 1: ["Ace of Wands"]},
        },
        [(0, "draw")],
        lambda s: (
            s.round == 2
            and names(s.discard[0]) == ["Ace of Swords"]  # the top 2 of the pile went back
            and cid("Three of Pentacles") in s.deck[0]
            and cid("Four of Pentacles") in s.deck[0]
        ),
    ),
    # --- Attachments --------------------------------------------------------------------------
    row(
        "Eight of Wands",
        attach("Eight of Wands", "wands_cups", "Four of Cups"),
        [(0, "play Eight of Wands")],
        lambda s: s.traits[0][0] == AGGRESSION,
    ),
    row(
        "Nine of Wands",
        attach("Nine of Wands", "wands_cups", "Four of Cups"),
        [(0, "play Nine of Wands")],
        lambda s: s.infl[0][0] == 3,
    ),
    row(
        "Ten of Wands",
        {  # player_1's Burnout on player_0's Pawn: its challenge burns one of its two Power first
            "decks": ["cups_swords", "wands_pentacles"],
            "pawns": {0: [("Seven of Cups", 2, [("Ten of Wands", 1)])]},
            "tops": {0: ["Four of Swords", "Five of Swords", "Six of Swords"]},
            "pool": 5,
        },
        CHALLENGE,
        lambda s: s.power[0][0] == 1 and s.power_removed == 1 and s.pool == 5,
    ),
    row(
        "Eight of Cups",
        attach("Eight of Cups", "wands_cups", "Four of Wands"),
        [(0, "play Eight of Cups")],
        lambda s: s.traits[0][0] == PRESENCE,
    ),
    row(
        "Nine of Cups",
        {  # the cross is cleared before the Fate Draw: the Fate lands in spaces 1 and 2
            "pawns": {0: [("Four of Wands", 0, [("Nine of Cups", 0)])]},
            "cross": {0: ["Two of Cups", "Three of Cups"]},
            "tops": {0: ["Ace of Wands", "Five of Cups"]},
            "pool": 5,
        },
        CHALLENGE,
        lambda s: (
            cross_names(s, 0)[:3] == ["Ace of Wands", "Five of Cups", "."]
            and names(s.discard[0]) == ["Two of Cups", "Three of Cups"]
            and s.last_challenge == (1, 1, False)
        ),
    ),
    row(
        "Ten of Cups",
        attach("Ten of Cups", "wands_cups", "Four of Wands"),
        [(0, "play Ten of Cups")],
        lambda s: s.infl[0][0] == 1,
    ),
    row(
        "Eight of Swords",
        attach("Eight of Swords", "swords_pentacles", "Five of Pentacles"),
        [(0, "play Eight of Swords")],
        lambda s: s.traits[0][0] == IMMUNITY,
    ),
    row(
        "Nine of Swords",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "mover": 1,
            "pool": 0,
            "pawns": {0: [("Five of Swords", 2, [("Nine of Swords", 0)])], 1: [("Five of Wands", 0)]},
            "tops": {1: ["Ace of Cups", "Two of Cups"]},
        },
        [(1, "challenge 0"), (1, "done")],
        lambda s: s.draw_count == 1,
    ),
    row(
        "Ten of Swords",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "pool": 5,
            "pawns": {0: [("Five of Pentacles", 0, [("Ten of Swords", 0)])]},
            "tops": {0: ["Ace of Swords", "Two of Swords"]},
        },
        CHALLENGE,
        lambda s: s.last_challenge == (1, 1, False),
    ),
    row(
        "Eight of Pentacles",
        attach("Eight of Pentacles", "swords_pentacles", "Five of Swords"),
        [(0, "play Eight of Pentacles")],
        lambda s: s.traits[0][0] == IMMUNITY | RESOURCES,
    ),
    row(
        "Nine of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "pool": 5,
            "pawns": {0: [("Five of Pentacles", 0, [("Nine of Pentacles", 0)])]},
            "tops": {0: ["Ace of Swords", "Two of Swords", "Three of Swords"]},
        },
        CHALLENGE,
        lambda s: s.hand[0][cid("Ace of Swords")] == 1 and s.hand_size[0] == 1,
    ),
    row(
        "Ten of Pentacles",
        {  # player_1's Heavy Purse: when its Pawn is challenged, player_1 shuffles 2 discards back
            "decks": ["wands_cups", "swords_pentacles"],
            "pawns": {0: [("Seven of Wands", 0)], 1: [("Five of Swords", 1, [("Ten of Pentacles", 1)])]},
            "discards": {1: ["Ace of Swords", "Two of Swords", "Three of Swords"]},
            "tops": {0: ["Two of Cups", "Three of Cups", "Four of Cups"]},
            "pool": 5,
        },
        [(0, "challenge 0"), (0, "pawn 1 0"), (0, "done")],
        lambda s: names(s.discard[1]) == ["Ace of Swords"] and cid("Three of Swords") in s.deck[1],
    ),
    # --- Actions ------------------------------------------------------------------------------
    row(
        "Page of Wands",
        {"hands": {0: ["Page of Wands"]}, "pawns": {0: [("Five of Wands", 1)]}},
        [(0, "play Page of Wands")],
        lambda s: s.power[0][0] == 2 and s.power_created == 1,
    ),
    row(
        "Knight of Wands",
        {"hands": {0: ["Knight of Wands"]}, "pawns": {1: [("Seven of Swords", 3)]}},
        [(0, "play Knight of Wands")],
        lambda s: s.power[1][0] == 1 and s.power_removed == 2,
    ),
    row(
        "Queen of Wands",
        {"hands": {0: ["Queen of Wands"]}, "pawns": {0: [("Seven of Wands", 0)]}, "pool": 5},
        [(0, "play Queen of Wands")],
        lambda s: s.power[0][0] == 2 and s.pool == 3 and s.score[0] == 0,
    ),
    row(
        "King of Wands",
        {
            "hands": {0: ["King of Wands"]},
            "pawns": {1: [("Seven of Swords", 3)]},
            "pool": 1,
            "scores": [1, 0],
        },
        [(0, "play King of Wands")],
        lambda s: s.pawn[1][0] == -1 and s.pool == 4 and s.score[0] == 0,
    ),
    row(
        "Page of Cups",
        {  # the cross's three cards back into the deck (37 + 3), shuffled; the pile only gets the Page
            "hands": {0: ["Page of Cups"]},
            "cross": {0: ["Five of Cups", "XVI The Tower", "Six of Cups"], 1: ["Ace of Swords"]},
            "deck_sizes": {0: 30},
        },
        [(0, "play Page of Cups")],
        lambda s: (
            max(s.cross[0]) < 0
            and len(s.deck[0]) == 33
            and {cid("Five of Cups"), cid("XVI The Tower"), cid("Six of Cups")} <= set(s.deck[0])
            and names(s.discard[0])[-1] == "Page of Cups"
            and cross_names(s, 1)[0] == "Ace of Swords"  # only your own cross
        ),
    ),
    row(
        "Knight of Cups",
        {  # three players: the top card of every opponent's deck, none of your own
            "n": 3,
            "hands": {0: ["Knight of Cups"]},
            "tops": {1: ["Ace of Swords", "Two of Swords"], 2: ["Three of Wands", "Four of Wands"]},
        },
        [(0, "play Knight of Cups")],
        lambda s: (
            names([c for c in s.cross[1] if c >= 0]) == ["Ace of Swords"]
            and names([c for c in s.cross[2] if c >= 0]) == ["Three of Wands"]
            and max(s.cross[0]) < 0
        ),
    ),
    row(
        "Queen of Cups",
        {
            "decks": ["cups_swords", "wands_pentacles"],
            "hands": {0: ["Queen of Cups"]},
            "cross": {0: ["Death", "Ace of Swords", "The Star"]},
        },
        [(0, "play Queen of Cups")],
        lambda s: s.score[0] == 2,
    ),
    row(
        "King of Cups",
        {  # three players: the curse floods every opponent's cross, after the next initiative draw
            "n": 3,
            "hands": {0: ["King of Cups"]},
            "draw_count": 2,
            "mover": 0,
            "tops": {
                0: ["Nine of Cups"],
                1: ["Ace of Swords", "Two of Swords", "Three of Swords", "Four of Swords", "Five of Swords"],
                2: ["Three of Wands", "Four of Wands", "Five of Wands", "Six of Wands"],
            },
        },
        [(0, "play King of Cups"), (1, "draw")],
        lambda s: (
            s.round == 2
            and cross_names(s, 1)[:4] == ["Three of Swords", "Four of Swords", "Five of Swords", "."]
            and cross_names(s, 2)[:4] == ["Four of Wands", "Five of Wands", "Six of Wands", "."]
            and max(s.cross[0]) < 0
        ),
    ),
    row(
        "Page of Swords",
        {"decks": ["swords_pentacles", "wands_cups"], "hands": {0: ["Page of Swords"]}, "draw_count": 2},
        [(0, "play Page of Swords")],
        lambda s: s.draw_count == 1 and s.current_player == 1,
    ),
    row(
        "Knight of Swords",
        {"decks": ["swords_pentacles", "wands_cups"], "hands": {0: ["Knight of Swords"]}, "draw_count": 2},
        [(0, "play Knight of Swords")],
        lambda s: s.round == 2 and s.score[0] == 0,
    ),
    row(
        "Queen of Swords",
        {"decks": ["swords_pentacles", "wands_cups"], "hands": {0: ["Queen of Swords"]}},
        [(0, "play Queen of Swords"), (0, "draw")],
        lambda s: s.current_player == 1 and s.draw_count == 1 and s.score[0] == 0,
    ),
    row(
        "King of Swords",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "hands": {0: ["King of Swords"]},
            "draw_count": 2,
            "tops": {0: ["Ace of Pentacles"], 1: ["Two of Wands", "King of Cups"]},
        },
        [(0, "play King of Swords"), (1, "draw"), (0, "player 0")],  # player_0 chooses who moves first
        lambda s: s.initiative_winner == 1 and s.current_player == 0 and s.phase == MOVE and s.score[0] == 0,
    ),
    row(
        "Page of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "hands": {0: ["Page of Pentacles"]},
            "tops": {1: ["Ace of Cups", "Two of Cups", "Three of Cups"]},
        },
        [(0, "play Page of Pentacles")],
        lambda s: s.known_top[1] == 3 and s.alive[1],
    ),
    row(
        "Knight of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "hands": {0: ["Knight of Pentacles"]},
            "discards": {0: ["Ace of Swords", "Two of Swords", "Three of Swords"]},
        },
        [(0, "play Knight of Pentacles")],
        lambda s: (
            names(s.discard[0]) == ["Ace of Swords", "Knight of Pentacles"]  # the top 2 went back
            and cid("Three of Swords") in s.deck[0]
            and s.current_player == 0  # then another move
            and s.phase == MOVE
        ),
    ),
    row(
        "Queen of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "hands": {0: ["Queen of Pentacles"]},
            "discards": {0: ["Ace of Swords", "Two of Swords", "Three of Swords", "Four of Swords"]},
        },
        [(0, "play Queen of Pentacles")],
        lambda s: names(s.discard[0]) == ["Ace of Swords", "Queen of Pentacles"] and len(s.deck[0]) == 37,
    ),
    row(
        "King of Pentacles",
        {
            "decks": ["swords_pentacles", "wands_cups"],
            "hands": {0: ["King of Pentacles"]},
            "discards": {0: ["Three of Swords", "Four of Swords", "Five of Swords"]},
            "seed": 3,
        },
        [(0, "play King of Pentacles")],
        lambda s: (
            s.hand_size[0] == 2  # two Minors: any Major drawn was replaced
            and s.draw_count == 0
            # the top 2 of the pile went back first: only the Three, the Majors drawn and Fortune are left
            and names(s.discard[0])[0] == "Three of Swords"
            and names(s.discard[0])[-1] == "King of Pentacles"
            and all(IS_MAJOR[c] for c in s.discard[0][1:-1])
            and len(s.deck[0]) + len(s.discard[0]) - 2 == 35  # 35 + 2 back - 2 drawn - the Majors
        ),
    ),
    # --- Major Arcana as Fate (the failure beside it: one success from the Major itself) ----------
    row(
        "The Fool",
        fate("The Fool"),
        CHALLENGE,
        lambda s: s.last_challenge == (1, 1, False) and s.score[0] == 1,
    ),
    row(
        "The Magician",
        fate("The Magician"),
        CHALLENGE,
        lambda s: s.last_challenge == (2, 2, False) and s.hand_size[0] == 1,
    ),
    row(
        "The High Priestess",
        fate("The High Priestess"),
        CHALLENGE,
        lambda s: s.known_top[1] == 3 and s.hand_size[0] == 1,
    ),
    row(
        "The Empress",
        fate("The Empress", discards={0: ["Six of Cups", "Seven of Cups"]}),
        CHALLENGE,
        lambda s: s.score[0] == 1 + 1 and names(s.discard[0]) == ["Six of Cups"],
    ),
    row(
        "The Emperor",
        fate("The Emperor", draw_count=2),
        CHALLENGE,
        lambda s: s.draw_count == 1 and s.score[0] == 1 + 1,
    ),
    row(
        "The Hierophant",
        fate("The Hierophant", discards={0: ["Six of Cups", "Seven of Cups", "Two of Cups"]}),
        CHALLENGE,
        lambda s: s.last_challenge == (2, 2, False) and names(s.discard[0]) == ["Six of Cups"],
    ),
    row(
        "The Lovers",
        fate("The Lovers", pawns={0: [("Five of Wands", 0), ("Seven of Wands", 0)]}),
        [(0, "challenge 0"), (0, "done"), (0, "pawn 0 1")],  # the Power to another Pawn of yours
        lambda s: s.power[0][:2] == [1, 1] and s.score[0] == 1 + 1 and s.pool == 9,
    ),
    row(
        "The Chariot",
        fate("The Chariot", draw_count=1),
        CHALLENGE,
        lambda s: s.current_player == 0 and s.phase == MOVE and s.draw_count == 0,
    ),
    row(
        "Strength",
        fate("Strength"),
        CHALLENGE,
        lambda s: s.last_challenge == (2, 2, False) and s.score[0] == 3,
    ),
    row(
        "The Hermit",
        fate("The Hermit", discards={0: ["Six of Cups", "Seven of Cups"]}),
        CHALLENGE,
        lambda s: names(s.discard[0]) == [] and cid("Seven of Cups") in s.deck[0],
    ),
    row("Wheel of Fortune", fate("Wheel of Fortune", draw_count=2), CHALLENGE, lambda s: s.round == 2),
    row(  # below 3, the count rises and the card is drawn
        "Wheel of Fortune",
        fate("Wheel of Fortune", draw_count=1),
        CHALLENGE,
        lambda s: s.draw_count == 2 and s.hand_size[0] == 1,
    ),
    row("Justice", fate("Justice", scores=[0, 3]), CHALLENGE, lambda s: s.score == [1 + 1, 2]),
    row(
        "The Hanged Man",
        fate(
            "The Hanged Man",
            pawns={0: [("Five of Wands", 1)]},
            discards={0: ["Six of Cups", "Seven of Cups"]},
        ),
        CHALLENGE,
        lambda s: s.power[0][0] == 1 and s.power_removed == 1 and s.discard[0] == [] and s.score[0] == 1,
    ),
    row(
        "Death",
        fate("Death", decks=["cups_swords", "wands_swords"], pawns={1: [("Five of Swords", 1)]}, pool=0),
        CHALLENGE,
        lambda s: s.pawn[1][0] == -1 and s.pool == 1 and s.score[0] == 0,
    ),
    row(
        "Temperance",
        fate("Temperance", discards={0: ["Six of Cups", "Seven of Cups"]}),
        CHALLENGE,
        lambda s: (
            s.power[0][0] == 2
            and s.pool == 11 - 2
            and s.score[0] == 1
            and names(s.discard[0]) == ["Six of Cups"]
        ),
    ),
    row(
        "The Devil",
        fate("The Devil", n=3, decks=["cups_swords", "wands_pentacles", "wands_cups"], scores=[0, 2, 1]),
        CHALLENGE,
        lambda s: s.score == [1, 1, 0],
    ),
    row(
        "The Tower",
        fate("The Tower", pawns={1: [("Five of Swords", 2)]}),
        [(0, "challenge 0"), (0, "pawn 1 0"), (0, "done")],
        lambda s: s.power[1][0] == 0 and s.power_removed == 2 and s.draw_count == 1 and s.score[0] == 0,
    ),
    row("The Star", fate("The Star"), CHALLENGE, lambda s: s.score[0] == 2 + 1),
    row(
        "The Moon",
        fate("The Moon", draw_count=2, discards={0: ["Six of Cups", "Seven of Cups"]}),
        CHALLENGE,
        lambda s: s.draw_count == 1 and names(s.discard[0]) == ["Six of Cups"],
    ),
    row(
        "The Sun",
        fate("The Sun"),
        CHALLENGE,
        lambda s: s.power[0][0] == 2 and s.power_created == 1 and s.score[0] == 1 + 1,
    ),
    row(
        "Judgement",
        fate(
            "Judgement",
            draw_count=2,
            tops={0: ["Judgement", "Four of Cups", "Five of Cups"], 1: ["Ace of Swords"]},
        ),
        [(0, "challenge 0"), (0, "done"), (1, "draw")],
        lambda s: s.round == 2 and s.score[0] == 1 + 1 + 2,
    ),
    row(
        "The World",
        fate("The World"),
        CHALLENGE,
        lambda s: s.last_challenge == (2 + 1, 2, False) and s.current_player == 0 and s.phase == MOVE,
    ),
]


@pytest.mark.parametrize(("card", "kwargs", "moves", "check"), ROWS)
def test_card_effect(card, kwargs, moves, check):
    s = table(**kwargs)
    play(s, *moves)
    assert check(s), s.describe()


def test_every_card_but_the_pawns_has_a_row():
    with_rows = {r.values[0] for r in ROWS}
    expected = {c.name if c.type != MAJOR else c.title for c in CARDS if c.type != PAWN}
    assert with_rows == expected


def test_eternal_flame_lights_each_pawn_once_a_round():
    # Every own Pawn holds Power (the Seven has room left): the special move is not offered.
    s = table(envs={0: ["Ace of Wands"]}, pawns={0: [("Seven of Wands", 1), ("Five of Wands", 2)]}, pool=5)
    assert not legal(s, "special Ace of Wands")
    s = table(envs={0: ["Ace of Wands"]}, pawns={0: [("Seven of Wands", 0), ("Five of Wands", 0)]}, pool=5)
    play(s, (0, "special Ace of Wands"), (0, "pawn 0 1"), (1, "draw"), (0, "special Ace of Wands"))
    assert s.power[0][:2] == [1, 1] and s.pool == 3  # the second use found only the Seven
    play(s, (1, "draw"))
    assert not legal(s, "special Ace of Wands")


def test_a_swords_pawn_scores_its_duel_point_when_its_challenge_succeeds():
    # Five of Swords (2 influence) against the pool: a Sword and a failure, one Power moved, one
    # point for it and one for the duel; the Three of Swords' duel is worth 2.
    s = table(decks=["swords_pentacles", "wands_cups"], pawns={0: [("Five of Swords", 0)]},
              tops={0: ["Ace of Swords", "Three of Pentacles"]}, pool=5)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (1, 1, False) and s.power[0][0] == 1 and s.score[0] == 1 + 1
    s = table(decks=["swords_pentacles", "wands_cups"], pawns={0: [("Three of Swords", 0)]},
              tops={0: ["Ace of Swords"]}, pool=5)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.score[0] == 1 + 2


def test_a_failed_or_wasted_challenge_scores_no_duel_point():
    # Two failures: nothing moved, no duel point.
    s = table(decks=["swords_pentacles", "wands_cups"], pawns={0: [("Five of Swords", 0)]},
              tops={0: ["Three of Pentacles", "Four of Pentacles"]}, pool=5)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (0, 0, False) and s.score[0] == 0
    # Against an Immune Pawn one success is cancelled: "successful" is a victory point gained.
    s = table(decks=["swords_pentacles", "wands_cups"], pool=0,
              pawns={0: [("Five of Swords", 0)], 1: [("Four of Wands", 1, [("Eight of Swords", 0)])]},
              tops={0: ["Ace of Swords", "Three of Pentacles"]})  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (0, 0, False) and s.score[0] == 0 and s.power[1][0] == 1


def test_the_duel_point_comes_after_the_transfer_and_a_plain_pawn_has_none():
    # A Wands Pawn moving the same Power scores only that Power's point.
    s = table(pawns={0: [("Five of Wands", 0)]}, tops={0: ["Ace of Wands", "Four of Cups"]}, pool=5)
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (1, 1, False) and s.score[0] == 1
    # A Swords Pawn whose challenge takes the pool's last Power: the point for it, then the duel's.
    s = table(decks=["swords_pentacles", "wands_cups"], pawns={0: [("Seven of Swords", 0)]},
              tops={0: ["Ace of Swords", "Two of Swords", "Three of Swords"]}, pool=1)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (3, 1, False) and s.pool == 0 and s.score[0] == 1 + 1


def test_ebb_tide_cards_go_back_to_the_deck_as_known_cards():
    s = table(hands={0: ["Page of Cups"]}, cross={0: ["Five of Cups", "Six of Cups"]})
    play(s, (0, "play Page of Cups"))
    # Everyone saw them go back: they are known to be among player_0's unseen cards.
    assert sorted(names(s.recalled[0])) == ["Five of Cups", "Six of Cups"]
    s.check_invariants()


def test_the_majors_are_22_distinct_fate_effects_and_the_attachments_varied():
    # Issue 28: 13 of 22 Majors restated a Minor, and 5 of 12 Attachments were a plain +-1 influence.
    majors = [c for c in CARDS if c.type == MAJOR]
    # (a Swords Pawn's duel point is conditional on its challenge succeeding: not The Star's 2 points)
    minors = {c.effects for c in CARDS if c.type not in (MAJOR, PAWN) and c.effects}
    assert len({c.effects for c in majors}) == 22
    assert not [c.name for c in majors if c.effects in minors]
    attachments = [c for c in CARDS if c.type == ATTACHMENT]
    plain = [c.name for c in attachments if len(c.effects) == 1 and c.effects[0].op == INFLUENCE]
    assert plain == ["Nine of Wands", "Ten of Cups"]
