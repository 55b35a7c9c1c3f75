"""The Python side of the compiled twin (mystic_envs/elemystic/twin.py): its tables come from the data
modules, the privileged view's reference holds the three hidden elements, and the C file refuses tables
that are not the ones it was written for. The twin itself is compared with the engine step for step in
tests/core (it needs the built core)."""

from __future__ import annotations

import numpy as np
import pytest

from mystic_envs.core import compiled
from mystic_envs.elemystic import twin
from mystic_envs.elemystic.cards import ELEMENT_NAMES, NUM_ELEMENTS, SHADOW, SPEED
from mystic_envs.elemystic.observation import OBS_SIZE
from mystic_envs.elemystic.rules import PLAY_FRONT, ElemysticGame
from tests.core.cases import require_core


def test_options_and_tables_come_from_the_game_and_its_data():
    assert twin.core_options(ElemysticGame()) == ()
    tables = twin.core_tables()
    assert tables["speed"] == list(SPEED)
    assert tables["ability"][SHADOW] == twin.ABILITIES.index("Shadow")
    # Every element but Earth carries its own ability; Earth has none.
    assert sorted(tables["ability"]) == list(range(NUM_ELEMENTS))
    assert [twin.ABILITIES[c] for c in tables["ability"]] == ["none", *ELEMENT_NAMES[1:]]
    assert tables["obs_start"][0] == 0 and tables["obs_size"][-1] == OBS_SIZE
    assert sum(tables["obs_size"][:-1]) == OBS_SIZE
    assert len(tables["rules"]) == len(twin.RULES) and len(tables["ids"]) == len(twin.IDS)
    assert all(type(v) is int for values in tables.values() for v in values)


def test_the_privileged_view_holds_the_unknown_element_and_both_secrets():
    game = ElemysticGame()
    layout = twin.privileged_layout(game)
    at = {e.name: e.slice for e in layout}
    assert layout[-1].stop == 2 * OBS_SIZE + 3 * NUM_ELEMENTS
    rng = np.random.default_rng(0)
    for seed in range(30):
        s = game.new_initial_state(seed)
        for _ in range(int(rng.integers(0, 40))):
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])
        view = twin.privileged_observation(s)
        assert view.dtype == np.float32 and view.shape == (layout[-1].stop,)
        assert np.array_equal(view[at["observation_0"]], s.observation(0))
        assert np.array_equal(view[at["observation_1"]], s.observation(1))
        hidden = [int(np.flatnonzero(view[at[name]])[0]) for name in ("unknown", "secret_0", "secret_1")]
        assert hidden == [s.unknown, *s.secret]
        assert view[2 * OBS_SIZE :].sum() == 3


def test_the_c_file_refuses_tables_it_was_not_written_for():
    require_core()
    core = compiled.core_module()
    assert twin.CORE_NAME in core.games(), "setup.py builds every twin in a game's room"
    good = twin.core_tables()
    try:
        # An action renumbered on the Python side, a layout part resized: the C side says so.
        ids = list(good["ids"])
        ids[[name for name, _ in twin.IDS].index("PLAY_FRONT")] = PLAY_FRONT + 1
        sizes = list(good["obs_size"])
        sizes[1] += 1
        for bad, message in (({"ids": ids}, "action, phase or size"), ({"obs_size": sizes}, "layout")):
            core.load_tables(twin.CORE_NAME, {**good, **bad})
            with pytest.raises(ValueError, match=message):
                core.dims(twin.CORE_NAME, 2, ())
        core.load_tables(twin.CORE_NAME, good)
        with pytest.raises(ValueError, match="exactly 2 players"):
            core.dims(twin.CORE_NAME, 3, ())
        with pytest.raises(ValueError, match="no options"):
            core.dims(twin.CORE_NAME, 2, (1,))
    finally:
        core.load_tables(twin.CORE_NAME, good)
    assert core.dims(twin.CORE_NAME, 2, ())["obs_size"] == OBS_SIZE
