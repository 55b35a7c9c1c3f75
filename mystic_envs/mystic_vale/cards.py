"""Mystic Vale component data: every advancement, vale and starting card, as declarations only.

The published card list is not public (``../shared/research/mystic_vale_known.md``). What is known
is kept exactly: the component counts, the 20 confirmed advancement names with the abilities of the
rulebook's Card Clarifications and the symbols its worked examples force (Stag 2 guardians and the
example's animal and decay; Dawnsinger, Feral Chieftain and Woodland Warden 1 guardian each;
Dawnsinger's sky; Grovetender, Gaia's Chosen and Lifebringer Seed no guardian; Hulking Thornhide a
decay; Gaia's Chosen 2 end-game VP; Podlings cost 2), the 22 known vale names with their spirit
costs and the 10 rulebook vale abilities. Everything else (levels, copies, costs, slots, the other
symbols and VP, 12 advancement names, Elder Oakheart's ability and 3 vale abilities) is designed,
with its reason in ``why``; ``source`` says what a row takes from the rulebook (RB) or the
research file. The tables in ``docs/rules/mystic_vale.md`` are generated from this module
(``docs_tables.py``).

Cards and advancements
----------------------

A *card* is a sleeve: a starting card plus up to three advancements, one per slot (top, middle,
bottom). Printed parts of starting cards (Cursed Land, Fertile Soil) are advancements too. A few
advancements carry a *long-wise band*: their ability runs down the card's side, so two banded
advancements on one card overlap; the rulebook allows that one exception to "never cover an
advancement", and only the ability sleeved last is active (the covered one is ignored, its
symbols still count). Symbols (``Symbols``): mana, decay, growth, guardian and the four spirits
(animal, forest, sky, wild). The left side of an advancement shows harvest VP *or* decay (Card
Anatomy), never both.

Ability vocabulary
------------------

An ability is data: a trigger (when it acts), a tuple of ``Effect(op, amount, per, arg)`` rows
(what it does: ``amount`` times the multiplier ``per``; ``arg`` a spirit where the op needs one)
and ``optional`` (the owner may decline it; otherwise it must resolve, as the rulebook says of
Harvest abilities). The engine interprets these rows; no card has code of its own. Every ability
acts at most once per turn (Using Abilities) unless its op says otherwise.

Triggers (``TRIGGER_NAMES``):

- ``none``: never; a card of symbols only.
- ``when played``: as the card goes from on-deck into the field (planting or prep), before the
  next on-deck card is revealed; never while on-deck.
- ``harvest``: once in the Harvest Phase, when the owner picks, while the card is in the field
  (a vale: owned and not bought this turn); never after a spoil.
- ``ongoing``: always, wherever the card is (deck, on-deck, field, discard pile); a vale: always.
- ``in field``: a standing rule while the card is in the field during the Harvest Phase.
- ``would spoil``: in the Planting (or Prep) Phase, when a reveal would make the owner spoil.
- ``any time``: once per turn, at any moment of the owner's turn (Prep included).
- ``end game``: only when points are counted at the end.

Ops (``OP_NAMES``; each acts ``amount`` times ``per``):

- ``gain mana``: extra mana to spend this Harvest.
- ``lose mana``: the Harvest's mana total falls by ``amount`` (never below 0).
- ``gain spirit``: spirits of kind ``arg`` to spend on vales this Harvest.
- ``gain vp``: VP tokens from the pool (from the box once the pool is empty).
- ``end vp``: end-game points.
- ``growth``: growth against decay (an advancement's counts while its card is in the field or
  on-deck; a vale's always).
- ``decay cap``: the whole card counts at most ``amount`` decay (0: none).
- ``discard from field``: may discard one other card already in the field (nothing if this card
  is the first).
- ``peek top``: look at the top card of the deck, then discard it or put it back; then the next
  on-deck card is revealed.
- ``search deck``: search the deck (an empty deck is first refilled from the discard pile) for
  any card, may discard it, then shuffle the deck; only the owner sees the deck.
- ``redraw on deck``: instead of spoiling, discard the on-deck card and reveal a new one (spoil if
  that still spoils); used in Prep, it is spent for the next Planting.
- ``sacrifice for growth``: return this vale to the box and gain ``amount`` growth (used in Prep:
  until the next Prep).
- ``add guardian``: a card in the field or on-deck has ``amount`` more guardian until the turn
  ends (used in Prep: through the next Planting).
- ``wild for mana``: spend ``amount`` mana; one animal, forest or sky spirit counts as wild this
  turn.
- ``discount same card``: an advancement declared for an open slot of this card costs ``amount``
  less (min 0) and must be sleeved there; not on the turn this card is bought.
- ``buy limit``: ``amount`` more advancements may be bought this turn.
- ``one per player``: a player who owns a copy may not buy another.

Multipliers (``PER_NAMES``):

- ``one``: 1.
- ``guardian on card``: guardians on this card (every advancement in its sleeve, this one's own
  included, plus any added this turn).
- ``other field card``: cards in the field other than this card (on-deck not counted).
- ``two field cards``: field cards // 2, this card included (on-deck not counted).
- ``symbol on card``: printed wild, animal, forest, sky, guardian, decay, growth and mana symbols
  on the card, text effects ignored.

The timed-choice families the issue names, and their encoding:

| ability | trigger | op |
|---|---|---|
| Calm Weather | when played | ``peek top`` 1 |
| Cleansing Rain | when played | ``search deck`` 1 |
| Deadwood Harvester, Mindful Owl | when played, optional | ``discard from field`` 1 |
| Peacekeeper Druid | would spoil, optional | ``redraw on deck`` 1 |
| Blooming Arbor (vale) | would spoil, optional | ``sacrifice for growth`` 1 |
| Conclave of Ents (vale) | any time, optional | ``add guardian`` 1 |
| Sunstone Aerie (vale) | harvest, optional | ``wild for mana`` 2 |
| Grassland | in field | ``lose mana`` 1 |
| Magic Seed | harvest | ``gain mana`` 1 per other field card |
| Seedling | ongoing | ``decay cap`` 1 |
| Lifebringer Seed | ongoing | ``decay cap`` 0 |
| Grovetender | ongoing | ``growth`` 1 per guardian on card |
| Gaia's Chosen | end game | ``end vp`` 1 per symbol on card |
| Aurora | harvest | ``gain vp`` 1 per two field cards |
| Dawnsinger | harvest | ``gain mana`` 1 per guardian on card |
| Feral Chieftain | harvest | ``gain vp`` 1 per guardian on card |
| Woodland Warden | harvest | ``gain vp`` 2 per guardian on card |
| Earthchant Chorus | in field, optional | ``discount same card`` 2 |

The designed abilities reuse these rows: Elder Oakheart (Grovetender's growth), Heartwood
Sanctuary (Peacekeeper Druid's redraw), Fungal Forest and Skyhaven (vale producers), and
Skyhaven's VP token on Exodus Road, World Tree, Blessed Savanna, Shimmering Brook and Webwood
Canopy (the game-length fix of issue 19, docs "Balance").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# --- slots, spirits, kinds ----------------------------------------------------------------------
TOP, MIDDLE, BOTTOM = range(3)
SLOT_NAMES = ("top", "middle", "bottom")
ANIMAL, FOREST, SKY, WILD = range(4)
SPIRIT_NAMES = ("animal", "forest", "sky", "wild")
COMMONS, FERTILE, PRINTED = range(3)  # a level deck's advancement, the Fertile Soil supply, a starting card's
KIND_NAMES = ("commons", "Fertile Soil supply", "printed on a starting card")

# --- the ability vocabulary (see the module docstring) ------------------------------------------
NONE, WHEN_PLAYED, HARVEST, ONGOING, IN_FIELD, WOULD_SPOIL, ANY_TIME, END_GAME = range(8)
TRIGGER_NAMES = ("none", "when played", "harvest", "ongoing", "in field", "would spoil", "any time",
                 "end game")  # fmt: skip

(GAIN_MANA, LOSE_MANA, GAIN_SPIRIT, GAIN_VP, END_VP, GROWTH, DECAY_CAP, DISCARD_FROM_FIELD, PEEK_TOP,
 SEARCH_DECK, REDRAW_ON_DECK, SACRIFICE_FOR_GROWTH, ADD_GUARDIAN, WILD_FOR_MANA, DISCOUNT_SAME_CARD,
 BUY_LIMIT, ONE_PER_PLAYER) = range(17)  # fmt: skip
OP_NAMES = ("gain mana", "lose mana", "gain spirit", "gain vp", "end vp", "growth", "decay cap",
            "discard from field", "peek top", "search deck", "redraw on deck", "sacrifice for growth",
            "add guardian", "wild for mana", "discount same card", "buy limit", "one per player")  # fmt: skip
NUM_OPS = len(OP_NAMES)

PER_ONE, PER_GUARDIAN_ON_CARD, PER_OTHER_FIELD_CARD, PER_TWO_FIELD_CARDS, PER_SYMBOL_ON_CARD = range(5)
PER_NAMES = ("one", "guardian on card", "other field card", "two field cards", "symbol on card")


class Effect(NamedTuple):
    """One row of an ability: ``op`` acts ``amount`` times the multiplier ``per``; ``arg`` a spirit."""

    op: int
    amount: int = 1
    per: int = PER_ONE
    arg: int = 0


class Ability(NamedTuple):
    trigger: int
    effects: tuple[Effect, ...]
    optional: bool  # the owner may decline it; otherwise it must resolve
    text: str


NO_ABILITY = Ability(NONE, (), False, "")


class Symbols(NamedTuple):
    """The symbols printed on one advancement (counted as printed; abilities add nothing here)."""

    mana: int = 0
    decay: int = 0
    growth: int = 0
    guardian: int = 0
    animal: int = 0
    forest: int = 0
    sky: int = 0
    wild: int = 0

    @property
    def spirits(self) -> tuple[int, int, int, int]:
        return (self.animal, self.forest, self.sky, self.wild)


SYMBOL_NAMES = Symbols._fields


class Advancement(NamedTuple):
    id: int
    name: str
    kind: int  # COMMONS, FERTILE or PRINTED
    level: int  # 1-3; the Fertile Soil supply and the printed parts count as level 1
    copies: int  # in the game box (PRINTED: per player's starting deck)
    cost: int  # mana; PRINTED parts are never bought (0)
    slot: int
    band: bool  # a long-wise ability band (may cover, or be covered by, another band)
    symbols: Symbols
    harvest_vp: int  # left side, blue: VP tokens each Harvest the card is in the field
    end_vp: int  # right side, gray: points at the end
    ability: Ability
    source: str  # what comes from the rulebook (RB) or the research file; the rest is designed
    why: str


class Cost(NamedTuple):
    """A vale's spirit cost; each symbol is paid by one spirit (a wild cost by any spirit)."""

    animal: int = 0
    forest: int = 0
    sky: int = 0
    wild: int = 0

    @property
    def total(self) -> int:
        return self.animal + self.forest + self.sky + self.wild


