"""Mystick Domination observer: state -> float32 vector for one seat, egocentric.

Seat blocks come in turn order from the observer: its own first, then the next seat to its right
(seat + 1), and so on. Each holds only what the observer may see: its own hand (another seat's
hand only as its face-up cards, initiative draws, and its size), discard piles, the play area,
the Mystick Cross, scores, deck sizes, how many top cards of a deck somebody has looked at and
the ones the observer looked at itself (I-10), and the cards the observer knows are among a seat's
unseen ones: its own deck; with two random decks (one 78-card set split in two) the rest of the
opponent's; otherwise only the cards it saw go back into that deck or hand (D-5: deck lists are
hidden). Deck order is never in it. ``build_layout_for(n)`` is the documented layout.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import UNIT, Bounds, LayoutEntry, build_layout
from mystic_envs.mystick_domination.cards import (
    AFTER_NEXT_INITIATIVE,
    ATTACHMENT,
    CARDS,
    CROSS_SPACES,
    DECK_SIZE,
    ENVIRONMENT,
    FATE,
    INFLUENCE,
    IS_MAJOR,
    MAX_COPIES_ADVANCED,
    MAX_PAWNS,
    NUM_CARDS,
    NUM_OPS,
    POOL_BY_PLAYERS,
    SUCCESS,
    SUIT,
    TRAIT_BITS,
    TRAIT_INFLUENCE,
    TRAIT_NAMES,
)
from mystic_envs.mystick_domination.decisions import ATTACH_TARGET, EFFECT_TARGET, GAME_OVER, PHASE_NAMES

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState

ENV_CARDS = tuple(c.id for c in CARDS if c.type == ENVIRONMENT)
ATT_CARDS = tuple(c.id for c in CARDS if c.type == ATTACHMENT)
DELAYED_CARDS = tuple(c.id for c in CARDS if c.trigger == AFTER_NEXT_INITIATIVE)
_ENV_INDEX = {c: i for i, c in enumerate(ENV_CARDS)}
_ATT_INDEX = {c: i for i, c in enumerate(ATT_CARDS)}
_DELAYED_INDEX = {c: i for i, c in enumerate(DELAYED_CARDS)}
PAWN_HEAD = 1 + 4 + 4 + 4  # occupied, suit one-hot, rank/influence/Power/room, traits


def pawn_features(n: int) -> int:
    """A Pawn slot's size: its head, then the count of each Attachment by each owner (relative to
    the Pawn's controller), since an Attachment's owner is public and decides its "you" and pile."""
    return PAWN_HEAD + n * len(ATT_CARDS)


CROSS_FEATURES = 1 + 4 + 1 + 1 + 1 + 1 + 1  # occupied, suit, major, rank, numeral, this Fate Draw, marked
SEAT_SCALARS = 9
# Saturating entries: a score, the pool and a seat's waiting effects have no maximum (no maximum
# score, Q&A; Power created by effects reaches the pool by Power To Pool, by influence falling and
# by a removed Pawn, and cards shuffled back let a game and a round run on; a card shuffled back by
# Heavy Purse and drawn again can wait twice in one round). Each is shown as min(value, cap), so
# it cannot leave its bound; the caps are about twice the most seen in 10**6 random moves at 2-5
# players (score 44, pool 1.13x its start, 2 waiting), and the compiled twin reads them from here.
SCORE_CAP = 60
POOL_CAP = 2  # times the pool at the start
DELAYED_CAP = 4


def pool_cap(n: int) -> int:
    """The Power the pool entry saturates at with ``n`` players."""
    return POOL_CAP * POOL_BY_PLAYERS[n]


def saturated(value: int, cap: int) -> int:
    """A saturating entry's raw value: ``value`` up to ``cap``."""
    return min(value, cap)


def max_influence(n: int) -> int:
    """The most influence a Pawn can reach with ``n`` players: the highest printed, every copy in
    the game of each Attachment that raises influence (``n`` decks of at most MAX_COPIES_ADVANCED
    copies), and every copy of its controller's own Environments that raise it."""
    raised_by = {c.type: 0 for c in CARDS}
    for c in CARDS:
        for e in c.effects:
            if e.op in (INFLUENCE, TRAIT_INFLUENCE) and e.amount > 0:
                raised_by[c.type] += e.amount
    return (
        max(c.influence for c in CARDS)
        + n * MAX_COPIES_ADVANCED * raised_by[ATTACHMENT]
        + MAX_COPIES_ADVANCED * raised_by[ENVIRONMENT]
    )


