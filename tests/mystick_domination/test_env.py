"""The AEC env of Mystick Domination at 2-5 players, through its public module (so these run
whether or not the env is in ``mystic_envs.ENV_IDS``): PettingZoo's API and seed tests, a seat
eliminated mid-game leaving at once with its fixed reward while the others play on, zero-sum
returns, pickling, the text render and what each seat's observation hides."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mystic_envs import mystick_domination_v0 as md
from mystic_envs.core.aec import GAME_OVER, RUNNING
from mystic_envs.mystick_domination.observation import build_layout_for
from mystic_envs.mystick_domination.render import card_text
from mystic_envs.mystick_domination.rules import MystickGame

from .script import cid, table


@pytest.mark.parametrize("n", [2, 3, 5])
def test_pettingzoo_api_and_seed_tests(n):
    api_test(md.env(num_players=n), num_cycles=300)
    seed_test(lambda: md.env(num_players=n), num_cycles=200)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_an_eliminated_seat_leaves_at_once_with_its_rank_and_the_others_play_on(n):
    env = md.env(num_players=n)
    rng = np.random.default_rng(n)
    left_early = 0
    for seed in range(40):
        env.reset(seed=seed)
        state = env.unwrapped.game_state
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            total[agent] += reward
            if term or trunc:
                seat = env.possible_agents.index(agent)
                assert info["game_over"] == 1 and info["end_reason"] == GAME_OVER
                if not state.is_terminal:
                    # Out while the game runs: below every seat still in, at once (the total
                    # below checks it is the final reward).
                    left_early += 1
                    assert not state.alive[seat] and reward == state.returns()[seat]
                    assert any(
                        not (env.terminations[a] or env.truncations[a]) for a in env.agents if a != agent
                    )
                env.step(None)
            else:
                assert info["end_reason"] == RUNNING
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert state.is_terminal
        np.testing.assert_allclose([total[a] for a in env.possible_agents], state.returns())
        assert abs(sum(total.values())) < 1e-9
    assert left_early > 5


def test_pickle_mid_game_env_continues_identically():
    env = md.env(num_players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    copy = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        if not env.agents:
            break
        obs, *_ = env.last()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        np.testing.assert_array_equal(copy.last()[0]["observation"], obs["observation"])
        env.step(None if env.terminations[env.agent_selection] else a)
        copy.step(None if copy.terminations[copy.agent_selection] else a)


def test_describe_shows_the_table_and_only_the_viewers_hand():
    s = table(hands={0: ["Five of Wands"], 1: ["Six of Swords"]}, pawns={1: [("Seven of Swords", 2)]},
              cross={0: ["Ace of Cups"]}, draw_count=1, pool=9)  # fmt: skip
    public = s.describe()
    assert "pool 9 Power, Draw Count 1/3" in public and "Seven of Swords, influence 3, Power 2" in public
    assert "Mystick Cross: 1:Ace of Cups" in public
    assert "Five of Wands" not in public and "Six of Swords" not in public
    mine = s.describe(viewer=0)
    assert "hand: Five of Wands" in mine and "Six of Swords" not in mine
    assert card_text(cid("XIII Death")).startswith("XIII Death (Death) - Major Arcana: Discard the Pawn")
    assert "influence 2" in card_text(cid("Five of Wands"))


def test_observation_hides_other_hands_and_deck_order():
    s = table(hands={0: ["Five of Wands"], 1: ["Six of Swords"]})
    at = {e.name: e for e in build_layout_for(2)}
    seen_by_0 = s.observation(0)
    assert seen_by_0[at["own_hand"].start + cid("Five of Wands")] > 0
    assert not seen_by_0[at["seat+1_hand"].slice].any(), "an unshown hand card is private"
    # Chosen decks (presets here) are hidden lists (D-5): nothing is known of player_1's unseen cards.
    assert not seen_by_0[at["seat+1_unseen"].slice].any(), "a chosen deck list is hidden"
    # Deck order: swapping two cards of a deck changes nothing anybody observes.
    s2 = s.clone()
    s2.deck[1][-1], s2.deck[1][0] = s2.deck[1][0], s2.deck[1][-1]
    for p in (0, 1):
        np.testing.assert_array_equal(s.observation(p), s2.observation(p))


@pytest.mark.parametrize("n", [2, 3, 5])
def test_kept_observation_parts_match_a_fresh_observation_at_every_step(n):
    # observe() keeps each seat's discard pile and play-area parts between steps (D-10); a part
    # kept past a change would show a stale table. A clone keeps none of them.
    rng = np.random.default_rng(n)
    for seed in range(3):
        s = MystickGame(num_players=n).new_initial_state(seed)
        while not s.is_terminal:
            for p in range(n):
                np.testing.assert_array_equal(s.observation(p), s.clone().observation(p))
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])


def test_the_observation_names_each_attachments_owner_and_each_discard_piles_order():
    from mystic_envs.mystick_domination.observation import ATT_CARDS, PAWN_HEAD, pawn_features

    s = table(
        n=3,  # wands_cups, swords_pentacles, wands_swords
        pawns={0: [("Seven of Wands", 0, [("Nine of Wands", 0), ("Nine of Swords", 1)])]},
        discards={0: ["Ace of Wands", "Two of Wands", "Three of Wands"]},  # the Three on top
    )
    at = {e.name: e.start for e in build_layout_for(3)}
    obs = s.observation(1)  # player_0 is seat+2 of player_1
    slot = at["seat+2_pawns"] + PAWN_HEAD  # slot 0's Attachments: the controller's first

    def attached(rel: int, name: str) -> float:
        return float(obs[slot + rel * len(ATT_CARDS) + ATT_CARDS.index(cid(name))])

    assert attached(0, "Nine of Wands") == pytest.approx(1 / 3)  # player_0's own
    assert attached(1, "Nine of Swords") == pytest.approx(1 / 3)  # player_1's, one seat after it
    assert attached(0, "Nine of Swords") == 0 and attached(1, "Nine of Wands") == 0
    assert pawn_features(3) == PAWN_HEAD + 3 * len(ATT_CARDS)
    order = obs[at["seat+2_discard_order"] : at["seat+2_discard_order"] + len(s.hand[0])]
    assert order[cid("Three of Wands")] == pytest.approx(1.0)
    assert order[cid("Two of Wands")] == pytest.approx(38 / 39)
    assert order[cid("Ace of Wands")] == pytest.approx(37 / 39)
    assert np.count_nonzero(order) == 3
    # The same cards in another order read differently: the order is in the vector, not only counts.
    s.discard[0] = s.discard[0][::-1]
    s.new_table()
    again = s.observation(1)[at["seat+2_discard_order"] :][: len(order)]
    assert again[cid("Ace of Wands")] == pytest.approx(1.0) and again[cid("Three of Wands")] < 1.0
