"""Every element ability and token as scripted rounds (rulebook "Reference Guide and FAQ").

Attack records come from ``RecordingState``: (attacker, Strength, Defense, energy before, after).
"""

from __future__ import annotations

import pytest
from script import E, book_totals, new_state, play, play_columns, setup_round

from mystic_envs.elemystic import rules
from mystic_envs.elemystic.cards import (
    AIR_TOKEN_DEFENSE,
    AIR_TOKEN_STRENGTH,
    INV_DEFENSE,
    INV_STRENGTH,
    LIFE_RESTORE,
    SPEED,
    WATER_INVOCATION_STRENGTH,
)
from mystic_envs.elemystic.observation import LAYOUT

REVEALED = next(e for e in LAYOUT if e.name == "opp_secret_revealed").slice


def attacks(s) -> dict[int, tuple]:
    """Last resolved round's attacks by attacker seat: (Strength, Defense, before, after)."""
    return {a[0]: a[1:] for a in s.records[-1]["attacks"]}


# Seat 0 fronts the element under test over Earth and Light; seat 1 fronts `opp` over Storm and Thunder.
def one_round(front0: str, front1: str, energy=(10, 10), starting_player: int = 0, secret0="Water"):
    pool0 = [n for n in ("Earth", "Light", "Water", "Life", "Air") if n not in (front0, front1, secret0)]
    pool1 = [n for n in ("Storm", "Thunder", "Shadow", "Fire", "Life", "Air") if n not in (front0, front1)]
    p0 = [secret0, front0, pool0[0], pool0[1]]
    p1 = [pool1[0], front1, pool1[1], pool1[2]]
    unknown = next(n for n in E if n not in p0 + p1)
    s = new_state(starting_player)
    s.energy = list(energy)
    setup_round(s, (p0, p1), unknown)
    plays = (
        [f"front {p0[2]}", f"back {p0[3]}", f"front {front0}"],
        [f"front {p1[2]}", f"back {p1[3]}", f"front {front1}"],
    )
    return s, (p0, p1), plays


def test_earth_has_no_ability_and_the_strongest_invocation():
    assert INV_STRENGTH[E["Earth"]] + INV_DEFENSE[E["Earth"]] == max(
        INV_STRENGTH[e] + INV_DEFENSE[e] for e in range(9)
    )
    s, hands, plays = one_round("Earth", "Storm")
    play_columns(s, plays)
    a = attacks(s)
    assert a[0][0] == book_totals("Earth", hands[0][2:])[0]
    assert s.light_reveal == [False, False] and s.air_holder == -1


@pytest.mark.parametrize(
    ("energy", "boosted"), [((7, 9), True), ((8, 8), False), ((9, 7), False)], ids=["behind", "tied", "ahead"]
)
def test_water_invocation_strength_is_5_only_when_behind(energy, boosted):
    assert SPEED[E["Water"]] > SPEED[E["Earth"]]  # Water resolves before any damage this round
    s, hands, plays = one_round("Water", "Earth", energy=energy, secret0="Light")
    play_columns(s, plays)
    base = book_totals("Water", hands[0][2:])[0]
    extra = WATER_INVOCATION_STRENGTH - INV_STRENGTH[E["Water"]] if boosted else 0
    assert attacks(s)[0][0] == base + extra


def test_water_checks_energy_when_it_resolves_after_the_first_attack():
    s, hands, plays = one_round("Water", "Storm", energy=(8, 8), secret0="Light")
    play_columns(s, plays)
    first, second = s.records[-1]["attacks"]
    assert first[0] == 1 and first[4][0] < 8  # Storm (faster) hit first: player_0 is now behind
    base = book_totals("Water", hands[0][2:])[0]
    assert second[1] == base + WATER_INVOCATION_STRENGTH - INV_STRENGTH[E["Water"]]


def test_fire_zeroes_the_opponents_invocation_strength_when_first():
    assert SPEED[E["Fire"]] > SPEED[E["Earth"]]
    s, hands, plays = one_round("Earth", "Fire")
    play_columns(s, plays)
    a = attacks(s)
    assert s.records[-1]["attackers"] == [1, 0]
    assert a[0][0] == book_totals("Earth", hands[0][2:])[0] - INV_STRENGTH[E["Earth"]]


