"""Tarot Dice component data: the dice, the Planet and Zodiac faces, the Minor and Major Arcana.

Declarations only; the rules engine (``rules.py``, ``dice.py``, ``arcana.py``) reads them. The rulebook gives
the components and the card texts; what it leaves open is designed and argued in
``docs/rules/tarot_dice.md`` (D-n and I-n entries):

- Every player owns a D4, D6, D8, D10, D12 and D20; player_0 draws from Cups + Swords, player_1
  from Wands + Pentacles (28 cards each: Ace, 2-10, Page, Knight, Queen, King per suit).
- The Planet and Zodiac dice are D12s whose faces are numbered 1-12 in the rulebook's order.
- Each Major Arcana card is one row of ``MAJORS``: when it triggers (``trigger``), what it does
  (``effect``), whether its use is optional ("may"), and the rulebook's ``$`` mark.
"""

from __future__ import annotations

from typing import NamedTuple

# --- dice ----------------------------------------------------------------------------------------
DIE_SIZES = (4, 6, 8, 10, 12, 20)  # each player's numbered dice, smallest first
NUM_SIZES = len(DIE_SIZES)
NUM_NUMBERED = 2 * NUM_SIZES  # die d = owner * 6 + size index
PLANET_DIE = NUM_NUMBERED  # 12
ZODIAC_DIE = NUM_NUMBERED + 1  # 13
NUM_DICE = NUM_NUMBERED + 2
SYMBOL_FACES = 12  # the Planet and Zodiac dice are D12s
DIE_NAMES = tuple(f"D{n}" for n in DIE_SIZES)


class Face(NamedTuple):
    number: int  # the face's value, 1-12 (the rulebook's number in parentheses)
    name: str
    symbol: str
    text: str  # the rulebook's effect


# fmt: off
PLANET_FACES: tuple[Face, ...] = tuple(Face(*row) for row in (
    (1, "Mars", "♂",
     "At the end of your turn, roll one die your opponent controls."),
    (2, "Venus", "♀",
     "At the end of your turn, roll one die you control."),
    (3, "Mercury", "☿",
     "At the end of your turn, roll the smallest sized numbered die/dice still in play."),
    (4, "Moon", "☽",
     "At the end of your turn, roll the Planet and Zodiac die."),
    (5, "Sun", "☉",
     "Negates the effects of the Zodiac die."),
    (6, "South Node", "☋",
     "At the end of your turn, reroll any dice showing a 1 or 2."),
    (7, "North Node", "☊",
     "At the end of your turn, reroll any dice showing their max value."),
    (8, "Pluto", "♇",
     "At the end of your turn, halve the value of all even dice."),
    (9, "Jupiter", "♃",
     "At the end of your turn, roll the largest sized numbered die/dice."),
    (10, "Saturn", "♄",
     "At the end of your turn, add +1 to all dice showing odd values."),
    (11, "Uranus", "♅",
     "When Uranus appears, choose any other symbol as the result."),
    (12, "Neptune", "♆",
     "When Neptune appears banish a die; it stays banished while Neptune is active."),
))
ZODIAC_FACES: tuple[Face, ...] = tuple(Face(*row) for row in (
    (1, "Aries", "♈",
     "The Planet die only activates at the end of your turn if you capture on your turn."),
    (2, "Taurus", "♉",
     "Negates the effect of the Planet die."),
    (3, "Gemini", "♊",
     "When you roll a numbered die, roll the opposite numbered die of the same size."),
    (4, "Cancer", "♋",
     "6s and 9s may be treated as either when they are showing on a numbered die."),
    (5, "Leo", "♌",
     "The numbered die/dice showing the highest value may not be changed by any means."),
    (6, "Virgo", "♍",
     "Capturing is not allowed while Virgo is showing."),
    (7, "Libra", "♎",
     "When you roll a die and it rolls the value or symbol it was showing, roll it again."),
    (8, "Scorpio", "♏",
     "When you roll a numbered die, subtract 1 from the result."),
    (9, "Sagittarius", "♐",
     "When you roll a numbered die, roll the Planet and Zodiac dice as well."),
    (10, "Capricorn", "♑",
     "When you roll a numbered die, add 1 to the result."),
    (11, "Aquarius", "♒",
     "When this die rolls Aquarius, choose any other symbol as the result."),
    (12, "Pisces", "♓",
     "When you roll a numbered die, roll any other dice showing the same value."),
))
# fmt: on
PLANET_NAMES = tuple(f.name for f in PLANET_FACES)
ZODIAC_NAMES = tuple(f.name for f in ZODIAC_FACES)
(MARS, VENUS, MERCURY, MOON, SUN, SOUTH_NODE, NORTH_NODE, PLUTO, JUPITER, SATURN, URANUS, NEPTUNE) = range(
    1, 13
)
ARIES, TAURUS, GEMINI, CANCER, LEO, VIRGO, LIBRA, SCORPIO, SAGITTARIUS, CAPRICORN, AQUARIUS, PISCES = range(
    1, 13
)
START_PLANET = VENUS  # "The Planet Die starts on Venus and the Zodiac Die starts on Virgo."
START_ZODIAC = VIRGO

