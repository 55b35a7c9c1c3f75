"""The batched learner adapters (training/vec.py): exactness against the AEC env, reward credit,
autoreset in SB3's and Gymnasium's modes, masks, the heuristic in lockstep, MaskablePPO on them."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import mystic_envs
from tests.core.cases import require_core
from training.vec import (
    CoreGymVectorEnv,
    CoreVecEnv,
    FrozenPolicy,
    LearnerBatch,
    opponent_seed,
)

TWIN_IDS = [
    ("elemystic_v0", {}),
    ("mystria_v0", {}),
    ("mystria_v0", {"variant": "intro"}),
    ("tarot_dice_v0", {}),
    ("mystick_domination_v0", {}),
]


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic batch opponent: the lowest legal action."""
    return masks.argmax(axis=1)


class Replay:
    """Env ``i`` of a batch replayed on the Python AEC env: same seeds, learner's and opponents' moves."""

    def __init__(self, env_id: str, kwargs: dict, seed: int, n: int, i: int, opponent) -> None:
        self.env = mystic_envs.make(env_id, **kwargs)
        self.seed, self.n, self.i, self.k = seed, n, i, 0
        self.opponent = opponent  # (env, agent) -> action
        self.moves: list[int] = []

    def start(self, seat: int) -> None:
        self.env.reset(seed=self.seed + self.i + self.k * self.n)
        self.learner = f"player_{seat}"
        self._others()

    def _others(self) -> float:
        env, total = self.env, 0.0
        while env.agents and env.agent_selection != self.learner:
            ag = env.agent_selection
            if env.terminations[ag] or env.truncations[ag]:
                break  # the game is over (two players: every seat ends together)
            a = self.opponent(env, ag)
            self.moves.append(a)
            env.step(a)
            total += env.rewards.get(self.learner, 0.0)
        return total

    def step(self, action: int) -> tuple[float, bool, bool]:
        env = self.env
        env.step(int(action))
        reward = env.rewards[self.learner] + self._others()
        return reward, env.terminations[self.learner], env.truncations[self.learner]

    def view(self) -> tuple[np.ndarray, np.ndarray]:
        o = self.env.observe(self.learner)
        return o["observation"], o["action_mask"].astype(bool)


def _aec_first_legal(env, agent) -> int:
    return int(np.flatnonzero(env.observe(agent)["action_mask"])[0])


@pytest.mark.parametrize(("env_id", "kwargs"), TWIN_IDS)
def test_learner_view_equals_aec_view(env_id: str, kwargs: dict) -> None:
    n, seed = 3, 11
    venv = CoreVecEnv(env_id, num_envs=n, seed=seed, opponent=first_legal, **kwargs)
    obs = venv.reset()
    replays = [Replay(env_id, kwargs, seed, n, i, _aec_first_legal) for i in range(n)]
    for i, r in enumerate(replays):
        r.start(int(venv.core.seat[i]))
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        masks = venv.action_masks()
        for i, r in enumerate(replays):
            want_obs, want_mask = r.view()
            np.testing.assert_array_equal(obs[i], want_obs)
            np.testing.assert_array_equal(masks[i], want_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = venv.step(actions)
        for i, r in enumerate(replays):
            reward, term, trunc = r.step(actions[i])
            assert rewards[i] == pytest.approx(reward), (i, reward)
            assert dones[i] == (term or trunc)
            if dones[i]:
                ends += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], r.view()[0])
                assert infos[i]["TimeLimit.truncated"] == (trunc and not term)
                r.k += 1
                r.start(infos[i]["seat"])
            else:
                assert "terminal_observation" not in infos[i]
            assert infos[i]["seat"] == int(r.learner.split("_")[1])
    assert ends >= 3, "the test must cross game ends"
    assert (venv.core.v.games_started() == np.array([r.k + 1 for r in replays])).all()


