"""The Python side of the compiled twin (mystic_envs/tarot_dice/twin.py): its tables come from the
data modules, and the privileged view's reference holds every hidden card exactly once. The twin
itself is compared with the engine step for step in tests/core (it needs the built core)."""

from __future__ import annotations

import numpy as np

from mystic_envs.tarot_dice import twin
from mystic_envs.tarot_dice.cards import DECK_SIZE, WELLS
from mystic_envs.tarot_dice.observation import OBS_SIZE
from mystic_envs.tarot_dice.rules import TarotDiceGame


def test_options_and_tables_come_from_the_game_and_its_data():
    assert twin.core_options(TarotDiceGame(num_rounds=3, round_turn_limit=12)) == (3, 12)
    tables = twin.core_tables()
    assert tables["size"] == [4, 6, 8, 10, 12, 20] * 2 + [12, 12]
    assert tables["rank_values"][0] == (1 << 1) | (1 << 11)  # the Ace: 1 or 11
    assert tables["obs_at"][0] == 0 and tables["obs_at"][-1] == OBS_SIZE
    assert len(tables["consts"]) == len(twin.CONSTS)
    assert all(isinstance(v, int) for values in tables.values() for v in values)


def test_the_privileged_view_holds_each_hidden_card_once():
    game = TarotDiceGame()
    layout = twin.privileged_layout(game)
    rng = np.random.default_rng(0)
    for seed in range(20):
        s = game.new_initial_state(seed)
        for _ in range(int(rng.integers(0, 80))):
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])
        view = twin.privileged_observation(s)
        assert view.dtype == np.float32 and view.shape == (layout[-1].stop,)
        assert np.array_equal(view[:OBS_SIZE], s.observation(0))
        assert np.array_equal(view[OBS_SIZE : 2 * OBS_SIZE], s.observation(1))
        at = {e.name: e.slice for e in layout}
        places = ("hand", *(f"under_well_{k + 1}" for k in range(WELLS)), "undealt")
        for p in (0, 1):
            parts = [view[at[f"{name}_{p}"]] for name in places]
            counts = np.sum(parts, axis=0)
            assert counts.max() <= 1.0, "a card in two hidden places"
            hidden = len(s.hand[p]) + s.hidden_well[p].bit_count() + len(s.unused[p])
            assert counts.sum() == hidden
            assert sorted(np.flatnonzero(parts[0])) == sorted(c % DECK_SIZE for c in s.hand[p])
