"""training.core_train and training.lean_ppo: per-seat credit, the pool, exact resume, bad inputs,
and the lean PPO learning Elemystic against random as well as SB3's MaskablePPO does."""

from __future__ import annotations

import csv

import numpy as np
import pytest
import torch
from stable_baselines3.common.save_util import load_from_zip_file

import mystic_envs
from tests.core.cases import require_core
from training import core_train
from training.core_train import CoreTrainConfig, SelfPlayCollector, main
from training.lean_ppo import build_policy, gae

ENV_ID = "elemystic_v0"
# Elemystic's observation space (125 values): what core_train builds its policy for.
_ELEMYSTIC_BOX = mystic_envs.make_raw(ENV_ID).observation_space("player_0")["observation"]
TINY = [
    "--env", ENV_ID, "--num-envs", "16", "--n-steps", "8", "--eval-every", "300", "--eval-games", "4",
    "--eval-opponents", "random", "--quiet", "--random-start", "3", "--pool-frac", "0.3",
    "--random-frac", "0.2", "--batch-size", "64", "--n-epochs", "2",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


def test_gae_follows_each_seat_and_not_the_buffer_order():
    # Two seats of one game interleaved in one env column: rows 0, 2 are seat 0's, rows 1, 3 seat 1's;
    # the game ends after row 3 (seat 1 wins: +1 for row 3, -1 for row 2, both terminal).
    rewards = np.array([[0.0], [0.0], [-1.0], [1.0]], dtype=np.float32)
    values = np.array([[0.1], [0.2], [0.3], [0.4]], dtype=np.float32)
    next_row = np.array([[2], [3], [-1], [-1]])
    done = np.array([[False], [False], [True], [True]])
    adv, ret = gae(rewards, values, next_row, done, np.zeros((4, 1), np.float32), gamma=0.9, lam=0.5)
    a2 = -1 - 0.3
    a0 = 0 + 0.9 * 0.3 - 0.1 + 0.9 * 0.5 * a2
    a3 = 1 - 0.4
    a1 = 0 + 0.9 * 0.4 - 0.2 + 0.9 * 0.5 * a3
    np.testing.assert_allclose(adv[:, 0], [a0, a1, a2, a3], rtol=1e-6)
    np.testing.assert_allclose(ret, adv + values, rtol=1e-6)
    # A cut trajectory (no successor, not done) takes its bootstrap value.
    cut = (np.array([[-1]]), np.array([[False]]), np.array([[0.5]], np.float32))
    adv, _ = gae(rewards[:1], values[:1], *cut, gamma=0.9, lam=0.5)
    np.testing.assert_allclose(adv[0, 0], 0.9 * 0.5 - 0.1, rtol=1e-6)


def _collect_rollout(monkeypatch, **overrides):
    seen = {}
    real = core_train.gae

    def spy(rewards, values, next_row, done, bootstrap, gamma, lam):
        seen.update(rewards=rewards, next_row=next_row, done=done)
        return real(rewards, values, next_row, done, bootstrap, gamma, lam)

    monkeypatch.setattr(core_train, "gae", spy)
    cfg = CoreTrainConfig(env=ENV_ID, num_envs=32, n_steps=250, **overrides)
    policy = build_policy(_ELEMYSTIC_BOX, 33, [16], seed=0)
    collector = SelfPlayCollector(cfg, policy, np.random.default_rng(0), torch.Generator().manual_seed(0))
    collector.add_snapshot(policy)
    collector.restart(3)
    batch, info = collector.collect()
    return collector, batch, info, seen


def test_self_play_credits_every_seat_with_its_terminal_reward(monkeypatch):
    collector, batch, info, seen = _collect_rollout(monkeypatch, pool_frac=0.0)
    assert info["timesteps"] == len(batch) > 0
    done, rewards = seen["done"], seen["rewards"]
    games = len(collector.results["self"])
    assert games > 50
    # Both seats of every finished game end a transition there, the loser's included (it did not move last).
    assert done.sum() == 2 * games
    wins, losses = (rewards[done] == 1).sum(), (rewards[done] == -1).sum()
    assert wins == losses and wins + losses + (rewards[done] == 0).sum() == done.sum()
    # Rewards come only at the end, and no row is its own successor.
    assert (rewards[~done] == 0).all()
    t = np.arange(rewards.shape[0])[:, None]
    assert ((seen["next_row"] == -1) | (seen["next_row"] > t)).all()


def test_pool_and_random_games_train_only_the_learner_seat(monkeypatch):
    collector, _, _, seen = _collect_rollout(monkeypatch, pool_frac=0.5, random_frac=0.5)
    res = collector.results
    assert res["self"] == [] and len(res["pool"]) > 20 and len(res["random"]) > 20
    # One trained seat per game: one terminal transition per finished game.
    assert seen["done"].sum() == len(res["pool"]) + len(res["random"])


def test_random_starts_leave_the_opening_moves_untrained(monkeypatch):
    _, plain, _, _ = _collect_rollout(monkeypatch, pool_frac=0.0)
    _, opened, _, _ = _collect_rollout(monkeypatch, pool_frac=0.0, random_start=20, random_start_frac=1.0)
    assert len(opened) < 0.8 * len(plain)


def _weights(path):
    return load_from_zip_file(path, device="cpu")[1]["policy"]


def test_resume_at_a_checkpoint_gives_the_same_weights(tmp_path):
    full, part = tmp_path / "full", tmp_path / "part"
    main([*TINY, "--timesteps", "900", "--out", str(full)])
    main([*TINY, "--timesteps", "600", "--out", str(part)])
    main(["--resume", str(part), "--timesteps", "900", "--quiet"])
    a, b = _weights(full / "model.zip"), _weights(part / "model.zip")
    assert all(torch.equal(a[k], b[k]) for k in a)
    with open(full / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) >= 300 * i for i, r in enumerate(rows)] == [True] * 4
    for r in rows:
        assert (
            0 <= float(r["ci_low_random"]) <= float(r["win_rate_random"]) <= float(r["ci_high_random"]) <= 1
        )
    assert (full / "learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    # The final model is a MaskablePPO zip the ppo agent loads.
    from agents import make_agent

    assert make_agent("ppo", ENV_ID, path=str(full / "model.zip")) is not None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pool-frac", "1.5"], "--pool-frac must be a number from 0 to 1"),
        (["--pool-frac", "0.6", "--random-frac", "0.6"], "at most 1"),
        (["--eval-games", "3"], "--eval-games must be a multiple of 2"),
        (["--eval-opponents", "nosuchagent"], "--eval-opponents"),
        (["--env", "nosuch_v0"], "--env must be one of"),
        (["--dagger", "1"], "--dagger needs --imitate"),
    ],
)
def test_bad_inputs_are_one_line_errors(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "run"), "--quiet", *argv])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in err
    assert not (tmp_path / "run").exists()


