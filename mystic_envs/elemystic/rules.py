"""Elemystic rules engine: a small state machine over integer state, no PettingZoo.

Round: setup (chance) -> draft (2-2-1-1; the last card goes to the second drafter without a
decision) -> play (alternate, three elements each; then the Air Token holder's fourth turn) ->
resolve (front Speed orders the attacks; Shadow asks its owner for a choice) -> end of round.
Sets of elements are 9-bit masks (bit ``e`` = element ``e``), so a hand, the pool or a column is
one int; column sums come from tables indexed by mask.
"""

from __future__ import annotations

from typing import Any, NamedTuple

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
from mystic_envs.elemystic.cards import (
    AIR,
    AIR_TOKEN_DEFENSE,
    AIR_TOKEN_STRENGTH,
    COLUMN_SIZE,
    DEFENSE,
    ELEMENT_NAMES,
    FIRE,
    HAND_SIZE,
    INV_DEFENSE,
    INV_STRENGTH,
    LIFE,
    LIFE_RESTORE,
    LIGHT,
    NUM_ELEMENTS,
    SHADOW,
    SPEED,
    STARTING_ENERGY,
    STORM,
    STRENGTH,
    THUNDER,
    THUNDER_CHARGE_STRENGTH,
    WATER,
    WATER_INVOCATION_STRENGTH,
)

# --- actions -------------------------------------------------------------------------------
DRAFT = 0  # DRAFT + e: take element e from the pool
PLAY_FRONT = DRAFT + NUM_ELEMENTS  # PLAY_FRONT + e: play e to the front (also a column's first card)
PLAY_BACK = PLAY_FRONT + NUM_ELEMENTS  # PLAY_BACK + e: tuck e at the back
AIR_STRENGTH = PLAY_BACK + NUM_ELEMENTS  # Air Token as +2 Strength
AIR_DEFENSE = AIR_STRENGTH + 1  # Air Token as +3 Defense
SHADOW_SELF_BEFORE = AIR_DEFENSE + 1  # swap own totals, then attack
SHADOW_OPPONENT_BEFORE = SHADOW_SELF_BEFORE + 1
SHADOW_SELF_AFTER = SHADOW_SELF_BEFORE + 2  # attack, then swap own totals
SHADOW_OPPONENT_AFTER = SHADOW_SELF_BEFORE + 3
NUM_ACTIONS = SHADOW_SELF_BEFORE + 4

# --- phases --------------------------------------------------------------------------------
DRAFT_PHASE, PLAY_PHASE, AIR_TURN, SHADOW_CHOICE, GAME_OVER = range(5)
PHASE_NAMES = ("draft", "play", "air_turn", "shadow_choice", "game_over")

# Picks of one round's draft, relative to the Draft First player: 2-2-1, then the second
# drafter receives the last card (no choice is left, so it is not an action).
DRAFT_ORDER = (0, 0, 1, 1, 0)
ALL_ELEMENTS = (1 << NUM_ELEMENTS) - 1
AIR_NONE, AIR_AS_STRENGTH, AIR_AS_DEFENSE = 0, 1, 2

# Column sums of the top halves, indexed by a 9-bit column mask.
MASK_STRENGTH = tuple(sum(STRENGTH[e] for e in range(NUM_ELEMENTS) if m >> e & 1) for m in range(512))
MASK_DEFENSE = tuple(sum(DEFENSE[e] for e in range(NUM_ELEMENTS) if m >> e & 1) for m in range(512))
MASK_ELEMENTS = tuple(tuple(e for e in range(NUM_ELEMENTS) if m >> e & 1) for m in range(512))
POPCOUNT = tuple(bin(m).count("1") for m in range(512))


