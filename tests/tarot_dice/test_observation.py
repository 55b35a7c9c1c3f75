"""The observation: egocentric, the documented layout, and its card cache never stale."""

from __future__ import annotations

import numpy as np

from mystic_envs.tarot_dice.cards import DIE_SIZES, NUM_MINORS
from mystic_envs.tarot_dice.observation import CARD_PLACES, CARD_ROW, LAYOUT
from mystic_envs.tarot_dice.rules import TarotDiceGame

from .script import play, position

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
        dice = s.observation(seat)[OBS["dice"]].reshape(12, 5)
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
