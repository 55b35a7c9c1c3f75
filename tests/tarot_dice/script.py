"""Move-script helpers for Tarot Dice rule tests: positions and scripts written in the game's words.

A position is built from scratch (``position``): each player's Majors, dice (D4 ... D20, 0 for a
captured die), the Planet and Zodiac faces, hands, wells (bottom first), graveyards (top last);
every card not named stays undealt. Dice rolls come from a script (``Rolls``) so that every
expected outcome is worked out by hand. Moves are strings, checked against the mover's legal
actions: ``"capture D20 D4"`` (your D20 takes the opponent's D4), ``"reroll opp D6"``, ``"play 7 of
Cups"``, ``"play Strength"``, ``"die my D8"`` (the die for the decision at hand; also ``planet``,
``zodiac``), ``"value 11"``, ``"face King"``, ``"use The Fool"``, ``"draft The Fool"``, ``"pass"``,
``"planet Mars"``, ``"zodiac Leo"``, ``"return 7 of Cups"``, ``"well 2"``.
"""

from __future__ import annotations

from collections.abc import Sequence

from mystic_envs.tarot_dice import actions, rules
from mystic_envs.tarot_dice.cards import (
    DECK_SIZE,
    DIE_NAMES,
    FACE_KINDS,
    KIND_NAMES,
    MAJOR_CARD,
    MAJORS,
    NUM_MINORS,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_NAMES,
    STRENGTH,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_NAMES,
    card_name,
)
from mystic_envs.tarot_dice.phases import PH_ACTION
from mystic_envs.tarot_dice.rules import TarotDiceGame, TarotDiceState

CARD = {card_name(c): c for c in range(NUM_MINORS)}
MAJOR = {m.name: m.number for m in MAJORS}
PLANET = {name: i + 1 for i, name in enumerate(PLANET_NAMES)}
ZODIAC = {name: i + 1 for i, name in enumerate(ZODIAC_NAMES)}
SIZE_INDEX = {name: k for k, name in enumerate(DIE_NAMES)}


class Rolls:
    """Stands in for the state's generator: each roll takes the next scripted value."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)

    def below(self, n: int) -> int:
        """Every roll is ``1 + below(size)``: the scripted value is the face the die shows."""
        assert self.values, f"an unscripted roll of a die of {n} faces"
        v = self.values.pop(0)
        assert 1 <= v <= n, f"scripted roll {v} outside 1-{n}"
        return v - 1

    def permutation(self, n: int) -> list[int]:
        """A new round deals each deck in order (the cards dealt are not what a script tests)."""
        return list(range(n))

    def copy(self) -> Rolls:
        return Rolls(self.values)


def die_index(seat: int, name: str) -> int:
    """``die_index(1, "D20")``: player_1's D20; ``"planet"`` / ``"zodiac"`` for the symbol dice."""
    if name == "planet":
        return PLANET_DIE
    if name == "zodiac":
        return ZODIAC_DIE
    return seat * NUM_SIZES + SIZE_INDEX[name]


def _target(mover: int, words: str) -> int:
    if words in ("planet", "zodiac"):
        return actions.TARGET_OF[mover][die_index(0, words)]
    whose, size = words.split()
    seat = mover if whose == "my" else 1 - mover
    return actions.TARGET_OF[mover][die_index(seat, size)]


def _local(mover: int, name: str) -> int:
    card = CARD[name]
    assert card // DECK_SIZE == mover, f"{name} is not in player_{mover}'s deck"
    return card - mover * DECK_SIZE


def action(mover: int, move: str) -> int:
    verb, _, rest = move.partition(" ")
    if verb == "capture":
        mine, theirs = rest.split()
        return actions.CAPTURE + SIZE_INDEX[mine] * NUM_SIZES + SIZE_INDEX[theirs]
    if verb == "reroll" or verb == "die":
        return actions.DIE + _target(mover, rest)
    if verb == "play":
        if rest == "Strength":
            return actions.PLAY_STRENGTH
        if rest == "Death":
            return actions.PLAY_DEATH
        return actions.CARD + _local(mover, rest)
    if verb == "return":
        return actions.CARD + _local(mover, rest)
    if verb == "value":
        return actions.NUMBER_ACTION + int(rest) - 1
    if verb == "planet":
        return actions.NUMBER_ACTION + PLANET[rest] - 1
    if verb == "zodiac":
        return actions.NUMBER_ACTION + ZODIAC[rest] - 1
    if verb == "face":
        return actions.FACE + [KIND_NAMES[k] for k in FACE_KINDS].index(rest)
    if verb == "use" or verb == "draft":
        return actions.MAJOR + MAJOR[rest]
    if verb == "well":
        return actions.WELL + int(rest) - 1
    if verb == "pass":
        return actions.PASS
    raise ValueError(f"unknown move {move!r}")


def play(s: TarotDiceState, moves: Sequence[tuple[int, str]]) -> None:
    """Apply ``(seat, move)`` pairs, checking the seat to move and every invariant after each."""
    for seat, move in moves:
        assert s.current_player == seat, f"{move!r}: expected player_{seat} to move, got {s.current_player}"
        s.apply(action(seat, move))
        s.check_invariants()


