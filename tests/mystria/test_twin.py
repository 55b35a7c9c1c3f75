"""Mystria's compiled twin (``mystria.c``) against the Python engine where random play never goes.

``tests/core`` compares the two engines over random legal play, but a random Mystria game always
ends with a magician out of drops within a few turns: the Magician boards never fill, so the
final scoring, the Objective tiles' points, the Majority and the drops tie-break would go
untested. Here the heuristic plays whole games (both rule sets), the twin replays every action,
and after each one the two states must agree on everything (views bit for bit, masks, returns,
infos, the privileged view); re-deals with the same generator agree too, the game's end included,
where the opponent's kept tile is revealed and only the discarded one is re-dealt.
"""

from __future__ import annotations

import collections

import numpy as np
import pytest

from agents.heuristic.mystria import decide
from mystic_envs.core import compiled
from mystic_envs.mystria import rules, twin
from mystic_envs.mystria.rules import MystriaGame
from tests.core.cases import require_core
from tests.core.test_exact import check_same_state, same_bits

GAMES = 6


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


def redeals_agree(core, py, rng: np.random.Generator) -> None:
    for seat in (0, 1):
        draw = int(rng.integers(2**32))
        d_core = core.determinize(seat, np.random.default_rng(draw))
        d_py = py.determinize(seat, np.random.default_rng(draw))
        check_same_state(d_core, d_py, twin)
        assert same_bits(d_core.observation(seat), core.observation(seat)), "the re-deal showed itself"


@pytest.mark.parametrize("variant", ["full", "intro"])
def test_heuristic_games_to_the_final_scoring_equal_the_python_engine(variant):
    game = MystriaGame(variant=variant)
    core_game = compiled.CoreGame(game)
    rng = np.random.default_rng(27)
    ends: collections.Counter[int] = collections.Counter()
    objectives = 0
    for seed in range(GAMES):
        py, core = game.new_initial_state(seed), core_game.new_initial_state(seed)
        check_same_state(core, py, twin)
        moves = 0
        while not py.is_terminal:
            p = py.current_player
            # One seat in five plays a random legal action now and then, so that the games differ
            # from the heuristic's usual lines (the drops run out on some of them).
            if rng.random() < 0.05:
                action = int(rng.choice(py.legal_actions()))
            else:
                action = decide(py.determinize(p, rng), p, fast=True)
            py.apply(action)
            core.apply(action)
            check_same_state(core, py, twin)
            moves += 1
            if moves % 15 == 0:
                redeals_agree(core, py, rng)
        redeals_agree(core, py, rng)  # at the end: the kept tiles are revealed
        ends[py.end_reason] += 1
        objectives += sum(py.score(p).objective > 0 for p in (0, 1))
        assert core.info()["game_end"] == py.end_reason
    assert ends[rules.SCORED] >= GAMES // 2, ends
    if variant == "full":
        assert objectives > 0, "no Objective tile was fulfilled: their points went untested"
