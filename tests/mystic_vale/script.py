"""Position helpers for Mystic Vale rule tests: craft cards, lay out a player's zones, play moves.

Every helper keeps the engine's invariants: an advancement sleeved by ``craft`` is taken out of the
box, a level deck or the Fertile Soil supply; a vale given by ``give_vales`` comes out of a vale
deck; a commons or vale row is set by swapping cards with the decks. Card indices are the starting
deck's: 0-2 Cursed Land (top), 3-5 (middle), 6-8 (bottom), 9-11 Fertile Soil (top, middle,
bottom), 12-19 blank.
"""

from __future__ import annotations

from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.cards import ADVANCEMENT_BY_NAME, ADVANCEMENTS, FERTILE_SOIL, VALE_BY_NAME
from mystic_envs.mystic_vale.rules import ValeGame, ValeState
from mystic_envs.mystic_vale.sleeves import profile

CURSED = {"top": [0, 1, 2], "middle": [3, 4, 5], "bottom": [6, 7, 8]}
FERTILE_CARD = {"top": 9, "middle": 10, "bottom": 11}
BLANKS = list(range(12, 20))


def aid(name: str) -> int:
    return ADVANCEMENT_BY_NAME[name.lower()]


def vid(name: str) -> int:
    return VALE_BY_NAME[name.lower()]


def new(n: int = 2, seed: int = 0) -> ValeState:
    return ValeGame(n).new_initial_state(seed)


def _take_advancement(s: ValeState, a: int) -> None:
    if a in FERTILE_SOIL:
        slot = FERTILE_SOIL.index(a)
        assert s.fertile[slot] > 0
        s.fertile[slot] -= 1
        return
    for pile in (s.l1_box, *s.level_deck):
        if a in pile:
            pile.remove(a)
            return
    k = s.commons.index(a)  # only face up: replace it from its deck
    s.commons[k] = s._replacement(k // 3)


def craft(s: ValeState, q: int, c: int, *names: str) -> None:
    """Sleeve ``names`` on player ``q``'s card ``c``, in that order (a later band covers)."""
    for name in names:
        a = (
            FERTILE_SOIL[("top", "middle", "bottom").index(name.split()[-1])]
            if name.startswith("Fertile")
            else aid(name)
        )
        _take_advancement(s, a)
        slot = ADVANCEMENTS[a].slot
        sl = list(s.slots[q][c])
        assert sl[slot] < 0, f"card {c} has its {slot} slot taken"
        sl[slot] = a
        s.slots[q][c] = tuple(sl)
        if ADVANCEMENTS[a].band:
            s.band[q][c] = slot
        s.prof[q][c] = profile(s.slots[q][c], s.band[q][c])


def set_commons(s: ValeState, k: int, name: str) -> None:
    """Face-up commons position ``k`` shows ``name`` (swapped with a copy from the decks/box)."""
    a = aid(name)
    for pile in (s.l1_box, *s.level_deck):
        if a in pile:
            pile.remove(a)
            pile.append(s.commons[k]) if s.commons[k] >= 0 else None
            s.commons[k] = a
            return
    raise AssertionError(f"no copy of {name} left to show")


def set_vale_row(s: ValeState, k: int, name: str, keep: tuple[int, ...] = ()) -> None:
    """Vale position ``k`` shows ``name``, from a deck or swapped from a position not in ``keep``."""
    v = vid(name)
    for pile in s.vale_deck:
        if v in pile:
            pile.remove(v)
            if s.vale_up[k] >= 0:
                pile.insert(0, s.vale_up[k])
            s.vale_up[k] = v
            return
    others = [j for j, u in enumerate(s.vale_up) if u == v and j != k and j not in keep]
    assert others, f"no copy of vale {name} left"
    j = others[0]
    s.vale_up[j], s.vale_up[k] = s.vale_up[k], v


def give_vales(s: ValeState, q: int, *names: str) -> None:
    for name in names:
        v = vid(name)
        for pile in s.vale_deck:
            if v in pile:
                pile.remove(v)
                break
        else:
            k = s.vale_up.index(v)
            s.vale_up[k] = s._vale_replacement(k // 4)
        s.vales[q].append(v)


def lay_out(
    s: ValeState,
    q: int,
    field: list[int],
    on_deck: int,
    deck: list[int] | None = None,
    discard: list[int] | None = None,
    token: bool = False,
) -> None:
    """Player ``q``'s zones; ``deck`` top first; the cards named nowhere go to the discard pile
    (or, with ``discard`` given, to the bottom of the deck)."""
    deck = list(deck or [])
    named = set(field) | set(deck) | ({on_deck} if on_deck >= 0 else set()) | set(discard or [])
    rest = [c for c in range(20) if c not in named]
    if discard is None:
        discard = rest
    else:
        deck = deck + rest
    s.field[q] = list(field)
    s.on_deck[q] = on_deck
    s.deck[q] = list(reversed(deck))  # the engine keeps the top card last
    s.discard[q] = list(discard)
    s.token_active[q] = token


def start(s: ValeState, q: int) -> ValeState:
    """Open ``q``'s turn on the position as it is (planting, or discard after a prep spoil)."""
    s.start_player = q
    s.start_turn(q)
    s._legal = None
    s.run()
    return s


def act(s: ValeState, *actions: int) -> ValeState:
    for a in actions:
        legal = s.legal_actions()
        assert a in legal, (
            f"{d.action_meaning(a)} not legal in {s.phase_name}: {[d.action_meaning(x) for x in legal]}"
        )
        s.apply(a)
        s.check_invariants()
    return s


def card(c: int) -> int:
    return d.CARD + c
