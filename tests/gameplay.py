"""Game-playing helpers shared by the tests: one full AEC game between agent objects, and the
check that a two-player state and its seat mirror agree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import mystic_envs


def play_game(
    env_id: str, players: Sequence[Any], seed: int, **env_kwargs: Any
) -> tuple[dict[str, float], list[int]]:
    """A full game under ``illegal_action="raise"``: final rewards by agent and every action played."""
    env = mystic_envs.make(env_id, illegal_action="raise", **env_kwargs)
    env.reset(seed=seed)
    seats = dict(zip(env.possible_agents, players, strict=True))
    rewards, actions = {}, []
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
        else:
            actions.append(seats[agent].act(env, agent))
            env.step(actions[-1])
    return rewards, actions


def play_random(state: Any, rng: np.random.Generator, moves: int) -> Any:
    """``state`` after up to ``moves`` uniformly random legal actions (fewer if the game ends)."""
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def assert_seat_mirrors(a: Any, b: Any, step: int) -> None:
    """``b`` is ``a`` with the two seats swapped: the same legal (egocentric) actions for the other
    seat, each seat seeing in ``a`` what the other sees in ``b``, and the results swapped."""
    assert a.is_terminal == b.is_terminal, step
    if not a.is_terminal:
        assert b.current_player == 1 - a.current_player, step
        assert a.legal_actions() == b.legal_actions(), step
    for p in (0, 1):
        np.testing.assert_array_equal(
            a.observation(p), b.observation(1 - p), err_msg=f"seat {p}, step {step}"
        )
    assert list(a.returns()) == list(b.returns())[::-1], step


def play_mirrored(
    a: Any,
    b: Any,
    decide: Callable[[Any], int],
    choose: np.random.Generator,
    check: Callable[[Any, Any, int], None] = lambda a, b, step: None,
    explore: float = 0.1,
) -> None:
    """Play ``a`` and its seat mirror ``b`` to the end with the same actions, asserting
    :func:`assert_seat_mirrors` (and ``check``) before every step and at the end. ``decide(state)``
    picks the mover's action and must pick the same in both; one action in ``1 / explore`` is
    random instead, so the games leave the decider's own lines."""
    step = 0
    while not a.is_terminal:
        check(a, b, step)
        assert_seat_mirrors(a, b, step)
        action = decide(a)
        assert decide(b) == action, step
        if choose.random() < explore:
            action = int(choose.choice(a.legal_actions()))
        a.apply(action)
        b.apply(action)
        step += 1
    assert_seat_mirrors(a, b, step)
