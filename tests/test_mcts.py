"""The information-set MCTS agent: legal, reproducible, strong against random, blind to hidden
state, bounded in time, strict about its options."""

from __future__ import annotations

import pickle
import time
from types import SimpleNamespace

import numpy as np
import pytest
from gameplay import play_game

import mystic_envs
from agents import AGENT_NAMES, make_agent
from agents.mcts import MCTSAgent

ENV_ID = "elemystic_v0"


def play(players: tuple, seed: int) -> tuple[dict[str, float], list[int]]:
    return play_game(ENV_ID, players, seed)


def random_agent(seed: int):
    return make_agent("random", ENV_ID, seed=seed)


def test_mcts_is_registered():
    assert "mcts" in AGENT_NAMES
    agent = make_agent("mcts", ENV_ID, seed=0, simulations=7, rollout="heuristic", c=0.5)
    assert isinstance(agent, MCTSAgent)
    assert (agent.simulations, agent.rollout, agent.c) == (7, "heuristic", 0.5)


@pytest.mark.parametrize(
    "kw", [{}, {"rollout": "heuristic"}, {"rollout_depth": 4}, {"rollout": "heuristic", "rollout_depth": 0}]
)
def test_plays_legal_full_games_from_both_seats(kw):
    for seed in range(2):
        mcts = make_agent("mcts", ENV_ID, seed=seed, simulations=20, **kw)
        for players in ((mcts, random_agent(seed)), (random_agent(seed), mcts)):
            rewards, _ = play(players, seed)
            assert sorted(rewards.values()) == [-1.0, 1.0]


def test_reproducible_from_its_seed():
    def game(agent_seed: int) -> list[int]:
        mcts = make_agent("mcts", ENV_ID, seed=agent_seed, simulations=30)
        return play((mcts, random_agent(1)), seed=3)[1]

    assert game(11) == game(11)
    agent = make_agent("mcts", ENV_ID, simulations=30)
    agent.seed(11)
    assert play((agent, random_agent(1)), seed=3)[1] == game(11)


def test_beats_random_from_both_seats():
    wins = 0
    for seed in range(20):
        for seat in (0, 1):
            players = [random_agent(seed)] * 2
            players[seat] = make_agent("mcts", ENV_ID, seed=seed, simulations=200)
            wins += play(tuple(players), seed)[0][f"player_{seat}"] > 0
    assert wins >= 36, f"mcts won only {wins} of 40 games against random"


def fake_env(state) -> SimpleNamespace:
    """Just what a search agent may read of an env: the state (to determinize) and the seats."""
    seats = {"player_0": 0, "player_1": 1}
    return SimpleNamespace(
        unwrapped=SimpleNamespace(game_state=state, agent_name_mapping=seats, metadata={"name": ENV_ID})
    )


def test_choice_depends_only_on_what_the_player_sees():
    rng = np.random.default_rng(0)
    compared = hidden_differed = 0
    for seed in range(12):
        state = mystic_envs.make_raw(ENV_ID).game.new_initial_state(seed)
        for _ in range(int(rng.integers(3, 30))):
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
            if state.is_terminal:
                break
        if state.is_terminal or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        other_truth = state.determinize(seat, np.random.default_rng(seed + 100))
        hidden_differed += not np.array_equal(other_truth.observation(1 - seat), state.observation(1 - seat))
        before = pickle.dumps(state)
        choices = [
            MCTSAgent(simulations=60, seed=seed).act(fake_env(s), f"player_{seat}")
            for s in (state, other_truth)
        ]
        assert choices[0] == choices[1]
        assert pickle.dumps(state) == before, "act() changed the true state"
        compared += 1
    assert compared >= 8 and hidden_differed >= 2


def test_time_budget_caps_the_search():
    env = mystic_envs.make(ENV_ID)
    env.reset(seed=0)
    agent = MCTSAgent(simulations=10**9, time_budget=0.05, seed=0)
    start = time.perf_counter()
    action = agent.act(env, env.agent_selection)
    assert time.perf_counter() - start < 1.0
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[action] == 1
    # A zero budget still runs one iteration, so there is always a searched answer.
    assert mask[MCTSAgent(time_budget=0, seed=0).act(env, env.agent_selection)] == 1


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"simulations": 0}, "simulations must be an int >= 1"),
        ({"simulations": 2.5}, "simulations must be an int >= 1"),
        ({"simulations": True}, "simulations must be an int >= 1"),
        ({"time_budget": -0.1}, "time_budget must be None or a number of seconds >= 0"),
        ({"time_budget": "1s"}, "time_budget must be None or a number"),
        ({"rollout": "greedy"}, r"unknown rollout 'greedy'.*random.*heuristic"),
        ({"rollout_depth": -1}, "rollout_depth must be None or an int >= 0"),
        ({"c": -1.0}, "c must be a number >= 0"),
        ({"rollout": "heuristic"}, r"needs an env_id.*None.*elemystic_v0"),
        ({"rollout": "heuristic", "env_id": "chess_v0"}, r"needs an env_id.*'chess_v0'.*elemystic_v0"),
    ],
)
def test_bad_options_are_clear_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        MCTSAgent(**kw)


def test_acting_out_of_turn_or_after_the_end_is_a_clear_error():
    env = mystic_envs.make(ENV_ID)
    env.reset(seed=0)
    idle = next(a for a in env.agents if a != env.agent_selection)
    with pytest.raises(ValueError, match=f"{idle} is not to move"):
        MCTSAgent(simulations=5).act(env, idle)
    while not env.unwrapped.game_state.is_terminal:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(ValueError, match="the game is over"):
        MCTSAgent(simulations=5).act(env.unwrapped, "player_0")


def test_each_node_holds_the_returns_of_the_seat_that_moved_into_it_at_three_players(monkeypatch):
    # The race fixture (tests/multiplayer_toy.py): the next seat wins with any card it plays, the
    # searcher cannot win this turn and trails the third seat. Backed up per seat, the next seat's card
    # moves are worth +1 to it, while the searcher's own moves are worth about -1 to the searcher.
    import multiplayer_toy

    from agents.mcts import _Node

    toy = multiplayer_toy.register(monkeypatch)
    env = mystic_envs.make(toy, num_players=3)
    env.reset(seed=0)
    state = env.unwrapped.game_state
    seat = state.current_player
    nxt = (seat + 1) % 3
    state.positions[:] = 0
    state.positions[nxt] = 9
    state.positions[(seat + 2) % 3] = 5
    state.hands[seat] = [1, 1, 1]
    agent = MCTSAgent(simulations=1, seed=0, env_id=toy)
    root = _Node(seat)
    for _ in range(400):
        agent._iterate(root, state.determinize(seat, agent.rng))
    assert set(root.children) == {0, 1, 2, multiplayer_toy.ROLL}
    for child in root.children.values():
        assert child.player == seat and child.value / child.visits < -0.5
        cards = [g for a, g in child.children.items() if a != multiplayer_toy.ROLL]
        assert cards and all(g.player == nxt and g.value == g.visits for g in cards)
