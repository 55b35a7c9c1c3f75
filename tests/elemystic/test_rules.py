"""Elemystic rules as move scripts: one test per rule of the rulebook (see docs/rules/elemystic.md).

Expected numbers come from the card table, so the tests check the rules, not the tuning.
"""

from __future__ import annotations

import numpy as np
import pytest
from script import E, RecordingState, action, book_totals, deal, new_state, play, play_columns, setup_round

from mystic_envs.core.errors import IllegalActionError
from mystic_envs.core.rng import Rng
from mystic_envs.elemystic import rules
from mystic_envs.elemystic.cards import (
    SPEED,
    STARTING_ENERGY,
)
from mystic_envs.elemystic.observation import LAYOUT
from mystic_envs.elemystic.rules import ElemysticGame

OBS = {e.name: e.slice for e in LAYOUT}


def damage(strength: int, defense: int) -> int:
    return max(0, strength - defense)


# --- setup and draft ------------------------------------------------------------------------


def test_game_setup_energy_dial_at_10_and_both_arrows_on_the_starting_player():
    for seed in range(20):
        s = ElemysticGame().new_initial_state(seed)
        assert s.energy == [STARTING_ENERGY, STARTING_ENERGY] == [10, 10]
        assert s.draft_first == s.play_first == s.starting_player == s.current_player


def test_starting_player_is_random():
    starts = {ElemysticGame().new_initial_state(seed).starting_player for seed in range(40)}
    assert starts == {0, 1}


def test_round_setup_unknown_secrets_and_six_face_up():
    s = ElemysticGame().new_initial_state(3)
    s.check_invariants()
    assert bin(s.pool).count("1") == 6
    assert len({s.unknown, *s.secret}) == 3
    assert not s.pool >> s.unknown & 1 and not s.pool >> s.secret[0] & 1
    assert s.hand == [1 << s.secret[0], 1 << s.secret[1]]


def test_draft_is_2_2_1_then_last_card_to_second_drafter():
    s = new_state(starting_player=1)
    deal(s, "Earth", "Light", "Air")
    movers = []
    for pick in ["Storm", "Water", "Fire", "Shadow", "Thunder"]:
        movers.append(s.current_player)
        s.apply(action(f"draft {pick}"))
    assert movers == [1, 1, 0, 0, 1]
    assert s.pool == 0 and s.phase_name == "play"
    assert s.hand[0] == sum(1 << E[n] for n in ["Light", "Fire", "Shadow", "Life"])  # Life was last
    assert s.hand[1] == sum(1 << E[n] for n in ["Air", "Storm", "Water", "Thunder"])


def test_cannot_draft_an_element_not_in_the_pool():
    s = new_state()
    deal(s, "Earth", "Light", "Air")
    with pytest.raises(IllegalActionError, match=r"draft Earth.*phase 'draft'"):
        s.apply(action("draft Earth"))


# --- play phase -----------------------------------------------------------------------------

HANDS = (["Water", "Earth", "Light", "Thunder"], ["Life", "Fire", "Air", "Storm"])
LIFE_STORM_AIR = ["front Life", "back Storm", "front Air"]


def test_players_alternate_from_play_first_and_the_secret_can_be_played():
    s = new_state(starting_player=0)
    setup_round(s, HANDS, unknown="Shadow")
    s.play_first = s.player = 1  # as if player_1 had the higher Strength last round
    movers = []
    for move in ["front Fire", "front Water", "back Air", "back Earth", "back Life", "back Light"]:
        movers.append(s.current_player)
        s.apply(action(move))
    assert movers == [1, 0, 1, 0, 1, 0]
    assert s.round == 2  # both played three: attacks resolved, next round dealt


def test_first_element_is_the_front_and_only_front_covers():
    s = new_state()
    setup_round(s, HANDS, unknown="Shadow")
    legal = s.legal_actions()
    assert all(rules.PLAY_FRONT <= a < rules.PLAY_BACK for a in legal)  # no "back" for a first card
    play(s, [(0, "front Earth"), (1, "front Fire"), (0, "back Thunder"), (1, "front Air")])
    assert s.front == [E["Earth"], E["Air"]]
    assert s.totals(0) == book_totals("Earth", ["Thunder"])
    assert s.totals(1) == book_totals("Air", ["Fire"])


def test_each_player_keeps_one_element_unplayed():
    s = new_state()
    setup_round(s, HANDS, unknown="Shadow")
    seen = []
    logged = s.last_round
    while s.round == 1:
        seen.append(s.hand[:])
        s.apply(s.legal_actions()[0])
    assert s.last_round is not logged
    last_hands = seen[-1]
    assert [bin(h).count("1") for h in last_hands] in ([1, 2], [2, 1], [1, 1])


