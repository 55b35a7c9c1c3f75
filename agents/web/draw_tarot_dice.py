"""Tarot Dice's table as SVG, for one viewer (the same visibility as ``describe(viewer=...)``).

Both players' dice, the Planet and Zodiac faces with what they do now, the drafted Majors (their
text as a tooltip), the wells (the face-down card of a well is a card back to everyone), graveyards
and hands: a hand card the opponent has not seen is a card back except to its owner.
"""

from __future__ import annotations

import textwrap
from typing import Any

from agents.web import svg
from mystic_envs.tarot_dice.cards import (
    DEATH,
    DIE_NAMES,
    KIND_NAMES,
    MAJORS,
    NUM_MAJORS,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_FACES,
    STRENGTH,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_FACES,
    card_name,
)
from mystic_envs.tarot_dice.phases import PH_GAME_OVER, PHASE_NAMES
from mystic_envs.tarot_dice.rules import ROUND_END_NAMES

WIDTH, HEIGHT = 1000, 710
SUIT_COLOURS = {"Cups": "#2f74c0", "Swords": "#56668a", "Wands": "#b5562b", "Pentacles": "#3f8f4f"}
MAJOR_COLOUR = "#6b4a9b"
# Die outlines (unit polygons), smallest die first: a D4 is a triangle, a D20 a hexagon.
SHAPES = (
    ((0, -1), (0.95, 0.75), (-0.95, 0.75)),
    ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)),
    ((0, -1), (0.9, 0), (0, 1), (-0.9, 0)),
    ((0, -1), (0.9, -0.15), (0.55, 0.85), (-0.55, 0.85), (-0.9, -0.15)),
    ((0, -1), (0.95, -0.3), (0.6, 0.85), (-0.6, 0.85), (-0.95, -0.3)),
    ((0, -1), (0.87, -0.5), (0.87, 0.5), (0, 1), (-0.87, 0.5), (-0.87, -0.5)),
)
CARD_W, CARD_H = 104, 30


def _die(x: float, y: float, k: int, value: int, present: bool, tags: list[str]) -> str:
    r = 24
    points = " ".join(f"{x + r * px:.1f},{y + r * py:.1f}" for px, py in SHAPES[k])
    parts = [svg.title(f"{DIE_NAMES[k]}: " + ("captured" if not present else str(value or "unrolled")))]
    if present:
        parts.append(svg.tag("polygon", points=points, fill="white", stroke="#1f2933", stroke_width=2))
        parts.append(
            svg.text(
                x,
                y + 6 + (3 if k == 0 else 0),
                str(value) if value else "-",
                size=16,
                font_weight="700",
                text_anchor="middle",
            )
        )
    else:
        parts.append(
            svg.tag("polygon", points=points, fill="#e4e7eb", stroke="#9aa5b1", stroke_dasharray="4 3")
        )
        parts.append(svg.text(x, y + 5, "captured", size=9, fill=svg.MUTED, text_anchor="middle"))
    parts.append(svg.text(x, y + r + 16, DIE_NAMES[k], size=12, fill=svg.MUTED, text_anchor="middle"))
    if tags:
        parts.append(svg.text(x, y + r + 30, ", ".join(tags), size=10, fill="#9b1c1c", text_anchor="middle"))
    return svg.group(parts, class_="die")


def _card(x: float, y: float, card: int, note: str = "") -> str:
    name = card_name(card)
    suit = name.rsplit(" of ", 1)[-1]
    colour = SUIT_COLOURS.get(suit, MAJOR_COLOUR)
    label = name.replace(" of ", " ")
    parts = [
        svg.title(name + (f" ({note})" if note else "")),
        svg.rect(x, y, CARD_W, CARD_H, rx=5, fill="white", stroke=colour, stroke_width=1.5),
        svg.rect(x, y, 6, CARD_H, rx=2, fill=colour),
        svg.text(x + 12, y + 19, label, size=12),
    ]
    return svg.group(parts, class_="card")


def _back(x: float, y: float, what: str) -> str:
    return svg.group(
        [
            svg.title(what),
            svg.rect(x, y, CARD_W, CARD_H, rx=5, fill="#34495e", stroke="#22313f"),
            svg.text(x + CARD_W / 2, y + 19, what, size=11, fill="white", text_anchor="middle"),
        ],
        class_="card face-down",
    )


