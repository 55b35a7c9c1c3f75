"""The cases of the core's tests: every game with a compiled twin, each variant, each player count."""

from __future__ import annotations

import os
from typing import Any

import pytest

import mystic_envs
from mystic_envs.core import compiled

#: The configurations beside the default that change what the twin runs: the rule variants and
#: options of each game (a shorter Tarot Dice match reaches its round limit and match end sooner).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "mystria_v0": [{}, {"variant": "intro"}],
    "tarot_dice_v0": [{}, {"num_rounds": 1, "round_turn_limit": 12}, {"num_rounds": 3}],
    # Random decks (at 2 players the opponent's deck list is public), a preset (every deck list
    # hidden) re-dealt under the advanced rules' copies, and opening Majors shuffled back.
    "mystick_domination_v0": [
        {},
        {"decks": "wands_cups", "construction": "advanced"},
        {"reshuffle_opening_majors": True},
    ],
}

#: Configurations where no seat holds anything another cannot see (Mystria's intro rules have no
#: Objective tiles): their privileged view's hidden block is empty of cards and no re-deal moves it.
NOTHING_HIDDEN: list[tuple[str, dict[str, Any]]] = [("mystria_v0", {"variant": "intro"})]


def twin_env_ids() -> list[str]:
    """Env ids whose game has a compiled twin in its room."""
    out = []
    for env_id in mystic_envs.ENV_IDS:
        env = mystic_envs.make_raw(env_id)
        try:
            compiled.twin_module(type(env.game))
        except compiled.CoreUnavailableError:
            continue
        out.append(env_id)
    return out


def case_id(env_id: str, kwargs: dict[str, Any], n: int) -> str:
    extra = "".join(f"-{k}={v}" for k, v in kwargs.items())
    return f"{env_id}{extra}-{n}p"


CASES = [
    pytest.param(env_id, kwargs, n, id=case_id(env_id, kwargs, n))
    for env_id in twin_env_ids()
    for kwargs in VARIANTS.get(env_id, [{}])
    for n in mystic_envs.player_counts(env_id)
]


def require_core() -> None:
    """Skip without the core, except under CI=true, where a missing core fails (CONVENTIONS 8)."""
    if compiled.is_available():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(compiled.HOW_TO_BUILD)
    pytest.skip(compiled.HOW_TO_BUILD)