def test_fire_resolving_second_effectively_does_nothing():
    assert SPEED[E["Air"]] > SPEED[E["Fire"]]
    s, hands, plays = one_round("Air", "Fire")
    play_columns(s, plays)
    a = attacks(s)
    assert s.records[-1]["attackers"] == [0, 1]
    assert a[0][0] == book_totals("Air", hands[0][2:])[0]


def test_fire_resolving_second_leaves_the_play_first_comparison_alone():
    # Air (9 Strength) attacks before Fire (8): Fire's zero would drop Air's column to 7 and hand
    # Play First to Fire's owner, which "effectively does nothing" rules out.
    s = new_state(0)
    setup_round(s, (["Water", "Air", "Storm", "Shadow"], ["Earth", "Fire", "Life", "Light"]), "Thunder")
    columns = (["front Storm", "back Shadow", "front Air"], ["front Life", "back Light", "front Fire"])
    play_columns(s, columns)
    r = s.records[-1]
    air, fire = book_totals("Air", ["Storm", "Shadow"])[0], book_totals("Fire", ["Life", "Light"])[0]
    assert r["attackers"] == [0, 1] and air > fire > air - INV_STRENGTH[E["Air"]]
    assert r["end_strength"] == (air, fire)
    assert r["play_first_after"] == 0


def test_life_restores_3_energy_capped_at_the_dials_10():
    assert LIFE_RESTORE == 3
    for start, expected_heal in ((6, 3), (8, 2), (9, 1), (10, 0)):
        s, _hands, plays = one_round("Life", "Earth", energy=(start, 10))
        assert SPEED[E["Life"]] > SPEED[E["Earth"]]
        play_columns(s, plays)
        a = attacks(s)
        assert a[0][2][0] == start + expected_heal  # healed before its own attack
        assert s.energy[0] <= 10


@pytest.mark.parametrize(
    ("choice", "target", "before"),
    [
        ("shadow self before", 0, True),
        ("shadow opponent before", 1, True),
        ("shadow self after", 0, False),
        ("shadow opponent after", 1, False),
    ],
)
def test_shadow_swaps_one_columns_totals_before_or_after_its_attack(choice, target, before):
    s, hands, plays = one_round("Shadow", "Earth")
    assert SPEED[E["Shadow"]] > SPEED[E["Earth"]]
    play_columns(s, plays)
    assert s.phase == rules.SHADOW_CHOICE and s.current_player == 0
    assert s.legal_actions() == [29, 30, 31, 32]
    play(s, [(0, choice)])
    t0 = book_totals("Shadow", hands[0][2:])
    t1 = book_totals("Earth", hands[1][2:])
    cols = {0: t0, 1: t1}
    swapped = {0: (t0[1], t0[0]), 1: (t1[1], t1[0])}
    first = {p: (swapped[p] if before and p == target else cols[p]) for p in (0, 1)}
    second = {p: (swapped[p] if p == target else cols[p]) for p in (0, 1)}
    a = attacks(s)
    assert a[0][:2] == (first[0][0], first[1][1])
    assert a[1][:2] == (second[1][0], second[0][1])
    # The Shadow Token stays for the round: Play First uses the swapped totals.
    assert s.records[-1]["end_strength"] == (second[0][0], second[1][0])


def test_thunder_silences_an_ability_that_has_not_resolved():
    assert SPEED[E["Thunder"]] > SPEED[E["Life"]]
    s, _hands, plays = one_round("Thunder", "Life", energy=(10, 6))
    play_columns(s, plays)
    a = attacks(s)
    assert a[1][2][1] == a[0][3][1]  # no heal between Thunder's attack and Life's
    assert s.silenced == [False, False]  # the token is flipped and returned at the end of the round


def test_thunder_too_late_for_an_ability_that_already_resolved():
    assert SPEED[E["Thunder"]] == SPEED[E["Air"]]
    s, _hands, plays = one_round("Thunder", "Air", starting_player=1)  # tie: Play First (seat 1) first
    play_columns(s, plays)
    assert s.records[-1]["attackers"] == [1, 0]
    assert s.air_holder == 1  # Air resolved before Thunder could silence it


def air_turn_state():
    """Round 1: player_0 fronts Air. Round 2: both play three, then player_0's fourth turn."""
    s, _hands, plays = one_round("Air", "Earth")
    play_columns(s, plays)
    assert s.air_holder == 0 and s.round == 2
    setup_round(s, (["Water", "Earth", "Light", "Storm"], ["Life", "Fire", "Thunder", "Air"]), "Shadow")
    play_columns(
        s, (["front Earth", "back Light", "front Storm"], ["front Fire", "back Thunder", "front Life"])
    )
    return s


