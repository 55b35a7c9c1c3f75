"""Soft advice (``agents.advice.Adviser(softness=t)``): the heuristic's option values as the advice."""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.advice import TIE, AdvisedPolicy, Adviser
from agents.heuristic import HEURISTICS, SCORED, check_softness
from agents.heuristic.tarot_dice import decide
from training.selfplay import SelfPlayEnv
from training.train import TrainConfig, TrainError, main

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


def test_soft_advice_is_one_on_the_choice_and_shares_by_the_value_gap():
    hard, soft, wide = (Adviser(ENV_ID, seed=3, softness=t) for t in (0.0, 0.05, 1.0))
    shared = 0
    for env, agent_id in _positions(2, 2):
        one_hot, advice, wider = (a.advise(env, agent_id) for a in (hard, soft, wide))
        mask = env.observe(agent_id)["action_mask"].astype(bool)
        choice = int(np.argmax(one_hot))
        assert advice[choice] == 1.0 and (advice[~mask] == 0).all()
        others = np.delete(advice, choice)
        assert ((others >= 0) & (others <= TIE)).all()  # the choice is the only 1, ties included
        assert (wider >= advice).all()  # a softer advice shares at least as much everywhere
        shared += int(((advice > 0) & (advice < 1)).any())
    assert shared > 20


def test_soft_advice_values_follow_the_scores():
    env = next(e for e, _ in _positions(4, 1) if e.unwrapped.game_state.phase_name == "action")
    agent_id = env.agent_selection
    seat = env.unwrapped.agent_name_mapping[agent_id]
    adviser = Adviser(ENV_ID, seed=5, softness=0.2)
    # The adviser's heuristic draws one determinization per advice: a twin seeded alike draws the same.
    twin = make_agent("heuristic", ENV_ID, seed=5)
    scores: dict[int, float] = {}
    choice = decide(env.unwrapped.game_state.determinize(seat, twin.rng), seat, scores)
    advice = adviser.advise(env, agent_id)
    best = scores[choice]
    for action, value in scores.items():
        expected = 1.0 if action == choice else min(TIE, max(0.0, 1.0 - (best - value) / 0.2))
        assert advice[action] == pytest.approx(expected, abs=1e-6)


def test_softness_errors():
    assert SCORED == ("mystria_v0", "tarot_dice_v0")
    assert check_softness(0) == 0.0 and check_softness(0.1, ENV_ID) == 0.1
    for bad in (-0.1, float("nan"), float("inf"), True, "0.1"):
        with pytest.raises(ValueError, match="advice softness must be a finite number >= 0"):
            check_softness(bad)
    with pytest.raises(ValueError, match="elemystic_v0's does not"):
        Adviser("elemystic_v0", softness=0.1)
    with pytest.raises(TrainError, match="--advice-softness needs --advice"):
        TrainConfig(env=ENV_ID, advice_softness=0.1).check()
    with pytest.raises(TrainError, match="--advice-softness: soft advice needs a heuristic"):
        TrainConfig(env="elemystic_v0", advice=True, advice_softness=0.1).check()
    TrainConfig(env="elemystic_v0", advice=True).check()  # softness 0 is one-hot advice, any game


def test_selfplay_env_gives_soft_advice_and_a_trained_model_keeps_its_softness(tmp_path):
    env = SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True, advice_softness=0.3)
    obs, _ = env.reset(seed=2)
    soft, done = 0, False
    while not done:
        advice = obs[-env.adviser.size :]
        soft += int(((advice > 0) & (advice < 1)).any())
        obs, _, term, trunc, _ = env.step(int(np.argmax(advice)))
        done = term or trunc
    assert soft > 5
    out = tmp_path / "run"
    main(
        ["--env", ENV_ID, "--advice", "--advice-softness", "0.3", "--timesteps", "128", "--n-steps", "128",
         "--n-envs", "1", "--eval-every", "128", "--eval-games", "2", "--seed", "1", "--out", str(out),
         "--quiet"]
    )  # fmt: skip
    agent = make_agent("ppo", ENV_ID, path=str(out / "model.zip"))
    assert isinstance(agent.policy, AdvisedPolicy) and agent.policy.advice_softness == 0.3
    assert agent.adviser.softness == 0.3


