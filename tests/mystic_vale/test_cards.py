"""Mystic Vale's card pool as data: counts, curves, every known fact, every rulebook example.

The engine is not written yet, so the rulebook's examples are checked here by a reference reading
of the ability rows (``Sleeve`` below): the arithmetic each example states must come out of the
card data, on cards that can legally be sleeved together (one advancement per slot).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import NamedTuple

import pytest

from mystic_envs.mystic_vale import cards as mv
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENTS,
    COMMONS,
    COMMONS_IDS,
    CURSED_LAND,
    FERTILE_SOIL,
    STARTING_DECK,
    VALES,
    Advancement,
    Cost,
    Vale,
)
from mystic_envs.mystic_vale.docs_tables import DOC_TABLES, main


def adv(name: str) -> Advancement:
    return ADVANCEMENTS[mv.ADVANCEMENT_BY_NAME[name.lower()]]


def vale(name: str) -> Vale:
    return VALES[mv.VALE_BY_NAME[name.lower()]]


def commons(level: int | None = None) -> list[Advancement]:
    return [a for a in ADVANCEMENTS if a.kind == COMMONS and (level is None or a.level == level)]


def per_card(level: int, value) -> float:
    cards = commons(level)
    return sum(value(a) * a.copies for a in cards) / sum(a.copies for a in cards)


# --- a reference reading of the ability rows on one sleeved card -----------------------------------
class Sleeve(NamedTuple):
    """A card: its starting card's printed advancement (if any) and the advancements sleeved on it."""

    parts: tuple[Advancement, ...]
    extra_guardian: int = 0  # Conclave of Ents this turn

    @classmethod
    def of(cls, *names: str, base: int = -1, extra_guardian: int = 0) -> Sleeve:
        parts = ((ADVANCEMENTS[base],) if base >= 0 else ()) + tuple(adv(n) for n in names)
        slots = [p.slot for p in parts]
        assert len(set(slots)) == len(slots), f"{names} cannot share a card: slots {slots}"
        return cls(parts, extra_guardian)

    def active(self) -> list[Advancement]:
        """Advancements whose ability counts: of two long-wise bands only the one sleeved last."""
        banded = [p for p in self.parts if p.band]
        covered = set(id(p) for p in banded[:-1])
        return [p for p in self.parts if id(p) not in covered]

    def printed(self, symbol: str) -> int:
        return sum(getattr(p.symbols, symbol) for p in self.parts)

    def guardians(self) -> int:
        return self.printed("guardian") + self.extra_guardian

    def multiplier(self, per: int, field_cards: int = 1) -> int:
        return {
            mv.PER_ONE: 1,
            mv.PER_GUARDIAN_ON_CARD: self.guardians(),
            mv.PER_OTHER_FIELD_CARD: field_cards - 1,
            mv.PER_TWO_FIELD_CARDS: field_cards // 2,
            mv.PER_SYMBOL_ON_CARD: sum(sum(p.symbols) for p in self.parts),
        }[per]

    def total(self, op: int, trigger: int, field_cards: int = 1) -> int:
        return sum(
            e.amount * self.multiplier(e.per, field_cards)
            for p in self.active()
            if p.ability.trigger == trigger
            for e in p.ability.effects
            if e.op == op
        )

    def decay(self) -> int:
        caps = [e.amount for p in self.active() for e in p.ability.effects if e.op == mv.DECAY_CAP]
        return min([self.printed("decay"), *caps])

    def growth(self) -> int:
        return self.printed("growth") + self.total(mv.GROWTH, mv.ONGOING)

    def end_vp(self) -> int:
        return sum(p.end_vp for p in self.parts) + self.total(mv.END_VP, mv.END_GAME)


def pays(spirits: list[int], costs: list[Cost]) -> bool:
    """Whether one spirit per cost symbol pays every vale in ``costs`` (a wild spirit or cost matches any)."""
    symbols = [k for c in costs for k, n in enumerate(c) for _ in range(n)]
    if len(symbols) > len(spirits):
        return False
    for chosen in itertools.permutations(spirits, len(symbols)):
        if all(s == need or mv.WILD in (s, need) for s, need in zip(chosen, symbols, strict=True)):
            return True
    return False


