"""Training-speed benchmark: MaskablePPO throughput on every registered mystic env vs connect_four_v3.

Each registered id (``mystic_envs.ENV_IDS``) and PettingZoo's ``connect_four_v3`` is trained in one
run, turn about, with the same MaskablePPO settings and the same single-agent wrapping:

- the learner plays one seat, drawn at random at every reset; the other seat is played inside
  ``step()`` by a uniformly random legal policy (``mystic_envs.core.single_agent.SingleAgentEnv``:
  ``mystic_envs.single_agent(env_id, opponent="random")`` for mystic envs, the same class around
  ``connect_four_v3.raw_env()`` for the baseline);
- ``FlatFloat32`` then flattens the seat's observation and casts it to float32 on both sides
  (connect_four_v3 observes a (6, 7, 2) int8 array, mystic envs a flat float32 vector already);
- ``Monitor`` around that, ``--n-envs`` copies in a ``SubprocVecEnv`` (``DummyVecEnv`` for 1),
  ``torch.set_num_threads(1)``, ``MaskablePPO("MlpPolicy", venv, seed=..., **PPO_KWARGS,
  policy_kwargs=POLICY_KWARGS)`` with the settings of ``training/train.py``.

Every contender gets one model and one vec env, built once (``setup s``, not in the rate), then one
untimed rollout of warm-up. Then the contenders take turns for ``--rounds`` rounds (the start rotates
each round, so drift and other load on the machine hit every contender alike); each turn is one
``model.learn(--timesteps, reset_num_timesteps=False)``, i.e. rollouts (env steps, policy inference,
mask queries) and the PPO updates, exactly as in training. Reported per contender: median env
timesteps/s over the rounds (``model.num_timesteps`` gained / wall time of ``learn``; ``learn`` rounds
up to whole rollouts and the rounded figure is the one counted), its ratio to connect_four_v3, the
learner's mean steps per episode and the setup time.

    python benchmarks/train_speed.py                    # 3 rounds x 2 rollouts (4,096 timesteps), 2 envs
    python benchmarks/train_speed.py --quick            # smoke run in seconds (tiny PPO settings, 1 env)
    python benchmarks/train_speed.py --env elemystic_v0 --rounds 5 --n-envs 1 --json train_speed.json

Target: every mystic env trains at >= 0.8x connect_four_v3's timesteps/s. ``--quick`` replaces
n_steps, batch_size and n_epochs by tiny values; its figures only prove that everything runs.

``--core`` measures instead, side by side in one run, today's path above (``sb3``: ``--n-envs``
single-agent envs in a ``SubprocVecEnv``) against MaskablePPO on the compiled core's batched
adapter (``core``: ``training.vec.CoreVecEnv`` with ``--core-envs`` games in one process, random
opponent, ``VecMonitor``), for Elemystic and Mystria (``--env`` picks one twin). Both get the same
network, PPO settings and rollout size (``n_steps * envs``: the core's n_steps is the sb3 rollout
divided by ``--core-envs``), so each PPO update is the same work; the interleaved rounds are as
above. Reported: each side's median timesteps/s and core / sb3 (issue 30's target: >= 5x).

    python benchmarks/train_speed.py --core                   # Elemystic and Mystria, 64 core envs
    python benchmarks/train_speed.py --core --quick --env elemystic_v0

``--lean`` measures, side by side in the same way, today's SB3 path against ``training.core_train``'s
self-play on the core with the lean PPO of ``training/lean_ppo.py`` (``lean``: ``--core-envs`` games,
every seat trained, same network and PPO settings, ``--lean-epochs`` to change the lean side's
epochs only, ``--torch-threads`` for both sides' torch threads: the SB3 side's env workers are
processes of their own, so at 2 both sides use the machine's two cores). Reported: each side's
median timesteps/s, the lean side's share of time in the PPO update, and lean / sb3.

    python benchmarks/train_speed.py --lean --env elemystic_v0
    python benchmarks/train_speed.py --lean --rounds 5 --torch-threads 2
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cloudpickle
import gymnasium
import numpy as np
import pettingzoo
import sb3_contrib
import stable_baselines3
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import mystic_envs
from mystic_envs.core.policies import RandomPolicy
from mystic_envs.core.single_agent import SingleAgentEnv

with warnings.catch_warnings():
    # PettingZoo >= 1.26 warns on importing its versioned modules (see env_speed.py).
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.classic import connect_four_v3

from training.train import POLICY_KWARGS, PPO_KWARGS

if __name__ not in ("__main__", "__mp_main__") and __name__ in sys.modules:
    # Loaded from its file path (the tests do) under a name that SubprocVecEnv's workers cannot
    # import: let cloudpickle ship this module's functions and classes by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])

BASELINE = "connect_four_v3"
CORE_ENV_IDS = ("elemystic_v0", "mystria_v0")
CORE_RATIO_TARGET = 5.0
DEFAULT_CORE_ENVS = 64
QUICK_CORE_ENVS = 8
RATIO_TARGET = 0.8
DEFAULT_ROUNDS = 3
DEFAULT_N_ENVS = 2
QUICK_PPO_OVERRIDES: dict[str, Any] = {"n_steps": 64, "batch_size": 64, "n_epochs": 1}


class FlatFloat32(gymnasium.ObservationWrapper):
    """The observation flattened to one float32 vector; ``action_masks()`` passed through."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        box = env.observation_space
        self.observation_space = spaces.Box(
            np.asarray(box.low, np.float32).reshape(-1),
            np.asarray(box.high, np.float32).reshape(-1),
            dtype=np.float32,
        )

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return np.asarray(observation, dtype=np.float32).reshape(-1)

    def action_masks(self) -> np.ndarray:
        return self.env.get_wrapper_attr("action_masks")()


