"""Stable-Baselines3 recipes of docs/clients.md: MaskablePPO on the Gymnasium-registered one-seat
view, and PettingZoo's SB3 self-play tutorial wrapper with the ``gymnasium.Env`` mixin.

``check_env`` (Gymnasium's and SB3's) runs in ``tests/conformance/test_single_agent.py``.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo.utils
import pytest

import mystic_envs

from .recipes import CASES, run_recipe

pytest.importorskip("sb3_contrib", reason="the train extra is not installed")

from sb3_contrib.common.maskable.utils import get_action_masks
from sb3_contrib.common.wrappers import ActionMasker

# The one-seat view's Box is unbounded, as SB3's checker notes; it is not a fault.
pytestmark = pytest.mark.filterwarnings("ignore:.*Box observation space")


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_maskable_ppo_on_gymnasium_make(env_id: str, n: int) -> None:
    ns = run_recipe("Gymnasium and Stable-Baselines3 (one learning seat)", env_id, n)
    model, env = ns["model"], ns["env"]
    assert model.num_timesteps == 256
    assert env.spec.id == mystic_envs.gym_id(env_id)
    # The trained model plays a whole game through Gymnasium's wrappers, masks included.
    obs, info = env.reset(seed=5)
    terminated = truncated = False
    while not (terminated or truncated):
        action, _ = model.predict(obs, action_masks=get_action_masks(env))
        obs, reward, terminated, truncated, info = env.step(action)
    names = env.unwrapped.aec_env.info_names["end_reason"]
    assert names[info["end_reason"]] == "game over", f"the game ended by {names[info['end_reason']]}"
    assert -1.0 <= reward <= 1.0


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_pettingzoo_sb3_tutorial_wrapper_needs_the_gymnasium_mixin(env_id: str, n: int) -> None:
    ns = run_recipe("Stable-Baselines3 self-play (PettingZoo's SB3 tutorial)", env_id, n)
    assert ns["model"].num_timesteps == 256
    wrapper = ns["SB3ActionMaskWrapper"]
    assert issubclass(wrapper, gymnasium.Env)

    # Without the mixin, sb3-contrib's ActionMasker (a gymnasium.Wrapper) refuses the env.
    class WithoutMixin(pettingzoo.utils.BaseWrapper):
        pass

    with pytest.raises(AssertionError, match=r"Expected env to be a `gymnasium\.Env`"):
        ActionMasker(WithoutMixin(mystic_envs.make(env_id, num_players=n)), lambda env: None)

    # The wrapper hands SB3 the mover's observation and mask, and the mover's own reward.
    env = wrapper(mystic_envs.make(env_id, num_players=n, illegal_action="raise"))
    rng = np.random.default_rng(1)
    # A game whose last mover ends with a reward other than 0 (at 3 players the middle place gets 0).
    for seed in range(1, 30):
        obs, _ = env.reset(seed=seed)
        total = 0.0
        terminated = truncated = False
        while not (terminated or truncated):
            raw = env.unwrapped
            mover = raw.agent_selection
            np.testing.assert_array_equal(obs, raw.observe(mover)["observation"])
            np.testing.assert_array_equal(env.action_mask(), raw.observe(mover)["action_mask"])
            action = int(rng.choice(np.flatnonzero(env.action_mask())))
            obs, reward, terminated, truncated, _ = env.step(action)
            total += abs(reward)
        if total > 0:
            break
    assert total > 0, "the last mover's final reward never reached SB3 (seeds 1-29)"

    # At 3-5 players a seat can be eliminated mid-game, by its own move or by another seat's: SB3 is
    # always handed a live seat to move (an eliminated one has no legal action).
    left_by_another = 0
    # Mystic Vale eliminates nobody and its games are 400-600 steps: a few games check the movers.
    for seed in range(2, 6 if env_id == "mystic_vale_v0" else 42):
        env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            mover = raw.agent_selection
            assert not (raw.terminations[mover] or raw.truncations[mover]), f"{mover} is out but to move"
            before = set(raw.agents)
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
            left_by_another += len(before - set(raw.agents) - {mover})
    if n > 2 and env_id == "mystick_domination_v0":
        assert left_by_another > 0, "no seat was eliminated by another seat's move"
