"""PettingZoo's own checks (api_test, seed_test, render_test), the spaces and layout contract of
CONVENTIONS section 3, rendering, and registration under ``mystic/<game>-v0``."""

from __future__ import annotations

import itertools

import numpy as np
import pettingzoo
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test

import mystic_envs

from .helpers import CASES, make, make_raw, random_mask_action
from .trajectory import game_digests, make_digests

# api_test flags every Dict observation space (PettingZoo's classic games get the same notes).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_api_test(env_id: str, n: int) -> None:
    api_test(make(env_id, n), num_cycles=1000)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_api_test_raw_env(env_id: str, n: int) -> None:
    api_test(make_raw(env_id, n), num_cycles=300)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_seed_test(env_id: str, n: int) -> None:
    seed_test(lambda: make(env_id, n), num_cycles=500)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_render_test(env_id: str, n: int) -> None:
    env = make(env_id, n)
    assert set(env.metadata["render_modes"]) >= {"ansi", "human"}
    render_test(lambda **kw: make(env_id, n, **kw))


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_render_modes(env_id: str, n: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Mode "ansi" returns the table as a str; "human" prints that same text and returns None."""
    ansi = make(env_id, n, render_mode="ansi")
    human = make(env_id, n, render_mode="human")
    rng = np.random.default_rng(0)
    ansi.reset(seed=3)
    human.reset(seed=3)
    capsys.readouterr()
    for _ in range(6):
        text = ansi.render()
        assert isinstance(text, str) and text.strip()
        assert text == ansi.unwrapped.game_state.describe()
        assert human.render() is None
        assert capsys.readouterr().out.rstrip("\n") == text
        a = random_mask_action(ansi.observe(ansi.agent_selection)["action_mask"], rng)
        ansi.step(a)
        human.step(a)
        capsys.readouterr()
    silent = make(env_id, n)
    silent.reset(seed=3)
    assert silent.render() is None, "render() without a render_mode must return None"


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_spaces_and_layout(env_id: str, n: int) -> None:
    env = make(env_id, n)
    env.reset(seed=0)
    raw = env.unwrapped
    game = raw.game
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    assert game.num_players == n
    num_actions = game.num_actions
    layout = raw.observation_layout
    size = game.observation_size
    # The layout is contiguous, covers the vector exactly, and every part is named and explained.
    assert layout[0].start == 0 and layout[-1].stop == size
    for prev, entry in itertools.pairwise(layout):
        assert prev.stop == entry.start
    for entry in layout:
        assert entry.size > 0 and entry.name and entry.meaning.strip()
    assert len({e.name for e in layout}) == len(layout)
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space is env.observation_space(agent), "observation_space must return the same object"
        assert env.action_space(agent) is env.action_space(agent)
        assert isinstance(space, spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
        box, mask = space["observation"], space["action_mask"]
        assert isinstance(box, spaces.Box) and box.dtype == np.float32 and box.shape == (size,)
        assert isinstance(mask, spaces.Box) and mask.dtype == np.int8 and mask.shape == (num_actions,)
        assert np.all(mask.low == 0) and np.all(mask.high == 1)
        assert env.action_space(agent) == spaces.Discrete(num_actions)
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (size,)
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (num_actions,)
        assert space.contains(obs)
    meanings = [raw.action_meaning(a) for a in range(num_actions)]
    assert all(isinstance(m, str) and m.strip() for m in meanings)
    assert len(set(meanings)) == num_actions, "two actions share a meaning"
    assert raw.action_meaning(np.int64(0)) == meanings[0]
    for bad in (-1, num_actions):
        with pytest.raises(ValueError):
            raw.action_meaning(bad)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_registered_with_pettingzoo(env_id: str, n: int) -> None:
    spec_id = f"mystic/{env_id[: -len('_v0')]}-v0"
    assert spec_id in pettingzoo.aec_registry
    env = pettingzoo.make("aec", spec_id, num_players=n)
    assert isinstance(env, pettingzoo.AECEnv)
    assert type(env.unwrapped) is type(mystic_envs.make_raw(env_id, num_players=n))
    api_test(env, num_cycles=100)
    games = [(7, 0), (8, 1)]
    from_registry = game_digests(lambda: pettingzoo.make("aec", spec_id, num_players=n), games)
    assert from_registry == make_digests(env_id, n, games)
