"""The rulebook's two scoring examples, rebuilt as Magician boards and scored by the engine.

Places run row by row (1-4, 5-8, 9-12); 1-5, 6-7 and 8-12 are not connected. P purple, G green,
B blue, R red.

Introductory example (score board purple 2, green 3, blue 3, red 4; Majority 5):

    A   P P P R      B   G G P P
        G R R R          G G R R
        B B B P          G B B B

A's largest groups: purple 1-2-3, green 5, blue 9-10-11, red 4-8-7 (6 is cut from 7): 30 points.
B's: purple 3-4, green 1-2-6-5-9, blue 10-11-12, red 7-8: 36 points. The rulebook's total for B
prints 33 + 5 + 6 = 47, but its own step 1 gives 36 (2x2 + 5x3 + 3x3 + 2x4) and 36 + 5 + 6 = 47:
the "33" is a misprint (docs/rules/mystria.md, I-9).

Full example (score board purple 3, green 5, blue 7, red 10; Majority 3). The rulebook gives the
outcome, not the boards; these are ours, built on our Objective tiles (its 7 and 6 are Crook and
Gate):

    A   P P P R      B   G G G P
        P B R R          B G G R
        B B G G          B B R P

A's groups: purple 1-2-3 (3; 5 is cut from 1), green 11-12 (2), blue 6-10-9 (3), red 4-8-7 (3);
her Crook (7 points: places 1, 2, 3, 5) is all purple. B's: purple 4 and 12 (1), green
1-2-3-6-7 (5), blue 5-9-10 (3), red 8 and 11 (1); her Gate (6 points: places 2, 3, 6, 7) is all
green.
"""

from __future__ import annotations

from mystic_envs.mystria.board import COLOUR_NAMES, OBJECTIVE_MASKS, OBJECTIVES

from .script import COLOUR, TILE, new_state, play, set_board, start

INTRO_BOARDS = ("PPPR GRRR BBBP", "GGPP GGRR GBBB")
FULL_BOARDS = ("PPPR PBRR BBGG", "GGGP BGGR BBRP")


def scored(
    variant: str, boards: tuple[str, str], drops: tuple[int, int], kept: tuple[str, str] | None = None
):
    """A finished game between magician A (seat 0, first player) and B (seat 1) with ``boards``.

    The second player (B) sets the score board to the example's values, both play their twelve
    turns in the script below: B's last take from a triangle of the colour of B's place 12 ends it.
    """
    s = new_state(variant, first=0)
    if kept is not None:
        a, b = TILE[kept[0]], TILE[kept[1]]
        others = [t for t in range(len(OBJECTIVES)) if t not in (a, b)]
        s.deal_objectives(((a, others[0]), (b, others[1])))
        play(s, [(0, f"keep {kept[0]}"), (1, f"keep {kept[1]}")])
    # Highest value first: red (4 or 10), blue (3 or 7), green (3 or 5); purple gets the last value.
    start(s, values=("red", "blue", "green"))
    last = boards[1].replace(" ", "")[11]
    b_before = boards[1][:-1] + "."
    s.player = 1
    s.drops = list(drops)
    set_board(s, {"B2": last, "B3": last, "C3": last + "G"}, (boards[0], b_before))
    play(s, [(1, "take B2"), (1, "place 12")])
    assert s.is_terminal
    return s


def test_intro_example_colour_points_30_against_36():
    s = scored("intro", INTRO_BOARDS, drops=(5, 6))
    values = dict(zip(COLOUR_NAMES, s.values, strict=True))
    assert values == {"purple": 2, "green": 3, "blue": 3, "red": 4}
    assert s.largest_groups(0) == [3, 1, 3, 3]
    assert s.largest_groups(1) == [2, 5, 3, 2]
    assert s.score(0).colours == 3 * 2 + 1 * 3 + 3 * 3 + 3 * 4 == 30
    assert s.score(1).colours == 2 * 2 + 5 * 3 + 3 * 3 + 2 * 4 == 36


def test_intro_example_majority_5_to_b_and_one_point_per_drop():
    s = scored("intro", INTRO_BOARDS, drops=(5, 6))
    assert max(s.largest_groups(0)) == 3 and max(s.largest_groups(1)) == 5
    assert (s.score(0).majority, s.score(1).majority) == (0, 5)
    assert (s.score(0).drops, s.score(1).drops) == (5, 6)