def legal_moves(s: TarotDiceState) -> list[str]:
    """The meanings of the legal actions (for messages)."""
    return [actions.action_meaning(a) for a in s.legal_actions()]


def is_legal(s: TarotDiceState, seat: int, move: str) -> bool:
    return s.is_legal(action(seat, move))


def position(
    *,
    majors: tuple[Sequence[str], Sequence[str]] = ((), ()),
    dice: tuple[Sequence[int], Sequence[int]] = ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6)),
    planet: str = "Sun",
    zodiac: str = "Aries",
    hands: tuple[Sequence[str], Sequence[str]] = ((), ()),
    wells: tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]] = ((), ()),
    hidden: tuple[int, int] = (0, 0),
    graveyards: tuple[Sequence[str], Sequence[str]] = ((), ()),
    sacrificed: tuple[str | None, str | None] = (None, None),
    to_move: int = 0,
    rolls: Sequence[int] = (),
    num_rounds: int = 2,
    round_turn_limit: int = 60,
) -> TarotDiceState:
    """player_``to_move``'s action phase in the first round, on the table described.

    ``dice[p]`` lists player_p's D4 ... D20 (0: captured). The defaults put the Sun on the Planet die
    (no Zodiac effect) and Aries on the Zodiac die, so a row only meets the effects it names.
    ``hidden[p]`` is a bit mask of player_p's wells whose bottom card is face down. Strength,
    if drafted, is in its owner's hand unless its graveyard names it.
    """
    game = TarotDiceGame(num_rounds=num_rounds, round_turn_limit=round_turn_limit)
    s = game.new_initial_state(0)
    s.round_starter = to_move
    s.draft_first = 1 - to_move
    owned = [sum(1 << MAJOR[name] for name in majors[p]) for p in (0, 1)]
    s.owned = owned
    s.pile = rules.ALL_MAJORS & ~(owned[0] | owned[1])
    s.draft_pos = len(majors[0]) + len(majors[1])
    s.board = 0
    for p in (0, 1):
        assert len(dice[p]) == NUM_SIZES
        for k, v in enumerate(dice[p]):
            d = p * NUM_SIZES + k
            s.value[d] = v
            if v:
                s.board |= 1 << d
    s.value[PLANET_DIE] = PLANET[planet]
    s.value[ZODIAC_DIE] = ZODIAC[zodiac]
    s.knight_ban = [0, 0]
    s.neptune_ban = 0
    for p in (0, 1):
        s.hand[p] = sorted(CARD[c] for c in hands[p] if c not in MAJOR)
        s.wells[p] = [[CARD[c] for c in (wells[p][k] if k < len(wells[p]) else ())] for k in range(WELLS)]
        s.hidden_well[p] = hidden[p]
        s.open_wells[p] = (1 << WELLS) - 1
        s.graveyard[p] = [MAJOR_CARD + MAJOR[c] if c in MAJOR else CARD[c] for c in graveyards[p]]
        s.sacrificed[p] = CARD[sacrificed[p]] if sacrificed[p] else -1
        s.major_hand[p] = 0
        if owned[p] >> STRENGTH & 1 and MAJOR_CARD + STRENGTH not in s.graveyard[p]:
            s.major_hand[p] |= 1 << STRENGTH
        for name in hands[p]:
            if name in MAJOR:  # Death (or Strength) in the hand
                s.major_hand[p] |= 1 << MAJOR[name]
        dealt = set(s.hand[p]) | {c for w in s.wells[p] for c in w} | set(s.graveyard[p])
        if s.sacrificed[p] >= 0:
            dealt.add(s.sacrificed[p])
        s.unused[p] = [c for c in range(p * DECK_SIZE, (p + 1) * DECK_SIZE) if c not in dealt]
    s.tasks = []
    s.plays = []
    s.turn_in_round = 0
    s.captured_this_turn = False
    s.choice = 0
    s.resolving = -1
    s.phase = PH_ACTION
    s.player = to_move
    s.rng = Rolls(rolls)
    s.changed()
    s.check_invariants()
    return s


def dice_of(s: TarotDiceState, seat: int) -> list[int]:
    """player_``seat``'s D4 ... D20 as they show (0: captured)."""
    return s.value[seat * NUM_SIZES : (seat + 1) * NUM_SIZES]


def planet_of(s: TarotDiceState) -> str:
    return PLANET_NAMES[s.value[PLANET_DIE] - 1]


def zodiac_of(s: TarotDiceState) -> str:
    return ZODIAC_NAMES[s.value[ZODIAC_DIE] - 1]


def banished(s: TarotDiceState) -> set[str]:
    """Banished dice as ``"p0 D8"`` strings."""
    return {
        f"p{d // NUM_SIZES} {DIE_NAMES[d % NUM_SIZES]}" for d in range(2 * NUM_SIZES) if s.banned() >> d & 1
    }


def names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]
