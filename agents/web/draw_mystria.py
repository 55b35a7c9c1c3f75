"""Mystria's table as SVG, for one viewer (the same visibility as ``describe(viewer=...)``).

The central board with its coordinates (every action names a space) and each stack top token
first, the triangles standing, the score board, and both Magician boards with numbered places
(Objective tiles name places). A seat's Objective tiles show only to that seat until the game is
over, when the kept tiles are revealed; discarded tiles never show to the opponent.
"""

from __future__ import annotations

from typing import Any

from agents.web import svg
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    CONNECTIONS,
    LINES,
    MAGICIAN_COLUMNS,
    NUM_PLACES,
    OBJECTIVES,
    SPACE_COORDS,
    SPACE_NAMES,
    STARS,
)
from mystic_envs.mystria.rules import END_REASONS, GAME_OVER, PHASE_NAMES, STACKS

WIDTH, HEIGHT = 1000, 660
COLOURS = ("#7b4fa0", "#3f9b54", "#2f74c0", "#cf3f3a")
BOARD_X, BOARD_Y, DX, DY = 60, 92, 36, 62
PLACE = 46  # pixels between places of a Magician board


def _space_xy(i: int) -> tuple[float, float]:
    r, x = SPACE_COORDS[i]
    return BOARD_X + DX * x, BOARD_Y + DY * r


def _central(s: Any) -> list[str]:
    parts = [
        svg.text(
            BOARD_X - 30, BOARD_Y - 44, "Central board (stacks top token first)", size=12, fill=svg.MUTED
        )
    ]
    for a, b in LINES:
        (x1, y1), (x2, y2) = _space_xy(a), _space_xy(b)
        parts.append(svg.line(x1, y1, x2, y2, stroke="#c3c9d0", stroke_width=2))
    for t in s.standing_triangles():
        points = " ".join(f"{x:.0f},{y:.0f}" for x, y in map(_space_xy, t))
        colour = COLOURS[STACKS[s.stacks[t[0]]][0]]
        parts.append(
            svg.tag("polygon", points=points, fill=colour, fill_opacity=0.22, stroke=colour, stroke_width=3)
        )
    for i, code in enumerate(s.stacks):
        x, y = _space_xy(i)
        tokens = STACKS[code]
        star = i in STARS
        desc = ", ".join(COLOUR_NAMES[c] for c in tokens) or "empty"
        cell = [svg.title(f"{SPACE_NAMES[i]}: {desc} (top first)" + (", star space" if star else ""))]
        cell.append(
            svg.circle(x, y, 25, fill="white", stroke="#8795a1" if star else "#b8c2cc", stroke_width=1.5)
        )
        if star and not tokens:
            cell.append(svg.text(x, y + 7, "\u2605", size=20, fill="#c9a227", text_anchor="middle"))
        for k, c in enumerate(tokens):
            # Top token drawn highest; a lower token peeks out below it.
            cell.append(
                svg.rect(
                    x - 15, y - 15 + 10 * k, 30, 9, rx=3, fill=COLOURS[c], stroke="white", stroke_width=0.8
                )
            )
        cell.append(svg.text(x + 19, y - 17, SPACE_NAMES[i], size=11, fill=svg.INK, font_weight="600"))
        parts.append(svg.group(cell, class_="space"))
    return parts


def _objective_lines(s: Any, p: int, viewer: int | str | None) -> tuple[list[str], int]:
    """The text of ``p``'s Objective tiles for this viewer, and the tile to outline (or -1)."""
    if not s.game.full:
        return [], -1
    kept = s.kept[p]
    if viewer == p or viewer == "all":
        if kept < 0:
            return ["drew: " + ", ".join(_tile(t) for t in s.drawn[p]), "keeps one"], -1
        done = " - achieved" if s.objective_done(p) else ""
        return [f"kept: {_tile(kept)}{done}"], kept
    if kept >= 0 and s.phase == GAME_OVER:
        return [f"kept: {_tile(kept)}" + (" - achieved" if s.objective_done(p) else " - not achieved")], kept
    return ["Objective: " + ("two tiles face down" if kept < 0 else "one tile kept face down")], -1


def _tile(t: int) -> str:
    tile = OBJECTIVES[t]
    return f"{tile.name} ({tile.points} pts, places {' '.join(map(str, tile.places))})"


