"""Agents for every mystic-envs game behind one protocol (CONVENTIONS section 4).

``make_agent(name, env_id, **kw)`` builds any agent; every agent has ``act(env, agent_id) -> int``
on a live AEC env. Importing this package registers its names with the core library, so
``mystic_envs.single_agent(env_id, opponent="heuristic")`` works afterwards.

Names today: ``random`` (uniform over the mask, seeded), ``heuristic`` (a rule-based player
per game; see ``agents.heuristic``; keywords retune its constants, e.g. ``FIX=0.6``, see
``agents.heuristic.tuning``), ``mcts`` (information-set Monte Carlo tree search over the
rules engine, seeing only its own seat's view, searching in C on the compiled core where it can;
see ``agents.mcts``; keywords ``simulations``, ``time_budget``, ``rollout``, ``rollout_depth``, ``c``,
``engine``) and ``ppo`` (a saved MaskablePPO model acting
with masks; keywords ``path`` (default: the model shipped in ``agents/pretrained/`` for the game at
``num_players``, declared in ``agents/pretrained/MODELS.json``), ``num_players`` and
``deterministic``; see ``agents.ppo``), ``rllib`` (a policy trained with Ray RLlib by
``training.rllib_train``, played from its checkpoint without Ray; keywords ``path`` (default: the
policy shipped in ``agents/pretrained/``), ``module`` and ``deterministic``; see ``agents.rllib``) and
``human`` (plays from the terminal: ``python -m agents.play ENV_ID --opponent heuristic``; see
``agents.human``).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import mystic_envs
from mystic_envs.core.game import check_seed
from mystic_envs.core.policies import RandomPolicy, register_policy

__all__ = ["AGENT_NAMES", "Agent", "RandomAgent", "make_agent"]


@runtime_checkable
class Agent(Protocol):
    """Chooses a legal action for ``agent_id`` on a live AEC env."""

    def act(self, env: Any, agent_id: str) -> int: ...


RandomAgent = RandomPolicy


def _make_heuristic(env_id: str, seed: int | None = None, **kw: Any) -> Agent:
    from agents.heuristic import HEURISTICS

    if env_id not in HEURISTICS:
        raise ValueError(f"no heuristic agent for {env_id!r} yet; heuristics exist for {sorted(HEURISTICS)}")
    if kw:
        # Keywords retune the heuristic's constants (agents.heuristic.tuning), e.g. FIX=0.6.
        from agents.heuristic.tuning import TunedHeuristic

        return TunedHeuristic(env_id, kw, seed=seed)
    return HEURISTICS[env_id](seed=seed)


def _make_mcts(env_id: str, seed: int | None = None, guide: str | None = None, **kw: Any) -> Agent:
    if guide is None:
        from agents.mcts import MCTSAgent

        return MCTSAgent(seed=seed, env_id=env_id, **kw)
    if guide != "ppo":
        raise ValueError(f"unknown guide {guide!r}; the network-guided search knows 'ppo'")
    from agents.puct import PUCTAgent  # needs the train extra, as the ppo agent does

    return PUCTAgent(env_id, seed=seed, **kw)


def _make_ppo(env_id: str, seed: int | None = None, **kw: Any) -> Agent:
    # Imported here: torch and sb3-contrib are the optional `train` extra.
    try:
        from agents.ppo import PPOAgent

        return PPOAgent(env_id, seed=seed, **kw)
    except ModuleNotFoundError as exc:
        if exc.name not in ("torch", "stable_baselines3", "sb3_contrib"):
            raise
        raise ModuleNotFoundError(
            f"the ppo agent needs the train extra ({exc.name} is not installed): "
            "pip install torch==2.13.0 'mystic-envs[train]'"
        ) from exc


def _make_rllib(env_id: str, seed: int | None = None, **kw: Any) -> Agent:
    # Imported on use like the others; it needs numpy only, never Ray or torch.
    from agents.rllib import RLlibAgent

    return RLlibAgent(env_id, seed=seed, **kw)


def _make_human(env_id: str, seed: int | None = None, **kw: Any) -> Agent:
    from agents.human import HumanAgent

    return HumanAgent(env_id, seed=seed, **kw)


_FACTORIES = {
    "random": lambda env_id, seed=None, **kw: RandomAgent(seed, env_id=env_id, **kw),
    "heuristic": _make_heuristic,
    "mcts": _make_mcts,
    "ppo": _make_ppo,
    "rllib": _make_rllib,
    "human": _make_human,
}
AGENT_NAMES = tuple(_FACTORIES)


def make_agent(name: str, env_id: str, seed: int | None = None, **kw: Any) -> Agent:
    """Build agent ``name`` for ``env_id`` (a name from ``AGENT_NAMES``), seeded by ``seed`` (None
    or an integer >= 0). The agent acts in games of ``env_id`` only: asked to act in another, it
    raises ``ValueError``."""
    mystic_envs.env_module(env_id)  # a clear error for unknown env ids
    if not isinstance(name, str) or name not in _FACTORIES:
        raise ValueError(f"unknown agent {name!r}; known agents: {list(AGENT_NAMES)}")
    check_seed(seed)  # before a model is loaded
    return _FACTORIES[name](env_id, seed=seed, **kw)


for _name, _factory in _FACTORIES.items():
    register_policy(_name, _factory)
