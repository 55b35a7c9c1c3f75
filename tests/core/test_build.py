"""Building the core: optional without a compiler, required under CI, clean under the sanitizers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mystic_envs
from mystic_envs import vector
from mystic_envs.core import compiled
from tests import multiplayer_toy
from tests.core.cases import CASES, twin_env_ids

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_core_is_a_one_line_error_and_python_still_plays(monkeypatch):
    # What an import without a build gives (the package's attribute too: `from package import name`
    # reads it before sys.modules once the core has been imported in this process).
    monkeypatch.setitem(sys.modules, "mystic_envs.core._core", None)
    monkeypatch.delattr(mystic_envs.core, "_core", raising=False)
    monkeypatch.delenv("MYSTIC_CORE_LIB", raising=False)
    for make in (lambda: vector.make("elemystic_v0"), lambda: mystic_envs.make("elemystic_v0", engine="c")):
        with pytest.raises(compiled.CoreUnavailableError) as caught:
            make()
        assert "\n" not in str(caught.value) and "pip install -e ." in str(caught.value)
    assert not compiled.is_available()
    env = mystic_envs.make("elemystic_v0")
    env.reset(seed=0)
    env.step(int(env.observe(env.agent_selection)["action_mask"].argmax()))


def test_a_bad_core_path_is_a_one_line_error(monkeypatch, tmp_path):
    monkeypatch.delitem(sys.modules, "mystic_envs.core._core", raising=False)
    monkeypatch.delattr(mystic_envs.core, "_core", raising=False)
    monkeypatch.setenv("MYSTIC_CORE_LIB", str(tmp_path / "nothing.so"))
    with pytest.raises(compiled.CoreUnavailableError, match="MYSTIC_CORE_LIB"):
        compiled.core_module()


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only CI=true requires the core to be built")
def test_the_core_is_built_under_ci():
    assert compiled.is_available(), compiled.HOW_TO_BUILD
    assert CASES, "the core has no twin"


def test_the_build_succeeds_without_a_compiler(tmp_path):
    """setup.py marks the extension optional: with no compiler the build warns and goes on."""
    env = dict(os.environ, CC=str(tmp_path / "no-such-cc"), LDSHARED=str(tmp_path / "no-such-cc"))
    result = subprocess.run(
        [
            sys.executable,
            "setup.py",
            "-q",
            "build_ext",
            "--build-lib",
            str(tmp_path / "lib"),
            "--build-temp",
            str(tmp_path / "tmp"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert not list((tmp_path / "lib").rglob("_core*.so")), "a core was built without a compiler"
    assert "failed" in (result.stdout + result.stderr).lower()


SELF = "test_the_exactness_tests_pass_under_the_sanitizers"


@pytest.mark.skipif(shutil.which("make") is None, reason="make sanitize needs make")
def test_the_exactness_tests_pass_under_the_sanitizers():
    """The short form of `make sanitize`: the core built with AddressSanitizer and
    UndefinedBehaviorSanitizer, then tests/core at 2,000 steps a case (any report fails it)."""
    if not compiled.is_available() and os.environ.get("CI") != "true":
        pytest.skip(compiled.HOW_TO_BUILD)
    env = dict(os.environ, MYSTIC_EXACT_STEPS="2000")
    result = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "sanitize",
            f"SANITIZE_ARGS=--deselect tests/core/test_build.py::{SELF}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    tail = (result.stdout + result.stderr)[-4000:]
    assert result.returncode == 0, tail
    assert "ERROR: AddressSanitizer" not in tail and "runtime error" not in tail, tail


@pytest.mark.skipif(not os.environ.get("MYSTIC_CORE_LIB"), reason="only under make sanitize")
def test_the_sanitizer_run_tests_the_sanitizer_build():
    module = compiled.core_module()
    assert Path(module.__file__).resolve() == Path(os.environ["MYSTIC_CORE_LIB"]).resolve()


def test_a_game_without_a_twin_says_so_in_one_line(monkeypatch):
    """Every env of the library has a twin; a game from elsewhere (the test suite's toy race, registered
    as an env) gets a one-line refusal from both ways onto the core."""
    env_id = multiplayer_toy.register(monkeypatch)
    for make in (lambda: vector.make(env_id), lambda: mystic_envs.make(env_id, engine="c")):
        with pytest.raises(compiled.CoreUnavailableError, match="has no compiled twin yet") as caught:
            make()
        assert "\n" not in str(caught.value)
    assert set(twin_env_ids()) == set(mystic_envs.ENV_IDS) - {env_id}
