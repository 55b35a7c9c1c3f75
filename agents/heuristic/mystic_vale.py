"""A rule-based Mystic Vale player for 2-4 players.

It decides on ``state.determinize(seat)`` and reads only what its seat sees: the public table
(fields, on-deck cards, what is sleeved on every card, the commons, the vale rows, VP, the pool)
and its own cards' *composition* by zone (its deck's contents are its 20 cards less those it sees,
the same in every determinization; the order, which determinize re-deals, is never read).

- Push or pass. The chance of spoiling on a push is the share of the cards that can be revealed
  next (the deck, or the discard pile that refills an empty one) whose decay less growth reaches 4
  with what already shows; an open save (a Peacekeeper Druid or vale redraw, Blooming Arbor,
  Conclave of Ents' growth) squares it. It pushes while ``(1 - p) * V(field + on-deck card) + p *
  token`` beats ``V(field)``: ``V`` is the Harvest the field would give (mana, spirits, VP), and a
  spoil is worth the mana token it turns active (nothing if it is active already).
- Buying. Every advancement is valued where it would be sleeved: the change in its card's value,
  which is the card's expected yield per Harvest (mana, spirits, VP, Harvest abilities) less its
  decay, times the Harvests it will still see, plus its end-game VP. The game's clock is the
  rounds completed against the 12 a game lasts (the same for every seat in a round; none left
  once the pool is empty). Mana weighs on that progress: dear early, when it buys the engine for
  the rest of the game, cheap late, when only points count; so it buys mana early and VP late.
  The purchase plan is the best set of up to the buys left that the mana (and the mana token,
  only when needed) pays for and the field has open slots for; its first item is bought. Vales
  are bought first (their spirits buy nothing else): the one with the most end VP plus its
  ability's worth over the turns left; Sunstone Aerie only when it makes a vale payable that is
  worth the 2 mana.
- Sleeving avoids stacking decay: a card's value counts its net decay, and a card showing 2 or
  more decay costs extra (one reveal of it nearly spoils a field), so a decay advancement goes on
  a card with no decay or with growth, and growth goes where the decay is.
- The rest: a When Played discard throws out the field card with the most net decay (none if no
  card shows decay); Calm Weather discards a top card showing net decay and keeps the others;
  Cleansing Rain discards the deck card with the most net decay; a would-spoil takes any save
  (a redraw first, then Conclave of Ents, then Blooming Arbor unless its end VP outweigh the
  Harvest saved); Conclave of Ents is used where it is offered in the Harvest, and in planting only
  to lower the decay showing; Earthchant Chorus's discount is always declared.

``decide(state, seat)`` is the whole player (no look-ahead, a few hundred microseconds a decision);
the same function is the rollout policy of ``agents.mcts``.
"""

from __future__ import annotations

import itertools

from agents.heuristic.base import DeterminizingHeuristic
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENTS,
    FERTILE_SOIL,
    GAIN_MANA,
    GAIN_SPIRIT,
    GAIN_VP,
    PREP_DECAY,
    SPOIL_DECAY,
)
from mystic_envs.mystic_vale.decisions import (
    BUY_COMMONS,
    BUY_FERTILE,
    BUY_VALE,
    CARD,
    CONCLAVE,
    CONCLAVE_TARGET,
    DECLARE,
    DISCARD_PEEKED,
    DONE,
    HARVEST,
    PASS,
    PEEK,
    PLANT,
    PUSH,
    REDRAW_DRUID,
    REDRAW_VALE,
    SACRIFICE,
    SEARCH,
    SLEEVE,
    SUNSTONE,
    WOULD_SPOIL,
    WP_DISCARD,
)
from mystic_envs.mystic_vale.rules import ValeState, vales_payable
from mystic_envs.mystic_vale.sleeves import (
    VALE_ADD_GUARDIAN,
    VALE_BUY_LIMIT,
    VALE_COSTS,
    VALE_END_VP,
    VALE_GROWTH,
    VALE_HARVEST,
    VALE_REDRAW,
    VALE_SACRIFICE,
    VALE_WILD_FOR_MANA,
    Profile,
    profile,
)

