"""``mystic_envs.clients.StepEliminated``, the adapter the Tianshou and TorchRL recipes import: a seat
eliminated mid-game is stepped out at once, its final reward and termination stay visible, and a
two-player game is unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from mystic_envs.clients import StepEliminated

ELIMINATION_ENV = "mystick_domination_v0"


def _play(env, seed: int) -> tuple[dict[str, float], list[tuple[str, dict[str, float]]], list[str]]:
    """Random legal play to the end: each seat's summed rewards, (mover, rewards) per step, and the
    seats that left while others played on."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps, left = [], []
    while not all(env.terminations[a] or env.truncations[a] for a in env.terminations):
        mover = env.agent_selection
        assert not env.terminations[mover], f"{mover} is terminated but has the move"
        mask = env.observe(mover)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards = dict(env.rewards)
        for seat, reward in rewards.items():
            totals[seat] += reward
        steps.append((mover, rewards))
        live = [a for a in env.terminations if not env.terminations[a]]
        left += [a for a in env.terminations if env.terminations[a] and a not in left and live]
    return totals, steps, left


@pytest.mark.skipif(ELIMINATION_ENV not in mystic_envs.ENV_IDS, reason="Mystick Domination is not registered")
def test_an_eliminated_seat_leaves_at_once_with_its_final_reward_and_the_game_plays_on():
    for seed in range(80):
        env = StepEliminated(mystic_envs.make(ELIMINATION_ENV, num_players=3, illegal_action="raise"))
        totals, _, left = _play(env, seed)
        if left:
            break
    else:
        pytest.fail("no random 3-player game in 80 deals had a seat eliminated while the game went on")
    final = env.unwrapped.game_state.returns()
    np.testing.assert_allclose([totals[a] for a in env.possible_agents], final)
    assert sum(totals.values()) == pytest.approx(0.0)
    for seat in left:
        assert env.terminations[seat] and seat in env.infos and seat not in env.env.agents


@pytest.mark.parametrize("env_id", [e for e in mystic_envs.ENV_IDS if 2 in mystic_envs.player_counts(e)])
def test_two_player_games_are_unchanged(env_id):
    wrapped = _play(StepEliminated(mystic_envs.make(env_id, num_players=2)), seed=4)
    plain = _play(mystic_envs.make(env_id, num_players=2), seed=4)
    assert wrapped == plain
