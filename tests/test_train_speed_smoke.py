"""Smoke test of ``benchmarks/train_speed.py`` in ``--quick`` mode: structure only, never speed."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest
import torch

from tests.core.cases import require_core

TRAIN_BENCH_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "train_speed.py"


def _load(path: Path):
    # benchmarks/ is a script folder, not a package; the module is registered so subprocesses find it.
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n_envs", ["1", "2"])  # DummyVecEnv, SubprocVecEnv
def test_train_speed_quick(n_envs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load(TRAIN_BENCH_PATH)
    out = tmp_path / "train_speed.json"
    report = bench.main(["--quick", "--env", "elemystic_v0", "--n-envs", n_envs, "--json", str(out)])
    assert set(report["contenders"]) == {"elemystic_v0", "connect_four_v3"}
    assert report["config"]["rounds"] == 1 and report["config"]["n_envs"] == int(n_envs)
    for name, r in report["contenders"].items():
        assert r["timesteps"] >= report["config"]["timesteps"], name
        assert len(r["timesteps_per_s_rounds"]) == 1
        assert math.isfinite(r["timesteps_per_s"]) and r["timesteps_per_s"] > 0, name
        assert r["ratio_to_baseline"] == pytest.approx(
            r["timesteps_per_s"] / report["contenders"]["connect_four_v3"]["timesteps_per_s"]
        )
        assert r["episodes"] >= 1 and r["mean_episode_length"] >= 1
    assert report["contenders"]["connect_four_v3"]["obs_size"] == 6 * 7 * 2
    assert [t["contender"] for t in report["targets"]] == ["elemystic_v0"]
    assert isinstance(report["targets"][0]["passed"], bool)
    printed = capsys.readouterr().out
    assert "| elemystic_v0 |" in printed and "| connect_four_v3 |" in printed
    assert printed.count("PASS") + printed.count("FAIL") == 1
    assert json.loads(out.read_text())["contenders"].keys() == report["contenders"].keys()


def test_train_speed_core_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--core``: today's SB3 path and MaskablePPO on training.vec.CoreVecEnv, side by side."""
    require_core()
    bench = _load(TRAIN_BENCH_PATH)
    out = tmp_path / "core_speed.json"
    report = bench.main(["--quick", "--core", "--env", "elemystic_v0", "--json", str(out)])
    cfg = report["config"]
    assert set(report["envs"]) == {"elemystic_v0"}
    assert cfg["core"]["num_envs"] * cfg["core_ppo_kwargs"]["n_steps"] == cfg["rollout"]
    assert cfg["sb3"]["n_envs"] * cfg["ppo_kwargs"]["n_steps"] == cfg["rollout"]
    row = report["envs"]["elemystic_v0"]
    for side in ("sb3", "core"):
        assert row[side]["timesteps"] >= cfg["timesteps"], side
        assert math.isfinite(row[side]["timesteps_per_s"]) and row[side]["timesteps_per_s"] > 0, side
        assert row[side]["mean_episode_length"] >= 1, side
    assert row["ratio"] == pytest.approx(row["core"]["timesteps_per_s"] / row["sb3"]["timesteps_per_s"])
    assert [t["contender"] for t in report["targets"]] == ["elemystic_v0"]
    printed = capsys.readouterr().out
    assert "| elemystic_v0 |" in printed and printed.count("PASS") + printed.count("FAIL") == 1
    assert json.loads(out.read_text())["envs"].keys() == report["envs"].keys()


def test_train_speed_lean_quick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--lean``: today's SB3 path and training.core_train's lean PPO self-play, side by side."""
    require_core()
    bench = _load(TRAIN_BENCH_PATH)
    out = tmp_path / "lean_speed.json"
    argv = ["--quick", "--lean", "--lean-epochs", "2", "--env", "elemystic_v0", "--json", str(out)]
    threads = torch.get_num_threads()
    try:
        report = bench.main([*argv, "--torch-threads", "2"])
    finally:
        torch.set_num_threads(threads)  # the rest of this worker's tests keep their threads
    assert report["config"]["lean"]["n_epochs"] == 2
    assert report["config"]["torch_threads"] == 2
    row = report["envs"]["elemystic_v0"]
    assert row["sb3"] > 0 and row["lean"] > 0 and 0 < row["lean_update_share"] < 1
    assert row["ratio"] == pytest.approx(row["lean"] / row["sb3"])
    printed = capsys.readouterr().out
    assert "| elemystic_v0 |" in printed and printed.count("PASS") + printed.count("FAIL") == 1
    assert json.loads(out.read_text())["envs"].keys() == report["envs"].keys()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--lean", "--torch-threads", "0"], "--torch-threads must be >= 1"),
        (["--core", "--torch-threads", "2"], "--torch-threads is a --lean option"),
    ],
)
def test_train_speed_torch_threads_is_checked(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _load(TRAIN_BENCH_PATH)
    with pytest.raises(SystemExit):
        bench.parse_args(argv)
    assert message in capsys.readouterr().err
