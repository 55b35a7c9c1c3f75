"""What one sleeved card and one vale do, read from the ability rows of ``cards.py``.

A card's contents change only when an advancement is sleeved on it, so its reading (a ``Profile``)
is computed once per distinct content and cached; the rules engine asks the profile, never a card
name. Every (trigger, op) pair the data uses must be one the engine interprets: an unknown pair
is an error at import, so a new card cannot be silently ignored.
"""

from __future__ import annotations

from typing import NamedTuple

from mystic_envs.mystic_vale.cards import (
    ADD_GUARDIAN,
    ADVANCEMENTS,
    ANY_TIME,
    BUY_LIMIT,
    DECAY_CAP,
    DISCARD_FROM_FIELD,
    DISCOUNT_SAME_CARD,
    END_GAME,
    END_VP,
    GAIN_MANA,
    GAIN_SPIRIT,
    GAIN_VP,
    GROWTH,
    HARVEST,
    IN_FIELD,
    LOSE_MANA,
    ONE_PER_PLAYER,
    ONGOING,
    PEEK_TOP,
    PER_GUARDIAN_ON_CARD,
    PER_ONE,
    PER_OTHER_FIELD_CARD,
    PER_SYMBOL_ON_CARD,
    PER_TWO_FIELD_CARDS,
    REDRAW_ON_DECK,
    SACRIFICE_FOR_GROWTH,
    SEARCH_DECK,
    STARTING_DECK,
    VALES,
    WHEN_PLAYED,
    WILD_FOR_MANA,
    WOULD_SPOIL,
    Effect,
)

# (trigger, op) pairs the engine interprets, for advancements and for vales.
ADVANCEMENT_OPS = frozenset(
    {
        (ONGOING, GROWTH),
        (ONGOING, DECAY_CAP),
        (HARVEST, GAIN_MANA),
        (HARVEST, GAIN_VP),
        (HARVEST, GAIN_SPIRIT),
        (IN_FIELD, LOSE_MANA),
        (IN_FIELD, DISCOUNT_SAME_CARD),
        (WOULD_SPOIL, REDRAW_ON_DECK),
        (WHEN_PLAYED, DISCARD_FROM_FIELD),
        (WHEN_PLAYED, PEEK_TOP),
        (WHEN_PLAYED, SEARCH_DECK),
        (END_GAME, END_VP),
    }
)
VALE_OPS = frozenset(
    {
        (HARVEST, GAIN_MANA),
        (HARVEST, GAIN_SPIRIT),
        (HARVEST, GAIN_VP),
        (HARVEST, BUY_LIMIT),
        (HARVEST, WILD_FOR_MANA),
        (ONGOING, GROWTH),
        (ONGOING, ONE_PER_PLAYER),
        (WOULD_SPOIL, REDRAW_ON_DECK),
        (WOULD_SPOIL, SACRIFICE_FOR_GROWTH),
        (ANY_TIME, ADD_GUARDIAN),
    }
)
# A vale's multiplier can only be ``one``: it is on no card and in no field.
_VALE_PERS = frozenset({PER_ONE})


def _check_vocabulary() -> None:
    for a in ADVANCEMENTS:
        for e in a.ability.effects:
            if (a.ability.trigger, e.op) not in ADVANCEMENT_OPS:
                raise ValueError(f"advancement {a.name!r}: the engine does not interpret {a.ability}")
    for v in VALES:
        for e in v.ability.effects:
            if (v.ability.trigger, e.op) not in VALE_OPS or e.per not in _VALE_PERS:
                raise ValueError(f"vale {v.name!r}: the engine does not interpret {v.ability}")


_check_vocabulary()

# --- the starting cards: the same 20 in every deck, by card index -----------------------------------
START_PRINTED: tuple[int, ...] = tuple(sc.printed for sc in STARTING_DECK for _ in range(sc.copies))
NUM_CARDS = len(START_PRINTED)  # 20: a player's cards never change in number
# Tuples, not cards.py's numpy copies: the engine indexes them with Python ints, one at a time.
ADVANCEMENT_COST = tuple(a.cost for a in ADVANCEMENTS)
ADVANCEMENT_SLOT = tuple(a.slot for a in ADVANCEMENTS)


class Profile(NamedTuple):
    """What one card (a sleeve) counts as, from its printed symbols and its active abilities."""

    decay: int  # after the decay caps (Seedling, Lifebringer Seed)
    growth: int  # printed growth + per-guardian growth for the printed guardians
    growth_per_guardian: int  # growth each added guardian gives (Grovetender, Elder Oakheart)
    guardians: int  # printed
    mana: int  # printed
    spirits: tuple[int, int, int, int]  # printed animal, forest, sky, wild
    harvest_vp: int  # printed left-side VP
    harvest: tuple[Effect, ...]  # Harvest rows of the active abilities
    guardian_harvest: bool  # some Harvest row counts the card's guardians
    lose_mana: int  # Grassland
    discount: int  # Earthchant Chorus (0: none)
    redraw: int  # Peacekeeper Druid: saved spoils a turn
    when_played: tuple[tuple[int, bool], ...]  # (op, optional) in slot order
    symbols: int  # every printed symbol (Gaia's Chosen)
    end_vp: int  # printed end VP + end-game abilities
    level3: int  # level-3 advancements (the tiebreak)