def max_extra_successes(n: int) -> int:
    """The most extra successes a challenge can get with ``n`` players: each of its at most
    CROSS_SPACES Fate cards the largest a Major adds when drawn, and every copy in the game of each
    other card that adds successes (``n`` decks of at most MAX_COPIES_ADVANCED copies)."""
    fate = other = 0
    for c in CARDS:
        for e in c.effects:
            if e.op == SUCCESS:
                if c.trigger == FATE:
                    fate = max(fate, e.amount)
                else:
                    other += e.amount
    return CROSS_SPACES * fate + n * MAX_COPIES_ADVANCED * other


def _pawn_bounds(n: int) -> tuple[tuple[float, float], ...]:
    """One Pawn slot: rank / 7; influence, Power and room / 5 up to ``max_influence(n)``; counts of
    an Attachment by one owner / 3 (a deck holds MAX_COPIES_ADVANCED copies at most)."""
    top = max_influence(n) / 5
    head = (UNIT,) * 5 + (UNIT, (0.0, top), (0.0, top), (0.0, top)) + (UNIT,) * len(TRAIT_BITS)
    return (head + (UNIT,) * (n * len(ATT_CARDS))) * MAX_PAWNS


def _seat_parts(k: int, n: int) -> list[tuple[str, int, str, Bounds]]:
    who = "own" if k == 0 else f"seat+{k}"
    attachments = ", ".join(CARDS[c].name for c in ATT_CARDS)
    return [
        (f"{who}_status", SEAT_SCALARS, "in the game, to act, mover, won the initiative, "
         f"score / 30 (saturates at {SCORE_CAP}), deck / 39, hand / 20, discard / 39, top cards of "
         "its deck somebody has looked at / 3",
         (UNIT,) * 4 + ((0.0, SCORE_CAP / 30), UNIT, (0.0, DECK_SIZE / 20), UNIT, UNIT)),
        (f"{who}_hand", NUM_CARDS, "count / 3 of each card in hand (another seat: its face-up cards)", UNIT),
        (f"{who}_unseen", NUM_CARDS, "count / 3 of each card known to be among its cards the observer "
         "cannot place (deck, face-down hand): own deck; two random decks: the rest of the set; "
         "else cards seen going back", UNIT),
        (f"{who}_discard", NUM_CARDS, "count / 3 of each card in its discard pile", UNIT),
        (f"{who}_discard_order", NUM_CARDS, f"place in its discard pile of each card's topmost copy: "
         f"({DECK_SIZE} - cards above it) / {DECK_SIZE}, so 1 is the top card; 0 if not in the pile", UNIT),
        (f"{who}_deck_top", NUM_CARDS, "count / 3 of each card among its deck's top cards the observer "
         "looked at", UNIT),
        (f"{who}_environments", len(ENV_CARDS), "count / 3 of each Environment in its play area", UNIT),
        (f"{who}_pawns", MAX_PAWNS * pawn_features(n),
         f"per Pawn slot: occupied, suit one-hot, rank / 7, influence / 5, Power / 5, room / 5, traits "
         f"({', '.join(TRAIT_NAMES)}), then for each owner (the Pawn's controller first, then the "
         f"seats after it in turn order) the count / 3 of each of its Attachments ({attachments})",
         _pawn_bounds(n)),
        (f"{who}_cross", CROSS_SPACES * CROSS_FEATURES,
         "per Mystick Cross space: occupied, suit one-hot, Major, rank / 14, numeral + 1 / 22, drawn in the "
         "Fate Draw in progress, marked for the redraw", UNIT),
        (f"{who}_delayed", len(DELAYED_CARDS),
         "its effects waiting for the next initiative draw ("
         + ", ".join(CARDS[c].name for c in DELAYED_CARDS) + f"), count each, saturates at {DELAYED_CAP}",
         (0.0, DELAYED_CAP)),
    ]  # fmt: skip


