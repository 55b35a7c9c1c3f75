"""Text render of a Mystria table, apart from the rules (pgx style), and the generated doc tables.

Shows what an onlooker sees: every stack (top token first) on its named space (``B3:PRG``; the
names every action uses), the triangles standing, both Magician boards with their places numbered
1-12 (the numbers Objective tiles name), drops, the score board, the Majority token and the points
so far; once the game is over, every seat's score step by step. Objective tiles show face down;
given a ``viewer`` seat, the text also names that seat's own tiles. The opponent's kept tile appears
once the game is over; discarded tiles never.

``describe_action`` names an action as the phase and the speaker have it (a kept tile stays
secret from the others), and ``table_effects`` explains the scoring (the terminal's ``?`` command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    CONNECTIONS,
    MAGICIAN_COLUMNS,
    MAGICIAN_ROWS,
    NEIGHBOURS,
    NUM_PLACES,
    OBJECTIVE_MASKS,
    OBJECTIVES,
    SPACE_COORDS,
    SPACE_NAMES,
    STARS,
    UNCONNECTED,
)
from mystic_envs.mystria.rules import (
    ASSIGN,
    END_REASONS,
    FLIP,
    FLIPPED,
    GAME_OVER,
    KEEP,
    LINES,
    MOVE,
    MOVE_PAIRS,
    PHASE_NAMES,
    PLACE,
    STACKS,
    TAKE,
    TOP,
    action_meaning,
)

if TYPE_CHECKING:
    from mystic_envs.mystria.rules import MystriaState

LETTERS = "PGBR"  # purple, green, blue, red
_CELL = 3  # characters per half-step of the lattice


def _place_grid(cell: list[str]) -> list[str]:
    """The 3 x 4 Magician board with its connections: ``-`` and ``|`` join, blanks do not."""
    linked = set(CONNECTIONS)
    lines = []
    for r in range(MAGICIAN_ROWS):
        row = ""
        for c in range(MAGICIAN_COLUMNS):
            p = r * MAGICIAN_COLUMNS + c + 1
            row += cell[p - 1]
            if c + 1 < MAGICIAN_COLUMNS:
                row += " - " if (p, p + 1) in linked else "   "
        lines.append(row.rstrip())
        if r + 1 < MAGICIAN_ROWS:
            width = len(cell[0])
            links = ""
            for c in range(MAGICIAN_COLUMNS):
                p = r * MAGICIAN_COLUMNS + c + 1
                mark = "|" if (p, p + MAGICIAN_COLUMNS) in linked else " "
                links += mark.rjust(width) + ("   " if c + 1 < MAGICIAN_COLUMNS else "")
            lines.append(links.rstrip())
    return lines


def _central_rows(cell: list[str], with_lines: bool, step: int = _CELL) -> list[str]:
    """The lattice, row by row, each space drawn as its ``cell`` (all cells one width, under
    ``2 * step``), a column step of the doubled coordinates being ``step`` characters.

    With ``with_lines``, every line of ``LINES`` is drawn (``-`` in a row, ``/`` and ``\\`` between
    rows, each slash at the middle between the two spaces it joins) and a gap is left blank.
    """
    width = len(cell[0])
    rows: dict[int, dict[int, int]] = {}
    for i, (r, x) in enumerate(SPACE_COORDS):
        rows.setdefault(r, {})[x] = i
    # Slashes sit halfway between the centres of the spaces they join, rounded away from the
    # space above, so that they touch both cells where the step allows it.
    down_left = (width - step) // 2
    down_right = (width - 1 + step) // 2
    span = step * (max(x for _, x in SPACE_COORDS) + 1) + width
    out = []
    linked = set(LINES)
    for r in sorted(rows):
        line = [" "] * span
        for x, i in rows[r].items():
            line[step * x : step * x + width] = cell[i]
            if with_lines and x + 2 in rows[r] and (i, rows[r][x + 2]) in linked:
                dashes = 2 * step - width - 2
                line[step * x + width : step * (x + 2)] = " " + "-" * dashes + " "
        out.append("".join(line).rstrip())
        if with_lines and r + 1 in rows:
            links = [" "] * span
            for x, i in rows[r].items():
                below = {SPACE_COORDS[j] for j in NEIGHBOURS[i]}
                if (r + 1, x - 1) in below:
                    links[step * x + down_left] = "/"
                if (r + 1, x + 1) in below:
                    links[step * x + down_right] = "\\"
            out.append("".join(links).rstrip())
    return out


def describe(s: MystriaState, viewer: int | None = None) -> str:
    """The table as an onlooker sees it, or with ``viewer`` (0 or 1) as that seat sees it."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    game = s.game
    lines = [f"Mystria ({game.variant} rules) - phase {PHASE_NAMES[s.phase]}"]
    if s.phase == GAME_OVER:
        lines.append(f"Game over ({END_REASONS[s.end_reason]}): player_{s.winner} wins")
    else:
        lines.append(f"To move: player_{s.player}")
    cell = []
    for i, code in enumerate(s.stacks):
        tokens = "".join(LETTERS[c] for c in STACKS[code])
        cell.append(f"{SPACE_NAMES[i]}:" + (tokens.ljust(3) if tokens else ("*  " if i in STARS else ".  ")))
    lines.append(
        "Central board (space:stack, top token first; P purple, G green, B blue, R red; * star, . empty)."
    )
    lines.append("Lines - / \\ join adjacent spaces; neighbours with no line between them have a gap:")
    lines += ["  " + row for row in _central_rows(cell, with_lines=True, step=5)]
    standing = s.standing_triangles()
    if standing:
        shown = ", ".join(
            f"{'-'.join(SPACE_NAMES[i] for i in t)} ({COLOUR_NAMES[TOP[s.stacks[t[0]]]]})" for t in standing
        )
        lines.append(f"Triangles: {shown}")
    if s.assigned:
        values = ", ".join(f"{name} {v}" for name, v in zip(COLOUR_NAMES, s.values, strict=True) if v)
        lines.append(f"Score board: {values}   Majority token: {game.majority_points}")
    else:
        lines.append(f"Score board: no score token placed yet   Majority token: {game.majority_points}")
    if s.held >= 0:
        lines.append(f"player_{s.player} holds a {COLOUR_NAMES[s.held]} token to place")
    for p in (0, 1):
        you = " (you)" if viewer == p else ""
        first = ", first player" if s.first == p else ""
        groups = ", ".join(f"{n} {g}" for n, g in zip(COLOUR_NAMES, s.largest_groups(p), strict=True))
        lines.append(f"player_{p}{you}: {s.drops[p]} Energy drops{first}; largest groups: {groups}")
        board = [f"{i + 1:>2}." for i in range(NUM_PLACES)]
        for c in range(len(COLOUR_NAMES)):
            for i in range(NUM_PLACES):
                if s.masks[p][c] >> i & 1:
                    board[i] = f"{i + 1:>2}{LETTERS[c]}"
        lines += ["    " + row for row in _place_grid(board)]
        if game.full:
            lines.append(f"  objective: {_objective_text(s, p, viewer)}")
    lines += _points(s)
    return "\n".join(lines)


