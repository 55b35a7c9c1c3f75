"""Every worked example of the rulebook and every answer of its Questions and Answers, as scripted
positions (``script.table``) and moves. player_0 plays Wands + Cups, player_1 Swords + Pentacles
unless a test says otherwise."""

from __future__ import annotations

from mystic_envs.mystick_domination.cards import IMMUNITY
from mystic_envs.mystick_domination.rules import MOVE, ORDER, REDRAW

from .script import cid, cross_names, hand_names, legal, names, play, table


# --- rulebook examples --------------------------------------------------------------------------
def test_five_of_wands_with_one_success_and_one_failure():
    """ "If the five of Wands has 2 influence and makes a challenge, and its Fate Draw produces the
    Knight of Wands and the four of Swords, that would be one success and one failure." (The four
    of Swords is in player_0's deck here: an advanced-free basic deck of Wands + Swords.)"""
    s = table(decks=["wands_swords", "cups_pentacles"], pawns={0: [("Five of Wands", 0)]},
              tops={0: ["Knight of Wands", "Four of Swords"]}, pool=11)  # fmt: skip
    assert s.infl[0][0] == 2
    play(s, (0, "challenge 0"), (0, "done"))
    assert cross_names(s, 0)[:2] == ["Knight of Wands", "Four of Swords"]
    assert s.last_challenge == (1, 1, False)
    assert s.power[0][0] == 1 and s.pool == 10 and s.score[0] == 1


def test_three_successes_against_a_pool_of_two_waste_one():
    s = table(
        pawns={0: [("Seven of Wands", 0)]},
        tops={0: ["Ace of Wands", "Two of Wands", "Three of Wands"]},
        pool=2,
    )
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge == (3, 2, False)
    assert s.pool == 0 and s.power[0][0] == 2 and s.score[0] == 2


def test_capacity_limits_a_transfer_from_a_pawn():
    """A Pawn with 2 influence and one Power gets two successes against another Pawn: one wasted."""
    s = table(pawns={0: [("Five of Wands", 1)], 1: [("Five of Swords", 2)]},
              tops={0: ["Ace of Wands", "Two of Wands"]}, pool=0)  # fmt: skip
    play(s, (0, "challenge 0"))  # the only target (the pool is empty): no choice to make
    play(s, (0, "done"))
    # Five of Swords has Immunity: 2 successes - 1 = 1, and the room is 1 anyway.
    assert s.power[0][0] == 2 and s.power[1][0] == 1 and s.score[0] == 1


def test_capacity_limits_a_transfer_from_a_pawn_without_immunity():
    s = table(pawns={0: [("Six of Wands", 1)], 1: [("Six of Swords", 2)]},
              tops={0: ["Ace of Wands", "Two of Wands"]}, pool=0)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    # Two successes, room for one: one Power moves; Aggression kills (2 >= influence 2) after it.
    assert s.last_challenge == (2, 1, True)
    assert s.power[0][0] == 2 and s.score[0] == 1
    assert s.pawn[1][0] == -1 and s.pool == 1  # the target's last Power returned to the pool


def test_rank_rule_six_of_pentacles():
    """The six of Pentacles could challenge the three of Pentacles or the six of Swords, but not
    the seven of Cups."""
    s = table(decks=["cups_pentacles", "swords_pentacles"],
              pawns={0: [("Six of Pentacles", 0)], 1: [("Three of Pentacles", 1), ("Six of Swords", 1)]},
              pool=0)  # fmt: skip
    s2 = table(n=3, decks=["cups_pentacles", "swords_pentacles", "wands_cups"],
               pawns={0: [("Six of Pentacles", 0)], 1: [("Three of Pentacles", 1), ("Six of Swords", 1)],
                      2: [("Seven of Cups", 1)]}, pool=0)  # fmt: skip
    play(s2, (0, "challenge 0"))
    assert legal(s2, "pawn 1 0") and legal(s2, "pawn 1 1") and not legal(s2, "pawn 2 0")
    assert not legal(s2, "pool")
    play(s, (0, "challenge 0"))
    assert legal(s, "pawn 1 0") and legal(s, "pawn 1 1")


