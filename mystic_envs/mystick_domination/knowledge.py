"""Who knows what in Mystick Domination (docs D-5 and I-10), as a mixin of the state.

Public: ``shown`` (face-up cards in a hand), ``known_top[q]`` (how many of q's top deck cards
somebody has looked at: a look is seen to happen) and ``recalled[q]`` (cards everyone saw go back
into q's deck: shuffled back from the discard pile). Private to seat p: ``looked[p][q]`` (how many
of q's top deck cards p has looked at, in order) and ``noted[p][q]`` (cards p knows are among q's
cards hidden from p: looked at, then drawn into q's hand or shuffled into q's deck). ``notes``
counts the entries of ``recalled`` and ``noted``, so the hot path skips all of it in the usual
game where nobody looks or shuffles. ``determinize`` re-deals what a seat cannot see from these.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from mystic_envs.core.game import check_rng
from mystic_envs.core.rng import Rng, from_generator
from mystic_envs.mystick_domination.cards import (
    CLEAR_CROSS,
    IS_MAJOR,
    MAJORS_PER_DECK,
    MAX_COPIES_ADVANCED,
    NUM_CARDS,
    NUM_MINORS,
    PEEK,
    RECOVER,
    SUIT,
    SUIT_CARDS_PER_DECK,
    T_NONE,
    Effect,
    suit_cards,
)

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState


_MAJOR_CARDS = tuple(range(NUM_MINORS, NUM_CARDS))


class KnowledgeMixin:
    """What each seat knows of the others' cards; mixed into ``MystickState``."""

    def clear_knowledge(self: MystickState) -> None:
        """Nobody has looked at a deck or seen a card go back into one (a fresh table)."""
        n = self.n
        self.known_top = [0] * n
        self.looked = [[0] * n for _ in range(n)]
        self.noted = [[[] for _ in range(n)] for _ in range(n)]
        self.recalled = [[] for _ in range(n)]
        self.notes = 0

    def _recall(self: MystickState, q: int, c: int) -> None:
        self.recalled[q].append(c)
        self.notes += 1

    def _note(self: MystickState, p: int, q: int, c: int) -> None:
        self.noted[p][q].append(c)
        self.notes += 1

    def _unnote(self: MystickState, p: int, q: int, c: int) -> None:
        notes = self.noted[p][q]
        if c in notes:
            notes.remove(c)
            self.notes -= 1

    def _surface(self: MystickState, q: int, c: int) -> None:
        """A card of ``q`` hidden from everyone is seen (played, discarded, drawn as Fate): it may
        be the one a seat knew was hidden, so each such note loses one copy (a lower bound)."""
        if c in self.recalled[q]:
            self.recalled[q].remove(c)
            self.notes -= 1
        for p in range(self.n):
            if p != q:
                self._unnote(p, q, c)

    def looked_top(self: MystickState, viewer: int | None, q: int) -> int:
        """How many of ``q``'s top deck cards ``viewer`` knows (None, the public table: none)."""
        return 0 if viewer is None else self.looked[viewer][q]

    def known_hidden(self: MystickState, p: int, q: int) -> dict[int, int]:
        """Card -> copies that seat ``p`` knows are among ``q``'s cards hidden from ``p`` (its deck
        below the cards ``p`` looked at, and the hand's face-down cards): a lower bound from
        ``recalled`` and ``noted``; a card on top that ``p`` looked at may be a recalled one."""
        out: dict[int, int] = {}
        for c in self.recalled[q]:
            out[c] = out.get(c, 0) + 1
        if out and self.looked[p][q]:
            deck = self.deck[q]
            for c in deck[len(deck) - self.looked[p][q] :]:
                if out.get(c):
                    out[c] -= 1
        mine: dict[int, int] = {}
        for c in self.noted[p][q]:
            mine[c] = mine.get(c, 0) + 1
        for c, k in mine.items():
            if k > out.get(c, 0):
                out[c] = k
        return {c: k for c, k in out.items() if k > 0}

    def show_in_hand(self: MystickState, q: int, c: int) -> None:
        """A card of ``q``'s hand is turned face up (an Attachment waiting for its Pawn)."""
        if self.shown[q][c] < self.hand[q][c]:
            self.shown[q][c] += 1
            self.hand_version[q] += 1
            if self.notes:
                self._surface(q, c)

    def resolve_effect(self: MystickState, owner: int, eff: Effect, target: int) -> None:
        """``effects.resolve_effect``, and who learns what by it: a look is the looker's alone
        (I-10); a shuffle of cards from the discard pile into the deck is seen by everyone."""
        op = eff.op
        if op == PEEK:
            before = self.looked[owner][target]
            super().resolve_effect(owner, eff, target)
            k = min(eff.amount, len(self.deck[target]))
            if k > before:
                self.looked[owner][target] = k
                if self.notes:
                    deck = self.deck[target]
                    for c in deck[len(deck) - k : len(deck) - before]:
                        self._unnote(owner, target, c)
        elif op == RECOVER or (op == CLEAR_CROSS and eff.amount):
            # Cards from a public place (the discard pile; Ebb Tide's cross) shuffled into a deck.
            q = owner if op == RECOVER or eff.target == T_NONE else target
            if op == RECOVER:
                pile = self.discard[q]
                back = pile[len(pile) - min(eff.amount, len(pile)) :]
            else:
                back = [c for c in self.cross[q] if c >= 0][: eff.amount]
            deck = self.deck[q]
            tops = [(p, deck[len(deck) - self.looked[p][q] :]) for p in range(self.n) if self.looked[p][q]]
            super().resolve_effect(owner, eff, target)
            if back:  # the deck was shuffled: a look at its top is only a look at its contents now
                self.pile_epoch += 1
                for p, cards in tops:
                    self.looked[p][q] = 0
                    for c in cards:
                        self._note(p, q, c)
                for c in back:
                    self._recall(q, c)
        else:
            super().resolve_effect(owner, eff, target)

    def determinize(self: MystickState, player: int, rng: np.random.Generator) -> MystickState:
        """Re-deal what ``player`` cannot see (D-5, I-10): every deck below the top cards
        ``player`` looked at, and the other hands' face-down cards (Minors only: a Major never
        stays in a hand). Where an opponent's deck list is hidden (3-5 players, or chosen decks),
        its unseen cards are a fresh legal deck's (``_sample_unseen``), holding every card
        ``player`` has seen; with two random decks, one 78-card set split in two, the opponent
        holds the rest of the set. What the other seats privately know is not ``player``'s to
        keep: in the copy they remember no card beyond the deck tops they looked at."""
        self.check_seat(player)
        # One draw of the caller's generator seeds the core generator that both re-deals and then
        # carries the copy's chance, so the compiled twin, handed the same draw, does the same.
        chance = from_generator(check_rng(rng))
        c = self.clone()
        for q in range(self.n):
            deck = c.deck[q]
            split = len(deck) - self.looked[player][q]
            hand_slots = 0
            if q == player:
                unseen = sorted(deck[:split])
            else:
                hand, shown = c.hand[q], c.shown[q]
                face_down = [h - v for h, v in zip(hand, shown, strict=True)]
                hand_slots = sum(face_down)
                if hand_slots:
                    c.hand[q] = shown[:]
                if self.game.deck_lists_public:
                    unseen = deck[:split]
                    for card, k in enumerate(face_down):
                        if k:
                            unseen += [card] * k
                    unseen.sort()
                else:
                    unseen, c.deck_list[q] = self._sample_unseen(player, q, split + hand_slots, chance)
            if hand_slots:
                # The face-down hand cards are Minors; everything else goes into the deck, shuffled.
                minors = [k for k, card in enumerate(unseen) if not IS_MAJOR[card]]
                to_hand = {minors[i] for i in chance.sample(len(minors), hand_slots)}
                row = c.hand[q]
                for k in to_hand:
                    row[unseen[k]] += 1
                unseen = [card for k, card in enumerate(unseen) if k not in to_hand]
            chance.shuffle(unseen)
            c.deck[q] = unseen + deck[split:]
        for r in range(self.n):
            if r != player:
                c.noted[r] = [[] for _ in range(self.n)]
        c.notes = sum(len(x) for x in c.recalled) + sum(len(x) for x in c.noted[player])
        c.rng = chance
        return c

    def _table_cards(self: MystickState, q: int) -> list[int]:
        """``q``'s cards that everyone sees: discard pile, cross, play area, the card resolving."""
        out = list(self.discard[q])
        out += [c for c in self.cross[q] if c >= 0]
        out += self.envs[q]
        out += [c for c in self.pawn[q] if c >= 0]
        for row in self.attach:
            for atts in row:
                for a, owner in atts:
                    if owner == q:
                        out.append(a)
        if self.resolving >= 0 and self.mover == q:
            out.append(self.resolving)
        return out

    def visible_cards(self: MystickState, p: int, q: int) -> list[int]:
        """``q``'s cards that seat ``p`` sees now (for ``p == q``: all but its deck)."""
        out = self._table_cards(q)
        for card, k in enumerate(self.hand[q] if p == q else self.shown[q]):
            if k:
                out += [card] * k
        deck = self.deck[q]
        out += deck[len(deck) - self.looked[p][q] :]
        return out

    def cards_of(self: MystickState, q: int) -> list[int]:
        """Every one of ``q``'s 39 cards, wherever it is."""
        out = self._table_cards(q) + self.deck[q]
        for card, k in enumerate(self.hand[q]):
            if k:
                out += [card] * k
        return out

    def _sample_unseen(
        self: MystickState, p: int, q: int, size: int, rng: Rng
    ) -> tuple[list[int], list[int]]:
        """``size`` cards that, with the cards of ``q`` seat ``p`` sees, make a legal deck of the
        game's construction (D-5) holding every card ``p`` knows is hidden; suits, Majors and
        copies not yet seen are drawn from ``rng``. Returns those cards and the whole deck list."""
        visible = [0] * NUM_CARDS
        for c in self._table_cards(q):
            visible[c] += 1
        for c, k in enumerate(self.shown[q]):
            visible[c] += k
        deck_now = self.deck[q]
        for c in deck_now[len(deck_now) - self.looked[p][q] :]:
            visible[c] += 1
        seen = visible[:]
        if self.notes:
            for c, k in self.known_hidden(p, q).items():
                seen[c] += k
        known_suits = sorted({SUIT[c] for c in range(NUM_MINORS) if seen[c]})
        others = [s for s in range(4) if s not in known_suits]
        assert len(known_suits) <= 2, f"seat {q} shows cards of {len(known_suits)} suits"
        if len(known_suits) < 2:
            picked = rng.sample(len(others), 2 - len(known_suits))
            known_suits = sorted(known_suits + [others[i] for i in picked])
        suits = known_suits
        copies = 1 if self.game.construction == "basic" else MAX_COPIES_ADVANCED
        deck = [0] * NUM_CARDS
        groups = [(suit_cards(s), SUIT_CARDS_PER_DECK) for s in suits]
        groups.append((_MAJOR_CARDS, MAJORS_PER_DECK))
        for cards, total in groups:
            slots = []
            need = total
            for c in cards:
                k = seen[c]
                deck[c] = k
                need -= k
                if k < copies:
                    slots += [c] * (copies - k)
            assert 0 <= need <= len(slots), f"seat {q}'s seen cards break the deck construction rules"
            if need == len(slots):  # no choice left: no draw, so both engines skip the same ones
                for c in slots:
                    deck[c] += 1
            elif need:
                for k in rng.sample(len(slots), need):
                    deck[slots[k]] += 1
        deck_list = []
        out = []
        for c, k in enumerate(deck):
            if k:
                deck_list += [c] * k
                if k > visible[c]:
                    out += [c] * (k - visible[c])
        assert len(out) == size, f"re-dealt {len(out)} unseen cards of seat {q}, expected {size}"
        return out, deck_list

    def _check_knowledge(self: MystickState) -> None:
        """What a seat knows is true: the cards it knows are hidden are there, looks and notes
        are counted, and a seat never looks at its own deck."""
        n = self.n
        assert self.notes == sum(len(x) for x in self.recalled) + sum(len(x) for r in self.noted for x in r)
        for q in range(n):
            deck = self.deck[q]
            face_down = [c for c in range(NUM_CARDS) for _ in range(self.hand[q][c] - self.shown[q][c])]
            assert self.known_top[q] == max(self.looked[p][q] for p in range(n)), "known_top is not the looks"
            assert self.looked[q][q] == 0 and not self.noted[q][q]
            hidden = Counter(deck) + Counter(face_down)
            assert not Counter(self.recalled[q]) - hidden, f"seat {q}: a recalled card is not hidden"
            for p in range(n):
                if p == q:
                    continue
                below = Counter(deck[: len(deck) - self.looked[p][q]]) + Counter(face_down)
                assert not Counter(self.noted[p][q]) - below, (
                    f"seat {p}'s note of seat {q} is not hidden from it"
                )
