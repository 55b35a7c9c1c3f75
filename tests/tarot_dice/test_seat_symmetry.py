"""The rules treat both seats alike: a table and its seat mirror play out as mirrors.

``mirror(s)`` swaps everything between the seats (dice, cards, wells, Majors, points, who moves,
who started). Both copies then draw from one seed: within a round every draw is a roll, and the
mover's dice draw first (``DiceMixin.roll``), so the same egocentric actions must keep the two
states mirrored, with equal legal actions and each seat's observation equal to the mirror's other
seat. Leo's lock read die by die and a Planet face rolling one die at a time under Sagittarius were
seat asymmetries of this kind (I-13, I-39). A round's end deals and rolls for the next round in
seat order, so each game is followed to the end of its round.
"""

from __future__ import annotations

import numpy as np
import pytest
from gameplay import assert_seat_mirrors

from mystic_envs.core.rng import Rng
from mystic_envs.tarot_dice.arcana import Play
from mystic_envs.tarot_dice.cards import DECK_SIZE, NUM_MINORS, NUM_NUMBERED, NUM_SIZES
from mystic_envs.tarot_dice.phases import DIE_PHASES, OP_DECIDE, OP_ROLL, PH_ACTION, PH_CHARIOT_CARD
from mystic_envs.tarot_dice.rules import TarotDiceGame, TarotDiceState

from .script import position


def _die(d: int) -> int:
    return (d + NUM_SIZES) % NUM_NUMBERED if d < NUM_NUMBERED else d  # the symbol dice are shared


def _dice(mask: int) -> int:
    return sum(1 << _die(d) for d in range(NUM_NUMBERED + 2) if mask >> d & 1)


def _card(c: int) -> int:
    return (c + DECK_SIZE) % NUM_MINORS if 0 <= c < NUM_MINORS else c  # Majors and -1 stay


def _cards(mask: int) -> int:
    return sum(1 << _card(c) for c in range(NUM_MINORS) if mask >> c & 1)


def _swap(pair: list) -> list:
    return [pair[1], pair[0]]


def _play(play: Play) -> Play:
    c = play.copy()
    c.card, c.effect_card = _card(play.card), _card(play.effect_card)
    c.prev_top, c.returning = _card(play.prev_top), _card(play.returning)
    c.target = _die(play.target) if play.target >= 0 else -1
    return c


def _task(task: tuple) -> tuple:
    if task[0] == OP_DECIDE:
        return (OP_DECIDE, task[1], 1 - task[2])
    if task[0] == OP_ROLL:
        return (OP_ROLL, _dice(task[1]), task[2])
    return task


def mirror(s: TarotDiceState) -> TarotDiceState:
    """``s`` with the seats swapped (its chance stream copied, as ``clone`` does)."""
    c = s.clone()
    c.value = [s.value[_die(d)] for d in range(len(s.value))]
    c.board, c.neptune_ban = _dice(s.board), _dice(s.neptune_ban)
    c.knight_ban = [_dice(m) for m in _swap(s.knight_ban)]
    c.hand = [sorted(map(_card, h)) for h in _swap(s.hand)]
    c.unused = [sorted(map(_card, u)) for u in _swap(s.unused)]
    c.wells = [[[_card(x) for x in well] for well in ws] for ws in _swap(s.wells)]
    c.graveyard = [[_card(x) for x in g] for g in _swap(s.graveyard)]
    c.sacrificed = [_card(x) for x in _swap(s.sacrificed)]
    for field in ("hidden_well", "open_wells", "owned", "major_hand", "points"):
        setattr(c, field, _swap(getattr(s, field)))
    c.player = 1 - s.player if s.player >= 0 else s.player
    c.round_starter, c.draft_first = 1 - s.round_starter, 1 - s.draft_first
    if s.last_round is not None:
        winner, points, how = s.last_round
        c.last_round = (1 - winner, points, how)
    c.plays = [_play(p) for p in s.plays]
    c.tasks = [_task(t) for t in s.tasks]
    if s.phase in DIE_PHASES:
        c.choice = _dice(s.choice)
    elif s.phase == PH_CHARIOT_CARD:
        c.choice = _cards(s.choice)
    c.changed()
    return c