# --- Questions and Answers ----------------------------------------------------------------------
def test_qa_two_copies_of_the_same_pawn_in_play():
    deck = (["Five of Wands"] * 3 + ["Three of Wands"] * 2 + [f"{r} of Wands" for r in (
        "Ace", "Two", "Four", "Six", "Seven", "Eight", "Nine", "Ten")] + ["Page of Wands"]
        + [f"{r} of Cups" for r in ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
                                     "Ten", "Page", "Knight", "Queen", "King")]
        + ["The Fool", "The Magician", "The High Priestess", "The Empress", "The Emperor", "The Hierophant",
           "The Lovers", "The Chariot", "Strength", "The Hermit", "Wheel of Fortune"])  # fmt: skip
    s = table(decks=[deck, "swords_pentacles"], construction="advanced", hands={0: ["Five of Wands"] * 2})
    play(s, (0, "play Five of Wands"), (1, "draw"), (0, "play Five of Wands"))
    assert names([c for c in s.pawn[0] if c >= 0]) == ["Five of Wands", "Five of Wands"]


def test_qa_you_means_the_player_who_played_the_card():
    """Ledger on an enemy Pawn: when that Pawn challenges, the Ledger's owner draws, not its
    controller."""
    s = table(decks=["swords_pentacles", "wands_swords"], mover=1, pool=5,
              pawns={1: [("Five of Swords", 0, [("Nine of Pentacles", 0)])]},
              tops={1: ["Ace of Wands", "Two of Wands"]})  # fmt: skip
    before = [s.hand_size[0], s.hand_size[1]]
    play(s, (1, "challenge 0"), (1, "done"))
    assert s.hand_size[0] == before[0] + 1 and s.hand_size[1] == before[1]


def test_qa_looking_at_the_last_card_of_a_deck_does_not_eliminate():
    s = table(hands={0: ["Page of Pentacles"]}, decks=["swords_pentacles", "wands_cups"], deck_sizes={1: 1})
    play(s, (0, "play Page of Pentacles"))  # Appraise: the only opponent is chosen without a decision
    assert s.alive[1] and len(s.deck[1]) == 1 and s.known_top[1] == 1
    assert s.phase == MOVE and s.current_player == 1


def test_qa_a_major_discarded_by_the_redraw_does_not_take_effect():
    s = table(decks=["cups_swords", "wands_pentacles"], pawns={0: [("Five of Cups", 0)]},
              tops={0: ["The Star", "Four of Swords", "Ace of Cups"]}, pool=11)  # fmt: skip
    play(s, (0, "challenge 0"))
    assert s.phase == REDRAW and cross_names(s, 0)[:2] == ["XVII The Star", "Four of Swords"]
    play(s, (0, "mark 1"), (0, "done"))
    # The Star went to the discard pile without scoring; the Ace of Cups replaced it.
    assert "XVII The Star" in names(s.discard[0]) and cross_names(s, 0)[:2] == [
        "Ace of Cups",
        "Four of Swords",
    ]
    assert s.score[0] == 1 and s.last_challenge == (1, 1, False)


def test_qa_a_major_kept_after_the_redraw_does_take_effect():
    s = table(decks=["cups_swords", "wands_pentacles"], pawns={0: [("Five of Cups", 0)]},
              tops={0: ["The Star", "Four of Swords", "Ace of Cups"]}, pool=11)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "mark 2"), (0, "done"))
    assert s.score[0] == 2 + 2  # The Star's 2 points and two successes transferred


def test_qa_score_never_goes_below_zero():
    s = table(decks=["wands_swords", "cups_pentacles"], hands={0: ["King of Wands"]},
              pawns={1: [("Five of Cups", 0)]}, scores=[1, 0])  # fmt: skip
    play(s, (0, "play King of Wands"))  # Immolate: discard a Pawn, lose 2 points
    assert s.score[0] == 0 and s.pawn[1][0] == -1


def test_qa_a_major_that_kills_the_target_leaves_nothing_to_transfer():
    s = table(decks=["cups_swords", "wands_swords"],
              pawns={0: [("Seven of Cups", 0)], 1: [("Five of Swords", 2)]},
              tops={0: ["Death", "Ace of Cups", "Two of Cups"]}, pool=0)  # fmt: skip
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.pawn[1][0] == -1 and s.pool == 2, "the target's Power returned to the pool"
    assert s.power[0][0] == 0 and s.score[0] == 0


def test_qa_excess_power_after_an_influence_drop_goes_to_the_pool():
    s = table(hands={0: ["Ten of Cups"]}, pawns={1: [("Five of Swords", 2)]}, pool=3)
    play(s, (0, "play Ten of Cups"))  # the only Pawn in play: attached without a decision
    assert s.infl[1][0] == 1 and s.power[1][0] == 1 and s.pool == 4


