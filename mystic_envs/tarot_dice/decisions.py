"""What each sub-decision offers: posing a decision (working out its options, or skipping it when
there is none) and the legal mask of the decision open. A mixin of
:class:`~mystic_envs.tarot_dice.rules.TarotDiceState`; an option is a bit in ``choice`` (a die, a
value or symbol 1-12, a well, a card, a Major), which the mask turns into the actions of
``actions.py``.
"""

from __future__ import annotations

import numpy as np

from mystic_envs.tarot_dice.actions import (
    CAPTURE,
    CARD,
    DIE,
    DIE_OF,
    FACE,
    MAJOR,
    NUM_ACTIONS,
    NUMBER_ACTION,
    PASS,
    PLAY_DEATH,
    PLAY_STRENGTH,
    WELL,
)
from mystic_envs.tarot_dice.arcana import (
    MANDATORY_MASK,
)
from mystic_envs.tarot_dice.cards import (
    AQUARIUS,
    DEATH,
    DECK_SIZE,
    HANGED_MAN,
    JUSTICE,
    KNIGHT_EFFECT,
    LOVERS,
    NUM_DICE,
    NUM_MINORS,
    NUM_SIZES,
    NUMBER,
    NUMBERED_RANKS,
    PLANET_DIE,
    RANKS_PER_SUIT,
    STRENGTH,
    URANUS,
    WELLS,
    WORLD,
)
from mystic_envs.tarot_dice.dice import (
    OWN_DICE,
    bits,
)
from mystic_envs.tarot_dice.phases import (
    DIE_PHASES,
    OP_DECIDE,
    PH_ACTION,
    PH_AQUARIUS,
    PH_CHARIOT_CARD,
    PH_CHARIOT_WELL,
    PH_DEVIL,
    PH_DRAFT,
    PH_FACE,
    PH_HANGED,
    PH_JUSTICE,
    PH_LOVERS,
    PH_MAGICIAN,
    PH_MARS,
    PH_NEPTUNE,
    PH_PLANET_SYMBOL,
    PH_QUEEN,
    PH_ROLL_ANY,
    PH_TARGET,
    PH_TOWER,
    PH_TRIGGERS,
    PH_URANUS,
    PH_VALUE,
    PH_VENUS,
    PH_ZODIAC_SYMBOL,
)

ALL_SYMBOLS = 0b1_1111_1111_1110  # the faces 1-12 as bits


