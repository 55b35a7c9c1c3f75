"""The Python side of Mystick Domination's compiled twin, ``mystick_domination.c`` (CONVENTIONS 8).

The twin plays exactly the game of :mod:`mystic_envs.mystick_domination.rules` (same seed, same
chance draws, same observations bit for bit); this module is what the core's glue asks of it:

- ``core_options(game)``: the game's keywords as the integers of ``me_config.options``: the
  construction, ``reshuffle_opening_majors``, then one flat table of every seat's deck list,
  ``DECK_SIZE`` card ids a seat in the order the Python engine holds them (copies of an advanced
  deck repeat their id), or ``DECK_SIZE`` times ``RANDOM_DECK`` for a deck drawn from the seed.
  Every deck the Python engine accepts fits; the C side checks each list again against the
  construction rules before it plays one, so options made by hand never overrun its tables.
- ``core_tables()``: every card's numbers, type, trigger and effect rows, and the observation's
  sizes, derived here from ``cards.py`` and ``observation.py``, so that the C file holds no card
  data at all (a rebalanced card set reaches it unchanged). ``consts`` also carries the ids the C
  file names (opcodes, targets, triggers, phases...), which its ``dims()`` compares with its own,
  so a renumbering here cannot pass unnoticed.
- ``privileged_layout(game)`` and ``privileged_observation(state)``: the privileged view for
  centralized critics, and its Python reference: every seat's observation, then each seat's whole
  hand and its deck in order. Never for an acting policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, privileged_view_layout
from mystic_envs.mystick_domination import cards, decisions, observation
from mystic_envs.mystick_domination.observation import build_layout_for

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickGame, MystickState

CORE_NAME = "mystick_domination"

MAX_ROWS = 4  # effect rows a card may have in the C state's tables
RANDOM_DECK = -1  # core_options: every card id of a seat's deck drawn from the seed
DECKS_AT = 2  # core_options: where the seats' deck lists start (the C file's OPT_DECKS)

# The C file's "consts" table, in the order of its C_* enum: first the ids it checks, then the
# numbers it reads.
CONSTS: tuple[tuple[str, int], ...] = (
    ("NUM_CARDS", cards.NUM_CARDS),
    ("NUM_MINORS", cards.NUM_MINORS),
    ("NUM_MAJORS", cards.NUM_MAJORS),
    ("NUM_RANKS", cards.NUM_RANKS),
    ("CROSS_SPACES", cards.CROSS_SPACES),
    ("MAX_PAWNS", cards.MAX_PAWNS),
    ("DECK_SIZE", cards.DECK_SIZE),
    ("OPENING_HAND", cards.OPENING_HAND),
    ("ROUND_DRAWS", cards.ROUND_DRAWS),
    ("MAJORS_PER_DECK", cards.MAJORS_PER_DECK),
    ("SUIT_CARDS_PER_DECK", cards.SUIT_CARDS_PER_DECK),
    ("MAX_COPIES_ADVANCED", cards.MAX_COPIES_ADVANCED),
    ("ENVIRONMENT", cards.ENVIRONMENT),
    ("PAWN", cards.PAWN),
    ("ATTACHMENT", cards.ATTACHMENT),
    ("ACTION", cards.ACTION),
    ("MAJOR", cards.MAJOR),
    ("AGGRESSION", cards.AGGRESSION),
    ("PRESENCE", cards.PRESENCE),
    ("IMMUNITY", cards.IMMUNITY),
    ("RESOURCES", cards.RESOURCES),
    ("ON_PLAY", cards.ON_PLAY),
    ("FATE", cards.FATE),
    ("STATIC", cards.STATIC),
    ("SPECIAL_MOVE", cards.SPECIAL_MOVE),
    ("AFTER_NEXT_INITIATIVE", cards.AFTER_NEXT_INITIATIVE),
    ("AFTER_EACH_INITIATIVE", cards.AFTER_EACH_INITIATIVE),
    ("WHEN_CHALLENGES", cards.WHEN_CHALLENGES),
    ("WHEN_CHALLENGED", cards.WHEN_CHALLENGED),
    ("NONE", cards.NONE),
    ("WHEN_WINS", cards.WHEN_WINS),
    ("SCORE", cards.SCORE),
    ("SCORE_PER_CROSS_MAJOR", cards.SCORE_PER_CROSS_MAJOR),
    ("LOSE_SCORE", cards.LOSE_SCORE),
    ("POWER_FROM_POOL", cards.POWER_FROM_POOL),
    ("POWER_CREATE", cards.POWER_CREATE),
    ("POWER_DESTROY", cards.POWER_DESTROY),
    ("POWER_TO_POOL", cards.POWER_TO_POOL),
    ("KILL", cards.KILL),
    ("DRAW_COUNT", cards.DRAW_COUNT),
    ("DRAW", cards.DRAW),
    ("MILL", cards.MILL),
    ("RECOVER", cards.RECOVER),
    ("PEEK", cards.PEEK),
    ("FLOOD", cards.FLOOD),
    ("CLEAR_CROSS", cards.CLEAR_CROSS),
    ("SUCCESS", cards.SUCCESS),
    ("EXTRA_MOVE", cards.EXTRA_MOVE),
    ("MOVE_FIRST", cards.MOVE_FIRST),
    ("INFLUENCE", cards.INFLUENCE),
    ("GRANT_TRAIT", cards.GRANT_TRAIT),
    ("TRAIT_INFLUENCE", cards.TRAIT_INFLUENCE),
    ("NUM_OPS", cards.NUM_OPS),
    ("T_NONE", cards.T_NONE),
    ("T_OWN_PAWN_ROOM", cards.T_OWN_PAWN_ROOM),
    ("T_PAWN_WITH_POWER", cards.T_PAWN_WITH_POWER),
    ("T_ENEMY_PAWN", cards.T_ENEMY_PAWN),
    ("T_OPPONENT", cards.T_OPPONENT),
    ("T_EACH_OPPONENT", cards.T_EACH_OPPONENT),
    ("T_ANY_PLAYER", cards.T_ANY_PLAYER),
    ("T_CHALLENGER", cards.T_CHALLENGER),
    ("T_CHALLENGE_TARGET", cards.T_CHALLENGE_TARGET),
    ("T_ATTACHED", cards.T_ATTACHED),
    ("T_SELF", cards.T_SELF),
    ("T_OWN_PAWN_EMPTY", cards.T_OWN_PAWN_EMPTY),
    ("MOVE", decisions.MOVE),
    ("RESOURCES_CHOICE", decisions.RESOURCES_CHOICE),
    ("CHALLENGE_TARGET", decisions.CHALLENGE_TARGET),
    ("ATTACH_TARGET", decisions.ATTACH_TARGET),
    ("EFFECT_TARGET", decisions.EFFECT_TARGET),
    ("REDRAW", decisions.REDRAW),
    ("ORDER", decisions.ORDER),
    ("GAME_OVER", decisions.GAME_OVER),
    ("NUM_PHASES", len(decisions.PHASE_NAMES)),
    ("CONT_END_MOVE", decisions.CONT_END_MOVE),
    ("CONT_FATE_DRAW", decisions.CONT_FATE_DRAW),
    ("CONT_FINISH_CHALLENGE", decisions.CONT_FINISH_CHALLENGE),
    ("CONT_START_MOVES", decisions.CONT_START_MOVES),
    ("PLAY_ALWAYS", decisions.PLAY_ALWAYS),
    ("PLAY_PAWN", decisions.PLAY_PAWN),
    ("PLAY_ATTACHMENT", decisions.PLAY_ATTACHMENT),
    ("PLAY_IF_USABLE", decisions.PLAY_IF_USABLE),
    ("PLAY_NEVER", decisions.PLAY_NEVER),
    ("MAX_EXTRA", decisions.MAX_EXTRA),
    ("REGISTER", decisions.REGISTER),
    ("PAWN_HEAD", observation.PAWN_HEAD),
    ("CROSS_FEATURES", observation.CROSS_FEATURES),
    ("SEAT_SCALARS", observation.SEAT_SCALARS),
    ("MAX_ROWS", MAX_ROWS),
    # numbers the C file reads
    ("N_ENV", len(observation.ENV_CARDS)),
    ("N_ATT", len(observation.ATT_CARDS)),
    ("N_DELAYED", len(observation.DELAYED_CARDS)),
    ("N_SPECIAL", len(cards.SPECIAL_CARDS)),
    ("SCORE_CAP", observation.SCORE_CAP),
    ("DELAYED_CAP", observation.DELAYED_CAP),
)


def _index_table(ids: tuple[int, ...]) -> list[int]:
    out = [-1] * cards.NUM_CARDS
    for k, c in enumerate(ids):
        out[c] = k
    return out


def _rows(field: str) -> list[int]:
    out = []
    for c in cards.CARDS:
        if len(c.effects) > MAX_ROWS:
            raise ValueError(f"{c.name} has {len(c.effects)} effect rows; the compiled twin holds {MAX_ROWS}")
        rows = [getattr(e, field) for e in c.effects]
        out += rows + [0] * (MAX_ROWS - len(rows))
    return out


def deck_option(deck: tuple[int, ...] | None) -> tuple[int, ...]:
    """One seat's deck as ``me_config.options`` carries it: its ``DECK_SIZE`` card ids, or
    ``RANDOM_DECK`` as many times for a deck drawn from the seed."""
    return (RANDOM_DECK,) * cards.DECK_SIZE if deck is None else tuple(deck)


def core_options(game: MystickGame) -> tuple[int, ...]:
    """``me_config.options``: advanced construction (0/1), ``reshuffle_opening_majors`` (0/1),
    then each seat's deck (``deck_option``) from index ``DECKS_AT`` on."""
    return (
        int(game.construction == "advanced"),
        int(game.reshuffle_opening_majors),
        *(card for d in game.decks for card in deck_option(d)),
    )