# --- Minor Arcana --------------------------------------------------------------------------------
SUITS = ("Cups", "Swords", "Wands", "Pentacles")
DECK_SUITS = ((0, 1), (2, 3))  # player_0: Cups + Swords; player_1: Wands + Pentacles
RANKS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Page", "Knight", "Queen", "King")
RANKS_PER_SUIT = len(RANKS)
DECK_SIZE = 2 * RANKS_PER_SUIT  # 28: "a deck of 28 minor arcana cards (two full suits)"
NUM_MINORS = 4 * RANKS_PER_SUIT  # card id c: suit c // 14, rank c % 14; owner c // 28
ACE, PAGE, KNIGHT, QUEEN, KING = 0, 10, 11, 12, 13
NUMBERED_RANKS = 10  # Ace and 2-10

# What a card does when played ("kind"): a number (its value) or one of the face effects. Death
# "counts as a face card but has no effect"; Strength is played as any face card.
NUMBER, PAGE_EFFECT, KNIGHT_EFFECT, QUEEN_EFFECT, KING_EFFECT, NO_EFFECT = range(6)
KIND_NAMES = ("number", "Page", "Knight", "Queen", "King", "no effect")
FACE_KINDS = (PAGE_EFFECT, KNIGHT_EFFECT, QUEEN_EFFECT, KING_EFFECT)  # Strength's choices
RANK_KIND = (NUMBER,) * NUMBERED_RANKS + FACE_KINDS
# The values a numbered rank may be played as: "Ace: a numbered card that can be a 1 or an 11".
RANK_VALUES: tuple[tuple[int, ...], ...] = ((1, 11), *((n,) for n in range(2, 11)), (), (), (), ())
# "Trumps" (The Tower): a higher rank trumps a lower one, and a Major (Strength, Death) is a trump
# in the tarot sense, above every Minor (I-23).
RANK_TRUMP = tuple(range(1, RANKS_PER_SUIT + 1))  # Ace 1 ... King 14
MAJOR_TRUMP = 15
PRIMES = (2, 3, 5, 7, 11)
WELLS = 3  # per player; "Each well is made up of a face down card with a face up on top of it"
HAND_CARDS = 1  # "Each player starts with one Minor Arcana card in their hand"


def card_name(card: int) -> str:
    """``"Ace of Cups"``, or a Major's name for the ids ``MAJOR_CARD + m`` a hand or graveyard holds."""
    if card >= NUM_MINORS:
        return MAJORS[card - MAJOR_CARD].name
    return f"{RANKS[card % RANKS_PER_SUIT]} of {SUITS[card // RANKS_PER_SUIT]}"