class DecisionsMixin:
    """Decisions and legal masks over the fields of ``TarotDiceState``."""

    def _pose(self, phase: int, p: int) -> bool:
        """Set up decision ``phase`` for ``p``; False (nothing posed) when it has no option."""
        choice = 0
        if phase in DIE_PHASES:
            if phase == PH_TARGET:
                play = self.plays[-1]
                kind = play.kind
                if kind == NUMBER:
                    choice = self.number_targets(play.value)
                elif kind == KNIGHT_EFFECT:
                    choice = self.active_dice()
                else:
                    # A Page or a King: numbered dice only. The symbol dice's texts list what may
                    # change them (the Planet die: numbered cards; the Zodiac die: numbered cards,
                    # rerolls, Major effects), and face cards are in neither list (I-34).
                    choice = self.changeable()
            elif phase in (PH_QUEEN, PH_ROLL_ANY):
                choice = self.rollable()
            elif phase == PH_TOWER:
                choice = self.changeable()
            elif phase == PH_MARS:
                choice = self.changeable() & OWN_DICE[1 - p]
            elif phase == PH_VENUS:
                choice = self.changeable() & OWN_DICE[p]
            elif phase == PH_NEPTUNE:
                # Neptune is no card, so a die a Knight banished may be banished by it as well (I-7).
                choice = self.board
            elif phase == PH_LOVERS:
                choice = self.extra_targets(p, LOVERS, self.plays[-1])
            elif phase == PH_JUSTICE:
                choice = self.extra_targets(p, JUSTICE, self.plays[-1])
            else:  # PH_WORLD
                choice = self.extra_targets(p, WORLD, self.plays[-1])
        elif phase == PH_VALUE:
            play = self.plays[-1]
            options, play.free_values = self.value_options(p, play)
            if options & (options - 1) == 0:
                # One value: nothing to decide (a plain number card).
                play.value = options.bit_length() - 1
                self.tasks.append((OP_DECIDE, PH_TARGET, p))
                return False
            choice = options
        elif phase == PH_HANGED:
            play = self.plays[-1]
            choice = (1 if self.hanged_man_possible(p, play.prev_top) else 0) | (
                2 if self.effect_playable(p, play.card) else 0
            )
        elif phase == PH_FACE:
            # Strength's faces in FACE_KINDS order: a Page or King needs a numbered die it may
            # change, a Knight one it may banish; the Queen can always reroll a symbol die.
            page_king = 0b1001 if self.changeable() else 0
            choice = 0b0100 | page_king | (0b0010 if self.active_dice() else 0)
        elif phase in (PH_PLANET_SYMBOL, PH_ZODIAC_SYMBOL):
            choice = ALL_SYMBOLS
        elif phase == PH_URANUS:
            choice = ALL_SYMBOLS & ~(1 << URANUS)
        elif phase == PH_AQUARIUS:
            choice = ALL_SYMBOLS & ~(1 << AQUARIUS)
        elif phase == PH_CHARIOT_CARD:
            for c in self.graveyard[p]:
                if c < NUM_MINORS and c % RANKS_PER_SUIT < NUMBERED_RANKS:
                    choice |= 1 << c
        elif phase in (PH_MAGICIAN, PH_DEVIL):
            for k in range(WELLS):
                if self.wells[p][k]:
                    choice |= 1 << k
        else:  # PH_CHARIOT_WELL
            choice = self.open_wells[p]
        if not choice:
            return False
        self.phase = phase
        self.player = p
        self.choice = choice
        return True

    def _compute_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        phase = self.phase
        p = self.player
        choice = self.choice
        if phase == PH_ACTION:
            self._action_mask(mask, p)
        elif phase in DIE_PHASES:
            die_of = DIE_OF[p]
            for t in range(NUM_DICE):
                if choice >> die_of[t] & 1:
                    mask[DIE + t] = True
        elif phase == PH_TRIGGERS:
            for m in bits(choice):
                mask[MAJOR + m] = True
            if not choice & self.plays[-1].pending & MANDATORY_MASK:
                mask[PASS] = True
        elif phase == PH_DRAFT:
            for m in bits(self.pile):
                mask[MAJOR + m] = True
        elif phase in (PH_VALUE, PH_PLANET_SYMBOL, PH_URANUS, PH_ZODIAC_SYMBOL, PH_AQUARIUS):
            for v in bits(choice):
                mask[NUMBER_ACTION + v - 1] = True
        elif phase == PH_HANGED:
            mask[MAJOR + HANGED_MAN] = bool(choice & 1)
            mask[PASS] = bool(choice & 2)
        elif phase == PH_FACE:
            for f in bits(choice):
                mask[FACE + f] = True
        elif phase == PH_CHARIOT_CARD:
            for c in bits(choice):
                mask[CARD + c - p * DECK_SIZE] = True
        elif phase in (PH_MAGICIAN, PH_DEVIL, PH_CHARIOT_WELL):
            for k in bits(choice):
                mask[WELL + k] = True
        return mask

    def _action_mask(self, mask: np.ndarray, p: int) -> None:
        active = self.active_dice()
        if self.capture_allowed():
            mine = bits(active & OWN_DICE[p])
            theirs = bits(active & OWN_DICE[1 - p])
            base = p * NUM_SIZES
            other = (1 - p) * NUM_SIZES
            for a in mine:
                row = CAPTURE + (a - base) * NUM_SIZES - other
                for b in theirs:
                    if self.can_capture(a, b):
                        mask[row + b] = True
        rollable = (active & ~self.locked()) | (3 << PLANET_DIE)
        die_of = DIE_OF[p]
        for t in range(NUM_DICE):
            if rollable >> die_of[t] & 1:
                mask[DIE + t] = True
        offset = p * DECK_SIZE
        for c in self.hand[p]:
            if self.card_playable(p, c):
                mask[CARD + c - offset] = True
        wells = self.wells[p]
        for k in range(WELLS):
            if wells[k] and self.card_playable(p, wells[k][-1]):
                mask[CARD + wells[k][-1] - offset] = True
        majors = self.major_hand[p]
        if majors >> STRENGTH & 1:
            mask[PLAY_STRENGTH] = True
        if majors >> DEATH & 1:
            mask[PLAY_DEATH] = True


__all__ = ["ALL_SYMBOLS", "DecisionsMixin"]
