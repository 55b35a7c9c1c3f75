"""Tarot Dice as a PettingZoo AEC environment (the module docstring of ``tarot_dice_v0`` is the
documentation page)."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from mystic_envs.core.aec import MysticAECEnv
from mystic_envs.tarot_dice.rules import TarotDiceGame

# The match the default max_steps was sized for: two rounds plus the one sudden-death round level
# totals can bring (docs D-2), of at most 60 turns each (D-3).
_DEFAULT_ROUNDS, _DEFAULT_TURNS = 3, 60


class TarotDiceEnv(MysticAECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "tarot_dice_v0",
        "is_parallelizable": False,
    }
    game_class = TarotDiceGame
    # At most 3 rounds of at most 60 turns; the longest of 20,000 random games took 368 actions
    # (docs/rules/tarot_dice.md, D-6). 2,000 only stops a
    # broken policy; longer matches (more rounds, a later nightfall) get a proportional guard.
    default_max_steps = 2000

    def __init__(self, max_steps: int | None = None, **kwargs: Any) -> None:
        super().__init__(max_steps=max_steps, **kwargs)
        if max_steps is None:
            self.max_steps = self.steps_bound(self.game)

    @classmethod
    def steps_bound(cls, game: TarotDiceGame) -> int:
        """The default ``max_steps`` for ``game``'s options: 2,000 scaled by rounds x turn limit."""
        size = (game.num_rounds + 1) * game.round_turn_limit / (_DEFAULT_ROUNDS * _DEFAULT_TURNS)
        return max(cls.default_max_steps, math.ceil(cls.default_max_steps * size))