# --- Major Arcana --------------------------------------------------------------------------------
# Triggers: what play makes a Major act. "number" is a card played as a number, "face" one played
# as a face card (Page, Knight, Queen, King, or Death), "hidden" one played from the hand.
(
    TR_SETUP,  # at the start of the round (after the draft)
    TR_MATCH,  # a number played on a die already showing that value
    TR_ON_ZODIAC,  # any card played on the Zodiac die
    TR_FACE,  # a face card played
    TR_PRIME,  # a number played with a prime value
    TR_ON_OWN,  # a number played on a numbered die you control
    TR_HIDDEN,  # a hidden card (from the hand) played
    TR_CAPTURE,  # you capture
    TR_TRUMP,  # a card that trumps the top card of your graveyard
    TR_ON_SYMBOL,  # a number played on the Planet or Zodiac die
    TR_ANY_CARD,  # any card played (modifies how it is played)
    TR_NUMBER,  # any number played (modifies its value)
    TR_NUMBER_ON_NUMBER,  # a number played with a numbered card on top of your graveyard
    TR_IN_HAND,  # Strength: played from the hand as a face card
) = range(14)
TRIGGER_TEXT = (
    "setup",
    "number on a matching die",
    "card on the Zodiac die",
    "face card",
    "prime number",
    "number on your own die",
    "hidden card",
    "capture",
    "card trumping your graveyard",
    "number on the Planet or Zodiac die",
    "any card (before it acts)",
    "any number (before it acts)",
    "number over a numbered graveyard top (before it acts)",
    "played from the hand",
)
# Effects, in the engine's own words.
(
    E_WELL_TO_HAND,
    E_ROLL_ANY,  # roll one die (numbered, Planet or Zodiac)
    E_SET_MAX,  # the played-on die to its maximum
    E_PLANET_SYMBOL,  # the Planet die to any symbol
    E_SECOND_OWN,  # the same number on a second die you control
    E_CHARIOT,  # a numbered card from the graveyard to the top of a well
    E_ANY_FACE,  # Strength: played as any face card
    E_BANISH_TARGET,  # banish the played-on die
    E_ENEMY_TARGET,  # the same number on an enemy die
    E_SUBSTITUTE,  # the graveyard top's effect instead of the card's own
    E_TO_HAND,  # Death: to the hand, wherever it is
    E_PLUS_MINUS_ONE,  # the number one higher or lower
    E_SACRIFICE,  # The Devil's setup, then: play the sacrificed card too
    E_REROLL_NUMBERED,  # reroll one numbered die
    E_ZODIAC_SYMBOL,  # the Zodiac die to any symbol
    E_BETWEEN,  # the number as any value between it and the graveyard top
    E_NUMBERED_TARGET,  # the same number on a numbered die as well
) = range(17)


class Major(NamedTuple):
    number: int
    name: str
    trigger: int  # TR_*
    effect: int  # E_*
    optional: bool  # the card says "may": its use is a decision
    dollar: bool  # the rulebook's "$" mark; no rule effect (D-1)
    text: str  # the card's text (the rulebook's, condensed to a line)


