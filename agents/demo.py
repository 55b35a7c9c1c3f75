"""Play and render one full game between two agents, print the result (``make demo`` is
``training.demo``, the training demo).

python -m agents.demo [--env elemystic_v0] [--players heuristic random] [--seed 0] [--quiet]
"""

from __future__ import annotations

import argparse

import mystic_envs
from agents import AGENT_NAMES, make_agent


def play_game(env_id: str, names: list[str], seed: int, render: bool = True) -> dict:
    """One game through the standard AEC loop; returns ``{agent: (reward, final info)}``."""
    env = mystic_envs.make(env_id, render_mode="ansi" if render else None)
    env.reset(seed=seed)
    players = {
        agent: make_agent(name, env_id, seed=seed + i)
        for i, (agent, name) in enumerate(zip(env.possible_agents, names, strict=True))
    }
    final: dict = {}
    shown_phase = None
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            env.step(None)
            continue
        if render and (info.get("round"), info["phase"]) != shown_phase:
            shown_phase = (info.get("round"), info["phase"])
            print("\n" + env.render() + "\n")
        action = players[agent].act(env, agent)
        if render:
            who = names[env.unwrapped.agent_name_mapping[agent]]
            print(f"{agent} ({who}): {env.unwrapped.action_meaning(action)}")
        env.step(action)
    if render:
        print("\n" + env.render())
    return final


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Play and render one full game between two agents.")
    parser.add_argument("--env", default="elemystic_v0", choices=mystic_envs.ENV_IDS)
    parser.add_argument("--players", nargs=2, default=["heuristic", "random"], choices=AGENT_NAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    final = play_game(args.env, args.players, args.seed, render=not args.quiet)
    print("\nResult:")
    for agent, (reward, info) in final.items():
        name = args.players[int(agent.split("_")[1])]
        print(f"  {agent} ({name}): reward {reward:+.0f}, final scores {info.get('final_scores')}")
    winners = next(iter(final.values()))[1].get("winners", [])
    print(f"  winner: {', '.join(winners) if winners else 'none (draw or truncated)'}")


if __name__ == "__main__":
    main()