# --- counts ------------------------------------------------------------------------------------------
def test_counts_per_level_type_and_slot():
    assert {lvl: sum(a.copies for a in commons(lvl)) for lvl in (1, 2, 3)} == {1: 33, 2: 30, 3: 33}
    assert sum(a.copies for a in commons()) == 96 == sum(mv.NUM_ADVANCEMENT_CARDS.values())
    assert len(COMMONS_IDS) == len(commons()) == 32
    fertile = [ADVANCEMENTS[i] for i in FERTILE_SOIL]
    assert [a.slot for a in fertile] == [mv.TOP, mv.MIDDLE, mv.BOTTOM]
    assert all(a.copies == 6 and a.cost == 2 and a.symbols == mv.Symbols(mana=1) for a in fertile)
    assert sum(a.copies for a in fertile) == mv.NUM_FERTILE_SOIL == 18
    assert {lvl: sum(v.copies for v in VALES if v.level == lvl) for lvl in (1, 2)} == {1: 18, 2: 18}
    assert sum(v.copies for v in VALES) == 36
    assert sum(c.copies for c in STARTING_DECK) == mv.DECK_SIZE == 20
    by_kind = Counter()
    for card in STARTING_DECK:
        by_kind[card.name.split(" (")[0]] += card.copies
    assert by_kind == mv.STARTING_COUNTS == {"Cursed Land": 9, "Fertile Soil": 3, "Blank": 8}
    # Every slot is printed on the starting cards alike, and every slot has cards at every level.
    assert Counter(
        ADVANCEMENTS[c.printed].slot for c in STARTING_DECK if c.printed >= 0 for _ in range(c.copies)
    ) == {
        mv.TOP: 4,
        mv.MIDDLE: 4,
        mv.BOTTOM: 4,
    }
    for level in (1, 2, 3):
        slots = Counter(a.slot for a in commons(level) for _ in range(a.copies))
        assert set(slots) == {mv.TOP, mv.MIDDLE, mv.BOTTOM}
        assert max(slots.values()) - min(slots.values()) <= 3, (level, slots)


def test_level_and_vale_id_helpers_refuse_a_bad_level():
    assert [ADVANCEMENTS[i].level for i in mv.level_ids(2)] == [2] * 10
    assert len(mv.vale_ids(1)) == 9 and len(mv.vale_ids(2)) == 13
    with pytest.raises(ValueError, match="advancement level must be 1, 2 or 3, got 4"):
        mv.level_ids(4)
    with pytest.raises(ValueError, match="vale level must be 1 or 2, got 3"):
        mv.vale_ids(3)


def test_setup_constants_are_the_rulebooks():
    assert mv.PLAYER_COUNTS == (2, 3, 4)
    assert mv.LEVEL1_CUT == {2: 12, 3: 15, 4: 18}
    assert all(mv.LEVEL1_CUT[n] <= mv.NUM_ADVANCEMENT_CARDS[1] for n in mv.PLAYER_COUNTS)
    assert mv.VP_POOL == {2: 23, 3: 28, 4: 33}
    assert sum(v * n for v, n in mv.VP_TOKENS_IN_BOX.items()) == 94 >= max(mv.VP_POOL.values())
    assert (mv.COMMONS_FACE_UP, mv.VALES_FACE_UP, mv.ADVANCEMENT_BUYS, mv.VALE_BUYS) == (3, 4, 2, 2)
    assert (mv.SPOIL_DECAY, mv.PREP_DECAY, mv.SLOTS_PER_CARD, mv.MANA_TOKEN_MANA) == (4, 3, 3, 1)
    # Four vales of each level can be turned face up; three advancements of each level.
    assert all(len(mv.vale_ids(lvl)) >= mv.VALES_FACE_UP for lvl in (1, 2))


