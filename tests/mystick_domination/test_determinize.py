"""``determinize`` hands every seat a state it can play on: in every phase, for every seat, the
re-dealt copy passes ``check_invariants`` and stays legal under random play to the end of the game.
A re-deal that moves a face-up card (the Attachment waiting for its Pawn, a card shown) would leave
a count below zero or a seat showing a card it lacks, which the invariants catch."""

from __future__ import annotations

import numpy as np
import pytest

from mystic_envs.mystick_domination.decisions import GAME_OVER, PHASE_NAMES
from mystic_envs.mystick_domination.rules import MystickGame

# Per (phase, seat), the first few states met are checked: enough to reach every phase at every
# seat without playing the whole copy from every one of thousands of states.
CHECKS_PER_PHASE_AND_SEAT = 3
COPY_STEPS = 60


def random_action(state, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(state.legal_mask())))


def play_copy(copy, rng: np.random.Generator) -> None:
    copy.check_invariants()
    for _ in range(COPY_STEPS):
        if copy.is_terminal:
            break
        copy.apply(random_action(copy, rng))
        copy.check_invariants()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_determinize_in_every_phase_for_every_seat_plays_on(n: int) -> None:
    rng = np.random.default_rng(n)
    checked: dict[tuple[int, int], int] = {}
    for seed in range(12):
        state = MystickGame(num_players=n).new_initial_state(seed)
        while not state.is_terminal:
            for seat in range(n):
                key = (state.phase, seat)
                if checked.get(key, 0) < CHECKS_PER_PHASE_AND_SEAT:
                    checked[key] = checked.get(key, 0) + 1
                    copy = state.determinize(seat, np.random.default_rng(int(rng.integers(2**32))))
                    try:
                        play_copy(copy, rng)
                    except AssertionError as err:
                        raise AssertionError(
                            f"{n} players, seed {seed}: determinize({seat}) in phase "
                            f"{PHASE_NAMES[state.phase]}: {err}"
                        ) from err
            state.apply(random_action(state, rng))
    phases = {phase for phase, _ in checked}
    # Every decision phase is met at every seat (ORDER needs two simultaneous effects: rare).
    missing = {PHASE_NAMES[p] for p in range(len(PHASE_NAMES)) if p != GAME_OVER and p not in phases}
    assert missing <= {"order_effects"}, f"phases never reached: {sorted(missing)}"
