"""Balance of Mystick Domination by heuristic self-play (``agents.balance``), the CI form: a few
hundred games per player count with wide bounds. The full measurement (10,000 games per player
count, ``python -m agents.balance --env mystick_domination_v0 --num-players 2 3 4 5 --games
10000``) is in ``docs/rules/mystick_domination.md``, "Balance"."""

from __future__ import annotations

import pytest

from agents.balance import deck_suits, main, measure_mystick
from mystic_envs.mystick_domination.decks import PRESETS

pytestmark = pytest.mark.slow


def test_two_player_seats_within_the_58_percent_design_bound():
    r = measure_mystick(300, 2, seed=11)
    assert r.games == 300 and abs(sum(r.seat_wins) + r.drawn - 300) < 1e-9
    # The bound is 58% on 10,000 games (measured: 49.5% and 50.5%, the first mover 49.2%);
    # 300 games leave ~5.7 points of 95% noise, so 64% here.
    assert max(r.seat_wins) / 300 <= 0.64
    assert r.first_wins / 300 <= 0.64
    # Every game ends: by the empty pool or eliminations, within a few rounds.
    assert max(r.rounds) <= 12 and min(r.moves) > 10
    assert 0 < r.last_standing < 300
    assert sum(r.pair_games.values()) == 600 and len(r.pair_games) == 6


@pytest.mark.parametrize("n", [3, 5])
def test_more_players_every_seat_near_its_fair_share(n):
    r = measure_mystick(150, n, seed=12)
    for q in range(n):
        assert abs(r.seat_wins[q] / 150 - 1 / n) <= 0.15, f"player_{q}: {r.seat_wins[q] / 150:.2f}"
    assert r.with_elimination >= r.last_standing


def test_deck_suits_reads_the_two_suits_of_a_deck():
    assert deck_suits(list(PRESETS["wands_cups"])) == (0, 1)
    assert deck_suits(list(PRESETS["swords_pentacles"])) == (2, 3)


def test_cli_prints_the_tables_per_player_count(capsys):
    main(["--env", "mystick_domination_v0", "--num-players", "2", "3", "--games", "3"])
    out = capsys.readouterr().out
    assert "## 2 players" in out and "## 3 players" in out and "player_2" in out
    assert "| Wands + Cups |" in out or "| Swords + Pentacles |" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--env", "mystick_domination_v0", "--num-players", "6"],
        ["--env", "mystria_v0", "--num-players", "3"],
        ["--env", "mystick_domination_v0", "--variant", "full"],
    ],
)
def test_cli_refuses_bad_flags_in_one_line(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("python -m agents.balance: error:")
