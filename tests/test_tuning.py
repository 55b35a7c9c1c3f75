"""agents.heuristic.tuning: a retuned heuristic decides with its own constants, then puts them back."""

from __future__ import annotations

import importlib
import numbers

import pytest

import mystic_envs
from agents import make_agent
from agents.heuristic.tuning import TUNABLE, TunedHeuristic, check_overrides
from training.evaluate import run_tournament


@pytest.mark.parametrize(("env_id", "name"), [(e, n) for e, names in TUNABLE.items() for n in names])
def test_every_tunable_constant_exists_and_is_a_number(env_id, name):
    value = getattr(importlib.import_module(TUNABLE[env_id][name]), name)
    assert isinstance(value, numbers.Real) and not isinstance(value, bool)


def _decisions(player, env_id, games=3):
    """The player's choice at every position of heuristic-vs-heuristic games (the same games each call)."""
    env = mystic_envs.make(env_id)
    drivers = [make_agent("heuristic", env_id, seed=s) for s in (1, 2)]
    out = []
    for game in range(games):
        env.reset(seed=game)
        player.seed(game)
        for agent_id in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            out.append(player.act(env, agent_id))
            env.step(drivers[env.unwrapped.agent_name_mapping[agent_id]].act(env, agent_id))
    return out


def test_an_override_changes_decisions_only_while_the_tuned_player_decides():
    import agents.heuristic.mystria as module

    shipped = make_agent("heuristic", "mystria_v0")
    same = make_agent("heuristic", "mystria_v0", DROP_WORTH=4.0)  # the shipped value, through the keywords
    assert isinstance(same, TunedHeuristic)
    untuned = _decisions(same, "mystria_v0")
    assert untuned == _decisions(shipped, "mystria_v0")
    # Drops made free: the tuned player spends them on plans the shipped one declines.
    tuned = _decisions(make_agent("heuristic", "mystria_v0", DROP_WORTH=0.0), "mystria_v0")
    assert tuned != untuned
    assert module.DROP_WORTH == 4.0  # restored after every decision


def test_constants_are_restored_when_a_decision_raises():
    import agents.heuristic.tarot_dice_model as module

    fix = module.FIX
    tuned = TunedHeuristic("tarot_dice_v0", {"FIX": 0.9})
    env = mystic_envs.make("tarot_dice_v0")
    env.reset(seed=0)
    with pytest.raises(KeyError):
        tuned.act(env, "nobody")
    assert fix == module.FIX


@pytest.mark.parametrize(
    ("env_id", "overrides", "message"),
    [
        ("elemystic_v0", {"DEPTH": 1}, "the elemystic_v0 heuristic has no tunable constants"),
        ("mystria_v0", {"FOO": 1}, "'FOO' is not a tunable constant of the mystria_v0 heuristic"),
        ("mystria_v0", {"MAX_PLAN": 2.5}, "MAX_PLAN must be an integer, got 2.5"),
        ("mystria_v0", {"GROWTH": "x"}, "GROWTH must be a finite number, got 'x'"),
        ("mystria_v0", {"GROWTH": True}, "GROWTH must be a finite number, got True"),
        ("tarot_dice_v0", {"FIX": float("nan")}, "FIX must be a finite number, got nan"),
    ],
)
def test_bad_overrides_are_clear_errors(env_id, overrides, message):
    with pytest.raises(ValueError, match=message):
        check_overrides(env_id, overrides)
    with pytest.raises(ValueError, match=message):
        make_agent("heuristic", env_id, **overrides)


def test_an_int_given_for_a_float_constant_is_taken_as_a_float():
    assert check_overrides("tarot_dice_v0", {"FIX": 1}) == {"FIX": 1.0}
    assert type(check_overrides("tarot_dice_v0", {"FIX": 1})["FIX"]) is float


def test_a_retuned_heuristic_plays_a_seeded_tournament_against_the_shipped_one():
    agents = ["heuristic", "heuristic:LEAD=1.5"]
    result = run_tournament("mystria_v0", agents, games=4, seed=3, workers=1)
    again = run_tournament("mystria_v0", agents, games=4, seed=3, workers=1)
    assert result["matrix"] == again["matrix"]
    assert result["matrix"]["heuristic:LEAD=1.5"]["heuristic"]["games"] == 4
