"""What a Mystria move caused, as one seat may know it (``mystic_envs.core.narration``).

Energy drops passed on by a move or flip, the points a placed token changes, the last score token
placed by itself, and at the end the scoring by colour, objective, majority and drops per seat, or
why the game stopped early. Before the end a seat's objective is its own: an opponent's is told
only once the game is over, when the tiles are turned up.
"""

from __future__ import annotations

from mystic_envs.core.narration import Teller
from mystic_envs.mystria.board import COLOUR_NAMES, OBJECTIVES
from mystic_envs.mystria.rules import (
    GAME_OVER,
    PLACE_PHASE,
    SCORE_BOARD,
    SCORED,
    MystriaState,
)


def events(
    before: MystriaState, after: MystriaState, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, one sentence a line, as seat
    ``viewer`` (None: an onlooker) may know it; ``names[q]`` names seat ``q``."""
    who = Teller(viewer, names)
    p = before.current_player
    out = []
    if before.drops[p] > after.drops[p]:
        out.append(
            f"{who.verb(p, 'passes', 'pass')} one Energy drop to {who(1 - p, False)}: "
            f"{who.own(p)} drops {after.drops[p]}, {who.own(1 - p)} {after.drops[1 - p]}."
        )
    if before.phase == SCORE_BOARD and after.phase != SCORE_BOARD:
        board = ", ".join(f"{COLOUR_NAMES[c]} {v}" for c, v in enumerate(after.values))
        out.append(f"The last score token takes the last free value: the score board reads {board}.")
    if before.phase == PLACE_PHASE and after.points != before.points:
        out.append(
            f"Colour and majority points so far: {who(0, False)} {after.points[0]}, "
            f"{who(1, False)} {after.points[1]}."
        )
    if after.phase == GAME_OVER and before.phase != GAME_OVER:
        out += _ending(after, who)
    return out


def _ending(s: MystriaState, who: Teller) -> list[str]:
    p = s.winner
    if s.end_reason != SCORED:
        loser = 1 - p
        if s.drops[loser] == 0:
            why = who.verb(loser, "has", "have") + " no Energy drop left"
        else:
            why = who.verb(loser, "can", "can") + " neither move, flip nor take"
        return [f"{why}: {who(p, False)} {'win' if p == who.viewer else 'wins'}."]
    out = []
    for q in (0, 1):
        score = s.score(q)
        tile = OBJECTIVES[s.kept[q]].name if s.kept[q] >= 0 else "no tile"
        done = "achieved" if s.objective_done(q) else "not achieved"
        out.append(
            f"{who.own(q, True)} scoring: colours {score.colours}, objective {score.objective} "
            f"({tile}, {done}), majority {score.majority}, drops {score.drops}: {score.total} points."
        )
    tie = s.score(0).total == s.score(1).total
    out.append(f"{who.verb(p, 'wins', 'win')}" + (" on drops left, the points being level." if tie else "."))
    return out
