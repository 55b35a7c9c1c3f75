"""The observation: egocentric, the documented layout, and its card cache never stale."""

from __future__ import annotations

import numpy as np

from mystic_envs.tarot_dice.cards import DIE_SIZES, NUM_MINORS
from mystic_envs.tarot_dice.observation import CARD_PLACES, CARD_ROW, DIE_FEATURES, LAYOUT, PLAYED_CARDS
from mystic_envs.tarot_dice.rules import TarotDiceGame

from .script import CARD, die_index, play, position

OBS = {e.name: e.slice for e in LAYOUT}


def test_the_cached_card_block_always_equals_a_fresh_one():
    """``observe`` rebuilds the Majors-and-cards block only after a move that can change it; at
    every step of random games (two seats, clones, determinized copies) it matches a fresh build."""
    rng = np.random.default_rng(0)
    game = TarotDiceGame()
    steps = 0
    for seed in range(60):
        s = game.new_initial_state(seed)
        while not s.is_terminal:
            for p in (0, 1):
                cached = s.observation(p)
                fresh = s.clone()  # a clone starts with no cache
                np.testing.assert_array_equal(cached, fresh.observation(p))
            if steps % 7 == 0:
                d = s.determinize(s.current_player, np.random.default_rng(steps))
                d.observation(s.current_player)
                np.testing.assert_array_equal(
                    d.observation(1 - s.current_player), d.clone().observation(1 - s.current_player)
                )
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
            steps += 1
    assert steps > 5000


def test_dice_are_egocentric_own_first():
    s = position(dice=((1, 2, 3, 4, 5, 6), (4, 6, 8, 10, 12, 20)))
    for seat, own, other in (
        (0, (1, 2, 3, 4, 5, 6), (4, 6, 8, 10, 12, 20)),
        (1, (4, 6, 8, 10, 12, 20), (1, 2, 3, 4, 5, 6)),
    ):
        dice = s.observation(seat)[OBS["dice"]].reshape(12, len(DIE_FEATURES))
        np.testing.assert_allclose(dice[:6, 1] * 20, own)
        np.testing.assert_allclose(dice[6:, 1] * 20, other)
        np.testing.assert_array_equal(
            dice[:, 2], [v == m for v, m in zip(own + other, DIE_SIZES * 2, strict=True)]
        )


def test_each_known_card_is_one_hot_where_it_lies():
    s = position(
        hands=(["7 of Cups"], []),
        graveyards=(["2 of Cups", "3 of Cups"], []),
        wells=([["4 of Cups", "5 of Cups"]], []),
    )
    o = s.observation(1)
    rows = {c: o[CARD_ROW[1][c] : CARD_ROW[1][c] + len(CARD_PLACES)] for c in range(NUM_MINORS)}
    from .script import CARD

    assert CARD_PLACES[int(np.argmax(rows[CARD["3 of Cups"]]))] == "top of the graveyard"
    assert CARD_PLACES[int(np.argmax(rows[CARD["2 of Cups"]]))] == "graveyard"
    assert CARD_PLACES[int(np.argmax(rows[CARD["5 of Cups"]]))] == "top of well 1"
    assert CARD_PLACES[int(np.argmax(rows[CARD["4 of Cups"]]))] == "under the top of well 1"
    assert not rows[CARD["7 of Cups"]].any()  # player_0's hidden card
    assert all(row.sum() <= 1 for row in rows.values())
    play(s, [(0, "play 7 of Cups"), (0, "die planet")])
    o = s.observation(1)
    assert o[CARD_ROW[1][CARD["7 of Cups"]] + CARD_PLACES.index("top of the graveyard")] == 1.0
    assert o[CARD_ROW[1][CARD["3 of Cups"]] + CARD_PLACES.index("graveyard")] == 1.0


def test_no_turn_flags_remain_once_the_match_is_over():
    rng = np.random.default_rng(5)
    for seed in range(6):
        s = TarotDiceGame().new_initial_state(seed)
        while not s.is_terminal:
            s.apply(int(rng.choice(s.legal_actions())))
        for seat in (0, 1):
            o = s.observation(seat)
            assert o[OBS["captured_this_turn"]].tolist() == [0.0]
            assert o[OBS["to_move"]].tolist() == [0.0]


