"""Mystic Vale's rules, phase by phase, as scripted positions (the abilities are test_abilities.py)."""

from __future__ import annotations

import numpy as np
import pytest

from mystic_envs.core.errors import IllegalActionError
from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENTS,
    CURSED_LAND,
    LEVEL1_CUT,
    VALES,
    VP_POOL,
)
from mystic_envs.mystic_vale.rules import ValeGame, vales_payable
from tests.mystic_vale.script import (
    BLANKS,
    CURSED,
    FERTILE_CARD,
    act,
    aid,
    card,
    craft,
    give_vales,
    lay_out,
    new,
    set_commons,
    set_vale_row,
    start,
    vid,
)

TOP, MID, BOT = CURSED["top"], CURSED["middle"], CURSED["bottom"]


# --- setup -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_commons_vales_pool_fields_and_tokens(n):
    s = new(n, seed=3)
    s.check_invariants()
    # Level 1 cut to 12/15/18, three face up per level, the rest of level 1 in the box.
    assert len(s.level_deck[0]) + 3 == LEVEL1_CUT[n]
    assert len(s.l1_box) == 33 - LEVEL1_CUT[n]
    assert len(s.level_deck[1]) == 30 - 3 and len(s.level_deck[2]) == 33 - 3
    assert [ADVANCEMENTS[a].level for a in s.commons] == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert [VALES[v].level for v in s.vale_up] == [1] * 4 + [2] * 4
    assert s.pool == VP_POOL[n] == {2: 23, 3: 28, 4: 33}[n]
    for q in range(n):
        # Until two Cursed Lands are in the field and a third is on deck.
        cursed = [c for c in s.field[q] if set(s.slots[q][c]) & set(CURSED_LAND)]
        assert len(cursed) == 2, "two Cursed Lands in the field"
        assert s.prof[q][s.on_deck[q]].decay == 1 and max(s.slots[q][s.on_deck[q]]) in CURSED_LAND
        assert not s.token_active[q], "every mana token starts spent"
    assert s.active == s.start_player and s.phase == d.PLANT


def test_starting_player_comes_from_the_seed():
    starts = {new(3, seed).start_player for seed in range(30)}
    assert starts == {0, 1, 2}
    assert new(3, 7).start_player == new(3, 7).start_player


def test_bad_player_counts_are_refused():
    with pytest.raises(ValueError, match="2-4 players"):
        ValeGame(5)
    with pytest.raises(TypeError):
        ValeGame("2")


# --- planting and spoiling ---------------------------------------------------------------------------
def test_push_moves_the_on_deck_card_and_reveals_the_next():
    s = new()
    lay_out(s, 0, field=[TOP[0]], on_deck=12, deck=[13, 14])
    start(s, 0)
    act(s, d.PUSH)
    assert s.field[0] == [TOP[0], 12] and s.on_deck[0] == 13 and s.phase == d.PLANT


def test_four_net_decay_spoil_skip_the_harvest_and_activate_the_token():
    s = new()
    lay_out(s, 0, field=[TOP[0], TOP[1]], on_deck=12, deck=[MID[0], MID[1]])
    start(s, 0)
    act(s, d.PUSH)  # 2 decay in the field + 1 on deck: 3, go on
    assert s.net_decay(0) == 3 and s.phase == d.PLANT
    act(s, d.PUSH)  # a fourth decay revealed: spoiled
    # Straight to discard (nothing bought), the field discarded, then prep for the next turn.
    assert s.token_active[0], "the mana token turns active as a consolation"
    assert s.active == 1 and s.phase == d.PLANT
    assert s.tokens[0] == 0


def test_an_active_token_stays_active_on_a_spoil_with_no_other_reward():
    s = new()
    lay_out(s, 0, field=[TOP[0], TOP[1]], on_deck=MID[0], deck=[MID[1]], token=True)
    start(s, 0)
    act(s, d.PUSH)
    assert s.token_active[0] and s.tokens[0] == 0 and s.active == 1


def test_growth_cancels_decay_so_a_fifth_decay_spoils():
    s = new()
    craft(s, 0, 12, "Moonwell Shrine")  # 2 mana, 1 growth
    lay_out(s, 0, field=[TOP[0], TOP[1], 12], on_deck=MID[0], deck=[MID[1], MID[2]])
    start(s, 0)
    assert s.net_decay(0) == 2
    act(s, d.PUSH)  # 4 decay - 1 growth = 3
    assert s.phase == d.PLANT and s.active == 0 and s.net_decay(0) == 3
    act(s, d.PUSH)  # 5 decay - 1 growth = 4: spoil
    assert s.active == 1


