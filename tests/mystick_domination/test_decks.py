"""D-4's ten Pawn spaces: the rulebook sets no limit on Pawns in play; ours is ten a player, which a
basic deck (exactly ten Pawns) never reaches past and only an advanced deck with more can meet."""

from __future__ import annotations

import numpy as np
import pytest

from agents.heuristic.mystick_domination import decide
from mystic_envs.mystick_domination.cards import CARDS, MAX_PAWNS, PAWN
from mystic_envs.mystick_domination.decks import PRESETS, validate_deck
from mystic_envs.mystick_domination.rules import MystickGame

from .script import cid, legal, play, table

MAJORS = ["The Fool", "The High Priestess", "The Emperor", "The Lovers", "Strength", "Wheel of Fortune",
          "The Hanged Man", "Temperance", "The Tower", "The Moon", "Judgement"]  # fmt: skip
# An advanced deck of 28 Pawns: three copies of each Pawn rank 4-7 and two of the Three, in two suits.
PAWN_HEAVY = [
    f"{rank} of {suit}"
    for suit in ("Wands", "Cups")
    for rank, copies in (("Seven", 3), ("Six", 3), ("Five", 3), ("Four", 3), ("Three", 2))
    for _ in range(copies)
] + MAJORS


def test_a_basic_deck_holds_exactly_ten_pawns():
    for name, deck in PRESETS.items():
        assert sum(CARDS[c].type == PAWN for c in deck) == MAX_PAWNS == 10, name


def test_an_advanced_deck_may_hold_28_pawns():
    validate_deck([cid(c) for c in PAWN_HEAVY], "advanced", "deck of player_0")
    with pytest.raises(ValueError, match="basic decks allow no duplicates"):
        validate_deck([cid(c) for c in PAWN_HEAVY], "basic", "deck of player_0")


def test_an_eleventh_pawn_waits_in_hand_until_a_space_opens():
    ten = [(name, 0) for name in PAWN_HEAVY[:10]]  # Sevens, Sixes, Fives and a Four of Wands
    s = table(
        decks=[PAWN_HEAVY, "wands_swords"],
        construction="advanced",
        hands={0: ["Three of Cups"], 1: ["King of Wands"]},
        pawns={0: ten},
    )
    assert not legal(s, "play Three of Cups")  # ten Pawns in play: no eleventh
    play(s, (0, "draw"), (1, "play King of Wands"), (1, "pawn 0 3"))  # Immolate frees a space
    assert sum(c >= 0 for c in s.pawn[0]) == MAX_PAWNS - 1
    play(s, (0, "play Three of Cups"))
    assert sum(c >= 0 for c in s.pawn[0]) == MAX_PAWNS and cid("Three of Cups") in s.pawn[0]


def test_pawn_heavy_decks_fill_the_ten_spaces_and_never_pass_them():
    other = [
        f"{rank} of {suit}"
        for suit in ("Swords", "Pentacles")
        for rank, copies in (("Seven", 3), ("Six", 3), ("Five", 3), ("Four", 3), ("Three", 2))
        for _ in range(copies)
    ] + [c.name for c in CARDS if c.is_major and c.number % 2]  # the 11 odd Majors
    game = MystickGame(decks=[PAWN_HEAVY, other], construction="advanced")
    rng = np.random.default_rng(0)
    full = 0
    for seed in range(20):
        s = game.new_initial_state(seed)
        peak = 0
        while not s.is_terminal:
            p = s.current_player
            peak = max(peak, *(sum(c >= 0 for c in s.pawn[q]) for q in range(2)))
            s.apply(decide(s.determinize(p, rng), p))
        assert peak <= MAX_PAWNS
        full += peak == MAX_PAWNS
    assert full >= 15, f"a play area filled in only {full} of 20 games"