# --- what each decision needs to see (every pair of states below differed only outside the
# observation before these blocks existed) ----------------------------------------------------


def one_hot(o, name: str) -> list[int]:
    return np.flatnonzero(o[OBS[name]]).tolist()


def test_the_hanged_man_sees_the_card_it_would_copy():
    # The card played is already on the graveyard: the effect on offer is the card under it.
    for order in (["3 of Swords", "Ace of Swords"], ["Ace of Swords", "3 of Swords"]):
        s = position(majors=(["The Hanged Man"], []), hands=(["King of Swords"], []), graveyards=(order, []))
        play(s, [(0, "play King of Swords")])
        assert s.phase_name == "hanged_man"
        local = CARD[order[-1]] % PLAYED_CARDS
        assert one_hot(s.observation(0), "play_prev_top") == [local]
        assert one_hot(s.observation(1), "play_prev_top") == [PLAYED_CARDS + local]  # the opponent's


def test_each_banish_says_who_made_it():
    # player_0's Knight banished player_1's D4, player_1's Knight player_0's D10, Neptune
    # player_0's D8: each ends at a different time, so each is its own feature.
    s = position()
    s.knight_ban = [1 << die_index(1, "D4"), 1 << die_index(0, "D10")]
    s.neptune_ban = 1 << die_index(0, "D8")
    me, opp, neptune = (DIE_FEATURES.index(f) for f in DIE_FEATURES if f.startswith("banished"))
    # Rows: the seat's own D4 ... D20, then the opponent's.
    expected = {0: {(6, me), (3, opp), (2, neptune)}, 1: {(0, opp), (9, me), (8, neptune)}}
    for seat in (0, 1):
        dice = s.observation(seat)[OBS["dice"]].reshape(12, len(DIE_FEATURES))
        found = {(r, f) for r in range(12) for f in (me, opp, neptune) if dice[r, f]}
        assert found == expected[seat]


def test_the_chariot_well_decision_sees_the_card_it_returns():
    s = position(majors=(["The Chariot"], []), hands=(["King of Cups"], []), graveyards=(["9 of Cups"], []))
    play(s, [(0, "play King of Cups"), (0, "die opp D4"), (0, "use The Chariot"), (0, "return 9 of Cups")])
    assert s.phase_name == "chariot_well"
    assert one_hot(s.observation(0), "chariot_card") == [CARD["9 of Cups"]]
    assert one_hot(s.observation(1), "chariot_card") == [28 + CARD["9 of Cups"]]


def test_the_queens_two_rerolls_are_told_apart():
    s = position(hands=(["Queen of Cups"], []), rolls=[2])
    play(s, [(0, "play Queen of Cups")])
    assert s.phase_name == "queen_reroll" and s.observation(0)[OBS["queen_rerolls"]].tolist() == [1.0]
    play(s, [(0, "die my D20")])
    assert s.phase_name == "queen_reroll" and s.observation(0)[OBS["queen_rerolls"]].tolist() == [0.5]


def test_the_planet_phase_still_to_come_is_flagged():
    s = position(planet="Mars", zodiac="Aquarius", rolls=[3])
    assert s.observation(0)[OBS["planet_pending"]].tolist() == [1.0]  # the action phase
    play(s, [(0, "reroll my D4")])
    assert s.phase_name == "mars_roll"  # the Planet phase itself
    assert s.observation(0)[OBS["planet_pending"]].tolist() == [0.0]


def test_the_devils_card_shows_the_play_waiting_under_it():
    s = position(
        majors=(["The Devil", "Wheel of Fortune"], []),
        hands=(["2 of Cups"], []),
        sacrificed=("5 of Cups", None),
    )
    play(s, [(0, "play 2 of Cups"), (0, "die opp D4"), (0, "use The Devil")])
    assert s.phase_name == "card_target" and len(s.plays) == 2
    from mystic_envs.tarot_dice.cards import WHEEL

    assert one_hot(s.observation(1), "outer_play") == [0, 1 + WHEEL]
    play(s, [(0, "die my D12")])
    assert one_hot(s.observation(0), "outer_play") == []  # back in the waiting card's own triggers
