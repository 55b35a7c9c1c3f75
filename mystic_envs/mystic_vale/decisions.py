"""Mystic Vale decisions: the phases, the fixed action space, and the legal actions and ``apply``
of every decision, as a mixin of the state (``rules.ValeState``).

Every decision is one atomic action of the player who owns it: push or pass; a When Played
choice (a field card to discard, the peeked card kept or discarded, a deck card to discard);
saving a spoil (a redraw, Blooming Arbor, Conclave of Ents) or accepting it; in the Harvest one
purchase, Sunstone Aerie or Conclave of Ents at a time, then ``done``; Earthchant Chorus's
declaration; the card each bought advancement is sleeved on. The observation's ``phase`` says
which decision is open; one action group serves every decision that picks one of the player's
own cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystic_vale.cards import (
    COMMONS_FACE_UP,
    FERTILE_SOIL,
    SLOT_NAMES,
    SPIRIT_NAMES,
    VALES,
    VALES_FACE_UP,
)
from mystic_envs.mystic_vale.sleeves import NUM_CARDS

if TYPE_CHECKING:
    from mystic_envs.mystic_vale.rules import ValeState

# --- phases (the ``phase`` info indexes PHASE_NAMES) -------------------------------------------------
(PLANT, WP_DISCARD, PEEK, SEARCH, WOULD_SPOIL, CONCLAVE_TARGET, HARVEST, DECLARE, SLEEVE,
 GAME_OVER) = range(10)  # fmt: skip
PHASE_NAMES = (
    "planting",
    "when_played_discard",
    "calm_weather_peek",
    "cleansing_rain_search",
    "would_spoil",
    "conclave_target",
    "harvest",
    "earthchant_declare",
    "sleeve",
    "game_over",
)
# What the engine does next when no decision is open (``ValeState.cont``); ints, not strings,
# so a pickled copy shares nothing a fresh state would not.
NO_CONT, REVEAL, CHECK, SLEEVE_NEXT, PREP_NEXT, END_TURN = range(6)
# How long a Conclave of Ents guardian or a Blooming Arbor growth lasts.
UNTIL_TURN_END, UNTIL_PLANTING_END, UNTIL_NEXT_PREP = range(3)
# Stages of a turn (where a decision happens: a When Played choice may come in planting or prep).
PLANTING, HARVESTING, DISCARDING, PREPPING, OVER = range(5)
STAGE_NAMES = ("planting", "harvest", "discard", "prep", "over")

# --- the action space (the same at every player count) -----------------------------------------------
PASS, PUSH, DONE = 0, 1, 2
CARD = 3  # + card index (0-19): one of your own cards (a field, deck or on-deck card, by phase)
DISCARD_PEEKED = CARD + NUM_CARDS  # Calm Weather: discard the top card of your deck
REDRAW_DRUID = DISCARD_PEEKED + 1  # would spoil: a Peacekeeper Druid in your field redraws
REDRAW_VALE = REDRAW_DRUID + 1  # would spoil: a vale (Heartwood Sanctuary) redraws
SACRIFICE = REDRAW_VALE + 1  # would spoil: Blooming Arbor to the box for 1 growth
CONCLAVE = SACRIFICE + 1  # Conclave of Ents: +1 guardian on a card (then pick it)
BUY_COMMONS = CONCLAVE + 1  # + position (0-8: level row * 3 + place)
BUY_FERTILE = BUY_COMMONS + 3 * COMMONS_FACE_UP  # + slot (top, middle, bottom)
BUY_VALE = BUY_FERTILE + 3  # + position (0-7: level row * 4 + place)
SUNSTONE = BUY_VALE + 2 * VALES_FACE_UP  # + spirit (animal, forest, sky): treat one as wild
NUM_ACTIONS = SUNSTONE + 3


def action_meaning(a: int) -> str:
    if a == PASS:
        return "pass (end planting)"
    if a == PUSH:
        return "push (play the on-deck card into the field)"
    if a == DONE:
        return "done / decline / keep / accept the spoil / full price"
    if CARD <= a < DISCARD_PEEKED:
        return f"your card {a - CARD} (field, deck or on-deck, by phase)"
    if a == DISCARD_PEEKED:
        return "discard the top card of your deck (Calm Weather)"
    if a == REDRAW_DRUID:
        return "discard the on-deck card and reveal another (Peacekeeper Druid)"
    if a == REDRAW_VALE:
        return "discard the on-deck card and reveal another (a vale's redraw)"
    if a == SACRIFICE:
        return "return Blooming Arbor to the box for 1 growth"
    if a == CONCLAVE:
        return "use Conclave of Ents (+1 guardian on a card)"
    if BUY_COMMONS <= a < BUY_FERTILE:
        row, place = divmod(a - BUY_COMMONS, COMMONS_FACE_UP)
        return f"buy the commons advancement in row {row + 1}, place {place + 1}"
    if BUY_FERTILE <= a < BUY_VALE:
        return f"buy a Fertile Soil ({SLOT_NAMES[a - BUY_FERTILE]})"
    if BUY_VALE <= a < SUNSTONE:
        row, place = divmod(a - BUY_VALE, VALES_FACE_UP)
        return f"buy the vale in row {row + 1}, place {place + 1}"
    if SUNSTONE <= a < NUM_ACTIONS:
        return f"Sunstone Aerie: pay 2 mana, one {SPIRIT_NAMES[a - SUNSTONE]} spirit counts as wild"
    return f"out of range ({a})"


ACTION_MEANINGS = tuple(action_meaning(a) for a in range(NUM_ACTIONS))


class DecisionsMixin:
    """Legal actions and ``apply`` per phase; the flow itself is in ``rules.ValeState``."""

    def legal_actions(self: ValeState) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def is_legal(self: ValeState, action: int) -> bool:
        return action in self.legal_actions()

    def _compute_legal(self: ValeState) -> list[int]:
        ph, q = self.phase, self.active
        if ph == PLANT:
            out = [PASS]
            if self.on_deck[q] >= 0:
                out.append(PUSH)
            if self.conclave_targets():
                out.append(CONCLAVE)
            return out
        if ph == WP_DISCARD:
            return [DONE, *sorted(CARD + c for c in self.field[q] if c != self.wp_card)]
        if ph == PEEK:
            return [DONE, DISCARD_PEEKED]
        if ph == SEARCH:
            return [DONE, *sorted(CARD + c for c in self.deck[q])]
        if ph == WOULD_SPOIL:
            return [DONE, *self.saves()]
        if ph == CONCLAVE_TARGET:
            return sorted(CARD + c for c in self.conclave_targets(self.conclave_from))
        if ph == HARVEST:
            return self._harvest_legal()
        if ph == DECLARE:
            return self._declare_legal()
        if ph == SLEEVE:
            return sorted(CARD + c for c in self.sleeve_targets())
        return []

    def _declare_legal(self: ValeState) -> list[int]:
        adv = self.pending_buy[1]
        full, cards = self._buy_options(adv, split=True)
        return ([DONE] if full else []) + sorted(CARD + c for c in cards)

    # -- apply ----------------------------------------------------------------------------------
    def _apply(self: ValeState, a: int) -> None:
        self._legal = None
        ph, q = self.phase, self.active
        if ph == PLANT:
            if a == CONCLAVE:
                self._open_conclave(PLANT)
            elif a == PASS:
                self.end_planting()
                self.start_harvest()
            else:
                self.play_on_deck()
                self.run()
        elif ph == WP_DISCARD:
            if a != DONE:
                c = a - CARD
                self.field[q].remove(c)
                self.discard[q].append(c)
            self.run()
        elif ph == PEEK:
            if a == DISCARD_PEEKED:
                self.discard[q].append(self.deck[q].pop())
            self.peeked = False
            self.run()
        elif ph == SEARCH:
            if a != DONE:
                c = a - CARD
                self.deck[q].remove(c)
                self.discard[q].append(c)
            self.shuffle_deck(q)
            self.run()
        elif ph == WOULD_SPOIL:
            self._apply_save(a)
        elif ph == CONCLAVE_TARGET:
            self._apply_conclave(a - CARD)
        elif ph == HARVEST:
            self._apply_harvest(a)
        elif ph == DECLARE:
            src, adv = self.pending_buy
            self.pending_buy = None
            self.commit_buy(src, adv, -1 if a == DONE else a - CARD)
            self.phase = HARVEST
        elif ph == SLEEVE:
            self.sleeve(self.bought[self.sleeve_index][0], a - CARD)
            self.sleeve_index += 1
            self.run()

    def _apply_save(self: ValeState, a: int) -> None:
        q = self.active
        if a == DONE:
            self.spoil()
        elif a == CONCLAVE:
            self._open_conclave(WOULD_SPOIL)
            return
        elif a == SACRIFICE:
            v = next(v for v in self.active_vales() if self.game_vale_sacrifice(v))
            self.vales[q].remove(v)
            self.boxed_vales.append(v)
            kind = UNTIL_NEXT_PREP if self.stage == PREPPING else UNTIL_TURN_END
            self.growth_bonus.append((self.game_vale_sacrifice(v), kind))
            self.cont = CHECK
        else:  # a redraw: the on-deck card to the discard pile, a new one revealed
            if a == REDRAW_DRUID:
                c = next(c for c in self.field[q] if self.prof[q][c].redraw and c not in self.redraw_cards)
                self.redraw_cards.append(c)
            else:
                self.redraw_vales += 1
            self.discard[q].append(self.on_deck[q])
            self.on_deck[q] = -1
            self.cont = REVEAL
        self.run()

    def _open_conclave(self: ValeState, back: int) -> None:
        self.conclave_from = back
        targets = self.conclave_targets(back)
        if len(targets) == 1:
            self._apply_conclave(targets[0])
        else:
            self.phase = CONCLAVE_TARGET

    def _apply_conclave(self: ValeState, c: int) -> None:
        self.conclave_used += 1
        self.guard_bonus.append((c, UNTIL_PLANTING_END if self.stage == PREPPING else UNTIL_TURN_END))
        back = self.conclave_from
        if back == WOULD_SPOIL:
            self.cont = CHECK
            self.run()
        else:
            if back == HARVEST:
                self.refresh_harvest()
            self.phase = back

    def _apply_harvest(self: ValeState, a: int) -> None:
        if a == DONE:
            self.end_harvest()
        elif a == CONCLAVE:
            self._open_conclave(HARVEST)
        elif BUY_COMMONS <= a < BUY_FERTILE:
            self._start_buy(a - BUY_COMMONS, self.commons[a - BUY_COMMONS])
        elif BUY_FERTILE <= a < BUY_VALE:
            s = a - BUY_FERTILE
            self._start_buy(-1 - s, FERTILE_SOIL[s])
        elif BUY_VALE <= a < SUNSTONE:
            self.buy_vale(a - BUY_VALE)
        else:
            self.pay(self.sunstone_price())
            self.sunstone.append(a - SUNSTONE)

    def _start_buy(self: ValeState, src: int, adv: int) -> None:
        """``src``: a commons position, or -1 - slot for the Fertile Soil supply."""
        full, cards = self._buy_options(adv, split=True)
        if not cards:
            self.commit_buy(src, adv, -1)
        elif not full and len(cards) == 1:
            self.commit_buy(src, adv, cards[0])
        else:
            self.pending_buy = (src, adv)
            self.phase = DECLARE


def vale_name(v: int) -> str:
    return VALES[v].name


__all__ = ["ACTION_MEANINGS", "NUM_ACTIONS", "PHASE_NAMES", "DecisionsMixin", "action_meaning"]