# A card is in the field about once every 2.5 turns (20 cards, fields of about 8).
APPEAR = 0.4
# A spirit buys about a point of vale; 1.0 (0.8 before issue 28) so the first Harvests buy the
# level-1 spirits, not only Fertile Soil (first vale in round 7 with 0.8, 6 with 1.0 on 300 games).
SPIRIT_VALUE = 1.0
DECAY_COST = 0.9  # a net decay on a card, per appearance, in points (the pushes it costs)
STACK_COST = 1.5  # each decay past the first on one card: one reveal of it nearly spoils a field
FIELD_SIZE = 8  # the field size assumed for Harvest abilities that count field cards
MAX_TURNS_LEFT = 14
# The rounds a game lasts (the real game's 10-15 turns a player; measured 12-13 on the card data,
# docs/rules/mystic_vale.md "Balance"). The clock counts completed rounds, the same for every seat
# in a round: the first clock read the pool, which the seats before it in the round had just
# drawn on, so later seats thought the game further on and switched to VP too early (the
# starting player won 33-50% at 3-4 players on the card data of issue 19).
EXPECTED_ROUNDS = 12


def rounds_done(s: ValeState) -> int:
    """Rounds every seat has completed (the same for all seats within a round)."""
    return s.turn // s.n


def progress(s: ValeState) -> float:
    """How far the game is: 0 at the start, 1 from the expected last round on."""
    return min(1.0, rounds_done(s) / EXPECTED_ROUNDS)


def turns_left(s: ValeState) -> float:
    """Own turns still to come: none once the pool is empty (the round is the last), else the
    expected rounds less those done, at least one."""
    if s.end_triggered:
        return 0.0
    return min(MAX_TURNS_LEFT, max(1.0, EXPECTED_ROUNDS - rounds_done(s)))


def mana_value(s: ValeState) -> float:
    """What one mana buys, in points: engine early, little once the end is near."""
    return 0.25 + 0.75 * (1.0 - progress(s)) ** 1.5


