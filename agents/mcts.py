"""Information-set Monte Carlo tree search for any mystic-envs game.

Single-observer ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 2012). The agent builds one tree from its own point of view, keyed by the actions
played since the root. Every iteration samples a fresh determinization of the root (the hidden
cards re-dealt consistently with what the agent sees, future chance re-seeded), walks down the tree
using only children legal in that determinization, expands one untried legal action, rolls out and
backs up each node's return for the seat that moved into it. A child's UCB term counts how often it
was *available* rather than how often its parent was visited, so actions legal only in some
determinizations (an opponent playing a secret it may not hold) are not over-explored.

Any player count: the returns backed up are the whole per-seat vector of ``returns()``, and each
node adds the entry of the seat that moved into it (max-n style), so every seat's moves in the tree
are chosen for that seat; a seat eliminated mid-game keeps the fixed reward ``returns()`` gives it,
and the search never reaches its turn again. On the 2-5 player race fixture of the tests
(``tests/multiplayer_toy.py``), 100 simulations alone against two random players win a 53% share of
60 games (41-65%, an equal's share is 33%; mean reward +0.35 [+0.16, +0.55]; ``training.evaluate
--num-players 3 --agents random mcts:simulations=100 --games 120``), and against three a 50% share
(38-62%, equals 25%; +0.42 [+0.25, +0.59]) at four players.

The agent reads the true state only through ``state.determinize(own_seat, rng)``, plus the public
``current_player`` and ``legal_actions()``: it never sees hidden information. Everything else it
needs is the fixed ``GameState`` interface (``legal_actions``, ``apply``, ``current_player``,
``is_terminal``, ``returns``), so it plays every game of the collection.

Engines (``engine=``): the same search runs in Python or in C (``mystic_envs/core/c/search.c``, over
any game's compiled twin: same selection rule, a fresh re-deal every iteration, uniform random
rollouts, the same constants; each decision's C generator is seeded by one draw of the agent's own).
``"auto"``, the default, searches in C wherever it can: the core is built, the game has a twin,
rollouts are random, and the env's game is either compiled (``make(env_id, engine="c")``) or can be
replayed on its twin from the env's ``game_history()`` (seed and actions), which it checks against
the live game (the mover and every seat's view) before each search. Otherwise it searches in
Python: heuristic rollouts, a game without a twin, a state handed over without its env's history.
``"c"`` refuses (one-line ``CoreUnavailableError`` or ``ValueError``) where ``"auto"`` would fall
back, and ``"python"`` is today's search. The replayed game is the true one, read by the C search,
like the Python one, only through re-deals from the agent's view (``tests/core/test_search.py``).
Speed at 1,000 simulations a move, 8 positions a game, 3 rounds on a busy 2-core machine
(``python benchmarks/mcts_speed.py``, median [range]): Elemystic 137,583 simulations/s in C against
2,915 in Python, 47.2x [36.8-48.5]; Mystria 41,148 against 1,244, 33.1x [25.4-34.0]. Play, C against
Python at equal simulations over 400 games, seats balanced: Elemystic (200 simulations) 48.2%
[43.4, 53.1], Mystria (100) 54.8% [49.9, 59.6], and 48.8% [43.9, 53.6] on other seeds (51.7%
[48.3, 55.2] of the 800; ``docs/evaluation.md``). Ties between UCB scores go
to the first legal action in ascending order in C, in ``legal_actions()`` order in Python, which was
ascending at every one of 10,795 decisions of 200 random games of each. The strength figures below
were measured on the Python search.

Strength on ``elemystic_v0`` against the ``heuristic`` agent, seats balanced, 1000 simulations
(95% Wilson intervals): random rollouts win 86.0% of 400 games (82.3-89.1%; ``python -m
training.evaluate --env elemystic_v0 --agents heuristic mcts --games 400``) at ~2.2 s a game on one
core, on issue 20's components (87.5% on the first release's). On the first release's, heuristic
rollouts won 87% of 102 (79-92%) but cost ~4x more per game, and at equal time (250 simulations)
only 65% of 120 (56-73%); hence ``rollout="random"`` is the default. ``c`` of 0.7 and 2.8 did no
better than 1.4 (78% and 85% of 120).

On ``mystria_v0`` (full rules) against its ``heuristic``, seats balanced, the defaults are weak: a
random player runs out of Energy drops within a few turns, so a random rollout says little about
the position. Random rollouts win 1.0% of 200 games at 200 simulations (0.3-3.6%, ~1 s a game) and
12.5% of 200 at 1000 (8.6-17.8%, ~6 s a game); heuristic rollouts (the fast Mystria player) win
25% of 40 at 200 simulations (14-40%) but take ~100 s a game.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core import compiled
from mystic_envs.core.game import Game, GameState, check_seed
from mystic_envs.core.policies import seat_to_move

ROLLOUTS = ("random", "heuristic")
#: Where the search runs: ``"auto"`` (C when it can, else Python), ``"c"`` or ``"python"``.
ENGINES = ("auto", "c", "python")

#: A state-level policy for rollouts: ``policy(state, rng) -> action`` on a state it may fully read.
RolloutPolicy = Callable[[GameState, np.random.Generator], int]


class _Node:
    """One tree node: statistics of the action that led here, children by action."""

    __slots__ = ("avail", "children", "player", "value", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose move led here: `value` sums that seat's returns
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 1  # iterations in which this action was legal when its parent was passed


class MCTSAgent:
    """Single-observer information-set MCTS; see the module docstring.

    - ``simulations``: iterations per decision (>= 1).
    - ``time_budget``: optional cap in seconds per decision; the search stops at whichever of
      ``simulations`` and ``time_budget`` comes first (at least one iteration always runs). A
      time cap makes the choice depend on the machine's speed, so it is not reproducible.
    - ``rollout``: ``"random"`` (uniform legal moves) or ``"heuristic"`` (the game's rule-based
      player at its fast setting, from ``agents.heuristic.ROLLOUT_POLICIES``; needs ``env_id``).
    - ``rollout_depth``: rollout moves before the return is read (``None``: to the end). A game
      still running then scores ``returns()`` as it stands, zero for every seat still in play.
    - ``c``: UCB exploration constant (returns lie in [-1, 1]).
    - ``seed``: everything random (determinizations, rollouts, tie breaks) comes from it.
    - ``env_id``: the game, which ``rollout="heuristic"`` needs to find its policy
      (``make_agent("mcts", env_id, ...)`` passes it); given, the agent refuses to act in any other
      game. ``None`` searches any game's ``GameState``.
    - ``engine``: ``"auto"`` (C where it can, else Python), ``"c"`` or ``"python"``; see the module
      docstring. Heuristic rollouts always search in Python (``self.engine`` is then ``"python"``).
    """

    def __init__(
        self,
        simulations: int = 1000,
        time_budget: float | None = None,
        rollout: str = "random",
        rollout_depth: int | None = None,
        c: float = 1.4,
        seed: int | None = None,
        env_id: str | None = None,
        engine: str = "auto",
    ) -> None:
        if not _is_int(simulations) or simulations < 1:
            raise ValueError(f"simulations must be an int >= 1, got {simulations!r}")
        if time_budget is not None and (not _is_real(time_budget) or not time_budget >= 0):
            raise ValueError(f"time_budget must be None or a number of seconds >= 0, got {time_budget!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r}; choose one of {list(ROLLOUTS)}")
        if rollout_depth is not None and (not _is_int(rollout_depth) or rollout_depth < 0):
            raise ValueError(f"rollout_depth must be None or an int >= 0, got {rollout_depth!r}")
        if not _is_real(c) or not 0 <= c < math.inf:
            raise ValueError(f"c must be a number >= 0 (finite), got {c!r}")
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; choose one of {list(ENGINES)}")
        if engine == "c" and rollout != "random":
            raise ValueError(
                "engine='c' plays random rollouts only; rollout='heuristic' needs engine='python'"
            )
        if engine == "c" and not compiled.is_available():
            raise compiled.CoreUnavailableError(f"engine='c': {compiled.HOW_TO_BUILD}")
        self.simulations = int(simulations)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.c = float(c)
        self.policy: RolloutPolicy | None = None
        if rollout == "heuristic":
            from agents.heuristic import ROLLOUT_POLICIES

            if env_id not in ROLLOUT_POLICIES:
                raise ValueError(
                    f"rollout='heuristic' needs an env_id with a heuristic rollout policy, got {env_id!r}; "
                    f"they exist for {sorted(ROLLOUT_POLICIES)}"
                )
            self.policy = ROLLOUT_POLICIES[env_id]
        if env_id is not None:
            mystic_envs.env_module(env_id)  # an unknown id fails here, not at the first move
            if engine == "c":
                compiled.twin_module(type(mystic_envs.make_raw(env_id).game))  # no twin: a one-line error now
        self.env_id = env_id
        # Heuristic rollouts call Python per move, so they keep the Python search.
        self.engine = "python" if rollout != "random" else engine
        self._core_game: tuple[Game, compiled.CoreGame] | None = None
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(check_seed(seed))
        # The hot path (tree walk, random rollouts) draws a number per move; numpy's scalar draws
        # cost ~10x more than random.Random's, and a private instance seeded here stays
        # reproducible without touching the global generator.
        self._fast = random.Random(int(self.rng.integers(2**63)))

    def act(self, env: Any, agent_id: str) -> int:
        seat, legal, state, core = self._root(env, agent_id)
        if len(legal) == 1:
            return legal[0]
        if core is not None:
            seed = int(self.rng.integers(2**63))
            counts, _ = core.search(
                seat, self.simulations, self.c, seed, self.rollout_depth, self.time_budget
            )
            visits = {a: int(counts[a]) for a in legal if counts[a] > 0}
        else:
            root = _Node(seat)
            deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
            for i in range(self.simulations):
                if deadline is not None and i > 0 and time.perf_counter() >= deadline:
                    break
                self._iterate(root, state.determinize(seat, self.rng))
            visits = {a: root.children[a].visits for a in legal if a in root.children}
        most = max(visits.values())
        best = [a for a, v in visits.items() if v == most]
        return best[int(self.rng.integers(len(best)))]

    def _root(self, env: Any, agent_id: str) -> tuple[int, list[int], GameState, compiled.CoreState | None]:
        """The searching seat, its legal actions, the env's game, and that game on its compiled twin
        (``None`` for the Python search, or when there is a single legal action)."""
        seat = seat_to_move(env, agent_id, self.env_id)
        state = env.unwrapped.game_state
        legal = state.legal_actions()
        searched_in_c = self.engine != "python" and len(legal) > 1
        return seat, legal, state, self._compiled_root(env.unwrapped, state) if searched_in_c else None

    def _compiled_root(self, env: Any, state: GameState) -> compiled.CoreState | None:
        """The game of ``env`` on its compiled twin, or ``None`` (under ``engine="auto"``) when there
        is none: the core is not built, the game has no twin, or the env cannot say how its game was
        played. A Python game is replayed from its seed and actions (``game_history()``), and the
        replay is checked against it: the mover and every seat's view."""
        if isinstance(state, compiled.CoreState):
            return state
        history = getattr(env, "game_history", None)
        played = history() if callable(history) else None
        try:
            if played is None:
                raise compiled.CoreUnavailableError("the env keeps no history of its game (game_history())")
            game = env.game
            if self._core_game is None or self._core_game[0] is not game:
                self._core_game = (game, compiled.CoreGame(game))
            core = self._core_game[1].new_initial_state(played[0])
            for action in played[1]:
                core.apply(action)
            n = core.game.num_players
            if core.current_player != state.current_player or not all(
                np.array_equal(core.observation(p), state.observation(p)) for p in range(n)
            ):
                raise compiled.CoreUnavailableError(
                    "the env's game differs from the replay of its history (was its state changed directly?)"
                )
        except compiled.CoreUnavailableError as exc:
            if self.engine == "c":
                raise compiled.CoreUnavailableError(f"engine='c': {exc}") from None
            return None
        return core

    def _iterate(self, root: _Node, state: GameState) -> None:
        """One ISMCTS iteration on a fresh determinization ``state`` (consumed)."""
        c = self.c
        rand = self._fast.random
        node = root
        path = []
        while not state.is_terminal:
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                a = untried[int(rand() * len(untried))]
                child = children[a] = _Node(state.current_player)
                state.apply(a)
                path.append(child)
                break
            best_action, best_score = legal[0], -math.inf
            for a in legal:
                child = children[a]
                score = child.value / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                child.avail += 1
                if score > best_score:
                    best_action, best_score = a, score
            node = children[best_action]
            state.apply(best_action)
            path.append(node)
        self._rollout(state)
        returns = state.returns().tolist()
        for n in path:
            n.visits += 1
            n.value += returns[n.player]

    def _rollout(self, state: GameState) -> None:
        steps = math.inf if self.rollout_depth is None else self.rollout_depth
        policy = self.policy
        if policy is None:
            rand = self._fast.random
            while steps > 0 and not state.is_terminal:
                legal = state.legal_actions()
                state.apply(legal[int(rand() * len(legal))])
                steps -= 1
        else:
            while steps > 0 and not state.is_terminal:
                state.apply(policy(state, self.rng))
                steps -= 1


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _is_real(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)
