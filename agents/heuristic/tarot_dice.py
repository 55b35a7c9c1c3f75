"""A rule-based Tarot Dice player (the balance reference of ``docs/rules/tarot_dice.md``).

It sees only what its seat sees: every decision is taken on ``state.determinize(seat)`` and reads
only its own hand, the well tops, graveyards, Majors and dice. The opponent's hidden hand cards
count only as a chance (their share of Kings and Pages among the cards this seat has not seen);
nobody's face-down well card is read.

Every option is scored by one model of the dice (``agents/heuristic/tarot_dice_model.py``): the
round goes to whoever captures the last pair, so a position is worth the chance of making that
capture, judged at the start of the opponent's turn and turned into match value.

- One pair left: the player to move wins if its die shows at least the other's. Otherwise it must
  "flip": end its turn with its die strictly higher (a King or a high number on its die, a Page or
  a low number on the other, a reroll, two with a Queen), through its own Planet phase (Venus
  rerolls its die, Mars the other, the Nodes, Pluto and Saturn change values). The chance of a
  flip comes from the cards the player holds (the opponent's well tops, plus the chance one of its
  hidden hand cards is a King or a Page); the turns alternate until a flip fails.
- Two pairs: capture when safe, that is, take a capture that leaves its own last die strictly
  above the other (a capture that leaves the opponent's die at least as high hands it the round);
  otherwise improve, knowing the opponent may have a safe capture next.
- Three pairs or more: material. Each player's dice sorted by size, the largest weighing most
  (they win the last pair: a D20 rerolls above almost anything, and a King on it beats
  everything), plus the captures the player to move can make at once, its smallest die able to
  take each of the other's dice: a small die taking a big one is a good trade, and a big die
  showing a low value is exposed, so big dice are protected (rerolled, raised by a King or a
  number) and the opponent's are set low (a Page) to be taken. With three pairs a capture is
  followed into the two-pair play.
- Virgo (every round starts on it) forbids captures, and the player who turns it away hands the
  other the first capture. Left alone the round runs to the nightfall duel, which the player with
  the round's last turn wins most of the time; so that player waits, keeping its dice safe and
  high, and the other opens Virgo at once unless the first capture would cost it more.
- Near the turn limit the nightfall duel weighs in, more with each turn: on the last turns the
  player works out who is ahead in the duel and its chance to turn it with one action.
- Match value: the last pair scores its two dice's maxima. In the round that decides the match
  each possible last pair (larger dice more likely) counts by whether winning or losing with it
  wins the match: ahead, the player trades big dice away; behind, it keeps them. In an earlier
  round a round is worth more the larger its last pair.

Decisions, all on that model: the action (every capture; every reroll as the average over a few
representative faces; every card on its best target and value, less a small price for spending it),
then each sub-decision of a card play (The Hanged Man, Strength's face, the value, the target, the
Queen's rerolls, each triggered Major or pass; the extra targets; the symbol chosen), the Planet
phase's choices (Mars, Venus, Neptune, Uranus, Aquarius) and the setup: the draft by a fixed
priority, measured (owners' round wins with random drafts; the draft matters little), The Magician's
well and The Devil's sacrifice by the visible top cards. The rest of the turn's Planet phase is
played out on the model before a position is scored, so a King is not spent where Venus or the North
Node would reroll it at once.

``decide(state, seat)`` is the whole player: about 1.5-2 ms of CPU a decision on average.
``rollout_policy`` keeps only its capture rules, for ``agents.mcts`` rollouts.
"""

from __future__ import annotations

import math

import numpy as np

