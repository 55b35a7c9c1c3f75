"""training.train and training.plots end to end: a short run, exact resume, the pool, bad inputs."""

from __future__ import annotations

import csv
import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import time

import gymnasium
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.save_util import load_from_zip_file

import mystic_envs
from training import plots
from training import train as train_module
from training.evaluate import run_tournament
from training.selfplay import OpponentPool, SelfPlayEnv
from training.train import CSV_FIELDS, TrainError, main, parse_opponents

ENV_ID = "elemystic_v0"
# Two envs of 128 steps: rollouts of 256 steps, an evaluation every 512 (two rollouts).
SHORT = ["--n-steps", "128", "--n-envs", "2", "--eval-every", "512", "--eval-games", "10", "--quiet"]


def _rows(run):
    with open(run / "progress.csv", newline="") as f:
        return list(csv.DictReader(f))


def _weights(run, name="model.zip"):
    return load_from_zip_file(run / name, device="cpu")[1]["policy"]


def _same_weights(a, b):
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("train") / "full"
    main(["--timesteps", "1024", "--seed", "5", "--out", str(out), *SHORT])
    return out


def test_short_run_writes_model_csv_plot_and_snapshots(full_run, capsys):
    rows = _rows(full_run)
    assert [int(r["timesteps"]) for r in rows] == [0, 512, 1024]
    assert list(rows[0]) == CSV_FIELDS
    for row in rows:
        for opponent in ("random", "heuristic"):
            low, rate, high = (float(row[f"{k}_{opponent}"]) for k in ("ci_low", "win_rate", "ci_high"))
            assert 0 <= low <= rate <= high <= 1
    trained = rows[1:]
    assert all(int(r["episodes"]) > 0 for r in trained)
    assert sum(int(r["train_episodes_self"]) for r in trained) > 0
    assert sum(int(r["train_episodes_heuristic"]) for r in trained) > 0
    assert (full_run / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list((full_run / "snapshots").glob("step_*.zip"))) == 3
    config = json.loads((full_run / "config.json").read_text())
    assert config["seed"] == 5 and config["n_steps"] == 128 and config["opponents"]["self"] == 0.5


def test_trained_model_plays_a_tournament_from_its_path(full_run):
    result = run_tournament(ENV_ID, [str(full_run / "model.zip"), "random"], games=10, seed=0, workers=1)
    entry = result["matrix"][str(full_run / "model.zip")]["random"]
    assert entry["games"] == 10


def test_resume_continues_exactly_as_an_uninterrupted_run(full_run, tmp_path):
    out = tmp_path / "split"
    main(["--timesteps", "512", "--seed", "5", "--out", str(out), *SHORT])
    assert [int(r["timesteps"]) for r in _rows(out)] == [0, 512]
    main(["--resume", str(out), "--timesteps", "1024", "--quiet"])

    def without_clock(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert without_clock(_rows(out)) == without_clock(_rows(full_run))
    assert _same_weights(_weights(out), _weights(full_run))
    assert json.loads((out / "config.json").read_text())["timesteps"] == 1024


def test_ctrl_c_prints_the_resume_command_and_the_run_resumes_exactly(full_run, tmp_path):
    """Ctrl-C reaches the whole process group (the SubprocVecEnv workers too); the run stops in one
    line that names its --resume command, and resuming it gives the uninterrupted run."""
    out = tmp_path / "stopped"
    args = ["--timesteps", "100000", "--seed", "5", "--out", str(out), *SHORT]
    # A child started in the background may inherit SIGINT ignored; restore Python's own handler.
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        f"from training.train import main; main({args!r})"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
    )
    state = out / "checkpoint" / "state.pkl"
    deadline = time.monotonic() + 300
    while not (state.is_file() and pickle.loads(state.read_bytes())["timesteps"] >= 512):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert err.strip().splitlines() == [
        f"interrupted: the run in {out} stands at its last checkpoint (512 of 100,000 timesteps); "
        f"continue with: python -m training.train --resume {out}"
    ]
    main(["--resume", str(out), "--timesteps", "1024", "--quiet"])

    def without_clock(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert without_clock(_rows(out)) == without_clock(_rows(full_run))
    assert _same_weights(_weights(out), _weights(full_run))


def test_an_interruption_before_the_first_checkpoint_says_there_is_nothing_to_resume(
    tmp_path, capsys, monkeypatch
):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(train_module, "train", interrupted)
    with pytest.raises(SystemExit) as stopped:
        main(["--timesteps", "512", "--out", str(tmp_path / "run"), *SHORT])
    assert stopped.value.code == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        f"interrupted before the first checkpoint: nothing in {tmp_path / 'run'} to resume; "
        "start again with another --out"
    ]


