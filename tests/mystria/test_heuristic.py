"""The Mystria heuristic agent (``agents/heuristic/mystria.py``): legal, strong against random,
careful with its drops, blind to the opponent's Objective tile; and mcts playing Mystria."""

from __future__ import annotations

import pickle
from types import SimpleNamespace

import numpy as np
import pytest
from gameplay import play_game

from agents import make_agent
from agents.heuristic import HEURISTICS, ROLLOUT_POLICIES
from agents.heuristic.mystria import MystriaHeuristic, cheapest_triangle, decide, plans, shortest_plan
from mystic_envs.mystria import rules
from mystic_envs.mystria.board import LARGEST_GROUP
from mystic_envs.mystria.rules import MystriaGame

from .script import action, new_state, play, set_board, start

ENV_ID = "mystria_v0"
VARIANTS = ("intro", "full")


def play_env(players: tuple, seed: int, variant: str) -> tuple[dict[str, float], list[int]]:
    return play_game(ENV_ID, players, seed, variant=variant)


def fake_env(state) -> SimpleNamespace:
    """Just what an agent may read of an env: the state (to determinize) and the seats."""
    seats = {"player_0": 0, "player_1": 1}
    return SimpleNamespace(
        unwrapped=SimpleNamespace(game_state=state, agent_name_mapping=seats, metadata={"name": ENV_ID})
    )


def turn(board: dict[str, str], drops: tuple[int, int], variant: str = "intro"):
    """player_0 (the first player) to act on ``board`` after the setup (red 4 or 10, blue, green,
    purple lowest), holding ``drops``; both Magician boards empty."""
    s = new_state(variant, first=0)
    start(s)
    s.drops = list(drops)
    set_board(s, board)
    s.check_invariants()
    return s


def test_registered_for_mystria():
    assert HEURISTICS[ENV_ID] is MystriaHeuristic
    assert isinstance(make_agent("heuristic", ENV_ID, seed=0), MystriaHeuristic)
    s = MystriaGame().new_initial_state(0)
    while not s.is_terminal:
        a = ROLLOUT_POLICIES[ENV_ID](s, np.random.default_rng(0))
        assert a in s.legal_actions()
        s.apply(a)


@pytest.mark.parametrize("variant", VARIANTS)
def test_plays_legal_full_games_from_both_seats(variant):
    for seed in range(6):
        for names in (("heuristic", "random"), ("random", "heuristic"), ("heuristic", "heuristic")):
            players = tuple(make_agent(n, ENV_ID, seed=seed + i) for i, n in enumerate(names))
            rewards, _ = play_env(players, seed, variant)
            assert sorted(rewards.values()) == [-1.0, 1.0]


def test_beats_random_in_90_of_100_seat_balanced_games():
    wins = 0
    for seed in range(50):
        for seat in (0, 1):
            players = [make_agent("random", ENV_ID, seed=seed)] * 2
            players[seat] = make_agent("heuristic", ENV_ID, seed=seed)
            wins += play_env(tuple(players), seed, VARIANTS[seed % 2])[0][f"player_{seat}"] > 0
    assert wins >= 90, f"the heuristic won only {wins} of 100 games against random"


def test_reproducible_from_its_seed():
    def game() -> list[int]:
        players = (make_agent("heuristic", ENV_ID, seed=4), make_agent("random", ENV_ID, seed=5))
        return play_env(players, 3, "full")[1]

    assert game() == game()


@pytest.mark.parametrize("variant", VARIANTS)
def test_takes_a_free_triangle_when_one_stands(variant):
    # A red triangle stands (red is worth most); a blue one would cost a flip of C4.
    board = {"B2": "RG", "B3": "RP", "C3": "RB", "C4": "PB", "D3": "BG", "D4": "BR"}
    s = turn(board, drops=(6, 5), variant=variant)
    assert [p for p in plans(s.stacks, 1) if p[0] == 1], "the blue triangle is one flip away"
    a = decide(s.determinize(0, np.random.default_rng(0)), 0)
    assert a in [action(f"take {x}") for x in ("B2", "B3", "C3")]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("drops", [1, 2])
