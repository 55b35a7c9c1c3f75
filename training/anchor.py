"""MaskablePPO with an anchor to the heuristic's advice, for residual policies (``agents.advice``).

An advised policy starts as the heuristic; plain PPO on a +1/-1 result then moves it by noise as
much as by signal, and at a learning rate high enough to find anything it drifts away from the
heuristic faster than it finds a departure that wins (README, "Training"). The anchor pulls back:
after every PPO update, one pass over the same rollout minimises ``anchor`` times the
cross-entropy of the masked policy against the advised action, on every position that had advice.
A departure survives only where PPO's advantage keeps pushing it harder than the anchor pulls, the
way behaviour-cloning terms keep demonstration-augmented policy gradients near their teacher.

The pass shares the policy's Adam optimizer and gradient clipping, so ``anchor`` weighs its
gradients against PPO's inside Adam's running moments. While ``training.train --critic-warmup``
freezes the actor there is nothing to anchor, and the pass is skipped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

__all__ = ["AnchoredMaskablePPO"]


class AnchoredMaskablePPO(MaskablePPO):
    """``MaskablePPO`` whose every update ends with a pass toward the advice (module docstring).

    ``anchor`` (>= 0) is saved with the model, so ``AnchoredMaskablePPO.load`` resumes with it.
    The policy must be an ``agents.advice.AdvisedPolicy``.
    """

    def __init__(self, *args: Any, anchor: float = 0.0, **kwargs: Any) -> None:
        if isinstance(anchor, bool) or not isinstance(anchor, (int, float)) or not 0 <= anchor < np.inf:
            raise ValueError(f"anchor must be a finite number >= 0, got {anchor!r}")
        self.anchor = float(anchor)
        super().__init__(*args, **kwargs)

    def _setup_model(self) -> None:
        super()._setup_model()
        from agents.advice import is_advised

        if not is_advised(self.policy):
            raise ValueError("an anchor needs an advised policy (agents.advice.AdvisedPolicy)")

    def train(self) -> None:
        super().train()
        if self.anchor and self.policy.action_net.weight.requires_grad:
            self.logger.record("train/anchor_loss", self._anchor_pass())

    def _anchor_pass(self) -> float:
        """One pass over the rollout toward the advised actions; returns the mean cross-entropy."""
        n = int(self.action_space.n)
        losses = []
        for data in self.rollout_buffer.get(self.batch_size):
            advice = data.observations[:, -n:]
            # A row without advice would pull toward action 0 (none is expected: SB3 stores no
            # observation after an episode's end).
            advised = advice.sum(dim=1) > 0
            if not advised.any():
                continue
            distribution = self.policy.get_distribution(
                data.observations[advised], action_masks=data.action_masks[advised]
            )
            cross_entropy = -distribution.log_prob(advice[advised].argmax(dim=1)).mean()
            self.policy.optimizer.zero_grad()
            (self.anchor * cross_entropy).backward()
            torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
            self.policy.optimizer.step()
            losses.append(cross_entropy.item())
        return float(np.mean(losses)) if losses else 0.0
