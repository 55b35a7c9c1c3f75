"""Mystic Vale as a PettingZoo AEC environment (the module docstring of ``mystic_vale_v0`` is
the documentation page)."""

from __future__ import annotations

from typing import Any, ClassVar

from mystic_envs.core.aec import MysticAECEnv
from mystic_envs.mystic_vale.rules import ValeGame


class MysticValeEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "mystic_vale_v0",
        "is_parallelizable": False,
    }
    game_class = ValeGame
    # Random play ends 2-player games in about 400 actions and 4-player ones in about 600
    # (tests/mystic_vale/test_soak.py); 5,000 only stops a broken policy.
    default_max_steps = 5000