def build_layout_for(n: int) -> tuple[LayoutEntry, ...]:
    parts = [
        (
            "pool",
            1,
            f"Power in the pool / {POOL_BY_PLAYERS[n]} (saturates at {pool_cap(n)})",
            (0.0, POOL_CAP),
        ),
        ("draw_count", 1, "the Draw Count / 3", UNIT),
        ("round", 1, "round / 20, capped at 1", UNIT),
        ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES), UNIT),
        (
            "decision_card",
            NUM_CARDS,
            "one-hot: the Attachment being attached, or the card whose effect awaits a target",
            UNIT,
        ),
        ("decision_op", NUM_OPS, "one-hot: the effect row awaiting a target (cards.OP_NAMES order)", UNIT),
        ("challenger", MAX_PAWNS, "one-hot: your Pawn slot making the challenge in progress", UNIT),
        (
            "challenge_target",
            1 + n + MAX_PAWNS,
            "the challenge's target: the pool; else seat (relative) and slot",
            UNIT,
        ),
        (
            "challenge_count",
            3,
            "extra successes / 3, successes in the cross so far / 8, Fate cards drawn / 8",
            ((0.0, max_extra_successes(n) / 3), UNIT, UNIT),
        ),
        ("resources_max", 1, "extra draws Resources allow now / 10", UNIT),
        ("extra_move", 1, "1 if the mover takes another move after this one", UNIT),
    ]
    for k in range(n):
        parts.extend(_seat_parts(k, n))
    return build_layout(parts)


class _Tables:
    """Offsets and the divisor vector of the layout for one player count; ``o_*`` are offsets
    inside a seat block, ``seat_block`` its size, ``pawn_features`` a Pawn slot's size."""

    def __init__(self, n: int) -> None:
        layout = build_layout_for(n)
        self.at = {e.name: e.start for e in layout}
        self.size = layout[-1].stop
        self.base = self.at["own_status"]
        self.pawn_features = pf = pawn_features(n)
        off, start = {}, 0
        for name, size, *_ in _seat_parts(0, n):
            off[name.removeprefix("own_")] = start
            start += size
        self.seat_block = start
        self.o_hand, self.o_unseen, self.o_discard, self.o_order = (
            off[k] for k in ("hand", "unseen", "discard", "discard_order")
        )
        self.o_top, self.o_envs, self.o_pawns, self.o_cross, self.o_delayed = (
            off[k] for k in ("deck_top", "environments", "pawns", "cross", "delayed")
        )
        # Per-feature divisors of one seat block: values are written raw and scaled once at the end.
        seat = np.ones(start, dtype=np.float32)
        seat[:SEAT_SCALARS] = (1, 1, 1, 1, 30, DECK_SIZE, 20, DECK_SIZE, 3)
        seat[self.o_hand : self.o_envs + len(ENV_CARDS)] = 3.0
        seat[self.o_order : self.o_order + NUM_CARDS] = DECK_SIZE
        for slot in range(MAX_PAWNS):
            i = self.o_pawns + slot * pf
            seat[i + 5 : i + 9] = (7, 5, 5, 5)
            seat[i + PAWN_HEAD : i + pf] = 3.0
        for j in range(CROSS_SPACES):
            i = self.o_cross + j * CROSS_FEATURES
            seat[i + 6 : i + 8] = (14, 22)
        scale = np.ones(self.size, dtype=np.float32)
        scale[self.at["pool"]] = POOL_BY_PLAYERS[n]
        scale[self.at["draw_count"]] = 3
        scale[self.at["round"]] = 20
        i = self.at["challenge_count"]
        scale[i : i + 3] = (3, 8, 8)
        scale[self.at["resources_max"]] = 10
        for k in range(n):
            b = self.base + k * start
            scale[b : b + start] = seat
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
_PAWN_SUIT = tuple(1 + c.suit for c in CARDS)  # the suit one-hot's index in a Pawn slot
_PAWN_RANK = tuple(float(c.rank) for c in CARDS)
_CARD_IDS = range(NUM_CARDS)


def _held(counts: list[int], total: int) -> list[int]:
    """The card ids of a count list, each as often as it is held (``total`` copies in all):
    written one by one, a hand of a few cards costs far less than converting all 78 counts."""
    cards = list(compress(_CARD_IDS, counts))
    if len(cards) != total:  # copies of a card (advanced decks)
        cards = [c for c in _CARD_IDS for _ in range(counts[c])]
    return cards


def _deck_counts(cache: dict, s: MystickState, q: int, split: int) -> np.ndarray:
    """Counts of the bottom ``split`` cards of ``q``'s deck. A deck only loses its top cards
    until it is shuffled (``pile_epoch``), so the same ``split`` is the same cards."""
    key = (split, s.pile_epoch)
    hit = cache.get(("deck", q))
    if hit is None or hit[0] != key:
        hit = cache[("deck", q)] = (
            key,
            np.bincount(s.deck[q][:split], minlength=NUM_CARDS).astype(np.float32),
        )
    return hit[1]


