"""Markdown tables of Mystic Vale's component data, embedded in ``docs/rules/mystic_vale.md``.

``python -m mystic_envs.mystic_vale.docs_tables`` prints every block between its
``<!-- generated:NAME -->`` markers; ``tests/test_docs.py`` keeps the page equal to them. The
figures (curves per level, spirit supply against vale costs) are computed here from the data, so a
change to a card changes them.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable

from mystic_envs.mystic_vale.cards import (
    ADVANCEMENT_BUYS,
    ADVANCEMENTS,
    COMMONS,
    COMMONS_FACE_UP,
    DECAY_CAP,
    LEVEL1_CUT,
    OP_NAMES,
    PER_GUARDIAN_ON_CARD,
    PER_NAMES,
    PER_ONE,
    PER_SYMBOL_ON_CARD,
    PLAYER_COUNTS,
    PREP_DECAY,
    SLOT_NAMES,
    SPIRIT_NAMES,
    SPOIL_DECAY,
    STARTING_DECK,
    SYMBOL_NAMES,
    TRIGGER_NAMES,
    VALE_BUYS,
    VALES,
    VALES_FACE_UP,
    VP_POOL,
    VP_TOKENS_IN_BOX,
    WILD_FOR_MANA,
    Ability,
    Advancement,
    Symbols,
)


def symbols_text(sym: Symbols) -> str:
    """``2 guardian, 1 animal, 1 decay``; ``-`` for none."""
    parts = [f"{n} {name}" for name, n in zip(SYMBOL_NAMES, sym, strict=True) if n]
    return ", ".join(parts) or "-"


def encoded(ability: Ability) -> str:
    """The ability's rows as ``trigger: op(amount per ..., arg)``."""
    if not ability.effects:
        return "-"
    rows = []
    for e in ability.effects:
        amount = str(e.amount)
        if e.per != PER_ONE:
            amount += f" per {PER_NAMES[e.per]}"
        if OP_NAMES[e.op] == "gain spirit":
            amount += f", {SPIRIT_NAMES[e.arg]}"
        rows.append(f"{OP_NAMES[e.op]}({amount})")
    may = ", optional" if ability.optional else ""
    return f"{TRIGGER_NAMES[ability.trigger]}{may}: " + "; ".join(rows)


def _slot(a: Advancement) -> str:
    return SLOT_NAMES[a.slot] + (" + band" if a.band else "")


def advancements_table() -> str:
    """Every commons advancement (32 names, 96 cards), by level."""
    rows = [
        "| id | advancement | level | copies | cost | slot | symbols | harvest VP | end VP | ability | "
        "encoded | known (source) | why |",
        "|--:|---|--:|--:|--:|---|---|--:|--:|---|---|---|---|",
    ]
    for a in ADVANCEMENTS:
        if a.kind != COMMONS:
            continue
        rows.append(
            f"| {a.id} | {a.name} | {a.level} | {a.copies} | {a.cost} | {_slot(a)} | "
            f"{symbols_text(a.symbols)} | {a.harvest_vp} | {a.end_vp} | {a.ability.text or '-'} | "
            f"`{encoded(a.ability)}` | {a.source} | {a.why} |"
        )
    return "\n".join(rows)


def starting_table() -> str:
    """The Fertile Soil supply and each player's 20 starting cards."""
    rows = [
        "| card | copies | cost | slot | symbols | known (source) | why |",
        "|---|--:|--:|---|---|---|---|",
    ]
    for a in ADVANCEMENTS:
        if a.kind == COMMONS or a.name != "Fertile Soil":
            continue
        rows.append(
            f"| Fertile Soil advancement ({SLOT_NAMES[a.slot]}) | {a.copies} in the supply | {a.cost} | "
            f"{SLOT_NAMES[a.slot]} | {symbols_text(a.symbols)} | {a.source} | {a.why} |"
        )
    for card in STARTING_DECK:
        printed = ADVANCEMENTS[card.printed] if card.printed >= 0 else None
        slot = SLOT_NAMES[printed.slot] + " (printed)" if printed else "all open"
        sym = symbols_text(printed.symbols) if printed else "-"
        source = printed.source if printed else "RB"
        rows.append(
            f"| {card.name} starting card | {card.copies} per player | - | {slot} | {sym} | {source} | "
            f"{card.why} |"
        )
    return "\n".join(rows)


def _cost_text(cost: tuple[int, ...]) -> str:
    return ", ".join(f"{n} {name}" for name, n in zip(SPIRIT_NAMES, cost, strict=True) if n)


