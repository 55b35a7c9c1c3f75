"""What every rule-based player shares: it decides on its own seat's determinized view of the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import seat_to_move


class DeterminizingHeuristic:
    """An agent that calls ``decide(state, seat)`` on ``state.determinize(seat, rng)``.

    Subclasses set ``decide``, a state-level player of their game. The hidden information it is
    handed is re-dealt from the agent's own seeded generator, so the player can read the state in
    full and still never learn what its seat may not see.
    """

    decide: Callable[[Any, int], int]

    def __init__(self, seed: int | None = None) -> None:
        # The game this player is for, found in the table that names every heuristic, so that it
        # refuses to act in another game however it was built (make_agent or the class itself).
        from agents.heuristic import HEURISTICS  # imported here: that package imports this module

        self.env_id: str | None = next((e for e, cls in HEURISTICS.items() if isinstance(self, cls)), None)
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def act(self, env: Any, agent_id: str, scores: dict[int, float] | None = None) -> int:
        """The action for ``agent_id``; ``scores`` (games in ``agents.heuristic.SCORED`` only)
        receives the value of every option the decision compared."""
        seat = seat_to_move(env, agent_id, self.env_id)
        state = env.unwrapped.game_state
        view = state.determinize(seat, self.rng)
        if scores is None:
            return self.decide(view, seat)
        return self.decide(view, seat, scores=scores)
