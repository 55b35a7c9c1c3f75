"""A human at the terminal, behind the same ``act(env, agent_id)`` protocol as every other agent.

On its turn the agent prints the table as its own seat may see it (``state.describe(viewer=seat)``:
the public table plus that seat's own secrets, never another seat's), then the legal actions
numbered by their action ids, each named for this phase and this speaker (:func:`action_label`),
and reads a number. ``?`` prints what the things on the table do (:func:`table_effects`). Bad
input (empty, not a number, not a legal action) is answered with one line and asked again; ``q``,
``quit`` or the end of input (Ctrl-D) raise :class:`QuitGame`. ``python -m agents.play`` plays a
whole game against any other agent.

:func:`action_label`, :func:`table_events` (``mystic_envs.core.narration``, re-exported here) and
:func:`table_effects` serve every terminal front end (``agents.play``, ``agents.demo``,
``agents.replay``): the label names the card, die or target for this speaker (the game's
``render.describe_action``, else ``action_meaning``); the events tell what a move caused, which
its label cannot say in advance (the game's ``narrate.events``: the dice rolled, a challenge's Fate
cards, a fight's totals, a harvest, the final scoring); the effects are the game's
``render.table_effects``.

``input_fn(prompt) -> str`` and ``output(text)`` default to ``input`` and ``print``; tests and
other front ends pass their own. ``env_id`` (given, the agent refuses to act in another game) and
``seed`` (checked, then unused) are accepted so that every agent is built the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.game import check_seed
from mystic_envs.core.narration import action_label, game_module, table_events
from mystic_envs.core.policies import check_env

__all__ = ["HumanAgent", "QuitGame", "action_label", "table_effects", "table_events"]

QUIT_WORDS = ("q", "quit")
HELP_WORDS = ("?", "help")
PROMPT = "Your move (number, ? for the effects on the table, q to quit): "


def table_effects(state: Any, viewer: int | None = None) -> str:
    """What the things on the table do, as seat ``viewer`` may know it (the ``?`` command)."""
    effects = getattr(game_module(state, "render"), "table_effects", None)
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
