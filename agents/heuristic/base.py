"""What every rule-based player shares: it decides on its own seat's determinized view of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mystic_envs.core.policies import seat_to_move


class DeterminizingHeuristic:
    """An agent that calls ``decide(state, seat)`` on ``state.determinize(seat, rng)``.

    Subclasses set ``decide``, a state-level player of their game. The hidden information it is
    handed is re-dealt from the agent's own seeded generator, so the player can read the state in
    full and still never learn what its seat may not see.
    """

    decide: Callable[[Any, int], int]

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any, agent_id: str, scores: dict[int, float] | None = None) -> int:
        """The action for ``agent_id``; ``scores`` (games in ``agents.heuristic.SCORED`` only)
        receives the value of every option the decision compared."""
        seat = seat_to_move(env, agent_id)
        state = env.unwrapped.game_state
        view = state.determinize(seat, self.rng)
        if scores is None:
            return self.decide(view, seat)
        return self.decide(view, seat, scores=scores)
