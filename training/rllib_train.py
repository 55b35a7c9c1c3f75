"""Train masked PPO policies with Ray RLlib on any mystic-envs game, on this machine or on a Ray cluster.

python -m training.rllib_train --env elemystic_v0 [--num-players N] [--timesteps 300000]
    [--policies shared|per-seat] [--vs-random 0.5] [--num-env-runners 1] [--num-envs-per-env-runner 4]
    [--num-learners 0] [--hidden 128 128] [--lr 3e-4] [--entropy-coeff 0.01] [--train-batch-size 4000]
    [--seed 0] [--checkpoint-dir DIR] [--checkpoint-every 5] [--address ADDRESS]
python -m training.rllib_train --resume DIR [--timesteps MORE] [resource flags] [--address ADDRESS]

Without ``--address`` (or ``RAY_ADDRESS``) Ray starts on this machine, reserving one CPU per env
runner and learner; with one, the same command runs on that cluster (``ray start``; see the README's
"Scaling out"). Policies, opponents and PPO settings are ``training.rllib_config``'s; before training
the env is checked through RLlib's API with masked random games (RLlib's own pre-check, which plays
unmasked random actions, is off).

Every iteration prints the env steps (one per action of any seat), their rate, the win rate of the
learning seat in the episodes against masked random players with its 95% Wilson interval, and the
illegal actions sampled (audited against the mask; any at all is a bug, and the run then stops after
that iteration, saves and ends with an error). ``--checkpoint-dir`` (default
``runs/rllib/<env>-<timestamp>``) holds ``run.json`` (the settings), ``progress.csv`` (a row per
iteration) and ``checkpoint/``, the latest RLlib checkpoint, written every ``--checkpoint-every``
iterations and at the end.
``Algorithm.from_checkpoint`` restores it, ``make_agent("rllib", env_id, path=DIR)`` plays it without
Ray, and ``--resume DIR`` continues the run from it: the settings that shape learning come from
``run.json``; ``--timesteps``, the resource flags and ``--address`` may change, so a run started here
can continue on a cluster.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import socket
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import mystic_envs
from agents.rllib import META_FILE
from training.ratings import wilson_interval

__all__ = ["RLlibTrainError", "RunConfig", "main", "train"]

CSV_FIELDS = [
    "iteration",
    "env_steps",
    "seconds",
    "env_steps_per_s",
    "learner_steps_per_s",
    "vs_random_games",
    "vs_random_win_rate",
    "ci_low",
    "ci_high",
    "audited_actions",
    "illegal_actions",
]
# Flags that may differ on --resume: they decide where and how fast the run goes, not what it learns.
RESUMABLE = ("timesteps", "num_env_runners", "num_envs_per_env_runner", "num_learners", "checkpoint_every")


class RLlibTrainError(ValueError):
    """A bad flag value or an unusable checkpoint folder; the command line prints it on one line."""


@dataclass
class RunConfig:
    """The settings of a run; saved as ``run.json`` and reused by ``--resume``."""

    env: str = "elemystic_v0"
    num_players: int | None = None
    timesteps: int = 300_000
    policies: str = "shared"
    vs_random: float = 0.5
    hidden: list[int] = field(default_factory=lambda: [128, 128])
    lr: float = 3e-4
    entropy_coeff: float = 0.01
    train_batch_size: int = 4000
    seed: int = 0
    checkpoint_dir: str = ""
    checkpoint_every: int = 5
    num_env_runners: int = 1
    num_envs_per_env_runner: int = 4
    num_learners: int = 0

    def check(self) -> None:
        for flag, value, low in (
            ("--timesteps", self.timesteps, 1),
            ("--train-batch-size", self.train_batch_size, 2),
            ("--seed", self.seed, 0),
            ("--checkpoint-every", self.checkpoint_every, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise RLlibTrainError(f"{flag} must be an integer >= {low}, got {value!r}")
        if not 0 < self.lr < float("inf"):
            raise RLlibTrainError(f"--lr must be a finite number > 0, got {self.lr!r}")
        if not 0 <= self.entropy_coeff < float("inf"):
            raise RLlibTrainError(f"--entropy-coeff must be a finite number >= 0, got {self.entropy_coeff!r}")
        # Everything else is checked where it is used, with the flag's name.
        self.ppo_config()

    def ppo_config(self) -> Any:
        from training.rllib_config import RLlibConfigError, build_ppo_config

        try:
            return build_ppo_config(
                self.env,
                self.num_players,
                policies=self.policies,
                vs_random=self.vs_random,
                num_env_runners=self.num_env_runners,
                num_envs_per_env_runner=self.num_envs_per_env_runner,
                num_learners=self.num_learners,
                hidden=self.hidden,
                seed=self.seed,
                lr=self.lr,
                entropy_coeff=self.entropy_coeff,
                train_batch_size_per_learner=self.train_batch_size,
                minibatch_size=min(256, self.train_batch_size),
            )
        except RLlibConfigError as exc:
            # The builder's messages start with the keyword at fault; the command line names its flag.
            message = str(exc)
            keyword = message.split(" ", 1)[0].rstrip(":")
            flag = {"env_id": "--env"}.get(keyword, "--" + keyword.replace("_", "-"))
            raise RLlibTrainError(flag + message[len(keyword) :]) from None


class _Run:
    """Paths of a run folder."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.config = out / "run.json"
        self.csv = out / "progress.csv"
        self.checkpoint = out / "checkpoint"
        # A new checkpoint is written beside the last one and swapped in, so one always survives a crash.
        self.incoming = out / "checkpoint.incoming"
        self.outgoing = out / "checkpoint.outgoing"

    def latest(self) -> Path | None:
        for path in (self.checkpoint, self.outgoing):
            if (path / META_FILE).is_file():
                return path
        return None


