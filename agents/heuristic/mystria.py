"""A rule-based Mystria player (the balance reference of ``docs/rules/mystria.md``).

It sees only what its seat sees: every decision is taken on ``state.determinize(seat)``, where
the opponent's Objective tiles are re-dealt at random, and it never reads them (only its own).
It plays both rule sets (``variant`` "intro" and "full"), reading which from the state.

- Take step, planning: for every triangle of the central board and every colour, the cheapest
  sequence of moves and flips (at most 4, never more than the drops left) that makes it stand,
  built corner by corner - a stack already showing the colour (free), a flip, a neighbour moved
  in (flipped first if need be), or the blocking stack moved out and a neighbour moved in - and
  checked on a copy of the board. A triangle already standing is a plan of cost 0 (free).
- Take step, choosing: every plan and every token it makes takeable is scored as the token's
  worth on the player's Magician board (below), minus 4 points per drop spent (a drop is a
  point lost and a point handed over, and it is the player's safety), plus what the take leaves
  the opponent: 3 points per drop their cheapest next triangle will cost them (a triangle left
  standing is free for them), or a win if they have none within their drops (exhaustive search
  when they hold 2 or fewer; otherwise the estimate, confirmed by a search 3 deep); minus a risk
  that grows steeply as the drops the player will hold at its next turn fall to 0 (running dry
  is an immediate loss). The best plan's first action is played, and every later action
  re-plans, so a plan is followed unless a better one appears.
- If no plan of those shapes is within the drops (late in the game, when a stack must travel
  two spaces), an exhaustive breadth-first search finds the shortest sequence that makes a
  triangle: the player never runs dry while a triangle is within its drops (up to 4 actions).
- Worth of a token: its best place on the Magician board under an estimate of the final score.
  Per colour the estimate is the largest group plus 0.3 for each free place linked to it (room
  to grow along the board's connections). Intro rules: those sizes times the colour's value,
  against the opponent's; full rules: each colour's value weighted by tanh of the lead over the
  opponent's group (only the larger group scores: a lead of 1 is worth 76%, of 2 96%), the
  Majority token likewise on the largest groups, plus the kept Objective tile's points times
  0.75 per place of it still to fill in one colour.
- Place step: the place with the best estimate for the token in hand.
- Objective tile (full rules): the tiles are priced to the same expected points under this
  player's play, so it keeps one of its two by a coin read from the public deal.
- Score board (second player, the rulebook's answer to the first player's sixth drop): every
  distinct assignment of the score tokens is tried on a copy, where this same player's fast form
  plays the first player's opening, the reply and the first player's second turn (the first
  player's Objective tile, unseen, left out); the assignment kept is the one after which this
  player's best take, plus 4 points per drop that came its way, is worth most.

``decide(state, seat)`` is the whole player (about 0.5 ms a decision on average, a few ms at
most); ``decide(state, seat, fast=True)`` plans at most 2 actions ahead and judges the
opponent's reply for 3 plans instead of 8: the rollout policy of ``agents.mcts``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from agents.heuristic.base import DeterminizingHeuristic
from mystic_envs.mystria.board import (
    IS_LINE,
    LARGEST_GROUP,
    LINES,
    MOVE_PAIRS,
    NEIGHBOURS,
    NUM_COLOURS,
    NUM_PLACES,
    NUM_SPACES,
    OBJECTIVE_MASKS,
    OBJECTIVE_POINTS,
    PLACE_LINKS,
    TRIANGLES,
    TURNS,
    groups,
)
from mystic_envs.mystria.rules import (
    ASSIGN,
    FLIP,
    FLIPPABLE,
    FLIPPED,
    KEEP,
    KEEP_PHASE,
    MOVE,
    PLACE,
    PLACE_PHASE,
    SCORE_BOARD,
    STACKS,
    TAKE,
    TAKE_PHASE,
    TAKEN,
    TOP,
    MystriaState,
)

# --- tuning -------------------------------------------------------------------------------------
DROP_WORTH = 4.0  # a drop spent is a point lost, a point handed to the opponent, and less safety
LEAVE_WORTH = 3.0  # per drop the opponent must spend for their next triangle
MAX_PLAN = 4  # longest plan the full player searches; the fast (rollout) player stops at 2
FAST_PLAN = 2
LEAVE_CHECKS = 8  # plans whose take is judged by the opponent's reply (the best by own worth)
FAST_LEAVE_CHECKS = 3
GROWTH = 0.3  # worth of one free place around a colour's largest group, in group sizes
LEAD = 1.0  # full rules: tanh(LEAD * lead) is how surely a lead in group size wins the colour
KILL = 60.0  # leaving the opponent no triangle within their drops ends the game in our favour
# Risk of running dry, by the drops the player expects at the start of its next turn.
DRY_RISK = (40.0, 10.0, 4.0, 1.5)
OBJECTIVE_CHANCE = 0.75  # chance kept per place of the tile still to fill
# Score board: turns played out on a copy per assignment (first player, reply, first player).
SCORE_BOARD_TURNS = 3
INF = 99

# --- tables -------------------------------------------------------------------------------------
BOTTOM = tuple(t[-1] if t else -1 for t in STACKS)
# The move along a line, by (from, to) and (to, from): a move swaps a stack with an empty space.
_LINE_ACTION = {pair: MOVE + MOVE_PAIRS.index((a, b)) for a, b in LINES for pair in ((a, b), (b, a))}
_TRIANGLE_BITS = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in TRIANGLES)
_TRIANGLES_AT = tuple(tuple(t for t in TRIANGLES if s in t) for s in range(NUM_SPACES))
_FULL_BOARD = (1 << NUM_PLACES) - 1


def _largest_group_masks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For every set of places: one of its largest groups, and the places linked to that set."""
    group_of, around = [], []
    for mask in range(1 << NUM_PLACES):
        # On a tie the group found first (lowest place) stands for the colour, as any would.
        best = max(groups(mask), key=int.bit_count, default=0)
        group_of.append(best)
        around.append(_links(mask))
    return tuple(group_of), tuple(around)


