"""Mystic Vale observer: state -> float32 vector for one seat, egocentric.

Seat blocks come in turn order from the observer (its own first, then seat + 1, ...). Every
seat's 20 cards are described by index: what is sleeved on each (public: every advancement is
bought and sleeved in the open) and where the card is. The observer's own cards show their zone
(deck, field, on-deck, discard pile); another seat's show field and on-deck, and only "deck or
discard pile" for the rest (its discard pile is private to it). Deck order is never in it; the one
deck card the observer may know, the top card it looks at with Calm Weather, is its own
``peeked`` entry. The commons, the vale rows, pile sizes, VP tokens, mana tokens, vales and the
active player's Harvest (mana, spirits, purchases) are public. ``build_layout_for(n)`` is the
documented layout.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import UNIT, Bounds, LayoutEntry, build_layout
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENT_BUYS,
    ADVANCEMENTS,
    COMMONS_IDS,
    GAIN_MANA,
    GAIN_SPIRIT,
    GAIN_VP,
    PER_GUARDIAN_ON_CARD,
    PER_OTHER_FIELD_CARD,
    PER_TWO_FIELD_CARDS,
    VALE_BUYS,
    VALES,
    VP_POOL,
)
from mystic_envs.mystic_vale.decisions import (
    DISCARDING,
    GAME_OVER,
    HARVESTING,
    PEEK,
    PHASE_NAMES,
    SEARCH,
    SLEEVE,
    STAGE_NAMES,
    WP_DISCARD,
)
from mystic_envs.mystic_vale.sleeves import (
    NUM_CARDS,
    VALE_ADD_GUARDIAN,
    VALE_BUY_LIMIT,
    VALE_GROWTH,
    VALE_HARVEST,
    VALE_SACRIFICE,
    VALE_WILD_FOR_MANA,
    Profile,
    profile,
)

if TYPE_CHECKING:
    from mystic_envs.mystic_vale.rules import ValeState

NUM_ADV = len(ADVANCEMENTS)  # 38: the 32 commons names, Fertile Soil and Cursed Land by slot
NUM_COMMONS = len(COMMONS_IDS)
NUM_VALES = len(VALES)
ZONES = ("deck (another seat: deck or discard pile)", "field", "on deck", "discard pile (own)")
CARD_STATS = 15
CARD_FEATURES = len(ZONES) + NUM_ADV + CARD_STATS
SEAT_SCALARS = 11
# A card's totals in its block (decay, growth, growth per guardian, guardians, mana, the four
# spirits, harvest VP, end VP) and what each is divided by.
_TOTAL_SCALES = (3, 3, 2, 4, 3, 3, 3, 3, 3, 3, 10)


def _totals(p: Profile) -> tuple[int, ...]:
    return (p.decay, p.growth, p.growth_per_guardian, p.guardians, p.mana, *p.spirits, p.harvest_vp, p.end_vp)


_GAINS = (GAIN_MANA, GAIN_SPIRIT, GAIN_VP)


@functools.cache
def _sleeve_tops() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The most any sleeve reads (every advancement or none in each slot, under every band: a
    superset of the cards that can be made): per card total, and the most mana, spirits (all four
    kinds together, which Sunstone Aerie may turn wild) and VP one card gives in a Harvest, its
    Harvest abilities read at their largest multiplier (every guardian it can hold, a full field)."""
    top = [0] * len(_TOTAL_SCALES)
    harvest = [0, 0, 0]  # mana, spirits, VP
    by_slot = [[-1] + [a.id for a in ADVANCEMENTS if a.slot == slot] for slot in range(3)]
    for slots in itertools.product(*by_slot):
        for band in (-1, 0, 1, 2):
            p = profile(slots, band)
            top = [max(t, x) for t, x in zip(top, _totals(p), strict=True)]
            most = {PER_GUARDIAN_ON_CARD: p.guardians + _ADDED_GUARDIANS, PER_OTHER_FIELD_CARD: NUM_CARDS - 1,
                    PER_TWO_FIELD_CARDS: NUM_CARDS // 2}  # fmt: skip
            got = {GAIN_MANA: p.mana, GAIN_SPIRIT: sum(p.spirits), GAIN_VP: p.harvest_vp}
            for e in p.harvest:
                got[e.op] += e.amount * most.get(e.per, 1)
            harvest = [max(h, got[op]) for h, op in zip(harvest, _GAINS, strict=True)]
    return tuple(top), tuple(harvest)


def _card_bounds() -> tuple[tuple[float, float], ...]:
    """The 20 card blocks' bounds: a card's totals at most what any sleeve reads, and Conclave of
    Ents' guardians at most one per use of every Conclave in the game, this turn's and those its
    last prep carried over."""
    totals = tuple((0.0, t / scale) for t, scale in zip(_sleeve_tops()[0], _TOTAL_SCALES, strict=True))
    return ((UNIT,) * (len(ZONES) + NUM_ADV) + totals + (UNIT,) * 3 + ((0.0, _ADDED_GUARDIANS),)) * NUM_CARDS


def _vales_give(op: int) -> int:
    """What every vale in the game gives in one Harvest, all owned by one seat."""
    return sum(e.amount * v.copies for v in VALES for e in VALE_HARVEST[v.id] if e.op == op)


@functools.cache
def _harvest_tops() -> tuple[int, int, int]:
    """The most mana, spirits of one kind and VP tokens one Harvest can hold: a field of all 20
    cards, each at its sleeve's most, every vale in the game, and the mana token."""
    mana, spirits, vp = (NUM_CARDS * x for x in _sleeve_tops()[1])
    return mana + _vales_give(GAIN_MANA) + 1, spirits + _vales_give(GAIN_SPIRIT), vp + _vales_give(GAIN_VP)


def _status_bounds(n: int) -> tuple[Bounds, ...]:
    """A seat's VP tokens: the pool is given out whole at most once, and a seat gains once a turn
    and has at most one turn from the one the pool runs out in to the end of that round; so at
    most the pool plus one Harvest's VP (the overflow from the box). Its points: those tokens and
    the end VP of 20 cards at their sleeve's most and of every vale in the game. Net decay: at most
    20 revealed cards' decay; at least minus their growth, every added guardian's growth, every
    vale's growth and every sacrificed vale's."""
    tops = _sleeve_tops()[0]
    tokens = VP_POOL[n] + _harvest_tops()[2]
    points = tokens + NUM_CARDS * tops[-1] + sum(v.end_vp * v.copies for v in VALES)
    growth = (
        NUM_CARDS * tops[1]
        + _ADDED_GUARDIANS * tops[2]
        + sum((VALE_GROWTH[v.id] + VALE_SACRIFICE[v.id]) * v.copies for v in VALES)
    )
    decay = (-growth / 5, NUM_CARDS * tops[0] / 5)
    return (UNIT, UNIT, (0.0, tokens / 30), (0.0, points / 60), UNIT, UNIT, UNIT, UNIT, UNIT, decay, UNIT)


# A turn buys ADVANCEMENT_BUYS advancements, one more with a vale that raises it (not cumulative,
# I-12), and VALE_BUYS vales; its Sunstone Aerie and Conclave of Ents uses are one per such vale in
# the game (at most every copy).
_MOST_BUYS = ADVANCEMENT_BUYS + max(VALE_BUY_LIMIT)
_SUNSTONE_USES = sum(v.copies for v in VALES if VALE_WILD_FOR_MANA[v.id])
_CONCLAVE_USES = sum(VALE_ADD_GUARDIAN[v.id] * v.copies for v in VALES)
_ADDED_GUARDIANS = 2 * _CONCLAVE_USES  # this turn's Conclave uses and those the last prep carried


def _harvest_bounds() -> tuple[Bounds, ...]:
    mana, spirits, vp = _harvest_tops()
    return (
        *((0.0, mana / 10), UNIT, *((0.0, spirits / 5),) * 4, (0.0, vp / 10)),  # mana, token, spirits, VP
        (0.0, _MOST_BUYS / 3),
        UNIT,
        (0.0, _SUNSTONE_USES),
        (0.0, _CONCLAVE_USES),
        (0.0, _MOST_BUYS / 3),
    )


def _seat_parts(n: int, k: int) -> list[tuple[str, int, str, Bounds]]:
    who = "own" if k == 0 else f"seat+{k}"
    return [
        (f"{who}_status", SEAT_SCALARS, "to act, whose turn, VP tokens / 30, points / 60, mana token active, "
         "skips its next Harvest, deck / 20, discard pile / 20, field / 20, net decay showing / 5, "
         "the starting player", _status_bounds(n)),
        (f"{who}_vales", NUM_VALES, "copies of each vale it owns / 2",
         (0.0, max(v.copies for v in VALES) / 2)),
        (f"{who}_cards", NUM_CARDS * CARD_FEATURES,
         f"per card index 0-19: zone one-hot ({', '.join(ZONES)}), the advancements sleeved on it "
         "(one per advancement id), then decay / 3, growth / 3, growth per guardian / 2, guardians / 4, "
         "mana / 3, animal, forest, sky, wild / 3, harvest VP / 3, end VP / 10, top, middle, bottom "
         "slot open, Conclave of Ents guardians in effect (this turn's, or those used in its last prep)",
         _card_bounds()),
    ]  # fmt: skip


def build_layout_for(n: int) -> tuple[LayoutEntry, ...]:
    parts = [
        ("phase", len(PHASE_NAMES), "the open decision, one-hot: " + ", ".join(PHASE_NAMES), UNIT),
        ("stage", len(STAGE_NAMES), "the active player's stage, one-hot: " + ", ".join(STAGE_NAMES), UNIT),
        ("pool", 2, f"VP tokens left in the pool / {VP_POOL[n]}; 1 once it has run out (the last round)",
         UNIT),
        ("commons", 9 * NUM_COMMONS, "per face-up position (rows of levels 1, 2, 3, three each): "
         "one-hot of the advancement shown (none: empty)", UNIT),
        ("supply", 5, "Fertile Soil left per slot (top, middle, bottom) / 6; level-1 deck / 18; "
         "level-2 and level-3 decks together / 60", UNIT),
        ("vale_rows", 8 * NUM_VALES, "per face-up vale position (level 1 row, level 2 row, four each): "
         "one-hot of the vale shown", UNIT),
        ("vale_decks", 2, "level-1 and level-2 vale decks / 18", UNIT),
        ("harvest", 12, "the active player's Harvest: mana left / 10, the mana token still to spend, "
         "animal, forest, sky, wild spirits to spend / 5, VP tokens it gains / 10, advancement buys "
         "left / 3, vale buys left / 2, Sunstone Aerie uses left, Conclave of Ents uses left, "
         "advancements bought / 3", _harvest_bounds()),
        ("bought", NUM_ADV, "advancements the active player bought this turn, count per id / 2",
         (0.0, _MOST_BUYS / 2)),
        ("bought_vales", NUM_VALES, "vales the active player bought this turn, count per id",
         (0.0, VALE_BUYS)),
        ("pending", NUM_ADV, "the advancement waiting for its Earthchant Chorus declaration or its "
         "sleeve, one-hot", UNIT),
        ("wp_card", NUM_CARDS, "the active player's card whose When Played ability is resolving", UNIT),
        ("peeked", NUM_CARDS, "own card on top of the deck, seen with Calm Weather (the observer's only)",
         UNIT),
    ]  # fmt: skip
    for k in range(n):
        parts.extend(_seat_parts(n, k))
    return build_layout(parts)


_COMMONS_INDEX = {a: i for i, a in enumerate(COMMONS_IDS)}
_INDEX: dict[int, dict[str, int]] = {}


def _index(game) -> dict[str, int]:
    """Where each layout part starts (one table per player count)."""
    table = _INDEX.get(game.num_players)
    if table is None:
        table = _INDEX[game.num_players] = {e.name: e.start for e in game.observation_layout()}
    return table


_CONTENT: dict[int, tuple[object, np.ndarray]] = {}


def _content(s: ValeState, q: int, c: int) -> np.ndarray:
    """The zone-free part of a card's block (its advancements and totals), cached per content."""
    p = s.prof[q][c]
    hit = _CONTENT.get(id(p))
    if hit is not None and hit[0] is p:
        return hit[1]
    v = np.zeros(NUM_ADV + CARD_STATS, dtype=np.float32)
    sl = s.slots[q][c]
    for a in sl:
        if a >= 0:
            v[a] += 1.0
    v[NUM_ADV:] = (
        *np.divide(_totals(p), _TOTAL_SCALES),
        float(sl[0] < 0),
        float(sl[1] < 0),
        float(sl[2] < 0),
        0.0,
    )
    _CONTENT[id(p)] = (p, v)  # the profile is kept alive with it, so its id is never reused
    return v


def _contents(s: ValeState, q: int) -> np.ndarray:
    """Seat ``q``'s 20 card blocks, flat, every card shown in the deck zone. Cards change only
    when sleeved, one at a time: the seat's last blocks are kept and only changed cards redone.
    Keyed by slots and bands (which make the profile), never by profile equality: two
    profiles may be equal with different advancements sleeved."""
    key = (tuple(s.slots[q]), tuple(s.band[q]))
    hit = s._memo.get(("cards", q))
    if hit is not None:
        if hit[0] == key:
            return hit[1]
        (slots, band), m = hit
        m = m.copy().reshape(NUM_CARDS, CARD_FEATURES)
        redo = [c for c in range(NUM_CARDS) if key[0][c] != slots[c] or key[1][c] != band[c]]
    else:
        m = np.zeros((NUM_CARDS, CARD_FEATURES), dtype=np.float32)
        m[:, 0] = 1.0
        redo = range(NUM_CARDS)
    for c in redo:
        m[c, len(ZONES) :] = _content(s, q, c)
    m = m.ravel()
    s._memo["cards", q] = (key, m)
    return m


def _seat_starts(game) -> list[tuple[int, int, int, int]]:
    layout = _index(game)
    out = []
    for w in ["own"] + [f"seat+{k}" for k in range(1, game.num_players)]:
        cards_at = layout[f"{w}_cards"]
        out.append(
            (layout[f"{w}_status"], layout[f"{w}_vales"], cards_at, cards_at + NUM_CARDS * CARD_FEATURES)
        )
    return out


def _seat_key(s: ValeState, r: int, own: bool, live: bool) -> tuple:
    """Everything seat ``r``'s block of an observation depends on (``own``: the observer's).
    Another seat's block does not change during a turn that is not its own, so most steps
    find it in ``ValeState._memo``. Compared, never hashed: the unchanged parts are the same
    objects, which compare at once; the slots and bands stand for the cards' profiles."""
    key = (
        own,
        live,
        s.player == r,
        s.active == r,
        s.tokens[r],
        s.token_active[r],
        s.skip_harvest[r],
        len(s.deck[r]),
        s.on_deck[r],
        s.start_player == r,
        tuple(s.field[r]),
        tuple(s.vales[r]),
        tuple(s.slots[r]),
        tuple(s.band[r]),
        tuple(s.discard[r]) if own else len(s.discard[r]),
    )
    if r == s.active:  # its growth, guardians and vales at work this turn
        key += (tuple(s.bought_vales), tuple(s.guard_bonus), tuple(s.growth_bonus))
    else:  # what it used in its last prep, in effect until its next turn
        key += (tuple(s.carry_guard[r]), tuple(s.carry_growth[r]))
    return key


def _table_key(s: ValeState) -> tuple:
    """Everything the commons, supply, vale rows and vale decks parts depend on."""
    ld, vd = s.level_deck, s.vale_deck
    return (*s.commons, *s.fertile, len(ld[0]), len(ld[1]) + len(ld[2]), *s.vale_up, len(vd[0]), len(vd[1]))


def _write_table(s: ValeState, out: np.ndarray, layout: dict[str, int]) -> None:
    at = layout["commons"]
    for k, a in enumerate(s.commons):
        if a >= 0:
            out[at + k * NUM_COMMONS + _COMMONS_INDEX[a]] = 1.0
    at = layout["supply"]
    out[at : at + 5] = (
        s.fertile[0] / 6,
        s.fertile[1] / 6,
        s.fertile[2] / 6,
        len(s.level_deck[0]) / 18,
        (len(s.level_deck[1]) + len(s.level_deck[2])) / 60,
    )
    at = layout["vale_rows"]
    for k, v in enumerate(s.vale_up):
        if v >= 0:
            out[at + k * NUM_VALES + v] = 1.0
    at = layout["vale_decks"]
    out[at] = len(s.vale_deck[0]) / 18
    out[at + 1] = len(s.vale_deck[1]) / 18


def _write_seat(
    s: ValeState, out: np.ndarray, r: int, own: bool, live: bool, starts: tuple[int, ...]
) -> None:
    status, vales_at, cards_at, end = starts
    out[status : status + SEAT_SCALARS] = (
        float(s.player == r),
        float(live and s.active == r),
        s.tokens[r] / 30,
        s.points(r) / 60,
        float(s.token_active[r]),
        float(s.skip_harvest[r]),
        len(s.deck[r]) / 20,
        len(s.discard[r]) / 20,
        len(s.field[r]) / 20,
        s.net_decay(r) / 5,
        float(s.start_player == r),
    )
    for v in s.vales[r]:
        out[vales_at + v] += 0.5
    out[cards_at:end] = _contents(s, r)  # every card in the deck zone; then the others moved
    for c in s.field[r]:
        out[cards_at + c * CARD_FEATURES] = 0.0
        out[cards_at + c * CARD_FEATURES + 1] = 1.0
    c = s.on_deck[r]
    if c >= 0:
        out[cards_at + c * CARD_FEATURES] = 0.0
        out[cards_at + c * CARD_FEATURES + 2] = 1.0
    if own:
        for c in s.discard[r]:
            out[cards_at + c * CARD_FEATURES] = 0.0
            out[cards_at + c * CARD_FEATURES + 3] = 1.0
    if live:
        for c, _ in s.guard_bonus if r == s.active else s.carry_guard[r]:
            out[cards_at + c * CARD_FEATURES + CARD_FEATURES - 1] += 1.0


def observe(s: ValeState, player: int) -> np.ndarray:
    """The observation vector of ``player`` (laid out by ``build_layout_for``)."""
    n = s.n
    layout = _index(s.game)
    memo = s._memo  # (key, block) per part, keyed by what the part depends on
    out = np.zeros(s.game.observation_size, dtype=np.float32)
    out[layout["phase"] + s.phase] = 1.0
    out[layout["stage"] + s.stage] = 1.0
    at = layout["pool"]
    out[at] = s.pool / s.pool_start
    out[at + 1] = float(s.end_triggered)
    at, end = layout["commons"], layout["harvest"]
    key = _table_key(s)
    hit = memo.get("table")
    if hit is not None and hit[0] == key:
        out[at:end] = hit[1]
    else:
        _write_table(s, out, layout)
        memo["table"] = (key, out[at:end].copy())
    live = s.phase != GAME_OVER
    q = s.active
    if live and s.stage in (HARVESTING, DISCARDING):  # the turn's purchases
        spirits = s.spirits_now()
        at = layout["harvest"]
        out[at : at + 12] = (
            s.mana_left() / 10,
            float(s.token_active[q] and not s.token_used),
            spirits[0] / 5,
            spirits[1] / 5,
            spirits[2] / 5,
            spirits[3] / 5,
            s.h_vp / 10,
            (s.buy_limit() - len(s.bought)) / 3,
            (2 - len(s.bought_vales)) / 2,
            float(s.sunstone_left()),
            float(max(0, sum(VALE_ADD_GUARDIAN[v] for v in s.active_vales()) - s.conclave_used)),
            len(s.bought) / 3,
        )
        for b in s.bought:
            out[layout["bought"] + b[0]] += 0.5
        for v in s.bought_vales:
            out[layout["bought_vales"] + v] += 1.0
    if live:
        if s.pending_buy is not None:
            out[layout["pending"] + s.pending_buy[1]] = 1.0
        elif s.phase == SLEEVE:
            out[layout["pending"] + s.bought[s.sleeve_index][0]] = 1.0
        if s.phase in (WP_DISCARD, PEEK, SEARCH):  # a When Played choice
            out[layout["wp_card"] + s.wp_card] = 1.0
        if s.phase == PEEK and player == q and s.deck[q]:
            out[layout["peeked"] + s.deck[q][-1]] = 1.0
    starts = _STARTS.get(n)
    if starts is None:
        starts = _STARTS[n] = _seat_starts(s.game)
    for k in range(n):
        r = (player + k) % n
        own = k == 0
        at, end = starts[k][0], starts[k][3]
        key = _seat_key(s, r, own, live)
        hit = memo.get((r, own))
        if hit is not None and hit[0] == key:
            out[at:end] = hit[1]
        else:
            _write_seat(s, out, r, own, live, starts[k])
            memo[r, own] = (key, out[at:end].copy())
    return out


_STARTS: dict[int, list[tuple[int, int, int, int]]] = {}
