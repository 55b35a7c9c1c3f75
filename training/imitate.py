"""Behaviour-cloning warm start: a MaskablePPO policy first learns to copy an agent, then PPO goes on.

``python -m training.train --imitate GAMES`` calls this before its first PPO update. Reinforcement
learning from a random policy is slow on games where a random player loses within a few turns
(Mystria: a random magician runs out of Energy drops long before it meets a useful triangle, so
nearly every early episode teaches only "you lost"); copying the heuristic first puts the policy
where PPO can improve on it.

- ``collect``: the teacher (``heuristic`` by default) plays ``games`` games through the env, half
  against itself (both seats recorded) and half against ``random`` (only the teacher's seat: it
  shows positions a weak opponent leaves). Each record is what a learner would see: observation,
  action mask, the teacher's action, and the discounted final reward of that seat as the value
  target (``gamma`` per decision of the seat, as PPO counts its steps). Games run in ``workers``
  processes; game ``g`` is seeded from ``(seed, g)`` only, so the data do not depend on workers.
- ``warm_start``: one cloning on ``games`` teacher games, then ``rounds`` DAgger rounds: the
  student plays ``games`` games, the teacher labels every position the student reached, and the
  policy is fitted again to everything gathered (a pure clone drifts into positions the teacher
  never shows it, and there it runs out of drops).
- ``clone_into``: minimises the policy's cross-entropy on the teacher's actions (illegal actions
  masked, as MaskablePPO does) plus half the value error, with Adam, shuffling from ``seed``; a
  held-out 5% reports the action agreement.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from training.workers import one_thread_each

__all__ = ["Demonstrations", "clone_into", "collect", "warm_start"]


@dataclass
class Demonstrations:
    """Decisions of a teacher: row ``i`` is one decision."""

    observations: np.ndarray  # float32 (n, obs size)
    masks: np.ndarray  # bool (n, actions)
    actions: np.ndarray  # int64 (n,)
    returns: np.ndarray  # float32 (n,): discounted final reward of the deciding seat

    def __len__(self) -> int:
        return len(self.actions)


_FIELDS = ("observations", "masks", "actions", "returns")


def _play(
    env_id: str,
    teacher: str,
    game_seeds: list[tuple[int, int]],
    gamma: float,
    student: str | None,
) -> Demonstrations:
    env = mystic_envs.make(env_id, illegal_action="raise")
    obs_rows: list[np.ndarray] = []
    mask_rows: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    for game, seed in game_seeds:
        env_seed, *agent_seeds, seat_draw = np.random.SeedSequence([seed, game]).generate_state(
            4, dtype=np.uint64
        )
        # The recorded seat is played by the student when there is one (DAgger: the teacher only
        # labels the student's own positions), else by the teacher. Its opponent: the teacher in
        # even games, random in odd ones. Teacher-vs-teacher games record both seats.
        learner = int(seat_draw % 2)
        opponent = "random" if game % 2 else teacher
        both = student is None and opponent == teacher
        seats = [
            make_agent("ppo", env_id, path=student, seed=int(x))
            if student and s == learner
            else make_agent(teacher if s == learner else opponent, env_id, seed=int(x))
            for s, x in enumerate(agent_seeds)
        ]
        labeller = make_agent(teacher, env_id, seed=int(agent_seeds[learner])) if student else None
        env.reset(seed=int(env_seed))
        recorded: dict[int, list[int]] = {0: [], 1: []}  # seat -> row indices of its decisions
        final = [0.0, 0.0]
        for agent_id in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            seat = env.unwrapped.agent_name_mapping[agent_id]
            if terminated or truncated:
                final[seat] = float(reward)
                env.step(None)
                continue
            action = seats[seat].act(env, agent_id)
            if both or seat == learner:
                recorded[seat].append(len(actions))
                obs_rows.append(np.asarray(obs["observation"], np.float32))
                mask_rows.append(obs["action_mask"].astype(bool))
                actions.append(labeller.act(env, agent_id) if labeller else action)
                returns.append(0.0)
            env.step(action)
        for seat, rows in recorded.items():
            for left, row in enumerate(reversed(rows)):
                returns[row] = final[seat] * gamma**left
    return Demonstrations(
        np.array(obs_rows, dtype=np.float32),
        np.array(mask_rows, dtype=bool),
        np.array(actions, dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


def collect(
    env_id: str,
    games: int,
    seed: int = 0,
    teacher: str = "heuristic",
    gamma: float = 0.99,
    workers: int = 1,
    student: str | None = None,
) -> Demonstrations:
    """The teacher's decisions over ``games`` games (see the module docstring); with ``student``
    (a MaskablePPO ``.zip`` path) the student plays and the teacher labels its positions."""
    chunks = [[(g, seed) for g in range(w, games, workers)] for w in range(workers)]
    if workers == 1:
        parts = [_play(env_id, teacher, chunks[0], gamma, student)]
    else:
        n = workers
        # The workers are forked when the pool starts: they inherit the variables then.
        with one_thread_each(), ProcessPoolExecutor(n) as pool:
            parts = list(
                pool.map(
                    _play,
                    [env_id] * n,
                    [teacher] * n,
                    chunks,
                    [gamma] * n,
                    [student] * n,
                )
            )
    return Demonstrations(
        *(
            np.concatenate([getattr(p, f) for p in parts])
            for f in ("observations", "masks", "actions", "returns")
        )
    )


def clone_into(
    model: Any, demos: Demonstrations, epochs: int = 6, batch_size: int = 256, lr: float = 1e-3, seed: int = 0
) -> dict[str, float]:
    """Fit ``model.policy`` (a MaskablePPO policy) to ``demos``; returns held-out agreement and losses."""
    import torch

    policy = model.policy
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    held = order[: max(1, len(order) // 20)]
    train = order[len(held) :]

    def tensors(rows: np.ndarray) -> tuple[Any, ...]:
        return (
            torch.as_tensor(demos.observations[rows]),
            torch.as_tensor(demos.actions[rows]),
            demos.masks[rows],
            torch.as_tensor(demos.returns[rows]),
        )

    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.set_training_mode(True)
    policy_loss = value_loss = math.nan
    for _ in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train), batch_size):
            obs, act, masks, ret = tensors(train[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=masks)
            fit = -log_prob.mean()
            value_error = torch.nn.functional.mse_loss(values.flatten(), ret)
            loss = fit + 0.5 * value_error
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            policy_loss, value_loss = float(fit.detach()), float(value_error.detach())
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, act, masks, ret = tensors(held)
        dist = policy.get_distribution(obs, action_masks=masks)
        agree = float((dist.distribution.probs.argmax(dim=1) == act).float().mean())
        values = policy.predict_values(obs).flatten()
        held_value = float(torch.nn.functional.mse_loss(values, ret))
    return {
        "samples": len(demos),
        "held_out_agreement": round(agree, 4),
        "held_out_value_mse": round(held_value, 4),
        "last_policy_loss": round(policy_loss, 4),
        "last_value_loss": round(value_loss, 4),
    }


def warm_start(
    model: Any,
    env_id: str,
    games: int,
    rounds: int,
    folder: Path,
    seed: int = 0,
    workers: int = 1,
    log: Callable[[str], None] = print,
) -> list[dict[str, float]]:
    """Clone the heuristic into ``model.policy``, then ``rounds`` DAgger rounds (module docstring).

    Students are saved in ``folder`` (the workers load them from there). Returns each fit's stats.
    """
    gamma = float(model.gamma)
    data = [collect(env_id, games, seed, gamma=gamma, workers=workers)]
    stats = []
    for r in range(rounds + 1):
        if r:
            student = folder / f"student_{r}.zip"
            model.save(student)
            data.append(collect(env_id, games, seed + r, gamma=gamma, workers=workers, student=str(student)))
        merged = Demonstrations(*(np.concatenate([getattr(d, f) for d in data]) for f in _FIELDS))
        stats.append({"round": r, **clone_into(model, merged, seed=seed + r)})
        log(f"imitation round {r}: {stats[-1]}")
    return stats
