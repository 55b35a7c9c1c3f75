"""Mystick Domination's table as SVG, for one viewer (the same visibility as ``describe(viewer=...)``).

A header with the round, the phase, the pool and the Draw Count (three pips); the challenge in
progress and the effects waiting for the next initiative draw; then one area per seat, the viewer's
first and the others in turn order: score, deck, hand and discard sizes with the discard pile's top
cards, its Pawns (influence, Power as filled tokens out of the Pawn's room, traits, the Attachments
on them), its Environments, its 8-space Mystick Cross, and its hand: the cards themselves for the
viewer (every seat for ``"all"``), the cards shown at the initiative and card backs for the rest.
Every card's effect text is its tooltip. An eliminated seat is greyed and labelled.
"""

from __future__ import annotations

import textwrap
from typing import Any

from agents.web import svg
from mystic_envs.mystick_domination.cards import (
    CARDS,
    CROSS_SPACES,
    IS_MAJOR,
    MAX_PAWNS,
    NO_SUIT,
    NUM_CARDS,
    ROMAN,
    ROUND_DRAWS,
    SUIT,
    SUIT_NAMES,
    TRAIT_BITS,
    TRAIT_NAMES,
)
from mystic_envs.mystick_domination.rules import GAME_OVER, PHASE_NAMES
from mystic_envs.mystick_domination.table import card_line

WIDTH = 1000
SUIT_COLOURS = ("#b5562b", "#2f74c0", "#56668a", "#3f8f4f")  # Wands, Cups, Swords, Pentacles
MAJOR_COLOUR = "#6b4a9b"
POWER_COLOUR = "#d4a72c"
ACCENT = "#2f5d8a"
CHIP_W, CHIP_H = 112, 24  # a card named in a row (hand, cross, Environment)
PAWN_W, PAWN_H, PAWN_GAP = 134, 86, 8
PAWNS_PER_ROW = 4
CROSS_X = 600  # the right column of a seat's area: cross, Environments, discard


def _colour(card: int) -> str:
    return MAJOR_COLOUR if SUIT[card] == NO_SUIT else SUIT_COLOURS[SUIT[card]]


def _short(card: int) -> str:
    # "Seven of Wands" -> "7 Wands", "V The Hierophant" -> "V Hierophant": chips are narrow.
    c = CARDS[card]
    if IS_MAJOR[card]:
        return f"{ROMAN[c.number]} {c.title.removeprefix('The ')}"
    rank = {1: "Ace", 11: "Page", 12: "Knight", 13: "Queen", 14: "King"}.get(c.rank, str(c.rank))
    return f"{rank} {SUIT_NAMES[c.suit]}"


def _traits(bits: int) -> str:
    return ", ".join(TRAIT_NAMES[t] for t, b in enumerate(TRAIT_BITS) if bits & b)


def _chip(x: float, y: float, card: int, note: str = "", w: float = CHIP_W) -> str:
    colour = _colour(card)
    label = _short(card)  # shrunk to fit: "X Wheel of Fortune" in a cross space
    return svg.group(
        [
            svg.title(card_line(card) + (f" ({note})" if note else "")),
            svg.rect(x, y, w, CHIP_H, rx=5, fill="white", stroke=colour, stroke_width=1.5),
            svg.rect(x, y, 6, CHIP_H, rx=2, fill=colour),
            svg.text(x + 11, y + 16, label, size=round(min(11.5, (w - 14) / (0.54 * len(label))), 1)),
        ],
        class_="card",
    )


def _back(x: float, y: float, what: str = "hidden") -> str:
    return svg.group(
        [
            svg.title(f"a card in hand, {what}"),
            svg.rect(x, y, CHIP_H + 6, CHIP_H, rx=4, fill="#34495e", stroke="#22313f"),
        ],
        class_="card face-down",
    )


