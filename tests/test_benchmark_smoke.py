"""Smoke test of ``benchmarks/env_speed.py`` in ``--quick`` mode: structure only, never speed.

Timing assertions would fail on loaded CI machines, so the targets' PASS/FAIL is not checked. The
compiled core's part needs the core (skipped without it, failed under CI=true).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.core.cases import require_core

BENCH_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "env_speed.py"


def _load_benchmark() -> ModuleType:
    # benchmarks/ is a script folder, not a package; dataclasses need the module registered.
    spec = importlib.util.spec_from_file_location("env_speed", BENCH_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return _load_benchmark()


def _positive(x: object) -> bool:
    return isinstance(x, int | float) and math.isfinite(x) and x > 0


def test_quick_run_structure(bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bench.json"
    report = bench.main(
        ["--quick", "--env", "elemystic_v0", "--seconds", "0.05", "--no-core", "--json", str(out)]
    )
    assert report["core"] is None and report["core_skipped"] == "--no-core"

    names = set(report["contenders"])
    assert names == {"elemystic_v0 (2p)", "connect_four_v3", bench.LEAN, "leduc_holdem_v4"}
    assert report["config"]["rounds"] == 1

    for name, r in report["contenders"].items():
        assert _positive(r["steps_per_s"]), name
        assert len(r["steps_per_s_rounds"]) == 1
        assert r["games"] >= 1
        assert _positive(r["ratio_to_baseline"]), name
        assert r["ratio_to_baseline"] == pytest.approx(
            r["steps_per_s"] / report["contenders"]["connect_four_v3"]["steps_per_s"]
        )
        for key in ("live_bytes", "peak_bytes", "pickled_bytes", "game_length", "live_ratio", "peak_ratio"):
            assert _positive(r[key]), (name, key)
        if r["mystic"]:
            assert _positive(r["raw_actions_per_s"]), name
            assert r["raw_games"] >= 1
            assert r["pickle_keeps_state"]
        else:
            assert r["raw_actions_per_s"] is None
    assert report["contenders"]["connect_four_v3"]["ratio_to_baseline"] == 1.0

    targets = report["targets"]
    assert {t["kind"] for t in targets} == {"wrapped_ratio", "raw_rate"}
    assert all(t["contender"] == "elemystic_v0 (2p)" and isinstance(t["passed"], bool) for t in targets)

    printed = capsys.readouterr().out
    assert "| contender |" in printed
    for name in names:
        assert f"| {name} |" in printed
    assert printed.count("PASS") + printed.count("FAIL") == len(targets)

    assert json.loads(out.read_text())["contenders"].keys() == names
    assert "Compiled core" not in printed


def test_all_registered_ids_are_contenders(bench: ModuleType) -> None:
    import mystic_envs

    names = [c.name for c in bench.contenders()]
    for env_id in mystic_envs.ENV_IDS:
        for n in mystic_envs.player_counts(env_id):
            assert f"{env_id} ({n}p)" in names
    assert names[-3:] == ["connect_four_v3", bench.LEAN, "leduc_holdem_v4"]


def test_rejects_unknown_env(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        bench.parse_args(["--env", "no_such_env_v0"])
    assert refused.value.code == 2 and "no_such_env_v0" in capsys.readouterr().err


def test_quick_core_part_structure(
    bench: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_core()
    configs, skipped = bench.core_configs()
    assert configs and not skipped, skipped
    env_id = configs[0].env_id
    out = tmp_path / "core.json"
    report = bench.main(["--quick", "--core", "--env", env_id, "--seconds", "0.02", "--json", str(out)])

    assert "contenders" not in report and report["core_skipped"] is None
    core = report["core"]
    names = {c.name for c in configs if c.env_id == env_id}
    assert set(core["games"]) == names
    assert core["config"]["rounds"] == 1

    def summary_ok(s: dict) -> bool:
        return _positive(s["median"]) and len(s["rounds"]) == 1 and s["min"] <= s["median"] <= s["max"]

    expected_baselines = {bench.BASELINE}
    if importlib.util.find_spec("pyspiel") is not None:
        expected_baselines.add(bench.OPEN_SPIEL)
    else:
        assert any(line.startswith(bench.OPEN_SPIEL) for line in core["skipped"])
    assert set(core["baselines"]) == expected_baselines
    for b in core["baselines"].values():
        assert summary_ok(b["moves_per_s"])

    for name, g in core["games"].items():
        python_rate = g["python_aec"]["moves_per_s"]["median"]
        assert summary_ok(g["python_aec"]["moves_per_s"]), name
        shapes = [(b["num_envs"], b["num_threads"]) for b in g["batch"]]
        assert shapes == [(n, 1) for n in bench.CORE_NUM_ENVS] + [
            (bench.CORE_THREADS_NUM_ENVS, bench.CORE_THREADS)
        ]
        rate = {shape: b["moves_per_s"]["median"] for shape, b in zip(shapes, g["batch"], strict=True)}
        for b in g["batch"]:
            assert summary_ok(b["moves_per_s"]), (name, b["num_envs"])
            assert b["ratio_to_python_aec"] == pytest.approx(b["moves_per_s"]["median"] / python_rate)
            assert set(b["ratio_to_baselines"]) == expected_baselines
        n = bench.CORE_THREADS_NUM_ENVS
        assert g["threads_ratio"] == pytest.approx(rate[n, bench.CORE_THREADS] / rate[n, 1])
        sg = g["single_game"]
        for kind in ("python_engine", "compiled_rollout", "compiled_python_loop"):
            assert summary_ok(sg[kind]["playouts_per_s"]) and summary_ok(sg[kind]["moves_per_s"]), (
                name,
                kind,
            )
        assert sg["rollout_ratio"] == pytest.approx(
            sg["compiled_rollout"]["playouts_per_s"]["median"]
            / sg["python_engine"]["playouts_per_s"]["median"]
        )
        mem = g["memory_per_game"]
        assert all(isinstance(mem[k], int) and mem[k] > 0 for k in ("core", "arrays"))
        assert mem["total"] == mem["core"] + mem["arrays"]

    # --quick never compiles: the build is timed only in a full run.
    assert core["build"]["seconds"] is None and core["build"]["skipped"]

    targets = core["targets"]
    kinds = {t["kind"] for t in targets}
    assert {"core_python_ratio", "core_threads", "core_playouts"} <= kinds
    assert kinds <= {"core_rate", "core_python_ratio", "core_threads", "core_playouts"}
    assert ("core_rate" in kinds) == (env_id in bench.CORE_RATE_TARGETS)
    assert all(t["contender"] in names and isinstance(t["passed"], bool) for t in targets)

    printed = capsys.readouterr().out
    for name in names:
        assert f"| {name} |" in printed
    assert printed.count("PASS") + printed.count("FAIL") == len(targets)
    assert json.loads(out.read_text())["core"]["games"].keys() == names


def test_core_part_without_the_core(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mystic_envs.core import compiled

    monkeypatch.setattr(compiled, "is_available", lambda: False)
    with pytest.raises(SystemExit) as refused:
        bench.parse_args(["--core"])
    assert refused.value.code == 2 and compiled.HOW_TO_BUILD in capsys.readouterr().err
    # The default run still times the AEC part and says in one line why the core's part is missing.
    report = bench.main(["--quick", "--env", "elemystic_v0", "--seconds", "0.01"])
    assert report["core"] is None and report["core_skipped"] == compiled.HOW_TO_BUILD
    assert f"Compiled core: skipped, {compiled.HOW_TO_BUILD}" in capsys.readouterr().out
    assert "elemystic_v0 (2p)" in report["contenders"]
