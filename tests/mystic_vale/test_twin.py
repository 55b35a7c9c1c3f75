"""The Python side of the compiled twin (mystic_envs/mystic_vale/twin.py): its tables come from the
card data, the privileged view's reference holds every deck order and face-down pile, and the C file
refuses tables that are not the ones it was written for. The twin itself is compared with the engine
step for step in tests/core (it needs the built core)."""

from __future__ import annotations

import numpy as np
import pytest

from mystic_envs.core import compiled
from mystic_envs.mystic_vale import twin
from mystic_envs.mystic_vale.cards import ADVANCEMENTS, COMMONS_IDS, VALES, VP_POOL
from mystic_envs.mystic_vale.decisions import SUNSTONE
from mystic_envs.mystic_vale.rules import ValeGame
from mystic_envs.mystic_vale.sleeves import START_PRINTED, VALE_SACRIFICE
from tests.core.cases import require_core
from tests.gameplay import play_random


def test_options_and_tables_come_from_the_card_data():
    assert twin.core_options(ValeGame(3)) == ()
    tables = twin.core_tables()
    assert all(type(v) is int for values in tables.values() for v in values)
    adv = np.array(tables["adv"]).reshape(twin.MAX_ADV, twin.ADV_WIDTH)
    for a in ADVANCEMENTS:  # kind, level, copies, cost, slot, band, symbols, VP: each card's own numbers
        assert list(adv[a.id, :16]) == [a.kind, a.level, a.copies, a.cost, a.slot, int(a.band), *a.symbols,
                                        a.harvest_vp, a.end_vp]  # fmt: skip
        assert adv[a.id, 16] == a.ability.trigger and adv[a.id, 18] == len(a.ability.effects)
    assert not adv[len(ADVANCEMENTS) :].any()
    vale = np.array(tables["vale"]).reshape(twin.MAX_VALES, twin.VALE_WIDTH)
    for v in VALES:
        assert list(vale[v.id, :7]) == [v.level, v.copies, *v.cost, v.end_vp]
        assert vale[v.id, 10] == VALE_SACRIFICE[v.id]
    assert tables["start_printed"] == list(START_PRINTED)
    assert [tables["commons_index"][a] for a in COMMONS_IDS] == list(range(len(COMMONS_IDS)))
    consts = dict(zip([name for name, _ in twin.CONSTS], tables["consts"], strict=True))
    assert [consts[f"VP_POOL_{n}"] for n in (2, 3, 4)] == [VP_POOL[n] for n in (2, 3, 4)]
    width = twin.LAYOUT_PARTS + 1
    for k, n in enumerate((2, 3, 4)):
        starts = tables["obs_at"][k * width : (k + 1) * width]
        assert starts[0] == 0 and starts[-1] == ValeGame(n).observation_size


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_privileged_view_holds_every_deck_in_order_and_every_face_down_pile(n):
    game = ValeGame(n)
    layout = twin.privileged_layout(game)
    at = {e.name: e.slice for e in layout}
    rng = np.random.default_rng(n)
    for seed in range(10):
        s = play_random(game.new_initial_state(seed), rng, int(rng.integers(0, 150)))
        view = twin.privileged_observation(s)
        assert view.dtype == np.float32 and view.shape == (layout[-1].stop,)
        for p in range(n):
            assert np.array_equal(view[at[f"observation_{p}"]], s.observation(p))
            deck = view[at[f"deck_{p}"]].reshape(20, 20)
            assert [int(np.argmax(row)) for row in deck[: len(s.deck[p])]] == s.deck[p][::-1]
            assert not deck[len(s.deck[p]) :].any()
            assert sorted(np.flatnonzero(view[at[f"discard_{p}"]])) == sorted(s.discard[p])
        for lv in (1, 2, 3):
            pile = view[at[f"level_{lv}_deck"]].reshape(-1, len(COMMONS_IDS))
            top_first = [COMMONS_IDS[int(np.argmax(row))] for row in pile[: len(s.level_deck[lv - 1])]]
            assert top_first == s.level_deck[lv - 1][::-1] and pile.sum() == len(s.level_deck[lv - 1])
        assert view[at["level_1_box"]].sum() == len(s.l1_box)
        for lv in (1, 2):
            pile = view[at[f"vale_deck_{lv}"]].reshape(-1, len(VALES))
            top_first = [int(np.argmax(row)) for row in pile[: len(s.vale_deck[lv - 1])]]
            assert top_first == s.vale_deck[lv - 1][::-1]


def test_the_c_file_refuses_tables_it_was_not_written_for():
    require_core()
    core = compiled.core_module()
    assert twin.CORE_NAME in core.games(), "setup.py builds every twin in a game's room"
    good = twin.core_tables()
    names = [name for name, _ in twin.CONSTS]
    try:
        # An action renumbered on the Python side, and card data that outgrow the twin's room.
        renumbered = list(good["consts"])
        renumbered[names.index("A_SUNSTONE")] = SUNSTONE + 1
        outgrown = list(good["consts"])
        outgrown[names.index("NUM_ADV")] = twin.MAX_ADV + 1
        for bad, message in ((renumbered, "'consts' item"), (outgrown, "outgrow the room")):
            core.load_tables(twin.CORE_NAME, {**good, "consts": bad})
            with pytest.raises(ValueError, match=message):
                core.dims(twin.CORE_NAME, 2, ())
        core.load_tables(twin.CORE_NAME, good)
        with pytest.raises(ValueError, match="2-4 players"):
            core.dims(twin.CORE_NAME, 5, ())
        with pytest.raises(ValueError, match="no options"):
            core.dims(twin.CORE_NAME, 2, (1,))
    finally:
        core.load_tables(twin.CORE_NAME, good)
    assert core.dims(twin.CORE_NAME, 4, ())["obs_size"] == ValeGame(4).observation_size
