"""Mystick Domination rules beyond the worked examples: setup, deck construction, initiative,
moves, draw, challenge limits, the end of a round, the end of the game, elimination. See the
rule -> code -> test table of docs/rules/mystick_domination.md."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mystic_envs.core.errors import IllegalActionError
from mystic_envs.mystick_domination import decks
from mystic_envs.mystick_domination.cards import CARDS, IS_MAJOR, NUM_CARDS, POOL_BY_PLAYERS, SUIT
from mystic_envs.mystick_domination.rules import (
    CHALLENGE_TARGET,
    GAME_OVER,
    MOVE,
    RESOURCES_CHOICE,
    MystickGame,
    MystickState,
)

from .script import action, cid, cross_names, legal, names, play, table


# --- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_pool_hands_scores_and_draw_count(n):
    for seed in range(20):
        s = MystickGame(num_players=n).new_initial_state(seed)
        assert s.pool == POOL_BY_PLAYERS[n] == {2: 11, 3: 15, 4: 19, 5: 23}[n]
        assert s.score == [0] * n and s.draw_count == 0 and s.round == 1
        for q in range(n):
            # Six Minors, plus the initiative card(s) shown and kept.
            assert s.hand_size[q] >= 7 and not any(s.hand[q][c] for c in range(NUM_CARDS) if IS_MAJOR[c])
            assert sum(s.shown[q]) == s.hand_size[q] - 6
            assert all(IS_MAJOR[c] for c in s.discard[q]), "only Majors are discarded in setup and initiative"


class _SetupRecorder(MystickState):
    def _start_round(self):
        self.after_setup = [list(d) for d in self.discard]
        super()._start_round()


def test_opening_majors_are_discarded_or_reshuffled_by_option():
    kept = shuffled = 0
    for seed in range(30):
        for reshuffle in (False, True):
            g = MystickGame(reshuffle_opening_majors=reshuffle)
            s = _SetupRecorder.new(g, np.random.default_rng(seed))
            if reshuffle:
                assert s.after_setup == [[], []]
                shuffled += 1
            else:
                kept += sum(map(len, s.after_setup))
    assert kept > 0 and shuffled == 30


def test_random_decks_two_players_split_one_78_card_set():
    for seed in range(20):
        s = MystickGame().new_initial_state(seed)
        both = Counter(s.deck_list[0]) + Counter(s.deck_list[1])
        assert both == Counter(range(NUM_CARDS))
        for q in (0, 1):
            decks.validate_deck(s.deck_list[q], "basic", "test")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_decks_are_legal_basic_decks(n):
    s = MystickGame(num_players=n).new_initial_state(1)
    for q in range(n):
        decks.validate_deck(s.deck_list[q], "basic", "test")


def test_presets_and_deck_lists_by_name():
    wands_cups = [CARDS[c].name for c in decks.PRESETS["wands_cups"]]
    g = MystickGame(decks=[wands_cups, "swords_pentacles"])
    s = g.new_initial_state(0)
    assert sorted(s.deck_list[0]) == sorted(decks.PRESETS["wands_cups"])
    assert Counter(s.deck_list[0]) + Counter(s.deck_list[1]) == Counter(range(NUM_CARDS))


_BASIC = [CARDS[c].name for c in decks.PRESETS["wands_cups"]]


@pytest.mark.parametrize(
    ("deck", "construction", "message"),
    [
        (_BASIC[:-1], "basic", "a deck has 39 cards"),
        ([*_BASIC[:-1], "Ace of Swords"], "basic", "a deck has 11 Major Arcana, got 10"),
        (
            [*_BASIC[1:], "Ace of Swords"],
            "basic",
            "14 cards from each of exactly 2 suits, got Wands 13, Cups 14, Swords 1",
        ),
        ([*_BASIC[:-1], "The Fool"], "basic", "basic decks allow no duplicates, got 2 copies of 0 The Fool"),
        (
            [*_BASIC[1:], "Two of Wands"],
            "basic",
            "basic decks allow no duplicates, got 2 copies of Two of Wands",
        ),
        (_BASIC[3:] + ["Two of Wands"] * 3, "advanced", None),
        (
            _BASIC[4:] + ["Two of Wands"] * 4,
            "advanced",
            "advanced decks allow up to 3 copies, got 4 copies of Two of Wands",
        ),
        ([*_BASIC[:-1], "Queen of Hearts"], "basic", "unknown card 'Queen of Hearts'"),
        ([*_BASIC[:-1], 78], "basic", "card id 78 is not in 0-77"),
    ],
)
def test_deck_construction_rules_one_line_errors(deck, construction, message):
    if message is None:
        MystickGame(decks=[deck, "swords_pentacles"], construction=construction).new_initial_state(0)
        return
    with pytest.raises(ValueError) as err:
        MystickGame(decks=[deck, "swords_pentacles"], construction=construction)
    text = str(err.value)
    assert "\n" not in text and text.startswith("deck of player_0: ") and message in text


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"decks": "hearts"}, ValueError, "unknown preset 'hearts'"),
        ({"decks": ["random"]}, ValueError, "decks needs one entry per player (2), got 1"),
        ({"decks": 5}, TypeError, "decks must be"),
        ({"construction": "expert"}, ValueError, "construction must be one of"),
        ({"reshuffle_opening_majors": 1}, TypeError, "reshuffle_opening_majors must be a bool"),
        ({"num_players": 6}, ValueError, "Mystick Domination is a game for 2-5 players"),
    ],
)
def test_bad_options_are_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        MystickGame(**kwargs)


# --- initiative and turn order ----------------------------------------------------------------------
def test_initiative_highest_rank_wins_majors_redrawn_ties_redraw_and_cards_go_to_hand():
    s = table(
        n=3,
        decks=["wands_cups", "swords_pentacles", "wands_swords"],
        draw_count=2,
        mover=0,
        tops={
            0: ["Two of Cups", "Seven of Cups", "Three of Cups"],
            1: ["XIII Death", "Seven of Swords", "Two of Swords"],
            2: ["Five of Wands", "Ace of Swords"],
        },
    )
    play(s, (0, "draw"))  # the Draw Count reaches 3: initiative
    # player_0 drew the Two of Cups; then Seven of Cups (0) ties Seven of Swords (1, after Death is
    # discarded) above the Five of Wands (2); the tied players draw again: Three beats Two.
    assert s.round == 2 and s.initiative_winner == 0 and s.current_player == 0
    assert "XIII Death" in names(s.discard[1])
    for q, shown in (
        (0, ["Seven of Cups", "Three of Cups"]),
        (1, ["Seven of Swords", "Two of Swords"]),
        (2, ["Five of Wands"]),
    ):
        assert sorted(names([c for c in range(NUM_CARDS) for _ in range(s.shown[q][c])])) == sorted(shown)
        assert all(s.hand[q][cid(n)] for n in shown)


def test_initiative_cards_are_public_in_the_other_seats_observation():
    s = table(draw_count=2, tops={0: ["Two of Cups", "Nine of Cups"], 1: ["Ace of Swords"]})
    play(s, (0, "draw"))
    from mystic_envs.mystick_domination.observation import build_layout_for

    at = {e.name: e for e in build_layout_for(2)}
    assert s.observation(1)[at["seat+1_hand"].start + cid("Nine of Cups")] > 0
    assert s.observation(0)[at["seat+1_hand"].start + cid("Ace of Swords")] > 0


def test_moves_go_in_seat_order_from_the_first_mover():
    s = table(n=3, decks=["wands_cups", "swords_pentacles", "wands_swords"], mover=1)
    seen = []
    for _ in range(2):
        seen.append(s.current_player)
        play(s, (s.current_player, "draw"))
    assert seen == [1, 2]
    assert s.current_player == 0


# --- play -----------------------------------------------------------------------------------------
def test_attachment_needs_a_pawn_in_play_and_goes_on_any_players_pawn():
    s = table(hands={0: ["Nine of Wands", "Four of Wands"]}, pawns={1: [("Five of Swords", 0)]})
    play(s, (0, "play Four of Wands"), (1, "draw"))
    play(s, (0, "play Nine of Wands"))
    assert s.phase == 3 and legal(s, "pawn 0 0") and legal(s, "pawn 1 0")
    play(s, (0, "pawn 1 0"))
    assert s.infl[1][0] == 3 and s.attach[1][0] == [(cid("Nine of Wands"), 0)]
    empty = table(hands={0: ["Nine of Wands"]})
    assert not legal(empty, "play Nine of Wands")


def test_actions_resolve_then_go_to_the_discard_pile_environments_and_pawns_stay():
    s = table(
        hands={0: ["Page of Wands", "Ace of Wands", "Four of Wands"]}, pawns={0: [("Five of Wands", 0)]}
    )
    play(s, (0, "play Page of Wands"))  # Kindle: the only own Pawn with room gets 1 new Power
    assert s.power[0][0] == 1 and names(s.discard[0])[-1] == "Page of Wands" and s.power_created == 1
    play(s, (1, "draw"), (0, "play Ace of Wands"), (1, "draw"), (0, "play Four of Wands"))
    assert names(s.envs[0]) == ["Ace of Wands"] and names([c for c in s.pawn[0] if c >= 0]) == [
        "Five of Wands",
        "Four of Wands",
    ]


def test_special_moves_come_only_from_cards_in_play():
    s = table(hands={0: ["Ace of Wands"]}, pawns={0: [("Five of Wands", 0)]})
    assert not legal(s, "special Ace of Wands")
    play(s, (0, "play Ace of Wands"), (1, "draw"))
    play(s, (0, "special Ace of Wands"))
    assert s.power[0][0] == 1 and s.score[0] == 0 and s.draw_count == 1


# --- draw -----------------------------------------------------------------------------------------
def test_draw_raises_the_draw_count_once_and_replaces_majors():
    s = table(tops={0: ["The Fool", "The Tower", "Ace of Cups"]})
    play(s, (0, "draw"))
    assert s.draw_count == 1 and s.hand[0][cid("Ace of Cups")] == 1
    assert names(s.discard[0]) == ["0 The Fool", "XVI The Tower"]


def test_resources_offer_extra_draws_as_a_choice_with_one_draw_count():
    s = table(
        decks=["swords_pentacles", "wands_cups"],
        pawns={0: [("Three of Pentacles", 0), ("Four of Pentacles", 0)]},
    )
    before = s.hand_size[0]
    play(s, (0, "draw"))
    assert s.phase == RESOURCES_CHOICE and [legal(s, f"extra {k}") for k in range(4)] == [
        True,
        True,
        True,
        False,
    ]
    play(s, (0, "extra 2"))
    assert s.hand_size[0] == before + 3 and s.draw_count == 1 and s.current_player == 1


# --- challenge limits ---------------------------------------------------------------------------------
def test_who_may_challenge_and_what():
    s = table(
        pawns={
            0: [("Five of Wands", 2), ("Four of Wands", 0, [("Ten of Cups", 0), ("Ten of Cups", 1)])],
            1: [("Five of Swords", 0), ("Six of Swords", 1)],
        },
        decks=["wands_cups", "cups_swords"],
        pool=0,
    )
    assert s.infl[0][1] == 0
    assert not legal(s, "challenge 0"), "at capacity"
    assert not legal(s, "challenge 1"), "no influence"
    s2 = table(pawns={0: [("Five of Wands", 0)], 1: [("Five of Swords", 0), ("Six of Swords", 1)]}, pool=0)
    assert not legal(s2, "challenge 0"), "no Power within rank: Five of Swords is empty, Six outranks"
    s3 = table(pawns={0: [("Six of Wands", 0)], 1: [("Five of Swords", 0), ("Six of Swords", 1)]}, pool=1)
    play(s3, (0, "challenge 0"))
    assert s3.phase == CHALLENGE_TARGET and legal(s3, "pool") and legal(s3, "pawn 1 1")
    assert not legal(s3, "pawn 1 0")


def test_fate_fills_the_first_open_spaces_overflow_is_discarded_and_a_full_cross_forbids_challenging():
    s = table(
        pawns={0: [("Seven of Wands", 0)]}, pool=11, tops={0: ["Ace of Cups", "Two of Cups", "Three of Cups"]}
    )
    s.cross[0] = (
        [cid(n) for n in ("Four of Cups", "Five of Cups", "Six of Cups", "Seven of Cups")]
        + [-1, -1]
        + [
            cid("Eight of Cups"),
            -1,
        ]
    )
    for n in ("Four of Cups", "Five of Cups", "Six of Cups", "Seven of Cups", "Eight of Cups"):
        s.deck[0].remove(cid(n))
    play(s, (0, "challenge 0"), (0, "done"))
    assert cross_names(s, 0)[4:] == ["Ace of Cups", "Two of Cups", "Eight of Cups", "Three of Cups"]
    assert min(s.cross[0]) >= 0
    play(s, (1, "draw"))
    assert not legal(s, "challenge 0"), "a full Mystick Cross forbids challenging"
    s2 = table(
        pawns={0: [("Seven of Wands", 0)]}, pool=11, tops={0: ["Ace of Cups", "Two of Cups", "Three of Cups"]}
    )
    s2.cross[0] = [
        cid(n)
        for n in (
            "Four of Cups",
            "Five of Cups",
            "Six of Cups",
            "Seven of Cups",
            "Eight of Cups",
            "Nine of Cups",
            "Ten of Cups",
        )
    ] + [-1]
    for n in (
        "Four of Cups",
        "Five of Cups",
        "Six of Cups",
        "Seven of Cups",
        "Eight of Cups",
        "Nine of Cups",
        "Ten of Cups",
    ):
        s2.deck[0].remove(cid(n))
    play(s2, (0, "challenge 0"), (0, "done"))
    assert cross_names(s2, 0)[7] == "Ace of Cups"
    assert names(s2.discard[0])[-2:] == ["Two of Cups", "Three of Cups"], "overflow goes to the discard pile"


def test_redraw_marks_any_subset_once_and_refills():
    s = table(
        pawns={0: [("Seven of Wands", 0)]},
        pool=11,
        tops={0: ["Ace of Cups", "Ace of Wands", "Two of Cups", "Two of Wands", "Three of Wands"]},
    )
    play(s, (0, "challenge 0"), (0, "mark 1"))
    assert not legal(s, "mark 1") and legal(s, "mark 3") and not legal(s, "mark 4")
    play(s, (0, "mark 3"), (0, "done"))
    assert cross_names(s, 0)[:3] == ["Two of Wands", "Ace of Wands", "Three of Wands"]
    assert s.last_challenge == (3, 3, False) and s.phase == MOVE


# --- end of round and game ------------------------------------------------------------------------
def test_round_end_bonus_presence_doubles_power_removed_cross_cleared_draw_count_reset():
    s = table(
        pawns={0: [("Five of Cups", 2), ("Four of Wands", 1)], 1: [("Five of Swords", 2)]},
        draw_count=2,
        pool=4,
        scores=[3, 1],
    )
    s.cross[1][0] = cid("Ace of Swords")
    s.deck[1].remove(cid("Ace of Swords"))
    play(s, (0, "draw"))
    assert s.score == [3 + 2 * 2 + 1, 1 + 2]
    assert s.power == [[0] * 10, [0] * 10] and s.power_removed == 5 and s.pool == 4
    assert max(s.cross[1]) < 0 and "Ace of Swords" in names(s.discard[1])
    assert s.draw_count == 0 and s.round == 2 and not s.is_terminal


def test_a_plain_third_draw_ends_the_round_before_the_next_player_moves():
    s = table(pawns={1: [("Five of Swords", 1)]}, draw_count=2, pool=5,
              tops={0: ["Ace of Cups"], 1: ["Two of Swords"]})  # fmt: skip
    play(s, (0, "draw"))
    assert s.round == 2 and s.draw_count == 0 and s.score == [0, 1]  # player_1's bonus point
    assert s.hand[0][cid("Ace of Cups")] == 1 and s.initiative_cards[1] == cid("Two of Swords")


def test_a_third_draw_keeps_its_resources_extras_then_ends_the_round():
    # The Draw Count counts draw moves, extras included (I-2): the extras are part of the move.
    s = table(decks=["swords_pentacles", "wands_cups"], pawns={0: [("Three of Pentacles", 0)]}, draw_count=2)
    before = s.hand_size[0]
    play(s, (0, "draw"))
    assert s.phase == RESOURCES_CHOICE and s.round == 1
    play(s, (0, "extra 1"))
    assert s.round == 2 and s.hand_size[0] == before + 2 + 1  # + the initiative card


def test_wheel_of_fortune_ends_the_round_at_once_the_emperor_after_it_never_resolves():
    # Wheel of Fortune (space 1) brings the Draw Count to 3: the round ends immediately, so The
    # Emperor (space 2) does not lower it again and the challenge transfers nothing.
    s = table(decks=["wands_cups", "swords_pentacles"], pawns={0: [("Five of Wands", 0)]}, pool=11,
              draw_count=2, tops={0: ["Wheel of Fortune", "The Emperor", "Four of Wands"]})  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.round == 2 and s.draw_count == 0
    assert s.score == [0, 0] and s.pool == 11 and s.last_challenge is None
    assert {cid("Wheel of Fortune"), cid("The Emperor")} <= set(s.discard[0])


def test_parry_ends_the_round_on_the_declaration_before_the_fate_draw():
    # Parry raises the Draw Count to 3 when its Pawn is challenged: the Fate Draw never happens, so
    # The Emperor on top of the deck is not drawn as Fate (it is met at the next initiative draw).
    s = table(decks=["wands_cups", "swords_pentacles"], pool=3, draw_count=2,
              pawns={0: [("Seven of Wands", 0)], 1: [("Five of Swords", 2, [("Nine of Swords", 1)])]},
              tops={0: ["The Emperor", "Four of Wands", "Five of Wands"], 1: ["Two of Swords"]})  # fmt: skip
    play(s, (0, "challenge 0"), (0, "pawn 1 0"))
    assert s.round == 2 and s.draw_count == 0 and s.phase == MOVE
    assert s.score == [0, 2]  # no transfer; player_1's two Power scored as bonus points
    assert s.discard[0] == [cid("The Emperor")] and s.initiative_cards[0] == cid("Four of Wands")
    assert s.last_challenge is None


def test_empty_pool_at_round_end_ends_the_game_highest_score_wins():
    s = table(pawns={0: [("Five of Cups", 1)]}, draw_count=2, pool=0, scores=[3, 5])
    play(s, (0, "draw"))
    assert s.is_terminal and s.score == [5, 5]
    # Tied on score: more cards left in the deck wins.
    deck0, deck1 = len(s.deck[0]), len(s.deck[1])
    assert deck0 < deck1 and s.winners() == [1] and s.returns().tolist() == [-1.0, 1.0]


def test_scores_stay_tied_and_draw_when_decks_match():
    s = table(
        draw_count=2, pool=0, scores=[4, 4], mover=1, deck_sizes={0: 20, 1: 21}, tops={1: ["Ace of Swords"]}
    )
    play(s, (1, "draw"))  # player_1 draws one: both decks hold 20 cards
    assert s.is_terminal and s.returns().tolist() == [0.0, 0.0] and s.winners() == [0, 1]


# --- elimination ----------------------------------------------------------------------------------
def test_elimination_two_players_the_other_wins_at_once():
    s = table(deck_sizes={0: 1}, scores=[9, 0])
    play(s, (0, "draw"))
    assert s.is_terminal and not s.alive[0] and s.winners() == [1] and s.returns().tolist() == [-1.0, 1.0]


def test_elimination_three_players_fixed_reward_cards_leave_play_others_play_on():
    s = table(
        n=3,
        decks=["wands_cups", "swords_pentacles", "wands_swords"],
        deck_sizes={1: 1},
        mover=1,
        pool=10,
        pawns={1: [("Five of Swords", 2, [("Nine of Wands", 0)])]},
    )
    play(s, (1, "draw"))
    assert not s.alive[1] and s.player_done(1) and not s.is_terminal
    assert s.returns().tolist() == [0.0, -1.0, 0.0]
    assert s.pawn[1][0] == -1 and s.pool == 12 and "Nine of Wands" in names(s.discard[0])
    assert s.current_player == 2
    s2 = table(
        n=3, decks=["wands_cups", "swords_pentacles", "wands_swords"], deck_sizes={1: 1, 2: 1}, mover=1
    )
    play(s2, (1, "draw"))
    play(s2, (2, "draw"))
    assert s2.is_terminal and s2.winners() == [0]
    assert s2.returns().tolist() == [1.0, -1.0, 0.0], "player_2 outlasted player_1"


def test_an_eliminated_players_power_returns_to_the_pool_and_reopens_an_empty_one():
    # I-15: its Pawns leave play with it, and the Q&A sends a Pawn's Power back to the pool when it
    # leaves play, so a pool emptied this round holds Power again at the round's end: no game over.
    s = table(
        n=3,
        decks=["wands_cups", "swords_pentacles", "wands_swords"],
        deck_sizes={1: 1},
        mover=1,
        pool=0,
        draw_count=1,
        pawns={0: [("Five of Wands", 1)], 1: [("Five of Swords", 2)]},
    )
    play(s, (1, "draw"))
    assert not s.alive[1] and s.pool == 2
    play(s, (2, "draw"))  # the third draw ends the round with 2 Power in the pool
    assert not s.is_terminal and s.round == 2 and s.pool == 2 and s.score[0] == 1


def test_apply_refuses_illegal_actions():
    s = table()
    with pytest.raises(IllegalActionError, match="phase 'move'"):
        s.apply(action(s, "pool"))
    assert s.phase == MOVE and not s.is_terminal and s.phase != GAME_OVER


def test_card_data_follows_the_rank_type_map_and_suit_traits():
    from mystic_envs.mystick_domination.cards import ACTION, ATTACHMENT, ENVIRONMENT, MAJOR, PAWN, SUIT_TRAIT

    for c in CARDS:
        if c.is_major:
            assert c.type == MAJOR and c.suit == -1
            continue
        expect = (
            ENVIRONMENT if c.rank <= 2 else PAWN if c.rank <= 7 else ATTACHMENT if c.rank <= 10 else ACTION
        )
        assert c.type == expect, c.name
        if c.type == PAWN:
            assert c.influence >= 1 and c.traits in (0, SUIT_TRAIT[c.suit]), c.name
    assert CARDS[cid("Five of Wands")].influence == 2
    assert Counter(SUIT[c] for c in range(NUM_CARDS)) == {0: 14, 1: 14, 2: 14, 3: 14, -1: 22}
