"""Play and render one full game between agents, print the result (``make demo`` is
``training.demo``, the training demo).

python -m agents.demo [--env elemystic_v0] [--players heuristic random] [--seed 0]
    [--num-players N] [--variant NAME] [--env-kwarg KEY=VALUE ...] [--pause] [--quiet]

A player is an agent spec as ``training.evaluate --agents`` takes it: a name from
``agents.AGENT_NAMES`` (but ``human``: play yourself with ``python -m agents.play``),
``name:key=value,...`` (``mcts:simulations=200``) or a model path ending in ``.zip``; one per seat
(``--players`` takes as many as the table has seats: two by default, ``--num-players N`` for more).
Every player is built before the game starts, so one that cannot play the env is a one-line usage
error. The table is shown once per phase, as an onlooker sees it (the public view), each move
as the table hears it (``agents.human.action_label``: "player_1 (random) drafts Fire"), then what
it caused as the table saw it, indented (``agents.human.table_events``: dice rolled, Fate cards,
a fight's totals, a harvest, the final scoring). With
``--pause`` the game waits for Enter after each move; ``q``, ``quit`` or end of input (Ctrl-D) stop
it, and Ctrl-C stops it at any time: "game abandoned", exit status 130, as ``agents.play``.
Nothing is written to disk.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import mystic_envs
from agents import make_agent
from agents.cli import add_env_arguments, env_kwargs
from agents.human import QUIT_WORDS, QuitGame, action_label, table_events

# The status a shell gives a program stopped by Ctrl-C (128 + SIGINT), as agents.play.
ABANDONED_STATUS = 130


def build_players(env_id: str, specs: list[str], seed: int) -> list[Any]:
    """The agents ``specs`` name for ``env_id``, seat ``i`` seeded ``seed + i``.

    ValueError, one line naming the spec, for one that cannot be built.
    """
    from agents.spec import parse_agent_spec

    players = []
    for i, text in enumerate(specs):
        spec = parse_agent_spec(text)
        try:
            players.append(make_agent(spec.name, env_id, seed=seed + i, **spec.options))
        except (TypeError, ValueError) as exc:
            first_line = next(iter(str(exc).splitlines()), "")
            raise ValueError(f"player {text!r} cannot play {env_id}: {first_line}") from None
    return players


def play_game(
    env_id: str,
    names: list[str],
    seed: int,
    render: bool = True,
    env_kwargs: dict[str, Any] | None = None,
    pause: Callable[[], None] | None = None,
) -> dict:
    """One game through the standard AEC loop; returns ``{agent: (reward, final info)}``.

    ``names`` are agent specs, one per seat (see the module docstring); ``env_kwargs`` the env's
    keywords; ``pause`` is called after each rendered move (it raises :class:`QuitGame` to stop).
    """
    players = build_players(env_id, names, seed)
    env = mystic_envs.make(env_id, render_mode="ansi" if render else None, **(env_kwargs or {}))
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
        before = env.unwrapped.game_state.clone() if render else None
        if render:
            who = names[env.unwrapped.agent_name_mapping[agent]]
            print(action_label(before, action, viewer=None, name=f"{agent} ({who})"))
        env.step(action)
        if render:
            seats = [f"{a} ({n})" for a, n in zip(env.possible_agents, names, strict=True)]
            for line in table_events(before, env.unwrapped.game_state, names=seats):
                print(f"  {line}")
            if pause is not None:
                pause()
    if render:
        print("\n" + env.render())
    return final


def result_lines(
    env_id: str, names: list[str], final: dict, env_kwargs: dict[str, Any] | None = None
) -> list[str]:
    """The printed result of ``play_game``'s ``final``: each seat's reward and score, the winners."""
    raw = mystic_envs.make_raw(env_id, **(env_kwargs or {}))
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


def _pause_for(input_fn: Callable[[str], str]) -> Callable[[], None]:
    def pause() -> None:
        try:
            answer = input_fn("Enter: next move, q: quit ")
        except EOFError:
            raise QuitGame("end of input") from None
        if answer.strip().lower() in QUIT_WORDS:
            raise QuitGame("quit")

    return pause


def main(argv: list[str] | None = None, input_fn: Callable[[str], str] = input) -> int:
    """Run the command; returns the exit status (0, or 130 when the game is stopped)."""
    parser = argparse.ArgumentParser(
        prog="python -m agents.demo", description="Play and render one full game between agents."
    )
    parser.add_argument("--env", default="elemystic_v0", choices=mystic_envs.ENV_IDS)
    parser.add_argument(
        "--players",
        nargs="+",
        default=None,
        metavar="AGENT",
        help="one agent spec per seat: a name, name:key=value,... or a model .zip (default: heuristic, "
        "then random in every other seat)",
    )
    parser.add_argument("--seed", type=int, default=0)
    add_env_arguments(parser)
    parser.add_argument("--pause", action="store_true", help="wait for Enter after each move (q quits)")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    if args.seed < 0:
        parser.error(f"--seed must be an integer >= 0, got {args.seed}")
    kwargs = env_kwargs(parser, args, args.env)
    seats = len(mystic_envs.make(args.env, **kwargs).possible_agents)
    players = args.players or ["heuristic"] + ["random"] * (seats - 1)
    if len(players) != seats:
        parser.error(
            f"--players: {args.env} is played here by {seats} players, got {len(players)} agent specs"
        )
    try:
        build_players(args.env, players, args.seed)
    except ValueError as exc:  # agents.spec.ConfigError included
        parser.error(str(exc))
    pause = _pause_for(input_fn) if args.pause else None
    try:
        final = play_game(args.env, players, args.seed, render=not args.quiet, env_kwargs=kwargs, pause=pause)
    except (QuitGame, KeyboardInterrupt):
        print("\ngame abandoned")
        return ABANDONED_STATUS
    print("\nResult:")
    print("\n".join(result_lines(args.env, players, final, kwargs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
