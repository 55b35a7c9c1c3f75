"""What an Elemystic move caused, as one seat may know it (``mystic_envs.core.narration``).

The fight a round ends in, attack by attack: who attacks first and why, the front ability that
resolved before each attack (or that Thunder silenced it), the cards and tokens behind each total
Strength and Defense, the damage and the Energy left; then the next round's drafting pool, or the
winner. Columns are face up once played and the pool is public, so every seat hears the same
story; the secret cards in hand never appear in it.
"""

from __future__ import annotations

from mystic_envs.core.narration import Teller
from mystic_envs.elemystic.cards import EARTH, ELEMENT_NAMES, ELEMENTS, SPEED, STORM
from mystic_envs.elemystic.rules import GAME_OVER, MASK_ELEMENTS, Attack, ElemysticState, RoundSummary


def events(
    before: ElemysticState, after: ElemysticState, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, one sentence a line, as seat
    ``viewer`` (None: an onlooker) may know it; ``names[q]`` names seat ``q``."""
    who = Teller(viewer, names)
    if after.last_round is None or after.last_round is before.last_round:
        return []
    out = _fight(after.last_round, who)
    for p in (0, 1):
        out.append(f"{who.own(p, True)} Energy: {after.energy[p]}.")
    if after.phase == GAME_OVER:
        out.append(f"{who.verb(after.winner, 'wins', 'win')} the game.")
    else:
        pool = ", ".join(ELEMENT_NAMES[e] for e in MASK_ELEMENTS[after.pool])
        out.append(f"Round {after.round} begins; the drafting pool: {pool}.")
    return out


# Earth has no ability, and Storm's happened as it was played: neither does anything at the fight.
_NOTHING_AT_THE_FIGHT = (EARTH, STORM)


def _fight(r: RoundSummary, who: Teller) -> list[str]:
    out = []
    for p in (0, 1):
        behind = ", ".join(ELEMENT_NAMES[e] for e in MASK_ELEMENTS[r.columns[p] & ~(1 << r.fronts[p])])
        out.append(
            f"Round {r.round} fight: {who.own(p)} column has {ELEMENT_NAMES[r.fronts[p]]} in front"
            f" (Speed {SPEED[r.fronts[p]]}), behind it {behind or 'nothing'}."
        )
    if r.first >= 0:
        fast, slow = SPEED[r.fronts[r.first]], SPEED[r.fronts[1 - r.first]]
        why = f"Speed {fast} against {slow}" if fast != slow else f"Speeds tied at {fast}: Play First"
        out.append(f"{who.verb(r.first, 'attacks', 'attack')} first ({why}).")
    out += [_attack(a, r, who) for a in r.attacks]
    return out


def _sum(parts: tuple[tuple[str, int], ...]) -> str:
    return " + ".join(f"{x} {source}" for source, x in parts if x) or "nothing"


def _attack(a: Attack, r: RoundSummary, who: Teller) -> str:
    front = r.fronts[a.attacker]
    if front in _NOTHING_AT_THE_FIGHT:
        ability = ""
    elif a.ability >= 0:
        ability = f"{ELEMENT_NAMES[a.ability]}'s ability resolves: {ELEMENTS[a.ability].ability} "
    else:
        ability = f"Thunder silenced {ELEMENT_NAMES[front]}'s ability. "
    hit = f"{a.damage} damage" if a.damage else "no damage: the Defense holds"
    return (
        f"{ability}{who.verb(a.attacker, 'attacks', 'attack')} with Strength {a.strength} "
        f"({_sum(a.strength_parts)}) against Defense {a.defense} ({_sum(a.defense_parts)}): {hit}."
    )