def core_tables() -> dict[str, list[int]]:
    """Every table of the C file's ``TABLES``, by name."""
    from mystic_envs.mystick_domination.rules import ATT_INFLUENCE, ATT_TRAIT, ENV_TRAIT_INFLUENCE

    every = cards.CARDS
    return {
        "suit": [c.suit for c in every],
        "rank": [c.rank for c in every],
        "type": [c.type for c in every],
        "number": [c.number for c in every],
        "influence": [c.influence for c in every],
        "traits": [c.traits for c in every],
        "trigger": [c.trigger for c in every],
        "num_effects": [len(c.effects) for c in every],
        "eff_op": _rows("op"),
        "eff_amount": _rows("amount"),
        "eff_target": _rows("target"),
        "att_influence": list(ATT_INFLUENCE),
        "att_trait": list(ATT_TRAIT),
        "env_trait": [t[0] if t is not None else 0 for t in ENV_TRAIT_INFLUENCE],  # 0: no trait bonus
        "env_trait_amount": [t[1] if t is not None else 0 for t in ENV_TRAIT_INFLUENCE],
        "play_kind": list(decisions.PLAY_KIND),
        "special_index": [decisions.SPECIAL_INDEX.get(c, -1) for c in range(cards.NUM_CARDS)],
        "special_cards": list(cards.SPECIAL_CARDS) + [-1] * (cards.NUM_CARDS - len(cards.SPECIAL_CARDS)),
        "env_index": _index_table(observation.ENV_CARDS),
        "att_index": _index_table(observation.ATT_CARDS),
        "delayed_index": _index_table(observation.DELAYED_CARDS),
        "pool_by_players": [cards.POOL_BY_PLAYERS.get(n, 0) for n in range(6)],
        "obs_size": [build_layout_for(n)[-1].stop if n >= 2 else 0 for n in range(6)],
        "pool_cap": [observation.pool_cap(n) if n >= 2 else 0 for n in range(6)],
        "consts": [value for _, value in CONSTS],
    }


