"""Rule-based players, one per game: ``HEURISTICS[env_id](seed=...)``.

``ROLLOUT_POLICIES[env_id](state, rng) -> action`` is the same player as a state-level policy for
search rollouts (``agents.mcts``): it reads the state it is given in full, so it must only ever be
given a searcher's own determinized copy.
"""

from __future__ import annotations

from typing import Any

from agents.heuristic.elemystic import ElemysticHeuristic, decide
from agents.heuristic.mystria import MystriaHeuristic
from agents.heuristic.mystria import rollout_policy as mystria_rollout
from agents.heuristic.tarot_dice import TarotDiceHeuristic
from agents.heuristic.tarot_dice import position_value as tarot_dice_value
from agents.heuristic.tarot_dice import rollout_policy as tarot_dice_rollout

HEURISTICS = {
    "elemystic_v0": ElemysticHeuristic,
    "mystria_v0": MystriaHeuristic,
    "tarot_dice_v0": TarotDiceHeuristic,
}

ROLLOUT_POLICIES = {
    # depth=0 is the static plan: a rollout move costs a few microseconds instead of a look-ahead.
    "elemystic_v0": lambda state, rng: decide(state, state.current_player, depth=0),
    # fast=True plans two actions ahead and judges the opponent's reply for fewer plans.
    "mystria_v0": mystria_rollout,
    # The heuristic's capture rules only (a full decision costs ~1,000 random ones).
    "tarot_dice_v0": tarot_dice_rollout,
}

#: ``POTENTIALS[env_id](state, seat) -> float | None``: the heuristic's own value (-1..1) of the
#: position of ``seat`` about to act, read from ``seat``'s view only; None where it has none.
#: ``training.selfplay.SelfPlayEnv(shaping=...)`` shapes rewards with it.
POTENTIALS = {"tarot_dice_v0": tarot_dice_value}

#: Games whose heuristic reports the value of every option (``decide(state, seat, scores)``), so
#: ``agents.advice.Adviser`` can give soft advice.
SCORED = ("mystria_v0", "tarot_dice_v0")


def check_softness(softness: Any, env_id: str | None = None) -> float:
    """``softness`` as a float if it is a number >= 0 that ``env_id`` can use; ValueError otherwise."""
    if (
        isinstance(softness, bool)
        or not isinstance(softness, (int, float))
        or not 0 <= softness < float("inf")
    ):
        raise ValueError(f"advice softness must be a finite number >= 0, got {softness!r}")
    if softness and env_id is not None and env_id not in SCORED:
        raise ValueError(
            f"soft advice needs a heuristic that scores its options; {env_id}'s does not (only {SCORED})"
        )
    return float(softness)


__all__ = [
    "HEURISTICS",
    "POTENTIALS",
    "ROLLOUT_POLICIES",
    "SCORED",
    "ElemysticHeuristic",
    "MystriaHeuristic",
    "TarotDiceHeuristic",
    "check_softness",
]
