"""The docs site builds with ``mkdocs build --strict`` (a broken link, anchor or docstring fails), offline."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mystic_envs

pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("mkdocstrings", reason="the docs extra is not installed (pip install -e '.[docs]')")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    problems = [line for line in result.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert result.returncode == 0, "mkdocs build --strict failed:\n" + "\n".join(problems or [result.stderr])
    return out


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_every_game_has_its_env_page_and_rules_page(site, env_id):
    game = env_id.removesuffix("_v0")
    env_page = (site / "games" / f"{game}.html").read_text()
    # The env page renders the public module's docstring, whose spaces table names the real action space.
    env = mystic_envs.make(env_id)
    assert f"<code>Discrete({env.action_space(env.possible_agents[0]).n})</code>" in env_page
    rules_page = (site / "rules" / f"{game}.html").read_text()
    assert 'id="observation"' in rules_page and 'id="actions"' in rules_page


def test_api_reference_documents_the_public_functions(site):
    page = (site / "api" / "mystic_envs.html").read_text()
    for name in ("make", "make_raw", "single_agent", "player_counts"):
        assert f'id="mystic_envs.{name}"' in page, name
    core = (site / "api" / "core.html").read_text()
    assert 'id="mystic_envs.core.aec.MysticAECEnv"' in core


def test_site_loads_nothing_from_the_network(site):
    # Offline: no web fonts, scripts or stylesheets from a CDN (links to other sites in text are fine).
    external = set()
    for page in site.rglob("*.html"):
        external |= set(re.findall(r'<(?:link|script)[^>]*(?:href|src)="(https?://[^"]+)"', page.read_text()))
    assert not external, sorted(external)