def _points(s: MystriaState) -> list[str]:
    """Each seat's points: step by step once the game is over, the public part while it runs."""
    over = s.phase == GAME_OVER
    if not s.assigned:
        return []
    if not over:
        # The kept Objective tiles are secret until the end: only the public steps are counted.
        parts = []
        for p in (0, 1):
            sc = s.score(p, with_objective=False)
            parts.append(f"player_{p} colours {sc.colours} + Majority {sc.majority} + drops {sc.drops}")
        return ["Points so far (objectives not counted): " + "; ".join(parts)]
    lines = ["Final scoring:"]
    for p in (0, 1):
        sc = s.score(p)
        objective = f" + objective {sc.objective}" if s.game.full else ""
        lines.append(
            f"  player_{p}: colours {sc.colours}{objective} + Majority {sc.majority} + drops {sc.drops} "
            f"= {sc.total}"
        )
    return lines


def _objective_text(s: MystriaState, p: int, viewer: int | None) -> str:
    kept = s.kept[p]
    if viewer == p:
        if kept < 0:
            return "drew " + " and ".join(_tile(t) for t in s.drawn[p]) + "; keeps one"
        discarded = [t for t in s.drawn[p] if t != kept]
        done = " - achieved" if s.objective_done(p) else ""
        return f"kept {_tile(kept)}{done}; discarded {_tile(discarded[0])}"
    if kept >= 0 and s.phase == GAME_OVER:
        return f"{_tile(kept)}{' - achieved' if s.objective_done(p) else ' - not achieved'}"
    return "two tiles face down, none kept yet" if kept < 0 else "one tile kept face down"


def _tile(t: int) -> str:
    tile = OBJECTIVES[t]
    return f"{tile.name} ({tile.points} points: places {' '.join(map(str, tile.places))})"


def _stack(code: int) -> str:
    return "".join(LETTERS[c] for c in STACKS[code]) or "empty"


