"""A retuned heuristic: the shipped player with some of its weights changed, for its own decisions only.

``make_agent("heuristic", env_id, FIX=0.6)`` builds one, and so does the agent spec
``heuristic:FIX=0.6``; playing it against the shipped heuristic measures how much room the
heuristic leaves above itself::

    python -m training.evaluate --env tarot_dice_v0 --agents heuristic heuristic:FIX=0.6 --games 1000

The Mystria and Tarot Dice heuristics keep their weights as module constants (the "tuning" block
of ``agents/heuristic/mystria.py``; ``agents/heuristic/tarot_dice_model.py`` and
``tarot_dice.py`` for Tarot Dice). :class:`TunedHeuristic` swaps its values in before each of its
decisions and restores the shipped ones after, so an opponent in the same process, the shipped
heuristic included, plays the shipped values. ``TUNABLE`` lists the constants a decision reads
when it runs; constants baked into tables at import (such as Tarot Dice's ``MATERIAL_SCALE``)
are left out, as overriding them would change nothing. ``docs/rules/mystria.md`` and
``docs/rules/tarot_dice.md`` ("Agents") quote what retunings measured.
"""

from __future__ import annotations

import importlib
import numbers
from typing import Any

import numpy as np

__all__ = ["TUNABLE", "TunedHeuristic", "check_overrides"]

_MYSTRIA = (
    "DROP_WORTH",
    "LEAVE_WORTH",
    "MAX_PLAN",
    "LEAVE_CHECKS",
    "GROWTH",
    "LEAD",
    "KILL",
    "OBJECTIVE_CHANCE",
)
# env id -> {constant: module holding it}
TUNABLE: dict[str, dict[str, str]] = {
    "mystria_v0": dict.fromkeys(_MYSTRIA, "agents.heuristic.mystria"),
    "tarot_dice_v0": {
        "FIX": "agents.heuristic.tarot_dice_model",
        "LAST_TURN_EDGE": "agents.heuristic.tarot_dice_model",
        "STALL_COST": "agents.heuristic.tarot_dice_model",
        "LATENT": "agents.heuristic.tarot_dice_model",
    },
}


def check_overrides(env_id: str, overrides: dict[str, Any]) -> dict[str, float | int]:
    """``overrides`` typed like the shipped values (an int constant takes ints only); ValueError otherwise."""
    if env_id not in TUNABLE:
        raise ValueError(f"the {env_id} heuristic has no tunable constants; {sorted(TUNABLE)} have")
    checked: dict[str, float | int] = {}
    for name, value in overrides.items():
        if name not in TUNABLE[env_id]:
            known = sorted(TUNABLE[env_id])
            raise ValueError(f"{name!r} is not a tunable constant of the {env_id} heuristic; one of {known}")
        shipped = getattr(importlib.import_module(TUNABLE[env_id][name]), name)
        wanted = numbers.Integral if isinstance(shipped, int) else numbers.Real
        if isinstance(value, bool) or not isinstance(value, wanted) or not np.isfinite(value):
            kind = "an integer" if wanted is numbers.Integral else "a finite number"
            raise ValueError(f"{name} must be {kind}, got {value!r}")
        checked[name] = type(shipped)(value)
    return checked


class TunedHeuristic:
    """The shipped heuristic of ``env_id`` deciding with ``overrides`` in place of its constants."""

    def __init__(self, env_id: str, overrides: dict[str, Any], seed: int | None = None) -> None:
        from agents.heuristic import HEURISTICS

        self.env_id = env_id
        self.overrides = check_overrides(env_id, overrides)
        self._modules = {name: importlib.import_module(TUNABLE[env_id][name]) for name in self.overrides}
        self.inner = HEURISTICS[env_id](seed=seed)

    def seed(self, seed: int | None) -> None:
        self.inner.seed(seed)

    def act(self, env: Any, agent_id: str, scores: dict[int, float] | None = None) -> int:
        shipped = {name: getattr(module, name) for name, module in self._modules.items()}
        for name, value in self.overrides.items():
            setattr(self._modules[name], name, value)
        try:
            return self.inner.act(env, agent_id, scores)
        finally:
            for name, value in shipped.items():
                setattr(self._modules[name], name, value)
