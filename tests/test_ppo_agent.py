"""The ppo agent: loading, acting like MaskablePPO.predict, and every bad model file."""

from __future__ import annotations

import json
import re
import zipfile

import gymnasium
import numpy as np
import pytest
import torch
from gameplay import play_game
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO

import mystic_envs
from agents import make_agent
from agents.ppo import ModelError, PPOAgent, pretrained_path

ENV_ID = "elemystic_v0"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A briefly trained model, kept in memory and saved to disk."""
    torch.set_num_threads(1)
    env = mystic_envs.single_agent(ENV_ID, opponent="random")
    model = MaskablePPO("MlpPolicy", env, seed=3, n_steps=256, batch_size=64, n_epochs=2, device="cpu")
    model.learn(512)
    path = tmp_path_factory.mktemp("ppo") / "model.zip"
    model.save(path)
    return model, path


def _positions(seed: int, count: int = 120):
    """Observations and masks of the acting seat along random games."""
    env = mystic_envs.make(ENV_ID)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    out = []
    while len(out) < count:
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            out.append((obs["observation"].copy(), obs["action_mask"].astype(bool)))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        env.reset(seed=int(rng.integers(1 << 30)))
    return out[:count]


def test_saved_model_acts_exactly_like_the_in_memory_model(saved):
    model, path = saved
    agent = make_agent("ppo", ENV_ID, path=str(path))
    in_memory = PPOAgent.from_model(model, ENV_ID)
    for obs, mask in _positions(0):
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        probs = agent.action_probabilities(obs, mask)
        assert int(np.argmax(probs)) == int(expected)
        assert probs[~mask].sum() == 0
        np.testing.assert_allclose(probs, in_memory.action_probabilities(obs, mask), rtol=1e-6)


def test_agent_plays_legal_games_from_both_seats_and_sampling_is_seeded(saved):
    _, path = saved
    for seed in range(4):
        players = [make_agent("ppo", ENV_ID, path=path), make_agent("random", ENV_ID, seed=seed)]
        rewards = play_game(ENV_ID, players if seed % 2 else players[::-1], seed)[0]
        assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])

    def sampled(seed):
        agent = make_agent("ppo", ENV_ID, path=path, deterministic=False, seed=seed)
        return play_game(ENV_ID, [agent, make_agent("random", ENV_ID, seed=1)], 5)[1]

    assert sampled(11) == sampled(11)


def test_loading_does_not_move_the_global_random_streams(saved):
    _, path = saved
    torch.manual_seed(0)
    np.random.seed(0)
    make_agent("ppo", ENV_ID, path=path)
    after = (torch.rand(1).item(), np.random.rand())
    torch.manual_seed(0)
    np.random.seed(0)
    assert after == (torch.rand(1).item(), np.random.rand())


def test_default_path_is_the_shipped_pretrained_model():
    path = pretrained_path(ENV_ID)
    assert path.is_file(), "agents/pretrained/elemystic_v0_ppo.zip is part of the package"
    assert path.stat().st_size < 5 * 2**20
    agent = make_agent("ppo", ENV_ID)
    assert agent.path == str(path)
    rewards = play_game(ENV_ID, [agent, make_agent("random", ENV_ID, seed=0)], 0)[0]
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("env_id", ["elemystic_v0", "mystria_v0", "tarot_dice_v0"])
def test_every_shipped_model_is_a_plain_policy_that_loads_and_plays(env_id):
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    agent = make_agent("ppo", env_id, seed=0)
    # A plain MLP policy, so the agent acts through its numpy copy of the actor.
    assert type(agent.policy) is MaskableActorCriticPolicy and agent._layers is not None
    rewards = play_game(env_id, [agent, make_agent("random", env_id, seed=0)], 3)[0]
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


class _SmallEnv(gymnasium.Env):
    """Another env's shapes: 5 observations, 3 actions."""

    observation_space = gymnasium.spaces.Box(-1, 1, (5,), np.float32)
    action_space = gymnasium.spaces.Discrete(3)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return np.zeros(5, np.float32), {}

    def step(self, action):
        return np.zeros(5, np.float32), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(3, bool)


