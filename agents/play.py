"""Play a full game at the terminal against any agent.

python -m agents.play ENV_ID [--num-players N] [--opponent heuristic] [--seat 0|1|...|random] [--seed N]

``--opponent`` is a name from ``agents.AGENT_NAMES`` (default ``heuristic``), with options as in
``training.evaluate`` (``mcts:simulations=200``) or the path of a saved model ending in ``.zip``; it
plays every seat but yours: with ``--num-players N`` (default: the game's default count) that is
N - 1 opponents, each its own agent with its own seed. A player eliminated mid-game is announced
with the reward it keeps; if it is you, the others play on to the end while you watch.
``--seat`` picks yours (default ``random``, drawn from the seed).
Without ``--seed`` a fresh seed is drawn and printed, so any game can be replayed. Every
move is printed by its action meaning, an opponent's as the table sees it (a kept Objective tile
is not named); at the end come the final table, the rewards and
the winner. ``q``, ``quit``, end of input or Ctrl-C abandon the game: exit status 130.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import mystic_envs
from agents import AGENT_NAMES, make_agent
from agents.human import HumanAgent, QuitGame
from training.evaluate import AgentSpec, ConfigError, parse_agent_spec

# The status a shell gives a program stopped by Ctrl-C (128 + SIGINT).
ABANDONED_STATUS = 130


def opponent_names() -> list[str]:
    return [name for name in AGENT_NAMES if name != "human"]


def _opponent_spec(text: str) -> AgentSpec:
    accepted = (
        f"choose from {', '.join(opponent_names())} (options as name:key=value, "
        "e.g. mcts:simulations=200) or a model path ending in .zip"
    )
    name = text.strip().partition(":")[0]
    if not text.strip().endswith(".zip") and name not in opponent_names():
        raise argparse.ArgumentTypeError(f"unknown agent {name!r}; {accepted}")
    try:
        return parse_agent_spec(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agents.play", description="Play a full game at the terminal against an agent."
    )
    parser.add_argument("env_id", metavar="ENV_ID", choices=mystic_envs.ENV_IDS, help="the game to play")
    parser.add_argument(
        "--opponent",
        type=_opponent_spec,
        default="heuristic",
        help=f"{', '.join(opponent_names())}, name:key=value or a .zip model path (default heuristic)",
    )
    parser.add_argument(
        "--num-players", type=int, metavar="N", help="players at the table (default: the game's default)"
    )
    parser.add_argument("--seat", default="random", help="your seat: 0 to players - 1, or random (default)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game (default: a fresh one)")
    return parser


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def play_game(
    env_id: str,
    human: HumanAgent,
    human_seat: int,
    opponents: dict[str, Any],
    labels: dict[str, str],
    seed: int,
    output: Callable[[str], Any] = print,
    num_players: int | None = None,
) -> None:
    """One game through the AEC loop, narrated to ``output``; raises :class:`QuitGame` if abandoned.

    ``num_players``: the table size (default: the game's); ``opponents`` has an agent for every
    seat but ``human_seat``."""
    kwargs = {} if num_players is None else {"num_players": num_players}
    env = mystic_envs.make(env_id, illegal_action="raise", **kwargs)
    env.reset(seed=seed)
    you = env.possible_agents[human_seat]
    final: dict[str, tuple[float, dict]] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            if terminated and not env.unwrapped.game_state.is_terminal:
                # Eliminated while the others play on (games of more than two players).
                who = "You are" if agent == you else f"{agent} ({labels[agent]}) is"
                output(f"{who} out of the game, with reward {reward:+g}.")
            env.step(None)
            continue
        action = human.act(env, agent) if agent == you else opponents[agent].act(env, agent)
        # The opponents' moves as the table sees them: a secret choice (Mystria's kept tile) stays secret.
        meaning = env.unwrapped.action_meaning if agent == you else env.unwrapped.public_action_meaning
        output(f"{agent} ({labels[agent]}): {meaning(action)}")
        env.step(action)
    output("\nFinal table:\n" + env.unwrapped.game_state.describe(viewer=human_seat))
    output("\nRewards:")
    for agent in env.possible_agents:
        output(f"  {agent} ({labels[agent]}): {final[agent][0]:+g}")
    # The info's winners is a 0/1 entry per seat (all 0 on truncation).
    winners = [env.possible_agents[seat] for seat in np.flatnonzero(final[you][1]["winners"])]
    named = ", ".join(f"{w} ({labels[w]})" for w in winners)
    output(f"Winner: {named or 'none (draw or truncated)'}")
    if winners:
        output("You win!" if you in winners else "You lose.")


def main(
    argv: list[str] | None = None,
    input_fn: Callable[[str], str] = input,
    output: Callable[[str], Any] = print,
) -> int:
    """Run the command; returns the exit status (0, or 130 when the game is abandoned)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    counts = mystic_envs.player_counts(args.env_id)
    if args.num_players is not None and args.num_players not in counts:
        parser.error(
            f"--num-players: {args.env_id} is played by {', '.join(map(str, counts))} players, "
            f"got {args.num_players}"
        )
    kwargs = {} if args.num_players is None else {"num_players": args.num_players}
    num_players = len(mystic_envs.make(args.env_id, **kwargs).possible_agents)
    if args.seat != "random" and args.seat not in [str(s) for s in range(num_players)]:
        parser.error(f"--seat must be random or a seat from 0 to {num_players - 1}, got {args.seat!r}")
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed must be a non-negative integer, got {args.seed}")
    seed = secrets.randbelow(2**31) if args.seed is None else args.seed
    seat = int(np.random.default_rng(seed).integers(num_players)) if args.seat == "random" else int(args.seat)
    spec: AgentSpec = args.opponent
    agent_ids = [f"player_{s}" for s in range(num_players)]
    labels = {a: "you" if s == seat else spec.label for s, a in enumerate(agent_ids)}
    try:
        opponents = {
            a: make_agent(spec.name, args.env_id, seed=seed + 1 + s, **spec.options)
            for s, a in enumerate(agent_ids)
            if s != seat
        }
    except (TypeError, ValueError, ImportError, OSError) as exc:
        parser.error(f"--opponent {spec.label!r} cannot be built for {args.env_id}: {_one_line(exc)}")
    against = spec.label if num_players == 2 else f"{num_players - 1} x {spec.label}"
    replay = f"--seed {seed} --seat {seat}" + (
        "" if args.num_players is None else f" --num-players {num_players}"
    )
    output(
        f"{args.env_id}: you are {agent_ids[seat]}, against {against} (seed {seed}; replay with {replay})."
    )
    human = HumanAgent(args.env_id, input_fn=input_fn, output=output)
    try:
        play_game(args.env_id, human, seat, opponents, labels, seed, output, num_players=args.num_players)
    except (QuitGame, KeyboardInterrupt, EOFError):
        output("\ngame abandoned")
        return ABANDONED_STATUS
    return 0


if __name__ == "__main__":
    sys.exit(main())