# --- curves ------------------------------------------------------------------------------------------
def test_cost_vp_and_symbol_curves_rise_with_level():
    def positive(a: Advancement) -> int:
        s = a.symbols
        return s.mana + s.growth + s.guardian + sum(s.spirits)

    cost = [per_card(lvl, lambda a: a.cost) for lvl in (1, 2, 3)]
    vp = [per_card(lvl, lambda a: a.harvest_vp + a.end_vp) for lvl in (1, 2, 3)]
    end_vp = [per_card(lvl, lambda a: a.end_vp) for lvl in (1, 2, 3)]
    symbols = [per_card(lvl, positive) for lvl in (1, 2, 3)]
    decay = [per_card(lvl, lambda a: a.symbols.decay) for lvl in (1, 2, 3)]
    assert cost == sorted(cost) and len(set(cost)) == 3, cost
    assert vp == sorted(vp) and len(set(vp)) == 3, vp
    assert end_vp == sorted(end_vp) and len(set(end_vp)) == 3, end_vp
    assert symbols == sorted(symbols) and len(set(symbols)) == 3, symbols
    assert decay[0] == 0 and decay == sorted(decay) and len(set(decay)) == 3, (
        decay
    )  # decay on the strong cards
    # Cost ranges step up by level: a level's cheapest never undercuts the level below's dearest.
    for low, high in ((1, 2), (2, 3)):
        assert min(a.cost for a in commons(high)) >= max(a.cost for a in commons(low))
    # The designed level-3 VP cards: the more end-game VP, the dearer.
    plain = sorted((a.end_vp, a.cost) for a in commons(3) if not a.ability.effects and not a.harvest_vp)
    assert [c for _, c in plain] == sorted(c for _, c in plain)


def test_the_left_side_shows_harvest_vp_or_decay_never_both():
    for a in ADVANCEMENTS:
        assert not (a.harvest_vp and a.symbols.decay), a.name


def test_vale_vp_follows_its_cost_less_its_abilitys_worth():
    for v in VALES:
        named = v.cost.animal + v.cost.forest + v.cost.sky
        rate = 2 * named + v.cost.wild - 1
        if v.ability.effects:
            assert 1 <= v.end_vp < rate, v.name
        elif v.cost.total >= 5:  # issue 28's cap on the level-2 lumps: the cost's spirits + 1
            assert v.end_vp == v.cost.total + 1 < rate, v.name
        else:
            assert v.end_vp == rate, v.name
    # The four-of-a-kind VP-token vales: 7 - 3 for the token, less 1 by the same cap.
    assert {vale(n).end_vp for n in ("Blessed Savanna", "Shimmering Brook", "Webwood Canopy")} == {3}
    assert all(v.cost.total == 2 for v in VALES if v.level == 1)
    assert all(v.cost.total >= 3 for v in VALES if v.level == 2)


def test_spirit_supply_covers_every_vale_cost_kind():
    def printed(level: int, kind: int) -> int:
        return sum(a.symbols.spirits[kind] * a.copies for a in commons(level))

    def needed(level: int, kind: int) -> int:
        return sum(v.cost[kind] * v.copies for v in VALES if v.level == level)

    # Every named spirit is printed at every level, about evenly (the vales ask for them about evenly).
    for level in (1, 2, 3):
        assert all(printed(level, k) >= 6 for k in (mv.ANIMAL, mv.FOREST, mv.SKY)), level
    totals = [sum(printed(lvl, k) for lvl in (1, 2, 3)) for k in range(4)]
    assert totals == [33, 30, 30, 9]  # docs: the spirits table
    # Level 1 prints nearly what the level-1 vales cost, each named spirit at least 3/4 of its need.
    for k in (mv.ANIMAL, mv.FOREST, mv.SKY):
        assert printed(1, k) >= 0.75 * needed(1, k), mv.SPIRIT_NAMES[k]


def test_no_legal_card_holds_more_than_four_guardians():
    # Two guardians come only on top parts (Stag, Ironbark Sentinel), so they never share a card.
    for slot in (mv.MIDDLE, mv.BOTTOM):
        assert max(a.symbols.guardian for a in commons() if a.slot == slot) == 1
    assert {a.name for a in commons() if a.symbols.guardian == 2} == {"Stag", "Ironbark Sentinel"}
    assert {adv("Stag").slot, adv("Ironbark Sentinel").slot} == {mv.TOP}
    best = Sleeve.of("Stag", "Dawnsinger", "Woodland Warden")
    assert best.guardians() == 4 and best.total(mv.GAIN_VP, mv.HARVEST) == 8
    row = "| Woodland Warden: gain vp 2 per guardian on card | "
    row += "Stag, Dawnsinger, Woodland Warden | 4 guardians | 8 |"
    assert row in DOC_TABLES["combos"]()


# --- names and the vocabulary ---------------------------------------------------------------------------
KNOWN_ADVANCEMENTS = (
    "Aurora", "Calm Weather", "Cleansing Rain", "Dawnsinger", "Deadwood Harvester", "Earthchant Chorus",
    "Feral Chieftain", "Gaia's Chosen", "Grassland", "Grovetender", "Hulking Thornhide", "Lifebringer Seed",
    "Magic Seed", "Mindful Owl", "Peacekeeper Druid", "Plow", "Podlings", "Seedling", "Stag",
    "Woodland Warden",
)  # fmt: skip


