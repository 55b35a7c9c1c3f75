"""The Python side of Elemystic's compiled twin, ``elemystic.c`` (CONVENTIONS section 8).

The twin plays exactly the game of :mod:`mystic_envs.elemystic.rules` (same seed, same draws from
the core generator, same observations bit for bit); this module is what the core's glue asks of
the game:

- ``core_options(game)``: the game's keywords as the integers of ``me_config.options``. Elemystic
  has none beyond ``num_players`` (always 2), which the glue passes on its own: the tuple is empty.
- ``core_tables()``: every table the C file reads, by the names of its ``me_table`` list, derived
  here from the data modules so that no number is typed twice: the element stats, each element's
  ability as a code of ``ABILITIES``, the rule constants (``RULES``), the draft order, the
  observation's layout and scales, and ``ids`` (the action, phase and Air Token numbers the C file
  names), which its ``dims()`` compares with its own, so a renumbering here cannot pass unnoticed.
- ``privileged_layout(game)`` and ``privileged_observation(state)``: the privileged view for
  centralized critics, and its Python reference: both seats' observations, then what some seat
  cannot see: the Unknown Element (nobody sees it) and each seat's secret element (its opponent
  sees it only under Light or once it is played). Never for an acting policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, privileged_view_layout
from mystic_envs.elemystic import cards, observation, rules

if TYPE_CHECKING:
    from mystic_envs.elemystic.rules import ElemysticGame, ElemysticState

CORE_NAME = "elemystic"

# The C file's ability codes (its AB_* enum), by the element that carries each ability: the C file
# switches on the code, so no element number of cards.py is written in it.
ABILITIES: tuple[str, ...] = ("none", "Light", "Air", "Storm", "Water", "Fire", "Shadow", "Thunder", "Life")

# The C file's "rules" table, in the order of its R_* enum.
RULES: tuple[tuple[str, int], ...] = (
    ("STARTING_ENERGY", cards.STARTING_ENERGY),
    ("WATER_INVOCATION_STRENGTH", cards.WATER_INVOCATION_STRENGTH),
    ("LIFE_RESTORE", cards.LIFE_RESTORE),
    ("AIR_TOKEN_STRENGTH", cards.AIR_TOKEN_STRENGTH),
    ("AIR_TOKEN_DEFENSE", cards.AIR_TOKEN_DEFENSE),
    ("THUNDER_CHARGE_STRENGTH", cards.THUNDER_CHARGE_STRENGTH),
    ("COLUMN_SIZE", cards.COLUMN_SIZE),
    ("HAND_SIZE", cards.HAND_SIZE),
)

# The numbers the C file names itself (#defines), in the order of its ID_* list: checked, not read.
IDS: tuple[tuple[str, int], ...] = (
    ("NUM_ELEMENTS", cards.NUM_ELEMENTS),
    ("DRAFT", rules.DRAFT),
    ("PLAY_FRONT", rules.PLAY_FRONT),
    ("PLAY_BACK", rules.PLAY_BACK),
    ("AIR_STRENGTH", rules.AIR_STRENGTH),
    ("AIR_DEFENSE", rules.AIR_DEFENSE),
    ("SHADOW_SELF_BEFORE", rules.SHADOW_SELF_BEFORE),
    ("SHADOW_OPPONENT_BEFORE", rules.SHADOW_OPPONENT_BEFORE),
    ("SHADOW_SELF_AFTER", rules.SHADOW_SELF_AFTER),
    ("SHADOW_OPPONENT_AFTER", rules.SHADOW_OPPONENT_AFTER),
    ("NUM_ACTIONS", rules.NUM_ACTIONS),
    ("DRAFT_PHASE", rules.DRAFT_PHASE),
    ("PLAY_PHASE", rules.PLAY_PHASE),
    ("AIR_TURN", rules.AIR_TURN),
    ("SHADOW_CHOICE", rules.SHADOW_CHOICE),
    ("GAME_OVER", rules.GAME_OVER),
    ("NUM_PHASES", len(rules.PHASE_NAMES)),
    ("AIR_NONE", rules.AIR_NONE),
    ("AIR_AS_STRENGTH", rules.AIR_AS_STRENGTH),
    ("AIR_AS_DEFENSE", rules.AIR_AS_DEFENSE),
    ("DRAFT_PICKS", len(rules.DRAFT_ORDER)),
)

# The parts of observation.LAYOUT in the order of the C file's O_* enum; core_tables() refuses a
# layout whose names differ, and the C file's dims() one whose sizes differ from what it writes.
OBS_PARTS: tuple[str, ...] = (
    "energy",
    "round",
    "phase",
    "to_move",
    "draft_first",
    "play_first",
    "draft_pool",
    "own_secret",
    "own_hand",
    "opp_faceup_hand",
    "opp_secret_revealed",
    "opp_secret_played",
    "own_front",
    "own_support",
    "opp_front",
    "opp_support",
    "cards_played",
    "column_totals",
    "invocation_strength",
    "speed_order",
    "attacked",
    "air_token",
    "air_bonus",
    "light_token",
    "shadow_token",
    "thunder_token",
    "thunder_charged",
    "storm_forced",
)

_E = cards.NUM_ELEMENTS
_ELEMS = ", ".join(cards.ELEMENT_NAMES)
HIDDEN_PARTS: tuple[tuple[str, int, str], ...] = (
    ("unknown", _E, f"one-hot: the Unknown Element, which no seat sees ({_ELEMS})"),
    ("secret_0", _E, "one-hot: player_0's secret element (hidden from player_1 unless Light or played)"),
    ("secret_1", _E, "one-hot: player_1's secret element (hidden from player_0 unless Light or played)"),
)


def core_options(game: ElemysticGame) -> tuple[int, ...]:
    """``me_config.options``: none (the only keyword, ``num_players``, travels on its own)."""
    return ()


def core_tables() -> dict[str, list[int]]:
    """Every table of the C file's ``TABLES``, by name."""
    names = tuple(entry.name for entry in observation.LAYOUT)
    if names != OBS_PARTS:
        raise ValueError(f"observation.LAYOUT's parts {names} are not the twin's {OBS_PARTS}")
    for scale in (observation.TOTAL_SCALE, observation.INV_SCALE):
        if scale != int(scale):
            raise ValueError(f"the twin takes the observation's scales as integers, got {scale}")
    code = {name: k for k, name in enumerate(ABILITIES)}
    elements = cards.ELEMENTS
    return {
        "strength": [e.strength for e in elements],
        "defense": [e.defense for e in elements],
        "invocation_strength": [e.invocation_strength for e in elements],
        "invocation_defense": [e.invocation_defense for e in elements],
        "speed": [e.speed for e in elements],
        "ability": [code.get(e.name, code["none"]) for e in elements],
        "rules": [value for _, value in RULES],
        "draft_order": list(rules.DRAFT_ORDER),
        "ids": [value for _, value in IDS],
        "obs_start": [entry.start for entry in observation.LAYOUT],
        "obs_size": [entry.size for entry in observation.LAYOUT] + [observation.OBS_SIZE],
        "obs_scale": [int(observation.TOTAL_SCALE), int(observation.INV_SCALE)],
    }


def privileged_layout(game: ElemysticGame) -> tuple[LayoutEntry, ...]:
    """Both seats' observations (``observation.LAYOUT`` each), then the hidden elements."""
    return privileged_view_layout(game.num_players, observation.OBS_SIZE, list(HIDDEN_PARTS))


def privileged_observation(state: ElemysticState) -> np.ndarray:
    """The privileged view of ``state`` (``privileged_layout``): for centralized critics only."""
    views = [state.observation(p) for p in range(state.game.num_players)]
    hidden = np.zeros(len(HIDDEN_PARTS) * _E, dtype=np.float32)
    hidden[state.unknown] = 1.0
    for p in range(state.game.num_players):
        hidden[(1 + p) * _E + state.secret[p]] = 1.0
    return np.concatenate([*views, hidden])
