"""What clients that nobody here wrote rely on (CONVENTIONS section 3): one info schema with the
same numeric keys on every step, PettingZoo's ``state()``, the turn-based parallel view, the
Gymnasium ids of the single-agent views, and keywords checked per env."""

from __future__ import annotations

import numbers
import re

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, state_test
from pettingzoo.test.seed_test import parallel_seed_test

import mystic_envs
from mystic_envs.core.aec import END_REASONS, GAME_OVER, ILLEGAL, MAX_STEPS, RUNNING

from .helpers import CASES, env_kwargs, make, random_mask_action, reset_to_illegal_chance


def assert_matches_schema(env, info: dict) -> None:
    schema = {f.name: f for f in env.unwrapped.info_schema}
    assert list(info) == list(schema), f"info keys {list(info)} are not the schema's {list(schema)}"
    for name, field in schema.items():
        value = info[name]
        if field.shape == ():
            assert isinstance(value, numbers.Integral | numbers.Real), f"{name}={value!r} is not a number"
            assert not isinstance(value, bool | str)
        else:
            assert isinstance(value, np.ndarray), f"{name} is a {type(value).__name__}, not an array"
            assert value.shape == field.shape and value.dtype == np.dtype(field.dtype), name
        if field.names is not None:
            assert 0 <= value < len(field.names), f"{name}={value} has no name"


def played_infos(env, rng: np.random.Generator):
    """Every info ``env.last()`` hands out over one game, from reset on."""
    yield env.last()[4]
    for _ in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        yield info
        env.step(None if term or trunc else random_mask_action(obs["action_mask"], rng))


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_every_info_has_the_schema_keys_with_numbers_from_reset_on(env_id, n):
    rng = np.random.default_rng(0)
    endings = set()
    for seed, kwargs in [(0, {}), (1, {}), (2, {"max_steps": 4}), (3, {"illegal_action": "penalize"})]:
        env = make(env_id, n, **kwargs)
        env.reset(seed=seed)
        for info in played_infos(env, rng):
            assert_matches_schema(env, info)
            if info["game_over"]:
                endings.add(info["end_reason"])
            else:
                assert info["end_reason"] == RUNNING and not info["winners"].any()
    env = make(env_id, n)
    reset_to_illegal_chance(env, 0, rng)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0]))
    for info in env.infos.values():
        assert_matches_schema(env, info)
        endings.add(info["end_reason"])
    assert endings == {GAME_OVER, MAX_STEPS, ILLEGAL}


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_info_names_tables_name_every_code(env_id, n):
    env = make(env_id, n)
    names = env.unwrapped.info_names
    assert names["end_reason"] == END_REASONS
    assert names["phase"] == env.unwrapped.game.PHASE_NAMES
    env.reset(seed=0)
    assert names["phase"][env.last()[4]["phase"]] == env.unwrapped.game_state.phase_name


@pytest.mark.filterwarnings("ignore:Environment's (minimum|maximum) state space value")
@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_state_is_every_seats_observation_and_passes_state_test(env_id, n):
    env = make(env_id, n)
    env.reset(seed=0)
    state = env.state()
    assert env.state_space.contains(state)
    inner = env.unwrapped.game_state
    np.testing.assert_array_equal(state, np.concatenate([inner.observation(p) for p in range(n)]))
    state_test(make(env_id, n), make(env_id, n))


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_parallel_view_passes_pettingzoos_parallel_tests(env_id, n):
    module = mystic_envs.env_module(env_id)
    kwargs = env_kwargs(n)
    parallel_api_test(module.parallel_env(**kwargs), num_cycles=300)
    parallel_seed_test(lambda: module.parallel_env(**kwargs))
    # The mover is a seat index in every info, from reset on: numbers only, as in the AEC infos.
    env = module.parallel_env(**kwargs)
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while env.agents:
        mover = env.possible_agents[next(iter(infos.values()))["active_agent"]]
        for info in infos.values():
            assert_matches_schema(env, {k: v for k, v in info.items() if k != "active_agent"})
            assert isinstance(info["active_agent"], int)
        mask = env.aec_env.observe(mover)["action_mask"]
        _, _, _, _, infos = env.step({mover: random_mask_action(mask, rng)})
    assert env.step({}) == ({}, {}, {}, {}, {})
    assert type(mystic_envs.make_parallel(env_id, **kwargs)) is type(module.parallel_env(**kwargs))


@pytest.mark.filterwarnings("ignore:.*Box observation space m")
@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_gymnasium_make_builds_the_single_agent_view(env_id, n):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(mystic_envs.gym_id(env_id), opponent="random", seat=1, num_players=n)
    assert env.unwrapped.env_id == env_id and env.unwrapped.fixed_seat == 1
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["seat"] == 1
    check_env(gymnasium.make(mystic_envs.gym_id(env_id), render_mode="ansi").unwrapped)
    with pytest.raises(TypeError, match=f"{env_id} got unexpected keyword argument"):
        gymnasium.make(mystic_envs.gym_id(env_id), rounds=3)


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_an_unknown_keyword_names_the_env_and_what_it_accepts(env_id):
    builders = (mystic_envs.make, mystic_envs.make_raw, mystic_envs.make_parallel, mystic_envs.single_agent)
    for build in builders:
        with pytest.raises(TypeError) as err:
            build(env_id, foo=1)
        message = str(err.value)
        assert "\n" not in message and f"{env_id} got unexpected keyword argument(s) 'foo'" in message
        assert "render_mode, illegal_action, illegal_reward, max_steps, engine, num_players" in message


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_make_documents_every_keyword_each_env_accepts(env_id):
    from mystic_envs.core.aec import ENV_KWARGS, game_keywords

    doc = mystic_envs.make.__doc__
    for kw in ENV_KWARGS:
        assert f"``{kw}``" in doc
    # The env's bullet, with its continuation lines.
    bullets = re.split(r"\n\s*- ", doc)
    entry = next(b for b in bullets if b.startswith(f"``{env_id}``"))
    for kw in game_keywords(type(mystic_envs.make_raw(env_id).game)):
        assert f"``{kw}``" in entry, f"make's docstring does not list {env_id}'s {kw!r}"