def test_another_seed_gives_another_run(full_run, tmp_path):
    # (the resume test shows that the same seed gives the same run)
    main(["--timesteps", "512", "--seed", "6", "--out", str(tmp_path / "other"), *SHORT])
    same_point = _weights(full_run, "snapshots/step_000000000512.zip")
    assert not _same_weights(_weights(tmp_path / "other"), same_point)


def test_pool_draws_by_weight_and_keeps_the_latest_snapshots(full_run):
    pool = OpponentPool(ENV_ID, {"self": 0.0, "heuristic": 3.0, "random": 1.0}, pool_size=2, seed=0)
    labels = [pool.start_episode() for _ in range(400)]
    assert set(labels) == {"heuristic", "random"}
    assert 0.65 < labels.count("heuristic") / 400 < 0.85
    only_self = OpponentPool(ENV_ID, {"self": 1.0}, pool_size=2, seed=0)
    with pytest.raises(RuntimeError, match="no snapshot of the learner yet"):
        only_self.start_episode()
    snaps = sorted(str(p) for p in (full_run / "snapshots").glob("*.zip"))
    for path in snaps:
        only_self.add_snapshot(path)
    assert only_self.snapshots == snaps[-2:]
    assert only_self.start_episode() == "self"
    with pytest.raises(ValueError, match="non-negative with a positive sum"):
        OpponentPool(ENV_ID, {"random": 0.0})


def test_env_state_round_trip_mid_episode(full_run):
    def fresh():
        env = SelfPlayEnv(ENV_ID, {"self": 1.0, "random": 1.0})
        env.add_snapshot(str(full_run / "model.zip"))
        env.reset(seed=3)
        return env

    def play(env, steps):
        out = []
        for _ in range(steps):
            mask = env.action_masks()
            obs, reward, term, trunc, info = env.step(int(mask.nonzero()[0][0]))
            out.append((obs.tolist(), reward, info["opponent"]))
            if term or trunc:
                env.reset()
        return out

    a = fresh()
    play(a, 7)
    saved = a.get_state()
    expected = play(a, 60)
    b = fresh()
    b.set_state(saved)
    assert play(b, 60) == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--env", "chess_v0"], r"--env: unknown env id 'chess_v0'; available: \['elemystic_v0'"),
        (["--opponents", "alphazero"], r"--opponents: unknown agent 'alphazero'; known agents: \['random'"),
        (["--opponents", "human"], r"--opponents: agent 'human' needs a terminal"),
        (["--opponents", "mcts:simulations"], r"--opponents: bad options in agent 'mcts:simulations'"),
        (
            ["--opponents", "self", "mcts:simulations=abc=0.5"],
            r"--opponents: 'mcts:simulations=abc' cannot play elemystic_v0: simulations must be an int >= 1",
        ),
        (
            ["--env", "mystria_v0", "--opponents", "rllib=0.5", "random"],
            r"--opponents: 'rllib' cannot play mystria_v0: no pretrained RLlib policy is shipped",
        ),
        (["--opponents", "nowhere/model.zip"], r"--opponents: agent 'nowhere/model.zip': no such model file"),
        (["--opponents", "random=-1"], "--opponents: weight of 'random' must be a non-negative number"),
        (["--opponents", "random=lots"], "--opponents: weight of 'random' must be a non-negative number"),
        (["--opponents", "random=0"], "--opponents: give at least one opponent with a positive weight"),
        (["--opponents", "random", "random"], "--opponents: 'random' is listed twice"),
        (["--timesteps", "0"], "--timesteps must be an integer >= 1, got 0"),
        (["--n-envs", "0"], "--n-envs must be an integer >= 1, got 0"),
        (["--eval-games", "3"], "--eval-games must be even"),
        (["--n-steps", "1"], "--n-steps must be an integer >= 2"),
        (["--seed", "-2"], "--seed must be an integer >= 0"),
        (["--ent-coef", "-0.1"], "--ent-coef must be a finite number >= 0, got -0.1"),
        (["--learning-rate", "0"], "--learning-rate must be a finite number > 0, got 0.0"),
        (["--learning-rate", "nan"], "--learning-rate must be a finite number > 0, got nan"),
        (["--timesteps", "many"], "argument --timesteps: invalid int value: 'many'"),
        (["--imitate", "-1"], "--imitate must be an integer >= 0, got -1"),
        (["--dagger", "2"], r"--dagger needs --imitate GAMES"),
        (["--net-arch", "64", "0"], r"--net-arch must be one or more layer widths >= 1, got \[64, 0\]"),
        (["--resume", "nowhere"], r"--resume: 'nowhere' is not a run folder \(no config.json\)"),
        # Removed options (docs/training-log.md) are unknown flags now.
        (["--advice"], "unrecognized arguments: --advice"),
        (["--margin", "0.5"], "unrecognized arguments: --margin 0.5"),
        (
            ["--out", "file/run"],
            r"--out: cannot create the folder 'file/run': 'file' is a file, not a folder",
        ),
        (["--out", "file"], r"--out: cannot create the folder 'file': it is a file, not a folder"),
    ],
)
def test_bad_inputs_are_one_line_usage_errors(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("python -m training.train: error: ")
    assert re.search(message, last), last
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # no run folder, not even an empty one


def test_an_out_folder_that_cannot_be_made_is_refused_before_anything_is_written(
    tmp_path, monkeypatch, capsys
):
    # Root may write anywhere, so a read-only folder is played by a mkdir that is refused.
    import pathlib

    def refused(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", refused)
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "locked" / "run"), "--timesteps", "256", *SHORT])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(r"--out: cannot write to the folder '.*locked/run' \(Permission denied\)", last), last
    assert list(tmp_path.iterdir()) == []


