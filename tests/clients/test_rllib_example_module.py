"""RLlib's own PettingZooEnv wrapper with RLlib's example masking module (ActionMaskingTorchRLModule),
through the docs/clients.md rename of ``observation`` to the ``observations`` key it expects.

Training through RLlib's PettingZooEnv (subclassed with an action audit, and with the project's
MaskedPPOModule, which reads our keys as they are) runs in ``tests/test_rllib.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs

from .recipes import CASES, run_recipe

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed")

import torch
from ray.rllib.core.columns import Columns

# RLlib's example module still builds on its deprecated PPOTorchRLModule and RLModuleConfig.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_example_masking_module_plays_legal_games(env_id: str, n: int) -> None:
    ns = run_recipe("Ray RLlib", env_id, n)  # illegal_action="raise": one unmasked move fails here
    env, module, returns = ns["env"], ns["module"], ns["returns"]
    assert len(returns) == 3
    for game in returns:
        values = np.array([game[agent] for agent in env.possible_agents])
        assert abs(values.sum()) < 1e-9 and np.all(np.abs(values) <= 1.0), game

    # The renamed observation is the env's own, and the module gives every illegal action
    # (and only those) a vanishing logit.
    observations, _ = env.reset(seed=11)
    ((agent, obs),) = observations.items()
    raw = mystic_envs.make(env_id, num_players=n)
    raw.reset(seed=11)
    np.testing.assert_array_equal(obs["observations"], raw.observe(agent)["observation"])
    np.testing.assert_array_equal(obs["action_mask"], raw.observe(agent)["action_mask"])
    batch = {Columns.OBS: {key: torch.as_tensor(value[None]) for key, value in obs.items()}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    legal = torch.as_tensor(obs["action_mask"]).bool()
    assert torch.all(logits[~legal] < -1e30) and torch.all(logits[legal] > -1e30)

    # The training config names the example module for a shared policy.
    spec = ns["config"].rl_module_spec
    assert spec.rl_module_specs["shared"].module_class is ns["ActionMaskingTorchRLModule"]