def describe_action(s: MystriaState, action: int, viewer: int | None = None, name: str | None = None) -> str:
    """``action`` about to be played in ``s``: the imperative for the mover (``viewer`` is its seat),
    otherwise a sentence naming the mover (``name``, default ``player_<seat>``) with only what the
    table learns: which tile a seat keeps is its secret."""
    mover = s.current_player
    you = viewer == mover
    who = name or f"player_{mover}"
    if KEEP <= action < ASSIGN:
        if you:
            return f"keep Objective tile {_tile(action - KEEP)}"
        return f"{who} keeps one of the two Objective tiles drawn, face down"
    if ASSIGN <= action < MOVE:
        colour = COLOUR_NAMES[action - ASSIGN]
        value = s.game.score_values[s.assigned] if s.assigned < len(s.game.score_values) else "?"
        if you:
            return f"score board: put {colour} on the highest free value ({value})"
        return f"{who} puts {colour} on the score board's highest free value ({value})"
    if MOVE <= action < FLIP:
        a, b = MOVE_PAIRS[action - MOVE]
        src, dst = (b, a) if not STACKS[s.stacks[a]] else (a, b)
        stack = _stack(s.stacks[src])
        what = f"the stack {stack} on {SPACE_NAMES[src]} to {SPACE_NAMES[dst]}"
        return f"move {what}" if you else f"{who} moves {what}"
    if FLIP <= action < TAKE:
        space = action - FLIP
        code = s.stacks[space]
        what = f"the stack on {SPACE_NAMES[space]} ({_stack(code)} -> {_stack(FLIPPED[code])})"
        return f"flip {what}" if you else f"{who} flips {what}"
    if TAKE <= action < PLACE:
        space = action - TAKE
        top = TOP[s.stacks[space]]
        token = (
            f"the top token ({COLOUR_NAMES[top]}) on {SPACE_NAMES[space]}" if top >= 0 else SPACE_NAMES[space]
        )
        return f"take {token}" if you else f"{who} takes {token}"
    if PLACE <= action < PLACE + NUM_PLACES:
        colour = COLOUR_NAMES[s.held] + " " if s.held >= 0 else ""
        place = action - PLACE + 1
        if you:
            return f"place the {colour}token on place {place} of your board"
        return f"{who} places the {colour}token on place {place} of their board"
    return action_meaning(action)


def table_effects(s: MystriaState, viewer: int | None = None) -> str:
    """How Mystria scores, with this table's values and what ``viewer`` may know of the objectives."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    game = s.game
    lines = ["How points are scored at the end:"]
    if s.assigned:
        values = ", ".join(f"{n} {v}" for n, v in zip(COLOUR_NAMES, s.values, strict=True))
        lines.append(f"  score board values: {values}")
    else:
        lines.append(f"  score board values still to place: {', '.join(map(str, game.score_values))}")
    if game.full:
        lines.append(
            "  each colour: its value to the seat with the larger largest group of it (a tie: nobody)"
        )
    else:
        lines.append("  each colour: the size of your largest group of it times its value")
    lines.append(
        f"  Majority token: {game.majority_points} points to the seat with the largest group of any colour"
    )
    lines.append("  each Energy drop left: 1 point; a tie on points goes to the seat with more drops")
    if game.full:
        lines.append(
            "  Objective tile: its points if its places (the numbers on the Magician board) all hold "
            "tokens of one colour"
        )
        if viewer is not None:
            lines.append(f"  your objective: {_objective_text(s, viewer, viewer)}")
    return "\n".join(lines)


# --- generated doc tables ------------------------------------------------------------------------
def board_diagram() -> str:
    """The central board: spaces, lines and star spaces (embedded in docs/rules/mystria.md)."""
    cell = [("*" if i in STARS else " ") + name for i, name in enumerate(SPACE_NAMES)]
    return "```\n" + "\n".join(_central_rows(cell, with_lines=True)) + "\n```"


def magician_diagram() -> str:
    """The Magician board: places 1-12 and their connections (embedded in docs/rules/mystria.md)."""
    cells = [f"{p:>2}" for p in range(1, NUM_PLACES + 1)]
    cut = ", ".join(f"{a}-{b}" for a, b in UNCONNECTED)
    return "```\n" + "\n".join(_place_grid(cells)) + f"\n```\n\nNot connected: {cut}."


def objectives_table() -> str:
    """The eight Objective tiles (embedded in docs/rules/mystria.md)."""
    rows = [
        "| tile | places | pattern (rows of the board) | turned half round | points |",
        "|---|---|---|---|--:|",
    ]
    half_turn = {mask: t for t, mask in enumerate(OBJECTIVE_MASKS)}
    for t, tile in enumerate(OBJECTIVES):
        mask = OBJECTIVE_MASKS[t]
        pattern = " / ".join(
            "".join("X" if mask >> (r * MAGICIAN_COLUMNS + c) & 1 else "." for c in range(MAGICIAN_COLUMNS))
            for r in range(MAGICIAN_ROWS)
        )
        places = ", ".join(map(str, tile.places))
        turned = sum(1 << (NUM_PLACES - 1 - p) for p in range(NUM_PLACES) if mask >> p & 1)
        twin = OBJECTIVES[half_turn[turned]].name if turned in half_turn else "-"
        rows.append(f"| {tile.name} | {places} | `{pattern}` | {twin} | {tile.points} |")
    return "\n".join(rows)
