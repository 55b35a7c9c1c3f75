"""The one-seat gymnasium view (CONVENTIONS section 3, ``single_agent``): both env checkers,
``action_masks()``, the learner's final reward on its own last transition, determinism."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from mystic_envs import IllegalActionError
from mystic_envs.core.aec import ILLEGAL, MAX_STEPS

from .helpers import CASES, games_for, random_mask_action, single_agent

# The checkers note render modes and fps they cannot test; neither is a fault (and neither concerns
# the observation space, whose warnings test_gymnasium_and_sb3_check_env asserts away).
pytestmark = [
    pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes"),
    pytest.mark.filterwarnings("ignore:.*No render fps was declared"),
]


def seats(n: int) -> list[int | None]:
    return [None, *range(n)]


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_gymnasium_and_sb3_check_env(env_id: str, n: int) -> None:
    """Both checkers pass and say nothing of the observation space (its Box carries the layout's
    finite bounds, and every observation they draw lies inside)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seat in seats(n):
            gymnasium_check_env(single_agent(env_id, n, seat=seat))
            gymnasium_check_env(single_agent(env_id, n, seat=seat, render_mode="ansi"))
            sb3_check_env(single_agent(env_id, n, seat=seat), warn=True)
    about_space = [str(w.message) for w in caught if "observation" in str(w.message).lower()]
    assert not about_space, about_space


