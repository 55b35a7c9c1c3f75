"""Elemystic's table as SVG, for one viewer (the same visibility as ``describe(viewer=...)``).

Every element card shows its numbers (Strength, Defense, Invocation Strength and Defense, Speed) and
its ability as a tooltip. A secret element in hand is a face-down card except to its owner (and to
the opponent while their Light effect lasts); the Unknown Element is never drawn.
"""

from __future__ import annotations

from typing import Any

from agents.web import svg
from mystic_envs.elemystic.cards import ELEMENTS, STARTING_ENERGY, THUNDER_CHARGE_STRENGTH, TOKENS
from mystic_envs.elemystic.rules import GAME_OVER, MASK_ELEMENTS, PHASE_NAMES

WIDTH, HEIGHT = 1000, 610
CARD_W, CARD_H, GAP = 76, 100, 8
COLOURS = ("#8d6e4a", "#d4a72c", "#6aa7cf", "#56668a", "#2f7fc1", "#d9542c", "#4a3b5c", "#9c7b16", "#4c9a55")
AIR_BONUS = {1: "+2 Strength", 2: "+3 Defense"}


def _card(x: float, y: float, e: int, note: str = "", front: bool = False) -> str:
    el = ELEMENTS[e]
    parts = [
        svg.title(f"{el.name}: {el.ability}"),
        svg.rect(
            x,
            y,
            CARD_W,
            CARD_H,
            rx=7,
            fill="white",
            stroke="#1f2933" if front else svg.LINE,
            stroke_width=2.5 if front else 1,
        ),
        svg.rect(x, y, CARD_W, 24, rx=7, fill=COLOURS[e]),
        svg.rect(x, y + 16, CARD_W, 8, fill=COLOURS[e]),
        svg.text(
            x + CARD_W / 2, y + 17, el.name, size=13, fill="white", font_weight="600", text_anchor="middle"
        ),
        svg.text(x + 8, y + 42, f"S {el.strength}", size=12),
        svg.text(x + CARD_W - 8, y + 42, f"D {el.defense}", size=12, text_anchor="end"),
        svg.line(x + 6, y + 50, x + CARD_W - 6, y + 50, stroke=svg.LINE, stroke_dasharray="3 3"),
        svg.text(x + 8, y + 66, f"IS {el.invocation_strength}", size=12),
        svg.text(x + CARD_W - 8, y + 66, f"ID {el.invocation_defense}", size=12, text_anchor="end"),
        svg.text(x + CARD_W / 2, y + 84, f"Speed {el.speed}", size=12, text_anchor="middle", fill=svg.MUTED),
    ]
    if note:
        parts.append(
            svg.text(x + CARD_W / 2, y + CARD_H + 14, note, size=11, fill=svg.MUTED, text_anchor="middle")
        )
    return svg.group(parts, class_="card")


def _face_down(x: float, y: float, label: str) -> str:
    return svg.group(
        [
            svg.title("a secret element, face down"),
            svg.rect(x, y, CARD_W, CARD_H, rx=7, fill="#34495e", stroke="#22313f"),
            svg.rect(
                x + 6,
                y + 6,
                CARD_W - 12,
                CARD_H - 12,
                rx=5,
                fill="none",
                stroke="#7f8fa6",
                stroke_dasharray="4 3",
            ),
            svg.text(x + CARD_W / 2, y + CARD_H / 2 + 5, label, size=12, fill="white", text_anchor="middle"),
        ],
        class_="card face-down",
    )


def _secret_seen(s: Any, p: int, viewer: int | str | None) -> bool:
    if viewer == "all" or viewer == p:
        return True
    return isinstance(viewer, int) and bool(s.light_reveal[viewer])


def _tokens(s: Any, p: int) -> list[tuple[str, str]]:
    out = []
    if s.air_holder == p:
        bonus = AIR_BONUS.get(s.air_bonus[p], "to play this round")
        out.append((f"Air Token: {bonus}", TOKENS["Air"]))
    if s.air_taken == p:
        out.append(("Air Token for next round", TOKENS["Air"]))
    if s.light_reveal[p]:
        out.append((f"Light: sees player_{1 - p}'s secret", TOKENS["Light"]))
    if s.shadow_column == p:
        out.append(("Shadow: totals swapped", TOKENS["Shadow"]))
    if s.silenced[p]:
        out.append(("Thunder: ability silenced", TOKENS["Thunder"]))
    if s.thunder_charged[p]:
        out.append(
            (f"Thunder: charged, +{THUNDER_CHARGE_STRENGTH} Strength", TOKENS["Thunder (charged side)"])
        )
    if s.storm_forced[p]:
        out.append(("Storm: next element to the front", ""))
    return out