def test_resume_refuses_other_settings(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--resume", str(tmp_path), "--seed", "3"])
    assert "only --timesteps may be given" in capsys.readouterr().err


# -- learning: the lean PPO against SB3's MaskablePPO ----------------------------------------------


def _lean_and_sb3_against_random(tmp_path, budget: int, seed: int) -> tuple[float, float]:
    from sb3_contrib import MaskablePPO

    from agents import make_agent
    from agents.ppo import PPOAgent
    from training.train import evaluate_against
    from training.vec import CoreVecEnv

    torch.set_num_threads(1)
    cfg = CoreTrainConfig(
        env=ENV_ID, timesteps=budget, num_envs=16, n_steps=64, random_frac=1.0, pool_frac=0.0,
        eval_every=budget, eval_games=2, eval_opponents=["random"], out=str(tmp_path / f"lean{seed}"),
        n_epochs=4, seed=seed,
    )  # fmt: skip
    lean = make_agent("ppo", ENV_ID, path=str(core_train.train(cfg, progress=False)))
    # The same network, PPO settings and rollout size (16 envs x 32 learner steps) on SB3's loop.
    venv = CoreVecEnv(ENV_ID, num_envs=16, seed=seed, opponent="random")
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=256, n_epochs=4, seed=seed,
                        policy_kwargs={"net_arch": [128, 128]}, device="cpu")  # fmt: skip
    model.learn(budget)
    return tuple(
        evaluate_against(agent, "random", ENV_ID, 200, seed=1)["win_rate"]
        for agent in (lean, PPOAgent.from_model(model, ENV_ID))
    )


def test_lean_ppo_learns_elemystic_against_random_as_sb3_does(tmp_path):
    # 8,192 learner steps each from one seed (~20 s); untrained policies score about 0.7 here.
    lean, sb3 = _lean_and_sb3_against_random(tmp_path, 8192, seed=0)
    assert lean >= 0.78 and sb3 >= 0.78
    assert lean >= sb3 - 0.15


