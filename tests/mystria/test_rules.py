"""Mystria rules as move scripts: one test (or one table row) per rule of the rulebook; see the
rule -> code -> test table of docs/rules/mystria.md.

Scripts start from a turn of player_0 (first player, intro rules unless a row says otherwise) on a
central board written out in the row, so every expected outcome is worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from mystic_envs.core.errors import IllegalActionError
from mystic_envs.mystria import rules
from mystic_envs.mystria.board import (
    COLOUR_NAMES,
    NUM_COLOURS,
    OBJECTIVES,
    SPACE_COORDS,
    SPACE_NAMES,
    STACK_SPACES,
    STARS,
    TOKENS_PER_COLOUR,
)
from mystic_envs.mystria.observation import LAYOUT
from mystic_envs.mystria.rules import STACKS, MystriaGame

from .script import (
    LETTER,
    action,
    new_state,
    play,
    set_board,
    start,
)

OBS = {e.name: e.slice for e in LAYOUT}


def turn(board: dict[str, str], drops: tuple[int, int] = (6, 5), variant: str = "intro", first: int = 0):
    """player_``first`` to act on ``board`` after the setup, holding ``drops``."""
    s = new_state(variant, first=first)
    start(s)
    s.drops = list(drops)
    set_board(s, board)
    s.check_invariants()
    return s


def board_of(s) -> dict[str, str]:
    return {name: "".join("PGBR"[c] for c in STACKS[s.stacks[i]]) for i, name in enumerate(SPACE_NAMES)}


def triangle_spaces(s) -> set[str]:
    return {SPACE_NAMES[i] for i in range(len(SPACE_NAMES)) if s.triangles >> i & 1}


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["intro", "full"])
def test_setup_stacks_of_three_on_every_space_but_the_stars(variant):
    for seed in range(50):
        s = MystriaGame(variant=variant).new_initial_state(seed)
        heights = [len(STACKS[code]) for code in s.stacks]
        assert [heights[i] for i in STACK_SPACES] == [3] * 20
        assert [heights[i] for i in STARS] == [0] * 4
        on_board = [sum(STACKS[code].count(c) for code in s.stacks) for c in range(NUM_COLOURS)]
        # 60 tokens on the board, the other 4 stay in the bag for the whole game.
        assert sum(on_board) == 60 and sum(s.bag) == 4
        assert [on_board[c] + s.bag[c] for c in range(NUM_COLOURS)] == [TOKENS_PER_COLOUR] * NUM_COLOURS


def test_setup_never_deals_a_stack_of_three_identical_tokens():
    seen_two_alike = 0
    for seed in range(3000):
        s = MystriaGame(variant="intro").new_initial_state(seed)
        for i in STACK_SPACES:
            t = STACKS[s.stacks[i]]
            assert not t[0] == t[1] == t[2], f"seed {seed}: {SPACE_NAMES[i]} holds {t}"
            seen_two_alike += len(set(t)) == 2
    assert seen_two_alike > 0  # two alike is allowed, and the deal makes them


def test_setup_first_player_6_drops_second_5_and_the_first_player_is_random():
    firsts = set()
    for seed in range(40):
        s = MystriaGame().new_initial_state(seed)
        firsts.add(s.first)
        assert s.drops[s.first] == 6 and s.drops[1 - s.first] == 5
    assert firsts == {0, 1}


@pytest.mark.parametrize(
    ("variant", "values", "expected", "majority"),
    [
        ("intro", ("red", "blue", "green"), {"red": 4, "blue": 3, "green": 3, "purple": 2}, 5),
        ("intro", ("purple", "green", "red"), {"purple": 4, "green": 3, "red": 3, "blue": 2}, 5),
        ("full", ("red", "blue", "green"), {"red": 10, "blue": 7, "green": 5, "purple": 3}, 3),
        ("full", ("green", "purple", "blue"), {"green": 10, "purple": 7, "blue": 5, "red": 3}, 3),
    ],
)
def test_second_player_assigns_the_score_board_highest_value_first(variant, values, expected, majority):
    s = new_state(variant, first=1)
    if variant == "full":
        play(
            s, [(1, f"keep {OBJECTIVES[s.drawn[1][1]].name}"), (0, f"keep {OBJECTIVES[s.drawn[0][0]].name}")]
        )
    assert s.phase_name == "score_board" and s.current_player == 0  # the second player
    for k, colour in enumerate(values):
        assert s.current_player == 0
        play(s, [(0, f"score {colour}")])
        if k < 2:
            assert s.phase_name == "score_board"
    # The fourth score token goes on the last free value without a decision; the first player starts.
    assert dict(zip(COLOUR_NAMES, s.values, strict=True)) == expected
    assert s.phase_name == "take_token" and s.current_player == 1
    assert s.game.majority_points == majority
    np.testing.assert_allclose(
        s.observation(1)[OBS["score_values"]], [expected[c] / 10 for c in COLOUR_NAMES]
    )


def test_score_board_refuses_a_colour_already_placed():
    s = new_state("intro", first=0)
    assert s.current_player == 1  # the second player places the score tokens
    play(s, [(1, "score red")])
    with pytest.raises(
        IllegalActionError,
        match=r"score board: red on the highest free value.*player_1 in phase 'score_board'",
    ):
        s.apply(action("score red"))


def test_objective_tiles_two_drawn_each_one_kept_in_secret():
    for seed in range(30):
        s = MystriaGame().new_initial_state(seed)
        first, second = s.first, 1 - s.first
        assert len(set(s.drawn[0] + s.drawn[1])) == 4  # four different tiles; four stay in the box
        assert s.phase_name == "keep_objective" and s.current_player == first
        assert s.legal_actions() == [rules.KEEP + t for t in s.drawn[first]]
        watcher = s.observation(second)
        kept_first = s.drawn[first][seed % 2]
        s.apply(rules.KEEP + kept_first)
        assert s.current_player == second and s.legal_actions() == [rules.KEEP + t for t in s.drawn[second]]
        seen = s.observation(second)
        # The second magician sees that a tile was kept (the turn passed), never which.
        changed = np.flatnonzero(seen != watcher)
        assert set(changed) <= set(range(OBS["phase"].start, OBS["to_move"].stop)), changed
        mine = s.observation(first)
        assert mine[OBS["own_objective_kept"]][kept_first] == 1.0
        assert mine[OBS["own_objectives_drawn"]].sum() == 2.0
        assert s.observation(second)[OBS["opp_objective_revealed"]].sum() == 0.0


def test_cannot_keep_a_tile_not_drawn():
    s = new_state("full", first=0)
    not_drawn = next(t for t in range(8) if t not in s.drawn[0])
    with pytest.raises(IllegalActionError, match=r"keep Objective tile .* in phase 'keep_objective'"):
        s.apply(rules.KEEP + not_drawn)


# --- taking a token: move-script table --------------------------------------------------------

# Every row: a central board (top token first), a script of (seat, move), and what must hold after.
SCRIPTS = [
    pytest.param(
        {"B2": "RGB", "C3": "GP"},
        [(0, "move B2 to B1")],
        {"stacks": {"B1": "RGB", "B2": ""}, "drops": (5, 6), "to_move": 0, "triangle": set()},
        id="move-a-whole-stack-to-an-adjacent-empty-space-gives-one-drop",
    ),
    pytest.param(
        {"B2": "RGB", "C3": "GP"},
        [(0, "move B2 to B1"), (0, "move B1 to B2"), (0, "move C3 to D3")],
        {"stacks": {"B2": "RGB", "B1": "", "D3": "GP"}, "drops": (3, 8), "to_move": 0},
        id="every-action-costs-a-drop-even-moving-back",
    ),
    pytest.param(
        {"C3": "RGB", "C4": "GP"},
        [(0, "flip C3"), (0, "flip C4")],
        {"stacks": {"C3": "BGR", "C4": "PG"}, "drops": (4, 7), "to_move": 0},
        id="flip-reverses-the-whole-stack",
    ),
    pytest.param(
        {"B2": "RP", "C3": "RG", "B3": "GPR"},
        [(0, "flip B3")],
        {"stacks": {"B3": "RPG"}, "drops": (5, 6), "triangle": {"B2", "B3", "C3"}, "phase": "take_token"},
        id="flip-forms-a-triangle",
    ),
    pytest.param(
        {"B2": "RP", "C3": "RG", "C4": "RB"},
        [(0, "move C4 to B3")],
        {"stacks": {"B3": "RB", "C4": ""}, "drops": (5, 6), "triangle": {"B2", "B3", "C3"}},
        id="move-forms-a-triangle",
    ),
    pytest.param(
        {"C2": "RG", "C3": "RB", "C4": "RP"},
        [],
        {"triangle": set(), "legal_takes": []},
        id="three-in-a-line-is-not-a-triangle",
    ),
    pytest.param(
        {"B2": "RP", "C3": "RG", "B3": "GPR"},
        [(0, "flip B3"), (0, "take B3"), (0, "place 7")],
        {"stacks": {"B3": "PG"}, "drops": (5, 6), "to_move": 1, "board0": {7: "R"}, "phase": "take_token"},
        id="take-the-top-token-of-a-triangle-stack-and-place-it",
    ),
    pytest.param(
        {"B2": "R", "B3": "R", "C3": "R", "D3": "GB"},
        [(0, "take B2"), (0, "place 1")],
        {"stacks": {"B2": "", "B3": "R"}, "drops": (6, 5), "to_move": 1, "board0": {1: "R"}},
        id="free-triangle-from-the-previous-turn-costs-nothing-and-an-emptied-stack-is-an-empty-space",
    ),
    pytest.param(
        {"B2": "RG", "B3": "RP", "C3": "RB", "D3": "GB"},
        [(0, "flip C3"), (0, "flip C3"), (0, "take C3"), (0, "place 12")],
        {"stacks": {"C3": "B"}, "drops": (4, 7), "to_move": 1, "board0": {12: "R"}},
        id="a-player-may-keep-acting-while-a-triangle-stands",
    ),
    pytest.param(
        {"B2": "RG", "B3": "RR", "C3": "RB"},
        [(0, "take B3"), (0, "place 1")],
        {"stacks": {"B3": "R"}, "to_move": 1, "triangle": {"B2", "B3", "C3"}, "board0": {1: "R"}},
        id="a-triangle-left-standing-serves-the-opponent-free",
    ),
]


@pytest.mark.parametrize(("board", "script", "expected"), SCRIPTS)
def test_move_scripts(board, script, expected):
    s = turn(board)
    play(s, script)
    after = board_of(s)
    for name, tokens in expected.get("stacks", {}).items():
        assert after[name] == tokens, f"{name}: {after[name]!r} != {tokens!r}"
    if "drops" in expected:
        assert tuple(s.drops) == expected["drops"]
    if "to_move" in expected:
        assert s.current_player == expected["to_move"]
    if "phase" in expected:
        assert s.phase_name == expected["phase"]
    if "triangle" in expected:
        assert triangle_spaces(s) == expected["triangle"]
        takes = {SPACE_NAMES[a - rules.TAKE] for a in s.legal_actions() if rules.TAKE <= a < rules.PLACE}
        assert takes == expected["triangle"], "takes must be exactly the triangle stacks"
    if "legal_takes" in expected:
        assert [a for a in s.legal_actions() if rules.TAKE <= a < rules.PLACE] == expected["legal_takes"]
    for place, letter in expected.get("board0", {}).items():
        assert s.masks[0][LETTER[letter]] >> (place - 1) & 1


def test_stacks_are_never_split_and_never_grow():
    """Only moves into empty spaces, flips and takes of the top token exist: over random play, a
    stack's tokens are a suffix of what that stack was, reversed or not, and never above 3."""
    g = MystriaGame()
    rng = np.random.default_rng(0)
    for seed in range(200):
        s = g.new_initial_state(seed)
        while not s.is_terminal:
            before = [STACKS[c] for c in s.stacks]
            a = s.legal_actions()[rng.integers(len(s.legal_actions()))]
            s.apply(a)
            after = [STACKS[c] for c in s.stacks]
            if rules.MOVE <= a < rules.FLIP:
                x, y = rules.MOVE_PAIRS[a - rules.MOVE]
                assert sorted([after[x], after[y]]) == sorted([before[x], before[y]])
                assert () in (after[x], after[y])
            elif rules.FLIP <= a < rules.TAKE:
                i = a - rules.FLIP
                assert after[i] == before[i][::-1] != before[i]
            elif rules.TAKE <= a < rules.PLACE:
                i = a - rules.TAKE
                assert after[i] == before[i][1:]
            changed = [i for i in range(len(after)) if after[i] != before[i]]
            assert len(changed) <= 2 and all(len(t) <= 3 for t in after)