class Vale(NamedTuple):
    id: int
    name: str
    level: int  # 1-2
    copies: int
    cost: Cost
    end_vp: int
    ability: Ability
    source: str
    why: str


class StartingCard(NamedTuple):
    name: str
    copies: int  # per player's 20-card deck
    printed: int  # advancement id printed on it; -1 for a blank card
    why: str


S, E, A, C = Symbols, Effect, Ability, Cost
# fmt: off
# --- the 96 commons advancements: 32 names x 3 copies --------------------------------------------
# (name, level, cost, slot, band, symbols, harvest VP, end VP, ability, source, why)
_COMMONS: tuple[tuple, ...] = (
    # Level 1 (11 names, 33 cards): cost 2-4, one or two symbols, no decay; VP tokens on the six
    # dearest (issue 28: points from the first rounds on, and spirits enough for a vale by round 5).
    ("Podlings", 1, 2, MIDDLE, False, S(forest=1), 0, 0, NO_ABILITY,
     "name, cost 2 (RB buying example; level 1 probable)",
     "The cheapest spirit: 2 mana, Fertile Soil's price, for a forest instead of a mana."),
    ("Hollow Burrow", 1, 3, BOTTOM, False, S(animal=1, sky=1), 1, 0, NO_ABILITY, "designed",
     "An animal and a sky (a burrow under a bird's perch) and a VP token each Harvest: half a "
     "level-1 vale on one part, 3 mana (issue 28; it was an animal and a growth, no VP)."),
    ("Windward Perch", 1, 3, TOP, False, S(sky=1, forest=1), 1, 0, NO_ABILITY, "designed",
     "A sky and a forest (a perch in the trees) and a VP token each Harvest: 3 mana (issue 28; "
     "it was Podlings' sky twin)."),
    ("Grassland", 1, 2, MIDDLE, False, S(animal=1, forest=1),
     0, 0, A(IN_FIELD, (E(LOSE_MANA, 1),), False,
             "While in your field in your Harvest Phase, your mana total is 1 less (never below 0)."),
     "name, ability (RB)",
     "Two spirits for 2 mana, paid for by a mana lost every Harvest it is in the field."),
    ("Wandering Sprite", 1, 4, TOP, False, S(wild=1, animal=1), 1, 0, NO_ABILITY, "designed",
     "A wild and an animal and a VP token each Harvest: the wild pays any cost, one mana above "
     "the two-spirit cards (issue 28; it was a wild alone for 3)."),
    ("Calm Weather", 1, 4, TOP, False, S(sky=1),
     1, 0, A(WHEN_PLAYED, (E(PEEK_TOP, 1),), False,
             "When Played: look at the top card of your deck, then discard it or put it back."),
     "name, ability (RB)",
     "A sky, a look at the next on-deck card (a Cursed Land seen can be thrown away) and a VP "
     "token each Harvest: level 1's first VP, 4 mana."),
    ("Seedling", 1, 3, BOTTOM, True, S(forest=1),
     0, 0, A(ONGOING, (E(DECAY_CAP, 1),), False, "Ongoing: this card has at most 1 decay."),
     "name, ability (RB)",
     "A forest plus insurance for a card that will carry a second decay: +1 mana; banded, as it "
     "speaks of the whole card."),
    ("Earthchant Chorus", 1, 3, MIDDLE, False, S(mana=1),
     0, 0, A(IN_FIELD, (E(DISCOUNT_SAME_CARD, 2),), True,
             "In your Harvest Phase, an advancement you declare for an open slot of this card costs 2 "
             "less (min 0) and must be sleeved there. Not on the turn this is bought."),
     "name, ability (RB)",
     "Fertile Soil's mana plus a 2-mana discount that needs an open slot beside it: +1 mana."),
    ("Mossback Tortoise", 1, 4, BOTTOM, False, S(guardian=1, animal=1), 1, 0, NO_ABILITY, "designed",
     "The level-1 guardian for the guardian cards, with an animal and a VP token each Harvest (a "
     "tortoise keeps): 4 mana."),
    ("Mindful Owl", 1, 4, TOP, False, S(sky=1),
     0, 0, A(WHEN_PLAYED, (E(DISCARD_FROM_FIELD, 1),), True,
             "When Played: you may discard one other card already in your field."),
     "name, ability (RB)",
     "Throwing a Cursed Land out of the field is a decay less this turn: the dearest level-1 ability."),
    ("Rootwell Spring", 1, 3, MIDDLE, False, S(mana=1, forest=1), 1, 0, NO_ABILITY, "designed",
     "Fertile Soil's mana with a forest and a VP token each Harvest: 3 mana (issue 28; it was a "
     "mana and a growth for 4, no VP)."),
    # Level 2 (10 names, 30 cards): cost 4-6, two or three symbols or a symbol and an ability;
    # 2 VP tokens each Harvest on the ones with no decay and no guardian ability.
    ("Stag", 2, 4, TOP, False, S(guardian=2, animal=1, decay=1), 0, 0, NO_ABILITY,
     "name; 2 guardians, the animal and the decay of the examples (RB, derived)",
     "The guardian battery (Dawnsinger + Stag = 3 mana); its decay pays for two guardians and an "
     "animal at 4 mana."),
    ("Hulking Thornhide", 2, 4, MIDDLE, False, S(animal=1, decay=1), 0, 3, NO_ABILITY,
     "name, a decay (RB Seedling note); a risky VP source (review)",
     "Cheap end-game points with a decay: the risky VP source, 3 end VP for 4 mana."),
    ("Grovetender", 2, 5, BOTTOM, True, S(forest=1),
     2, 0, A(ONGOING, (E(GROWTH, 1, PER_GUARDIAN_ON_CARD),), False,
             "Ongoing: this advancement has +1 growth for each guardian on this card."),
     "name, ability, no guardian or growth of its own (RB)",
     "A forest whose growth comes from the guardians sleeved beside it (2 with Stag), and 2 VP "
     "tokens each Harvest: level 2's harvest VP rate."),
    ("Lifebringer Seed", 2, 5, MIDDLE, True, S(), 2, 1,
     A(ONGOING, (E(DECAY_CAP, 0),), False, "Ongoing: this card has no decay."),
     "name, ability, no symbols (RB examples)",
     "No symbols (the Gaia's Chosen example) but a whole card's decay gone, 2 VP tokens each "
     "Harvest and 1 end-game VP."),
    ("Dawnsinger", 2, 5, MIDDLE, False, S(guardian=1, sky=1),
     0, 0, A(HARVEST, (E(GAIN_MANA, 1, PER_GUARDIAN_ON_CARD),), False,
             "Harvest: +1 mana for each guardian on this card."),
     "name, ability, 1 guardian, the sky (RB examples)",
     "1 mana alone, 3 beside Stag: the mana engine of the guardian family."),
    ("Feral Chieftain", 2, 5, BOTTOM, False, S(guardian=1, animal=1, growth=1),
     0, 0, A(HARVEST, (E(GAIN_VP, 1, PER_GUARDIAN_ON_CARD),), False,
             "Harvest: gain 1 VP for each guardian on this card."),
     "name, ability, 1 guardian (RB examples)",
     "Woodland Warden at half the VP and level 2's price; a growth, as the guardian family's "
     "chieftain keeps its card pushable."),
    ("Cleansing Rain", 2, 5, TOP, False, S(sky=1, growth=1),
     2, 0, A(WHEN_PLAYED, (E(SEARCH_DECK, 1),), False,
             "When Played: search your deck for any card and you may discard it; shuffle your deck."),
     "name, ability (RB)",
     "Calm Weather's bigger sibling: any card of the deck, not just the top one; a growth and 2 "
     "VP tokens each Harvest."),
    ("Deadwood Harvester", 2, 6, TOP, False, S(mana=1, forest=1),
     2, 0, A(WHEN_PLAYED, (E(DISCARD_FROM_FIELD, 1),), True,
             "When Played: you may discard one other card already in your field."),
     "name, ability (RB)",
     "Mindful Owl's ability with a mana beside the spirit and 2 VP tokens each Harvest: 6 mana."),
    ("Peacekeeper Druid", 2, 6, TOP, False, S(guardian=1, sky=1),
     2, 0, A(WOULD_SPOIL, (E(REDRAW_ON_DECK, 1),), True,
             "Once per turn, when you would spoil in your Planting (or Prep) Phase, you may discard "
             "your on-deck card and reveal a new one instead; used in Prep, not again in the next "
             "Planting."),
     "name, ability (RB)",
     "One saved spoil a turn, a guardian, a sky and 2 VP tokens each Harvest: a druid among the "
     "guardians, 6 mana."),
    ("Plow", 2, 6, BOTTOM, False, S(mana=1, growth=1), 2, 0, NO_ABILITY,
     "name; a safe VP source (review)",
     "The safe VP source: 2 VP tokens every Harvest, no decay, a mana and a growth: the dearest "
     "level 2."),
    # Level 3 (11 names, 33 cards): cost 6-9, VP: 3-4 tokens each Harvest on the no-decay cards,
    # end VP with a decay on the others.
    ("Magic Seed", 3, 6, MIDDLE, False, S(decay=1),
     0, 0, A(HARVEST, (E(GAIN_MANA, 1, PER_OTHER_FIELD_CARD),), False,
             "Harvest: +1 mana for each other card in your field."),
     "name, ability (RB)",
     "About 5 mana in a 6-card field: the biggest mana source, so it carries a decay."),
    ("Gaia's Chosen", 3, 7, BOTTOM, False, S(), 0, 2,
     A(END_GAME, (E(END_VP, 1, PER_SYMBOL_ON_CARD),), False,
       "End of game: +1 VP for each wild, animal, forest, sky, guardian, decay, growth and mana "
       "symbol on this card, ignoring text effects."),
     "name, ability, 2 end-game VP, no symbols (RB examples)",
     "2 VP and more for a crowded card (8 beside Stag and Dawnsinger)."),
    ("Ironbark Sentinel", 3, 7, TOP, False, S(guardian=2, animal=1, decay=1), 0, 2, NO_ABILITY, "designed",
     "The level-3 Stag (two guardians, an animal, a decay) with 2 end-game VP for 3 mana more; on "
     "Stag's top slot, so no card holds both."),
    ("Moonwell Shrine", 3, 7, MIDDLE, False, S(mana=2, growth=1), 1, 1, NO_ABILITY, "designed",
     "A safe level 3: 2 mana, a growth, a VP token each Harvest and 1 end VP, no decay (3 tokens a "
     "Harvest made the last rounds decide the game: issue 28)."),
    ("Aurora", 3, 8, TOP, False, S(sky=1, growth=1),
     0, 0, A(HARVEST, (E(GAIN_VP, 1, PER_TWO_FIELD_CARDS),), False,
             "Harvest: gain 1 VP for every 2 cards in your field (rounded down)."),
     "name, ability (RB)",
     "About 3 VP tokens a Harvest in a 6-7 card field (4 with 9), and a growth for a bigger "
     "field: VP now, none at the end."),
    ("Woodland Warden", 3, 7, BOTTOM, False, S(guardian=1, forest=1),
     0, 0, A(HARVEST, (E(GAIN_VP, 2, PER_GUARDIAN_ON_CARD),), False,
             "Harvest: gain 2 VP for each guardian on this card."),
     "name, ability, 1 guardian (RB examples)",
     "2 VP a Harvest alone, 6 beside Stag: the guardian family's payoff, 7 mana (at 8 it was the "
     "least bought level 3)."),
    ("Stormcrest Roc", 3, 8, TOP, False, S(sky=2), 1, 1, NO_ABILITY, "designed",
     "Two skies, a VP token each Harvest and 1 end VP, no decay (3 tokens a Harvest made the last "
     "rounds decide the game: issue 28)."),
    ("Thunderhoof Matriarch", 3, 8, BOTTOM, False, S(animal=2), 1, 1, NO_ABILITY, "designed",
     "Stormcrest Roc in animals."),
    ("Primal Confluence", 3, 8, TOP, False, S(wild=2, decay=1), 0, 2, NO_ABILITY, "designed",
     "Two wilds pay any costs, 2 end-game VP with a decay (3 before issue 28)."),
    ("Elder Oakheart", 3, 9, MIDDLE, True, S(forest=1, guardian=1, decay=1),
     0, 3, A(ONGOING, (E(GROWTH, 1, PER_GUARDIAN_ON_CARD),), False,
             "Ongoing: this advancement has +1 growth for each guardian on this card."),
     "designed (Grovetender's ability)",
     "3 VP (4 before issue 28) whose own guardian grows away its decay; each further guardian is "
     "a growth more."),
    ("Bramblecrown Colossus", 3, 9, BOTTOM, False, S(forest=1, animal=1), 2, 1, NO_ABILITY, "designed",
     "The dearest card: two spirits, 2 VP tokens each Harvest and 1 end VP, with no decay (5 "
     "tokens a Harvest before issue 28)."),
)

