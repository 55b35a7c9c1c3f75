"""A human at the terminal, behind the same ``act(env, agent_id)`` protocol as every other agent.

On its turn the agent prints the table as its own seat may see it (``state.describe(viewer=seat)``:
the public table plus that seat's own secrets, never another seat's), then the legal actions
numbered by their action ids, and reads a number. Bad input (empty, not a number, not a legal
action) is answered with one line and asked again; ``q``, ``quit`` or the end of input (Ctrl-D)
raise :class:`QuitGame`. ``python -m agents.play`` plays a whole game against any other agent.

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
from mystic_envs.core.policies import check_env

__all__ = ["HumanAgent", "QuitGame"]

QUIT_WORDS = ("q", "quit")
PROMPT = "Your move (number, q to quit): "


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
        self.output(base.game_state.describe(viewer=seat))
        self.output(f"\n{agent_id}, your legal actions:")
        width = len(str(legal[-1]))
        for a in legal:
            self.output(f"  {a:>{width}}: {base.action_meaning(a)}")
        numbers = ", ".join(map(str, legal))
        while True:
            try:
                text = self.input_fn(PROMPT).strip()
            except EOFError:
                raise QuitGame("end of input") from None
            if text.lower() in QUIT_WORDS:
                raise QuitGame(f"{agent_id} quit")
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
