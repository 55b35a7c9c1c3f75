"""A lean masked PPO in PyTorch: the update and the batched acting of ``training.core_train``.

SB3's ``MaskablePPO.learn`` spends most of its time in its own Python loop (one ``VecEnv`` step, a
``RolloutBuffer.add`` and a distribution object per step), not in the network; on the compiled core
the games cost almost nothing, so that loop caps the throughput. This module keeps only the maths:

- the network is SB3's own ``MaskableActorCriticPolicy`` (``build_policy``: the ``MlpPolicy`` of
  ``training.train``, same layers, same orthogonal initialisation), used through its modules
  (``mlp_extractor``, ``action_net``, ``value_net``), so a trained policy saves as a MaskablePPO zip
  that ``make_agent("ppo", env_id, path=...)`` and ``MaskablePPO.load`` read (``save_model``);
- **masked categorical**: illegal logits set to ``-1e8`` as sb3-contrib does, sampled by the
  Gumbel-max trick from a ``torch.Generator`` of the caller (``act``), so a run owns its stream;
- **GAE per seat trajectory** (``gae``): a row's successor is the next decision of the same seat in
  the same game (``next_row``), not the next row of the buffer, so several seats' interleaved
  decisions each get their own returns;
- the **clipped objective**, the value loss (MSE to the GAE returns, unclipped as SB3's default),
  the masked entropy bonus, advantages normalised per minibatch, gradient norm clipped at 0.5,
  Adam with eps 1e-5: SB3's PPO step for step (``LeanPPO.update``).

``torch.set_num_threads`` is the caller's choice (``training.core_train --torch-threads``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces

__all__ = [
    "HUGE_NEG",
    "LeanPPO",
    "PPOSettings",
    "RolloutBatch",
    "act",
    "build_policy",
    "evaluate_actions",
    "gae",
    "save_model",
]

HUGE_NEG = -1e8  # sb3-contrib's MaskableCategorical fills illegal logits with this


@dataclass
class PPOSettings:
    """PPO's settings; the defaults are ``training.train.PPO_KWARGS``."""

    learning_rate: float = 3e-4
    batch_size: int = 256
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5


def build_policy(
    obs_space: spaces.Box, num_actions: int, net_arch: list[int], seed: int | None = None
) -> Any:
    """SB3's ``MaskableActorCriticPolicy`` for a flat observation in ``obs_space`` (the env's
    ``observation_space(agent)["observation"]``): what ``MaskablePPO("MlpPolicy")`` builds.
    ``seed`` fixes the initial weights without moving torch's global stream."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    with torch.random.fork_rng(devices=[]):
        if seed is not None:
            torch.manual_seed(seed)
        policy = MaskableActorCriticPolicy(
            obs_space, spaces.Discrete(num_actions), lambda _: 0.0, net_arch=list(net_arch)
        )
    policy.set_training_mode(False)
    return policy


def _forward(policy: Any, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Logits and values: the policy's own modules, without its distribution objects."""
    latent_pi, latent_vf = policy.mlp_extractor(obs)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def _masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(torch.where(mask, logits, torch.full_like(logits, HUGE_NEG)), dim=-1)


