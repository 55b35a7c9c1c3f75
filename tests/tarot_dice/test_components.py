"""Components and round setup: the dice, the symbol dice, the decks, the deal, the 1-2-2-1 draft and
the setup effects of The Magician, The Devil and Strength."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mystic_envs.tarot_dice import actions
from mystic_envs.tarot_dice.cards import (
    DECK_SIZE,
    DECK_SUITS,
    DIE_SIZES,
    MAJORS,
    PLANET_DIE,
    PLANET_NAMES,
    RANKS,
    SUITS,
    ZODIAC_DIE,
    ZODIAC_NAMES,
    card_name,
)
from mystic_envs.tarot_dice.observation import CARD_ROW, LAYOUT
from mystic_envs.tarot_dice.rules import TarotDiceGame

from .script import MAJOR, action, play

OBS = {e.name: e.slice for e in LAYOUT}


def draft(s, first_picks: list[str], second_picks: list[str]) -> None:
    """The 1-2-2-1 draft: the player picking first takes ``first_picks`` in order, the other
    ``second_picks``."""
    first, second = s.draft_first, 1 - s.draft_first
    f, g = iter(first_picks), iter(second_picks)
    for who in (first, second, second, first, first, second):
        play(s, [(who, f"draft {next(f) if who == first else next(g)}")])


def test_each_player_has_a_d4_d6_d8_d10_d12_and_d20():
    assert DIE_SIZES == (4, 6, 8, 10, 12, 20)
    s = TarotDiceGame().new_initial_state(0)
    assert s.board == (1 << 12) - 1  # twelve numbered dice, six a player


def test_planet_and_zodiac_faces_are_numbered_1_to_12_in_the_rulebooks_order():
    assert PLANET_NAMES == (
        "Mars",
        "Venus",
        "Mercury",
        "Moon",
        "Sun",
        "South Node",
        "North Node",
        "Pluto",
        "Jupiter",
        "Saturn",
        "Uranus",
        "Neptune",
    )
    assert ZODIAC_NAMES == (
        "Aries",
        "Taurus",
        "Gemini",
        "Cancer",
        "Leo",
        "Virgo",
        "Libra",
        "Scorpio",
        "Sagittarius",
        "Capricorn",
        "Aquarius",
        "Pisces",
    )


def test_major_arcana_are_numbered_0_to_21():
    assert [m.number for m in MAJORS] == list(range(22))
    assert MAJORS[0].name == "The Fool" and MAJORS[21].name == "The World"


def test_each_draw_deck_is_28_cards_of_two_suits():
    assert DECK_SIZE == 28 == 2 * len(RANKS)
    assert [SUITS[i] for i in DECK_SUITS[0]] == ["Cups", "Swords"]
    assert [SUITS[i] for i in DECK_SUITS[1]] == ["Wands", "Pentacles"]


@pytest.mark.parametrize("seed", range(5))
def test_deal_three_wells_face_down_under_face_up_and_one_hidden_card(seed):
    s = TarotDiceGame().new_initial_state(seed)
    assert s.phase_name == "draft"
    for p in (0, 1):
        assert [len(w) for w in s.wells[p]] == [2, 2, 2]
        assert s.hidden_well[p] == 0b111
        assert len(s.hand[p]) == 1
        assert len(s.unused[p]) == DECK_SIZE - 7
        # Face-up tops are public; the bottoms and the hidden card are not.
        seen_by_opponent = s.observation(1 - p)
        for k, well in enumerate(s.wells[p]):
            top_row, bottom_row = CARD_ROW[1 - p][well[1]], CARD_ROW[1 - p][well[0]]
            assert seen_by_opponent[top_row + 1 + k] == 1.0
            assert not seen_by_opponent[bottom_row : bottom_row + 10].any()
        hand_row = CARD_ROW[1 - p][s.hand[p][0]]
        assert not seen_by_opponent[hand_row : hand_row + 10].any()
        assert s.observation(p)[CARD_ROW[p][s.hand[p][0]]] == 1.0


def test_symbol_dice_start_on_venus_and_virgo_every_round():
    rng = np.random.default_rng(0)
    s = TarotDiceGame().new_initial_state(3)
    assert (s.value[PLANET_DIE], s.value[ZODIAC_DIE]) == (2, 6)
    while s.rounds_done == 0:
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])
    assert s.phase_name == "draft"
    assert (s.value[PLANET_DIE], s.value[ZODIAC_DIE]) == (2, 6)  # reset to Venus and Virgo ([r])
    assert not s.owned[0] and not s.owned[1] and not s.graveyard[0] and not s.graveyard[1]


def test_draft_1_2_2_1_the_second_player_picks_first():
    seen = set()
    for seed in range(20):
        s = TarotDiceGame().new_initial_state(seed)
        first = s.draft_first
        assert first == 1 - s.round_starter  # the player going second picks first
        seen.add(first)
        order = []
        for _ in range(6):
            order.append(s.current_player)
            s.apply(s.legal_actions()[0])
        assert order == [first, 1 - first, 1 - first, first, first, 1 - first]
        assert s.owned[0].bit_count() == s.owned[1].bit_count() == 3
    assert seen == {0, 1}


def test_the_draft_offers_only_the_majors_left_in_the_pile():
    s = TarotDiceGame().new_initial_state(0)
    assert s.legal_actions() == list(range(22))
    play(s, [(s.draft_first, "draft The Sun")])
    assert actions.MAJOR + MAJOR["The Sun"] not in s.legal_actions()


def test_dice_are_rolled_after_the_draft_and_the_second_drafter_starts():
    for seed in range(10):
        s = TarotDiceGame().new_initial_state(seed)
        assert s.value[:12] == [0] * 12
        draft(s, ["The Fool", "The Star", "The Sun"], ["The Tower", "Justice", "The World"])
        assert s.phase_name == "action" and s.current_player == 1 - s.draft_first == s.round_starter
        assert all(1 <= s.value[d] <= DIE_SIZES[d % 6] for d in range(12))


def test_draft_order_and_the_first_turn_alternate_each_round():
    rng = np.random.default_rng(1)
    for seed in range(6):
        s = TarotDiceGame(num_rounds=3).new_initial_state(seed)
        starters = [s.round_starter]
        firsts = [s.draft_first]
        while not s.is_terminal:
            done = s.rounds_done
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
            if s.rounds_done != done and not s.is_terminal:
                starters.append(s.round_starter)
                firsts.append(s.draft_first)
        assert len(starters) >= 3
        for a, b in itertools.pairwise(starters):
            assert b == 1 - a
        assert all(f == 1 - st for f, st in zip(firsts, starters, strict=True))


def test_the_magician_moves_a_well_to_the_hand():
    s = TarotDiceGame().new_initial_state(4)
    first = s.draft_first
    draft(s, ["The Magician", "The Star", "The Sun"], ["The Tower", "Justice", "The World"])
    assert s.phase_name == "magician_well" and s.current_player == first
    bottom, top = s.wells[first][1]
    hand_card = s.hand[first][0]
    play(s, [(first, "well 2")])
    assert s.hand[first] == sorted([hand_card, bottom, top])  # two more hidden cards ...
    assert s.wells[first][1] == [] and s.open_wells[first] == 0b101  # ... and one well fewer
    # "Two additional hidden cards": the top the opponent saw face up is hidden now, like the
    # bottom card and the hand card (I-28); only its owner sees them in hand.
    seen = s.observation(1 - first)
    for card in (top, bottom, hand_card):
        assert not seen[CARD_ROW[1 - first][card] : CARD_ROW[1 - first][card] + 10].any()
        assert s.observation(first)[CARD_ROW[first][card]] == 1.0  # "hand", its own view
    assert card_name(top) not in s.describe(1 - first) and card_name(top) in s.describe(first)
    assert s.phase_name == "action"
    # The Chariot cannot fill the well that is gone.
    s.check_invariants()


def test_the_devil_sacrifices_a_well_top_and_the_card_under_it_turns_face_up():
    s = TarotDiceGame().new_initial_state(5)
    second = 1 - s.draft_first
    draft(s, ["The Star", "The Sun", "The Moon"], ["The Devil", "Justice", "The World"])
    assert s.phase_name == "devil_well" and s.current_player == second
    bottom, top = s.wells[second][2]
    play(s, [(second, "well 3")])
    assert s.sacrificed[second] == top
    assert s.wells[second][2] == [bottom] and not s.hidden_well[second] >> 2 & 1
    seen = s.observation(1 - second)
    assert seen[CARD_ROW[1 - second][top] + 9] == 1.0  # sacrificed: public
    assert seen[CARD_ROW[1 - second][bottom] + 1 + 2] == 1.0  # now the top of well 3


def test_setup_effects_first_drafter_first_magician_before_devil():
    s = TarotDiceGame().new_initial_state(6)
    first = s.draft_first
    draft(s, ["The Magician", "The Devil", "The Sun"], ["Strength", "Justice", "The World"])
    assert s.phase_name == "magician_well" and s.current_player == first
    play(s, [(first, "well 1")])
    assert s.phase_name == "devil_well" and s.current_player == first
    assert not s.is_legal(action(first, "well 1"))  # that well is gone
    play(s, [(first, "well 2")])
    assert s.phase_name == "action"


def test_strength_starts_in_the_hand():
    s = TarotDiceGame().new_initial_state(7)
    first = s.draft_first
    play(s, [(first, "draft Strength")])
    assert s.major_hand[first] == 1 << MAJOR["Strength"]
    assert s.observation(1 - first)[OBS["played_majors"]][2] == 1.0  # the opponent knows


def test_every_new_round_deals_fresh_cards_and_rolls_every_numbered_die():
    # New round, steps 2, 4 and 6: graveyards and leftover Minors go back, the decks are dealt
    # again, and all the numbered dice return and are rolled (round 1 is tested above).
    rng = np.random.default_rng(2)
    rounds_seen, high = 0, 0
    for seed in range(12):
        s = TarotDiceGame(num_rounds=3).new_initial_state(seed)
        done, dealt = 0, False
        while not s.is_terminal:
            if s.rounds_done > done and s.phase_name == "draft" and not dealt:
                dealt = True
                for p in (0, 1):
                    assert [len(w) for w in s.wells[p]] == [2, 2, 2] and s.hidden_well[p] == 0b111
                    assert len(s.hand[p]) == 1 and not s.graveyard[p]
                    assert len(s.unused[p]) == DECK_SIZE - 7
            if dealt and s.phase_name == "action":
                assert s.board == (1 << 12) - 1, "every numbered die is back on the board"
                assert all(1 <= s.value[d] <= DIE_SIZES[d % 6] for d in range(12))
                high += sum(s.value[d] > 2 for d in range(12))
                rounds_seen += 1
                done, dealt = s.rounds_done, False
            s.apply(int(rng.choice(s.legal_actions())))
    assert rounds_seen >= 20 and high > 6 * rounds_seen  # rolled, not left over from the last round
