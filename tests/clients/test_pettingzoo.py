"""The PettingZoo recipes of docs/clients.md: the AEC loop and the turn-based parallel view.

PettingZoo's own checks (api, seed, render, state and the parallel tests) run in the conformance
suite; see this package's docstring.
"""

from __future__ import annotations

import numpy as np
import pytest

from .recipes import CASES, run_recipe


def assert_game_over_by_the_rules(env, returns: dict[str, float], info: dict) -> None:
    raw = env.unwrapped
    expected = raw.game_state.returns()
    got = np.array([returns[agent] for agent in raw.possible_agents])
    np.testing.assert_allclose(got, expected, err_msg="the summed rewards are not the game's returns")
    assert abs(got.sum()) < 1e-9, f"returns {got} are not zero-sum"
    assert info["game_over"] == 1
    assert raw.info_names["end_reason"][info["end_reason"]] == "game over"
    assert info["illegal_player"] == -1
    # A seat marked as a winner has the best return.
    winners = np.asarray(info["winners"])
    assert winners.shape == (len(got),) and set(winners.tolist()) <= {0, 1}
    assert np.all(got[winners == 1] == got.max())


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_aec_recipe_plays_a_game_to_its_end(env_id: str, n: int) -> None:
    ns = run_recipe("PettingZoo AEC", env_id, n)
    env = ns["env"]
    assert env.agents == [], "the loop ended with agents still in the game"
    assert_game_over_by_the_rules(env, ns["returns"], ns["info"])


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_parallel_recipe_plays_the_same_game_as_the_aec_loop(env_id: str, n: int) -> None:
    # Both recipes draw one random number per move of the agent to act, from the same seeds, so
    # the parallel view must play exactly the AEC game.
    parallel = run_recipe("PettingZoo parallel", env_id, n)
    aec = run_recipe("PettingZoo AEC", env_id, n)
    env = parallel["env"]
    assert env.agents == []
    assert_game_over_by_the_rules(env, parallel["returns"], aec["info"])
    assert parallel["returns"] == aec["returns"]
    assert env.unwrapped.game_state.describe() == aec["env"].unwrapped.game_state.describe()
