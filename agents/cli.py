"""The env keyword flags shared by the command-line front ends (``agents.play``, ``agents.demo``,
``training.evaluate``): ``--num-players N``, ``--variant NAME`` and ``--env-kwarg KEY=VALUE``
(repeatable; the value is read as an integer, a number, true/false/none, or else a string).

``env_kwargs`` turns them into the keywords of ``mystic_envs.make`` and builds the env once to check
them, so that a keyword the env refuses is a one-line usage error before anything is played.
"""

from __future__ import annotations

import argparse
from typing import Any

import mystic_envs

__all__ = ["add_env_arguments", "env_kwargs", "key_value", "parse_value"]

# Set by the front ends themselves (the terminal renders, the loop decides on illegal actions).
_RESERVED = ("render_mode", "illegal_action", "illegal_reward")


def parse_value(text: str) -> Any:
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"``/``"false"``/``"none"`` -> True/False/None, else the text."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def key_value(text: str) -> tuple[str, Any]:
    """``"KEY=VALUE"`` as ``(key, parse_value(value))``; argparse reports a malformed one in one line."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE (for example max_steps=500), got {text!r}")
    return key.strip(), parse_value(value)


def add_env_arguments(parser: argparse.ArgumentParser, num_players_help: str | None = None) -> None:
    """Add ``--num-players``, ``--variant`` and ``--env-kwarg`` to ``parser``."""
    parser.add_argument(
        "--num-players",
        type=int,
        metavar="N",
        help=num_players_help or "players at the table (default: the game's default)",
    )
    parser.add_argument(
        "--variant", metavar="NAME", help="the game's variant, where it has some (mystria_v0: intro)"
    )
    parser.add_argument(
        "--env-kwarg",
        type=key_value,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other env keyword (repeatable), e.g. --env-kwarg max_steps=500",
    )


def env_kwargs(parser: argparse.ArgumentParser, args: argparse.Namespace, env_id: str) -> dict[str, Any]:
    """The env keywords the flags give for ``env_id``, checked by building the env once; a keyword
    the env refuses exits through ``parser.error`` with one line."""
    kwargs: dict[str, Any] = dict(args.env_kwarg)
    for key in _RESERVED:
        if key in kwargs:
            parser.error(f"--env-kwarg {key}: set by {parser.prog} itself, not a game option")
    for flag, key in (("num_players", "num_players"), ("variant", "variant")):
        value = getattr(args, flag)
        if value is not None:
            if key in kwargs:
                parser.error(f"--{flag.replace('_', '-')} and --env-kwarg {key} both given; give one")
            kwargs[key] = value
    counts = mystic_envs.player_counts(env_id)
    players = kwargs.get("num_players")
    if players is not None and players not in counts:
        parser.error(
            f"--num-players: {env_id} is played by {', '.join(map(str, counts))} players, got {players}"
        )
    try:
        mystic_envs.make(env_id, **kwargs)
    except (TypeError, ValueError) as exc:
        parser.error(f"{env_id} refuses these env keywords: {' '.join(str(exc).split())}")
    return kwargs