def test_on_deck_decay_and_growth_count():
    s = new()
    craft(s, 0, 13, "Moonwell Shrine")  # 1 growth
    lay_out(s, 0, field=[TOP[0]], on_deck=13, deck=[12])
    assert s.net_decay(0) == 0
    lay_out(s, 0, field=[TOP[0]], on_deck=TOP[1], deck=[12])
    assert s.net_decay(0) == 2


def test_an_empty_deck_is_refilled_from_the_discard_pile():
    s = new()
    lay_out(s, 0, field=[TOP[0]], on_deck=12, deck=[], discard=None)
    start(s, 0)
    assert not s.deck[0] and len(s.discard[0]) == 18
    act(s, d.PUSH)
    assert s.on_deck[0] >= 0 and len(s.deck[0]) == 17 and not s.discard[0]


def test_a_player_with_every_card_in_the_field_must_pass():
    s = new()
    # Nine Cursed Lands would spoil: three Lifebringer Seeds and three Moonwell Shrines (growth)
    # bring the whole deck to 3 net decay.
    for c in CURSED["top"]:
        craft(s, 0, c, "Lifebringer Seed")
    for c in CURSED["bottom"]:
        craft(s, 0, c, "Moonwell Shrine")
    field = [c for c in range(20) if c != 19]
    lay_out(s, 0, field=field, on_deck=19, deck=[])
    s.discard[0] = []
    start(s, 0)
    assert s.net_decay(0) == 3 and d.PUSH in s.legal_actions()
    act(s, d.PUSH)
    assert s.on_deck[0] == -1 and s.legal_actions() == [d.PASS], "every card is in the field"


# --- harvest: the rulebook's buying examples ----------------------------------------------------------
def test_example_buying_advancements_three_mana_and_the_token_buy_podlings_and_fertile_soil():
    s = new()
    set_commons(s, 0, "Podlings")
    lay_out(s, 0, field=[TOP[0], MID[0], FERTILE_CARD["bottom"], 12], on_deck=TOP[1], deck=[13], token=True)
    start(s, 0)
    act(s, d.PASS)
    assert s.h_mana == 3, "two Cursed Lands and a Fertile Soil; the on-deck mana does not count"
    act(s, d.BUY_COMMONS + 0)  # Podlings, 2 mana
    assert s.mana_left() == 1 and s.token_active[0]
    assert d.BUY_FERTILE + 0 in s.legal_actions(), "the token makes the second 2"
    act(s, d.BUY_FERTILE + 0)
    assert not s.token_active[0] and s.token_used == 1 and s.mana_left() == 0
    assert s.legal_actions() == [d.DONE]


def test_without_the_token_three_mana_buy_only_one():
    s = new()
    set_commons(s, 0, "Podlings")
    lay_out(s, 0, field=[TOP[0], MID[0], FERTILE_CARD["bottom"], 12], on_deck=TOP[1], deck=[13])
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0)
    assert d.BUY_FERTILE + 0 not in s.legal_actions()


def test_an_unspent_active_token_stays_active():
    s = new()
    lay_out(s, 0, field=[TOP[0], 12], on_deck=TOP[1], deck=[13], token=True)
    start(s, 0)
    act(s, d.PASS, d.DONE)
    assert s.token_active[0]


def test_example_buying_vales_feral_grove_and_ley_line_nexus():
    s = new()
    set_vale_row(s, 0, "Ley Line Nexus")
    set_vale_row(s, 4, "Feral Grove")
    craft(s, 0, 12, "Windward Perch", "Seedling")  # sky and forest, forest
    craft(s, 0, 13, "Stag")  # animal (and 2 guardians, a decay)
    craft(s, 0, 14, "Wandering Sprite")  # wild and animal
    lay_out(s, 0, field=[12, 13, 14], on_deck=15, deck=[16])
    start(s, 0)
    act(s, d.PASS)
    assert s.spirits_now() == [2, 2, 1, 1]
    act(s, d.BUY_VALE + 4)  # Feral Grove: forest, sky, animal + wild (paid with an animal)
    assert d.BUY_VALE + 0 in s.legal_actions(), "forest + wild (as sky) still pay Ley Line Nexus"
    act(s, d.BUY_VALE + 0)
    assert s.vales[0] == [vid("Feral Grove"), vid("Ley Line Nexus")]