HIDDEN_PARTS = (
    ("hand", cards.NUM_CARDS, "count / 3 of each card in the hand (face down or up)"),
    ("deck", cards.DECK_SIZE, "the deck from the top: (card id + 1) / 78 each, 0 past its end"),
)


def privileged_layout(game: MystickGame) -> tuple[LayoutEntry, ...]:
    """Every seat's observation, then each seat's hand and deck order."""
    n = game.num_players
    hidden = [
        (f"{name}_{p}", size, f"player_{p}'s {meaning}")
        for p in range(n)
        for name, size, meaning in HIDDEN_PARTS
    ]
    return privileged_view_layout(n, build_layout_for(n)[-1].stop, hidden)


def privileged_observation(state: MystickState) -> np.ndarray:
    """The privileged view of ``state`` (float32), laid out by ``privileged_layout``."""
    n = state.n
    per_seat = cards.NUM_CARDS + cards.DECK_SIZE
    hidden = np.zeros(n * per_seat, dtype=np.float32)
    for p in range(n):
        base = p * per_seat
        hidden[base : base + cards.NUM_CARDS] = np.asarray(state.hand[p], dtype=np.float32) / np.float32(3)
        for k, c in enumerate(reversed(state.deck[p])):
            hidden[base + cards.NUM_CARDS + k] = np.float32(c + 1) / np.float32(cards.NUM_CARDS)
    return np.concatenate([*(state.observation(p) for p in range(n)), hidden])


__all__ = [
    "CONSTS",
    "CORE_NAME",
    "core_options",
    "core_tables",
    "privileged_layout",
    "privileged_observation",
]
