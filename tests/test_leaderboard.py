"""training.leaderboard: duplicate deals, the joint fit and its intervals, resuming, verifying, bad input."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.spec import AgentSpec, ConfigError, parse_agent_spec
from tests import multiplayer_toy
from training import leaderboard, leaderboard_results
from training.evaluate import seat_orders
from training.leaderboard import main, play_pairing_deals, run_leaderboard, verify
from training.leaderboard_results import Entrant, budget_png, budget_series, sanity_checks, summarize

SMALL = ("random", "heuristic")


def _entrants(labels):
    return [Entrant(AgentSpec(label, "random", {})) for label in labels]


def _synthetic(elo: dict[str, float], deals: int, rng: np.random.Generator) -> dict:
    """Two-player games of every pairing (each with itself too) drawn from a Bradley-Terry model."""
    labels = list(elo)
    games = {}
    for i, a in enumerate(labels):
        for b in labels[i:]:
            p = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            played = []
            for deal in range(deals):
                for o, order in enumerate(seat_orders(2)):
                    first_wins = rng.random() < p
                    places = [0, 1] if (order[0] == 0) == first_wins else [1, 0]
                    played.append(
                        {"deal": deal, "order": o, "places": places, "truncated": False}
                        | {"moves": [1, 1], "seconds": [0.0, 0.0]}
                    )
            games[a, b] = played
    return games


def test_the_joint_fit_recovers_known_strengths_and_its_intervals_cover_them(monkeypatch):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 200)
    truth = {"random": 0.0, "a": 150.0, "b": 300.0, "c": 450.0}
    rng = np.random.default_rng(5)
    covered, intervals = [], []
    for _ in range(12):
        result = summarize("elemystic_v0", 2, 0, _entrants(truth), {}, _synthetic(truth, 150, rng), 150, ())
        ratings = result["ratings"]
        assert ratings["random"]["rating"] == 0
        assert sorted(truth, key=lambda k: ratings[k]["rating"]) == list(truth)
        for label in ("a", "b", "c"):
            lo, hi = ratings[label]["ci95"]
            covered.append(lo <= truth[label] <= hi)
            intervals.append(hi - lo)
            assert ratings[label]["games"] == 3 * 300  # against the 3 others, not itself
    # 95% intervals: over 36 of them, at least 31 cover (a binomial 95% would miss this 1 time in ~60).
    assert sum(covered) >= 31
    assert 30 < np.median(intervals) < 200


def test_an_intransitive_cycle_and_a_seat_difference_are_reported():
    # Rock-paper-scissors: each beats the next in every game; rock beats random as player_0 only.
    labels = ["random", "rock", "paper", "scissors"]
    beats = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}

    def first_member_wins(a, b, deal, seat_of_a):
        if a == b:
            return (deal + seat_of_a) % 2 == 0  # player_0 wins the even deals, player_1 the odd
        if (a, b) == ("random", "rock"):
            return seat_of_a == 1
        if a == "random":
            return False
        return (a, b) in beats

    games = {}
    for i, a in enumerate(labels):
        for b in labels[i:]:
            played = []
            for deal in range(40):
                for o, order in enumerate(seat_orders(2)):
                    seat_of_a = order.index(0)
                    places = [0, 0]
                    places[1 - seat_of_a if first_member_wins(a, b, deal, seat_of_a) else seat_of_a] = 1
                    played.append(
                        {"deal": deal, "order": o, "places": places, "truncated": False}
                        | {"moves": [1, 1], "seconds": [0.0, 0.0]}
                    )
            games[a, b] = played
    result = summarize("elemystic_v0", 2, 0, _entrants(labels), {}, games, 40, ())
    checks = result["checks"]
    assert {tuple(c["cycle"]) for c in checks["cycles"]} == {("rock", "scissors", "paper")}
    assert checks["cycles"][0]["significant"]
    assert all(v["ok"] for v in checks["self_play"].values())
    assert checks["beats_random"]["paper"]["ok"] and checks["beats_random"]["scissors"]["ok"]
    # Rock wins every game as player_0 against random and loses every one as player_1.
    assert checks["beats_random"]["rock"]["score"] == 0.5 and not checks["beats_random"]["rock"]["ok"]
    assert [d["agents"] for d in checks["seat_differences"]] == [["random", "rock"]]
    report = leaderboard_results.markdown_report(result)
    assert "rock > scissors > paper *" in report and "NOT SHOWN for rock" in report


def test_a_seat_difference_of_an_agent_against_itself_names_its_copies():
    # "first" always wins from the first seat, so its copies split by seat: the report tells the
    # copies apart (their names are the same) and says whose score it shows.
    games = {}
    for a, b in (("random", "random"), ("random", "first"), ("first", "first")):
        played = []
        for deal in range(40):
            for o, order in enumerate(seat_orders(2)):
                winner = 0 if a == b == "first" else (deal % 2 if a == b else order.index(1))
                places = [1, 1]
                places[winner] = 0
                played.append(
                    {"deal": deal, "order": o, "places": places, "truncated": False}
                    | {"moves": [1, 1], "seconds": [0.0, 0.0]}
                )
        games[a, b] = played
    result = summarize("elemystic_v0", 2, 0, _entrants(["random", "first"]), {}, games, 40, ())
    assert [d["agents"] for d in result["checks"]["seat_differences"]] == [["first", "first"]]
    report = leaderboard_results.markdown_report(result)
    assert (
        "first vs first: seats A-B 100.0% [91.2, 100.0], seats B-A 0.0% [0.0, 8.8] (A and B two copies, "
        "A's score)" in report
    )


def test_agents_whose_interval_is_wider_than_25_elo_are_listed(monkeypatch):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 100)
    truth = {"random": 0.0, "a": 100.0, "b": 200.0}
    result = summarize(
        "elemystic_v0", 2, 0, _entrants(truth), {}, _synthetic(truth, 30, np.random.default_rng(2)), 30, ()
    )
    halves = {label: (r["ci95"][1] - r["ci95"][0]) / 2 for label, r in result["ratings"].items()}
    # 60 games a pairing: far from +-25 Elo; random is the anchor, of zero width.
    assert result["checks"]["wide_intervals"] == {"a": halves["a"], "b": halves["b"]}
    assert min(halves["a"], halves["b"]) > 25 and halves["random"] == 0
    report = leaderboard_results.markdown_report(result)
    assert f"- 95% interval half-width above 25 Elo: a ±{halves['a']:.0f}, b ±{halves['b']:.0f}\n" in report
    monkeypatch.setattr(leaderboard_results, "HALF_WIDTH_TARGET", max(halves.values()) + 1)
    result["checks"] = sanity_checks(result)
    assert result["checks"]["wide_intervals"] == {}
    assert "half-width above" in leaderboard_results.markdown_report(result)
    assert "Elo: none" in leaderboard_results.markdown_report(result)


def test_the_budget_plot_has_a_series_for_plain_and_for_guided_search(monkeypatch):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 20)
    texts = ["random", "heuristic", "mcts:simulations=16", "mcts:simulations=64"]
    texts += ["mcts:guide=ppo,simulations=64", "mcts:guide=ppo,simulations=16"]
    entrants = [Entrant(parse_agent_spec(text)) for text in texts]
    games = _synthetic({text: 100.0 * i for i, text in enumerate(texts)}, 10, np.random.default_rng(3))
    for g in (g for played in games.values() for g in played):
        g["seconds"] = [0.001, 0.002]  # a move's cost, for the plot's log scale
    result = summarize("elemystic_v0", 2, 0, entrants, {}, games, 10, texts)
    ratings = result["ratings"]
    assert [(ratings[t]["search"], ratings[t]["simulations"]) for t in texts] == [
        (None, None),
        (None, None),
        ("mcts", 16),
        ("mcts", 64),
        ("guided", 64),
        ("guided", 16),
    ]
    assert budget_series(result) == {
        "mcts": [(16, "mcts:simulations=16"), (64, "mcts:simulations=64")],
        "guided": [(16, "mcts:guide=ppo,simulations=16"), (64, "mcts:guide=ppo,simulations=64")],
    }
    assert budget_png(result).startswith(b"\x89PNG")
    # Results written before the "search" field (the published pilot) had plain mcts only.
    for r in ratings.values():
        del r["search"]
    assert budget_series(result) == {"mcts": [(16, texts[5]), (16, texts[2]), (64, texts[4]), (64, texts[3])]}
    published = json.loads(leaderboard.published_path("elemystic_v0", 2).read_text())
    assert budget_png(published).startswith(b"\x89PNG")
    assert [s for s, _ in budget_series(published)["mcts"]] == [16, 64, 256, 1024]


def test_a_move_costs_cpu_time_and_a_run_resumed_across_the_clocks_reports_cpu_alone(monkeypatch):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 20)
    labels = ["random", "a"]
    games = _synthetic({"random": 0.0, "a": 200.0}, 20, np.random.default_rng(4))
    # Deals 0-9 played before the CPU clock (wall seconds, dear under load), 10-19 after it.
    for g in (g for played in games.values() for g in played):
        g["moves"] = [10, 20]
        if g["deal"] >= 10:
            g["cpu_seconds"] = [0.01, 0.04]  # 1 ms a move for the first seat, 2 for the second
            del g["seconds"]
        else:
            g["seconds"] = [1.0, 1.0]
    result = summarize("elemystic_v0", 2, 0, _entrants(labels), {}, games, 20, ())
    # Each agent sat first and second equally often: (10 * 1 + 20 * 2) / 30 ms a move.
    for label in labels:
        assert result["ratings"][label]["ms_clock"] == "cpu"
        assert result["ratings"][label]["ms_per_move"] == pytest.approx(50 / 30)
    assert "| games | CPU ms per move |" in leaderboard_results.markdown_report(result)
    # A run of wall seconds alone keeps its plain heading and no clock field (the older tables).
    for g in (g for played in games.values() for g in played):
        g.pop("cpu_seconds", None)
        g["seconds"] = [0.01, 0.04]
    result = summarize("elemystic_v0", 2, 0, _entrants(labels), {}, games, 20, ())
    assert all("ms_clock" not in r for r in result["ratings"].values())
    assert "| games | ms per move |" in leaderboard_results.markdown_report(result)
    # A game played now is timed in CPU seconds.
    (game,) = play_pairing_deals(
        "elemystic_v0", 2, 0, (parse_agent_spec("random"), parse_agent_spec("random")), [0]
    )[:1]
    assert "seconds" not in game and len(game["cpu_seconds"]) == 2 and min(game["cpu_seconds"]) >= 0


def test_every_pairing_plays_the_same_deals_from_every_seat(monkeypatch):
    seen = []

    def recording(env, seats, env_seed, recorder=None):
        seen.append((env_seed, [type(s.agent).__name__ for s in seats]))
        return real(env, seats, env_seed, recorder)

    real = leaderboard.play_game
    monkeypatch.setattr(leaderboard, "play_game", recording)
    pairings = [("random", "heuristic"), ("heuristic", "heuristic"), ("random", "random")]
    for a, b in pairings:
        specs = (AgentSpec(a, a, {}), AgentSpec(b, b, {}))
        play_pairing_deals("elemystic_v0", 2, 3, specs, [4, 9])
    seeds = [s for s, _ in seen]
    # Each pairing: deal 4 in both seat orders, then deal 9 in both, on the same two env seeds.
    assert seeds == [leaderboard.deal_seed(3, 4)] * 2 + [leaderboard.deal_seed(3, 9)] * 2 + seeds[:4] * 2
    assert seeds[0] != seeds[2]
    assert seen[0][1] == ["RandomPolicy", seen[1][1][0]] and seen[1][1][1] == "RandomPolicy"


def test_at_more_players_each_agent_sits_alone_in_every_seat_of_every_deal(monkeypatch):
    env_id = multiplayer_toy.register(monkeypatch)
    specs = (AgentSpec("random", "random", {}), AgentSpec("heuristic", "heuristic", {}))
    games = play_pairing_deals(env_id, 3, 0, specs, [0, 1])
    for deal in (0, 1):
        lone_seats = {
            (m, order.index(m))
            for g in games
            if g["deal"] == deal
            for order in [seat_orders(3)[g["order"]]]
            for m in (0, 1)
            if order.count(m) == 1
        }
        assert lone_seats == {(m, s) for m in (0, 1) for s in range(3)}


def test_at_more_players_the_mean_place_and_openskill_rate_the_heuristic_first(monkeypatch, tmp_path):
    env_id = multiplayer_toy.register(monkeypatch)
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 100)
    result = run_leaderboard(env_id, 3, games=6 * 60, workers=1, out=tmp_path / "run", roster=(*SMALL, "ppo"))
    assert result["rating_scale"] == "mean place"
    places = result["ratings"]
    assert places["heuristic"]["rating"] < places["random"]["rating"]
    assert places["heuristic"]["ci95"][1] < places["random"]["ci95"][0]
    assert result["openskill"]["heuristic"]["mu"] > result["openskill"]["random"]["mu"]
    checks = result["checks"]
    assert all(v["ok"] for v in checks["self_play"].values()) and checks["beats_random"]["heuristic"]["ok"]
    for difference in checks["seat_differences"]:  # only orders with the same member alone compare
        x, y = difference["orders"]
        assert sorted(x["members"]) == sorted(y["members"])
    assert list(result["skipped"]) == ["ppo"] and "\n" not in result["skipped"]["ppo"]
    report = (tmp_path / "run" / "results.md").read_text()
    assert "mean place" in report
    # The +-25 Elo target is the 2-player ladder's: no such check at more players.
    assert "wide_intervals" not in checks and "half-width" not in report


def test_an_agent_that_cannot_play_is_skipped_with_its_reason():
    guided = "mcts:guide=ppo,simulations=16"
    # Every count of every game has its PPO model now, so a model path that does not exist stands
    # for a missing one: the guided search on it is skipped for the same reason as ppo.
    missing = "path=runs/none/model.zip"
    roster = ("random", "mcts:simulations=16", "mcts:simulations=16,c=-1")
    roster += (f"ppo:{missing}", "rllib", f"{guided},{missing}")
    entrants, skipped = leaderboard.build_roster("mystic_vale_v0", 3, roster)
    assert [e.label for e in entrants] == ["random", "mcts:simulations=16"]
    for label in (roster[3], roster[5]):
        assert label in skipped and "runs/none/model.zip" in skipped[label]
    assert "rllib" in skipped and "no pretrained RLlib policy" in skipped["rllib"]
    assert "c must be a number >= 0" in skipped["mcts:simulations=16,c=-1"]
    assert all("\n" not in why for why in skipped.values())
    # The ppo agent and the guided search are told the table's size: each loads the model shipped
    # for it (Mystick Domination's at 3 players, not its 2- or 4-player one), or says there is none.
    entrants, skipped = leaderboard.build_roster("mystick_domination_v0", 3, ("random", "ppo", guided))
    three = leaderboard.model_fingerprint(make_agent("ppo", "mystick_domination_v0", num_players=3))
    assert skipped == {} and [e.models for e in entrants] == [{}, three, three]
    assert list(three) == ["agents/pretrained/mystick_domination_v0_3p_ppo.zip"]
    entrants, skipped = leaderboard.build_roster("elemystic_v0", 2, ("random", "ppo"))
    assert [e.models for e in entrants] == [
        {},
        leaderboard.model_fingerprint(make_agent("ppo", "elemystic_v0")),
    ]


def _comparable(result):
    return {label: (r["rating"], r["ci95"], r["games"]) for label, r in result["ratings"].items()}, result[
        "places"
    ]


def _stop_after(monkeypatch, chunks: int) -> list:
    """Chunks of one deal; the run is interrupted (Ctrl-C) after ``chunks`` of them. Returns the calls."""
    monkeypatch.setattr(leaderboard, "CHUNK_DEALS", 1)
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 50)
    calls = []
    real = leaderboard.play_pairing_deals

    def interrupted(*args):
        if len(calls) == chunks:
            raise KeyboardInterrupt
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(leaderboard, "play_pairing_deals", interrupted)
    return calls


def test_an_interrupted_run_resumes_where_it_stopped(monkeypatch, tmp_path):
    calls = _stop_after(monkeypatch, 4)
    real = play_pairing_deals
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_leaderboard("elemystic_v0", games=6, workers=1, out=run, roster=SMALL)
    assert len(list(run.glob("games/*/*.json"))) == 4 and not (run / "results.json").exists()
    assert not list(run.rglob("*.tmp"))

    calls.clear()
    monkeypatch.setattr(leaderboard, "play_pairing_deals", lambda *args: calls.append(args) or real(*args))
    resumed = run_leaderboard("elemystic_v0", games=6, workers=1, out=run, roster=SMALL)
    assert len(calls) == 3 * 3 - 4  # 3 pairings x 3 deals, less the 4 chunks already played
    fresh = run_leaderboard("elemystic_v0", games=6, workers=1, out=tmp_path / "fresh", roster=SMALL)
    assert _comparable(resumed) == _comparable(fresh)
    assert json.loads((run / "results.json").read_text())["places"] == fresh["places"]

    calls.clear()
    longer = run_leaderboard("elemystic_v0", games=8, workers=1, out=run, roster=SMALL)
    assert len(calls) == 3 and longer["deals"] == 4  # only the new deal of every pairing
    with pytest.raises(ConfigError, match="holds a run with seed 0"):
        run_leaderboard("elemystic_v0", games=6, seed=1, workers=1, out=run, roster=SMALL)


def test_a_stopped_run_is_fitted_at_the_deals_every_pairing_finished(monkeypatch, tmp_path, capsys):
    calls = _stop_after(monkeypatch, 5)
    real = play_pairing_deals
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_leaderboard("elemystic_v0", games=6, workers=1, out=run, roster=SMALL)
    # Deal block by deal block: deal 0 of the 3 pairings, then deal 1 of the first two.
    assert len(list(run.glob("games/*/*.json"))) == 5

    calls.clear()
    monkeypatch.setattr(leaderboard, "play_pairing_deals", lambda *args: calls.append(args) or real(*args))
    fitted = run_leaderboard("elemystic_v0", workers=1, out=run, roster=SMALL, finished=True)
    assert not calls and fitted["deals"] == 1
    fresh = run_leaderboard("elemystic_v0", games=2, workers=1, out=tmp_path / "fresh", roster=SMALL)
    assert _comparable(fitted) == _comparable(fresh)

    calls.clear()
    real_roster = leaderboard.build_roster
    monkeypatch.setattr(leaderboard, "build_roster", lambda env_id, n, roster: real_roster(env_id, n, SMALL))
    assert main(["--env", "elemystic_v0", "--finished", "--out", str(run)]) == 0
    capsys.readouterr()
    recorded = json.loads((run / "results.json").read_text())
    assert recorded["deals"] == 1 and not calls
    assert recorded["command"] == f"python -m training.leaderboard --env elemystic_v0 --out {run} --games 2"


def test_a_changed_model_refuses_to_resume_until_its_agent_is_replayed(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 20)
    roster = ("random", "rllib")
    run = tmp_path / "run"
    # An agent skipped at the table cannot be replayed.
    td = tmp_path / "td"
    with pytest.raises(ConfigError, match=r"--replay: rllib cannot play at this table \(CheckpointError: no"):
        run_leaderboard(
            "tarot_dice_v0", games=2, workers=1, out=td, roster=(*SMALL, "rllib"), replay=["rllib"]
        )
    assert not td.exists()
    first = run_leaderboard("elemystic_v0", games=2, workers=1, out=run, roster=roster)
    # The rllib agent loads a checkpoint folder: every file in it, by its path in the repository.
    shipped = leaderboard.model_fingerprint(make_agent("rllib", "elemystic_v0"))
    folder = leaderboard.ROOT / "agents" / "pretrained" / "elemystic_v0_rllib"
    assert shipped == {
        str(p.relative_to(leaderboard.ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*")
        if p.is_file()
    }
    assert first["models"] == {"rllib": shipped}
    record = json.loads((run / "run.json").read_text())
    assert record["models"] == {"rllib": shipped}

    calls = []
    real = leaderboard.play_pairing_deals
    monkeypatch.setattr(leaderboard, "play_pairing_deals", lambda *args: calls.append(args[3]) or real(*args))
    # A folder begun before fingerprints were recorded resumes and records today's.
    del record["models"]
    (run / "run.json").write_text(json.dumps(record))
    run_leaderboard("elemystic_v0", games=2, workers=1, out=run, roster=roster)
    assert calls == [] and json.loads((run / "run.json").read_text())["models"] == {"rllib": shipped}

    # The file changed since the games were played: refused, in one line naming the agent and the flag.
    changed = next(iter(shipped))
    record["models"] = {"rllib": shipped | {changed: "0" * 64}}
    (run / "run.json").write_text(json.dumps(record))
    argv = ["--env", "elemystic_v0", "--games", "2", "--workers", "1", "--out", str(run)]
    real_roster = leaderboard.build_roster
    monkeypatch.setattr(leaderboard, "build_roster", lambda env_id, n, _: real_roster(env_id, n, roster))
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert (
        f"rllib played this run's games with other model files than today's ({changed} 000000000000 -> "
        in err
    )
    assert "add --replay rllib to play its games again" in err
    assert calls == [] and json.loads((run / "run.json").read_text()) == record

    # --replay drops its games in every pairing it is in, plays them again and records today's file.
    assert main([*argv, "--replay", "rllib"]) == 0
    assert sorted((a.label, b.label) for a, b in calls) == [("random", "rllib"), ("rllib", "rllib")]
    assert json.loads((run / "run.json").read_text())["models"] == {"rllib": shipped}
    assert json.loads((run / "results.json").read_text())["places"] == first["places"]


def test_a_run_builds_each_agent_once_a_seat_and_it_plays_as_a_fresh_one(monkeypatch, tmp_path):
    monkeypatch.setattr(leaderboard, "CHUNK_DEALS", 1)
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 20)
    built = []
    real = leaderboard.make_agent
    monkeypatch.setattr(
        leaderboard, "make_agent", lambda name, *a, **kw: built.append(name) or real(name, *a, **kw)
    )
    result = run_leaderboard(
        "elemystic_v0", games=6, workers=1, out=tmp_path / "run", roster=("random", "rllib")
    )
    # Once to check the roster, then once a seat for the 3 chunks of 3 pairings (a chunk at a time: 19).
    assert sorted(built) == ["random"] * 3 + ["rllib"] * 3 and not leaderboard._AGENTS
    specs = {label: AgentSpec(label, label, {}) for label in ("random", "rllib")}
    for key, per_deal in result["places"].items():
        members = tuple(specs[label] for label in key.split("|"))
        fresh = [play_pairing_deals("elemystic_v0", 2, 0, members, [d]) for d in range(3)]
        assert per_deal == ["".join(str(p) for g in games for p in g["places"]) for games in fresh]


def test_ctrl_c_on_the_command_line_is_one_line_and_keeps_the_run_folder(monkeypatch, tmp_path, capsys):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(leaderboard, "play_pairing_deals", interrupted)
    real = leaderboard.build_roster
    monkeypatch.setattr(leaderboard, "build_roster", lambda env_id, n, roster: real(env_id, n, SMALL))
    out = tmp_path / "run"
    assert main(["--env", "elemystic_v0", "--games", "2", "--workers", "1", "--out", str(out)]) == 130
    last = capsys.readouterr().err.splitlines()[-1]  # after the progress bar's
    assert last == f"{leaderboard.PROG}: interrupted; the finished chunks are kept: the same command resumes"
    assert json.loads((out / "run.json").read_text())["env"] == "elemystic_v0"


GUIDED = "mcts:guide=ppo,simulations=2"


@pytest.fixture
def published(monkeypatch, tmp_path):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 50)
    run_leaderboard(
        "elemystic_v0",
        games=6,
        workers=1,
        out=tmp_path / "run",
        roster=(*SMALL, "mcts:simulations=4", GUIDED),
    )
    folder = tmp_path / "published"
    folder.mkdir()
    shutil.copy(tmp_path / "run" / "results.json", folder / "elemystic_v0-2p.json")
    monkeypatch.setattr(leaderboard, "PUBLISHED_DIR", folder)
    return folder / "elemystic_v0-2p.json"


def test_verify_replays_published_deals_and_catches_a_changed_result(published, capsys):
    assert verify("elemystic_v0", sample=2) == []
    assert main(["--verify", "--env", "elemystic_v0", "--sample", "1"]) == 0
    assert capsys.readouterr().out.endswith("--verify: all checks hold\n")
    assert main(["--verify", "--env", "elemystic_v0", "--num-players", "2", "--sample", "1"]) == 0
    for argv in (["--env", "mystria_v0"], ["--env", "elemystic_v0", "--num-players", "3"]):
        with pytest.raises(SystemExit):
            main(["--verify", *argv])
        assert capsys.readouterr().err.startswith(
            "python -m training.leaderboard: error: --verify: no published"
        )
    data = json.loads(published.read_text())
    key = "heuristic|mcts:simulations=4"
    deal = 1
    text = data["places"][key][deal]
    data["places"][key][deal] = "".join("1" if c == "0" else "0" for c in text)  # every winner a loser
    data["ratings"]["heuristic"]["rating"] += 50
    published.write_text(json.dumps(data))
    failures = verify("elemystic_v0", sample=3)
    assert any(f"heuristic vs mcts:simulations=4, deal {deal}: replayed places {text}" in f for f in failures)
    assert any(f.startswith("elemystic_v0-2p.json: heuristic: the published games refit") for f in failures)
    assert main(["--verify", "--sample", "3"]) == 1
    assert f"{len(failures)} failures" in capsys.readouterr().out


def test_extend_grows_a_published_table_without_its_run_folder(published, monkeypatch, tmp_path):
    # The fixture's table: 3 deals of 4 agents; chunks of 1 deal so that all 3 are taken.
    monkeypatch.setattr(leaderboard, "CHUNK_DEALS", 1)
    roster = (*SMALL, "mcts:simulations=4", GUIDED)
    calls = []
    real = leaderboard.play_pairing_deals
    monkeypatch.setattr(leaderboard, "play_pairing_deals", lambda *a: calls.append(a[4]) or real(*a))
    grown = run_leaderboard(
        "elemystic_v0", games=8, workers=1, out=tmp_path / "grown", roster=roster, extend=True
    )
    assert calls == [(3,)] * 10  # only the new deal of each of the 10 pairings is played
    fresh = run_leaderboard("elemystic_v0", games=8, workers=1, out=tmp_path / "fresh", roster=roster)
    assert _comparable(grown) == _comparable(fresh)
    # The published games kept no seconds: the ms per move are the new deal's alone.
    assert all(r["ms_per_move"] > 0 for r in grown["ratings"].values())
    assert json.loads((tmp_path / "grown" / "run.json").read_text())["models"] == grown["models"]

    data = json.loads(published.read_text())
    (path,) = data["models"][GUIDED]
    data["models"][GUIDED] = {path: "f" * 64}
    published.write_text(json.dumps(data))
    with pytest.raises(ConfigError, match=rf"--extend: {GUIDED} played the published games with other"):
        run_leaderboard("elemystic_v0", games=8, workers=1, out=tmp_path / "x", roster=roster, extend=True)
    assert not (tmp_path / "x").exists()
    # Refused before anything is written: the replayed agent's finished games are not dropped.
    before = sorted((tmp_path / "grown").rglob("*.json"))
    with pytest.raises(ConfigError, match=rf"--extend: {GUIDED} played the published games with other"):
        run_leaderboard(
            "elemystic_v0",
            games=8,
            workers=1,
            out=tmp_path / "grown",
            roster=roster,
            extend=True,
            replay=["random"],
        )
    assert sorted((tmp_path / "grown").rglob("*.json")) == before
    calls.clear()
    replayed = run_leaderboard(
        "elemystic_v0", games=8, workers=1, out=tmp_path / "y", roster=roster, extend=True, replay=[GUIDED]
    )
    assert len(calls) == 6 + 4 * 4  # the 6 other pairings' new deal, the guided search's 4 pairings in full
    assert _comparable(replayed) == _comparable(fresh)
    with pytest.raises(ConfigError, match="--extend: the published table was played from --seed 0, not 1"):
        run_leaderboard(
            "elemystic_v0", games=8, seed=1, workers=1, out=tmp_path / "z", roster=roster, extend=True
        )
    with pytest.raises(ConfigError, match="--extend: no published leaderboard for mystria_v0 at 2 players"):
        run_leaderboard("mystria_v0", games=8, workers=1, out=tmp_path / "w", roster=SMALL, extend=True)


def test_verify_reports_an_agent_whose_model_file_changed(published, monkeypatch):
    data = json.loads(published.read_text())
    shipped = leaderboard.model_fingerprint(make_agent("ppo", "elemystic_v0"))
    assert data["models"] == {GUIDED: shipped}  # the guided search's network is the shipped ppo model
    (path,) = shipped
    data["models"][GUIDED] = {path: "f" * 64}
    published.write_text(json.dumps(data))
    replayed = []
    real = leaderboard.play_pairing_deals
    monkeypatch.setattr(leaderboard, "play_pairing_deals", lambda *a: replayed.append(a[3]) or real(*a))
    assert verify("elemystic_v0", sample=1) == [
        f"elemystic_v0-2p.json: {GUIDED}: the published games were played with other model files than "
        f"today's ({path} ffffffffffff -> {shipped[path][:12]}), so its pairings are not replayed; "
        f"python -m training.leaderboard --env elemystic_v0 --num-players 2 --replay {GUIDED} "
        "plays them again"
    ]
    labels = [(a.label, b.label) for a, b in replayed]
    assert len(labels) == 6 and all(GUIDED not in pair for pair in labels)  # the 3 others' 6 pairings


PUBLISHED_TABLES = [
    (env_id, int(count.removesuffix("p")))
    for env_id, count in (p.stem.rsplit("-", 1) for p in sorted(leaderboard.PUBLISHED_DIR.glob("*-*p.json")))
]


def test_the_two_first_published_tables_are_found():
    assert {("elemystic_v0", 2), ("mystria_v0", 2)} <= set(PUBLISHED_TABLES)


@pytest.mark.parametrize(("env_id", "num_players"), PUBLISHED_TABLES)
def test_the_published_leaderboard_verifies_in_short_form(env_id, num_players):
    # CI's short form: one deal of every pairing of the agents that search at most 16 plain
    # simulations a move, and of each agent at up to 64 simulations (the guided search's included)
    # against random, so that every agent CI can afford replays while the cost stays flat as tables
    # grow: a guided simulation costs a network's forward pass, 7-27 plain ones (the published ms a
    # move), and the guided search at 16 in every pairing was a third of Mystic Vale 3p's short form.
    published = json.loads(leaderboard.published_path(env_id, num_players).read_text())
    labels = published["agents"]
    specs = {
        label: AgentSpec(label, s["name"], s["options"]) for label, s in published["agent_specs"].items()
    }
    entrants = {label: Entrant(specs[label]) for label in labels}
    budget = {label: entrants[label].simulations or 0 for label in labels}
    cheap = {label for label in labels if entrants[label].search != "guided" and budget[label] <= 16}
    pairs = [
        (a, b)
        for i, a in enumerate(labels)
        for b in labels[i:]
        if {a, b} <= cheap or ("random" in (a, b) and max(budget[a], budget[b]) <= 64)
    ]
    assert {label for pair in pairs for label in pair} == {label for label in labels if budget[label] <= 64}
    assert verify(env_id, sample=1, pairings=pairs, num_players=num_players) == []


@pytest.mark.parametrize(("env_id", "num_players"), PUBLISHED_TABLES)
def test_the_docs_page_holds_each_published_table_between_its_markers(env_id, num_players):
    result = json.loads(leaderboard.published_path(env_id, num_players).read_text())
    page = leaderboard.DOCS_PAGE.read_text()
    start, end = leaderboard.docs_markers(env_id, num_players)
    assert page.count(start) == page.count(end) == 1, f"docs/leaderboard.md has one {start} block"
    held = page[page.index(start) + len(start) : page.index(end)].strip("\n")
    assert held == leaderboard.docs_block(result), "docs/leaderboard.md is stale: --publish writes it"


def test_publish_copies_a_finished_run_and_keeps_the_prose_around_its_table(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(leaderboard_results, "BOOTSTRAP", 50)
    folder, page = tmp_path / "published", tmp_path / "leaderboard.md"
    folder.mkdir()
    page.write_text("# Leaderboard\n\n## Results\n\nEvery table below.\n")
    monkeypatch.setattr(leaderboard, "PUBLISHED_DIR", folder)
    monkeypatch.setattr(leaderboard, "DOCS_PAGE", page)
    run = tmp_path / "run"
    roster = (*SMALL, "mcts:simulations=4")

    def refused(argv, message):
        with pytest.raises(SystemExit):
            main(argv)
        err = capsys.readouterr().err
        assert err.startswith(f"python -m training.leaderboard: error: {message}") and err.count("\n") == 1, (
            err
        )
        assert page.read_text() == "# Leaderboard\n\n## Results\n\nEvery table below.\n"
        assert list(folder.iterdir()) == []

    refused(["--publish", "--env", "elemystic_v0", "--out", str(run)], "--publish: no finished run in")
    run_leaderboard("elemystic_v0", games=2, workers=1, out=run, roster=roster)
    refused(
        ["--publish", "--env", "elemystic_v0", "--out", str(run)], f"--publish: {run / 'results.json'} has no"
    )
    result = json.loads((run / "results.json").read_text()) | {
        "command": "python -m training.leaderboard ..."
    }
    (run / "results.json").write_text(json.dumps(result))
    another = f"--publish: {run / 'results.json'} is elemystic_v0 at 2 players, not mystria_v0 at 2"
    refused(["--publish", "--env", "mystria_v0", "--out", str(run)], another)
    for extra in (["--verify"], ["--games", "4"], ["--workers", "2"], ["--seed", "3"]):
        refused(["--publish", "--env", "elemystic_v0", *extra], "--publish copies a finished run")

    assert main(["--publish", "--env", "elemystic_v0", "--out", str(run)]) == 0
    assert json.loads((folder / "elemystic_v0-2p.json").read_text()) == result
    assert (folder / "elemystic_v0-2p.png").read_bytes() == (run / "budget.png").read_bytes()
    text = page.read_text()
    assert text.startswith(
        "# Leaderboard\n\n## Results\n\nEvery table below.\n\n### elemystic_v0, 2 players\n"
    )
    assert leaderboard.docs_block(result) in text and "(leaderboard/elemystic_v0-2p.png)" in text

    # A grown run replaces the table and nothing else: the publisher's prose stays.
    page.write_text(text + "\n**How it was run.** By hand.\n")
    run_leaderboard("elemystic_v0", games=4, workers=1, out=run, roster=roster)
    grown = json.loads((run / "results.json").read_text()) | {"command": "python -m training.leaderboard ..."}
    (run / "results.json").write_text(json.dumps(grown))
    assert grown["deals"] == 2 and grown != result
    assert main(["--publish", "--env", "elemystic_v0", "--out", str(run)]) == 0
    text = page.read_text()
    assert text.count("### elemystic_v0, 2 players") == 1 and text.endswith("**How it was run.** By hand.\n")
    assert leaderboard.docs_block(grown) in text and leaderboard.docs_block(result) not in text


def test_the_web_seat_menu_reads_the_published_ratings():
    from agents.web.games import catalog

    game = next(g for g in catalog()["games"] if g["env_id"] == "elemystic_v0")
    published = leaderboard.published_ratings("elemystic_v0", 2)
    assert game["ratings"]["2"]["random"] == "Elo 0"
    # The full ladder's ppo played today's shipped model (the pilot's, a kept older file, was left out).
    for label in ("heuristic", "ppo"):
        lo, hi = published[label]["ci95"]
        assert game["ratings"]["2"][label] == f"Elo {published[label]['rating']:+.0f} [{lo:+.0f}, {hi:+.0f}]"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--env", "chess_v0"], "--env: unknown env"),
        (
            ["--env", "elemystic_v0", "--num-players", "3"],
            "--num-players: elemystic_v0 is played by 2 players",
        ),
        (["--env", "elemystic_v0", "--games", "3"], "--games must be a positive multiple of 2"),
        (["--env", "elemystic_v0", "--games", "0"], "--games must be a positive multiple of 2"),
        (["--env", "elemystic_v0", "--workers", "0"], "--workers must be a positive integer"),
        (["--env", "elemystic_v0", "--seed", "-1"], "--seed must be a non-negative integer"),
        (["--env", "elemystic_v0", "--games", "ten"], "argument --games: invalid int value"),
        (["--games", "4"], "--env is required"),
        (["--verify", "--sample", "0"], "--sample must be a positive integer"),
        (["--verify", "--num-players", "3"], "--num-players goes with --env"),
        (["--env", "elemystic_v0", "--replay", "alphazero"], "--replay: 'alphazero' is not on the roster"),
        (["--verify", "--replay", "ppo"], "--replay plays a run's games; it does not go with --verify"),
        (["--verify", "--extend"], "--extend plays a run's games; it does not go with --verify"),
        (["--env", "elemystic_v0", "--finished", "--games", "4"], "--finished fits the games a run has"),
        (["--env", "elemystic_v0", "--finished", "--replay", "ppo"], "it does not go with --replay"),
        (["--env", "elemystic_v0", "--finished"], "holds no leaderboard run to fit"),
        (["--env", "elemystic_v0", "--publish", "--finished"], "--publish copies a finished run"),
    ],
)
def test_bad_arguments_get_one_line_and_write_nothing(argv, message, tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--out", str(out)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("python -m training.leaderboard: error: ")
    assert message in err
    assert not out.exists()


def test_an_out_folder_that_is_a_file_or_holds_something_else_is_refused(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    for out, message in (("file", "is a file, not a folder"), ("other", "is a folder of something else")):
        with pytest.raises(SystemExit):
            main(["--env", "elemystic_v0", "--games", "2", "--out", str(tmp_path / out)])
        assert message in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == ["notes.txt"]


def test_the_roster_is_one_spec_a_line_and_every_env_id_has_a_default_count():
    assert len(leaderboard.ROSTER) >= 8 and len(set(leaderboard.ROSTER)) == len(leaderboard.ROSTER)
    entrants = [Entrant(parse_agent_spec(text)) for text in leaderboard.ROSTER]
    budgets = {
        search: sorted(e.simulations for e in entrants if e.search == search) for search in ("mcts", "guided")
    }
    assert len(budgets["mcts"]) == 4 and budgets["mcts"][0] == 16 and budgets["mcts"][-1] == 1024
    assert budgets["guided"] == [16, 64]
    assert {e.label for e in entrants} >= {"random", "heuristic", "ppo", "rllib"}
    # The run in progress resumes with this roster: its agents keep their labels and order.
    first = ["random", "heuristic", *(f"mcts:simulations={s}" for s in (16, 64, 256, 1024)), "ppo", "rllib"]
    assert [e.label for e in entrants][: len(first)] == first
    for env_id in mystic_envs.ENV_IDS:
        assert leaderboard._check_args(env_id, None, None, 0, None)[1] == leaderboard.DEFAULT_DEALS


def test_a_rating_played_by_a_kept_model_file_is_left_out_of_the_seat_menu(tmp_path, monkeypatch):
    # A table whose ppo played a model since replaced names that file with path=: today's ppo is
    # another player, so published_ratings (and with it the web page's seat menu) leaves it out.
    result = json.loads(leaderboard.published_path("elemystic_v0", 2).read_text())
    result["agent_specs"]["ppo"]["options"]["path"] = "docs/leaderboard/models/elemystic_v0_ppo_pilot.zip"
    folder = tmp_path / "published"
    folder.mkdir()
    (folder / "elemystic_v0-2p.json").write_text(json.dumps(result))
    monkeypatch.setattr(leaderboard, "PUBLISHED_DIR", folder)
    ratings = leaderboard.published_ratings("elemystic_v0", 2)
    assert "ppo" not in ratings and "heuristic" in ratings
    assert set(ratings) == set(result["ratings"]) - {"ppo"}