def vales_table() -> str:
    """Every vale (22 names, 36 cards), by level."""
    rows = [
        "| id | vale | level | copies | spirit cost | end VP | ability | encoded | known (source) | why |",
        "|--:|---|--:|--:|---|--:|---|---|---|---|",
    ]
    for v in VALES:
        rows.append(
            f"| {v.id} | {v.name} | {v.level} | {v.copies} | {_cost_text(v.cost)} | {v.end_vp} | "
            f"{v.ability.text or '-'} | `{encoded(v.ability)}` | {v.source} | {v.why} |"
        )
    return "\n".join(rows)


def _per_card(level: int, value: Callable[[Advancement], float]) -> float:
    cards = [a for a in ADVANCEMENTS if a.kind == COMMONS and a.level == level]
    return sum(value(a) * a.copies for a in cards) / sum(a.copies for a in cards)


def _good_symbols(a: Advancement) -> int:
    s = a.symbols
    return s.mana + s.growth + s.guardian + sum(s.spirits)


def curves_table() -> str:
    """Per level: cards, then means per card (copies weighted) of cost, VP and each symbol; in the
    last columns the symbols other than decay per card and in all, and the share with an ability."""
    rows = [
        "| level | names | cards | cost mean (range) | harvest VP | end VP | mana | decay | growth | "
        "guardian | spirits | symbols but decay (all cards) | with an ability |",
        "|--:|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|---|--:|",
    ]
    for level in (1, 2, 3):
        cards = [a for a in ADVANCEMENTS if a.kind == COMMONS and a.level == level]
        costs = [a.cost for a in cards]
        means = [
            _per_card(level, value)
            for value in (
                lambda a: a.harvest_vp,
                lambda a: a.end_vp,
                lambda a: a.symbols.mana,
                lambda a: a.symbols.decay,
                lambda a: a.symbols.growth,
                lambda a: a.symbols.guardian,
                lambda a: sum(a.symbols.spirits),
            )
        ]
        good = sum(_good_symbols(a) * a.copies for a in cards)
        rows.append(
            f"| {level} | {len(cards)} | {sum(a.copies for a in cards)} | "
            f"{_per_card(level, lambda a: a.cost):.2f} ({min(costs)}-{max(costs)}) | "
            + " | ".join(f"{m:.2f}" for m in means)
            + f" | {_per_card(level, _good_symbols):.2f} ({good}) | "
            f"{_per_card(level, lambda a: bool(a.ability.effects)):.2f} |"
        )
    return "\n".join(rows)


def spirits_table() -> str:
    """Spirit symbols printed on the advancements against the spirits the vales cost (cards x symbols)."""
    rows = ["| | animal | forest | sky | wild | total |", "|---|--:|--:|--:|--:|--:|"]

    def line(label: str, counts: list[int]) -> str:
        return f"| {label} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |"

    for level in (1, 2, 3):
        cards = [a for a in ADVANCEMENTS if a.kind == COMMONS and a.level == level]
        counts = [sum(a.symbols.spirits[k] * a.copies for a in cards) for k in range(4)]
        rows.append(line(f"printed on level-{level} advancements", counts))
    for level in (1, 2):
        counts = [sum(v.cost[k] * v.copies for v in VALES if v.level == level) for k in range(4)]
        rows.append(line(f"cost of the level-{level} vales", counts))
    producers = [0, 0, 0, 0]
    for v in VALES:
        for e in v.ability.effects:
            if OP_NAMES[e.op] == "gain spirit":
                producers[e.arg] += e.amount * v.copies
    rows.append(line("made each Harvest by the producer vales", producers))
    mean_cost = {
        lvl: sum(v.cost.total * v.copies for v in VALES if v.level == lvl)
        / sum(v.copies for v in VALES if v.level == lvl)
        for lvl in (1, 2)
    }
    printed = [
        sum(a.symbols.spirits[k] * a.copies for a in ADVANCEMENTS if a.kind == COMMONS) for k in range(4)
    ]
    level1 = [sum(a.symbols.spirits[k] * a.copies for a in ADVANCEMENTS if a.kind == COMMONS and a.level == 1)
              for k in range(4)]  # fmt: skip
    need1 = [sum(v.cost[k] * v.copies for v in VALES if v.level == 1) for k in range(4)]
    rows.append("")
    per_kind = ", ".join(f"{SPIRIT_NAMES[k]} {level1[k]} of {need1[k]}" for k in range(3))
    rows.append(
        f"All 96 advancements print {sum(printed)} spirits ({printed[3]} wild) against "
        f"{sum(v.cost.total * v.copies for v in VALES)} cost symbols on the 36 vales; a vale card costs "
        f"{mean_cost[1]:.2f} spirits at level 1 and {mean_cost[2]:.2f} at level 2. The level-1 advancements "
        f"print {sum(level1)} against the level-1 vales' {sum(need1)} (named spirits: {per_kind})."
    )
    return "\n".join(rows)


