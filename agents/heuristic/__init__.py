"""Rule-based players, one per game: ``HEURISTICS[env_id](seed=...)``.

``ROLLOUT_POLICIES[env_id](state, rng) -> action`` is the same player as a state-level policy for
search rollouts (``agents.mcts``): it reads the state it is given in full, so it must only ever be
given a searcher's own determinized copy.
"""

from __future__ import annotations

from agents.heuristic.elemystic import ElemysticHeuristic, decide
from agents.heuristic.mystic_vale import MysticValeHeuristic
from agents.heuristic.mystic_vale import rollout_policy as mystic_vale_rollout
from agents.heuristic.mystick_domination import MystickDominationHeuristic
from agents.heuristic.mystick_domination import rollout_policy as mystick_domination_rollout
from agents.heuristic.mystria import MystriaHeuristic
from agents.heuristic.mystria import rollout_policy as mystria_rollout
from agents.heuristic.tarot_dice import TarotDiceHeuristic
from agents.heuristic.tarot_dice import rollout_policy as tarot_dice_rollout

HEURISTICS = {
    "elemystic_v0": ElemysticHeuristic,
    "mystria_v0": MystriaHeuristic,
    "tarot_dice_v0": TarotDiceHeuristic,
    "mystick_domination_v0": MystickDominationHeuristic,
    "mystic_vale_v0": MysticValeHeuristic,
}

ROLLOUT_POLICIES = {
    # depth=0 is the static plan: a rollout move costs a few microseconds instead of a look-ahead.
    "elemystic_v0": lambda state, rng: decide(state, state.current_player, depth=0),
    # fast=True plans two actions ahead and judges the opponent's reply for fewer plans.
    "mystria_v0": mystria_rollout,
    # The heuristic's capture rules only (a full decision costs ~1,000 random ones).
    "tarot_dice_v0": tarot_dice_rollout,
    # The whole player: one decision is a few dozen microseconds of arithmetic, no look-ahead.
    "mystick_domination_v0": mystick_domination_rollout,
    # The whole player: arithmetic on the profiles, no look-ahead.
    "mystic_vale_v0": mystic_vale_rollout,
}

#: Games whose heuristic reports the value of every option it compared
#: (``act(env, agent_id, scores={})``, ``decide(state, seat, scores)``): what a close decision
#: was close between, the way ``heuristic:FIX=0.8`` and the shipped constants were compared.
SCORED = ("mystria_v0", "tarot_dice_v0")


__all__ = [
    "HEURISTICS",
    "ROLLOUT_POLICIES",
    "SCORED",
    "ElemysticHeuristic",
    "MysticValeHeuristic",
    "MystickDominationHeuristic",
    "MystriaHeuristic",
    "TarotDiceHeuristic",
]
