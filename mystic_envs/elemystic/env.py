"""Elemystic as a PettingZoo AEC environment (the module docstring of ``elemystic_v0``
is the documentation page)."""

from __future__ import annotations

from typing import Any, ClassVar

from mystic_envs.core.aec import MysticAECEnv
from mystic_envs.elemystic.rules import ElemysticGame


class ElemysticEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "elemystic_v0",
        "is_parallelizable": False,
    }
    game_class = ElemysticGame
    # A game lasts about 12 actions a round and rarely 15 rounds; 1,000 only stops a stalemate.
    default_max_steps = 1000