def _with_data(source, target, edit):
    """A copy of the model zip ``source`` whose saved ``data`` (SB3's JSON) went through ``edit``."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as out:
        for item in src.infolist():
            payload = src.read(item)
            if item.filename == "data":
                data = json.loads(payload)
                edit(data)
                payload = json.dumps(data).encode()
            out.writestr(item, payload)
    return target


def test_bad_model_files_are_one_line_errors(tmp_path, saved):
    missing = tmp_path / "missing.zip"
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"this is not a zip file")
    truncated = tmp_path / "truncated.zip"
    truncated.write_bytes(saved[1].read_bytes()[:2000])
    other_env = tmp_path / "other_env.zip"
    MaskablePPO("MlpPolicy", _SmallEnv(), n_steps=8, batch_size=8, device="cpu").save(other_env)
    plain_ppo = tmp_path / "plain_ppo.zip"
    PPO("MlpPolicy", _SmallEnv(), n_steps=8, batch_size=8, device="cpu").save(plain_ppo)
    no_space = _with_data(saved[1], tmp_path / "no_space.zip", lambda d: d.pop("action_space"))
    bad_kwargs = _with_data(
        saved[1], tmp_path / "bad_kwargs.zip", lambda d: d.update(policy_kwargs={"no_such_kwarg": 1})
    )
    cases = [
        (missing, r"model file '.*missing\.zip' does not exist"),
        (tmp_path, r"model path '.*' is a folder, not a MaskablePPO \.zip file"),
        (no_space, r"model file '.*no_space\.zip' has no readable action_space"),
        (bad_kwargs, r"has policy settings its policy cannot take: .*no_such_kwarg"),
        (corrupt, r"model file '.*corrupt\.zip' is not a readable MaskablePPO zip"),
        (truncated, r"model file '.*truncated\.zip' is not a readable MaskablePPO zip"),
        (
            other_env,
            r"was trained for observations of shape \(5,\) and 3 actions; elemystic_v0 has shape \(125,\) "
            r"and 33 actions",
        ),
        (plain_ppo, r"holds a ActorCriticPolicy, not a MaskablePPO policy"),
    ]
    for path, message in cases:
        with pytest.raises(ModelError) as info:
            make_agent("ppo", ENV_ID, path=path)
        text = str(info.value)
        assert "\n" not in text
        assert re.search(message, text), text


def test_bad_agent_arguments():
    with pytest.raises(ValueError, match=r"unknown agent 'ppo2'; known agents: \['random', 'heuristic'"):
        make_agent("ppo2", ENV_ID)
    with pytest.raises(ValueError, match="unknown env id 'chess_v0'"):
        make_agent("ppo", "chess_v0")
    with pytest.raises(TypeError, match="deterministic must be True or False"):
        make_agent("ppo", ENV_ID, deterministic="yes")


def test_export_keeps_the_policy_and_drops_the_optimizer_moments(tmp_path, capsys):
    from training.export import main as export

    env = mystic_envs.single_agent("elemystic_v0")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, seed=0, device="cpu")
    model.learn(64)  # Adam's moments now hold values for every weight
    trained = tmp_path / "trained.zip"
    model.save(trained)
    export([str(trained), str(tmp_path / "shipped.zip")])
    shipped = MaskablePPO.load(tmp_path / "shipped.zip", device="cpu")
    for a, b in zip(model.policy.state_dict().values(), shipped.policy.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    assert not shipped.policy.optimizer.state_dict()["state"]
    assert (tmp_path / "shipped.zip").stat().st_size < trained.stat().st_size / 2
    with pytest.raises(SystemExit):
        export([str(tmp_path / "missing.zip"), str(tmp_path / "x.zip")])
    assert "no such model file" in capsys.readouterr().err
