"""Mystick: Domination rules engine: a state machine over small integer lists, no PettingZoo.

A round: initiative (automatic: top cards shown, Majors discarded, ties redrawn) -> the
"after the next initiative draw" effects, in the Q&A's order -> moves in seat order from the
first mover (play, draw, challenge or a special move) until the Draw Count reaches 3 -> bonus
points, the pool check, Power removed, crosses cleared. Multi-part decisions (a challenge's target,
an Attachment's Pawn, an effect's target, the redraw, the order of simultaneous effects) are
atomic actions of the player who owns them. Their masks and ``apply`` are
``decisions.DecisionsMixin``; effects are resolved by ``effects.EffectsMixin``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mystic_envs.core.game import (
    Game,
    GameState,
    InfoField,
    LayoutEntry,
    check_seed,
    zero_sum_returns,
)
from mystic_envs.core.rng import Rng, fresh_seed
from mystic_envs.mystick_domination import decks as deck_rules
from mystic_envs.mystick_domination.cards import (
    AFTER_EACH_INITIATIVE,
    AFTER_NEXT_INITIATIVE,
    AGGRESSION,
    CROSS_SPACES,
    EFFECTS,
    FATE,
    GRANT_TRAIT,
    IMMUNITY,
    INFLUENCE,
    INFLUENCE_PRINTED,
    IS_MAJOR,
    MAX_PAWNS,
    NUM_CARDS,
    OPENING_HAND,
    POOL_BY_PLAYERS,
    PRESENCE,
    RANK,
    ROUND_DRAWS,
    SUIT,
    TRAIT_INFLUENCE,
    TRAITS_PRINTED,
    TRIGGER,
    WHEN_CHALLENGED,
    WHEN_CHALLENGES,
    WHEN_WINS,
)
from mystic_envs.mystick_domination.decisions import (  # noqa: F401 (re-exported)
    ATTACH_TARGET,
    CHALLENGE_TARGET,
    CONT_END_MOVE,
    CONT_FATE_DRAW,
    CONT_FINISH_CHALLENGE,
    CONT_START_MOVES,
    EFFECT_TARGET,
    GAME_OVER,
    MOVE,
    ORDER,
    PHASE_NAMES,
    REDRAW,
    REGISTER,
    RESOURCES_CHOICE,
    ActionLayout,
    DecisionsMixin,
)
from mystic_envs.mystick_domination.effects import EffectsMixin
from mystic_envs.mystick_domination.knowledge import KnowledgeMixin
from mystic_envs.mystick_domination.observation import build_layout_for, observe

# Static effects of Attachments and Environments, precomputed per card.
ATT_INFLUENCE = tuple(sum(e.amount for e in EFFECTS[c] if e.op == INFLUENCE) for c in range(NUM_CARDS))
ATT_TRAIT = tuple(sum(e.amount for e in EFFECTS[c] if e.op == GRANT_TRAIT) for c in range(NUM_CARDS))
ENV_TRAIT_INFLUENCE = tuple(
    next(((e.target, e.amount) for e in EFFECTS[c] if e.op == TRAIT_INFLUENCE), None)
    for c in range(NUM_CARDS)
)


class MystickGame(Game):
    """Mystick: Domination for 2-5 players.

    Options: ``num_players`` (2-5); ``decks`` ("random" default: a random legal basic deck per
    player from the seed, the two halves of one 78-card set with two players; a preset name; or one
    entry per seat, each "random", a preset name or a list of 39 cards); ``construction``
    ("basic" or "advanced", the rules a listed deck is checked against); ``reshuffle_opening_majors``
    (shuffle the Majors discarded from opening hands back into the deck; default False).
    """

    PLAYER_COUNTS = (2, 3, 4, 5)
    PHASE_NAMES = PHASE_NAMES

    def __init__(
        self,
        num_players: int = 2,
        decks: Any = "random",
        construction: str = "basic",
        reshuffle_opening_majors: bool = False,
    ) -> None:
        self.num_players = self.player_count(num_players, "Mystick Domination")
        if not isinstance(construction, str):
            raise TypeError(f"construction must be 'basic' or 'advanced', got {construction!r}")
        self.construction = construction
        self.decks = deck_rules.parse_decks(decks, self.num_players, construction)
        self._decks_arg = decks
        if not isinstance(reshuffle_opening_majors, bool):
            raise TypeError(f"reshuffle_opening_majors must be a bool, got {reshuffle_opening_majors!r}")
        self.reshuffle_opening_majors = reshuffle_opening_majors
        # D-5: an opponent's deck list follows from public facts only when two players split one
        # 78-card set (both decks random: the boxed game); otherwise it is hidden information.
        self.deck_lists_public = self.num_players == 2 and all(d is None for d in self.decks)
        self.actions = ActionLayout(self.num_players)
        self.num_actions = self.actions.size
        self._layout: tuple[LayoutEntry, ...] | None = None

    def new_initial_state(self, seed: int | None = None) -> MystickState:
        seed = check_seed(seed)
        return MystickState.new(self, Rng(fresh_seed() if seed is None else seed))

    def observation_layout(self) -> tuple[LayoutEntry, ...]:
        if self._layout is None:
            self._layout = build_layout_for(self.num_players)
        return self._layout

    def action_meaning(self, action: int) -> str:
        if not 0 <= action < self.num_actions:
            return f"out of range ({action})"
        return self.actions.meanings[action]

    def info_fields(self) -> tuple[InfoField, ...]:
        n = self.num_players
        return (
            InfoField("round", (), "int", "the round being played (1 = first)"),
            InfoField("pool", (), "int", "Power left in the pool"),
            InfoField("draw_count", (), "int", "the Draw Count (the round ends when it reaches 3)"),
            InfoField("deck_sizes", (n,), "int16", "cards left in each seat's deck"),
            InfoField("eliminated", (n,), "int8", "1 for each seat out of the game (its deck ran out)"),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            MystickGame,
            (self.num_players, self._decks_arg, self.construction, self.reshuffle_opening_majors),
        )


class MystickState(KnowledgeMixin, DecisionsMixin, EffectsMixin, GameState):
    """One game of Mystick: Domination. Decks keep their top card last."""

    @classmethod
    def new(cls, game: MystickGame, rng: Rng) -> MystickState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game = game
        s.n = n
        s.acts = game.actions
        s.rng = rng
        random_lists = deck_rules.random_decks(n, rng) if any(d is None for d in game.decks) else None
        s.deck_list = [list(d) if d is not None else random_lists[q] for q, d in enumerate(game.decks)]
        s.deck = [s.deck_list[q][:] for q in range(n)]
        for deck in s.deck:
            rng.shuffle(deck)
        s.hand = [[0] * NUM_CARDS for _ in range(n)]
        s.hand_size = [0] * n
        s.shown = [[0] * NUM_CARDS for _ in range(n)]  # face-up cards in each hand (public)
        s.discard = [[] for _ in range(n)]
        s.cross = [[-1] * CROSS_SPACES for _ in range(n)]
        s.pawn = [[-1] * MAX_PAWNS for _ in range(n)]
        s.power = [[0] * MAX_PAWNS for _ in range(n)]
        s.infl = [[0] * MAX_PAWNS for _ in range(n)]
        s.traits = [[0] * MAX_PAWNS for _ in range(n)]
        s.attach = [[[] for _ in range(MAX_PAWNS)] for _ in range(n)]  # (card, owner) pairs
        s.envs = [[] for _ in range(n)]
        s.score = [0] * n
        s.alive = [True] * n
        s.out_time = [-1] * n
        s.clock = 0
        s.clear_knowledge()
        s.new_table()
        s.pool = s.pool_start = POOL_BY_PLAYERS[n]
        s.power_removed = s.power_created = 0
        s.draw_count = 0
        s.round = 0
        s.phase = MOVE
        s.player = s.mover = s.first_mover = s.initiative_winner = 0
        s.initiative_cards = [-1] * n
        s.extra_move = False
        s.delayed = []  # (owner, card): effects waiting for the next initiative draw
        s.queue = []  # (owner, card, row index or REGISTER): effect rows to resolve now, first first
        s.groups = []  # [owner, [cards]]: simultaneous effects still to be ordered
        s.cont = CONT_START_MOVES
        s.choice = []  # legal targets of the effect row (or Attachment) waiting for a choice
        s.resolving = -1  # the Action card being resolved (then discarded)
        s.pending_card = -1  # the Attachment waiting for its Pawn
        s.resources_max = 0
        s._clear_challenge()
        s.last_challenge = None
        # What the last apply() set off, in order, for the narration (narrate.py): public events only.
        s.log = []
        s.placement = None
        s._legal = None
        # Setup: six-card opening hands, Majors discarded and replaced (all players at once).
        for q in range(n):
            s.draw_to_hand(q, OPENING_HAND)
            if game.reshuffle_opening_majors and s.discard[q]:
                for c in s.discard[q]:  # everyone saw them discarded: known to be in the deck
                    s._recall(q, c)
                s.deck[q].extend(s.discard[q])
                s.discard[q] = []
                s.pile_epoch += 1
                rng.shuffle(s.deck[q])
        s._start_round()
        s._run()
        return s

    def new_table(self) -> None:
        """Forget the observation parts kept for speed (``observation.observe``): the engine
        bumps ``table_version[q]`` when a Pawn, Attachment, Environment or waiting effect of
        seat q's play area changes, ``hand_version[q]`` when q's hand or its face-up cards do,
        and ``pile_epoch`` when a discard pile loses cards or a deck is
        shuffled (otherwise piles only grow and decks only lose their top cards); a test
        that sets a table by hand calls this."""
        self.table_version = [0] * self.n
        self.hand_version = [0] * self.n
        self.pile_epoch = 0
        self.obs_cache: dict[Any, Any] = {}

    def touch_table(self) -> None:
        """Every seat's play area may have changed (``new_table``)."""
        self.table_version = [v + 1 for v in self.table_version]

    # -- card movement -------------------------------------------------------------------------
    def take_top(self, q: int, hidden: bool = False) -> int:
        """The top card of ``q``'s deck, taken (elimination is checked by the caller's step);
        ``hidden``: it goes face down into ``q``'s hand, else somewhere everyone sees it."""
        c = self.deck[q].pop()
        if self.known_top[q] or self.notes:
            if self.known_top[q]:
                self.known_top[q] -= 1
            for p in range(self.n):
                if p == q:
                    continue
                if self.looked[p][q]:
                    self.looked[p][q] -= 1
                    if hidden:  # p saw it on top: p knows it is in q's hand now
                        self._note(p, q, c)
                elif not hidden:
                    self._unnote(p, q, c)
            if not hidden and c in self.recalled[q]:
                self.recalled[q].remove(c)
                self.notes -= 1
        return c

    def draw_to_hand(self, q: int, k: int) -> None:
        """``q`` draws ``k`` cards; each Major reaching the hand is discarded and replaced."""
        deck, hand = self.deck[q], self.hand[q]
        for _ in range(k):
            while deck:
                c = self.take_top(q, hidden=not IS_MAJOR[deck[-1]])
                if IS_MAJOR[c]:
                    self.discard[q].append(c)
                    continue
                hand[c] += 1
                self.hand_size[q] += 1
                self.hand_version[q] += 1
                break

    def _from_hand(self, q: int, c: int) -> None:
        self.hand[q][c] -= 1
        self.hand_size[q] -= 1
        self.hand_version[q] += 1
        # Which copy left is not seen, so a face-up copy stops counting as known (advanced decks
        # hold up to 3): the cards known to remain are one fewer either way.
        if self.shown[q][c]:
            self.shown[q][c] -= 1
        elif self.notes:
            self._surface(q, c)

    def remove_pawn(self, q: int, s: int) -> None:
        """A Pawn leaves play: its Power to the pool, its Attachments to their owners' discards."""
        self.table_version[q] += 1
        self.pool += self.power[q][s]
        self.power[q][s] = 0
        for card, owner in self.attach[q][s]:
            self.discard[owner].append(card)
        self.attach[q][s] = []
        self.discard[q].append(self.pawn[q][s])
        self.pawn[q][s] = -1
        self.refresh_pawns()

    def refresh_pawns(self) -> None:
        """Influence and traits from Attachments and Environments; excess Power to the pool."""
        for q in range(self.n):
            bonuses = [ENV_TRAIT_INFLUENCE[c] for c in self.envs[q] if ENV_TRAIT_INFLUENCE[c] is not None]
            pawns, atts = self.pawn[q], self.attach[q]
            for s in range(MAX_PAWNS):
                c = pawns[s]
                if c < 0:
                    continue
                infl, traits = INFLUENCE_PRINTED[c], TRAITS_PRINTED[c]
                for a, _ in atts[s]:
                    infl += ATT_INFLUENCE[a]
                    traits |= ATT_TRAIT[a]
                for trait, amount in bonuses:
                    if traits & trait:
                        infl += amount
                infl = max(0, infl)
                self.infl[q][s] = infl
                self.traits[q][s] = traits
                if self.power[q][s] > infl:  # Q&A: the excess goes back to the pool
                    self.pool += self.power[q][s] - infl
                    self.power[q][s] = infl

    def _check_out(self) -> None:
        """Eliminate every player whose deck is empty (at the same moment: tied in rank)."""
        out = [q for q in range(self.n) if self.alive[q] and not self.deck[q]]
        if not out:
            return
        self.clock += 1
        self.log.append(("out", tuple(out)))
        for q in out:
            self.alive[q] = False
            self.out_time[q] = self.clock
        self.touch_table()
        for q in out:
            # An eliminated player's cards leave play (D-7): Pawns, Environments, its Attachments
            # on other Pawns, its cross.
            for s in range(MAX_PAWNS):
                if self.pawn[q][s] >= 0:
                    self.remove_pawn(q, s)
            self.discard[q].extend(self.envs[q])
            self.envs[q] = []
            for r in range(self.n):
                for s in range(MAX_PAWNS):
                    mine = [a for a in self.attach[r][s] if a[1] == q]
                    if mine:
                        self.attach[r][s] = [a for a in self.attach[r][s] if a[1] != q]
                        self.discard[q].extend(a[0] for a in mine)
            self.clear_cross(q)
        self.refresh_pawns()
        self.delayed = [d for d in self.delayed if self.alive[d[0]]]
        self.touch_table()
        if sum(self.alive) <= 1:
            self._finish_game()

    # -- rounds ----------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        self.draw_count = 0
        self.extra_move = False
        winner = self._initiative()
        if self.phase == GAME_OVER:
            return
        self.initiative_winner = self.first_mover = winner
        self.log.append(("initiative_winner", winner))
        # Q&A: the initiative winner resolves all of its "after initiative" effects in the order it
        # chooses, then the next player to its right, and so on.
        groups = []
        for k in range(self.n):
            q = (winner + k) % self.n
            if not self.alive[q]:
                continue
            cards = [c for owner, c in self.delayed if owner == q]
            cards += [c for c in self.envs[q] if TRIGGER[c] == AFTER_EACH_INITIATIVE]
            if cards:
                groups.append([q, cards])
        self.delayed = []
        self.touch_table()
        self.groups = groups
        self.cont = CONT_START_MOVES

    def _initiative(self) -> int:
        """Draw for initiative; returns the winner (or -1 if the game ended)."""
        contenders = [q for q in range(self.n) if self.alive[q]]
        self.initiative_cards = [-1] * self.n
        while True:
            drawn = {}
            for q in contenders:
                while self.deck[q]:
                    c = self.take_top(q)
                    if IS_MAJOR[c]:
                        self.log.append(("initiative_major", q, c))
                        self.discard[q].append(c)
                        continue
                    self.hand[q][c] += 1
                    self.hand_size[q] += 1
                    self.shown[q][c] += 1  # shown to everyone, then into the hand
                    self.hand_version[q] += 1
                    self.initiative_cards[q] = c
                    drawn[q] = c
                    self.log.append(("initiative", q, c))
                    break
            self._check_out()
            if self.phase == GAME_OVER:
                return -1
            live = [q for q in contenders if self.alive[q] and q in drawn]
            if not live:  # every tied player went out: the survivors draw again
                contenders = [q for q in range(self.n) if self.alive[q]]
                continue
            best = max(RANK[drawn[q]] for q in live)
            top = [q for q in live if RANK[drawn[q]] == best]
            if len(top) == 1:
                return top[0]
            contenders = top

    def _end_round(self) -> None:
        before = self.score[:]
        for q in range(self.n):
            for s in range(MAX_PAWNS):
                if self.pawn[q][s] >= 0 and self.power[q][s]:
                    self.score[q] += self.power[q][s] * (2 if self.traits[q][s] & PRESENCE else 1)
        gained = tuple(a - b for a, b in zip(self.score, before, strict=True))
        self.log.append(("round_end", self.round, gained))
        if self.pool == 0:
            self._finish_game()
            return
        for q in range(self.n):
            for s in range(MAX_PAWNS):
                self.power_removed += self.power[q][s]
                self.power[q][s] = 0
            self.clear_cross(q)
        self._start_round()

    def _finish_game(self) -> None:
        keys = []
        for q in range(self.n):
            if self.alive[q]:
                keys.append((1, self.score[q], len(self.deck[q])))
            else:
                keys.append((0, self.out_time[q], 0))
        self.placement = [sum(1 for k in keys if k > keys[q]) for q in range(self.n)]
        self.phase = GAME_OVER
        self.player = -1
        self.queue = []
        self.groups = []
        self.choice = []
        self.resources_max = 0
        if self.resolving >= 0:  # the Action that ended the game still goes to its discard pile
            self.discard[self.mover].append(self.resolving)
            self.resolving = -1
        self._clear_challenge()

    # -- the driver ------------------------------------------------------------------------------
    def _run(self) -> None:
        """Resolve pending effects and continuations until a player must decide."""
        while self.phase != GAME_OVER:
            if self.draw_count >= ROUND_DRAWS:
                # "If the Draw Count ever reaches 3, the round ends immediately" (I-2): whatever the
                # move would still have done (later effects, the rest of a challenge) is lost.
                self._round_ends_now()
                return
            if self.queue:
                owner, card, k = self.queue[0]
                if not self.alive[owner]:
                    self.queue.pop(0)
                    continue
                if k == REGISTER:
                    self.queue.pop(0)
                    self.log.append(("delayed", owner, card))
                    self.delayed.append((owner, card))
                    self.table_version[owner] += 1
                    continue
                if k == 0:
                    self.log.append(("effect", owner, card))
                eff = EFFECTS[card][k]
                targets = self.effect_targets(owner, eff)
                if targets is not None and len(targets) != 1:
                    if not targets:  # nothing to act on: the row does nothing
                        self.queue.pop(0)
                        continue
                    self.choice = targets
                    self.phase = EFFECT_TARGET
                    self.player = owner
                    return
                self.queue.pop(0)
                self.resolve_effect(owner, eff, targets[0] if targets else -1)
                self._check_out()
                continue
            if self.groups:
                owner, cards = self.groups[0]
                if not self.alive[owner] or not cards:
                    self.groups.pop(0)
                    continue
                if len(set(cards)) > 1:
                    self.phase = ORDER
                    self.player = owner
                    return
                self._enqueue(owner, cards.pop(0))
                continue
            cont = self.cont
            if cont == CONT_END_MOVE:
                self._end_move()
                return
            if cont == CONT_START_MOVES:
                first = self.first_mover
                self.mover = first if self.alive[first] else self._next_alive(first)
                self.phase = MOVE
                self.player = self.mover
                return
            if cont == CONT_FATE_DRAW:
                if self._fate_draw():
                    return
                continue
            self._finish_challenge()  # CONT_FINISH_CHALLENGE

    def _enqueue(self, owner: int, card: int, now: bool = True) -> None:
        """Queue a card's effect rows; ``now=False`` (an Action played, a Major drawn as Fate)
        queues the registration of an "after the next initiative draw" card instead."""
        if not now and TRIGGER[card] == AFTER_NEXT_INITIATIVE:
            self.queue.append((owner, card, REGISTER))
        else:
            self.queue.extend((owner, card, k) for k in range(len(EFFECTS[card])))

    def _next_alive(self, q: int) -> int:
        for k in range(1, self.n + 1):
            r = (q + k) % self.n
            if self.alive[r]:
                return r
        return -1

    def _round_ends_now(self) -> None:
        """An effect brought the Draw Count to 3: drop the rest of the move and end the round."""
        self.queue = []
        self.groups = []
        self.choice = []
        self.extra_move = False
        self.cont = CONT_END_MOVE
        self._end_move()

    def _end_move(self) -> None:
        if self.resolving >= 0:
            self.discard[self.mover].append(self.resolving)
            self.resolving = -1
        self._clear_challenge()
        if self.draw_count >= ROUND_DRAWS:
            # A draw move reaches 3 once its card (and Resources extras) are in hand; an effect that
            # reaches 3 ends the round at once through ``_round_ends_now`` (I-2).
            self._end_round()
            if self.phase != GAME_OVER:
                self._run()
            return
        if not (self.extra_move and self.alive[self.mover]):
            self.mover = self._next_alive(self.mover)
        self.extra_move = False
        self.phase = MOVE
        self.player = self.mover

    # -- challenges ------------------------------------------------------------------------------
    def _clear_challenge(self) -> None:
        self.ch_slot = self.ch_card = -1
        self.ch_tseat = self.ch_tslot = self.ch_tcard = -1
        self.ch_bonus = 0
        self.fate = []
        self.marked = []

    def can_challenge(self, q: int, s: int) -> bool:
        c = self.pawn[q][s]
        if c < 0 or self.infl[q][s] == 0 or self.power[q][s] >= self.infl[q][s]:
            return False
        if min(self.cross[q]) >= 0:  # a full cross forbids challenging
            return False
        return bool(self.pool) or bool(self.challenge_targets(q, s, pawns_only=True))

    def challenge_targets(self, q: int, s: int, pawns_only: bool = False) -> list[int]:
        """Pawn codes of the enemy Pawns ``q``'s Pawn in slot ``s`` may challenge (Power >= 1, no
        higher rank), plus -1 for the pool if it has Power."""
        rank = RANK[self.pawn[q][s]]
        out = [] if pawns_only or not self.pool else [-1]
        for r in range(self.n):
            if r == q or not self.alive[r]:
                continue
            pawns, power = self.pawn[r], self.power[r]
            for t in range(MAX_PAWNS):
                if pawns[t] >= 0 and power[t] and RANK[pawns[t]] <= rank:
                    out.append(r * MAX_PAWNS + t)
        return out

    def _declare(self, target: int) -> None:
        q, s = self.mover, self.ch_slot
        if target >= 0:
            self.ch_tseat, self.ch_tslot = divmod(target, MAX_PAWNS)
            self.ch_tcard = self.pawn[self.ch_tseat][self.ch_tslot]
        # "When a Pawn challenges / is challenged" effects, grouped by owner in the Q&A's order.
        triggered: dict[int, list[int]] = {}
        for card, owner in self.attach[q][s]:
            if TRIGGER[card] == WHEN_CHALLENGES:
                triggered.setdefault(owner, []).append(card)
        if target >= 0:
            for card, owner in self.attach[self.ch_tseat][self.ch_tslot]:
                if TRIGGER[card] == WHEN_CHALLENGED:
                    triggered.setdefault(owner, []).append(card)
        self.groups = self._in_turn_order(q, triggered)
        self.cont = CONT_FATE_DRAW
        self._run()

    def _in_turn_order(self, q: int, triggered: dict[int, list[int]]) -> list[list]:
        """Simultaneous effects by owner: the mover's first, then the next seats' (Q&A)."""
        seats = [(q + k) % self.n for k in range(self.n)]
        return [[r, triggered[r]] for r in seats if r in triggered]

    def _fate_draw(self) -> bool:
        """Draw Fate into the cross; True if the redraw decision is open."""
        q, s = self.mover, self.ch_slot
        if not self.alive[q] or self.pawn[q][s] != self.ch_card:
            self.cont = CONT_END_MOVE
            return False
        drawn = []
        for _ in range(self.infl[q][s]):
            if not self.deck[q]:
                break
            c = self.take_top(q)
            drawn.append(c)
            j = self.place_in_cross(q, c)
            if j >= 0:
                self.fate.append(j)
        self.log.append(("fate", q, tuple(drawn)))
        self._check_out()
        self.cont = CONT_FINISH_CHALLENGE
        if self.phase == GAME_OVER or not self.alive[q] or not self.fate:
            return False
        self.phase = REDRAW
        self.player = q
        return True

    def _redraw(self) -> None:
        q = self.mover
        marked = sorted(self.marked)
        dropped = tuple(self.cross[q][j] for j in marked)
        for j in marked:
            self.discard[q].append(self.cross[q][j])
            self.cross[q][j] = -1
            self.fate.remove(j)
        drawn = []
        for _ in marked:  # "try them all again": as many new Fate cards
            if not self.deck[q]:
                break
            c = self.take_top(q)
            drawn.append(c)
            j = self.place_in_cross(q, c)
            if j >= 0:
                self.fate.append(j)
        self.log.append(("redraw", q, dropped, tuple(drawn)))
        self.marked = []
        self._check_out()
        if self.phase == GAME_OVER:
            return
        # Majors resolve in the order of their spaces; one discarded by the redraw does not (Q&A).
        for j in sorted(self.fate):
            c = self.cross[q][j]
            if IS_MAJOR[c] and TRIGGER[c] in (FATE, AFTER_NEXT_INITIATIVE):
                self._enqueue(q, c, now=False)
        self.cont = CONT_FINISH_CHALLENGE
        self._run()

    def _finish_challenge(self) -> None:
        q, s = self.mover, self.ch_slot
        self.cont = CONT_END_MOVE
        if not self.alive[q] or self.pawn[q][s] != self.ch_card:
            self.last_challenge = (0, 0, False)
            self.log.append(("challenge_lost", q, self.ch_card))
            return
        suit = SUIT[self.ch_card]
        cross = self.cross[q]
        successes = self.ch_bonus + sum(1 for j in self.fate if IS_MAJOR[cross[j]] or SUIT[cross[j]] == suit)
        killed = False
        moved = 0
        if self.ch_tseat < 0:
            moved = min(successes, self.pool, self.infl[q][s] - self.power[q][s])
            self.pool -= moved
        else:
            r, t = self.ch_tseat, self.ch_tslot
            if self.pawn[r][t] == self.ch_tcard:  # killed meanwhile: its Power went to the pool (Q&A)
                if self.traits[r][t] & IMMUNITY:
                    successes = max(0, successes - 1)
                moved = min(successes, self.power[r][t], self.infl[q][s] - self.power[q][s])
                self.power[r][t] -= moved
                if self.traits[q][s] & AGGRESSION and successes >= self.infl[r][t]:
                    killed = True
        self.power[q][s] += moved
        self.score[q] += moved  # one victory point per Power transferred
        if killed:  # after the Power is transferred
            self.remove_pawn(self.ch_tseat, self.ch_tslot)
        self.last_challenge = (successes, moved, killed)
        target = -1 if self.ch_tseat < 0 else self.ch_tseat * MAX_PAWNS + self.ch_tslot
        self.log.append(("challenge", q, self.ch_card, target, self.ch_tcard, successes, moved, killed))
        if moved:  # a successful challenge (Score victory points): its Pawn's and Attachments' effects
            triggered: dict[int, list[int]] = {}
            if TRIGGER[self.ch_card] == WHEN_WINS:
                triggered[q] = [self.ch_card]
            for card, owner in self.attach[q][s]:
                if TRIGGER[card] == WHEN_WINS:
                    triggered.setdefault(owner, []).append(card)
            self.groups = self._in_turn_order(q, triggered)

    # -- GameState API ---------------------------------------------------------------------------
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
        n = self.n
        if self.placement is not None:
            return zero_sum_returns(self.placement)
        out = np.zeros(n)
        for q in range(n):
            if not self.alive[q]:
                # Out of the game: below every player still in it, above those out before it.
                t = self.out_time[q]
                beat = sum(1 for r in range(n) if not self.alive[r] and self.out_time[r] < t)
                tied = sum(1 for r in range(n) if r != q and not self.alive[r] and self.out_time[r] == t)
                out[q] = (beat - (n - 1 - beat - tied)) / (n - 1)
        return out

    def player_done(self, player: int) -> bool:
        return self.phase == GAME_OVER or not self.alive[player]

    def winners(self) -> list[int]:
        if self.placement is None:
            return []
        return [q for q in range(self.n) if self.placement[q] == 0]

    def scores(self) -> list[float]:
        return [float(x) for x in self.score]

    def info_extras(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "pool": self.pool,
            "draw_count": self.draw_count,
            "deck_sizes": np.array([len(d) for d in self.deck], dtype=np.int16),
            "eliminated": np.array([not a for a in self.alive], dtype=np.int8),
        }

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_legal"] = None  # a cache: two equal states pickle alike whether or not it is filled
        state["obs_cache"] = {}
        state["log"] = []  # the narration of the last move is no part of the game
        del state["acts"]  # the game's own table, rebuilt with the game
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.acts = self.game.actions

    def clone(self) -> MystickState:
        c = MystickState.__new__(MystickState)
        d = self.__dict__.copy()
        for name in (
            "hand_size",
            "score",
            "alive",
            "out_time",
            "known_top",
            "table_version",
            "hand_version",
            "initiative_cards",
            "fate",
            "marked",
        ):
            d[name] = d[name][:]
        for name in (
            "deck",
            "hand",
            "shown",
            "discard",
            "cross",
            "pawn",
            "power",
            "infl",
            "traits",
            "envs",
            "looked",
            "recalled",
        ):
            d[name] = [x[:] for x in d[name]]
        d["noted"] = [[x[:] for x in row] for row in self.noted]
        d["deck_list"] = [x[:] for x in self.deck_list]
        d["attach"] = [[x[:] for x in row] for row in self.attach]
        d["delayed"] = self.delayed[:]
        d["queue"] = self.queue[:]
        d["groups"] = [[g[0], g[1][:]] for g in self.groups]
        d["choice"] = self.choice[:]
        d["placement"] = None if self.placement is None else self.placement[:]
        d["_legal"] = None
        d["obs_cache"] = {}
        d["rng"] = self.rng.copy()
        c.__dict__.update(d)
        return c

    def observation(self, player: int) -> np.ndarray:
        if type(player) is int and 0 <= player < self.n:  # the hot path, checked without a call
            return observe(self, player)
        return observe(self, self.check_seat(player))

    def describe(self, viewer: int | None = None) -> str:
        from mystic_envs.mystick_domination.render import describe

        return describe(self, viewer)

    def check_invariants(self) -> None:
        n = self.n
        owned: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            owned[q].extend(self.deck[q])
            owned[q].extend(self.discard[q])
            owned[q].extend(c for c in self.cross[q] if c >= 0)
            owned[q].extend(self.envs[q])
            owned[q].extend(c for c in self.pawn[q] if c >= 0)
            for c in range(NUM_CARDS):
                owned[q].extend([c] * self.hand[q][c])
                assert 0 <= self.shown[q][c] <= self.hand[q][c], f"seat {q} shows a card it lacks"
            assert sum(self.hand[q]) == self.hand_size[q]
            for r in range(n):
                for s in range(MAX_PAWNS):
                    owned[q].extend(a for a, owner in self.attach[r][s] if owner == q)
            assert 0 <= self.known_top[q] <= len(self.deck[q])
            assert self.score[q] >= 0, f"seat {q} score {self.score[q]}"
            for s in range(MAX_PAWNS):
                if self.pawn[q][s] < 0:
                    assert self.power[q][s] == 0 and not self.attach[q][s]
                else:
                    assert 0 <= self.power[q][s] <= self.infl[q][s], (
                        "a Pawn holds more Power than its influence"
                    )
            if not self.alive[q]:
                assert max(self.pawn[q]) < 0 and not self.envs[q] and max(self.cross[q]) < 0
            elif self.phase != GAME_OVER:
                assert self.deck[q], f"seat {q} plays on with an empty deck"
        if self.resolving >= 0:
            owned[self.mover].append(self.resolving)
        self._check_knowledge()
        for q in range(n):
            assert sorted(owned[q]) == sorted(self.deck_list[q]), (
                f"seat {q}'s 39 cards are not all accounted for"
            )
        on_pawns = sum(sum(row) for row in self.power)
        assert self.pool >= 0
        assert self.pool + on_pawns + self.power_removed == self.pool_start + self.power_created, (
            "Power leaked"
        )
        assert self.draw_count >= 0
        if self.phase != GAME_OVER:
            assert self.draw_count < ROUND_DRAWS or self.phase != MOVE
            assert self.alive[self.player]


__all__ = ["PHASE_NAMES", "MystickGame", "MystickState"]