def test_a_vale_is_legal_only_while_one_assignment_pays_for_every_vale_bought():
    # One animal, one forest, one sky, one wild: World Tree (forest + animal) and Exodus Road
    # (animal + sky) together need two animals: the wild is the second one.
    assert vales_payable([(1, 1, 0, 0), (1, 0, 1, 0)], [1, 1, 1, 1])
    assert not vales_payable([(1, 1, 0, 0), (1, 0, 1, 0)], [1, 1, 1, 0])
    # A wild cost takes any spirit; a wild spirit pays any cost.
    assert vales_payable([(1, 1, 1, 1)], [3, 1, 0, 0]) is False
    assert vales_payable([(1, 1, 1, 1)], [2, 1, 0, 1])
    assert vales_payable([(0, 0, 0, 2)], [0, 0, 1, 1])


def test_only_two_vales_a_turn_and_spirits_of_the_field_only():
    s = new()
    for k, name in enumerate(["World Tree", "World Tree", "Azure Lake", "Azure Lake"]):
        set_vale_row(s, k, name)
    craft(s, 0, 12, "Mossback Tortoise")  # animal
    craft(s, 0, 13, "Podlings")  # forest
    craft(s, 0, 14, "Mossback Tortoise")
    craft(s, 0, 15, "Podlings")
    craft(s, 0, 16, "Mossback Tortoise")
    craft(s, 0, 17, "Seedling")
    craft(s, 0, 18, "Wandering Sprite", "Hollow Burrow")  # on deck: its spirits never count
    lay_out(s, 0, field=[12, 13, 14, 15, 16, 17], on_deck=18, deck=[19])
    start(s, 0)
    act(s, d.PASS)
    assert s.spirits_now() == [3, 3, 0, 0]
    act(s, d.BUY_VALE + 0, d.BUY_VALE + 1)
    assert not any(d.BUY_VALE <= a < d.SUNSTONE for a in s.legal_actions()), "two vales a turn"


def test_at_most_two_advancements_a_turn():
    s = new()
    for k in range(3):
        set_commons(s, k, "Podlings")
    lay_out(s, 0, field=[FERTILE_CARD["top"], 12, 13, 14, 15, 16, 17], on_deck=TOP[0], deck=[18])
    for c in (12, 13, 14, 15, 16, 17):
        craft(s, 0, c, "Fertile Soil top")
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0, d.BUY_COMMONS + 1)
    assert d.BUY_COMMONS + 2 not in s.legal_actions() and s.mana_left() == 3


# --- sleeving --------------------------------------------------------------------------------------
def test_an_advancement_needs_a_legal_place_to_sleeve_and_two_need_two():
    s = new()
    set_commons(s, 0, "Podlings")  # middle
    set_commons(s, 1, "Rootwell Spring")  # middle
    # Field: the middle slot taken on every card but one blank; mana enough for both.
    craft(s, 0, 12, "Fertile Soil middle")
    craft(s, 0, 13, "Fertile Soil middle")
    craft(s, 0, 14, "Fertile Soil middle")
    lay_out(
        s, 0, field=[MID[0], 12, 13, 14, FERTILE_CARD["middle"], 15], on_deck=TOP[0], deck=[16], token=True
    )
    start(s, 0)
    act(s, d.PASS)
    assert s.h_mana == 5 and s.token_active[0]
    assert {d.BUY_COMMONS + 0, d.BUY_COMMONS + 1} <= set(s.legal_actions())
    act(s, d.BUY_COMMONS + 0)
    assert d.BUY_COMMONS + 1 not in s.legal_actions(), "the only open middle slot is spoken for"
    assert d.BUY_FERTILE + 0 in s.legal_actions(), "a top slot is open"
    act(s, d.DONE)
    assert s.slots[0][15][1] == aid("Podlings"), "the one legal place: sleeved without a choice"


def test_sleeving_never_covers_an_advancement_printed_or_sleeved():
    s = new()
    set_commons(s, 0, "Windward Perch")  # top, cost 3
    lay_out(s, 0, field=[TOP[0], FERTILE_CARD["top"], 12, 13], on_deck=MID[0], deck=[14])
    craft(s, 0, 12, "Wandering Sprite")  # top taken
    craft(s, 0, 13, "Fertile Soil middle")  # the third mana; its top stays open
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0, d.DONE)
    assert s.slots[0][13][0] == aid("Windward Perch")  # Cursed Land, Fertile Soil and 12 have a top part