FIELDS = (
    "board", "captured_this_turn", "choice", "draft_first", "draft_pos", "graveyard",
    "hand", "hidden_well", "knight_ban", "last_round", "major_hand", "neptune_ban", "open_wells",
    "owned", "phase", "pile", "player", "points", "resolving", "round_starter",
    "rounds_done", "sacrificed", "tasks", "turn_in_round", "unused", "value", "wells",
)  # fmt: skip


def differences(a: TarotDiceState, b: TarotDiceState) -> list[str]:
    out = [f"{f}: {getattr(a, f)!r} != {getattr(b, f)!r}" for f in FIELDS if getattr(a, f) != getattr(b, f)]
    plays = [[[getattr(p, n) for n in Play.__slots__] for p in s.plays] for s in (a, b)]
    if plays[0] != plays[1]:
        out.append(f"plays: {plays[0]} != {plays[1]}")
    return out


def play_mirrored(s: TarotDiceState, choose: np.random.Generator, seed: int) -> int:
    """Play ``s`` and its mirror to the end of the round with the same random egocentric actions,
    both drawing from ``seed``; returns the number of actions played."""
    s.rng = Rng(seed)
    m = mirror(s)
    assert differences(mirror(m), s) == []  # mirroring twice gives the table back
    m.rng = Rng(seed)
    rounds = s.rounds_done
    steps = 0
    while not s.is_terminal:
        assert_seat_mirrors(s, m, steps)
        legal = s.legal_actions()
        action = legal[int(choose.integers(len(legal)))]
        s.apply(action)
        m.apply(action)
        steps += 1
        if s.rounds_done != rounds:
            assert (m.rounds_done, m.points, m.last_round) == (
                s.rounds_done,
                _swap(s.points),
                (1 - s.last_round[0], *s.last_round[1:]),
            )
            return steps
        assert differences(mirror(s), m) == [], (steps, s.phase_name)
    return steps


@pytest.mark.parametrize("seed", range(40))
def test_random_rounds_play_out_as_their_seat_mirrors(seed):
    """From a random point of a random match's round (draft and setup effects done), to the end
    of that round."""
    choose = np.random.default_rng(seed)
    s = TarotDiceGame().new_initial_state(seed)
    stop = int(choose.integers(0, 30))
    while not (s.phase == PH_ACTION and s.turn_in_round >= stop) and not s.is_terminal:
        legal = s.legal_actions()
        s.apply(legal[int(choose.integers(len(legal)))])
        if s.phase != PH_ACTION and s.turn_in_round > 0 and choose.random() < 0.05:
            break  # now and then from a decision in the middle of a turn (the round's dice rolled)
    if s.is_terminal:  # the match ended before that turn came: from the first turn instead
        s = TarotDiceGame().new_initial_state(seed)
        while s.phase != PH_ACTION:
            legal = s.legal_actions()
            s.apply(legal[int(choose.integers(len(legal)))])
    assert play_mirrored(s, choose, seed) > 0


SYMBOL_TABLES = [
    # Every Planet face acting at the end of the turn under every Zodiac face, on dice that tie
    # across the seats (Leo's top, the Nodes' 1s, 2s and maxima, Pisces's matches, Cancer's 6 and 9).
    (planet, zodiac)
    for planet in (
        "Mercury",
        "Jupiter",
        "South Node",
        "North Node",
        "Pluto",
        "Saturn",
        "Moon",
        "Mars",
        "Venus",
    )
    for zodiac in ("Gemini", "Leo", "Libra", "Scorpio", "Sagittarius", "Capricorn", "Pisces", "Cancer")
]


@pytest.mark.parametrize(("planet", "zodiac"), SYMBOL_TABLES)
def test_planet_faces_under_each_zodiac_face_treat_the_seats_alike(planet, zodiac):
    dice = ((1, 2, 8, 9, 12, 20), (2, 1, 8, 10, 6, 20))
    for seed in range(4):
        s = position(dice=dice, planet=planet, zodiac=zodiac, to_move=seed % 2)
        play_mirrored(s, np.random.default_rng(seed), seed)