@pytest.mark.parametrize(
    ("choice", "strength_bonus", "defense_bonus"),
    [("air strength", AIR_TOKEN_STRENGTH, 0), ("air defense", 0, AIR_TOKEN_DEFENSE)],
)
def test_air_token_gives_a_fourth_turn_next_round(choice, strength_bonus, defense_bonus):
    s = air_turn_state()
    assert s.phase == rules.AIR_TURN and s.current_player == 0  # after both played three
    assert s.legal_actions() == [rules.AIR_STRENGTH, rules.AIR_DEFENSE]
    base = book_totals("Storm", ["Earth", "Light"])
    assert s.totals(0) == base
    play(s, [(0, choice)])
    assert SPEED[E["Storm"]] > SPEED[E["Life"]]
    a = attacks(s)
    assert a[0][0] == base[0] + strength_bonus
    assert a[1][1] == base[1] + defense_bonus
    assert s.air_holder == -1  # used this round: back to the supply


def test_light_reveals_until_the_end_of_the_next_play_phase_and_not_before():
    s, _hands, plays = one_round("Light", "Storm", secret0="Water")
    pf = s.play_first
    for k in range(3):
        for seat in (pf, 1 - pf):
            assert s.observation(0)[REVEALED].sum() == 0  # not before Light resolves
            play(s, [(seat, plays[seat][k])])
    assert s.light_reveal == [True, False] and s.round == 2
    setup_round(s, (["Earth", "Storm", "Water", "Life"], ["Fire", "Light", "Air", "Thunder"]), "Shadow")
    assert s.observation(1)[REVEALED].sum() == 0
    pf = s.play_first
    script = {0: ["front Water", "back Life", "front Earth"], 1: ["front Air", "back Light", "front Thunder"]}
    moves = [(seat, script[seat][k]) for k in range(3) for seat in (pf, 1 - pf)]
    for seat, move in moves:
        revealed = s.observation(0)[REVEALED]
        assert revealed.sum() == 1 and revealed[E["Fire"]] == 1  # the draft and the play phase
        play(s, [(seat, move)])
    assert s.round == 3 and not s.is_terminal
    assert s.light_reveal == [False, False]
    assert s.observation(0)[REVEALED].sum() == 0  # after the next play phase: hidden again


def test_thunder_resolving_second_silences_nothing_even_when_its_attack_ends_the_game():
    # Air and Thunder tie at Speed 8; Air's seat plays first, so Air has resolved (player_0 takes
    # the Air Token) when Thunder's attack ends the game: the observation and the text must not
    # show an ability silenced.
    s = new_state(0)
    s.energy = [2, 10]
    setup_round(s, (["Earth", "Air", "Light", "Water"], ["Fire", "Thunder", "Shadow", "Storm"]), "Life")
    play_columns(
        s, (["front Earth", "back Light", "front Air"], ["front Shadow", "back Fire", "front Thunder"])
    )
    assert s.records[-1]["attackers"] == [0, 1] and s.is_terminal and s.air_taken == 0
    assert s.silenced == [False, False]
    assert "silenced" not in s.describe()


def test_storm_played_last_forces_nothing_in_the_air_token_turn():
    # Round 2: player_1 fronts Storm as the phase's last element; player_0, who holds the Air
    # Token, has played all three, so Storm has nothing left to force.
    s = new_state(0)
    setup_round(s, (["Earth", "Air", "Light", "Water"], ["Fire", "Life", "Shadow", "Thunder"]), "Storm")
    play_columns(s, (["front Earth", "back Light", "front Air"], ["front Shadow", "back Fire", "front Life"]))
    assert s.air_holder == 0 and s.round == 2
    setup_round(s, (["Earth", "Light", "Water", "Life"], ["Fire", "Storm", "Shadow", "Thunder"]), "Air")
    plays = {0: ["front Earth", "back Light", "front Water"], 1: ["front Fire", "back Shadow", "front Storm"]}
    pf = s.play_first
    play(s, [(seat, plays[seat][k]) for k in range(3) for seat in (pf, 1 - pf)])
    assert s.phase == rules.AIR_TURN and s.current_player == 0
    assert s.storm_forced == [False, False]
    forced = next(e for e in LAYOUT if e.name == "storm_forced").slice
    assert not s.observation(0)[forced].any()
    assert "Storm: next element to the front" not in s.describe(0)