class RecordingOpponent:
    """A seeded random opponent that notes that it moved, to learn who ended each game."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.moved = False

    def __call__(self, env, agent_id: str) -> int:
        self.moved = True
        return random_mask_action(env.observe(agent_id)["action_mask"], self.rng)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_learner_reward_and_masks(env_id: str, n: int) -> None:
    """Random learner, full episodes: ``action_masks()`` is the engine's legal mask on every
    learner turn, every reward before the last is 0, and the sum of rewards is the AEC return
    of the learner's seat, whether the game ended on the learner's move or an opponent's."""
    ended_by = {"learner": 0, "opponent": 0}
    ended_mid_game = 0
    seats_seen: set[int] = set()
    rng = np.random.default_rng(1)
    for seat in seats(n):
        opponent = RecordingOpponent(seed=2 if seat is None else 3 + seat)
        env = single_agent(env_id, n, seat=seat, opponent=opponent)
        for episode in range(games_for(env_id, 100)):
            obs, info = env.reset(seed=episode)
            assert info["seat"] == env.seat
            if seat is not None:
                assert env.seat == seat
            seats_seen.add(env.seat)
            state = env.aec_env.game_state
            rewards = []
            term = trunc = False
            while not (term or trunc):
                assert state.current_player == env.seat, "step() returned while the learner is not to act"
                masks = env.action_masks()
                assert masks.dtype == bool and masks.shape == (env.action_space.n,)
                np.testing.assert_array_equal(masks, state.legal_mask())
                np.testing.assert_array_equal(obs, state.observation(env.seat))
                assert env.observation_space.contains(obs)
                opponent.moved = False
                obs, reward, term, trunc, info = env.step(random_mask_action(masks, rng))
                rewards.append(reward)
            assert not trunc, "a random game reached the default max_steps"
            # A seat eliminated mid-game (more than two players) ends its episode while the others
            # play on: its return is already fixed by the rank it can no longer escape.
            assert state.is_terminal or state.player_done(env.seat)
            if not state.is_terminal:
                ended_mid_game += 1
            expected = float(state.returns()[env.seat])
            assert sum(rewards) == expected
            assert all(r == 0.0 for r in rewards[:-1]), "reward before the end of the game"
            assert rewards[-1] == expected
            assert not env.action_masks().any(), "action_masks() must be all False once the episode is over"
            ended_by["opponent" if opponent.moved else "learner"] += 1
            with pytest.raises(RuntimeError):
                env.step(0)
    assert ended_by["learner"] > 0 and ended_by["opponent"] > 0, ended_by
    assert seats_seen == set(range(n)), "seat=None must draw every seat over many resets"
    if n > 2 and env_id == "mystick_domination_v0":
        assert ended_mid_game > 0, "no learner was eliminated while the game went on"


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_learner_illegal_action_and_truncation(env_id: str, n: int) -> None:
    env = single_agent(env_id, n, seat=0)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc) == (-1.0, True, False)
    assert info["end_reason"] == ILLEGAL and info["illegal_player"] == 0
    with pytest.raises(RuntimeError):
        env.step(0)

    env = single_agent(env_id, n, seat=0, illegal_action="penalize", illegal_reward=-0.5)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs2, reward, term, trunc, _ = env.step(illegal)
    assert (reward, term, trunc) == (-0.5, False, False)
    np.testing.assert_array_equal(obs, obs2)

    env = single_agent(env_id, n, seat=0, max_steps=3)
    # With more than two players the opponents can use all 3 steps before seat 0 moves (reset then
    # refuses the episode, as test_reset_never_returns_a_finished_episode checks): take a deal
    # where the learner moves in time.
    for seed in range(50):
        try:
            env.reset(seed=seed)
        except RuntimeError:
            continue
        break
    else:
        raise AssertionError("no seed in 50 lets seat 0 move within max_steps=3")
    rng = np.random.default_rng(0)
    trunc = False
    for _ in range(3):
        _, reward, term, trunc, info = env.step(random_mask_action(env.action_masks(), rng))
        if trunc:
            break
    assert trunc and not term and reward == 0.0
    assert info["end_reason"] == MAX_STEPS and info["game_over"] == 1


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_single_agent_determinism_and_pickle(env_id: str, n: int) -> None:
    def run(env, seed: int) -> list[bytes]:
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        out = [obs.tobytes()]
        done = False
        while not done:
            obs, reward, term, trunc, _ = env.step(random_mask_action(env.action_masks(), rng))
            out.append(obs.tobytes() + repr((reward, term, trunc)).encode())
            done = term or trunc
        return out

    for seat in seats(n):
        a = run(single_agent(env_id, n, seat=seat), 11)
        assert a == run(single_agent(env_id, n, seat=seat), 11)
        assert a != run(single_agent(env_id, n, seat=seat), 12)

    env = single_agent(env_id, n, seat=None)
    rng = np.random.default_rng(5)
    # Four learner moves into a game that goes on (some deals end sooner: a Mystria seat out of drops).
    for seed in range(5, 100):
        env.reset(seed=seed)
        done = False
        for _ in range(4):
            done = done or any(env.step(random_mask_action(env.action_masks(), rng))[2:4])
        if not done:
            break
    assert not done, "every game of seeds 5-99 ended within four learner moves"
    copy = pickle.loads(pickle.dumps(env))
    done = False
    while not done:
        a = random_mask_action(env.action_masks(), rng)
        np.testing.assert_array_equal(env.action_masks(), copy.action_masks())
        first, second = env.step(a), copy.step(a)
        np.testing.assert_array_equal(first[0], second[0])
        assert first[1:4] == second[1:4]
        done = first[2] or first[3]


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_an_opponent_that_plays_an_illegal_action_is_an_error(env_id: str, n: int) -> None:
    def cheat(env, agent_id):
        return int(np.flatnonzero(env.observe(agent_id)["action_mask"] == 0)[0])

    env = single_agent(env_id, n, opponent=cheat, seat=0)
    with pytest.raises(IllegalActionError, match=r"^the opponent .* played: illegal action \d+"):
        for seed in range(20):  # until the opponent has a move before the episode ends
            env.reset(seed=seed)
            while True:
                _, _, term, trunc, _ = env.step(
                    random_mask_action(env.action_masks(), np.random.default_rng(0))
                )
                if term or trunc:
                    break


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_reset_never_returns_a_finished_episode(env_id: str, n: int) -> None:
    """With ``max_steps=1`` the game ends on the opponent's first move whenever the learner is not
    first: reset says so instead of handing over a finished episode."""
    outcomes = set()
    for seed in range(40):  # both outcomes are likely by then at every count (1/4 playable at 4p)
        env = single_agent(env_id, n, seat=None, max_steps=1)
        try:
            _, info = env.reset(seed=seed)
        except RuntimeError as err:
            assert str(err).endswith("before the learner's first move; max_steps=1 is too small")
            outcomes.add("refused")
        else:
            assert info["game_over"] == 0 and env.action_masks().any()
            outcomes.add("playable")
    assert outcomes == {"refused", "playable"}


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_reset_checks_its_seed_like_the_aec_env(env_id: str, n: int) -> None:
    env = single_agent(env_id, n, seat=0)
    for bad, error in (("x", TypeError), (1.5, TypeError), (True, TypeError), (-1, ValueError)):
        with pytest.raises(error, match=r"^seed must be None or an integer 0 <= seed < 2\*\*64"):
            env.reset(seed=bad)
    first, _ = env.reset(seed=np.int64(5))
    again, _ = env.reset(seed=5)
    np.testing.assert_array_equal(first, again)
