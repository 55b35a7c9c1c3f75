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


def _own_agents(name: str) -> list[tuple[str, object]]:
    """(env id, agent made for it) for every game ``name`` has an agent for."""
    made = []
    for env_id in mystic_envs.ENV_IDS:
        if name == "rllib" and env_id != "elemystic_v0":
            continue  # only Elemystic ships an RLlib policy
        kw = FAST_KWARGS.get(name, {})
        if name == "human":
            kw = {"input_fn": _no_input, "output": lambda text: None}
        made.append((env_id, make_agent(name, env_id, seed=0, **kw)))
    return made


def _no_input(prompt: str) -> str:
    raise AssertionError("a human agent in the wrong game must not ask for a move")


@pytest.mark.parametrize("name", agents.AGENT_NAMES)
def test_an_agent_refuses_to_act_in_another_game(name):
    for own_id, agent in _own_agents(name):
        for other_id in mystic_envs.ENV_IDS:
            if other_id == own_id:
                continue
            for construct in (mystic_envs.make, mystic_envs.make_raw):
                env = construct(other_id)
                env.reset(seed=0)
                with pytest.raises(ValueError, match=f"made for {own_id} and cannot act in {other_id}"):
                    agent.act(env, env.agent_selection)


def test_a_retuned_heuristic_refuses_another_game_too():
    agent = make_agent("heuristic", "tarot_dice_v0", seed=0, FIX=0.6)
    env = mystic_envs.make("mystria_v0")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="made for tarot_dice_v0 and cannot act in mystria_v0"):
        agent.act(env, env.agent_selection)


def test_agents_without_an_env_id_play_any_game():
    from agents.mcts import MCTSAgent

    # The core's random policy plays any masked AEC env (benchmarks use it on PettingZoo's own),
    # and a search agent built without a game searches whichever it is handed.
    for agent in (agents.RandomAgent(0), MCTSAgent(simulations=5, seed=0)):
        for env_id in mystic_envs.ENV_IDS:
            env = mystic_envs.make(env_id)
            env.reset(seed=1)
            mask = env.observe(env.agent_selection)["action_mask"]
            assert mask[agent.act(env, env.agent_selection)]


def test_the_single_agent_opponent_acts_in_its_own_game():
    # The opponent named to single_agent is made for that env, so the check passes on every step.
    for env_id in mystic_envs.ENV_IDS:
        env = mystic_envs.single_agent(env_id, opponent="random", seat=1)
        env.reset(seed=0)
        done = False
        while not done:
            _, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = terminated or truncated
        assert terminated and reward in (-1.0, 0.0, 1.0)


BAD_SEEDS = [(-1, ValueError), (-(2**70), ValueError), ("x", TypeError), (1.5, TypeError), (True, TypeError)]


@pytest.mark.parametrize("name", agents.AGENT_NAMES)
@pytest.mark.parametrize(("seed", "error"), BAD_SEEDS)
def test_make_agent_refuses_a_bad_seed(name, seed, error):
    with pytest.raises(error, match=r"seed must be None or an integer 0 <= seed < 2\*\*64, got"):
        make_agent(name, "elemystic_v0", seed=seed)


@pytest.mark.parametrize("name", AUTOMATIC)
def test_reseeding_an_agent_refuses_a_bad_seed(name):
    agent = make_agent(name, "elemystic_v0", seed=np.int64(3))  # a numpy integer is a seed
    for seed, error in BAD_SEEDS:
        with pytest.raises(error, match=r"seed must be None or an integer 0 <= seed < 2\*\*64"):
            agent.seed(seed)
    agent.seed(np.uint64(2**63))  # evaluate reseeds with SeedSequence words
    agent.seed(None)


def test_agent_classes_built_directly_refuse_a_bad_seed():
    from agents.heuristic import HEURISTICS
    from agents.human import HumanAgent
    from agents.mcts import MCTSAgent

    for build in (agents.RandomAgent, MCTSAgent, *HEURISTICS.values()):
        with pytest.raises(ValueError, match=r"seed must be None or an integer 0 <= seed < 2\*\*64, got -1"):
            build(seed=-1)
        with pytest.raises(TypeError, match=r"seed must be None or an integer 0 <= seed < 2\*\*64, got 'x'"):
            build(seed="x")
    with pytest.raises(TypeError, match=r"seed must be None or an integer 0 <= seed < 2\*\*64, got 1\.5"):
        HumanAgent("elemystic_v0", seed=1.5)
    with pytest.raises(ValueError, match="unknown env id 'chess_v0'"):
        MCTSAgent(env_id="chess_v0")


def test_a_seed_option_next_to_the_seed_is_refused():
    # Agent specs pass options as keywords; "seed" among them would be a second seed.
    with pytest.raises(TypeError, match="seed"):
        make_agent("mcts", "elemystic_v0", 0, seed=1)