def card_gains(p: Profile, field_cards: int) -> tuple[int, int, int]:
    """(mana, VP, spirits) one Harvest of a card with profile ``p`` gives in a field of
    ``field_cards`` cards: its symbols and its Harvest abilities."""
    m = p.mana - p.lose_mana
    vp = p.harvest_vp
    sp = sum(p.spirits)
    for e in p.harvest:
        # The multipliers of cards.PER_NAMES: one, guardian on card, other field card, two field cards.
        x = e.amount * (1, p.guardians, field_cards - 1, field_cards // 2, p.symbols)[e.per]
        if e.op == GAIN_MANA:
            m += x
        elif e.op == GAIN_VP:
            vp += x
        elif e.op == GAIN_SPIRIT:
            sp += x
    return m, vp, sp


def card_yield(p: Profile, mana: float) -> float:
    """Points one Harvest of a card with profile ``p`` gives (in a typical field)."""
    m, vp, sp = card_gains(p, FIELD_SIZE)
    return m * mana + sp * SPIRIT_VALUE + vp + 0.3 * len(p.when_played) + 0.8 * p.redraw


def card_value(p: Profile, harvests: float, mana: float) -> float:
    """A card's worth for the rest of the game: its yield less its decay over the Harvests left,
    plus its end-game VP."""
    net = p.decay - p.growth
    risk = DECAY_COST * net + STACK_COST * max(0, p.decay - max(p.growth, 0) - 1)
    return harvests * (card_yield(p, mana) - risk) + p.end_vp + 0.01 * p.level3


def sleeve_gain(s: ValeState, q: int, adv: int, c: int, harvests: float, mana: float) -> float:
    slot = ADVANCEMENTS[adv].slot
    sl = list(s.slots[q][c])
    sl[slot] = adv
    band = slot if ADVANCEMENTS[adv].band else s.band[q][c]
    return card_value(profile(tuple(sl), band), harvests, mana) - card_value(s.prof[q][c], harvests, mana)


def best_place(
    s: ValeState, q: int, adv: int, cards: list[int], harvests: float, mana: float
) -> tuple[float, int]:
    """The best card of ``cards`` (ties to the lowest index) and the gain there."""
    slot = ADVANCEMENTS[adv].slot
    best = (-1e9, -1)
    for c in cards:
        if s.slots[q][c][slot] < 0:
            g = sleeve_gain(s, q, adv, c, harvests, mana)
            if g > best[0] + 1e-9:
                best = (g, c)
    return best


# -- planting ---------------------------------------------------------------------------------------
def harvest_value(s: ValeState, q: int, cards: list[int]) -> float:
    """What a Harvest of ``cards`` gives now, in points (mana at its current worth)."""
    mana = vp = sp = 0
    for c in cards:
        m, v, x = card_gains(s.prof[q][c], len(cards))
        mana, vp, sp = mana + m, vp + v, sp + x
    mana = max(0, mana)  # Grassland takes nothing from nothing
    # Mana is counted at full worth up to what buys two good advancements, then at a third.
    capped = min(mana, 14) + max(0, mana - 14) / 3
    return 0.5 * capped + SPIRIT_VALUE * sp + vp


def spoil_chance(s: ValeState, q: int) -> float:
    """The chance that a push spoils: the share of the cards that can be revealed next whose
    decay, with what shows now, reaches the spoil (squared when a save is open)."""
    net = s.net_decay(q)
    pool = s.deck[q] if s.deck[q] else s.discard[q]
    if not pool:
        return 0.0
    bad = sum(1 for c in pool if net + s.prof[q][c].decay - s.prof[q][c].growth >= SPOIL_DECAY)
    p = bad / len(pool)
    if _saves_open(s, q):
        p *= p
    return p


def _saves_open(s: ValeState, q: int) -> bool:
    if any(s.prof[q][c].redraw and c not in s.redraw_cards for c in s.field[q]):
        return True
    vales = s.active_vales(q)
    if sum(VALE_REDRAW[v] for v in vales) > s.redraw_vales:
        return True
    return any(VALE_SACRIFICE[v] for v in vales)


def push_or_pass(s: ValeState, q: int) -> int:
    if s.on_deck[q] < 0:
        return PASS
    p = spoil_chance(s, q)
    now = harvest_value(s, q, s.field[q])
    after = harvest_value(s, q, [*s.field[q], s.on_deck[q]])
    token = 0.0 if s.token_active[q] else 0.5
    # Revealing a card that stays on deck also feeds the next prep; a push that cannot spoil is free.
    if p == 0.0 or (1.0 - p) * after + p * token > now:
        return PUSH
    return PASS


# -- the Harvest ------------------------------------------------------------------------------------
def vale_worth(s: ValeState, v: int, left: float) -> float:
    """End VP plus the ability over the turns left (a producer's spirit, growth, a buy)."""
    w = float(VALE_END_VP[v])
    per_turn = 0.0
    for e in VALE_HARVEST[v]:
        if e.op == GAIN_MANA:
            per_turn += e.amount * mana_value(s)
        elif e.op == GAIN_VP:
            per_turn += e.amount
        else:
            per_turn += e.amount * SPIRIT_VALUE
    per_turn += 0.6 * VALE_GROWTH[v] + 0.4 * VALE_REDRAW[v] + 0.3 * VALE_ADD_GUARDIAN[v]
    per_turn += 0.8 * VALE_BUY_LIMIT[v] * (1.0 - progress(s))
    if VALE_WILD_FOR_MANA[v]:
        per_turn += 0.2
    return w + left * per_turn + (0.5 if VALE_SACRIFICE[v] else 0.0)


def _vale_choice(s: ValeState, legal: list[int], left: float) -> tuple[float, int]:
    best = (0.0, -1)
    for a in legal:
        if BUY_VALE <= a < SUNSTONE:
            w = vale_worth(s, s.vale_up[a - BUY_VALE], left)
            if w > best[0] + 1e-9:
                best = (w, a)
    return best


def _sunstone_choice(s: ValeState, legal: list[int], left: float) -> int:
    """A Sunstone Aerie conversion that makes a vale payable that is worth its 2 mana."""
    if len(s.bought_vales) >= 2:
        return -1
    base = s.spirits_now()
    costs = [VALE_COSTS[b] for b in s.bought_vales]
    for a in legal:
        if SUNSTONE <= a < SUNSTONE + 3:
            k = a - SUNSTONE
            spirits = list(base)
            spirits[k] -= 1
            spirits[3] += 1
            for v in s.vale_up:
                payable = v >= 0 and vales_payable([*costs, VALE_COSTS[v]], spirits)
                if payable and vale_worth(s, v, left) > 2 * mana_value(s) + 0.5:
                    return a
    return -1


def _buy_plan(s: ValeState, q: int, legal: list[int], harvests: float, mana_w: float) -> tuple[float, int]:
    """The best set of advancement buys the mana and open slots allow; its first action."""
    options = []  # (action, advancement, cost, gain)
    for a in legal:
        if BUY_COMMONS <= a < BUY_FERTILE:
            adv = s.commons[a - BUY_COMMONS]
        elif BUY_FERTILE <= a < BUY_VALE:
            adv = FERTILE_SOIL[a - BUY_FERTILE]
        else:
            continue
        gain, _ = best_place(s, q, adv, s.field[q], harvests, mana_w)
        cost = ADVANCEMENTS[adv].cost
        disc = max((d for _, d in s.earthchant_cards()), default=0)
        options.append((a, adv, max(0, cost - disc), gain))
    if not options:
        return 0.0, -1
    budget = s.mana_left() + (1 if s.token_active[q] and not s.token_used else 0)
    buys = s.buy_limit() - len(s.bought)
    open_slots = [sum(1 for c in s.field[q] if s.slots[q][c][k] < 0) for k in range(3)]
    for b in s.bought[s.sleeve_index :]:
        open_slots[ADVANCEMENTS[b[0]].slot] -= 1
    best = (0.0, -1)
    for size in range(1, min(buys, len(options)) + 1):
        for combo in itertools.combinations(options, size):
            if sum(o[2] for o in combo) > budget:
                continue
            need = [0, 0, 0]
            for o in combo:
                need[ADVANCEMENTS[o[1]].slot] += 1
            if any(need[k] > open_slots[k] for k in range(3)):
                continue
            # Two Fertile Soil of one slot are two actions, one option here: a set holds each once.
            value = sum(o[3] for o in combo)
            if value > best[0] + 1e-9:
                # Buy the dearest first, so a cheap second buy still fits what is left.
                first = max(combo, key=lambda o: (o[2], o[3]))
                best = (value, first[0])
    return best


def harvest_action(s: ValeState, q: int, legal: list[int]) -> int:
    left = turns_left(s)
    harvests = APPEAR * left
    mana_w = mana_value(s)
    if CONCLAVE in legal:
        return CONCLAVE
    _, a = _vale_choice(s, legal, left)
    if a >= 0:
        return a
    a = _sunstone_choice(s, legal, left)
    if a >= 0:
        return a
    gain, a = _buy_plan(s, q, legal, harvests, mana_w)
    if a >= 0 and gain > 0:
        return a
    return DONE


# -- the other decisions ----------------------------------------------------------------------------
def _net(s: ValeState, q: int, c: int) -> int:
    p = s.prof[q][c]
    return p.decay - p.growth


def decide(state: ValeState, seat: int) -> int:
    """The heuristic's action for ``seat`` (the player to move) on ``state``."""
    s, q = state, seat
    legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    ph = s.phase
    if ph == PLANT:
        # Conclave of Ents in planting only to lower the decay showing; else it waits for the Harvest.
        lowers = any(s.prof[q][c].growth_per_guardian for c in s.conclave_targets(PLANT))
        if CONCLAVE in legal and lowers and s.net_decay(q) >= PREP_DECAY - 1:
            return CONCLAVE
        return push_or_pass(s, q)
    if ph == HARVEST:
        return harvest_action(s, q, legal)
    if ph == SLEEVE:
        adv = s.bought[s.sleeve_index][0]
        cards = [a - CARD for a in legal]
        _, c = best_place(s, q, adv, cards, APPEAR * turns_left(s), mana_value(s))
        return CARD + c if c >= 0 else legal[0]
    if ph == DECLARE:
        cards = [a for a in legal if a != DONE]
        return cards[0] if cards else DONE
    if ph == WP_DISCARD:
        cards = [a - CARD for a in legal if a != DONE]
        worst = max(cards, key=lambda c: (_net(s, q, c), -c))
        return CARD + worst if _net(s, q, worst) > 0 else DONE
    if ph == PEEK:
        top = s.deck[q][-1]  # the card it is looking at (kept in place by determinize)
        return DISCARD_PEEKED if _net(s, q, top) > 0 else DONE
    if ph == SEARCH:
        cards = [a - CARD for a in legal if a != DONE]
        worst = max(cards, key=lambda c: (_net(s, q, c), -c))
        return CARD + worst if _net(s, q, worst) > 0 else DONE
    if ph == WOULD_SPOIL:
        for a in (REDRAW_DRUID, REDRAW_VALE, CONCLAVE):
            if a in legal:
                return a
        if SACRIFICE in legal:
            v = next(v for v in s.active_vales(q) if VALE_SACRIFICE[v])
            if harvest_value(s, q, s.field[q]) + 1.0 >= VALE_END_VP[v]:
                return SACRIFICE
        return DONE
    if ph == CONCLAVE_TARGET:
        cards = [a - CARD for a in legal]
        growth = [c for c in cards if s.prof[q][c].growth_per_guardian]
        if s.conclave_from != HARVEST and growth:
            return CARD + growth[0]
        return CARD + max(cards, key=lambda c: (s.prof[q][c].guardian_harvest, -c))
    return legal[0]


def rollout_policy(state: ValeState, rng: object) -> int:
    """The heuristic as a state-level rollout policy of ``agents.mcts`` (reads ``state`` in full)."""
    return decide(state, state.current_player)


class MysticValeHeuristic(DeterminizingHeuristic):
    """Rule-based Mystic Vale agent for 2-4 players; see the module docstring."""

    decide = staticmethod(decide)


__all__ = ["MysticValeHeuristic", "decide", "rollout_policy"]
