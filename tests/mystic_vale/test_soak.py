"""Random legal games at 2, 3 and 4 players with the engine invariants checked on every step, and
the engine's copies: clone, pickle, determinize (what it keeps and what it re-deals)."""

from __future__ import annotations

import pickle
import time
from collections import Counter

import numpy as np
import pytest

from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale.rules import ValeGame, ValeState
from tests.mystic_vale.script import BLANKS, CURSED, act, craft, lay_out, new, start

GAMES = 100  # per player count
# Seeds past the first 100 whose random game reaches Conclave of Ents' target decision: a random
# game seldom owns Conclave of Ents with a card it can target. On the core generator's games, seeds
# 11 (3 players) and 39 (4 players) of the first 100 do, none at 2 players; 466 is the first
# 2-player seed from 100 on (found by scanning).
DECISION_SEEDS: dict[int, tuple[int, ...]] = {2: (466,), 3: (), 4: ()}


def random_game(n: int, seed: int, check: bool = True, visit=None) -> tuple[ValeState, Counter]:
    s = ValeGame(n).new_initial_state(seed)
    rng = np.random.default_rng(seed + 10_000)
    phases: Counter = Counter()
    steps = 0
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal and legal == sorted(set(legal)), f"bad legal list in {s.phase_name}"
        assert s.current_player == s.active
        phases[s.phase_name] += 1
        if visit is not None:
            visit(s)
        s.apply(int(legal[rng.integers(len(legal))]))
        if check:
            s.check_invariants()
        steps += 1
        assert steps < 5000, "a random game that does not end"
    return s, phases


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_every_invariant_and_end(n):
    phases: Counter = Counter()
    slowest = 0.0
    for seed in (*range(GAMES), *DECISION_SEEDS[n]):
        t = time.process_time()  # CPU time: the machine is shared, wall time is not the engine's
        s, ph = random_game(n, seed)
        slowest = max(slowest, time.process_time() - t)
        phases += ph
        assert s.is_terminal and s.winners() and abs(s.returns().sum()) < 1e-9
        assert s.current_player == -1 and s.legal_actions() == []
        assert s.pool == 0, "a game ends only when the pool runs out"
        assert s.turn % n == 0, "every player has had the same number of turns"
    assert slowest < 1.0, f"a {n}-player game took {slowest:.2f} s of CPU"
    # Random play reaches every decision of the game (Conclave of Ents' target through the seed of
    # DECISION_SEEDS: a random game seldom owns it with a card it can target).
    every = set(d.PHASE_NAMES) - {"game_over"}
    assert set(phases) == every, phases


def test_the_same_seed_plays_the_same_game():
    a, _ = random_game(3, 5, check=False)
    b, _ = random_game(3, 5, check=False)
    assert a.placement == b.placement and a.tokens == b.tokens and a.slots == b.slots


def test_clone_and_pickle_continue_identically():
    s, _ = random_game(2, 1, check=False, visit=None)
    s = ValeGame(2).new_initial_state(1)
    rng = np.random.default_rng(0)
    for _ in range(150):
        s.apply(int(rng.choice(s.legal_actions())))
    copies = [s.clone(), pickle.loads(pickle.dumps(s))]
    for c in copies:
        c.check_invariants()
    r = [np.random.default_rng(9) for _ in range(3)]
    for state, g in zip([s, *copies], r, strict=True):
        while not state.is_terminal:
            state.apply(int(g.choice(state.legal_actions())))
    assert s.placement == copies[0].placement == copies[1].placement
    assert s.tokens == copies[0].tokens == copies[1].tokens


def _public(s: ValeState, p: int) -> tuple:
    """What seat ``p`` sees: fields, on-deck cards, pile sizes, vales, tokens, the commons, its own
    discard pile and deck contents (not order)."""
    return (
        [list(f) for f in s.field],
        list(s.on_deck),
        [len(x) for x in s.deck],
        [len(x) for x in s.discard],
        sorted(s.discard[p]),
        sorted(s.deck[p]),
        [list(v) for v in s.vales],
        list(s.tokens),
        list(s.token_active),
        list(s.commons),
        list(s.vale_up),
        [len(x) for x in s.level_deck],
        [len(x) for x in s.vale_deck],
        s.phase,
        s.pool,
        [list(x) for x in s.slots],
        s.legal_actions() if s.current_player == p else None,
    )


@pytest.mark.parametrize("n", [2, 3, 4])
def test_determinize_keeps_what_the_seat_sees_and_re_deals_the_rest(n):
    rng = np.random.default_rng(n)
    changed = Counter()

    def visit(s: ValeState) -> None:
        if rng.random() > 0.05:
            return
        for p in range(n):
            c = s.determinize(p, np.random.default_rng(int(rng.integers(1 << 30))))
            c.check_invariants()
            assert _public(c, p) == _public(s, p)
            for q in range(n):
                if q != p and sorted(c.discard[q]) != sorted(s.discard[q]):
                    changed["discard"] += 1
                if c.deck[q] != s.deck[q]:
                    changed["deck"] += 1
            # The copy plays on.
            for _ in range(20):
                if c.is_terminal:
                    break
                c.apply(int(rng.choice(c.legal_actions())))
                c.check_invariants()

    for seed in range(6):
        random_game(n, seed, check=False, visit=visit)
    assert changed["discard"] and changed["deck"]


def test_calm_weather_peek_stays_known_to_its_owner_only():
    s = new()
    craft(s, 0, BLANKS[0], "Calm Weather")
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=BLANKS[0], deck=[CURSED["top"][1], *BLANKS[1:5]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.PEEK
    own = [s.determinize(0, np.random.default_rng(k)).deck[0][-1] for k in range(20)]
    other = [s.determinize(1, np.random.default_rng(k)).deck[0][-1] for k in range(20)]
    assert set(own) == {CURSED["top"][1]}
    assert len(set(other)) > 1


def test_determinize_refuses_bad_seats_and_rngs():
    s = new()
    with pytest.raises(ValueError):
        s.determinize(2, np.random.default_rng(0))
    with pytest.raises(TypeError):
        s.determinize(0, 7)


@pytest.mark.parametrize("n", [2, 4])
def test_determinize_depends_only_on_what_the_seat_sees(n):
    """Two states that differ only in what the seat cannot see determinize alike under one rng."""
    from tests.conformance.helpers import canonical_bytes

    rng = np.random.default_rng(n)
    for seed in range(8):
        s = ValeGame(n).new_initial_state(seed)
        for _ in range(int(rng.integers(0, 200))):
            if s.is_terminal:
                break
            s.apply(int(rng.choice(s.legal_actions())))
        if s.is_terminal:
            continue
        p = s.current_player
        other = s.determinize(p, np.random.default_rng(seed + 1000))  # the same view, another truth
        a = s.determinize(p, np.random.default_rng(seed))
        b = other.determinize(p, np.random.default_rng(seed))
        assert canonical_bytes(a) == canonical_bytes(b)


def test_a_pickled_copy_pickles_like_its_original_as_both_play_on():
    """No value in the state is a string: an unpickled string is not the interned literal the
    engine assigns later, so a copy's bytes drifted from its original's."""
    from tests.conformance.helpers import canonical_bytes

    rng = np.random.default_rng(2)
    s = ValeGame(2).new_initial_state(4)
    for _ in range(40):
        s.apply(int(rng.choice(s.legal_actions())))
    c = pickle.loads(pickle.dumps(s))
    for _ in range(200):
        if s.is_terminal:
            break
        a = int(rng.choice(s.legal_actions()))
        s.apply(a)
        c.apply(a)
        assert canonical_bytes(c) == canonical_bytes(s)