# --- Fertile Soil: the separate supply (6 per slot) and the parts printed on starting cards -----------
_FERTILE_WHY = "Cost 2, 1 mana, 6 per slot (research: rulebook example, review, virtual tabletop)."
_CURSED_WHY = ("1 decay (prep stops at two Cursed Land in the field and one on-deck; Seedling on a bare "
               "Cursed Land does nothing) and 1 mana (a review); 3 per slot (inferred from the images).")


def _build_advancements() -> tuple[Advancement, ...]:
    rows: list[Advancement] = []
    for name, level, cost, slot, band, sym, hvp, evp, ability, source, why in _COMMONS:
        rows.append(Advancement(len(rows), name, COMMONS, level, 3, cost, slot, band, sym, hvp, evp, ability,
                                source, why))
    for slot in range(3):
        rows.append(Advancement(len(rows), "Fertile Soil", FERTILE, 1, 6, 2, slot, False, S(mana=1), 0, 0,
                                NO_ABILITY, "cost, mana, 6 per slot (RB, research)", _FERTILE_WHY))
    for slot in range(3):
        rows.append(Advancement(len(rows), "Cursed Land", PRINTED, 1, 3, 0, slot, False,
                                S(mana=1, decay=1), 0, 0, NO_ABILITY,
                                "1 decay (RB); 1 mana (review); slots inferred", _CURSED_WHY))
    return tuple(rows)