def _links(mask: int) -> int:
    out = 0
    for i in range(NUM_PLACES):
        if mask >> i & 1:
            out |= PLACE_LINKS[i]
    return out & ~mask


GROUP_MASK, AROUND = _largest_group_masks()


# --- the central board -------------------------------------------------------------------------
def _apply(stacks: list[int], action: int) -> bool:
    """Play a move or flip on a bare list of stack codes; False (and nothing done) if illegal."""
    if action >= FLIP:
        s = action - FLIP
        if not FLIPPABLE[stacks[s]]:
            return False
        stacks[s] = FLIPPED[stacks[s]]
        return True
    if not IS_LINE[action - MOVE]:
        return False
    a, b = MOVE_PAIRS[action - MOVE]
    if (not stacks[a]) == (not stacks[b]):
        return False
    stacks[a], stacks[b] = stacks[b], stacks[a]
    return True


def standing(stacks: list[int]) -> int:
    """Bitmask of the spaces in a standing triangle (whose tops may be taken)."""
    out = 0
    for (a, b, c), bits in zip(TRIANGLES, _TRIANGLE_BITS, strict=True):
        t = TOP[stacks[a]]
        if t >= 0 and t == TOP[stacks[b]] == TOP[stacks[c]]:
            out |= bits
    return out


def _forms_at(stacks: list[int], space: int) -> bool:
    for a, b, c in _TRIANGLES_AT[space]:
        t = TOP[stacks[a]]
        if t >= 0 and t == TOP[stacks[b]] == TOP[stacks[c]]:
            return True
    return False


def _actions(stacks: list[int]) -> list[int]:
    empty = [e for e in range(NUM_SPACES) if not stacks[e]]
    moves = [_LINE_ACTION[e, u] for e in empty for u in NEIGHBOURS[e] if stacks[u]]
    return moves + [FLIP + s for s in range(NUM_SPACES) if FLIPPABLE[stacks[s]]]