def _without(cards: list[int], shown: list[int]) -> list[int]:
    """``cards`` (sorted, with repeats) less the ``shown`` counts of each."""
    out, left = [], shown[:]
    for c in cards:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


_ALWAYS = object()  # a part's key that never matches: rebuilt on every observation
_PAWN_MEMO: dict[tuple, np.ndarray] = {}  # (card, influence, Power, traits, Attachments, n) -> slot row


def _pawn_row(
    c: int, infl: int, power: int, traits: int, attached: tuple[tuple[int, int], ...], n: int
) -> np.ndarray:
    """The raw values of a Pawn slot; the same few hundred rows come back all game long.
    ``attached``: (Attachment, its owner relative to the Pawn's controller) pairs."""
    key = (c, infl, power, traits, attached, n)
    row = _PAWN_MEMO.get(key)
    if row is None:
        row = np.zeros(pawn_features(n), dtype=np.float32)
        row[0] = 1.0
        row[_PAWN_SUIT[c]] = 1.0
        row[5:9] = (_PAWN_RANK[c], infl, power, infl - power)
        for tk, bit in enumerate(TRAIT_BITS):
            if traits & bit:
                row[9 + tk] = 1.0
        for a, rel in attached:
            row[PAWN_HEAD + rel * len(ATT_CARDS) + _ATT_INDEX[a]] += 1.0
        if len(_PAWN_MEMO) < 100_000:  # a bound no real game comes near
            _PAWN_MEMO[key] = row
    return row


# Raw values of a Mystick Cross space: per card, as drawn in the Fate Draw in progress (and
# marked for the redraw) or not.
_CROSS_FULL = np.zeros((NUM_CARDS, 3, CROSS_FEATURES), dtype=np.float32)
_CROSS_FULL[:, :, :8] = _CROSS_ROWS[:, None, :]
_CROSS_FULL[:, 1:, 8] = 1.0
_CROSS_FULL[:, 2, 9] = 1.0


def _table_part(s: MystickState, q: int, t: _Tables) -> np.ndarray:
    """Seat ``q``'s Environments, Pawns and waiting effects: raw values of the last parts of its
    seat block but the Mystick Cross (``_cross_part``), which changes on its own."""
    o = np.zeros(t.seat_block - t.o_envs, dtype=np.float32)
    n, pf = s.n, t.pawn_features
    for c in s.envs[q]:
        o[_ENV_INDEX[c]] += 1.0
    pawns = s.pawn[q]
    if max(pawns) >= 0:
        infl, power, traits, attach = s.infl[q], s.power[q], s.traits[q], s.attach[q]
        for slot in range(MAX_PAWNS):
            c = pawns[slot]
            if c >= 0:
                i = t.o_pawns - t.o_envs + slot * pf
                attached = tuple((a, (r - q) % n) for a, r in attach[slot]) if attach[slot] else ()
                o[i : i + pf] = _pawn_row(c, infl[slot], power[slot], traits[slot], attached, n)
    for owner, c in s.delayed:
        if owner == q:
            i = t.o_delayed - t.o_envs + _DELAYED_INDEX[c]
            o[i] = saturated(int(o[i]) + 1, DELAYED_CAP)
    return o


def _cross_part(s: MystickState, q: int) -> np.ndarray:
    """Raw values of seat ``q``'s Mystick Cross: each card, as drawn in the Fate Draw in progress
    (and marked for the redraw) or not."""
    o = np.zeros(CROSS_SPACES * CROSS_FEATURES, dtype=np.float32)
    cross = s.cross[q]
    if max(cross) >= 0:
        in_fate = s.fate if q == s.mover else ()
        for j in range(CROSS_SPACES):
            c = cross[j]
            if c >= 0:
                i = j * CROSS_FEATURES
                o[i : i + CROSS_FEATURES] = _CROSS_FULL[c, (1 + (j in s.marked)) if j in in_fate else 0]
    return o