def test_names_are_unique_and_the_designed_ones_are_ours():
    names = [a.name for a in commons()] + [v.name for v in VALES]
    assert len(names) == len(set(names)) == 32 + 22
    assert len({n.lower() for n in names}) == len(names)
    assert set(KNOWN_ADVANCEMENTS) <= {a.name for a in commons()}
    designed = [a for a in commons() if a.name not in KNOWN_ADVANCEMENTS]
    assert len(designed) == 12 and all(a.source.startswith("designed") for a in designed)
    assert all(not a.source.startswith("designed") for a in commons() if a.name in KNOWN_ADVANCEMENTS)
    assert all(a.why and a.source for a in ADVANCEMENTS) and all(v.why and v.source for v in VALES)


def test_every_ability_is_in_the_vocabulary():
    abilities = [(a.name, a.ability) for a in ADVANCEMENTS] + [(v.name, v.ability) for v in VALES]
    for name, ab in abilities:
        assert 0 <= ab.trigger < len(mv.TRIGGER_NAMES), name
        assert (ab.trigger == mv.NONE) == (not ab.effects) == (not ab.text), name
        for e in ab.effects:
            assert 0 <= e.op < mv.NUM_OPS and 0 <= e.per < len(mv.PER_NAMES), name
            assert e.amount >= 0, name
            if e.op == mv.GAIN_SPIRIT:
                assert e.arg in (mv.ANIMAL, mv.FOREST, mv.SKY, mv.WILD), name
            else:
                assert e.arg == 0, name
    # Every op, trigger and multiplier is used by some card: the vocabulary is closed and not padded.
    used = {e.op for _, ab in abilities for e in ab.effects}
    assert used == set(range(mv.NUM_OPS))
    assert {ab.trigger for _, ab in abilities} == set(range(len(mv.TRIGGER_NAMES)))
    assert {e.per for _, ab in abilities for e in ab.effects} == set(range(len(mv.PER_NAMES)))
    # Only the ongoing, card-wide abilities run long-wise.
    for a in ADVANCEMENTS:
        if a.band:
            assert a.ability.trigger == mv.ONGOING, a.name


F = mv.Effect
# (card, trigger, effect rows, optional): the timed-choice families of the issue and the other known ones.
FAMILIES = [
    ("Calm Weather", mv.WHEN_PLAYED, (F(mv.PEEK_TOP, 1),), False),
    ("Cleansing Rain", mv.WHEN_PLAYED, (F(mv.SEARCH_DECK, 1),), False),
    ("Deadwood Harvester", mv.WHEN_PLAYED, (F(mv.DISCARD_FROM_FIELD, 1),), True),
    ("Mindful Owl", mv.WHEN_PLAYED, (F(mv.DISCARD_FROM_FIELD, 1),), True),
    ("Peacekeeper Druid", mv.WOULD_SPOIL, (F(mv.REDRAW_ON_DECK, 1),), True),
    ("Grassland", mv.IN_FIELD, (F(mv.LOSE_MANA, 1),), False),
    ("Magic Seed", mv.HARVEST, (F(mv.GAIN_MANA, 1, mv.PER_OTHER_FIELD_CARD),), False),
    ("Seedling", mv.ONGOING, (F(mv.DECAY_CAP, 1),), False),
    ("Lifebringer Seed", mv.ONGOING, (F(mv.DECAY_CAP, 0),), False),
    ("Grovetender", mv.ONGOING, (F(mv.GROWTH, 1, mv.PER_GUARDIAN_ON_CARD),), False),
    ("Gaia's Chosen", mv.END_GAME, (F(mv.END_VP, 1, mv.PER_SYMBOL_ON_CARD),), False),
    ("Aurora", mv.HARVEST, (F(mv.GAIN_VP, 1, mv.PER_TWO_FIELD_CARDS),), False),
    ("Dawnsinger", mv.HARVEST, (F(mv.GAIN_MANA, 1, mv.PER_GUARDIAN_ON_CARD),), False),
    ("Feral Chieftain", mv.HARVEST, (F(mv.GAIN_VP, 1, mv.PER_GUARDIAN_ON_CARD),), False),
    ("Woodland Warden", mv.HARVEST, (F(mv.GAIN_VP, 2, mv.PER_GUARDIAN_ON_CARD),), False),
    ("Earthchant Chorus", mv.IN_FIELD, (F(mv.DISCOUNT_SAME_CARD, 2),), True),
    ("Blooming Arbor", mv.WOULD_SPOIL, (F(mv.SACRIFICE_FOR_GROWTH, 1),), True),
    ("Conclave of Ents", mv.ANY_TIME, (F(mv.ADD_GUARDIAN, 1),), True),
    ("Sunstone Aerie", mv.HARVEST, (F(mv.WILD_FOR_MANA, 2),), True),
    ("Azure Lake", mv.HARVEST, (F(mv.GAIN_MANA, 1),), False),
    ("Cascading Falls", mv.HARVEST, (F(mv.GAIN_SPIRIT, 1, mv.PER_ONE, mv.SKY),), False),
    ("Pool of Light", mv.HARVEST, (F(mv.GAIN_SPIRIT, 1, mv.PER_ONE, mv.WILD),), False),
    ("Radiant Pinnacle", mv.HARVEST, (F(mv.GAIN_SPIRIT, 1, mv.PER_ONE, mv.FOREST),), False),
    ("Talonthorn Den", mv.HARVEST, (F(mv.GAIN_SPIRIT, 1, mv.PER_ONE, mv.ANIMAL),), False),
    ("Stream of Vigor", mv.HARVEST, (F(mv.GAIN_MANA, 2), F(mv.BUY_LIMIT, 1)), False),
    ("Ancient Liferoots", mv.ONGOING, (F(mv.GROWTH, 1), F(mv.ONE_PER_PLAYER, 1)), False),
]