def _corner_costs(stacks: list[int]) -> list[list[int]]:
    """Per space and colour, the fewest actions to show that colour there, ignoring the others
    (a cheap estimate: the opponent's cost of a triangle is the sum over its corners)."""
    out = []
    for v in range(NUM_SPACES):
        code = stacks[v]
        cost = [INF] * NUM_COLOURS
        if code:
            cost[TOP[code]] = 0
            if FLIPPABLE[code] and cost[BOTTOM[code]] > 1:
                cost[BOTTOM[code]] = 1
            if any(not stacks[u] for u in NEIGHBOURS[v]):  # the stack can make way for another
                for u in NEIGHBOURS[v]:
                    cu = stacks[u]
                    if cu:
                        if cost[TOP[cu]] > 2:
                            cost[TOP[cu]] = 2
                        if FLIPPABLE[cu] and cost[BOTTOM[cu]] > 3:
                            cost[BOTTOM[cu]] = 3
        else:
            for u in NEIGHBOURS[v]:
                cu = stacks[u]
                if cu:
                    if cost[TOP[cu]] > 1:
                        cost[TOP[cu]] = 1
                    if FLIPPABLE[cu] and cost[BOTTOM[cu]] > 2:
                        cost[BOTTOM[cu]] = 2
        out.append(cost)
    return out


def cheapest_triangle(stacks: list[int]) -> int:
    """Estimated fewest actions to make any triangle stand (0 if one stands)."""
    cc = _corner_costs(stacks)
    best = INF
    for a, b, c in TRIANGLES:
        ca, cb, cx = cc[a], cc[b], cc[c]
        for col in range(NUM_COLOURS):
            s = ca[col] + cb[col] + cx[col]
            if s < best:
                if s == 0:
                    return 0
                best = s
    return best


def _corner_options(stacks: list[int], v: int, col: int, tri: int) -> list[tuple[int, tuple[int, ...]]]:
    """Ways to show colour ``col`` on space ``v`` without touching the triangle ``tri`` (bits)."""
    code = stacks[v]
    opts: list[tuple[int, tuple[int, ...]]] = []
    sources = [u for u in NEIGHBOURS[v] if stacks[u] and not tri >> u & 1]
    if code:
        if TOP[code] == col:
            return [(0, ())]
        if FLIPPABLE[code] and BOTTOM[code] == col:
            opts.append((1, (FLIP + v,)))
        ways_out = [w for w in NEIGHBOURS[v] if not stacks[w] and not tri >> w & 1][:2]
        for w in ways_out:
            out = _LINE_ACTION[v, w]
            for u in sources:
                cu = stacks[u]
                if TOP[cu] == col:
                    opts.append((2, (out, _LINE_ACTION[u, v])))
                elif FLIPPABLE[cu] and BOTTOM[cu] == col:
                    opts.append((3, (out, FLIP + u, _LINE_ACTION[u, v])))
    else:
        for u in sources:
            cu = stacks[u]
            if TOP[cu] == col:
                opts.append((1, (_LINE_ACTION[u, v],)))
            elif FLIPPABLE[cu] and BOTTOM[cu] == col:
                opts.append((2, (FLIP + u, _LINE_ACTION[u, v])))
    opts.sort(key=lambda o: o[0])
    return opts


def plans(stacks: list[int], budget: int) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """(cost, actions, board after) for the cheapest checked plan of every triangle and colour
    reachable within ``budget`` actions."""
    cc = _corner_costs(stacks)
    found = []
    for (a, b, c), bits in zip(TRIANGLES, _TRIANGLE_BITS, strict=True):
        for col in range(NUM_COLOURS):
            if cc[a][col] + cc[b][col] + cc[c][col] > budget:
                continue
            oa = _corner_options(stacks, a, col, bits)
            ob = _corner_options(stacks, b, col, bits)
            ox = _corner_options(stacks, c, col, bits)
            if not (oa and ob and ox) or oa[0][0] + ob[0][0] + ox[0][0] > budget:
                continue
            combos = sorted(
                (ka + kb + kx, pa + pb + px)
                for ka, pa in oa
                for kb, pb in ob
                if ka + kb + ox[0][0] <= budget
                for kx, px in ox
                if ka + kb + kx <= budget
            )
            for cost, path in combos:
                st = stacks[:]
                if all(_apply(st, x) for x in path) and col == TOP[st[a]] == TOP[st[b]] == TOP[st[c]]:
                    found.append((cost, path, st))
                    break
    return found