def test_intro_example_b_wins_47_to_35_and_the_books_33_is_a_misprint_of_36():
    s = scored("intro", INTRO_BOARDS, drops=(5, 6))
    assert s.score(0).total == 30 + 0 + 5 == 35
    assert s.score(1).total == 36 + 5 + 6 == 47
    assert 33 + 5 + 6 != 47  # the printed breakdown does not add up; 36 does
    assert s.winner == 1 and s.returns().tolist() == [-1.0, 1.0]


def test_full_example_colours_by_comparison_3_and_10_to_a_5_to_b_blue_tied():
    s = scored("full", FULL_BOARDS, drops=(5, 6), kept=("Crook", "Gate"))
    values = dict(zip(COLOUR_NAMES, s.values, strict=True))
    assert values == {"purple": 3, "green": 5, "blue": 7, "red": 10}
    assert s.largest_groups(0) == [3, 2, 3, 3]
    assert s.largest_groups(1) == [1, 5, 3, 1]
    assert s.score(0).colours == 3 + 10  # purple and red; blue 3-3 is a tie: nobody scores 7
    assert s.score(1).colours == 5


def test_full_example_objectives_7_and_6_majority_3_to_b():
    s = scored("full", FULL_BOARDS, drops=(5, 6), kept=("Crook", "Gate"))
    assert (OBJECTIVES[s.kept[0]].points, OBJECTIVES[s.kept[1]].points) == (7, 6)
    assert s.objective_done(0) and s.objective_done(1)
    assert (s.score(0).objective, s.score(1).objective) == (7, 6)
    assert (s.score(0).majority, s.score(1).majority) == (0, 3)


def test_full_example_a_wins_25_to_20():
    s = scored("full", FULL_BOARDS, drops=(5, 6), kept=("Crook", "Gate"))
    assert tuple(s.score(0)) == (13, 7, 0, 5) and s.score(0).total == 25
    assert tuple(s.score(1)) == (5, 6, 3, 6) and s.score(1).total == 20
    assert s.winner == 0 and s.returns().tolist() == [1.0, -1.0]
    assert s.info()["scores"].tolist() == [25.0, 20.0]


INDIVIDUAL_B = "GGGR GBBP BBRP"  # A's Crook (1, 2, 3, 5) in green; Pillar's places hold green and blue


def test_objectives_are_individual():
    """B's board reproduces A's Crook in green, but B kept Pillar: B scores nothing for it."""
    boards = (FULL_BOARDS[0], INDIVIDUAL_B)
    s = scored("full", boards, drops=(5, 6), kept=("Crook", "Pillar"))
    crook = OBJECTIVE_MASKS[TILE["Crook"]]
    assert s.masks[1][COLOUR["green"]] & crook == crook
    assert s.objective_done(0) and not s.objective_done(1)
    assert (s.score(0).objective, s.score(1).objective) == (7, 0)


def test_a_tied_majority_is_not_awarded_in_the_full_rules():
    # The boards of test_objectives_are_individual: both largest groups hold 3 tokens.
    s = scored("full", (FULL_BOARDS[0], INDIVIDUAL_B), drops=(5, 6), kept=("Crook", "Pillar"))
    assert max(s.largest_groups(0)) == max(s.largest_groups(1)) == 3
    assert (s.score(0).majority, s.score(1).majority) == (0, 0)


def test_an_objective_needs_every_place_in_one_colour():
    # A's Gate places (2, 3, 6, 7) hold purple, purple, blue, red; B's Crook places (1, 2, 3, 5)
    # hold green, green, green, blue.
    s = scored("full", FULL_BOARDS, drops=(5, 6), kept=("Gate", "Crook"))
    assert not s.objective_done(0) and not s.objective_done(1)
    assert (s.score(0).objective, s.score(1).objective) == (0, 0)


def test_secret_objective_counts_in_the_shared_scores_only_at_the_end():
    s = new_state("full", first=0)
    s.deal_objectives(((TILE["Crook"], 0), (TILE["Gate"], 1)))
    play(s, [(0, "keep Crook"), (1, "keep Gate")])
    start(s, values=("red", "blue", "green"))
    s.player = 1
    s.drops = [5, 6]
    set_board(s, {"B2": "G", "B3": "G", "C3": "GB"}, (FULL_BOARDS[0], FULL_BOARDS[1][:-1] + "."))
    # Mid-game the infos (shown to both seats) leave the secret objectives out.
    assert s.info()["scores"].tolist() == [13 + 5, 5 + 3 + 6]
    play(s, [(1, "take B2"), (1, "place 12")])
    assert s.info()["scores"].tolist() == [25.0, 20.0]