def test_spends_its_last_drops_on_the_triangle_it_can_afford(variant, drops):
    # One flip (C3) makes a green triangle; red, worth more, takes two actions (flip C6, move it to
    # D5). With one drop green is the only way to take a token (anything else loses at once);
    # with two, red would leave the player dry at the opponent's mercy.
    board = {"B2": "GR", "B3": "GP", "C3": "PBG", "C5": "RB", "D4": "RP", "C6": "BR", "A2": "PB"}
    s = turn(board, drops=(drops, 11 - drops), variant=variant)
    red = [action("flip C6"), action("move C6 to D5")]
    assert any(list(path) == red for _, path, _ in plans(s.stacks, 2))
    rng = np.random.default_rng(0)
    while s.current_player == 0 and not s.is_terminal:
        s.apply(decide(s.determinize(0, rng), 0))
    assert not s.is_terminal
    assert s.placed(0) == 1 and s.masks[0][1], "player_0 took and placed the green token"
    assert s.drops[0] == drops - 1


def test_never_runs_dry_with_a_triangle_within_its_drops():
    """Whenever a heuristic player starts its turn with a triangle reachable within its drops
    (up to two actions, checked by breadth-first search on the engine), it takes a token."""
    checked = 0
    for seed in range(24):
        variant = VARIANTS[seed % 2]
        s = MystriaGame(variant=variant).new_initial_state(seed)
        rng = np.random.default_rng(seed)
        heuristic_seats = (0, 1) if seed % 3 else (seed % 2,)
        while not s.is_terminal:
            p = s.current_player
            if p not in heuristic_seats:
                legal = s.legal_actions()
                s.apply(legal[rng.integers(len(legal))])
                continue
            if s.phase == rules.TAKE_PHASE and s.drops[p] <= 2 and within(s, s.drops[p]):
                checked += 1
                while s.current_player == p and s.phase == rules.TAKE_PHASE:
                    s.apply(decide(s.determinize(p, rng), p))
                assert not (s.is_terminal and s.winner != p), f"seed {seed}: ran dry with a triangle in reach"
                continue
            s.apply(decide(s.determinize(p, rng), p))
    assert checked >= 20


def within(s, depth: int) -> bool:
    """Breadth-first search on the engine: can ``depth`` moves or flips make a triangle stand?"""
    frontier = [s]
    for _ in range(depth + 1):
        if any(state.triangles for state in frontier):
            return True
        deeper = []
        for state in frontier:
            for a in state.legal_actions():
                if a < rules.TAKE:
                    c = state.clone()
                    c.apply(a)
                    deeper.append(c)
        frontier = deeper
    return False


def test_plans_and_search_agree_with_the_engine():
    rng = np.random.default_rng(3)
    for seed in range(30):
        s = MystriaGame().new_initial_state(seed)
        start(s)
        for _ in range(int(rng.integers(0, 6))):
            legal = [a for a in s.legal_actions() if a < rules.TAKE]
            s.apply(legal[rng.integers(len(legal))])
            if s.is_terminal:
                break
        if s.is_terminal:
            continue
        # The exhaustive search is exact: its plan is legal, as short as the engine's, and works.
        path = shortest_plan(s.stacks, 2)
        assert (path is not None) == within(s, 2)
        if path is not None:
            assert all(not within(s, d) for d in range(len(path)))
            c = s.clone()
            for a in path:
                c.apply(a)
            assert c.triangles
        # Every plan found is a real sequence of legal actions that makes its triangle stand.
        for cost, path, after in plans(s.stacks, min(3, s.drops[s.current_player])):
            c = s.clone()
            for a in path:
                assert c.is_legal(a)
                c.apply(a)
            assert len(path) == cost and c.stacks == after and c.triangles
        assert cheapest_triangle(s.stacks) >= 0