def test_truncation_and_fixed_seat() -> None:
    venv = CoreVecEnv("elemystic_v0", num_envs=4, seed=3, seat=1, max_steps=6)
    venv.reset()
    rng = np.random.default_rng(1)
    truncs = 0
    for _ in range(20):
        assert (venv.core.seat == 1).all()
        masks = venv.action_masks()
        assert masks.any(axis=1).all(), "the learner always has a move"
        _, rewards, dones, infos = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for i in np.flatnonzero(dones):
            truncs += infos[i]["TimeLimit.truncated"]
            if infos[i]["TimeLimit.truncated"]:
                assert rewards[i] == 0.0
    assert truncs > 0


def test_rewards_are_zero_sum_outcomes() -> None:
    venv = CoreVecEnv("tarot_dice_v0", num_envs=8, seed=5)
    venv.reset()
    totals = np.zeros(8)
    finals = []
    for _ in range(400):
        masks = venv.action_masks()
        _, rewards, dones, _ = venv.step(np.argmax(masks, axis=1))
        totals += rewards
        finals += list(totals[dones])
        totals[dones] = 0
    assert finals and set(np.round(finals, 6)) <= {-1.0, 0.0, 1.0}


def test_gymnasium_vector_env_next_step_autoreset() -> None:
    env = CoreGymVectorEnv("elemystic_v0", num_envs=4, seed=2, opponent="random")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=7)
    assert env.observation_space.contains(obs) and (info["seat"] >= 0).all()
    first = obs.copy()
    rng = np.random.default_rng(0)
    saw_end = False
    for _ in range(200):
        masks = env.action_masks()
        ended = ~masks.any(axis=1)
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 10**6 for m in masks])
        acts = np.minimum(acts, env.single_action_space.n - 1)  # ignored where the episode ended
        obs, rewards, term, trunc, info = env.step(acts)
        assert env.observation_space.contains(obs)
        if ended.any():
            saw_end = True
            # The step after an end starts the next game: reward 0, not done, a move to play.
            assert (rewards[ended] == 0).all() and not (term | trunc)[ended].any()
            assert env.action_masks()[ended].any(axis=1).all()
    assert saw_end
    again, _ = env.reset(seed=7)
    np.testing.assert_array_equal(again, first)
    # Gymnasium's own vector wrappers read the autoreset mode and run on it.
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(CoreGymVectorEnv("elemystic_v0", 2, seed=0))
    stats.reset(seed=0)
    for _ in range(120):
        masks = stats.env.action_masks()
        stats.step(np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks]))
    assert len(stats.return_queue) > 0


@pytest.mark.parametrize("env_id", ["elemystic_v0", "mystria_v0", "tarot_dice_v0", "mystick_domination_v0"])
def test_heuristic_plays_as_agents_heuristic(env_id: str) -> None:
    from agents import make_agent

    n, seed = 2, 4
    venv = CoreVecEnv(env_id, num_envs=n, seed=seed, opponent="heuristic")
    heuristics = [make_agent("heuristic", env_id, seed=opponent_seed(seed, i)) for i in range(n)]
    steps = {"elemystic_v0": 60, "mystria_v0": 15, "tarot_dice_v0": 40, "mystick_domination_v0": 40}[env_id]
    play_beside_the_aec_env(venv, env_id, seed, heuristics, steps, np.random.default_rng(2))


def play_beside_the_aec_env(venv: CoreVecEnv, env_id: str, seed: int, aec_agents, steps: int, rng) -> None:
    """``steps`` random learner steps on ``venv`` (batch seeded ``seed``, not yet reset) and the same
    games on the AEC env with ``aec_agents[i]`` as env i's opponent: the learner's views and every
    opponent move must be equal."""
    n = venv.num_envs
    played: list[list[int]] = [[] for _ in range(n)]
    for i, agent in enumerate(venv.core._agents):

        def record(env, agent_id, _act=agent.act, _i=i):
            played[_i].append(_act(env, agent_id))
            return played[_i][-1]

        agent.act = record
    venv.reset()
    replays = [Replay(env_id, {}, seed, n, i, aec_agents[i].act) for i in range(n)]
    for i, r in enumerate(replays):
        r.start(int(venv.core.seat[i]))
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, _, dones, infos = venv.step(actions)
        for i, r in enumerate(replays):
            r.step(actions[i])
            if dones[i]:
                r.k += 1
                r.start(infos[i]["seat"])
            np.testing.assert_array_equal(obs[i], r.view()[0])
    for i, r in enumerate(replays):
        assert played[i] == r.moves and len(r.moves) > 0