def test_a_flip_that_changes_nothing_is_not_an_action():
    s = turn({"B2": "R", "B3": "RGR", "C3": "GG", "C4": "RG"})
    flips = {SPACE_NAMES[a - rules.FLIP] for a in s.legal_actions() if rules.FLIP <= a < rules.TAKE}
    assert flips == {"C4"}  # one token, a palindrome and two alike read the same flipped
    with pytest.raises(IllegalActionError, match=r"flip the stack on B3.*'take_token'"):
        s.apply(action("flip B3"))


# --- illegal actions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "move", "message"),
    [
        ({"B2": "RG", "B3": "PB"}, "move B2 to B3", r"move a stack along the line B2-B3, into its empty end"),
        ({"B2": "RG", "C3": "PB"}, "take B2", r"take the top token on B2"),
        ({"B2": "RG", "C3": "PB"}, "place 3", r"place the token on place 3"),
        ({"B2": "RG", "C3": "PB"}, "score red", r"score board: red"),
    ],
)
def test_illegal_actions_are_refused_with_a_clear_message(board, move, message):
    s = turn(board)
    before = board_of(s), list(s.drops)
    with pytest.raises(IllegalActionError, match=message + r".*player_0 in phase 'take_token'; legal: "):
        s.apply(action(move))
    assert (board_of(s), list(s.drops)) == before


