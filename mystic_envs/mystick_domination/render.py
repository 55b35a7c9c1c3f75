"""Text render of a Mystick Domination table and the card tables of the docs, apart from the rules.

``describe(state, viewer)`` shows what everyone at the table sees (pool, Draw Count, scores, deck
and hand sizes, play areas with Power, each Mystick Cross, discard tops, shown cards) and, for a
``viewer`` seat, its own hand. ``card_text(card)`` is a card's full text, for "on request" help.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystick_domination.cards import (
    CARDS,
    CROSS_SPACES,
    GRANT_TRAIT,
    MAX_PAWNS,
    NUM_CARDS,
    OP_NAMES,
    SUIT_NAMES,
    TARGET_NAMES,
    TRAIT_BITS,
    TRAIT_INFLUENCE,
    TRAIT_NAMES,
    TRIGGER_NAMES,
    TYPE_NAMES,
    Effect,
)
from mystic_envs.mystick_domination.rules import GAME_OVER, PHASE_NAMES

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState


def _traits(bits: int) -> str:
    return "/".join(TRAIT_NAMES[t] for t, b in enumerate(TRAIT_BITS) if bits & b)


def card_text(card: int) -> str:
    """One card's name, type and text: the "each card's text on request" of a terminal client."""
    c = CARDS[card]
    head = f"{c.name} ({c.title}) - {TYPE_NAMES[c.type]}"
    if c.influence or c.type == 1:
        head += f", influence {c.influence}"
    return f"{head}: {c.text or 'no text'}"


def _counts(counts: list[int]) -> str:
    return (
        ", ".join(f"{CARDS[c].name}" + (f" x{k}" if k > 1 else "") for c, k in enumerate(counts) if k) or "-"
    )


def describe(s: MystickState, viewer: int | None = None) -> str:
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = [
        f"Mystick: Domination - round {s.round}, phase {PHASE_NAMES[s.phase]}, "
        f"pool {s.pool} Power, Draw Count {s.draw_count}/3"
    ]
    if s.phase == GAME_OVER:
        won = ", ".join(f"player_{q}" for q in s.winners())
        lines.append(f"Game over: {won} {'wins' if len(s.winners()) == 1 else 'draw'}")
    else:
        lines.append(
            f"To act: player_{s.player} (move of player_{s.mover}; initiative player_{s.initiative_winner})"
        )
    for q in range(s.n):
        you = " (you)" if viewer == q else ""
        state = "" if s.alive[q] else " ELIMINATED"
        lines.append(
            f"player_{q}{you}{state}: score {s.score[q]}, deck {len(s.deck[q])}, hand {s.hand_size[q]}, "
            f"discard {len(s.discard[q])} (top: {CARDS[s.discard[q][-1]].name if s.discard[q] else '-'})"
        )
        if viewer == q:
            lines.append(f"  hand: {_counts(s.hand[q])}")
        elif any(s.shown[q]):
            lines.append(f"  shown in hand: {_counts(s.shown[q])}")
        looked = s.looked_top(viewer, q)
        if looked:
            top = [CARDS[c].name for c in reversed(s.deck[q][-looked:])]
            lines.append(f"  deck top (looked at): {', '.join(top)}")
        elif s.known_top[q]:
            lines.append(f"  deck top: {s.known_top[q]} card(s) looked at by another player")
        if s.envs[q]:
            lines.append(f"  environments: {', '.join(CARDS[c].name for c in s.envs[q])}")
        for slot in range(MAX_PAWNS):
            c = s.pawn[q][slot]
            if c < 0:
                continue
            atts = ", ".join(f"{CARDS[a].name} (of player_{o})" for a, o in s.attach[q][slot])
            traits = _traits(s.traits[q][slot])
            lines.append(
                f"  pawn {slot}: {CARDS[c].name}, influence {s.infl[q][slot]}, Power {s.power[q][slot]}"
                + (f", {traits}" if traits else "")
                + (f"; attached: {atts}" if atts else "")
            )
        cross = s.cross[q]
        if max(cross) >= 0:
            spaces = " ".join(
                f"{j + 1}:{CARDS[cross[j]].name if cross[j] >= 0 else '.'}" for j in range(CROSS_SPACES)
            )
            lines.append(f"  Mystick Cross: {spaces}")
    if s.delayed:
        waiting = ", ".join(f"{CARDS[c].name} (player_{o})" for o, c in s.delayed)
        lines.append(f"After the next initiative draw: {waiting}")
    if s.ch_slot >= 0:
        target = "the pool" if s.ch_tseat < 0 else f"player_{s.ch_tseat}'s {CARDS[s.ch_tcard].name}"
        lines.append(f"Challenge: player_{s.mover}'s {CARDS[s.ch_card].name} against {target}")
    return "\n".join(lines)


def _effects(card: int) -> str:
    rows = CARDS[card].effects
    if not rows:
        return "-"
    return "; ".join(_row(e) for e in rows)


def _row(e: Effect) -> str:
    # A trait is a bit in the row: GRANT_TRAIT's amount, TRAIT_INFLUENCE's target; name it.
    trait = {bit: name for bit, name in zip(TRAIT_BITS, TRAIT_NAMES, strict=True)}
    if e.op == GRANT_TRAIT:
        return f"{OP_NAMES[e.op]}({trait[e.amount]}, {TARGET_NAMES[e.target]})"
    if e.op == TRAIT_INFLUENCE:
        return f"{OP_NAMES[e.op]}({e.amount:+d}, your Pawns with {trait[e.target]})"
    return f"{OP_NAMES[e.op]}({e.amount}{', ' + TARGET_NAMES[e.target] if e.target else ''})"


def cards_table() -> str:
    """Every card: id, name, title, type, suit, rank, influence, traits, trigger, text, encoded
    effect and why (embedded in docs/rules/mystick_domination.md)."""
    rows = [
        "| id | card | title | type | influence | traits | trigger | text | encoded effect | why |",
        "|--:|---|---|---|--:|---|---|---|---|---|",
    ]
    for cid in range(NUM_CARDS):
        c = CARDS[cid]
        infl = str(c.influence) if c.type == 1 else ""
        rows.append(
            f"| {cid} | {c.name} | {c.title} | {TYPE_NAMES[c.type]} | {infl} | {_traits(c.traits)} | "
            f"{TRIGGER_NAMES[c.trigger]} | {c.text} | `{_effects(cid)}` | {c.why} |"
        )
    return "\n".join(rows)


def suits_table() -> str:
    """How many cards of each suit do what, by type (embedded in the docs)."""
    rows = ["| suit | Pawns (influence, traits) |", "|---|---|"]
    for suit, name in enumerate(SUIT_NAMES):
        pawns = [c for c in CARDS if c.suit == suit and c.type == 1]
        text = ", ".join(
            f"{c.rank}: {c.influence}{' ' + _traits(c.traits) if c.traits else ''}" for c in pawns
        )
        rows.append(f"| {name} | {text} |")
    return "\n".join(rows)


# The terminal's action labels and ? text (table.py); agents.human looks for them in this module.
from mystic_envs.mystick_domination.table import describe_action, table_effects  # noqa: E402, F401
