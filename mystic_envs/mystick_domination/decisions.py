"""Mystick Domination decisions: the phases, the fixed action space and the legal-action mask and
``apply`` of every sub-decision, as a mixin of the state (``rules.MystickState``).

A move is an atomic action in phase ``move`` (play a card, draw, challenge with a Pawn, a special
move); its follow-up choices (the Resources extras, a challenge's target, an Attachment's Pawn, an
effect's target, the redraw marks, the order of simultaneous effects) are atomic actions of their
own phases, each with its own mask.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.mystick_domination.cards import (
    ACTION,
    AFTER_NEXT_INITIATIVE,
    ATTACHMENT,
    CARD_NAMES,
    CROSS_SPACES,
    EFFECTS,
    ENVIRONMENT,
    MAX_PAWNS,
    NUM_CARDS,
    PAWN,
    PLAYER_TARGETS,
    RESOURCES,
    SPECIAL_CARDS,
    TRIGGER,
    TYPE,
)

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState

# --- phases ---------------------------------------------------------------------------------------
MOVE, RESOURCES_CHOICE, CHALLENGE_TARGET, ATTACH_TARGET, EFFECT_TARGET, REDRAW, ORDER, GAME_OVER = range(8)
PHASE_NAMES = (
    "move",
    "resources",
    "challenge_target",
    "attach_target",
    "effect_target",
    "redraw",
    "order_effects",
    "game_over",
)
# What to do once the pending effects have resolved.
CONT_END_MOVE, CONT_FATE_DRAW, CONT_FINISH_CHALLENGE, CONT_START_MOVES = range(4)
MAX_EXTRA = MAX_PAWNS  # Resources: one extra draw per Pawn with Resources
REGISTER = -1  # queue entry: register the card's effects for after the next initiative draw

SPECIAL_INDEX = {c: k for k, c in enumerate(SPECIAL_CARDS)}
CARD_IDS = range(NUM_CARDS)
# How a card in hand may be played: always (Environments, "after the next initiative" Actions),
# into a free Pawn slot, onto a Pawn in play, if its effect can act now (Actions), never (Majors).
PLAY_ALWAYS, PLAY_PAWN, PLAY_ATTACHMENT, PLAY_IF_USABLE, PLAY_NEVER = range(5)
PLAY_KIND = tuple(
    PLAY_ALWAYS
    if TYPE[c] == ENVIRONMENT or (TYPE[c] == ACTION and TRIGGER[c] == AFTER_NEXT_INITIATIVE)
    else PLAY_PAWN
    if TYPE[c] == PAWN
    else PLAY_ATTACHMENT
    if TYPE[c] == ATTACHMENT
    else PLAY_IF_USABLE
    if TYPE[c] == ACTION
    else PLAY_NEVER
    for c in range(NUM_CARDS)
)


class ActionLayout:
    """The fixed action space for ``n`` players. Seats in targets are relative to the chooser
    (r = 0 is the chooser, r = 1 the next seat in turn order ...)."""

    def __init__(self, n: int) -> None:
        self.card = 0  # + card id: play it from hand (move) / resolve its effect next (order_effects);
        # the engine's move mask relies on this group starting at 0
        self.draw = NUM_CARDS
        self.extra = self.draw + 1  # + k: draw k extra cards with Resources
        self.challenger = self.extra + MAX_EXTRA + 1  # + slot: challenge with your Pawn in that slot
        self.pool = self.challenger + MAX_PAWNS  # target the pool
        self.pawn = self.pool + 1  # + r * MAX_PAWNS + slot: target that Pawn
        self.player = self.pawn + n * MAX_PAWNS  # + r: target that player
        self.mark = self.player + n  # + space: mark that Fate card for the redraw
        self.done = self.mark + CROSS_SPACES  # redraw the marked cards (none: keep them all)
        self.special = self.done + 1  # + k: use the special move of SPECIAL_CARDS[k]
        self.size = self.special + len(SPECIAL_CARDS)
        self.n = n
        self.meanings = tuple(self._meaning(a) for a in range(self.size))

    def _meaning(self, a: int) -> str:
        if a < self.draw:
            return f"card {CARD_NAMES[a]}: play it / resolve its effect next"
        if a == self.draw:
            return "draw"
        if a < self.challenger:
            return f"draw {a - self.extra} extra card(s) (Resources)"
        if a < self.pool:
            return f"challenge with your Pawn in slot {a - self.challenger}"
        if a == self.pool:
            return "target the pool"
        if a < self.player:
            r, s = divmod(a - self.pawn, MAX_PAWNS)
            return f"target the Pawn in slot {s} of {_seat_name(r)}"
        if a < self.mark:
            return f"target {_seat_name(a - self.player)}"
        if a < self.done:
            return f"redraw the Fate card in space {a - self.mark + 1}"
        if a == self.done:
            return "redraw the marked Fate cards (none marked: keep them all)"
        return f"special move of {CARD_NAMES[SPECIAL_CARDS[a - self.special]]}"


def _seat_name(r: int) -> str:
    if r == 0:
        return "yourself"
    return "the next player" if r == 1 else f"the player {r} seats after you"


class DecisionsMixin:
    """Legal actions and their application; mixed into ``MystickState``."""

    def resources(self: MystickState, q: int) -> int:
        """How many Pawns ``q`` controls with Resources (extra draws a draw move may take)."""
        return sum(1 for s in range(MAX_PAWNS) if self.pawn[q][s] >= 0 and self.traits[q][s] & RESOURCES)

    def legal_actions(self: MystickState) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self: MystickState) -> list[int]:
        A = self.acts
        phase, p = self.phase, self.player
        if phase == MOVE:
            out = []
            any_pawn = None  # asked only when an Attachment is held
            free_slot = min(self.pawn[p]) < 0
            for c in compress(CARD_IDS, self.hand[p]):  # the cards held, without scanning in Python
                kind = PLAY_KIND[c]
                if kind == PLAY_ATTACHMENT and any_pawn is None:
                    any_pawn = any(self.alive[q] and max(self.pawn[q]) >= 0 for q in range(self.n))
                if (
                    kind == PLAY_ALWAYS
                    or (kind == PLAY_PAWN and free_slot)
                    or (kind == PLAY_ATTACHMENT and any_pawn)
                    or (kind == PLAY_IF_USABLE and self.effect_usable(p, EFFECTS[c]))
                ):
                    out.append(c)  # A.card is 0
            out.append(A.draw)
            if min(self.cross[p]) < 0:  # a full cross forbids challenging
                pawns, power, infl = self.pawn[p], self.power[p], self.infl[p]
                for s in range(MAX_PAWNS):
                    if (
                        pawns[s] >= 0
                        and infl[s] > power[s]
                        and (self.pool or self.challenge_targets(p, s, pawns_only=True))
                    ):
                        out.append(A.challenger + s)
            if self.envs[p]:
                specials = sorted({SPECIAL_INDEX[c] for c in self.envs[p] if c in SPECIAL_INDEX})
                out.extend(
                    A.special + k for k in specials if self.effect_usable(p, EFFECTS[SPECIAL_CARDS[k]])
                )
            return out
        if phase == RESOURCES_CHOICE:
            return [A.extra + k for k in range(self.resources_max + 1)]
        if phase == CHALLENGE_TARGET:
            return sorted(self._target_action(t) for t in self.challenge_targets(p, self.ch_slot))
        if phase in (ATTACH_TARGET, EFFECT_TARGET):
            if self.choice and phase == EFFECT_TARGET and self._choice_is_player():
                return sorted(A.player + (q - p) % self.n for q in self.choice)
            return sorted(self._target_action(t) for t in self.choice)
        if phase == REDRAW:
            return [A.mark + j for j in sorted(self.fate) if j not in self.marked] + [A.done]
        if phase == ORDER:
            return sorted(A.card + c for c in set(self.groups[0][1]))
        return []

    def _choice_is_player(self: MystickState) -> bool:
        _, card, k = self.queue[0]
        return EFFECTS[card][k].target in PLAYER_TARGETS

    def _target_action(self: MystickState, target: int) -> int:
        """Action for a pawn code (or -1, the pool), relative to the player to act."""
        if target < 0:
            return self.acts.pool
        q, s = divmod(target, MAX_PAWNS)
        return self.acts.pawn + ((q - self.player) % self.n) * MAX_PAWNS + s

    def _action_target(self: MystickState, action: int) -> int:
        r, s = divmod(action - self.acts.pawn, MAX_PAWNS)
        return ((self.player + r) % self.n) * MAX_PAWNS + s

    def legal_mask(self: MystickState) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=bool)
        if self._legal is None:
            self._legal = self._compute_legal()
        mask[self._legal] = True
        return mask

    def is_legal(self: MystickState, action: int) -> bool:
        if self._legal is None:
            self._legal = self._compute_legal()
        return action in self._legal

    def _apply(self: MystickState, action: int) -> None:
        self._legal = None
        self.log = []
        A = self.acts
        phase, p = self.phase, self.player
        if phase == MOVE:
            self.mover = p
            if action < A.draw:
                self._play(p, action)
            elif action == A.draw:
                self.draw_count += 1  # once per draw move, whatever else is drawn
                self.draw_to_hand(p, 1)
                self._check_out()
                if self.phase == GAME_OVER:
                    return
                r = self.resources(p) if self.alive[p] else 0
                if r:
                    self.resources_max = min(r, MAX_EXTRA)
                    self.phase = RESOURCES_CHOICE
                    return
                self._end_move()
            elif action < A.pool:
                self.ch_slot = action - A.challenger
                self.ch_card = self.pawn[p][self.ch_slot]
                targets = self.challenge_targets(p, self.ch_slot)
                if len(targets) == 1:
                    self._declare(targets[0])
                else:
                    self.phase = CHALLENGE_TARGET
            else:
                card = SPECIAL_CARDS[action - A.special]
                self.cont = CONT_END_MOVE
                self._enqueue(p, card)
                self._run()
        elif phase == RESOURCES_CHOICE:
            self.draw_to_hand(p, action - A.extra)
            self.resources_max = 0
            self._check_out()
            if self.phase != GAME_OVER:
                self._end_move()
        elif phase == CHALLENGE_TARGET:
            self._declare(-1 if action == A.pool else self._action_target(action))
        elif phase == ATTACH_TARGET:
            q, s = divmod(self._action_target(action), MAX_PAWNS)
            card = self.pending_card
            self.pending_card = -1
            self.choice = []
            self._from_hand(p, card)
            self.attach[q][s].append((card, p))
            self.table_version[q] += 1
            self.refresh_pawns()
            self._end_move()
        elif phase == EFFECT_TARGET:
            if action >= A.player and action < A.mark:
                target = (p + action - A.player) % self.n
            else:
                target = self._action_target(action)
            owner, card, k = self.queue.pop(0)
            self.choice = []
            self.resolve_effect(owner, EFFECTS[card][k], target)
            self._check_out()
            self._run()
        elif phase == REDRAW:
            if action == A.done:
                self._redraw()
            else:
                self.marked.append(action - A.mark)
        elif phase == ORDER:
            owner, cards = self.groups[0]
            c = action - A.card
            cards.remove(c)
            self._enqueue(owner, c)
            self._run()

    def _play(self: MystickState, p: int, c: int) -> None:
        t = TYPE[c]
        if t == ENVIRONMENT:
            self._from_hand(p, c)
            self.envs[p].append(c)
            self.table_version[p] += 1
            self.refresh_pawns()
            self._end_move()
        elif t == PAWN:
            self._from_hand(p, c)
            s = self.pawn[p].index(-1)
            self.pawn[p][s] = c
            self.table_version[p] += 1
            self.power[p][s] = 0
            self.refresh_pawns()
            self._end_move()
        elif t == ATTACHMENT:
            self.pending_card = c
            self.show_in_hand(p, c)  # played face up: everyone sees it while its Pawn is chosen
            self.choice = [
                q * MAX_PAWNS + s
                for q in range(self.n)
                if self.alive[q]
                for s in range(MAX_PAWNS)
                if self.pawn[q][s] >= 0
            ]
            if len(self.choice) == 1:
                self.phase = ATTACH_TARGET
                self._apply(self._target_action(self.choice[0]))
            else:
                self.phase = ATTACH_TARGET
        else:  # ACTION: resolve, then discard
            self._from_hand(p, c)
            self.resolving = c
            self.cont = CONT_END_MOVE
            self._enqueue(p, c, now=False)
            self._run()
