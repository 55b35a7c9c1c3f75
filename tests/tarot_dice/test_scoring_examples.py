"""The rulebook's worked example and the match around it: "If the last pair of dice captured are a
D20 and a D4 then the winning player scores 24 points." Also the designed match end (D-2): the
rounds of ``num_rounds``, then sudden-death rounds while the totals are level."""

from __future__ import annotations

import numpy as np

import mystic_envs

from .script import play, position


def test_last_pair_d20_and_d4_scores_24():
    s = position(dice=((0, 0, 0, 0, 0, 20), (4, 0, 0, 0, 0, 0)), planet="Venus", zodiac="Taurus")
    play(s, [(0, "capture D20 D4")])
    assert s.points == [24, 0]
    assert s.last_round == (0, 24, 0)
    assert s.rounds_done == 1 and s.phase_name == "draft"  # the next round is set up at once


def test_the_score_is_the_dice_maxima_not_the_faces_they_show():
    # A D4 showing 1 taken by a D20 showing 1 still scores 20 + 4.
    s = position(dice=((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)), planet="Venus", zodiac="Taurus")
    play(s, [(0, "capture D20 D4")])
    assert s.points == [24, 0]


def test_the_loser_of_a_round_scores_nothing_and_the_winner_may_be_the_second_player():
    s = position(dice=((0, 0, 0, 3, 0, 0), (0, 0, 0, 0, 0, 12)), planet="Venus", zodiac="Taurus", to_move=1)
    play(s, [(1, "capture D20 D10")])
    assert s.points == [0, 30]


def test_a_one_round_match_ends_with_its_round():
    s = position(
        dice=((0, 0, 0, 0, 0, 20), (4, 0, 0, 0, 0, 0)), planet="Venus", zodiac="Taurus", num_rounds=1
    )
    play(s, [(0, "capture D20 D4")])
    assert s.is_terminal and s.winners() == [0]
    np.testing.assert_array_equal(s.returns(), [1.0, -1.0])


def test_level_totals_after_the_last_round_go_to_a_sudden_death_round():
    s = position(dice=((0, 0, 0, 0, 0, 20), (4, 0, 0, 0, 0, 0)), planet="Venus", zodiac="Taurus")
    s.rounds_done, s.points = 1, [0, 24]
    play(s, [(0, "capture D20 D4")])
    assert s.points == [24, 24] and not s.is_terminal and s.phase_name == "draft"
    s2 = position(dice=((0, 0, 0, 0, 0, 20), (4, 0, 0, 0, 0, 0)), planet="Venus", zodiac="Taurus")
    s2.rounds_done, s2.points = 2, [24, 24]
    play(s2, [(0, "capture D20 D4")])
    assert s2.is_terminal and s2.points == [48, 24] and s2.winners() == [0]


def test_match_points_and_the_winner_reach_the_infos():
    env = mystic_envs.make("tarot_dice_v0", num_rounds=1)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        _, _reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    state = env.unwrapped.game_state
    assert info["scores"].tolist() == state.scores() and sorted(state.points)[0] == 0
    assert np.flatnonzero(info["winners"]).tolist() == state.winners()
    assert info["last_round_points"] == max(state.points)
