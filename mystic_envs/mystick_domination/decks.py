"""Deck construction (rulebook "Deck Construction"): deck lists, named presets, random decks.

A deck is 39 card ids: 14 cards from each of two suits and 11 Major Arcana. Basic construction
allows no duplicates (same suit and rank, or same numeral); advanced allows up to 3 copies of a
card. Every broken rule is a one-line ``ValueError`` naming the deck and the rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from mystic_envs.core.game import is_integer
from mystic_envs.core.rng import Rng
from mystic_envs.mystick_domination.cards import (
    CARD_BY_NAME,
    CARD_NAMES,
    DECK_SIZE,
    IS_MAJOR,
    MAJORS_PER_DECK,
    MAX_COPIES_ADVANCED,
    NUM_CARDS,
    NUM_MAJORS,
    NUM_MINORS,
    SUIT,
    SUIT_CARDS_PER_DECK,
    SUIT_NAMES,
    suit_cards,
)

CONSTRUCTIONS = ("basic", "advanced")
_EVEN_MAJORS = tuple(NUM_MINORS + k for k in range(0, 22, 2))
_ODD_MAJORS = tuple(NUM_MINORS + k for k in range(1, 22, 2))


def _preset(suit_a: int, suit_b: int, majors: tuple[int, ...]) -> tuple[int, ...]:
    return suit_cards(suit_a) + suit_cards(suit_b) + majors


#: Named basic decks. Each line's two decks are the two halves of one 78-card set.
PRESETS: dict[str, tuple[int, ...]] = {
    "wands_cups": _preset(0, 1, _EVEN_MAJORS),
    "swords_pentacles": _preset(2, 3, _ODD_MAJORS),
    "wands_swords": _preset(0, 2, _EVEN_MAJORS),
    "cups_pentacles": _preset(1, 3, _ODD_MAJORS),
    "wands_pentacles": _preset(0, 3, _EVEN_MAJORS),
    "cups_swords": _preset(1, 2, _ODD_MAJORS),
}


def card_id(card: Any, where: str) -> int:
    """A card id from an id or a name ("Five of Wands", "5 of wands", "XIII Death", "Death")."""
    if is_integer(card):
        if not 0 <= card < NUM_CARDS:
            raise ValueError(f"{where}: card id {card} is not in 0-{NUM_CARDS - 1}")
        return int(card)
    if isinstance(card, str):
        cid = CARD_BY_NAME.get(card.strip().lower())
        if cid is None:
            raise ValueError(
                f"{where}: unknown card {card!r} (names look like 'Five of Wands', 'XIII Death')"
            )
        return cid
    raise TypeError(f"{where}: a card is an id (int) or a name (str), got {card!r}")


def validate_deck(cards: Sequence[int], construction: str, where: str) -> None:
    """``ValueError`` naming the first broken deck-construction rule."""
    if len(cards) != DECK_SIZE:
        raise ValueError(
            f"{where}: a deck has {DECK_SIZE} cards (2 suits x 14 + 11 Majors), got {len(cards)}"
        )
    majors = [c for c in cards if IS_MAJOR[c]]
    if len(majors) != MAJORS_PER_DECK:
        raise ValueError(f"{where}: a deck has {MAJORS_PER_DECK} Major Arcana, got {len(majors)}")
    suits = Counter(SUIT[c] for c in cards if not IS_MAJOR[c])
    if len(suits) != 2 or any(v != SUIT_CARDS_PER_DECK for v in suits.values()):
        got = ", ".join(f"{SUIT_NAMES[s]} {k}" for s, k in sorted(suits.items()))
        raise ValueError(f"{where}: a deck has 14 cards from each of exactly 2 suits, got {got}")
    limit = 1 if construction == "basic" else MAX_COPIES_ADVANCED
    for cid, k in sorted(Counter(cards).items()):
        if k > limit:
            rule = "basic decks allow no duplicates" if limit == 1 else "advanced decks allow up to 3 copies"
            raise ValueError(f"{where}: {rule}, got {k} copies of {CARD_NAMES[cid]}")


def parse_decks(decks: Any, num_players: int, construction: str) -> tuple[tuple[int, ...] | None, ...]:
    """The ``decks=`` keyword as one entry per seat: a tuple of 39 ids, or None for a random deck.

    ``decks`` is ``"random"`` (every seat), a preset name (every seat), or a sequence of one entry
    per seat, each ``"random"``, a preset name or a list of cards (ids or names).
    """
    if construction not in CONSTRUCTIONS:
        raise ValueError(f"construction must be one of {CONSTRUCTIONS}, got {construction!r}")
    if decks is None or isinstance(decks, str):
        entries: list[Any] = [decks] * num_players
    elif isinstance(decks, Sequence):
        entries = list(decks)
        if len(entries) != num_players:
            raise ValueError(f"decks needs one entry per player ({num_players}), got {len(entries)}")
    else:
        raise TypeError(f"decks must be 'random', a preset name or a list of decks, got {decks!r}")
    out: list[tuple[int, ...] | None] = []
    for seat, entry in enumerate(entries):
        where = f"deck of player_{seat}"
        if entry is None or entry == "random":
            out.append(None)
        elif isinstance(entry, str):
            if entry not in PRESETS:
                raise ValueError(f"{where}: unknown preset {entry!r}; presets: random, {', '.join(PRESETS)}")
            out.append(PRESETS[entry])
        elif isinstance(entry, Sequence):
            ids = tuple(card_id(c, where) for c in entry)
            validate_deck(ids, construction, where)
            out.append(tuple(sorted(ids)))
        else:
            raise TypeError(f"{where}: a deck is 'random', a preset name or a list of cards, got {entry!r}")
    return tuple(out)


def random_decks(num_players: int, rng: Rng) -> list[list[int]]:
    """Random legal basic decks. Two players split one 78-card set (two suits and 11 Majors each,
    as the boxed game is played); more players each build from a set of their own."""
    if num_players == 2:
        suits = rng.permutation(4)
        majors = [NUM_MINORS + k for k in rng.permutation(NUM_MAJORS)]
        halves = [(suits[:2], majors[:MAJORS_PER_DECK]), (suits[2:], majors[MAJORS_PER_DECK:])]
        return [sorted(suit_cards(a) + suit_cards(b) + tuple(m)) for (a, b), m in halves]
    out = []
    for _ in range(num_players):
        a, b = rng.sample(4, 2)
        majors = [NUM_MINORS + k for k in rng.sample(NUM_MAJORS, MAJORS_PER_DECK)]
        out.append(sorted(suit_cards(a) + suit_cards(b) + tuple(majors)))
    return out
