"""Text render of an Elemystic table, apart from the rules (pgx style).

Shows what an onlooker at the table sees: energies, arrows, tokens, the pool, face-up hands and
columns, each card with its printed numbers (``Fire [S3 D0 | IS4 ID0 Sp5]``: Strength, Defense,
Invocation Strength, Invocation Defense, Speed), and the last round's fight: the finished columns,
who attacked first and why, each attack's total Strength against total Defense and its damage. A
secret element in hand shows only as "+ 1 secret"; the Unknown Element not at all. Given a
``viewer`` seat, the text also names what that seat sees privately: its own secret, and the
opponent's secret while the viewer's Light effect lasts. The Unknown Element stays hidden from all.

``describe_action`` names an action as the phase and the speaker have it, and ``table_effects``
lists what every visible card and token does (the terminal's ``?`` command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.elemystic.cards import (
    ELEMENT_NAMES,
    ELEMENTS,
    INV_DEFENSE,
    SPEED,
    THUNDER_CHARGE_STRENGTH,
    TOKENS,
)
from mystic_envs.elemystic.rules import (
    AIR_DEFENSE,
    AIR_STRENGTH,
    GAME_OVER,
    MASK_ELEMENTS,
    PHASE_NAMES,
    PLAY_BACK,
    PLAY_FRONT,
    SHADOW_OPPONENT_AFTER,
    SHADOW_OPPONENT_BEFORE,
    SHADOW_SELF_AFTER,
    SHADOW_SELF_BEFORE,
    RoundSummary,
    action_meaning,
)

if TYPE_CHECKING:
    from mystic_envs.elemystic.rules import ElemysticState


CARD_LEGEND = (
    "card numbers: [S Strength, D Defense | IS Invocation Strength, ID Invocation Defense, Sp Speed]"
)


def numbers(e: int) -> str:
    """An element's printed numbers: ``[S3 D0 | IS4 ID0 Sp5]``."""
    x = ELEMENTS[e]
    return f"[S{x.strength} D{x.defense} | IS{x.invocation_strength} ID{x.invocation_defense} Sp{x.speed}]"


def card(e: int) -> str:
    """An element with its printed numbers: ``Fire [S3 D0 | IS4 ID0 Sp5]``."""
    return f"{ELEMENT_NAMES[e]} {numbers(e)}"


def _names(mask: int) -> str:
    return ", ".join(ELEMENT_NAMES[e] for e in MASK_ELEMENTS[mask]) or "-"


def _cards(mask: int) -> str:
    return ", ".join(card(e) for e in MASK_ELEMENTS[mask]) or "-"


def _fight(r: RoundSummary) -> list[str]:
    """The last round's fight, as the table saw it resolve."""
    lines = [f"Round {r.round} fight:"]
    for p in (0, 1):
        behind = _names(r.columns[p] & ~(1 << r.fronts[p]))
        lines.append(f"  player_{p}'s column: front {ELEMENT_NAMES[r.fronts[p]]}, behind {behind}")
    if r.first >= 0:
        speeds = SPEED[r.fronts[r.first]], SPEED[r.fronts[1 - r.first]]
        why = (
            f"Speed {speeds[0]} against {speeds[1]}"
            if speeds[0] != speeds[1]
            else f"Speeds tied at {speeds[0]}: Play First"
        )
        lines.append(f"  player_{r.first} attacks first ({why})")
    for a in r.attacks:
        hit = f"{a.damage} damage" if a.damage else "no damage"
        lines.append(
            f"  player_{a.attacker} attacks: Strength {a.strength} against Defense {a.defense}: {hit}"
        )
    lines.append(f"  Energy lost: player_0 {r.energy_lost[0]}, player_1 {r.energy_lost[1]}")
    return lines


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
        lines += _fight(s.last_round)
    lines.append(f"Draft First -> player_{s.draft_first}   Play First -> player_{s.play_first}")
    lines.append(CARD_LEGEND)
    if s.pool:
        lines.append(f"Drafting pool: {_cards(s.pool)}")
    for p in (0, 1):
        secret_bit = 1 << s.secret[p]
        secret_note = ""
        if s.hand[p] & secret_bit:
            secret_note = " + 1 secret"
            if viewer == p:
                secret_note += f" ({ELEMENT_NAMES[s.secret[p]]}) {numbers(s.secret[p])}"
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
        if s.thunder_charged[p]:
            tokens.append(f"Thunder Token charged (+{THUNDER_CHARGE_STRENGTH} Strength)")
        if s.storm_forced[p]:
            tokens.append("Storm: next element to the front")
        you = " (you)" if viewer == p else ""
        lines.append(f"player_{p}{you}: Energy {s.energy[p]:>2}  tokens: {', '.join(tokens) or '-'}")
        lines.append(f"  hand: {_cards(s.hand[p] & ~secret_bit)}{secret_note}")
        if s.front[p] >= 0:
            f = s.front[p]
            strength, defense = s.totals(p)
            lines.append(
                f"  column: front {ELEMENT_NAMES[f]} (IS {s.inv_strength[p]}, ID {INV_DEFENSE[f]}, "
                f"Speed {SPEED[f]}); behind: {_cards(s.column[p] & ~(1 << f))}; "
                f"total Strength {strength}, Defense {defense}"
            )
    return "\n".join(lines)


