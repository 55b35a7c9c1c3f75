"""``python -m agents.replay``: a record stepped through (forward, back, to the end) or re-run to
the end; a malformed or diverging record is a one-line error and a non-zero exit."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from recorded import recorded_game

from agents.records import save_record
from agents.replay import PROMPT, main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def elemystic(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "elemystic.json"
    save_record(recorded_game("elemystic_v0", seed=5), path)
    return path


def run(argv, answers=()):
    answers = iter(answers)
    lines: list[str] = []

    def input_fn(prompt: str) -> str:
        lines.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return main([str(a) for a in argv], input_fn=input_fn, output=lines.append), lines


@pytest.mark.parametrize("env_id", ["elemystic_v0", "mystria_v0", "tarot_dice_v0"])
def test_to_end_reproduces_the_record_and_prints_the_end(env_id, tmp_path):
    record = recorded_game(env_id, seed=2)
    path = save_record(record, tmp_path / "game.json")
    status, lines = run([path, "--to-end"])
    assert status == 0
    assert lines[1] == f"Reproduced: {len(record['actions'])} moves, the recorded result."
    assert lines[2].startswith("\nFinal table:\n")
    result = lines[3].splitlines()
    assert result[0] == f"Result ({record['result']['end_reason']}):"
    winner = [f"player_{s}" for s, w in enumerate(record["result"]["winners"]) if w]
    assert result[-1] == f"  winner: {', '.join(winner)}"


def test_forward_back_end_and_quit(elemystic):
    record = json.loads(elemystic.read_text())
    total = len(record["actions"])
    status, lines = run([elemystic], ["", "n", "b", "e", "n", "x", "q"])
    assert status == 0
    marks = [line for line in lines if line.startswith("\n-- ")]
    assert marks == [
        f"\n-- start (0 of {total} moves) --",
        f"\n-- after 1 of {total} moves --",
        f"\n-- after 2 of {total} moves --",
        f"\n-- after 1 of {total} moves --",
        f"\n-- after {total} of {total} moves --",
    ]
    assert "This is the end of the game (b: back, q: quit)." in lines
    assert any(line.startswith("Unknown command 'x'") for line in lines)
    assert lines.count(PROMPT) == 7
    assert any(line.startswith("Result (game over):") for line in lines)
    # A move is told as the table heard it: "move 1: player_1 (random) drafts Fire".
    first = lines[lines.index(marks[1]) + 1]
    assert first.startswith("move 1: player_") and " drafts " in first


def test_going_back_from_the_start_and_end_of_input(elemystic):
    status, lines = run([elemystic], ["b"])
    assert status == 0
    assert "This is the start of the game (Enter: forward, q: quit)." in lines


def test_seat_shows_that_seats_secret_only(elemystic):
    _, public = run([elemystic], ["q"])
    _, seat0 = run([elemystic, "--seat", "0"], ["q"])
    assert "+ 1 secret (" not in "\n".join(public)
    assert "player_0 (you)" in "\n".join(seat0) and "+ 1 secret (" in "\n".join(seat0)


def test_a_diverging_record_is_one_line_and_exit_1(elemystic, tmp_path, capsys):
    record = json.loads(elemystic.read_text())
    bad = copy.deepcopy(record)
    bad["library_version"] = "0.0.1"
    bad["actions"][3]["meaning"] = "draft a card of long ago"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    status, _ = run([path, "--to-end"])
    assert status == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("python -m agents.replay: error: ")
    assert "step 3: action" in err[0] and "made with mystic-envs 0.0.1" in err[0]


def test_interactive_stops_at_the_divergence(elemystic, tmp_path, capsys):
    bad = json.loads(elemystic.read_text())
    bad["result"]["scores"] = [99.0, 99.0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    status, _ = run([path], ["e"])
    assert status == 1
    assert "result.scores: the replay ends with" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ("\xff\xfe{}", "is not a record: not UTF-8 text (byte 0xff at offset 0)"),
        ('{"format": "other"}', "format must be 'mystic-envs-record'"),
    ],
)
def test_a_malformed_record_is_one_line_and_exit_1(content, message, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_bytes(content.encode("latin-1"))
    assert run([path, "--to-end"])[0] == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_missing_file_and_a_bad_seat(elemystic, tmp_path, capsys):
    assert run([tmp_path / "none.json"])[0] == 1
    assert "cannot read record" in capsys.readouterr().err
    assert run([elemystic, "--seat", "2"])[0] == 1
    assert "--seat must be a seat from 0 to 1, got 2" in capsys.readouterr().err


def test_the_command_exits_0_when_reproduced(elemystic):
    proc = subprocess.run(
        [sys.executable, "-m", "agents.replay", str(elemystic), "--to-end"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Reproduced:" in proc.stdout and "Traceback" not in proc.stderr
