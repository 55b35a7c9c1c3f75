"""The agents package: one protocol, clear errors, legal and sensible play."""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import play_game

import agents
import mystic_envs
from agents import make_agent

# Search agents at a few simulations keep the many games below quick; their strength is tested apart.
FAST_KWARGS = {"mcts": {"simulations": 20}}


def play(env_id: str, names: tuple[str, str], seed: int) -> dict[str, float]:
    made = [make_agent(n, env_id, seed=seed, **FAST_KWARGS.get(n, {})) for n in names]
    return play_game(env_id, made, seed)[0]


# "human" reads the terminal; tests/test_human.py scripts it.
AUTOMATIC = [n for n in agents.AGENT_NAMES if n != "human"]


@pytest.mark.parametrize("name", AUTOMATIC)
def test_every_agent_plays_legal_games_to_the_end(name):
    for seed in range(20):
        rewards = play("elemystic_v0", (name, "random"), seed)
        assert sorted(rewards.values()) == [-1.0, 1.0]


def test_heuristic_beats_random_from_both_seats():
    wins = 0
    for seed in range(100):
        wins += play("elemystic_v0", ("heuristic", "random"), seed)["player_0"] > 0
        wins += play("elemystic_v0", ("random", "heuristic"), seed)["player_1"] > 0
    assert wins >= 180


def test_agents_are_reproducible_from_their_seed():
    a = [play("elemystic_v0", ("heuristic", "random"), 5) for _ in range(2)]
    assert a[0] == a[1]


def test_every_agent_satisfies_the_protocol():
    for name in agents.AGENT_NAMES:
        assert isinstance(make_agent(name, "elemystic_v0", seed=0), agents.Agent)


# Only Elemystic ships an RLlib policy.
OUT_OF_TURN = [
    (name, env_id)
    for name in AUTOMATIC
    for env_id in ("elemystic_v0", "mystria_v0", "tarot_dice_v0")
    if name != "rllib" or env_id == "elemystic_v0"
]


@pytest.mark.parametrize(("name", "env_id"), OUT_OF_TURN)
def test_an_agent_asked_to_move_out_of_turn_raises(name, env_id):
    env = mystic_envs.make(env_id)
    env.reset(seed=0)
    idle = next(a for a in env.agents if a != env.agent_selection)
    with pytest.raises(ValueError, match=f"{idle}"):
        make_agent(name, env_id, seed=0, **FAST_KWARGS.get(name, {})).act(env, idle)


def test_unknown_agent_or_env_names_are_clear_errors():
    with pytest.raises(ValueError, match=r"unknown agent 'alphazero'.*random"):
        make_agent("alphazero", "elemystic_v0")
    with pytest.raises(ValueError, match="unknown env id 'chess_v0'"):
        make_agent("random", "chess_v0")
    with pytest.raises(ValueError, match="planned but not implemented"):
        make_agent("heuristic", "mystic_vale_v0")


def test_importing_agents_registers_opponents_for_single_agent():
    env = mystic_envs.single_agent("elemystic_v0", opponent="heuristic", seat=0)
    env.reset(seed=0)
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, reward, terminated, truncated, _ = env.step(int(legal[0]))
        done = terminated or truncated
    assert reward in (-1.0, 1.0)


def test_the_ppo_agent_without_the_train_extra_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "agents.ppo", raising=False)
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    with pytest.raises(ModuleNotFoundError, match=r"needs the train extra .*mystic-envs\[train\]"):
        make_agent("ppo", "elemystic_v0")
