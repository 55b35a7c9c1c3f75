"""Trajectory digests for the determinism checks.

Kept free of pytest and of package-relative imports so that a bare ``python -c`` subprocess can
load it with ``runpy.run_path`` and compute exactly what the test process computes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def _info_repr(info: dict[str, Any]) -> bytes:
    # Sorted so the digest covers the content of infos, not the order keys were inserted in.
    return repr(sorted(info.items())).encode()


def game_digests(env_factory: Callable[[], Any], games: Sequence[tuple[int | None, int]]) -> list[str]:
    """Play ``games`` (pairs of reset seed, policy seed) on one env from ``env_factory``.

    Every agent is a uniform random legal policy drawn from ``numpy.random.default_rng(policy
    seed)``. Returns one SHA-256 per game over everything the API hands out: the agent to act,
    every agent's observation and action mask, rewards, terminations, truncations, infos and
    the actions taken.
    """
    env = env_factory()
    out = []
    for reset_seed, policy_seed in games:
        h = hashlib.sha256()
        env.reset(seed=reset_seed)
        rng = np.random.default_rng(policy_seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            h.update(agent.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            for other in env.possible_agents:
                seen = env.observe(other)
                h.update(seen["observation"].tobytes())
                h.update(seen["action_mask"].tobytes())
            h.update(repr((float(reward), bool(term), bool(trunc))).encode())
            h.update(_info_repr(info))
            if term or trunc:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
            h.update(repr(action).encode())
            env.step(action)
        out.append(h.hexdigest())
    env.close()
    return out


def make_digests(
    env_id: str, num_players: int, games: Sequence[tuple[int | None, int]], max_steps: int | None = None
) -> list[str]:
    """:func:`game_digests` on ``mystic_envs.make(env_id, num_players=num_players)`` (with
    ``max_steps`` when given: the trajectory up to the truncation)."""
    import mystic_envs

    kwargs = {} if max_steps is None else {"max_steps": max_steps}
    return game_digests(lambda: mystic_envs.make(env_id, num_players=num_players, **kwargs), games)
