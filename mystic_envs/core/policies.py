"""Opponent policies the core can name without importing the ``agents`` package.

The core knows ``"random"`` itself. ``agents`` registers its names (``heuristic``, ``mcts``,
``ppo`` ...) here when it is imported, so ``single_agent(..., opponent="heuristic")`` works
after ``import agents`` while the core library never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mystic_envs.core.game import check_seed


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(env, agent_id) -> int`` on a live AEC env (the ``Agent`` protocol)."""

    def act(self, env: Any, agent_id: str) -> int: ...


def check_env(env: Any, env_id: str | None) -> Any:
    """``env.unwrapped``, checked to be a game of ``env_id`` (``None``: any env); ``ValueError``
    naming both ids otherwise.

    An agent made for one game reads another's observation or state as garbage (a wrong-sized
    vector, missing fields) and fails deep inside, or worse, plays on. The env's
    ``metadata["name"]`` is its id, so the check is one lookup per move (~0.2 us against ~8 us
    for an observation).
    """
    base = env.unwrapped
    if env_id is not None:
        name = getattr(base, "metadata", {}).get("name")
        if name != env_id:
            raise ValueError(
                f"this agent was made for {env_id} and cannot act in {name}; "
                f"make one for it with agents.make_agent(NAME, {name!r})"
            )
    return base


def seat_to_move(env: Any, agent_id: str, env_id: str | None = None) -> int:
    """The seat of ``agent_id``, which must be the one to move on ``env``, a game of ``env_id``
    (``None``: any); ``ValueError`` otherwise (an agent asked for a move out of turn, or in
    another game, must not answer with one)."""
    base = check_env(env, env_id)
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
    """Uniform over the legal actions of ``agent_id``, from its own seeded generator.

    With an ``env_id`` it refuses to act in any other game (``check_env``); without one (the
    default) it plays any PettingZoo AEC env with action masks, a benchmark's included.
    """

    def __init__(self, seed: int | None = None, env_id: str | None = None) -> None:
        self.env_id = env_id
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def act(self, env: Any, agent_id: str) -> int:
        if self.env_id is not None:
            check_env(env, self.env_id)
        mask = env.observe(agent_id)["action_mask"]
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"{agent_id} has no legal action; is it this agent's turn?")
        return int(legal[self.rng.integers(legal.size)])


PolicyFactory = Callable[..., Policy]
_FACTORIES: dict[str, PolicyFactory] = {
    "random": lambda env_id, seed=None, **kw: RandomPolicy(seed, env_id=env_id, **kw)
}


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
