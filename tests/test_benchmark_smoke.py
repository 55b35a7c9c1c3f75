"""Smoke test of ``benchmarks/env_speed.py`` in ``--quick`` mode: structure only, never speed.

Timing assertions would fail on loaded CI machines, so the targets' PASS/FAIL is not checked.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

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
    report = bench.main(["--quick", "--env", "elemystic_v0", "--seconds", "0.05", "--json", str(out)])

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
