"""Mystria's designed components hold what docs/rules/mystria.md says of them, and the observation,
the determinization and the text render show each seat exactly what it may see."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import mystic_envs
from mystic_envs.mystria import board, rules
from mystic_envs.mystria.board import (
    CONNECTIONS,
    LINES,
    OBJECTIVE_MASKS,
    OBJECTIVES,
    SPACE_COORDS,
    SPACE_NAMES,
    STARS,
    TRIANGLES,
    UNCONNECTED,
)
from mystic_envs.mystria.observation import LAYOUT, OBS_SIZE
from mystic_envs.mystria.rules import MystriaGame

from .script import magician_masks, new_state, play, set_board, start

OBS = {e.name: e.slice for e in LAYOUT}
TOTAL = board.TOTAL_DROPS


def position(space: int) -> tuple[float, float]:
    """Where a space is drawn: unit distance between joined spaces."""
    r, x = SPACE_COORDS[space]
    return x / 2, r * math.sqrt(3) / 2


# --- central board ---------------------------------------------------------------------------


def test_central_board_is_a_lattice_of_24_spaces_in_rows_4_5_6_5_4_with_four_gaps():
    rows = [name[0] for name in SPACE_NAMES]
    assert [rows.count(r) for r in "ABCDE"] == [4, 5, 6, 5, 4]
    gaps = {tuple(sorted(SPACE_NAMES.index(n) for n in g.split("-"))) for g in board.GAPS}
    assert sorted(board.GAPS) == ["A2-A3", "C1-C2", "C5-C6", "E2-E3"]
    for a, b in itertools.combinations(range(24), 2):
        neighbours = math.isclose(math.dist(position(a), position(b)), 1.0)
        assert ((a, b) in LINES) == (neighbours and (a, b) not in gaps), (SPACE_NAMES[a], SPACE_NAMES[b])
    assert len(LINES) == 55 - 4
    # A triangle is three mutually joined spaces: the unit triangles of the lattice with no gap on
    # a side (each of the four gaps is the side of two of the lattice's 32, the rim gaps of one).
    assert len(TRIANGLES) == 26
    for t in TRIANGLES:
        assert all((a, b) in LINES for a, b in itertools.combinations(t, 2))


def test_the_board_is_the_same_from_both_seats_and_both_hands():
    # A fair board: the left-right and the top-bottom mirrors map lines onto lines, stars onto stars.
    at = {xy: i for i, xy in enumerate(SPACE_COORDS)}
    for mirror in (lambda r, x: (r, 10 - x), lambda r, x: (4 - r, x)):
        image = [at[mirror(*xy)] for xy in SPACE_COORDS]
        assert {tuple(sorted((image[a], image[b]))) for a, b in LINES} == set(LINES)
        assert {image[i] for i in STARS} == set(STARS)


def test_spaces_linked_by_lines_are_adjacent_and_a_gap_is_not_a_line():
    s = new_state("intro", first=0)
    start(s)
    # A2 and A3 neighbour each other on the lattice, but no line joins them: a stack on A2 cannot
    # move into the empty A3, and red on A2, A3 and B3 is no triangle (B2-A2-B3 with red would be).
    set_board(s, {"A2": "RG", "B3": "RP", "A3": "R", "C1": "GB"})
    names = [s.game.action_meaning(a) for a in s.legal_actions()]
    assert not any("A2-A3" in n for n in names)
    gap = rules.MOVE + board.MOVE_PAIRS.index((SPACE_NAMES.index("A2"), SPACE_NAMES.index("A3")))
    assert not s.is_legal(gap) and not s.legal_mask()[gap]
    assert "move a stack along the line A2-B2, into its empty end" in names
    assert s.standing_triangles() == [] and not any(n.startswith("take") for n in names)
    # The other gaps alike: C1's stack may move to the empty B1 or D1, not to the empty C2.
    assert (
        not any("C1-C2" in n for n in names)
        and "move a stack along the line B1-C1, into its empty end" in names
    )
    set_board(s, {"A2": "RG", "B3": "RP", "B2": "R"})
    assert [tuple(SPACE_NAMES[i] for i in t) for t in s.standing_triangles()] == [("A2", "B2", "B3")]


def test_star_spaces_are_b2_b4_d2_d4_and_the_first_triangle_costs_about_a_drop():
    from agents.heuristic.mystria import shortest_plan

    assert [SPACE_NAMES[i] for i in STARS] == ["B2", "B4", "D2", "D4"]
    # Every triangle but the two on C3-C4 runs through a star, so only those can stand at the deal.
    assert [tuple(SPACE_NAMES[i] for i in t) for t in TRIANGLES if not set(t) & set(STARS)] == [
        ("B3", "C3", "C4"),
        ("C3", "C4", "D3"),
    ]
    # Over 300 deals: the cheapest first triangle (exact search) is free in about 1 deal in 9, one
    # move or flip in nearly all the others, and costs 0.9 drops on average.
    costs = []
    for seed in range(300):
        plan = shortest_plan(MystriaGame().new_initial_state(seed).stacks, 3)
        costs.append(len(plan))
    counts = np.bincount(costs, minlength=4)
    assert 0.05 <= counts[0] / 300 <= 0.2 and counts[1] / 300 >= 0.75 and counts[3] == 0
    assert 0.8 <= np.mean(costs) <= 1.1


# --- Magician board --------------------------------------------------------------------------


def test_magician_board_has_12_places_and_exactly_three_neighbouring_pairs_not_connected():
    grid_pairs = {(p, p + 1) for p in range(1, 13) if p % 4} | {(p, p + 4) for p in range(1, 9)}
    assert len(grid_pairs) == 17
    assert set(CONNECTIONS) == grid_pairs - set(UNCONNECTED)
    assert len(UNCONNECTED) == 3 and set(UNCONNECTED) <= grid_pairs
    assert board.LARGEST_GROUP[(1 << 12) - 1] == 12  # the cuts never split the board


@pytest.mark.parametrize(
    ("rows", "largest"),
    [
        ("PPPP .... ....", [4, 0, 0, 0]),
        ("P... P... ....", [1, 0, 0, 0]),  # 1-5 is not connected
        ("PP.. PP.. ....", [4, 0, 0, 0]),  # ... but 1-2-6-5 is
        (".... .GG. ....", [0, 1, 0, 0]),  # 6-7 is not connected
        (".... ...B ...B", [0, 0, 1, 0]),  # 8-12 is not connected
        ("RRRR RRRR RRRR", [0, 0, 0, 12]),
    ],
)
def test_colour_groups_follow_the_printed_connections(rows, largest):
    assert [board.LARGEST_GROUP[m] for m in magician_masks(rows)] == largest


# --- Objective tiles -------------------------------------------------------------------------


def test_eight_objective_tiles_in_four_half_turn_pairs_the_examples_7_and_6_among_them():
    assert len(OBJECTIVES) == 8 and len(set(OBJECTIVE_MASKS)) == 8
    for t, tile in enumerate(OBJECTIVES):
        assert len(set(tile.places)) == 4 and all(1 <= p <= 12 for p in tile.places)
        # One group, or two parts one place apart (Crook, Hook): never scattered places.
        assert len(board.groups(OBJECTIVE_MASKS[t])) == (2 if tile.points == 7 else 1), tile.name
    # A half turn of the Magician board (place p -> 13 - p) maps each tile onto one of equal points.
    for tile in OBJECTIVES:
        turned = tuple(sorted(13 - p for p in tile.places))
        (twin,) = (u for u in OBJECTIVES if u.places == turned)
        assert twin != tile and twin.points == tile.points, tile.name
    assert sorted(t.points for t in OBJECTIVES) == [4, 4, 4, 4, 6, 6, 7, 7]  # the example's 7 and 6 exist


# --- actions and observation -----------------------------------------------------------------


def test_actions_fit_in_127_and_read_well():
    g = MystriaGame()
    # One move action per pair of lattice neighbours (55): the four gaps' are never legal, so the
    # layouts stay those of every Mystria model.
    assert g.num_actions == 127 == 8 + 4 + 55 + 24 + 24 + 12
    meanings = [g.action_meaning(a) for a in range(g.num_actions)]
    assert len(set(meanings)) == 127
    assert meanings[rules.MOVE] == "move a stack along the line A1-A2, into its empty end"
    gap = rules.MOVE + board.MOVE_PAIRS.index((SPACE_NAMES.index("A2"), SPACE_NAMES.index("A3")))
    assert meanings[gap] == "move a stack across the gap A2-A3 (no line: never legal)"
    assert sum(not line for line in board.IS_LINE) == 4
    assert meanings[rules.PLACE + 11] == "place the token on place 12"


def test_observation_is_egocentric_and_encodes_whole_stacks():
    s = new_state("intro", first=0)
    start(s)
    set_board(s, {"B2": "RGB", "C3": "GR", "B3": "RP", "C4": "RB"}, ("P... .... ....", ".... .... ...G"))
    o0, o1 = s.observation(0), s.observation(1)
    assert o0.shape == (OBS_SIZE,) and o0.dtype == np.float32
    b2 = SPACE_NAMES.index("B2")
    stacks = o0[OBS["stacks"]].reshape(24, 3, 4)  # space, top to bottom, colour
    np.testing.assert_array_equal(stacks[b2], [[0, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]])
    assert stacks.sum() == 3 + 2 + 2 + 2
    np.testing.assert_array_equal(o0[OBS["stacks"]], o1[OBS["stacks"]])
    own0 = o0[OBS["own_board"]].reshape(12, 4)
    own1 = o1[OBS["own_board"]].reshape(12, 4)
    assert own0[0].tolist() == [1, 0, 0, 0] and own1[11].tolist() == [0, 1, 0, 0]
    np.testing.assert_array_equal(o0[OBS["opp_board"]], o1[OBS["own_board"]])
    assert o0[OBS["drops"]].tolist() == pytest.approx([6 / 11, 5 / 11])
    assert o1[OBS["drops"]].tolist() == pytest.approx([5 / 11, 6 / 11])
    assert o0[OBS["tokens_placed"]].tolist() == pytest.approx([1 / 12, 1 / 12])
    assert o0[OBS["first_player"]].tolist() == [1, 0] and o1[OBS["first_player"]].tolist() == [0, 1]
    assert o0[OBS["to_move"]][0] == 1 and o1[OBS["to_move"]][0] == 0
    assert o0[OBS["full_rules"]][0] == 0
    assert o0[OBS["triangle_spaces"]].sum() == 0
    play(s, [(0, "flip C3")])  # green-red becomes red-green: two red triangles share B3 and C3
    o0 = s.observation(0)
    assert {SPACE_NAMES[i] for i in np.flatnonzero(o0[OBS["triangle_spaces"]])} == {"B2", "B3", "C3", "C4"}
    play(s, [(0, "take C4")])
    o0, o1 = s.observation(0), s.observation(1)
    assert o0[OBS["token_in_hand"]].tolist() == [0, 0, 0, 1] == o1[OBS["token_in_hand"]].tolist()
    assert o0[OBS["phase"]].tolist() == [0, 0, 0, 1, 0]


def table_part(s: rules.MystriaState, seat: int) -> np.ndarray:
    """The observation's first 453 values (everything but the look-ahead) written out plainly from
    the layout's meanings, space by space and place by place: the reference the fast observer, which
    copies the public part from a board view kept in the state, must match."""
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    stacks = o[OBS["stacks"]].reshape(24, 3, 4)
    for space, code in enumerate(s.stacks):
        for level, colour in enumerate(rules.STACKS[code]):
            stacks[space, level, colour] = 1
    o[OBS["triangle_spaces"]] = [s.triangles >> space & 1 for space in range(24)]
    for part, p in (("own_board", seat), ("opp_board", 1 - seat)):
        places = o[OBS[part]].reshape(12, 4)
        for colour, mask in enumerate(s.masks[p]):
            for place in range(12):
                places[place, colour] = mask >> place & 1
    o[OBS["drops"]] = [s.drops[seat] / 11, s.drops[1 - seat] / 11]
    o[OBS["tokens_placed"]] = [s.placed(seat) / 12, s.placed(1 - seat) / 12]
    o[OBS["score_values"]] = [v / 10 for v in s.values]
    o[OBS["phase"]][s.phase] = 1
    o[OBS["to_move"]] = s.current_player == seat and not s.is_terminal
    o[OBS["first_player"]][int(s.first != seat)] = 1
    if s.held >= 0:
        o[OBS["token_in_hand"]][s.held] = 1
    if s.game.full:
        o[OBS["full_rules"]] = 1
        o[OBS["own_objectives_drawn"]][list(s.drawn[seat])] = 1
        if s.kept[seat] >= 0:
            o[OBS["own_objective_kept"]][s.kept[seat]] = 1
        if s.is_terminal and s.kept[1 - seat] >= 0:
            o[OBS["opp_objective_revealed"]][s.kept[1 - seat]] = 1
    return o[: OBS["move_forms"].start]


def test_observation_matches_a_plain_reading_of_its_layout():
    """Both seats, every position of random games in both rule sets: the table part equals the
    plain reference value for value (the look-ahead part has its own check below)."""
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(8):
        s = MystriaGame(variant=("intro", "full")[seed % 2]).new_initial_state(seed)
        while True:
            for seat in (0, 1):
                np.testing.assert_array_equal(
                    s.observation(seat)[: OBS["move_forms"].start], table_part(s, seat)
                )
                checked += 1
            if s.is_terminal:
                break
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
    assert checked > 200


def look_ahead(o: np.ndarray) -> dict[str, set[str]]:
    """The look-ahead parts of an observation as readable sets: ``"A2 red"``, ``"move B2-A2 red"``."""
    colour = board.COLOUR_NAMES
    line_names = [f"{SPACE_NAMES[a]}-{SPACE_NAMES[b]}" for a, b in board.MOVE_PAIRS]

    def named(part: str, names: list[str]) -> set[str]:
        rows = o[OBS[part]].reshape(len(names), 4)
        return {f"{names[i]} {colour[c]}" for i, c in np.argwhere(rows)}

    return {
        "completes": named("completes", list(SPACE_NAMES)),
        "flip_forms": named("flip_forms", list(SPACE_NAMES)),
        "move_forms": named("move_forms", line_names),
        "take_leaves_triangle": {SPACE_NAMES[s] for s in np.flatnonzero(o[OBS["take_leaves_triangle"]])},
    }


def test_look_ahead_names_the_triangles_one_action_away():
    s = new_state("intro", first=0)
    start(s)
    # Red tops on A1, B2, B3, A3 and B4 (A3-B3-B4 stands); C3 shows green over red.
    set_board(s, {"A1": "R", "B2": "RG", "B3": "RP", "C3": "GR", "A3": "R", "B4": "RR"})
    seen = look_ahead(s.observation(0))
    # Every space whose two joined neighbours in a triangle both show red: A2 with A1-B2 or B2-B3
    # (not with A3-B3: A2-A3 is a gap), B1 with A1-B2, A3, A4, B3, B4, C3 and C4 around the rest.
    assert seen["completes"] == {
        "A2 red", "A3 red", "A4 red", "B1 red", "B3 red", "B4 red", "C3 red", "C4 red"
    }  # fmt: skip
    assert seen["flip_forms"] == {"C3 red"}  # green-red turns red-green next to B2 and B3
    # Into A2: from A1 (with B2 and B3) or from B3 (with A1 and B2); not from B2, which would
    # leave both triangles it would complete, and not from A3 across the gap.
    assert seen["move_forms"] == {"A1-A2 red", "A2-B3 red"}
    # Taking B4's top leaves red on B4: A3-B3-B4 still stands. Taking A3 or B3 breaks it.
    assert seen["take_leaves_triangle"] == {"B4"}
    assert look_ahead(s.observation(1)) == seen  # public: both seats see the same


def test_look_ahead_features_match_playing_each_action_out():
    """Over random positions, each feature equals what applying the action on a copy shows."""
    rng = np.random.default_rng(7)
    checked = 0
    for seed in range(12):
        s = MystriaGame().new_initial_state(seed)
        while not s.is_terminal:
            seen = look_ahead(s.observation(s.first))
            expected: dict[str, set[str]] = {k: set() for k in seen}
            tops = [rules.TOP[code] for code in s.stacks]
            for space in range(24):
                for t in TRIANGLES:
                    u, v = (x for x in t if x != space) if space in t else (-1, -1)
                    if u >= 0 and tops[u] >= 0 and tops[u] == tops[v]:
                        expected["completes"].add(f"{SPACE_NAMES[space]} {board.COLOUR_NAMES[tops[u]]}")
            for k, (a, b) in enumerate(board.MOVE_PAIRS):
                if board.IS_LINE[k] and (not s.stacks[a]) != (not s.stacks[b]):
                    dst = b if s.stacks[a] else a
                    after = played_out(s, rules.MOVE + k)
                    if any(dst in t for t in after.standing_triangles()):
                        line = f"{SPACE_NAMES[a]}-{SPACE_NAMES[b]}"
                        expected["move_forms"].add(f"{line} {board.COLOUR_NAMES[tops[dst ^ a ^ b]]}")
            for space in range(24):
                if rules.FLIPPABLE[s.stacks[space]]:
                    after = played_out(s, rules.FLIP + space)
                    if any(space in t for t in after.standing_triangles()):
                        top = rules.TOP[after.stacks[space]]
                        expected["flip_forms"].add(f"{SPACE_NAMES[space]} {board.COLOUR_NAMES[top]}")
            for space in range(24):
                if s.triangles >> space & 1 and played_out(s, rules.TAKE + space).standing_triangles():
                    expected["take_leaves_triangle"].add(SPACE_NAMES[space])
            assert seen == expected, f"seed {seed}\n{s.describe()}"
            checked += 1
            legal = s.legal_actions()
            s.apply(legal[rng.integers(len(legal))])
    assert checked > 200


def played_out(s: rules.MystriaState, action: int) -> rules.MystriaState:
    """A copy of ``s`` after ``action`` on the central board, whatever the phase and drops."""
    c = s.clone()
    c.phase, c.player, c.drops = rules.TAKE_PHASE, 0, [TOTAL, TOTAL]
    c.apply(action)
    return c


# --- hidden information: only the Objective tiles ------------------------------------------------


def full_game_at_turn(seed: int, moves: int):
    s = MystriaGame().new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if s.is_terminal:
            break
        s.apply(s.legal_actions()[rng.integers(len(s.legal_actions()))])
    return s


def test_opponents_tiles_never_reach_the_observation_until_revealed():
    for seed in range(40):
        s = full_game_at_turn(seed, moves=int(seed % 9))
        for p in (0, 1):
            o = s.observation(p)
            assert set(np.flatnonzero(o[OBS["own_objectives_drawn"]])) == set(s.drawn[p])
            assert o[OBS["own_objective_kept"]].sum() == (s.kept[p] >= 0)
            if not s.is_terminal:
                assert o[OBS["opp_objective_revealed"]].sum() == 0
            # Another deal of the opponent's tiles leaves this seat's observation as it is.
            other = s.clone()
            other.drawn[1 - p] = tuple(t for t in range(8) if t not in s.drawn[p])[-2:]
            if other.kept[1 - p] >= 0:
                other.kept[1 - p] = other.drawn[1 - p][0]
            if not s.is_terminal:
                np.testing.assert_array_equal(other.observation(p), o)


def test_the_kept_tile_is_revealed_at_the_end_the_discarded_one_never():
    s = new_state("full", first=0)
    s.deal_objectives(((6, 0), (5, 1)))
    play(s, [(0, "keep Crook"), (1, "keep Cradle")])
    start(s)
    s.drops = [1, 10]
    set_board(s, {"B2": "RG", "C3": "BP"})
    play(s, [(0, "flip C3")])
    assert s.is_terminal
    for p, opp_kept, opp_discarded in ((0, 5, 1), (1, 6, 0)):
        assert np.flatnonzero(s.observation(p)[OBS["opp_objective_revealed"]]).tolist() == [opp_kept]
        text = s.describe(p)
        assert f"{OBJECTIVES[opp_kept].name} (" in text and OBJECTIVES[opp_discarded].name not in text


def test_determinize_redeals_only_the_opponents_tiles():
    rng = np.random.default_rng(0)
    redealt = 0
    for seed in range(60):
        s = full_game_at_turn(seed, moves=int(seed % 7))
        if s.is_terminal:
            continue
        for p in (0, 1):
            d = s.determinize(p, rng)
            d.check_invariants()
            assert d.drawn[p] == s.drawn[p] and d.kept[p] == s.kept[p]
            assert not set(d.drawn[1 - p]) & set(s.drawn[p])
            assert (d.kept[1 - p] >= 0) == (s.kept[1 - p] >= 0)
            assert d.stacks == s.stacks and d.masks == s.masks and d.drops == s.drops
            redealt += d.drawn[1 - p] != s.drawn[1 - p]
    assert redealt > 0


def test_intro_rules_hide_nothing_so_determinize_only_reseeds():
    s = MystriaGame(variant="intro").new_initial_state(3)
    d = s.determinize(0, np.random.default_rng(1))
    assert d.drawn == s.drawn == [(), ()] and d.stacks == s.stacks
    for p in (0, 1):
        np.testing.assert_array_equal(d.observation(p), s.observation(p))
    assert d.rng != s.rng


def test_describe_shows_each_seat_its_own_tiles_only():
    s = new_state("full", first=0)
    s.deal_objectives(((6, 0), (5, 1)))
    play(s, [(0, "keep Crook")])
    public, mine, theirs = s.describe(), s.describe(0), s.describe(1)
    assert "Crook" not in public and "Crook" not in theirs
    assert "kept Crook (7 points: places 1 2 3 5); discarded Banner" in mine
    assert "drew Wand" not in mine and "Cradle" in theirs
    assert "one tile kept face down" in public and "two tiles face down" in public
    with pytest.raises(ValueError):
        s.describe(2)
    with pytest.raises(TypeError):
        s.describe(True)


def test_variant_keyword():
    assert mystic_envs.make_raw("mystria_v0").game.variant == "full"
    assert mystic_envs.make_raw("mystria_v0", variant="intro").game.majority_points == 5
    with pytest.raises(ValueError, match="variant"):
        mystic_envs.make("mystria_v0", variant="expert")
    with pytest.raises(TypeError, match="variant"):
        mystic_envs.make("mystria_v0", variant=1)
