"""Mystick Domination as a PettingZoo AEC environment (the module docstring of
``mystick_domination_v0`` is the documentation page)."""

from __future__ import annotations

from typing import Any, ClassVar

from mystic_envs.core.aec import MysticAECEnv
from mystic_envs.mystick_domination.rules import MystickGame


class MystickDominationEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "mystick_domination_v0",
        "is_parallelizable": False,
    }
    game_class = MystickGame
    # Decks of 39 cards bound a game: every round spends an initiative card per player and at
    # least three draws. 5,000 only stops a broken policy (see docs D-9 for random-game lengths).
    default_max_steps = 5000
