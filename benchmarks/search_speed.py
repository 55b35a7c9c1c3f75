"""Milliseconds a C search (``CoreState.search``) of this build of the core against another build.

For a change to ``mystic_envs/core/c/search.c`` or a game's twin: build the core before the change
somewhere (``python setup.py build_ext --build-lib DIR`` on the old checkout) and pass its
``_core*.so`` as ``--baseline``. Each round runs one process on this build and one on the baseline
(``MYSTIC_CORE_LIB``, as ``make sanitize`` loads its build), in turn, so that both see the same load;
each searches the same positions (``benchmarks.mcts_speed.positions``: seeded random play) with the
same seeds, and the ratio is taken within a round. Both must return the same visit counts at every
position, or the report says they differ: a speed-up must not change what the search finds.

    python benchmarks/search_speed.py --baseline OLD/mystic_envs/core/_core.cpython-311-x86_64-linux-gnu.so
    python benchmarks/search_speed.py --env tarot_dice_v0 --simulations 1024 --rounds 5 --baseline OLD.so
    python benchmarks/search_speed.py --quick       # smoke run: this build against itself, 1 round
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere
from benchmarks.mcts_speed import positions, summary

ENV_IDS = ("tarot_dice_v0", "mystick_domination_v0", "mystic_vale_v0")


def time_searches(env_id: str, simulations: int, count: int, spacing: int, repeats: int) -> dict[str, Any]:
    """This process's build: ms a search over ``repeats`` passes of the positions, and a sha256 of
    every visit count it returned."""
    import numpy as np

    import mystic_envs
    from mystic_envs.core import compiled

    game = compiled.CoreGame(mystic_envs.make_raw(env_id).game)
    roots = []
    for game_seed, actions in positions(env_id, count, spacing):
        state = game.new_initial_state(game_seed)
        for action in actions:
            state.apply(action)
        roots.append(state)
    digest = hashlib.sha256()
    elapsed = 0.0
    for r in range(repeats):
        for i, state in enumerate(roots):
            start = time.perf_counter()
            counts, _ = state.search(state.current_player, simulations, 1.4, 1000 * r + i, -1, None)
            elapsed += time.perf_counter() - start
            digest.update(np.asarray(counts).tobytes())
    return {"ms": 1000 * elapsed / (len(roots) * repeats), "counts_sha256": digest.hexdigest()}


def run_worker(args: argparse.Namespace, env_id: str, lib: str | None) -> dict[str, Any]:
    """One timing process on ``lib`` (``None``: the build this process would load)."""
    env = dict(os.environ)
    if lib is not None:
        env["MYSTIC_CORE_LIB"] = lib
    cmd = [sys.executable, __file__, "--worker", "--env", env_id]
    cmd += ["--simulations", str(args.simulations), "--positions", str(args.positions)]
    cmd += ["--spacing", str(args.spacing), "--repeats", str(args.repeats)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise SystemExit(
            f"search_speed: the {'baseline' if lib else 'current'} build failed on {env_id}: {tail}"
        )
    return json.loads(done.stdout)


def main(argv: Sequence[str] | None = None) -> dict[str, Any] | None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--env", nargs="+", default=list(ENV_IDS), help="env ids (default: %(default)s)")
    parser.add_argument("--baseline", type=Path, help="the other build's _core*.so (default: this build)")
    parser.add_argument("--simulations", type=int, default=1024, help="per search")
    parser.add_argument("--positions", type=int, default=12, help="positions per env")
    parser.add_argument("--spacing", type=int, default=6, help="random moves between positions")
    parser.add_argument("--repeats", type=int, default=3, help="passes over the positions a process")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1 round, 2 positions, 64 simulations, 1 pass")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.positions, args.simulations, args.repeats = 1, 2, 64, 1
    for name in ("simulations", "positions", "spacing", "repeats", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be >= 1")
    if args.worker:
        print(
            json.dumps(
                time_searches(args.env[0], args.simulations, args.positions, args.spacing, args.repeats)
            )
        )
        return None
    if args.baseline is not None and not args.baseline.is_file():
        parser.error(f"--baseline {args.baseline}: no such file")
    baseline = None if args.baseline is None else str(args.baseline.resolve())
    report: dict[str, Any] = {
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    }
    report["envs"] = {}
    print(
        f"ms a C search at {args.simulations} simulations, {args.positions} positions x {args.repeats}, "
        f"{args.rounds} rounds, this build against {baseline or 'itself'} (median [min-max])"
    )
    for env_id in args.env:
        runs: dict[str, list[dict[str, Any]]] = {"current": [], "baseline": []}
        for _ in range(args.rounds):
            runs["current"].append(run_worker(args, env_id, None))
            runs["baseline"].append(run_worker(args, env_id, baseline))
        ms = {k: [r["ms"] for r in v] for k, v in runs.items()}
        ratios = [c / b for c, b in zip(ms["current"], ms["baseline"], strict=True)]
        same = len({r["counts_sha256"] for v in runs.values() for r in v}) == 1
        row = {k: summary(v) for k, v in ms.items()} | {"ratio": summary(ratios), "same_counts": same}
        report["envs"][env_id] = row
        cur, base, ratio = row["current"], row["baseline"], row["ratio"]
        print(
            f"{env_id:24s} current {cur['median']:7.2f} [{cur['min']:.2f}-{cur['max']:.2f}]  "
            f"baseline {base['median']:7.2f} [{base['min']:.2f}-{base['max']:.2f}]  "
            f"current/baseline {ratio['median']:.2f} [{ratio['min']:.2f}-{ratio['max']:.2f}]  "
            + ("same visit counts" if same else "VISIT COUNTS DIFFER")
        )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
