"""The docs cannot drift: generated tables match the code, the README's example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mystic_envs
from mystic_envs.core.docs import generated_blocks

ROOT = Path(__file__).resolve().parents[1]


def game_doc(env_id: str) -> Path:
    return ROOT / "docs" / "rules" / f"{env_id.removesuffix('_v0')}.md"


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_rules_page_embeds_the_generated_tables(env_id):
    text = game_doc(env_id).read_text()
    for name, block in generated_blocks(env_id).items():
        match = re.search(rf"<!-- generated:{name} -->\n(.*?)\n<!-- /generated:{name} -->", text, re.S)
        assert match, f"{game_doc(env_id).name} lacks the generated block {name!r}"
        assert match.group(1).strip() == block.strip(), (
            f"{name} table is stale: run `python -m mystic_envs.core.docs {env_id}` and paste it"
        )


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_rules_page_traces_every_named_test(env_id):
    """Every test named in the rule -> code -> test table exists."""
    text = game_doc(env_id).read_text()
    names = set(re.findall(r"`(test_[a-z0-9_]+)`", text))
    assert names, "the rules page names no test"
    sources = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    missing = sorted(n for n in names if f"def {n}(" not in sources)
    assert not missing, f"tests named in the docs but not found: {missing}"


def test_readme_aec_loop_runs():
    readme = (ROOT / "README.md").read_text()
    code = re.search(r"```python\n(import numpy as np\nimport mystic_envs\n.*?)```", readme, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    info = namespace["info"]
    # The loop's last info is the finished game's (seed 42 plays out to a win, not a truncation).
    assert info["game_over"] == 1
    assert info["winners"].tolist().count(1) == 1
    assert info["scores"].shape == (2,)


@pytest.mark.parametrize("argv", [[], ["--help"], ["chess_v0"], ["elemystic_v0", "mystria_v0"]])
def test_docs_command_answers_bad_arguments_with_its_usage_line(argv):
    from mystic_envs.core.docs import main

    with pytest.raises(SystemExit, match=r"usage: python -m mystic_envs.core.docs ENV_ID"):
        main(argv)


@pytest.mark.parametrize("page", ["README.md", "docs/index.md", "docs/clients.md"])
def test_front_pages_name_every_game_and_every_gymnasium_id(page):
    import gymnasium

    text = (ROOT / page).read_text()
    registered = {name for name in gymnasium.registry if name.startswith("mystic/")}
    assert registered == {mystic_envs.gym_id(env_id) for env_id in mystic_envs.ENV_IDS}
    assert set(re.findall(r"\b[a-z_]+_v0\b", text)) == set(mystic_envs.ENV_IDS)
    # PettingZoo's registry ids are lower case (mystic/elemystic-v0); Gymnasium's are CamelCase.
    assert set(re.findall(r"mystic/[A-Z]\w*-v0", text)) == registered