# fmt: off
MAJORS: tuple[Major, ...] = tuple(Major(*row) for row in (
    (0,  "The Fool",           TR_MATCH,            E_ROLL_ANY,        True,  False,
     "When you play a numbered card on a die that is already matching that value, you may roll any die."),
    (1,  "The Magician",       TR_SETUP,            E_WELL_TO_HAND,    False, False,
     "At the start of the game move one of your wells to your hand: two more hidden cards, one fewer well."),
    (2,  "The High Priestess", TR_ON_ZODIAC,        E_ROLL_ANY,        True,  False,
     "When you play a card on the zodiac die, you may roll a die."),
    (3,  "The Empress",        TR_FACE,             E_ROLL_ANY,        True,  True,
     "When you play a face card, you may roll a die."),
    (4,  "The Emperor",        TR_MATCH,            E_SET_MAX,         True,  True,
     "When you play a numbered card on a die already matching that value, you may set it to its max value."),
    (5,  "The Hierophant",     TR_PRIME,            E_PLANET_SYMBOL,   False, False,
     "When you play a numbered card with a prime value, change the planet die to any symbol."),
    (6,  "The Lovers",         TR_ON_OWN,           E_SECOND_OWN,      True,  False,
     "When you play a numbered card on a die you control, you may target a second die you control with it."),
    (7,  "The Chariot",        TR_FACE,             E_CHARIOT,         False, False,
     "When you play a face card, return a numbered card from your Graveyard to the top of any well."),
    (8,  "Strength",           TR_IN_HAND,          E_ANY_FACE,        True,  True,
     "This card starts in your hand. You may play this card as if it were any Face card."),
    (9,  "The Hermit",         TR_MATCH,            E_BANISH_TARGET,   True,  False,
     "When you play a numbered card on a die that is already showing that number, you may banish that die."),
    (10, "Wheel of Fortune",   TR_HIDDEN,           E_ROLL_ANY,        False, False,
     "When you play a hidden card, roll a die."),
    (11, "Justice",            TR_ON_OWN,           E_ENEMY_TARGET,    True,  False,
     "When you play a numbered card on a die you control, you may also target an enemy die."),
    (12, "The Hanged Man",     TR_ANY_CARD,         E_SUBSTITUTE,      True,  True,
     "When you play a card, you may substitute its effect for the effect of the top card of your Graveyard."),
    (13, "Death",              TR_CAPTURE,          E_TO_HAND,         False, False,
     "When you capture, this card enters your hand no matter where it is. A face card with no effect."),
    (14, "Temperance",         TR_NUMBER,           E_PLUS_MINUS_ONE,  True,  False,
     "When you play a numbered card, you may play it one number higher or lower than itself."),
    (15, "The Devil",          TR_HIDDEN,           E_SACRIFICE,       True,  False,
     "At the start, sacrifice the top card of a well; when you play a hidden card, you may play it as well."),
    (16, "The Tower",          TR_TRUMP,            E_REROLL_NUMBERED, True,  True,
     "When you play a card that trumps the top card of your Graveyard, you may reroll a numbered die."),
    (17, "The Star",           TR_MATCH,            E_ZODIAC_SYMBOL,   True,  True,
     "When you play a numbered card on a die that shows the same value, you may change the zodiac die."),
    (18, "The Moon",           TR_HIDDEN,           E_ZODIAC_SYMBOL,   True,  True,
     "When you play a hidden card, you may change the zodiac die to any zodiac."),
    (19, "The Sun",            TR_FACE,             E_PLANET_SYMBOL,   True,  True,
     "When you play a face card, you may change the planet die to any planet."),
    (20, "Judgement",          TR_NUMBER_ON_NUMBER, E_BETWEEN,         True,  True,
     "With a numbered card on top of your discard, you may play a numbered card as any value in between."),
    (21, "The World",          TR_ON_SYMBOL,        E_NUMBERED_TARGET, True,  False,
     "When you play a numbered card on the planet or zodiac die, you may target a numbered die as well."),
))
# fmt: on
NUM_MAJORS = len(MAJORS)
(
    FOOL,
    MAGICIAN,
    PRIESTESS,
    EMPRESS,
    EMPEROR,
    HIEROPHANT,
    LOVERS,
    CHARIOT,
    STRENGTH,
    HERMIT,
    WHEEL,
    JUSTICE,
    HANGED_MAN,
    DEATH,
    TEMPERANCE,
    DEVIL,
    TOWER,
    STAR,
    MOON_CARD,
    SUN_CARD,
    JUDGEMENT,
    WORLD,
) = range(NUM_MAJORS)
MAJOR_CARD = NUM_MINORS  # id of Major m in a hand or graveyard: MAJOR_CARD + m (Strength, Death)
HAND_MAJORS = (STRENGTH, DEATH)  # the only Majors that are ever played as cards
DRAFT_PICKS = 3  # per player
# The 1-2-2-1 draft: 0 = the player picking first, 1 = the player picking second.
DRAFT_ORDER = (0, 1, 1, 0, 0, 1)
