"""The cases of the core's tests: every game with a compiled twin, each variant, each player count."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest

import mystic_envs
from mystic_envs.core import compiled


class SeatDecks(list):
    """A ``decks=`` list of one deck per seat, named ``label`` in case ids and golden file names
    (the lists themselves are too long for either); ``at(n)`` is the first n seats'."""

    def __init__(self, label: str, decks: Iterable[list[str]]) -> None:
        super().__init__(decks)
        self.label = label

    def __str__(self) -> str:
        return self.label

    def at(self, n: int) -> SeatDecks:
        return SeatDecks(self.label, self[:n])


def _deck(suits: tuple[str, str], ranks: dict[str, int], majors: dict[str, int]) -> list[str]:
    """A deck list by name: ``ranks`` copies of each rank in both suits, ``majors`` copies of each."""
    minors = [f"{rank} of {suit}" for suit in suits for rank, k in ranks.items() for _ in range(k)]
    return minors + [name for name, k in majors.items() for _ in range(k)]


#: Advanced decks listed with copies (up to 3 of a card), one per seat, each filling what copies can
#: crowd: the first holds 12 Environments (its seat's room in the twin), the second 22 Actions, the
#: third 28 Pawns (the ten Pawn spaces fill), the fourth 18 Attachments (its seat's room), the fifth
#: few copies; Majors come in threes. The seats of an n-player case hold the first n.
COPIES = SeatDecks(
    "copies",
    [
        _deck(
            ("Wands", "Cups"),
            {"Ace": 3, "Two": 3, "Three": 3, "Eight": 3, "Nine": 2},
            {"Death": 3, "The Tower": 3, "Wheel of Fortune": 3, "The Fool": 1, "The World": 1},
        ),
        _deck(
            ("Swords", "Pentacles"),
            {"Seven": 3, "Page": 3, "Knight": 3, "King": 3, "Queen": 2},
            {"The Magician": 3, "The Empress": 3, "Justice": 2, "The Star": 1, "The Moon": 1, "The Sun": 1},
        ),
        _deck(
            ("Cups", "Swords"),
            {"Seven": 3, "Six": 3, "Five": 3, "Four": 3, "Three": 2},
            {"The Hermit": 3, "Strength": 3, "The Chariot": 3, "The Lovers": 1, "Judgement": 1},
        ),
        _deck(
            ("Wands", "Pentacles"),
            {"Eight": 3, "Nine": 3, "Ten": 3, "Four": 3, "Five": 2},
            {
                "The Devil": 3,
                "The Hanged Man": 3,
                "Temperance": 3,
                "The High Priestess": 1,
                "The Hierophant": 1,
            },
        ),
        _deck(
            ("Cups", "Pentacles"),
            {"Ace": 2, "Two": 1, "Three": 1, "Four": 1, "Five": 2, "Six": 1, "Seven": 1, "Eight": 1}
            | {"Nine": 1, "Ten": 1, "Page": 1, "Knight": 1},
            {"The Emperor": 3, "The Fool": 3, "The World": 2, "The Moon": 1, "The Star": 1, "The Sun": 1},
        ),
    ],
)

#: The configurations beside the default that change what the twin runs: the rule variants and
#: options of each game (a shorter Tarot Dice match reaches its round limit and match end sooner).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "mystria_v0": [{}, {"variant": "intro"}],
    "tarot_dice_v0": [{}, {"num_rounds": 1, "round_turn_limit": 12}, {"num_rounds": 3}],
    # Random decks (at 2 players the opponent's deck list is public), a preset (every deck list
    # hidden) re-dealt under the advanced rules' copies, opening Majors shuffled back, and advanced
    # decks listed with copies.
    "mystick_domination_v0": [
        {},
        {"decks": "wands_cups", "construction": "advanced"},
        {"reshuffle_opening_majors": True},
        {"decks": COPIES, "construction": "advanced"},
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


def cases() -> list[tuple[str, dict[str, Any], int]]:
    """Every (env id, configuration, player count) of a twin; per-seat lists cut to the count."""
    return [
        (env_id, {k: v.at(n) if isinstance(v, SeatDecks) else v for k, v in kwargs.items()}, n)
        for env_id in twin_env_ids()
        for kwargs in VARIANTS.get(env_id, [{}])
        for n in mystic_envs.player_counts(env_id)
    ]


CASES = [pytest.param(*case, id=case_id(*case)) for case in cases()]


def require_core() -> None:
    """Skip without the core, except under CI=true, where a missing core fails (CONVENTIONS 8)."""
    if compiled.is_available():
        return
    if os.environ.get("CI") == "true":
        pytest.fail(compiled.HOW_TO_BUILD)
    pytest.skip(compiled.HOW_TO_BUILD)
