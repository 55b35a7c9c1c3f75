"""What a Tarot Dice move caused, as one seat may know it (``mystic_envs.core.narration``).

From the state's ``log`` of the last ``apply()``: every die rolled or set (from what to what),
the Zodiac face that changed a roll or added rolls to it, the Planet face acting in the Planet
phase, each Major Arcana as it acts, captures, Death coming back to its owner's hand, the end of
a round (how, the points) and the dice rolled for the next one. Dice, Majors and played cards
are public, so every seat hears the same story.
"""

from __future__ import annotations

from mystic_envs.core.narration import Teller
from mystic_envs.tarot_dice.cards import (
    DIE_NAMES,
    MAJORS,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_FACES,
    PLANET_NAMES,
    ZODIAC_DIE,
    ZODIAC_FACES,
    ZODIAC_NAMES,
)
from mystic_envs.tarot_dice.rules import NIGHTFALL, PH_GAME_OVER, TarotDiceState


def _die(die: int, who: Teller, start: bool = False) -> str:
    """``die`` named for the one who hears it; ``start``: it opens a sentence."""
    if die >= PLANET_DIE:
        return f"{'T' if start else 't'}he {'Planet' if die == PLANET_DIE else 'Zodiac'} die"
    owner, size = divmod(die, NUM_SIZES)
    return f"{who.own(owner, start)} {DIE_NAMES[size]}"


def _face(die: int, value: int) -> str:
    if die == PLANET_DIE:
        return PLANET_NAMES[value - 1]
    if die == ZODIAC_DIE:
        return ZODIAC_NAMES[value - 1]
    return str(value)


def events(
    before: TarotDiceState, after: TarotDiceState, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, one sentence a line, as seat
    ``viewer`` (None: an onlooker) may know it; ``names[q]`` names seat ``q``."""
    who = Teller(viewer, names)
    out = []
    for entry in after.log:
        kind = entry[0]
        if kind == "roll":
            _, die, old, new = entry
            was = f" (was {_face(die, old)})" if old else ""  # 0: a new round's first roll
            out.append(f"{_die(die, who, True)} rolls {_face(die, new)}{was}.")
        elif kind == "set":
            _, die, old, new = entry
            out.append(f"{_die(die, who, True)} is set to {_face(die, new)} (was {_face(die, old)}).")
        elif kind == "zodiac":
            face = ZODIAC_FACES[entry[1] - 1]
            out.append(f"The Zodiac die's {face.name} acts on the roll: {face.text}")
        elif kind == "planet":
            face = PLANET_FACES[entry[1] - 1]
            out.append(f"Planet phase: {face.name} acts: {face.text}")
        elif kind == "major":
            _, p, m = entry
            out.append(f"{MAJORS[m].name} acts for {who(p, False)}: {MAJORS[m].text}")
        elif kind == "capture":
            _, p, mine, v_mine, theirs, v_theirs = entry
            out.append(
                f"{who.verb(p, 'captures', 'capture')} {_die(theirs, who)} (showing {v_theirs}) with "
                f"{_die(mine, who)} (showing {v_mine}); both leave the board."
            )
        elif kind == "death":
            out.append(f"Death returns to {who.own(entry[1])} hand.")
        elif kind == "round_end":
            _, winner, points, how = entry
            why = "in the nightfall duel" if how == NIGHTFALL else "by capturing the last pair"
            total = ", ".join(f"{who(q, False)} {after.points[q]}" for q in (0, 1))
            out.append(
                f"{who.verb(winner, 'wins', 'win')} the round {why}, scoring {points}; match points: {total}."
            )
        elif kind == "round_roll":
            rolled = ", ".join(f"{_die(d, who)} {v}" for d, v in enumerate(entry[1]))
            out.append(f"A new round: every numbered die is rolled: {rolled}.")
    if after.phase == PH_GAME_OVER and before.phase != PH_GAME_OVER:
        out.append(f"{who.verb(after.winners()[0], 'wins', 'win')} the match.")
    return out
