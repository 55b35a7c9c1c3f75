"""``.ci/check-needs``, which ``make venv`` runs before installing anything: a machine that cannot get
the local CPU torch or Debian's chromium is told so in one line (fake PATHs and a bare venv here)."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "check-needs"


def _bin(tmp_path: Path, uid: int, *tools: str) -> Path:
    """A PATH of one folder: ``id`` answering ``uid``, each of ``tools`` a program that does nothing."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, body in [("id", f"echo {uid}"), *((tool, "exit 0") for tool in tools)]:
        (folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (folder / name).chmod(0o755)
    return folder


def _check(python: str, path: Path, **env: str) -> tuple[int, list[str]]:
    done = subprocess.run(
        ["/bin/bash", str(SCRIPT), python],
        env={"PATH": str(path), "HOME": str(path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == ""
    return done.returncode, done.stderr.splitlines()


@pytest.fixture(scope="module")
def torchless_python(tmp_path_factory) -> tuple[str, dict[str, str]]:
    """A venv with pip importable but no torch, and pip told of no local wheels."""
    folder = tmp_path_factory.mktemp("bare")
    venv.create(folder / "venv", with_pip=False)
    pip_only = folder / "pip_only"
    pip_only.mkdir()
    (pip_only / "pip").symlink_to(Path(__import__("pip").__file__).parent)
    env = {"PYTHONPATH": str(pip_only), "PIP_CONFIG_FILE": "/dev/null", "PIP_FIND_LINKS": str(pip_only)}
    return str(folder / "venv" / "bin" / "python"), env


def test_the_makefile_checks_before_it_installs_torch():
    recipe = (ROOT / "Makefile").read_text()
    assert recipe.index(".ci/check-needs $(BIN)/python") < recipe.index("pip install --quiet torch==2.13.0")


def test_with_torch_and_chromium_it_says_nothing(tmp_path):
    assert _check(sys.executable, _bin(tmp_path, 1000, "chromium")) == (0, [])


def test_without_the_local_torch_wheel_it_says_so_in_one_line(tmp_path, torchless_python):
    python, env = torchless_python
    status, lines = _check(python, _bin(tmp_path, 0, "chromium"), **env)
    assert status == 1 and len(lines) == 1
    assert lines[0].startswith("make venv needs the CPU build of torch 2.13.0 as a local wheel")


@pytest.mark.parametrize(
    ("uid", "tools", "status", "message"),
    [
        (1000, ["apt-get"], 1, "only root can apt-get it: run 'apt-get install chromium' as root"),
        (1000, [], 1, "this machine has no apt-get to install it"),
        (0, [], 1, "this machine has no apt-get to install it"),
        (0, ["apt-get"], 0, None),  # root: the Makefile's apt-get goes on to install it
    ],
)
def test_without_chromium_it_says_what_it_needs_unless_it_can_apt_get(tmp_path, uid, tools, status, message):
    code, lines = _check(sys.executable, _bin(tmp_path, uid, *tools))
    assert code == status
    if message is None:
        assert lines == []
    else:
        assert len(lines) == 1 and lines[0].startswith("make venv needs") and message in lines[0]