@dataclass(frozen=True)
class Contender:
    """One game under test: ``make_env(seed)`` returns its single-agent env (before ``Monitor``)."""

    name: str
    make_env: Callable[[int], gymnasium.Env]
    mystic: bool


def _mystic_env(env_id: str, seed: int) -> gymnasium.Env:
    # The "random" opponent is a RandomPolicy, reseeded by the env's first seeded reset.
    return FlatFloat32(mystic_envs.single_agent(env_id, opponent="random"))


def _connect_four_env(seed: int) -> gymnasium.Env:
    return FlatFloat32(SingleAgentEnv(BASELINE, connect_four_v3.raw_env(), opponent=RandomPolicy(seed)))


def contenders(env_ids: Sequence[str] | None = None) -> list[Contender]:
    """The mystic envs of ``env_ids`` (default: all registered), then the baseline."""
    out = [
        Contender(env_id, functools.partial(_mystic_env, env_id), mystic=True)
        for env_id in (mystic_envs.ENV_IDS if env_ids is None else env_ids)
    ]
    out.append(Contender(BASELINE, _connect_four_env, mystic=False))
    return out


def _monitored(make_env: Callable[[int], gymnasium.Env], seed: int) -> gymnasium.Env:
    return Monitor(make_env(seed))


def make_vec_env(contender: Contender, n_envs: int, seed: int) -> VecEnv:
    """``n_envs`` monitored copies: a ``SubprocVecEnv``, or a ``DummyVecEnv`` for one."""
    fns = [functools.partial(_monitored, contender.make_env, seed + rank) for rank in range(n_envs)]
    return SubprocVecEnv(fns) if n_envs > 1 else DummyVecEnv(fns)


def make_model(venv: VecEnv, seed: int, ppo_kwargs: dict[str, Any]) -> MaskablePPO:
    """The MaskablePPO learner every contender gets."""
    return MaskablePPO("MlpPolicy", venv, seed=seed, **ppo_kwargs, policy_kwargs=POLICY_KWARGS)


def timed_learn(model: MaskablePPO, timesteps: int) -> tuple[int, float]:
    """Run ``model.learn(timesteps)`` on from where it stopped; return (timesteps done, seconds)."""
    gc.collect()
    before = model.num_timesteps
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    return model.num_timesteps - before, elapsed