def test_cannot_place_on_an_occupied_place():
    s = turn({"B2": "RRG", "B3": "RR", "C3": "RG"})
    play(s, [(0, "take B2"), (0, "place 5"), (1, "take B3"), (1, "place 5"), (0, "take C3")])
    with pytest.raises(IllegalActionError, match=r"place the token on place 5.*'place_token'"):
        s.apply(action("place 5"))


# --- running out of energy, the end of the game -----------------------------------------------


@pytest.mark.parametrize(
    ("board", "drops", "script", "expected"),
    [
        pytest.param(
            {"B2": "RG", "C3": "BP"},
            (1, 10),
            [(0, "flip C3")],
            {"over": True, "winner": 1, "end": "out of Energy drops"},
            id="last-drop-spent-without-a-triangle-loses-at-once",
        ),
        pytest.param(
            {"B2": "RG", "C3": "BR", "B3": "RG"},
            (1, 10),
            [(0, "flip C3")],
            {"over": False, "to_move": 0, "legal": ["take B2", "take B3", "take C3"]},
            id="no-drop-left-but-a-triangle-only-taking-is-allowed",
        ),
        pytest.param(
            {"B2": "R", "B3": "R", "C3": "R", "D3": "GB"},
            (0, 11),
            [(0, "take B2"), (0, "place 1")],
            {"over": False, "to_move": 1},
            id="no-drop-is-no-loss-while-a-triangle-stands",
        ),
        pytest.param(
            {"B2": "R", "B3": "R", "C3": "RG", "D3": "GB"},
            (11, 0),
            [(0, "take B2"), (0, "place 1")],
            {"over": True, "winner": 0, "end": "out of Energy drops"},
            id="the-opponent-starts-a-turn-with-no-drop-and-no-triangle",
        ),
    ],
)
def test_running_out_of_energy(board, drops, script, expected):
    s = turn(board, drops=drops)
    play(s, script)
    assert s.is_terminal == expected["over"]
    if expected["over"]:
        assert s.winner == expected["winner"] and s.current_player == -1
        assert rules.END_REASONS[s.end_reason] == expected["end"]
        assert s.returns().tolist() == ([1.0, -1.0] if expected["winner"] == 0 else [-1.0, 1.0])
    else:
        assert s.current_player == expected["to_move"]
        if "legal" in expected:
            assert s.legal_actions() == [action(m) for m in expected["legal"]]


