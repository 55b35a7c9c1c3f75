"""The Harvest of Mystic Vale, as a mixin of the state (``rules.ValeState``): what the field and
the vales yield, the mana at hand and the mana token, what may be bought (an advancement: a price
within reach and an open field-card slot for it and for every one bought before it this turn; a
vale: spirits that pay for it and every vale bought before it), the Harvest's mask, buying, and
the end of the Harvest. Its actions are applied by ``decisions._apply_harvest``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystic_vale.cards import (
    ADVANCEMENT_BUYS,
    ADVANCEMENTS,
    FERTILE_SOIL,
    GAIN_MANA,
    GAIN_SPIRIT,
    GAIN_VP,
    VALE_BUYS,
    WILD,
)
from mystic_envs.mystic_vale.decisions import (
    BUY_COMMONS,
    BUY_FERTILE,
    BUY_VALE,
    CONCLAVE,
    DONE,
    HARVEST,
    HARVESTING,
    SUNSTONE,
)
from mystic_envs.mystic_vale.sleeves import (
    ADVANCEMENT_COST,
    ADVANCEMENT_SLOT,
    VALE_BUY_LIMIT,
    VALE_COSTS,
    VALE_HARVEST,
    VALE_ONE_PER_PLAYER,
    VALE_WILD_FOR_MANA,
    multiplier,
)

if TYPE_CHECKING:
    from mystic_envs.mystic_vale.rules import ValeState

VALE_COST_TOTAL = tuple(sum(cost) for cost in VALE_COSTS)


class HarvestMixin:
    """The Harvest's rules; the flow around it is in ``rules.ValeState``."""

    def start_harvest(self: ValeState) -> None:
        self.stage = HARVESTING
        self.phase = HARVEST
        self.refresh_harvest()

    def refresh_harvest(self: ValeState) -> None:
        """Mana, spirits and VP of the field's symbols and Harvest abilities (each once) and of the
        vales owned before this turn. Order-free: a guardian Conclave of Ents adds counts too."""
        q = self.active
        field = self.field[q]
        n = len(field)
        mana = lose = vp = 0
        spirits = [0, 0, 0, 0]
        for c in field:
            p = self.prof[q][c]
            mana += p.mana
            lose += p.lose_mana
            vp += p.harvest_vp
            for k in range(4):
                spirits[k] += p.spirits[k]
            if p.harvest:
                g = self.guardians(c)
                for e in p.harvest:
                    x = e.amount * multiplier(e.per, g, n)
                    if e.op == GAIN_MANA:
                        mana += x
                    elif e.op == GAIN_VP:
                        vp += x
                    elif e.op == GAIN_SPIRIT:
                        spirits[e.arg] += x
        for v in self.active_vales(q):
            for e in VALE_HARVEST[v]:
                if e.op == GAIN_MANA:
                    mana += e.amount
                elif e.op == GAIN_VP:
                    vp += e.amount
                else:
                    spirits[e.arg] += e.amount
        self.h_mana = max(0, mana - lose)  # Grassland: no effect with no mana to lose
        self.h_spirits = spirits
        self.h_vp = vp

    def buy_limit(self: ValeState) -> int:
        extra = [VALE_BUY_LIMIT[v] for v in self.active_vales()]
        return ADVANCEMENT_BUYS + max(extra, default=0)  # Stream of Vigor: 3, not cumulative (I-12)

    def mana_left(self: ValeState) -> int:
        return self.h_mana + self.token_used - self.spent

    def affordable(self: ValeState, cost: int) -> bool:
        token = 1 if self.token_active[self.active] and not self.token_used else 0
        return cost <= self.mana_left() + token

    def pay(self: ValeState, cost: int) -> None:
        """The mana token pays only the mana a purchase lacks (I-11)."""
        self.spent += cost
        if self.mana_left() < 0:
            self.token_active[self.active] = False
            self.token_used = 1

    def spirits_now(self: ValeState) -> list[int]:
        s = list(self.h_spirits)
        for k in self.sunstone:
            s[k] -= 1
            s[WILD] += 1
        return s

    def sunstone_left(self: ValeState) -> int:
        have = sum(1 for v in self.active_vales() if VALE_WILD_FOR_MANA[v])
        return have - len(self.sunstone)

    def sunstone_price(self: ValeState) -> int:
        return min(VALE_WILD_FOR_MANA[v] for v in self.vales[self.active] if VALE_WILD_FOR_MANA[v])

    def can_buy_vale(self: ValeState, v: int) -> bool:
        q = self.active
        if VALE_ONE_PER_PLAYER[v] and v in self.vales[q]:
            return False
        return vales_payable([VALE_COSTS[b] for b in self.bought_vales] + [VALE_COSTS[v]], self.spirits_now())

    def buy_vale(self: ValeState, k: int) -> None:
        v = self.vale_up[k]
        self.vale_up[k] = -1
        self.vales[self.active].append(v)
        self.bought_vales.append(v)

    def earthchant_cards(self: ValeState) -> list[tuple[int, int]]:
        """(card, discount) of the field's Earthchant Chorus cards not used this turn."""
        prof = self.prof[self.active]
        return [
            (c, prof[c].discount)
            for c in self.field[self.active]
            if prof[c].discount and c not in self.earthchant_used
        ]

    def sleeve_feasible(self: ValeState, adv: int, declared: int) -> bool:
        """Every advancement bought this turn, and ``adv`` (sleeved on ``declared``, or anywhere
        with -1), has its own open slot on a field card (Buy Advancements, Note)."""
        return self.room_for(self.slot_room(), ADVANCEMENT_SLOT[adv], declared)

    def slot_room(self: ValeState) -> tuple[tuple[int, tuple[int, ...], int, bool], ...]:
        """Per slot, for the advancements bought this turn: how many are of that slot, the cards
        declared for them, the field cards with that slot open, and whether the declared ones
        are distinct cards with that slot open, then whether those bought all fit."""
        q = self.active
        slots = self.slots[q]
        top = middle = bottom = 0
        for c in self.field[q]:
            a, b, d = slots[c]
            if a < 0:
                top += 1
            if b < 0:
                middle += 1
            if d < 0:
                bottom += 1
        if not self.bought:  # most calls
            return ((0, (), top, True), (0, (), middle, True), (0, (), bottom, True), True)
        free = (top, middle, bottom)
        count = [0, 0, 0]
        fixed: list[list[int]] = [[], [], []]
        for a, d, _ in self.bought:
            s = ADVANCEMENT_SLOT[a]
            count[s] += 1
            if d >= 0:
                fixed[s].append(d)
        room = [
            (count[s], tuple(fixed[s]), free[s],
             len(set(fixed[s])) == len(fixed[s]) and not any(slots[d][s] >= 0 for d in fixed[s]))
            for s in range(3)
        ]  # fmt: skip
        return (*room, all(not n or (fits and n <= f) for n, _, f, fits in room))

    def room_for(self: ValeState, room: tuple, s: int, declared: int) -> bool:
        """``sleeve_feasible`` of one more advancement of slot ``s`` on the ``slot_room`` read:
        each one bought needs a card of its own with the slot open (declared: that card)."""
        count, fixed, free, fits = room[s]
        if not fits or count + 1 > free:
            return False
        if not room[3]:  # some slot's purchases do not fit: only slot s's may (they have one more)
            for t in range(3):
                n, _, f, ok = room[t]
                if t != s and n and not (ok and n <= f):
                    return False
        return declared < 0 or (declared not in fixed and self.slots[self.active][declared][s] < 0)

    def commit_buy(self: ValeState, src: int, adv: int, declared: int) -> None:
        cost = ADVANCEMENTS[adv].cost
        if declared >= 0:
            cost = max(0, cost - self.prof[self.active][declared].discount)
            self.earthchant_used.append(declared)
        self.pay(cost)
        if src >= 0:
            self.commons[src] = -1
        else:
            self.fertile[-1 - src] -= 1
        self.bought.append([adv, declared, src])

    def end_harvest(self: ValeState) -> None:
        self.gain_vp(self.active, self.h_vp)
        self.start_discard()
        self.run()

    def _harvest_legal(self: ValeState) -> list[int]:
        # Ascending by construction. What every purchase check shares (the mana at hand, the
        # Earthchant Chorus cards, each slot's room, the spirits) is read once here, not per
        # option: the Harvest is about 40% of a random game's steps.
        q = self.active
        out = [DONE]
        if self.conclave_targets():
            out.append(CONCLAVE)
        if len(self.bought) < self.buy_limit():
            at_hand = self.mana_left() + (1 if self.token_active[q] and not self.token_used else 0)
            chorus = self.earthchant_cards()
            room = self.slot_room()
            at_full = [self.room_for(room, s, -1) for s in range(3)]  # a place for one more
            for k, a in enumerate(self.commons):
                if a >= 0 and (
                    (ADVANCEMENT_COST[a] <= at_hand and at_full[ADVANCEMENT_SLOT[a]])
                    or (chorus and self._chorus_buy(a, at_hand, chorus, room))
                ):
                    out.append(BUY_COMMONS + k)
            for s in range(3):
                a = FERTILE_SOIL[s]
                if self.fertile[s] > 0 and (
                    (ADVANCEMENT_COST[a] <= at_hand and at_full[s])
                    or (chorus and self._chorus_buy(a, at_hand, chorus, room))
                ):
                    out.append(BUY_FERTILE + s)
        spirits = self.spirits_now()
        if len(self.bought_vales) < VALE_BUYS:
            need = [0, 0, 0, 0]
            for b in self.bought_vales:
                cost = VALE_COSTS[b]
                for k in range(4):
                    need[k] += cost[k]
            left = sum(spirits) - sum(need)
            owned = self.vales[q]
            for k, v in enumerate(self.vale_up):
                if (
                    v >= 0
                    and VALE_COST_TOTAL[v] <= left
                    and not (VALE_ONE_PER_PLAYER[v] and v in owned)
                    and _pays(need, VALE_COSTS[v], spirits)
                ):
                    out.append(BUY_VALE + k)
        if self.sunstone_left() and self.affordable(self.sunstone_price()):
            out.extend(SUNSTONE + k for k in range(3) if spirits[k] > 0)
        return out

    def _buy_options(self: ValeState, adv: int, split: bool = False):
        """Whether ``adv`` can be bought now: at full price (affordable, and every advancement
        bought this turn still has a place to be sleeved) and on which Earthchant Chorus cards
        with its discount. ``split``: return ``(full, cards)``, else a bool."""
        cost = ADVANCEMENTS[adv].cost
        room = self.slot_room()
        s = ADVANCEMENT_SLOT[adv]
        full = self.affordable(cost) and self.room_for(room, s, -1)
        cards = []
        for c, disc in self.earthchant_cards():
            if self.affordable(max(0, cost - disc)) and self.room_for(room, s, c):
                cards.append(c)
        if split:
            return full, cards
        return full or bool(cards)

    def _chorus_buy(
        self: ValeState, adv: int, at_hand: int, chorus: list[tuple[int, int]], room: tuple
    ) -> bool:
        """Whether ``adv`` can be bought on one of the Earthchant Chorus cards ``chorus``."""
        cost, s = ADVANCEMENT_COST[adv], ADVANCEMENT_SLOT[adv]
        return any(max(0, cost - disc) <= at_hand and self.room_for(room, s, c) for c, disc in chorus)


def vales_payable(costs: list[tuple[int, ...]], spirits: list[int]) -> bool:
    """Whether one assignment of ``spirits`` (animal, forest, sky, wild) pays every cost: each
    symbol pays one cost symbol; a wild spirit pays any cost, any spirit pays a wild cost."""
    need = [0, 0, 0, 0]
    for cost in costs:
        for k in range(4):
            need[k] += cost[k]
    short = sum(max(0, need[k] - spirits[k]) for k in range(3))
    return short <= spirits[WILD] and sum(spirits) >= sum(need)


def _pays(need: list[int], cost: tuple[int, ...], spirits: list[int]) -> bool:
    """``rules.vales_payable`` of the vales bought (their summed ``need``) and one more, whose
    cost the spirits already cover in number."""
    short = 0
    for k in range(3):
        x = need[k] + cost[k] - spirits[k]
        if x > 0:
            short += x
    return short <= spirits[3]