def _face_box(x: float, y: float, kind: str, face: Any, active: bool, note: str) -> list[str]:
    parts = [svg.rect(x, y, 470, 74, rx=8, fill="white", stroke=svg.LINE)]
    parts.append(svg.text(x + 30, y + 48, face.symbol, size=34, text_anchor="middle", fill=MAJOR_COLOUR))
    head = f"{kind} die: {face.name} ({face.number})" + ("" if active else f" - negated by {note}")
    parts.append(svg.text(x + 60, y + 22, head, size=14, font_weight="700"))
    for k, row in enumerate(textwrap.wrap(face.text, 62)[:2]):
        parts.append(svg.text(x + 60, y + 42 + 17 * k, row, size=12, fill=svg.INK if active else svg.MUTED))
    return parts


def _seat(s: Any, p: int, y0: float, viewer: int | str | None) -> list[str]:
    parts = [svg.rect(14, y0, WIDTH - 28, 248, rx=8, fill="white", stroke=svg.LINE)]
    you = " (you)" if viewer == p else ""
    parts.append(svg.text(28, y0 + 26, f"player_{p}{you}", size=16, font_weight="700"))
    marks = []
    if s.round_starter == p:
        marks.append("starts this round")
    if s.draft_first == p:
        marks.append("picks first")
    parts.append(
        svg.text(
            28,
            y0 + 44,
            f"{s.points[p]} points" + (" \u00b7 " + ", ".join(marks) if marks else ""),
            size=12,
            fill=svg.MUTED,
        )
    )
    if s.phase != PH_GAME_OVER and s.player == p:
        parts.append(svg.rect(330, y0 + 11, 74, 20, rx=10, fill="#2f5d8a"))
        parts.append(svg.text(367, y0 + 25, "to move", size=12, fill="white", text_anchor="middle"))
    banned, locked = s.banned(), s.locked()
    for k in range(NUM_SIZES):
        d = p * NUM_SIZES + k
        tags = [t for t, on in (("banished", banned >> d & 1), ("locked", locked >> d & 1)) if on]
        parts.append(_die(52 + 66 * k, y0 + 92, k, s.value[d], bool(s.board >> d & 1), tags))
    # Majors drafted.
    mx = 440
    parts.append(svg.text(mx, y0 + 24, "Majors", size=12, fill=svg.MUTED))
    col = 0
    for m in range(NUM_MAJORS):
        if not s.owned[p] >> m & 1:
            continue
        in_hand = m in (STRENGTH, DEATH) and bool(s.major_hand[p] >> m & 1)
        note = " (in hand)" if in_hand else ""
        x = mx + 180 * (col % 3)
        y = y0 + 32 + 26 * (col // 3)
        parts.append(
            svg.group(
                [
                    svg.title(f"{MAJORS[m].name}: {MAJORS[m].text}"),
                    svg.rect(x, y, 172, 22, rx=11, fill=MAJOR_COLOUR),
                    svg.text(x + 10, y + 15, MAJORS[m].name + note, size=12, fill="white"),
                ]
            )
        )
        col += 1
    if col == 0:
        parts.append(svg.text(mx, y0 + 48, "none yet", size=12, fill=svg.MUTED))
    # Wells: bottom card first; a face-down card is a back to everyone.
    wy = y0 + 150
    parts.append(svg.text(28, wy, "Wells (bottom first)", size=12, fill=svg.MUTED))
    for k in range(WELLS):
        x = 28 + 116 * k
        if not s.open_wells[p] >> k & 1:
            parts.append(svg.text(x, wy + 24, f"{k + 1}: gone", size=12, fill=svg.MUTED))
            continue
        well = s.wells[p][k]
        hidden = s.hidden_well[p] >> k & 1
        if not well:
            parts.append(svg.text(x, wy + 24, f"{k + 1}: empty", size=12, fill=svg.MUTED))
        for i, c in enumerate(well):
            cy = wy + 8 + 34 * i
            parts.append(_back(x, cy, "face down") if hidden and i == 0 else _card(x, cy, c))
    # Hand: the viewer's own cards; another seat's unseen cards as backs, after the seen ones.
    hx = 400
    parts.append(svg.text(hx, wy, "Hand", size=12, fill=svg.MUTED))
    hand: list[str] = []
    x = hx
    own = viewer == p or viewer == "all"
    if own:
        for c in s.hand[p]:
            hand.append(_card(x, wy + 8, c, "hidden"))
            x += CARD_W + 8
    else:
        for _ in s.hand[p]:
            hand.append(_back(x, wy + 8, "hidden card"))
            x += CARD_W + 8
    for m in (STRENGTH, DEATH):
        if s.major_hand[p] >> m & 1:
            hand.append(
                svg.group(
                    [
                        svg.title(f"{MAJORS[m].name}: {MAJORS[m].text}"),
                        svg.rect(x, wy + 8, CARD_W, CARD_H, rx=5, fill=MAJOR_COLOUR),
                        svg.text(x + 10, wy + 27, MAJORS[m].name, size=12, fill="white"),
                    ]
                )
            )
            x += CARD_W + 8
    parts += hand or [svg.text(hx, wy + 28, "empty", size=12, fill=svg.MUTED)]
    graveyard = ", ".join(card_name(c) for c in s.graveyard[p][-4:])
    more = f"{len(s.graveyard[p]) - 4} more, " if len(s.graveyard[p]) > 4 else ""
    parts.append(
        svg.text(
            hx, wy + 64, "Graveyard (top last): " + (more + graveyard if graveyard else "empty"), size=12
        )
    )
    if s.sacrificed[p] >= 0:
        parts.append(svg.text(hx, wy + 82, f"Sacrificed to The Devil: {card_name(s.sacrificed[p])}", size=12))
    return parts


def _die_name(die: int) -> str:
    if die == PLANET_DIE:
        return "the Planet die"
    if die == ZODIAC_DIE:
        return "the Zodiac die"
    return f"player_{die // NUM_SIZES}'s {DIE_NAMES[die % NUM_SIZES]}"


def draw(s: Any, viewer: int | str | None) -> str:
    game = s.game
    over = s.phase == PH_GAME_OVER
    round_no = s.rounds_done + (not over)
    head = (
        f"Tarot Dice \u00b7 round {round_no} of {game.num_rounds} \u00b7 turn {s.turn_in_round + 1} of "
        f"{game.round_turn_limit} \u00b7 {PHASE_NAMES[s.phase].replace('_', ' ')}"
    )
    parts = [svg.text(20, 30, head, size=17, font_weight="700")]
    status = f"Game over: player_{s.winners()[0]} wins" if over else f"player_{s.player} to move"
    parts.append(svg.text(WIDTH - 20, 30, status, size=15, text_anchor="end", font_weight="600"))
    bottom = viewer if isinstance(viewer, int) else 0
    parts += _seat(s, 1 - bottom, 44, viewer)
    planet = PLANET_FACES[s.value[PLANET_DIE] - 1]
    zodiac = ZODIAC_FACES[s.value[ZODIAC_DIE] - 1]
    parts += _face_box(20, 302, "Planet", planet, s.planet_active(), "Taurus")
    parts += _face_box(510, 302, "Zodiac", zodiac, s.zodiac_active(), "the Sun")
    notes = []
    if s.last_round is not None:
        winner, won, how = s.last_round
        notes.append(f"Last round: player_{winner} scored {won} ({ROUND_END_NAMES[how]})")
    if s.pile:
        notes.append("Draft pile: " + ", ".join(MAJORS[m].name for m in range(NUM_MAJORS) if s.pile >> m & 1))
    for play in s.plays:
        source = "The Devil" if play.from_devil else "the hand" if play.hidden else "a well"
        text = f"Playing {card_name(play.card)} from {source}"
        if play.effect_card != play.card:
            text += f" with the effect of {card_name(play.effect_card)}"
        if play.kind >= 0:
            text += f", as {play.value if play.kind == 0 else KIND_NAMES[play.kind]}"
        if play.target >= 0:
            text += f" on {_die_name(play.target)}"
        notes.append(text)
    if s.resolving >= 0:
        notes.append(f"Resolving: {MAJORS[s.resolving].name}")
    rows = [row for note in notes for row in textwrap.wrap(note, 150)]
    for k, row in enumerate(rows[:3]):
        parts.append(svg.text(24, 396 + 16 * k, row, size=12, fill=svg.INK))
    parts += _seat(s, bottom, 448, viewer)
    label = f"Tarot Dice table, {'everything shown' if viewer == 'all' else 'seat view'}"
    return svg.document(WIDTH, HEIGHT, parts, label)
