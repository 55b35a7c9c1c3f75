"""Shared pieces of the conformance suite: the (env id, player count) cases and random play."""

from __future__ import annotations

import functools
import io
import pickle
from typing import Any

import numpy as np
import pytest

import mystic_envs
from mystic_envs.core.compiled import CoreState

CASES = [
    pytest.param(env_id, n, id=f"{env_id}-{n}p")
    for env_id in mystic_envs.ENV_IDS
    for n in mystic_envs.player_counts(env_id)
]


# Games whose random games are far longer than the others' (Mystic Vale: 400-600 moves with a
# 3-5k-value observation, 10-20x a Mystria game): the generic loops over whole games play this share
# of their games, so the game's rows stay within CI's budget. Its random-games soak has its own
# short and full forms (test_random_games.SHORT_FORM).
SHORT_FORM_SHARE = {"mystic_vale_v0": 0.1}


def games_for(env_id: str, count: int) -> int:
    """``count`` whole games, or the env's short form of them (at least 2)."""
    share = SHORT_FORM_SHARE.get(str(env_id))
    return count if share is None else max(2, round(count * share))


class ConfiguredId(str):
    """An env id carrying keyword arguments: a non-default configuration (a rules variant) that a
    game's own tests run through this suite's test functions. It equals the plain id, so the
    registry finds the game; the helpers below add its keyword arguments."""

    kwargs: dict[str, Any]

    def __new__(cls, env_id: str, **kwargs: Any) -> ConfiguredId:
        configured = super().__new__(cls, env_id)
        configured.kwargs = kwargs
        return configured


def id_kwargs(env_id: str) -> dict[str, Any]:
    """The keyword arguments an env id carries (none for a plain id)."""
    return getattr(env_id, "kwargs", {})


def env_kwargs(num_players: int, **kwargs: Any) -> dict[str, Any]:
    # Always passed, so every game must accept ``num_players`` (Elemystic takes 2); this is the
    # one place to change if a fixed-count game is ever allowed to refuse the keyword.
    return {"num_players": num_players, **kwargs}


def make(env_id: str, num_players: int, **kwargs: Any) -> Any:
    return mystic_envs.make(env_id, **env_kwargs(num_players, **id_kwargs(env_id), **kwargs))


def make_raw(env_id: str, num_players: int, **kwargs: Any) -> Any:
    return mystic_envs.make_raw(env_id, **env_kwargs(num_players, **id_kwargs(env_id), **kwargs))


def single_agent(env_id: str, num_players: int, **kwargs: Any) -> Any:
    return mystic_envs.single_agent(env_id, num_players=num_players, **id_kwargs(env_id), **kwargs)


def game(env_id: str, num_players: int) -> Any:
    """The rules engine's ``Game`` (immutable, so one per case is shared)."""
    return _game(str(env_id), num_players, tuple(sorted(id_kwargs(env_id).items())))


def default_max_steps(env_id: str, num_players: int) -> int:
    return _default_max_steps(str(env_id), num_players, tuple(sorted(id_kwargs(env_id).items())))


# Keyed by the plain id and the keyword arguments: a ConfiguredId equals its plain id.
@functools.cache
def _game(env_id: str, num_players: int, kwargs: tuple[tuple[str, Any], ...]) -> Any:
    return mystic_envs.make_raw(env_id, **env_kwargs(num_players, **dict(kwargs))).game


@functools.cache
def _default_max_steps(env_id: str, num_players: int, kwargs: tuple[tuple[str, Any], ...]) -> int:
    return mystic_envs.make_raw(env_id, **env_kwargs(num_players, **dict(kwargs))).max_steps


def new_state(env_id: str, num_players: int, seed: int) -> Any:
    return game(env_id, num_players).new_initial_state(seed)


def random_legal(state: Any, rng: np.random.Generator) -> int:
    legal = state.legal_actions()
    assert legal, f"no legal action in a live state:\n{state.describe()}"
    return int(legal[rng.integers(len(legal))])


def random_mask_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    assert legal.size, "the agent to act has an all-zero action mask"
    return int(legal[rng.integers(legal.size)])


def advance(state: Any, rng: np.random.Generator, moves: int) -> int:
    """Play up to ``moves`` random legal actions (fewer if the game ends); returns how many."""
    done = 0
    while done < moves and not state.is_terminal:
        state.apply(random_legal(state, rng))
        done += 1
    return done