def _seat(s: Any, p: int, y: float, viewer: int | str | None) -> list[str]:
    parts = [svg.rect(14, y, WIDTH - 28, 200, rx=8, fill="white", stroke=svg.LINE)]
    to_move = s.phase != GAME_OVER and s.player == p
    you = " (you)" if viewer == p else ""
    parts.append(svg.text(28, y + 28, f"player_{p}{you}", size=17, font_weight="700"))
    if to_move:
        parts.append(svg.rect(28, y + 38, 78, 20, rx=10, fill="#2f5d8a"))
        parts.append(svg.text(67, y + 52, "to move", size=12, fill="white", text_anchor="middle"))
    # The Energy Dial: ten pips, lit for what is left.
    parts.append(svg.text(28, y + 80, f"Energy {s.energy[p]}", size=14, font_weight="600"))
    for i in range(STARTING_ENERGY):
        lit = i < s.energy[p]
        parts.append(svg.rect(28 + 20 * i, y + 88, 16, 12, rx=3, fill="#d9542c" if lit else "#e4e7eb"))
    ty = y + 122
    for label, effect in _tokens(s, p):
        parts.append(svg.group([svg.title(effect or label), svg.text(28, ty, "\u25c6 " + label, size=12)]))
        ty += 17
    # Hand: drafted elements face up, the secret face down unless this viewer may see it.
    parts.append(svg.text(262, y + 24, "Hand", size=12, fill=svg.MUTED))
    secret_bit = 1 << s.secret[p]
    x = 262.0
    for e in MASK_ELEMENTS[s.hand[p] & ~secret_bit]:
        parts.append(_card(x, y + 32, e))
        x += CARD_W + GAP
    if s.hand[p] & secret_bit:
        if _secret_seen(s, p, viewer):
            seen = "secret" if viewer in ("all", p) else "secret (Light)"
            parts.append(_card(x, y + 32, s.secret[p], note=seen))
        else:
            parts.append(_face_down(x, y + 32, "secret"))
    # Column: the front card first (its bottom half counts), then the ones behind.
    parts.append(svg.text(616, y + 24, "Column (front first)", size=12, fill=svg.MUTED))
    x = 616.0
    if s.front[p] >= 0:
        f = s.front[p]
        parts.append(_card(x, y + 32, f, note="front", front=True))
        x += CARD_W + GAP
        for e in MASK_ELEMENTS[s.column[p] & ~(1 << f)]:
            parts.append(_card(x, y + 32, e, note="behind"))
            x += CARD_W + GAP
        strength, defense = s.totals(p)
        invoked = f"front IS {s.inv_strength[p]}"
        parts.append(
            svg.text(
                616, y + 170, f"Total Strength {strength}   Defense {defense}", size=14, font_weight="600"
            )
        )
        parts.append(svg.text(616, y + 188, invoked, size=12, fill=svg.MUTED))
    else:
        parts.append(svg.text(616, y + 70, "no element played yet", size=13, fill=svg.MUTED))
    return parts


def draw(s: Any, viewer: int | str | None) -> str:
    bottom = viewer if isinstance(viewer, int) else 0
    top = 1 - bottom
    parts = []
    head = f"Elemystic \u00b7 round {s.round} \u00b7 {PHASE_NAMES[s.phase].replace('_', ' ')}"
    parts.append(svg.text(20, 30, head, size=18, font_weight="700"))
    status = f"Game over: player_{s.winner} wins" if s.phase == GAME_OVER else f"player_{s.player} to move"
    parts.append(svg.text(WIDTH - 20, 30, status, size=15, text_anchor="end", font_weight="600"))
    parts += _seat(s, top, 44, viewer)
    # The middle of the table: the drafting pool, who drafts and plays first, the last round.
    my = 254
    parts.append(svg.text(20, my + 18, "Drafting pool", size=12, fill=svg.MUTED))
    x = 20.0
    pool = MASK_ELEMENTS[s.pool]
    for e in pool:
        parts.append(_card(x, my + 24, e))
        x += CARD_W + GAP
    if not pool:
        parts.append(svg.text(20, my + 60, "empty", size=13, fill=svg.MUTED))
    info_x = 560
    parts.append(svg.text(info_x, my + 40, f"Draft First: player_{s.draft_first}", size=14))
    parts.append(svg.text(info_x, my + 62, f"Play First: player_{s.play_first}", size=14))
    if s.last_round is not None:
        r = s.last_round
        fronts = f"{ELEMENTS[r.fronts[0]].name} vs {ELEMENTS[r.fronts[1]].name}"
        parts.append(svg.text(info_x, my + 90, f"Round {r.round}: fronts {fronts}", size=13, fill=svg.MUTED))
        lost = f"Energy lost: player_0 {r.energy_lost[0]}, player_1 {r.energy_lost[1]}"
        parts.append(svg.text(info_x, my + 108, lost, size=13, fill=svg.MUTED))
    parts += _seat(s, bottom, 396, viewer)
    label = f"Elemystic table, {'everything shown' if viewer == 'all' else 'seat view'}"
    return svg.document(WIDTH, HEIGHT, parts, label)