def test_resume_errors(full_run, tmp_path, capsys):
    def error(args):
        with pytest.raises(SystemExit):
            main(args)
        return capsys.readouterr().err.strip().splitlines()[-1]

    assert "only --timesteps may be given, not --seed" in error(["--resume", str(full_run), "--seed", "1"])
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text((full_run / "config.json").read_text())
    assert re.search(r"--resume: no checkpoint in '.*broken'", error(["--resume", str(broken)]))
    assert "already holds a run; use --resume" in error(["--out", str(full_run)])
    # A copied run would go on writing into (and reading snapshots from) the original folder.
    copy = tmp_path / "copy"
    shutil.copytree(full_run, copy)
    before = (full_run / "progress.csv").read_text()
    assert "is a copy or a move of the run in" in error(["--resume", str(copy), "--timesteps", "1536"])
    assert (full_run / "progress.csv").read_text() == before
    # Fewer steps than the run has would throw training away; the run is left as it was.
    config = (full_run / "config.json").read_text()
    assert re.search(
        r"--resume: the run in '.*full' already has 1,024 timesteps; --timesteps 512 would undo training",
        error(["--resume", str(full_run), "--timesteps", "512"]),
    )
    assert (full_run / "config.json").read_text() == config


def test_a_run_from_before_the_removed_options_resumes_unless_it_used_one(tmp_path, capsys):
    out = tmp_path / "old"
    main(["--timesteps", "256", "--seed", "1", "--out", str(out), *SHORT])
    config = json.loads((out / "config.json").read_text())
    # What config.json held while --advice, --margin and the rest existed, all off.
    old = {**config, "advice": False, "advice_weight": 8.0, "advice_softness": 0.0, "shaping": 0.0}
    old |= {"margin": 0.0, "critic_warmup": 0, "anchor": 0.0}
    (out / "config.json").write_text(json.dumps(old))
    main(["--resume", str(out), "--timesteps", "256", "--quiet"])
    assert json.loads((out / "config.json").read_text()) == config
    (out / "config.json").write_text(json.dumps({**old, "margin": 0.5}))
    with pytest.raises(SystemExit):
        main(["--resume", str(out)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(r"the run in '.*old' used --margin, which was removed \(docs/training-log.md\)", last)


def test_opponents_are_agent_specs_with_weights(full_run, tmp_path, monkeypatch):
    assert parse_opponents(["self=2", "random"]) == {"self": 2.0, "random": 1.0}
    # An "=" inside the options is an option; one after complete options is the weight.
    assert parse_opponents(["mcts:simulations=20", "heuristic:FIX=0.8=0.5"]) == {
        "mcts:simulations=20": 1.0,
        "heuristic:FIX=0.8": 0.5,
    }
    assert parse_opponents(["mcts:simulations=20,c=1.4=3"]) == {"mcts:simulations=20,c=1.4": 3.0}
    # Model paths are kept absolute, so a resumed run finds them from any directory.
    monkeypatch.chdir(full_run)
    assert parse_opponents(["model.zip=0.5"]) == {str(full_run / "model.zip"): 0.5}
    with pytest.raises(TrainError, match="weight of 'random' must be a non-negative number, got 'x'"):
        parse_opponents(["random=x"])
    # The pool plays what the specs say.
    pool = OpponentPool(ENV_ID, parse_opponents(["mcts:simulations=3,rollout_depth=2"]), seed=0)
    assert pool.start_episode() == "mcts:simulations=3,rollout_depth=2"
    assert (pool.current.simulations, pool.current.rollout_depth) == (3, 2)
    env = SelfPlayEnv(ENV_ID, {"mcts:simulations=3": 1.0, str(full_run / "model.zip"): 1.0})
    labels = set()
    for seed in range(6):
        _, info = env.reset(seed=seed)
        _, _, _, _, step_info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert step_info["opponent"] == info["opponent"]  # on every step, not only at the end
        labels.add(info["opponent"])
    assert labels == {"mcts:simulations=3", str(full_run / "model.zip")}


def test_plot_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no training progress file"):
        plots.read_progress(tmp_path)
    (tmp_path / "progress.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="is not a training progress CSV"):
        plots.read_progress(tmp_path)


def test_demo_trains_evaluates_and_prints_the_table(tmp_path, capsys):
    from training import demo

    result = demo.main(["--timesteps", "2048", "--games", "2", "--out", str(tmp_path)])
    model = str(tmp_path / "train" / "model.zip")
    assert result["agents"] == [model, "random", "heuristic", "mcts:simulations=200"]
    assert result["total_games"] == 6 * 2
    printed = capsys.readouterr().out
    assert "## Win rate, row vs column" in printed
    assert f"learning curve: {tmp_path / 'train' / 'learning_curve.png'}" in printed
    assert f"win-rate plot: {tmp_path / 'eval' / 'winrate.png'}" in printed
    assert (tmp_path / "eval" / "results.json").is_file()


_MULTI = [e for e in mystic_envs.ENV_IDS if max(mystic_envs.player_counts(e)) > 2]


@pytest.mark.parametrize("env_id", _MULTI)
def test_a_tiny_run_at_the_largest_table_of_every_multiplayer_env(env_id, tmp_path):
    n = max(mystic_envs.player_counts(env_id))
    out = tmp_path / "run"
    table = ["--env", env_id, "--num-players", str(n), "--timesteps", "128", "--out", str(out)]
    main(
        [*table, "--n-steps", "64", "--n-envs", "1", "--eval-every", "128", "--eval-games", str(n), "--quiet"]
    )
    assert json.loads((out / "config.json").read_text())["num_players"] == n
    assert [int(r["timesteps"]) for r in _rows(out)] == [0, 128]


def _with_unbounded_space(path):
    """Rewrite the model zip ``path`` as runs saved it before observation spaces carried their
    layout's bounds: its observation space ``Box(-inf, inf)`` of the same shape (all else kept)."""
    from gymnasium import spaces
    from stable_baselines3.common.save_util import save_to_zip_file

    data, params, variables = load_from_zip_file(path, device="cpu", print_system_info=False)
    shape = data["observation_space"].shape
    assert np.isfinite(data["observation_space"].high).all()  # a model of today carries its bounds
    data["observation_space"] = spaces.Box(-np.inf, np.inf, shape, np.float32)
    save_to_zip_file(path, data=data, params=params, pytorch_variables=variables)


def test_a_run_saved_with_the_unbounded_observation_space_resumes_exactly(full_run, tmp_path):
    out = tmp_path / "old_space"
    main(["--timesteps", "512", "--seed", "5", "--out", str(out), *SHORT])
    checkpoints = list((out / "checkpoint").glob("model_*.zip"))
    assert checkpoints
    for path in checkpoints:
        _with_unbounded_space(path)
    main(["--resume", str(out), "--timesteps", "1024", "--quiet"])
    assert _same_weights(_weights(out), _weights(full_run))
    assert np.isfinite(load_from_zip_file(out / "model.zip", device="cpu")[0]["observation_space"].high).all()


def test_resuming_with_a_model_of_another_observation_shape_is_still_an_error(tmp_path):
    from gymnasium import spaces

    venv = train_module._make_venv(train_module.TrainConfig(env=ENV_ID, n_envs=1))
    try:
        wrong = spaces.Box(-np.inf, np.inf, (venv.observation_space.shape[0] + 1,), np.float32)

        class _Wrong(gymnasium.Env):
            observation_space = wrong
            action_space = venv.action_space

        path = tmp_path / "wrong.zip"
        MaskablePPO("MlpPolicy", _Wrong(), n_steps=8, batch_size=8, device="cpu").save(path)
        with pytest.raises(ValueError, match="Observation spaces do not match"):
            train_module.load_for_env(path, venv)
    finally:
        venv.close()
