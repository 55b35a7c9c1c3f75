"""agents.heuristic.tuning: a retuned heuristic decides with its own constants, then puts them back."""

from __future__ import annotations

import importlib
import numbers

import pytest

import mystic_envs
from agents import make_agent
from agents.heuristic.tuning import TUNABLE, TunedHeuristic, main, measure, parse_overrides


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
    untuned = _decisions(TunedHeuristic("mystria_v0", {}), "mystria_v0")
    assert untuned == _decisions(shipped, "mystria_v0")
    # Drops made nearly free: the tuned player spends them on plans the shipped one declines.
    tuned = _decisions(TunedHeuristic("mystria_v0", {"DROP_WORTH": 0.0}), "mystria_v0")
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
    ("env_id", "items", "message"),
    [
        ("elemystic_v0", [], "has no tunable heuristic"),
        ("mystria_v0", ["FOO=1"], "'FOO' is not a tunable constant of mystria_v0"),
        ("mystria_v0", ["GROWTH"], "give GROWTH=VALUE"),
        ("mystria_v0", ["MAX_PLAN=2.5"], "MAX_PLAN takes int values, got '2.5'"),
        ("tarot_dice_v0", ["FIX=nan"], "FIX must be finite"),
        ("tarot_dice_v0", ["FIX=0.5", "FIX=0.6"], "FIX is given twice"),
    ],
)
def test_bad_overrides_are_clear_errors(env_id, items, message):
    with pytest.raises(ValueError, match=message):
        parse_overrides(env_id, items)


def test_measure_and_command_line(capsys):
    result = measure("mystria_v0", {"LEAD": 1.5}, games=4, seed=3)
    assert result["games"] == 4 and 0 <= result["wins"] + result["draws"] <= 4
    assert result["ci_low"] <= result["share"] <= result["ci_high"]
    assert measure("mystria_v0", {"LEAD": 1.5}, games=4, seed=3) == result  # seeded
    printed = main(["--env", "mystria_v0", "--set", "LEAD=1.5", "--games", "4", "--seed", "3"])
    assert printed == result
    out = capsys.readouterr().out
    assert "heuristic with LEAD=1.5 against the shipped heuristic, 4 games (seed 3)" in out
    for argv in (["--env", "mystria_v0", "--games", "3"], ["--env", "mystria_v0", "--seed", "-1"]):
        with pytest.raises(SystemExit):
            main(argv)