def _visible_elements(s: ElemysticState, viewer: int | None) -> list[int]:
    seen = s.pool
    for p in (0, 1):
        seen |= s.column[p] | (s.hand[p] & ~(1 << s.secret[p]))
        if viewer == p or (viewer is not None and s.light_reveal[viewer]):
            seen |= s.hand[p] & (1 << s.secret[p])
    return list(MASK_ELEMENTS[seen])


def table_effects(s: ElemysticState, viewer: int | None = None) -> str:
    """What every element and token that ``viewer`` (None: an onlooker) can see does."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = ["Elements on the table (" + CARD_LEGEND + "; Invocation numbers count on the front card only):"]
    lines += [f"  {card(e)}: {ELEMENTS[e].ability}" for e in _visible_elements(s, viewer)]
    tokens = []
    if s.air_holder >= 0 or s.air_taken >= 0:
        tokens.append("Air")
    if any(s.light_reveal):
        tokens.append("Light")
    if s.shadow_column >= 0:
        tokens.append("Shadow")
    if any(s.silenced):
        tokens.append("Thunder")
    if any(s.thunder_charged):
        tokens.append("Thunder (charged side)")
    if tokens:
        lines.append("Tokens in play:")
        lines += [f"  {name} Token: {TOKENS[name]}" for name in tokens]
    lines.append(
        "Each round: the faster front attacks first (a tie: Play First); an attack deals total Strength "
        "minus the defender's total Defense in Energy. Energy 0 or less loses."
    )
    return "\n".join(lines)


def _whose(owner: int, mover: int, viewer: int | None) -> str:
    if owner == viewer:
        return "your"
    return "their" if owner == mover else f"player_{owner}'s"


def describe_action(
    s: ElemysticState, action: int, viewer: int | None = None, name: str | None = None
) -> str:
    """``action`` about to be played in ``s``: the imperative for the mover (``viewer`` is its seat),
    otherwise a sentence naming the mover (``name``, default ``player_<seat>``)."""
    mover = s.current_player
    you = viewer == mover
    who = name or f"player_{mover}"
    if 0 <= action < AIR_STRENGTH:
        if action < PLAY_FRONT:
            e = action
            return f"draft {card(e)}" if you else f"{who} drafts {ELEMENT_NAMES[e]}"
        e, where = (action - PLAY_FRONT, "front") if action < PLAY_BACK else (action - PLAY_BACK, "back")
        return f"play {card(e)} to the {where}" if you else f"{who} plays {ELEMENT_NAMES[e]} to the {where}"
    if action in (AIR_STRENGTH, AIR_DEFENSE):
        bonus = "+2 Strength" if action == AIR_STRENGTH else "+3 Defense"
        return f"play the Air Token as {bonus}" if you else f"{who} plays the Air Token as {bonus}"
    if SHADOW_SELF_BEFORE <= action <= SHADOW_OPPONENT_AFTER:
        target = mover if action in (SHADOW_SELF_BEFORE, SHADOW_SELF_AFTER) else 1 - mover
        when = "before" if action in (SHADOW_SELF_BEFORE, SHADOW_OPPONENT_BEFORE) else "after"
        column = _whose(target, mover, viewer) + (" own" if target == mover else "")
        if you:
            return f"Shadow: swap {column} column's totals {when} attacking"
        return f"{who} uses Shadow: swaps {column} column's totals {when} attacking"
    return action_meaning(action)


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
