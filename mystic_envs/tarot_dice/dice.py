"""What the dice do: which Planet and Zodiac effects are on, the dice a card or roll may change,
rolls with the Zodiac's effect, the Planet phase and the nightfall duel. A mixin of
:class:`~mystic_envs.tarot_dice.rules.TarotDiceState`, which owns the state machine; everything here
reads and writes that state's fields.

Dice are bitmasks over die indices (numbered die d = owner * 6 + size index, then the Planet die
12 and the Zodiac die 13), so "the dice a Knight may banish" or "the dice Leo locks" are a few
integer operations. Effects that need a decision push ``(OP_DECIDE, phase, player)`` onto the task
stack; the state machine poses it and resumes after the answer (``rules._run``).
"""

from __future__ import annotations

from mystic_envs.tarot_dice.cards import (
    AQUARIUS,
    ARIES,
    CANCER,
    CAPRICORN,
    DIE_SIZES,
    GEMINI,
    JUPITER,
    LEO,
    LIBRA,
    MARS,
    MERCURY,
    MOON,
    NEPTUNE,
    NORTH_NODE,
    NUM_NUMBERED,
    NUM_SIZES,
    PISCES,
    PLANET_DIE,
    PLUTO,
    SAGITTARIUS,
    SATURN,
    SCORPIO,
    SOUTH_NODE,
    SUN,
    TAURUS,
    URANUS,
    VENUS,
    VIRGO,
    ZODIAC_DIE,
)
from mystic_envs.tarot_dice.phases import (
    OP_DECIDE,
    OP_PLANET_PHASE,
    OP_ROLL,
    PH_ACTION,
    PH_AQUARIUS,
    PH_MARS,
    PH_NEPTUNE,
    PH_URANUS,
    PH_VENUS,
)

