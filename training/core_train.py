"""Self-play PPO on the compiled core: one masked policy plays every seat of a ``mystic_envs.vector`` batch.

python -m training.core_train --env elemystic_v0 [--timesteps 1000000] [--num-envs 256] [--n-steps 32]
    [--pool-frac 0.2] [--random-frac 0.0] [--pool-size 8] [--random-start 0 [--random-start-frac 0.5]]
    [--imitate GAMES [--dagger ROUNDS]] [--eval-every 250000] [--eval-games 100]
    [--eval-opponents random heuristic mcts:simulations=100] [--seed 0] [--out DIR] [--torch-threads 1]
python -m training.core_train --resume DIR [--timesteps MORE]
(``python -m training.train --core ...`` runs this same entry.)

**Credit per seat.** Every seat of a self-play game is played by the policy and trained from its
own view: a seat's transition runs from its observation to its next observation, its reward the
sum of what that seat earned in between (``vector``'s ``rewards`` row of the seat, every step), so a
terminal reward reaches every seat, also the ones that did not make the last move. GAE runs along
each seat's own trajectory (``training.lean_ppo.gae``). A trajectory cut by the end of a rollout
or by ``max_steps`` is bootstrapped with the value of the seat's view there. The timesteps counted
are the trained decisions.

**Games.** When an env starts a game it draws, from the run's generator: with ``--pool-frac`` a
game against the pool (the learner's frozen snapshots, the latest ``--pool-size``, one drawn per
game: one seat drawn for the learner, the others played by the snapshot, sampling, untrained),
with ``--random-frac`` a game against uniform random play, else a self-play game (every seat
trained). With ``--random-start K``, a share ``--random-start-frac`` of the games first play
``U{0..K}`` uniform random legal moves (untrained), so play starts from varied mid-game positions.
``--imitate GAMES [--dagger ROUNDS]`` warm-starts the policy by cloning the heuristic
(``training.imitate``), as ``training.train`` does.

**Evaluations, checkpoints, resume.** Every ``--eval-every`` timesteps (rounded up to whole
updates) and at the end the policy is saved as a MaskablePPO zip in ``snapshots/`` (added to the
pool), played against each ``--eval-opponents`` spec (``training.evaluate.run_tournament``:
``--eval-games`` games, seats balanced, deterministic policy, fixed seeds; 95% Wilson intervals),
a row goes to ``progress.csv`` and ``learning_curve.png`` is redrawn, and ``checkpoint/state.pkl``
is written. That boundary is also where the batch **restarts its games** from a seed derived from
``--seed`` and the evaluation's index: the unfinished games are dropped (their trajectories were
already bootstrapped at the rollout's end), so a checkpoint needs no mid-game state and ``--resume
DIR`` goes on exactly as the uninterrupted run does (same weights bit for bit: policy, Adam, the
torch generator that samples actions, the numpy generator that draws games and minibatches, the
pool and the CSV are saved; torch on the same thread count). Ctrl-C leaves the last checkpoint and
prints, in one line, the ``--resume`` command that continues it (exit status 130).

Outputs in ``--out`` (default ``runs/core/<env>-<timestamp>``): ``model.zip`` (final; a MaskablePPO
zip: ``make_agent("ppo", env_id, path=...)``), ``progress.csv``, ``learning_curve.png``,
``config.json``, ``snapshots/``, ``checkpoint/``. The update is ``training.lean_ppo`` (SB3's PPO
maths without its loop), the network SB3's ``MlpPolicy`` (``--net-arch``).
"""

from __future__ import annotations

import argparse
import copy
import csv
import dataclasses
import json
import os
import pickle
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from training.lean_ppo import (
    LeanPPO,
    PPOSettings,
    RolloutBatch,
    act,
    build_policy,
    gae,
    save_model,
    values_of,
)

__all__ = ["CoreTrainConfig", "CoreTrainError", "SelfPlayCollector", "main", "train"]

