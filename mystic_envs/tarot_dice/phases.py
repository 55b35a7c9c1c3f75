"""The vocabulary of the Tarot Dice state machine: its sub-decisions (phases) and its task codes.

A turn is resolved as a stack of small tasks (``rules._run``): rolls, the Planet phase, the steps
of a card play, and decisions. A decision task names a phase; the state stops there until the
player to move answers with one action of that phase's mask. Shared by the engine, its dice and
card mixins, the observation and the render.
"""

from __future__ import annotations

# Sub-decisions, in the order the observation's one-hot lists them.
PHASE_NAMES = (
    "draft",  # pick a Major Arcana from the draft pile
    "magician_well",  # The Magician: the well that goes to the hand
    "devil_well",  # The Devil: the well whose top card is sacrificed
    "action",  # capture, reroll or play a card
    "hanged_man",  # use The Hanged Man on the card being played, or not
    "strength_face",  # the face card Strength is played as
    "card_value",  # the value a number card is played as (Ace, Temperance, Judgement)
    "card_target",  # the die the card's own effect targets
    "queen_reroll",  # one of the Queen's two rerolls
    "triggers",  # the next triggered Major to activate, or pass
    "roll_a_die",  # The Fool, The High Priestess, The Empress, Wheel of Fortune
    "tower_reroll",  # The Tower: a numbered die to reroll
    "lovers_target",  # The Lovers: a second die of yours
    "justice_target",  # Justice: an enemy die
    "world_target",  # The World: a numbered die
    "chariot_card",  # The Chariot: a numbered card of your graveyard
    "chariot_well",  # The Chariot: the well it goes on
    "planet_symbol",  # The Hierophant, The Sun: the Planet die's new symbol
    "zodiac_symbol",  # The Star, The Moon: the Zodiac die's new symbol
    "uranus_symbol",  # Uranus appeared: the symbol it becomes
    "aquarius_symbol",  # the Zodiac die rolled Aquarius: the symbol it becomes
    "neptune_banish",  # Neptune appeared: the die it banishes
    "mars_roll",  # Mars: one of the opponent's dice to roll
    "venus_roll",  # Venus: one of your dice to roll
    "game_over",
)
(
    PH_DRAFT,
    PH_MAGICIAN,
    PH_DEVIL,
    PH_ACTION,
    PH_HANGED,
    PH_FACE,
    PH_VALUE,
    PH_TARGET,
    PH_QUEEN,
    PH_TRIGGERS,
    PH_ROLL_ANY,
    PH_TOWER,
    PH_LOVERS,
    PH_JUSTICE,
    PH_WORLD,
    PH_CHARIOT_CARD,
    PH_CHARIOT_WELL,
    PH_PLANET_SYMBOL,
    PH_ZODIAC_SYMBOL,
    PH_URANUS,
    PH_AQUARIUS,
    PH_NEPTUNE,
    PH_MARS,
    PH_VENUS,
    PH_GAME_OVER,
) = range(len(PHASE_NAMES))
NUM_PHASES = len(PHASE_NAMES)
# Phases answered with a die (the DIE actions).
DIE_PHASES = frozenset(
    (
        PH_TARGET,
        PH_QUEEN,
        PH_ROLL_ANY,
        PH_TOWER,
        PH_LOVERS,
        PH_JUSTICE,
        PH_WORLD,
        PH_NEPTUNE,
        PH_MARS,
        PH_VENUS,
    )
)

# Tasks: tuples whose first item is one of these.
(
    OP_DECIDE,  # (OP_DECIDE, phase, player): pose a decision (skipped if it has no option)
    OP_ROLL,  # (OP_ROLL, dice, primary): roll a mask of dice at once with the Zodiac's effect
    OP_PLANET_PHASE,  # (OP_PLANET_PHASE,): activate the Planet die
    OP_END_TURN,  # (OP_END_TURN,): the turn limit check, then the next player's turn
    OP_PLAY_EFFECT,  # (OP_PLAY_EFFECT,): the card being played decides its kind, value, target
    OP_TRIGGERS,  # (OP_TRIGGERS,): offer the Majors the card triggered
    OP_END_PLAY,  # (OP_END_PLAY,): the card play is over
    OP_ROUND_START,  # (OP_ROUND_START,): roll every numbered die, first turn
) = range(8)