def _best_card(ability_card: Advancement, per: int) -> tuple[int, tuple[Advancement, ...], int]:
    """The most guardians (or symbols) a legal card with ``ability_card`` can hold: one commons
    advancement or nothing per other slot, on a blank; ties go to the least decay (a long-wise
    ``decay cap`` counts, the owner sleeving it last)."""
    by_slot = [
        [None] + [a for a in ADVANCEMENTS if a.kind == COMMONS and a.slot == slot] for slot in range(3)
    ]
    by_slot[ability_card.slot] = [ability_card]
    best: tuple[int, int, tuple[Advancement, ...]] | None = None
    for parts in itertools.product(*by_slot):
        card = tuple(a for a in parts if a is not None)
        if per == PER_GUARDIAN_ON_CARD:
            count = sum(a.symbols.guardian for a in card)
        else:
            count = sum(sum(a.symbols) for a in card)
        caps = [e.amount for a in card for e in a.ability.effects if e.op == DECAY_CAP]
        decay = min([sum(a.symbols.decay for a in card), *caps])
        key = (count, -decay, tuple(a.id for a in card))
        if best is None or key[:2] > best[:2]:
            best = (count, -decay, card)
    assert best is not None
    return best[0], best[2], -best[1]


def combos_table() -> str:
    """For each ability that counts its own card, the best legal card for it (measured over every
    combination of commons advancements on a blank card)."""
    rows = [
        "| ability | best card (top, middle, bottom) | counted | value | card's decay |",
        "|---|---|--:|---|--:|",
    ]
    for a in ADVANCEMENTS:
        for e in a.ability.effects:
            if e.per not in (PER_GUARDIAN_ON_CARD, PER_SYMBOL_ON_CARD):
                continue
            count, card, decay = _best_card(a, e.per)
            counted = "guardians" if e.per == PER_GUARDIAN_ON_CARD else "symbols"
            names = ", ".join(p.name for p in sorted(card, key=lambda p: p.slot))
            rows.append(
                f"| {a.name}: {OP_NAMES[e.op]} {e.amount} per {PER_NAMES[e.per]} | {names} | "
                f"{count} {counted} | {e.amount * count} | {decay} |"
            )
    return "\n".join(rows)


def setup_table() -> str:
    """The rulebook's setup and turn constants as the data holds them."""
    per_players = lambda table: ", ".join(f"{table[n]}" for n in PLAYER_COUNTS)  # noqa: E731
    tokens = " + ".join(f"{n} x {value} VP" for value, n in VP_TOKENS_IN_BOX.items())
    rows = [
        "| constant | value | rulebook |",
        "|---|---|---|",
        f"| `LEVEL1_CUT` | {per_players(LEVEL1_CUT)} level-1 advancements at 2, 3, 4 players | Setup 2 |",
        f"| `COMMONS_FACE_UP` | {COMMONS_FACE_UP} face up per level | Setup 2 |",
        f"| `VALES_FACE_UP` | {VALES_FACE_UP} face up per level | Setup 3 |",
        f"| `VP_POOL` | {per_players(VP_POOL)} VP at 2, 3, 4 players | Setup 4 |",
        f"| `VP_TOKENS_IN_BOX` | {tokens} | Components |",
        f"| `ADVANCEMENT_BUYS`, `VALE_BUYS` | {ADVANCEMENT_BUYS}, {VALE_BUYS} per turn | Harvest Phase |",
        f"| `SPOIL_DECAY` | {SPOIL_DECAY} decay (less growth) spoils | Spoiling |",
        f"| `PREP_DECAY` | prep plays until {PREP_DECAY} decay show | Prep Phase |",
        f"| Sunstone Aerie's price | {_sunstone_price()} mana | Card Clarifications |",
    ]
    return "\n".join(rows)


def _sunstone_price() -> int:
    return next(e.amount for v in VALES for e in v.ability.effects if e.op == WILD_FOR_MANA)


#: Marker name -> table generator (the engine's ``mystic_vale_v0.DOC_TABLES`` will hold the same).
DOC_TABLES: dict[str, Callable[[], str]] = {
    "advancements": advancements_table,
    "starting": starting_table,
    "vales": vales_table,
    "curves": curves_table,
    "spirits": spirits_table,
    "combos": combos_table,
    "setup": setup_table,
}


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args:
        raise SystemExit("usage: python -m mystic_envs.mystic_vale.docs_tables (no arguments)")
    for name, make_table in DOC_TABLES.items():
        print(f"<!-- generated:{name} -->\n{make_table()}\n<!-- /generated:{name} -->\n")


if __name__ == "__main__":
    main()
