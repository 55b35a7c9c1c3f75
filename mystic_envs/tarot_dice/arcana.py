"""What the cards do: a card play step by step (the Hanged Man, Strength's face, a number's value,
the card's own effect, then the Majors it triggers, one at a time in the player's order), and each
Major Arcana's trigger and effect. A mixin of :class:`~mystic_envs.tarot_dice.rules.TarotDiceState`
(next to :class:`~mystic_envs.tarot_dice.dice.DiceMixin`); the Majors' triggers and effects are
declared in ``cards.MAJORS`` and carried out here.
"""

from __future__ import annotations

from mystic_envs.tarot_dice.cards import (
    CHARIOT,
    DEATH,
    DEVIL,
    E_BANISH_TARGET,
    E_CHARIOT,
    E_ENEMY_TARGET,
    E_PLANET_SYMBOL,
    E_REROLL_NUMBERED,
    E_ROLL_ANY,
    E_SACRIFICE,
    E_SECOND_OWN,
    E_SET_MAX,
    E_ZODIAC_SYMBOL,
    EMPEROR,
    EMPRESS,
    FOOL,
    HANGED_MAN,
    HERMIT,
    HIEROPHANT,
    JUDGEMENT,
    JUSTICE,
    KING_EFFECT,
    KNIGHT_EFFECT,
    LOVERS,
    MAJOR_CARD,
    MAJOR_TRUMP,
    MAJORS,
    MOON_CARD,
    NO_EFFECT,
    NUM_MINORS,
    NUM_NUMBERED,
    NUM_SIZES,
    NUMBER,
    PAGE_EFFECT,
    PLANET_DIE,
    PRIESTESS,
    PRIMES,
    QUEEN_EFFECT,
    RANK_KIND,
    RANK_TRUMP,
    RANK_VALUES,
    RANKS_PER_SUIT,
    STAR,
    STRENGTH,
    SUN_CARD,
    TEMPERANCE,
    TOWER,
    WHEEL,
    WORLD,
    ZODIAC_DIE,
)
from mystic_envs.tarot_dice.dice import OWN_DICE, SIZE, SIZE_AT_LEAST, bits
from mystic_envs.tarot_dice.phases import (
    OP_DECIDE,
    OP_END_PLAY,
    OP_PLAY_EFFECT,
    OP_TRIGGERS,
    PH_CHARIOT_CARD,
    PH_FACE,
    PH_HANGED,
    PH_JUSTICE,
    PH_LOVERS,
    PH_PLANET_SYMBOL,
    PH_QUEEN,
    PH_ROLL_ANY,
    PH_TARGET,
    PH_TOWER,
    PH_TRIGGERS,
    PH_VALUE,
    PH_WORLD,
    PH_ZODIAC_SYMBOL,
)

_MAJOR_TRIGGERS_AFTER = (
    FOOL,
    PRIESTESS,
    EMPRESS,
    EMPEROR,
    HIEROPHANT,
    LOVERS,
    CHARIOT,
    HERMIT,
    WHEEL,
    JUSTICE,
    DEVIL,
    TOWER,
    STAR,
    MOON_CARD,
    SUN_CARD,
    WORLD,
)
# Triggered Majors whose text has no "may": they act whenever their trigger holds and they can.
MANDATORY_MASK = sum(1 << m for m in _MAJOR_TRIGGERS_AFTER if not MAJORS[m].optional)


def trump_rank(card: int) -> int:
    """How high a card ranks for The Tower: Minors Ace 1 ... King 14, then the Majors (I-23)."""
    if card >= NUM_MINORS:
        return MAJOR_TRUMP + card - MAJOR_CARD
    return RANK_TRUMP[card % RANKS_PER_SUIT]


def effect_kind(card: int) -> int:
    """What a card does when played: NUMBER, a face effect, NO_EFFECT (Death), or -1 for Strength
    (a face effect the player chooses)."""
    if card >= NUM_MINORS:
        return -1 if card == MAJOR_CARD + STRENGTH else NO_EFFECT
    return RANK_KIND[card % RANKS_PER_SUIT]


def card_values(card: int) -> tuple[int, ...]:
    """The values a numbered card may be played as (the Ace: 1 or 11); () for the others."""
    if card >= NUM_MINORS:
        return ()
    return RANK_VALUES[card % RANKS_PER_SUIT]


