"""A search opponent inside a training batch (``training.vec``) searches the batch's own compiled game in
C, with no Python state in lockstep, and plays the moves it plays on the AEC env for the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.mcts import MCTSAgent
from agents.spec import parse_agent_spec
from mystic_envs.core import compiled
from tests.core.cases import require_core
from tests.test_vec_adapters import play_beside_the_aec_env
from training.vec import _CORE, _STATE, CoreVecEnv, opponent_seed

SIMULATIONS = 24


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


@pytest.fixture
def searches(monkeypatch):
    """Counts the compiled searches; a Python search iteration fails the test."""
    count = {"c": 0}
    search = compiled.CoreState.search

    def counted(self, *args, **kwargs):
        count["c"] += 1
        return search(self, *args, **kwargs)

    def no_python_search(self, *args, **kwargs):
        raise AssertionError("the Python search ran")

    monkeypatch.setattr(compiled.CoreState, "search", counted)
    monkeypatch.setattr(MCTSAgent, "_iterate", no_python_search)
    return count


MCTS = f"mcts:simulations={SIMULATIONS}"


@pytest.mark.parametrize(
    ("env_id", "steps", "spec"),
    [
        ("elemystic_v0", 40, MCTS),
        ("mystria_v0", 12, MCTS),
        ("tarot_dice_v0", 30, MCTS),
        ("mystick_domination_v0", 25, MCTS),
        ("mystic_vale_v0", 15, MCTS),
        # The guided search walks copies of the compiled state in Python (no C search to count).
        ("elemystic_v0", 15, "mcts:guide=ppo,simulations=8"),
    ],
)
def test_mcts_in_the_batch_searches_in_c_and_plays_as_on_the_aec_env(env_id, steps, spec, searches):
    n, seed = 2, 4
    venv = CoreVecEnv(env_id, num_envs=n, seed=seed, opponent=spec)
    core = venv.core
    assert (core.opponent_kind == _CORE).all() and all(view.game_state is None for view in core._views)
    parsed = parse_agent_spec(spec)
    assert all(agent.simulations == parsed.options["simulations"] for agent in core._agents)
    aec_agents = [make_agent("mcts", env_id, seed=opponent_seed(seed, i), **parsed.options) for i in range(n)]
    play_beside_the_aec_env(venv, env_id, seed, aec_agents, steps, np.random.default_rng(1))
    # Both sides searched in C (the AEC agents on the twin replayed from the env's history).
    assert (searches["c"] > 0) == (spec == MCTS)


def _play(venv, steps: int) -> None:
    for _ in range(steps):
        venv.step(np.array([np.flatnonzero(m)[0] for m in venv.action_masks()]))


def test_engine_c_works_in_the_batch_and_engine_python_keeps_the_python_state(searches):
    # engine="c" refused a batch before (its stand-in env had no game_history() to replay).
    venv = CoreVecEnv(
        "elemystic_v0", num_envs=2, seed=0, opponent=make_agent("mcts", "elemystic_v0", engine="c")
    )
    assert list(venv.core.opponent_kind) == [_CORE, _CORE]
    venv.core._agents[0].simulations = 8
    venv.reset()
    _play(venv, 10)
    assert searches["c"] >= 10
    python = make_agent("mcts", "elemystic_v0", seed=1, simulations=8, engine="python")
    venv = CoreVecEnv("elemystic_v0", num_envs=2, seed=0, opponent=[python, "heuristic"])
    assert list(venv.core.opponent_kind) == [_STATE, _STATE]
    with pytest.raises(AssertionError, match="the Python search ran"):
        venv.reset()
        _play(venv, 10)


def test_a_search_opponent_may_join_a_running_batch():
    # It keeps no Python state, so unlike the heuristic it needs no game from its start.
    venv = CoreVecEnv("elemystic_v0", num_envs=2, seed=0, opponent="random")
    venv.reset()
    _play(venv, 1)
    venv.set_opponent("mcts:simulations=8")
    _play(venv, 10)
    with pytest.raises(RuntimeError, match="must be set before reset"):
        venv.set_opponent("heuristic")
    with pytest.raises(ValueError, match="unknown agent 'mcts2'"):
        venv.set_opponent("mcts2:simulations=8")


def test_the_opponent_benchmark_times_mcts_in_c_beside_python(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "vec_opponents.py"
    spec = importlib.util.spec_from_file_location("vec_opponents", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.main(["--env", "elemystic_v0", "--seconds", "0.2", "--num-envs", "2", "--mcts", "4"])
    assert {"mcts c", "mcts python"} <= set(report["elemystic_v0"])
    assert "elemystic_v0: mcts in C / mcts in Python, learner steps/s:" in capsys.readouterr().out


@pytest.mark.parametrize("env_id", ["elemystic_v0", "mystria_v0"])
def test_a_ppo_opponent_reads_the_batch_and_plays_as_on_the_aec_env(env_id):
    # It read the stand-in env's observe(), which a Python state in lockstep did not offer.
    n, seed = 2, 3
    venv = CoreVecEnv(env_id, num_envs=n, seed=seed, opponent="ppo")
    assert (venv.core.opponent_kind == _CORE).all()
    aec_agents = [make_agent("ppo", env_id, seed=opponent_seed(seed, i)) for i in range(n)]
    play_beside_the_aec_env(venv, env_id, seed, aec_agents, 30, np.random.default_rng(0))
