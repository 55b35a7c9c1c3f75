"""Heuristics that report their options' values (``agents.heuristic.SCORED``): ``act(..., scores={})``.

The values are how a close decision is told from a clear one, for example where a retuned heuristic
(``heuristic:FIX=0.8``) and the shipped one part ways; reporting them must never change a choice.
"""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.heuristic import HEURISTICS, SCORED

ENV_ID = "tarot_dice_v0"


def _positions(seed: int, games: int, env_id: str = ENV_ID):
    """(env, agent id) at every decision of heuristic games, yielded before the move is played."""
    env = mystic_envs.make(env_id)
    players = [make_agent("heuristic", env_id, seed=seed + s) for s in range(2)]
    for game in range(games):
        env.reset(seed=seed * 100 + game)
        for agent_id in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            yield env, agent_id
            env.step(players[env.unwrapped.agent_name_mapping[agent_id]].act(env, agent_id))


@pytest.mark.parametrize("env_id", SCORED)
def test_scores_leave_the_choice_unchanged_and_rank_it_first(env_id):
    decide = HEURISTICS[env_id].decide
    rng = np.random.default_rng(0)
    scored = 0
    for env, agent_id in _positions(1, 2, env_id):
        state = env.unwrapped.game_state
        seat = env.unwrapped.agent_name_mapping[agent_id]
        view = state.determinize(seat, rng)
        scores: dict[int, float] = {}
        choice = decide(view.clone(), seat, scores=scores)
        assert choice == decide(view.clone(), seat)
        assert set(scores) <= set(state.legal_actions())
        if scores:
            scored += 1
            assert choice in scores and scores[choice] >= max(scores.values()) - 1e-9
    assert scored > 50


def test_heuristic_agents_report_scores_tuned_ones_with_their_own_constants():
    differ = 0
    for env, agent_id in _positions(6, 1):
        if env.unwrapped.game_state.phase_name != "action":
            continue
        shipped, tuned = {}, {}
        choice = make_agent("heuristic", ENV_ID, seed=1).act(env, agent_id, scores=shipped)
        assert choice == make_agent("heuristic", ENV_ID, seed=1).act(env, agent_id)
        make_agent("heuristic", ENV_ID, seed=1, FIX=0.9).act(env, agent_id, scores=tuned)
        assert set(shipped) == set(tuned) and len(shipped) > 1
        differ += shipped != tuned
    assert differ > 0  # FIX weighs in where two pairs are left