# --- Storm ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p0_moves", "forced_after"),
    [
        (["front Light", "front Storm"], True),  # Storm played to the front
        (["front Storm"], True),  # a column's first element is its front
        (["front Light", "back Storm"], False),  # Storm to the back does nothing
    ],
)
def test_storm_forces_the_opponents_next_element_to_the_front(p0_moves, forced_after):
    s = new_state()
    setup_round(s, (["Storm", "Light", "Earth", "Water"], ["Life", "Fire", "Air", "Thunder"]), "Shadow")
    p1_moves = ["front Air", "back Thunder"]
    script = []
    for k, move in enumerate(p0_moves):
        script.append((0, move))
        if k < len(p0_moves) - 1:
            script.append((1, p1_moves[k]))
    play(s, script)
    backs = [a for a in s.legal_actions() if rules.PLAY_BACK <= a < rules.AIR_STRENGTH]
    if len(p0_moves) == 1:
        assert s.storm_forced[1]  # player_1's first element is front anyway
        play(s, [(1, "front Air"), (0, "back Light")])
        assert not s.storm_forced[1]
        assert any(a >= rules.PLAY_BACK for a in s.legal_actions())
    elif forced_after:
        assert s.storm_forced[1] and backs == []
        with pytest.raises(IllegalActionError):
            s.apply(action("back Thunder"))
        play(s, [(1, "front Thunder")])
        assert not s.storm_forced[1]
    else:
        assert not s.storm_forced[1] and backs


# --- resolution: speed, damage, immediate win ----------------------------------------------


def test_higher_speed_attacks_first_and_damage_is_strength_minus_defense_not_below_zero():
    s = new_state()
    setup_round(s, HANDS, unknown="Shadow")
    play_columns(
        s, (["front Water", "back Thunder", "front Earth"], ["front Life", "back Storm", "front Air"])
    )
    s0 = book_totals("Earth", ["Water", "Thunder"])
    s1 = book_totals("Air", ["Life", "Storm"])
    assert SPEED[E["Air"]] > SPEED[E["Earth"]]
    assert s.last_round.energy_lost == (damage(s1[0], s0[1]), damage(s0[0], s1[1]))


def test_immediate_win_stops_the_round_before_the_second_attack():
    s = new_state()
    setup_round(s, HANDS, unknown="Shadow")
    s.energy = [1, 10]
    play_columns(
        s, (["front Water", "back Thunder", "front Earth"], ["front Fire", "back Storm", "front Air"])
    )
    s0 = book_totals("Earth", ["Water", "Thunder"])
    s1 = book_totals("Air", ["Fire", "Storm"])
    assert damage(s1[0], s0[1]) >= 1  # Air (faster) deals damage
    assert s.is_terminal and s.winner == 1 and s.current_player == -1
    assert s.energy[1] == 10  # player_0 never attacked
    assert list(s.returns()) == [-1.0, 1.0]


# --- properties over many random rounds -----------------------------------------------------


def random_rounds(games: int = 300):
    """Every resolved round of ``games`` random games, as recorded by RecordingState."""
    rng = np.random.default_rng(7)
    for seed in range(games):
        s = RecordingState.new(ElemysticGame(), Rng(seed))
        s.records = []
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
        yield from s.records


def test_speed_order_higher_first_ties_to_play_first():
    ties = 0
    for r in random_rounds():
        sp = r["speeds"]
        expected = 0 if sp[0] > sp[1] else 1 if sp[1] > sp[0] else r["play_first_before"]
        ties += sp[0] == sp[1]
        assert r["attackers"][0] == expected
    assert ties > 0, "the designed speeds include ties, and random play meets them"


def test_draft_first_rotates_and_play_first_goes_to_highest_total_strength():
    tie_rounds = 0
    for r in random_rounds():
        if r["winner"] >= 0:
            continue
        assert r["draft_first_after"] == 1 - r["draft_first_before"]
        s0, s1 = r["end_strength"]
        if s0 == s1:
            tie_rounds += 1
            assert r["play_first_after"] == r["play_first_before"]
        else:
            assert r["play_first_after"] == (0 if s0 > s1 else 1)
    assert tie_rounds > 0


def test_every_attack_deals_strength_minus_defense_floored_at_zero():
    for r in random_rounds(100):
        for att, strength, defense, before, after in r["attacks"]:
            lost = before[1 - att] - after[1 - att]
            assert lost == max(0, strength - defense)


def test_each_seat_sees_its_own_secret_the_face_up_pool_and_the_opponents_face_up_hand():
    # "You may look at your own secret element at any time, but not your opponent's"; the six
    # elements of the pool are face up, and so are the drafted ones in the opponent's hand.
    at = {e.name: e.slice for e in LAYOUT}
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(10):
        s = ElemysticGame().new_initial_state(seed)
        while not s.is_terminal:
            for me in (0, 1):
                o, opp = s.observation(me), 1 - me
                assert np.flatnonzero(o[at["own_secret"]]).tolist() == [s.secret[me]]
                assert np.flatnonzero(o[at["draft_pool"]]).tolist() == [
                    e for e in range(9) if s.pool >> e & 1
                ]
                face_up = s.hand[opp] & ~(1 << s.secret[opp])
                assert np.flatnonzero(o[at["opp_faceup_hand"]]).tolist() == [
                    e for e in range(9) if face_up >> e & 1
                ]
                checked += bool(s.pool)
            s.apply(int(rng.choice(s.legal_actions())))
    assert checked > 100
