"""Elemystic component data: the nine element cards and the token texts.

Declarations only. The seven named elements come from the rulebook; Thunder and Life are designed,
and so is every number (``docs/rules/elemystic.md``, "Designed components", gives the reasons).
The numbers reproduce the rulebook's examples exactly. Speed: Fire shows 6 and Light 2. Attacks:
Fire (IS 4, S 3) over Air and Storm (S 2 each) has 11 Strength against the 3 + 3 + 1 + 2 = 9
Defense of Light (ID 3, D 3) over Thunder (D 1) and Life (D 2); Light's column then has
1 + 2 + 0 = 3 Strength once Fire zeroes Light's Invocation Strength of 2, against 0 + 0 + 0 + 2 = 2
Defense (Air's top half has none, Storm's 2).
"""

from __future__ import annotations

from typing import NamedTuple


class Element(NamedTuple):
    name: str
    strength: int  # top half: counts wherever the card sits in the column
    defense: int  # top half
    invocation_strength: int  # bottom half: counts only on the front card
    invocation_defense: int  # bottom half
    speed: int  # bottom half: the front card's speed orders the attacks
    ability: str


ABILITIES: dict[str, str] = {
    "Earth": "A strong invocation with no ability.",
    "Light": "Your opponent's secret element is revealed until the end of the next Play Elements "
    "Phase. Take the Light Token.",
    "Air": "Next round: take a fourth turn to play the Air Token to the back of your column "
    "(+2 Strength or +3 Defense).",
    "Storm": "Immediate: when you play Storm to the front, your opponent must play their next "
    "element to the front.",
    "Water": "If you have less Energy than your opponent, set Water's Invocation Strength to 5. "
    "If your Energy is tied, this ability doesn't resolve.",
    "Fire": "Set your opponent's Invocation Strength to 0.",
    "Shadow": "Before or after you attack, swap one player's total Strength and total Defense. "
    "Place the Shadow Token next to the chosen column.",
    "Thunder": "Take your opponent's Thunder Token and place it by their column: their front "
    "element's ability does not resolve this round. The token goes back to them charged.",
    "Life": "Restore 3 Energy to yourself (never above the Energy Dial's 10).",
}

# fmt: off
_TABLE = (
    # name       S  D  IS ID Speed
    ("Earth",   2, 2, 4, 1, 1),
    ("Light",   1, 3, 2, 3, 2),
    ("Air",     2, 0, 2, 0, 8),
    ("Storm",   2, 2, 3, 0, 7),
    ("Water",   1, 2, 1, 0, 3),
    ("Fire",    3, 0, 4, 0, 6),
    ("Shadow",  3, 0, 2, 1, 5),
    ("Thunder", 2, 1, 3, 1, 8),
    ("Life",    0, 2, 2, 2, 4),
)
# fmt: on
ELEMENTS: tuple[Element, ...] = tuple(Element(*row, ABILITIES[row[0]]) for row in _TABLE)

NUM_ELEMENTS = len(ELEMENTS)
EARTH, LIGHT, AIR, STORM, WATER, FIRE, SHADOW, THUNDER, LIFE = range(NUM_ELEMENTS)
ELEMENT_NAMES: tuple[str, ...] = tuple(e.name for e in ELEMENTS)

# Hot-path copies: plain tuples index faster than numpy scalars in the engine's inner loop.
STRENGTH = tuple(e.strength for e in ELEMENTS)
DEFENSE = tuple(e.defense for e in ELEMENTS)
INV_STRENGTH = tuple(e.invocation_strength for e in ELEMENTS)
INV_DEFENSE = tuple(e.invocation_defense for e in ELEMENTS)
SPEED = tuple(e.speed for e in ELEMENTS)


STARTING_ENERGY = 10  # the Energy Dial starts at 10 and cannot show more
WATER_INVOCATION_STRENGTH = 5
LIFE_RESTORE = 3
AIR_TOKEN_STRENGTH = 2
AIR_TOKEN_DEFENSE = 3
THUNDER_CHARGE_STRENGTH = 4  # a charged Thunder Token's Strength for its owner's column (D-2)
HAND_SIZE = 4  # one secret + three drafted
COLUMN_SIZE = 3

TOKENS: dict[str, str] = {
    "Thunder": "At the end of this round, flip this Token over and return it to your opponent.",
    "Air": "This round, you take a fourth turn to play the Air Token to the back as +2 Strength or "
    "+3 Defense.",
    "Light": "Your opponent's secret element is revealed until the end of the next Play Elements Phase.",
    "Shadow": "This column's total Strength and total Defense are swapped.",
    # Designed (D-2): what the flip turns up. The rulebook's text above stays the token's text.
    "Thunder (charged side)": f"Your column has +{THUNDER_CHARGE_STRENGTH} Strength this round. At the "
    "end of the round the token is ready again.",
}
