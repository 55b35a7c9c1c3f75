"""Network-guided search: ``make_agent("mcts", env_id, guide="ppo")`` (``mcts:guide=ppo``).

PUCT (AlphaZero's selection rule) over determinizations, with a PPO policy as the prior and its
value head at the leaves, in place of random rollouts. As in ``agents.mcts``, one tree is built from
the agent's own point of view, keyed by the actions played since the root, and every iteration
walks it in a fresh re-deal of the root from the agent's view (``determinize``), among the actions
legal in that re-deal:

- at a node met for the first time, the mover's observation in this re-deal goes through the
  network once: its policy over every action is kept as the node's prior, and its value ``v`` (the
  mover's expected return, as the value head learned it) is backed up as ``v`` for the mover and
  ``-v / (num_players - 1)`` for every other seat (a zero-sum split); a finished game backs up
  ``returns()`` instead;
- elsewhere the walk takes the legal action with the highest
  ``Q(a) + c * P(a) * sqrt(1 + N) / (1 + N(a))``, where ``P`` is the prior renormalized over the
  legal actions, ``N(a)`` the child's visits, ``N`` their sum, and ``Q(a)`` the mean return of the
  child for the seat that moved into it (0 before its first visit);
- the move played is the root's most visited legal action (ties: the higher prior).

Options: ``simulations`` (64), ``c`` (1.5), ``path`` (a MaskablePPO zip; default the model shipped
for the game in ``agents/pretrained/`` at ``num_players``, as the ``ppo`` agent picks it),
``num_players``, ``seed``, ``engine`` (``"auto"``: the states of the search
are the compiled twin's when the env's game can be replayed on it, as ``agents.mcts`` does;
``"c"``: only then; ``"python"``: the Python engine's). The network runs on its numpy copy (the
``ppo`` agent's), one observation at a time. Needs the ``train`` extra, as the ``ppo`` agent does.

Measured against plain ``mcts`` at 1,000 simulations: see ``docs/evaluation.md`` (Network-guided
search).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from agents.mcts import MCTSAgent
from mystic_envs.core.game import GameState


class _Node:
    __slots__ = ("children", "player", "prior", "value", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat whose move led here: `value` sums that seat's returns
        self.children: dict[int, _Node] = {}
        self.prior: np.ndarray | None = None  # the mover's policy over every action, once evaluated
        self.visits = 0
        self.value = 0.0


class PUCTAgent(MCTSAgent):
    """PUCT over determinizations with a PPO prior and value; see the module docstring."""

    def __init__(
        self,
        env_id: str,
        simulations: int = 64,
        c: float = 1.5,
        path: str | None = None,
        seed: int | None = None,
        engine: str = "auto",
        num_players: int | None = None,
    ) -> None:
        super().__init__(simulations=simulations, c=c, seed=seed, env_id=env_id, engine=engine)
        from agents.ppo import PPOAgent

        self.net = PPOAgent(env_id, path=path, num_players=num_players)

    def act(self, env: Any, agent_id: str) -> int:
        seat, legal, state, core = self._root(env, agent_id)
        if len(legal) == 1:
            return legal[0]
        root = _Node(seat)
        for _ in range(self.simulations):
            self._walk(root, (state if core is None else core).determinize(seat, self.rng))
        assert root.prior is not None
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else 0, root.prior[a]))

    def _evaluate(self, node: _Node, state: GameState) -> list[float]:
        """The node's prior, and the leaf value of ``state`` for every seat."""
        mover = state.current_player
        node.prior, value = self.net.policy_and_value(state.observation(mover))
        v = min(max(value, -1.0), 1.0)
        n = state.game.num_players
        values = [-v / max(1, n - 1)] * n
        values[mover] = v
        return values

    def _walk(self, root: _Node, state: GameState) -> None:
        """One iteration on a fresh determinization ``state`` (consumed)."""
        # Python floats, not numpy scalars, in the formula's order: the same float64 numbers, and so
        # the same choices (tests/test_puct.py checks the tree against the plain numpy loop), for
        # less of the search's time, which is the network's and this loop's.
        node, path = root, []
        while True:
            if state.is_terminal:
                values = state.returns().tolist()
                break
            if node.prior is None:
                values = self._evaluate(node, state)
                break
            legal = state.legal_actions()
            prior = node.prior[legal]
            total = prior.sum()
            priors = (prior / total).tolist() if total > 0 else [1.0 / len(legal)] * len(legal)
            children = node.children
            kids = [children.get(a) for a in legal]
            scale = self.c * math.sqrt(1 + sum(k.visits for k in kids if k is not None))
            best, best_score = 0, -math.inf
            for i, (kid, p) in enumerate(zip(kids, priors, strict=True)):
                # A child exists only once visited (the walk that made it backs it up); an unvisited
                # action's score, 0 + scale * p / 1, is scale * p exactly.
                score = scale * p if kid is None else kid.value / kid.visits + scale * p / (1 + kid.visits)
                if score > best_score:
                    best, best_score = i, score
            action, child = legal[best], kids[best]
            if child is None:
                child = children[action] = _Node(state.current_player)
            node = child
            state.apply(action)
            path.append(node)
        for n in path:
            n.visits += 1
            n.value += values[n.player]
