"""The interpreter of the card effect vocabulary (``cards.py`` opcodes), as a mixin of the state.

Each :class:`~mystic_envs.mystick_domination.cards.Effect` row is resolved by ``resolve_effect``
with its target already chosen; ``effect_targets`` lists the legal choices of a row (None when it
needs no choice). "You" is always the card's owner, the player who played it (Q&A).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystick_domination.cards import (
    CLEAR_CROSS,
    CROSS_SPACES,
    DRAW,
    DRAW_COUNT,
    EXTRA_MOVE,
    FLOOD,
    IS_MAJOR,
    KILL,
    LOSE_SCORE,
    MAX_PAWNS,
    MILL,
    MOVE_FIRST,
    PEEK,
    POWER_CREATE,
    POWER_DESTROY,
    POWER_FROM_POOL,
    POWER_TO_POOL,
    RECOVER,
    SCORE,
    SCORE_PER_CROSS_MAJOR,
    SUCCESS,
    T_ANY_PLAYER,
    T_CHALLENGE_TARGET,
    T_CHALLENGER,
    T_EACH_OPPONENT,
    T_ENEMY_PAWN,
    T_NONE,
    T_OPPONENT,
    T_OWN_PAWN_EMPTY,
    T_OWN_PAWN_ROOM,
    T_PAWN_WITH_POWER,
    T_SELF,
    Effect,
)

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState

_CHOICE_PAWN = (T_OWN_PAWN_ROOM, T_PAWN_WITH_POWER, T_ENEMY_PAWN, T_OWN_PAWN_EMPTY)
_CHOICE_PLAYER = (T_OPPONENT, T_ANY_PLAYER)


class EffectsMixin:
    """Targets and resolution of effect rows; mixed into ``MystickState``."""

    def effect_targets(self: MystickState, owner: int, eff: Effect) -> list[int] | None:
        """Legal choices for ``eff`` owned by ``owner``: pawn codes (seat * MAX_PAWNS + slot) or
        seats; None if the row needs no choice."""
        t = eff.target
        if t in _CHOICE_PAWN:
            out = []
            for q in range(self.n):
                if (
                    not self.alive[q]
                    or (t == T_ENEMY_PAWN and q == owner)
                    or (t in (T_OWN_PAWN_ROOM, T_OWN_PAWN_EMPTY) and q != owner)
                ):
                    continue
                pawns, power, infl = self.pawn[q], self.power[q], self.infl[q]
                for s in range(MAX_PAWNS):
                    if pawns[s] < 0:
                        continue
                    if t == T_OWN_PAWN_ROOM and power[s] >= infl[s]:
                        continue
                    if t == T_OWN_PAWN_EMPTY and (power[s] > 0 or infl[s] <= 0):
                        continue
                    if t == T_PAWN_WITH_POWER and power[s] == 0:
                        continue
                    out.append(q * MAX_PAWNS + s)
            return out
        if t in _CHOICE_PLAYER:
            return [q for q in range(self.n) if self.alive[q] and (t == T_ANY_PLAYER or q != owner)]
        return None

    def effect_usable(self: MystickState, owner: int, effects: tuple[Effect, ...]) -> bool:
        """Whether an Action or special move may be used now: every chosen target exists, and its
        first row would do something (no lowering a Draw Count of 0, no clearing an empty cross)."""
        for eff in effects:
            targets = self.effect_targets(owner, eff)
            if targets is not None and not targets:
                return False
        for eff in effects:
            op = eff.op
            if op == DRAW_COUNT and eff.amount < 0 and self.draw_count == 0:
                return False
            if op == CLEAR_CROSS and eff.target == T_NONE and max(self.cross[owner]) < 0:
                return False
            if op == POWER_FROM_POOL and self.pool == 0:
                return False
            if op == RECOVER and not self.discard[owner]:
                return False
        return True

    def _room(self: MystickState, q: int, s: int) -> int:
        return self.infl[q][s] - self.power[q][s]

    def _seats(self: MystickState, owner: int, eff: Effect, target: int) -> list[int]:
        """The players a player-targeted row acts on: every opponent still in, you, or the chosen one."""
        if eff.target == T_EACH_OPPONENT:
            return [q for q in range(self.n) if q != owner and self.alive[q]]
        return [owner if eff.target == T_SELF else target]

    def _pawn_target(self: MystickState, eff: Effect, target: int) -> tuple[int, int] | None:
        """The (seat, slot) an effect row acts on, or None if that Pawn is gone."""
        if eff.target == T_CHALLENGER:
            if self.ch_slot < 0 or self.pawn[self.mover][self.ch_slot] != self.ch_card:
                return None
            return self.mover, self.ch_slot
        if eff.target == T_CHALLENGE_TARGET:
            if self.ch_tseat < 0 or self.pawn[self.ch_tseat][self.ch_tslot] != self.ch_tcard:
                return None
            return self.ch_tseat, self.ch_tslot
        q, s = divmod(target, MAX_PAWNS)
        if self.pawn[q][s] < 0:
            return None
        return q, s

    def resolve_effect(self: MystickState, owner: int, eff: Effect, target: int) -> None:
        """Resolve one row; ``target`` is the chosen pawn code or seat (-1 if none was chosen)."""
        op, amount = eff.op, eff.amount
        if op == SCORE:
            self.score[owner] += amount
        elif op == SCORE_PER_CROSS_MAJOR:
            self.score[owner] += amount * sum(1 for c in self.cross[owner] if c >= 0 and IS_MAJOR[c])
        elif op == LOSE_SCORE:
            for q in self._seats(owner, eff, target):
                self.score[q] = max(0, self.score[q] - amount)  # zero is the minimum (Q&A)
        elif op in (POWER_FROM_POOL, POWER_CREATE, POWER_DESTROY, POWER_TO_POOL):
            where = self._pawn_target(eff, target)
            if where is None:
                return
            q, s = where
            if op == POWER_FROM_POOL:
                k = min(amount, self.pool, self._room(q, s))
                self.pool -= k
                self.power[q][s] += k
            elif op == POWER_CREATE:
                k = min(amount, self._room(q, s))
                self.power_created += k
                self.power[q][s] += k
            elif op == POWER_DESTROY:
                k = min(amount, self.power[q][s])
                self.power_removed += k
                self.power[q][s] -= k
            else:
                k = min(amount, self.power[q][s])
                self.pool += k
                self.power[q][s] -= k
        elif op == KILL:
            where = self._pawn_target(eff, target)
            if where is not None:
                self.remove_pawn(*where)
        elif op == DRAW_COUNT:
            self.draw_count = max(0, self.draw_count + amount)
        elif op == DRAW:
            self.draw_to_hand(owner, amount)
        elif op == MILL:
            for q in self._seats(owner, eff, target):
                for _ in range(amount):
                    if not self.deck[q]:
                        break
                    self.discard[q].append(self.take_top(q))
        elif op == RECOVER:
            pile = self.discard[owner]
            k = min(amount, len(pile))
            if k:
                back = pile[-k:]
                del pile[-k:]
                deck = self.deck[owner]
                deck.extend(back)
                self.rng.shuffle(deck)
                self.known_top[owner] = 0  # a shuffled deck shows nobody its order
        elif op == PEEK:
            self.known_top[target] = max(self.known_top[target], min(amount, len(self.deck[target])))
        elif op == FLOOD:
            for q in self._seats(owner, eff, target):
                for _ in range(amount):
                    if not self.deck[q]:
                        break
                    self.place_in_cross(q, self.take_top(q))
        elif op == CLEAR_CROSS:
            q = owner if eff.target == T_NONE else target
            if amount:  # its first `amount` cards shuffled into its deck, the rest discarded
                cross = self.cross[q]
                back = [c for c in cross if c >= 0][:amount]
                for c in back:
                    cross[cross.index(c)] = -1
                deck = self.deck[q]
                deck.extend(back)
                self.rng.shuffle(deck)
                self.known_top[q] = 0  # a shuffled deck shows nobody its order
            self.clear_cross(q)
        elif op == SUCCESS:
            if self.ch_slot >= 0:
                self.ch_bonus += amount
        elif op == EXTRA_MOVE:
            self.extra_move = True
        elif op == MOVE_FIRST:
            self.first_mover = owner if target < 0 else target

    def place_in_cross(self: MystickState, q: int, card: int) -> int:
        """Put ``card`` on the first open space of ``q``'s cross (its space), or discard it (-1)."""
        cross = self.cross[q]
        for j in range(CROSS_SPACES):
            if cross[j] < 0:
                cross[j] = card
                return j
        self.discard[q].append(card)
        return -1

    def clear_cross(self: MystickState, q: int) -> None:
        cross = self.cross[q]
        for j in range(CROSS_SPACES):
            if cross[j] >= 0:
                self.discard[q].append(cross[j])
                cross[j] = -1