def midgame_states(env_id: str, num_players: int, rng: np.random.Generator, games: int, max_moves: int):
    """For seeds 0..games-1: the state after a random number (< ``max_moves``) of random moves,
    skipping games that ended before it."""
    g = game(env_id, num_players)
    for seed in range(games):
        state = g.new_initial_state(seed)
        advance(state, rng, int(rng.integers(0, max_moves)))
        if not state.is_terminal:
            yield seed, state


def play_out(state: Any, rng: np.random.Generator, limit: int) -> list[int]:
    """Play random legal actions to the end (at most ``limit``); returns the actions."""
    actions = []
    while not state.is_terminal:
        assert len(actions) < limit, f"game still running after {limit} random moves"
        a = random_legal(state, rng)
        state.apply(a)
        actions.append(a)
    return actions


def all_observations(state: Any, num_players: int) -> list[np.ndarray]:
    return [state.observation(p) for p in range(num_players)]


def _generator_state(state_repr: str) -> None:
    raise AssertionError("canonical dumps are for comparing, never for loading")


class _CanonicalPickler(pickle.Pickler):
    # A Generator pickles its SeedSequence too, and a copy made through the bit generator's
    # state (as clone() may do) has a fresh one that no draw ever uses; only the state counts.
    # A compiled state's content is its bytes; the replay log it pickles with is its history (two
    # equal positions reached by different moves have different logs).
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, CoreState):
            return _generator_state, (obj.game.core_name, obj._raw.to_bytes())
        if isinstance(obj, np.random.Generator):
            return _generator_state, (repr(obj.bit_generator.state),)
        if isinstance(obj, np.random.BitGenerator):
            return _generator_state, (repr(obj.state),)
        return NotImplemented


def canonical_bytes(obj: Any) -> bytes:
    """The pickled content of ``obj`` with every numpy RNG reduced to its exact state."""
    buf = io.BytesIO()
    _CanonicalPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


def snapshot(state: Any, num_players: int) -> tuple[Any, ...]:
    """Everything a state shows through its API, plus its whole content (RNG state included)."""
    return (
        [o.tobytes() for o in all_observations(state, num_players)],
        state.legal_mask().tobytes(),
        state.current_player,
        state.is_terminal,
        state.describe(),
        canonical_bytes(state),
    )


def find_illegal(mask: np.ndarray) -> int | None:
    illegal = np.flatnonzero(~mask.astype(bool))
    return int(illegal[0]) if illegal.size else None


def reset_to_illegal_chance(env: Any, seed: int, rng: np.random.Generator, max_moves: int = 40) -> int:
    """Reset ``env`` and play random legal moves until the agent to act has an illegal in-range
    action; returns that action. Moves a random number of steps in first, so errors are checked
    in several phases."""
    env.reset(seed=seed)
    warmup = int(rng.integers(0, 12))
    for i in range(max_moves):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            # A short game can end within the warmup (a Mystria player out of drops on turn 1),
            # and a finished agent's all-zero mask would pass for a chance: deal another game.
            env.reset(seed=seed + 1_000_000 + i)
        mask = env.observe(env.agent_selection)["action_mask"]
        illegal = find_illegal(mask)
        if i >= warmup and illegal is not None:
            return illegal
        env.step(random_mask_action(mask, rng))
    raise AssertionError(f"no illegal action found in {max_moves} moves (seed {seed})")


def _compiled_cases() -> list[Any]:
    """The same cases on the compiled twin (``engine="c"``) for every game that has one: the whole
    suite runs on both engines. Without a built core they skip, except under CI=true (CONVENTIONS 8)."""
    import os

    from mystic_envs.core import compiled
    from tests.core.cases import twin_env_ids

    missing = not compiled.is_available() and os.environ.get("CI") != "true"
    marks = [pytest.mark.skip(reason=compiled.HOW_TO_BUILD)] if missing else []
    return [
        pytest.param(ConfiguredId(env_id, engine="c"), n, id=f"{env_id}-{n}p-c", marks=marks)
        for env_id in twin_env_ids()
        for n in mystic_envs.player_counts(env_id)
    ]


CASES += _compiled_cases()
