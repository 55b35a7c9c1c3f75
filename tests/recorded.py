"""A recorded game between random agents, for the record and replay tests."""

from __future__ import annotations

from typing import Any

import mystic_envs
from agents import make_agent
from agents.records import GameRecorder


def recorded_game(env_id: str, seed: int, **kwargs: Any) -> dict[str, Any]:
    env = mystic_envs.make(env_id, **kwargs)
    env.reset(seed=seed)
    players = [make_agent("random", env_id, seed=seed + s) for s in range(len(env.possible_agents))]
    recorder = GameRecorder(env, env_id, seed, ["random"] * len(players), kwargs=kwargs)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        action = (
            None
            if terminated or truncated
            else players[env.unwrapped.agent_name_mapping[agent]].act(env, agent)
        )
        recorder.record(agent, action)
        env.step(action)
    return recorder.finish()
