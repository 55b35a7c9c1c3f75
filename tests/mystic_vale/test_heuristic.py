"""Mystic Vale's heuristic: legal whole games, reproducible, better than random, and scripted choices."""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.heuristic.mystic_vale import APPEAR, decide, mana_value, sleeve_gain, spoil_chance, turns_left
from mystic_envs.mystic_vale import decisions as d
from tests.mystic_vale.script import (
    BLANKS,
    CURSED,
    act,
    aid,
    card,
    craft,
    lay_out,
    new,
    set_commons,
    set_vale_row,
    start,
)

TOP, MID, BOT = CURSED["top"], CURSED["middle"], CURSED["bottom"]


def play(n: int, seed: int, heuristic_seats: tuple[int, ...]) -> tuple[list[int], object]:
    """A whole game through the env: the heuristic in ``heuristic_seats``, random elsewhere."""
    env = mystic_envs.make("mystic_vale_v0", num_players=n)
    env.reset(seed=seed)
    agents = {
        a: make_agent("heuristic" if i in heuristic_seats else "random", "mystic_vale_v0", seed=seed + i)
        for i, a in enumerate(env.possible_agents)
    }
    actions = []
    for agent in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agents[agent].act(env, agent)
        assert env.unwrapped.game_state.is_legal(a)
        actions.append(a)
        env.step(a)
    return actions, env.unwrapped.game_state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_plays_whole_legal_games_at_every_count(n):
    # env(illegal_action="terminate") would end the game on an illegal action: it must end by the rules.
    _, state = play(n, seed=5, heuristic_seats=tuple(range(n)))
    assert state.is_terminal and state.pool == 0
    state.check_invariants()


def test_heuristic_is_reproducible():
    first, _ = play(2, seed=9, heuristic_seats=(0,))
    again, _ = play(2, seed=9, heuristic_seats=(0,))
    assert first == again


def test_heuristic_beats_random_in_either_seat():
    wins = 0
    for g in range(8):
        seat = g % 2
        _, state = play(2, seed=100 + g, heuristic_seats=(seat,))
        wins += state.winners() == [seat]
    assert wins >= 7, f"the heuristic won {wins} of 8 games against random"


# --- scripted decisions --------------------------------------------------------------------------
def test_passes_when_a_push_would_likely_spoil_and_pushes_when_it_cannot():
    s = new(2, seed=0)
    q = s.active
    # Two Cursed Lands in the field and a third on deck: 3 decay show; every card left in the
    # deck is a Cursed Land or a blank, so a Cursed Land revealed (6 of 9) spoils.
    deck = [*TOP[2:], *MID, *BOT[:2], *BLANKS[:3]]
    lay_out(s, q, field=[TOP[0], TOP[1]], on_deck=BOT[2], deck=deck, discard=[9, 10, 11, *BLANKS[3:]])
    start(s, q)
    assert spoil_chance(s, q) == pytest.approx(6 / 9)
    assert decide(s, q) == d.PASS
    # The same field with only blanks left in the deck: nothing can spoil, so it pushes.
    s = new(2, seed=0)
    lay_out(
        s,
        q,
        field=[TOP[0], TOP[1]],
        on_deck=BOT[2],
        deck=BLANKS,
        discard=[9, 10, 11, *TOP[2:], *MID, *BOT[:2]],
    )
    start(s, q)
    assert spoil_chance(s, q) == 0.0
    assert decide(s, q) == d.PUSH


def test_an_open_save_squares_the_spoil_chance():
    s = new(2, seed=0)
    q = s.active
    craft(s, q, BLANKS[0], "Peacekeeper Druid")
    deck = [*TOP[2:], *MID, *BOT[:2], *BLANKS[1:4]]
    lay_out(
        s, q, field=[TOP[0], TOP[1], BLANKS[0]], on_deck=BOT[2], deck=deck, discard=[9, 10, 11, *BLANKS[4:]]
    )
    start(s, q)
    assert spoil_chance(s, q) == pytest.approx((6 / 9) ** 2)