from agents.heuristic.base import DeterminizingHeuristic
from agents.heuristic.tarot_dice_model import Model
from mystic_envs.tarot_dice import actions as A
from mystic_envs.tarot_dice.arcana import card_values, effect_kind
from mystic_envs.tarot_dice.cards import (
    CHARIOT,
    DEATH,
    DECK_SIZE,
    DEVIL,
    E_BANISH_TARGET,
    E_CHARIOT,
    E_ENEMY_TARGET,
    E_NUMBERED_TARGET,
    E_PLANET_SYMBOL,
    E_REROLL_NUMBERED,
    E_ROLL_ANY,
    E_SACRIFICE,
    E_SECOND_OWN,
    E_SET_MAX,
    E_ZODIAC_SYMBOL,
    EMPEROR,
    EMPRESS,
    FACE_KINDS,
    FOOL,
    HANGED_MAN,
    HERMIT,
    HIEROPHANT,
    JUDGEMENT,
    JUSTICE,
    KING,
    KING_EFFECT,
    KNIGHT_EFFECT,
    LOVERS,
    MAGICIAN,
    MAJOR_CARD,
    MAJORS,
    MOON_CARD,
    NO_EFFECT,
    NUM_MINORS,
    NUM_NUMBERED,
    NUM_SIZES,
    NUMBER,
    PAGE,
    PAGE_EFFECT,
    PLANET_DIE,
    PRIESTESS,
    QUEEN_EFFECT,
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
from mystic_envs.tarot_dice.dice import OWN_DICE, SIZE, bits
from mystic_envs.tarot_dice.phases import (
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
    PH_WORLD,
    PH_ZODIAC_SYMBOL,
)
from mystic_envs.tarot_dice.rules import TarotDiceState

# --- tuning -------------------------------------------------------------------------------------
# Draft priority, best first: the Majors by the share of rounds their owners won in 1,000 matches of
# this player with random drafts (docs/rules/tarot_dice.md, "Balance"). Each share is 46-55% with a
# standard error of 2 points, but together they count: this order beat the same player drafting
# at random in 59% of 400 matches, and an order from an earlier version of the player in 58% of 600.
DRAFT_ORDER = (
    CHARIOT,
    WHEEL,
    STRENGTH,
    MOON_CARD,
    FOOL,
    JUSTICE,
    MAGICIAN,
    HANGED_MAN,
    TOWER,
    WORLD,
    STAR,
    HERMIT,
    DEVIL,
    LOVERS,
    JUDGEMENT,
    DEATH,
    TEMPERANCE,
    HIEROPHANT,
    EMPEROR,
    PRIESTESS,
    EMPRESS,
    SUN_CARD,
)
# Price of spending a card, in match value (a won round is +1): keep them for when they matter.
CARD_PRICE = {NUMBER: 0.012, PAGE_EFFECT: 0.025, KNIGHT_EFFECT: 0.015, QUEEN_EFFECT: 0.02, KING_EFFECT: 0.035}


def _card_price(card: int) -> float:
    kind = effect_kind(card)
    if kind < 0:  # Strength: any face card
        return CARD_PRICE[KING_EFFECT]
    return CARD_PRICE.get(kind, 0.0)


def _card_worth(card: int) -> float:
    """How useful a card is to hold (setup choices): Kings and Pages most, high numbers next."""
    if card >= NUM_MINORS:
        return 3.0 if card == MAJOR_CARD + STRENGTH else 0.0
    rank = card % RANKS_PER_SUIT
    if rank == KING:
        return 3.0
    if rank == PAGE:
        return 2.5
    if rank > PAGE:
        return 1.5
    return 1.0 + max(card_values(card)) / 12


# --- decisions ------------------------------------------------------------------------------------
class Decider:
    """Scores the options of the open decision of seat ``me`` on the model."""

    def __init__(self, s: TarotDiceState, me: int) -> None:
        self.s = s
        self.me = me
        self.model = Model(s, me)
        self.vals = list(s.value)
        self.board = s.board
        # Dice banished during the opponent's coming turn: this player's Knight and Hermit banishes
        # and Neptune's (the opponent's own banishes end as its turn starts).
        self.ban = (s.knight_ban[me] | s.neptune_ban) & s.board

    def base(self) -> float:
        return self.model.finish(self.vals, self.board, self.ban)

    def die_set(self, d: int, value: int) -> float:
        if d >= NUM_NUMBERED:
            return self.model.symbol_set(self.vals, self.board, self.ban, d, value, True)
        v = list(self.vals)
        v[d] = value
        return self.model.finish(v, self.board, self.ban)

    def reroll(self, d: int) -> float:
        return self.model.rolled(self.vals, self.board, self.ban, d, self.model.planet_pending)

    def banish(self, d: int) -> float:
        return self.model.finish(self.vals, self.board, self.ban | 1 << d)

    def capture(self, mine: int, theirs: int) -> float:
        board = self.board & ~(1 << mine | 1 << theirs)
        if not board:
            return self.model.stake(SIZE[mine] + SIZE[theirs], True)
        v = list(self.vals)
        v[mine] = v[theirs] = 0
        return self.model.finish(v, board, self.ban & board, captured=True)

    # -- card effects -----------------------------------------------------------------------------
    def targets(self, kind: int, value: int = 0) -> list[int]:
        s = self.s
        if kind == NUMBER:
            return bits(s.number_targets(value))
        if kind == KNIGHT_EFFECT:
            return bits(s.active_dice())
        if kind in (PAGE_EFFECT, KING_EFFECT):
            return bits(s.changeable())  # numbered dice only (I-34)
        return bits(s.rollable())

    def effect(self, kind: int, d: int, value: int = 0) -> float:
        if kind == NUMBER:
            return self.die_set(d, value)
        if kind == PAGE_EFFECT:
            return self.die_set(d, 1)
        if kind == KING_EFFECT:
            return self.die_set(d, SIZE[d])
        if kind == KNIGHT_EFFECT:
            return self.banish(d)
        return self.reroll(d)

    def best_effect(self, kind: int, values: tuple[int, ...] = ()) -> float:
        """The best a card played as ``kind`` (a number: any of ``values``) can do."""
        if kind == NO_EFFECT:
            return self.base()
        if kind == QUEEN_EFFECT:
            base = self.base()
            best = max(self.reroll(d) for d in self.targets(kind))
            return best + 0.5 * max(0.0, best - base)  # her second reroll, chosen after the first
        if kind == NUMBER:
            return max(self.effect(kind, d, v) for v in values for d in self.targets(kind, v))
        dice = self.targets(kind)
        if not dice:
            return self.base()
        return max(self.effect(kind, d) for d in dice)

    def card_value(self, card: int) -> float:
        """The best play of ``card`` from the action phase, less the price of spending it."""
        kind = effect_kind(card)
        if kind < 0:
            value = max(self.best_effect(k) for k in FACE_KINDS)
        else:
            values = card_values(card)
            if kind == NUMBER and self.s.owns(self.me, TEMPERANCE):
                values = tuple(sorted({w for v in values for w in (v - 1, v, v + 1) if 1 <= w <= 12}))
            value = self.best_effect(kind, values)
        return value - _card_price(card)


def decide(s: TarotDiceState, seat: int, scores: dict[int, float] | None = None) -> int:
    """The action for ``seat`` on a state it may fully read (its own determinized copy).

    ``scores``, if given, receives the model's value of every legal action where the decision
    compares them on one scale (the action, every die and value choice, The Hanged Man, triggered
    Majors; match value, -1..1); it stays empty where a fixed order decides (draft, setup choices)
    or only one action is legal (tested in ``tests/test_heuristic_scores.py``).
    """
    legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = s.phase
    if phase == PH_DRAFT:
        pile = s.pile
        return A.MAJOR + next(m for m in DRAFT_ORDER if pile >> m & 1)
    if phase == PH_MAGICIAN:
        return max(legal, key=lambda a: (_card_worth(s.wells[seat][a - A.WELL][-1]), -a))
    if phase == PH_DEVIL:
        return min(legal, key=lambda a: (_card_worth(s.wells[seat][a - A.WELL][-1]), a))
    if phase == PH_CHARIOT_CARD:
        return max(legal, key=lambda a: (max(card_values(seat * DECK_SIZE + a - A.CARD)), -a))
    if phase == PH_CHARIOT_WELL:
        wells = s.wells[seat]
        return min(
            legal, key=lambda a: (_card_worth(wells[a - A.WELL][-1]) if wells[a - A.WELL] else -1.0, a)
        )
    dec = Decider(s, seat)
    die_of = A.DIE_OF[seat]
    if phase == PH_ACTION:
        return _best(legal, scores, lambda a: _action_value(dec, seat, a))
    if phase in (PH_QUEEN, PH_ROLL_ANY, PH_TOWER, PH_MARS, PH_VENUS):
        return _best(legal, scores, lambda a: dec.reroll(die_of[a - A.DIE]))
    if phase == PH_TARGET:
        play = s.plays[-1]
        return _best(legal, scores, lambda a: dec.effect(play.kind, die_of[a - A.DIE], play.value))
    if phase in (PH_LOVERS, PH_JUSTICE, PH_WORLD):
        value = s.plays[-1].value
        return _best(legal, scores, lambda a: dec.die_set(die_of[a - A.DIE], value))
    if phase == PH_NEPTUNE:
        return _best(legal, scores, lambda a: dec.banish(die_of[a - A.DIE]))
    if phase == PH_VALUE:
        return _best(legal, scores, lambda a: dec.best_effect(NUMBER, (a - A.NUMBER_ACTION + 1,)))
    if phase == PH_FACE:
        return _best(legal, scores, lambda a: dec.best_effect(FACE_KINDS[a - A.FACE]))
    if phase in (PH_PLANET_SYMBOL, PH_URANUS):
        return _best(legal, scores, lambda a: dec.die_set(PLANET_DIE, a - A.NUMBER_ACTION + 1))
    if phase in (PH_ZODIAC_SYMBOL, PH_AQUARIUS):
        return _best(legal, scores, lambda a: dec.die_set(ZODIAC_DIE, a - A.NUMBER_ACTION + 1))
    if phase == PH_HANGED:
        return _hanged_man(dec, s, legal, scores)
    if phase == PH_TRIGGERS:
        return _trigger(dec, s, seat, legal, scores)
    raise ValueError(f"no decision for seat {seat} in phase {s.phase_name!r}")


def _best(legal: list[int], scores: dict[int, float] | None, score) -> int:
    """The highest-scoring action; the lowest action on a tie (a fixed order, no randomness)."""
    best, best_score = legal[0], -math.inf
    for a in legal:
        v = score(a)
        if scores is not None:
            scores[a] = v
        if v > best_score + 1e-9:
            best, best_score = a, v
    return best


def _action_value(dec: Decider, seat: int, a: int) -> float:
    s = dec.s
    if a < A.DIE:
        mine, theirs = divmod(a - A.CAPTURE, NUM_SIZES)
        return dec.capture(seat * NUM_SIZES + mine, (1 - seat) * NUM_SIZES + theirs)
    if a < A.CARD:
        return dec.reroll(A.DIE_OF[seat][a - A.DIE])
    if a == A.PLAY_STRENGTH:
        return dec.card_value(MAJOR_CARD + STRENGTH)
    if a == A.PLAY_DEATH:
        return dec.base() - 0.001
    card = seat * DECK_SIZE + a - A.CARD
    value = dec.card_value(card)
    if card not in s.hand[seat]:
        value += 0.002  # a well top played turns the card under it face up, one more to choose from
    return value


def _hanged_man(dec: Decider, s: TarotDiceState, legal: list[int], scores: dict[int, float] | None) -> int:
    if len(legal) == 1:
        return legal[0]
    play = s.plays[-1]
    own = _effect_of(dec, play.card)
    other = _effect_of(dec, play.prev_top)
    if scores is not None:
        scores.update({A.PASS: own, A.MAJOR + HANGED_MAN: other})
    return A.MAJOR + HANGED_MAN if other > own + 1e-9 else A.PASS


def _effect_of(dec: Decider, card: int) -> float:
    kind = effect_kind(card)
    if kind < 0:
        return max(dec.best_effect(k) for k in FACE_KINDS)
    return dec.best_effect(kind, card_values(card))


def _trigger(
    dec: Decider, s: TarotDiceState, seat: int, legal: list[int], scores: dict[int, float] | None
) -> int:
    play = s.plays[-1]
    base = dec.base()
    best, best_gain = A.PASS if A.PASS in legal else legal[0], 0.0 if A.PASS in legal else -math.inf
    for a in legal:
        if a == A.PASS:
            if scores is not None:
                scores[a] = base
            continue
        m = a - A.MAJOR
        gain = _major_value(dec, s, seat, m, play) - base
        if scores is not None:
            scores[a] = base + gain
        if gain > best_gain + 1e-9:
            best, best_gain = a, gain
    return best


def _major_value(dec: Decider, s: TarotDiceState, seat: int, m: int, play) -> float:
    effect = MAJORS[m].effect
    if effect == E_ROLL_ANY:
        return max(dec.reroll(d) for d in bits(s.rollable()))
    if effect == E_REROLL_NUMBERED:
        dice = bits(s.changeable())
        return max(dec.reroll(d) for d in dice) if dice else dec.base()
    if effect == E_SET_MAX:
        return dec.die_set(play.target, SIZE[play.target])
    if effect == E_PLANET_SYMBOL:
        return max(dec.die_set(PLANET_DIE, f) for f in range(1, 13))
    if effect == E_ZODIAC_SYMBOL:
        return max(dec.die_set(ZODIAC_DIE, f) for f in range(1, 13))
    if effect == E_BANISH_TARGET:
        return dec.banish(play.target)
    if effect in (E_SECOND_OWN, E_ENEMY_TARGET, E_NUMBERED_TARGET):
        dice = bits(s.extra_targets(seat, m, play))
        return max(dec.die_set(d, play.value) for d in dice) if dice else dec.base()
    if effect == E_SACRIFICE:
        return _effect_of(dec, s.sacrificed[seat])
    if effect == E_CHARIOT:
        return dec.base() + 0.005  # a numbered card back on a well: one more card to play
    return dec.base()


class TarotDiceHeuristic(DeterminizingHeuristic):
    """Rule-based Tarot Dice agent; see the module docstring."""

    decide = staticmethod(decide)


def rollout_policy(state: TarotDiceState, rng: np.random.Generator) -> int:
    """The heuristic's capture rules as a fast state-level policy for ``agents.mcts`` rollouts
    (a full decision costs ~1,000 times more than a random one): take the last pair; with two
    pairs, a capture that leaves its own last die strictly higher; with more, a capture whose
    taker is smaller than its prize. Everything else is uniformly random (``rng``)."""
    legal = state.legal_actions()
    if state.phase == PH_ACTION and legal[0] < A.DIE:
        p = state.current_player
        board = state.board
        vals = state.value
        pairs = (board & OWN_DICE[p]).bit_count()
        best, best_gain = -1, 0
        for a in legal:
            if a >= A.DIE:
                break
            mine, theirs = divmod(a - A.CAPTURE, NUM_SIZES)
            mine += p * NUM_SIZES
            theirs += (1 - p) * NUM_SIZES
            if pairs == 1:
                return a
            if pairs == 2:
                left = board & ~(1 << mine | 1 << theirs)
                mine_left = (left & OWN_DICE[p]).bit_length() - 1
                theirs_left = (left & OWN_DICE[1 - p]).bit_length() - 1
                gain = 1 if vals[mine_left] > vals[theirs_left] else 0
            else:
                gain = SIZE[theirs] - SIZE[mine]
            if gain > best_gain:
                best, best_gain = a, gain
        if best >= 0:
            return best
    return legal[int(rng.integers(len(legal)))]


__all__ = ["TarotDiceHeuristic", "decide", "rollout_policy"]