# --- the Magician boards -----------------------------------------------------------------------
class Outlook:
    """What a seat reads of both Magician boards, to value a token on a place."""

    __slots__ = ("full", "kept", "majority", "opp_est", "opp_max", "seat", "values")

    def __init__(self, s: MystriaState, seat: int) -> None:
        self.seat = seat
        self.full = s.game.full
        self.values = s.values
        self.majority = s.game.majority_points
        self.kept = s.kept[seat] if self.full else -1
        opp = s.masks[1 - seat]
        self.opp_est = _estimates(opp)
        self.opp_max = max(LARGEST_GROUP[m] for m in opp)

    def worth(self, masks: list[int]) -> float:
        """Estimated final points of the seat's board against the opponent's (drops apart)."""
        est = _estimates(masks)
        opp = self.opp_est
        values = self.values
        lead = max(LARGEST_GROUP[m] for m in masks) - self.opp_max
        total = self.majority * math.tanh(LEAD * lead)
        if self.full:
            for c in range(NUM_COLOURS):
                total += values[c] * math.tanh(LEAD * (est[c] - opp[c]))
            if self.kept >= 0:
                total += _objective_worth(masks, self.kept)
        else:
            for c in range(NUM_COLOURS):
                total += values[c] * (est[c] - opp[c])
        return total

    def best_place(
        self, masks: list[int], col: int, scores: dict[int, float] | None = None
    ) -> tuple[float, int]:
        """(worth, place) of the best free place for a token of colour ``col``; ``scores`` gets
        every place's worth, keyed by its PLACE action."""
        free = _FULL_BOARD & ~(masks[0] | masks[1] | masks[2] | masks[3])
        best, where = -math.inf, -1
        left = free
        while left:
            low = left & -left
            trial = masks[:]
            trial[col] |= low
            w = self.worth(trial)
            if scores is not None:
                scores[PLACE + low.bit_length() - 1] = w
            if w > best:
                best, where = w, low.bit_length() - 1
            left ^= low
        return best, where


def _estimates(masks: list[int]) -> list[float]:
    """Per colour: the largest group plus GROWTH per free place linked to it (room to grow),
    capped by the turns left."""
    occupied = masks[0] | masks[1] | masks[2] | masks[3]
    free = _FULL_BOARD & ~occupied
    turns_left = free.bit_count()
    out = []
    for m in masks:
        g = LARGEST_GROUP[m]
        room = (AROUND[GROUP_MASK[m]] & free).bit_count() if g else 0
        out.append(g + GROWTH * min(room, turns_left))
    return out


def _objective_worth(masks: list[int], tile: int) -> float:
    """The kept tile's points times a chance of fulfilling it in the best colour."""
    need = OBJECTIVE_MASKS[tile]
    occupied = masks[0] | masks[1] | masks[2] | masks[3]
    turns_left = NUM_PLACES - occupied.bit_count()
    best = 0.0
    for m in masks:
        if need & occupied & ~m:
            continue  # another colour holds one of its places
        missing = (need & ~m).bit_count()
        if missing <= turns_left:
            best = max(best, OBJECTIVE_CHANCE**missing)
    return OBJECTIVE_POINTS[tile] * best


# --- decisions ----------------------------------------------------------------------------------
def decide(s: MystriaState, seat: int, fast: bool = False, scores: dict[int, float] | None = None) -> int:
    """The action for ``seat`` on a state it may fully read (its own determinized copy).

    ``scores``, if given, receives the value the player gave each option it compared, in points
    of its estimate: the first action of every plan it judged (the best plan through it), every
    place, every Objective tile, every colour (``tests/test_heuristic_scores.py``).
    """
    phase = s.phase
    if phase == TAKE_PHASE:
        if fast:
            return _take_step(s, seat, FAST_PLAN, FAST_LEAVE_CHECKS, scores)
        return _take_step(s, seat, MAX_PLAN, LEAVE_CHECKS, scores)
    if phase == PLACE_PHASE:
        return PLACE + Outlook(s, seat).best_place(s.masks[seat], s.held, scores)[1]
    if phase == KEEP_PHASE:
        return KEEP + _keep_choice(s, seat, scores)
    if phase == SCORE_BOARD:
        return ASSIGN + _score_board_colour(s, seat, scores)
    raise ValueError(f"no decision for seat {seat} in phase {s.phase_name!r}")


