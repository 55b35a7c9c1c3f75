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
    # The bound is 58% (measured over 10,000 games: 49.6% and 50.3%, the first mover 49.2%);
    # 300 games leave ~5.7 points of 95% noise, so 64% here.
    assert max(r.seat_wins) / 300 <= 0.64
    assert r.first_wins / 300 <= 0.64
    # Every game ends: by the empty pool or eliminations, within some rounds (issue 28's card set
    # makes the pool, not the decks, end most games, so they run longer: 18 at most in 10,000).
    assert max(r.rounds) <= 24 and min(r.moves) > 10
    assert 0 < r.last_standing < 300
    assert sum(r.pair_games.values()) == 600 and len(r.pair_games) == 6


def test_two_player_power_and_points_decide_most_games():
    # Issue 28: elimination ends <= 40% of the games and the only winner trails another seat on
    # points in <= 10% (measured over 10,000 games: 14.8% and 8.3%, Balance). 300 games leave
    # ~4 and ~3.2 points of 95% noise: 40% and 14% here (the first card set: 66% and 25-36%).
    r = measure_mystick(300, 2, seed=11)
    assert r.last_standing / 300 <= 0.40
    assert r.behind / 300 <= 0.14
    assert len(r.margins) == 300 and min(r.margins) >= 0


@pytest.mark.parametrize("n", [3, 5])
def test_more_players_every_seat_near_its_fair_share(n):
    r = measure_mystick(150, n, seed=12)
    for q in range(n):
        assert abs(r.seat_wins[q] / 150 - 1 / n) <= 0.15, f"player_{q}: {r.seat_wins[q] / 150:.2f}"
    assert r.with_elimination >= r.last_standing


def test_four_player_games_are_not_drawn_out_by_crossroads_passes():
    # When the heuristic passed with Crossroads at 4 players, every pass shortened a round for the
    # whole table and games ran a median 7 rounds (up to 41; 11.8 on average with four Swords
    # decks), each an initiative draw from every deck; without it, a median 5 (D-13, third pass).
    r = measure_mystick(150, 4, seed=15)
    assert sorted(r.rounds)[75] <= 6, f"median {sorted(r.rounds)[75]} rounds"


def test_two_player_suit_splits_near_even():
    # Each split of one 78-card set (Wands + Cups | Swords + Pentacles, and the other two): the design
    # target is 45-55% over 10,000 games (issue 28; docs, Balance). 600 games give ~200 a split, ~7
    # points of 95% noise, so 35-65% here; the first card set failed it (Wands + Cups won 88%), and
    # issue 28's first redesign too (Wands + Cups 70-77% against Swords + Pentacles).
    r = measure_mystick(600, 2, seed=13)
    for pair, rest in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))):
        assert r.pair_games[pair] == r.pair_games[rest]
        rate = r.pair_wins[pair] / r.pair_games[pair]
        assert 0.35 <= rate <= 0.65, f"{pair} against {rest}: {100 * rate:.0f}%"


def test_three_players_every_suit_near_its_fair_share():
    # The target is within 5 points of 1/3 over 10,000 games; 300 games (~450 decks a suit) leave
    # ~4.5 points of noise, so 10 here. The first card set had Wands at +13 and Swords at -11.
    r = measure_mystick(300, 3, seed=14)
    for suit in range(4):
        decks = sum(k for pair, k in r.pair_games.items() if suit in pair)
        wins = sum(w for pair, w in r.pair_wins.items() if suit in pair)
        assert abs(wins / decks - 1 / 3) <= 0.10, f"suit {suit}: {100 * wins / decks:.0f}% of {decks}"


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