def test_the_buyer_chooses_among_legal_places():
    s = new()
    set_commons(s, 0, "Podlings")
    lay_out(s, 0, field=[TOP[0], TOP[1], 12, 13], on_deck=MID[0], deck=[14])
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0, d.DONE)
    assert s.phase == d.SLEEVE and s.legal_actions() == [card(c) for c in (0, 1, 12, 13)]
    act(s, card(13))
    assert s.slots[0][13][1] == aid("Podlings") and s.active == 1


def test_long_wise_bands_may_cover_bands_and_the_covered_ability_is_ignored():
    s = new()
    craft(s, 0, 12, "Lifebringer Seed")  # middle, band: the card has no decay
    assert s.prof[0][12].decay == 0
    craft(s, 0, 12, "Seedling")  # bottom, band: sleeved last, it covers Lifebringer Seed
    craft(s, 0, 12, "Stag")  # a decay
    assert s.band[0][12] == 2 and s.prof[0][12].decay == 1, "Seedling's cap of 1 is the one active"
    # Bands are sleeved over bands by the engine too.
    s2 = new()
    set_commons(s2, 0, "Grovetender")  # bottom band
    craft(s2, 0, 12, "Lifebringer Seed", "Stag")
    lay_out(s2, 0, field=[12, FERTILE_CARD["top"], 13, 14, 15, 16], on_deck=TOP[0], deck=[17])
    for c in (13, 14, 15, 16):  # 5 mana for Grovetender
        craft(s2, 0, c, "Fertile Soil top")
    start(s2, 0)
    act(s2, d.PASS, d.BUY_COMMONS + 0, d.DONE, card(12))
    p = s2.prof[0][12]
    assert p.decay == 1 and p.growth == 2, "Grovetender covers Lifebringer Seed: the decay is back"


# --- discard and replenish ---------------------------------------------------------------------------
def test_discard_the_field_not_the_on_deck_card_and_replenish():
    s = new()
    set_commons(s, 0, "Podlings")
    deck = [13, TOP[2], 14, MID[1], 15, 16, 17]
    lay_out(s, 0, field=[TOP[0], MID[0], FERTILE_CARD["bottom"], 12], on_deck=TOP[1], deck=deck)
    top_l1 = s.level_deck[0][-1]
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0, d.DONE, card(12))
    assert s.commons[0] == top_l1, "replaced from the top of the level-1 deck"
    # Prep: the old on-deck card is the first of the new field.
    assert s.field[0][0] == TOP[1]
    assert {TOP[0], MID[0], FERTILE_CARD["bottom"], 12} <= set(s.discard[0])


def test_replenish_falls_back_from_level_1_to_2_to_3_and_vales_from_1_to_2():
    s = new()
    set_commons(s, 0, "Podlings")
    s.l1_box.extend(s.level_deck[0])
    s.level_deck[0] = []
    top_l2 = s.level_deck[1][-1]
    lay_out(s, 0, field=[TOP[0], MID[0], FERTILE_CARD["bottom"], 12], on_deck=TOP[1], deck=[13, 14])
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 0, d.DONE, card(12))
    assert s.commons[0] == top_l2
    # Level 2 gone too: level 3.
    s = new()
    set_commons(s, 3, "Stag")
    s.l1_box.extend(s.level_deck[0] + s.level_deck[1])
    s.level_deck[0], s.level_deck[1] = [], []
    top_l3 = s.level_deck[2][-1]
    lay_out(s, 0, field=[BLANKS[0], BLANKS[1], BLANKS[2], FERTILE_CARD["bottom"]], on_deck=TOP[1], deck=[16])
    for c in BLANKS[:3]:
        craft(s, 0, c, "Fertile Soil bottom")
    start(s, 0)
    act(s, d.PASS, d.BUY_COMMONS + 3, d.DONE, card(BLANKS[0]))
    assert s.commons[3] == top_l3
    # Vales: level 1 gone, level 2 replaces.
    s = new()
    set_vale_row(s, 0, "World Tree")
    s.vale_deck[1].extend(s.vale_deck[0])  # keep them in the game, out of the level-1 deck
    s.vale_deck[0] = []
    top_v2 = s.vale_deck[1][-1]
    craft(s, 0, 12, "Mossback Tortoise")
    craft(s, 0, 13, "Podlings")
    lay_out(s, 0, field=[12, 13], on_deck=TOP[1], deck=[16])
    start(s, 0)
    act(s, d.PASS, d.BUY_VALE + 0, d.DONE)
    assert s.vale_up[0] == top_v2


