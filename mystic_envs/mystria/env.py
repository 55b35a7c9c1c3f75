"""Mystria as a PettingZoo AEC environment (the module docstring of ``mystria_v0`` is the
documentation page)."""

from __future__ import annotations

from typing import Any, ClassVar

from mystic_envs.core.aec import MysticAECEnv
from mystic_envs.mystria.rules import MystriaGame


class MystriaEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "mystria_v0",
        "is_parallelizable": False,
    }
    game_class = MystriaGame
    # A turn is at most 11 moves or flips (one drop each) plus a take and a place, so a game has
    # fewer than 330 actions; 1,000 is only a guard.
    default_max_steps = 1000