def test_masks_and_errors() -> None:
    venv = CoreVecEnv("mystria_v0", num_envs=3, seed=0)
    venv.reset()
    masks = venv.action_masks()
    assert masks.dtype == bool and masks.shape == (3, venv.action_space.n)
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    assert is_masking_supported(venv)
    np.testing.assert_array_equal(get_action_masks(venv), masks)
    illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
    with pytest.raises(mystic_envs.IllegalActionError, match="env 0"):
        venv.step(illegal)
    with pytest.raises(ValueError, match="seat must be"):
        CoreVecEnv("mystria_v0", num_envs=2, seat=2)
    with pytest.raises(TypeError, match="opponent must be"):
        CoreVecEnv("mystria_v0", num_envs=2, opponent=3)
    with pytest.raises(ValueError, match="one per env"):
        CoreVecEnv("mystria_v0", num_envs=2, opponent=["random"])
    with pytest.raises(RuntimeError, match="before reset"):
        venv.set_opponent("heuristic")


def test_maskable_ppo_trains_on_it_with_frozen_and_mixed_opponents() -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    venv = CoreVecEnv("elemystic_v0", num_envs=8, seed=0)
    model = MaskablePPO(
        "MlpPolicy", VecMonitor(venv), n_steps=32, batch_size=64, n_epochs=1, seed=0, verbose=0
    )
    model.learn(512)
    assert model.num_timesteps >= 512 and len(model.ep_info_buffer) > 0
    frozen = FrozenPolicy(model.policy)
    venv.set_opponent(frozen)
    model.learn(256, reset_num_timesteps=False)
    venv.set_opponent([frozen, "random"] * 4)
    model.learn(256, reset_num_timesteps=False)
    # The frozen copy does not follow the learner's updates.
    p_frozen = next(frozen.policy.parameters()).detach().clone()
    model.learn(256, reset_num_timesteps=False)
    assert next(frozen.policy.parameters()).detach().equal(p_frozen)
    masks = venv.action_masks()
    acts = frozen(venv.core.observation, masks)
    assert masks[np.arange(8), acts].all()


def test_same_seed_same_run() -> None:
    def run() -> np.ndarray:
        core = LearnerBatch("tarot_dice_v0", num_envs=5, seed=9, opponent="random")
        core.reset()
        out = []
        for _ in range(50):
            core.step(core.action_mask.argmax(axis=1))
            out.append(core.observation.copy())
        return np.stack(out)

    np.testing.assert_array_equal(run(), run())


def test_mystic_envs_imports_without_torch() -> None:
    code = "import sys, mystic_envs, mystic_envs.vector; assert 'torch' not in sys.modules, 'torch'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_step_active_leaves_the_other_envs_as_they_are() -> None:
    from mystic_envs import vector

    v = vector.make("mystria_v0", num_envs=4, seed=1)
    v.reset()
    before = [a.copy() for a in (v.current_player, v.observation, v.action_mask)]
    active = np.array([True, False, True, False])
    v.step_active(v.sample_legal(), active)
    for a, b in zip((v.current_player, v.observation, v.action_mask), before, strict=True):
        np.testing.assert_array_equal(a[~active], b[~active])
    assert (v.observation[active] != before[1][active]).any()
    illegal = np.array([np.flatnonzero(~m)[0] for m in v.action_mask])
    v.step_active(illegal, np.zeros(4, dtype=bool))  # nothing active: nothing checked, nothing played
    with pytest.raises(mystic_envs.IllegalActionError, match="env 2"):
        v.step_active(illegal, np.array([False, False, True, False]))


