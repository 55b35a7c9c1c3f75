"""Play a full game at the terminal against any agent.

python -m agents.play ENV_ID [--num-players N] [--variant NAME] [--env-kwarg KEY=VALUE ...]
    [--opponent heuristic] [--seat 0|1|...|random] [--seed N] [--save PATH]

``--opponent`` is a name from ``agents.AGENT_NAMES`` (default ``heuristic``), with options as in
``training.evaluate`` (``mcts:simulations=200``) or the path of a saved model ending in ``.zip``; it
plays every seat but yours: with ``--num-players N`` (default: the game's default count) that is
N - 1 opponents, each its own agent with its own seed. A player eliminated mid-game is announced
with the reward it keeps; if it is you, the others play on to the end while you watch.
``--seat`` picks yours (default ``random``, drawn from the seed).
Without ``--seed`` a fresh seed is drawn and printed, so any game can be replayed. Every
move is printed as the phase and the speaker have it (``agents.human.action_label``): yours as
``player_0 (you): draft Fire``, an opponent's in the third person with only what the table learns
(``player_1 (heuristic) keeps an Objective tile, face down``), then what the move caused, which
its name could not say in advance, as your seat may know it (``agents.human.table_events``: the
dice rolled, a challenge's Fate cards, a fight's totals, a harvest, a spoil, the final scoring);
at the prompt ``?`` tells what the things on the table do. At the end come the final
table, the rewards and the winner.
``--variant`` and ``--env-kwarg KEY=VALUE`` pass env keywords (``agents.cli``). ``--save PATH``
writes the game record (``agents.records``; replay it with ``python -m agents.replay PATH``) once
the game is over; its folder is checked before the game starts. ``q``, ``quit``, end of input or
Ctrl-C abandon the game, which saves nothing: exit status 130.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents import AGENT_NAMES, make_agent
from agents.cli import add_env_arguments, env_kwargs
from agents.human import HumanAgent, QuitGame, action_label, table_events
from agents.records import GameRecorder, RecordError, save_record
from agents.spec import AgentSpec, ConfigError, parse_agent_spec

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
    add_env_arguments(parser)
    parser.add_argument("--seat", default="random", help="your seat: 0 to players - 1, or random (default)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game (default: a fresh one)")
    parser.add_argument(
        "--save", type=Path, metavar="PATH", help="write the game record to PATH (JSON) once the game is over"
    )
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
    env_kwargs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One game through the AEC loop, narrated to ``output``; returns its record
    (:mod:`agents.records`) and raises :class:`QuitGame` if abandoned.

    ``num_players``: the table size (default: the game's; also settable in ``env_kwargs``, the
    other env keywords); ``opponents`` has an agent for every seat but ``human_seat``."""
    kwargs = dict(env_kwargs or {})
    if num_players is not None:
        kwargs["num_players"] = num_players
    env = mystic_envs.make(env_id, illegal_action="raise", **kwargs)
    env.reset(seed=seed)
    you = env.possible_agents[human_seat]
    specs = ["human" if a == you else labels[a] for a in env.possible_agents]
    recorder = GameRecorder(env, env_id, seed, specs, kwargs=kwargs)
    names = [f"{a} ({labels[a]})" for a in env.possible_agents if a != you]
    names.insert(human_seat, "you")
    final: dict[str, tuple[float, dict]] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = (reward, info)
            if terminated and not env.unwrapped.game_state.is_terminal:
                # Eliminated while the others play on (games of more than two players).
                who = "You are" if agent == you else f"{agent} ({labels[agent]}) is"
                output(f"{who} out of the game, with reward {reward:+g}.")
            recorder.record(agent, None)
            env.step(None)
            continue
        action = human.act(env, agent) if agent == you else opponents[agent].act(env, agent)
        # The opponents' moves as the table sees them: a secret choice (Mystria's kept tile) stays secret.
        state = env.unwrapped.game_state
        if agent == you:
            output(f"{agent} (you): {action_label(state, action, viewer=human_seat)}")
        else:
            output(action_label(state, action, viewer=human_seat, name=f"{agent} ({labels[agent]})"))
        recorder.record(agent, action)
        before = state.clone()
        env.step(action)
        for line in table_events(before, env.unwrapped.game_state, viewer=human_seat, names=names):
            output(line)
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
    return recorder.finish()


def main(
    argv: list[str] | None = None,
    input_fn: Callable[[str], str] = input,
    output: Callable[[str], Any] = print,
) -> int:
    """Run the command; returns the exit status (0, or 130 when the game is abandoned)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    kwargs = env_kwargs(parser, args, args.env_id)
    num_players = len(mystic_envs.make(args.env_id, **kwargs).possible_agents)
    if args.seat != "random" and args.seat not in [str(s) for s in range(num_players)]:
        parser.error(f"--seat must be random or a seat from 0 to {num_players - 1}, got {args.seat!r}")
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed must be a non-negative integer, got {args.seed}")
    if args.save is not None and (args.save.is_dir() or not args.save.parent.is_dir()):
        # Checked now: a game can take an hour, and its record must have somewhere to go.
        why = "it is a folder" if args.save.is_dir() else f"folder {str(args.save.parent)!r} does not exist"
        parser.error(f"--save: cannot write {str(args.save)!r}: {why}")
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
    if args.variant is not None:
        replay += f" --variant {args.variant}"
    replay += "".join(f" --env-kwarg {key}={value}" for key, value in args.env_kwarg)
    output(
        f"{args.env_id}: you are {agent_ids[seat]}, against {against} (seed {seed}; replay with {replay})."
    )
    human = HumanAgent(args.env_id, input_fn=input_fn, output=output)
    try:
        record = play_game(args.env_id, human, seat, opponents, labels, seed, output, env_kwargs=kwargs)
    except (QuitGame, KeyboardInterrupt, EOFError):
        output("\ngame abandoned" + (" (nothing saved)" if args.save is not None else ""))
        return ABANDONED_STATUS
    if args.save is not None:
        try:
            save_record(record, args.save)
        except (RecordError, OSError) as exc:
            print(f"python -m agents.play: error: --save: {_one_line(exc)}", file=sys.stderr)
            return 1
        output(f"Game record saved to {args.save} (replay it: python -m agents.replay {args.save})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
