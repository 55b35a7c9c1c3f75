"""A retuned heuristic against the shipped one: how much room the heuristic leaves above itself.

python -m agents.heuristic.tuning --env tarot_dice_v0 --set FIX=0.6 [--set NAME=VALUE ...]
    [--games 1000] [--seed 0]

The Mystria and Tarot Dice heuristics keep their weights as module constants (the "tuning" block
of ``agents/heuristic/mystria.py``; ``agents/heuristic/tarot_dice_model.py`` and
``tarot_dice.py`` for Tarot Dice). :class:`TunedHeuristic` is the shipped heuristic with some of
them overridden for its own decisions only: they are swapped in before each of its decisions and
restored after, so an opponent in the same process plays the shipped values. ``TUNABLE`` lists
the constants a decision reads when it runs (constants baked into tables at import, such as
Tarot Dice's ``MATERIAL_SCALE``, are left out: overriding them would change nothing).

The command plays the tuning against the shipped heuristic, seats alternating, both re-seeded
per game from ``(seed, game)`` alone, so every tuning meets the same games, and prints the tuned
player's share (draws half) with its 95% Wilson interval. ``docs/rules/mystria.md`` and
``docs/rules/tarot_dice.md`` ("Agents") quote what it measured: whether an agent that plays the
heuristic's game better than the heuristic exists, which bounds what a learner can be asked for.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np

import mystic_envs

__all__ = ["TUNABLE", "TunedHeuristic", "main", "measure", "parse_overrides"]

_MYSTRIA = (
    "DROP_WORTH",
    "LEAVE_WORTH",
    "MAX_PLAN",
    "LEAVE_CHECKS",
    "GROWTH",
    "LEAD",
    "KILL",
    "OBJECTIVE_CHANCE",
)
# env id -> {constant: module holding it}
TUNABLE: dict[str, dict[str, str]] = {
    "mystria_v0": dict.fromkeys(_MYSTRIA, "agents.heuristic.mystria"),
    "tarot_dice_v0": {
        "FIX": "agents.heuristic.tarot_dice_model",
        "LAST_TURN_EDGE": "agents.heuristic.tarot_dice_model",
        "STALL_COST": "agents.heuristic.tarot_dice_model",
        "LATENT": "agents.heuristic.tarot_dice_model",
        "DOLLAR_MARGIN": "agents.heuristic.tarot_dice",
    },
}


def parse_overrides(env_id: str, items: Sequence[str]) -> dict[str, float | int]:
    """``["FIX=0.6"]`` as ``{"FIX": 0.6}``, typed like the shipped value; ValueError names what is wrong."""
    if env_id not in TUNABLE:
        raise ValueError(f"--env: {env_id!r} has no tunable heuristic; one of {sorted(TUNABLE)}")
    overrides: dict[str, float | int] = {}
    for item in items:
        name, has_value, text = item.partition("=")
        if name not in TUNABLE[env_id]:
            raise ValueError(
                f"--set: {name!r} is not a tunable constant of {env_id}; one of {sorted(TUNABLE[env_id])}"
            )
        if not has_value:
            raise ValueError(f"--set: give {name}=VALUE, got {item!r}")
        shipped = getattr(importlib.import_module(TUNABLE[env_id][name]), name)
        try:
            value: float | int = int(text) if isinstance(shipped, int) else float(text)
        except ValueError:
            raise ValueError(f"--set: {name} takes {type(shipped).__name__} values, got {text!r}") from None
        if not np.isfinite(value):
            raise ValueError(f"--set: {name} must be finite, got {text!r}")
        if name in overrides:
            raise ValueError(f"--set: {name} is given twice")
        overrides[name] = value
    return overrides


class TunedHeuristic:
    """The shipped heuristic of ``env_id`` deciding with ``overrides`` in place of its constants."""

    def __init__(self, env_id: str, overrides: dict[str, float | int], seed: int | None = None) -> None:
        from agents.heuristic import HEURISTICS

        parse_overrides(env_id, [f"{k}={v}" for k, v in overrides.items()])  # checks names and values
        self.env_id = env_id
        self.overrides = dict(overrides)
        self._modules = {name: importlib.import_module(TUNABLE[env_id][name]) for name in overrides}
        self.inner = HEURISTICS[env_id](seed=seed)

    def seed(self, seed: int | None) -> None:
        self.inner.seed(seed)

    def act(self, env: Any, agent_id: str) -> int:
        shipped = {name: getattr(module, name) for name, module in self._modules.items()}
        for name, value in self.overrides.items():
            setattr(self._modules[name], name, value)
        try:
            return self.inner.act(env, agent_id)
        finally:
            for name, value in shipped.items():
                setattr(self._modules[name], name, value)


def measure(env_id: str, overrides: dict[str, float | int], games: int, seed: int = 0) -> dict[str, Any]:
    """The tuning's wins, draws and share (draws half) against the shipped heuristic, with its interval."""
    from agents.heuristic import HEURISTICS
    from training.evaluate import play_game
    from training.ratings import wilson_interval

    env = mystic_envs.make(env_id, illegal_action="raise")
    tuned = TunedHeuristic(env_id, overrides)
    shipped = HEURISTICS[env_id]()
    wins = draws = 0
    for g in range(games):
        env_seed, tuned_seed, shipped_seed = np.random.SeedSequence([seed, g]).generate_state(
            3, dtype=np.uint64
        )
        tuned.seed(int(tuned_seed))
        shipped.seed(int(shipped_seed))
        seat = g % 2
        rewards, _ = play_game(env, [tuned, shipped] if seat == 0 else [shipped, tuned], int(env_seed))
        wins += rewards[seat] > rewards[1 - seat]
        draws += rewards[seat] == rewards[1 - seat]
    share = (wins + draws / 2) / games
    low, high = wilson_interval(wins + draws / 2, games)
    return {"games": games, "wins": wins, "draws": draws, "share": share, "ci_low": low, "ci_high": high}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        prog="python -m agents.heuristic.tuning", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--env", required=True, help=f"one of {sorted(TUNABLE)}")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a constant to override"
    )
    parser.add_argument("--games", type=int, default=1000, help="games, seats alternating (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        overrides = parse_overrides(args.env, args.set)
        if args.games < 2 or args.games % 2:
            raise ValueError(f"--games must be an even number >= 2, got {args.games}")
        if args.seed < 0:
            raise ValueError(f"--seed must be >= 0, got {args.seed}")
    except ValueError as exc:
        parser.error(str(exc))
    result = measure(args.env, overrides, args.games, args.seed)
    label = " ".join(f"{k}={v}" for k, v in overrides.items()) or "the shipped constants"
    print(
        f"{args.env}: heuristic with {label} against the shipped heuristic, {result['games']} games "
        f"(seed {args.seed}): {100 * result['share']:.1f}% [{100 * result['ci_low']:.1f}, "
        f"{100 * result['ci_high']:.1f}] ({result['wins']} wins, {result['draws']} draws)"
    )
    return result


if __name__ == "__main__":
    main()
