"""Tarot Dice rules engine: a state machine over small integer state, no PettingZoo.

A match is ``num_rounds`` rounds (then sudden-death rounds while the totals are level). A round:
deal each player's 28 Minor Arcana into three wells (a face-down card under a face-up one) and one
hidden card in hand -> the 1-2-2-1 draft of three Major Arcana (the second player of the round
picks first) -> the setup effects of The Magician and The Devil (Strength goes to the hand as it
is drafted) -> every numbered die rolled -> turns. A turn is one action (capture, reroll one die,
or play a card) followed by the Planet phase. Capturing the last pair wins the round and scores
the two dice's maximum values; a round that reaches ``round_turn_limit`` turns ends in the
nightfall duel instead (``DiceMixin.nightfall``).

Everything that happens inside a turn is a stack of tasks (``phases.OP_*``): rolls, the steps of a
card play, triggered Majors, the Planet phase, decisions. ``_run`` works through it until a task
needs a decision; the answer (one action) resumes it. Dice are bitmasks and small lists, cards
small ints (``cards.card_name``), so ``clone()`` copies a few lists. What the dice do is in
``dice.py``, what the cards and Majors do in ``arcana.py`` (both mixins of the state), the action
space in ``actions.py``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from mystic_envs.core.game import (
    Game,
    GameState,
    InfoField,
    LayoutEntry,
    check_rng,
    check_seed,
    zero_sum_returns,
)
from mystic_envs.core.rng import Rng, fresh_seed, from_generator
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
    action_meaning,
    target_name,
)
from mystic_envs.tarot_dice.arcana import (
    ArcanaMixin,
    Play,
)
from mystic_envs.tarot_dice.cards import (
    DEATH,
    DECK_SIZE,
    DEVIL,
    DRAFT_ORDER,
    DRAFT_PICKS,
    FACE_KINDS,
    HAND_MAJORS,
    HANGED_MAN,
    JUDGEMENT,
    KING_EFFECT,
    MAGICIAN,
    MAJOR_CARD,
    MAJORS,
    NEPTUNE,
    NUM_MAJORS,
    NUM_MINORS,
    NUM_NUMBERED,
    NUM_SIZES,
    NUMBER,
    PAGE_EFFECT,
    PLANET_DIE,
    START_PLANET,
    START_ZODIAC,
    STRENGTH,
    WELLS,
    ZODIAC_DIE,
    card_name,
)
from mystic_envs.tarot_dice.decisions import DecisionsMixin
from mystic_envs.tarot_dice.dice import (
    ALL_NUMBERED,
    OWN_DICE,
    SIZE,
    DiceMixin,
)
from mystic_envs.tarot_dice.phases import (
    DIE_PHASES,
    OP_DECIDE,
    OP_END_PLAY,
    OP_END_TURN,
    OP_PLANET_PHASE,
    OP_PLAY_EFFECT,
    OP_ROLL,
    OP_ROUND_START,
    OP_TRIGGERS,
    PH_ACTION,
    PH_AQUARIUS,
    PH_CHARIOT_CARD,
    PH_CHARIOT_WELL,
    PH_DEVIL,
    PH_DRAFT,
    PH_FACE,
    PH_GAME_OVER,
    PH_HANGED,
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
    PHASE_NAMES,
)

ALL_MAJORS = (1 << NUM_MAJORS) - 1


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return int(value)


class TarotDiceGame(Game):
    """Tarot Dice for two players. Options: ``num_players`` (only 2), ``num_rounds`` (rounds in a
    match, default 2: each player starts one; level totals then go to sudden-death rounds) and
    ``round_turn_limit`` (turns after which a round ends in the nightfall duel, default 60)."""

    PLAYER_COUNTS = (2,)
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, num_players: int = 2, num_rounds: int = 2, round_turn_limit: int = 60) -> None:
        self.num_players = self.player_count(num_players, "Tarot Dice")
        self.num_rounds = _positive_int("num_rounds", num_rounds)
        self.round_turn_limit = _positive_int("round_turn_limit", round_turn_limit)
        self.num_actions = NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> TarotDiceState:
        seed = check_seed(seed)
        return TarotDiceState.new(self, Rng(fresh_seed() if seed is None else seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        from mystic_envs.tarot_dice.observation import layout_for

        return layout_for(self.num_rounds)

    def action_meaning(self, action: int) -> str:
        return action_meaning(action)

    def info_fields(self) -> tuple[InfoField, ...]:
        return (
            InfoField("round", (), "int", "the round being played (1 = first; the last one once over)"),
            InfoField("turn_in_round", (), "int", "turns played in this round"),
            InfoField("last_round_winner", (), "int", "seat that won the last finished round (-1: none yet)"),
            InfoField("last_round_points", (), "int", "points the last finished round scored (0: none yet)"),
            InfoField("last_round_end", (), "int", "how the last finished round ended", LAST_ROUND_END_NAMES),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (TarotDiceGame, (self.num_players, self.num_rounds, self.round_turn_limit))


# Decisions after which no card or Major has changed.
_DICE_ONLY_PHASES = DIE_PHASES | {PH_PLANET_SYMBOL, PH_ZODIAC_SYMBOL, PH_URANUS, PH_AQUARIUS, PH_CHARIOT_CARD}

# Round ends
CAPTURED_LAST_PAIR, NIGHTFALL = 0, 1
ROUND_END_NAMES = ("captured the last pair", "nightfall duel")
# The ``last_round_end`` info: 0 before any round has ended, then 1 + the round end.
LAST_ROUND_END_NAMES = ("no round finished yet", *ROUND_END_NAMES)

_FIELDS = (
    "board",
    "captured_this_turn",
    "choice",
    "draft_first",
    "draft_pos",
    "game",
    "graveyard",
    "hand",
    "hidden_well",
    "knight_ban",
    "last_round",
    "major_hand",
    "neptune_ban",
    "open_wells",
    "owned",
    "phase",
    "pile",
    "player",
    "plays",
    "points",
    "resolving",
    "rng",
    "round_starter",
    "rounds_done",
    "sacrificed",
    "tasks",
    "turn_in_round",
    "unused",
    "value",
    "wells",
)


class TarotDiceState(DecisionsMixin, DiceMixin, ArcanaMixin, GameState):
    """One Tarot Dice match. Seats are 0 and 1; ``1 - p`` is ``p``'s opponent.

    Dice: ``value[d]`` for the twelve numbered dice (0 once captured or before the roll), then the
    Planet and Zodiac faces (1-12); ``board`` the numbered dice not captured. Cards: ``hand``,
    ``wells`` (bottom first), ``graveyard`` (top last), ``sacrificed`` (The Devil's) and ``unused``
    (undealt) per seat; ``hidden_well`` marks wells whose bottom card is face down.
    """

    # Caches, never pickled or copied: the legal mask, and per seat the observation's card and
    # Major block with the card-change count it was built at (observation.observe).
    # ``log``: what the last ``apply()`` set off, in order, for the narration (``narrate.py``); like
    # the caches it is no part of the game, so neither pickled nor compared.
    __slots__ = (*_FIELDS, "_mask", "_cards_changed", "_seen", "log")

    @classmethod
    def new(cls, game: TarotDiceGame, rng: Rng) -> TarotDiceState:
        """A new match drawing every chance event from ``rng``."""
        s = cls.__new__(cls)
        s.game = game
        s.rng = rng
        s._mask = None
        s._cards_changed = 0
        s._seen = [None, None]
        s.log = []
        s.points = [0, 0]
        s.rounds_done = 0
        s.last_round = None
        # Who takes the first turn of the match is drawn; the other player "goes second in the
        # match" and picks first in the first draft (I-3).
        s.round_starter = rng.below(2)
        s.draft_first = 1 - s.round_starter
        s._begin_round()
        return s

    # -- rounds -----------------------------------------------------------------------------------
    def _begin_round(self) -> None:
        rng = self.rng
        self.value = [0] * NUM_NUMBERED + [START_PLANET, START_ZODIAC]
        self.board = ALL_NUMBERED
        self.knight_ban = [0, 0]
        self.neptune_ban = 0
        self.hand = [[], []]
        self.wells = [[[], [], []], [[], [], []]]
        self.unused = [[], []]
        for p in (0, 1):
            deck = [c + p * DECK_SIZE for c in rng.permutation(DECK_SIZE)]
            # Three wells (face-down bottom, face-up top), then one hidden card in hand ([d]).
            self.wells[p] = [[deck[2 * k], deck[2 * k + 1]] for k in range(WELLS)]
            self.hand[p] = [deck[2 * WELLS]]
            self.unused[p] = sorted(deck[2 * WELLS + 1 :])
        self.hidden_well = [(1 << WELLS) - 1] * 2
        self.open_wells = [(1 << WELLS) - 1] * 2
        self.graveyard = [[], []]
        self.sacrificed = [-1, -1]
        self.pile = ALL_MAJORS
        self.owned = [0, 0]
        self.major_hand = [0, 0]
        self.draft_pos = 0
        self.turn_in_round = 0
        self.captured_this_turn = False
        self.tasks = []
        self.plays = []
        self.choice = 0
        self.resolving = -1
        self.phase = PH_DRAFT
        self.player = self.draft_first

    def _round_start(self) -> None:
        # One draw per die in die order (the compiled twin draws the same).
        rng = self.rng
        self.value[:NUM_NUMBERED] = [1 + rng.below(SIZE[d]) for d in range(NUM_NUMBERED)]
        self.log.append(("round_roll", tuple(self.value[:NUM_NUMBERED])))
        self._begin_turn(self.round_starter)

    def _begin_turn(self, p: int) -> None:
        self.player = p
        self.phase = PH_ACTION
        self.knight_ban[p] = 0  # "A banished die is unbanished at the start of your next turn"
        self.captured_this_turn = False
        self.resolving = -1
        self.choice = 0  # the last decision's offer, so equal tables are equal states

    def _end_turn(self) -> None:
        self.turn_in_round += 1
        if self.turn_in_round >= self.game.round_turn_limit:
            winner, points = self.nightfall()
            self._end_round(winner, points, NIGHTFALL)
        else:
            self._begin_turn(1 - self.player)

    def _end_round(self, winner: int, points: int, how: int) -> None:
        self.points[winner] += points
        self.rounds_done += 1
        self.last_round = (winner, points, how)
        self.log.append(("round_end", winner, points, how))
        if self.rounds_done >= self.game.num_rounds and self.points[0] != self.points[1]:
            self._end_match()
        else:
            self._next_round()

    def _end_match(self) -> None:
        self.phase = PH_GAME_OVER
        self.player = -1
        self.tasks = []
        self.plays = []
        self.choice = 0
        self.resolving = -1
        self.captured_this_turn = False  # no turn is in progress once the match is over

    def _next_round(self) -> None:
        # "switching who had first and second Draft"; "The First turn begins with the player who
        # had the second draft."
        self.draft_first = 1 - self.draft_first
        self.round_starter = 1 - self.draft_first
        self._begin_round()

    # -- the task machine -------------------------------------------------------------------------
    def _run(self) -> None:
        """Work through the task stack until a decision is posed (or the turn is over)."""
        tasks = self.tasks
        while tasks:
            task = tasks.pop()
            op = task[0]
            if op == OP_DECIDE:
                if self._pose(task[1], task[2]):
                    return
            elif op == OP_ROLL:
                self.roll(task[1], task[2])
            elif op == OP_TRIGGERS:
                if self._offer_triggers():
                    return
            elif op == OP_PLAY_EFFECT:
                if self._play_effect():
                    return
            elif op == OP_END_PLAY:
                self.plays.pop()
                self.resolving = -1
            elif op == OP_PLANET_PHASE:
                self.planet_phase()
            elif op == OP_END_TURN:
                self._end_turn()
                return
            else:  # OP_ROUND_START
                self._round_start()
                return

    # -- GameState API ----------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.player

    @property
    def is_terminal(self) -> bool:
        return self.phase == PH_GAME_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def changed(self) -> None:
        """Forget every cache: call after editing the state's fields directly (tests)."""
        self._mask = None
        self._seen = [None, None]

    def _legal(self) -> np.ndarray:
        mask = self._mask
        if mask is None:
            mask = self._mask = self._compute_mask()
        return mask

    def legal_mask(self) -> np.ndarray:
        return self._legal().copy()

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self._legal()).tolist()

    def is_legal(self, action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and bool(self._legal()[action])

    def _apply(self, action: int) -> None:
        self._mask = None
        self.log = []
        phase = self.phase
        p = self.player
        if phase == PH_ACTION:
            # A reroll never moves a card; a capture only brings Death back to the hand. (The
            # rest of the turn only rolls, sets and banishes dice, or starts a new round, which
            # the observation's cache key also holds.)
            if action >= CARD or (action < DIE and self.owned[p] >> DEATH & 1):
                self._cards_changed += 1
            self._action(p, action)
            return
        if phase not in _DICE_ONLY_PHASES:
            self._cards_changed += 1  # cards or Majors may change
        if phase in DIE_PHASES:
            self._die_chosen(phase, p, DIE_OF[p][action - DIE])
        elif phase == PH_TRIGGERS:
            play = self.plays[-1]
            if action == PASS:
                play.pending = 0
            else:
                m = action - MAJOR
                play.pending &= ~(1 << m)
                self.tasks.append((OP_TRIGGERS,))
                self.activate_major(p, m, play)
        elif phase == PH_VALUE:
            play = self.plays[-1]
            v = action - NUMBER_ACTION + 1
            play.value = v
            if not play.free_values >> v & 1:
                self.resolving = JUDGEMENT  # a value only Judgement reaches: it is acting
            self.tasks.append((OP_DECIDE, PH_TARGET, p))
        elif phase == PH_HANGED:
            if action != PASS:
                play = self.plays[-1]
                self.resolving = HANGED_MAN
                play.effect_card = play.prev_top
        elif phase == PH_FACE:
            self._set_kind(self.plays[-1], FACE_KINDS[action - FACE])
        elif phase in (PH_PLANET_SYMBOL, PH_URANUS):
            self.set_planet(action - NUMBER_ACTION + 1)
        elif phase in (PH_ZODIAC_SYMBOL, PH_AQUARIUS):
            self.set_zodiac(action - NUMBER_ACTION + 1)
        elif phase == PH_CHARIOT_CARD:
            self.plays[-1].returning = p * DECK_SIZE + action - CARD
            self.tasks.append((OP_DECIDE, PH_CHARIOT_WELL, p))
        elif phase == PH_CHARIOT_WELL:
            play = self.plays[-1]
            self.graveyard[p].remove(play.returning)
            self.wells[p][action - WELL].append(play.returning)
            play.returning = -1
        elif phase == PH_DRAFT:
            self._draft(p, action - MAJOR)
            return
        elif phase == PH_MAGICIAN:
            self._magician(p, action - WELL)
        else:  # PH_DEVIL
            self._devil(p, action - WELL)
        self._run()

    def _action(self, p: int, action: int) -> None:
        tasks = self.tasks
        if action < DIE:
            a, b = divmod(action - CAPTURE, NUM_SIZES)
            mine, theirs = p * NUM_SIZES + a, (1 - p) * NUM_SIZES + b
            gone = (1 << mine) | (1 << theirs)
            self.log.append(("capture", p, mine, self.value[mine], theirs, self.value[theirs]))
            self.board &= ~gone
            self.value[mine] = self.value[theirs] = 0
            self.knight_ban[0] &= ~gone
            self.knight_ban[1] &= ~gone
            self.neptune_ban &= ~gone
            self.captured_this_turn = True
            self.death_to_hand(p)
            if not self.board:
                # "The player who captures the last pair of dice wins the round"
                self._end_round(p, SIZE[mine] + SIZE[theirs], CAPTURED_LAST_PAIR)
                return
            tasks.append((OP_END_TURN,))
            tasks.append((OP_PLANET_PHASE,))
        elif action < CARD:
            tasks.append((OP_END_TURN,))
            tasks.append((OP_PLANET_PHASE,))
            tasks.append((OP_ROLL, 1 << DIE_OF[p][action - DIE], True))
        else:
            tasks.append((OP_END_TURN,))
            tasks.append((OP_PLANET_PHASE,))
            if action in (PLAY_STRENGTH, PLAY_DEATH):
                major = STRENGTH if action == PLAY_STRENGTH else DEATH
                self.major_hand[p] &= ~(1 << major)
                # Not a hidden card: the rulebook's Hidden Card is a Minor Arcana in hand, and both
                # Majors reached the hand in the open (drafted, or on a capture) (I-30).
                self.start_play(p, MAJOR_CARD + major, hidden=False, from_devil=False)
            else:
                card = p * DECK_SIZE + action - CARD
                hand = self.hand[p]
                if card in hand:
                    hand.remove(card)
                    self.start_play(p, card, hidden=True, from_devil=False)
                else:
                    self._take_well_top(p, next(k for k in range(WELLS) if self.wells[p][k][-1:] == [card]))
                    self.start_play(p, card, hidden=False, from_devil=False)
        self._run()

    def _take_well_top(self, p: int, k: int) -> int:
        well = self.wells[p][k]
        card = well.pop()
        if len(well) == 1:
            # "When the top card of a well is played, the bottom card is flipped face up."
            self.hidden_well[p] &= ~(1 << k)
        return card

    def _die_chosen(self, phase: int, p: int, die: int) -> None:
        if phase == PH_TARGET:
            play = self.plays[-1]
            play.target = die
            kind = play.kind
            if kind == NUMBER:
                play.matched = self.shows(die, play.value)
                self.set_die(die, play.value)
            elif kind == PAGE_EFFECT:
                self.set_die(die, 1)
            elif kind == KING_EFFECT:
                self.set_die(die, SIZE[die])
            else:  # a Knight banishes
                self.knight_ban[p] |= 1 << die
        elif phase in (PH_QUEEN, PH_ROLL_ANY, PH_TOWER, PH_MARS, PH_VENUS):
            self.tasks.append((OP_ROLL, 1 << die, True))
        elif phase == PH_NEPTUNE:
            self.neptune_ban = 1 << die
        else:  # The Lovers, Justice, The World: the same number on another die
            self.set_die(die, self.plays[-1].value)

    def _draft(self, p: int, major: int) -> None:
        self.pile &= ~(1 << major)
        self.owned[p] |= 1 << major
        if major == STRENGTH:
            self.major_hand[p] |= 1 << STRENGTH  # "This card starts in your hand."
        self.draft_pos += 1
        if self.draft_pos < len(DRAFT_ORDER):
            self.player = self.draft_first if DRAFT_ORDER[self.draft_pos] == 0 else 1 - self.draft_first
            return
        # Setup effects, first drafter first; The Magician (I) before The Devil (XV).
        order = []
        for q in (self.draft_first, 1 - self.draft_first):
            if self.owned[q] >> MAGICIAN & 1:
                order.append((OP_DECIDE, PH_MAGICIAN, q))
            if self.owned[q] >> DEVIL & 1:
                order.append((OP_DECIDE, PH_DEVIL, q))
        self.tasks = [(OP_ROUND_START,), *reversed(order)]
        self._run()

    def _magician(self, p: int, k: int) -> None:
        # "Two additional hidden cards": the top the opponent saw face up is hidden from now on,
        # like the card under it (I-28).
        well = self.wells[p][k]
        self.hand[p] = sorted(self.hand[p] + well)
        self.wells[p][k] = []
        self.hidden_well[p] &= ~(1 << k)
        self.open_wells[p] &= ~(1 << k)

    def _devil(self, p: int, k: int) -> None:
        self.sacrificed[p] = self._take_well_top(p, k)

    # -- results ----------------------------------------------------------------------------------
    def returns(self) -> np.ndarray:
        if self.phase != PH_GAME_OVER:
            return np.zeros(2)
        a, b = self.points
        return zero_sum_returns([0 if a > b else 1, 0 if b > a else 1])

    def winners(self) -> list[int]:
        if self.phase != PH_GAME_OVER:
            return []
        return [0] if self.points[0] > self.points[1] else [1]

    def scores(self) -> list[float]:
        """Match points so far (each round's winner scores its last pair's maximum values)."""
        return [float(self.points[0]), float(self.points[1])]

    def info_extras(self) -> dict[str, Any]:
        winner, points, how = (-1, 0, -1) if self.last_round is None else self.last_round
        return {
            "round": self.rounds_done + (self.phase != PH_GAME_OVER),
            "turn_in_round": self.turn_in_round,
            "last_round_winner": winner,
            "last_round_points": points,
            "last_round_end": how + 1,
        }

    # -- copies, views, checks --------------------------------------------------------------------
    def clone(self, *, share_rng: bool = False) -> TarotDiceState:
        """An independent copy, chance stream included.

        ``share_rng=True`` lets the copy draw from this state's generator instead of a copy of it:
        only for throwaway search copies of a state the caller owns (a determinized one).
        """
        c = TarotDiceState.__new__(TarotDiceState)
        c.game = self.game
        c.rng = self.rng if share_rng else self.rng.copy()
        c._mask = None
        c._cards_changed = 0
        c._seen = [None, None]
        c.log = self.log  # never appended to outside the apply() that made it
        c.board = self.board
        c.captured_this_turn = self.captured_this_turn
        c.choice = self.choice
        c.draft_first = self.draft_first
        c.draft_pos = self.draft_pos
        c.graveyard = [self.graveyard[0][:], self.graveyard[1][:]]
        c.hand = [self.hand[0][:], self.hand[1][:]]
        c.hidden_well = self.hidden_well[:]
        c.knight_ban = self.knight_ban[:]
        c.last_round = self.last_round
        c.major_hand = self.major_hand[:]
        c.neptune_ban = self.neptune_ban
        c.open_wells = self.open_wells[:]
        c.owned = self.owned[:]
        c.phase = self.phase
        c.pile = self.pile
        c.player = self.player
        c.plays = [play.copy() for play in self.plays]
        c.points = self.points[:]
        c.resolving = self.resolving
        c.round_starter = self.round_starter
        c.rounds_done = self.rounds_done
        c.sacrificed = self.sacrificed[:]
        c.tasks = self.tasks[:]
        c.turn_in_round = self.turn_in_round
        c.unused = [self.unused[0][:], self.unused[1][:]]
        c.value = self.value[:]
        c.wells = [[w[:] for w in self.wells[0]], [w[:] for w in self.wells[1]]]
        return c

    def __getstate__(self) -> dict[str, Any]:
        # The cached mask is left out: two equal states pickle the same whether or not one of
        # them was asked for its legal actions.
        return {name: getattr(self, name) for name in _FIELDS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._mask = None
        self._cards_changed = 0
        self._seen = [None, None]
        self.log = []

    def observation(self, player: int) -> np.ndarray:
        from mystic_envs.tarot_dice.observation import observe

        return observe(self, self.check_seat(player))

    def determinize(self, player: int, rng: np.random.Generator) -> TarotDiceState:
        """Re-deal what ``player`` cannot see: every face-down well card (their own too: nobody
        looks under a well), the cards never dealt, and the opponent's Minor Arcana in hand (every
        one a hidden card, The Magician's included). Each owner's unseen cards are pooled, sorted
        and shuffled, so the result depends only on what ``player`` sees. One draw of ``rng`` seeds
        the core generator that re-deals, and the copy's chance stream goes on from where the
        re-deal left it (the compiled twin's determinize is given that draw)."""
        self.check_seat(player)
        r = from_generator(check_rng(rng))
        c = self.clone(share_rng=True)
        for owner in (0, 1):
            bottoms = [k for k in range(WELLS) if self.hidden_well[owner] >> k & 1]
            secret = self.hand[owner] if owner != player else []
            pool = sorted(self.unused[owner] + [self.wells[owner][k][0] for k in bottoms] + secret)
            dealt = [pool[i] for i in r.permutation(len(pool))]
            for i, k in enumerate(bottoms):
                c.wells[owner][k][0] = dealt[i]
            start = len(bottoms)
            if owner != player:
                c.hand[owner] = sorted(dealt[start : start + len(secret)])
                start += len(secret)
            c.unused[owner] = sorted(dealt[start:])
        c.rng = r
        return c

    def describe(self, viewer: int | None = None) -> str:
        from mystic_envs.tarot_dice.render import describe

        return describe(self, viewer)

    def check_invariants(self) -> None:
        over = self.phase == PH_GAME_OVER
        assert (self.player == -1) == over, f"player {self.player} in phase {self.phase_name}"
        owned0, owned1 = self.owned
        assert owned0 & owned1 == 0 and self.pile & (owned0 | owned1) == 0
        assert self.pile | owned0 | owned1 == ALL_MAJORS, "a Major Arcana is lost"
        drafted = [owned0.bit_count(), owned1.bit_count()]
        assert sum(drafted) == self.draft_pos and max(drafted) <= DRAFT_PICKS, drafted
        if self.phase == PH_DRAFT:
            assert self.draft_pos < len(DRAFT_ORDER)
        for p in (0, 1):
            self._check_cards(p)
            assert self.knight_ban[p] & ~self.board == 0
        # Dice: captured in pairs, values on their faces.
        board = self.board
        own = [(board & OWN_DICE[p]).bit_count() for p in (0, 1)]
        assert own[0] == own[1], f"dice in play {own}: captures always take one of each"
        rolled = self.phase not in (PH_DRAFT, PH_MAGICIAN, PH_DEVIL)
        for d in range(NUM_NUMBERED):
            v = self.value[d]
            if board >> d & 1 and rolled and not over:
                assert 1 <= v <= SIZE[d], f"die {d} shows {v}"
            elif not board >> d & 1:
                assert v == 0, f"captured die {d} shows {v}"
        assert 1 <= self.value[PLANET_DIE] <= 12 and 1 <= self.value[ZODIAC_DIE] <= 12
        ban = self.neptune_ban
        assert ban & ~board == 0 and ban & (ban - 1) == 0
        if ban:
            assert self.value[PLANET_DIE] == NEPTUNE and self.planet_active(), "Neptune is no longer active"
        # Points: each round awards its winner 8 (D4 + D4) to 40 (D20 + D20).
        assert 8 * self.rounds_done <= sum(self.points) <= 40 * self.rounds_done
        assert 0 <= self.turn_in_round <= self.game.round_turn_limit
        assert over or self.turn_in_round < self.game.round_turn_limit
        if self.phase in (PH_ACTION, PH_DRAFT) or over:
            assert not self.tasks and not self.plays, (self.tasks, self.plays)
        if over:
            assert self.rounds_done >= self.game.num_rounds and self.points[0] != self.points[1]

    def _check_cards(self, p: int) -> None:
        minors = self.hand[p] + self.unused[p]
        assert self.hand[p] == sorted(self.hand[p]) and self.unused[p] == sorted(self.unused[p])
        for k in range(WELLS):
            well = self.wells[p][k]
            minors += well
            if not self.open_wells[p] >> k & 1:
                assert not well, f"closed well {k} of player {p} holds cards"
            if self.hidden_well[p] >> k & 1:
                assert len(well) >= 2, "a face-down card must lie under a face-up one"
        majors = []
        for card in self.graveyard[p]:
            (majors if card >= NUM_MINORS else minors).append(card)
        if self.sacrificed[p] >= 0:
            minors.append(self.sacrificed[p])
            assert self.owned[p] >> DEVIL & 1
        assert sorted(minors) == list(range(p * DECK_SIZE, (p + 1) * DECK_SIZE)), f"cards of player {p}"
        for major in HAND_MAJORS:
            in_hand = bool(self.major_hand[p] >> major & 1)
            in_graveyard = majors.count(MAJOR_CARD + major)
            if self.owned[p] >> major & 1:
                assert in_hand + in_graveyard <= 1, f"{MAJORS[major].name} twice"
                if major == STRENGTH:
                    assert in_hand + in_graveyard == 1, "Strength is in the hand until it is played"
            else:
                assert not in_hand and not in_graveyard
        assert len(majors) == len(set(majors)) and all(m - MAJOR_CARD in HAND_MAJORS for m in majors)


__all__ = [
    "NUM_ACTIONS",
    "Play",
    "TarotDiceGame",
    "TarotDiceState",
    "action_meaning",
    "card_name",
    "target_name",
]
