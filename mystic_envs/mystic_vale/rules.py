"""Mystic Vale rules engine for 2-4 players: a state machine over small integer lists, no PettingZoo.

A turn: planting (push the on-deck card into the field or pass; its When Played abilities, then
the next on-deck card; 4 net decay spoils) -> harvest (unless spoiled: buy advancements and vales
in any order, then ``done``) -> discard (sleeve what was bought, discard the field, replenish the
commons and vales) -> prep (play on-deck cards until 3 net decay show; a spoil here skips the next
harvest). The VP pool running out finishes the round; the most points win. Cards are indices 0-19
of their owner's 20 sleeves (``slots[q][c]``: an advancement id or -1 per slot); every card ability
is read from the data by ``sleeves.profile``, never by name. The decisions and their masks are
``decisions.DecisionsMixin``, the Harvest (yields, prices, buying) ``harvest.HarvestMixin``;
``docs/rules/mystic_vale.md`` traces each rule to code and test.
"""

from __future__ import annotations

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
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENTS,
    COMMONS,
    COMMONS_FACE_UP,
    CURSED_LAND,
    DISCARD_FROM_FIELD,
    FERTILE_SOIL,
    LEVEL1_CUT,
    NUM_FERTILE_SOIL,
    PEEK_TOP,
    PREP_DECAY,
    SEARCH_DECK,
    SPOIL_DECAY,
    VALE_BUYS,
    VALES,
    VALES_FACE_UP,
    VP_POOL,
    level_ids,
    vale_ids,
)
from mystic_envs.mystic_vale.decisions import (
    CHECK,
    CONCLAVE,
    DISCARDING,
    END_TURN,
    GAME_OVER,
    HARVEST,
    HARVESTING,
    NO_CONT,
    NUM_ACTIONS,
    OVER,
    PEEK,
    PHASE_NAMES,
    PLANT,
    PLANTING,
    PREP_NEXT,
    PREPPING,
    REDRAW_DRUID,
    REDRAW_VALE,
    REVEAL,
    SACRIFICE,
    SEARCH,
    SLEEVE,
    SLEEVE_NEXT,
    STAGE_NAMES,
    UNTIL_PLANTING_END,
    WOULD_SPOIL,
    WP_DISCARD,
    DecisionsMixin,
    action_meaning,
)
from mystic_envs.mystic_vale.harvest import HarvestMixin, vales_payable
from mystic_envs.mystic_vale.observation import build_layout_for, observe
from mystic_envs.mystic_vale.sleeves import (
    ADVANCEMENT_SLOT,
    NUM_CARDS,
    START_PRINTED,
    VALE_ADD_GUARDIAN,
    VALE_COSTS,
    VALE_END_VP,
    VALE_GROWTH,
    VALE_LEVEL,
    VALE_ONE_PER_PLAYER,
    VALE_REDRAW,
    VALE_SACRIFICE,
    profile,
)

EMPTY = (-1, -1, -1)
START_SLOTS = tuple(
    tuple(p if p >= 0 and ADVANCEMENTS[p].slot == s else -1 for s in range(3)) for p in START_PRINTED
)
IS_CURSED = tuple(p in CURSED_LAND for p in START_PRINTED)
COMMONS_ADVANCEMENTS = tuple(a for a in ADVANCEMENTS if a.kind == COMMONS)


