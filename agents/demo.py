"""Play and render one full game between two agents, print the result (``make demo`` is
``training.demo``, the training demo).

python -m agents.demo [--env elemystic_v0] [--players heuristic random] [--seed 0] [--quiet]

A player is an agent spec as ``training.evaluate --agents`` takes it: a name from
``agents.AGENT_NAMES`` (but ``human``: play yourself with ``python -m agents.play``),
``name:key=value,...`` (``mcts:simulations=200``) or a model path ending in ``.zip``. Both players
are built before the game starts, so one that cannot play the env is a one-line usage error.
Nothing is written to disk.
"""

from __future__ import annotations

import argparse
from typing import Any

import mystic_envs
from agents import make_agent


def build_players(env_id: str, specs: list[str], seed: int) -> list[Any]:
    """The agents ``specs`` name for ``env_id``, seat ``i`` seeded ``seed + i``.

    ValueError, one line naming the spec, for one that cannot be built.
    """
    from training.evaluate import parse_agent_spec

    players = []
    for i, text in enumerate(specs):
        spec = parse_agent_spec(text)
        try:
            players.append(make_agent(spec.name, env_id, seed=seed + i, **spec.options))
        except (TypeError, ValueError) as exc:
            first_line = next(iter(str(exc).splitlines()), "")
            raise ValueError(f"player {text!r} cannot play {env_id}: {first_line}") from None
    return players


def play_game(env_id: str, names: list[str], seed: int, render: bool = True) -> dict:
    """One game through the standard AEC loop; returns ``{agent: (reward, final info)}``.

    ``names`` are agent specs, one per seat (see the module docstring).
    """
    players = build_players(env_id, names, seed)
    env = mystic_envs.make(env_id, render_mode="ansi" if render else None)
    env.reset(seed=seed)
    by_agent = dict(zip(env.possible_agents, players, strict=True))
    final: dict = {}
    shown_phase = None
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            env.step(None)
            continue
        # Rendered once per phase (and round, where the game has rounds), not after every action.
        phase = (int(info.get("round", 0)), int(info["phase"]))
        if render and phase != shown_phase:
            shown_phase = phase
            print("\n" + env.render() + "\n")
        action = by_agent[agent].act(env, agent)
        if render:
            who = names[env.unwrapped.agent_name_mapping[agent]]
            print(f"{agent} ({who}): {env.unwrapped.action_meaning(action)}")
        env.step(action)
    if render:
        print("\n" + env.render())
    return final


def result_lines(env_id: str, names: list[str], final: dict) -> list[str]:
    """The printed result of ``play_game``'s ``final``: each seat's reward and score, the winners."""
    raw = mystic_envs.make_raw(env_id)
    end_reasons = raw.info_names["end_reason"]
    lines = []
    info: dict = {}
    for agent, (reward, info) in sorted(final.items(), key=lambda item: raw.possible_agents.index(item[0])):
        seat = raw.possible_agents.index(agent)
        lines.append(f"  {agent} ({names[seat]}): reward {reward:+.0f}, score {info['scores'][seat]:g}")
    winners = [raw.possible_agents[i] for i, won in enumerate(info["winners"]) if won]
    why = end_reasons[int(info["end_reason"])]
    lines.append(f"  winner: {', '.join(winners) if winners else 'none'} ({why})")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m agents.demo", description="Play and render one full game between two agents."
    )
    parser.add_argument("--env", default="elemystic_v0", choices=mystic_envs.ENV_IDS)
    parser.add_argument(
        "--players",
        nargs=2,
        default=["heuristic", "random"],
        metavar="AGENT",
        help="two agent specs: a name, name:key=value,... or a model .zip (default: heuristic random)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"--seed must be an integer >= 0, got {args.seed}")
    try:
        build_players(args.env, args.players, args.seed)
    except ValueError as exc:  # training.evaluate.ConfigError included
        parser.error(str(exc))
    final = play_game(args.env, args.players, args.seed, render=not args.quiet)
    print("\nResult:")
    print("\n".join(result_lines(args.env, args.players, final)))


if __name__ == "__main__":
    main()