def test_out_of_energy_through_the_env_rewards_minus_one():
    env = mystic_envs.make("mystria_v0", variant="intro")
    env.reset(seed=0)
    s = env.unwrapped.game_state
    while s.phase_name != "take_token":
        env.step(s.legal_actions()[0])
    loser = env.agent_selection
    p = env.possible_agents.index(loser)
    s.drops = [0, 0]
    s.drops[p], s.drops[1 - p] = 1, 10
    set_board(s, {"B2": "RG", "C3": "BP"})
    env.step(action("flip C3"))
    winner = env.possible_agents[1 - p]
    assert env.rewards == {loser: -1.0, winner: 1.0}
    assert all(env.terminations.values())
    info = env.infos[loser]
    assert rules.END_REASONS[info["game_end"]] == "out of Energy drops"
    assert info["winners"].tolist() == [int(i == 1 - p) for i in range(2)]


def test_no_move_or_flip_possible_loses_like_no_drop():
    # Every space holds one token, coloured by column (x mod 3) so that no triangle is one colour,
    # except the red triangle B2-B3-C3 that player_1 takes from: then no flip (single tokens) and
    # no move (no empty space) is left to player_0, who has drops but can never form a triangle.
    colours = "PGB"
    board = {name: colours[x % 3] for name, (_, x) in zip(SPACE_NAMES, SPACE_COORDS, strict=True)}
    board.update({"B2": "RP", "B3": "R", "C3": "R"})
    s = turn(board, drops=(5, 6), first=1)
    assert board["B2"][1] == colours[SPACE_COORDS[SPACE_NAMES.index("B2")][1] % 3]
    play(s, [(1, "take B2"), (1, "place 1")])
    assert s.is_terminal and s.winner == 1
    assert rules.END_REASONS[s.end_reason] == "no move or flip possible"
    assert s.drops[0] == 5


