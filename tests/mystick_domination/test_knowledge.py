"""Who knows what (docs D-5 and I-10): deck lists are hidden except where two players split one
78-card set, a look at a deck is the looker's alone, and ``determinize`` re-deals the composition
of every deck list a seat cannot know, as a legal deck holding every card that seat has seen."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mystic_envs.mystick_domination import decks as deck_rules
from mystic_envs.mystick_domination.cards import (
    ACTION,
    CARDS,
    EFFECTS,
    IS_MAJOR,
    NUM_MINORS,
    PEEK,
    RECOVER,
    SUIT,
    TYPE,
)
from mystic_envs.mystick_domination.observation import build_layout_for
from mystic_envs.mystick_domination.rules import MystickGame

from .script import play, table

# The cards that look at a deck and that shuffle discards back, found by their effect (the card
# data is the designers' and may move them).
PEEK_ACTION = next(
    c for c in range(NUM_MINORS) if TYPE[c] == ACTION and any(e.op == PEEK for e in EFFECTS[c])
)
RECOVER_ACTION = next(
    c for c in range(NUM_MINORS) if TYPE[c] == ACTION and any(e.op == RECOVER for e in EFFECTS[c])
)
SUITS = ("wands", "cups", "swords", "pentacles")


def preset_with(*suits: int) -> str:
    """A preset deck holding ``suits``."""
    return next(name for name in deck_rules.PRESETS if all(SUITS[s] in name for s in suits))


def card_name(c: int) -> str:
    return CARDS[c].name


def block(n: int, name: str) -> slice:
    return next(e.slice for e in build_layout_for(n) if e.name == name)


def hidden_view(s, p: int, q: int) -> Counter:
    """``q``'s cards ``p`` cannot place: its deck below ``p``'s looks and its face-down hand."""
    deck = s.deck[q]
    face_down = Counter({c: s.hand[q][c] - s.shown[q][c] for c in range(len(s.hand[q]))})
    return Counter(deck[: len(deck) - s.looked[p][q]]) + +face_down


@pytest.mark.parametrize("n", [3, 4, 5])
def test_at_three_to_five_players_an_opponents_deck_list_is_not_observed(n):
    # Old behaviour: seat+k_unseen held the opponent's whole deck list less what was in view (33
    # or so cards at the start), which is exactly what the rulebook keeps secret.
    s = MystickGame(num_players=n).new_initial_state(7)
    assert not s.game.deck_lists_public
    o = s.observation(0)
    for k in range(1, n):
        assert not o[block(n, f"seat+{k}_unseen")].any(), f"seat+{k}'s deck list leaks"
    assert o[block(n, "own_unseen")].sum() * 3 == pytest.approx(len(s.deck[0])), "its own deck it knows"


def test_two_random_decks_split_one_set_so_the_opponents_list_is_public():
    s = MystickGame(num_players=2).new_initial_state(3)
    assert s.game.deck_lists_public
    counts = np.rint(s.observation(0)[block(2, "seat+1_unseen")] * 3).astype(int)
    assert counts.sum() == len(s.deck[1]) + s.hand_size[1] - sum(s.shown[1])
    # The rest of the set: no card of player_0's own deck, and the copy keeps player_1's list.
    assert not counts[sorted(set(s.deck_list[0]))].any()
    d = s.determinize(0, np.random.default_rng(0))
    assert d.deck_list == s.deck_list


def test_chosen_decks_are_hidden_even_at_two_players():
    assert not MystickGame(num_players=2, decks="wands_cups").deck_lists_public
    assert not MystickGame(num_players=2, decks=["random", "swords_pentacles"]).deck_lists_public


@pytest.mark.parametrize(("n", "construction"), [(3, "basic"), (5, "basic"), (3, "advanced")])
def test_determinize_deals_legal_deck_lists_holding_what_the_seat_saw(n, construction):
    decks: object = "random"
    if construction == "advanced":
        wands_cups = list(deck_rules.PRESETS["wands_cups"])
        wands_cups[0:2] = [4, 4]  # three Fives of Wands: no Ace or Two of Wands
        decks = [wands_cups] * n
    game = MystickGame(num_players=n, decks=decks, construction=construction)
    rng = np.random.default_rng(n)
    lists_changed = 0
    for seed in range(6):
        s = game.new_initial_state(seed)
        for _ in range(int(rng.integers(0, 60))):
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
        if s.is_terminal:
            continue
        for p in range(n):
            d = s.determinize(p, np.random.default_rng(int(rng.integers(2**32))))
            d.check_invariants()
            np.testing.assert_array_equal(d.observation(p), s.observation(p))
            for q in range(n):
                deck_rules.validate_deck(d.deck_list[q], construction, f"seat {q}")
                assert len(d.deck[q]) == len(s.deck[q]) and d.hand_size[q] == s.hand_size[q]
                assert not any(d.hand[q][c] for c in range(NUM_MINORS, len(d.hand[q]))), "a Major in a hand"
                # Every card p sees of q is in q's list; p's own list never changes.
                seen = Counter(s.visible_cards(p, q))
                assert not seen - Counter(d.deck_list[q])
                if q == p:
                    assert d.deck_list[q] == s.deck_list[q]
                lists_changed += d.deck_list[q] != s.deck_list[q]
    assert lists_changed > 0, "determinize never re-dealt a deck list"


def test_determinize_samples_every_suit_pair_not_ruled_out():
    s = MystickGame(num_players=3).new_initial_state(11)
    pairs = set()
    for k in range(60):
        d = s.determinize(0, np.random.default_rng(k))
        pairs.add(tuple(sorted({SUIT[c] for c in d.deck_list[1] if not IS_MAJOR[c]})))
    seen_suits = {SUIT[c] for c in s.visible_cards(0, 1) if not IS_MAJOR[c]}
    expected = {(a, b) for a in range(4) for b in range(a + 1, 4) if seen_suits <= {a, b}}
    assert pairs == expected


def _appraise_table(n: int = 3):
    suit = SUIT[PEEK_ACTION]
    decks = [preset_with(suit), "wands_swords", "cups_swords", "wands_cups", "cups_pentacles"][:n]
    return table(
        n=n,
        decks=decks,
        hands={0: [card_name(PEEK_ACTION)]},
        tops={1: ["Three of Swords", "Four of Swords", "Five of Swords"]},
    )


def test_a_look_at_a_deck_is_the_lookers_alone():
    # Old behaviour (I-10 before): the looked-at cards were shown to every seat.
    s = _appraise_table(3)
    play(s, (0, f"play {card_name(PEEK_ACTION)}"), (0, "player 1"))
    looked = Counter(s.deck[1][-3:])
    own = s.observation(0)
    other = s.observation(2)
    looker_top = np.rint(own[block(3, "seat+1_deck_top")] * 3).astype(int)
    assert Counter({c: int(k) for c, k in enumerate(looker_top) if k}) == looked
    assert not other[block(3, "seat+2_deck_top")].any(), "player_2 did not look"
    assert not s.observation(1)[block(3, "own_deck_top")].any(), "nor did the deck's owner"
    # That a look happened is public: 3 top cards somebody looked at, in every seat's view.
    status = block(3, "seat+1_status")
    assert own[status][8] == pytest.approx(1.0) and other[block(3, "seat+2_status")][8] == pytest.approx(1.0)
    assert "Three of Swords" not in s.describe(2) and "Three of Swords" in s.describe(0)
    assert "Three of Swords" not in s.describe(), "nor the public table"
    # The looker keeps the cards where they are; everyone else gets them re-dealt.
    for k in range(5):
        assert s.determinize(0, np.random.default_rng(k)).deck[1][-3:] == s.deck[1][-3:]
    assert any(s.determinize(2, np.random.default_rng(k)).deck[1][-3:] != s.deck[1][-3:] for k in range(5))
    assert any(s.determinize(1, np.random.default_rng(k)).deck[1][-3:] != s.deck[1][-3:] for k in range(5))


def test_a_looked_at_card_drawn_into_a_hand_stays_known_to_the_looker():
    s = _appraise_table(3)
    play(s, (0, f"play {card_name(PEEK_ACTION)}"), (0, "player 1"))
    top = s.deck[1][-1]
    play(s, (1, "draw"))
    assert s.hand[1][top] and s.looked[0][1] == 2 and s.known_top[1] == 2
    unseen = s.observation(0)[block(3, "seat+1_unseen")]
    assert unseen[top] > 0 and unseen.sum() * 3 == pytest.approx(1.0), "the one card it knows is hidden there"
    assert not s.observation(2)[block(3, "seat+2_unseen")].any()
    for k in range(5):
        d = s.determinize(0, np.random.default_rng(k))
        assert hidden_view(d, 0, 1)[top] >= 1
        d.check_invariants()
    # In player_2's re-deal, player_0 knows nothing it cannot back with the re-dealt cards.
    d = s.determinize(2, np.random.default_rng(0))
    assert not d.noted[0][1] and d.looked[0][1] == 2
    d.check_invariants()


def test_cards_shuffled_back_into_a_deck_are_known_to_be_in_it():
    recover = EFFECTS[RECOVER_ACTION][0].amount
    back = ["Six of Wands", "Seven of Wands", "XII The Hanged Man"][:recover]
    s = table(
        n=3,
        decks=["cups_swords", preset_with(0, SUIT[RECOVER_ACTION]), "cups_swords"],
        hands={1: [card_name(RECOVER_ACTION)]},
        discards={1: back},
        mover=1,
    )
    # player_1 plays it: everyone sees which cards go back into its deck.
    play(s, (1, f"play {card_name(RECOVER_ACTION)}"))
    assert sorted(card_name(c) for c in s.recalled[1]) == sorted(back)
    unseen = np.rint(s.observation(0)[block(3, "seat+1_unseen")] * 3).astype(int)
    assert {card_name(c) for c in np.flatnonzero(unseen)} == set(back)
    for k in range(10):
        d = s.determinize(0, np.random.default_rng(k))
        d.check_invariants()
        assert {card_name(c) for c in d.deck[1]} >= set(back)
