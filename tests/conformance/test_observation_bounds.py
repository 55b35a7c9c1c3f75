"""Observation spaces carry their layout's bounds (issue 32): every part declares them, the spaces are
built from them, and random games on the compiled core and on the Python engines stay inside.
``--soak`` plays 10**6 compiled steps a case and 100 Python games a table."""

from __future__ import annotations

import os

import numpy as np
import pytest

import mystic_envs
from mystic_envs import vector
from mystic_envs.core.game import UNIT, build_layout, observation_bounds
from tests.core.cases import CASES as CORE_CASES
from tests.core.cases import require_core

from .helpers import CASES, games_for, make, random_mask_action

# Tarot Dice's points and rounds bounds follow its num_rounds option.
CONFIGS = [(env_id.values[0], {}, env_id.values[1]) for env_id in CASES] + [
    ("tarot_dice_v0", {"num_rounds": r}, 2) for r in (1, 3, 7)
]


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CONFIGS)
def test_every_layout_part_declares_its_bounds_and_the_spaces_are_built_from_them(env_id, kwargs, n):
    env = mystic_envs.make_raw(env_id, num_players=n, **kwargs)
    for entry in env.observation_layout:
        assert entry.bounds is not None, f"{env_id}: layout part {entry.name!r} declares no bounds"
        pairs = np.array(entry.bounds, dtype=np.float64).reshape(-1, 2)
        assert len(pairs) in (1, entry.size), entry.name
        assert np.isfinite(pairs).all() and (pairs[:, 0] <= pairs[:, 1]).all(), entry.name
    low, high = observation_bounds(env.observation_layout)
    for agent in env.possible_agents:
        box = env.observation_space(agent)["observation"]
        assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
    assert np.array_equal(env.state_space.low, np.tile(low, n))
    assert np.array_equal(env.state_space.high, np.tile(high, n))


def test_build_layout_refuses_bounds_that_are_not_finite_pairs_and_spaces_need_bounds():
    for bad in ((0.0, np.inf), (np.nan, 1.0), (1.0, 0.0), (UNIT, (2.0, 1.0)), (UNIT,) * 3):
        with pytest.raises(ValueError, match="'part'"):
            build_layout([("part", 2, "two values", bad)])
    assert build_layout([("part", 2, "two values", (UNIT, (-1, 2)))])[0].bounds == ((0, 1), (-1, 2))
    with pytest.raises(ValueError, match="layout part 'hidden' declares no bounds"):
        observation_bounds(build_layout([("hidden", 1, "a privileged view's hidden part")]))


def _steps(request) -> int:
    return 10**6 if request.config.getoption("--soak") else int(os.environ.get("MYSTIC_BOUNDS_STEPS", 20_000))


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CORE_CASES)
def test_compiled_observations_of_every_seat_lie_in_the_space(env_id, kwargs, n, request):
    require_core()
    num_envs = 64
    v = vector.make(env_id, num_envs=num_envs, seed=3, num_players=n, **kwargs)
    space = mystic_envs.make_raw(env_id, num_players=n, **kwargs).observation_space("player_0")["observation"]
    low, high = space.low, space.high
    v.reset()
    for _ in range(max(1, _steps(request) // num_envs)):
        v.step(v.sample_legal())
        for seat in range(n):
            obs = v.observe(seat)
            outside = (obs < low) | (obs > high)
            if outside.any():
                i = int(np.nonzero(outside.any(axis=0))[0][0])
                entry = next(e for e in v.observation_layout if e.start <= i < e.stop)
                pytest.fail(
                    f"seat {seat}: {entry.name}[{i - entry.start}] reached "
                    f"{obs[:, i].min():g}..{obs[:, i].max():g}, outside [{low[i]:g}, {high[i]:g}]"
                )
    assert space.contains(v.observe(0)[0])


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_python_observations_and_states_lie_in_their_spaces(env_id, n, request):
    games = games_for(env_id, 100 if request.config.getoption("--soak") else 4)
    rng = np.random.default_rng(9)
    env = make(env_id, n)
    spaces = {a: env.observation_space(a) for a in env.possible_agents}
    for game in range(games):
        env.reset(seed=game)
        while env.agents:
            for agent in env.agents:
                assert spaces[agent].contains(env.observe(agent)), f"{agent}'s observation, game {game}"
            assert env.state_space.contains(env.state())
            agent = env.agent_selection
            done = env.terminations[agent] or env.truncations[agent]
            env.step(None if done else random_mask_action(env.observe(agent)["action_mask"], rng))


def test_mystick_domination_saturating_entries_hold_at_their_cap_inside_the_space():
    """A score, pool and waiting effects far past any game's show their caps, the Box's highs."""
    from mystic_envs.mystick_domination import observation as md

    assert [md.saturated(v, 4) for v in (0, 3, 4, 5, 10**6)] == [0, 3, 4, 4, 4]
    env = mystic_envs.make_raw("mystick_domination_v0", num_players=3)
    space = env.observation_space("player_0")["observation"]
    at = {e.name: e.start for e in env.observation_layout}
    s = env.game.new_initial_state(0)
    # Far past the caps, then exactly at them.
    for score, pool, waiting in ((10**6, 10**6, 50), (md.SCORE_CAP, md.pool_cap(3), md.DELAYED_CAP)):
        s.score, s.pool = [score] * 3, pool
        s.delayed = [(q, c) for q in range(3) for c in md.DELAYED_CARDS] * waiting
        s.obs_cache.clear()
        o = s.observation(1)
        assert space.contains(o)
        assert o[at["pool"]] == md.POOL_CAP == space.high[at["pool"]]
        for name in ("own", "seat+1", "seat+2"):
            assert o[at[f"{name}_status"] + 4] == md.SCORE_CAP / 30 == space.high[at[f"{name}_status"] + 4]
            delayed = o[at[f"{name}_delayed"] : at[f"{name}_delayed"] + len(md.DELAYED_CARDS)]
            assert (delayed == md.DELAYED_CAP).all()