def test_qa_power_of_a_pawn_leaving_play_returns_to_the_pool():
    s = table(decks=["wands_swords", "cups_pentacles"], hands={0: ["King of Wands"]},
              pawns={1: [("Five of Cups", 2, [("Eight of Pentacles", 1)])]},
              pool=3, scores=[5, 0])  # fmt: skip
    play(s, (0, "play King of Wands"))
    assert (
        s.pool == 5 and "Eight of Pentacles" in names(s.discard[1]) and "Five of Cups" in names(s.discard[1])
    )


def test_qa_discard_piles_are_public():
    s = table(discards={1: ["Five of Swords", "Death"]})
    from mystic_envs.mystick_domination.observation import build_layout_for

    at = {e.name: e for e in build_layout_for(2)}["seat+1_discard"]
    obs = s.observation(0)
    assert obs[at.start + cid("Five of Swords")] > 0 and obs[at.start + cid("Death")] > 0


def test_qa_simultaneous_effects_the_mover_first_in_the_order_it_chooses_then_the_next_player():
    """Keen Edge and Ledger (the mover's) on the challenger, Parry (player_1's) on the target."""
    s = table(decks=["swords_pentacles", "wands_swords"], mover=0, pool=0,
              pawns={0: [("Seven of Pentacles", 0, [("Ten of Swords", 0), ("Nine of Pentacles", 0)])],
                     1: [("Five of Swords", 2, [("Nine of Swords", 1)])]},
              tops={0: ["Ace of Pentacles", "Two of Pentacles", "Three of Pentacles"]})  # fmt: skip
    order: list[tuple[int, str]] = []
    original = s.resolve_effect

    def recording(owner, eff, target):
        order.append((owner, eff.op))
        original(owner, eff, target)

    s.resolve_effect = recording
    play(s, (0, "challenge 0"))
    assert s.phase == ORDER and s.current_player == 0
    assert legal(s, "order Ten of Swords") and legal(s, "order Nine of Pentacles")
    play(s, (0, "order Nine of Pentacles"))
    assert s.phase == REDRAW
    from mystic_envs.mystick_domination.cards import DRAW, DRAW_COUNT, SUCCESS

    assert order == [(0, DRAW), (0, SUCCESS), (1, DRAW_COUNT)]
    play(s, (0, "done"))
    del s.resolve_effect


def test_qa_after_initiative_effects_winner_first_in_its_order_then_the_next_player():
    s = table(
        decks=["cups_swords", "wands_pentacles"],
        hands={0: ["King of Swords", "King of Cups"]},
        mover=0,
        tops={0: ["Two of Cups", "Nine of Cups"], 1: ["Ace of Wands", "Two of Wands", "Ace of Pentacles"]},
    )
    play(s, (0, "play King of Swords"), (1, "draw"), (0, "play King of Cups"), (1, "draw"))
    # The third draw ends the round. Nine of Cups (rank 9) beats the Ace of Pentacles: player_0 wins
    # the initiative and orders its two "after the next initiative draw" effects.
    play(s, (0, "draw"))
    assert s.round == 2 and s.initiative_winner == 0
    assert s.phase == ORDER and s.current_player == 0
    play(s, (0, "order King of Cups"))  # Tidal Curse first: floods player_1's cross with 3 cards
    assert sum(c >= 0 for c in s.cross[1]) == 3
    play(s, (0, "player 1"))  # then Seize the Day: player_0 chooses who moves first
    assert s.phase == MOVE and s.current_player == 1


def test_qa_immunity_is_not_doubled_by_an_attachment():
    s = table(decks=["wands_cups", "swords_pentacles"], pool=0,
              pawns={0: [("Seven of Wands", 0)], 1: [("Four of Swords", 1, [("Eight of Swords", 1)])]},
              tops={0: ["Ace of Wands", "Two of Wands", "Three of Wands"]})  # fmt: skip
    assert s.traits[1][0] & IMMUNITY
    play(s, (0, "challenge 0"), (0, "done"))
    assert s.last_challenge[0] == 2  # 3 successes, one cancelled (not two)


def test_hand_names_helper_sorts():
    s = table(hands={0: ["Two of Wands", "Ace of Wands"]})
    assert hand_names(s, 0) == ["Ace of Wands", "Two of Wands"]
