"""What each seat may see (docs/rules/tarot_dice.md, I-4 and I-5): hidden hand cards (every Minor in
a hand, The Magician's included) reach only their owner, face-down well cards nobody; graveyards,
well tops, the sacrificed card, and Strength and Death in a hand are public. ``determinize``
re-deals exactly the rest."""

from __future__ import annotations

import numpy as np

from mystic_envs.tarot_dice.rules import TarotDiceGame


def midgame_states(count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    game = TarotDiceGame()
    for g in range(count):
        s = game.new_initial_state(g)
        for _ in range(int(rng.integers(6, 120))):
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
        if not s.is_terminal:
            yield s


def swap(s, a: int, b: int):
    """A copy where cards ``a`` and ``b`` (of one deck) trade places, wherever they are."""
    c = s.clone()
    for p in (0, 1):
        for pile in [c.hand[p], c.unused[p], c.graveyard[p], *c.wells[p]]:
            for i, card in enumerate(pile):
                if card in (a, b):
                    pile[i] = b if card == a else a
        c.hand[p].sort()
        c.unused[p].sort()
    c.changed()
    c.check_invariants()
    return c


def test_a_hidden_hand_card_is_seen_by_its_owner_only():
    checked = 0
    for s in midgame_states(60):
        for p in (0, 1):
            secret = s.hand[p]
            if not secret or not s.unused[p]:
                continue
            other = swap(s, secret[0], s.unused[p][0])
            np.testing.assert_array_equal(other.observation(1 - p), s.observation(1 - p))
            assert not np.array_equal(other.observation(p), s.observation(p))
            assert other.describe(1 - p) == s.describe(1 - p) and other.describe() == s.describe()
            assert other.describe(p) != s.describe(p)
            checked += 1
    assert checked > 20


def test_a_face_down_well_card_is_seen_by_nobody():
    checked = 0
    for s in midgame_states(60, seed=1):
        for p in (0, 1):
            bottoms = [s.wells[p][k][0] for k in range(3) if s.hidden_well[p] >> k & 1]
            if not bottoms or not s.unused[p]:
                continue
            other = swap(s, bottoms[0], s.unused[p][0])
            for q in (0, 1):
                np.testing.assert_array_equal(other.observation(q), s.observation(q))
                assert other.describe(q) == s.describe(q)
            checked += 1
    assert checked > 20


def test_the_magicians_well_top_is_a_hidden_card_in_the_hand():
    """The Magician's text: "two additional hidden cards". The top the opponent saw face up in the
    well is hidden once in the hand: the opponent's view does not change when it trades places with
    an undealt card, and the opponent's determinize re-deals it (before, it stayed public)."""
    checked = 0
    for g in range(300):
        s = TarotDiceGame().new_initial_state(g)
        rng = np.random.default_rng(g)
        while s.phase_name in ("draft", "devil_well"):
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
        if s.phase_name != "magician_well":
            continue
        p = s.current_player
        top = s.wells[p][0][-1]
        s.apply(s.legal_actions()[0])  # well 1 to the hand
        assert top in s.hand[p]
        other = swap(s, top, s.unused[p][0])
        np.testing.assert_array_equal(other.observation(1 - p), s.observation(1 - p))
        assert other.describe(1 - p) == s.describe(1 - p)
        redealt = [s.determinize(1 - p, np.random.default_rng(k)).hand[p] for k in range(8)]
        assert any(top not in hand for hand in redealt)
        checked += 1
    assert checked >= 10, checked


def test_determinize_redeals_face_down_cards_even_the_players_own():
    moved = {"own bottoms": 0, "opponent hand": 0}
    for s in midgame_states(40, seed=3):
        p = s.current_player
        for k in range(6):
            d = s.determinize(p, np.random.default_rng(k))
            d.check_invariants()
            assert d.hand[p] == s.hand[p]  # the player's own hand is known to it
            for q in (0, 1):
                assert d.graveyard[q] == s.graveyard[q] and d.sacrificed[q] == s.sacrificed[q]
                for w, v in zip(d.wells[q], s.wells[q], strict=True):
                    assert w[1:] == v[1:]  # everything but a face-down bottom is public
            if any(d.wells[p][k][:1] != s.wells[p][k][:1] for k in range(3)):
                moved["own bottoms"] += 1
            if d.hand[1 - p] != s.hand[1 - p]:
                moved["opponent hand"] += 1
    assert min(moved.values()) > 10, moved