def _magician(s: Any, p: int, x0: float, y0: float, viewer: int | str | None) -> list[str]:
    parts = [svg.rect(x0, y0, 470, 250, rx=8, fill="white", stroke=svg.LINE)]
    you = " (you)" if viewer == p else ""
    first = ", first player" if s.first == p else ""
    parts.append(svg.text(x0 + 14, y0 + 26, f"player_{p}{you}", size=16, font_weight="700"))
    if s.phase != GAME_OVER and s.player == p:
        parts.append(svg.rect(x0 + 170, y0 + 11, 74, 20, rx=10, fill="#2f5d8a"))
        parts.append(svg.text(x0 + 207, y0 + 25, "to move", size=12, fill="white", text_anchor="middle"))
    parts.append(svg.text(x0 + 14, y0 + 46, f"{s.drops[p]} Energy drops{first}", size=13))
    lines, outlined = _objective_lines(s, p, viewer)
    outline = set(OBJECTIVES[outlined].places) if outlined >= 0 else set()
    gx, gy = x0 + 34, y0 + 78

    def place_xy(q: int) -> tuple[float, float]:
        r, c = divmod(q - 1, MAGICIAN_COLUMNS)
        return gx + PLACE * c, gy + PLACE * r

    for a, b in CONNECTIONS:
        (x1, y1), (x2, y2) = place_xy(a), place_xy(b)
        parts.append(svg.line(x1, y1, x2, y2, stroke="#9aa5b1", stroke_width=3))
    colour_at = [-1] * NUM_PLACES
    for c in range(len(COLOUR_NAMES)):
        for i in range(NUM_PLACES):
            if s.masks[p][c] >> i & 1:
                colour_at[i] = c
    for q in range(1, NUM_PLACES + 1):
        x, y = place_xy(q)
        c = colour_at[q - 1]
        if q in outline:
            parts.append(
                svg.circle(x, y, 20, fill="none", stroke="#c9a227", stroke_width=3, stroke_dasharray="4 3")
            )
        parts.append(svg.circle(x, y, 15, fill=COLOURS[c] if c >= 0 else "#f1f3f5", stroke="#7b8794"))
        parts.append(
            svg.text(
                x,
                y + 5,
                str(q),
                size=13,
                text_anchor="middle",
                fill="white" if c >= 0 else svg.MUTED,
                font_weight="600",
            )
        )
    # Points the whole table can count; the secret objective counts only where this viewer sees it.
    groups = s.largest_groups(p)
    rx = x0 + 34 + PLACE * MAGICIAN_COLUMNS
    parts.append(svg.text(rx, y0 + 74, "largest groups", size=12, fill=svg.MUTED))
    for c, name in enumerate(COLOUR_NAMES):
        parts.append(svg.rect(rx, y0 + 84 + 20 * c, 12, 12, rx=2, fill=COLOURS[c]))
        parts.append(svg.text(rx + 18, y0 + 95 + 20 * c, f"{name} {groups[c]}", size=12))
    with_objective = s.phase == GAME_OVER or viewer in (p, "all")
    score = s.score(p, with_objective=with_objective)
    rows = [f"colours {score.colours}", f"majority {score.majority}", f"drops {score.drops}"]
    if s.game.full:
        rows.insert(1, f"objective {score.objective}" if with_objective else "objective ?")
    parts.append(svg.text(rx + 130, y0 + 74, "points now", size=12, fill=svg.MUTED))
    for k, row in enumerate(rows):
        parts.append(svg.text(rx + 130, y0 + 95 + 18 * k, row, size=12))
    total = f"total {score.total}" + ("" if with_objective or not s.game.full else " + ?")
    parts.append(svg.text(rx + 130, y0 + 100 + 18 * len(rows), total, size=13, font_weight="700"))
    for k, text in enumerate(lines):
        parts.append(svg.text(x0 + 14, y0 + 210 + 18 * k, text, size=12))
    return parts


def draw(s: Any, viewer: int | str | None) -> str:
    game = s.game
    parts = [
        svg.text(
            20,
            30,
            f"Mystria ({game.variant} rules) \u00b7 {PHASE_NAMES[s.phase].replace('_', ' ')}",
            size=18,
            font_weight="700",
        )
    ]
    if s.phase == GAME_OVER:
        status = f"Game over ({END_REASONS[s.end_reason]}): player_{s.winner} wins"
    else:
        status = f"player_{s.player} to move"
    parts.append(svg.text(WIDTH - 20, 30, status, size=15, text_anchor="end", font_weight="600"))
    parts += _central(s)
    # The score board and the token in hand, right of the central board.
    sx = 560
    parts.append(svg.text(sx, 70, "Score board", size=14, font_weight="700"))
    for c, name in enumerate(COLOUR_NAMES):
        value = s.values[c]
        parts.append(svg.rect(sx, 82 + 28 * c, 18, 18, rx=3, fill=COLOURS[c]))
        parts.append(svg.text(sx + 26, 96 + 28 * c, f"{name}: {value if value else '-'}", size=13))
    parts.append(svg.text(sx, 210, f"Majority token: {game.majority_points} points", size=13))
    if s.held >= 0:
        parts.append(svg.text(sx, 240, f"player_{s.player} holds a token to place:", size=13))
        parts.append(svg.circle(sx + 250, 236, 10, fill=COLOURS[s.held]))
        parts.append(svg.text(sx + 266, 241, COLOUR_NAMES[s.held], size=13))
    standing = s.standing_triangles()
    if standing:
        names = ", ".join("-".join(SPACE_NAMES[i] for i in t) for t in standing[:4])
        more = f" (+{len(standing) - 4})" if len(standing) > 4 else ""
        parts.append(svg.text(sx, 270, f"Triangles standing: {names}{more}", size=13))
    bottom = viewer if isinstance(viewer, int) else 0
    parts += _magician(s, 1 - bottom, 20, 392, viewer)
    parts += _magician(s, bottom, 510, 392, viewer)
    label = f"Mystria table, {'everything shown' if viewer == 'all' else 'seat view'}"
    return svg.document(WIDTH, HEIGHT, parts, label)
