"""mystic-envs: tabletop games as PettingZoo AEC environments.

>>> import mystic_envs
>>> env = mystic_envs.make("elemystic_v0")
>>> env.reset(seed=0)

``ENV_IDS`` lists the games that are implemented in this release; the others of the
collection (``mystick_domination_v0``, ``mystic_vale_v0``) join it as they land.
Nothing heavy (torch, SB3) is imported here.
"""

from __future__ import annotations

import importlib
from typing import Any

from mystic_envs.core.errors import GameOverError, IllegalActionError

__version__ = "0.1.0"

# env id -> (public module, allowed player counts)
_REGISTRY: dict[str, tuple[str, tuple[int, ...]]] = {
    "elemystic_v0": ("mystic_envs.elemystic_v0", (2,)),
    "mystria_v0": ("mystic_envs.mystria_v0", (2,)),
    "tarot_dice_v0": ("mystic_envs.tarot_dice_v0", (2,)),
}
_PLANNED = ("mystick_domination_v0", "mystic_vale_v0")

ENV_IDS: tuple[str, ...] = tuple(_REGISTRY)

__all__ = [
    "ENV_IDS",
    "GameOverError",
    "IllegalActionError",
    "env_module",
    "make",
    "make_raw",
    "player_counts",
    "single_agent",
]


def env_module(env_id: str) -> Any:
    """The public module (``env``, ``raw_env``) of ``env_id``."""
    if not isinstance(env_id, str):
        raise TypeError(f"env_id must be a str, got {env_id!r}")
    if env_id not in _REGISTRY:
        if env_id in _PLANNED:
            raise ValueError(f"{env_id!r} is planned but not implemented yet; available: {list(ENV_IDS)}")
        raise ValueError(f"unknown env id {env_id!r}; available: {list(ENV_IDS)}")
    return importlib.import_module(_REGISTRY[env_id][0])


def player_counts(env_id: str) -> tuple[int, ...]:
    """Player counts the rulebook of ``env_id`` allows."""
    env_module(env_id)
    return _REGISTRY[env_id][1]


def make(env_id: str, **kwargs: Any) -> Any:
    """The wrapped PettingZoo AEC env (order enforcing) for ``env_id``."""
    return env_module(env_id).env(**kwargs)


def make_raw(env_id: str, **kwargs: Any) -> Any:
    """The bare AEC env for ``env_id`` (no PettingZoo wrapper)."""
    return env_module(env_id).raw_env(**kwargs)


def single_agent(env_id: str, opponent: Any = "random", seat: int | None = None, **kwargs: Any) -> Any:
    """A ``gymnasium.Env`` for one learning seat of ``env_id``; see :class:`SingleAgentEnv`."""
    from mystic_envs.core.single_agent import SingleAgentEnv

    return SingleAgentEnv(env_id, make_raw(env_id, **kwargs), opponent=opponent, seat=seat)


def _register_with_pettingzoo() -> None:
    # PettingZoo >= 1.26 has a registry; older versions simply lack it.
    try:
        from pettingzoo import register
    except ImportError:
        return
    from pettingzoo import aec_registry

    for env_id, (module, _) in _REGISTRY.items():
        spec_id = f"mystic/{env_id[: -len('_v0')]}-v0"
        if spec_id not in aec_registry:
            register("aec", spec_id, entry_point=f"{module}:env")


_register_with_pettingzoo()
