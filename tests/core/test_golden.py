"""The golden playthroughs (tests/core/golden.py) replay to the same digests on both engines and
on a batch of one."""

from __future__ import annotations

import json

import pytest

import mystic_envs
from tests.core import golden
from tests.core.cases import require_core

CASES = [pytest.param(*case, id=golden.path_for(*case).stem) for case in golden.cases()]


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_golden_playthrough(env_id, kwargs, n):
    path = golden.path_for(env_id, kwargs, n)
    assert path.exists(), f"no golden file {path.name}: python -m tests.core.golden --write"
    record = json.loads(path.read_text())
    assert (record["env_id"], record["kwargs"], record["num_players"]) == (env_id, kwargs, n)
    engines = ["python", "c"]
    for game in record["games"]:
        for engine in engines:
            if engine == "c":
                require_core()
            env = mystic_envs.make(env_id, num_players=n, engine=engine, **kwargs)
            actions, digests = golden.play_env(env, game["seed"], game["actions"])
            assert actions == game["actions"], f"{engine}: the game ended early"
            assert digests == game["digests"], f"{engine} engine, seed {game['seed']}"
        assert golden.play_batch(env_id, kwargs, n, game["seed"], game["actions"]) == game["digests"]
