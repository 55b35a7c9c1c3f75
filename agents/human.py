"""A human at the terminal, behind the same ``act(env, agent_id)`` protocol as every other agent.

On its turn the agent prints the table as its own seat may see it (``state.describe(viewer=seat)``:
the public table plus that seat's own secrets, never another seat's), then the legal actions
numbered by their action ids, each named for this phase and this speaker (:func:`action_label`),
and reads a number. ``?`` prints what the things on the table do (:func:`table_effects`). Bad
input (empty, not a number, not a legal action) is answered with one line and asked again; ``q``,
``quit`` or the end of input (Ctrl-D) raise :class:`QuitGame`. ``python -m agents.play`` plays a
whole game against any other agent.

:func:`action_label` and :func:`table_effects` serve every terminal front end (``agents.play``,
``agents.demo``, ``agents.replay``): they call the game's ``render.describe_action`` and
``render.table_effects`` where the game has them, and fall back on ``action_meaning`` otherwise;
:func:`table_events` (``render.events``) tells what an action set off that its label cannot say
in advance (a Mystic Vale push that spoils the field).

``input_fn(prompt) -> str`` and ``output(text)`` default to ``input`` and ``print``; tests and
other front ends pass their own. ``env_id`` (given, the agent refuses to act in another game) and
``seed`` (checked, then unused) are accepted so that every agent is built the same way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import check_env

__all__ = ["HumanAgent", "QuitGame", "action_label", "table_effects", "table_events"]

QUIT_WORDS = ("q", "quit")
HELP_WORDS = ("?", "help")
PROMPT = "Your move (number, ? for the effects on the table, q to quit): "


def _render_module(state: Any) -> ModuleType | None:
    # mystic_envs.<game>.rules -> mystic_envs.<game>.render, the game's text front end.
    package = type(state).__module__.rpartition(".")[0]
    if not package:  # a game defined in a lone module (a test fixture) has no render module
        return None
    try:
        return importlib.import_module(f"{package}.render")
    except ImportError:
        return None


def action_label(state: Any, action: int, viewer: int | None = None, name: str | None = None) -> str:
    """``action``, about to be played in ``state``, as seat ``viewer`` hears it (None: an onlooker).

    The mover itself gets the imperative ("reroll your D12"); anyone else a sentence in the third
    person naming the mover (``name``, default ``player_<seat>``) with only what the table learns
    ("player_1 rerolls their D12"); a secret choice stays secret."""
    render = _render_module(state)
    describe_action = getattr(render, "describe_action", None)
    if describe_action is not None:
        return describe_action(state, action, viewer, name=name)
    mover = state.current_player
    if viewer == mover:
        return state.game.action_meaning(action)
    return f"{name or f'player_{mover}'}: {state.game.public_action_meaning(action)}"


def table_events(
    before: Any, after: Any, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What happened between ``before`` and ``after`` (one action apart) that no action label
    says, as seat ``viewer`` may know it (Mystic Vale's spoils): the game's ``render.events``,
    or nothing for a game without one. ``names[q]`` names seat ``q`` for the others."""
    events = getattr(_render_module(after), "events", None)
    return [] if events is None else events(before, after, viewer, names)


def table_effects(state: Any, viewer: int | None = None) -> str:
    """What the things on the table do, as seat ``viewer`` may know it (the ``?`` command)."""
    render = _render_module(state)
    effects = getattr(render, "table_effects", None)
    if effects is None:
        return "This game has no table of effects yet; its rules are in docs/rules/."
    return effects(state, viewer)


class QuitGame(Exception):
    """The human stopped the game: ``q``/``quit`` or end of input."""


class HumanAgent:
    """Asks a person for every move; shows only what that person's seat may see."""

    def __init__(
        self,
        env_id: str | None = None,
        seed: int | None = None,
        input_fn: Callable[[str], str] = input,
        output: Callable[[str], Any] = print,
    ) -> None:
        if env_id is not None:
            mystic_envs.env_module(env_id)  # an unknown id fails here, not at the first move
        check_seed(seed)  # unused, but checked like every agent's, so a bad one is not a silent no-op
        self.env_id = env_id
        self.input_fn = input_fn
        self.output = output

    def act(self, env: Any, agent_id: str) -> int:
        base = check_env(env, self.env_id)
        seat = base.agent_name_mapping[agent_id]
        legal = np.flatnonzero(env.observe(agent_id)["action_mask"]).tolist()
        if not legal:
            raise ValueError(f"{agent_id} has no legal action: it is not its turn or its game is over")
        state = base.game_state
        self.output(state.describe(viewer=seat))
        self.output(f"\n{agent_id}, your legal actions:")
        width = len(str(legal[-1]))
        for a in legal:
            self.output(f"  {a:>{width}}: {action_label(state, a, viewer=seat)}")
        numbers = ", ".join(map(str, legal))
        while True:
            try:
                text = self.input_fn(PROMPT).strip()
            except EOFError:
                raise QuitGame("end of input") from None
            if text.lower() in QUIT_WORDS:
                raise QuitGame(f"{agent_id} quit")
            if text in HELP_WORDS:
                self.output(table_effects(state, viewer=seat))
                continue
            if not text:
                self.output(f"Type the number of an action: {numbers} (q to quit).")
                continue
            try:
                choice = int(text)
            except ValueError:
                self.output(f"{text!r} is not a number; type one of {numbers} (q to quit).")
                continue
            if choice in legal:
                return choice
            if 0 <= choice < base.action_space(agent_id).n:
                self.output(f"Action {choice} is not legal now; type one of {numbers} (q to quit).")
            else:
                self.output(f"There is no action {choice}; type one of {numbers} (q to quit).")