class Play:
    """The card being played (a Devil's second card stacks a second one on top)."""

    __slots__ = (
        "card",  # the card itself (it is in the graveyard from the moment it is played)
        "effect_card",  # the card whose effect it has: itself, or the graveyard top (Hanged Man)
        "free_values",  # values reachable without Judgement (bitmask)
        "from_devil",  # The Devil's sacrificed card
        "hidden",  # played from the hand
        "kind",  # cards.NUMBER ... NO_EFFECT once known, -1 before
        "matched",  # that die already showed the value
        "pending",  # triggered Majors not yet used or declined (bitmask)
        "prev_top",  # the graveyard's top card before this one (-1: empty)
        "returning",  # The Chariot's card between its two decisions
        "target",  # the die its own effect went to (-1: none)
        "triggered",  # the triggers have been worked out
        "value",  # the value a number is played as
    )

    def __init__(self, card: int, hidden: bool, from_devil: bool, prev_top: int) -> None:
        self.card = card
        self.hidden = hidden
        self.from_devil = from_devil
        self.prev_top = prev_top
        self.effect_card = card
        self.kind = -1
        self.value = 0
        self.target = -1
        self.matched = False
        self.free_values = 0
        self.pending = 0
        self.triggered = False
        self.returning = -1

    def copy(self) -> Play:
        c = Play.__new__(Play)
        for name in Play.__slots__:
            setattr(c, name, getattr(self, name))
        return c