def _keep_choice(s: MystriaState, seat: int, scores: dict[int, float] | None = None) -> int:
    """The Objective tile kept. Every tile is priced to the same expected points under this
    player's own play (``docs/rules/mystria.md``, D-4), so neither of the two is better at setup: a
    coin read from the public deal picks one (the same whatever determinize re-deals; each tile is
    kept in about half of its draws)."""
    drawn = s.drawn[seat]
    # By turn order, not seat number, so that a game and its seat mirror play alike.
    pick = drawn[(sum(s.stacks) + (seat == s.first)) % 2]
    if scores is not None:
        scores.update({KEEP + t: float(t == pick) for t in drawn})
    return pick


def _score_board_colour(s: MystriaState, seat: int, scores: dict[int, float] | None = None) -> int:
    """The second player's answer to the first player's sixth drop: the colour on the highest free
    value in the assignment of the score tokens left that leaves it best placed after the opening.

    For every distinct way to place the tokens left, a copy plays the first player's turn, this
    player's reply and the first player's second turn (``SCORE_BOARD_TURNS``) with this same
    player's fast form, the first player's Objective tile left out (this seat cannot see it, so the
    choice never depends on what ``determinize`` dealt), and the position is judged by the best take
    this player then has (its own estimate, ``_take_step``) plus ``DROP_WORTH`` per drop the drops
    moved its way. The rule it replaces (the highest value on the colour most on view) handed the
    first player, who takes first, the colour worth most."""
    first = s.first
    free = [c for c in range(NUM_COLOURS) if not s.values[c]]
    left = s.game.score_values[s.assigned :]
    best, best_value = free[0], -math.inf
    seen: set[tuple[int, ...]] = set()
    for order in itertools.permutations(free):
        values = list(s.values)
        for c, v in zip(order, left, strict=False):
            values[c] = v
        if tuple(values) in seen:  # two equal values (3 and 3 on the introductory side) swapped
            continue
        seen.add(tuple(values))
        value = _judge_assignment(s, seat, first, order)
        if scores is not None:
            scores[ASSIGN + order[0]] = max(value, scores.get(ASSIGN + order[0], -math.inf))
        if value > best_value:
            best, best_value = order[0], value
    return best


def _judge_assignment(s: MystriaState, seat: int, first: int, order: tuple[int, ...]) -> float:
    st = s.clone(share_rng=True)
    for c in order[:-1]:  # the last token goes on the last value by itself
        st.apply(ASSIGN + c)
    if st.game.full:
        st.kept[first] = -1
    before = st.drops[seat]
    for turn in range(SCORE_BOARD_TURNS):
        mover = first if turn % 2 == 0 else seat
        while not st.is_terminal and st.current_player == mover:
            st.apply(decide(st, mover, fast=True))
    if st.is_terminal:
        return KILL if st.winner == seat else -KILL
    options: dict[int, float] = {}
    _take_step(st, seat, MAX_PLAN, LEAVE_CHECKS, options)
    return max(options.values(), default=-KILL) + DROP_WORTH * (st.drops[seat] - before)