def _pawn(s: Any, q: int, slot: int, x: float, y: float) -> tuple[list[str], float]:
    """One Pawn in play: its card, influence, Power tokens, traits and Attachments."""
    c = s.pawn[q][slot]
    card = CARDS[c]
    atts = s.attach[q][slot]
    h = PAWN_H + 16 * len(atts)
    colour = _colour(c)
    infl, power = s.infl[q][slot], s.power[q][slot]
    tip = f"Pawn in slot {slot}: {card_line(c)}; now influence {infl}, Power {power}"
    parts = [
        svg.title(tip),
        svg.rect(x, y, PAWN_W, h, rx=6, fill="white", stroke=colour, stroke_width=1.5),
        svg.rect(x, y, PAWN_W, 20, rx=6, fill=colour),
        svg.rect(x, y + 12, PAWN_W, 8, fill=colour),
        svg.text(x + 7, y + 15, f"{slot}: {_short(c)}", size=12, fill="white", font_weight="600"),
        svg.text(x + 7, y + 33, card.title, size=10, fill=svg.MUTED),
    ]
    printed = "" if infl == card.influence else f" (printed {card.influence})"
    parts.append(svg.text(x + 7, y + 48, f"influence {infl}{printed}", size=11))
    parts.append(svg.text(x + 7, y + 64, f"Power {power}/{infl}", size=11, font_weight="600"))
    # Power: one token per point of influence (the Pawn's room), filled for the Power held.
    for k in range(max(infl, power)):
        parts.append(
            svg.circle(
                x + 76 + 11 * (k % 5),
                y + 60 - 11 * (k // 5),
                4.5,
                fill=POWER_COLOUR if k < power else "white",
                stroke="#8a6d12",
            )
        )
    traits = _traits(s.traits[q][slot])
    parts.append(
        svg.text(x + 7, y + 79, traits or "no trait", size=10.5, fill=svg.INK if traits else svg.MUTED)
    )
    for k, (a, owner) in enumerate(atts):
        ay = y + PAWN_H + 12 + 16 * k
        parts.append(
            svg.group(
                [
                    svg.title(f"Attachment of player_{owner}: {card_line(a)}"),
                    svg.rect(x + 4, ay - 11, PAWN_W - 8, 14, rx=3, fill=_colour(a), fill_opacity=0.15),
                    svg.text(x + 8, ay, f"+ {_short(a)} (player_{owner})", size=10),
                ]
            )
        )
    return [svg.group(parts, class_="pawn")], h


def _cross(s: Any, q: int, x: float, y: float) -> list[str]:
    """The Mystick Cross: eight numbered spaces in two rows; the open challenge's Fate marked."""
    parts = [svg.text(x, y, "Mystick Cross", size=12, fill=svg.MUTED)]
    fate = set(s.fate) if s.ch_slot >= 0 and q == s.mover else set()
    marked = set(s.marked) if fate else set()
    w = 92
    for j in range(CROSS_SPACES):
        cx, cy = x + (w + 4) * (j % 4), y + 8 + 30 * (j // 4)
        c = s.cross[q][j]
        if c < 0:
            parts.append(
                svg.rect(cx, cy, w, CHIP_H, rx=5, fill="none", stroke=svg.LINE, stroke_dasharray="4 3")
            )
            parts.append(
                svg.text(cx + w / 2, cy + 16, str(j + 1), size=11, fill=svg.MUTED, text_anchor="middle")
            )
            continue
        note = "drawn in this challenge" if j in fate else ""
        if j in marked:
            note = "marked for the redraw"
        parts.append(_chip(cx, cy, c, note, w=w))
        if j in fate:
            parts.append(
                svg.rect(
                    cx - 2,
                    cy - 2,
                    w + 4,
                    CHIP_H + 4,
                    rx=6,
                    fill="none",
                    stroke="#9b1c1c" if j in marked else ACCENT,
                    stroke_width=2,
                    stroke_dasharray="5 3" if j in marked else None,
                )
            )
    return parts


def _seat(s: Any, q: int, y0: float, viewer: int | str | None) -> tuple[list[str], float]:
    alive = s.alive[q]
    over = s.phase == GAME_OVER
    body: list[str] = []
    you = " (you)" if viewer == q else ""
    body.append(svg.text(28, y0 + 26, f"player_{q}{you}", size=16, font_weight="700"))
    marks = [f"score {s.score[q]}", f"deck {len(s.deck[q])}", f"hand {s.hand_size[q]}"]
    if s.initiative_winner == q and not over:
        marks.append("won the initiative")
    if s.first_mover == q and s.first_mover != s.initiative_winner and not over:
        marks.append("moves first (Seize the Day)")
    body.append(svg.text(180, y0 + 26, " \u00b7 ".join(marks), size=13))
    if not alive:
        body.append(svg.rect(WIDTH - 150, y0 + 10, 118, 22, rx=11, fill="#9b1c1c"))
        body.append(svg.text(WIDTH - 91, y0 + 25, "eliminated", size=12, fill="white", text_anchor="middle"))
    elif not over and s.player == q:
        body.append(svg.rect(WIDTH - 150, y0 + 10, 118, 22, rx=11, fill=ACCENT))
        what = "to move" if s.phase_name == "move" else PHASE_NAMES[s.phase].replace("_", " ")
        body.append(svg.text(WIDTH - 91, y0 + 25, what, size=12, fill="white", text_anchor="middle"))
    elif over and q in s.winners():
        body.append(svg.rect(WIDTH - 150, y0 + 10, 118, 22, rx=11, fill="#3f8f4f"))
        body.append(svg.text(WIDTH - 91, y0 + 25, "winner", size=12, fill="white", text_anchor="middle"))
    # Left column: the Pawns.
    top = y0 + 44
    body.append(svg.text(28, top, "Pawns", size=12, fill=svg.MUTED))
    slots = [slot for slot in range(MAX_PAWNS) if s.pawn[q][slot] >= 0]
    left_h = 22.0
    row_h = 0.0
    for k, slot in enumerate(slots):
        col = k % PAWNS_PER_ROW
        if col == 0 and k:
            left_h += row_h + PAWN_GAP
            row_h = 0.0
        parts, h = _pawn(s, q, slot, 28 + (PAWN_W + PAWN_GAP) * col, top + 8 + left_h - 22)
        body += parts
        row_h = max(row_h, h)
    if slots:
        left_h += row_h
    else:
        body.append(svg.text(28, top + 22, "none in play", size=12, fill=svg.MUTED))
    # Right column: cross, Environments, discard pile.
    body += _cross(s, q, CROSS_X, top)
    ey = top + 80
    body.append(svg.text(CROSS_X, ey, "Environments", size=12, fill=svg.MUTED))
    for k, c in enumerate(s.envs[q]):
        body.append(_chip(CROSS_X + (CHIP_W + 4) * (k % 3), ey + 8 + 28 * (k // 3), c))
    if not s.envs[q]:
        body.append(svg.text(CROSS_X + 90, ey, "none", size=12, fill=svg.MUTED))
    env_rows = max(1, (len(s.envs[q]) + 2) // 3)
    dy = ey + 8 + 28 * env_rows + 14
    pile = s.discard[q]
    tops = ", ".join(_short(c) for c in reversed(pile[-3:]))
    rows = textwrap.wrap(f"Discard {len(pile)}" + (f" (top first: {tops})" if pile else ""), 54)
    # I-10: the cards a look showed are the looker's alone ("all": everything shown).
    looked = (
        s.known_top[q] if viewer == "all" else s.looked_top(viewer if isinstance(viewer, int) else None, q)
    )
    looked_rows: list[str] = []
    if looked:
        shown = ", ".join(_short(c) for c in reversed(s.deck[q][-looked:]))
        looked_rows = textwrap.wrap(f"Deck top (looked at, top first): {shown}", 54)
        rows += looked_rows
    pile_rows = rows[: len(rows) - len(looked_rows)]
    # The Q&A lets anyone look through a discard pile: the whole pile, top first, on hover.
    browse = "; ".join(f"{k + 1}. {card_line(c)}" for k, c in enumerate(reversed(pile)))
    lines = []
    for row in pile_rows:
        lines.append(svg.text(CROSS_X, dy, row, size=11.5))
        dy += 16
    if pile:
        lines.insert(0, svg.title(f"player_{q}'s discard pile, top first: {browse}"))
    body.append(svg.group(lines, class_="pile"))
    for row in looked_rows:
        body.append(svg.text(CROSS_X, dy, row, size=11.5))
        dy += 16
    right_h = dy - top + 6
    # The hand, across the whole area.
    hy = top + max(left_h, right_h) + 14
    body.append(svg.text(28, hy + 16, "Hand", size=12, fill=svg.MUTED))
    own = viewer == q or viewer == "all"
    x, y = 70.0, hy
    hand: list[tuple[int, str]] = []
    for c in range(NUM_CARDS):
        seen = s.shown[q][c]
        count = s.hand[q][c] if own else seen
        for i in range(count):
            hand.append((c, "shown to everyone" if i < seen else "only you see it"))
    for c, note in hand:
        if x + CHIP_W > WIDTH - 28:
            x, y = 70.0, y + CHIP_H + 6
        body.append(_chip(x, y, c, note))
        x += CHIP_W + 4
    if not own:
        for _ in range(s.hand_size[q] - sum(s.shown[q])):
            if x + CHIP_H + 6 > WIDTH - 28:
                x, y = 70.0, y + CHIP_H + 6
            body.append(_back(x, y))
            x += CHIP_H + 10
    if not s.hand_size[q]:
        body.append(svg.text(70, hy + 16, "empty", size=12, fill=svg.MUTED))
    height = y + CHIP_H + 12 - y0
    frame = svg.rect(
        14,
        y0,
        WIDTH - 28,
        height,
        rx=8,
        fill="white" if alive else "#eceff1",
        stroke=ACCENT if viewer == q else svg.LINE,
        stroke_width=2 if viewer == q else 1,
    )
    return [frame, svg.group(body, opacity=1 if alive else 0.6)], height


def _notes(s: Any) -> list[str]:
    notes = []
    if s.ch_slot >= 0 and s.ch_card >= 0:
        target = "the pool" if s.ch_tseat < 0 else f"player_{s.ch_tseat}'s {CARDS[s.ch_tcard].name}"
        text = f"Challenge: player_{s.mover}'s {CARDS[s.ch_card].name} against {target}"
        if s.fate:
            suit = SUIT[s.ch_card]
            cross = s.cross[s.mover]
            wins = sum(1 for j in s.fate if IS_MAJOR[cross[j]] or SUIT[cross[j]] == suit)
            text += f"; Fate drawn: {len(s.fate)}, {wins} success(es)"
            if s.ch_bonus:
                text += f" + {s.ch_bonus} from effects"
        notes.append(text)
    if s.queue and s.phase_name == "effect_target":
        owner, card, _ = s.queue[0]
        notes.append(f"Resolving player_{owner}'s {CARDS[card].name}: {CARDS[card].text}")
    if s.phase_name == "attach_target" and s.pending_card >= 0:
        notes.append(f"Attaching {CARDS[s.pending_card].name}: {CARDS[s.pending_card].text}")
    if s.delayed:
        waiting = ", ".join(f"{CARDS[c].name} (player_{o})" for o, c in s.delayed)
        notes.append(f"After the next initiative draw: {waiting}")
    return [row for note in notes for row in textwrap.wrap(note, 140)]


def draw(s: Any, viewer: int | str | None) -> str:
    over = s.phase == GAME_OVER
    head = f"Mystick: Domination \u00b7 round {s.round} \u00b7 {PHASE_NAMES[s.phase].replace('_', ' ')}"
    parts = svg.heading(WIDTH, head, s.winners() if over else None, s.player, shared="draw between")
    # The pool and the Draw Count, the two clocks of the game.
    parts.append(svg.circle(32, 58, 9, fill=POWER_COLOUR, stroke="#8a6d12"))
    parts.append(svg.text(48, 63, f"pool: {s.pool} Power", size=14, font_weight="600"))
    parts.append(svg.text(210, 63, "Draw Count", size=14, font_weight="600"))
    for k in range(ROUND_DRAWS):
        filled = k < s.draw_count
        parts.append(
            svg.rect(312 + 22 * k, 50, 16, 16, rx=3, fill=ACCENT if filled else "white", stroke=ACCENT)
        )
    parts.append(
        svg.text(
            384,
            63,
            f"{s.draw_count}/{ROUND_DRAWS} (the round ends at {ROUND_DRAWS})",
            size=12,
            fill=svg.MUTED,
        )
    )
    y = 84.0
    for row in _notes(s)[:4]:
        parts.append(svg.text(24, y, row, size=12))
        y += 16
    first = viewer if isinstance(viewer, int) else 0
    y += 4
    for k in range(s.n):
        q = (first + k) % s.n
        seat, h = _seat(s, q, y, viewer)
        parts += seat
        y += h + 10
    label = f"Mystick Domination table, {'everything shown' if viewer == 'all' else 'seat view'}"
    return svg.document(WIDTH, int(y + 6), parts, label)