def test_vec_opponents_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "vec_opponents.py"
    spec = importlib.util.spec_from_file_location("vec_opponents", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.main(["--env", "elemystic_v0", "--seconds", "0.2", "--num-envs", "4"])
    assert set(report["elemystic_v0"]) == {"random", "frozen", "heuristic", "aec heuristic"}
    assert all(r["steps_per_s"] > 0 for r in report["elemystic_v0"].values())
    assert capsys.readouterr().out.count("| elemystic_v0 |") == 4


def test_gymnasium_learner_view_equals_aec_view() -> None:
    """The next-step mode against the AEC env: the step after an end starts the replay's next game."""
    n, seed, env_id = 3, 21, "mystria_v0"
    env = CoreGymVectorEnv(env_id, num_envs=n, seed=seed, opponent=first_legal)
    obs, info = env.reset()
    replays = [Replay(env_id, {}, seed, n, i, _aec_first_legal) for i in range(n)]
    for i, r in enumerate(replays):
        r.start(int(info["seat"][i]))
    ended = np.zeros(n, dtype=bool)
    rng = np.random.default_rng(3)
    ends = 0
    for _ in range(300):
        masks = env.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, rewards, term, trunc, info = env.step(acts)
        for i, r in enumerate(replays):
            if ended[i]:
                r.k += 1
                r.start(int(info["seat"][i]))
                assert rewards[i] == 0 and not (term[i] or trunc[i])
            else:
                reward, t, tr = r.step(acts[i])
                assert rewards[i] == pytest.approx(reward) and (term[i], trunc[i]) == (t, tr)
            np.testing.assert_array_equal(obs[i], r.view()[0])
            np.testing.assert_array_equal(env.action_masks()[i], r.view()[1] & ~(term[i] | trunc[i]))
        ended = term | trunc
        ends += int(ended.sum())
    assert ends >= 3


def test_sb3_vec_env_wrappers_run_on_it() -> None:
    """SB3's own VecEnv wrappers (VecNormalize reads terminal_observation, VecFrameStack the spaces)."""
    from stable_baselines3.common.vec_env import VecFrameStack, VecNormalize

    venv = VecFrameStack(VecNormalize(CoreVecEnv("tarot_dice_v0", num_envs=4, seed=0)), n_stack=2)
    obs = venv.reset()
    assert obs.shape == (4, 2 * venv.venv.observation_space.shape[0])
    core = venv.venv.venv.core
    for _ in range(100):
        obs, _, dones, infos = venv.step(core.action_mask.argmax(axis=1))
        assert obs.shape[0] == 4 and np.isfinite(obs).all()
        for i in np.flatnonzero(dones):
            assert "terminal_observation" in infos[i]


def test_mixed_opponents_keep_the_heuristic_envs_in_lockstep() -> None:
    venv = CoreVecEnv("elemystic_v0", num_envs=3, seed=8, opponent=["heuristic", first_legal, "random"])
    core = venv.core
    assert core._views[1] is None and core._views[2] is None  # only the heuristic's env keeps a state
    obs = venv.reset()
    rng = np.random.default_rng(4)
    for _ in range(80):
        state = core._views[0].game_state
        np.testing.assert_array_equal(obs[0], state.observation(int(core.seat[0])))
        masks = venv.action_masks()
        obs, _, _, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))


def test_maskable_ppo_on_it_is_reproducible() -> None:
    import torch
    from sb3_contrib import MaskablePPO

    def weights() -> list[torch.Tensor]:
        venv = CoreVecEnv("mystria_v0", num_envs=4, seed=1)
        model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=32, n_epochs=1, seed=3)
        model.learn(128)
        venv.set_opponent(FrozenPolicy(model.policy))
        model.learn(64, reset_num_timesteps=False)
        return [p.detach().clone() for p in model.policy.parameters()]

    for a, b in zip(weights(), weights(), strict=True):
        assert torch.equal(a, b)