# fmt: on


ADVANCEMENTS: tuple[Advancement, ...] = _build_advancements()
COMMONS_IDS: tuple[int, ...] = tuple(a.id for a in ADVANCEMENTS if a.kind == COMMONS)
FERTILE_SOIL: tuple[int, int, int] = tuple(a.id for a in ADVANCEMENTS if a.kind == FERTILE)  # by slot
CURSED_LAND: tuple[int, int, int] = tuple(a.id for a in ADVANCEMENTS if a.kind == PRINTED)  # by slot
ADVANCEMENT_BY_NAME: dict[str, int] = {a.name.lower(): a.id for a in ADVANCEMENTS if a.kind == COMMONS}


def level_ids(level: int) -> tuple[int, ...]:
    """The commons advancement ids of ``level`` (1-3), one per name (each has ``copies`` cards)."""
    if level not in (1, 2, 3):
        raise ValueError(f"advancement level must be 1, 2 or 3, got {level!r}")
    return tuple(i for i in COMMONS_IDS if ADVANCEMENTS[i].level == level)


# --- the starting deck (each player's 20 cards) -----------------------------------------------------
STARTING_DECK: tuple[StartingCard, ...] = tuple(
    [StartingCard(f"Cursed Land ({SLOT_NAMES[s]})", 3, CURSED_LAND[s], _CURSED_WHY) for s in range(3)]
    + [
        StartingCard(
            f"Fertile Soil ({SLOT_NAMES[s]})",
            1,
            FERTILE_SOIL[s],
            "1 mana (review); one per slot, mirroring the supply's images (inferred).",
        )
        for s in range(3)
    ]
    + [StartingCard("Blank", 8, -1, "No advancement (RB): all three slots open.")]
)

