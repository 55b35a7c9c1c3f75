"""What each opponent of the batched adapter costs: learner steps/s of ``training.vec.CoreVecEnv``.

For each env the learner plays uniform legal moves (drawn with numpy, outside the timed adapter
calls' cost that matters) against:

- ``random``: ``sample_legal`` in C;
- ``frozen``: ``training.vec.FrozenPolicy`` of a fresh MaskablePPO policy (the training network), one
  batched forward pass per opponent move;
- ``heuristic``: ``agents``' heuristic on Python states kept in lockstep with the batch
  (``--heuristic-envs`` games); the share of its time spent keeping the states (``apply`` of every
  move, a new state per game) is reported;
- ``aec heuristic``: today's path, ``mystic_envs.single_agent(env_id, opponent="heuristic")``, one
  game at a time, for comparison;
- with ``--mcts SIMS``: ``mcts`` at SIMS simulations a move on ``--heuristic-envs`` games, searching
  the batch's compiled game in C (``mcts c``) and, for reference in the same run, on Python states
  kept in lockstep with its Python search (``mcts python``, ``engine="python"``), and their ratio.

    python benchmarks/vec_opponents.py                      # Elemystic and Mystria, 5 s a case
    python benchmarks/vec_opponents.py --env mystria_v0 --seconds 5
    python benchmarks/vec_opponents.py --mcts 100           # adds the two mcts cases
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

import agents  # also registers "heuristic" for single_agent
import mystic_envs
from training.train import POLICY_KWARGS
from training.vec import CoreVecEnv, FrozenPolicy, opponent_seed

ENV_IDS = ("elemystic_v0", "mystria_v0")


def _legal_choice(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def time_adapter(
    env_id: str, opponent: Any, num_envs: int, seconds: float, seed: int = 0
) -> dict[str, float]:
    """Learner steps/s of a ``CoreVecEnv`` against ``opponent``, and the lockstep share."""
    venv = CoreVecEnv(env_id, num_envs=num_envs, seed=seed, opponent=opponent)
    core = venv.core
    lockstep = [0.0]
    for name in ("_mirror", "_new_games"):
        inner = getattr(core, name)

        def timed(*args: Any, _inner: Any = inner) -> None:
            t = time.perf_counter()
            _inner(*args)
            lockstep[0] += time.perf_counter() - t

        setattr(core, name, timed)
    venv.reset()
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        venv.step(_legal_choice(rng, venv.action_masks()))
        steps += num_envs
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "lockstep_share": lockstep[0] / elapsed}


def time_aec(env_id: str, seconds: float, seed: int = 0) -> dict[str, float]:
    """Learner steps/s of ``single_agent(env_id, opponent="heuristic")``."""
    env = mystic_envs.single_agent(env_id, opponent="heuristic")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, _ = env.step(int(_legal_choice(rng, env.action_masks()[None])[0]))
        steps += 1
        if term or trunc:
            env.reset()
    return {"steps_per_s": steps / (time.perf_counter() - start), "lockstep_share": 0.0}


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, dict[str, float]]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=ENV_IDS, help="only this env")
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per case (default 5)")
    parser.add_argument("--num-envs", type=int, default=64, help="games in the batch (default 64)")
    parser.add_argument(
        "--heuristic-envs",
        type=int,
        default=4,
        help="games in the heuristic's batch (default 4: few enough to reach every phase of the game "
        "in the time given, since its decisions cost more in some phases than in others)",
    )
    parser.add_argument(
        "--mcts", type=int, default=0, metavar="SIMS", help="add mcts at SIMS simulations, in C and in Python"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.num_envs < 1 or args.heuristic_envs < 1 or args.mcts < 0:
        parser.error("--seconds must be > 0, --num-envs and --heuristic-envs >= 1, --mcts >= 0")
    torch.set_num_threads(1)
    from sb3_contrib import MaskablePPO

    report: dict[str, dict[str, dict[str, float]]] = {}
    print("| env | opponent | games in the batch | learner steps/s | lockstep share |")
    print("|---|---|--:|--:|--:|")
    for env_id in ENV_IDS if args.env is None else (args.env,):
        probe = CoreVecEnv(env_id, num_envs=1, seed=0)
        frozen = FrozenPolicy(MaskablePPO("MlpPolicy", probe, policy_kwargs=POLICY_KWARGS, seed=0).policy)
        cases = {
            "random": time_adapter(env_id, "random", args.num_envs, args.seconds),
            "frozen": time_adapter(env_id, frozen, args.num_envs, args.seconds),
            "heuristic": time_adapter(env_id, "heuristic", args.heuristic_envs, args.seconds),
            "aec heuristic": time_aec(env_id, args.seconds),
        }
        for engine in ("c", "python") if args.mcts else ():
            searches = [
                agents.make_agent(
                    "mcts", env_id, seed=opponent_seed(0, i), simulations=args.mcts, engine=engine
                )
                for i in range(args.heuristic_envs)
            ]
            cases[f"mcts {engine}"] = time_adapter(env_id, searches, args.heuristic_envs, args.seconds)
        report[env_id] = cases
        for name, r in cases.items():
            games = (
                1
                if name == "aec heuristic"
                else args.num_envs
                if name in ("random", "frozen")
                else args.heuristic_envs
            )
            share = f"{r['lockstep_share']:.0%}" if name in ("heuristic", "mcts python") else "-"
            print(f"| {env_id} | {name} | {games} | {r['steps_per_s']:,.0f} | {share} |")
        if args.mcts:
            ratio = cases["mcts c"]["steps_per_s"] / cases["mcts python"]["steps_per_s"]
            print(f"{env_id}: mcts in C / mcts in Python, learner steps/s: {ratio:.1f}x")
    return report


if __name__ == "__main__":
    main()