def _cpu_name() -> str:
    # platform.processor() is empty on most Linux builds; /proc/cpuinfo names the model.
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run_benchmark(
    selected: Sequence[Contender],
    rounds: int,
    timesteps: int,
    n_envs: int = DEFAULT_N_ENVS,
    seed: int = 0,
    ppo_kwargs: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Train every contender in interleaved ``learn`` calls over ``rounds`` rounds; return the results."""
    if not any(c.name == BASELINE for c in selected):
        raise ValueError(f"the contenders must include the baseline {BASELINE}")
    ppo_kwargs = dict(PPO_KWARGS if ppo_kwargs is None else ppo_kwargs)
    torch.set_num_threads(1)
    rollout = ppo_kwargs["n_steps"] * n_envs
    models: dict[str, MaskablePPO] = {}
    venvs: dict[str, VecEnv] = {}
    setup_s: dict[str, float] = {}
    warmup_s: dict[str, float] = {}
    rates: dict[str, list[float]] = {c.name: [] for c in selected}
    done: dict[str, int] = dict.fromkeys(rates, 0)
    seconds: dict[str, float] = dict.fromkeys(rates, 0.0)
    episodes: dict[str, list[int]] = {}
    try:
        for c in selected:
            start = time.perf_counter()
            venvs[c.name] = make_vec_env(c, n_envs, seed)
            models[c.name] = make_model(venvs[c.name], seed, ppo_kwargs)
            setup_s[c.name] = time.perf_counter() - start
            # Untimed warm-up: the first reset, lazy imports and torch's first calls.
            warmup_s[c.name] = timed_learn(models[c.name], rollout)[1]
        if progress is not None:
            progress("models built and warmed up")
        for r in range(rounds):
            order = list(selected[r % len(selected) :]) + list(selected[: r % len(selected)])
            for c in order:
                n, elapsed = timed_learn(models[c.name], timesteps)
                rates[c.name].append(n / elapsed)
                done[c.name] += n
                seconds[c.name] += elapsed
            if progress is not None:
                progress(f"round {r + 1}/{rounds} done")
        for c in selected:
            lengths = venvs[c.name].env_method("get_episode_lengths")
            episodes[c.name] = [n for per_env in lengths for n in per_env]
    finally:
        for venv in venvs.values():
            venv.close()

    base_rate = statistics.median(rates[BASELINE])
    results: dict[str, Any] = {}
    for c in selected:
        rate = statistics.median(rates[c.name])
        obs_shape = models[c.name].observation_space.shape
        results[c.name] = {
            "mystic": c.mystic,
            "obs_size": int(np.prod(obs_shape)),
            "timesteps_per_s": rate,
            "timesteps_per_s_rounds": rates[c.name],
            "ratio_to_baseline": rate / base_rate,
            "timesteps": done[c.name],
            "learn_seconds": seconds[c.name],
            "setup_seconds": setup_s[c.name],
            "warmup_seconds": warmup_s[c.name],
            "episodes": len(episodes[c.name]),
            "mean_episode_length": statistics.fmean(episodes[c.name]) if episodes[c.name] else None,
        }
    return {
        "config": {
            "rounds": rounds,
            "timesteps": timesteps,
            "warmup_timesteps": rollout,
            "n_envs": n_envs,
            "vec_env": "SubprocVecEnv" if n_envs > 1 else "DummyVecEnv",
            "seed": seed,
            "baseline": BASELINE,
            "ppo_kwargs": ppo_kwargs,
            "policy_kwargs": POLICY_KWARGS,
            "torch_threads": torch.get_num_threads(),
        },
        "platform": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__,
            "pettingzoo": pettingzoo.__version__,
            "mystic_envs": mystic_envs.__version__,
            "machine": platform.machine(),
            "cpu": _cpu_name(),
            "cpu_count": os.cpu_count(),
        },
        "contenders": results,
        "targets": check_targets(results),
    }


def check_targets(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per mystic contender: its ratio to the baseline against the target, PASS/FAIL."""
    return [
        {
            "contender": name,
            "kind": "train_ratio",
            "target": f"MaskablePPO timesteps/s >= {RATIO_TARGET}x {BASELINE}",
            "value": r["ratio_to_baseline"],
            "threshold": RATIO_TARGET,
            "passed": r["ratio_to_baseline"] >= RATIO_TARGET,
        }
        for name, r in results.items()
        if r["mystic"]
    ]


def format_table(report: dict[str, Any]) -> str:
    """The results as a Markdown table (paste-ready for the README)."""
    lines = [
        f"| env | obs size | timesteps/s | x {BASELINE} | per round | learner steps/episode | setup s |",
        "|---|--:|--:|--:|--:|--:|--:|",
    ]
    for name, r in report["contenders"].items():
        per_round = ", ".join(f"{x:,.0f}" for x in r["timesteps_per_s_rounds"])
        length = "-" if r["mean_episode_length"] is None else f"{r['mean_episode_length']:.1f}"
        lines.append(
            f"| {name} | {r['obs_size']} | {r['timesteps_per_s']:,.0f} | {r['ratio_to_baseline']:.2f} "
            f"| {per_round} | {length} | {r['setup_seconds']:.1f} |"
        )
    return "\n".join(lines)


def format_targets(report: dict[str, Any]) -> str:
    """One PASS/FAIL line per target, with the figures behind it."""
    base = report["contenders"][BASELINE]["timesteps_per_s"]
    lines = []
    for t in report["targets"]:
        r = report["contenders"][t["contender"]]
        lines.append(
            f"{'PASS' if t['passed'] else 'FAIL'} {t['contender']}: {t['target']} -- "
            f"{r['timesteps_per_s']:,.0f} vs {base:,.0f} timesteps/s = {t['value']:.2f}x"
        )
    return "\n".join(lines)


class _RolloutTimer(BaseCallback):
    """Seconds spent collecting rollouts (env steps, policy inference, masks) inside ``learn``; the
    rest of ``learn`` is the PPO update."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds = 0.0
        self._start = 0.0

    def _on_rollout_start(self) -> None:
        self._start = time.perf_counter()

    def _on_rollout_end(self) -> None:
        self.seconds += time.perf_counter() - self._start

    def _on_step(self) -> bool:
        return True


def run_core_benchmark(
    env_ids: Sequence[str],
    rounds: int,
    timesteps: int,
    n_envs: int = DEFAULT_N_ENVS,
    core_envs: int = DEFAULT_CORE_ENVS,
    seed: int = 0,
    ppo_kwargs: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Today's SB3 path against MaskablePPO on ``training.vec.CoreVecEnv``, per env, interleaved
    as ``run_benchmark`` does; the same network, PPO settings and rollout size on both sides."""
    from stable_baselines3.common.vec_env import VecMonitor

    from training.vec import CoreVecEnv

    ppo_kwargs = dict(PPO_KWARGS if ppo_kwargs is None else ppo_kwargs)
    torch.set_num_threads(1)
    rollout = ppo_kwargs["n_steps"] * n_envs
    if rollout % core_envs:
        raise ValueError(f"--core-envs ({core_envs}) must divide the rollout n_steps x n_envs ({rollout})")
    core_kwargs = {**ppo_kwargs, "n_steps": rollout // core_envs}
    names = [(env_id, side) for env_id in env_ids for side in ("sb3", "core")]
    models: dict[tuple[str, str], MaskablePPO] = {}
    venvs: dict[tuple[str, str], VecEnv] = {}
    setup_s: dict[tuple[str, str], float] = {}
    rates: dict[tuple[str, str], list[float]] = {k: [] for k in names}
    done: dict[tuple[str, str], int] = dict.fromkeys(names, 0)
    learn_s: dict[tuple[str, str], float] = dict.fromkeys(names, 0.0)
    timers = {k: _RolloutTimer() for k in names}
    try:
        for env_id, side in names:
            start = time.perf_counter()
            if side == "sb3":
                contender = Contender(env_id, functools.partial(_mystic_env, env_id), mystic=True)
                venv = make_vec_env(contender, n_envs, seed)
                model = make_model(venv, seed, ppo_kwargs)
            else:
                venv = VecMonitor(CoreVecEnv(env_id, num_envs=core_envs, seed=seed, opponent="random"))
                model = make_model(venv, seed, core_kwargs)
            venvs[env_id, side], models[env_id, side] = venv, model
            setup_s[env_id, side] = time.perf_counter() - start
            timed_learn(model, rollout)  # untimed warm-up, as in run_benchmark
        if progress is not None:
            progress("models built and warmed up")
        for r in range(rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            for key in order:
                gc.collect()
                before, start = models[key].num_timesteps, time.perf_counter()
                models[key].learn(timesteps, reset_num_timesteps=False, callback=timers[key])
                elapsed = time.perf_counter() - start
                n = models[key].num_timesteps - before
                rates[key].append(n / elapsed)
                done[key] += n
                learn_s[key] += elapsed
            if progress is not None:
                progress(f"round {r + 1}/{rounds} done")
    finally:
        for venv in venvs.values():
            venv.close()
    results: dict[str, Any] = {}
    for env_id in env_ids:
        row: dict[str, Any] = {}
        for side in ("sb3", "core"):
            lengths = [ep["l"] for ep in models[env_id, side].ep_info_buffer]
            row[side] = {
                "timesteps_per_s": statistics.median(rates[env_id, side]),
                "timesteps_per_s_rounds": rates[env_id, side],
                "timesteps": done[env_id, side],
                "setup_seconds": setup_s[env_id, side],
                # Where the time goes: collecting rollouts (the env's share) against PPO updates.
                "rollout_share": timers[env_id, side].seconds / learn_s[env_id, side],
                "rollout_timesteps_per_s": done[env_id, side] / timers[env_id, side].seconds,
                "mean_episode_length": statistics.fmean(lengths) if lengths else None,
            }
        row["ratio"] = row["core"]["timesteps_per_s"] / row["sb3"]["timesteps_per_s"]
        results[env_id] = row
    return {
        "config": {
            "rounds": rounds,
            "timesteps": timesteps,
            "rollout": rollout,
            "sb3": {"n_envs": n_envs, "vec_env": "SubprocVecEnv" if n_envs > 1 else "DummyVecEnv"},
            "core": {"num_envs": core_envs, "vec_env": "training.vec.CoreVecEnv", "num_threads": 1},
            "seed": seed,
            "ppo_kwargs": ppo_kwargs,
            "core_ppo_kwargs": core_kwargs,
            "policy_kwargs": POLICY_KWARGS,
            "torch_threads": torch.get_num_threads(),
        },
        "platform": {
            "python": platform.python_version(),
            "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__,
            "mystic_envs": mystic_envs.__version__,
            "cpu": _cpu_name(),
            "cpu_count": os.cpu_count(),
        },
        "envs": results,
        "targets": ratio_targets(results, "core_train_ratio", "core MaskablePPO"),
    }


def ratio_targets(results: dict[str, dict[str, Any]], kind: str, what: str) -> list[dict[str, Any]]:
    """One target row per env: ``what``'s timesteps/s over today's SB3 path >= CORE_RATIO_TARGET."""
    return [
        {
            "contender": env_id,
            "kind": kind,
            "target": f"{what} timesteps/s >= {CORE_RATIO_TARGET}x today's SB3 path",
            "value": row["ratio"],
            "threshold": CORE_RATIO_TARGET,
            "passed": row["ratio"] >= CORE_RATIO_TARGET,
        }
        for env_id, row in results.items()
    ]


def format_core_table(report: dict[str, Any]) -> str:
    """The core side-by-side as a Markdown table, then one PASS/FAIL line per env."""
    lines = [
        "| env | sb3 timesteps/s | core timesteps/s | core / sb3 | per round (sb3; core) "
        "| rollout share (sb3/core) | rollout-only timesteps/s (sb3/core) | steps/episode |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for env_id, row in report["envs"].items():
        per = "; ".join(
            ", ".join(f"{x:,.0f}" for x in row[s]["timesteps_per_s_rounds"]) for s in ("sb3", "core")
        )
        lengths = "/".join(
            "-" if row[s]["mean_episode_length"] is None else f"{row[s]['mean_episode_length']:.1f}"
            for s in ("sb3", "core")
        )
        lines.append(
            f"| {env_id} | {row['sb3']['timesteps_per_s']:,.0f} | {row['core']['timesteps_per_s']:,.0f} "
            f"| {row['ratio']:.2f} | {per} "
            f"| {row['sb3']['rollout_share']:.0%}/{row['core']['rollout_share']:.0%} "
            f"| {row['sb3']['rollout_timesteps_per_s']:,.0f}/{row['core']['rollout_timesteps_per_s']:,.0f} "
            f"| {lengths} |"
        )
    lines.append("")
    for t in report["targets"]:
        lines.append(
            f"{'PASS' if t['passed'] else 'FAIL'} {t['contender']}: {t['target']} -- {t['value']:.2f}x"
        )
    return "\n".join(lines)


def run_lean_benchmark(
    env_ids: Sequence[str],
    rounds: int,
    timesteps: int,
    n_envs: int = DEFAULT_N_ENVS,
    lean_envs: int = DEFAULT_CORE_ENVS,
    seed: int = 0,
    ppo_kwargs: dict[str, Any] | None = None,
    lean_epochs: int | None = None,
    torch_threads: int = 1,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Today's SB3 path against ``training.core_train``'s lean PPO self-play on the core, per env,
    interleaved as ``run_benchmark`` does: the same network and PPO settings (``lean_epochs``, if
    given, replaces n_epochs on the lean side only), a rollout of about the same size (``lean_envs``
    games x ``n_steps * n_envs / lean_envs`` batch steps; every seat is trained, so nearly every batch
    step is a trained timestep). A lean timestep is a trained decision, as an SB3 one is a learner step.
    ``torch_threads`` is both sides' ``torch.set_num_threads`` (the SB3 side's env workers are processes
    of their own either way)."""
    from mystic_envs import vector
    from mystic_envs.core.game import observation_box
    from training.core_train import CoreTrainConfig, SelfPlayCollector
    from training.lean_ppo import LeanPPO, build_policy

    ppo_kwargs = dict(PPO_KWARGS if ppo_kwargs is None else ppo_kwargs)
    torch.set_num_threads(torch_threads)
    rollout = ppo_kwargs["n_steps"] * n_envs
    lean_kwargs = {k: v for k, v in ppo_kwargs.items() if k != "n_steps"}
    if lean_epochs is not None:
        lean_kwargs["n_epochs"] = lean_epochs
    names = [(env_id, side) for env_id in env_ids for side in ("sb3", "lean")]
    runners: dict[tuple[str, str], Callable[[], tuple[int, float]]] = {}
    venvs: list[VecEnv] = []
    rates: dict[tuple[str, str], list[float]] = {k: [] for k in names}
    update_share: dict[str, list[float]] = {env_id: [] for env_id in env_ids}
    try:
        for env_id, side in names:
            if side == "sb3":
                contender = Contender(env_id, functools.partial(_mystic_env, env_id), mystic=True)
                venv = make_vec_env(contender, n_envs, seed)
                venvs.append(venv)
                model = make_model(venv, seed, ppo_kwargs)
                timed_learn(model, rollout)  # untimed warm-up
                runners[env_id, side] = functools.partial(timed_learn, model, timesteps)
                continue
            cfg = CoreTrainConfig(
                env=env_id,
                num_envs=lean_envs,
                n_steps=max(1, rollout // lean_envs),
                seed=seed,
                net_arch=list(POLICY_KWARGS["net_arch"]),
                **lean_kwargs,
            )
            v = vector.make(env_id, num_envs=1, seed=0)
            policy = build_policy(
                observation_box(v.observation_layout), v.num_actions, cfg.net_arch, seed=seed
            )
            ppo = LeanPPO(policy, cfg.settings())
            rng = np.random.default_rng(seed)
            collector = SelfPlayCollector(cfg, policy, rng, torch.Generator().manual_seed(seed))
            collector.restart(seed)

            def lean_learn(
                collector: Any = collector, ppo: Any = ppo, rng: Any = rng, env_id: str = env_id
            ) -> tuple[int, float]:
                gc.collect()
                n, update_s, start = 0, 0.0, time.perf_counter()
                while n < timesteps:
                    batch, info = collector.collect()
                    t = time.perf_counter()
                    ppo.update(batch, rng)
                    update_s += time.perf_counter() - t
                    n += info["timesteps"]
                elapsed = time.perf_counter() - start
                update_share[env_id].append(update_s / elapsed)
                return n, elapsed

            lean_learn()  # untimed warm-up
            update_share[env_id].clear()
            runners[env_id, side] = lean_learn
        if progress is not None:
            progress("models built and warmed up")
        for r in range(rounds):
            for key in names[r % len(names) :] + names[: r % len(names)]:
                n, elapsed = runners[key]()
                rates[key].append(n / elapsed)
            if progress is not None:
                progress(f"round {r + 1}/{rounds} done")
    finally:
        for venv in venvs:
            venv.close()
    results = {
        env_id: {
            "sb3": statistics.median(rates[env_id, "sb3"]),
            "lean": statistics.median(rates[env_id, "lean"]),
            "sb3_rounds": rates[env_id, "sb3"],
            "lean_rounds": rates[env_id, "lean"],
            "lean_update_share": statistics.fmean(update_share[env_id]),
            "ratio": statistics.median(rates[env_id, "lean"]) / statistics.median(rates[env_id, "sb3"]),
        }
        for env_id in env_ids
    }
    return {
        "config": {
            "rounds": rounds,
            "timesteps": timesteps,
            "rollout": rollout,
            "sb3": {"n_envs": n_envs, "ppo_kwargs": ppo_kwargs},
            "lean": {"num_envs": lean_envs, "n_steps": max(1, rollout // lean_envs), **lean_kwargs},
            "policy_kwargs": POLICY_KWARGS,
            "torch_threads": torch.get_num_threads(),
            "cpu": _cpu_name(),
            "cpu_count": os.cpu_count(),
        },
        "envs": results,
        "targets": ratio_targets(results, "lean_train_ratio", "lean PPO on the core"),
    }


def format_lean_table(report: dict[str, Any]) -> str:
    """The lean side-by-side as a Markdown table, then one PASS/FAIL line per env."""
    lines = [
        "| env | sb3 timesteps/s | lean timesteps/s | lean / sb3 | lean update share "
        "| per round (sb3; lean) |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    for env_id, row in report["envs"].items():
        per = "; ".join(", ".join(f"{x:,.0f}" for x in row[f"{s}_rounds"]) for s in ("sb3", "lean"))
        lines.append(
            f"| {env_id} | {row['sb3']:,.0f} | {row['lean']:,.0f} | {row['ratio']:.2f} "
            f"| {row['lean_update_share']:.0%} | {per} |"
        )
    lines.append("")
    for t in report["targets"]:
        lines.append(
            f"{'PASS' if t['passed'] else 'FAIL'} {t['contender']}: {t['target']} -- {t['value']:.2f}x"
        )
    return "\n".join(lines)


def _main_lean(args: argparse.Namespace) -> dict[str, Any]:
    report = run_lean_benchmark(
        CORE_ENV_IDS if args.env is None else [args.env],
        args.rounds,
        args.timesteps,
        n_envs=args.n_envs,
        lean_envs=args.core_envs,
        seed=args.seed,
        ppo_kwargs=args.ppo_kwargs,
        lean_epochs=args.lean_epochs,
        torch_threads=args.torch_threads,
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    cfg = report["config"]
    print(
        f"{cfg['cpu']} ({cfg['cpu_count']} CPUs), torch threads {cfg['torch_threads']}; network "
        f"{cfg['policy_kwargs']}; sb3: {cfg['sb3']['n_envs']} single-agent env(s), "
        f"{cfg['sb3']['ppo_kwargs']}; "
        f"lean: {cfg['lean']}; median of {cfg['rounds']} round(s) x {cfg['timesteps']:,} timesteps"
    )
    print()
    print(format_lean_table(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return report


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--rounds", type=int, help=f"interleaved rounds (default {DEFAULT_ROUNDS}; 1 if --quick)"
    )
    parser.add_argument(
        "--timesteps", type=int, help="timesteps per learn call (default 2 rollouts: 2 x n_steps x n_envs)"
    )
    parser.add_argument(
        "--n-envs", type=int, help=f"envs per vec env (default {DEFAULT_N_ENVS}; 1 if --quick)"
    )
    parser.add_argument("--env", choices=mystic_envs.ENV_IDS, help="train only this mystic env id")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results here as JSON")
    parser.add_argument("--seed", type=int, default=0, help="seed of models and envs")
    parser.add_argument(
        "--core",
        action="store_true",
        help="today's SB3 path against MaskablePPO on training.vec.CoreVecEnv, Elemystic and Mystria",
    )
    parser.add_argument(
        "--core-envs",
        type=int,
        help=f"games in the core's batch (default {DEFAULT_CORE_ENVS}; {QUICK_CORE_ENVS} if --quick)",
    )
    parser.add_argument(
        "--lean",
        action="store_true",
        help="today's SB3 path against training.core_train's lean PPO self-play on the core (issue 30)",
    )
    parser.add_argument(
        "--lean-epochs", type=int, help="--lean: PPO epochs of the lean side only (default: the same)"
    )
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="--lean: torch threads of both sides (default 1)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run in seconds: 1 round, 1 env, PPO settings overridden by {QUICK_PPO_OVERRIDES}",
    )
    args = parser.parse_args(argv)
    if args.rounds is None:
        args.rounds = 1 if args.quick else DEFAULT_ROUNDS
    if args.n_envs is None:
        args.n_envs = 1 if args.quick else DEFAULT_N_ENVS
    args.ppo_kwargs = {**PPO_KWARGS, **(QUICK_PPO_OVERRIDES if args.quick else {})}
    if args.timesteps is None:
        args.timesteps = 2 * args.ppo_kwargs["n_steps"] * max(args.n_envs, 1)
    if args.core_envs is None:
        args.core_envs = QUICK_CORE_ENVS if args.quick else DEFAULT_CORE_ENVS
    if (
        args.rounds < 1
        or args.n_envs < 1
        or args.timesteps < 1
        or args.core_envs < 1
        or args.torch_threads < 1
    ):
        parser.error("--rounds, --n-envs, --core-envs, --timesteps and --torch-threads must be >= 1")
    if args.torch_threads != 1 and not args.lean:
        parser.error("--torch-threads is a --lean option")
    if (args.core or args.lean) and args.env is not None and args.env not in CORE_ENV_IDS:
        parser.error(
            f"--core and --lean measure {', '.join(CORE_ENV_IDS)}; --env {args.env} is not one of them"
        )
    if args.core and (args.ppo_kwargs["n_steps"] * args.n_envs) % args.core_envs:
        parser.error("--core-envs must divide the rollout (n_steps x --n-envs)")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the benchmark from command-line arguments, print the report and return the results."""
    args = parse_args(argv)
    if args.lean:
        return _main_lean(args)
    if args.core:
        return _main_core(args)
    report = run_benchmark(
        contenders(None if args.env is None else [args.env]),
        args.rounds,
        args.timesteps,
        n_envs=args.n_envs,
        seed=args.seed,
        ppo_kwargs=args.ppo_kwargs,
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    p, cfg = report["platform"], report["config"]
    print(
        f"mystic-envs {p['mystic_envs']}, Python {p['python']}, torch {p['torch']}, "
        f"SB3 {p['stable_baselines3']}, sb3-contrib {p['sb3_contrib']}, PettingZoo {p['pettingzoo']}, "
        f"{p['cpu']} ({p['cpu_count']} CPUs); MaskablePPO {cfg['ppo_kwargs']} {cfg['policy_kwargs']}, "
        f"{cfg['n_envs']} env(s) in {cfg['vec_env']}; "
        f"median of {cfg['rounds']} round(s) x {cfg['timesteps']:,} timesteps"
    )
    print()
    print(format_table(report))
    print()
    print(format_targets(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return report


def _main_core(args: argparse.Namespace) -> dict[str, Any]:
    report = run_core_benchmark(
        CORE_ENV_IDS if args.env is None else [args.env],
        args.rounds,
        args.timesteps,
        n_envs=args.n_envs,
        core_envs=args.core_envs,
        seed=args.seed,
        ppo_kwargs=args.ppo_kwargs,
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
    )
    p, cfg = report["platform"], report["config"]
    print(
        f"mystic-envs {p['mystic_envs']}, Python {p['python']}, torch {p['torch']}, "
        f"SB3 {p['stable_baselines3']}, sb3-contrib {p['sb3_contrib']}, {p['cpu']} ({p['cpu_count']} CPUs); "
        f"MaskablePPO {cfg['policy_kwargs']}, rollout {cfg['rollout']:,} timesteps: "
        f"sb3 {cfg['sb3']['n_envs']} env(s) x n_steps {cfg['ppo_kwargs']['n_steps']} "
        f"in {cfg['sb3']['vec_env']}, core "
        f"{cfg['core']['num_envs']} games x n_steps {cfg['core_ppo_kwargs']['n_steps']} in one process; "
        f"median of {cfg['rounds']} round(s) x {cfg['timesteps']:,} timesteps"
    )
    print()
    print(format_core_table(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main()