class ValeGame(Game):
    """Mystic Vale for 2-4 players. Options: ``num_players`` (2-4)."""

    PLAYER_COUNTS = (2, 3, 4)
    PHASE_NAMES = PHASE_NAMES

    def __init__(self, num_players: int = 2) -> None:
        self.num_players = self.player_count(num_players, "Mystic Vale")
        self.num_actions = NUM_ACTIONS
        self._layout: tuple[LayoutEntry, ...] | None = None

    def new_initial_state(self, seed: int | None = None) -> ValeState:
        seed = check_seed(seed)
        return ValeState.new(self, Rng(fresh_seed() if seed is None else seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        if self._layout is None:
            self._layout = build_layout_for(self.num_players)
        return self._layout

    def action_meaning(self, action: int) -> str:
        return action_meaning(action)

    def info_fields(self) -> tuple[InfoField, ...]:
        n = self.num_players
        return (
            InfoField("turn", (), "int", "turns taken so far, all players together"),
            InfoField("pool", (), "int", "VP tokens left in the pool"),
            InfoField("vp_tokens", (n,), "int16", "VP tokens each seat holds"),
            InfoField("stage", (), "int", "the active player's stage of the turn", STAGE_NAMES),
            InfoField("active", (), "int", "the seat whose turn it is (-1 once over)"),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (ValeGame, (self.num_players,))


class ValeState(DecisionsMixin, HarvestMixin, GameState):
    """One game of Mystic Vale. Decks keep their top card last."""

    @classmethod
    def new(cls, game: ValeGame, rng: Rng | np.random.Generator) -> ValeState:
        """A new game drawing every chance event from ``rng``; a numpy Generator (as the balance
        tools pass) is turned into the core generator by one draw (``from_generator``)."""
        if isinstance(rng, np.random.Generator):
            rng = from_generator(rng)
        s = cls.__new__(cls)
        n = s.n = game.num_players
        s.game = game
        s.rng = rng
        s.slots = [list(START_SLOTS) for _ in range(n)]
        s.band = [[-1] * NUM_CARDS for _ in range(n)]
        s.prof = [[profile(sl, -1) for sl in START_SLOTS] for _ in range(n)]
        s.deck = [rng.permutation(NUM_CARDS) for _ in range(n)]
        s.field = [[] for _ in range(n)]
        s.on_deck = [-1] * n
        s.discard = [[] for _ in range(n)]
        s.vales = [[] for _ in range(n)]
        s.tokens = [0] * n
        s.token_active = [False] * n
        s.skip_harvest = [False] * n
        s.redraw_blocked = [([], 0) for _ in range(n)]
        s.carry_guard = [[] for _ in range(n)]  # Conclave used in prep: (card, UNTIL_PLANTING_END)
        s.carry_growth = [[] for _ in range(n)]  # Blooming Arbor used in prep: (amount, UNTIL_NEXT_PREP)
        # The commons: level 1 cut to 12/15/18, the rest in the box (unseen); levels 2, 3 whole.
        l1 = _shuffled([a for a in level_ids(1) for _ in range(ADVANCEMENTS[a].copies)], rng)
        cut = LEVEL1_CUT[n]
        s.l1_box = l1[cut:]
        s.level_deck = [
            l1[:cut],
            _shuffled([a for a in level_ids(2) for _ in range(ADVANCEMENTS[a].copies)], rng),
            _shuffled([a for a in level_ids(3) for _ in range(ADVANCEMENTS[a].copies)], rng),
        ]
        s.commons = [s.level_deck[k // COMMONS_FACE_UP].pop() for k in range(3 * COMMONS_FACE_UP)]
        s.fertile = [NUM_FERTILE_SOIL // 3] * 3
        s.vale_deck = [
            _shuffled([v for v in vale_ids(lv) for _ in range(VALES[v].copies)], rng) for lv in (1, 2)
        ]
        s.vale_up = [s.vale_deck[k // VALES_FACE_UP].pop() for k in range(2 * VALES_FACE_UP)]
        s.boxed_vales = []
        s.pool = s.pool_start = VP_POOL[n]
        s.overflow = 0
        s.end_triggered = False
        s.placement = None
        s.turn = 0
        s._legal = None
        s._memo = {}  # derived values (end VP, observation parts) with what they were derived from
        # Starting fields: on-deck cards into the field until two Cursed Lands are in it and a
        # third is on deck (Setup 5).
        for q in range(n):
            s.reveal(q)
            while not (s._cursed_in_field(q) == 2 and IS_CURSED[s.on_deck[q]]):
                s.field[q].append(s.on_deck[q])
                s.reveal(q)
        # Mana tokens dealt at random; the one with the starting player symbol starts (Setup 6).
        s.start_player = rng.below(n)
        s._reset_turn(s.start_player)
        s.start_turn(s.start_player)
        s.run()
        return s

    def _cursed_in_field(self, q: int) -> int:
        return sum(IS_CURSED[c] for c in self.field[q])

    def _reset_turn(self, q: int) -> None:
        self.active = self.player = q
        self.stage = PLANTING
        self.phase = PLANT
        self.cont = NO_CONT
        self.wp_queue: list[tuple[int, int]] = []
        self.wp_card = -1
        self.peeked = False
        self.bought: list[list[int]] = []  # [advancement, declared Earthchant card or -1, source]
        self.bought_vales: list[int] = []
        self.spent = 0
        self.token_used = 0
        self.sunstone: list[int] = []
        self.conclave_used = 0
        self.conclave_from = -1
        self.earthchant_used: list[int] = []
        self.pending_buy: tuple[int, int] | None = None
        self.sleeve_index = 0
        self.redraw_cards: list[int] = []
        self.redraw_vales = 0
        self.guard_bonus: list[tuple[int, str]] = []
        self.growth_bonus: list[tuple[int, str]] = []
        self.h_mana = 0
        self.h_spirits = [0, 0, 0, 0]
        self.h_vp = 0

    # -- moving cards ----------------------------------------------------------------------------
    def reveal(self, q: int) -> None:
        """Turn over the top card of the deck as the on-deck card; an empty deck is first
        refilled by shuffling the discard pile; with neither, there is no on-deck card."""
        self.refill_deck(q)
        self.on_deck[q] = self.deck[q].pop() if self.deck[q] else -1

    def refill_deck(self, q: int) -> None:
        if not self.deck[q] and self.discard[q]:
            self.deck[q] = self.discard[q]
            self.discard[q] = []
            self.shuffle_deck(q)

    def shuffle_deck(self, q: int) -> None:
        d = self.deck[q]
        self.deck[q] = [d[i] for i in self.rng.permutation(len(d))]

    def play_on_deck(self) -> None:
        """The on-deck card goes into the field; its When Played abilities resolve before the
        next on-deck card is revealed."""
        q = self.active
        c = self.on_deck[q]
        self.on_deck[q] = -1
        self.field[q].append(c)
        self.wp_card = c
        self.wp_queue = [op for op, _ in self.prof[q][c].when_played]
        self.cont = REVEAL

    # -- decay, growth, guardians ------------------------------------------------------------------
    def guardians(self, c: int) -> int:
        q = self.active
        return self.prof[q][c].guardians + sum(1 for b, _ in self.guard_bonus if b == c)

    def active_vales(self, q: int | None = None) -> list[int]:
        """The vales whose abilities work now: not those the active player bought this turn
        (a copy of a vale already owned still works)."""
        q = self.active if q is None else q
        if q != self.active or not self.bought_vales:
            return self.vales[q]
        left = list(self.vales[q])
        for v in self.bought_vales:
            left.remove(v)
        return left

    def game_vale_sacrifice(self, v: int) -> int:
        return VALE_SACRIFICE[v]

    def net_decay(self, q: int | None = None) -> int:
        """Decay revealed (field and on-deck) less growth (theirs, the vales', Blooming Arbor's, and
        Conclave of Ents' guardian on a card that grows per guardian), carried-over ones included."""
        q = self.active if q is None else q
        prof = self.prof[q]
        field, c = self.field[q], self.on_deck[q]
        net = 0
        for p in [prof[c] for c in field]:
            net += p.decay - p.growth
        if c >= 0:
            net += prof[c].decay - prof[c].growth
        # What a seat used in its last prep (Blooming Arbor's growth, Conclave of Ents' guardian)
        # waits in its carry lists until its next turn begins; it is in effect all that time, so
        # every seat is shown the decay its own next spoil check will read.
        if q == self.active:
            guard, growth = self.guard_bonus, self.growth_bonus
        else:
            guard, growth = self.carry_guard[q], self.carry_growth[q]
        for b, _ in guard:  # an added guardian on a revealed card that grows per guardian
            if b == c or b in field:
                net -= prof[b].growth_per_guardian
        for g, _ in growth:
            net -= g
        for v in self.active_vales(q):
            net -= VALE_GROWTH[v]
        return net

    # -- the flow ----------------------------------------------------------------------------------
    def run(self) -> None:
        """Resolve automatic steps until the active player must decide (or the game ends)."""
        q = self.active
        while True:
            if self.wp_queue:
                op = self.wp_queue.pop(0)
                if op == DISCARD_FROM_FIELD:
                    if len(self.field[q]) > 1:
                        self.phase = WP_DISCARD
                        return
                elif op == PEEK_TOP:
                    self.refill_deck(q)
                    if self.deck[q]:
                        self.peeked = True
                        self.phase = PEEK
                        return
                elif op == SEARCH_DECK:
                    self.refill_deck(q)
                    if self.deck[q]:
                        self.phase = SEARCH
                        return
                continue
            cont = self.cont
            if not cont:  # a decision is open, or the game is over
                return
            if cont == REVEAL:
                self.reveal(q)
                self.cont = CHECK
            elif cont == CHECK:
                net = self.net_decay(q)
                if net >= SPOIL_DECAY:
                    if self.saves():
                        self.phase = WOULD_SPOIL
                        return
                    self.spoil()
                elif self.stage == PLANTING:
                    self.phase = PLANT
                    return
                elif net >= PREP_DECAY or self.on_deck[q] < 0:
                    self.end_prep()
                else:
                    self.play_on_deck()
            elif cont == SLEEVE_NEXT:
                if self._sleeve_step():
                    return
            elif cont == PREP_NEXT:
                self.start_prep()
            elif cont == END_TURN:
                self.end_turn()
                q = self.active
            else:
                raise AssertionError(f"no continuation {cont!r}")

    def start_turn(self, q: int) -> None:
        self._reset_turn(q)
        self.growth_bonus = self.carry_growth[q]
        self.guard_bonus = self.carry_guard[q]
        self.carry_growth[q], self.carry_guard[q] = [], []
        self.redraw_cards, self.redraw_vales = list(self.redraw_blocked[q][0]), self.redraw_blocked[q][1]
        self.redraw_blocked[q] = ([], 0)
        if self.skip_harvest[q]:  # spoiled in prep: straight to the discard phase
            self.skip_harvest[q] = False
            self.end_planting()
            self.start_discard()
        else:
            self.cont = NO_CONT
            self.phase = PLANT

    def end_planting(self) -> None:
        """What was used in the last prep lasts through this planting only."""
        self.guard_bonus = [b for b in self.guard_bonus if b[1] != UNTIL_PLANTING_END]
        self.redraw_cards, self.redraw_vales = [], 0

    def spoil(self) -> None:
        q = self.active
        self.token_active[q] = True  # an active token stays active, with no other reward
        if self.stage == PLANTING:
            self.end_planting()
            self.start_discard()
        else:
            self.skip_harvest[q] = True
            self.end_prep()

    def gain_vp(self, q: int, x: int) -> None:
        """VP tokens from the pool; once it is empty, from the box (End of the Game)."""
        take = min(self.pool, x)
        self.pool -= take
        self.overflow += x - take
        self.tokens[q] += x
        if self.pool == 0:
            self.end_triggered = True

    # -- discard phase -----------------------------------------------------------------------------
    def start_discard(self) -> None:
        self.stage = DISCARDING
        self.sleeve_index = 0
        self.cont = SLEEVE_NEXT

    def sleeve_targets(self) -> list[int]:
        """Field cards with the bought advancement's slot open, less those a later declared
        advancement of that slot must go on."""
        q = self.active
        adv, declared, _ = self.bought[self.sleeve_index]
        s = ADVANCEMENTS[adv].slot
        if declared >= 0:
            return [declared]
        later = {
            b[1] for b in self.bought[self.sleeve_index + 1 :] if b[1] >= 0 and ADVANCEMENTS[b[0]].slot == s
        }
        return [c for c in self.field[q] if self.slots[q][c][s] < 0 and c not in later]

    def sleeve(self, adv: int, c: int) -> None:
        q = self.active
        s = ADVANCEMENTS[adv].slot
        sl = list(self.slots[q][c])
        assert sl[s] < 0, "sleeving over an advancement"
        sl[s] = adv
        self.slots[q][c] = tuple(sl)
        if ADVANCEMENTS[adv].band:  # the band sleeved last covers the one below (I-1)
            self.band[q][c] = s
        self.prof[q][c] = profile(self.slots[q][c], self.band[q][c])

    def _sleeve_step(self) -> bool:
        """Sleeve the bought advancements in the order bought; True if a choice is open."""
        while self.sleeve_index < len(self.bought):
            targets = self.sleeve_targets()
            assert targets, "a bought advancement has no place"
            if len(targets) > 1:
                self.phase = SLEEVE
                return True
            self.sleeve(self.bought[self.sleeve_index][0], targets[0])
            self.sleeve_index += 1
        self.finish_discard()
        return False

    def finish_discard(self) -> None:
        """Discard the field (not the on-deck card); replenish the commons and the vales."""
        q = self.active
        self.discard[q].extend(self.field[q])
        self.field[q] = []
        for _, _, src in self.bought:
            if src >= 0:
                self.commons[src] = self._replacement(src // COMMONS_FACE_UP)
        for k in range(len(self.vale_up)):
            if self.vale_up[k] < 0:
                self.vale_up[k] = self._vale_replacement(k // VALES_FACE_UP)
        nxt = (q + 1) % self.n
        if self.end_triggered and nxt == self.start_player:
            self.finish_game()
            return
        self.cont = PREP_NEXT

    def _replacement(self, level: int) -> int:
        """The top card of the level's deck; an empty deck falls back 1 -> 2 -> 3."""
        for lv in range(level, 3):
            if self.level_deck[lv]:
                return self.level_deck[lv].pop()
        return -1

    def _vale_replacement(self, level: int) -> int:
        for lv in range(level, 2):
            if self.vale_deck[lv]:
                return self.vale_deck[lv].pop()
        return -1

    # -- prep --------------------------------------------------------------------------------------
    def start_prep(self) -> None:
        """Play the on-deck card as the first card of the new field, then until 3 decay show."""
        self.stage = PREPPING
        self.growth_bonus = []  # Blooming Arbor's growth lasts until the next Prep Phase (I-15)
        self.redraw_cards, self.redraw_vales = [], 0
        if self.on_deck[self.active] >= 0:
            self.play_on_deck()
        else:
            self.cont = REVEAL

    def end_prep(self) -> None:
        q = self.active
        self.redraw_blocked[q] = (list(self.redraw_cards), self.redraw_vales)
        self.carry_guard[q] = [b for b in self.guard_bonus if b[1] == UNTIL_PLANTING_END]
        self.carry_growth[q] = list(self.growth_bonus)  # used in this prep: through the next turn
        self.cont = END_TURN

    def end_turn(self) -> None:
        q = self.active
        self.turn += 1
        self.start_turn((q + 1) % self.n)

    def finish_game(self) -> None:
        keys = [(self.points(q), self.tiebreak(q)) for q in range(self.n)]
        self.placement = [sum(1 for k in keys if k > keys[q]) for q in range(self.n)]
        self.turn += 1
        self.phase = GAME_OVER
        self.stage = OVER
        self.player = -1
        self.cont = NO_CONT

    # -- scores ------------------------------------------------------------------------------------
    def end_vp(self, q: int) -> int:
        """End-game VP on the advancements of all 20 cards and on the vales."""
        cards = tuple(self.prof[q])
        hit = self._memo.get(("end_vp", q))
        if hit is not None and hit[0] == cards:  # profiles compare by identity first: cheap
            vp = hit[1]
        else:
            vp = sum([p.end_vp for p in cards])
            self._memo["end_vp", q] = (cards, vp)
        return vp + sum([VALE_END_VP[v] for v in self.vales[q]])

    def points(self, q: int) -> int:
        return self.tokens[q] + self.end_vp(q)

    def tiebreak(self, q: int) -> int:
        """Level-3 advancements plus level-2 vales."""
        return sum(p.level3 for p in self.prof[q]) + sum(1 for v in self.vales[q] if VALE_LEVEL[v] == 2)

    # -- saves and Conclave of Ents ------------------------------------------------------------------
    def saves(self) -> list[int]:
        """The would-spoil actions open now: each ability at most once in this planting or prep."""
        q = self.active
        out = []
        if self.on_deck[q] >= 0:
            if any(self.prof[q][c].redraw and c not in self.redraw_cards for c in self.field[q]):
                out.append(REDRAW_DRUID)
            vale_redraws = sum(VALE_REDRAW[v] for v in self.active_vales(q))
            if vale_redraws > self.redraw_vales:
                out.append(REDRAW_VALE)
        if any(VALE_SACRIFICE[v] for v in self.active_vales(q)):
            out.append(SACRIFICE)
        if self.conclave_targets(WOULD_SPOIL):
            out.append(CONCLAVE)
        return out

    def conclave_targets(self, where: int | None = None) -> list[int]:
        """Cards Conclave of Ents' guardian would change something on (I-13): growth counted
        against decay (planting, a save), a Harvest ability counting guardians (planting,
        harvest); none once every Conclave was used this turn."""
        q = self.active
        where = self.phase if where is None else where
        have = sum([VALE_ADD_GUARDIAN[v] for v in self.active_vales(q)])
        if have <= self.conclave_used:
            return []
        prof = self.prof[q]
        cards = self.field[q] + ([self.on_deck[q]] if self.on_deck[q] >= 0 and where != HARVEST else [])
        if where == WOULD_SPOIL:
            return sorted(c for c in cards if prof[c].growth_per_guardian)
        if where == HARVEST:
            return sorted(c for c in cards if prof[c].guardian_harvest)
        if where == PLANT:
            return sorted(c for c in cards if prof[c].growth_per_guardian or prof[c].guardian_harvest)
        return []

    # -- GameState API -------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.player

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def returns(self) -> np.ndarray:
        if self.placement is None:
            return np.zeros(self.n)
        return zero_sum_returns(self.placement)

    def winners(self) -> list[int]:
        if self.placement is None:
            return []
        return [q for q in range(self.n) if self.placement[q] == 0]

    def scores(self) -> list[float]:
        return [float(self.points(q)) for q in range(self.n)]

    def info_extras(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "pool": self.pool,
            "vp_tokens": np.array(self.tokens, dtype=np.int16),
            "stage": self.stage,
            "active": self.active if self.phase != GAME_OVER else -1,
        }

    def clone(self) -> ValeState:
        c = ValeState.__new__(ValeState)
        d = self.__dict__.copy()
        for name in ("slots", "band", "prof", "deck", "field", "discard", "vales", "level_deck", "vale_deck",
                     "carry_guard", "carry_growth"):  # fmt: skip
            d[name] = [x[:] for x in d[name]]
        d["redraw_blocked"] = [(list(a), b) for a, b in self.redraw_blocked]
        for name in ("on_deck", "tokens", "token_active", "skip_harvest", "l1_box", "commons", "fertile",
                     "vale_up", "boxed_vales", "wp_queue", "bought_vales", "sunstone", "earthchant_used",
                     "redraw_cards", "guard_bonus", "growth_bonus", "h_spirits"):  # fmt: skip
            d[name] = d[name][:]
        d["bought"] = [b[:] for b in self.bought]
        d["placement"] = None if self.placement is None else self.placement[:]
        d["_legal"] = None
        d["_memo"] = dict(self._memo)  # each entry carries its inputs: valid in the copy too
        d["rng"] = self.rng.copy()
        c.__dict__.update(d)
        return c

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_legal"] = None
        state["_memo"] = {}
        del state["prof"]  # rebuilt from the slots: profiles are shared, interned objects
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.prof = [
            [profile(self.slots[q][c], self.band[q][c]) for c in range(NUM_CARDS)] for q in range(self.n)
        ]

    def observation(self, player: int) -> np.ndarray:
        return observe(self, self.check_seat(player))

    def determinize(self, player: int, rng: np.random.Generator) -> ValeState:
        """Re-deal what ``player`` cannot see: the order of every deck (its own included, but for
        the top card it is looking at with Calm Weather), which of another player's cards are in
        its deck and which in its discard pile (sizes kept), the level-1 advancements left in the
        box, and the order of the commons and vale decks. One draw of ``rng`` seeds the core
        generator that re-deals, and the copy's chance stream goes on from where the re-deal left
        it (the compiled twin's determinize is given that draw)."""
        self.check_seat(player)
        r = from_generator(check_rng(rng))
        c = self.clone()
        # Everything re-dealt is sorted first, so the copy depends only on what ``player`` sees
        # and on ``rng``, never on the true hidden order (a search agent cannot peek through it).
        for q in range(self.n):
            if q == player:
                keep = 1 if self.peeked and q == self.active and self.phase == PEEK else 0
                deck = c.deck[q]
                split = len(deck) - keep
                c.deck[q] = _shuffled(sorted(deck[:split]), r) + deck[split:]
            else:
                pool = _shuffled(sorted(c.deck[q] + c.discard[q]), r)
                k = len(c.deck[q])
                c.deck[q], c.discard[q] = pool[:k], pool[k:]
        l1 = _shuffled(sorted(c.level_deck[0] + c.l1_box), r)
        k = len(c.level_deck[0])
        c.level_deck[0], c.l1_box = l1[:k], l1[k:]
        c.level_deck[1] = _shuffled(sorted(c.level_deck[1]), r)
        c.level_deck[2] = _shuffled(sorted(c.level_deck[2]), r)
        c.vale_deck = [_shuffled(sorted(d), r) for d in c.vale_deck]
        c.rng = r
        return c

    def describe(self, viewer: int | None = None) -> str:
        from mystic_envs.mystic_vale.render import describe

        return describe(self, viewer)

    # -- invariants ------------------------------------------------------------------------------------
    def _seat_sleeved(self, q: int) -> list[int]:
        """The advancements sleeved on seat ``q``'s cards, after checking each card: parts in their
        own slots, printed parts in place, profiles current. Cached per content (cards change only
        when sleeved), so the check costs a lookup on most steps."""
        key = (tuple(self.slots[q]), tuple(self.band[q]))
        ids = tuple(map(id, self.prof[q]))
        hit = _SEAT_CHECKED.get(key)
        if hit is not None:
            assert hit[0] == ids, "a stale card profile"
            return hit[1]
        sleeved = []
        for c in range(NUM_CARDS):
            sl, printed = self.slots[q][c], START_SLOTS[c]
            for k in range(3):
                a = sl[k]
                if a >= 0:
                    assert ADVANCEMENT_SLOT[a] == k, f"seat {q} card {c}: advancement in the wrong slot"
                    if printed[k] != a:
                        sleeved.append(a)
                elif printed[k] >= 0:
                    raise AssertionError("a printed part was removed")
            assert self.prof[q][c] is profile(sl, self.band[q][c]), "a stale card profile"
        if len(_SEAT_CHECKED) > 20_000:
            _SEAT_CHECKED.clear()
        _SEAT_CHECKED[key] = (ids, sleeved)
        return sleeved

    def check_invariants(self) -> None:
        """Cards, advancements, vales and VP are all accounted for; no count is negative."""
        n = self.n
        count = [0] * len(ADVANCEMENTS)  # every advancement copy, wherever it is
        everyone = list(range(NUM_CARDS))
        for q in range(n):
            where = self.deck[q] + self.field[q] + self.discard[q]
            if self.on_deck[q] >= 0:
                where.append(self.on_deck[q])
            where.sort()
            assert where == everyone, f"seat {q}'s 20 cards are not all accounted for"
            for a in self._seat_sleeved(q):
                count[a] += 1
            assert self.tokens[q] >= 0
        for pile in (self.l1_box, *self.level_deck, self.commons):
            for a in pile:
                if a >= 0:
                    count[a] += 1
        if self.stage in (HARVESTING, DISCARDING):  # bought, not yet sleeved
            for b in self.bought[self.sleeve_index :]:
                count[b[0]] += 1
        for a in COMMONS_ADVANCEMENTS:
            assert count[a.id] == a.copies, f"{a.name}: {count[a.id]} of {a.copies} copies"
        for k in range(3):
            assert self.fertile[k] >= 0
            assert self.fertile[k] + count[FERTILE_SOIL[k]] == NUM_FERTILE_SOIL // 3, "Fertile Soil leaked"
        vales = [0] * len(VALES)
        for pile in (self.boxed_vales, *self.vale_deck, self.vale_up, *self.vales):
            for v in pile:
                if v >= 0:
                    vales[v] += 1
        for q in range(n):
            for v in self.vales[q]:
                if VALE_ONE_PER_PLAYER[v]:
                    assert self.vales[q].count(v) == 1, "two of a one-per-player vale"
        for v in VALES:
            assert vales[v.id] == v.copies, f"vale {v.name}: {vales[v.id]} of {v.copies}"
        assert 0 <= self.pool <= self.pool_start and self.overflow >= 0
        assert sum(self.tokens) == self.pool_start - self.pool + self.overflow, "VP leaked"
        assert self.end_triggered == (self.pool == 0)
        if self.phase != GAME_OVER:
            assert self.player == self.active
            assert len(self.bought) <= self.buy_limit() and len(self.bought_vales) <= VALE_BUYS
            assert self.spent <= self.h_mana + self.token_used
            if self.stage == HARVESTING:
                costs = [VALE_COSTS[v] for v in self.bought_vales]
                assert vales_payable(costs, self.spirits_now()), "bought vales not paid for"


_SEAT_CHECKED: dict[tuple, tuple[tuple[int, ...], list[int]]] = {}  # see ValeState._seat_sleeved


def _shuffled(items: list[int], rng: Rng) -> list[int]:
    return [items[i] for i in rng.permutation(len(items))]


__all__ = ["PHASE_NAMES", "ValeGame", "ValeState", "vales_payable"]