# fmt: off
# --- the 36 vales ---------------------------------------------------------------------------------
# End-game VP = 2 per named spirit + 1 per wild in the cost - 1 - the ability's worth (2 for a
# per-Harvest spirit or mana, 3 for a wild, a VP token or permanent growth, 4 for two resources,
# 1 for a one-shot or a conditional ability), never below 1; issue 28 caps the level-2 lumps
# (Verdant Valley 6, Wellspring Glade 7, the four-of-a-kind VP-token vales 3).
# (name, level, copies, cost, end VP, ability, source, why)
_VALES: tuple[tuple, ...] = (
    ("Azure Lake", 1, 2, C(forest=1, animal=1), 1,
     A(HARVEST, (E(GAIN_MANA, 1),), False, "Harvest: +1 mana."),
     "name, cost (research); ability (RB)", "3 - 2 for a mana every Harvest."),
    ("Blooming Arbor", 1, 2, C(sky=1, forest=1), 2,
     A(WOULD_SPOIL, (E(SACRIFICE_FOR_GROWTH, 1),), True,
       "When you would spoil in your Planting (or Prep) Phase, you may return this vale to the box to "
       "gain 1 growth (used in Prep: until your next Prep)."),
     "name, cost (research); ability (RB)", "3 - 1 for a one-shot growth (the vale and its VP go)."),
    ("Cascading Falls", 1, 2, C(animal=2), 1,
     A(HARVEST, (E(GAIN_SPIRIT, 1, PER_ONE, SKY),), False, "Harvest: +1 sky spirit."),
     "name, cost (research); ability (RB)", "3 - 2 for a spirit every Harvest."),
    ("Exodus Road", 1, 2, C(animal=1, sky=1), 1, A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)",
     "3 - 3 for a VP token every Harvest (designed, Skyhaven's family), kept at the 1-VP floor: a road "
     "of travellers' tolls."),
    ("Ley Line Nexus", 1, 2, C(sky=1, forest=1), 3, NO_ABILITY,
     "name, cost (research; RB example)", "No ability in the rulebook: 3 VP."),
    ("Radiant Pinnacle", 1, 2, C(sky=2), 1,
     A(HARVEST, (E(GAIN_SPIRIT, 1, PER_ONE, FOREST),), False, "Harvest: +1 forest spirit."),
     "name, cost (research); ability (RB)", "3 - 2 for a spirit every Harvest."),
    ("Sunstone Aerie", 1, 2, C(animal=1, sky=1), 2,
     A(HARVEST, (E(WILD_FOR_MANA, 2),), True,
       "Harvest: you may spend 2 mana to treat one of your animal, forest or sky spirits as wild this turn."),
     "name, cost (research); ability (RB)", "3 - 1 for a conversion that costs 2 mana."),
    ("Talonthorn Den", 1, 2, C(forest=2), 1,
     A(HARVEST, (E(GAIN_SPIRIT, 1, PER_ONE, ANIMAL),), False, "Harvest: +1 animal spirit."),
     "name, cost (research); ability (RB)", "3 - 2 for a spirit every Harvest."),
    ("World Tree", 1, 2, C(forest=1, animal=1), 1, A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)",
     "3 - 3 for a VP token every Harvest (designed, Skyhaven's family), kept at the 1-VP floor."),
    ("Ancient Liferoots", 2, 2, C(sky=1, forest=3), 4,
     A(ONGOING, (E(GROWTH, 1), E(ONE_PER_PLAYER, 1)), False,
       "You always have +1 growth. You may not gain a second Ancient Liferoots."),
     "name, cost (research); ability, more than one copy (RB)", "7 - 3 for permanent growth; 2 copies."),
    ("Blessed Savanna", 2, 1, C(animal=4), 3, A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)",
     "7 - 3 for a VP token every Harvest (designed, Skyhaven's family), less 1 by issue 28's cap on "
     "the level-2 lumps (a contested lump went to the first seats)."),
    ("Conclave of Ents", 2, 1, C(wild=1, forest=1, sky=1, animal=1), 4,
     A(ANY_TIME, (E(ADD_GUARDIAN, 1),), True,
       "Once per turn, at any time: a card in your field or on-deck has +1 guardian until the turn ends "
       "(used in Prep: through your next Planting)."),
     "name, cost (research, possibly a copy of Feral Grove's); ability (RB)",
     "6 - 2 for a guardian every turn."),
    ("Feral Grove", 2, 1, C(wild=1, forest=1, sky=1, animal=1), 6, NO_ABILITY,
     "name, cost (research; RB example)", "No ability in the rulebook: 6 VP (a wild cost is easier)."),
    ("Fungal Forest", 2, 2, C(forest=1, sky=2), 1,
     A(HARVEST, (E(GAIN_SPIRIT, 1, PER_ONE, FOREST), E(GAIN_MANA, 1)), False,
       "Harvest: +1 forest spirit and +1 mana."),
     "name, cost (research)", "5 - 4 for a spirit and a mana every Harvest (designed, producer family)."),
    ("Heartwood Sanctuary", 2, 2, C(animal=1, forest=2), 3,
     A(WOULD_SPOIL, (E(REDRAW_ON_DECK, 1),), True,
       "Once per turn, when you would spoil in your Planting (or Prep) Phase, you may discard your "
       "on-deck card and reveal a new one instead; used in Prep, not again in the next Planting."),
     "name, cost (research)", "5 - 2 for Peacekeeper Druid's saved spoil (designed)."),
    ("Pool of Light", 2, 1, C(animal=1, sky=2), 2,
     A(HARVEST, (E(GAIN_SPIRIT, 1, PER_ONE, WILD),), False, "Harvest: +1 wild spirit."),
     "name, cost (research); ability (RB)", "5 - 3 for a wild every Harvest."),
    ("Shimmering Brook", 2, 1, C(sky=4), 3, A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)",
     "7 - 3 for a VP token every Harvest (designed, Skyhaven's family), less 1 by issue 28's cap on "
     "the level-2 lumps (a contested lump went to the first seats)."),
    ("Skyhaven", 2, 2, C(sky=1, animal=2), 2,
     A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)", "5 - 3 for a VP token every Harvest (designed)."),
    ("Stream of Vigor", 2, 2, C(forest=1, animal=2), 1,
     A(HARVEST, (E(GAIN_MANA, 2), E(BUY_LIMIT, 1)), False,
       "Harvest: +2 mana, and you may buy up to 3 advancements this turn."),
     "name, cost (research); ability (RB)", "5 - 4 for 2 mana and a third buy."),
    ("Verdant Valley", 2, 1, C(animal=3, sky=1, forest=1), 6, NO_ABILITY,
     "name, cost (research)",
     "No ability: 6 VP for five spirits (9 by the formula; issue 28's cap on the level-2 lumps)."),
    ("Webwood Canopy", 2, 1, C(forest=4), 3, A(HARVEST, (E(GAIN_VP, 1),), False, "Harvest: gain 1 VP."),
     "name, cost (research)",
     "7 - 3 for a VP token every Harvest (designed, Skyhaven's family), less 1 by issue 28's cap on "
     "the level-2 lumps (a contested lump went to the first seats)."),
    ("Wellspring Glade", 2, 1, C(forest=2, sky=2, animal=2), 7, NO_ABILITY,
     "name, cost (research)",
     "No ability: 7 VP for the dearest cost, six spirits (11 by the formula; issue 28's cap on the "
     "level-2 lumps)."),
)
# fmt: on