def _take_step(
    s: MystriaState, seat: int, budget_cap: int, leave_checks: int, scores: dict[int, float] | None = None
) -> int:
    drops = s.drops[seat]
    opp_drops = s.drops[1 - seat]
    stacks = s.stacks
    outlook = Outlook(s, seat)
    masks = s.masks[seat]
    token_worth = [outlook.best_place(masks, c)[0] for c in range(NUM_COLOURS)]
    my_placed = (masks[0] | masks[1] | masks[2] | masks[3]).bit_count()
    opp_masks = s.masks[1 - seat]
    opp_turn_follows = (opp_masks[0] | opp_masks[1] | opp_masks[2] | opp_masks[3]).bit_count() < TURNS
    my_turn_follows = my_placed + 1 < TURNS

    # Own worth of each (plan, take): the token on its best place less the drops spent.
    options = []
    for cost, path, after in plans(stacks, min(drops, budget_cap)):
        tri = standing(after)
        while tri:
            low = tri & -tri
            space = low.bit_length() - 1
            tri ^= low
            worth = token_worth[TOP[after[space]]] - DROP_WORTH * cost
            options.append((worth, cost, path, after, space))
    if not options:
        return _fallback(s, seat)

    # The opponent's reply, for the best few: the drops their cheapest triangle costs them, a win
    # if they have none within their drops, and the risk of the player's own drops running dry.
    def judge(after: list[int], space: int, cost: int) -> float:
        if not opp_turn_follows:
            return 0.0
        left = after[:]
        left[space] = TAKEN[left[space]]
        their_drops = opp_drops + cost
        if their_drops <= 2:
            # Few drops: the exact search is cheap, and a kill found by it is certain.
            path = shortest_plan(left, their_drops)
            if path is None:
                return KILL
            their_cost = len(path)
        else:
            their_cost = cheapest_triangle(left)
            if their_cost > their_drops and shortest_plan(left, min(their_drops, 3)) is None:
                return KILL
        score = LEAVE_WORTH * min(their_cost, their_drops)
        if my_turn_follows:
            expected = drops - cost + min(their_cost, their_drops)
            if expected < len(DRY_RISK):
                score -= DRY_RISK[expected]
        return score

    options.sort(key=lambda o: (-o[0], o[1], o[2], o[4]))
    best, best_score = options[0][2], -math.inf
    for worth, cost, path, after, space in options[:leave_checks]:
        score = worth + judge(after, space, cost)
        if scores is not None:
            first = path[0] if path else TAKE + space
            scores[first] = max(score, scores.get(first, -math.inf))
        if score > best_score:
            best, best_score = (*path, TAKE + space), score
    return best[0]


def _fallback(s: MystriaState, seat: int) -> int:
    """No plan of the planner's shapes within reach (late in the game few stacks stand, and a
    stack may have to travel two spaces): the first action of the shortest sequence that makes a
    triangle, by exhaustive search; failing that, the action after which one looks cheapest."""
    path = shortest_plan(s.stacks, min(s.drops[seat], MAX_PLAN))
    if path:
        return path[0]
    stacks = s.stacks
    best, best_cost = -1, INF + 1
    for a in s.legal_actions():
        if a >= TAKE:
            continue
        st = stacks[:]
        _apply(st, a)
        c = cheapest_triangle(st)
        if c < best_cost:
            best, best_cost = a, c
    return best if best >= 0 else s.legal_actions()[0]


def rollout_policy(state: MystriaState, rng: np.random.Generator) -> int:
    """The fast player as a state-level policy for search rollouts (reads the state in full)."""
    return decide(state, state.current_player, fast=True)


class MystriaHeuristic(DeterminizingHeuristic):
    """Rule-based Mystria agent; see the module docstring. Plays both variants (intro, full)."""

    decide = staticmethod(decide)


def shortest_plan(stacks: list[int], depth: int) -> tuple[int, ...] | None:
    """Exactly: the shortest sequence of at most ``depth`` moves and flips after which a
    triangle stands (breadth-first, each board seen once), or None."""
    if standing(stacks):
        return ()
    seen = {tuple(stacks)}
    frontier: list[tuple[list[int], tuple[int, ...]]] = [(stacks, ())]
    for _ in range(depth):
        deeper = []
        for st, path in frontier:
            for a in _actions(st):
                c = st[:]
                _apply(c, a)
                key = tuple(c)
                if key in seen:
                    continue
                seen.add(key)
                changed = (a - FLIP,) if a >= FLIP else MOVE_PAIRS[a - MOVE]
                if any(_forms_at(c, s) for s in changed):
                    return (*path, a)
                deeper.append((c, (*path, a)))
        frontier = deeper
    return None
