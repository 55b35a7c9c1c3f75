"""The Python side of Mystic Vale's compiled twin, ``mystic_vale.c`` (CONVENTIONS section 8).

The twin plays exactly the game of :mod:`mystic_envs.mystic_vale.rules` (same seed, same chance
draws, same observations bit for bit); this module is what the core's glue asks of the game:

- ``core_options(game)``: none (the player count travels in ``me_config.num_players``).
- ``core_tables()``: every component table the C file reads, by the names of its ``me_table``
  list, derived here from ``cards.py`` and ``sleeves.py`` so that no card's number is typed twice:
  each advancement's kind, level, copies, cost, slot, band, symbols, VP and ability rows, each
  vale's cost, VP and what its ability does, the starting deck, the setup numbers and the
  observation's layout. The C file names no card: it reads every card from these rows. ``consts``
  carries the ids it names (actions, phases, stages, triggers, ops, multipliers), which its
  ``dims()`` compares with its own, so a renumbering here cannot pass unnoticed, then the setup
  numbers it reads.
- ``privileged_layout(game)`` and ``privileged_observation(state)``: the privileged view for
  centralized critics, and its Python reference: every seat's observation, then every card no
  seat or only its owner sees (each deck's order, each discard pile, the commons and vale decks in
  order, the level-1 advancements left in the box). Never for an acting policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import LayoutEntry, privileged_view_layout
from mystic_envs.mystic_vale import cards, decisions, observation, sleeves

if TYPE_CHECKING:
    from mystic_envs.mystic_vale.rules import ValeGame, ValeState

CORE_NAME = "mystic_vale"

# Room the C file keeps for the data (its MAX_* sizes): core_tables pads each table to these.
MAX_ADV = 64
MAX_VALES = 48
MAX_EFFECTS = 3
ADV_WIDTH = 19 + 4 * MAX_EFFECTS  # kind, level, copies, cost, slot, band, 8 symbols, VP, ability
VALE_WIDTH = 15 + 3 * MAX_EFFECTS  # level, copies, cost, VP, what the ability does, Harvest rows
LAYOUT_PARTS = 13 + 3 * max(cards.PLAYER_COUNTS)  # the shared parts, then 3 per seat

# The C file's "consts" table, in the order of its C_* enum: first the ids it checks, then the
# setup numbers it reads.
CONSTS: tuple[tuple[str, int], ...] = (
    ("NUM_CARDS", sleeves.NUM_CARDS),
    ("A_PASS", decisions.PASS),
    ("A_PUSH", decisions.PUSH),
    ("A_DONE", decisions.DONE),
    ("A_CARD", decisions.CARD),
    ("A_DISCARD_PEEKED", decisions.DISCARD_PEEKED),
    ("A_REDRAW_DRUID", decisions.REDRAW_DRUID),
    ("A_REDRAW_VALE", decisions.REDRAW_VALE),
    ("A_SACRIFICE", decisions.SACRIFICE),
    ("A_CONCLAVE", decisions.CONCLAVE),
    ("A_BUY_COMMONS", decisions.BUY_COMMONS),
    ("A_BUY_FERTILE", decisions.BUY_FERTILE),
    ("A_BUY_VALE", decisions.BUY_VALE),
    ("A_SUNSTONE", decisions.SUNSTONE),
    ("NUM_ACTIONS", decisions.NUM_ACTIONS),
    ("PH_PLANT", decisions.PLANT),
    ("PH_WP_DISCARD", decisions.WP_DISCARD),
    ("PH_PEEK", decisions.PEEK),
    ("PH_SEARCH", decisions.SEARCH),
    ("PH_WOULD_SPOIL", decisions.WOULD_SPOIL),
    ("PH_CONCLAVE_TARGET", decisions.CONCLAVE_TARGET),
    ("PH_HARVEST", decisions.HARVEST),
    ("PH_DECLARE", decisions.DECLARE),
    ("PH_SLEEVE", decisions.SLEEVE),
    ("PH_GAME_OVER", decisions.GAME_OVER),
    ("NUM_PHASES", len(decisions.PHASE_NAMES)),
    ("ST_PLANTING", decisions.PLANTING),
    ("ST_HARVESTING", decisions.HARVESTING),
    ("ST_DISCARDING", decisions.DISCARDING),
    ("ST_PREPPING", decisions.PREPPING),
    ("ST_OVER", decisions.OVER),
    ("NUM_STAGES", len(decisions.STAGE_NAMES)),
    ("K_COMMONS", cards.COMMONS),
    ("K_PRINTED", cards.PRINTED),
    ("WILD", cards.WILD),
    ("T_WHEN_PLAYED", cards.WHEN_PLAYED),
    ("T_HARVEST", cards.HARVEST),
    ("T_ONGOING", cards.ONGOING),
    ("T_IN_FIELD", cards.IN_FIELD),
    ("T_WOULD_SPOIL", cards.WOULD_SPOIL),
    ("T_END_GAME", cards.END_GAME),
    ("OP_GAIN_MANA", cards.GAIN_MANA),
    ("OP_LOSE_MANA", cards.LOSE_MANA),
    ("OP_GAIN_SPIRIT", cards.GAIN_SPIRIT),
    ("OP_GAIN_VP", cards.GAIN_VP),
    ("OP_GROWTH", cards.GROWTH),
    ("OP_DECAY_CAP", cards.DECAY_CAP),
    ("OP_DISCARD_FROM_FIELD", cards.DISCARD_FROM_FIELD),
    ("OP_PEEK_TOP", cards.PEEK_TOP),
    ("OP_SEARCH_DECK", cards.SEARCH_DECK),
    ("OP_DISCOUNT_SAME_CARD", cards.DISCOUNT_SAME_CARD),
    ("PER_ONE", cards.PER_ONE),
    ("PER_GUARDIAN_ON_CARD", cards.PER_GUARDIAN_ON_CARD),
    ("PER_OTHER_FIELD_CARD", cards.PER_OTHER_FIELD_CARD),
    ("PER_TWO_FIELD_CARDS", cards.PER_TWO_FIELD_CARDS),
    ("PER_SYMBOL_ON_CARD", cards.PER_SYMBOL_ON_CARD),
    ("COMMONS_FACE_UP", cards.COMMONS_FACE_UP),
    ("VALES_FACE_UP", cards.VALES_FACE_UP),
    ("NUM_ZONES", len(observation.ZONES)),
    ("CARD_STATS", observation.CARD_STATS),
    ("SEAT_SCALARS", observation.SEAT_SCALARS),
    # setup numbers, read from here
    ("NUM_ADV", len(cards.ADVANCEMENTS)),
    ("NUM_VALES", len(cards.VALES)),
    ("NUM_COMMONS", len(cards.COMMONS_IDS)),
    *((f"LEVEL1_CUT_{n}", cards.LEVEL1_CUT[n]) for n in cards.PLAYER_COUNTS),
    *((f"VP_POOL_{n}", cards.VP_POOL[n]) for n in cards.PLAYER_COUNTS),
    ("FERTILE_PER_SLOT", cards.NUM_FERTILE_SOIL // 3),
    *((f"FERTILE_SOIL_{s}", cards.FERTILE_SOIL[s]) for s in range(3)),
    ("ADVANCEMENT_BUYS", cards.ADVANCEMENT_BUYS),
    ("VALE_BUYS", cards.VALE_BUYS),
    ("SPOIL_DECAY", cards.SPOIL_DECAY),
    ("PREP_DECAY", cards.PREP_DECAY),
)


def _level_copies(level: int) -> int:
    return sum(cards.ADVANCEMENTS[a].copies for a in cards.level_ids(level))


def _vale_copies(level: int) -> int:
    return sum(cards.VALES[v].copies for v in cards.vale_ids(level))


def _adv_row(a: cards.Advancement) -> list[int]:
    ab = a.ability
    assert len(ab.effects) <= MAX_EFFECTS, f"{a.name}: more ability rows than the twin keeps"
    effects = [x for e in ab.effects for x in (e.op, e.amount, e.per, e.arg)]
    effects += [0] * (4 * MAX_EFFECTS - len(effects))
    return [a.kind, a.level, a.copies, a.cost, a.slot, int(a.band), *a.symbols, a.harvest_vp, a.end_vp,
            ab.trigger, int(ab.optional), len(ab.effects), *effects]  # fmt: skip


def _vale_row(v: cards.Vale) -> list[int]:
    i = v.id
    rows = sleeves.VALE_HARVEST[i]
    assert len(rows) <= MAX_EFFECTS, f"{v.name}: more Harvest rows than the twin keeps"
    harvest = [x for e in rows for x in (e.op, e.amount, e.arg)]
    harvest += [0] * (3 * MAX_EFFECTS - len(harvest))
    return [v.level, v.copies, *sleeves.VALE_COSTS[i], v.end_vp, sleeves.VALE_GROWTH[i],
            int(sleeves.VALE_ONE_PER_PLAYER[i]), sleeves.VALE_REDRAW[i], sleeves.VALE_SACRIFICE[i],
            sleeves.VALE_ADD_GUARDIAN[i], sleeves.VALE_BUY_LIMIT[i], sleeves.VALE_WILD_FOR_MANA[i],
            len(rows), *harvest]  # fmt: skip


def _layout_starts(n: int) -> list[int]:
    from mystic_envs.mystic_vale.rules import ValeGame

    layout = ValeGame(n).observation_layout()
    starts = [e.start for e in layout]
    size = layout[-1].stop
    return starts + [size] * (LAYOUT_PARTS + 1 - len(starts))


def core_options(game: ValeGame) -> tuple[int, ...]:
    """``me_config.options``: none."""
    return ()


def core_tables() -> dict[str, list[int]]:
    """Every table of the C file's ``TABLES``, by name."""
    assert len(cards.ADVANCEMENTS) <= MAX_ADV and len(cards.VALES) <= MAX_VALES
    adv = [x for a in cards.ADVANCEMENTS for x in _adv_row(a)]
    adv += [0] * (MAX_ADV * ADV_WIDTH - len(adv))
    vale = [x for v in cards.VALES for x in _vale_row(v)]
    vale += [0] * (MAX_VALES * VALE_WIDTH - len(vale))
    commons_index = [-1] * MAX_ADV
    for k, a in enumerate(cards.COMMONS_IDS):
        commons_index[a] = k
    return {
        "consts": [value for _, value in CONSTS],
        "adv": adv,
        "vale": vale,
        "commons_index": commons_index,
        "start_printed": list(sleeves.START_PRINTED),
        "obs_at": [x for n in cards.PLAYER_COUNTS for x in _layout_starts(n)],
    }