@pytest.mark.parametrize(("name", "trigger", "effects", "optional"), FAMILIES, ids=[r[0] for r in FAMILIES])
def test_rulebook_ability_encoding(name, trigger, effects, optional):
    card = VALES[mv.VALE_BY_NAME[name.lower()]] if name.lower() in mv.VALE_BY_NAME else adv(name)
    assert (card.ability.trigger, card.ability.effects, card.ability.optional) == (trigger, effects, optional)


def test_the_module_docstring_names_every_family_with_its_op():
    doc = mv.__doc__
    for name, trigger, effects, _ in FAMILIES[:19]:
        line = next(ln for ln in doc.splitlines() if ln.startswith("|") and name in ln)
        assert mv.TRIGGER_NAMES[trigger] in line and mv.OP_NAMES[effects[0].op] in line, name
    for op in mv.OP_NAMES:
        assert f"``{op}``" in doc, op
    for trigger in mv.TRIGGER_NAMES:
        assert f"``{trigger}``" in doc, trigger


# --- every known fact (research files), one row each -------------------------------------------------
KNOWN_FACTS = [
    ("Stag", lambda a: (a.symbols.guardian, a.symbols.animal), (2, 1)),
    ("Dawnsinger", lambda a: (a.symbols.guardian, a.symbols.sky, a.symbols.mana), (1, 1, 0)),
    ("Feral Chieftain", lambda a: a.symbols.guardian, 1),
    ("Woodland Warden", lambda a: a.symbols.guardian, 1),
    ("Grovetender", lambda a: (a.symbols.guardian, a.symbols.growth), (0, 0)),
    ("Gaia's Chosen", lambda a: (a.symbols.guardian, a.end_vp), (0, 2)),
    ("Lifebringer Seed", lambda a: sum(a.symbols), 0),
    ("Hulking Thornhide", lambda a: a.symbols.decay >= 1, True),
    ("Podlings", lambda a: (a.cost, a.level), (2, 1)),
    # Gaia's Chosen's examples: none of the four cards carries mana, growth, forest or wild.
    *[
        (name, lambda a: (a.symbols.mana, a.symbols.growth, a.symbols.forest, a.symbols.wild), (0, 0, 0, 0))
        for name in ("Gaia's Chosen", "Stag", "Dawnsinger", "Lifebringer Seed")
    ],
]


@pytest.mark.parametrize(
    ("name", "get", "expected"), KNOWN_FACTS, ids=[f"{r[0]}-{i}" for i, r in enumerate(KNOWN_FACTS)]
)
def test_known_advancement_fact(name, get, expected):
    assert get(adv(name)) == expected


