"""Elemystic observer: state -> float32 vector for one seat (egocentric: own seat first).

Only what the seat may see goes in: its own secret, both columns and face-up hands, the pool,
tokens and energies, and the opponent's secret only while this seat's Light effect lasts. The
Unknown Element never appears. ``LAYOUT`` is the documented layout (``observation_layout``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import UNIT, build_layout
from mystic_envs.elemystic.cards import (
    AIR_TOKEN_DEFENSE,
    AIR_TOKEN_STRENGTH,
    COLUMN_SIZE,
    DEFENSE,
    ELEMENT_NAMES,
    INV_DEFENSE,
    INV_STRENGTH,
    NUM_ELEMENTS,
    STARTING_ENERGY,
    STRENGTH,
    THUNDER_CHARGE_STRENGTH,
    WATER_INVOCATION_STRENGTH,
)
from mystic_envs.elemystic.rules import GAME_OVER

if TYPE_CHECKING:
    from mystic_envs.elemystic.rules import ElemysticState

_ELEMS = ", ".join(ELEMENT_NAMES)
_E = NUM_ELEMENTS
TOTAL_SCALE = 20.0  # above any column total (MAX_TOTAL)
INV_SCALE = float(max(*INV_STRENGTH, WATER_INVOCATION_STRENGTH))
# The most a column can total: its three elements' top halves, the front's Invocation (Water's 5 at
# most), a charged Thunder Token and the Air Token; Shadow only swaps Strength and Defense.
MAX_STRENGTH = sum(sorted(STRENGTH)[-COLUMN_SIZE:]) + INV_SCALE + THUNDER_CHARGE_STRENGTH + AIR_TOKEN_STRENGTH
MAX_DEFENSE = sum(sorted(DEFENSE)[-COLUMN_SIZE:]) + max(INV_DEFENSE) + AIR_TOKEN_DEFENSE
MAX_TOTAL = max(MAX_STRENGTH, MAX_DEFENSE)
# A seat is attacked only with 1 Energy or more (0 ends the game) and at most once a round, for its
# attacker's Strength less its Defense (0 at least): Energy never falls below 1 - MAX_TOTAL.
MIN_ENERGY = 1 - MAX_TOTAL

LAYOUT = build_layout(
    [
        (
            "energy",
            2,
            "Energy of [self, opponent] / 10 (the loser's may end below 0, I-10)",
            (MIN_ENERGY / STARTING_ENERGY, 1.0),
        ),
        ("round", 1, "round number / 10, capped at 1", UNIT),
        ("phase", 5, "one-hot: draft, play, air_turn, shadow_choice, game_over", UNIT),
        ("to_move", 1, "1 if this seat is to act", UNIT),
        ("draft_first", 2, "Draft First arrow points at [self, opponent]", UNIT),
        ("play_first", 2, "Play First arrow points at [self, opponent]", UNIT),
        ("draft_pool", _E, f"elements face up in the drafting pool ({_ELEMS})", UNIT),
        ("own_secret", _E, "one-hot: this seat's secret element", UNIT),
        ("own_hand", _E, "this seat's unplayed elements, secret included", UNIT),
        ("opp_faceup_hand", _E, "opponent's drafted elements not yet played", UNIT),
        (
            "opp_secret_revealed",
            _E,
            "one-hot: opponent's secret while this seat's Light effect lasts",
            UNIT,
        ),
        ("opp_secret_played", 1, "1 once the opponent has played its secret element face up", UNIT),
        ("own_front", _E, "one-hot: front element of own column", UNIT),
        ("own_support", _E, "other elements of own column (top halves only)", UNIT),
        ("opp_front", _E, "one-hot: front element of opponent's column", UNIT),
        ("opp_support", _E, "other elements of opponent's column", UNIT),
        ("cards_played", 2, "elements played this round by [self, opponent] / 3", UNIT),
        (
            "column_totals",
            4,
            "[own Strength, own Defense, opp Strength, opp Defense] / 20, effects so far",
            (0.0, MAX_TOTAL / TOTAL_SCALE),
        ),
        (
            "invocation_strength",
            2,
            "Invocation Strength of [own, opp] front element / 5 (after Fire, Water)",
            UNIT,
        ),
        ("speed_order", 2, "[self, opponent] attacks first (set once the play phase is over)", UNIT),
        ("attacked", 2, "[self, opponent] has attacked this round", UNIT),
        (
            "air_token",
            4,
            "[self, opp] plays the Air Token this round; [self, opp] took it for next round",
            UNIT,
        ),
        (
            "air_bonus",
            4,
            "Air Token played as [self +2 Strength, self +3 Defense, opp +2 Str, opp +3 Def]",
            UNIT,
        ),
        ("light_token", 2, "[self sees opponent's secret, opponent sees own secret]", UNIT),
        ("shadow_token", 2, "Shadow Token (totals swapped) by [own, opponent] column", UNIT),
        (
            "thunder_token",
            2,
            "[own, opponent's] Thunder Token taken by the other's Thunder: ability silenced",
            UNIT,
        ),
        (
            "thunder_charged",
            2,
            f"[own, opponent's] Thunder Token charged side up: +{THUNDER_CHARGE_STRENGTH} Strength "
            "this round (D-2)",
            UNIT,
        ),
        ("storm_forced", 2, "[self, opponent] must play the next element to the front (Storm)", UNIT),
    ]
)
OBS_SIZE = LAYOUT[-1].stop
_AT = {e.name: e.start for e in LAYOUT}

# Multi-hot row of every 9-bit element mask; row 512 is all zeros (no element: index -1).
_MASK_ROWS = np.zeros((513, _E), dtype=np.float32)
for _m in range(512):
    for _e in range(_E):
        _MASK_ROWS[_m, _e] = _m >> _e & 1
_ONE_HOT = {e: _MASK_ROWS[1 << e] for e in range(_E)}


def observe(state: ElemysticState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array)."""
    s = state
    me, opp = player, 1 - player
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    at = _AT
    o[at["energy"]] = s.energy[me] / STARTING_ENERGY
    o[at["energy"] + 1] = s.energy[opp] / STARTING_ENERGY
    o[at["round"]] = min(s.round / 10.0, 1.0)
    o[at["phase"] + s.phase] = 1.0
    o[at["to_move"]] = s.player == me
    o[at["draft_first"] + (s.draft_first != me)] = 1.0
    o[at["play_first"] + (s.play_first != me)] = 1.0
    i = at["draft_pool"]
    o[i : i + _E] = _MASK_ROWS[s.pool]
    i = at["own_secret"]
    o[i : i + _E] = _ONE_HOT[s.secret[me]]
    i = at["own_hand"]
    o[i : i + _E] = _MASK_ROWS[s.hand[me]]
    opp_secret_bit = 1 << s.secret[opp]
    i = at["opp_faceup_hand"]
    o[i : i + _E] = _MASK_ROWS[s.hand[opp] & ~opp_secret_bit]
    if s.light_reveal[me]:
        i = at["opp_secret_revealed"]
        o[i : i + _E] = _ONE_HOT[s.secret[opp]]
    o[at["opp_secret_played"]] = bool(s.column[opp] & opp_secret_bit)
    for who, name in ((me, "own"), (opp, "opp")):
        f = s.front[who]
        if f >= 0:
            i = at[f"{name}_front"]
            o[i : i + _E] = _ONE_HOT[f]
            i = at[f"{name}_support"]
            o[i : i + _E] = _MASK_ROWS[s.column[who] & ~(1 << f)]
    o[at["cards_played"]] = s.played[me] / COLUMN_SIZE
    o[at["cards_played"] + 1] = s.played[opp] / COLUMN_SIZE
    i = at["column_totals"]
    o[i : i + 2] = s.totals(me)
    o[i + 2 : i + 4] = s.totals(opp)
    o[i : i + 4] /= TOTAL_SCALE
    i = at["invocation_strength"]
    o[i] = s.inv_strength[me] / INV_SCALE
    o[i + 1] = s.inv_strength[opp] / INV_SCALE
    if s.order[0] >= 0:
        o[at["speed_order"] + (s.order[0] != me)] = 1.0
        i = at["attacked"]
        # A game won by the first attack stops with attack_index still on that attacker.
        for k in range(s.attack_index + (s.phase == GAME_OVER)):
            o[i + (s.order[k] != me)] = 1.0
    i = at["air_token"]
    if s.air_holder >= 0:
        o[i + (s.air_holder != me)] = 1.0
    if s.air_taken >= 0:
        o[i + 2 + (s.air_taken != me)] = 1.0
    i = at["air_bonus"]
    if s.air_bonus[me]:
        o[i + s.air_bonus[me] - 1] = 1.0
    if s.air_bonus[opp]:
        o[i + 1 + s.air_bonus[opp]] = 1.0
    i = at["light_token"]
    o[i] = s.light_reveal[me]
    o[i + 1] = s.light_reveal[opp]
    if s.shadow_column >= 0:
        o[at["shadow_token"] + (s.shadow_column != me)] = 1.0
    i = at["thunder_token"]
    o[i] = s.silenced[me]
    o[i + 1] = s.silenced[opp]
    i = at["thunder_charged"]
    o[i] = s.thunder_charged[me]
    o[i + 1] = s.thunder_charged[opp]
    i = at["storm_forced"]
    o[i] = s.storm_forced[me]
    o[i + 1] = s.storm_forced[opp]
    return o
