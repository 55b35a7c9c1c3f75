"""The Python side of Tarot Dice's compiled twin, ``tarot_dice.c`` (CONVENTIONS section 8).

The twin plays exactly the game of :mod:`mystic_envs.tarot_dice.rules` (same seed, same chance
draws, same observations bit for bit); this module is what the core's glue asks of the game:

- ``core_options(game)``: the game's keywords as the integers of ``me_config.options``.
- ``core_tables()``: every component table the C file reads, by the names of its ``me_table``
  list, derived here from the data modules so that no number is typed twice. ``consts`` also
  carries the ids the C file names (actions, phases, faces, Majors...), which its ``dims()``
  compares with its own, so a renumbering here cannot pass unnoticed.
- ``privileged_layout(game)`` and ``privileged_observation(state)``: the privileged view for
  centralized critics, and its Python reference: both seats' observations, then every card no
  seat or only its owner sees (hands, face-down well cards, the cards never dealt). Never for an
  acting policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, privileged_view_layout
from mystic_envs.tarot_dice import actions, arcana, cards, dice, observation, phases

if TYPE_CHECKING:
    from mystic_envs.tarot_dice.rules import TarotDiceGame, TarotDiceState

CORE_NAME = "tarot_dice"

# The C file's "consts" table, in the order of its C_* enum: first the ids it checks, then the
# component numbers it reads.
CONSTS: tuple[tuple[str, int], ...] = (
    ("NUM_SIZES", cards.NUM_SIZES),
    ("NUM_NUMBERED", cards.NUM_NUMBERED),
    ("PLANET_DIE", cards.PLANET_DIE),
    ("ZODIAC_DIE", cards.ZODIAC_DIE),
    ("DECK_SIZE", cards.DECK_SIZE),
    ("NUM_MINORS", cards.NUM_MINORS),
    ("RANKS_PER_SUIT", cards.RANKS_PER_SUIT),
    ("NUMBERED_RANKS", cards.NUMBERED_RANKS),
    ("NUM_MAJORS", cards.NUM_MAJORS),
    ("MAJOR_CARD", cards.MAJOR_CARD),
    ("WELLS", cards.WELLS),
    ("A_MAJOR", actions.MAJOR),
    ("A_WELL", actions.WELL),
    ("A_CAPTURE", actions.CAPTURE),
    ("A_DIE", actions.DIE),
    ("A_CARD", actions.CARD),
    ("A_PLAY_STRENGTH", actions.PLAY_STRENGTH),
    ("A_PLAY_DEATH", actions.PLAY_DEATH),
    ("A_FACE", actions.FACE),
    ("A_NUMBER", actions.NUMBER_ACTION),
    ("A_PASS", actions.PASS),
    ("NUM_ACTIONS", actions.NUM_ACTIONS),
    ("NUM_PHASES", phases.NUM_PHASES),
    ("PH_ACTION", phases.PH_ACTION),
    ("PH_GAME_OVER", phases.PH_GAME_OVER),
    ("PH_VENUS", phases.PH_VENUS),
    ("OP_ROUND_START", phases.OP_ROUND_START),
    ("NEPTUNE", cards.NEPTUNE),
    ("PISCES", cards.PISCES),
    ("TAURUS", cards.TAURUS),
    ("WORLD", cards.WORLD),
    ("STRENGTH", cards.STRENGTH),
    ("DEATH", cards.DEATH),
    ("NO_EFFECT", cards.NO_EFFECT),
    ("E_NUMBERED_TARGET", cards.E_NUMBERED_TARGET),
    # component numbers
    ("START_PLANET", cards.START_PLANET),
    ("START_ZODIAC", cards.START_ZODIAC),
    ("MAJOR_TRUMP", cards.MAJOR_TRUMP),
    ("PRIME_MASK", sum(1 << v for v in cards.PRIMES)),
    ("MANDATORY_MASK", arcana.MANDATORY_MASK),
    ("VALUE_SCALE", int(observation.VALUE_SCALE)),
    ("POINTS_SCALE", int(observation.POINTS_SCALE)),
    ("HAND_SCALE", int(observation.HAND_SCALE)),
)

# The hidden block of the privileged view, per seat: its Minors (first suit Ace ... King, then
# the second) in the hand, under each face-down well top, and never dealt.
HIDDEN_PARTS = (
    ("hand", cards.DECK_SIZE, "Minor Arcana in the hand (hidden cards)"),
    *(
        (f"under_well_{k + 1}", cards.DECK_SIZE, f"the face-down card under well {k + 1} (0 if none)")
        for k in range(cards.WELLS)
    ),
    ("undealt", cards.DECK_SIZE, "Minor Arcana never dealt this round"),
)


def core_options(game: TarotDiceGame) -> tuple[int, ...]:
    """``me_config.options``: ``(num_rounds, round_turn_limit)``."""
    return (game.num_rounds, game.round_turn_limit)


def core_tables() -> dict[str, list[int]]:
    """Every table of the C file's ``TABLES``, by name."""
    for scale in (observation.VALUE_SCALE, observation.POINTS_SCALE, observation.HAND_SCALE):
        assert scale == int(scale), "the C twin takes the observation's scales as integers"
    return {
        "size": list(dice.SIZE),
        "rank_kind": list(cards.RANK_KIND),
        "rank_values": [sum(1 << v for v in values) for values in cards.RANK_VALUES],
        "rank_trump": list(cards.RANK_TRUMP),
        "major_effect": [m.effect for m in cards.MAJORS],
        "draft_order": list(cards.DRAFT_ORDER),
        "face_kinds": list(cards.FACE_KINDS),
        "consts": [value for _, value in CONSTS],
        "obs_at": [entry.start for entry in observation.LAYOUT] + [observation.OBS_SIZE],
    }


def privileged_layout(game: TarotDiceGame) -> tuple[LayoutEntry, ...]:
    """Both seats' observations (``observation.LAYOUT`` each), then each seat's hidden cards."""
    hidden = [
        (f"{name}_{p}", size, f"player_{p}'s {meaning}")
        for p in range(game.num_players)
        for name, size, meaning in HIDDEN_PARTS
    ]
    return privileged_view_layout(game.num_players, observation.OBS_SIZE, hidden)


def privileged_observation(state: TarotDiceState) -> np.ndarray:
    """The privileged view of ``state`` (float32), laid out by ``privileged_layout``."""
    deck = cards.DECK_SIZE
    per_seat = deck * (2 + cards.WELLS)
    hidden = np.zeros(2 * per_seat, dtype=np.float32)
    for p in (0, 1):
        base = p * per_seat
        for c in state.hand[p]:
            hidden[base + c % deck] = 1.0
        for k in range(cards.WELLS):
            if state.hidden_well[p] >> k & 1:
                hidden[base + deck * (1 + k) + state.wells[p][k][0] % deck] = 1.0
        for c in state.unused[p]:
            hidden[base + deck * (1 + cards.WELLS) + c % deck] = 1.0
    return np.concatenate([state.observation(0), state.observation(1), hidden])


__all__ = [
    "CONSTS",
    "CORE_NAME",
    "core_options",
    "core_tables",
    "privileged_layout",
    "privileged_observation",
]