def test_known_starting_cards_and_fertile_soil():
    for i in CURSED_LAND:
        assert ADVANCEMENTS[i].symbols == mv.Symbols(mana=1, decay=1)  # exactly 1 decay (RB); 1 mana (review)
    for card in STARTING_DECK:
        if card.name.startswith("Fertile Soil"):
            assert ADVANCEMENTS[card.printed].symbols == mv.Symbols(mana=1)
        if card.name == "Blank":
            assert card.printed == -1


KNOWN_VALES = [
    # (name, level, animal, forest, sky, wild): research (a hobby implementation; two checked by the rulebook)
    ("Azure Lake", 1, 1, 1, 0, 0), ("Blooming Arbor", 1, 0, 1, 1, 0), ("Cascading Falls", 1, 2, 0, 0, 0),
    ("Exodus Road", 1, 1, 0, 1, 0), ("Ley Line Nexus", 1, 0, 1, 1, 0), ("Radiant Pinnacle", 1, 0, 0, 2, 0),
    ("Sunstone Aerie", 1, 1, 0, 1, 0), ("Talonthorn Den", 1, 0, 2, 0, 0), ("World Tree", 1, 1, 1, 0, 0),
    ("Ancient Liferoots", 2, 0, 3, 1, 0), ("Blessed Savanna", 2, 4, 0, 0, 0),
    ("Conclave of Ents", 2, 1, 1, 1, 1),
    ("Feral Grove", 2, 1, 1, 1, 1), ("Fungal Forest", 2, 0, 1, 2, 0), ("Heartwood Sanctuary", 2, 1, 2, 0, 0),
    ("Pool of Light", 2, 1, 0, 2, 0), ("Shimmering Brook", 2, 0, 0, 4, 0), ("Skyhaven", 2, 2, 0, 1, 0),
    ("Stream of Vigor", 2, 2, 1, 0, 0), ("Verdant Valley", 2, 3, 1, 1, 0), ("Webwood Canopy", 2, 0, 4, 0, 0),
    ("Wellspring Glade", 2, 2, 2, 2, 0),
]  # fmt: skip


@pytest.mark.parametrize("row", KNOWN_VALES, ids=[r[0] for r in KNOWN_VALES])
def test_known_vale_level_and_cost(row):
    name, level, *cost = row
    assert (vale(name).level, tuple(vale(name).cost)) == (level, tuple(cost))


def test_every_vale_is_a_known_one_and_liferoots_has_copies():
    assert {v.name for v in VALES} == {r[0] for r in KNOWN_VALES}
    assert vale("Ancient Liferoots").copies >= 2  # "you may not gain a second" (RB)
    assert all(v.copies == 2 for v in VALES if v.level == 1)  # 18 cards over 9 names (research)


# --- the rulebook's examples on our data -------------------------------------------------------------------
def test_example_buying_advancements_podlings_and_fertile_soil():
    # Her field: two Cursed Land and a Fertile Soil starting card (3 mana) and blanks; the mana token.
    field = [Sleeve.of(base=CURSED_LAND[0]), Sleeve.of(base=CURSED_LAND[1]), Sleeve.of(base=FERTILE_SOIL[2])]
    field += [Sleeve.of(), Sleeve.of()]
    mana = sum(s.printed("mana") for s in field)
    price = adv("Podlings").cost + ADVANCEMENTS[FERTILE_SOIL[0]].cost
    assert (mana, price) == (3, 4)
    assert mana < price <= mana + mv.MANA_TOKEN_MANA
    assert sum(s.printed("decay") for s in field) == 2 < mv.SPOIL_DECAY  # a field that did not spoil
    # Both have a legal place: Podlings on a blank, the Fertile Soil on the other blank.
    assert Sleeve.of("Podlings").printed("forest") == 1
    assert len(field[3].parts) == len(field[4].parts) == 0


def test_example_buying_vales_feral_grove_and_ley_line_nexus():
    # forest, forest, sky, animal, animal, wild from Windward Perch (sky, forest), Seedling, Stag and
    # Wandering Sprite (wild, animal) in her field.
    field = ["Windward Perch", "Seedling", "Stag", "Wandering Sprite"]
    spirits = [k for n in field for k in range(4) for _ in range(adv(n).symbols.spirits[k])]
    assert sorted(spirits) == sorted([mv.FOREST, mv.FOREST, mv.SKY, mv.ANIMAL, mv.ANIMAL, mv.WILD])
    grove, nexus = vale("Feral Grove").cost, vale("Ley Line Nexus").cost
    assert pays(spirits, [grove, nexus])
    # Exactly the example's payment: Feral Grove takes forest, sky, animal and an animal for its wild;
    # Ley Line Nexus the other forest and the wild for its sky.
    assert pays([mv.FOREST, mv.SKY, mv.ANIMAL, mv.ANIMAL], [grove])
    assert pays([mv.FOREST, mv.WILD], [nexus])
    assert not pays([mv.FOREST, mv.ANIMAL], [nexus])  # without the wild the sky cost is unpaid
    assert grove.total + nexus.total == len(spirits) == 6


