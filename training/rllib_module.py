"""RLlib RLModules (new API stack) for mystic-envs: a masked PPO actor-critic and a masked random player.

Both read the env's dict observation, ``{"observation": float32 (N,), "action_mask": int8 (A,)}``.
:class:`MaskedPPOModule` puts the most negative *finite* logit on every illegal action, so the
Categorical distribution RLlib builds from ``Columns.ACTION_DIST_INPUTS`` gives those actions
probability exactly 0 (``exp`` underflows) while PPO's log-probabilities, KL and entropy stay finite
(``-inf`` would make them NaN). :class:`MaskedRandomModule` draws its actions among the legal ones.

The classes live in an importable module, not in a script, because RLlib pickles a module's class by
reference into every checkpoint: ``Algorithm.from_checkpoint`` works on any machine with mystic-envs
installed, once ``training.rllib_env.register_envs()`` has registered the envs in that process.
``agents.rllib`` reads the weights of :class:`MaskedPPOModule` from a checkpoint without Ray; it
relies on the layout documented there (``pi.<i>`` and ``vf.<i>`` linear layers with tanh between
them), so change one only together with the other.
"""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import InferenceOnlyAPI, ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

__all__ = ["DEFAULT_HIDDEN", "MaskedPPOModule", "MaskedRandomModule", "masked_logits"]

# The same network size as training.train's MaskablePPO (POLICY_KWARGS), so the two compare fairly.
DEFAULT_HIDDEN = (128, 128)


def masked_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action whose mask entry is 0 set to the dtype's most negative value."""
    return torch.where(action_mask.bool(), logits, torch.finfo(logits.dtype).min)


def _check_spaces(module: str, observation_space: gym.Space, action_space: gym.Space) -> None:
    if not (
        isinstance(observation_space, gym.spaces.Dict)
        and {"observation", "action_mask"} <= set(observation_space.spaces)
        and isinstance(action_space, gym.spaces.Discrete)
    ):
        raise ValueError(
            f"{module} needs Dict(observation=Box, action_mask=Box) observations and Discrete actions, "
            f"got {observation_space} and {action_space}"
        )


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(n_in, n_out))
        if i < len(sizes) - 2:
            layers.append(nn.Tanh())
    return nn.Sequential(*layers)


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI, InferenceOnlyAPI):
    """Separate tanh MLPs for the policy (``pi``) and the value (``vf``) over ``observation``.

    ``model_config={"hidden": (128, 128)}`` sets both networks' hidden sizes. On env runners
    (``inference_only``) the value network is not built, so only the policy's weights travel there.
    """

    def setup(self) -> None:
        _check_spaces(type(self).__name__, self.observation_space, self.action_space)
        hidden = [int(h) for h in (self.model_config or {}).get("hidden", DEFAULT_HIDDEN)]
        obs_size = int(self.observation_space["observation"].shape[0])
        self.pi = _mlp([obs_size, *hidden, int(self.action_space.n)])
        self.vf = _mlp([obs_size, *hidden, 1])

    def get_non_inference_attributes(self) -> list[str]:
        return ["vf"]

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: masked_logits(self.pi(obs["observation"]), obs["action_mask"])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        return self.vf(batch[Columns.OBS]["observation"]).squeeze(-1)


class MaskedRandomModule(RLModule):
    """Uniform over the legal actions, drawn from its own seeded generator; has nothing to train.

    The opponent in matches inside RLlib; list it outside ``policies_to_train``. Deliberately not a
    torch module: RLlib's torch learner builds an optimizer for every torch module, and one with no
    parameters makes it fail.
    """

    def setup(self) -> None:
        _check_spaces(type(self).__name__, self.observation_space, self.action_space)
        # RLlib seeds every worker's global numpy stream from config.seed and the worker index, so a
        # seed drawn from it repeats with a seeded run and differs between env runners.
        self._rng = np.random.default_rng(np.random.randint(2**31))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        masks = np.asarray(batch[Columns.OBS]["action_mask"]).astype(bool)
        return {Columns.ACTIONS: np.array([self._rng.choice(np.flatnonzero(m)) for m in masks])}