@torch.no_grad()
def act(
    policy: Any, obs: np.ndarray, mask: np.ndarray, generator: torch.Generator, deterministic: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Actions (int64), their log-probabilities and the values for a batch of observations and masks.

    Rows whose mask is empty (a game that just ended) get action 0 with a meaningless log-probability.
    """
    logits, values = _forward(policy, torch.from_numpy(obs))
    m = torch.from_numpy(mask)
    logp = _masked_log_probs(logits, m)
    if deterministic:
        actions = logp.argmax(dim=-1)
    else:
        # Gumbel-max: one uniform draw per logit from the caller's generator.
        u = torch.rand(logp.shape, generator=generator).clamp_(1e-20, 1.0)
        actions = (logp - torch.log(-torch.log(u))).argmax(dim=-1)
    chosen = logp.gather(1, actions.unsqueeze(1)).squeeze(1)
    return actions.numpy().astype(np.int64), chosen.numpy(), values.numpy()


def evaluate_actions(
    policy: Any, obs: torch.Tensor, mask_bias: torch.Tensor, actions: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Values, log-probabilities of ``actions`` and entropies under the masked policy, with
    gradients: SB3's ``policy.evaluate_actions(obs, actions, action_masks)`` without its
    distribution objects. ``mask_bias`` is 0 where legal and ``HUGE_NEG`` where not."""
    logits, values = _forward(policy, obs)
    logp_all = torch.log_softmax(logits + mask_bias, dim=-1)
    logp = logp_all.gather(1, actions.unsqueeze(1)).squeeze(1)
    return values, logp, -(logp_all.exp() * logp_all).sum(dim=-1)


@torch.no_grad()
def values_of(policy: Any, obs: np.ndarray) -> np.ndarray:
    _, values = _forward(policy, torch.from_numpy(obs))
    return values.numpy()


def gae(
    rewards: np.ndarray,
    values: np.ndarray,
    next_row: np.ndarray,
    done: np.ndarray,
    bootstrap: np.ndarray,
    gamma: float,
    lam: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns over (T, N) arrays of rows, each linked to its seat's next decision.

    Row ``(t, i)``'s successor is ``(next_row[t, i], i)`` (always a later ``t``), or ``-1``: then the
    trajectory ends there, with value 0 if ``done`` (the game ended) and else ``bootstrap[t, i]``
    (the value of the seat's view where the rollout or a truncation cut it). Rows that are not
    decisions of a trained seat are never anyone's successor and their results are ignored.
    """
    steps, n = rewards.shape
    adv = np.zeros((steps, n), dtype=np.float32)
    cols = np.arange(n)
    linked = next_row >= 0
    safe_next = np.where(linked, next_row, 0)
    for t in range(steps - 1, -1, -1):
        nxt = safe_next[t]
        next_value = np.where(linked[t], values[nxt, cols], np.where(done[t], 0.0, bootstrap[t]))
        delta = rewards[t] + gamma * next_value - values[t]
        adv[t] = delta + gamma * lam * np.where(linked[t], adv[nxt, cols], 0.0)
    return adv, adv + values


@dataclass
class RolloutBatch:
    """The trained rows of a rollout, flat: what ``LeanPPO.update`` fits."""

    observations: np.ndarray  # float32 (n, obs)
    masks: np.ndarray  # bool (n, A)
    actions: np.ndarray  # int64 (n,)
    log_probs: np.ndarray  # float32 (n,)
    advantages: np.ndarray  # float32 (n,)
    returns: np.ndarray  # float32 (n,)
    values: np.ndarray  # float32 (n,)

    def __len__(self) -> int:
        return len(self.actions)


class LeanPPO:
    """PPO's update over a policy from :func:`build_policy` (module docstring)."""

    def __init__(self, policy: Any, settings: PPOSettings) -> None:
        self.policy = policy
        self.settings = settings
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=settings.learning_rate, eps=1e-5)

    def update(self, batch: RolloutBatch, rng: np.random.Generator) -> dict[str, float]:
        """``n_epochs`` passes of minibatches over ``batch`` (shuffled by ``rng``); mean losses."""
        s = self.settings
        policy = self.policy
        policy.set_training_mode(True)
        obs = torch.from_numpy(batch.observations)
        # Illegal logits pushed to -1e8 by one add (as good as sb3-contrib's fill: their softmax
        # weight is exactly 0 either way), built once for the whole rollout.
        mask_bias = torch.from_numpy(np.where(batch.masks, np.float32(0), np.float32(HUGE_NEG)))
        actions = torch.from_numpy(batch.actions)
        old_logp = torch.from_numpy(batch.log_probs)
        adv_all = torch.from_numpy(batch.advantages)
        returns = torch.from_numpy(batch.returns)
        n = len(batch)
        stats: list[torch.Tensor] = []
        for _ in range(s.n_epochs):
            order = torch.from_numpy(rng.permutation(n))
            # One gather per epoch, then each minibatch is a contiguous view (no copy per minibatch).
            e_obs, e_bias, e_act, e_old, e_adv, e_ret = (
                x[order] for x in (obs, mask_bias, actions, old_logp, adv_all, returns)
            )
            for start in range(0, n, s.batch_size):
                mb = slice(start, start + s.batch_size)
                values, logp, entropies = evaluate_actions(policy, e_obs[mb], e_bias[mb], e_act[mb])
                entropy = entropies.mean()
                adv = e_adv[mb]
                if len(adv) > 1:  # SB3 normalises per minibatch, skipping a minibatch of one
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - e_old[mb])
                clipped = torch.clamp(ratio, 1 - s.clip_range, 1 + s.clip_range)
                policy_loss = -torch.min(adv * ratio, adv * clipped).mean()
                value_loss = torch.nn.functional.mse_loss(e_ret[mb], values)
                loss = policy_loss + s.vf_coef * value_loss - s.ent_coef * entropy
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), s.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    clip_frac = ((ratio - 1).abs() > s.clip_range).float().mean()
                    stats.append(torch.stack([policy_loss, value_loss, entropy, clip_frac, loss]))
        policy.set_training_mode(False)
        means = torch.stack(stats).mean(dim=0).tolist() if stats else [float("nan")] * 5
        return dict(
            zip(("policy_loss", "value_loss", "entropy", "clip_fraction", "loss"), means, strict=True)
        )


def save_model(policy: Any, path: str | Path, settings: PPOSettings) -> Path:
    """Save ``policy`` as a MaskablePPO zip (``MaskablePPO.load`` and ``make_agent("ppo", path=...)``
    read it); the model around it carries ``settings``. No global random stream moves (no seed is
    given, and the throw-away initial weights are drawn under a forked torch stream)."""
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    class _Spaces(gymnasium.Env):
        observation_space = policy.observation_space
        action_space = policy.action_space

    with torch.random.fork_rng(devices=[]):
        model = MaskablePPO(
            "MlpPolicy",
            DummyVecEnv([_Spaces]),
            n_steps=max(2, settings.batch_size),
            batch_size=settings.batch_size,
            n_epochs=settings.n_epochs,
            learning_rate=settings.learning_rate,
            gamma=settings.gamma,
            gae_lambda=settings.gae_lambda,
            clip_range=settings.clip_range,
            ent_coef=settings.ent_coef,
            vf_coef=settings.vf_coef,
            max_grad_norm=settings.max_grad_norm,
            policy_kwargs={"net_arch": _net_arch(policy)},
            device="cpu",
        )
    model.policy.load_state_dict(policy.state_dict())
    path = Path(path)
    model.save(path)
    return path


def _net_arch(policy: Any) -> list[int]:
    return [m.out_features for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
