"""Mystick Domination's deck options on the compiled twin: every seat's deck travels as its list of
39 card ids (copies of an advanced deck repeat their id), so every deck the Python engine accepts
plays on the core, through the batch, the single-game state and ``make(engine="c")``. A bad list
gets the Python engine's one-line error at every entry point, and the C side refuses one made by
hand before it could overrun a table. The twin's ids (opcodes, targets, phases) are checked against
cards.py's, so a renumbering stops it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import mystic_envs
from agents.heuristic.mystick_domination import decide
from mystic_envs import vector
from mystic_envs.core import compiled
from mystic_envs.mystick_domination import twin
from mystic_envs.mystick_domination.cards import CARD_NAMES, DECK_SIZE, MAX_PAWNS
from mystic_envs.mystick_domination.decks import PRESETS
from mystic_envs.mystick_domination.rules import MystickGame
from tests.core.cases import COPIES, require_core
from tests.core.test_exact import check_batch_against_envs, check_same_state

ENV_ID = "mystick_domination_v0"
LISTED = [CARD_NAMES[c] for c in reversed(PRESETS["cups_pentacles"])]  # names, in no sorted order


def seat_decks(options: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    at = twin.DECKS_AT
    assert len(options) == at + n * DECK_SIZE
    return [options[at + q * DECK_SIZE : at + (q + 1) * DECK_SIZE] for q in range(n)]


def test_a_listed_deck_is_the_preset_it_lists() -> None:
    listed = MystickGame(num_players=3, decks=[LISTED, "random", "cups_pentacles"])
    first, second, third = seat_decks(twin.core_options(listed), 3)
    assert first == third == PRESETS["cups_pentacles"]
    assert second == (twin.RANDOM_DECK,) * DECK_SIZE


def test_an_advanced_deck_travels_with_its_copies() -> None:
    game = MystickGame(num_players=5, decks=COPIES, construction="advanced")
    options = twin.core_options(game)
    assert options[:2] == (1, 0)
    decks = seat_decks(options, 5)
    assert decks == list(game.decks)
    assert max(Counter(decks[0]).values()) == 3


def test_listed_decks_play_the_python_engines_games() -> None:
    require_core()
    counts = check_batch_against_envs(
        ENV_ID, {"decks": [LISTED, "random", "wands_swords"]}, 3, 3_000, num_envs=4
    )
    assert counts["ends"] >= 1


def test_copies_mixed_with_random_decks_play_the_python_engines_games() -> None:
    require_core()
    decks = [COPIES[2], "random", COPIES[0], "random"]  # random decks drawn beside listed ones
    counts = check_batch_against_envs(
        ENV_ID, {"decks": decks, "construction": "advanced"}, 4, 3_000, num_envs=4
    )
    assert counts["ends"] >= 1


def test_two_28_pawn_decks_fill_the_ten_spaces_on_both_engines_alike() -> None:
    """The heuristic's games of two 28-Pawn decks (three copies of ranks 4-7): the ten Pawn spaces
    fill, and the compiled state equals the Python state at every step, re-deals included."""
    require_core()
    game = MystickGame(decks=[COPIES[2], COPIES[2]], construction="advanced")
    core_game = compiled.CoreGame(game)
    rng = np.random.default_rng(3)
    full = 0
    for seed in range(3):
        py, core = game.new_initial_state(seed), core_game.new_initial_state(seed)
        while not py.is_terminal:
            p = py.current_player
            draw = int(rng.integers(2**32))
            redealt = py.determinize(p, np.random.default_rng(draw))
            check_same_state(core.determinize(p, np.random.default_rng(draw)), redealt, twin)
            action = decide(redealt, p)
            py.apply(action)
            core.apply(action)
            check_same_state(core, py, twin)
            full = max(full, *(sum(c >= 0 for c in py.pawn[q]) for q in range(2)))
    assert full == MAX_PAWNS


def _with(deck: tuple[int, ...], changes: dict[int, int]) -> list[int]:
    out = list(deck)
    for k, c in changes.items():
        out[k] = c
    return out


WANDS_CUPS = PRESETS["wands_cups"]  # Wands 0-13, Cups 14-27, even Majors


@pytest.mark.parametrize(
    ("deck", "construction", "message"),
    [
        (
            _with(WANDS_CUPS, {0: 1, 2: 1, 3: 1}),
            "advanced",
            r"advanced decks allow up to 3 copies, got 4 copies",
        ),
        (
            _with(WANDS_CUPS, {0: 1}),
            "basic",
            r"basic decks allow no duplicates, got 2 copies of Two of Wands",
        ),
        ([*WANDS_CUPS[:-1], "XXII The Joker"], "advanced", r"unknown card 'XXII The Joker'"),
        ([*WANDS_CUPS[:-1], 78], "advanced", r"card id 78 is not in 0-77"),
        (list(WANDS_CUPS[:-1]), "advanced", r"a deck has 39 cards .*, got 38"),
        ([*WANDS_CUPS, WANDS_CUPS[-1]], "advanced", r"a deck has 39 cards .*, got 40"),
        (
            _with(WANDS_CUPS, {0: 28}),
            "advanced",
            r"a deck has 14 cards from each of exactly 2 suits, got Wands 13, Cups 14, Swords 1",
        ),
    ],
    ids=["4-copies", "basic-duplicate", "unknown-card", "id-78", "38-cards", "40-cards", "three-suits"],
)
def test_bad_deck_lists_get_the_python_engines_one_line_error_on_the_core(
    deck, construction, message
) -> None:
    require_core()
    kwargs = {"decks": [deck, "random"], "construction": construction}
    where = rf"^deck of player_0: {message}"
    makers = [
        lambda: vector.make(ENV_ID, num_envs=2, **kwargs),
        lambda: mystic_envs.make(ENV_ID, engine="c", **kwargs),
        lambda: compiled.CoreGame(MystickGame(**kwargs)),
    ]
    for make in makers:
        with pytest.raises(ValueError, match=where) as caught:
            make()
        assert "\n" not in str(caught.value)


def _raw(construction: int, decks: list[list[int]], extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    return (construction, 0, *(c for d in decks for c in d), *extra)


RANDOM = [twin.RANDOM_DECK] * DECK_SIZE


@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (
            2,
            _raw(1, [RANDOM, _with(WANDS_CUPS, {5: 78})]),
            r"seat 1 is not legal \(a card id is not in 0-77\)",
        ),
        (
            2,
            _raw(1, [RANDOM, _with(WANDS_CUPS, {5: -7})]),
            r"seat 1 is not legal \(a card id is not in 0-77\)",
        ),
        (2, _raw(1, [_with(WANDS_CUPS, {0: 1, 2: 1, 3: 1}), RANDOM]), r"seat 0 .*up to 3 copies"),
        (2, _raw(0, [_with(WANDS_CUPS, {0: 1}), RANDOM]), r"seat 0 .*basic decks allow no duplicates"),
        (2, _raw(1, [_with(WANDS_CUPS, {0: 30}), RANDOM]), r"seat 0 .*14 cards from each of 2 suits"),
        (2, _raw(1, [_with(WANDS_CUPS, {0: 57}), RANDOM]), r"seat 0 .*11 Major Arcana"),
        (2, _raw(1, [RANDOM, [*WANDS_CUPS[:-1], -1]]), r"seat 1 .*39 times -1 for a random one"),
        (2, _raw(1, [RANDOM, RANDOM], (5,)), r"2 players take 80 options, got option 80 = 5"),
        (3, _raw(1, [RANDOM, RANDOM]), r"seat 2 is not legal \(a deck has 11 Major Arcana\)"),  # zeros
    ],
    ids=[
        "id-78",
        "id-negative",
        "4-copies",
        "basic-duplicate",
        "three-suits",
        "12-majors",
        "half-random",
        "extra-option",
        "missing-seat",
    ],
)
def test_the_c_side_refuses_a_bad_deck_made_by_hand_in_one_line(n, options, message) -> None:
    """Options that skip the Python side's checks: the twin's dims() reads only its table's cells and
    names the seat and the rule, before any game is made."""
    require_core()
    compiled.CoreGame(MystickGame())  # loads the twin's tables
    with pytest.raises(ValueError, match=rf"^mystick_domination: .*{message}"):
        compiled.core_module().dims(twin.CORE_NAME, n, options)


def test_the_core_takes_no_more_options_than_it_has_room_for() -> None:
    require_core()
    compiled.CoreGame(MystickGame())
    with pytest.raises(ValueError, match=r"^at most 256 options, got 257"):
        compiled.core_module().dims(twin.CORE_NAME, 2, (0,) * 257)


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