def active_parts(slots: tuple[int, int, int], band: int) -> list[int]:
    """The advancements of a card whose abilities count: a banded one only if it is the band on
    top (``band`` is the slot of the banded advancement sleeved last, I-1)."""
    return [a for a in slots if a >= 0 and (not ADVANCEMENTS[a].band or ADVANCEMENTS[a].slot == band)]


_CACHE: dict[tuple[int, int, int, int], Profile] = {}


def profile(slots: tuple[int, int, int], band: int) -> Profile:
    """The reading of a card holding ``slots`` (advancement id or -1 per slot) with band ``band``."""
    key = (slots[0], slots[1], slots[2], band)
    p = _CACHE.get(key)
    if p is None:
        p = _CACHE[key] = _read(slots, band)
    return p


def _read(slots: tuple[int, int, int], band: int) -> Profile:
    parts = [a for a in slots if a >= 0]
    sym = [0] * 8
    hvp = evp = level3 = 0
    for a in parts:
        adv = ADVANCEMENTS[a]
        for k in range(8):
            sym[k] += adv.symbols[k]
        hvp += adv.harvest_vp
        evp += adv.end_vp
        level3 += adv.level == 3 and adv.kind == 0
    mana, decay, growth, guardians = sym[0], sym[1], sym[2], sym[3]
    symbols = sum(sym)
    cap = decay
    gpg = lose = discount = redraw = 0
    harvest: list[Effect] = []
    when_played: list[tuple[int, bool]] = []
    for a in active_parts(slots, band):
        ab = ADVANCEMENTS[a].ability
        for e in ab.effects:
            t, op = ab.trigger, e.op
            if t == ONGOING and op == GROWTH:
                if e.per == PER_GUARDIAN_ON_CARD:
                    gpg += e.amount
                else:
                    growth += e.amount
            elif t == ONGOING and op == DECAY_CAP:
                cap = min(cap, e.amount)
            elif t == HARVEST:
                harvest.append(e)
            elif t == IN_FIELD and op == LOSE_MANA:
                lose += e.amount
            elif t == IN_FIELD and op == DISCOUNT_SAME_CARD:
                discount = max(discount, e.amount)
            elif t == WOULD_SPOIL:
                redraw += e.amount
            elif t == WHEN_PLAYED:
                when_played.extend([(op, ab.optional)] * e.amount)
            elif t == END_GAME:
                evp += e.amount * (symbols if e.per == PER_SYMBOL_ON_CARD else 1)
    return Profile(
        decay=min(decay, cap),
        growth=growth + gpg * guardians,
        growth_per_guardian=gpg,
        guardians=guardians,
        mana=mana,
        spirits=(sym[4], sym[5], sym[6], sym[7]),
        harvest_vp=hvp,
        harvest=tuple(harvest),
        guardian_harvest=any(e.per == PER_GUARDIAN_ON_CARD for e in harvest),
        lose_mana=lose,
        discount=discount,
        redraw=redraw,
        when_played=tuple(when_played),
        symbols=symbols,
        end_vp=evp,
        level3=level3,
    )


def multiplier(per: int, guardians: int, field_cards: int) -> int:
    """``per`` for a card in a field of ``field_cards`` cards with ``guardians`` guardians."""
    if per == PER_ONE:
        return 1
    if per == PER_GUARDIAN_ON_CARD:
        return guardians
    if per == PER_OTHER_FIELD_CARD:
        return field_cards - 1
    if per == PER_TWO_FIELD_CARDS:
        return field_cards // 2
    raise ValueError(f"multiplier {per} has no meaning in a Harvest")


# --- vales: each ability's rows, by what the engine asks of them ------------------------------------
def _vale_sum(op: int, trigger: int) -> tuple[int, ...]:
    return tuple(
        sum(e.amount for e in v.ability.effects if e.op == op) if v.ability.trigger == trigger else 0
        for v in VALES
    )


VALE_HARVEST: tuple[tuple[Effect, ...], ...] = tuple(
    tuple(e for e in v.ability.effects if e.op in (GAIN_MANA, GAIN_SPIRIT, GAIN_VP))
    if v.ability.trigger == HARVEST
    else ()
    for v in VALES
)
VALE_BUY_LIMIT = _vale_sum(BUY_LIMIT, HARVEST)
VALE_WILD_FOR_MANA = _vale_sum(WILD_FOR_MANA, HARVEST)  # the mana price (0: no such ability)
VALE_GROWTH = _vale_sum(GROWTH, ONGOING)
VALE_ONE_PER_PLAYER = tuple(bool(x) for x in _vale_sum(ONE_PER_PLAYER, ONGOING))
VALE_REDRAW = _vale_sum(REDRAW_ON_DECK, WOULD_SPOIL)
VALE_SACRIFICE = _vale_sum(SACRIFICE_FOR_GROWTH, WOULD_SPOIL)
VALE_ADD_GUARDIAN = _vale_sum(ADD_GUARDIAN, ANY_TIME)
VALE_LEVEL = tuple(v.level for v in VALES)
VALE_END_VP = tuple(v.end_vp for v in VALES)
VALE_COSTS = tuple(tuple(v.cost) for v in VALES)  # animal, forest, sky, wild