def _episode(shaping: float, seed: int = 3):
    """Rewards and first potential of one learner episode that follows the advice."""
    env = SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True, shaping=shaping, gamma=0.9)
    obs, _ = env.reset(seed=seed)
    first = env._phi
    rewards, done = [], False
    while not done:
        obs, reward, term, trunc, _ = env.step(int(np.argmax(obs[-env.adviser.size :])))
        rewards.append(reward)
        done = term or trunc
    return np.array(rewards), first


def test_shaping_is_potential_based_it_telescopes_to_minus_the_first_potential():
    plain, phi0 = _episode(0.0)
    shaped, first = _episode(2.0)
    assert phi0 == 0.0  # no shaping, no potential (the first decision may be the draft: 0 too)
    extra = shaped - plain
    assert len(plain) > 20 and np.count_nonzero(extra) > len(extra) // 2
    # sum_t gamma^t (gamma phi_{t+1} - phi_t), phi 0 at the end: only -phi_0 is left.
    assert float(np.sum(extra * 0.9 ** np.arange(len(extra)))) == pytest.approx(-first, abs=1e-9)
    assert plain[:-1].tolist() == [0.0] * (len(plain) - 1)  # the unshaped game pays at the end only


def test_position_value_reads_the_action_phase_of_the_seat_to_move():
    from agents.heuristic.tarot_dice import position_value

    seen = 0
    for env, agent_id in _positions(5, 1):
        state = env.unwrapped.game_state
        seat = env.unwrapped.agent_name_mapping[agent_id]
        value = position_value(state, seat)
        assert position_value(state, 1 - seat) is None
        if state.phase_name != "action":
            assert value is None
            continue
        seen += 1
        assert -1.0 <= value <= 1.0
        # From the seat's view only: re-dealing what it cannot see changes nothing.
        assert position_value(state.determinize(seat, np.random.default_rng(seen)), seat) == value
    assert seen > 20


def test_shaping_errors():
    from training.selfplay import check_shaping

    assert check_shaping(ENV_ID, 1) == 1.0 and check_shaping("mystria_v0", 0) == 0.0
    for bad in (-1.0, float("nan"), True):
        with pytest.raises(ValueError, match="shaping must be a finite number >= 0"):
            check_shaping(ENV_ID, bad)
    with pytest.raises(ValueError, match="mystria_v0's heuristic does not value positions"):
        SelfPlayEnv("mystria_v0", {"random": 1.0}, shaping=1.0)
    with pytest.raises(TrainError, match="--shaping: elemystic_v0's heuristic"):
        TrainConfig(env="elemystic_v0", shaping=0.5).check()


def test_a_fresh_soft_advised_policy_still_plays_the_heuristic_move_ties_included():
    import torch
    from sb3_contrib import MaskablePPO

    from agents.ppo import PPOAgent

    torch.set_num_threads(1)
    env_id = "mystria_v0"  # a quarter of its decisions have ties among the options' scores
    venv = SelfPlayEnv(env_id, {"heuristic": 1.0}, advice=True, advice_softness=1.5)
    model = MaskablePPO(AdvisedPolicy, venv, seed=0, n_steps=64, policy_kwargs={"advice_softness": 1.5})
    agent = PPOAgent.from_model(model, env_id, seed=7)
    twin = make_agent("heuristic", env_id, seed=7)  # the agent's adviser draws what this draws
    ties = 0
    for env, agent_id in _positions(3, 2, env_id):
        vector = agent.observe(env, agent_id)
        advice = vector[-agent.adviser.size :]
        ties += int((advice == TIE).any())
        mask = env.observe(agent_id)["action_mask"].astype(bool)
        assert int(np.argmax(agent.action_probabilities(vector, mask))) == twin.act(env, agent_id)
    assert ties > 10


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


def test_the_final_info_has_the_games_own_result_beside_the_shaped_reward():
    for shaping in (0.0, 2.0):
        env = SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True, shaping=shaping, margin=0.5, gamma=0.9)
        obs, _ = env.reset(seed=3)
        done = False
        while not done:
            obs, reward, term, trunc, info = env.step(int(np.argmax(obs[-env.adviser.size :])))
            done = term or trunc
        assert info["result"] in (-1.0, 1.0) and reward != info["result"]
        assert np.sign(info["result"]) == np.sign(
            info["final_scores"][env.seat] - info["final_scores"][1 - env.seat]
        )
