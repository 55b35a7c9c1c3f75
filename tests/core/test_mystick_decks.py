"""Mystick Domination's deck options on the compiled twin: a listed deck travels as one integer
(its two suits and 11 Majors) and plays the Python engine's games; an advanced deck holding copies
of a card does not fit that integer and is refused in one line naming the Python engine. The
twin's ids (opcodes, targets, phases) are checked against cards.py's, so a renumbering stops it."""

from __future__ import annotations

import pytest

from mystic_envs import vector
from mystic_envs.core import compiled
from mystic_envs.mystick_domination import twin
from mystic_envs.mystick_domination.cards import CARD_NAMES
from mystic_envs.mystick_domination.decks import PRESETS
from mystic_envs.mystick_domination.rules import MystickGame
from tests.core.cases import require_core
from tests.core.test_exact import check_batch_against_envs

LISTED = [CARD_NAMES[c] for c in reversed(PRESETS["cups_pentacles"])]  # names, in no sorted order


def test_a_listed_deck_is_the_preset_it_lists() -> None:
    listed = MystickGame(num_players=3, decks=[LISTED, "random", "cups_pentacles"])
    options = twin.core_options(listed)
    assert options[2] == options[4] != twin.RANDOM_DECK
    assert options[3] == twin.RANDOM_DECK


def test_listed_decks_play_the_python_engines_games() -> None:
    require_core()
    counts = check_batch_against_envs(
        "mystick_domination_v0", {"decks": [LISTED, "random", "wands_swords"]}, 3, 3_000, num_envs=4
    )
    assert counts["ends"] >= 1


def test_an_advanced_deck_with_copies_is_refused_in_one_line() -> None:
    require_core()
    deck = list(PRESETS["wands_cups"])
    deck[0] = deck[1]  # two Twos of Wands, no Ace: legal under the advanced rules
    MystickGame(decks=[deck, "random"], construction="advanced")  # the Python engine plays it
    with pytest.raises(ValueError, match=r"^the compiled core plays decks without duplicates.*Python engine"):
        vector.make("mystick_domination_v0", num_envs=1, decks=[deck, "random"], construction="advanced")


def test_a_renumbered_id_stops_the_twin_in_one_line() -> None:
    require_core()
    core = compiled.core_module()
    game = compiled.CoreGame(MystickGame())
    declared = twin.core_tables()
    consts = list(declared["consts"])
    k = [name for name, _ in twin.CONSTS].index("KILL")
    consts[k] += 1  # as if cards.py had renumbered its opcodes
    core.load_tables(twin.CORE_NAME, {**declared, "consts": consts})
    try:
        with pytest.raises(ValueError, match=rf"^mystick_domination: table 'consts' item {k} is"):
            core.dims(twin.CORE_NAME, 2, game.options)
    finally:
        core.load_tables(twin.CORE_NAME, declared)
    assert core.dims(twin.CORE_NAME, 2, game.options)["obs_size"] == 1858