FINAL_BOARDS = ("PPPP GGGG BBBB", "PPPP GGGG BBB.")  # player_1 places the last token on place 12


@pytest.mark.parametrize(
    ("last_token", "drops", "winner", "totals"),
    [
        # purple 2, green 3, blue 3, red 4: player_0 scores 4x2 + 2x3 + 4x3 = 26 (6-7 is cut)
        pytest.param("R", (6, 5), 0, (32, 32), id="tie-on-points-goes-to-the-most-drops"),
        pytest.param("R", (5, 6), 1, (31, 33), id="more-points-wins"),
        pytest.param("B", (6, 5), 0, (32, 31), id="more-points-and-more-drops-wins"),
    ],
)
def test_game_ends_after_12_turns_each_with_scoring(last_token, drops, winner, totals):
    s = new_state("intro", first=0)
    start(s, values=("red", "green", "blue"))
    s.player = 1
    s.drops = list(drops)
    set_board(s, {"B2": last_token, "B3": last_token, "C3": last_token, "D3": "GP"}, FINAL_BOARDS)
    assert s.placed(0) == 12 and s.placed(1) == 11
    play(s, [(1, "take B3"), (1, "place 12")])
    assert s.is_terminal and rules.END_REASONS[s.end_reason] == "final scoring"
    assert (s.score(0).total, s.score(1).total) == totals
    assert s.winner == winner
    assert s.returns().tolist() == ([1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    assert s.info()["scores"].tolist() == [float(t) for t in totals]


def test_eleven_drops_never_split_evenly_so_there_is_no_draw():
    s = new_state("intro")
    assert sum(s.drops) == 11
    rng = np.random.default_rng(1)
    for seed in range(100):
        s = MystriaGame(variant="intro").new_initial_state(seed)
        while not s.is_terminal:
            s.apply(s.legal_actions()[rng.integers(len(s.legal_actions()))])
            assert sum(s.drops) == 11 and s.drops[0] != s.drops[1]
        assert s.winner in (0, 1)


def plan(s, depth: int) -> list[int] | None:
    """The shortest list of at most ``depth`` moves and flips that forms a triangle, if any."""
    frontier = [(s, [])]
    for _ in range(depth):
        deeper = []
        for state, path in frontier:
            for a in state.legal_actions():
                c = state.clone()
                c.apply(a)
                if c.triangles:
                    return [*path, a]
                if not c.is_terminal:
                    deeper.append((c, [*path, a]))
        frontier = deeper
    return None


def searching_player(s, rng) -> int:
    """Take when a triangle stands, else head for the nearest triangle within 3 actions (or the
    drops left), else act at random; place on a random free place. It plays well enough for most
    games to reach the 12-turn end."""
    legal = s.legal_actions()
    takes = [a for a in legal if rules.TAKE <= a < rules.PLACE]
    if takes:
        return takes[rng.integers(len(takes))]
    if s.phase_name == "take_token":
        path = plan(s, min(3, s.drops[s.current_player]))
        if path:
            return path[0]
    return legal[rng.integers(len(legal))]


@pytest.mark.parametrize("variant", ["intro", "full"])
def test_games_end_after_twelve_turns_each_or_when_a_player_runs_dry(variant):
    g = MystriaGame(variant=variant)
    rng = np.random.default_rng(2)
    ends = {"final scoring": 0, "out of Energy drops": 0}
    for seed in range(20):
        s = g.new_initial_state(seed)
        while not s.is_terminal:
            s.apply(searching_player(s, rng))
            s.check_invariants()
        ends[rules.END_REASONS[s.end_reason]] += 1
        if rules.END_REASONS[s.end_reason] == "final scoring":
            assert s.placed(0) == s.placed(1) == 12
            totals = [s.score(p).total for p in (0, 1)]
            assert s.winner == (0 if (totals[0], s.drops[0]) > (totals[1], s.drops[1]) else 1)
        else:
            loser = 1 - s.winner
            assert s.drops[loser] == 0 and not s.triangles and s.placed(loser) < 12
    assert ends["final scoring"] >= 10 and sum(ends.values()) == 20
