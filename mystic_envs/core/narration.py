"""The words every front end uses for a move: its label and the story of what it caused.

:func:`action_label` names an action about to be played in a state, for one listener: the game's
``render.describe_action`` (the card, die or target named; the imperative for the mover, a
third-person sentence with only what the table learns for anyone else). :func:`table_events`
tells what the action between two states caused: the game's ``narrate.events(before, after,
viewer=None, names=None) -> list[str]``, one sentence a line, with only what seat ``viewer``
(None: an onlooker) may know. The terminal (``agents.play``, ``agents.replay``), the page's move
list, the records and OpenSpiel's ``action_to_string`` all call these two, so each game words a
move once. ``action_meaning(a)`` stays the fixed name of an action index.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def game_module(state: Any, name: str) -> ModuleType | None:
    """The module ``name`` (``render``, ``narrate``) of the game ``state`` belongs to, or None."""
    # mystic_envs.<game>.rules -> mystic_envs.<game>.<name>
    package = type(state).__module__.rpartition(".")[0]
    if not package:  # a game defined in a lone module (a test fixture) has neither
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ImportError:
        return None


def action_label(state: Any, action: int, viewer: int | None = None, name: str | None = None) -> str:
    """``action``, about to be played in ``state``, as seat ``viewer`` hears it (None: an onlooker).

    The mover itself gets the imperative ("reroll your D12"); anyone else a sentence in the third
    person naming the mover (``name``, default ``player_<seat>``) with only what the table learns
    ("player_1 rerolls their D12"); a secret choice stays secret. A game without
    ``render.describe_action`` falls back on ``action_meaning``."""
    describe_action = getattr(game_module(state, "render"), "describe_action", None)
    if describe_action is not None:
        return describe_action(state, action, viewer, name=name)
    mover = state.current_player
    if viewer == mover:
        return state.game.action_meaning(action)
    return f"{name or f'player_{mover}'}: {state.game.public_action_meaning(action)}"


def table_events(
    before: Any, after: Any, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, which its label cannot say in
    advance, one sentence a line, as seat ``viewer`` (None: an onlooker) may know it: the game's
    ``narrate.events``, or nothing for a game without one. ``names[q]`` names seat ``q`` for the
    others; the viewer's own seat is "you"."""
    events = getattr(game_module(after, "narrate"), "events", None)
    return [] if events is None else events(before, after, viewer, names)


class Teller:
    """Names seat ``q`` for ``viewer``: "You" / "you" for the viewer's own seat, else ``names[q]``
    (default ``player_<q>``)."""

    def __init__(self, viewer: int | None, names: list[str] | None = None) -> None:
        self.viewer = viewer
        self.names = names

    def __call__(self, q: int, start: bool = True) -> str:
        """Seat ``q``'s name; ``start``: it opens a sentence ("You" rather than "you")."""
        if q == self.viewer:
            return "You" if start else "you"
        return self.names[q] if self.names else f"player_{q}"

    def verb(self, q: int, third: str, second: str) -> str:
        """``q``'s name and the verb that agrees with it ("You score", "player_1 scores")."""
        return f"{self(q)} {second if q == self.viewer else third}"

    def own(self, q: int, start: bool = False) -> str:
        """``q``'s possessive ("your", "player_1's"); ``start``: it opens a sentence ("Your")."""
        if q == self.viewer:
            return "Your" if start else "your"
        return f"{self(q)}'s"