# --- tables --------------------------------------------------------------------------------------
SIZE = (*tuple(DIE_SIZES[d % NUM_SIZES] for d in range(NUM_NUMBERED)), 12, 12)
OWN_DICE = (0x3F, 0x3F << NUM_SIZES)  # numbered dice of seat 0 and seat 1
ALL_NUMBERED = (1 << NUM_NUMBERED) - 1
PLANET_BIT = 1 << PLANET_DIE
ZODIAC_BIT = 1 << ZODIAC_DIE
SYMBOL_BITS = PLANET_BIT | ZODIAC_BIT
# SIZE_AT_LEAST[v]: numbered dice that can show v (a number card "cannot target dice that cannot
# match the card's value"); the symbol dice show 1-12, so every value of a card fits them.
SIZE_AT_LEAST = tuple(sum(1 << d for d in range(NUM_NUMBERED) if SIZE[d] >= v) for v in range(21))
TWIN = tuple((d + NUM_SIZES) % NUM_NUMBERED for d in range(NUM_NUMBERED))  # Gemini's opposite die
# Zodiac faces that change each result of a roll, and those that add rolls to a primary one
# (logged once per roll they act on, for the narration).
_CHANGING_FACES = (LIBRA, SCORPIO, CAPRICORN)
_CHAINING_FACES = (GEMINI, PISCES, SAGITTARIUS)


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class DiceMixin:
    """Dice, Planet and Zodiac effects over the fields of ``TarotDiceState``."""

    # -- which effects are on -------------------------------------------------------------------
    def zodiac_active(self) -> bool:
        """The Zodiac die's effects apply unless the Sun shows (I-11)."""
        return self.value[PLANET_DIE] != SUN

    def planet_active(self) -> bool:
        """The Planet die's effects apply unless Taurus shows, and the Sun's negation always holds:
        with both showing the Sun wins, which changes nothing since neither does anything else."""
        return self.value[ZODIAC_DIE] != TAURUS or self.value[PLANET_DIE] == SUN

    def zodiac_is(self, face: int) -> bool:
        return self.value[ZODIAC_DIE] == face and self.value[PLANET_DIE] != SUN

    def banned(self) -> int:
        """Banished numbered dice: by a Knight or The Hermit (either seat) or by Neptune."""
        return self.knight_ban[0] | self.knight_ban[1] | self.neptune_ban

    def active_dice(self) -> int:
        """Numbered dice on the board and not banished: the dice in play (I-7)."""
        return self.board & ~(self.knight_ban[0] | self.knight_ban[1] | self.neptune_ban)

    def locked(self) -> int:
        """The numbered dice Leo locks: those on the board showing the highest value, banished ones
        included. A banished die is still in play: the Knight's text takes from it only capturing,
        being captured, being targeted by cards and being rerolled (I-7, I-13)."""
        if not self.zodiac_is(LEO):
            return 0
        value = self.value
        top = 0
        out = 0
        for d in bits(self.board):
            v = value[d]
            if v > top:
                top, out = v, 1 << d
            elif v == top:
                out |= 1 << d
        return out

    def changeable(self) -> int:
        """Numbered dice a card or a roll may change: not banished, and not locked by Leo."""
        return self.active_dice() & ~self.locked()

    def rollable(self) -> int:
        """Every die the reroll action (or "roll a die") may pick: the changeable numbered dice and
        the Planet and Zodiac dice, which nothing banishes or locks (I-7, I-13)."""
        return self.changeable() | SYMBOL_BITS

    def number_targets(self, value: int) -> int:
        """Dice a number card played as ``value`` may target: changeable dice that can show it."""
        return (self.changeable() & SIZE_AT_LEAST[value]) | SYMBOL_BITS

    def shows(self, die: int, value: int) -> bool:
        """Whether ``die`` shows ``value`` already ("already matching"), Cancer's 6/9 included."""
        v = self.value[die]
        if v == value:
            return True
        return die < NUM_NUMBERED and {v, value} == {6, 9} and self.zodiac_is(CANCER)

    def can_capture(self, mine: int, theirs: int) -> bool:
        """A die showing at least the opponent's die captures it; under Cancer a 6 may count as 9
        and a 9 as 6, whichever helps the capturer."""
        a, b = self.value[mine], self.value[theirs]
        if a >= b:
            return True
        if self.zodiac_is(CANCER):
            return (9 if a == 6 else a) >= (6 if b == 9 else b)
        return False

    def capture_allowed(self) -> bool:
        return not self.zodiac_is(VIRGO)

    # -- changing dice --------------------------------------------------------------------------
    def set_die(self, die: int, value: int) -> None:
        """A card or Major sets ``die`` to ``value`` (legality checked by the caller)."""
        self.log.append(("set", die, self.value[die], value))
        if die == PLANET_DIE:
            self.set_planet(value)
        elif die == ZODIAC_DIE:
            self.set_zodiac(value)
        else:
            self.value[die] = value

    def set_planet(self, face: int, rolled: bool = False) -> None:
        """The Planet die comes to show ``face`` (rolled, set or chosen): it "appears". Set or
        chosen to the face it already shows, it does not come to show anything (I-17)."""
        if face == self.value[PLANET_DIE] and not rolled:
            return
        self.neptune_ban = 0  # Neptune's banish ends when the die leaves (or lands anew on) Neptune
        self.value[PLANET_DIE] = face
        if self.value[ZODIAC_DIE] == TAURUS and face != SUN:
            return  # Taurus negates the Planet die, its appearing included
        if face == URANUS:
            self.tasks.append((OP_DECIDE, PH_URANUS, self.player))
        elif face == NEPTUNE:
            self.tasks.append((OP_DECIDE, PH_NEPTUNE, self.player))

    def set_zodiac(self, face: int, rolled: bool = False) -> None:
        self.value[ZODIAC_DIE] = face
        if face == TAURUS and self.value[PLANET_DIE] != SUN:
            self.neptune_ban = 0  # Neptune is no longer active
        if rolled and face == AQUARIUS and self.value[PLANET_DIE] != SUN:
            self.tasks.append((OP_DECIDE, PH_AQUARIUS, self.player))

    def roll(self, dice: int, primary: bool = True) -> None:
        """Roll ``dice`` for the player to move, with the Zodiac die's effect on the roll.

        ``dice`` is a mask: the Planet die, the Zodiac die, or numbered dice rolled at once (one
        die rolled alone; the dice a Planet face rolls, Gemini's twins, Pisces's matches). Dice
        rolled at once read Leo's lock and the Zodiac face once, as they roll; each result takes
        the face's change, and the face's "as well" (Gemini, Pisces, Sagittarius) follows once for
        them all, so no seat's die rolls first and changes what the other's meets (I-13, I-39).
        ``primary=False`` for the rolls a Zodiac effect itself causes: they do not set the same
        effect off again, or Gemini would bounce between two dice for ever (I-12). A die that
        can no longer change does not roll.
        """
        rng = self.rng
        log = self.log
        if dice == ZODIAC_BIT:
            # "When the Zodiac Die is rerolled it does not affect itself" (only Aquarius reacts).
            new = 1 + rng.below(12)
            log.append(("roll", ZODIAC_DIE, self.value[ZODIAC_DIE], new))
            self.set_zodiac(new, rolled=True)
            return
        value = self.value
        face = value[ZODIAC_DIE] if value[PLANET_DIE] != SUN else 0
        if dice == PLANET_BIT:
            new = 1 + rng.below(12)
            if face == LIBRA and new == value[PLANET_DIE]:
                log.append(("zodiac", LIBRA))
                new = 1 + rng.below(12)
            log.append(("roll", PLANET_DIE, value[PLANET_DIE], new))
            self.set_planet(new, rolled=True)
            return
        rolled = dice & self.changeable()
        if rolled and (face in _CHANGING_FACES or (primary and face in _CHAINING_FACES)):
            log.append(("zodiac", face))
        # The mover's dice draw first: the order of draws is no rule, but this way a table and its
        # seat mirror roll alike from one seed (tests/tarot_dice/test_seat_symmetry.py).
        p = self.player
        for die in bits(rolled & OWN_DICE[p]) + bits(rolled & OWN_DICE[1 - p]):
            size = SIZE[die]
            new = 1 + rng.below(size)
            if face == LIBRA:
                if new == value[die]:
                    new = 1 + rng.below(size)
            elif face == SCORPIO:
                new = max(1, new - 1)
            elif face == CAPRICORN:
                new = min(size, new + 1)
            log.append(("roll", die, value[die], new))
            value[die] = new
        if not primary or not rolled:
            return
        if face == GEMINI:
            twins = sum(1 << TWIN[d] for d in bits(rolled)) & ~rolled
            if twins:
                self.tasks.append((OP_ROLL, twins, False))
        elif face == PISCES:
            shown = {value[d] for d in bits(rolled)}
            same = sum(1 << d for d in bits(self.active_dice() & ~rolled) if value[d] in shown)
            if same:
                self.tasks.append((OP_ROLL, same, False))
        elif face == SAGITTARIUS:
            # Planet first, then Zodiac (the task stack is last in, first out).
            self.tasks.append((OP_ROLL, ZODIAC_BIT, False))
            self.tasks.append((OP_ROLL, PLANET_BIT, False))

    # -- the Planet phase -------------------------------------------------------------------------
    def planet_phase_pending(self) -> bool:
        """Whether this turn's Planet phase is still to come (the action phase included)."""
        return self.phase == PH_ACTION or (OP_PLANET_PHASE,) in self.tasks

    def planet_phase(self) -> None:
        """Activate the Planet die once at the end of the turn (I-19)."""
        if not self.planet_active():
            return
        if self.zodiac_is(ARIES) and not self.captured_this_turn:
            return
        face = self.value[PLANET_DIE]
        p = self.player
        tasks = self.tasks
        self.log.append(("planet", face))
        if face == MARS:
            tasks.append((OP_DECIDE, PH_MARS, p))
        elif face == VENUS:
            tasks.append((OP_DECIDE, PH_VENUS, p))
        elif face == MOON:
            tasks.append((OP_ROLL, ZODIAC_BIT, True))
            tasks.append((OP_ROLL, PLANET_BIT, True))
        elif face in (MERCURY, JUPITER, SOUTH_NODE, NORTH_NODE):
            value = self.value
            if face in (MERCURY, JUPITER):
                # "The smallest sized numbered die/dice that is still in play": in play is on the
                # board (a capture removes dice "from play"), so a banished die counts for the size;
                # it is not rolled, since a banished die cannot be rerolled (I-7, I-9).
                board = self.board
                if not board:
                    return
                sizes = [SIZE[d] for d in bits(board)]
                wanted = min(sizes) if face == MERCURY else max(sizes)
                dice = [d for d in bits(board) if SIZE[d] == wanted]
            elif face == SOUTH_NODE:
                dice = [d for d in bits(self.active_dice()) if value[d] <= 2]
            else:
                dice = [d for d in bits(self.active_dice()) if value[d] == SIZE[d]]
            if dice:
                tasks.append((OP_ROLL, sum(1 << d for d in dice), True))  # roll() skips banished ones
        elif face in (PLUTO, SATURN):
            # "All even / odd dice": neither a card nor a reroll, so banished dice change too; only
            # Leo's lock holds them (I-7, I-10).
            value = self.value
            for d in bits(self.board & ~self.locked()):
                if face == PLUTO and value[d] % 2 == 0:
                    self.log.append(("set", d, value[d], value[d] // 2))
                    value[d] //= 2
                elif face == SATURN and value[d] % 2 == 1:
                    self.log.append(("set", d, value[d], value[d] + 1))
                    value[d] += 1  # every die's maximum is even, so an odd value always has room

    def nightfall(self) -> tuple[int, int]:
        """The anti-stall duel when a round reaches its turn limit (D-3): each player's dice on
        the board, highest showing first (the larger die first on equal values), face off pair by
        pair; the first higher value captures the lower and wins the round, scoring that pair's
        maximum values. If every pair ties, the player who took the second turn wins with their
        first pair. Returns (winner, points)."""
        lines = []
        for p in (0, 1):
            dice = [d for d in bits(self.board & OWN_DICE[p])]
            dice.sort(key=lambda d: (self.value[d], SIZE[d]), reverse=True)
            lines.append(dice)
        for a, b in zip(lines[0], lines[1], strict=True):
            if self.value[a] != self.value[b]:
                winner = 0 if self.value[a] > self.value[b] else 1
                return winner, SIZE[a] + SIZE[b]
        a, b = lines[0][0], lines[1][0]
        return 1 - self.round_starter, SIZE[a] + SIZE[b]


__all__ = ["ALL_NUMBERED", "OWN_DICE", "SIZE", "SIZE_AT_LEAST", "SYMBOL_BITS", "DiceMixin", "bits"]
