"""Draw a table as SVG for one viewer, from the engine state (``env.unwrapped.game_state``).

``viewer`` is a seat index (what that seat may see, as its observation and ``describe(viewer=seat)``
do), ``None`` (an onlooker: public information only) or ``"all"`` (every seat's private view at
once, for a game with no human seat; never what no seat sees, such as the order of a deck).

A game with a module ``agents.web.draw_<game>`` (a ``draw(state, viewer) -> str`` function) gets
its own picture; any other game gets its ``describe()`` text in an SVG block, so a newly
registered game can be played on the page at once.
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.web.svg import text_block

Viewer = int | str | None
ALL = "all"


def _game_name(env_id: str) -> str:
    return env_id.rsplit("_v", 1)[0]


def drawer(env_id: str) -> Any | None:
    """The ``draw(state, viewer)`` function of ``env_id``, or ``None`` if it has no drawer."""
    try:
        module = importlib.import_module(f"agents.web.draw_{_game_name(env_id)}")
    except ModuleNotFoundError as exc:
        if exc.name != f"agents.web.draw_{_game_name(env_id)}":
            raise
        return None
    return module.draw


def describe_text(state: Any, viewer: Viewer) -> str:
    """The engine's text for ``viewer``; for ``"all"``, each seat's view in turn."""
    if viewer == ALL:
        n = state.game.num_players
        return "\n\n".join(f"--- as player_{p} sees it ---\n{state.describe(viewer=p)}" for p in range(n))
    return state.describe(viewer=viewer)


def fallback(state: Any, viewer: Viewer) -> str:
    """The ``describe()`` text drawn as monospace lines."""
    lines = describe_text(state, viewer).splitlines()
    return text_block(lines, "the table as text")


def draw(env_id: str, state: Any, viewer: Viewer) -> str:
    """The SVG of ``state`` as ``viewer`` may see it."""
    if viewer is not None and viewer != ALL:
        viewer = state.check_seat(viewer, "viewer")
    own = drawer(env_id)
    return own(state, viewer) if own is not None else fallback(state, viewer)
