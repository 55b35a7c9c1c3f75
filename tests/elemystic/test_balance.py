"""Balance of the designed components (docs/rules/elemystic.md, "Balance").

Heuristic self-play: every element, when it stood at the front of a column, leaves its owner
having lost less Energy than the opponent in 35-65% of the decided rounds, and the starting seat
wins 45-55% of games. The short form plays 10,000 games (Storm, the nearest to a bound, 38.2% of
1,874 front rounds there); ``pytest --soak`` plays the 20,000 the rules page's table reports.
"""

from __future__ import annotations

import pytest

from agents.balance import main, measure
from mystic_envs.elemystic.cards import ELEMENT_NAMES

SHORT_GAMES = 10_000  # about 50 s of one core, half the full form
FULL_GAMES = 20_000


@pytest.fixture(scope="module")
def games(request) -> int:
    return FULL_GAMES if request.config.getoption("soak") else SHORT_GAMES


@pytest.fixture(scope="module")
def report(games):
    r = measure(games, seed=0)
    print("\n" + r.table())
    return r


@pytest.mark.slow
@pytest.mark.parametrize("element", range(len(ELEMENT_NAMES)), ids=ELEMENT_NAMES)
def test_every_element_front_result_is_within_35_to_65_percent(report, element):
    assert report.front_rounds(element) >= 500, "too few rounds to judge"
    assert 0.35 <= report.less_share(element) <= 0.65


@pytest.mark.slow
def test_starting_seat_wins_45_to_55_percent(report, games):
    assert report.games == games
    assert 0.45 <= report.start_seat_rate <= 0.55


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], "--seed must be a non-negative integer"),
        (["--games", "0"], "--games must be at least 1"),
        (["--variant", "intro"], "--variant is for mystria_v0"),
    ],
)
def test_bad_arguments_are_one_line_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--games", "1", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
