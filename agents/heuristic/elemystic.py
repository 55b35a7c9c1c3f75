"""A simple rule-based Elemystic player (the balance reference of ``docs/rules/elemystic.md``).

It sees only what its seat sees: every decision is taken on ``state.determinize(seat)``, where
the opponent's secret and the Unknown Element are re-dealt at random, and it never reads them.

- Draft: take the element with the best mix of top half (Strength + Defense, which counts
  wherever the card sits) and front value (see below).
- Play: choose the intended front element (highest front value: Invocation Strength + Defense
  plus a worth for its ability in the current situation) and the card to leave out (lowest top
  half among the others). Play the two supports first, so the front is revealed last. The third
  element (or a play Storm forces) is chosen by trying every legal play and playing out the rest
  of the round, answering with the same rule one level down.
- Air Token: the bonus with the larger net energy swing against the current columns.
- Shadow: try all four choices on a copy, resolve the rest of the round, keep the best swing.
- Every play-out scores the round's Energy swing plus ``CHARGE_WORTH`` for each Thunder Token that
  the round leaves charged (its owner's +4 Strength next round), so that the play-out sees what
  fronting Thunder costs: the energies alone show only the silence.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.base import DeterminizingHeuristic
from mystic_envs.elemystic import rules
from mystic_envs.elemystic.cards import (
    AIR,
    DEFENSE,
    FIRE,
    INV_DEFENSE,
    INV_STRENGTH,
    LIFE,
    LIFE_RESTORE,
    LIGHT,
    SHADOW,
    STARTING_ENERGY,
    STORM,
    STRENGTH,
    THUNDER,
    WATER,
    WATER_INVOCATION_STRENGTH,
)
from mystic_envs.elemystic.rules import MASK_ELEMENTS, ElemysticState

# What a front ability is worth to this player, in points of column total, before the
# situation is known (Water and Life depend on the energies and are valued in `front_value`).
ABILITY_WORTH = {AIR: 1.0, FIRE: 1.3, SHADOW: 1.5, THUNDER: 1.0, STORM: 0.3, LIGHT: 0.2}
# A charged Thunder Token, in Energy: next round's +4 Strength, less what Defense absorbs and the
# chance that the round is not fought (set with the balance measurement of docs/rules/elemystic.md).
CHARGE_WORTH = 1.0


def top_value(e: int) -> int:
    return STRENGTH[e] + DEFENSE[e]


def front_value(s: ElemysticState, seat: int, e: int) -> float:
    """Worth of ``e``'s bottom half (Invocation Strength and Defense, ability) at the front."""
    v = INV_STRENGTH[e] + INV_DEFENSE[e] + ABILITY_WORTH.get(e, 0.0)
    if e == WATER and s.energy[seat] < s.energy[1 - seat]:
        v += WATER_INVOCATION_STRENGTH - INV_STRENGTH[WATER]
    if e == LIFE:
        v += min(LIFE_RESTORE, STARTING_ENERGY - s.energy[seat])
    return v


def _plan(s: ElemysticState, seat: int) -> tuple[int, int]:
    """(intended front, element to leave unplayed): the pair with the best column total.

    The column total is the three played top halves plus the front's bottom half, so the best
    pair maximises front value minus the top half left out. The front may already be placed.
    """
    hand = MASK_ELEMENTS[s.hand[seat]]
    fronts = [*hand, s.front[seat]] if s.front[seat] >= 0 else list(hand)
    must_leave = len(hand) + s.played[seat] > 3
    best, best_value = (fronts[0], -1), -np.inf
    for f in fronts:
        for leave in [e for e in hand if e != f] if must_leave else [-1]:
            value = front_value(s, seat, f) - (top_value(leave) if leave >= 0 else 0)
            if value > best_value:
                best, best_value = (f, leave), value
    return best


def decide(s: ElemysticState, seat: int, depth: int = 2) -> int:
    """The action for ``seat`` on a state it may fully read (a determinized copy).

    With ``depth`` > 0 the decisive play (the third element, or a play Storm forces to the
    front) tries every legal play and keeps the best round outcome, the rest of the round
    played at ``depth - 1``: at the default depth 2 the player expects the opponent's own
    decisive reply to be a best response. At depth 0 every play follows the static plan.
    """
    phase = s.phase
    if phase == rules.DRAFT_PHASE:
        pool = MASK_ELEMENTS[s.pool]
        best = max(pool, key=lambda e: (top_value(e) + 0.5 * front_value(s, seat, e), -e))
        return rules.DRAFT + best
    if phase == rules.PLAY_PHASE:
        if depth > 0 and (s.played[seat] == 2 or s.storm_forced[seat]):
            return _best_by_swing(s, seat, tuple(s.legal_actions()), depth - 1)
        return _planned_play(s, seat)
    if phase == rules.AIR_TURN:
        return _best_by_swing(s, seat, (rules.AIR_DEFENSE, rules.AIR_STRENGTH), 0)
    if phase == rules.SHADOW_CHOICE:
        return _best_by_swing(
            s,
            seat,
            (
                rules.SHADOW_SELF_BEFORE,
                rules.SHADOW_OPPONENT_BEFORE,
                rules.SHADOW_SELF_AFTER,
                rules.SHADOW_OPPONENT_AFTER,
            ),
            0,
        )
    raise ValueError(f"no decision for seat {seat} in phase {s.phase_name!r}")


def _planned_play(s: ElemysticState, seat: int) -> int:
    front, leave = _plan(s, seat)
    hand = MASK_ELEMENTS[s.hand[seat]]
    if front in hand and (s.storm_forced[seat] or s.played[seat] == 2):
        return rules.PLAY_FRONT + front
    supports = [e for e in hand if e not in (front, leave)]
    if not supports:  # the planned front went out earlier (Storm); play what is left
        supports = [e for e in hand if e != leave] or list(hand)
    e = max(supports, key=lambda x: (top_value(x), -x))
    if s.played[seat] == 0 or s.storm_forced[seat]:
        return rules.PLAY_FRONT + e
    return rules.PLAY_BACK + e


def _best_by_swing(s: ElemysticState, seat: int, options: tuple[int, ...], depth: int) -> int:
    """Try each option on a copy and play out the round at ``depth``: best (energy lost by the
    opponent - energy lost by the seat), a win counting above everything."""
    best, best_score = options[0], -np.inf
    for a in options:
        c = s.clone(share_rng=True)  # s is this player's own determinized copy
        before = list(c.energy)
        round_no = c.round
        c.apply(a)
        while not c.is_terminal and c.round == round_no:
            c.apply(decide(c, c.current_player, depth))
        if c.is_terminal:
            score = 100.0 if c.winner == seat else -100.0
        else:
            score = (before[1 - seat] - c.energy[1 - seat]) - (before[seat] - c.energy[seat])
            # The round is over, so a Thunder Token that came back charged is next round's
            # Strength: the only effect of this round's choice that the energies do not show yet.
            score += CHARGE_WORTH * (c.thunder_charged[seat] - c.thunder_charged[1 - seat])
        if score > best_score:
            best, best_score = a, score
    return best


class ElemysticHeuristic(DeterminizingHeuristic):
    """Rule-based Elemystic agent; see the module docstring."""

    decide = staticmethod(decide)
