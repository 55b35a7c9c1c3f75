"""Train a MaskablePPO agent on any mystic-envs game by self-play mixed with fixed opponents.

python -m training.train [--env elemystic_v0] [--num-players N] [--timesteps 300000] [--opponents self=0.5
    heuristic=0.3 random=0.2] [--n-envs N] [--seed 0] [--out DIR] [--eval-every 25000] [--eval-games 100]
    [--pool-size 8] [--n-steps 1024] [--ent-coef 0.01] [--learning-rate 3e-4] [--net-arch 128 128]
    [--imitate GAMES [--dagger ROUNDS]]
python -m training.train --resume DIR [--timesteps MORE]
python -m training.train --core --env ID ...   (self-play on the compiled core: training.core_train)

The learner plays one seat of ``single_agent``-style envs (a random seat every episode, so every
seat) against an opponent drawn per episode from ``--opponents``: ``SPEC[=WEIGHT]`` (a bare spec
weighs 1), where ``self`` is a pool of the learner's own frozen snapshots, the latest
``--pool-size``, and any other spec is an agent as ``training.evaluate --agents`` takes it (a name
from ``agents.AGENT_NAMES``, ``name:key=value,key=value`` or a model path ending in ``.zip``), so
``mcts:simulations=50=0.2`` is 50-simulation MCTS at weight 0.2. Every opponent is built once
before the run folder is created, so a bad one is a one-line usage error. ``--n-envs`` envs run in
one subprocess each (default: one per core). ``--num-players N`` plays the env at N players (default:
the env's own default); every opponent seat then draws its own opponent from the mix, and the
evaluations seat the learner in every seat equally often against N - 1 copies of each evaluation
opponent, scoring its win share (a win shared by k seats counts 1/k).

Every ``--eval-every`` timesteps (rounded up to whole rollouts of ``n_steps * n_envs``) the run
saves a snapshot (added to the self-play pool), plays ``--eval-games`` games (seats balanced,
deterministic policy, fixed seeds) against random and heuristic, appends a row to
``progress.csv`` and writes a checkpoint. ``--resume DIR`` continues from the last checkpoint
exactly as if never interrupted: model, optimizer, every env mid-game, every random stream and the
CSV come back, in the folder the run was started in (a copied or moved one is refused); a
``--timesteps`` below the steps the run already has is refused. Ctrl-C stops a run as of its last
checkpoint (written whole or not at all) and prints, in one line, the ``--resume`` command that
continues it (exit status 130). PPO settings are ``PPO_KWARGS`` and ``POLICY_KWARGS`` below
(``--net-arch`` sets the hidden layers of both the policy and the
value network); torch runs on one thread, so a seed fixes the whole run.

``--imitate GAMES`` warm-starts the policy before any PPO update by behaviour cloning the
heuristic on GAMES of its games, then ``--dagger ROUNDS`` rounds in which the policy plays GAMES
games and the heuristic labels the positions it reached (``training.imitate``; its statistics go
to ``imitation.json``). Games where random play loses at once (Mystria) need it. Options that were
tried and measured no gain (advice, anchor, soft advice, shaping, score margin, critic warm-up) are
written up in ``docs/training-log.md``.

Outputs in ``--out`` (default ``runs/train/<env>-<timestamp>``): ``model.zip`` (final;
``make_agent("ppo", env_id, path=...)`` loads it), ``progress.csv``, ``learning_curve.png``
(``training.plots``), ``config.json``, ``snapshots/``, ``checkpoint/``. A folder that cannot be
created is a usage error before anything runs.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import pickle
import random
import shlex
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from training.evaluate import ConfigError, check_out_dir, parse_agent_spec
from training.ratings import wilson_interval

__all__ = [
    "DEFAULT_OPPONENTS",
    "POLICY_KWARGS",
    "PPO_KWARGS",
    "TrainConfig",
    "TrainError",
    "evaluate_against",
    "main",
    "parse_opponents",
    "train",
]

PPO_KWARGS: dict[str, Any] = dict(
    n_steps=1024,
    batch_size=256,
    n_epochs=10,
    learning_rate=3e-4,
    gamma=0.99,
    gae_lambda=0.95,
    clip_range=0.2,
    ent_coef=0.01,
)
POLICY_KWARGS: dict[str, Any] = dict(net_arch=[128, 128])  # net_arch is the --net-arch default
DEFAULT_OPPONENTS: dict[str, float] = {"self": 0.5, "heuristic": 0.3, "random": 0.2}
EVAL_OPPONENTS = ("random", "heuristic")
CSV_FIELDS = [
    "timesteps",
    "episodes",
    "seconds",
    *[f"{kind}_{o}" for o in EVAL_OPPONENTS for kind in ("win_rate", "ci_low", "ci_high")],
    "train_win_rate",
    *[f"train_episodes_{o}" for o in ("self", "heuristic", "random")],
]


class TrainError(ValueError):
    """A bad training input (flag value, missing checkpoint); the command line prints it on one line."""


@dataclass
class TrainConfig:
    """Everything that defines a run; saved as ``config.json`` and reused by ``--resume``."""

    env: str = "elemystic_v0"
    # None: the env's default player count (runs saved before the option resume as two-player runs).
    num_players: int | None = None
    timesteps: int = 300_000
    # Opponent spec (``self`` or an agent spec of ``training.evaluate``) -> weight.
    opponents: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_OPPONENTS))
    n_envs: int = 2
    seed: int = 0
    out: str = ""
    eval_every: int = 25_000
    eval_games: int = 100
    pool_size: int = 8
    n_steps: int = PPO_KWARGS["n_steps"]
    ent_coef: float = PPO_KWARGS["ent_coef"]
    learning_rate: float = PPO_KWARGS["learning_rate"]
    net_arch: list[int] = field(default_factory=lambda: list(POLICY_KWARGS["net_arch"]))
    imitate: int = 0
    dagger: int = 0

    @property
    def rollout(self) -> int:
        return self.n_steps * self.n_envs

    @property
    def env_kwargs(self) -> dict[str, Any]:
        """The env keywords of the run: ``num_players`` when it was given."""
        return {} if self.num_players is None else {"num_players": self.num_players}

    def players(self) -> int:
        """The player count the run plays at."""
        return len(mystic_envs.make_raw(self.env, **self.env_kwargs).possible_agents)

    def check(self) -> None:
        """TrainError (one line) for the first bad setting; builds every opponent once to find out."""
        try:
            mystic_envs.env_module(self.env)
        except (TypeError, ValueError) as exc:
            raise TrainError(f"--env: {exc}") from None
        counts = mystic_envs.player_counts(self.env)
        if self.num_players is not None and (
            isinstance(self.num_players, bool)
            or not isinstance(self.num_players, int)
            or self.num_players not in counts
        ):
            allowed = ", ".join(map(str, counts))
            raise TrainError(
                f"--num-players: {self.env} is played by {allowed} players, got {self.num_players!r}"
            )
        players = self.players()
        for flag, value, low in (
            ("--timesteps", self.timesteps, 1),
            ("--n-envs", self.n_envs, 1),
            ("--eval-every", self.eval_every, 1),
            ("--eval-games", self.eval_games, 2),
            ("--pool-size", self.pool_size, 1),
            ("--n-steps", self.n_steps, 2),
            ("--seed", self.seed, 0),
            ("--imitate", self.imitate, 0),
            ("--dagger", self.dagger, 0),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise TrainError(f"{flag} must be an integer >= {low}, got {value!r}")
        if self.dagger and not self.imitate:
            raise TrainError("--dagger needs --imitate GAMES (the games of each round)")
        if self.imitate and players != 2:
            raise TrainError(f"--imitate plays two-player games only, not {players} players")
        if not self.net_arch or any(
            isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in self.net_arch
        ):
            raise TrainError(f"--net-arch must be one or more layer widths >= 1, got {self.net_arch!r}")
        if self.eval_games % players:
            if players == 2:
                raise TrainError(f"--eval-games must be even (half from each seat), got {self.eval_games}")
            raise TrainError(
                f"--eval-games must be a multiple of {players} (as many from each seat), "
                f"got {self.eval_games}"
            )
        for flag, value, positive in (
            ("--ent-coef", self.ent_coef, False),
            ("--learning-rate", self.learning_rate, True),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value < float("inf")
                or (positive and value == 0)
            ):
                raise TrainError(
                    f"{flag} must be a finite number {'> 0' if positive else '>= 0'}, got {value!r}"
                )
        parse_opponents([f"{k}={v}" for k, v in self.opponents.items()])
        # Built here, in this process, so that an opponent that cannot play this env (no shipped
        # policy, a bad option) fails now with its name, not inside an env subprocess mid-run.
        from training.selfplay import SELF, build_opponent

        for label in [*self.opponents, *(o for o in EVAL_OPPONENTS if o not in self.opponents)]:
            if label == SELF:
                continue
            try:
                build_opponent(label, self.env)
            except (TypeError, ValueError) as exc:
                first_line = next(iter(str(exc).splitlines()), "")
                flag = "--opponents" if label in self.opponents else "evaluation opponent"
                raise TrainError(f"{flag}: {label!r} cannot play {self.env}: {first_line}") from None


def _split_weight(item: str) -> tuple[str, str | None]:
    """``SPEC=WEIGHT`` as (SPEC, WEIGHT), ``SPEC`` alone as (SPEC, None).

    Agent options use ``=`` too (``mcts:simulations=200``), so the last ``=`` starts a weight only
    where the text before it is a whole spec: no options, or options that are all ``key=value``.
    """
    if item.endswith(".zip"):
        return item, None
    head, has_weight, weight = item.rpartition("=")
    if not has_weight:
        return item, None
    _, has_options, options = head.partition(":")
    if has_options and not all("=" in part for part in options.split(",")):
        return item, None  # that "=" belongs to the last option
    return head, weight


def parse_opponents(items: Sequence[str]) -> dict[str, float]:
    """``["self=0.5", "heuristic", "mcts:simulations=50=0.2"]`` as spec -> weight (a bare spec weighs 1).

    A spec is ``self`` or an agent spec as ``training.evaluate --agents`` takes it (parsed by
    ``training.evaluate.parse_agent_spec``); model paths are kept absolute, so a resumed run finds
    them from any working directory.
    """
    weights: dict[str, float] = {}
    for item in items:
        text, weight_text = _split_weight(item.strip())
        if text != "self":
            try:
                spec = parse_agent_spec(text)
            except ConfigError as exc:
                raise TrainError(
                    f"--opponents: {exc} (an opponent is self or an agent spec, with an optional =WEIGHT)"
                ) from None
            if spec.name == "ppo" and text.endswith(".zip"):
                text = str(Path(text).resolve())
        try:
            weight = float(weight_text) if weight_text is not None else 1.0
        except ValueError:
            weight = -1.0
        if not weight >= 0 or weight == float("inf"):
            raise TrainError(
                f"--opponents: weight of {text!r} must be a non-negative number, got {weight_text!r}"
            )
        if text in weights:
            raise TrainError(f"--opponents: {text!r} is listed twice")
        weights[text] = weight
    if not weights or sum(weights.values()) <= 0:
        raise TrainError("--opponents: give at least one opponent with a positive weight")
    return weights


# -- evaluation ------------------------------------------------------------------------------------


def evaluate_against(
    agent: Any, opponent: str, env_id: str, games: int, seed: int = 0, num_players: int | None = None
) -> dict[str, float | int]:
    """Play ``agent`` against agent ``opponent``, as many games from each seat.

    ``num_players`` (default: the env's) seats ``agent`` in seat ``g % num_players`` of game ``g``
    and ``opponent`` in every other seat. Game ``g`` uses env seed, opponent seed and ``agent`` seed
    (if it has ``seed``) derived from ``(seed, g)`` alone, so the same games are played at every
    evaluation of a run. Returns wins (``agent`` alone on top), draws (on top with others), losses,
    and the win rate, a win shared by k seats counting 1/k (with two players: draws count half),
    with its 95% Wilson interval.
    """
    from training.evaluate import play_game

    kwargs = {} if num_players is None else {"num_players": num_players}
    env = mystic_envs.make(env_id, illegal_action="raise", **kwargs)
    n = len(env.possible_agents)
    other = make_agent(opponent, env_id)
    wins = draws = 0
    score = 0.0
    for g in range(games):
        env_seed, opp_seed, own_seed = np.random.SeedSequence([seed, g]).generate_state(3, dtype=np.uint64)
        for player, player_seed in ((other, opp_seed), (agent, own_seed)):
            reseed = getattr(player, "seed", None)
            if callable(reseed):
                reseed(int(player_seed))
        seat = g % n
        seats = [agent if s == seat else other for s in range(n)]
        rewards, _ = play_game(env, seats, int(env_seed))
        best = max(rewards)
        if rewards[seat] == best:
            shared = rewards.count(best)
            wins += shared == 1
            draws += shared > 1
            score += 1 / shared
    low, high = wilson_interval(score, games)
    return {
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": score / games,
        "ci_low": low,
        "ci_high": high,
    }


# -- the run ---------------------------------------------------------------------------------------


def _make_venv(cfg: TrainConfig) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from training.selfplay import SelfPlayEnv

    factory = partial(SelfPlayEnv, cfg.env, cfg.opponents, cfg.pool_size, **cfg.env_kwargs)
    if cfg.n_envs == 1:
        return VecMonitor(DummyVecEnv([factory]))
    return VecMonitor(SubprocVecEnv([partial(_deaf_to_ctrl_c, factory)] * cfg.n_envs))


def _deaf_to_ctrl_c(factory: Any) -> Any:
    # Ctrl-C reaches the whole process group. The main process alone handles it (it stops at the
    # last checkpoint and closes the envs); a worker that died of it would leave its pipe broken
    # and close() failing over the interruption.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return factory()


def _end_workers(venv: Any) -> None:
    # Ctrl-C can cut a step between reading one worker's answer and the next: close() would then
    # wait for an answer already read. The workers hold nothing the checkpoint needs, so they end.
    inner = venv.venv  # under VecMonitor
    for process in getattr(inner, "processes", ()):
        process.kill()
        process.join()
    inner.closed = True


class _Run:
    """Paths of a run folder."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.config = out / "config.json"
        self.csv = out / "progress.csv"
        self.snapshots = out / "snapshots"
        self.checkpoint = out / "checkpoint"
        self.state = self.checkpoint / "state.pkl"
        self.model = out / "model.zip"
        self.plot = out / "learning_curve.png"


def _rng_states() -> dict[str, Any]:
    import torch

    return {"numpy": np.random.get_state(), "python": random.getstate(), "torch": torch.get_rng_state()}


def _set_rng_states(states: dict[str, Any]) -> None:
    import torch

    np.random.set_state(states["numpy"])
    random.setstate(states["python"])
    torch.set_rng_state(states["torch"])


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


class _Checkpointer:
    """Writes ``checkpoint/``: the model first, then ``state.pkl``, which names it (the commit point)."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def save(self, model: Any, venv: Any, extra: dict[str, Any]) -> None:
        self.run.checkpoint.mkdir(parents=True, exist_ok=True)
        name = f"model_{model.num_timesteps:012d}.zip"
        model.save(self.run.checkpoint / name)
        state = {
            "model": name,
            "timesteps": model.num_timesteps,
            "rng": _rng_states(),
            "envs": venv.env_method("get_state"),
            # VecMonitor's running episode sums, so episode statistics resume mid-episode too.
            "monitor": (venv.episode_returns.copy(), venv.episode_lengths.copy(), venv.episode_count),
            **extra,
        }
        tmp = self.run.state.with_suffix(".tmp")
        tmp.write_bytes(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, self.run.state)
        for old in self.run.checkpoint.glob("model_*.zip"):
            if old.name != name:
                old.unlink()

    def load(self) -> dict[str, Any]:
        if not self.run.state.is_file():
            raise TrainError(f"--resume: no checkpoint in {str(self.run.out)!r} (missing {self.run.state})")
        try:
            return pickle.loads(self.run.state.read_bytes())
        except Exception as exc:
            raise TrainError(f"--resume: checkpoint {str(self.run.state)!r} is unreadable ({exc})") from None


def _progress_callback(bar: Any, stats: dict[str, list[float]]) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        """Advances the bar and tallies finished training episodes by opponent."""

        def _on_step(self) -> bool:
            bar.update(self.training_env.num_envs)
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "episode" in info:
                    # The learner's rewards are 0 until its last one, so the return is the result.
                    stats.setdefault(info.get("opponent", "?"), []).append(info["episode"]["r"])
            return True

    return Progress()


def load_for_env(path: Path, venv: Any) -> Any:
    """``MaskablePPO.load(path, env=venv)``; a model saved when observation spaces were
    ``Box(-inf, inf)`` (before they carried their layout's bounds) takes ``venv``'s space, since
    only the bounds differ. Another shape is still SB3's error."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.save_util import load_from_zip_file

    data, _, _ = load_from_zip_file(path, device="cpu", print_system_info=False)
    saved = (data or {}).get("observation_space")
    space = venv.observation_space
    same_shape = saved is not None and getattr(saved, "shape", None) == space.shape
    custom = {"observation_space": space} if same_shape else None
    return MaskablePPO.load(path, env=venv, device="cpu", force_reset=False, custom_objects=custom)


def train(cfg: TrainConfig, resume: bool = False, progress: bool = True) -> Path:
    """Run (or, with ``resume``, continue) the training described by ``cfg``; returns the final model path."""
    import torch
    from sb3_contrib import MaskablePPO
    from tqdm import tqdm

    from agents.ppo import PPOAgent
    from training.plots import plot_learning_curves

    run = _Run(Path(cfg.out))
    checkpointer = _Checkpointer(run)
    torch.set_num_threads(1)
    venv = _make_venv(cfg)
    try:
        if resume:
            state = checkpointer.load()
            model = load_for_env(run.checkpoint / state["model"], venv)
            for env_state, i in zip(state["envs"], range(cfg.n_envs), strict=True):
                venv.env_method("set_state", env_state, indices=[i])
            venv.episode_returns, venv.episode_lengths, venv.episode_count = state["monitor"]
            # Loading re-seeds the global streams from the model's seed; put the run's back.
            _set_rng_states(state["rng"])
            rows, snapshots, seconds = state["rows"], state["snapshots"], state["seconds"]
        else:
            run.out.mkdir(parents=True, exist_ok=True)
            run.snapshots.mkdir(exist_ok=True)
            run.config.write_text(json.dumps(asdict(cfg), indent=2) + "\n")
            kwargs = {
                **PPO_KWARGS,
                "n_steps": cfg.n_steps,
                "batch_size": min(PPO_KWARGS["batch_size"], cfg.rollout),
                "ent_coef": cfg.ent_coef,
                "learning_rate": cfg.learning_rate,
            }
            policy_kwargs: dict[str, Any] = {**POLICY_KWARGS, "net_arch": list(cfg.net_arch)}
            model = MaskablePPO(
                "MlpPolicy",
                venv,
                seed=cfg.seed,
                device="cpu",
                policy_kwargs=policy_kwargs,
                verbose=0,
                **kwargs,
            )
            rows, snapshots, seconds = [], [], 0.0
            if cfg.imitate:
                from training.imitate import warm_start

                folder = run.out / "imitation"
                folder.mkdir()
                log = print if progress else (lambda _line: None)
                stats = warm_start(
                    model, cfg.env, cfg.imitate, cfg.dagger, folder, cfg.seed, cfg.n_envs, log=log
                )
                (run.out / "imitation.json").write_text(json.dumps(stats, indent=2) + "\n")

        def snapshot_and_evaluate(stats: dict[str, list[float]]) -> None:
            path = run.snapshots / f"step_{model.num_timesteps:012d}.zip"
            model.save(path)
            snapshots.append(str(path.resolve()))
            venv.env_method("add_snapshot", snapshots[-1])
            me = PPOAgent.from_model(model, cfg.env)
            row: dict[str, Any] = {
                "timesteps": model.num_timesteps,
                "episodes": sum(map(len, stats.values())),
            }
            for opponent in EVAL_OPPONENTS:
                result = evaluate_against(
                    me, opponent, cfg.env, cfg.eval_games, seed=cfg.seed, num_players=cfg.num_players
                )
                for key in ("win_rate", "ci_low", "ci_high"):
                    row[f"{key}_{opponent}"] = round(result[key], 4)
            outcomes = [r for rs in stats.values() for r in rs]
            row["train_win_rate"] = round(float(np.mean(np.array(outcomes) > 0)), 4) if outcomes else ""
            for opponent in ("self", "heuristic", "random"):
                row[f"train_episodes_{opponent}"] = len(stats.get(opponent, []))
            row["seconds"] = round(seconds + time.perf_counter() - started, 1)
            rows.append(row)
            _write_csv(run.csv, rows)

        started = time.perf_counter()
        if not resume:
            snapshot_and_evaluate({})
            checkpointer.save(model, venv, {"rows": rows, "snapshots": snapshots, "seconds": seconds})
        block = -(-cfg.eval_every // cfg.rollout) * cfg.rollout
        with tqdm(
            total=cfg.timesteps, initial=model.num_timesteps, unit="step", disable=not progress, smoothing=0.1
        ) as bar:
            while model.num_timesteps < cfg.timesteps:
                stats: dict[str, list[float]] = {}
                steps = min(block, -(-(cfg.timesteps - model.num_timesteps) // cfg.rollout) * cfg.rollout)
                model.learn(steps, reset_num_timesteps=False, callback=_progress_callback(bar, stats))
                snapshot_and_evaluate(stats)
                last = rows[-1]
                bar.set_postfix_str(
                    f"vs random {last['win_rate_random']:.0%}, vs heuristic {last['win_rate_heuristic']:.0%}"
                )
                elapsed = seconds + time.perf_counter() - started
                checkpointer.save(model, venv, {"rows": rows, "snapshots": snapshots, "seconds": elapsed})
        model.save(run.model)
    except KeyboardInterrupt:
        _end_workers(venv)
        raise
    finally:
        venv.close()
    plot_learning_curves(run.csv, run.plot, title=f"{cfg.env}: MaskablePPO ({cfg.out})")
    return run.model


# -- command line ----------------------------------------------------------------------------------

# Settings of runs made before these options were removed (docs/training-log.md), with the value
# that meant "off": such a run resumes as it was; one that used an option cannot.
_REMOVED_OFF: dict[str, Any] = {
    "advice": False,
    "advice_softness": 0.0,
    "shaping": 0.0,
    "margin": 0.0,
    "critic_warmup": 0,
    "anchor": 0.0,
}


def _saved_config(run: _Run) -> dict[str, Any]:
    """``config.json`` of ``run`` as TrainConfig keywords; TrainError if it cannot be resumed."""
    try:
        saved = json.loads(run.config.read_text())
    except (OSError, ValueError) as exc:
        raise TrainError(f"--resume: {str(run.config)!r} is unreadable ({exc})") from None
    if not isinstance(saved, dict):
        raise TrainError(f"--resume: {str(run.config)!r} does not describe a run")
    fields = {f.name for f in dataclasses.fields(TrainConfig)}
    for key in sorted(set(saved) - fields):
        if key == "advice_weight" and not saved.get("advice"):
            continue  # a weight only counts with --advice
        if key not in _REMOVED_OFF:
            raise TrainError(
                f"--resume: {str(run.config)!r} has a setting this version does not know: {key!r}"
            )
        if saved[key] != _REMOVED_OFF[key]:
            flag = "--" + key.replace("_", "-")
            raise TrainError(
                f"--resume: the run in {str(run.out)!r} used {flag}, which was removed "
                "(docs/training-log.md); resume it with the version that started it"
            )
    return {k: v for k, v in saved.items() if k in fields}


def interrupted_line(out: str, done: int | None, timesteps: int, module: str) -> str:
    """The one line a Ctrl-C prints: the run in ``out`` stands at its last checkpoint (``done``
    timesteps, None before the first), which ``python -m module --resume out`` continues."""
    if done is None:
        return (
            f"interrupted before the first checkpoint: nothing in {out} to resume; "
            "start again with another --out"
        )
    return (
        f"interrupted: the run in {out} stands at its last checkpoint ({done:,} of {timesteps:,} "
        f"timesteps); continue with: python -m {module} --resume {shlex.quote(out)}"
    )


def _interrupted_line(cfg: TrainConfig) -> str:
    try:
        done = _Checkpointer(_Run(Path(cfg.out))).load()["timesteps"]
    except TrainError:  # written whole or not at all: no checkpoint yet
        done = None
    return interrupted_line(cfg.out, done, cfg.timesteps, "training.train")


def main(argv: list[str] | None = None) -> Path:
    from training.evaluate import default_workers

    given_argv = sys.argv[1:] if argv is None else list(argv)
    if "--core" in given_argv:
        # Self-play on the compiled core has its own options (docs/training.md); one entry for both.
        from training import core_train

        return core_train.main([a for a in given_argv if a != "--core"])
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.splitlines()[0])
    parser.add_argument("--env", help=f"env id, one of {list(mystic_envs.ENV_IDS)} (default {defaults.env})")
    parser.add_argument(
        "--num-players", type=int, metavar="N", help="players at the table (default: the env's default)"
    )
    parser.add_argument(
        "--timesteps", type=int, help=f"total env steps of the learner (default {defaults.timesteps})"
    )
    parser.add_argument(
        "--opponents",
        nargs="+",
        metavar="SPEC[=WEIGHT]",
        help="opponent mix: self (the learner's snapshots) or an agent spec as training.evaluate --agents "
        "takes it, e.g. mcts:simulations=50=0.2 (default: "
        + " ".join(f"{k}={v}" for k, v in DEFAULT_OPPONENTS.items())
        + ")",
    )
    parser.add_argument("--n-envs", type=int, help=f"envs, one subprocess each (default {default_workers()})")
    parser.add_argument("--seed", type=int, help=f"(default {defaults.seed})")
    parser.add_argument("--out", help="run folder (default runs/train/<env>-<timestamp>)")
    parser.add_argument(
        "--eval-every", type=int, help=f"timesteps between evaluations (default {defaults.eval_every})"
    )
    parser.add_argument(
        "--eval-games",
        type=int,
        help=f"games against each of random and heuristic (default {defaults.eval_games})",
    )
    parser.add_argument(
        "--pool-size", type=int, help=f"snapshots in the self-play pool (default {defaults.pool_size})"
    )
    parser.add_argument("--n-steps", type=int, help=f"PPO rollout steps per env (default {defaults.n_steps})")
    parser.add_argument("--ent-coef", type=float, help=f"PPO entropy bonus (default {defaults.ent_coef})")
    parser.add_argument(
        "--learning-rate", type=float, help=f"PPO learning rate (default {defaults.learning_rate})"
    )
    parser.add_argument(
        "--net-arch",
        type=int,
        nargs="+",
        metavar="WIDTH",
        help=f"hidden layers of policy and value networks (default {' '.join(map(str, defaults.net_arch))})",
    )
    parser.add_argument(
        "--imitate",
        type=int,
        metavar="GAMES",
        help="behaviour-clone the heuristic on GAMES of its games before PPO (default 0: off)",
    )
    parser.add_argument(
        "--dagger",
        type=int,
        metavar="ROUNDS",
        help="after --imitate, ROUNDS rounds of the policy playing GAMES games labelled by the heuristic",
    )
    parser.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its last checkpoint")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--core",
        action="store_true",
        help="self-play on the compiled core instead: the options of python -m training.core_train --help",
    )
    args = parser.parse_args(argv)
    given = {k: v for k, v in vars(args).items() if v is not None and k not in ("resume", "quiet", "core")}
    try:
        if "opponents" in given:
            given["opponents"] = parse_opponents(given["opponents"])
        if args.resume is not None:
            changed = sorted(set(given) - {"timesteps"})
            if changed:
                raise TrainError(
                    "--resume continues a run with its own settings; only --timesteps may be given, not "
                    + ", ".join("--" + k.replace("_", "-") for k in changed)
                )
            run = _Run(Path(args.resume))
            if not run.config.is_file():
                raise TrainError(f"--resume: {args.resume!r} is not a run folder (no config.json)")
            cfg = TrainConfig(**{**_saved_config(run), **given})
            saved = _Checkpointer(run).load()
            if cfg.timesteps < saved["timesteps"]:
                raise TrainError(
                    f"--resume: the run in {args.resume!r} already has {saved['timesteps']:,} timesteps; "
                    f"--timesteps {cfg.timesteps:,} would undo training (give at least {saved['timesteps']})"
                )
            # The checkpoint names its snapshots by absolute path and config.json its folder: a
            # copied or moved run would read and write the original's files, so it is refused.
            here = run.snapshots.resolve()
            if any(Path(path).parent != here for path in saved["snapshots"]):
                raise TrainError(
                    f"--resume: {args.resume!r} is a copy or a move of the run in {cfg.out!r}; "
                    "a run resumes only in the folder it was started in"
                )
            cfg = dataclasses.replace(cfg, out=str(args.resume))  # the same folder, from any directory
        else:
            given.setdefault("n_envs", default_workers())
            given.setdefault(
                "out",
                str(
                    Path("runs", "train", f"{given.get('env', defaults.env)}-{datetime.now():%Y%m%d-%H%M%S}")
                ),
            )
            cfg = TrainConfig(**given)
            if Path(cfg.out, "config.json").exists():
                raise TrainError(
                    f"--out: {cfg.out!r} already holds a run; use --resume {cfg.out} or another folder"
                )
        cfg.check()
        # Last, so that a run folder no check refuses is never created only to be left empty.
        check_out_dir(Path(cfg.out))
    except (TrainError, ConfigError) as exc:
        parser.error(str(exc))
    if args.resume is not None:
        # A longer --timesteps extends the run; the saved config records it.
        Path(cfg.out, "config.json").write_text(json.dumps(asdict(cfg), indent=2) + "\n")
    command = ["python", "-m", "training.train", *(sys.argv[1:] if argv is None else argv)]
    print(f"training {cfg.env} -> {cfg.out}  ({shlex.join(command)})")
    try:
        model = train(cfg, resume=args.resume is not None, progress=not args.quiet)
    except KeyboardInterrupt:
        print(_interrupted_line(cfg), file=sys.stderr)
        raise SystemExit(130) from None  # 128 + SIGINT, as a shell reports a program stopped by Ctrl-C
    print(f"model: {model}")
    print(f"progress: {Path(cfg.out, 'progress.csv')}")
    print(f"learning curve: {Path(cfg.out, 'learning_curve.png')}")
    return model


if __name__ == "__main__":
    main()
