"""The engine's fast paths give what the plain definitions give.

The observation reuses the parts of the last one whose inputs did not change (``ValeState._memo``),
and the Harvest mask reads what its purchase checks share once. Both are checked here against
the slow way along random games at 2-4 players, and the observation also after a test moves or
sleeves cards behind the engine's back (the memo is keyed by content, so it must notice).
"""

from __future__ import annotations

import numpy as np
import pytest

from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.rules import ValeGame, ValeState
from tests.mystic_vale.script import BLANKS, craft, lay_out, new


def fresh_observation(s: ValeState, player: int) -> np.ndarray:
    """The observation built from nothing: the memo of a copy emptied first."""
    c = s.clone()
    c._memo = {}
    return c.observation(player)


def plain_harvest_legal(s: ValeState) -> list[int]:
    """The Harvest mask from the rule definitions, one option at a time."""
    out = [d.DONE]
    if s.conclave_targets():
        out.append(d.CONCLAVE)
    if len(s.bought) < s.buy_limit():
        out += [d.BUY_COMMONS + k for k, a in enumerate(s.commons) if a >= 0 and s._buy_options(a)]
        out += [d.BUY_FERTILE + k for k in range(3) if s.fertile[k] > 0 and s._buy_options(d.FERTILE_SOIL[k])]
    if len(s.bought_vales) < 2:
        out += [d.BUY_VALE + k for k, v in enumerate(s.vale_up) if v >= 0 and s.can_buy_vale(v)]
    if s.sunstone_left() and s.affordable(s.sunstone_price()):
        out += [d.SUNSTONE + k for k in range(3) if s.spirits_now()[k] > 0]
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_memoized_observations_and_the_harvest_mask_match_the_plain_ones(n):
    harvests = 0
    for seed in range(2 if n == 2 else 1):
        s = ValeGame(n).new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while True:
            for p in range(n):
                assert np.array_equal(s.observation(p), fresh_observation(s, p)), (
                    f"seat {p} in {s.phase_name}"
                )
            if s.is_terminal:
                break
            if s.phase == d.HARVEST:
                harvests += 1
                assert s.legal_actions() == plain_harvest_legal(s)
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
    assert harvests > 20


def test_the_observation_follows_cards_moved_and_sleeved_outside_the_engine():
    s = new(2, seed=3)
    seen = [s.observation(0), s.observation(1)]
    # A field card swapped with a deck card: every pile keeps its size.
    f, k = 0, len(s.deck[0]) - 1
    s.field[0][f], s.deck[0][k] = s.deck[0][k], s.field[0][f]
    for p in (0, 1):
        now = s.observation(p)
        assert np.array_equal(now, fresh_observation(s, p)) and not np.array_equal(now, seen[p])
    craft(s, 1, BLANKS[0], "Stag")  # another seat's card: its block was memoized
    assert np.array_equal(s.observation(0), fresh_observation(s, 0))
    lay_out(s, 0, field=[BLANKS[1], BLANKS[2]], on_deck=BLANKS[3], deck=[BLANKS[4]])
    assert np.array_equal(s.observation(0), fresh_observation(s, 0))
    assert np.array_equal(s.observation(1), fresh_observation(s, 1))


def test_copies_and_pickles_observe_like_the_original():
    import pickle

    s = new(3, seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])
        s.observation(s.current_player)
    for c in (s.clone(), pickle.loads(pickle.dumps(s)), s.determinize(s.current_player, rng)):
        for p in range(3):
            assert np.array_equal(c.observation(p), fresh_observation(c, p))
    for p in range(3):
        assert np.array_equal(s.clone().observation(p), s.observation(p))