def test_example_final_scoring_12_plus_8_plus_5():
    tokens = [5, 5, 1, 1]  # 12 VP of tokens
    card = Sleeve.of("Stag", "Dawnsinger", "Gaia's Chosen")  # 8 VP on advancements
    vales = [vale("Ley Line Nexus"), vale("Blooming Arbor")]  # 5 VP on vale cards
    assert (sum(tokens), card.end_vp(), sum(v.end_vp for v in vales)) == (12, 8, 5)
    assert sum(tokens) + card.end_vp() + sum(v.end_vp for v in vales) == 25
    assert all(value in mv.VP_TOKENS_IN_BOX for value in tokens)


def test_example_aurora_with_nine_cards_gains_4_vp():
    field = (
        [Sleeve.of("Aurora")]
        + [Sleeve.of() for _ in range(6)]
        + [Sleeve.of(base=f) for f in FERTILE_SOIL[:2]]
    )
    assert len(field) == 9
    assert sum(s.decay() for s in field) - sum(s.growth() for s in field) < mv.SPOIL_DECAY  # reachable
    assert field[0].total(mv.GAIN_VP, mv.HARVEST, field_cards=len(field)) == 4
    assert field[0].total(mv.GAIN_VP, mv.HARVEST, field_cards=8) == 4
    assert field[0].total(mv.GAIN_VP, mv.HARVEST, field_cards=7) == 3


@pytest.mark.parametrize(
    ("card", "op", "trigger", "expected"),
    [
        (("Dawnsinger", "Stag"), mv.GAIN_MANA, mv.HARVEST, 3),
        (("Feral Chieftain", "Stag"), mv.GAIN_VP, mv.HARVEST, 3),
        (("Woodland Warden", "Stag"), mv.GAIN_VP, mv.HARVEST, 6),
        (("Grovetender", "Stag"), mv.GROWTH, mv.ONGOING, 2),
        (("Dawnsinger",), mv.GAIN_MANA, mv.HARVEST, 1),
        (("Woodland Warden",), mv.GAIN_VP, mv.HARVEST, 2),
        (("Grovetender",), mv.GROWTH, mv.ONGOING, 0),
    ],
    ids=[
        "dawnsinger-stag-3-mana",
        "chieftain-stag-3-vp",
        "warden-stag-6-vp",
        "grovetender-stag-2-growth",
        "dawnsinger-alone",
        "warden-alone",
        "grovetender-alone",
    ],
)
def test_clarification_guardian_examples(card, op, trigger, expected):
    assert Sleeve.of(*card).total(op, trigger) == expected


def test_clarification_gaias_chosen_examples_6_and_4():
    with_dawnsinger = Sleeve.of("Stag", "Dawnsinger", "Gaia's Chosen")
    with_lifebringer = Sleeve.of("Stag", "Lifebringer Seed", "Gaia's Chosen")
    assert with_dawnsinger.total(mv.END_VP, mv.END_GAME) == 6  # 3 guardian, animal, sky, decay
    assert with_lifebringer.total(mv.END_VP, mv.END_GAME) == 4  # 2 guardian, animal, decay
    assert with_lifebringer.decay() == 0  # Lifebringer Seed cancels the decay, Gaia's Chosen still counts it
    assert adv("Gaia's Chosen").end_vp == 2


def test_clarification_seedling_and_lifebringer_seed_decay():
    for cursed in CURSED_LAND:
        if adv("Seedling").slot != ADVANCEMENTS[cursed].slot:
            assert Sleeve.of("Seedling", base=cursed).decay() == 1  # a bare Cursed Land: nothing changes
        slots = {adv("Seedling").slot, adv("Hulking Thornhide").slot, ADVANCEMENTS[cursed].slot}
        if len(slots) == 3:
            assert Sleeve.of("Hulking Thornhide", base=cursed).decay() == 2
            assert Sleeve.of("Seedling", "Hulking Thornhide", base=cursed).decay() == 1
            break
    else:
        pytest.fail("no Cursed Land takes both Seedling and Hulking Thornhide")
    cursed = next(
        c for c in CURSED_LAND if ADVANCEMENTS[c].slot not in {adv("Lifebringer Seed").slot, adv("Stag").slot}
    )
    assert Sleeve.of("Lifebringer Seed", "Stag", base=cursed).decay() == 0