# --- prep ---------------------------------------------------------------------------------------
def test_prep_plays_until_three_decay_show():
    s = new()
    lay_out(s, 0, field=[12], on_deck=13, deck=[TOP[0], 14, TOP[1], TOP[2], 15])
    start(s, 0)
    act(s, d.PASS, d.DONE)
    # Prep: 13 into the field, then Cursed Land (1), blank 14, Cursed Land (2), Cursed Land on deck.
    assert s.field[0] == [13, TOP[0], 14, TOP[1]] and s.on_deck[0] == TOP[2]
    assert s.net_decay(0) == 3 and not s.skip_harvest[0]


def test_a_spoil_in_prep_skips_the_next_harvest_and_activates_the_token():
    s = new()
    craft(s, 0, 14, "Stag")  # a blank with Stag: 1 decay
    craft(s, 0, 14, "Hulking Thornhide")  # and a second
    lay_out(s, 0, field=[12], on_deck=TOP[0], deck=[TOP[1], 14, 15])
    start(s, 0)
    act(s, d.PASS, d.DONE)
    # Prep: Cursed Land into the field (1), Cursed Land (2) on deck... 2 < 3: play it, then 14
    # on deck with 2 decay: 4 showing: spoiled.
    assert s.skip_harvest[0] and s.token_active[0]
    assert s.active == 1
    # Player 1 passes; player 0's next turn goes straight to discard, then prep again.
    act(s, d.PASS, d.DONE)
    assert s.active == 1 and s.turn == 3, "player 0's turn had no decision: no planting, no harvest"
    assert s.tokens[0] == 0
    assert s.field[0] and s.field[0][0] == 14, "the spoiled on-deck card starts the new field"


# --- the end ---------------------------------------------------------------------------------------
def test_the_pool_running_out_finishes_the_round_and_vp_beyond_it_still_counts():
    s = new()
    s.start_player = 1
    craft(s, 0, 12, "Bramblecrown Colossus")  # 2 VP tokens a Harvest
    lay_out(s, 0, field=[12], on_deck=13, deck=[14])
    s.tokens[1] = s.pool - 1
    s.pool = 1
    s.start_turn(0)
    s._legal = None
    act(s, d.PASS, d.DONE)
    assert s.pool == 0 and s.overflow == 1 and s.tokens[0] == 2
    assert s.end_triggered
    # Player 0 was the last of the round (player 1 started): the game ends at once.
    assert s.is_terminal and s.turn >= 1


def test_the_round_is_finished_when_the_starter_empties_the_pool():
    s = new()
    craft(s, 0, 12, "Bramblecrown Colossus")
    lay_out(s, 0, field=[12], on_deck=13, deck=[14])
    s.tokens[1] = s.pool - 1
    s.pool = 1
    start(s, 0)
    act(s, d.PASS, d.DONE)
    assert s.end_triggered and not s.is_terminal and s.active == 1
    act(s, d.PASS, d.DONE)
    assert s.is_terminal


def test_final_scoring_example_12_plus_8_plus_5_and_the_tiebreak():
    s = new()
    craft(s, 0, 12, "Stag", "Dawnsinger", "Gaia's Chosen")  # 2 + 6 end VP
    give_vales(s, 0, "Ley Line Nexus", "Blooming Arbor")  # 3 + 2
    s.tokens[0] = 12
    s.pool -= 12
    assert s.tokens[0] + s.end_vp(0) == 25 == s.points(0)
    # Tied on points: level-3 advancements + level-2 vales break it; then a shared win.
    s.tokens[1] = 25 - s.end_vp(1)
    s.pool -= s.tokens[1]
    s.finish_game()
    assert s.winners() == [0] and list(s.returns()) == [1.0, -1.0]
    s2 = new()
    s2.tokens = [5, 5]
    s2.pool -= 10
    s2.finish_game()
    assert s2.winners() == [0, 1] and list(s2.returns()) == [0.0, 0.0]


# --- errors ----------------------------------------------------------------------------------------
def test_an_illegal_action_names_itself_and_the_phase():
    s = new()
    with pytest.raises(IllegalActionError, match=r"buy the vale .* in phase 'planting'"):
        s.apply(d.BUY_VALE + 0)
    with pytest.raises(TypeError):
        s.apply("push")
    assert s.legal_mask().dtype == np.bool_
