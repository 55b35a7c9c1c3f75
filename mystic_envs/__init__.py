"""mystic-envs: tabletop games as PettingZoo AEC environments.

>>> import mystic_envs
>>> env = mystic_envs.make("elemystic_v0")
>>> env.reset(seed=0)

``ENV_IDS`` lists the five games of the collection.
Nothing heavy (torch, SB3) is imported here.
"""

from __future__ import annotations

import importlib
from typing import Any

from mystic_envs.core.errors import GameOverError, IllegalActionError

__version__ = "0.3.0"

# env id -> (public module, allowed player counts, Gymnasium name of its single-agent view)
_REGISTRY: dict[str, tuple[str, tuple[int, ...], str]] = {
    "elemystic_v0": ("mystic_envs.elemystic_v0", (2,), "Elemystic"),
    "mystria_v0": ("mystic_envs.mystria_v0", (2,), "Mystria"),
    "tarot_dice_v0": ("mystic_envs.tarot_dice_v0", (2,), "TarotDice"),
    "mystick_domination_v0": ("mystic_envs.mystick_domination_v0", (2, 3, 4, 5), "MystickDomination"),
    "mystic_vale_v0": ("mystic_envs.mystic_vale_v0", (2, 3, 4), "MysticVale"),
}

ENV_IDS: tuple[str, ...] = tuple(_REGISTRY)

__all__ = [
    "ENV_IDS",
    "GameOverError",
    "IllegalActionError",
    "env_module",
    "gym_id",
    "make",
    "make_parallel",
    "make_raw",
    "player_counts",
    "single_agent",
]


def env_module(env_id: str) -> Any:
    """The public module (``env``, ``raw_env``) of ``env_id``."""
    if not isinstance(env_id, str):
        raise TypeError(f"env_id must be a str, got {env_id!r}")
    if env_id not in _REGISTRY:
        raise ValueError(f"unknown env id {env_id!r}; available: {list(ENV_IDS)}")
    return importlib.import_module(_REGISTRY[env_id][0])


def player_counts(env_id: str) -> tuple[int, ...]:
    """Player counts the rulebook of ``env_id`` allows."""
    env_module(env_id)
    return _REGISTRY[env_id][1]


def make(env_id: str, **kwargs: Any) -> Any:
    """The wrapped PettingZoo AEC env (order enforcing) for ``env_id``.

    Keywords every env takes:

    - ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns a str) or ``"human"`` (prints it).
    - ``illegal_action``: ``"terminate"`` (default), ``"penalize"`` or ``"raise"``.
    - ``illegal_reward``: the offender's reward under ``"penalize"`` (default -1.0).
    - ``max_steps``: actions after which every agent is truncated (default per env).
    - ``engine``: ``"python"`` (default: the reference engine, which the heuristics read) or ``"c"``
      (its compiled twin, equal step for step; docs/core.md).

    The games' own keywords:

    - ``elemystic_v0``: ``num_players`` (2).
    - ``mystria_v0``: ``num_players`` (2), ``variant`` (``"full"`` default, or ``"intro"``).
    - ``tarot_dice_v0``: ``num_players`` (2), ``num_rounds`` (2), ``round_turn_limit`` (60).
    - ``mystick_domination_v0``: ``num_players`` (2-5), ``decks`` (``"random"``, a preset name or one
      deck per seat), ``construction`` (``"basic"`` or ``"advanced"``), ``reshuffle_opening_majors``
      (False).
    - ``mystic_vale_v0``: ``num_players`` (2-4).

    Any other keyword is a ``TypeError`` naming the env and the keywords it accepts.
    """
    return env_module(env_id).env(**kwargs)


def make_raw(env_id: str, **kwargs: Any) -> Any:
    """The bare AEC env for ``env_id`` (no PettingZoo wrapper); keywords as for :func:`make`."""
    return env_module(env_id).raw_env(**kwargs)


def make_parallel(env_id: str, **kwargs: Any) -> Any:
    """The turn-based PettingZoo parallel view of ``env_id``; keywords as for :func:`make`."""
    return env_module(env_id).parallel_env(**kwargs)


def gym_id(env_id: str) -> str:
    """The Gymnasium id of ``env_id``'s single-agent view: ``gymnasium.make(gym_id(env_id),
    opponent=..., seat=..., **make_keywords)`` builds :func:`single_agent`."""
    env_module(env_id)
    return f"mystic/{_REGISTRY[env_id][2]}-v0"


def single_agent(env_id: str, opponent: Any = "random", seat: int | None = None, **kwargs: Any) -> Any:
    """A ``gymnasium.Env`` for one learning seat of ``env_id``; see :class:`SingleAgentEnv`.

    ``kwargs`` are the env's keywords (see :func:`make`). Also registered with Gymnasium as
    ``gym_id(env_id)``, for example ``gymnasium.make("mystic/Elemystic-v0", opponent="random")``.
    """
    from mystic_envs.core.single_agent import SingleAgentEnv

    return SingleAgentEnv(env_id, make_raw(env_id, **kwargs), opponent=opponent, seat=seat)


def _register_with_pettingzoo() -> None:
    # PettingZoo >= 1.26 has a registry; older versions simply lack it.
    try:
        from pettingzoo import register
    except ImportError:
        return
    from pettingzoo import aec_registry

    for env_id, (module, _, _) in _REGISTRY.items():
        spec_id = f"mystic/{env_id[: -len('_v0')]}-v0"
        if spec_id not in aec_registry:
            register("aec", spec_id, entry_point=f"{module}:env")


def _register_with_gymnasium() -> None:
    import gymnasium

    for env_id in _REGISTRY:
        if gym_id(env_id) not in gymnasium.registry:
            entry = "mystic_envs:single_agent"
            gymnasium.register(gym_id(env_id), entry_point=entry, kwargs={"env_id": env_id})


_register_with_pettingzoo()
_register_with_gymnasium()