def test_clarification_magic_seed_grassland_and_earthchant_chorus():
    seed = Sleeve.of("Magic Seed")
    assert seed.total(mv.GAIN_MANA, mv.HARVEST, field_cards=6) == 5  # the other five cards
    assert seed.total(mv.GAIN_MANA, mv.HARVEST, field_cards=1) == 0
    lose = Sleeve.of("Grassland").total(mv.LOSE_MANA, mv.IN_FIELD)
    assert max(0, 3 - lose) == 2 and max(0, 0 - lose) == 0  # no mana to lose: no effect
    discount = Sleeve.of("Earthchant Chorus").total(mv.DISCOUNT_SAME_CARD, mv.IN_FIELD)
    assert max(0, adv("Podlings").cost - discount) == 0 and max(0, adv("Stag").cost - discount) == 2
    # The declared advancement must fit an open slot of the Chorus's card.
    assert adv("Podlings").slot == adv("Earthchant Chorus").slot
    Sleeve.of("Earthchant Chorus", "Stag")


def test_clarification_conclave_of_ents_gives_grovetender_a_growth():
    on_deck = Sleeve.of("Grovetender", extra_guardian=vale("Conclave of Ents").ability.effects[0].amount)
    assert on_deck.growth() == 1 and Sleeve.of("Grovetender").growth() == 0


def test_clarification_sunstone_aerie_ley_line_nexus():
    nexus = vale("Ley Line Nexus").cost
    assert not pays([mv.ANIMAL, mv.FOREST], [nexus])
    assert pays([mv.WILD, mv.FOREST], [nexus])  # the animal treated as wild for 2 mana
    assert vale("Sunstone Aerie").ability.effects == (F(mv.WILD_FOR_MANA, 2),)


def test_clarification_stream_of_vigor_and_buy_limits():
    extra = sum(e.amount for e in vale("Stream of Vigor").ability.effects if e.op == mv.BUY_LIMIT)
    assert mv.ADVANCEMENT_BUYS + extra == 3


def test_clarification_spoil_arithmetic_of_the_starting_deck():
    cursed = [Sleeve.of(base=c) for c in CURSED_LAND]
    assert sum(s.decay() for s in cursed[:2]) + cursed[2].decay() == mv.PREP_DECAY  # prep: 2 + 1 on-deck
    assert 4 * cursed[0].decay() >= mv.SPOIL_DECAY  # a fourth Cursed Land spoils
    growth = Sleeve.of("Moonwell Shrine").growth()
    assert 4 * cursed[0].decay() - growth < mv.SPOIL_DECAY  # one growth: 5 decay to spoil


# --- the docs tables -----------------------------------------------------------------------------------
def test_docs_tables_list_every_card_once():
    table = DOC_TABLES["advancements"]()
    for a in commons():
        assert len(re.findall(rf"^\| {a.id} \| {re.escape(a.name)} \|", table, re.M)) == 1
    vales = DOC_TABLES["vales"]()
    for v in VALES:
        assert len(re.findall(rf"^\| {v.id} \| {re.escape(v.name)} \|", vales, re.M)) == 1
    assert "| 1 | 11 | 33 | 3.18 (2-4) |" in DOC_TABLES["curves"]()


def test_docs_tables_command_prints_blocks_and_refuses_arguments(capsys):
    main([])
    out = capsys.readouterr().out
    assert all(f"<!-- generated:{name} -->" in out for name in DOC_TABLES)
    with pytest.raises(SystemExit, match=r"usage: python -m mystic_envs\.mystic_vale\.docs_tables"):
        main(["x"])


def test_every_test_the_rules_page_names_exists():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    names = set(re.findall(r"`(test_[a-z0-9_]+)`", (root / "docs" / "rules" / "mystic_vale.md").read_text()))
    sources = "\n".join(p.read_text() for p in (root / "tests").rglob("test_*.py"))
    assert names and not sorted(n for n in names if f"def {n}(" not in sources)
