"""The Thunder Tokens (designed meaning, docs/rules/elemystic.md D-2) as scripted rounds.

Each player keeps their own Thunder Token for the whole game. Fronting Thunder takes the
opponent's token and silences their front ability this round; "at the end of this round, flip this
Token over and return it to your opponent": it comes back charged side up, and a charged token
adds +4 Strength (``THUNDER_CHARGE_STRENGTH``) to its owner's column for the round after, then is
ready again. A token taken while charged is flipped back to ready when it returns.
"""

from __future__ import annotations

from script import E, book_totals, new_state, play, play_columns, setup_round

from mystic_envs.elemystic.cards import SPEED, THUNDER_CHARGE_STRENGTH, TOKENS
from mystic_envs.elemystic.observation import LAYOUT
from mystic_envs.elemystic.render import table_effects

SILENCED = next(e for e in LAYOUT if e.name == "thunder_token").slice
CHARGED = next(e for e in LAYOUT if e.name == "thunder_charged").slice

# Round 1: player_0 fronts Thunder over Earth and Light, player_1 fronts Life over Storm and Fire.
STRIKE = (["Water", "Thunder", "Earth", "Light"], ["Air", "Life", "Storm", "Fire"])
STRIKE_PLAYS = (["front Earth", "back Light", "front Thunder"], ["front Fire", "back Storm", "front Life"])


def struck_state():
    """player_0's Thunder silenced player_1's Life in round 1; round 2 is being drafted."""
    s = new_state(0)
    s.energy = [10, 6]
    setup_round(s, STRIKE, "Shadow")
    play_columns(s, STRIKE_PLAYS)
    return s


def last_attacks(s) -> dict[int, tuple]:
    return {a[0]: a[1:] for a in s.records[-1]["attacks"]}


def test_thunder_takes_the_opponents_token_and_it_comes_back_charged():
    assert SPEED[E["Thunder"]] > SPEED[E["Life"]]
    s = struck_state()
    a = last_attacks(s)
    assert a[1][2][1] == a[0][3][1]  # Life was silenced: no heal between the two attacks
    assert s.round == 2 and s.silenced == [False, False]  # returned at the end of round 1
    assert s.thunder_charged == [False, True]  # ... flipped: player_1's own token, charged
    # Public: both seats see whose token is charged, each from its own side.
    assert s.observation(1)[CHARGED].tolist() == [1, 0]
    assert s.observation(0)[CHARGED].tolist() == [0, 1]
    assert f"Thunder Token charged (+{THUNDER_CHARGE_STRENGTH} Strength)" in s.describe()
    assert TOKENS["Thunder (charged side)"] in table_effects(s)


def test_a_charged_token_adds_2_strength_to_its_owners_column_next_round_then_is_ready():
    s = struck_state()
    hands = (["Water", "Light", "Storm", "Air"], ["Fire", "Earth", "Shadow", "Life"])
    setup_round(s, hands, "Thunder")
    play_columns(
        s, (["front Air", "back Storm", "front Light"], ["front Shadow", "back Life", "front Earth"])
    )
    r = s.records[-1]
    a = last_attacks(s)
    charged = book_totals("Earth", ["Shadow", "Life"])[0] + THUNDER_CHARGE_STRENGTH
    assert a[1][0] == charged
    assert r["end_strength"][1] == charged  # the charge counts for Play First too
    assert a[0][0] == book_totals("Light", ["Storm", "Air"])[0]  # no charge for player_0
    assert s.thunder_charged == [False, False]  # spent: ready again for round 3
    assert not s.observation(0)[CHARGED].any() and not s.observation(1)[CHARGED].any()


def test_both_tokens_in_play_the_struck_player_answers_with_thunder():
    # Round 2: player_1 (charged) fronts Thunder and silences player_0's Shadow: player_0's own
    # token lies by its column while player_1's lies charged by player_1.
    s = struck_state()
    s.energy = [10, 10]  # room for both attacks
    setup_round(s, (["Water", "Shadow", "Earth", "Light"], ["Air", "Thunder", "Storm", "Fire"]), "Life")
    plays = (["front Earth", "back Light", "front Shadow"], ["front Fire", "back Storm", "front Thunder"])
    pf = s.play_first
    moves = [(seat, plays[seat][k]) for k in range(3) for seat in (pf, 1 - pf)]
    play(s, moves[:-1])
    assert s.thunder_charged == [False, True] and s.silenced == [False, False]
    play(s, moves[-1:])  # Thunder (Speed 8) resolves before Shadow: no Shadow choice comes
    assert s.round == 3 and s.shadow_column == -1
    assert s.records[-1]["attackers"][0] == 1
    a = last_attacks(s)
    assert a[1][0] == book_totals("Thunder", ["Storm", "Fire"])[0] + THUNDER_CHARGE_STRENGTH
    assert s.thunder_charged == [True, False]  # player_0's token back charged, player_1's spent


def test_thunder_taking_a_charged_token_silences_it_and_flips_it_back_to_ready():
    s = struck_state()
    setup_round(s, (["Water", "Thunder", "Earth", "Light"], ["Air", "Life", "Storm", "Fire"]), "Shadow")
    energy_before = list(s.energy)
    play_columns(s, STRIKE_PLAYS)
    a = last_attacks(s)
    assert a[1][2][1] == a[0][3][1]  # silenced again: no heal
    assert a[1][0] == book_totals("Life", ["Storm", "Fire"])[0] + THUNDER_CHARGE_STRENGTH  # still charged
    assert s.energy[1] < energy_before[1]
    assert s.thunder_charged == [False, False]  # flipped over on its return: ready side up


def test_thunder_too_late_takes_no_token_and_charges_nothing():
    assert SPEED[E["Thunder"]] == SPEED[E["Air"]]
    s = new_state(1)  # a Speed tie: Play First (player_1, Air) attacks first
    setup_round(s, (["Water", "Thunder", "Earth", "Light"], ["Life", "Air", "Storm", "Fire"]), "Shadow")
    play_columns(
        s, (["front Earth", "back Light", "front Thunder"], ["front Fire", "back Storm", "front Air"])
    )
    assert s.records[-1]["attackers"] == [1, 0] and s.air_holder == 1
    assert s.thunder_charged == [False, False]


def test_a_game_won_by_thunders_attack_leaves_the_token_by_the_silenced_column():
    s = new_state(0)
    s.energy = [10, 1]
    setup_round(s, STRIKE, "Shadow")
    play_columns(s, STRIKE_PLAYS)
    assert s.is_terminal and s.winner == 0  # Life never healed: Thunder's attack ended the game
    assert s.silenced == [False, True] and s.thunder_charged == [False, False]
    assert s.observation(0)[SILENCED].tolist() == [0, 1]
    assert s.observation(1)[SILENCED].tolist() == [1, 0]
    assert "Thunder Token (ability silenced)" in s.describe()
