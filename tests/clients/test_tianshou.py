"""Tianshou's PettingZooEnv wrapper, collector and off-policy trainer (the docs/clients.md recipe:
a masked DQN for player_0, masked random play for the other seats)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import mystic_envs

from .recipes import CASES, run_recipe

pytest.importorskip("tianshou", reason="the clients extra is not installed")

from tianshou.algorithm import (
    MARLRandomDiscreteMaskedOffPolicyAlgorithm,
    MultiAgentOffPolicyAlgorithm,
)
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

# Tianshou's own notes: its statistics flatten our per-seat returns, and it warns on PettingZoo > 1.24.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Sequence has shape"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


def assert_buffer_holds_the_schema(buffer, env) -> None:
    """Every stored transition: numeric infos with the schema's keys and no NaN (the padding that
    Tianshou's MalformedBufferError reported when keys came and went), legal actions, and
    ``game_over`` set exactly where Tianshou saw an episode end."""
    data = buffer[buffer.sample_indices(0)]  # 0: every stored transition (each env has its own segment)
    schema = [field.name for field in env.env.unwrapped.info_schema]
    # Tianshou's vector env adds the index of the env that played each transition.
    assert sorted(data.info.get_keys()) == sorted([*schema, "env_id"])
    for name in schema:
        values = np.asarray(data.info[name], dtype=np.float64)
        assert not np.isnan(values).any(), f"NaN in info[{name!r}]"
    for key in ("obs", "mask"):
        assert not np.isnan(np.asarray(data.obs[key], dtype=np.float64)).any(), f"NaN in obs.{key}"
    assert np.all(data.obs.mask[np.arange(len(data)), data.act]), "an action outside its mask was stored"
    ended = data.terminated | data.truncated
    np.testing.assert_array_equal(np.asarray(data.info.game_over, dtype=bool), ended)


@functools.cache
def recipe(env_id: str, n: int) -> dict[str, Any]:
    """The recipe's names for one case, run once for the tests that read them."""
    return run_recipe("Tianshou", env_id, n)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_dqn_trains_through_tianshous_trainer(env_id: str, n: int) -> None:
    ns = recipe(env_id, n)
    result = ns["result"]
    assert result.train_step >= 300
    assert result.update_step > 0, "the trainer made no gradient step"
    assert result.test_episode >= 1
    collector = ns["train_collector"]
    assert len(collector.buffer) > 0
    assert_buffer_holds_the_schema(collector.buffer, ns["env"])


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_collector_plays_whole_zero_sum_games(env_id: str, n: int) -> None:
    # The recipe's env: its StepEliminated wrapper lets a game with an elimination play on.
    make_env = recipe(env_id, n)["make_env"]
    env = make_env()
    seats = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=seats, env=env)
    envs = DummyVectorEnv([make_env, make_env])
    envs.seed(3)
    collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(5_000, len(envs)))
    collector.reset()
    stats = collector.collect(n_episode=4)
    assert stats.n_collected_episodes == 4
    returns = np.asarray(stats.returns)
    assert returns.shape == (4, n), "one return per seat per episode"
    np.testing.assert_allclose(returns.sum(axis=1), 0.0, atol=1e-6, err_msg="a game was not zero-sum")
    assert np.all(np.abs(returns) <= 1.0)
    assert_buffer_holds_the_schema(collector.buffer, env)
    # Played to the end: every episode ends by the rules.
    data = collector.buffer[collector.buffer.sample_indices(0)]
    ended = data.terminated | data.truncated
    assert ended.sum() == 4
    game_over = env.env.unwrapped.info_names["end_reason"].index("game over")
    assert np.all(np.asarray(data.info.end_reason)[ended] == game_over)


@pytest.mark.skipif(
    "mystick_domination_v0" not in mystic_envs.ENV_IDS, reason="Mystick Domination is not registered"
)
def test_tianshous_own_wrapper_ends_the_episode_at_the_first_elimination() -> None:
    """Why the recipe wraps the env: Tianshou's PettingZooEnv returns ``env.last()`` of the agent
    to move, and an eliminated seat is handed the move (for its ``step(None)``) while the game goes on."""
    env = PettingZooEnv(mystic_envs.make("mystick_domination_v0", num_players=3, illegal_action="raise"))
    rng = np.random.default_rng(0)
    # Most random games end with the pool, not an elimination: the first deal whose episode ends at
    # an elimination while the game goes on.
    for seed in range(60):
        obs, _ = env.reset(seed=seed)
        terminated = False
        while not terminated:
            obs, rewards, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["mask"]))))
            assert not truncated
        raw = env.env.unwrapped
        if not raw.game_state.is_terminal:
            break
    assert not raw.game_state.is_terminal, "no random game of seeds 0-59 had a seat eliminated first"
    seat = raw.agent_name_mapping[obs["agent_id"]]
    assert raw.game_state.player_done(seat) and info["game_over"] == 1
    # Only the eliminated seat's reward is paid: the episode is not zero-sum.
    assert rewards[seat] < 0 and sum(rewards) != 0
