"""Seeds and generators reaching a rules engine are checked where they enter, with one-line
errors: ``Game.new_initial_state(seed)`` takes None or an integer 0 <= seed < 2**64, the core
generator's seeds (numpy integers too, as
``reset(seed=...)`` does), and ``GameState.determinize(player, rng)`` takes a numpy Generator only.
Numpy's own errors ("expected non-negative integer", "'NoneType' object has no attribute
'random'") name neither the argument nor what it accepts."""

from __future__ import annotations

import random

import numpy as np
import pytest

from .helpers import CASES, advance, game, make

BAD_SEEDS = [
    (-1, ValueError),
    (-(2**64), ValueError),
    (2**64, ValueError),
    ("x", TypeError),
    ("3", TypeError),
    (1.5, TypeError),
    (np.float64(3), TypeError),
    (True, TypeError),
    ([1, 2], TypeError),
]
BAD_RNGS = [None, 0, "x", random.Random(0), np.random.RandomState(0), np.random.PCG64(0)]


def opening(state, moves: int = 30) -> list[bytes]:
    """The observations of the first ``moves`` moves, each the first legal action."""
    seen = []
    for _ in range(moves):
        if state.is_terminal:
            break
        seen.append(state.observation(state.current_player).tobytes())
        state.apply(state.legal_actions()[0])
    return seen


@pytest.mark.parametrize(("env_id", "n"), CASES)
@pytest.mark.parametrize(("seed", "error"), BAD_SEEDS)
def test_new_initial_state_refuses_a_bad_seed(env_id: str, n: int, seed, error) -> None:
    with pytest.raises(error, match=r"^seed must be None or an integer 0 <= seed < 2\*\*64, got "):
        game(env_id, n).new_initial_state(seed)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_new_initial_state_takes_any_integer_seed(env_id: str, n: int) -> None:
    g = game(env_id, n)
    # A numpy integer (read from an array) deals the same game as the same Python int.
    for numpy_seed in (np.int64(7), np.uint64(7), np.int32(7)):
        assert opening(g.new_initial_state(numpy_seed)) == opening(g.new_initial_state(7))
    # Every 64-bit seed, the largest too (np.uint64's); None draws fresh entropy.
    top = np.uint64(2**64 - 1)
    assert opening(g.new_initial_state(top)) == opening(g.new_initial_state(2**64 - 1))
    assert opening(g.new_initial_state(None))
    assert opening(g.new_initial_state())


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_determinize_refuses_anything_but_a_numpy_generator(env_id: str, n: int) -> None:
    state = game(env_id, n).new_initial_state(0)
    for rng in BAD_RNGS:
        for seat in range(n):
            with pytest.raises(TypeError, match=r"^rng must be a numpy\.random\.Generator"):
                state.determinize(seat, rng)
    # The seat is checked first: a bad seat names the seat, whatever the rng.
    with pytest.raises(ValueError, match="must be a seat index"):
        state.determinize(n, None)
    # Refusing leaves the state as it was: it still plays, and determinizes with a Generator.
    assert state.determinize(0, np.random.default_rng(0)).current_player == state.current_player


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_determinize_refuses_a_bad_rng_mid_game(env_id: str, n: int) -> None:
    # Later in a game more is hidden (hands dealt, tiles kept): the check does not depend on it.
    state = game(env_id, n).new_initial_state(3)
    assert advance(state, np.random.default_rng(3), 15) > 0
    for seat in range(n):
        with pytest.raises(TypeError, match=r"^rng must be a numpy\.random\.Generator"):
            state.determinize(seat, None)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_reset_seeds_are_checked_like_engine_seeds(env_id: str, n: int) -> None:
    # The env's own check (core.aec) words it differently but agrees on what a seed is.
    for seed, error in BAD_SEEDS:
        with pytest.raises(error, match="seed must be"):
            make(env_id, n).reset(seed=seed)
    env = make(env_id, n)
    env.reset(seed=np.int64(5))
    first = env.observe(env.agent_selection)["observation"].copy()
    env.reset(seed=5)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)
