"""The network-guided search (``mcts:guide=ppo``, ``agents.puct``): legal, reproducible, led by its
network, strict about its options; and the ppo agent's value head on its numpy copy."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gameplay import play_game

import mystic_envs
from agents import make_agent
from agents.puct import PUCTAgent, _Node


@pytest.mark.parametrize("env_id", ["elemystic_v0", "mystria_v0"])
@pytest.mark.parametrize("engine", ["auto", "python"])
def test_plays_legal_full_games_from_both_seats(env_id, engine):
    guided = make_agent("mcts", env_id, seed=0, guide="ppo", simulations=8, engine=engine)
    assert isinstance(guided, PUCTAgent)
    for players in (
        (guided, make_agent("random", env_id, seed=0)),
        (make_agent("random", env_id, seed=0), guided),
    ):
        rewards, _ = play_game(env_id, players, 1)
        assert sorted(rewards.values()) == [-1.0, 1.0]


def test_reproducible_from_its_seed():
    def game(seed: int) -> list[int]:
        guided = make_agent("mcts", "mystria_v0", seed=seed, guide="ppo", simulations=16)
        return play_game("mystria_v0", (guided, make_agent("random", "mystria_v0", seed=1)), 2)[1]

    assert game(5) == game(5)


def test_one_simulation_evaluates_the_root_and_two_follow_the_prior():
    env = mystic_envs.make("elemystic_v0")
    env.reset(seed=3)
    agent = make_agent("mcts", "elemystic_v0", seed=0, guide="ppo", simulations=1)
    state = env.unwrapped.game_state
    root = _Node(state.current_player)
    agent._walk(root, state.determinize(state.current_player, agent.rng))
    assert root.prior is not None and not root.children
    np.testing.assert_allclose(root.prior.sum(), 1.0)
    agent._walk(root, state.determinize(state.current_player, agent.rng))
    legal = state.legal_actions()
    # With no visits yet, the first child taken is the legal action of highest prior.
    assert list(root.children) == [max(legal, key=lambda a: root.prior[a])]


def test_value_head_on_numpy_matches_torch():
    agent = make_agent("ppo", "mystria_v0")
    env = mystic_envs.make("mystria_v0")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)["observation"]
    with torch.no_grad():
        expected = float(agent.policy.predict_values(torch.as_tensor(obs).reshape(1, -1))[0, 0])
    assert agent._critic is not None
    assert agent.value(obs) == pytest.approx(expected, abs=1e-5)


def test_bad_guide_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown guide 'value'; the network-guided search knows 'ppo'"):
        make_agent("mcts", "elemystic_v0", guide="value")
