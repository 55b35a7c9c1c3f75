"""One full AEC game between agent objects, shared by the agent tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