VALES: tuple[Vale, ...] = tuple(
    Vale(i, name, level, copies, cost, evp, ability, source, why)
    for i, (name, level, copies, cost, evp, ability, source, why) in enumerate(_VALES)
)
VALE_BY_NAME: dict[str, int] = {v.name.lower(): v.id for v in VALES}


def vale_ids(level: int) -> tuple[int, ...]:
    """The vale ids of ``level`` (1-2), one per name (each has ``copies`` cards)."""
    if level not in (1, 2):
        raise ValueError(f"vale level must be 1 or 2, got {level!r}")
    return tuple(v.id for v in VALES if v.level == level)


# --- setup and turn constants (rulebook) --------------------------------------------------------------
PLAYER_COUNTS = (2, 3, 4)
DECK_SIZE = 20  # every player always owns 20 cards
LEVEL1_CUT = {2: 12, 3: 15, 4: 18}  # level-1 advancements counted out; the rest stay in the box
VP_POOL = {2: 23, 3: 28, 4: 33}
VP_TOKENS_IN_BOX = {1: 44, 5: 10}  # token value -> count (94 VP: overflow once the pool is empty)
COMMONS_FACE_UP = 3  # per level
VALES_FACE_UP = 4  # per level
ADVANCEMENT_BUYS = 2  # per turn (Stream of Vigor: 3)
VALE_BUYS = 2  # per turn
SPOIL_DECAY = 4  # decay revealed (field + on-deck) minus growth that spoils
PREP_DECAY = 3  # prep plays on-deck cards until this much decay shows
SLOTS_PER_CARD = 3
MANA_TOKEN_MANA = 1
NUM_ADVANCEMENT_CARDS = {1: 33, 2: 30, 3: 33}
NUM_FERTILE_SOIL = 18
NUM_VALE_CARDS = {1: 18, 2: 18}
STARTING_COUNTS = {"Cursed Land": 9, "Fertile Soil": 3, "Blank": 8}

# --- hot-path copies (numpy, built once) ------------------------------------------------------------
ADV_SYMBOLS = np.array([a.symbols for a in ADVANCEMENTS], dtype=np.int8)  # (advancements, 8) in SYMBOL_NAMES
ADV_COST = np.array([a.cost for a in ADVANCEMENTS], dtype=np.int8)
ADV_LEVEL = np.array([a.level for a in ADVANCEMENTS], dtype=np.int8)
ADV_SLOT = np.array([a.slot for a in ADVANCEMENTS], dtype=np.int8)
ADV_HARVEST_VP = np.array([a.harvest_vp for a in ADVANCEMENTS], dtype=np.int8)
ADV_END_VP = np.array([a.end_vp for a in ADVANCEMENTS], dtype=np.int8)
VALE_COST = np.array([v.cost for v in VALES], dtype=np.int8)  # (vales, 4) animal, forest, sky, wild
VALE_END_VP = np.array([v.end_vp for v in VALES], dtype=np.int8)
