"""Every card ability of the data, scripted: the rulebook's Card Clarifications and their
examples, and each designed ability (the engine reads the rows; no card has code of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.cards import ADVANCEMENTS, FERTILE_SOIL, NO_ABILITY, VALES
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
B = BLANKS


def harvest(s, q: int = 0):
    """Open ``q``'s turn and pass into the Harvest."""
    start(s, q)
    act(s, d.PASS)
    return s


# --- Harvest abilities --------------------------------------------------------------------------------
def test_aurora_with_nine_cards_gains_4_vp():
    s = new()
    craft(s, 0, B[0], "Aurora")
    field = [B[0], B[1], B[2], B[3], B[4], B[5], B[6], FERTILE_CARD["top"], FERTILE_CARD["middle"]]
    lay_out(s, 0, field=field, on_deck=TOP[0], deck=[TOP[1]])
    harvest(s)
    assert s.h_vp == 4
    act(s, d.DONE)
    assert s.tokens[0] == 4


@pytest.mark.parametrize(
    ("name", "mana", "vp"),
    [("Dawnsinger", 3, 0), ("Feral Chieftain", 0, 3), ("Woodland Warden", 0, 6)],
)
def test_guardian_harvest_abilities_count_every_guardian_on_the_card(name, mana, vp):
    """Dawnsinger + Stag 3 mana; Feral Chieftain + Stag 3 VP; Woodland Warden + Stag 6 VP."""
    s = new()
    craft(s, 0, B[0], "Stag", name)
    lay_out(s, 0, field=[B[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_mana == mana and s.h_vp == vp


def test_harvest_abilities_do_not_work_on_deck_nor_after_a_spoil():
    s = new()
    craft(s, 0, B[0], "Woodland Warden")
    lay_out(s, 0, field=[B[1]], on_deck=B[0], deck=[B[2]])
    harvest(s)
    assert s.h_vp == 0, "on deck"
    s = new()
    craft(s, 0, B[0], "Woodland Warden")
    lay_out(s, 0, field=[B[0], TOP[0], TOP[1], TOP[2]], on_deck=B[1], deck=[MID[0]])
    start(s, 0)
    act(s, d.PUSH)  # 4 decay: spoiled, no Harvest
    assert s.tokens[0] == 0 and s.active == 1


def test_magic_seed_counts_the_other_field_cards():
    s = new()
    craft(s, 0, B[0], "Magic Seed")
    lay_out(s, 0, field=[B[0], B[1], B[2], B[3], B[4]], on_deck=B[5], deck=[B[6]])
    harvest(s)
    assert s.h_mana == 4


def test_grassland_takes_one_mana_and_nothing_from_nothing():
    s = new()
    craft(s, 0, B[0], "Grassland")
    lay_out(s, 0, field=[B[0], FERTILE_CARD["top"], TOP[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_mana == 1 and s.h_spirits[:2] == [1, 1]
    s = new()
    craft(s, 0, B[0], "Grassland")
    lay_out(s, 0, field=[B[0], B[1]], on_deck=B[2], deck=[B[3]])
    harvest(s)
    assert s.h_mana == 0


def test_printed_harvest_vp_plow_moonwell_shrine_bramblecrown_colossus():
    s = new()
    craft(s, 0, B[0], "Plow")
    craft(s, 0, B[1], "Moonwell Shrine")
    craft(s, 0, B[2], "Bramblecrown Colossus")
    lay_out(s, 0, field=[B[0], B[1], B[2]], on_deck=B[3], deck=[B[4]])
    harvest(s)
    assert s.h_vp == 2 + 1 + 2 and s.h_mana == 1 + 2
    points = s.points(0)
    act(s, d.DONE)
    assert s.tokens[0] == 5 and s.pool == 23 - 5
    assert s.points(0) == points + 5, "the end VP (Moonwell Shrine 1, Bramblecrown Colossus 1) stay"
    assert s.end_vp(0) == 1 + 1


# --- Ongoing abilities and decay ----------------------------------------------------------------------
def test_seedling_caps_a_card_at_one_decay_and_does_nothing_on_a_bare_cursed_land():
    s = new()
    craft(s, 0, TOP[0], "Seedling")
    assert s.prof[0][TOP[0]].decay == 1
    craft(s, 0, TOP[0], "Hulking Thornhide")
    assert s.prof[0][TOP[0]].decay == 1, "Hulking Thornhide's decay is cancelled"


def test_lifebringer_seed_leaves_its_card_no_decay_on_deck_too():
    s = new()
    craft(s, 0, TOP[0], "Lifebringer Seed")
    lay_out(s, 0, field=[TOP[1], TOP[2], MID[0]], on_deck=TOP[0], deck=[B[0]])
    assert s.net_decay(0) == 3, "the on-deck Cursed Land with Lifebringer Seed shows no decay"


def test_grovetender_has_a_growth_per_guardian_and_elder_oakheart_grows_its_own_decay_away():
    s = new()
    craft(s, 0, B[0], "Stag", "Grovetender")
    p = s.prof[0][B[0]]
    assert p.decay == 1 and p.growth == 2, "Grovetender + Stag: 2 growth"
    craft(s, 0, B[1], "Elder Oakheart")
    assert s.prof[0][B[1]].growth == 1 and s.prof[0][B[1]].decay == 1


def test_gaias_chosen_examples_6_and_4():
    s = new()
    craft(s, 0, B[0], "Stag", "Dawnsinger", "Gaia's Chosen")
    assert s.prof[0][B[0]].end_vp == 2 + 6
    craft(s, 0, B[1], "Stag", "Lifebringer Seed", "Gaia's Chosen")
    assert s.prof[0][B[1]].end_vp == 1 + 2 + 4, "Lifebringer's own 1, Gaia's 2, 4 symbols"
    assert s.prof[0][B[1]].decay == 0


def test_hulking_thornhide_and_the_plain_vp_cards_score_their_end_vp():
    s = new()
    before = s.end_vp(0)
    craft(s, 0, B[0], "Stormcrest Roc", "Hulking Thornhide", "Thunderhoof Matriarch")
    craft(s, 0, B[1], "Ironbark Sentinel", "Moonwell Shrine")
    assert s.end_vp(0) - before == 1 + 3 + 1 + 2 + 1
    assert s.tiebreak(0) == 4


# --- When Played ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Mindful Owl", "Deadwood Harvester"])
def test_discard_from_field_throws_out_a_cursed_land(name):
    s = new()
    craft(s, 0, B[0], name)
    lay_out(s, 0, field=[TOP[0], TOP[1]], on_deck=B[0], deck=[MID[0], B[1]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.WP_DISCARD and s.on_deck[0] == -1, "before the next on-deck card"
    assert s.legal_actions() == [d.DONE, card(TOP[0]), card(TOP[1])]
    act(s, card(TOP[0]))
    assert s.field[0] == [TOP[1], B[0]] and TOP[0] in s.discard[0]
    assert s.on_deck[0] == MID[0] and s.net_decay(0) == 2 and s.phase == d.PLANT


def test_discard_from_field_may_be_declined_and_does_nothing_as_the_first_card():
    s = new()
    craft(s, 0, B[0], "Mindful Owl")
    lay_out(s, 0, field=[TOP[0]], on_deck=B[0], deck=[B[1]])
    start(s, 0)
    act(s, d.PUSH, d.DONE)
    assert s.field[0] == [TOP[0], B[0]]
    s = new()
    craft(s, 0, B[0], "Mindful Owl")
    lay_out(s, 0, field=[], on_deck=B[0], deck=[B[1]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.PLANT and s.field[0] == [B[0]], "the first card: no choice at all"


def test_calm_weather_looks_at_the_top_card_then_discards_it_or_keeps_it():
    for choice, on_deck in ((d.DISCARD_PEEKED, B[2]), (d.DONE, TOP[1])):
        s = new()
        craft(s, 0, B[0], "Calm Weather")
        lay_out(s, 0, field=[TOP[0]], on_deck=B[0], deck=[TOP[1], B[2]])
        start(s, 0)
        act(s, d.PUSH)
        assert s.phase == d.PEEK and s.deck[0][-1] == TOP[1]
        act(s, choice)
        assert s.on_deck[0] == on_deck
        assert (TOP[1] in s.discard[0]) == (choice == d.DISCARD_PEEKED)


def test_cleansing_rain_searches_the_deck_and_shuffles_it():
    s = new()
    craft(s, 0, B[0], "Cleansing Rain")
    lay_out(s, 0, field=[TOP[0]], on_deck=B[0], deck=[B[1], B[2], TOP[1], B[3]], discard=[MID[0], MID[1]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.SEARCH
    deck = sorted(s.deck[0])
    assert s.legal_actions() == [d.DONE] + [card(c) for c in deck], "any card of the deck"
    act(s, card(TOP[1]))
    assert TOP[1] in s.discard[0] and MID[0] in s.discard[0], "the discard pile is not shuffled in"
    assert sorted(s.deck[0] + [s.on_deck[0]]) == sorted(c for c in deck if c != TOP[1])


def test_cleansing_rain_as_the_last_deck_card_first_reshuffles_the_discard_pile():
    s = new()
    craft(s, 0, B[0], "Cleansing Rain")
    lay_out(s, 0, field=[TOP[0]], on_deck=B[0], deck=[])
    pile = sorted(s.discard[0])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.SEARCH and sorted(s.deck[0]) == pile and not s.discard[0]
    act(s, d.DONE)  # declined: the deck is still shuffled
    assert len(s.deck[0]) == len(pile) - 1


# --- would spoil -----------------------------------------------------------------------------------
def spoiling_push(s, extra_field=(), on_deck_next=MID[0]):
    """A field of 2 Cursed Lands (+ ``extra_field``), a Cursed Land on deck, the next one a
    Cursed Land too: pushing reveals the fourth decay."""
    lay_out(s, 0, field=[TOP[0], TOP[1], *extra_field], on_deck=TOP[2], deck=[on_deck_next, B[5], B[6]])
    start(s, 0)
    act(s, d.PUSH)


def test_peacekeeper_druid_redraws_once_a_turn():
    s = new()
    craft(s, 0, B[0], "Peacekeeper Druid")
    spoiling_push(s, extra_field=[B[0]])
    assert s.phase == d.WOULD_SPOIL and s.legal_actions() == [d.DONE, d.REDRAW_DRUID]
    act(s, d.REDRAW_DRUID)
    assert MID[0] in s.discard[0] and s.on_deck[0] == B[5] and s.phase == d.PLANT
    # Once a turn: a second spoiling reveal spoils.
    s = new()
    craft(s, 0, B[0], "Peacekeeper Druid")
    lay_out(s, 0, field=[TOP[0], TOP[1], B[0]], on_deck=TOP[2], deck=[MID[0], MID[1], B[6]])
    start(s, 0)
    act(s, d.PUSH, d.REDRAW_DRUID)  # MID[1] revealed: spoils anyway
    assert s.active == 1 and s.token_active[0]


def test_peacekeeper_druid_used_in_prep_is_spent_for_the_next_planting():
    s = new()
    craft(s, 0, B[0], "Peacekeeper Druid")
    craft(s, 0, B[1], "Stag", "Hulking Thornhide")  # 2 decay
    deck = [TOP[0], TOP[1], B[1], B[2], TOP[2], MID[0], B[4]]
    lay_out(s, 0, field=[B[3]], on_deck=B[0], deck=deck)
    start(s, 0)
    act(s, d.PASS, d.DONE)
    # Prep: the druid first, then two Cursed Lands; the 2-decay card on deck would spoil.
    assert s.phase == d.WOULD_SPOIL and s.stage == d.PREPPING
    act(s, d.REDRAW_DRUID)
    assert B[1] in s.discard[0] and s.field[0] == [B[0], TOP[0], TOP[1], B[2]] and s.on_deck[0] == TOP[2]
    assert s.active == 1 and s.redraw_blocked[0] == ([B[0]], 0)
    act(s, d.PASS, d.DONE)
    # Player 0's planting: a push reveals a fourth decay and the druid is spent: spoiled at once.
    assert s.active == 0
    act(s, d.PUSH)
    assert s.active == 1 and s.token_active[0]


def test_blooming_arbor_goes_to_the_box_for_a_growth():
    s = new()
    give_vales(s, 0, "Blooming Arbor")
    spoiling_push(s)
    assert s.legal_actions() == [d.DONE, d.SACRIFICE]
    act(s, d.SACRIFICE)
    assert s.phase == d.PLANT and s.net_decay(0) == 3
    assert not s.vales[0] and s.boxed_vales == [vid("Blooming Arbor")]


def test_blooming_arbors_growth_lasts_until_the_next_prep():
    # Used in planting: gone when this turn's prep starts (prep then stops at 3 decay, not 4).
    s = new()
    give_vales(s, 0, "Blooming Arbor")
    lay_out(s, 0, field=[TOP[0], TOP[1]], on_deck=TOP[2], deck=[MID[0], MID[1], B[5], MID[2], B[6]])
    start(s, 0)
    act(s, d.PUSH, d.SACRIFICE, d.PASS, d.DONE)
    # Prep: MID[0] (the on-deck card) first, then MID[1]; B[5]; MID[2] on deck: 3 decay.
    assert s.field[0] == [MID[0], MID[1], B[5]] and s.on_deck[0] == MID[2]
    assert not s.growth_bonus and not s.carry_growth[0]
    # Used in prep: it carries into the next turn and lasts through its planting.
    s = new()
    give_vales(s, 0, "Blooming Arbor")
    craft(s, 0, B[1], "Stag", "Hulking Thornhide")  # 2 decay
    lay_out(s, 0, field=[B[3]], on_deck=TOP[0], deck=[TOP[1], B[1], B[2], B[4]])
    start(s, 0)
    act(s, d.PASS, d.DONE)
    assert s.phase == d.WOULD_SPOIL and s.stage == d.PREPPING
    act(s, d.SACRIFICE)  # 1 + 1 + 2 decay - 1 growth = 3: prep is done
    assert s.active == 1 and s.carry_growth[0] == [(1, d.UNTIL_NEXT_PREP)]
    act(s, d.PASS, d.DONE)
    assert s.active == 0 and s.net_decay(0) == 3, "the growth still counts in the next planting"


def _shown_decay(s, seat: int, viewer: int) -> tuple[float, str]:
    """Seat ``seat``'s net decay as ``viewer``'s observation scales it (x 5) and as ``describe``
    prints it to ``viewer``."""
    who = "own" if seat == viewer else f"seat+{(seat - viewer) % s.n}"
    entry = next(e for e in s.game.observation_layout() if e.name == f"{who}_status")
    shown = float(s.observation(viewer)[entry.start + 9]) * 5
    line = next(x for x in s.describe(viewer).splitlines() if x.startswith(f"player_{seat}"))
    return round(shown, 4), line.split("net decay ")[1].split(";")[0]


def _prep_would_spoil(s):
    """Seat 0 passes with one blank in the field; its prep plays two Cursed Lands and reveals
    card B[1] with 2 decay: 4 showing, a would-spoil decision in prep."""
    lay_out(s, 0, field=[B[3]], on_deck=TOP[0], deck=[TOP[1], B[1], B[2], B[4]])
    start(s, 0)
    act(s, d.PASS, d.DONE)
    assert s.phase == d.WOULD_SPOIL and s.stage == d.PREPPING


def test_growth_carried_from_prep_is_shown_to_every_seat_between_turns():
    """A prep Blooming Arbor's growth lasts until the next Prep Phase: while the other seat plays,
    every seat's observation and ``describe`` show 3, what seat 0's next spoil check reads."""
    s = new()
    give_vales(s, 0, "Blooming Arbor")
    craft(s, 0, B[1], "Stag", "Hulking Thornhide")  # 2 decay
    _prep_would_spoil(s)
    act(s, d.SACRIFICE)
    assert s.active == 1 and s.carry_growth[0] == [(1, d.UNTIL_NEXT_PREP)]
    assert s.net_decay(0) == 3
    for viewer in (0, 1, None):
        if viewer is None:
            line = next(x for x in s.describe().splitlines() if x.startswith("player_0"))
            assert "net decay 3;" in line
        else:
            assert _shown_decay(s, 0, viewer) == (3.0, "3")
    act(s, d.PASS)  # seat 1's harvest: still shown as 3 mid-turn
    assert _shown_decay(s, 0, 1) == (3.0, "3")
    act(s, d.DONE)
    assert s.active == 0 and s.net_decay(0) == 3  # the engine's own count agrees in its turn


def test_conclave_guardian_used_in_prep_is_shown_to_every_seat_between_turns():
    """Conclave of Ents used in prep on an on-deck Grovetender card: its guardian (a growth) lasts
    through the next Planting, so between turns both seats see 3 decay, not 4, and the card's
    Conclave guardian."""
    s = new()
    give_vales(s, 0, "Conclave of Ents")
    craft(s, 0, B[1], "Primal Confluence", "Hulking Thornhide", "Grovetender")  # 2 decay, no guardian
    _prep_would_spoil(s)
    assert s.legal_actions() == [d.DONE, d.CONCLAVE]
    act(s, d.CONCLAVE)  # one target: no choice
    assert s.active == 1 and s.carry_guard[0] == [(B[1], d.UNTIL_PLANTING_END)]
    assert s.net_decay(0) == 3
    assert _shown_decay(s, 0, 0) == (3.0, "3") and _shown_decay(s, 0, 1) == (3.0, "3")
    entry = next(e for e in s.game.observation_layout() if e.name == "seat+1_cards")
    per_card = entry.stop - entry.start
    per_card //= 20
    assert s.observation(1)[entry.start + B[1] * per_card + per_card - 1] == 1.0
    act(s, d.PASS, d.DONE)
    assert s.active == 0 and s.net_decay(0) == 3


def test_heartwood_sanctuary_redraws_like_peacekeeper_druid():
    s = new()
    give_vales(s, 0, "Heartwood Sanctuary")
    spoiling_push(s)
    assert s.legal_actions() == [d.DONE, d.REDRAW_VALE]
    act(s, d.REDRAW_VALE)
    assert s.phase == d.PLANT and s.on_deck[0] == B[5]


def test_conclave_of_ents_gives_an_on_deck_grovetender_a_guardian_and_a_growth():
    s = new()
    give_vales(s, 0, "Conclave of Ents")
    craft(s, 0, MID[0], "Grovetender")
    spoiling_push(s)  # the Cursed Land with Grovetender is the new on-deck card: 4 decay
    assert s.on_deck[0] == MID[0] and s.legal_actions() == [d.DONE, d.CONCLAVE]
    act(s, d.CONCLAVE)  # one target: no choice
    assert s.phase == d.PLANT and s.net_decay(0) == 3
    assert s.legal_actions() == [d.PASS, d.PUSH], "once a turn"


def test_conclave_of_ents_in_the_harvest_adds_a_guardian_to_woodland_warden():
    s = new()
    give_vales(s, 0, "Conclave of Ents")
    craft(s, 0, B[0], "Stag", "Woodland Warden")
    lay_out(s, 0, field=[B[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_vp == 6 and d.CONCLAVE in s.legal_actions()
    act(s, d.CONCLAVE)
    assert s.h_vp == 8


# --- vales in the Harvest --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "spirit"),
    [("Talonthorn Den", 0), ("Radiant Pinnacle", 1), ("Cascading Falls", 2), ("Pool of Light", 3)],
)
def test_producer_vales_give_a_spirit_every_harvest(name, spirit):
    s = new()
    give_vales(s, 0, name)
    lay_out(s, 0, field=[B[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_spirits == [int(k == spirit) for k in range(4)]


def test_azure_lake_stream_of_vigor_fungal_forest_skyhaven():
    s = new()
    give_vales(s, 0, "Azure Lake", "Stream of Vigor", "Fungal Forest", "Skyhaven")
    lay_out(s, 0, field=[B[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_mana == 1 + 2 + 1 and s.h_spirits[1] == 1 and s.h_vp == 1
    assert s.buy_limit() == 3


@pytest.mark.parametrize(
    ("name", "vp"),
    [
        ("Exodus Road", 1),
        ("World Tree", 1),
        ("Blessed Savanna", 1),
        ("Shimmering Brook", 1),
        ("Webwood Canopy", 1),
    ],
)
def test_vp_vales_give_their_tokens_every_harvest_from_the_next_turn(name, vp):
    """The designed VP-token vales (Skyhaven's family): a token each Harvest, none the turn bought."""
    s = new()
    give_vales(s, 0, name)
    lay_out(s, 0, field=[B[0]], on_deck=B[1], deck=[B[2]])
    harvest(s)
    assert s.h_vp == vp
    act(s, d.DONE)
    assert s.tokens[0] == vp and s.pool == 23 - vp
    s = new()
    set_vale_row(s, 0, name)
    cost = VALES[vid(name)].cost
    # Up to three copies of a card showing each spirit; Wandering Sprite's wild pays the fourth of a
    # kind (these level-1 cards carry a VP token of their own: issue 28).
    cards = []
    for twin, k in (("Hollow Burrow", cost.animal), ("Podlings", cost.forest), ("Windward Perch", cost.sky)):
        cards += [twin] * min(k, 3) + ["Wandering Sprite"] * max(0, k - 3)
    for c, adv in zip(B, cards, strict=False):
        craft(s, 0, c, adv)
    lay_out(s, 0, field=list(B[: len(cards)]), on_deck=B[len(cards)], deck=[B[len(cards) + 1]])
    harvest(s)
    field_vp = s.h_vp
    act(s, d.BUY_VALE + 0)
    s.refresh_harvest()
    assert s.h_vp == field_vp, "not the turn it is bought"


def test_stream_of_vigor_allows_a_third_advancement():
    s = new()
    give_vales(s, 0, "Stream of Vigor")
    for k in range(3):
        set_commons(s, k, "Podlings")
    field = [FERTILE_CARD["top"], B[0], B[1], B[2]]
    lay_out(s, 0, field=field, on_deck=TOP[0], deck=[B[3]])
    for c in B[:3]:
        craft(s, 0, c, "Fertile Soil top")
    harvest(s)
    assert s.h_mana == 6
    act(s, d.BUY_COMMONS + 0, d.BUY_COMMONS + 1, d.BUY_COMMONS + 2)


def test_vale_abilities_wait_a_turn_and_ancient_liferoots_is_one_per_player():
    s = new()
    set_vale_row(s, 0, "Azure Lake")
    set_vale_row(s, 4, "Ancient Liferoots")
    set_vale_row(s, 5, "Ancient Liferoots", keep=(4,))
    give_vales(s, 0, "Azure Lake")
    craft(s, 0, B[0], "Mossback Tortoise", "Podlings")  # animal, forest
    craft(s, 0, B[1], "Windward Perch", "Grovetender")  # sky, forest
    craft(s, 0, B[2], "Wandering Sprite", "Seedling")  # wild, forest
    lay_out(s, 0, field=[B[0], B[1], B[2]], on_deck=B[3], deck=[B[4]])
    harvest(s)
    growth_before = s.net_decay(0)  # Podlings' and Windward Perch's printed growth
    assert s.h_mana == 1, "the Azure Lake owned before this turn"
    act(s, d.BUY_VALE + 0)  # a second Azure Lake: its mana is not for this turn
    s.refresh_harvest()
    assert s.h_mana == 1
    act(s, d.BUY_VALE + 4)  # Ancient Liferoots: sky + 3 forest
    assert d.BUY_VALE + 5 not in s.legal_actions()
    assert s.net_decay(0) == growth_before, "Ancient Liferoots' growth waits for the next turn"


def test_sunstone_aerie_turns_an_animal_wild_for_two_mana():
    """Ley Line Nexus (sky + forest) with an animal and a forest."""
    s = new()
    give_vales(s, 0, "Sunstone Aerie")
    set_vale_row(s, 0, "Ley Line Nexus")
    craft(s, 0, B[0], "Hulking Thornhide", "Fertile Soil top")  # an animal (and a decay)
    craft(s, 0, B[1], "Podlings", "Fertile Soil top")  # a forest
    lay_out(s, 0, field=[B[0], B[1]], on_deck=B[2], deck=[B[3]])
    harvest(s)
    assert d.BUY_VALE + 0 not in s.legal_actions()
    act(s, d.SUNSTONE + 0)
    assert s.mana_left() == 0 and s.spirits_now() == [0, 1, 0, 1]
    act(s, d.BUY_VALE + 0)
    assert d.SUNSTONE + 1 not in s.legal_actions(), "once a turn"


# --- Earthchant Chorus ---------------------------------------------------------------------------
def test_earthchant_chorus_discount_and_its_binding_declaration():
    s = new()
    set_commons(s, 0, "Windward Perch")  # top, cost 3
    set_commons(s, 3, "Stag")  # top, cost 4
    craft(s, 0, B[0], "Earthchant Chorus")  # middle; 1 mana
    lay_out(s, 0, field=[B[0], B[1], FERTILE_CARD["bottom"]], on_deck=TOP[0], deck=[B[2]])
    harvest(s)
    assert s.h_mana == 2
    act(s, d.BUY_COMMONS + 3)  # Stag: 4 - 2 = 2 only on Earthchant's card: no choice
    assert s.mana_left() == 0 and s.bought[0][1] == B[0]
    # Windward Perch: Earthchant Chorus is used (once a turn), and 3 at full price is too much.
    assert d.BUY_COMMONS + 0 not in s.legal_actions()
    act(s, d.DONE)
    assert s.slots[0][B[0]][0] == aid("Stag"), "sleeved where declared"


def test_earthchant_chorus_minimum_zero_and_full_price_choice():
    # A Fertile Soil (top, cost 2) declared for Earthchant Chorus's card costs 0, not -0: the
    # level-1 commons cost 3 and more on the top and bottom slots since issue 28.
    s = new()
    craft(s, 0, B[0], "Earthchant Chorus")
    lay_out(
        s, 0, field=[B[0], B[1], FERTILE_CARD["bottom"], FERTILE_CARD["middle"]], on_deck=TOP[0], deck=[B[2]]
    )
    harvest(s)
    assert s.h_mana == 3
    act(s, d.BUY_FERTILE + 0)
    assert s.phase == d.DECLARE and s.legal_actions() == [d.DONE, card(B[0])]
    act(s, card(B[0]))
    assert s.mana_left() == 3, "2 - 2 = 0"
    act(s, d.DONE)
    assert s.slots[0][B[0]][0] == FERTILE_SOIL[0], "sleeved where declared"


def test_every_ability_in_the_data_has_a_scripted_test_here():
    source = Path(__file__).read_text()
    for a in ADVANCEMENTS:
        if a.ability != NO_ABILITY:
            assert a.name in source, a.name
    for v in VALES:
        if v.ability != NO_ABILITY:
            assert v.name in source, v.name
