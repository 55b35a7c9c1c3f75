"""``agents.play --save`` and env keywords, ``agents.demo`` (env keywords, any table size, a clean
quit), ``training.evaluate --save-games`` and env keywords; bad flags are one-line usage errors
that write nothing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents import demo
from agents.play import main as play_main
from agents.records import load_record, replay
from training.evaluate import main as evaluate_main

ROOT = Path(__file__).resolve().parents[1]


def first_action(lines: list[str]):
    def answer(prompt: str) -> str:
        start = max(i for i, line in enumerate(lines) if line.endswith("your legal actions:"))
        return next(m.group(1) for line in lines[start:] if (m := re.match(r"\s+(\d+): ", line)))

    return answer


def test_play_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "game.json"
    lines: list[str] = []
    argv = ["mystria_v0", "--variant", "intro", "--seat", "1", "--seed", "3", "--save", str(path)]
    assert play_main(argv, input_fn=first_action(lines), output=lines.append) == 0
    assert lines[-1] == f"Game record saved to {path} (replay it: python -m agents.replay {path})"
    assert "--variant intro" in lines[0]
    record = load_record(path)
    assert record["kwargs"] == {"variant": "intro"}
    assert record["agents"] == ["heuristic", "human"] and record["seed"] == 3
    steps = replay(record).run()
    assert steps[-1].state.is_terminal


def test_play_abandoned_saves_nothing(tmp_path):
    path = tmp_path / "game.json"
    lines: list[str] = []
    assert (
        play_main(["elemystic_v0", "--save", str(path)], input_fn=lambda p: "q", output=lines.append) == 130
    )
    assert lines[-1].strip() == "game abandoned (nothing saved)"
    assert not path.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--save", "NOFOLDER/game.json"], r"--save: cannot write .*does not exist"),
        (["--save", "."], r"--save: cannot write '\.': it is a folder"),
        (["--variant", "expert"], r"elemystic_v0 refuses these env keywords: .*'variant'"),
        (["--env-kwarg", "max_steps"], r"expected KEY=VALUE"),
        (["--env-kwarg", "max_steps=0"], r"refuses these env keywords: max_steps must be at least 1"),
        (["--env-kwarg", "render_mode=human"], r"--env-kwarg render_mode: set by"),
        (["--num-players", "3"], r"--num-players: elemystic_v0 is played by 2 players, got 3"),
    ],
)
def test_play_bad_flags_are_one_line_usage_errors(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        play_main(["elemystic_v0", *argv], input_fn=lambda p: "q", output=lambda t: None)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("python -m agents.play: error: ") and re.search(message, err[-1]), err[-1]
    assert list(tmp_path.iterdir()) == []


def test_play_env_kwarg_reaches_the_env():
    lines: list[str] = []
    argv = ["tarot_dice_v0", "--seed", "1", "--env-kwarg", "max_steps=5"]
    assert play_main(argv, input_fn=first_action(lines), output=lines.append) == 0
    assert "--env-kwarg max_steps=5" in lines[0]
    assert any(line.startswith("Winner: none") for line in lines)


def test_demo_takes_env_keywords_and_labels_moves(capsys):
    assert demo.main(["--env", "mystria_v0", "--variant", "intro", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Mystria (intro rules)" in out
    assert re.search(r"^player_\d \((heuristic|random)\) (takes|places|moves|flips|puts) ", out, re.M)
    assert "Result:" in out


def test_demo_refuses_a_player_list_that_does_not_fit_the_table(capsys):
    with pytest.raises(SystemExit):
        demo.main(["--players", "random", "random", "random", "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--players: elemystic_v0 is played here by 2 players, got 3 agent specs" in err


@pytest.mark.parametrize("answers", [["", "q"], [""]], ids=["q", "eof"])
def test_demo_pause_quits_cleanly(answers, capsys):
    given = iter(answers)

    def input_fn(prompt: str) -> str:
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    assert demo.main(["--pause", "--seed", "0"], input_fn=input_fn) == 130
    assert capsys.readouterr().out.rstrip().endswith("game abandoned")


def test_demo_ctrl_c_is_a_clean_130(capsys):
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    assert demo.main(["--pause"], input_fn=interrupt) == 130
    assert capsys.readouterr().out.rstrip().endswith("game abandoned")


def test_demo_command_quits_without_a_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "agents.demo", "--pause"],
        input="q\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 130 and "game abandoned" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_evaluate_saves_a_sample_of_games_that_replay(tmp_path, capsys):
    out = tmp_path / "eval"
    argv = ["--env", "mystria_v0", "--agents", "random", "heuristic", "--games", "4", "--workers", "1"]
    evaluate_main([*argv, "--variant", "intro", "--save-games", "3", "--out", str(out)])
    capsys.readouterr()
    files = sorted(p.name for p in (out / "records").iterdir())
    assert files == [f"heuristic-vs-random-{g}.json" for g in range(3)]
    result = json.loads((out / "results.json").read_text())
    assert result["saved_games"] == [f"records/{name}" for name in files]
    assert result["env_kwargs"] == {"variant": "intro"} and "game_records" not in result
    seats = set()
    for name in files:
        record = load_record(out / "records" / name)
        assert record["kwargs"] == {"variant": "intro"}
        seats.add(tuple(record["agents"]))
        replay(record).run()
    assert seats == {("heuristic", "random"), ("random", "heuristic")}  # both seat orders


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--save-games", "5"], r"--save-games must be an integer from 0 to --games \(4\), got 5"),
        (["--save-games", "-1"], r"--save-games must be an integer from 0 to --games"),
        (["--variant", "expert"], r"elemystic_v0 refuses these env keywords"),
        (["--env-kwarg", "illegal_action=penalize"], r"--env-kwarg illegal_action: set by the evaluation"),
    ],
)
def test_evaluate_bad_flags_write_nothing(argv, message, tmp_path, capsys):
    out = tmp_path / "eval"
    base = ["--env", "elemystic_v0", "--agents", "random", "heuristic", "--games", "4", "--workers", "1"]
    with pytest.raises(SystemExit) as info:
        evaluate_main([*base, *argv, "--out", str(out)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(message, err), err
    assert not out.exists()