def observe(s: MystickState, player: int) -> np.ndarray:
    """The observation of seat ``player`` (a fresh array).

    Speed (D-10): the state keeps, per observer, the raw (unscaled) vector it last handed out and
    what each of its parts was built from; a part is rebuilt only when that changed (a hand when
    ``hand_version`` moves, a deck or discard pile when its size or ``pile_epoch`` does, a play
    area by ``table_version``, its Power, influence and cross). The header and every seat's
    status are written each time; one multiply scales a fresh copy."""
    n = s.n
    t = _TABLES.get(n)
    if t is None:
        t = _TABLES[n] = _Tables(n)
    cache = s.obs_cache
    kept = cache.get(player)
    if kept is None:
        kept = cache[player] = ({}, np.zeros(t.size, dtype=np.float32))
    keys, o = kept
    at = t.at
    o[: t.base] = 0.0
    o[at["pool"]] = saturated(s.pool, pool_cap(n))
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
    lists_public = s.game.deck_lists_public
    looked = s.looked[player]
    epoch = s.pile_epoch
    for k in range(n):
        q = (player + k) % n
        b = t.base + k * t.seat_block
        deck = s.deck[q]
        known = looked[q]
        split = len(deck) - known
        discard = s.discard[q]
        # One by one: a slice from a tuple converts every value through a temporary array.
        o[b] = s.alive[q]
        o[b + 1] = s.player == q
        o[b + 2] = live and s.mover == q
        o[b + 3] = s.initiative_winner == q
        o[b + 4] = saturated(s.score[q], SCORE_CAP)
        o[b + 5] = len(deck)
        o[b + 6] = s.hand_size[q]
        o[b + 7] = len(discard)
        o[b + 8] = s.known_top[q]
        hand, shown = s.hand[q], s.shown[q]
        version = s.hand_version[q]
        if keys.get(("hand", k)) != version:
            keys["hand", k] = version
            i = b + t.o_hand
            o[i : i + NUM_CARDS] = 0.0
            if q == player:
                for c in _held(hand, s.hand_size[q]):
                    o[i + c] += 1.0
            elif any(shown):
                for c in _held(shown, sum(shown)):
                    o[i + c] += 1.0
        if q == player:
            key: object = (split, epoch)
        elif lists_public:
            key = (split, epoch, version)
        else:
            key = _ALWAYS if s.notes else None
        if key is _ALWAYS or keys.get(("unseen", k), _ALWAYS) != key:
            keys["unseen", k] = key
            i = b + t.o_unseen
            if split and (q == player or lists_public):
                o[i : i + NUM_CARDS] = _deck_counts(cache, s, q, split)
            else:
                o[i : i + NUM_CARDS] = 0.0
            if q != player:
                if lists_public:
                    face_down = _held(hand, s.hand_size[q])
                    for c in _without(face_down, shown) if any(shown) else face_down:
                        o[i + c] += 1.0
                elif s.notes:
                    for c, copies in s.known_hidden(player, q).items():
                        o[i + c] = copies
        key = (len(discard), epoch)
        if keys.get(("discard", k)) != key:
            keys["discard", k] = key
            i = b + t.o_discard
            o[i : i + NUM_CARDS] = np.bincount(discard, minlength=NUM_CARDS) if discard else 0.0
            # Cards act on "the top N cards" of a pile, so its order is public too. The pile only
            # grows on top between epochs: the same size is the same order.
            i = b + t.o_order
            o[i : i + NUM_CARDS] = 0.0
            depth = len(discard)
            for c in discard:  # bottom to top: a later (higher) copy overwrites an earlier one
                o[i + c] = DECK_SIZE - depth + 1
                depth -= 1
        key = (known, len(deck), epoch)
        if keys.get(("top", k)) != key:
            keys["top", k] = key
            i = b + t.o_top
            o[i : i + NUM_CARDS] = np.bincount(deck[split:], minlength=NUM_CARDS) if known else 0.0
        # A challenge changes the cross at every Fate card and the Power only at its end: the two
        # parts are kept apart, so a Fate Draw does not rebuild ten Pawn slots per card.
        key = (s.table_version[q], tuple(s.power[q]), tuple(s.infl[q]))
        if keys.get(("table", k)) != key:
            keys["table", k] = key
            hit = cache.get(("table", q))
            if hit is None or hit[0] != key:  # the same part serves every observer
                hit = cache["table", q] = (key, _table_part(s, q, t))
            part = hit[1]
            o[b + t.o_envs : b + t.o_cross] = part[: t.o_cross - t.o_envs]
            o[b + t.o_delayed : b + t.seat_block] = part[t.o_delayed - t.o_envs :]
        key = (
            tuple(s.cross[q]),
            (tuple(s.fate), tuple(s.marked)) if q == s.mover and s.fate else None,
        )
        if keys.get(("cross", k)) != key:
            keys["cross", k] = key
            hit = cache.get(("cross", q))
            if hit is None or hit[0] != key:
                hit = cache["cross", q] = (key, _cross_part(s, q))
            o[b + t.o_cross : b + t.o_delayed] = hit[1]
    return o * t.inverse
