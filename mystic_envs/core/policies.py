"""Opponent policies the core can name without importing the ``agents`` package.

The core knows ``"random"`` itself. ``agents`` registers its names (``heuristic``, ``mcts``,
``ppo`` ...) here when it is imported, so ``single_agent(..., opponent="heuristic")`` works
after ``import agents`` while the core library never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(env, agent_id) -> int`` on a live AEC env (the ``Agent`` protocol)."""

    def act(self, env: Any, agent_id: str) -> int: ...


def seat_to_move(env: Any, agent_id: str) -> int:
    """The seat of ``agent_id``, which must be the one to move on ``env``; ``ValueError`` otherwise
    (an agent asked for a move out of turn must not answer with one)."""
    base = env.unwrapped
    seat = base.agent_name_mapping[agent_id]
    to_move = base.game_state.current_player
    if to_move != seat:
        raise ValueError(
            f"the game is over; {agent_id} has no move to choose"
            if to_move < 0
            else f"{agent_id} is not to move (player_{to_move} is)"
        )
    return seat


class RandomPolicy:
    """Uniform over the legal actions of ``agent_id``, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env: Any, agent_id: str) -> int:
        mask = env.observe(agent_id)["action_mask"]
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{agent_id} has no legal action; is it this agent's turn?")
        return int(legal[self.rng.integers(legal.size)])


PolicyFactory = Callable[..., Policy]
_FACTORIES: dict[str, PolicyFactory] = {"random": lambda env_id, seed=None, **kw: RandomPolicy(seed)}


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make ``name`` usable as an opponent: ``factory(env_id, seed=..., **kw) -> Policy``."""
    _FACTORIES[name] = factory


def policy_names() -> list[str]:
    return sorted(_FACTORIES)


def make_policy(name: str, env_id: str, seed: int | None = None, **kwargs: Any) -> Policy:
    if name not in _FACTORIES:
        raise ValueError(
            f"unknown opponent {name!r}; known: {policy_names()} (import agents to register "
            "heuristic, mcts and ppo)"
        )
    return _FACTORIES[name](env_id, seed=seed, **kwargs)
