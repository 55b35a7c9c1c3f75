"""The designed card numbers (docs/rules/elemystic.md D-1, D-4): what the examples fix, and top
halves varied enough that choosing a column's supports is a decision."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from script import E

from mystic_envs.elemystic.cards import DEFENSE, INV_DEFENSE, INV_STRENGTH, NUM_ELEMENTS, SPEED, STRENGTH

TOPS = [(STRENGTH[e], DEFENSE[e]) for e in range(NUM_ELEMENTS)]


def support_choices(hand: tuple[int, ...], front: int) -> list[tuple[int, int]]:
    """(Strength, Defense) of the two top halves behind ``front`` for each pair the hand allows."""
    rest = [e for e in hand if e != front]
    return [(TOPS[a][0] + TOPS[b][0], TOPS[a][1] + TOPS[b][1]) for a, b in combinations(rest, 2)]


def cases():
    for hand in combinations(range(NUM_ELEMENTS), 4):
        for front in hand:
            yield support_choices(hand, front)


def test_fire_shows_6_and_light_2_as_the_speed_and_attacks_examples_read_together():
    assert SPEED[E["Fire"]] == 6 and SPEED[E["Light"]] == 2
    assert (STRENGTH[E["Fire"]], INV_STRENGTH[E["Fire"]]) == (3, 4)
    assert (INV_STRENGTH[E["Light"]], INV_DEFENSE[E["Light"]]) == (2, 3)


def test_no_top_half_is_shared_by_more_than_two_elements():
    # The first design had five of nine at Strength 2 / Defense 1.
    assert max(Counter(TOPS).values()) <= 2
    assert len({s + d for s, d in TOPS}) >= 3  # the halves are worth 2, 3 or 4, not all 3


def test_which_two_elements_support_the_front_always_changes_the_column():
    # For every hand of four and every front, the three ways to pick its two supports give
    # different totals (the first design: identical in 60 of 504 cases) ...
    assert all(len(set(choices)) > 1 for choices in cases())
    # ... and differ in Strength + Defense, not just in the split, in at least 90% of them
    # (the first design: 58%).
    differ = [len({s + d for s, d in choices}) > 1 for choices in cases()]
    assert sum(differ) / len(differ) >= 0.9
