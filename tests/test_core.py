"""Core helpers: action coercion, layouts, the registry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mystic_envs
from mystic_envs.core.aec import coerce_action
from mystic_envs.core.game import build_layout

N = 33


@given(st.integers(min_value=0, max_value=N - 1))
def test_every_in_range_integer_is_accepted_in_any_integer_type(a):
    assert coerce_action(a, N) == a
    assert coerce_action(np.int64(a), N) == a
    assert coerce_action(np.uint8(a), N) == a
    assert coerce_action(np.array(a), N) == a


@given(st.integers().filter(lambda a: not 0 <= a < N))
def test_out_of_range_integers_are_value_errors(a):
    with pytest.raises(ValueError, match="outside the action space"):
        coerce_action(a, N)


@given(st.one_of(st.floats(), st.text(), st.booleans(), st.none(), st.lists(st.integers(), min_size=2)))
def test_non_integers_are_type_errors(a):
    with pytest.raises(TypeError, match="action must be"):
        coerce_action(a if not isinstance(a, list) else np.array(a), N)


def test_layout_is_contiguous_and_rejects_bad_parts():
    layout = build_layout([("a", 2, ""), ("b", 3, "")])
    assert [(e.start, e.stop) for e in layout] == [(0, 2), (2, 5)]
    with pytest.raises(ValueError, match="size 0"):
        build_layout([("a", 0, "")])
    with pytest.raises(ValueError, match="duplicate"):
        build_layout([("a", 1, ""), ("a", 1, "")])


def test_env_ids_are_the_implemented_subset_of_the_collection():
    assert mystic_envs.ENV_IDS == (
        "elemystic_v0",
        "mystria_v0",
        "tarot_dice_v0",
        "mystick_domination_v0",
        "mystic_vale_v0",
    )
    assert mystic_envs.player_counts("elemystic_v0") == (2,)
    assert mystic_envs.player_counts("mystria_v0") == (2,)
    assert mystic_envs.player_counts("tarot_dice_v0") == (2,)
    assert mystic_envs.player_counts("mystick_domination_v0") == (2, 3, 4, 5)
    assert mystic_envs.player_counts("mystic_vale_v0") == (2, 3, 4)
    with pytest.raises(TypeError):
        mystic_envs.make(3)