class ArcanaMixin:
    """Card plays and Major Arcana over the fields of ``TarotDiceState``."""

    def start_play(self, p: int, card: int, hidden: bool, from_devil: bool) -> None:
        """``card`` (already taken from where it was) goes to the graveyard and starts acting."""
        graveyard = self.graveyard[p]
        prev_top = graveyard[-1] if graveyard else -1
        graveyard.append(card)
        self.plays.append(Play(card, hidden, from_devil, prev_top))
        tasks = self.tasks
        tasks.append((OP_END_PLAY,))
        tasks.append((OP_TRIGGERS,))
        tasks.append((OP_PLAY_EFFECT,))
        if self.hanged_man_possible(p, prev_top):
            tasks.append((OP_DECIDE, PH_HANGED, p))

    def _play_effect(self) -> bool:
        play = self.plays[-1]
        kind = effect_kind(play.effect_card)
        if kind < 0:  # Strength: the player names the face card
            return self._pose(PH_FACE, self.player)
        self._set_kind(play, kind)
        return False

    def _set_kind(self, play: Play, kind: int) -> None:
        play.kind = kind
        p = self.player
        if kind == NUMBER:
            self.tasks.append((OP_DECIDE, PH_VALUE, p))
        elif kind == QUEEN_EFFECT:
            # "You perform the reroll action twice"
            self.tasks.append((OP_DECIDE, PH_QUEEN, p))
            self.tasks.append((OP_DECIDE, PH_QUEEN, p))
        elif kind != NO_EFFECT:
            self.tasks.append((OP_DECIDE, PH_TARGET, p))

    def _offer_triggers(self) -> bool:
        play = self.plays[-1]
        p = self.player
        if not play.triggered:
            play.pending = self.triggered_majors(p, play)
            play.triggered = True
        offer = 0
        for m in bits(play.pending):
            if self.major_possible(p, m, play):
                offer |= 1 << m
        if not offer:
            return False
        self.phase = PH_TRIGGERS
        self.choice = offer
        self.resolving = -1
        return True

    def owns(self, p: int, major: int) -> bool:
        return bool(self.owned[p] >> major & 1)

    def graveyard_top(self, p: int) -> int:
        g = self.graveyard[p]
        return g[-1] if g else -1

    def effect_playable(self, p: int, card: int) -> bool:
        """Whether the effect of ``card`` can be carried out now: a Knight needs a die to banish, a
        Page or a King a numbered die it may change (I-34); numbers and Queens can always use the
        symbol dice, and Strength's face is chosen among those possible."""
        kind = effect_kind(card)
        if kind == KNIGHT_EFFECT:
            return bool(self.active_dice())
        if kind in (PAGE_EFFECT, KING_EFFECT):
            return bool(self.changeable())
        return True

    def hanged_man_possible(self, p: int, prev_top: int) -> bool:
        return prev_top >= 0 and self.owns(p, HANGED_MAN) and self.effect_playable(p, prev_top)

    def card_playable(self, p: int, card: int) -> bool:
        return self.effect_playable(p, card) or self.hanged_man_possible(p, self.graveyard_top(p))

    def value_options(self, p: int, play: Play) -> tuple[int, int]:
        """(every value the number may be played as, the values that need no Judgement) as bit
        masks over 1-12: its own values, Temperance's one higher or lower, Judgement's range."""
        base = card_values(play.effect_card)
        free = 0
        for v in base:
            free |= 1 << v
            if self.owns(p, TEMPERANCE):
                free |= (1 << (v - 1)) | (1 << (v + 1))
        options = free
        top = play.prev_top
        if self.owns(p, JUDGEMENT) and top >= 0 and card_values(top):
            for v in base:
                for t in card_values(top):
                    lo, hi = min(v, t), max(v, t)
                    options |= ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        keep = 0b1_1111_1111_1110  # values 1-12: no die shows 0, and 12 is the highest a card reaches
        return options & keep, free & keep

    def triggered_majors(self, p: int, play: Play) -> int:
        """Majors of ``p`` that the card just resolved triggers (bitmask)."""
        owned = self.owned[p]
        if not owned:
            return 0
        kind = play.kind
        number = kind == NUMBER
        face = kind != NUMBER
        target = play.target
        matched = number and play.matched
        own_die = number and 0 <= target < NUM_NUMBERED and target // NUM_SIZES == p
        out = 0
        if matched:
            out |= (1 << FOOL) | (1 << EMPEROR) | (1 << STAR)
            if target < NUM_NUMBERED:
                out |= 1 << HERMIT
        if target == ZODIAC_DIE:
            out |= 1 << PRIESTESS
        if face:
            out |= (1 << EMPRESS) | (1 << CHARIOT) | (1 << SUN_CARD)
        if number and play.value in PRIMES:
            out |= 1 << HIEROPHANT
        if own_die:
            out |= (1 << LOVERS) | (1 << JUSTICE)
        if play.hidden:
            out |= (1 << WHEEL) | (1 << MOON_CARD)
            if not play.from_devil:
                out |= 1 << DEVIL
        if play.prev_top >= 0 and trump_rank(play.card) > trump_rank(play.prev_top):
            out |= 1 << TOWER
        if number and target >= NUM_NUMBERED:
            out |= 1 << WORLD
        return out & owned

    def major_possible(self, p: int, major: int, play: Play) -> bool:
        """Whether ``major``'s effect can be carried out now (a trigger without one is dropped)."""
        effect = MAJORS[major].effect
        if effect in (E_ROLL_ANY, E_PLANET_SYMBOL, E_ZODIAC_SYMBOL):
            return True
        if effect == E_SET_MAX:
            # Not on the Planet die, which only numbered cards change (and the Majors that name
            # it): a maximum there would be Neptune on demand (I-34).
            return play.target != PLANET_DIE and bool(self.rollable() >> play.target & 1)
        if effect == E_BANISH_TARGET:
            return bool(self.active_dice() >> play.target & 1)
        if effect == E_REROLL_NUMBERED:
            return bool(self.changeable())
        if effect == E_CHARIOT:
            return any(c < NUM_MINORS and card_values(c) for c in self.graveyard[p])
        if effect == E_SACRIFICE:
            card = self.sacrificed[p]
            return card >= 0 and self.card_playable(p, card)
        return bool(self.extra_targets(p, major, play))

    def extra_targets(self, p: int, major: int, play: Play) -> int:
        """Dice The Lovers, Justice or The World may give the number to as well."""
        fits = self.changeable() & SIZE_AT_LEAST[play.value]
        if major == LOVERS:
            return fits & OWN_DICE[p] & ~(1 << play.target)
        if major == JUSTICE:
            return fits & OWN_DICE[1 - p]
        return fits  # The World: any numbered die

    def activate_major(self, p: int, major: int, play: Play) -> None:
        """Carry out a triggered Major's effect (pushing its decisions). Every Major acts each time
        it triggers: the "$" mark has no rule effect (D-1)."""
        effect = MAJORS[major].effect
        tasks = self.tasks
        self.resolving = major
        self.log.append(("major", p, major))
        if effect == E_ROLL_ANY:
            tasks.append((OP_DECIDE, PH_ROLL_ANY, p))
        elif effect == E_SET_MAX:
            self.set_die(play.target, SIZE[play.target])
        elif effect == E_PLANET_SYMBOL:
            tasks.append((OP_DECIDE, PH_PLANET_SYMBOL, p))
        elif effect == E_ZODIAC_SYMBOL:
            tasks.append((OP_DECIDE, PH_ZODIAC_SYMBOL, p))
        elif effect == E_BANISH_TARGET:
            self.knight_ban[p] |= 1 << play.target
        elif effect == E_REROLL_NUMBERED:
            tasks.append((OP_DECIDE, PH_TOWER, p))
        elif effect == E_CHARIOT:
            tasks.append((OP_DECIDE, PH_CHARIOT_CARD, p))
        elif effect == E_SACRIFICE:
            card = self.sacrificed[p]
            self.sacrificed[p] = -1
            self.start_play(p, card, hidden=False, from_devil=True)
        elif effect == E_SECOND_OWN:
            tasks.append((OP_DECIDE, PH_LOVERS, p))
        elif effect == E_ENEMY_TARGET:
            tasks.append((OP_DECIDE, PH_JUSTICE, p))
        else:
            tasks.append((OP_DECIDE, PH_WORLD, p))

    def death_to_hand(self, p: int) -> None:
        """Death "enters your hand no matter where it is" when its owner captures."""
        if not self.owns(p, DEATH) or self.major_hand[p] >> DEATH & 1:
            return
        card = MAJOR_CARD + DEATH
        self.log.append(("death", p))
        if card in self.graveyard[p]:
            self.graveyard[p].remove(card)
        self.major_hand[p] |= 1 << DEATH


__all__ = ["MANDATORY_MASK", "ArcanaMixin", "Play", "card_values", "effect_kind", "trump_rank"]
