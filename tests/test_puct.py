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


def _reference_walk(agent: PUCTAgent, root: _Node, state) -> None:
    """The module docstring's iteration written plainly on numpy (the search as first shipped): the
    oracle the search's own walk must match number for number."""
    node, path = root, []
    while True:
        if state.is_terminal:
            values = state.returns()
            break
        if node.prior is None:
            obs = state.observation(state.current_player)
            node.prior = agent.net.action_probabilities(obs, np.ones(state.game.num_actions, dtype=bool))
            v = float(np.clip(agent.net.value(obs), -1.0, 1.0))
            n = state.game.num_players
            values = np.full(n, -v / max(1, n - 1))
            values[state.current_player] = v
            break
        legal = state.legal_actions()
        prior = node.prior[legal]
        prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(legal), 1.0 / len(legal))
        visits = [node.children[a].visits if a in node.children else 0 for a in legal]
        scale = agent.c * np.sqrt(1 + sum(visits))
        best, best_score = legal[0], -np.inf
        for a, p, n in zip(legal, prior, visits, strict=True):
            score = (node.children[a].value / n if n else 0.0) + scale * p / (1 + n)
            if score > best_score:
                best, best_score = a, score
        node = node.children.setdefault(best, _Node(state.current_player))
        state.apply(best)
        path.append(node)
    for n in path:
        n.visits += 1
        n.value += float(values[n.player])


def _tree(node: _Node) -> tuple:
    return (node.player, node.visits, node.value, sorted((a, _tree(c)) for a, c in node.children.items()))


@pytest.mark.parametrize(
    ("env_id", "num_players"),
    [("elemystic_v0", 2), ("mystria_v0", 2), ("tarot_dice_v0", 2), ("mystick_domination_v0", 3)],
)
def test_the_walk_builds_the_tree_the_formula_gives_exactly(env_id, num_players):
    # Same determinizations, same network: every visit count and every summed value equal, to the
    # last bit, in positions taken along a game (the walk's Python floats against numpy's float64).
    env = mystic_envs.make(env_id, num_players=num_players)
    env.reset(seed=5)
    agent = make_agent("mcts", env_id, seed=0, guide="ppo", num_players=num_players)
    mover = make_agent("random", env_id, seed=1)
    compared = 0
    for step, agent_id in enumerate(env.agent_iter()):
        if env.terminations[agent_id] or env.truncations[agent_id] or compared == 4:
            break
        state = env.unwrapped.game_state
        if step % 3 == 0 and len(state.legal_actions()) > 1:
            seat = state.current_player
            ours, theirs = _Node(seat), _Node(seat)
            for i in range(48):
                agent._walk(ours, state.determinize(seat, np.random.default_rng(i)))
                _reference_walk(agent, theirs, state.determinize(seat, np.random.default_rng(i)))
            assert _tree(ours) == _tree(theirs)
            assert np.array_equal(ours.prior, theirs.prior)
            compared += 1
        env.step(mover.act(env, agent_id))
    assert compared == 4


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