def _hidden_parts(n: int) -> list[tuple[str, int, str]]:
    num_cards = sleeves.NUM_CARDS
    commons, vales = len(cards.COMMONS_IDS), len(cards.VALES)
    top = "from the top, one row per card: one-hot of"
    parts = []
    for p in range(n):
        parts.append((f"deck_{p}", num_cards * num_cards, f"player_{p}'s deck {top} its card index"))
        parts.append((f"discard_{p}", num_cards, f"player_{p}'s discard pile: 1 per card index in it"))
    for lv in (1, 2, 3):
        parts.append(
            (f"level_{lv}_deck", _level_copies(lv) * commons, f"the level-{lv} deck {top} the advancement")
        )
    parts.append(("level_1_box", commons, "level-1 advancements left in the box, count per advancement"))
    for lv in (1, 2):
        parts.append(
            (f"vale_deck_{lv}", _vale_copies(lv) * vales, f"the level-{lv} vale deck {top} the vale")
        )
    return parts


def privileged_layout(game: ValeGame) -> tuple[LayoutEntry, ...]:
    """Every seat's observation, then each deck, discard pile and face-down pile (``_hidden_parts``)."""
    return privileged_view_layout(game.num_players, game.observation_size, _hidden_parts(game.num_players))


def privileged_observation(state: ValeState) -> np.ndarray:
    """The privileged view of ``state`` (float32), laid out by ``privileged_layout``."""
    n = state.n
    num_cards = sleeves.NUM_CARDS
    index = {a: k for k, a in enumerate(cards.COMMONS_IDS)}
    commons, vales = len(cards.COMMONS_IDS), len(cards.VALES)
    blocks = []
    for p in range(n):
        deck = np.zeros((num_cards, num_cards), dtype=np.float32)
        for i, c in enumerate(reversed(state.deck[p])):  # the engine keeps the top card last
            deck[i, c] = 1.0
        discard = np.zeros(num_cards, dtype=np.float32)
        discard[state.discard[p]] = 1.0
        blocks += [deck.ravel(), discard]
    for lv in (1, 2, 3):
        pile = np.zeros((_level_copies(lv), commons), dtype=np.float32)
        for i, a in enumerate(reversed(state.level_deck[lv - 1])):
            pile[i, index[a]] = 1.0
        blocks.append(pile.ravel())
    box = np.zeros(commons, dtype=np.float32)
    for a in state.l1_box:
        box[index[a]] += 1.0
    blocks.append(box)
    for lv in (1, 2):
        pile = np.zeros((_vale_copies(lv), vales), dtype=np.float32)
        for i, v in enumerate(reversed(state.vale_deck[lv - 1])):
            pile[i, v] = 1.0
        blocks.append(pile.ravel())
    return np.concatenate([state.observation(p) for p in range(n)] + blocks)


__all__ = [
    "CONSTS",
    "CORE_NAME",
    "core_options",
    "core_tables",
    "privileged_layout",
    "privileged_observation",
]