@pytest.mark.slow
def test_lean_ppo_matches_sb3_over_three_seeds(tmp_path):
    pairs = [_lean_and_sb3_against_random(tmp_path, 16384, seed) for seed in range(3)]
    lean, sb3 = (float(np.mean(x)) for x in zip(*pairs, strict=True))
    assert lean >= sb3 - 0.06, pairs


def test_training_train_core_is_the_same_entry(tmp_path, capsys):
    from training import train

    with pytest.raises(SystemExit):
        train.main(["--core", "--out", str(tmp_path / "run"), "--random-frac", "-1"])
    assert "python -m training.core_train: error: --random-frac" in capsys.readouterr().err


def test_lean_evaluation_equals_sb3_policy_evaluate_actions():
    from training.lean_ppo import HUGE_NEG, evaluate_actions

    rng = np.random.default_rng(0)
    policy = build_policy(_ELEMYSTIC_BOX, 33, [32, 32], seed=1)
    obs = torch.as_tensor(rng.standard_normal((64, 125)), dtype=torch.float32)
    masks = rng.random((64, 33)) < 0.3
    masks[np.arange(64), rng.integers(33, size=64)] = True
    actions = torch.as_tensor([rng.choice(np.flatnonzero(m)) for m in masks])
    bias = torch.as_tensor(np.where(masks, 0, HUGE_NEG), dtype=torch.float32)
    values, logp, entropy = evaluate_actions(policy, obs, bias, actions)
    sb3_values, sb3_logp, sb3_entropy = policy.evaluate_actions(obs, actions, action_masks=masks)
    torch.testing.assert_close(values, sb3_values.flatten())
    torch.testing.assert_close(logp, sb3_logp)
    torch.testing.assert_close(entropy, sb3_entropy)


def test_max_steps_cuts_are_bootstrapped_not_ended(monkeypatch):
    from mystic_envs import vector

    seen = {}
    real = core_train.gae

    def spy(rewards, values, next_row, done, bootstrap, gamma, lam):
        seen.update(rewards=rewards, next_row=next_row, done=done, bootstrap=bootstrap)
        return real(rewards, values, next_row, done, bootstrap, gamma, lam)

    monkeypatch.setattr(core_train, "gae", spy)
    cfg = CoreTrainConfig(env=ENV_ID, num_envs=8, n_steps=60, pool_frac=0.0)
    policy = build_policy(_ELEMYSTIC_BOX, 33, [16], seed=0)
    collector = SelfPlayCollector(cfg, policy, np.random.default_rng(0), torch.Generator().manual_seed(0))
    collector.v = vector.make(ENV_ID, num_envs=8, seed=0, max_steps=6)  # every game cut after 6 moves
    collector.restart(0)
    collector.collect()
    assert len(collector.results["self"]) >= 8 * 5  # 7 steps a game with the restart
    assert not seen["done"].any()  # a cut game is not a loss for anyone
    # Both seats' last transitions of every cut game take the value of their view where it was cut.
    assert (seen["bootstrap"] != 0).sum() >= 2 * len(collector.results["self"])


def test_ctrl_c_prints_the_resume_command_of_the_last_checkpoint(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    main([*TINY, "--timesteps", "600", "--out", str(out)])
    with open(out / "progress.csv", newline="") as f:
        done = int(list(csv.DictReader(f))[-1]["timesteps"])  # whole rollouts: at least 600

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    # Ctrl-C in the middle of a rollout, inside train(): nothing on the way out may add a line.
    monkeypatch.setattr(core_train.SelfPlayCollector, "collect", interrupted)
    capsys.readouterr()
    with pytest.raises(SystemExit) as stopped:
        main(["--resume", str(out), "--timesteps", "900", "--quiet"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        f"interrupted: the run in {out} stands at its last checkpoint ({done} of 900 timesteps); "
        f"continue with: python -m training.core_train --resume {out}"
    ]
    monkeypatch.setattr(core_train, "train", interrupted)  # before the first evaluation's checkpoint
    with pytest.raises(SystemExit):
        main([*TINY, "--timesteps", "600", "--out", str(tmp_path / "new")])
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"interrupted before the first checkpoint: nothing in {tmp_path / 'new'} to resume; "
        "start again with another --out"
    )
