"""Pickle round-trips mid-game (wrapped env and raw engine state) and ``clone()`` independence
(CONVENTIONS sections 2, 3 and 6). Both copies must carry the RNG, so chance after the copy
point (new rounds, shuffles, dice) matches too."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mystic_envs.core.rng import Rng

from .helpers import (
    CASES,
    advance,
    all_observations,
    canonical_bytes,
    game,
    games_for,
    make,
    midgame_states,
    play_out,
    random_legal,
    random_mask_action,
    snapshot,
)


def env_view(env) -> tuple:
    """Everything an AEC env shows: who acts, every agent's observation, rewards, flags, infos."""
    return (
        list(env.agents),
        env.agent_selection,
        [
            (a, env.observe(a)["observation"].tobytes(), env.observe(a)["action_mask"].tobytes())
            for a in env.possible_agents
        ],
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        repr(sorted((a, sorted(i.items())) for a, i in env.infos.items())),
    )


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_pickle_wrapped_env_mid_game(env_id: str, n: int) -> None:
    rng = np.random.default_rng(0)
    fresh = make(env_id, n)
    revived = pickle.loads(pickle.dumps(fresh))  # also before reset
    fresh.reset(seed=1)
    revived.reset(seed=1)
    assert env_view(fresh) == env_view(revived)
    for seed in range(games_for(env_id, 20)):
        env = make(env_id, n)
        env.reset(seed=seed)
        for _ in range(int(rng.integers(0, 60))):
            if env.terminations[env.agent_selection]:
                break
            env.step(random_mask_action(env.observe(env.agent_selection)["action_mask"], rng))
        copy = pickle.loads(pickle.dumps(env))
        assert copy is not env and copy.unwrapped.game_state is not env.unwrapped.game_state
        assert env_view(copy) == env_view(env)
        steps = 0
        while env.agents:
            agent = env.agent_selection
            assert copy.agent_selection == agent
            assert env.last()[1:4] == copy.last()[1:4]
            if env.terminations[agent] or env.truncations[agent]:
                action = None
            else:
                action = random_mask_action(env.observe(agent)["action_mask"], rng)
            env.step(action)
            copy.step(action)
            assert env_view(copy) == env_view(env)
            steps += 1
        assert not copy.agents
        assert steps > 0
        # The copy is a whole env: it resets and replays like the original.
        env.reset(seed=seed + 100)
        copy.reset(seed=seed + 100)
        assert env_view(copy) == env_view(env)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_pickle_engine_state_mid_game(env_id: str, n: int) -> None:
    g = game(env_id, n)
    rng = np.random.default_rng(2)
    for seed in range(games_for(env_id, 30)):
        state = g.new_initial_state(seed)
        advance(state, rng, int(rng.integers(0, 60)))
        copy = pickle.loads(pickle.dumps(state))
        assert snapshot(copy, n) == snapshot(state, n)
        while not state.is_terminal:
            a = random_legal(state, rng)
            state.apply(a)
            copy.apply(a)
            copy.check_invariants()
            assert snapshot(copy, n) == snapshot(state, n)
        assert copy.is_terminal
        np.testing.assert_array_equal(copy.returns(), state.returns())


def draw_from(state) -> None:
    """A few draws from a Python state's own generator (a compiled state's lives in its bytes)."""
    rng = getattr(state, "rng", None)
    if isinstance(rng, Rng):
        for _ in range(8):
            rng.next_u64()
    elif rng is not None:
        rng.integers(2**32, size=8)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_clone_is_independent(env_id: str, n: int) -> None:
    """Playing a clone to the end (its own RNG included) leaves the original untouched."""
    rng = np.random.default_rng(3)
    for _, state in midgame_states(env_id, n, rng, games=games_for(env_id, 40), max_moves=60):
        before = snapshot(state, n)
        clone = state.clone()
        assert clone is not state
        assert snapshot(clone, n) == before
        play_out(clone, rng, limit=100_000)
        draw_from(clone)  # drawing from the clone's generator must not move the original's
        assert snapshot(state, n) == before, "playing a clone changed the original"


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_clone_continues_from_the_exact_state(env_id: str, n: int) -> None:
    """The same actions on a state and on its clone give the same game, chance included."""
    g = game(env_id, n)
    rng = np.random.default_rng(4)
    for seed in range(games_for(env_id, 40)):
        state = g.new_initial_state(seed)
        advance(state, rng, int(rng.integers(0, 60)))
        clone = state.clone()
        while not state.is_terminal:
            a = random_legal(state, rng)
            assert clone.legal_actions() == state.legal_actions()
            state.apply(a)
            clone.apply(a)
            clone.check_invariants()
            for x, y in zip(all_observations(clone, n), all_observations(state, n), strict=True):
                np.testing.assert_array_equal(x, y)
            assert clone.describe() == state.describe()
        assert clone.is_terminal
        np.testing.assert_array_equal(clone.returns(), state.returns())
        assert canonical_bytes(clone) == canonical_bytes(state)
