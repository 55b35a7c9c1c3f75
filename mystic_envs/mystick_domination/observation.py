"""Mystick Domination observer: state -> float32 vector for one seat, egocentric.

Seat blocks come in turn order from the observer: its own first, then the next seat to its right
(seat + 1), and so on. Each holds only what the observer may see: its own hand (another seat's
hand only as the cards it has shown, initiative draws, and its size), discard piles, the play
area, the Mystick Cross, scores, deck sizes, the top cards of a deck an effect revealed, and each
seat's cards not yet seen (its public deck list minus every card the observer can place). Deck
order is never in it. ``build_layout_for(n)`` is the documented layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, build_layout
from mystic_envs.mystick_domination.cards import (
    AFTER_NEXT_INITIATIVE,
    ATTACHMENT,
    CARDS,
    CROSS_SPACES,
    DECK_SIZE,
    ENVIRONMENT,
    IS_MAJOR,
    MAX_PAWNS,
    NUM_CARDS,
    NUM_OPS,
    POOL_BY_PLAYERS,
    SUIT,
    TRAIT_BITS,
    TRAIT_NAMES,
)
from mystic_envs.mystick_domination.rules import ATTACH_TARGET, EFFECT_TARGET, GAME_OVER, PHASE_NAMES

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState

ENV_CARDS = tuple(c.id for c in CARDS if c.type == ENVIRONMENT)
ATT_CARDS = tuple(c.id for c in CARDS if c.type == ATTACHMENT)
DELAYED_CARDS = tuple(c.id for c in CARDS if c.trigger == AFTER_NEXT_INITIATIVE)
_ENV_INDEX = {c: i for i, c in enumerate(ENV_CARDS)}
_ATT_INDEX = {c: i for i, c in enumerate(ATT_CARDS)}
_DELAYED_INDEX = {c: i for i, c in enumerate(DELAYED_CARDS)}
PAWN_FEATURES = 1 + 4 + 4 + 4 + len(ATT_CARDS)  # occupied, suit, rank/infl/power/room, traits, attachments
CROSS_FEATURES = 1 + 4 + 1 + 1 + 1 + 1 + 1  # occupied, suit, major, rank, numeral, this Fate Draw, marked
SEAT_SCALARS = 9


def _seat_parts(k: int) -> list[tuple[str, int, str]]:
    who = "own" if k == 0 else f"seat+{k}"
    attachments = ", ".join(CARDS[c].name for c in ATT_CARDS)
    return [
        (f"{who}_status", SEAT_SCALARS, "in the game, to act, mover, won the initiative, score / 30, "
         "deck / 39, hand / 20, discard / 39, revealed top cards / 3"),
        (f"{who}_hand", NUM_CARDS, "count / 3 of each card in hand (another seat: the cards it has shown)"),
        (f"{who}_unseen", NUM_CARDS, "count / 3 of each of its cards the observer cannot place "
         "(deck, hidden hand)"),
        (f"{who}_discard", NUM_CARDS, "count / 3 of each card in its discard pile"),
        (f"{who}_deck_top", NUM_CARDS, "count / 3 of each card among its deck's revealed top cards"),
        (f"{who}_environments", len(ENV_CARDS), "count / 3 of each Environment in its play area"),
        (f"{who}_pawns", MAX_PAWNS * PAWN_FEATURES,
         f"per Pawn slot: occupied, suit one-hot, rank / 7, influence / 5, Power / 5, room / 5, traits "
         f"({', '.join(TRAIT_NAMES)}), count of each Attachment ({attachments})"),
        (f"{who}_cross", CROSS_SPACES * CROSS_FEATURES,
         "per Mystick Cross space: occupied, suit one-hot, Major, rank / 14, numeral + 1 / 22, drawn in the "
         "Fate Draw in progress, marked for the redraw"),
        (f"{who}_delayed", len(DELAYED_CARDS),
         "its effects waiting for the next initiative draw ("
         + ", ".join(CARDS[c].name for c in DELAYED_CARDS) + ")"),
    ]  # fmt: skip


def build_layout_for(n: int) -> tuple[LayoutEntry, ...]:
    parts = [
        ("pool", 1, f"Power in the pool / {POOL_BY_PLAYERS[n]}"),
        ("draw_count", 1, "the Draw Count / 3"),
        ("round", 1, "round / 20, capped at 1"),
        ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
        (
            "decision_card",
            NUM_CARDS,
            "one-hot: the Attachment being attached, or the card whose effect awaits a target",
        ),
        ("decision_op", NUM_OPS, "one-hot: the effect row awaiting a target (cards.OP_NAMES order)"),
        ("challenger", MAX_PAWNS, "one-hot: your Pawn slot making the challenge in progress"),
        (
            "challenge_target",
            1 + n + MAX_PAWNS,
            "the challenge's target: the pool; else seat (relative) and slot",
        ),
        (
            "challenge_count",
            3,
            "extra successes / 3, successes in the cross so far / 8, Fate cards drawn / 8",
        ),
        ("resources_max", 1, "extra draws Resources allow now / 10"),
        ("extra_move", 1, "1 if the mover takes another move after this one"),
    ]
    for k in range(n):
        parts.extend(_seat_parts(k))
    return build_layout(parts)


_SEAT_BLOCK = sum(size for _, size, _ in _seat_parts(0))
_OFF: dict[str, int] = {}
_start = 0
for _name, _size, _ in _seat_parts(0):
    _OFF[_name.removeprefix("own_")] = _start
    _start += _size
_O_STATUS, _O_HAND, _O_UNSEEN, _O_DISCARD, _O_TOP, _O_ENVS, _O_PAWNS, _O_CROSS, _O_DELAYED = (
    _OFF[k]
    for k in ("status", "hand", "unseen", "discard", "deck_top", "environments", "pawns", "cross", "delayed")
)
# Per-feature divisors of one seat block: values are written raw and scaled once at the end.
_SEAT_SCALE = np.ones(_SEAT_BLOCK, dtype=np.float32)
_SEAT_SCALE[_O_STATUS : _O_STATUS + SEAT_SCALARS] = (1, 1, 1, 1, 30, DECK_SIZE, 20, DECK_SIZE, 3)
_SEAT_SCALE[_O_HAND : _O_ENVS + len(ENV_CARDS)] = 3.0
for _slot in range(MAX_PAWNS):
    _i = _O_PAWNS + _slot * PAWN_FEATURES
    _SEAT_SCALE[_i + 5 : _i + 9] = (7, 5, 5, 5)
    _SEAT_SCALE[_i + 13 : _i + PAWN_FEATURES] = 3.0
for _j in range(CROSS_SPACES):
    _i = _O_CROSS + _j * CROSS_FEATURES
    _SEAT_SCALE[_i + 6 : _i + 8] = (14, 22)


class _Tables:
    """Offsets and the divisor vector of the layout for one player count."""

    def __init__(self, n: int) -> None:
        layout = build_layout_for(n)
        self.at = {e.name: e.start for e in layout}
        self.size = layout[-1].stop
        self.base = self.at["own_status"]
        scale = np.ones(self.size, dtype=np.float32)
        scale[self.at["pool"]] = POOL_BY_PLAYERS[n]
        scale[self.at["draw_count"]] = 3
        scale[self.at["round"]] = 20
        i = self.at["challenge_count"]
        scale[i : i + 3] = (3, 8, 8)
        scale[self.at["resources_max"]] = 10
        for k in range(n):
            b = self.base + k * _SEAT_BLOCK
            scale[b : b + _SEAT_BLOCK] = _SEAT_SCALE
        self.inverse = (1.0 / scale).astype(np.float32)


_TABLES: dict[int, _Tables] = {}
_PAWN_ROWS = np.zeros((NUM_CARDS, 6), dtype=np.float32)  # occupied, suit one-hot, rank: per Pawn card
for _c in CARDS:
    if _c.suit >= 0:
        _PAWN_ROWS[_c.id, 0] = 1.0
        _PAWN_ROWS[_c.id, 1 + _c.suit] = 1.0
        _PAWN_ROWS[_c.id, 5] = _c.rank
_CROSS_ROWS = np.zeros((NUM_CARDS, 8), dtype=np.float32)  # occupied, suit one-hot, Major, rank, numeral + 1
for _c in CARDS:
    _CROSS_ROWS[_c.id, 0] = 1.0
    if _c.is_major:
        _CROSS_ROWS[_c.id, 5] = 1.0
        _CROSS_ROWS[_c.id, 7] = _c.number + 1
    else:
        _CROSS_ROWS[_c.id, 1 + _c.suit] = 1.0
        _CROSS_ROWS[_c.id, 6] = _c.rank
_ZERO_CARDS = [0] * NUM_CARDS


def observe(s: MystickState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array)."""
    n = s.n
    t = _TABLES.get(n)
    if t is None:
        t = _TABLES[n] = _Tables(n)
    at = t.at
    o = np.zeros(t.size, dtype=np.float32)
    o[at["pool"]] = s.pool
    o[at["draw_count"]] = s.draw_count
    o[at["round"]] = min(s.round, 20)
    o[at["phase"] + s.phase] = 1.0
    if s.phase == ATTACH_TARGET:
        o[at["decision_card"] + s.pending_card] = 1.0
    elif s.phase == EFFECT_TARGET:
        _, card, k = s.queue[0]
        o[at["decision_card"] + card] = 1.0
        o[at["decision_op"] + CARDS[card].effects[k].op] = 1.0
    if s.ch_slot >= 0:
        if s.mover == player:
            o[at["challenger"] + s.ch_slot] = 1.0
        i = at["challenge_target"]
        if s.ch_tseat < 0:
            o[i] = 1.0
        else:
            o[i + 1 + (s.ch_tseat - player) % n] = 1.0
            o[i + 1 + n + s.ch_tslot] = 1.0
        i = at["challenge_count"]
        o[i] = s.ch_bonus
        cross, suit = s.cross[s.mover], SUIT[s.ch_card]
        o[i + 1] = sum(1 for j in s.fate if IS_MAJOR[cross[j]] or SUIT[cross[j]] == suit)
        o[i + 2] = len(s.fate)
    o[at["resources_max"]] = s.resources_max
    o[at["extra_move"]] = s.extra_move
    live = s.phase != GAME_OVER
    for k in range(n):
        q = (player + k) % n
        b = t.base + k * _SEAT_BLOCK
        deck = s.deck[q]
        known = s.known_top[q]
        split = len(deck) - known
        o[b : b + SEAT_SCALARS] = (
            s.alive[q],
            s.player == q,
            live and s.mover == q,
            s.initiative_winner == q,
            s.score[q],
            len(deck),
            s.hand_size[q],
            len(s.discard[q]),
            known,
        )
        i = b + _O_HAND
        if q == player:
            o[i : i + NUM_CARDS] = s.hand[q]
            i = b + _O_UNSEEN
            if split:
                o[i : i + NUM_CARDS] = np.bincount(deck[:split], minlength=NUM_CARDS)
        else:
            shown = s.shown[q]
            if any(shown):
                o[i : i + NUM_CARDS] = shown
            i = b + _O_UNSEEN
            hand = s.hand[q]
            unseen = np.bincount(deck[:split], minlength=NUM_CARDS) if split else np.zeros(NUM_CARDS)
            unseen += hand
            unseen -= shown
            o[i : i + NUM_CARDS] = unseen
        if s.discard[q]:
            i = b + _O_DISCARD
            o[i : i + NUM_CARDS] = np.bincount(s.discard[q], minlength=NUM_CARDS)
        if known:
            i = b + _O_TOP
            o[i : i + NUM_CARDS] = np.bincount(deck[split:], minlength=NUM_CARDS)
        i = b + _O_ENVS
        for c in s.envs[q]:
            o[i + _ENV_INDEX[c]] += 1.0
        pawns = s.pawn[q]
        for slot in range(MAX_PAWNS):
            c = pawns[slot]
            if c < 0:
                continue
            i = b + _O_PAWNS + slot * PAWN_FEATURES
            infl, power, traits = s.infl[q][slot], s.power[q][slot], s.traits[q][slot]
            o[i : i + 6] = _PAWN_ROWS[c]
            o[i + 6] = infl
            o[i + 7] = power
            o[i + 8] = infl - power
            if traits:
                for tk, bit in enumerate(TRAIT_BITS):
                    if traits & bit:
                        o[i + 9 + tk] = 1.0
            for a, _ in s.attach[q][slot]:
                o[i + 13 + _ATT_INDEX[a]] += 1.0
        cross = s.cross[q]
        in_fate = s.fate if q == s.mover else ()
        for j in range(CROSS_SPACES):
            c = cross[j]
            if c < 0:
                continue
            i = b + _O_CROSS + j * CROSS_FEATURES
            o[i : i + 8] = _CROSS_ROWS[c]
            if j in in_fate:
                o[i + 8] = 1.0
                if j in s.marked:
                    o[i + 9] = 1.0
        if s.delayed:
            i = b + _O_DELAYED
            for owner, c in s.delayed:
                if owner == q:
                    o[i + _DELAYED_INDEX[c]] += 1.0
    o *= t.inverse
    return o
