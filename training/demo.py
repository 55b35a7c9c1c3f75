"""``make demo``: train a MaskablePPO baseline on Elemystic, evaluate it, print the table.

python -m training.demo [--timesteps 250000] [--games 40] [--out runs/demo/<timestamp>]

1. ``training.train`` with its default opponent mix (self-play snapshots, heuristic, random) for
   ``--timesteps`` steps on one env per core: under 10 minutes on 2 cores by default.
2. ``training.evaluate``: a round robin of the trained model, random, heuristic and mcts (200
   simulations, so the demo stays short), ``--games`` games a pairing, seats balanced.
3. Prints the win-rate matrix with 95% intervals and the Elo table, and the paths of the learning
   curve and the win-rate plot.

The shipped ``agents/pretrained/elemystic_v0_ppo.zip`` is the same recipe trained longer (its
command is in the README).
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from pathlib import Path

from training.evaluate import (
    ConfigError,
    check_out_dir,
    default_workers,
    markdown_report,
    run_tournament,
    write_outputs,
)
from training.train import TrainConfig, TrainError, train

DEMO_TIMESTEPS = 250_000
DEMO_GAMES = 40
OPPONENTS = ("random", "heuristic", "mcts:simulations=200")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m training.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="elemystic_v0")
    parser.add_argument("--timesteps", type=int, default=DEMO_TIMESTEPS)
    parser.add_argument("--games", type=int, default=DEMO_GAMES, help="games a pairing (even)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="default runs/demo/<timestamp>")
    args = parser.parse_args(argv)
    out = args.out or Path("runs", "demo", f"{datetime.now():%Y%m%d-%H%M%S}")
    cfg = TrainConfig(
        env=args.env,
        timesteps=args.timesteps,
        n_envs=default_workers(),
        seed=args.seed,
        out=str(out / "train"),
        eval_every=max(args.timesteps // 5, 1),
    )
    try:
        cfg.check()
        if args.games < 2 or args.games % 2:
            raise TrainError(f"--games must be a positive even number, got {args.games}")
        if Path(cfg.out, "config.json").exists():
            raise TrainError(f"--out: {str(out)!r} already holds a demo run; give another folder")
        check_out_dir(out)  # before training: the evaluation's tables must have somewhere to go
    except (TrainError, ConfigError) as exc:
        parser.error(str(exc))

    print(
        f"1/2 training MaskablePPO on {cfg.env} for {cfg.timesteps:,} steps on {cfg.n_envs} envs -> {cfg.out}"
    )
    start = time.perf_counter()
    model = train(cfg)
    trained = time.perf_counter() - start
    print(f"trained in {trained / 60:.1f} min: {model}")

    agents = [str(model), *OPPONENTS]
    print(f"\n2/2 round robin: {', '.join(agents)}; {args.games} games a pairing")
    try:
        result = run_tournament(cfg.env, agents, games=args.games, seed=args.seed, progress=True)
    except ConfigError as exc:
        parser.error(str(exc))
    result["command"] = f"python -m training.demo --timesteps {args.timesteps} --games {args.games}"
    paths = write_outputs(result, out / "eval")
    print("\n" + markdown_report(result))
    print(f"training minutes: {trained / 60:.1f}; evaluation minutes: {result['timing']['seconds'] / 60:.1f}")
    print(f"learning curve: {Path(cfg.out, 'learning_curve.png')}")
    print(f"win-rate plot: {paths['plot']}")
    print(f"model: {model}  (play it: python -m agents.play {cfg.env} --opponent {model})")
    return result


if __name__ == "__main__":
    main()
