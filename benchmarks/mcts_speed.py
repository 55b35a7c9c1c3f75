"""Simulations per second of ``mcts`` searching in C (``engine="c"``) against today's Python search.

For each env, a fixed set of positions is reached by seeded uniform random play on the Python
engine (position ``k`` after ``k * spacing`` moves, or earlier where the game ended), and at each the
agent ``make_agent("mcts", env_id, simulations=S, engine=E)`` picks one move through ``act()``, as in
a real game: the C side's time includes replaying the game on the compiled twin. Each round times
the Python search then the C search on the same positions at the same simulation count; the ratio
is taken within a round, and the report gives the median of the rounds and their range.

    python benchmarks/mcts_speed.py                 # Elemystic and Mystria, 1,000 simulations, 3 rounds
    python benchmarks/mcts_speed.py --env tarot_dice_v0 --simulations 300
    python benchmarks/mcts_speed.py --quick         # smoke run: 1 round, 2 positions, 50 simulations
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent

ENV_IDS = ("elemystic_v0", "mystria_v0")
ENGINES = ("python", "c")


def positions(env_id: str, count: int, spacing: int, seed: int = 0) -> list[tuple[int, list[int]]]:
    """``count`` (game seed, actions) pairs, each a position with a choice of at least two moves:
    the ``k``-th after ``k * spacing`` moves of its game, or the last such position before the game
    ended (a long walk in a short game would otherwise look for a longer game forever)."""
    out: list[tuple[int, list[int]]] = []
    rng = np.random.default_rng(seed)
    game_seed = seed
    while len(out) < count:
        state = mystic_envs.make_raw(env_id).game.new_initial_state(game_seed)
        actions: list[int] = []
        target = len(out) * spacing
        chosen: list[int] | None = None
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) > 1:
                chosen = list(actions)
            if len(actions) >= target:
                break
            actions.append(legal[int(rng.integers(len(legal)))])
            state.apply(actions[-1])
        if chosen is not None:
            out.append((game_seed, chosen))
        game_seed += 1
    return out


def time_engine(env_id: str, engine: str, simulations: int, spots: list[tuple[int, list[int]]]) -> float:
    """Simulations per second of one ``act()`` at each position, over all of them."""
    agent = make_agent("mcts", env_id, seed=0, simulations=simulations, engine=engine)
    env = mystic_envs.make(env_id)
    elapsed = 0.0
    for game_seed, actions in spots:
        env.reset(seed=game_seed)
        for a in actions:
            env.step(a)
        start = time.perf_counter()
        agent.act(env, env.agent_selection)
        elapsed += time.perf_counter() - start
    return simulations * len(spots) / elapsed


def summary(values: list[float]) -> dict[str, Any]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "rounds": values}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--env", nargs="+", default=list(ENV_IDS), help="env ids (default: %(default)s)")
    parser.add_argument("--simulations", type=int, default=1000, help="per move, both engines")
    parser.add_argument("--positions", type=int, default=8, help="positions per env")
    parser.add_argument("--spacing", type=int, default=4, help="random moves between positions")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1 round, 2 positions, 50 simulations")
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.positions, args.simulations = 1, 2, 50
    for name in ("simulations", "positions", "spacing", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be >= 1")
    report: dict[str, Any] = {"config": {k: v for k, v in vars(args).items() if k != "json"}, "envs": {}}
    report["config"]["json"] = None if args.json is None else str(args.json)
    print(
        f"mcts simulations/s at {args.simulations} simulations a move, {args.positions} positions, "
        f"{args.rounds} rounds (median [min-max])"
    )
    for env_id in args.env:
        spots = positions(env_id, args.positions, args.spacing)
        runs: dict[str, list[float]] = {e: [] for e in ENGINES}
        for _ in range(args.rounds):
            for engine in ENGINES:
                runs[engine].append(time_engine(env_id, engine, args.simulations, spots))
        ratios = [c / p for p, c in zip(runs["python"], runs["c"], strict=True)]
        row = {e: summary(runs[e]) for e in ENGINES} | {"ratio": summary(ratios)}
        report["envs"][env_id] = row
        print(
            f"{env_id:24s} python {row['python']['median']:>10,.0f} [{row['python']['min']:,.0f}-"
            f"{row['python']['max']:,.0f}]  c {row['c']['median']:>12,.0f} [{row['c']['min']:,.0f}-"
            f"{row['c']['max']:,.0f}]  ratio {row['ratio']['median']:.1f}x "
            f"[{row['ratio']['min']:.1f}-{row['ratio']['max']:.1f}]"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
