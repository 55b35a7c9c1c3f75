"""The rulebook's Attacks Example, reproduced step by step.

Player 1 (seat 0) fronts Light over Thunder and Life; Player 2 (seat 1) fronts Fire over Air and
Storm. Fire is faster, so Player 2 attacks first: Fire sets Light's Invocation Strength to 0,
Player 2 has 4 + 3 + 2 + 2 = 11 Strength against 3 + 3 + 1 + 2 = 9 Defense, Player 1 loses 2.
Player 1 then attacks with 3 Strength (5 without Fire) against 2 Defense: Player 2 loses 1, and
Player 1 takes the Light Token.
"""

from __future__ import annotations

from script import E, deal, draft, new_state, play

from mystic_envs.core.rng import Rng
from mystic_envs.elemystic.cards import INV_STRENGTH, LIGHT, SPEED
from mystic_envs.elemystic.observation import LAYOUT
from mystic_envs.elemystic.rules import ElemysticState


class AttackLog(ElemysticState):
    """Records every attack as it resolves (the round is over, and reset, by the time apply returns)."""

    __slots__ = ("log",)

    def _attack(self, att: int) -> None:
        opp = 1 - att
        entry = {
            "attacker": att,
            "strength": self.totals(att)[0],
            "defense": self.totals(opp)[1],
            "invocation_strength": list(self.inv_strength),
            "energy_before": list(self.energy),
        }
        super()._attack(att)
        entry["energy_after"] = list(self.energy)
        self.log.append(entry)


def example_state() -> AttackLog:
    s = AttackLog.new(new_state().game, Rng(0))
    s.log = []
    s.starting_player = s.draft_first = s.play_first = s.player = 0
    deal(s, unknown="Shadow", secret0="Water", secret1="Earth")
    draft(s, ["Light", "Life", "Fire", "Air", "Thunder"])  # Storm goes to player 2
    play(
        s,
        [
            (0, "front Life"),
            (1, "front Air"),
            (0, "back Thunder"),
            (1, "back Storm"),
            (0, "front Light"),
            (1, "front Fire"),
        ],
    )
    return s


def test_fire_is_faster_than_light():
    assert SPEED[E["Fire"]] > SPEED[E["Light"]]


def test_player_2_attacks_first_for_2_damage():
    first = example_state().log[0]
    assert first["attacker"] == 1
    assert first["invocation_strength"][0] == 0  # Fire set Light's Invocation Strength to 0
    assert first["strength"] == 11
    assert first["defense"] == 9
    assert first["energy_before"] == [10, 10]
    assert first["energy_after"] == [8, 10]


def test_player_1_attacks_second_for_1_damage():
    second = example_state().log[1]
    assert second["attacker"] == 0
    assert second["strength"] == 3
    assert second["strength"] + INV_STRENGTH[LIGHT] == 5  # "they would have 5"
    assert second["defense"] == 2
    assert second["energy_after"] == [8, 9]


def test_light_token_goes_to_player_1_and_reveals_next_round():
    s = example_state()
    assert s.light_reveal == [True, False]
    assert s.round == 2 and s.phase_name == "draft"
    i = next(e for e in LAYOUT if e.name == "opp_secret_revealed").slice
    seen = s.observation(0)[i]
    assert seen.sum() == 1 and seen[s.secret[1]] == 1
    assert s.observation(1)[i].sum() == 0


def test_end_of_round_arrows():
    s = example_state()
    assert s.draft_first == 1  # rotates every round
    assert s.play_first == 1  # Player 2 had the higher total Strength (11 against 3)
    assert s.last_round.energy_lost == (2, 1)


def test_speed_example_the_6_speed_front_attacks_before_the_2_speed_one():
    # "Speed values of 2 and 6; since 6 is higher, the player with the 6-Speed element in front
    # attacks first!" Read with the Attacks Example right after it ("Since Fire's Speed is higher
    # than Light's"): Fire is the 6, Light the 2 (D-1). Seat 0 plays first, yet attacks second.
    assert (SPEED[E["Fire"]], SPEED[E["Light"]]) == (6, 2)
    log = example_state().log  # seat 0 (Player 1) had Play First
    assert [entry["attacker"] for entry in log] == [1, 0]  # Player 2's Fire before Player 1's Light