def action_meaning(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"out of range ({action})"
    if action < PLAY_FRONT:
        return f"draft {ELEMENT_NAMES[action - DRAFT]}"
    if action < PLAY_BACK:
        return f"play {ELEMENT_NAMES[action - PLAY_FRONT]} to the front"
    if action < AIR_STRENGTH:
        return f"play {ELEMENT_NAMES[action - PLAY_BACK]} to the back"
    return {
        AIR_STRENGTH: "Air Token: +2 Strength",
        AIR_DEFENSE: "Air Token: +3 Defense",
        SHADOW_SELF_BEFORE: "Shadow: swap own totals before attacking",
        SHADOW_OPPONENT_BEFORE: "Shadow: swap opponent's totals before attacking",
        SHADOW_SELF_AFTER: "Shadow: swap own totals after attacking",
        SHADOW_OPPONENT_AFTER: "Shadow: swap opponent's totals after attacking",
    }[action]


class Attack(NamedTuple):
    """One attack of a round's fight, for the render: the attacker's total Strength against the
    defender's total Defense, and the Energy it cost the defender (0 when Defense held); for the
    narration, what makes up each total (``ElemysticState.parts``) and the front element whose
    ability resolved before the attack (-1: Thunder silenced it)."""

    attacker: int
    strength: int
    defense: int
    damage: int
    strength_parts: tuple[tuple[str, int], ...] = ()
    defense_parts: tuple[tuple[str, int], ...] = ()
    ability: int = -1


class RoundSummary(NamedTuple):
    """The last finished round: its number, both front elements, Energy each seat lost; for the
    render, the finished columns (element masks), who attacked first and each attack."""

    round: int
    fronts: tuple[int, int]
    energy_lost: tuple[int, int]
    columns: tuple[int, int] = (0, 0)
    first: int = -1
    attacks: tuple[Attack, ...] = ()


class ElemysticGame(Game):
    """Elemystic for two players. Options: ``num_players`` (only 2 is allowed)."""

    PLAYER_COUNTS = (2,)
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, num_players: int = 2) -> None:
        self.num_players = self.player_count(num_players, "Elemystic")
        self.num_actions = NUM_ACTIONS

    def new_initial_state(self, seed: int | None = None) -> ElemysticState:
        seed = check_seed(seed)
        return ElemysticState.new(self, Rng(fresh_seed() if seed is None else seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        from mystic_envs.elemystic.observation import LAYOUT

        return LAYOUT

    def action_meaning(self, action: int) -> str:
        return action_meaning(action)

    def info_fields(self) -> tuple[InfoField, ...]:
        return (InfoField("round", (), "int", "the round being played (1 = first)"),)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ElemysticGame, (self.num_players,))


class ElemysticState(GameState):
    """One Elemystic game. Seats are 0 and 1; ``1 - p`` is ``p``'s opponent."""

    __slots__ = (
        "ability_done",
        "air_bonus",
        "air_holder",
        "air_taken",
        "attack_index",
        "attacks",
        "column",
        "draft_first",
        "draft_step",
        "energy",
        "front",
        "game",
        "hand",
        "inv_strength",
        "last_round",
        "light_reveal",
        "order",
        "phase",
        "play_first",
        "played",
        "player",
        "pool",
        "rng",
        "round",
        "round_start_energy",
        "secret",
        "shadow_after",
        "shadow_column",
        "silenced",
        "starting_player",
        "storm_forced",
        "thunder_charged",
        "unknown",
        "winner",
    )

    @classmethod
    def new(cls, game: ElemysticGame, rng: Rng) -> ElemysticState:
        s = cls.__new__(cls)
        s.game = game
        s.rng = rng
        s.energy = [STARTING_ENERGY, STARTING_ENERGY]
        s.round = 0
        s.starting_player = rng.below(2)
        s.draft_first = s.starting_player
        s.play_first = s.starting_player
        s.air_holder = -1  # plays the Air Token this round
        s.air_taken = -1  # took the Air Token this round, for next round
        s.light_reveal = [False, False]  # light_reveal[p]: p sees the opponent's secret
        # thunder_charged[p]: p's own Thunder Token lies charged side up this round (D-2).
        s.thunder_charged = [False, False]
        s.winner = -1
        s.last_round = None
        s._setup_round()
        return s

    # -- round structure ----------------------------------------------------------------------
    def deal(self, unknown: int, secrets: tuple[int, int]) -> None:
        """Replace this round's random deal (scenarios, tutorials, rule tests).

        Allowed only before the round's first draft pick: sets the Unknown Element and both
        secret elements; the other six form the drafting pool.
        """
        if self.phase != DRAFT_PHASE or self.draft_step != 0:
            raise ValueError("deal() is only allowed before the first draft pick of a round")
        chosen = (unknown, *secrets)
        if len(set(chosen)) != 3 or not all(0 <= e < NUM_ELEMENTS for e in chosen):
            raise ValueError(f"deal() needs three different elements in [0, 9), got {chosen}")
        self.unknown = unknown
        self.secret = [secrets[0], secrets[1]]
        self.hand = [1 << secrets[0], 1 << secrets[1]]
        self.pool = ALL_ELEMENTS & ~((1 << unknown) | (1 << secrets[0]) | (1 << secrets[1]))

    def _setup_round(self) -> None:
        perm = self.rng.permutation(NUM_ELEMENTS)
        self.round += 1
        self.round_start_energy = tuple(self.energy)
        self.unknown = perm[0]
        self.secret = [perm[1], perm[2]]
        self.pool = (
            (1 << perm[3])
            | (1 << perm[4])
            | (1 << perm[5])
            | (1 << perm[6])
            | (1 << perm[7])
            | (1 << perm[8])
        )
        self.hand = [1 << perm[1], 1 << perm[2]]
        self.column = [0, 0]
        self.front = [-1, -1]
        self.played = [0, 0]
        self.inv_strength = [0, 0]
        self.storm_forced = [False, False]
        self.air_bonus = [AIR_NONE, AIR_NONE]
        self.silenced = [False, False]  # silenced[p]: a Thunder Token sits by p's column
        self.shadow_column = -1
        self.shadow_after = -1
        self.ability_done = [False, False]
        self.order = (-1, -1)
        self.attack_index = 0
        self.attacks: tuple[Attack, ...] = ()
        self.draft_step = 0
        self.phase = DRAFT_PHASE
        self.player = self.draft_first

    def _finish_play_phase(self) -> None:
        # Light lasts "until the end of the next Play Elements Phase": this is that end.
        self.light_reveal = [False, False]
        self.storm_forced = [False, False]
        s0, s1 = SPEED[self.front[0]], SPEED[self.front[1]]
        first = 0 if s0 > s1 else 1 if s1 > s0 else self.play_first
        self.order = (first, 1 - first)
        self.attack_index = 0
        self._resolve()

    def _resolve(self) -> None:
        while self.attack_index < 2:
            att = self.order[self.attack_index]
            if not self.ability_done[att]:
                if self.front[att] == SHADOW and not self.silenced[att]:
                    self.phase = SHADOW_CHOICE
                    self.player = att
                    return
                self.ability_done[att] = True
                if not self.silenced[att]:
                    self._ability(att)
            self._attack(att)
            if self.winner >= 0:
                self.phase = GAME_OVER
                self.player = -1
                self._log_round()
                return
            if self.shadow_after >= 0:
                self.shadow_column = self.shadow_after
                self.shadow_after = -1
            self.attack_index += 1
        self._end_round()

    def _ability(self, att: int) -> None:
        opp = 1 - att
        f = self.front[att]
        if f == LIGHT:
            self.light_reveal[att] = True
        elif f == AIR:
            self.air_taken = att
        elif f == WATER:
            if self.energy[att] < self.energy[opp]:
                self.inv_strength[att] = WATER_INVOCATION_STRENGTH
        elif f == FIRE:
            # "If your attack resolves second, this effectively does nothing": the opponent has
            # attacked, so its zeroed Strength must not reach the Play First comparison either.
            if self.attack_index == 0:
                self.inv_strength[opp] = 0
        elif f == THUNDER:
            # Resolving second, the opponent's ability has happened: nothing is silenced (D-2).
            if not self.ability_done[opp]:
                self.silenced[opp] = True
        elif f == LIFE:
            self.energy[att] = min(STARTING_ENERGY, self.energy[att] + LIFE_RESTORE)
        # Earth has no ability; Storm's is immediate and already happened during play.

    def totals(self, p: int) -> tuple[int, int]:
        """(total Strength, total Defense) of ``p``'s column with every effect so far."""
        col = self.column[p]
        s = MASK_STRENGTH[col]
        d = MASK_DEFENSE[col]
        f = self.front[p]
        if f >= 0:
            s += self.inv_strength[p]
            d += INV_DEFENSE[f]
            if self.thunder_charged[p]:
                s += THUNDER_CHARGE_STRENGTH
        bonus = self.air_bonus[p]
        if bonus == AIR_AS_STRENGTH:
            s += AIR_TOKEN_STRENGTH
        elif bonus == AIR_AS_DEFENSE:
            d += AIR_TOKEN_DEFENSE
        if self.shadow_column == p:
            return d, s
        return s, d

    def parts(self, p: int) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
        """What makes up ``p``'s :meth:`totals`: (source, amount) pairs for Strength, then for
        Defense; each adds up to its total (under the Shadow Token, the two swap as the totals do)."""
        col = self.column[p]
        f = self.front[p]
        strength = [(ELEMENT_NAMES[e], STRENGTH[e]) for e in MASK_ELEMENTS[col]]
        defense = [(ELEMENT_NAMES[e], DEFENSE[e]) for e in MASK_ELEMENTS[col]]
        if f >= 0:
            strength.append((f"{ELEMENT_NAMES[f]}'s Invocation", self.inv_strength[p]))
            defense.append((f"{ELEMENT_NAMES[f]}'s Invocation", INV_DEFENSE[f]))
            if self.thunder_charged[p]:
                strength.append(("charged Thunder Token", THUNDER_CHARGE_STRENGTH))
        if self.air_bonus[p] == AIR_AS_STRENGTH:
            strength.append(("Air Token", AIR_TOKEN_STRENGTH))
        elif self.air_bonus[p] == AIR_AS_DEFENSE:
            defense.append(("Air Token", AIR_TOKEN_DEFENSE))
        if self.shadow_column == p:
            swapped_s = tuple((f"{source} (its Defense)", x) for source, x in defense)
            return swapped_s, tuple((f"{source} (its Strength)", x) for source, x in strength)
        return tuple(strength), tuple(defense)

    def _attack(self, att: int) -> None:
        opp = 1 - att
        strength, defense = self.totals(att)[0], self.totals(opp)[1]
        damage = strength - defense
        breakdown = self.parts(att)[0], self.parts(opp)[1]
        # Each seat attacks once a round, its ability resolved first unless Thunder silenced it.
        ability = -1 if self.silenced[att] else self.front[att]
        # A tuple, rebuilt rather than appended to: clones share it safely.
        self.attacks = (*self.attacks, Attack(att, strength, defense, max(damage, 0), *breakdown, ability))
        if damage > 0:
            self.energy[opp] -= damage
            if self.energy[opp] <= 0:
                self.winner = att

    def _log_round(self) -> None:
        start = self.round_start_energy
        self.last_round = RoundSummary(
            self.round,
            (self.front[0], self.front[1]),
            (start[0] - self.energy[0], start[1] - self.energy[1]),
            (self.column[0], self.column[1]),
            self.order[0],
            self.attacks,
        )

    def _end_round(self) -> None:
        self._log_round()
        self.draft_first = 1 - self.draft_first
        s0, s1 = self.totals(0)[0], self.totals(1)[0]
        if s0 != s1:
            self.play_first = 0 if s0 > s1 else 1
        self.air_holder = self.air_taken
        self.air_taken = -1
        # "Flip this Token over and return it": a token taken on its ready side comes back charged
        # for the next round; one taken while charged flips back to ready, and a charged token
        # nobody took is spent (turned ready) once its round is over (D-2).
        self.thunder_charged = [self.silenced[p] and not self.thunder_charged[p] for p in (0, 1)]
        self._setup_round()

    # -- GameState API ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.player

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == DRAFT_PHASE:
            return [DRAFT + e for e in MASK_ELEMENTS[self.pool]]
        if phase == PLAY_PHASE:
            p = self.player
            elems = MASK_ELEMENTS[self.hand[p]]
            if self.played[p] == 0 or self.storm_forced[p]:
                return [PLAY_FRONT + e for e in elems]
            return [PLAY_FRONT + e for e in elems] + [PLAY_BACK + e for e in elems]
        if phase == AIR_TURN:
            return [AIR_STRENGTH, AIR_DEFENSE]
        if phase == SHADOW_CHOICE:
            return [SHADOW_SELF_BEFORE, SHADOW_OPPONENT_BEFORE, SHADOW_SELF_AFTER, SHADOW_OPPONENT_AFTER]
        return []

    def is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == DRAFT_PHASE:
            return 0 <= action < PLAY_FRONT and bool(self.pool >> action & 1)
        if phase == PLAY_PHASE:
            p = self.player
            if PLAY_FRONT <= action < PLAY_BACK:
                return bool(self.hand[p] >> (action - PLAY_FRONT) & 1)
            if PLAY_BACK <= action < AIR_STRENGTH:
                return (
                    self.played[p] > 0
                    and not self.storm_forced[p]
                    and bool(self.hand[p] >> (action - PLAY_BACK) & 1)
                )
            return False
        if phase == AIR_TURN:
            return action in (AIR_STRENGTH, AIR_DEFENSE)
        if phase == SHADOW_CHOICE:
            return SHADOW_SELF_BEFORE <= action < NUM_ACTIONS
        return False

    def _apply(self, action: int) -> None:
        phase = self.phase
        p = self.player
        if phase == DRAFT_PHASE:
            bit = 1 << (action - DRAFT)
            self.pool ^= bit
            self.hand[p] |= bit
            self.draft_step += 1
            if self.draft_step < len(DRAFT_ORDER):
                self.player = self.draft_first ^ DRAFT_ORDER[self.draft_step]
            else:
                self.hand[1 - self.draft_first] |= self.pool
                self.pool = 0
                self.phase = PLAY_PHASE
                self.player = self.play_first
        elif phase == PLAY_PHASE:
            to_front = action < PLAY_BACK
            e = action - (PLAY_FRONT if to_front else PLAY_BACK)
            bit = 1 << e
            self.hand[p] ^= bit
            self.column[p] |= bit
            self.played[p] += 1
            self.storm_forced[p] = False
            if to_front:
                self.front[p] = e
                self.inv_strength[p] = INV_STRENGTH[e]
                if e == STORM:
                    # Nothing to force once the opponent has played all three (the Air Token is
                    # no element and goes to the back).
                    self.storm_forced[1 - p] = self.played[1 - p] < COLUMN_SIZE
            # Turns alternate strictly, so the second player's third element ends the phase.
            if self.played[1 - p] < COLUMN_SIZE:
                self.player = 1 - p
            elif self.air_holder >= 0:
                self.phase = AIR_TURN
                self.player = self.air_holder
            else:
                self._finish_play_phase()
        elif phase == AIR_TURN:
            self.air_bonus[p] = AIR_AS_STRENGTH if action == AIR_STRENGTH else AIR_AS_DEFENSE
            self._finish_play_phase()
        else:  # SHADOW_CHOICE
            target = p if action in (SHADOW_SELF_BEFORE, SHADOW_SELF_AFTER) else 1 - p
            self.ability_done[p] = True
            if action in (SHADOW_SELF_BEFORE, SHADOW_OPPONENT_BEFORE):
                self.shadow_column = target
            else:
                self.shadow_after = target
            self._resolve()

    def returns(self) -> np.ndarray:
        if self.winner < 0:
            return np.zeros(2)
        return zero_sum_returns([0 if p == self.winner else 1 for p in range(2)])

    def winners(self) -> list[int]:
        return [self.winner] if self.winner >= 0 else []

    def scores(self) -> list[float]:
        return [float(self.energy[0]), float(self.energy[1])]

    def info_extras(self) -> dict[str, Any]:
        return {"round": self.round}

    def clone(self, *, share_rng: bool = False) -> ElemysticState:
        """An independent copy, chance stream included.

        ``share_rng=True`` lets the copy draw from this state's generator instead of a copy of
        it: only for throwaway search copies of a state the caller owns (a determinized one).
        """
        c = ElemysticState.__new__(ElemysticState)
        c.game = self.game
        c.rng = self.rng if share_rng else self.rng.copy()
        c.energy = self.energy[:]
        c.round = self.round
        c.round_start_energy = self.round_start_energy
        c.starting_player = self.starting_player
        c.draft_first = self.draft_first
        c.play_first = self.play_first
        c.air_holder = self.air_holder
        c.air_taken = self.air_taken
        c.light_reveal = self.light_reveal[:]
        c.thunder_charged = self.thunder_charged[:]
        c.winner = self.winner
        c.last_round = self.last_round
        c.unknown = self.unknown
        c.secret = self.secret[:]
        c.pool = self.pool
        c.hand = self.hand[:]
        c.column = self.column[:]
        c.front = self.front[:]
        c.played = self.played[:]
        c.inv_strength = self.inv_strength[:]
        c.storm_forced = self.storm_forced[:]
        c.air_bonus = self.air_bonus[:]
        c.silenced = self.silenced[:]
        c.shadow_column = self.shadow_column
        c.shadow_after = self.shadow_after
        c.ability_done = self.ability_done[:]
        c.order = self.order
        c.attack_index = self.attack_index
        c.attacks = self.attacks
        c.draft_step = self.draft_step
        c.phase = self.phase
        c.player = self.player
        return c

    def observation(self, player: int) -> np.ndarray:
        from mystic_envs.elemystic.observation import observe

        return observe(self, self.check_seat(player))

    def secret_visible_to(self, viewer: int) -> bool:
        """Whether ``viewer`` can see the opponent's secret element now (Light, or played face up)."""
        opp = 1 - viewer
        return self.light_reveal[viewer] or bool(self.column[opp] >> self.secret[opp] & 1)

    def determinize(self, player: int, rng: np.random.Generator) -> ElemysticState:
        self.check_seat(player)
        # One draw of the caller's generator seeds the core generator that both re-deals and then
        # carries the copy's chance, so the compiled twin, handed the same draw, does the same.
        r = from_generator(check_rng(rng))
        c = self.clone(share_rng=True)  # the copy's chance stream is r, set below
        opp = 1 - player
        # Unseen by `player`: the Unknown Element and, unless visible, the opponent's secret. The
        # pair itself is public (the two elements nobody showed); which is which is a fair coin.
        # Starting from the sorted pair makes the result depend only on what `player` sees.
        if not self.secret_visible_to(player) and self.phase != GAME_OVER:
            low, high = sorted((c.secret[opp], c.unknown))
            if r.below(2):
                low, high = high, low
            c.hand[opp] = c.hand[opp] & ~((1 << c.secret[opp]) | (1 << c.unknown)) | (1 << low)
            c.secret[opp], c.unknown = low, high
        c.rng = r
        return c

    def describe(self, viewer: int | None = None) -> str:
        from mystic_envs.elemystic.render import describe

        return describe(self, viewer)

    def check_invariants(self) -> None:
        masks = [1 << self.unknown, self.pool, *self.hand, *self.column]
        assert sum(POPCOUNT[m] for m in masks) == NUM_ELEMENTS, f"elements lost or doubled: {masks}"
        union = 0
        for m in masks:
            union |= m
        assert union == ALL_ELEMENTS, f"elements missing: {union:b}"
        for p in range(2):
            assert (self.hand[p] | self.column[p]) >> self.secret[p] & 1, f"player {p} lost its secret"
            assert POPCOUNT[self.column[p]] == self.played[p] <= COLUMN_SIZE
            assert (self.front[p] >= 0) == (self.played[p] > 0)
            if self.front[p] >= 0:
                assert self.column[p] >> self.front[p] & 1
            assert self.energy[p] <= STARTING_ENERGY
            if self.phase != DRAFT_PHASE:
                assert POPCOUNT[self.hand[p]] + self.played[p] == HAND_SIZE
            if self.air_bonus[p] != AIR_NONE:
                assert self.air_holder == p
            if self.silenced[p]:
                assert self.front[1 - p] == THUNDER
        assert abs(self.played[0] - self.played[1]) <= 1
        if self.phase == DRAFT_PHASE:
            assert POPCOUNT[self.pool] == 6 - self.draft_step
            assert self.played == [0, 0]
        if self.shadow_column >= 0:
            assert SHADOW in self.front
        if self.phase == GAME_OVER:
            assert self.winner >= 0 and self.energy[1 - self.winner] <= 0 < self.energy[self.winner]
        else:
            assert min(self.energy) > 0 and self.winner == -1


__all__ = ["NUM_ACTIONS", "ElemysticGame", "ElemysticState", "action_meaning"]
