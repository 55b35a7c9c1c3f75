"""The rules treat both seats alike: a game and the same game with the seats swapped (the arrows
point at the other seat, each round's secrets swapped) play out as mirrors under the same actions.
Speed ties go to Play First and the Air Token to whoever holds it, never to a seat number."""

from __future__ import annotations

import numpy as np
from gameplay import play_mirrored

from agents.heuristic.elemystic import decide
from mystic_envs.elemystic.rules import DRAFT_PHASE, ElemysticGame, ElemysticState


def new_state(starting_player: int, seed: int) -> ElemysticState:
    s = ElemysticGame().new_initial_state(seed)
    s.starting_player = s.draft_first = s.play_first = s.player = starting_player
    return s


def deal(a: ElemysticState, b: ElemysticState, step: int) -> None:
    if a.phase == DRAFT_PHASE and a.draft_step == 0:
        b.deal(a.unknown, (a.secret[1], a.secret[0]))  # each round's deal, seats swapped
    assert b.energy == a.energy[::-1], step


def test_games_play_out_as_their_seat_mirrors():
    """Games led by the heuristic (on the whole state; one move in ten random), which also decides
    alike for mirrored seats."""
    rounds = 0
    for seed in range(40):
        a, b = new_state(seed % 2, seed), new_state(1 - seed % 2, seed + 1)
        play_mirrored(a, b, lambda s: decide(s.clone(), s.current_player), np.random.default_rng(seed), deal)
        assert b.winner == 1 - a.winner
        rounds += a.round
    assert rounds > 80  # games of several rounds, so Draft First and Play First have moved
