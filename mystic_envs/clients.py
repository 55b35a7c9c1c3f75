"""Adapters for RL libraries that read a PettingZoo AEC env their own way (``docs/clients.md``).

:class:`StepEliminated` lets Tianshou's ``PettingZooEnv`` and TorchRL's ``PettingZooWrapper`` play a
game with a seat eliminated mid-game (Mystick Domination at 3-5 players) to its end. PettingZoo hands
an eliminated seat the move for its ``step(None)``: Tianshou would end the episode there (it returns
``env.last()`` of the seat to move), TorchRL would send that seat an action. The wrapper steps such a
seat out at once and keeps its termination, final reward and last info visible, so each seat's
return is its final reward and the games stay zero-sum. It changes nothing for two players.

It is an adapter for these clients, not a PettingZoo env of its own: its dicts keep seats that have
left ``agents``, which PettingZoo's ``api_test`` refuses (the env itself passes it).
"""

from __future__ import annotations

from typing import Any

import pettingzoo.utils
from pettingzoo.utils.env import AECEnv

__all__ = ["StepEliminated"]


class StepEliminated(pettingzoo.utils.BaseWrapper):
    """Steps a seat eliminated mid-game out at once (PettingZoo's ``step(None)``), so that the seat to
    move is always a live one, and keeps that seat's termination, final reward (on the step that
    eliminated it, 0 after) and last info in ``terminations``, ``rewards`` and ``infos`` until reset."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._eliminated: dict[str, dict[str, Any]] = {}  # seat -> its last info
        self._eliminated_rewards: dict[str, float] = {}  # seats eliminated on the last step -> reward

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed, options)
        self._eliminated = {}
        self._eliminated_rewards = {}

    def step(self, action: Any) -> None:
        super().step(action)
        env, self._eliminated_rewards = self.env, {}
        rewards = dict(env.rewards)  # each step(None) clears them, and two seats can leave at once
        # A terminated seat to move while another still plays is out of a game that goes on.
        while env.terminations[env.agent_selection] and not all(
            env.terminations[a] or env.truncations[a] for a in env.agents
        ):
            seat = env.agent_selection
            self._eliminated[seat] = env.infos[seat]
            self._eliminated_rewards[seat] = rewards[seat]
            env.step(None)

    @property
    def rewards(self) -> dict[str, float]:
        rewards = self.env.rewards
        return {a: rewards.get(a, self._eliminated_rewards.get(a, 0.0)) for a in self._seats()}

    @property
    def terminations(self) -> dict[str, bool]:
        return {a: self.env.terminations.get(a, True) for a in self._seats()}

    @property
    def truncations(self) -> dict[str, bool]:
        return {a: self.env.truncations.get(a, False) for a in self._seats()}

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        infos = self.env.infos
        return {a: infos[a] if a in infos else self._eliminated[a] for a in self._seats()}

    def _seats(self) -> list[str]:
        return [a for a in self.possible_agents if a in self.env.agents or a in self._eliminated]