SELF, POOL, RANDOM = 0, 1, 2
DEFAULT_EVAL_OPPONENTS = ["random", "heuristic", "mcts:simulations=100"]


class CoreTrainError(ValueError):
    """A bad input (flag value, missing checkpoint); the command line prints it on one line."""


@dataclass
class CoreTrainConfig:
    """Everything that defines a run; saved as ``config.json`` and reused by ``--resume``."""

    env: str = "elemystic_v0"
    num_players: int | None = None
    timesteps: int = 1_000_000
    num_envs: int = 256
    n_steps: int = 32
    seed: int = 0
    out: str = ""
    pool_frac: float = 0.2
    random_frac: float = 0.0
    pool_size: int = 8
    random_start: int = 0
    random_start_frac: float = 0.5
    imitate: int = 0
    dagger: int = 0
    eval_every: int = 250_000
    eval_games: int = 100
    eval_opponents: list[str] = field(default_factory=lambda: list(DEFAULT_EVAL_OPPONENTS))
    eval_workers: int = 1
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    learning_rate: float = PPOSettings.learning_rate
    batch_size: int = PPOSettings.batch_size
    n_epochs: int = PPOSettings.n_epochs
    gamma: float = PPOSettings.gamma
    gae_lambda: float = PPOSettings.gae_lambda
    clip_range: float = PPOSettings.clip_range
    ent_coef: float = PPOSettings.ent_coef
    torch_threads: int = 1
    num_threads: int = 1

    @property
    def env_kwargs(self) -> dict[str, Any]:
        return {} if self.num_players is None else {"num_players": self.num_players}

    def settings(self) -> PPOSettings:
        return PPOSettings(
            learning_rate=self.learning_rate,
            batch_size=self.batch_size,
            n_epochs=self.n_epochs,
            gamma=self.gamma,
            gae_lambda=self.gae_lambda,
            clip_range=self.clip_range,
            ent_coef=self.ent_coef,
        )

    def check(self) -> None:
        """CoreTrainError (one line) for the first bad setting."""
        from mystic_envs.core.compiled import CoreGame  # noqa: F401  (the core must be built)

        if self.env not in mystic_envs.ENV_IDS:
            raise CoreTrainError(f"--env must be one of {', '.join(mystic_envs.ENV_IDS)}, got {self.env!r}")
        try:
            from mystic_envs import vector

            vector.make(self.env, num_envs=1, seed=0, **self.env_kwargs)
        except (TypeError, ValueError, ImportError, RuntimeError) as exc:
            raise CoreTrainError(f"--env {self.env}: {' '.join(str(exc).split())}") from None
        for flag, value, low in (
            ("--timesteps", self.timesteps, 1),
            ("--num-envs", self.num_envs, 1),
            ("--n-steps", self.n_steps, 1),
            ("--seed", self.seed, 0),
            ("--pool-size", self.pool_size, 1),
            ("--random-start", self.random_start, 0),
            ("--imitate", self.imitate, 0),
            ("--dagger", self.dagger, 0),
            ("--eval-every", self.eval_every, 1),
            ("--eval-games", self.eval_games, 2),
            ("--eval-workers", self.eval_workers, 1),
            ("--batch-size", self.batch_size, 1),
            ("--n-epochs", self.n_epochs, 1),
            ("--torch-threads", self.torch_threads, 1),
            ("--num-threads", self.num_threads, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise CoreTrainError(f"{flag} must be an integer >= {low}, got {value!r}")
        for flag, value in (
            ("--pool-frac", self.pool_frac),
            ("--random-frac", self.random_frac),
            ("--random-start-frac", self.random_start_frac),
            ("--gamma", self.gamma),
            ("--gae-lambda", self.gae_lambda),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise CoreTrainError(f"{flag} must be a number from 0 to 1, got {value!r}")
        if self.pool_frac + self.random_frac > 1:
            raise CoreTrainError(
                f"--pool-frac + --random-frac must be at most 1, got {self.pool_frac + self.random_frac:g}"
            )
        for flag, value, positive in (
            ("--learning-rate", self.learning_rate, True),
            ("--clip-range", self.clip_range, True),
            ("--ent-coef", self.ent_coef, False),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value < float("inf")
                or (positive and value == 0)
            ):
                raise CoreTrainError(f"{flag} must be a finite number {'> 0' if positive else '>= 0'}")
        if not self.net_arch or any(
            isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in self.net_arch
        ):
            raise CoreTrainError(f"--net-arch must be one or more layer widths >= 1, got {self.net_arch!r}")
        players = len(mystic_envs.make_raw(self.env, **self.env_kwargs).possible_agents)
        if self.dagger and not self.imitate:
            raise CoreTrainError("--dagger needs --imitate GAMES (the games of each round)")
        if self.imitate and players != 2:
            raise CoreTrainError(f"--imitate plays two-player games only, not {players} players")
        if not self.eval_opponents:
            raise CoreTrainError("--eval-opponents: give at least one agent spec")
        from training.evaluate import ConfigError, _check_inputs, seat_orders

        orders = len(seat_orders(players))
        if self.eval_games % orders:
            raise CoreTrainError(
                f"--eval-games must be a multiple of {orders} (the seat orders at {players} players), "
                f"got {self.eval_games}"
            )
        for spec in self.eval_opponents:
            try:
                # With random as the other agent: builds the spec once, so a bad option fails now.
                _check_inputs(
                    self.env,
                    ["random" if spec != "random" else "heuristic", spec],
                    orders,
                    0,
                    1,
                    self.num_players,
                )
            except ConfigError as exc:
                raise CoreTrainError(f"--eval-opponents: {exc}") from None


# -- playing the batch -----------------------------------------------------------------------------


class SelfPlayCollector:
    """Plays one rollout of ``n_steps`` batch steps at a time (module docstring) and returns the
    trained decisions with their per-seat GAE. The batch's games, every seat's open transition and
    each env's game kind live here between rollouts."""

    def __init__(self, cfg: CoreTrainConfig, policy: Any, rng: np.random.Generator, generator: Any) -> None:
        from mystic_envs import vector

        self.cfg = cfg
        self.policy = policy
        self.rng = rng
        self.generator = generator
        self.v = vector.make(
            cfg.env, num_envs=cfg.num_envs, seed=0, num_threads=cfg.num_threads, **cfg.env_kwargs
        )
        n, p = cfg.num_envs, self.v.num_players
        self.num_players = p
        self.pool: list[Any] = []
        self.mode = np.zeros(n, dtype=np.int8)
        self.learner = np.zeros(n, dtype=np.int64)
        self.snapshot = np.zeros(n, dtype=np.int64)
        self.random_left = np.zeros(n, dtype=np.int64)
        self.pending = np.full((n, p), -1, dtype=np.int64)  # row t of each seat's open transition
        self.earned = np.zeros((n, p), dtype=np.float32)  # reward since that row
        self.game_return = np.zeros((n, p), dtype=np.float32)
        self.results: dict[str, list[float]] = {"self": [], "pool": [], "random": []}
        self._rows = np.arange(n)
        self._random = np.zeros(n, dtype=np.int64)

    def add_snapshot(self, policy: Any) -> None:
        """A frozen copy of ``policy`` joins the pool (the oldest leaves past ``pool_size``)."""
        frozen = copy.deepcopy(policy)
        frozen.set_training_mode(False)
        for param in frozen.parameters():
            param.requires_grad_(False)
        self.pool.append(frozen)
        del self.pool[: -self.cfg.pool_size]

    def restart(self, seed: int) -> None:
        """Start every env's game anew from ``seed`` (a checkpoint boundary): open transitions dropped."""
        self.v.reset(seed=seed)
        self.pending[:] = -1
        self.earned[:] = 0
        self._new_games(self._rows)

    def _new_games(self, idx: np.ndarray) -> None:
        if idx.size == 0:
            return
        cfg, k = self.cfg, idx.size
        # Always the same draws per game, whatever the settings, so the stream never depends on them.
        kind = self.rng.random(k)
        learner = self.rng.integers(self.num_players, size=k)
        snapshot = self.rng.integers(1 << 30, size=k)
        starts = self.rng.random(k) < cfg.random_start_frac
        moves = self.rng.integers(cfg.random_start + 1, size=k)
        mode = np.where(
            kind < cfg.pool_frac, POOL, np.where(kind < cfg.pool_frac + cfg.random_frac, RANDOM, SELF)
        )
        if not self.pool:
            mode[mode == POOL] = SELF
        self.mode[idx] = mode
        self.learner[idx] = learner
        self.snapshot[idx] = snapshot % max(1, len(self.pool))
        self.random_left[idx] = np.where(starts, moves, 0)
        self.game_return[idx] = 0
        self.earned[idx] = 0

    def collect(self) -> tuple[RolloutBatch, dict[str, Any]]:
        """One rollout: ``n_steps`` batch steps; returns the trained rows and their count."""
        v, cfg = self.v, self.cfg
        steps, n, p = cfg.n_steps, cfg.num_envs, self.num_players
        obs = np.zeros((steps, n, v.obs_size), dtype=np.float32)
        masks = np.zeros((steps, n, v.num_actions), dtype=bool)
        actions = np.zeros((steps, n), dtype=np.int64)
        logps = np.zeros((steps, n), dtype=np.float32)
        values = np.zeros((steps, n), dtype=np.float32)
        rewards = np.zeros((steps, n), dtype=np.float32)
        trained = np.zeros((steps, n), dtype=bool)
        next_row = np.full((steps, n), -1, dtype=np.int64)
        done = np.zeros((steps, n), dtype=bool)
        bootstrap = np.zeros((steps, n), dtype=np.float32)
        for t in range(steps):
            mover = v.current_player.astype(np.int64)
            alive = mover >= 0
            obs[t] = v.observation
            masks[t] = v.action_mask
            a, lp, val = act(self.policy, obs[t], masks[t], self.generator)
            randomized = alive & (self.random_left > 0)
            other = alive & ~randomized & (self.mode != SELF) & (mover != self.learner)
            is_trained = alive & ~randomized & ~other
            if randomized.any() or (other & (self.mode == RANDOM)).any():
                v.sample_legal(out=self._random)
                use = randomized | (other & (self.mode == RANDOM))
                a[use] = self._random[use]
            pooled = other & (self.mode == POOL)
            if pooled.any():
                for k in np.unique(self.snapshot[pooled]):
                    rows = np.flatnonzero(pooled & (self.snapshot == k))
                    a[rows] = act(self.pool[k], obs[t, rows], masks[t, rows], self.generator)[0]
            self.random_left[randomized] -= 1
            # This decision closes the seat's open transition (its successor) and opens a new one.
            rows = np.flatnonzero(is_trained)
            seats = mover[rows]
            open_t = self.pending[rows, seats]
            linked = open_t >= 0
            rewards[open_t[linked], rows[linked]] = self.earned[rows[linked], seats[linked]]
            next_row[open_t[linked], rows[linked]] = t
            self.pending[rows, seats] = t
            self.earned[rows, seats] = 0
            actions[t], logps[t], values[t], trained[t] = a, lp, val, is_trained
            v.step(a)
            self.earned += v.rewards
            self.game_return += v.rewards
            ended = v.terminated | v.truncated
            if ended.any():
                self._close_games(np.flatnonzero(ended), t, rewards, done, bootstrap)
            restarted = np.flatnonzero(~alive)
            self._new_games(restarted)
        # The rollout's end cuts every open transition: bootstrapped from the seat's view now.
        for seat in range(p):
            rows = np.flatnonzero(self.pending[:, seat] >= 0)
            if rows.size:
                open_t = self.pending[rows, seat]
                rewards[open_t, rows] = self.earned[rows, seat]
                bootstrap[open_t, rows] = values_of(self.policy, v.observe(seat)[rows])
        self.pending[:] = -1
        adv, returns = gae(rewards, values, next_row, done, bootstrap, cfg.gamma, cfg.gae_lambda)
        sel = trained
        batch = RolloutBatch(
            obs[sel], masks[sel], actions[sel], logps[sel], adv[sel], returns[sel], values[sel]
        )
        return batch, {"timesteps": int(sel.sum())}

    def _close_games(
        self, idx: np.ndarray, t: int, rewards: np.ndarray, done: np.ndarray, bootstrap: np.ndarray
    ) -> None:
        v = self.v
        for seat in range(self.num_players):
            rows = idx[self.pending[idx, seat] >= 0]
            if rows.size:
                open_t = self.pending[rows, seat]
                rewards[open_t, rows] = self.earned[rows, seat]
                term = v.terminated[rows]
                done[open_t, rows] = term
                cut = ~term
                if cut.any():  # max_steps: the game goes on in principle, so its value is bootstrapped
                    view = v.observe(seat)[rows[cut]]
                    bootstrap[open_t[cut], rows[cut]] = values_of(self.policy, view)
                self.pending[rows, seat] = -1
        for i in idx:
            kind = ("self", "pool", "random")[self.mode[i]]
            seat = 0 if self.mode[i] == SELF else int(self.learner[i])
            self.results[kind].append(float(self.game_return[i, seat]))


# -- the run ---------------------------------------------------------------------------------------


def _segment_seed(seed: int, segment: int) -> int:
    words = np.random.SeedSequence([seed, segment, 0x636F7265]).generate_state(2, dtype=np.uint32)
    return int(words[0]) << 32 | int(words[1])


class _Run:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.config = out / "config.json"
        self.csv = out / "progress.csv"
        self.snapshots = out / "snapshots"
        self.checkpoint = out / "checkpoint"
        self.state = self.checkpoint / "state.pkl"
        self.model = out / "model.zip"
        self.plot = out / "learning_curve.png"


def _csv_fields(cfg: CoreTrainConfig) -> list[str]:
    return [
        "timesteps",
        "updates",
        "seconds",
        "timesteps_per_s",
        *[f"{k}_{o}" for o in cfg.eval_opponents for k in ("win_rate", "ci_low", "ci_high")],
        "train_games_self",
        "train_games_pool",
        "train_win_rate_pool",
        "train_games_random",
        "train_win_rate_random",
        "entropy",
        "value_loss",
    ]


def _write_csv(path: Path, fields: list[str], rows: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def _evaluate(cfg: CoreTrainConfig, model_path: Path) -> dict[str, Any]:
    from training.evaluate import parse_agent_spec, run_tournament

    me = parse_agent_spec(str(model_path)).label
    row: dict[str, Any] = {}
    for spec in cfg.eval_opponents:
        result = run_tournament(
            cfg.env,
            [str(model_path), spec],
            cfg.eval_games,
            seed=cfg.seed,
            workers=cfg.eval_workers,
            num_players=cfg.num_players,
        )
        entry = result["matrix"][me][parse_agent_spec(spec).label]
        row[f"win_rate_{spec}"] = round(entry["win_rate"], 4)
        row[f"ci_low_{spec}"] = round(entry["ci95"][0], 4)
        row[f"ci_high_{spec}"] = round(entry["ci95"][1], 4)
    return row


class _Warmable:
    """What ``training.imitate.warm_start`` needs of a MaskablePPO model, over the lean policy."""

    def __init__(self, policy: Any, settings: PPOSettings) -> None:
        self.policy = policy
        self.gamma = settings.gamma
        self.settings = settings

    def save(self, path: str | Path) -> None:
        save_model(self.policy, path, self.settings)


def train(cfg: CoreTrainConfig, resume: bool = False, progress: bool = True) -> Path:
    """Run (or, with ``resume``, continue) the run ``cfg``; returns the final model's path."""
    import torch
    from tqdm import tqdm

    from training.plots import plot_learning_curves

    torch.set_num_threads(cfg.torch_threads)
    run = _Run(Path(cfg.out))
    settings = cfg.settings()
    env = mystic_envs.make_raw(cfg.env, **cfg.env_kwargs)
    agent0 = env.possible_agents[0]
    obs_space = env.observation_space(agent0)["observation"]
    policy = build_policy(obs_space, int(env.action_space(agent0).n), cfg.net_arch, seed=cfg.seed)
    ppo = LeanPPO(policy, settings)
    rng = np.random.default_rng(np.random.SeedSequence([cfg.seed, 1]))
    generator = torch.Generator().manual_seed(cfg.seed)
    collector = SelfPlayCollector(cfg, policy, rng, generator)
    fields = _csv_fields(cfg)
    if resume:
        try:
            state = pickle.loads(run.state.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError) as exc:
            raise CoreTrainError(f"--resume: no readable checkpoint in {str(run.out)!r} ({exc})") from None
        policy.load_state_dict(state["policy"])
        ppo.optimizer.load_state_dict(state["optimizer"])
        generator.set_state(state["torch_generator"])
        rng.bit_generator.state = state["rng"]
        from agents.ppo import load_policy

        for path in state["pool"]:
            collector.add_snapshot(load_policy(path, cfg.env))
        pool_paths: list[str] = list(state["pool"])
        rows, timesteps, updates, segment = (
            state["rows"],
            state["timesteps"],
            state["updates"],
            state["segment"],
        )
        seconds = state["seconds"]
    else:
        run.out.mkdir(parents=True, exist_ok=True)
        run.snapshots.mkdir(exist_ok=True)
        run.config.write_text(json.dumps(asdict(cfg), indent=2) + "\n")
        if cfg.imitate:
            from training.imitate import warm_start

            folder = run.out / "imitation"
            folder.mkdir(exist_ok=True)
            stats = warm_start(
                _Warmable(policy, settings),
                cfg.env,
                cfg.imitate,
                cfg.dagger,
                folder,
                cfg.seed,
                cfg.eval_workers,
                log=print if progress else (lambda _line: None),
            )
            (run.out / "imitation.json").write_text(json.dumps(stats, indent=2) + "\n")
            ppo = LeanPPO(policy, settings)  # a fresh Adam: the clone's steps are not PPO's
        rows, pool_paths, timesteps, updates, segment, seconds = [], [], 0, 0, 0, 0.0

    started = time.perf_counter()
    segment_start = (timesteps, time.perf_counter())
    last_stats: dict[str, float] = {}

    def evaluate_and_checkpoint() -> None:
        nonlocal segment_start
        path = run.snapshots / f"step_{timesteps:012d}.zip"
        save_model(policy, path, settings)
        pool_paths.append(str(path.resolve()))
        del pool_paths[: -cfg.pool_size]
        collector.add_snapshot(policy)
        elapsed = time.perf_counter() - segment_start[1]
        row: dict[str, Any] = {
            "timesteps": timesteps,
            "updates": updates,
            "timesteps_per_s": round((timesteps - segment_start[0]) / elapsed, 1) if timesteps else "",
        }
        row.update(_evaluate(cfg, path))
        res = collector.results
        for kind in ("self", "pool", "random"):
            row[f"train_games_{kind}"] = len(res[kind])
        for kind in ("pool", "random"):
            row[f"train_win_rate_{kind}"] = (
                round(float(np.mean(np.array(res[kind]) > 0)), 4) if res[kind] else ""
            )
        for key in ("entropy", "value_loss"):
            row[key] = round(last_stats[key], 4) if key in last_stats else ""
        for kind in res:
            res[kind].clear()
        row["seconds"] = round(seconds + time.perf_counter() - started, 1)
        rows.append(row)
        _write_csv(run.csv, fields, rows)
        plot_learning_curves(run.csv, run.plot, title=f"{cfg.env}: lean PPO on the core ({cfg.out})")
        state = {
            "policy": policy.state_dict(),
            "optimizer": ppo.optimizer.state_dict(),
            "torch_generator": generator.get_state(),
            "rng": rng.bit_generator.state,
            "pool": list(pool_paths),
            "rows": rows,
            "timesteps": timesteps,
            "updates": updates,
            "segment": segment + 1,
            "seconds": row["seconds"],
        }
        run.checkpoint.mkdir(exist_ok=True)
        tmp = run.state.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, run.state)
        segment_start = (timesteps, time.perf_counter())

    # Ctrl-C propagates: main() prints the one line that names --resume.
    if not resume:
        evaluate_and_checkpoint()
    with tqdm(
        total=cfg.timesteps, initial=timesteps, unit="step", disable=not progress, smoothing=0.1
    ) as bar:
        while timesteps < cfg.timesteps:
            collector.restart(_segment_seed(cfg.seed, segment))
            boundary = min(cfg.timesteps, (timesteps // cfg.eval_every + 1) * cfg.eval_every)
            while timesteps < boundary:
                batch, info = collector.collect()
                last_stats = ppo.update(batch, rng)
                timesteps += info["timesteps"]
                updates += 1
                bar.update(info["timesteps"])
            evaluate_and_checkpoint()
            segment += 1
            last = rows[-1]
            bar.set_postfix_str(
                ", ".join(f"{o.split(':')[0]} {last[f'win_rate_{o}']:.0%}" for o in cfg.eval_opponents)
            )
    save_model(policy, run.model, settings)
    return run.model


# -- command line ----------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    d = CoreTrainConfig()
    p = argparse.ArgumentParser(prog="python -m training.core_train", description=__doc__.splitlines()[0])
    add = p.add_argument
    add("--env", help=f"env id with a compiled twin (default {d.env})")
    add("--num-players", type=int, metavar="N", help="players at the table (default: the env's)")
    add("--timesteps", type=int, help=f"trained decisions in all (default {d.timesteps:,})")
    add("--num-envs", type=int, help=f"games in the batch (default {d.num_envs})")
    add("--n-steps", type=int, help=f"batch steps per rollout (default {d.n_steps})")
    add("--seed", type=int, help=f"(default {d.seed})")
    add("--out", help="run folder (default runs/core/<env>-<timestamp>)")
    add("--pool-frac", type=float, help=f"share of games against a frozen snapshot (default {d.pool_frac})")
    add("--random-frac", type=float, help=f"share of games against random play (default {d.random_frac})")
    add("--pool-size", type=int, help=f"latest snapshots in the pool (default {d.pool_size})")
    add("--random-start", type=int, metavar="K", help="up to K random legal moves open a game (default 0)")
    add("--random-start-frac", type=float, help=f"share of games opened so (default {d.random_start_frac})")
    add("--imitate", type=int, metavar="GAMES", help="clone the heuristic on GAMES games first (default 0)")
    add("--dagger", type=int, metavar="ROUNDS", help="DAgger rounds after --imitate (default 0)")
    add("--eval-every", type=int, help=f"timesteps between evaluations (default {d.eval_every:,})")
    add("--eval-games", type=int, help=f"games against each evaluation opponent (default {d.eval_games})")
    add(
        "--eval-opponents",
        nargs="+",
        metavar="SPEC",
        help=f"agent specs (default {' '.join(d.eval_opponents)})",
    )
    add("--eval-workers", type=int, help="processes for evaluation games and --imitate (default 1)")
    add("--net-arch", type=int, nargs="+", metavar="WIDTH", help="hidden layers (default 128 128)")
    add("--learning-rate", type=float, help=f"(default {d.learning_rate})")
    add("--batch-size", type=int, help=f"minibatch size (default {d.batch_size})")
    add("--n-epochs", type=int, help=f"passes over each rollout (default {d.n_epochs})")
    add("--gamma", type=float, help=f"discount per decision of a seat (default {d.gamma})")
    add("--gae-lambda", type=float, help=f"(default {d.gae_lambda})")
    add("--clip-range", type=float, help=f"(default {d.clip_range})")
    add("--ent-coef", type=float, help=f"entropy bonus (default {d.ent_coef})")
    add("--torch-threads", type=int, help="torch.set_num_threads (default 1: bit-for-bit runs)")
    add("--num-threads", type=int, help="threads of the compiled batch (default 1)")
    add("--resume", metavar="DIR", help="continue the run in DIR from its last checkpoint")
    add("--quiet", action="store_true", help="no progress bar")
    return p


def _interrupted_line(cfg: CoreTrainConfig) -> str:
    from training.train import interrupted_line

    try:
        done = pickle.loads(_Run(Path(cfg.out)).state.read_bytes())["timesteps"]
    except (OSError, pickle.UnpicklingError, EOFError, KeyError):  # replaced whole: none yet
        done = None
    return interrupted_line(cfg.out, done, cfg.timesteps, "training.core_train")


def main(argv: list[str] | None = None) -> Path:
    parser = _parser()
    args = parser.parse_args(argv)
    given = {k: v for k, v in vars(args).items() if v is not None and k not in ("resume", "quiet")}
    try:
        if args.resume is not None:
            changed = sorted(set(given) - {"timesteps"})
            if changed:
                raise CoreTrainError(
                    "--resume continues a run with its own settings; only --timesteps may be given, not "
                    + ", ".join("--" + k.replace("_", "-") for k in changed)
                )
            run = _Run(Path(args.resume))
            try:
                saved = json.loads(run.config.read_text())
            except (OSError, ValueError):
                raise CoreTrainError(
                    f"--resume: {args.resume!r} is not a run folder (no readable config.json)"
                ) from None
            known = {f.name for f in dataclasses.fields(CoreTrainConfig)}
            if not isinstance(saved, dict) or set(saved) - known:
                raise CoreTrainError(f"--resume: {str(run.config)!r} is not a core_train config")
            cfg = CoreTrainConfig(**{**saved, **given, "out": str(args.resume)})
            if not run.state.is_file():
                raise CoreTrainError(f"--resume: no checkpoint in {args.resume!r} (missing {run.state})")
            done = pickle.loads(run.state.read_bytes())["timesteps"]
            if cfg.timesteps < done:
                raise CoreTrainError(
                    f"--resume: the run already has {done:,} timesteps; give --timesteps >= {done}"
                )
        else:
            given.setdefault(
                "out",
                str(
                    Path(
                        "runs",
                        "core",
                        f"{given.get('env', CoreTrainConfig.env)}-{datetime.now():%Y%m%d-%H%M%S}",
                    )
                ),
            )
            cfg = CoreTrainConfig(**given)
            if Path(cfg.out, "config.json").exists():
                raise CoreTrainError(
                    f"--out: {cfg.out!r} already holds a run; use --resume {cfg.out} or another folder"
                )
        cfg.check()
        from training.evaluate import ConfigError, check_out_dir

        try:
            check_out_dir(Path(cfg.out))
        except ConfigError as exc:
            raise CoreTrainError(str(exc)) from None
    except CoreTrainError as exc:
        parser.error(str(exc))
    if args.resume is not None:
        Path(cfg.out, "config.json").write_text(json.dumps(asdict(cfg), indent=2) + "\n")
    command = ["python", "-m", "training.core_train", *(sys.argv[1:] if argv is None else argv)]
    print(f"training {cfg.env} on the core -> {cfg.out}  ({shlex.join(command)})")
    try:
        model = train(cfg, resume=args.resume is not None, progress=not args.quiet)
    except KeyboardInterrupt:
        print(_interrupted_line(cfg), file=sys.stderr)
        raise SystemExit(130) from None  # 128 + SIGINT, as a shell reports a program stopped by Ctrl-C
    print(f"model: {model}")
    print(f"progress: {Path(cfg.out, 'progress.csv')}  learning curve: {Path(cfg.out, 'learning_curve.png')}")
    return model


if __name__ == "__main__":
    main()
