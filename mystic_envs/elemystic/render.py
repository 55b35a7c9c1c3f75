"""Text render of an Elemystic table, apart from the rules (pgx style).

Shows what an onlooker at the table sees: energies, arrows, tokens, the pool, face-up hands and
columns. A secret element in hand shows only as "+ 1 secret"; the Unknown Element not at all. Given a
``viewer`` seat, the text also names what that seat sees privately: its own secret, and the
opponent's secret while the viewer's Light effect lasts. The Unknown Element stays hidden from all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.elemystic.cards import ELEMENT_NAMES, ELEMENTS, INV_DEFENSE, SPEED, TOKENS
from mystic_envs.elemystic.rules import GAME_OVER, MASK_ELEMENTS, PHASE_NAMES

if TYPE_CHECKING:
    from mystic_envs.elemystic.rules import ElemysticState


def _names(mask: int) -> str:
    return ", ".join(ELEMENT_NAMES[e] for e in MASK_ELEMENTS[mask]) or "-"


def describe(s: ElemysticState, viewer: int | None = None) -> str:
    """The table as an onlooker sees it, or with ``viewer`` (0 or 1) as that seat sees it."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = [f"Elemystic - round {s.round}, phase {PHASE_NAMES[s.phase]}"]
    if s.phase == GAME_OVER:
        lines.append(f"Game over: player_{s.winner} wins")
    else:
        lines.append(f"To move: player_{s.player}")
    if s.last_round is not None:
        r = s.last_round
        lines.append(
            f"Round {r.round} resolved: fronts {ELEMENT_NAMES[r.fronts[0]]} vs {ELEMENT_NAMES[r.fronts[1]]}, "
            f"energy lost {r.energy_lost[0]} / {r.energy_lost[1]}"
        )
    lines.append(f"Draft First -> player_{s.draft_first}   Play First -> player_{s.play_first}")
    if s.pool:
        lines.append(f"Drafting pool: {_names(s.pool)}")
    for p in (0, 1):
        secret_bit = 1 << s.secret[p]
        secret_note = ""
        if s.hand[p] & secret_bit:
            secret_note = " + 1 secret"
            if viewer == p:
                secret_note += f" ({ELEMENT_NAMES[s.secret[p]]})"
            elif viewer is not None and s.light_reveal[viewer]:
                secret_note += f" ({ELEMENT_NAMES[s.secret[p]]}, seen through Light)"
        tokens = []
        if s.air_holder == p:
            bonus = {0: "to play", 1: "+2 Strength", 2: "+3 Defense"}[s.air_bonus[p]]
            tokens.append(f"Air Token ({bonus})")
        if s.air_taken == p:
            tokens.append("Air Token for next round")
        if s.light_reveal[p]:
            tokens.append(f"Light (sees player_{1 - p}'s secret)")
        if s.shadow_column == p:
            tokens.append("Shadow Token (totals swapped)")
        if s.silenced[p]:
            tokens.append("Thunder Token (ability silenced)")
        if s.storm_forced[p]:
            tokens.append("Storm: next element to the front")
        you = " (you)" if viewer == p else ""
        lines.append(f"player_{p}{you}: Energy {s.energy[p]:>2}  tokens: {', '.join(tokens) or '-'}")
        lines.append(f"  hand: {_names(s.hand[p] & ~secret_bit)}{secret_note}")
        if s.front[p] >= 0:
            f = s.front[p]
            strength, defense = s.totals(p)
            lines.append(
                f"  column: front {ELEMENT_NAMES[f]} (IS {s.inv_strength[p]}, ID {INV_DEFENSE[f]}, "
                f"Speed {SPEED[f]}); behind: {_names(s.column[p] & ~(1 << f))}; "
                f"total Strength {strength}, Defense {defense}"
            )
    return "\n".join(lines)


def cards_table() -> str:
    """The element cards as a Markdown table (embedded in docs/rules/elemystic.md)."""
    rows = [
        "| element | Strength | Defense | Invocation Strength | Invocation Defense | Speed | ability |",
        "|---|--:|--:|--:|--:|--:|---|",
    ]
    for e in ELEMENTS:
        rows.append(
            f"| {e.name} | {e.strength} | {e.defense} | {e.invocation_strength} | "
            f"{e.invocation_defense} | {e.speed} | {e.ability} |"
        )
    return "\n".join(rows)


def tokens_table() -> str:
    """The token texts as a Markdown table (embedded in docs/rules/elemystic.md)."""
    rows = ["| token | effect |", "|---|---|"]
    rows += [f"| {name} | {text} |" for name, text in TOKENS.items()]
    return "\n".join(rows)