def test_sleeves_decay_away_from_the_cursed_lands():
    s = new(2, seed=0)
    q = s.active
    # Stag (a decay, top slot) bought with a Cursed Land (top slot open) and a blank in the field:
    # on the blank it is one decay, on the Cursed Land two on one card.
    lay_out(s, q, field=[MID[0], BLANKS[0], 9], on_deck=-1, deck=[], token=True)
    set_commons(s, 3, "Stag")
    start(s, q)
    act(s, d.PASS)
    s.h_mana = 4
    s._legal = None
    act(s, d.BUY_COMMONS + 3, d.DONE)
    assert s.phase == d.SLEEVE
    assert s.legal_actions() == [card(MID[0]), card(BLANKS[0])]
    assert decide(s, q) == card(BLANKS[0])


def test_a_when_played_discard_throws_out_a_cursed_land():
    s = new(2, seed=0)
    q = s.active
    lay_out(s, q, field=[TOP[0], BLANKS[0]], on_deck=BLANKS[1], deck=[BLANKS[2]])
    craft(s, q, BLANKS[1], "Mindful Owl")
    start(s, q)
    act(s, d.PUSH)
    assert s.phase == d.WP_DISCARD
    assert decide(s, q) == card(TOP[0])


def test_buys_the_vale_worth_most():
    s = new(2, seed=0)
    q = s.active
    craft(s, q, BLANKS[0], "Hollow Burrow")
    craft(s, q, BLANKS[1], "Hollow Burrow")
    craft(s, q, BLANKS[2], "Mossback Tortoise")
    craft(s, q, BLANKS[3], "Thunderhoof Matriarch")
    lay_out(s, q, field=BLANKS[:4], on_deck=-1, deck=[])
    set_vale_row(s, 0, "Cascading Falls")
    set_vale_row(s, 4, "Blessed Savanna")
    start(s, q)
    act(s, d.PASS)
    # Five animals pay for Blessed Savanna (4 animals, 7 VP) or Cascading Falls (2, 1 VP and a sky
    # spirit each Harvest), not both: near the end, the points.
    s.pool, s.turn = 2, 30
    assert decide(s, q) == d.BUY_VALE + 4


def test_values_mana_early_and_vp_late():
    # Rootwell Spring (4 mana: a mana and a growth) against Hulking Thornhide (4: an animal, a
    # decay, 2 end VP) on a blank card: the mana first while the pool is full, the points at the end.
    s = new(2, seed=1)
    q = s.active
    rootwell, thornhide = aid("Rootwell Spring"), aid("Hulking Thornhide")

    def gains():
        h, m = APPEAR * turns_left(s), mana_value(s)
        return sleeve_gain(s, q, rootwell, BLANKS[0], h, m), sleeve_gain(s, q, thornhide, BLANKS[0], h, m)

    early = gains()
    assert early[0] > early[1]
    s.pool, s.turn = 1, 30
    late = gains()
    assert late[1] > late[0]


def test_a_would_spoil_takes_a_redraw():
    s = new(2, seed=0)
    q = s.active
    craft(s, q, BLANKS[0], "Peacekeeper Druid")
    lay_out(s, q, field=[TOP[0], TOP[1], BLANKS[0]], on_deck=BOT[0], deck=[BOT[1], BLANKS[1]])
    start(s, q)
    act(s, d.PUSH)
    assert s.phase == d.WOULD_SPOIL
    assert decide(s, q) == d.REDRAW_DRUID


def test_decisions_read_only_what_the_seat_sees():
    """The same decision on two determinizations of one state: deck order never matters."""
    s = new(2, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if s.is_terminal:
            break
        q = s.current_player
        picks = {decide(s.determinize(q, np.random.default_rng(k)), q) for k in range(3)}
        assert len(picks) == 1, f"decisions differ across determinizations in {s.phase_name}"
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])
