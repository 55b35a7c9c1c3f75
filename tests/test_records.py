"""Game records (agents.records): made from live games, saved atomically, loaded with one-line
errors naming the field, and replayed exactly, failing at the step where a record diverges."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.records import (
    FORMAT,
    SCHEMA_VERSION,
    GameRecorder,
    RecordError,
    load_record,
    parse_record,
    replay,
    save_record,
)


def play_recorded(env_id: str, seed: int, illegal_at: int | None = None, **kwargs: Any) -> dict[str, Any]:
    """A random game, recorded; ``illegal_at``: the step at which an illegal action is played."""
    env = mystic_envs.make(env_id, **kwargs)
    env.reset(seed=seed)
    players = [make_agent("random", env_id, seed=seed + s) for s in range(len(env.possible_agents))]
    recorder = GameRecorder(env, env_id, seed, ["random"] * len(players), kwargs=kwargs)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action = None
        elif illegal_at is not None and len(recorder.actions) == illegal_at:
            action = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
        else:
            action = players[env.unwrapped.agent_name_mapping[agent]].act(env, agent)
        recorder.record(agent, action)
        env.step(action)
    return recorder.finish()


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return {env_id: play_recorded(env_id, seed=11) for env_id in mystic_envs.ENV_IDS}


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_a_saved_record_replays_exactly(env_id: str, records: dict, tmp_path: Path) -> None:
    record = records[env_id]
    assert record["format"] == FORMAT and record["schema_version"] == SCHEMA_VERSION
    assert record["library_version"] == mystic_envs.__version__
    assert record["result"]["end_reason"] == "game over"
    assert sum(record["result"]["winners"]) >= 1
    path = save_record(record, tmp_path / "game.json")
    assert json.loads(path.read_text())["actions"] == record["actions"]
    steps = replay(path).run()
    assert [s.action for s in steps] == [a["action"] for a in record["actions"]]
    assert [s.meaning for s in steps] == [a["meaning"] for a in record["actions"]]
    assert steps[-1].state.is_terminal
    # The last position is the recorded game's: the same seat has the same view of it.
    env = mystic_envs.make(env_id)
    env.reset(seed=record["seed"])
    for a in record["actions"]:
        env.unwrapped.game_state.apply(a["action"])
    for seat in range(record["num_players"]):
        assert steps[-1].state.describe(viewer=seat) == env.unwrapped.game_state.describe(viewer=seat)


def test_rewards_and_scores_come_from_the_final_info(records: dict) -> None:
    record = records["elemystic_v0"]
    result = record["result"]
    assert sorted(result["rewards"]) == [-1.0, 1.0]
    assert result["winners"] == [1 if r > 0 else 0 for r in result["rewards"]]


def test_a_truncated_game_is_recorded_and_replayed() -> None:
    record = play_recorded("tarot_dice_v0", seed=2, max_steps=7)
    assert len(record["actions"]) == 7
    assert record["kwargs"] == {"max_steps": 7}
    assert record["result"]["end_reason"] == "max_steps"
    assert record["result"]["winners"] == [0, 0] and record["result"]["rewards"] == [0.0, 0.0]
    replay(record).run()


def test_an_illegal_action_is_recorded_as_such_and_replayed() -> None:
    record = play_recorded("elemystic_v0", seed=4, illegal_at=3)
    assert len(record["actions"]) == 4
    assert record["actions"][-1]["illegal"] is True
    assert record["result"]["end_reason"] == "illegal action"
    offender = record["actions"][-1]["player"]
    assert record["result"]["rewards"][offender] == -1.0
    replay(record).run()
    # Replayed as a legal move, it is caught.
    legal = copy.deepcopy(record)
    del legal["actions"][-1]["illegal"]
    with pytest.raises(RecordError, match=r"step 3: action .* is illegal here"):
        replay(legal).run()


def test_render_mode_is_not_part_of_the_record() -> None:
    record = play_recorded("elemystic_v0", seed=1, render_mode="ansi")
    assert record["kwargs"] == {}


def test_the_recorder_refuses_a_game_already_under_way_or_unfinished() -> None:
    env = mystic_envs.make("elemystic_v0")
    env.reset(seed=0)
    with pytest.raises(RecordError, match="does not name the env"):
        GameRecorder(env, "mystria_v0", 0, ["a", "b"])
    with pytest.raises(RecordError, match="agents must be 2 strings"):
        GameRecorder(env, "elemystic_v0", 0, ["a"])
    recorder = GameRecorder(env, "elemystic_v0", 0, ["a", "b"])
    other = next(a for a in env.possible_agents if a != env.agent_selection)
    with pytest.raises(
        RecordError, match=rf"record\({other!r}, \.\.\.\) but {env.agent_selection} is to step"
    ):
        recorder.record(other, 0)
    with pytest.raises(RecordError, match="not over yet"):
        recorder.finish()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    with pytest.raises(RecordError, match="before any action"):
        GameRecorder(env, "elemystic_v0", 0, ["a", "b"])


# -- load_record: one line naming the field -------------------------------------------------------


def _broken(record: dict, change: Any) -> dict:
    out = copy.deepcopy(record)
    change(out)
    return out


BAD_RECORDS = [
    ("format", lambda r: r.update(format="chess-pgn"), "format must be 'mystic-envs-record'"),
    ("schema", lambda r: r.update(schema_version=2), "schema_version 2 is not supported"),
    ("env id", lambda r: r.update(env_id="chess_v0"), "env_id 'chess_v0' is not a game"),
    ("kwargs key", lambda r: r.update(kwargs={"board": 9}), "kwargs: .*unexpected keyword.*'board'"),
    ("kwargs value", lambda r: r.update(kwargs={"max_steps": [1]}), r"kwargs\['max_steps'\] must be a JSON"),
    ("players", lambda r: r.update(num_players=3), "num_players is 3 but elemystic_v0"),
    ("seed", lambda r: r.update(seed=-1), "seed must be an integer >= 0"),
    ("agents", lambda r: r.update(agents=["random"]), "agents must be a list of 2 strings"),
    ("missing", lambda r: r.pop("actions"), "missing field.*actions"),
    ("unknown", lambda r: r.update(moves=[]), "unknown field.*moves"),
    ("action type", lambda r: r["actions"][2].update(action="5"), r"actions\[2\]\.action must be an integer"),
    (
        "action float",
        lambda r: r["actions"][2].update(action=5.0),
        r"actions\[2\]\.action must be an integer",
    ),
    (
        "action range",
        lambda r: r["actions"][0].update(action=10**6),
        r"actions\[0\]\.action must be an integer",
    ),
    ("player", lambda r: r["actions"][1].update(player=2), r"actions\[1\]\.player must be a seat"),
    ("step", lambda r: r["actions"][1].update(step=5), r"actions\[1\]\.step must be 1"),
    ("meaning", lambda r: r["actions"][1].pop("meaning"), r"actions\[1\] lacks meaning"),
    ("winners", lambda r: r["result"].update(winners=[2, 0]), "result.winners must be"),
    ("scores", lambda r: r["result"].update(scores=[1.0]), "result.scores must be a list of 2"),
    ("end", lambda r: r["result"].update(end_reason="running"), "result.end_reason must be one of"),
]


@pytest.mark.parametrize(("change", "message"), [b[1:] for b in BAD_RECORDS], ids=[b[0] for b in BAD_RECORDS])
def test_a_malformed_record_is_a_one_line_error_naming_the_field(
    records: dict, change: Any, message: str
) -> None:
    with pytest.raises(RecordError, match=message) as caught:
        load_record(_broken(records["elemystic_v0"], change))
    assert "\n" not in str(caught.value)


def test_malformed_json_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mystic-envs-record",')
    with pytest.raises(RecordError, match=r"bad.json is not valid JSON: .*line 1"):
        load_record(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(RecordError, match="a record is a JSON object, got list"):
        load_record(bad)
    with pytest.raises(RecordError, match=r"cannot read record .*nothing.json"):
        load_record(tmp_path / "nothing.json")
    with pytest.raises(RecordError, match="a path or a dict"):
        load_record(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{\x00}\x00", r"is not a record: not UTF-8 text \(byte 0xff at offset 0\)"),
        ("\u00e9t\u00e9".encode("latin-1"), r"not UTF-8 text \(byte 0xe9 at offset 0\)"),
        (b"PK\x03\x04 a zip file", r"is not valid JSON: Expecting value \(line 1, column 1\)"),
        (b"[" * 100_000, "is not a record: JSON nested too deeply"),
    ],
)
def test_a_file_that_is_not_utf8_or_not_json_is_a_one_line_error(
    tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(RecordError, match=message) as caught:
        load_record(bad)
    assert "\n" not in str(caught.value) and str(bad) in str(caught.value)
    with pytest.raises(RecordError, match=message):
        parse_record(content, "upload")


def test_save_is_atomic_and_refuses_a_bad_record(records: dict, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(records["mystria_v0"], path)
    before = path.read_text()
    with pytest.raises(RecordError, match="env_id"):
        save_record(_broken(records["mystria_v0"], lambda r: r.update(env_id="go_v0")), path)
    assert path.read_text() == before
    with pytest.raises(RecordError, match="does not exist"):
        save_record(records["mystria_v0"], tmp_path / "no" / "game.json")
    # A failure while writing leaves the old file and no temporary file behind.
    unserializable = copy.deepcopy(records["mystria_v0"])
    unserializable["meta"] = {"when": object()}
    with pytest.raises(TypeError):
        save_record(unserializable, path)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


# -- replay: divergences name the step ---------------------------------------------------------------


def _another_legal_action(record: dict, step: int) -> int:
    env = mystic_envs.make(record["env_id"], **record["kwargs"])
    env.reset(seed=record["seed"])
    for a in record["actions"][:step]:
        env.unwrapped.game_state.apply(a["action"])
    legal = env.unwrapped.game_state.legal_actions()
    return next(a for a in legal if a != record["actions"][step]["action"])


def test_a_changed_action_diverges_at_its_step(records: dict) -> None:
    record = copy.deepcopy(records["tarot_dice_v0"])
    step = next(i for i in range(5, 100) if len(_legal_at(record, i)) > 1)
    record["actions"][step]["action"] = _another_legal_action(record, step)
    with pytest.raises(RecordError, match=f"step {step}: action .* now means") as caught:
        replay(record).run()
    assert "made with" not in str(caught.value)  # same library version: not mentioned


def _legal_at(record: dict, step: int) -> list[int]:
    env = mystic_envs.make(record["env_id"])
    env.reset(seed=record["seed"])
    for a in record["actions"][:step]:
        env.unwrapped.game_state.apply(a["action"])
    return env.unwrapped.game_state.legal_actions()


def test_a_divergence_names_the_library_version_that_made_the_record(records: dict) -> None:
    record = copy.deepcopy(records["elemystic_v0"])
    record["library_version"] = "0.0.1"
    record["actions"][4]["meaning"] = "an action of long ago"
    with pytest.raises(RecordError, match=r"step 4: .*made with mystic-envs 0\.0\.1, this is "):
        replay(record).run()


def test_another_seed_or_a_wrong_result_is_caught(records: dict) -> None:
    record = records["mystria_v0"]
    with pytest.raises(RecordError, match="step"):
        replay(_broken(record, lambda r: r.update(seed=r["seed"] + 1))).run()
    with pytest.raises(RecordError, match=r"result.scores: the replay ends with"):
        replay(_broken(record, lambda r: r["result"].update(scores=[99.0, 0.0]))).run()
    with pytest.raises(RecordError, match=r"result.winners"):
        replay(_broken(record, lambda r: r["result"].update(winners=r["result"]["winners"][::-1]))).run()


def test_a_record_too_short_or_too_long_is_caught(records: dict) -> None:
    record = records["elemystic_v0"]
    n = len(record["actions"])
    with pytest.raises(RecordError, match=f"ends after {n - 1} actions but the game goes on"):
        replay(_broken(record, lambda r: r["actions"].pop())).run()
    extra = dict(record["actions"][-1], step=n)
    with pytest.raises(RecordError, match=f"step {n}: the game is already over, with 1 recorded action"):
        replay(_broken(record, lambda r: r["actions"].append(extra))).run()


def test_replay_steps_one_at_a_time(records: dict) -> None:
    stepper = iter(replay(records["elemystic_v0"]))
    first = next(stepper)
    assert first.step == 0 and first.agent == f"player_{first.player}"
    assert int(first.info["game_over"]) == 0
    assert not first.state.is_terminal
