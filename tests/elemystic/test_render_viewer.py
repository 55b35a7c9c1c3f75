"""``describe(viewer=seat)``: the public table plus what that seat alone may see, never more.

The table of scripted positions names what each viewer must be shown and which element names must
not appear anywhere in its text (checked as whole words, in positions where that name has no
public reason to appear). The randomized test checks the same rule for every position of many
games: a viewer's text cannot change when everything hidden from that viewer is re-dealt.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from script import deal, new_state, play, play_columns, setup_round

from mystic_envs.elemystic.rules import ElemysticGame, ElemysticState


def draft_start() -> ElemysticState:
    # Secrets: player_0 Fire, player_1 Water; the Unknown Element is Shadow.
    s = new_state(0)
    deal(s, "Shadow", "Fire", "Water")
    return s


def light_round() -> ElemysticState:
    # Round 1: player_0's Light resolves, so in round 2 player_0 sees player_1's secret.
    # Round 2 secrets: player_0 Earth, player_1 Fire; Unknown Shadow.
    s = new_state(0)
    setup_round(s, (["Water", "Light", "Earth", "Life"], ["Thunder", "Storm", "Shadow", "Fire"]), "Air")
    play_columns(
        s, (["front Earth", "back Life", "front Light"], ["front Shadow", "back Fire", "front Storm"])
    )
    assert s.light_reveal == [True, False] and s.round == 2
    setup_round(s, (["Earth", "Storm", "Water", "Life"], ["Fire", "Light", "Air", "Thunder"]), "Shadow")
    return s


def light_over() -> ElemysticState:
    # Light lasts until the end of round 2's play phase. Round 3 secrets: player_0 Water,
    # player_1 Fire; Unknown Light (round 2's fronts, Storm and Thunder, stay named in its summary).
    s = light_round()
    play_columns(
        s, (["front Water", "back Life", "front Storm"], ["front Air", "back Light", "front Thunder"])
    )
    assert s.light_reveal == [False, False] and s.round == 3
    setup_round(s, (["Water", "Life", "Air", "Earth"], ["Fire", "Storm", "Thunder", "Shadow"]), "Light")
    return s


def secret_played() -> ElemysticState:
    # player_0 plays its secret (Water) face up; player_1's secret is Thunder, the Unknown Air.
    s = new_state(0)
    setup_round(s, (["Water", "Light", "Earth", "Life"], ["Thunder", "Storm", "Shadow", "Fire"]), "Air")
    play(s, [(0, "front Water")])
    return s


STATES = {f.__name__: f for f in (draft_start, light_round, light_over, secret_played)}

CASES = [
    # (position, viewer, shown, hidden element names)
    ("draft_start", 0, ["player_0 (you)", "hand: - + 1 secret (Fire)"], ["Water", "Shadow"]),
    ("draft_start", 1, ["player_1 (you)", "hand: - + 1 secret (Water)"], ["Fire", "Shadow"]),
    ("draft_start", None, ["hand: - + 1 secret\n"], ["Fire", "Water", "Shadow"]),
    ("light_round", 0, ["+ 1 secret (Earth)", "+ 1 secret (Fire, seen through Light)"], ["Shadow"]),
    ("light_round", 1, ["+ 1 secret (Fire)"], ["Earth", "Shadow"]),
    ("light_round", None, ["Light (sees player_1's secret)"], ["Earth", "Fire", "Shadow"]),
    ("light_over", 0, ["+ 1 secret (Water)"], ["Fire", "Light"]),
    ("light_over", 1, ["+ 1 secret (Fire)"], ["Water", "Light"]),
    ("secret_played", 1, ["column: front Water", "+ 1 secret (Thunder)"], ["Air"]),
    (
        "secret_played",
        0,
        [
            "column: front Water",
            "hand: Earth [S2 D2 | IS4 ID1 Sp1], Light [S1 D3 | IS2 ID3 Sp2], Life [S0 D2 | IS2 ID2 Sp4]\n",
        ],
        ["Thunder", "Air"],
    ),
]


@pytest.mark.parametrize(("position", "viewer", "shown", "hidden"), CASES)
def test_viewer_sees_its_own_secrets_and_nothing_hidden(position, viewer, shown, hidden):
    text = STATES[position]().describe(viewer=viewer) + "\n"
    for part in shown:
        assert part in text, f"{part!r} missing for viewer {viewer}:\n{text}"
    # The last round's fight names its finished columns, public since then: not where a hidden
    # name could leak (the randomized test below covers the whole text).
    unexplained = re.sub(r"Round \d+ fight:\n(  .*\n)*", "", text)
    for name in hidden:
        assert not re.search(rf"\b{name}\b", unexplained), f"{name!r} shown to viewer {viewer}:\n{text}"
    if viewer is None:
        assert "(you)" not in text and "seen through Light" not in text
    elif position != "light_round" or viewer != 0:
        assert "seen through Light" not in text


def test_viewer_none_is_the_public_table_unchanged():
    s = light_round()
    assert s.describe() == s.describe(viewer=None) == s.describe(None)
    assert s.describe() == (
        "Elemystic - round 2, phase play\n"
        "To move: player_1\n"
        "Round 1 fight:\n"
        "  player_0's column: front Light, behind Earth, Life\n"
        "  player_1's column: front Storm, behind Fire, Shadow\n"
        "  player_1 attacks first (Speed 7 against 2)\n"
        "  player_1 attacks: Strength 11 against Defense 10: 1 damage\n"
        "  player_0 attacks: Strength 5 against Defense 2: 3 damage\n"
        "  Energy lost: player_0 1, player_1 3\n"
        "Draft First -> player_1   Play First -> player_1\n"
        "card numbers: [S Strength, D Defense | IS Invocation Strength, ID Invocation Defense, Sp Speed]\n"
        "player_0: Energy  9  tokens: Light (sees player_1's secret)\n"
        "  hand: Storm [S2 D2 | IS3 ID0 Sp7], Water [S1 D2 | IS1 ID0 Sp3], "
        "Life [S0 D2 | IS2 ID2 Sp4] + 1 secret\n"
        "player_1: Energy  7  tokens: -\n"
        "  hand: Light [S1 D3 | IS2 ID3 Sp2], Air [S2 D0 | IS2 ID0 Sp8], "
        "Thunder [S2 D1 | IS3 ID1 Sp8] + 1 secret"
    )


def test_viewer_text_depends_only_on_what_the_viewer_sees():
    """Re-dealing everything hidden from a seat (``determinize``) never changes that seat's text,
    nor the public text; the re-deal did change hidden cards, so the check has teeth."""
    rng = np.random.default_rng(0)
    redealt = 0
    for seed in range(40):
        s = ElemysticGame().new_initial_state(seed)
        while not s.is_terminal:
            for viewer in (0, 1):
                other = s.determinize(viewer, np.random.default_rng(int(rng.integers(2**32))))
                redealt += other.secret != s.secret
                assert other.describe(viewer=viewer) == s.describe(viewer=viewer)
                assert other.describe() == s.describe()
            s.apply(int(rng.choice(s.legal_actions())))
    assert redealt > 100


@pytest.mark.parametrize(
    ("viewer", "error"), [(2, ValueError), (-1, ValueError), (True, TypeError), ("0", TypeError)]
)
def test_bad_viewers_are_clear_errors(viewer, error):
    with pytest.raises(error, match="viewer must be a seat index"):
        draft_start().describe(viewer=viewer)


def test_numpy_seat_index_is_a_viewer():
    s = draft_start()
    assert s.describe(viewer=np.int64(1)) == s.describe(viewer=1)
