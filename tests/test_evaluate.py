"""training.evaluate: the round robin, its statistics, its outputs and its input errors."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mystic_envs
from training import evaluate
from training.evaluate import ConfigError, GameError, main, parse_agent_spec, run_tournament, seat_orders
from training.ratings import fit_elo, wilson_interval

GAMES = 100


@pytest.fixture(scope="module")
def result():
    return run_tournament("elemystic_v0", ["random", "heuristic"], games=GAMES, seed=0, workers=1)


def test_heuristic_beats_random_with_sane_intervals(result):
    entry = result["matrix"]["heuristic"]["random"]
    back = result["matrix"]["random"]["heuristic"]
    assert entry["wins"] + entry["draws"] + entry["losses"] == entry["games"] == GAMES
    assert (entry["wins"], entry["draws"], entry["losses"]) == (back["losses"], back["draws"], back["wins"])
    assert entry["win_rate"] >= 0.75
    assert entry["win_rate"] + back["win_rate"] == pytest.approx(1)
    lo, hi = entry["ci95"]
    assert 0.5 < lo < entry["win_rate"] < hi <= 1
    assert hi - lo < 0.2
    assert back["ci95"] == pytest.approx([1 - hi, 1 - lo])


def test_elo_anchors_random_at_zero_and_rates_heuristic_above(result):
    ratings = result["elo"]["ratings"]
    assert ratings["random"] == 0.0
    assert ratings["heuristic"] > 200
    assert result["elo"]["anchor"] == "random"


def test_every_agent_plays_each_seat_in_exactly_half_its_games(result):
    for label in ("random", "heuristic"):
        by_seat = result["seats"]["by_agent"][label]
        assert by_seat["player_0"]["games"] == by_seat["player_1"]["games"] == GAMES // 2
    (pairing,) = result["pairings"]
    assert [order["games"] for order in pairing["by_seat_order"]] == [GAMES // 2, GAMES // 2]
    assert {order["seats"]["player_0"] for order in pairing["by_seat_order"]} == {"random", "heuristic"}
    assert result["seats"]["player_0"]["games"] == result["total_games"] == GAMES


def test_results_do_not_depend_on_the_number_of_workers():
    def play(workers):
        r = run_tournament("elemystic_v0", ["heuristic", "random"], games=40, seed=7, workers=workers)
        assert r["workers"] == workers
        return {key: value for key, value in r.items() if key not in ("timing", "workers")}

    assert play(1) == play(2)


def test_a_game_that_raises_is_an_error_not_a_loss(monkeypatch):
    class AlwaysZero:
        def act(self, env, agent_id):
            return 0

    monkeypatch.setattr(evaluate, "make_agent", lambda name, env_id, seed=None, **kw: AlwaysZero())
    with pytest.raises(GameError, match=r"game \d+ of heuristic vs random .*IllegalActionError"):
        run_tournament("elemystic_v0", ["random", "heuristic"], games=2, workers=1)


def test_cli_writes_json_markdown_and_png(tmp_path, capsys):
    argv = ["--agents", "random", "heuristic", "--games", "20", "--workers", "1", "--out", str(tmp_path)]
    main(argv)
    printed = capsys.readouterr().out
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["command"].endswith("--agents random heuristic --games 20 --workers 1 --out " + str(tmp_path))
    assert data["config"]["games"] == 20 and data["total_games"] == 20
    md = (tmp_path / "results.md").read_text()
    assert "| row vs column | random | heuristic |" in md
    rate = data["matrix"]["heuristic"]["random"]["win_rate"]
    assert f"| heuristic | {100 * rate:.1f}% [" in md
    assert "## Elo" in md and "| random | 0 |" in md
    assert (tmp_path / "winrate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| row vs column | random | heuristic |" in printed
    assert str(tmp_path / "winrate.png") in printed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "alphazero", "random"], r"unknown agent 'alphazero'; known agents: \['random'"),
        (["--env", "chess_v0", "--agents", "random", "heuristic"], r"unknown env id 'chess_v0'; available"),
        (["--agents", "random", "human"], "agent 'human' needs a terminal; play against any agent with"),
        (["--agents", "random"], "--agents needs at least 2 agents, got 1"),
        (["--agents", "random", "random"], "agent 'random' is listed twice"),
        (["--agents", "random", "heuristic", "--games", "3"], "--games must be a positive multiple of 2"),
        (["--agents", "random", "heuristic", "--games", "0"], "--games must be a positive multiple of 2"),
        (["--agents", "random", "heuristic", "--games", "-4"], "--games must be a positive multiple of 2"),
        (["--agents", "random", "heuristic:depth"], r"bad options in agent 'heuristic:depth': expected"),
        (["--agents", "random", "heuristic:"], "bad options in agent 'heuristic:'"),
        (["--agents", "random", "heuristic:a=1,a=2"], "bad options in agent"),
        (["--agents", "random", "heuristic:nonsense=3"], "agent 'heuristic:nonsense=3' cannot be built"),
        (["--agents", "random", "heuristic", "--workers", "0"], "--workers must be a positive integer"),
        (["--agents", "random", "heuristic", "--seed", "-1"], "--seed must be a non-negative integer"),
        (["--agents", "random", "missing/model.zip"], "agent 'missing/model.zip': no such model file"),
        (
            ["--agents", "random", "mcts:simulations=abc"],
            "cannot be built for elemystic_v0: simulations must be",
        ),
        (
            ["--env", "mystria_v0", "--agents", "random", "rllib"],
            "agent 'rllib' cannot be built for mystria_v0: no pretrained RLlib policy is shipped",
        ),
    ],
)
def test_bad_inputs_are_one_line_usage_errors(args, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("python -m training.evaluate: error: ")
    assert re.search(message, last)
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("out", "message"),
    [
        (
            "file/results",
            r"--out: cannot create the folder '.*file/results': '.*file' is a file, not a folder",
        ),
        ("file", r"--out: cannot create the folder '.*file': it is a file, not a folder"),
        ("locked/results", r"--out: cannot write to the folder '.*locked/results' \(Permission denied\)"),
    ],
)
def test_an_out_folder_that_cannot_be_made_is_refused_before_any_game(
    out, message, tmp_path, monkeypatch, capsys
):
    import pathlib

    (tmp_path / "file").write_text("not a folder")
    # Root may write anywhere, so a read-only folder is played by a mkdir that is refused.
    real_mkdir = pathlib.Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self.name == "locked":
            raise PermissionError(13, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "mkdir", mkdir)
    monkeypatch.setattr(evaluate, "run_tournament", lambda *a, **k: pytest.fail("the games started"))
    with pytest.raises(SystemExit):
        main(["--agents", "random", "heuristic", "--games", "2", "--out", str(tmp_path / out)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(message, last), last
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_out_check_leaves_no_folder_behind(tmp_path):
    evaluate.check_out_dir(tmp_path / "a" / "b" / "c")
    assert list(tmp_path.iterdir()) == []
    evaluate.check_out_dir(tmp_path)  # an existing, writable folder
    assert list(tmp_path.iterdir()) == []


def test_agent_specs_parse_names_options_and_values():
    spec = parse_agent_spec("heuristic:a=1, b=1.5,c=true,d=x,e=none")
    assert (spec.label, spec.name) == ("heuristic:a=1, b=1.5,c=true,d=x,e=none", "heuristic")
    assert spec.options == {"a": 1, "b": 1.5, "c": True, "d": "x", "e": None}
    assert parse_agent_spec(" random ").options == {}
    # A spec whose last option is a model path is that agent with its options, not a path itself.
    guided = parse_agent_spec("mcts:guide=ppo,simulations=64,path=runs/x/step_1.zip")
    assert (guided.name, guided.options) == (
        "mcts",
        {"guide": "ppo", "simulations": 64, "path": "runs/x/step_1.zip"},
    )
    assert parse_agent_spec("ppo:path=m.zip").options == {"path": "m.zip"}
    with pytest.raises(ConfigError, match="no such model file"):
        parse_agent_spec("runs/mcts_model.zip")


def test_seat_orders_rotate_the_pair():
    assert seat_orders(2) == [(0, 1), (1, 0)]
    # More players: each member alone in every seat against copies of the other.
    assert seat_orders(3) == [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    for n in (3, 4, 5):
        orders = seat_orders(n)
        assert len(orders) == 2 * n
        for member in (0, 1):
            # Every member sits in every seat equally often over the orders.
            assert len({sum(order[s] == member for order in orders) for s in range(n)}) == 1


def test_wilson_interval_on_hand_made_examples():
    z2 = 1.959963984540054**2
    assert wilson_interval(10, 10) == pytest.approx((10 / (10 + z2), 1.0))
    assert wilson_interval(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    lo, hi = wilson_interval(5, 10)
    assert (lo, hi) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert lo + hi == pytest.approx(1)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(2.5, 5)  # draws count half
    assert lo < 0.5 < hi and lo + hi == pytest.approx(1)
    assert wilson_interval(500, 1000)[1] - wilson_interval(500, 1000)[0] < hi - lo
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def _pair(score, games):
    return np.array([[0.0, score], [games - score, 0.0]]), np.array([[0.0, games], [games, 0.0]])


def test_elo_fit_on_hand_made_examples():
    # Two agents: the maximum-likelihood odds are the scores' ratio, plus one virtual draw.
    assert fit_elo(*_pair(10, 10), anchor=1) == pytest.approx([400 * math.log10(10.5 / 0.5), 0.0])
    assert fit_elo(*_pair(5, 10)) == pytest.approx([0.0, 0.0], abs=1e-9)
    assert fit_elo(*_pair(0, 0)) == pytest.approx([0.0, 0.0])
    assert fit_elo(*_pair(75, 100), anchor=1)[0] == pytest.approx(400 * math.log10(75.5 / 25.5))
    # Without the prior an unbeaten agent's rating would be infinite; with it, it is finite and large.
    assert 500 < fit_elo(*_pair(10, 10), anchor=1)[0] < 600


def test_elo_fit_recovers_a_consistent_ladder():
    # Each agent scores 3:1 against the one below and 9:1 against the one two below: 400*log10(3) apart.
    games = np.array([[0, 400, 1000], [400, 0, 400], [1000, 400, 0]], dtype=float)
    scores = np.array([[0, 300, 900], [100, 0, 300], [100, 100, 0]], dtype=float)
    elo = fit_elo(scores, games, anchor=2, prior_draws=1e-9)
    step = 400 * math.log10(3)
    assert elo == pytest.approx([2 * step, step, 0.0], abs=0.01)
    with pytest.raises(ValueError, match="must equal"):
        fit_elo(scores + 1, games)


def test_elo_fit_solves_the_likelihood_equations_on_a_wide_ladder():
    # Nine agents 250 Elo apart (2,000 from first to last), 400 games a pairing: at the maximum
    # every agent's points equal the points its ratings expect, virtual draws included.
    true = np.arange(9)[::-1] * 250.0
    expected = 1 / (1 + 10 ** ((true[None, :] - true[:, None]) / 400))
    games = np.full((9, 9), 400.0) - np.diag(np.full(9, 400.0))
    scores = np.round(expected * games)
    scores = np.triu(scores, 1) + np.tril(games - np.triu(scores, 1).T, -1)
    elo = fit_elo(scores, games, anchor=8)
    assert elo[8] == 0.0 and 1800 < elo[0] < 2200
    fitted = 1 / (1 + 10 ** ((elo[None, :] - elo[:, None]) / 400))
    off = ~np.eye(9, dtype=bool)
    points = np.where(off, scores + 0.5, 0).sum(axis=1)
    assert np.where(off, (games + 1) * fitted, 0).sum(axis=1) == pytest.approx(points, rel=1e-9)


def test_in_process_progress_moves_after_every_game(monkeypatch):
    """With one worker the bar advances game by game, not after a whole task of CHUNK_GAMES."""
    import tqdm

    updates = []

    class Bar:
        def __init__(self, total, **_):
            self.total = total

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            updates.append(n)

    monkeypatch.setattr(tqdm, "tqdm", Bar)
    run_tournament("elemystic_v0", ["random", "heuristic"], games=6, workers=1, progress=True)
    assert updates == [1] * 6


# agents.demo takes the same agent specs as --agents and builds both players before the game.


def test_demo_plays_specs_and_prints_the_result_from_the_info_schema(capsys):
    from agents import demo

    demo.main(["--players", "heuristic", "mcts:simulations=5", "--seed", "2", "--quiet"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "Result:"
    assert re.fullmatch(r"  player_0 \(heuristic\): reward [+-][01], score -?\d+", lines[1]), lines[1]
    assert re.fullmatch(r"  player_1 \(mcts:simulations=5\): reward [+-][01], score -?\d+", lines[2]), lines[
        2
    ]
    assert re.fullmatch(r"  winner: (player_0|player_1|none) \(game over\)", lines[3]), lines[3]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "random", "mcts:simulations=abc"],
            "player 'mcts:simulations=abc' cannot play elemystic_v0",
        ),
        (
            ["--env", "mystria_v0", "--players", "rllib", "random"],
            "player 'rllib' cannot play mystria_v0: no pre",
        ),
        (["--players", "random", "alphazero"], r"unknown agent 'alphazero'; known agents: \['random'"),
        (["--players", "human", "random"], "agent 'human' needs a terminal"),
        (["--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    ],
)
def test_demo_bad_players_are_one_line_usage_errors(args, message, capsys):
    from agents import demo

    with pytest.raises(SystemExit) as exit_info:
        demo.main([*args, "--quiet"])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before a move is played
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("python -m agents.demo: error: ") and re.search(message, last), last


def test_an_agent_spec_may_not_set_the_seed():
    with pytest.raises(ConfigError, match=r"^agent 'mcts:seed=3': seed is not an agent option; --seed sets"):
        parse_agent_spec("mcts:seed=3")


def test_ctrl_c_is_one_line_that_gives_the_resume_command_and_no_worker_traceback(tmp_path):
    out = tmp_path / "out"
    args = ["--env", "elemystic_v0", "--agents", "random", "heuristic", "--games", "100000"]
    args += ["--workers", "2", "--out", str(out)]
    # A child started in the background may inherit SIGINT ignored; restore Python's own handler.
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        f"from training.evaluate import main; main({args!r})"
    )
    err = tmp_path / "stderr"
    with err.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-c", code], stderr=sink, text=True, process_group=0)
        try:
            deadline = time.monotonic() + 120
            while not any((out / "games").rglob("*.json")):  # a chunk is finished: the pool runs
                assert proc.poll() is None and time.monotonic() < deadline, err.read_text()
                time.sleep(0.05)
            os.killpg(proc.pid, signal.SIGINT)
            assert proc.wait(timeout=60) == 130
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    text = err.read_text()
    assert "Traceback" not in text
    assert text.strip().splitlines()[-1] == (
        f"interrupted: the finished games are kept in {out}; "
        f"continue with: python -m training.evaluate --resume {out}"
    )
    # Resumable: the run's settings, and whole chunk files only (no temporary file left behind).
    assert json.loads((out / "run.json").read_text())["settings"]["games"] == 100000
    chunks = sorted((out / "games").rglob("*"))
    assert chunks and all(p.is_dir() or (p.suffix == ".json" and not p.name.startswith(".")) for p in chunks)
    for path in (p for p in chunks if p.is_file()):
        assert len(json.loads(path.read_text())["games"]) == evaluate.CHUNK_GAMES


# -- resuming --------------------------------------------------------------------------------------

RUN = ["--agents", "random", "heuristic", "mcts:simulations=2", "--save-games", "3", "--workers", "1"]


def _interrupt_after(monkeypatch, chunks: int) -> None:
    """Ctrl-C, deterministically: a KeyboardInterrupt as the task after ``chunks`` finished ones starts."""
    play = evaluate._play_task
    started = []

    def interrupting(task, on_game=None):
        started.append(task)
        if len(started) > chunks:
            raise KeyboardInterrupt
        return play(task, on_game)

    monkeypatch.setattr(evaluate, "_play_task", interrupting)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _without_session(files: dict[str, bytes], *also: str) -> dict[str, object]:
    """The files of a run with what describes the session alone set aside: the timing, the commands
    that resumed it (and ``also``, keys of results.json), and the line of results.md that times it."""
    kept: dict[str, object] = {k: v for k, v in files.items() if k != "run.json"}
    summary = json.loads(files["results.json"])
    for key in ("timing", "resumed", *also):
        summary.pop(key, None)
    kept["results.json"] = summary
    md = re.sub(r"resumed with .*\n\n", "", files["results.md"].decode())
    kept["results.md"] = [
        re.sub(r"seed (\d+): .*", r"seed \1", line)
        for line in md.splitlines()
        if not line.startswith("`python -m")
    ]
    return kept


@pytest.fixture
def chunk_of_two(monkeypatch):
    # Chunks of 2 games: a short tournament has many chunk files to lose and to resume.
    monkeypatch.setattr(evaluate, "CHUNK_GAMES", 2)


def test_an_interrupted_run_resumes_to_the_files_of_an_uninterrupted_one(
    tmp_path, monkeypatch, capsys, chunk_of_two
):
    (tmp_path / "whole").mkdir()
    (tmp_path / "cut").mkdir()
    monkeypatch.chdir(tmp_path / "whole")  # the same --out, so the commands are the same too
    main([*RUN, "--games", "12", "--out", "run"])
    whole = _files(tmp_path / "whole" / "run")

    monkeypatch.chdir(tmp_path / "cut")
    with monkeypatch.context() as patch:
        _interrupt_after(patch, 7)  # of 3 pairings x 2 seat orders x 3 chunks
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([*RUN, "--games", "12", "--out", "run"])
    assert exit_info.value.code == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        "interrupted: the finished games are kept in run; "
        "continue with: python -m training.evaluate --resume run"
    )
    assert not (tmp_path / "cut" / "run" / "results.json").exists()
    assert len(list((tmp_path / "cut" / "run" / "games").rglob("*.json"))) == 7

    result = main(["--resume", "run"])
    cut = _files(tmp_path / "cut" / "run")
    assert result["timing"]["earlier_games"] == 7 * 2
    assert result["resumed"] == ["python -m training.evaluate --resume run"]
    assert result["command"] == json.loads(whole["results.json"])["command"]
    # Every game's outcome (the chunk files), the records, the tables and the plot are the same bytes.
    assert sorted(cut) == sorted(whole)
    assert {k: v for k, v in cut.items() if k.startswith(("games/", "records/", "winrate"))} == {
        k: v for k, v in whole.items() if k.startswith(("games/", "records/", "winrate"))
    }
    assert _without_session(cut) == _without_session(whole)


@pytest.mark.parametrize("first", [4, 8], ids=["a partial chunk is played again", "whole chunks are kept"])
def test_a_larger_games_extends_a_run_to_the_files_of_the_larger_run(first, tmp_path, monkeypatch):
    monkeypatch.setattr(evaluate, "CHUNK_GAMES", 4)
    main([*RUN, "--games", "12", "--out", str(tmp_path / "whole")])
    main([*RUN, "--games", str(first), "--out", str(tmp_path / "grown")])
    result = main(["--resume", str(tmp_path / "grown"), "--games", "12"])
    # An agent without seed() carries its stream through a chunk, so the chunk that a larger --games
    # lengthens (games 0 and 2 of a seat order at 4) is played again whole; full chunks are kept.
    assert result["timing"].get("earlier_games", 0) == (0 if first == 4 else 3 * 8)
    assert json.loads((tmp_path / "grown" / "run.json").read_text())["settings"]["games"] == 12
    whole, grown = _files(tmp_path / "whole"), _files(tmp_path / "grown")
    # Only the commands and the --out of the two runs differ.
    assert _without_session(grown, "command", "config") == _without_session(whole, "command", "config")


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("finished") / "run"
    main(["--agents", "random", "heuristic", "--games", "8", "--workers", "1", "--out", str(out)])
    return out


def _resume_refused(argv: list[str], folder: Path, message: str, capsys) -> None:
    before = _files(folder) if folder.is_dir() else None
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    # argparse's usage, then the one line
    assert err[0].startswith("usage: ") and all(line.startswith(" ") for line in err[1:-1]), err
    assert err[-1].startswith("python -m training.evaluate: error: ")
    assert re.search(message, err[-1]), err[-1]
    assert (_files(folder) if folder.is_dir() else None) == before  # nothing written


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--seed", "3"], r"these flags contradict: --seed 3 \(the run has 0\); only --games"),
        (
            ["--agents", "random", "mcts", "--env", "mystria_v0"],
            r"contradict: --env mystria_v0 \(the run has elemystic_v0\); "
            r"--agents random mcts \(the run has random heuristic\)",
        ),
        (["--variant", "intro"], r"--variant intro \(the run has None\)"),
        (["--env-kwarg", "max_steps=9"], r"--env-kwarg max_steps=9 \(the run has \(none\)\)"),
        (["--save-games", "1"], r"--save-games 1 \(the run has 0\)"),
        (["--out", "elsewhere"], r"--out elsewhere \(the run is in "),
        (
            ["--games", "4"],
            r"the run in '.*' has 8 games a pairing; --games 4 would drop some \(give 8 or more\)",
        ),
        (["--games", "9"], "--games must be a positive multiple of 2"),
        (["--workers", "0"], "--workers must be a positive integer"),
    ],
)
def test_resume_refuses_flags_that_contradict_the_run_in_one_line(
    flags, message, finished_run, tmp_path, capsys
):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    _resume_refused(["--resume", str(run), *flags], run, message, capsys)


def test_resume_with_the_run_s_own_flags_is_no_contradiction(finished_run, tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    result = main(["--resume", str(run), "--agents", "random", "heuristic", "--seed", "0", "--games", "8"])
    assert result["timing"]["earlier_games"] == 8
    assert json.loads((run / "results.json").read_text())["total_games"] == 8


def test_resume_refuses_what_is_not_an_evaluate_run_in_one_line(finished_run, tmp_path, capsys):
    _resume_refused(
        ["--resume", str(tmp_path / "missing")], tmp_path, r"--resume: no folder '.*missing'$", capsys
    )
    (tmp_path / "file").write_text("x")
    _resume_refused(["--resume", str(tmp_path / "file")], tmp_path, "is a file, not a run folder", capsys)
    (tmp_path / "empty").mkdir()
    _resume_refused(
        ["--resume", str(tmp_path / "empty")],
        tmp_path,
        r"is not a training.evaluate run \(no run.json\)",
        capsys,
    )
    leaderboard = tmp_path / "leaderboard"
    leaderboard.mkdir()
    (leaderboard / "run.json").write_text('{"env": "elemystic_v0", "num_players": 2, "seed": 0}')
    _resume_refused(
        ["--resume", str(leaderboard)],
        tmp_path,
        "not a training.evaluate run .its run.json is another tool",
        capsys,
    )
    (leaderboard / "run.json").write_text('{"tool": "training.evaluate", "settings": []}')
    _resume_refused(
        ["--resume", str(leaderboard)], tmp_path, "its run.json is another tool's, or edited", capsys
    )
    (leaderboard / "run.json").write_text("{")
    _resume_refused(["--resume", str(leaderboard)], tmp_path, "run.json is unreadable: Expecting", capsys)
    older = tmp_path / "older"
    shutil.copytree(finished_run, older)
    (older / "run.json").write_text(
        (older / "run.json").read_text().replace(f'"{mystic_envs.__version__}"', '"0.0.1"')
    )
    _resume_refused(["--resume", str(older)], tmp_path, r"was played with mystic_envs 0.0.1, this is", capsys)
    _resume_refused(
        ["--agents", "random", "heuristic", "--out", str(older)],
        tmp_path,
        r"--out: '.*older' already holds a run \(run.json\); continue a tournament with --resume .*older, or",
        capsys,
    )


def test_run_tournament_resumes_from_its_run_dir_at_three_players(tmp_path, monkeypatch, chunk_of_two):
    args = ("mystick_domination_v0", ["random", "heuristic"], 12)
    options = {"seed": 4, "workers": 1, "num_players": 3, "save_games": 2}
    whole = run_tournament(*args, **options)
    with monkeypatch.context() as patch:
        _interrupt_after(patch, 3)  # of 6 seat orders x 1 chunk
        with pytest.raises(KeyboardInterrupt):
            run_tournament(*args, **options, run_dir=tmp_path)
    resumed = run_tournament(*args, **options, run_dir=tmp_path)
    assert resumed.pop("timing")["earlier_games"] == 3 * 2
    whole.pop("timing")
    assert resumed == whole