def _read_meta(checkpoint: Path) -> dict[str, Any]:
    try:
        return json.loads((checkpoint / META_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise RLlibTrainError(f"--resume: checkpoint {str(checkpoint)!r} is unreadable ({exc})") from None


def _save(algo: Any, run: _Run, meta: dict[str, Any]) -> Path:
    shutil.rmtree(run.incoming, ignore_errors=True)
    algo.save_to_path(str(run.incoming.resolve()))
    (run.incoming / META_FILE).write_text(json.dumps(meta, indent=2) + "\n")
    if run.checkpoint.exists():
        shutil.rmtree(run.outgoing, ignore_errors=True)
        os.replace(run.checkpoint, run.outgoing)
    os.replace(run.incoming, run.checkpoint)
    shutil.rmtree(run.outgoing, ignore_errors=True)
    return run.checkpoint


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def _read_csv(path: Path, up_to_iteration: int) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        return [row for row in csv.DictReader(f) if int(row["iteration"]) <= up_to_iteration]


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain = [exc]
    while (nxt := chain[-1].__cause__ or chain[-1].__context__) is not None and nxt not in chain:
        chain.append(nxt)
    return chain


def connect(address: str | None, num_cpus: int) -> str:
    """Start or join Ray: ``address`` or ``RAY_ADDRESS`` if set, else a fresh local instance.

    Raises :class:`RLlibTrainError` with the likely fix when a cluster cannot be joined.
    """
    import ray
    from ray.exceptions import AuthenticationError

    address = address or os.environ.get("RAY_ADDRESS")
    if not address:
        # "local", never None: ray.init() with no address joins the cluster named in Ray's address file
        # on this machine, and hangs when that cluster has stopped without removing the file.
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False)
        return "local"
    host, colon, port = address.rpartition(":")
    if colon and host and "://" not in address and port.isdigit():
        # Ray retries an address where nothing listens for minutes before failing; say so at once.
        try:
            socket.create_connection((host, int(port)), timeout=10).close()
        except OSError as exc:
            raise RLlibTrainError(
                f"nothing answers at the Ray address {address} ({exc}); start the head there with "
                "ray start --head, or pass the address it printed"
            ) from None
    try:
        ray.init(address=address)
    except (ConnectionError, RuntimeError) as exc:
        # Ray reports a refused token as an AuthenticationError, or only in the text of the error it
        # chains to the ConnectionError.
        chain = _cause_chain(exc)
        if any(isinstance(e, AuthenticationError) or AuthenticationError.__name__ in str(e) for e in chain):
            raise RLlibTrainError(
                f"the Ray cluster at {address} refused this process's authentication token; set "
                "RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, or the file ~/.ray/auth_token) "
                "in this shell, as on every node"
            ) from None
        first_line = next(iter(str(exc).splitlines()), "")
        raise RLlibTrainError(
            f"cannot join the Ray cluster at {address} ({type(exc).__name__}: {first_line}); is it up? "
            f"(ray status --address {address})"
        ) from None
    return address


def _record(
    result: dict[str, Any], seconds: float, totals: dict[str, Any], modules: list[str]
) -> dict[str, Any]:
    """Add one ``algo.train()`` result to ``totals``; returns its ``progress.csv`` row."""
    runners = result.get("env_runners", {})

    def count(value: Any) -> float:
        # RLlib reports a metric no episode of the iteration logged (a long 5-player game that
        # finished nowhere) as NaN: none happened.
        return 0.0 if value != value else float(value)

    steps = int(count(runners.get("num_env_steps_sampled", 0)))
    # The trained modules' own steps: an env step against random is only half the learner's.
    learner_steps = sum(int(count(runners.get("num_module_steps_sampled", {}).get(m, 0))) for m in modules)
    games = int(count(runners.get("vs_random_games", 0)))
    points = count(runners.get("vs_random_points", 0.0))
    illegal = int(count(runners.get("illegal_actions", 0)))
    totals["iteration"] += 1
    totals["env_steps"] += steps
    totals["seconds"] += seconds
    totals["illegal_actions"] += illegal
    low, high = wilson_interval(points, games)
    return {
        "iteration": totals["iteration"],
        "env_steps": totals["env_steps"],
        "seconds": round(totals["seconds"], 1),
        "env_steps_per_s": round(steps / seconds),
        "learner_steps_per_s": round(learner_steps / seconds),
        "vs_random_games": games,
        "vs_random_win_rate": round(points / games, 4) if games else "",
        "ci_low": round(low, 4) if games else "",
        "ci_high": round(high, 4) if games else "",
        "audited_actions": int(count(runners.get("audited_actions", 0))),
        "illegal_actions": illegal,
    }


def _progress_line(row: dict[str, Any], timesteps: int) -> str:
    versus = (
        f"vs random {100 * row['vs_random_win_rate']:.1f}% [{100 * row['ci_low']:.1f}, "
        f"{100 * row['ci_high']:.1f}] of {row['vs_random_games']}"
        if row["vs_random_games"]
        else "no games vs random"
    )
    return (
        f"iter {row['iteration']:4d}  {row['env_steps']:>11,}/{timesteps:,} env steps  "
        f"{row['env_steps_per_s']:6,}/s  {versus}  illegal {row['illegal_actions']} of "
        f"{row['audited_actions']:,}  {row['seconds']:7.0f} s"
    )


def train(cfg: RunConfig, address: str | None = None, resume: bool = False, quiet: bool = False) -> Path:
    """Run (or, with ``resume``, continue) the training described by ``cfg``; returns the checkpoint path.

    Raises :class:`RLlibTrainError` for a run folder without checkpoint to resume, and if any illegal
    action was sampled (after saving the checkpoint).
    """
    import ray
    import torch

    from training.rllib_config import trained_modules
    from training.rllib_env import check_rllib_env, make_rllib_env

    run = _Run(Path(cfg.checkpoint_dir))
    config = cfg.ppo_config()
    num_players = config.env_config["num_players"]
    check_rllib_env(make_rllib_env(cfg.env, config.env_config), games=5, seed=cfg.seed)
    totals: dict[str, Any] = {"iteration": 0, "env_steps": 0, "seconds": 0.0, "illegal_actions": 0}
    rows: list[dict[str, Any]] = []
    latest = run.latest()
    if resume:
        if latest is None:
            raise RLlibTrainError(f"--resume: {str(run.out)!r} holds no checkpoint yet")
        totals = {k: _read_meta(latest)[k] for k in totals}
        rows = _read_csv(run.csv, totals["iteration"])
    meta = {
        "env_id": cfg.env,
        "num_players": num_players,
        "policies": cfg.policies,
        "modules": trained_modules(num_players, cfg.policies),
    }
    # The local learner runs in this process: give torch the one CPU RLlib reserves for it, as Ray does
    # for its actors; more threads only contend with the env runners.
    torch.set_num_threads(int(config.num_cpus_for_main_process))
    where = connect(address, num_cpus=max(1, cfg.num_env_runners + cfg.num_learners))
    try:
        # Written once Ray runs, so that a failed start leaves no half-made run folder behind.
        run.out.mkdir(parents=True, exist_ok=True)
        run.config.write_text(json.dumps(asdict(cfg), indent=2) + "\n")
        algo = config.build_algo()
        if resume:
            algo.restore_from_path(str(latest.resolve()))
        print(
            f"{'resuming' if resume else 'training'} {cfg.env} ({num_players} players, modules "
            f"{meta['modules']}) on Ray {where}: {cfg.num_env_runners} env runners x "
            f"{cfg.num_envs_per_env_runner} envs, "
            f"{f'{cfg.num_learners} learner actors' if cfg.num_learners else 'a learner in this process'} "
            f"-> {run.out}",
            flush=True,
        )
        checkpoint = latest
        while totals["env_steps"] < cfg.timesteps:
            started = time.perf_counter()
            result = algo.train()
            rows.append(_record(result, time.perf_counter() - started, totals, meta["modules"]))
            _write_csv(run.csv, rows)
            # An illegal action means broken masking: stop at once rather than train on it for hours.
            stop = totals["illegal_actions"] > 0
            if (
                stop
                or totals["env_steps"] >= cfg.timesteps
                or totals["iteration"] % cfg.checkpoint_every == 0
            ):
                checkpoint = _save(algo, run, {**meta, **totals})
            if not quiet:
                print(_progress_line(rows[-1], cfg.timesteps), flush=True)
            if stop:
                break
        algo.stop()
    finally:
        ray.shutdown()
    if totals["illegal_actions"]:
        raise RLlibTrainError(
            f"{totals['illegal_actions']} illegal actions were sampled (see {run.csv}); the masking is broken"
        )
    assert checkpoint is not None  # a new run trains at least one iteration, which ends in a save
    return checkpoint


def main(argv: list[str] | None = None) -> Path:
    defaults = RunConfig()
    parser = argparse.ArgumentParser(
        prog="python -m training.rllib_train", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--env", help=f"env id, one of {list(mystic_envs.ENV_IDS)} (default {defaults.env})")
    parser.add_argument("--num-players", type=int, help="seats (default: the env's default)")
    parser.add_argument(
        "--timesteps", type=int, help=f"env steps, every seat's actions (default {defaults.timesteps})"
    )
    parser.add_argument(
        "--policies", help=f"shared (one module for every seat) or per-seat (default {defaults.policies})"
    )
    parser.add_argument(
        "--vs-random",
        type=float,
        help="share of episodes in which one seat learns against masked random players "
        f"(default {defaults.vs_random})",
    )
    parser.add_argument(
        "--hidden", type=int, nargs="+", help=f"hidden layer sizes (default {defaults.hidden})"
    )
    parser.add_argument("--lr", type=float, help=f"learning rate (default {defaults.lr})")
    parser.add_argument(
        "--entropy-coeff", type=float, help=f"entropy bonus (default {defaults.entropy_coeff})"
    )
    parser.add_argument(
        "--train-batch-size",
        type=int,
        help=f"env steps per update and learner (default {defaults.train_batch_size})",
    )
    parser.add_argument("--seed", type=int, help=f"(default {defaults.seed})")
    parser.add_argument(
        "--num-env-runners",
        type=int,
        help=f"sampling actors, one CPU each; 0 samples in this process (default {defaults.num_env_runners})",
    )
    parser.add_argument(
        "--num-envs-per-env-runner",
        type=int,
        help=f"envs each runner steps as one batch (default {defaults.num_envs_per_env_runner})",
    )
    parser.add_argument(
        "--num-learners",
        type=int,
        help=f"learner actors; 0 learns in this process (default {defaults.num_learners})",
    )
    parser.add_argument("--checkpoint-dir", help="run folder (default runs/rllib/<env>-<timestamp>)")
    parser.add_argument(
        "--checkpoint-every",
        type=int,
        help=f"iterations between checkpoints (default {defaults.checkpoint_every})",
    )
    parser.add_argument(
        "--address", help="Ray cluster to run on (default: RAY_ADDRESS, else Ray on this machine)"
    )
    parser.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its last checkpoint")
    parser.add_argument("--quiet", action="store_true", help="no line per iteration")
    args = parser.parse_args(argv)
    given = {k: v for k, v in vars(args).items() if v is not None and k not in ("resume", "quiet", "address")}
    try:
        if args.resume is not None:
            changed = sorted(set(given) - set(RESUMABLE))
            if changed:
                raise RLlibTrainError(
                    "--resume continues a run with its own settings; only "
                    + ", ".join("--" + k.replace("_", "-") for k in RESUMABLE)
                    + " may be given, not "
                    + ", ".join("--" + k.replace("_", "-") for k in changed)
                )
            run = _Run(Path(args.resume))
            if not run.config.is_file():
                raise RLlibTrainError(f"--resume: {args.resume!r} is not an RLlib run folder (no run.json)")
            if run.latest() is None:
                raise RLlibTrainError(f"--resume: {args.resume!r} holds no checkpoint yet")
            try:
                cfg = RunConfig(**json.loads(run.config.read_text()))
            except (ValueError, TypeError) as exc:
                raise RLlibTrainError(f"--resume: {str(run.config)!r} is unreadable ({exc})") from None
            for key, value in given.items():
                setattr(cfg, key, value)
            cfg.checkpoint_dir = args.resume
        else:
            given.setdefault(
                "checkpoint_dir",
                str(
                    Path("runs", "rllib", f"{given.get('env', defaults.env)}-{datetime.now():%Y%m%d-%H%M%S}")
                ),
            )
            cfg = RunConfig(**given)
            if Path(cfg.checkpoint_dir, "run.json").exists():
                raise RLlibTrainError(
                    f"--checkpoint-dir: {cfg.checkpoint_dir!r} already holds a run; "
                    f"use --resume {cfg.checkpoint_dir} or another folder"
                )
        cfg.check()
    except RLlibTrainError as exc:
        parser.error(str(exc))
    try:
        checkpoint = train(cfg, address=args.address, resume=args.resume is not None, quiet=args.quiet)
    except RLlibTrainError as exc:
        sys.exit(f"error: {exc}")
    print(f"checkpoint: {checkpoint}")
    print(f"progress: {Path(cfg.checkpoint_dir, 'progress.csv')}")
    print(f"evaluate: python -m training.evaluate --env {cfg.env} --agents rllib:path={checkpoint} random")
    return checkpoint


if __name__ == "__main__":
    main()
