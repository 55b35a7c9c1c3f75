"""The Tarot Dice action space: 122 actions, named for every seat alike (egocentric dice and cards).

One group serves every sub-decision that picks the same kind of thing; the open sub-decision
(``phases``) says which. ``action_meaning`` names each action; ``DIE_OF`` / ``TARGET_OF`` turn an
egocentric die target into the engine's die index and back.
"""

from __future__ import annotations

from mystic_envs.tarot_dice.cards import (
    DECK_SIZE,
    DIE_NAMES,
    FACE_KINDS,
    KIND_NAMES,
    MAJORS,
    NUM_DICE,
    NUM_MAJORS,
    NUM_NUMBERED,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_NAMES,
    RANKS,
    RANKS_PER_SUIT,
    SUITS,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_NAMES,
)

# --- actions -------------------------------------------------------------------------------------
# One action group serves every sub-decision that picks the same kind of thing; the phase (in the
# observation) says which. Dice are egocentric: target t is 0-5 your D4 ... D20, 6-11 the
# opponent's, 12 the Planet die, 13 the Zodiac die. Cards are your own deck's: 0-13 your first
# suit (Cups for player_0, Wands for player_1) Ace ... King, 14-27 your second suit (Swords,
# Pentacles). The space stays under 128 actions, so any integer type holds an action.
MAJOR = 0  # MAJOR + m: draft Major m; use it when it triggers (The Hanged Man: as a card is played)
WELL = MAJOR + NUM_MAJORS  # WELL + k: well k (The Magician, The Devil, The Chariot)
CAPTURE = WELL + WELLS  # CAPTURE + 6 a + b: your die a captures the opponent's die b
DIE = CAPTURE + NUM_SIZES * NUM_SIZES  # DIE + t: reroll die t (the action) or choose it (a decision)
CARD = DIE + NUM_DICE  # CARD + l: play your card l, or return it (The Chariot)
PLAY_STRENGTH = CARD + DECK_SIZE  # play Strength from your hand
PLAY_DEATH = PLAY_STRENGTH + 1  # play Death from your hand
FACE = PLAY_DEATH + 1  # FACE + f: Strength as a Page, Knight, Queen or King
NUMBER_ACTION = FACE + len(FACE_KINDS)  # + i - 1: a number played as i; a symbol die turned to face i
PASS = NUMBER_ACTION + 12  # decline what is optional
NUM_ACTIONS = PASS + 1

# DIE_OF[p][t]: the die index of egocentric target t for seat p; TARGET_OF[p][d] the reverse.
DIE_OF = tuple(
    (
        *tuple(
            [p * NUM_SIZES + k for k in range(NUM_SIZES)]
            + [(1 - p) * NUM_SIZES + k for k in range(NUM_SIZES)]
        ),
        PLANET_DIE,
        ZODIAC_DIE,
    )
    for p in (0, 1)
)
TARGET_OF = tuple(tuple(DIE_OF[p].index(d) for d in range(NUM_DICE)) for p in (0, 1))


def target_name(t: int) -> str:
    """An egocentric die target in words."""
    if t < NUM_SIZES:
        return f"your {DIE_NAMES[t]}"
    if t < NUM_NUMBERED:
        return f"the opponent's {DIE_NAMES[t - NUM_SIZES]}"
    return "the Planet die" if t == NUM_NUMBERED else "the Zodiac die"


def local_card_name(local: int) -> str:
    slot, rank = divmod(local, RANKS_PER_SUIT)
    return (
        f"{RANKS[rank]} of your {'first' if slot == 0 else 'second'} suit ({SUITS[slot]}/{SUITS[2 + slot]})"
    )


def action_meaning(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"out of range ({action})"
    if action < WELL:
        m = MAJORS[action - MAJOR]
        return f"{m.name} ({m.number}): draft it, or use it when it triggers"
    if action < CAPTURE:
        k = action - WELL + 1
        return f"well {k} (The Magician: to your hand; The Devil: sacrifice its top; The Chariot: onto it)"
    if action < DIE:
        a, b = divmod(action - CAPTURE, NUM_SIZES)
        return f"capture: your {DIE_NAMES[a]} takes the opponent's {DIE_NAMES[b]}"
    if action < CARD:
        return f"{target_name(action - DIE)}: reroll it (action phase), or choose it (a die decision)"
    if action < PLAY_STRENGTH:
        return f"the {local_card_name(action - CARD)}: play it, or return it with The Chariot"
    if action == PLAY_STRENGTH:
        return "play Strength from your hand, as any face card"
    if action == PLAY_DEATH:
        return "play Death from your hand (a face card with no effect)"
    if action < NUMBER_ACTION:
        return f"play Strength as a {KIND_NAMES[FACE_KINDS[action - FACE]]}"
    if action < PASS:
        i = action - NUMBER_ACTION + 1
        return (
            f"{i}: play the number as {i}, or turn the Planet die to {PLANET_NAMES[i - 1]}, "
            f"or the Zodiac die to {ZODIAC_NAMES[i - 1]}"
        )
    return "pass: decline the optional effects left"


__all__ = ["DIE_OF", "NUM_ACTIONS", "TARGET_OF", "action_meaning", "local_card_name", "target_name"]
