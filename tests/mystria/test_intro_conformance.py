"""The conformance suite on the introductory rules (``variant="intro"``).

``tests/conformance`` runs every registered id in its default configuration (Mystria's full rules).
Here the same test functions run on ``ConfiguredId("mystria_v0", variant="intro")``, which the
suite's helpers turn into ``variant="intro"`` everywhere they build an env or a game. Left out, and
replaced below: the two hidden-information tests that require ``determinize`` to re-deal something
(the introductory rules hide nothing), and the tests whose env construction bypasses the helpers
(trajectory digests across processes, the PettingZoo registry), and the single-agent truncation
test, which assumes that seat 0 acts within ``max_steps=3``: with the introductory rules the second
player's three score-board decisions come first.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from conformance import (
    test_determinism,
    test_errors,
    test_hidden_information,
    test_pettingzoo_api,
    test_pickle_and_clone,
    test_random_games,
    test_single_agent,
)
from conformance.helpers import (
    ConfiguredId,
    canonical_bytes,
    game,
    midgame_states,
    random_mask_action,
    single_agent,
)
from conformance.trajectory import game_digests
from pettingzoo.test import api_test

import mystic_envs
from mystic_envs.core.aec import MAX_STEPS

INTRO = ConfiguredId("mystria_v0", variant="intro")
N = 2

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:.*Box observation space m"),
    pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes"),
    pytest.mark.filterwarnings("ignore:.*No render fps was declared"),
]

SUITE = [
    test_errors.test_out_of_range_and_wrong_type_actions,
    test_errors.test_numpy_integer_actions_are_accepted,
    test_errors.test_illegal_action_raise,
    test_errors.test_illegal_action_terminate,
    test_errors.test_illegal_action_penalize,
    test_errors.test_step_after_the_end_and_before_reset,
    test_errors.test_max_steps_truncates_every_agent,
    test_errors.test_bad_keyword_arguments,
    test_errors.test_single_agent_errors,
    test_errors.test_penalized_illegal_actions_count_towards_max_steps,
    test_pettingzoo_api.test_api_test,
    test_pettingzoo_api.test_api_test_raw_env,
    test_pettingzoo_api.test_seed_test,
    test_pettingzoo_api.test_render_test,
    test_pettingzoo_api.test_spaces_and_layout,
    test_pickle_and_clone.test_pickle_wrapped_env_mid_game,
    test_pickle_and_clone.test_pickle_engine_state_mid_game,
    test_pickle_and_clone.test_clone_is_independent,
    test_pickle_and_clone.test_clone_continues_from_the_exact_state,
    test_random_games.test_returned_arrays_are_copies,
    test_random_games.test_illegal_apply_on_engine_raises,
    test_single_agent.test_gymnasium_and_sb3_check_env,
    test_single_agent.test_learner_reward_and_masks,
    test_single_agent.test_single_agent_determinism_and_pickle,
    test_determinism.test_engine_seed_determines_the_game,
    test_hidden_information.test_determinize_is_seeded_by_its_rng,
]


def test_the_helpers_build_the_intro_variant():
    assert game(INTRO, N).variant == "intro" and game("mystria_v0", N).variant == "full"


@pytest.mark.parametrize("check", SUITE, ids=lambda f: f.__name__)
def test_conformance_on_intro_rules(check):
    check(INTRO, N)


def test_aec_random_games_zero_sum_on_intro_rules(request):
    test_random_games.test_aec_random_games_zero_sum(INTRO, N, request)


def test_render_modes_on_intro_rules(capsys):
    test_pettingzoo_api.test_render_modes(INTRO, N, capsys)


@pytest.mark.parametrize("first_seed", [0, 500, 1000, 1500])
def test_random_legal_games_on_intro_rules(first_seed):
    test_random_games.test_random_legal_games(INTRO, N, first_seed, 500)


def test_single_agent_illegal_actions_and_truncation_on_intro_rules():
    for seat in range(N):
        env = single_agent(INTRO, N, seat=seat)
        env.reset(seed=0)
        _, reward, term, trunc, info = env.step(int(np.flatnonzero(~env.action_masks())[0]))
        assert (reward, term, trunc) == (-1.0, True, False) and info["illegal_player"] == info["seat"]
        # Whoever moves first, six steps leave the learner at least one of its own.
        env = single_agent(INTRO, N, seat=seat, max_steps=6)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        trunc = False
        while not trunc:
            _, reward, term, trunc, info = env.step(random_mask_action(env.action_masks(), rng))
            assert not term
        assert reward == 0.0 and info["end_reason"] == MAX_STEPS


def intro_digests(games) -> list[str]:
    return game_digests(lambda: mystic_envs.make("mystria_v0", variant="intro"), games)


SCRIPT = """
import runpy, sys
import mystic_envs
digests = runpy.run_path(sys.argv[1])["game_digests"]
games = {games!r}
print(",".join(digests(lambda: mystic_envs.make("mystria_v0", variant="intro"), games)))
"""


def test_intro_trajectories_are_the_same_in_any_process():
    games = test_determinism.GAMES
    path = Path(test_determinism.__file__).with_name("trajectory.py")
    runs = []
    for hash_seed in ("0", "12345"):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(games=games), str(path)],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout.strip().split(","))
    here = intro_digests(games)
    assert runs[0] == runs[1] == here
    assert here[0] == here[2] and here[0] != here[1]
    assert here != game_digests(lambda: mystic_envs.make("mystria_v0"), games), "intro plays like full"


def test_intro_determinize_changes_nothing_but_the_future_chance_stream():
    """The introductory rules hide nothing: every seat's view, and the whole state apart from the
    generator, is what it was."""
    for seed, state in midgame_states(INTRO, N, np.random.default_rng(0), games=40, max_moves=30):
        for p in range(N):
            d = state.determinize(p, np.random.default_rng(seed))
            for q in range(N):
                np.testing.assert_array_equal(d.observation(q), state.observation(q))
            assert d.legal_actions() == state.legal_actions()
            d.rng = state.rng
            assert canonical_bytes(d) == canonical_bytes(state)


def test_intro_through_the_pettingzoo_registry():
    env = pettingzoo.make("aec", "mystic/mystria-v0", variant="intro")
    assert env.unwrapped.game.variant == "intro"
    api_test(env, num_cycles=100)
