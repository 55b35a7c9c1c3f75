"""The rules treat both seats alike, apart from the first player's sixth drop: a game and the same
game with the seats swapped (first player, drops, Objective tiles; the central board is shared)
play out as mirrors under the same actions, both rule sets."""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import play_mirrored

from agents.heuristic.mystria import decide
from mystic_envs.mystria.board import SPACE_NAMES
from mystic_envs.mystria.rules import EMPTY, OUT_OF_ENERGY, SCORED, STACKS, MystriaGame, MystriaState


def mirror_of_new_game(a: MystriaState) -> MystriaState:
    """A new game on ``a``'s board whose first player is ``a``'s second, holding its tiles."""
    seed = 0
    while (b := a.game.new_initial_state(10**6 + seed)).first == a.first:
        seed += 1
    b.set_board({SPACE_NAMES[i]: STACKS[code] for i, code in enumerate(a.stacks) if code != EMPTY})
    b.drawn = [a.drawn[1], a.drawn[0]]
    return b


def drops(a: MystriaState, b: MystriaState, step: int) -> None:
    assert b.drops == a.drops[::-1] and b.scores() == a.scores()[::-1], step


@pytest.mark.parametrize("variant", ["full", "intro"])
def test_games_play_out_as_their_seat_mirrors(variant):
    """Games led by the fast heuristic (one move in ten random), so that most reach the final
    scoring and its ties; the heuristic also decides alike for mirrored seats."""
    ends = []
    for seed in range(30):
        a = MystriaGame(variant=variant).new_initial_state(seed)
        b = mirror_of_new_game(a)
        play_mirrored(
            a, b, lambda s: decide(s, s.current_player, fast=True), np.random.default_rng(seed), drops
        )
        assert (b.winner, b.end_reason) == (1 - a.winner, a.end_reason)
        ends.append(a.end_reason)
    assert {SCORED, OUT_OF_ENERGY} <= set(ends)
