"""Tarot Dice observer: state -> float32 vector for one seat (egocentric: own seat first).

Public: every die, the Planet and Zodiac faces, the draft, every Major's place, face-up well cards
(the top and any card the Chariot laid over it), graveyards, The Devil's sacrificed card, hand
sizes, and Strength and Death in a hand. Private: the seat's own Minor Arcana in hand, every one a
hidden card (The Magician's included). Seen by nobody: face-down well cards and the cards never
dealt. ``LAYOUT`` is the documented layout.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import UNIT, LayoutEntry, build_layout
from mystic_envs.tarot_dice.actions import TARGET_OF
from mystic_envs.tarot_dice.cards import (
    DEATH,
    DECK_SIZE,
    DIE_NAMES,
    HAND_MAJORS,
    KIND_NAMES,
    MAJOR_CARD,
    NUM_MAJORS,
    NUM_MINORS,
    NUM_NUMBERED,
    PLANET_DIE,
    PLANET_NAMES,
    STRENGTH,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_NAMES,
)
from mystic_envs.tarot_dice.dice import SIZE
from mystic_envs.tarot_dice.phases import OP_DECIDE, PH_QUEEN, PHASE_NAMES

if TYPE_CHECKING:
    from mystic_envs.tarot_dice.rules import TarotDiceState

_DICE = f"own {', '.join(DIE_NAMES)}, then the opponent's"
CARD_PLACES = (
    "hand",
    "top of well 1",
    "top of well 2",
    "top of well 3",
    "under the top of well 1",
    "under the top of well 2",
    "under the top of well 3",
    "graveyard",
    "top of the graveyard",
    "sacrificed to The Devil",
)
_HAND, _TOP, _UNDER, _GRAVE, _GRAVE_TOP, _SACRIFICED = 0, 1, 4, 7, 8, 9
DIE_FEATURES = (
    "on the board",
    "value / 20",
    "shows its maximum",
    "banished by this seat (Knight, The Hermit: until this seat's next turn)",
    "banished by the opponent (until the opponent's next turn)",
    "banished by Neptune (while it is active)",
    "locked by Leo",
)
PLAYED_CARDS = DECK_SIZE + 2  # a seat's 28 Minors, then Strength and Death
VALUE_SCALE = 20.0  # the highest face of any die
POINTS_SCALE = 40.0  # the most one round can score (D20 + D20); match points can pass it
HAND_SCALE = 8.0

# A seat's 28 Minors are all it can hold: a well or a hand (with Strength and Death) holds no more.
_WELL_BOUNDS = (UNIT, (0.0, DECK_SIZE / 4.0), UNIT) * (2 * WELLS)
_HAND_HIGH = (DECK_SIZE + len(HAND_MAJORS)) / HAND_SCALE


@functools.cache
def layout_for(num_rounds: int) -> tuple[LayoutEntry, ...]:
    """The layout of a match of ``num_rounds`` rounds: only the bounds of ``points`` and
    ``rounds_done`` depend on it (``LAYOUT`` is the default match's)."""
    # Every round awards its winner 8 to 40 points, so totals level after the last round go to one
    # sudden-death round, never more (D-2): at most num_rounds + 1 rounds of at most 40 points.
    most_rounds = num_rounds + 1
    return build_layout(
        [
            (
                "dice",
                NUM_NUMBERED * len(DIE_FEATURES),
                f"numbered dice ({_DICE}), each: {', '.join(DIE_FEATURES)}",
                UNIT,
            ),
            ("planet", 12, f"one-hot Planet face: {', '.join(PLANET_NAMES)}", UNIT),
            ("zodiac", 12, f"one-hot Zodiac face: {', '.join(ZODIAC_NAMES)}", UNIT),
            (
                "effects_on",
                2,
                "1 if [the Planet die's, the Zodiac die's] effects apply (Taurus / Sun negate)",
                UNIT,
            ),
            ("own_majors", NUM_MAJORS, "Major Arcana 0-21 this seat drafted", UNIT),
            ("opp_majors", NUM_MAJORS, "Major Arcana 0-21 the opponent drafted", UNIT),
            ("draft_pile", NUM_MAJORS, "Major Arcana 0-21 still in the draft pile", UNIT),
            (
                "played_majors",
                8,
                "Strength and Death in [own hand, opponent's hand, own graveyard, opponent's graveyard] "
                "(Strength, Death for each)",
                UNIT,
            ),
            (
                "graveyard_top_major",
                4,
                "Strength / Death on top of [own graveyard (2), opponent's graveyard (2)]",
                UNIT,
            ),
            (
                "cards",
                2 * DECK_SIZE * len(CARD_PLACES),
                "Minor Arcana, own deck (first suit Ace ... King, second suit) then the opponent's, each "
                f"one-hot where this seat knows it to be: {', '.join(CARD_PLACES)}; all zero if unknown",
                UNIT,
            ),
            (
                "wells",
                2 * WELLS * 3,
                "own wells 1-3 then the opponent's, each: [still a well, cards in it / 4, "
                "its bottom card is face down]",
                _WELL_BOUNDS,
            ),
            (
                "hand_size",
                2,
                f"cards in the hand of [self, opponent] / {HAND_SCALE:g} (Majors included)",
                (0.0, _HAND_HIGH),
            ),
            (
                "points",
                2,
                f"match points of [self, opponent] / {POINTS_SCALE:g}, at most num_rounds + 1 (one "
                "sudden-death round at most)",
                (0.0, most_rounds * 40.0 / POINTS_SCALE),
            ),
            (
                "rounds_done",
                1,
                "rounds finished / rounds in the match (above 1 after a sudden-death round)",
                (0.0, most_rounds / num_rounds),
            ),
            ("round_starter", 2, "who takes the first turn of this round: [self, opponent]", UNIT),
            ("draft_first", 2, "who picks first in this round's draft: [self, opponent]", UNIT),
            ("draft_picks", 1, "Majors drafted this round / 6", UNIT),
            ("turn_in_round", 1, "turns played this round / the round's turn limit", UNIT),
            ("captured_this_turn", 1, "1 if the player to move captured this turn (Aries)", UNIT),
            (
                "planet_pending",
                1,
                "1 while this turn's Planet phase is still to come (the action phase included)",
                UNIT,
            ),
            ("phase", len(PHASE_NAMES), f"one-hot sub-decision: {', '.join(PHASE_NAMES)}", UNIT),
            ("to_move", 1, "1 if this seat is to act", UNIT),
            (
                "play_card",
                2 * PLAYED_CARDS,
                "one-hot card being played: own 28 Minors, Strength, Death, then the opponent's",
                UNIT,
            ),
            ("play_source", 3, "where the card being played came from: [hand, well, The Devil]", UNIT),
            ("play_kind", len(KIND_NAMES), f"one-hot what it is played as: {', '.join(KIND_NAMES)}", UNIT),
            ("play_value", 1, "the value a number is played as / 12", UNIT),
            (
                "play_target",
                NUM_NUMBERED + 2,
                "one-hot die its own effect went to (dice as in actions)",
                UNIT,
            ),
            ("play_substituted", 1, "1 if it has the graveyard top's effect (The Hanged Man)", UNIT),
            (
                "play_prev_top",
                2 * PLAYED_CARDS,
                "one-hot top card of the player's graveyard before the card being played (the effect The "
                "Hanged Man offers; what Judgement and The Tower read): own 28 Minors, Strength, Death, then "
                "the opponent's",
                UNIT,
            ),
            ("play_triggers", NUM_MAJORS, "Major Arcana the card triggered, not yet used or declined", UNIT),
            ("queen_rerolls", 1, "the Queen's rerolls still to make / 2", UNIT),
            (
                "chariot_card",
                2 * DECK_SIZE,
                "one-hot numbered card The Chariot is putting back on a well: own deck, then the opponent's",
                UNIT,
            ),
            (
                "outer_play",
                1 + NUM_MAJORS,
                "[1 if a card play waits under the one being played (The Devil's card), then the Major "
                "Arcana that waiting card triggered, not yet used or declined]",
                UNIT,
            ),
            ("resolving", NUM_MAJORS, "one-hot Major Arcana whose effect is being resolved", UNIT),
        ]
    )


LAYOUT = layout_for(2)
OBS_SIZE = LAYOUT[-1].stop
_AT = {e.name: e.start for e in LAYOUT}
_DICE_AT, _PLANET, _ZODIAC, _EFFECTS = _AT["dice"], _AT["planet"], _AT["zodiac"], _AT["effects_on"]
_OWN_MAJORS, _OPP_MAJORS, _PILE = _AT["own_majors"], _AT["opp_majors"], _AT["draft_pile"]
_PLAYED_MAJORS, _TOP_MAJOR, _CARDS, _WELLS = (
    _AT["played_majors"],
    _AT["graveyard_top_major"],
    _AT["cards"],
    _AT["wells"],
)
_HAND_SIZE, _POINTS, _ROUNDS = _AT["hand_size"], _AT["points"], _AT["rounds_done"]
_STARTER, _DRAFT_FIRST, _PICKS, _TURN, _CAPTURED = (
    _AT["round_starter"],
    _AT["draft_first"],
    _AT["draft_picks"],
    _AT["turn_in_round"],
    _AT["captured_this_turn"],
)
_PHASE, _TO_MOVE, _PLAY_CARD, _SOURCE, _KIND, _VALUE = (
    _AT["phase"],
    _AT["to_move"],
    _AT["play_card"],
    _AT["play_source"],
    _AT["play_kind"],
    _AT["play_value"],
)
_TARGET, _SUBSTITUTED, _TRIGGERS, _RESOLVING = (
    _AT["play_target"],
    _AT["play_substituted"],
    _AT["play_triggers"],
    _AT["resolving"],
)
_PLANET_PENDING, _PREV_TOP, _QUEEN, _CHARIOT, _OUTER = (
    _AT["planet_pending"],
    _AT["play_prev_top"],
    _AT["queen_rerolls"],
    _AT["chariot_card"],
    _AT["outer_play"],
)
_NPLACES = len(CARD_PLACES)
# Majors, cards, wells and hand sizes follow each other in the layout: one cached block.
_STATIC = slice(_OWN_MAJORS, _HAND_SIZE + 2)
# EGO_CARD[v][c]: Minor c's index in seat v's view, own deck first (0-55).
EGO_CARD = tuple(
    tuple((c // DECK_SIZE != v) * DECK_SIZE + c % DECK_SIZE for c in range(NUM_MINORS)) for v in (0, 1)
)
# CARD_ROW[v][c]: where Minor c's one-hot starts in seat v's view.
CARD_ROW = tuple(tuple(_CARDS + i * _NPLACES for i in EGO_CARD[v]) for v in (0, 1))
# DIE_ROW[v][d]: where numbered die d's features start in seat v's view.
DIE_ROW = tuple(
    tuple(_DICE_AT + TARGET_OF[v][d] * len(DIE_FEATURES) for d in range(NUM_NUMBERED)) for v in (0, 1)
)
_BITS12 = tuple(tuple(d for d in range(NUM_NUMBERED) if m >> d & 1) for m in range(1 << NUM_NUMBERED))
_HALF = NUM_MAJORS // 2
_MAJOR_BITS = tuple(tuple(m for m in range(NUM_MAJORS) if mask >> m & 1) for mask in range(1 << _HALF))
# HALF_ROWS[mask]: the 11 one/zero values of an 11-bit mask, assigned a half block at a time.
HALF_ROWS = ((np.arange(1 << _HALF)[:, None] >> np.arange(_HALF)) & 1).astype(np.float32)
_LOW = (1 << _HALF) - 1


def _majors(mask: int) -> tuple[int, ...]:
    return _MAJOR_BITS[mask & _LOW] + tuple(_HALF + m for m in _MAJOR_BITS[mask >> _HALF])


def _played_card_index(owner: int, viewer: int, card: int, block: int = _PLAY_CARD) -> int:
    base = block + (owner != viewer) * PLAYED_CARDS
    if card >= NUM_MINORS:
        return base + DECK_SIZE + (card - MAJOR_CARD == DEATH)
    return base + card % DECK_SIZE


def _cards_block(s: TarotDiceState, me: int) -> np.ndarray:
    """The observation from ``own_majors`` to ``hand_size`` for seat ``me``: Majors, cards, wells."""
    opp = 1 - me
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    ones = []
    add = ones.append
    for start, mask in (
        (_OWN_MAJORS, s.owned[me]),
        (_OPP_MAJORS, s.owned[opp]),
        (_PILE, s.pile),
    ):
        if mask:
            o[start : start + _HALF] = HALF_ROWS[mask & _LOW]
            o[start + _HALF : start + NUM_MAJORS] = HALF_ROWS[mask >> _HALF]
    # Cards
    card_row = CARD_ROW[me]
    for q in (me, opp):
        side = q != me
        hand_majors = s.major_hand[q]
        if hand_majors >> STRENGTH & 1:
            add(_PLAYED_MAJORS + 2 * side)
        if hand_majors >> DEATH & 1:
            add(_PLAYED_MAJORS + 2 * side + 1)
        if q == me:
            ones += [card_row[c] + _HAND for c in s.hand[q]]  # the opponent's are all hidden cards
        wells = s.wells[q]
        hidden = s.hidden_well[q]
        well_at = _WELLS + 9 * side
        for k in range(WELLS):
            well = wells[k]
            if s.open_wells[q] >> k & 1:
                add(well_at + 3 * k)
            if well:
                o[well_at + 3 * k + 1] = len(well) / 4.0
                add(card_row[well[-1]] + _TOP + k)
                first = 1 if hidden >> k & 1 else 0
                ones += [card_row[c] + _UNDER + k for c in well[first:-1]]
                if first:
                    add(well_at + 3 * k + 2)
        graveyard = s.graveyard[q]
        for c in graveyard:
            if c >= NUM_MINORS:
                add(_PLAYED_MAJORS + 4 + 2 * side + (c - MAJOR_CARD == DEATH))
            elif c != graveyard[-1]:
                add(card_row[c] + _GRAVE)
        if graveyard:
            top = graveyard[-1]
            if top >= NUM_MINORS:
                add(_TOP_MAJOR + 2 * side + (top - MAJOR_CARD == DEATH))
            else:
                add(card_row[top] + _GRAVE_TOP)
        if s.sacrificed[q] >= 0:
            add(card_row[s.sacrificed[q]] + _SACRIFICED)
    o[_HAND_SIZE] = (len(s.hand[me]) + s.major_hand[me].bit_count()) / HAND_SCALE
    o[_HAND_SIZE + 1] = (len(s.hand[opp]) + s.major_hand[opp].bit_count()) / HAND_SCALE
    o[ones] = 1.0
    return o[_STATIC]


def observe(state: TarotDiceState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array)."""
    s = state
    me, opp = player, 1 - player
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    ones = []
    add = ones.append
    # Dice
    value = s.value
    board = s.board
    bans = (s.knight_ban[me], s.knight_ban[opp], s.neptune_ban)
    banned = bans[0] | bans[1] | bans[2]
    locked = s.locked()
    rows = DIE_ROW[me]
    for d in _BITS12[board]:
        r = rows[d]
        v = value[d]
        add(r)
        o[r + 1] = v / VALUE_SCALE
        if v == SIZE[d]:
            add(r + 2)
        if banned >> d & 1:
            ones += [r + 3 + k for k in range(3) if bans[k] >> d & 1]
        if locked >> d & 1:
            add(r + 6)
    add(_PLANET + value[PLANET_DIE] - 1)
    add(_ZODIAC + value[ZODIAC_DIE] - 1)
    if s.planet_active():
        add(_EFFECTS)
    if s.zodiac_active():
        add(_EFFECTS + 1)
    # Cards and Majors: rebuilt only when they changed since this seat last looked.
    key = (s._cards_changed, s.rounds_done)
    seen = s._seen[me]
    if seen is None or seen[0] != key:
        seen = s._seen[me] = (key, _cards_block(s, me))
    o[_STATIC] = seen[1]
    # Round and match
    add(_STARTER + (s.round_starter != me))
    add(_DRAFT_FIRST + (s.draft_first != me))
    if s.captured_this_turn:
        add(_CAPTURED)
    if s.planet_phase_pending():
        add(_PLANET_PENDING)
    add(_PHASE + s.phase)
    if s.player == me:
        add(_TO_MOVE)
    o[_POINTS] = s.points[me] / POINTS_SCALE
    o[_POINTS + 1] = s.points[opp] / POINTS_SCALE
    o[_ROUNDS] = s.rounds_done / s.game.num_rounds
    o[_PICKS] = s.draft_pos / 6.0
    o[_TURN] = s.turn_in_round / s.game.round_turn_limit
    # The decision at hand
    if s.plays:
        play = s.plays[-1]
        actor = s.player
        add(_played_card_index(actor, me, play.card))
        # Strength and Death come from the hand, though they are no hidden cards.
        from_hand = play.hidden or play.card >= NUM_MINORS
        add(_SOURCE + (2 if play.from_devil else 0 if from_hand else 1))
        if play.kind >= 0:
            add(_KIND + play.kind)
        o[_VALUE] = play.value / 12.0
        if play.target >= 0:
            add(_TARGET + TARGET_OF[me][play.target])
        if play.effect_card != play.card:
            add(_SUBSTITUTED)
        if play.prev_top >= 0:
            add(_played_card_index(actor, me, play.prev_top, _PREV_TOP))
        ones += [_TRIGGERS + m for m in _majors(play.pending)]
        if play.returning >= 0:
            add(_CHARIOT + EGO_CARD[me][play.returning])
        if len(s.plays) > 1:
            add(_OUTER)
            ones += [_OUTER + 1 + m for m in _majors(s.plays[-2].pending)]
        queen = sum(1 for task in s.tasks if task[:2] == (OP_DECIDE, PH_QUEEN))
        if queen or s.phase == PH_QUEEN:
            o[_QUEEN] = (queen + (s.phase == PH_QUEEN)) / 2.0
    if s.resolving >= 0:
        add(_RESOLVING + s.resolving)
    o[ones] = 1.0
    return o


__all__ = ["CARD_PLACES", "LAYOUT", "OBS_SIZE", "observe"]