def test_choice_depends_only_on_what_the_player_sees():
    rng = np.random.default_rng(0)
    compared = hidden_differed = 0
    for seed in range(16):
        state = MystriaGame().new_initial_state(seed)
        for _ in range(int(rng.integers(2, 40))):
            p = state.current_player
            # Mostly heuristic play, so that games run long enough; sometimes an odd move.
            odd = rng.random() < 0.2
            state.apply(state.legal_actions()[0] if odd else decide(state.determinize(p, rng), p))
            if state.is_terminal:
                break
        if state.is_terminal or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        other_truth = state.determinize(seat, np.random.default_rng(seed + 100))
        hidden_differed += other_truth.kept[1 - seat] != state.kept[1 - seat]
        before = pickle.dumps(state)
        choices = [
            MystriaHeuristic(seed=seed).act(fake_env(s), f"player_{seat}") for s in (state, other_truth)
        ]
        assert choices[0] == choices[1]
        assert pickle.dumps(state) == before, "act() changed the true state"
        compared += 1
    assert compared >= 10 and hidden_differed >= 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_places_a_token_to_grow_its_largest_group(variant):
    # Red is worth most; player_0 holds a red token and has reds on 1, 2 and 3 (a group of 3):
    # 4, 6 or 7 joins it, while 5 (cut from 1) or a place further away would not.
    board = {"B2": "R", "B3": "R", "C3": "R", "D3": "GB"}
    s = turn(board, drops=(6, 5), variant=variant)
    set_board(s, board, ("RRR. .... ....", "GGG. .... ...."))
    play(s, [(0, "take B2")])
    a = decide(s.determinize(0, np.random.default_rng(0)), 0)
    assert LARGEST_GROUP[s.masks[0][3] | 1 << (a - rules.PLACE)] == 4


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    "kw",
    [{}, {"rollout": "heuristic", "rollout_depth": 12}],
    ids=["random-rollouts", "heuristic-rollouts"],
)
def test_mcts_plays_legal_mystria_games_from_both_seats(variant, kw):
    for seed in range(2):
        mcts = make_agent("mcts", ENV_ID, seed=seed, simulations=10, **kw)
        other = make_agent("random" if seed else "heuristic", ENV_ID, seed=seed)
        for players in ((mcts, other), (other, mcts)):
            rewards, _ = play_env(players, seed, variant)
            assert sorted(rewards.values()) == [-1.0, 1.0]


def _at_the_score_board(variant: str, seed: int):
    s = MystriaGame(variant=variant).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while s.phase != rules.SCORE_BOARD:
        s.apply(decide(s.determinize(s.current_player, rng), s.current_player))
    return s, s.determinize(s.current_player, rng)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [61, 92, 156, 196])
def test_the_second_player_keeps_the_top_score_value_off_a_triangle_standing_for_the_first(variant, seed):
    """Deals where a triangle stands at the start, so the first player takes its colour for free:
    the old rule (the highest value on the colour most on view) put the 4 or the 10 on that colour
    in each of these deals; playing the opening out on a copy for every assignment does not."""
    s, view = _at_the_score_board(variant, seed)
    standing = {rules.TOP[s.stacks[i]] for i in range(len(s.stacks)) if s.triangles >> i & 1}
    assert len(standing) == 1
    scores: dict[int, float] = {}
    choice = decide(view, s.current_player, scores=scores)
    assert choice - rules.ASSIGN not in standing
    # Every free colour was judged, and the choice is the best judged.
    assert sorted(scores) == [rules.ASSIGN + c for c in range(4)]
    assert scores[choice] == max(scores.values())


def test_the_score_board_look_ahead_never_reads_the_first_players_tile():
    """The copy that plays the opening out leaves the first player's kept tile out (this seat
    cannot see it), so whatever tile the first player kept, the assignment is the same."""
    for seed in range(2):
        _, view = _at_the_score_board("full", seed)
        choices = set()
        for tile in range(0, len(rules.OBJECTIVES), 2):  # one tile of each half-turn pair
            other = view.clone()
            other.kept[other.first] = tile
            choices.add(decide(other, other.current_player))
        assert len(choices) == 1
