"""Move-script helpers for Mystick Domination rule tests: set a table, then play readable moves.

``table(...)`` deals a position (hands, deck tops, Pawns with Power and Attachments, Environments,
pool, Draw Count, mover) out of each seat's own 39 cards, so every invariant holds. ``play(s,
(seat, move), ...)`` checks that ``seat`` is to act and that the move is legal, then applies it.
Moves: ``"play Five of Wands"``, ``"draw"``, ``"extra 1"``, ``"challenge 0"`` (your Pawn slot),
``"pool"``, ``"pawn 1 0"`` (absolute seat, slot), ``"player 1"`` (absolute seat), ``"mark 2"``
(cross space, 1-8), ``"done"``, ``"special Ace of Wands"``, ``"order Nine of Pentacles"``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mystic_envs.mystick_domination.cards import CARD_BY_NAME, CARDS, MAX_PAWNS, SPECIAL_CARDS
from mystic_envs.mystick_domination.rules import MOVE, MystickGame, MystickState

DEFAULT_DECKS = ("wands_cups", "swords_pentacles", "wands_swords", "cups_pentacles", "wands_pentacles")


def cid(name: str) -> int:
    return CARD_BY_NAME[name.lower()]


def table(
    n: int = 2,
    decks: Any = None,
    construction: str = "basic",
    hands: dict[int, list[str]] | None = None,
    tops: dict[int, list[str]] | None = None,
    deck_sizes: dict[int, int] | None = None,
    pawns: dict[int, list[tuple]] | None = None,
    envs: dict[int, list[str]] | None = None,
    discards: dict[int, list[str]] | None = None,
    cross: dict[int, list[str]] | None = None,
    pool: int | None = None,
    draw_count: int = 0,
    mover: int = 0,
    scores: list[int] | None = None,
    seed: int = 0,
) -> MystickState:
    """A position. ``pawns[seat]`` rows are ``(name, power)`` or ``(name, power, [(attachment,
    owner seat), ...])``; ``cross[seat]`` fills its first spaces; ``tops[seat]`` lists the deck's
    top cards, top first; ``deck_sizes`` cuts a deck to that many cards (the rest of the seat's
    cards go to its discard pile)."""
    decks = decks or list(DEFAULT_DECKS[:n])
    s = MystickGame(num_players=n, decks=decks, construction=construction).new_initial_state(seed)
    left = [Counter(s.deck_list[q]) for q in range(n)]

    def take(q: int, name: str) -> int:
        c = cid(name)
        assert left[q][c] > 0, f"player_{q} has no {name} left to place"
        left[q][c] -= 1
        return c

    s.hand = [[0] * len(CARDS) for _ in range(n)]
    s.shown = [[0] * len(CARDS) for _ in range(n)]
    s.hand_size = [0] * n
    s.discard = [[] for _ in range(n)]
    s.cross = [[-1] * 8 for _ in range(n)]
    s.pawn = [[-1] * MAX_PAWNS for _ in range(n)]
    s.power = [[0] * MAX_PAWNS for _ in range(n)]
    s.attach = [[[] for _ in range(MAX_PAWNS)] for _ in range(n)]
    s.envs = [[] for _ in range(n)]
    for q, names in (hands or {}).items():
        for name in names:
            s.hand[q][take(q, name)] += 1
            s.hand_size[q] += 1
    for q, rows in (pawns or {}).items():
        for slot, row in enumerate(rows):
            s.pawn[q][slot] = take(q, row[0])
            s.power[q][slot] = row[1]
            for att, owner in row[2] if len(row) > 2 else ():
                s.attach[q][slot].append((take(owner, att), owner))
    for q, names in (envs or {}).items():
        s.envs[q] = [take(q, name) for name in names]
    for q, names in (discards or {}).items():
        s.discard[q] = [take(q, name) for name in names]
    for q, names in (cross or {}).items():
        for j, name in enumerate(names):
            s.cross[q][j] = take(q, name)
    for q in range(n):
        top = [take(q, name) for name in (tops or {}).get(q, [])]
        rest = sorted(left[q].elements())
        if deck_sizes and q in deck_sizes:
            keep = deck_sizes[q] - len(top)
            s.discard[q].extend(rest[: len(rest) - keep])
            rest = rest[len(rest) - keep :]
        s.deck[q] = rest + top[::-1]  # the top card is last
    s.score = list(scores) if scores else [0] * n
    s.alive = [True] * n
    s.out_time = [-1] * n
    s.clear_knowledge()
    s.new_table()
    s.initiative_cards = [-1] * n
    s.delayed, s.queue, s.groups, s.choice = [], [], [], []
    s.draw_count = draw_count
    s.round = 1
    s.phase = MOVE
    s.player = s.mover = s.first_mover = s.initiative_winner = mover
    s.extra_move = False
    s.resolving = s.pending_card = -1
    s._clear_challenge()
    s.refresh_pawns()
    on_pawns = sum(sum(row) for row in s.power)
    s.pool = s.pool if pool is None else pool
    s.pool_start = s.pool + on_pawns
    s.power_removed = s.power_created = 0
    s._legal = None
    s.check_invariants()
    return s


def action(s: MystickState, move: str) -> int:
    A = s.acts
    verb, _, rest = move.partition(" ")
    if verb == "play" or verb == "order":
        return A.card + cid(rest)
    if verb == "draw":
        return A.draw
    if verb == "extra":
        return A.extra + int(rest)
    if verb == "challenge":
        return A.challenger + int(rest)
    if verb == "pool":
        return A.pool
    if verb == "pawn":
        seat, slot = map(int, rest.split())
        return A.pawn + ((seat - s.player) % s.n) * MAX_PAWNS + slot
    if verb == "player":
        return A.player + (int(rest) - s.player) % s.n
    if verb == "mark":
        return A.mark + int(rest) - 1
    if verb == "done":
        return A.done
    if verb == "special":
        return A.special + SPECIAL_CARDS.index(cid(rest))
    raise ValueError(move)


def legal(s: MystickState, move: str) -> bool:
    return s.is_legal(action(s, move))


def play(s: MystickState, *moves: tuple[int, str]) -> None:
    for seat, move in moves:
        assert s.current_player == seat, f"{move!r}: expected player_{seat} to act, got {s.current_player}"
        a = action(s, move)
        legal_names = [s.game.action_meaning(x) for x in s.legal_actions()]
        assert s.is_legal(a), f"{move!r} is illegal in phase {s.phase_name}; legal: {legal_names}"
        s.apply(a)
        s.check_invariants()


def names(cards: list[int]) -> list[str]:
    return [CARDS[c].name for c in cards]


def cross_names(s: MystickState, q: int) -> list[str]:
    return [CARDS[c].name if c >= 0 else "." for c in s.cross[q]]


def hand_names(s: MystickState, q: int) -> list[str]:
    return sorted(CARDS[c].name for c in range(len(CARDS)) for _ in range(s.hand[q][c]))
