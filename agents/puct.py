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

    def _evaluate(self, node: _Node, state: GameState) -> np.ndarray:
        """The node's prior, and the leaf value of ``state`` for every seat."""
        mover = state.current_player
        obs = state.observation(mover)
        node.prior = self.net.action_probabilities(obs, np.ones(state.game.num_actions, dtype=bool))
        v = float(np.clip(self.net.value(obs), -1.0, 1.0))
        n = state.game.num_players
        values = np.full(n, -v / max(1, n - 1))
        values[mover] = v
        return values

    def _walk(self, root: _Node, state: GameState) -> None:
        """One iteration on a fresh determinization ``state`` (consumed)."""
        node, path = root, []
        while True:
            if state.is_terminal:
                values = state.returns()
                break
            if node.prior is None:
                values = self._evaluate(node, state)
                break
            legal = state.legal_actions()
            prior = node.prior[legal]
            prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(legal), 1.0 / len(legal))
            children = node.children
            visits = [children[a].visits if a in children else 0 for a in legal]
            scale = self.c * math.sqrt(1 + sum(visits))
            best, best_score = legal[0], -math.inf
            for a, p, n in zip(legal, prior, visits, strict=True):
                q = children[a].value / n if n else 0.0
                score = q + scale * p / (1 + n)
                if score > best_score:
                    best, best_score = a, score
            if best not in children:
                children[best] = _Node(state.current_player)
            node = children[best]
            state.apply(best)
            path.append(node)
        for n in path:
            n.visits += 1
            n.value += float(values[n.player])
