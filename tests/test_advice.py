"""agents.advice: the advised (residual) policy, its observations, the ppo agent and training --advice."""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

import mystic_envs
from agents import make_agent
from agents.advice import ADVICE_WEIGHT, AdvisedPolicy, Adviser, advice_size, is_advised
from agents.ppo import ModelError, PPOAgent
from training.anchor import AnchoredMaskablePPO
from training.selfplay import SelfPlayEnv
from training.train import TrainConfig, TrainError, main

ENV_ID = "elemystic_v0"


def _model(env_id: str = ENV_ID, seed: int = 0, **policy_kwargs) -> MaskablePPO:
    torch.set_num_threads(1)
    env = SelfPlayEnv(env_id, {"heuristic": 1.0}, advice=True)
    return MaskablePPO(
        AdvisedPolicy, env, seed=seed, n_steps=64, batch_size=64, n_epochs=1, device="cpu",
        policy_kwargs=policy_kwargs,
    )  # fmt: skip


def _advised_positions(env_id: str, seed: int, count: int):
    """(advised observation, mask, heuristic action) of the acting seat along heuristic games."""
    env = mystic_envs.make(env_id)
    adviser = Adviser(env_id, seed=seed)
    players = [make_agent("heuristic", env_id, seed=seed + s) for s in range(2)]
    out = []
    game = 0
    while len(out) < count:
        env.reset(seed=seed * 1000 + game)
        game += 1
        for agent_id in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            advised = adviser.observe(env, agent_id)
            out.append(
                (
                    advised,
                    obs["action_mask"].astype(bool),
                    int(np.argmax(advised[-obs["action_mask"].size :])),
                )
            )
            env.step(players[env.unwrapped.agent_name_mapping[agent_id]].act(env, agent_id))
    return out[:count]


def test_advised_observation_is_the_env_vector_then_a_one_hot_of_the_heuristic_choice():
    env = mystic_envs.make(ENV_ID)
    env.reset(seed=4)
    agent_id = env.agent_selection
    adviser = Adviser(ENV_ID, seed=9)
    advised = adviser.observe(env, agent_id)
    plain = env.observe(agent_id)["observation"]
    n = advice_size(ENV_ID)
    assert advised.dtype == np.float32 and advised.shape == (plain.size + n,)
    np.testing.assert_array_equal(advised[: plain.size], plain)
    advice = advised[plain.size :]
    assert sorted(np.unique(advice)) == [0.0, 1.0] and advice.sum() == 1
    assert int(np.argmax(advice)) == make_agent("heuristic", ENV_ID, seed=9).act(env, agent_id)
    assert env.observe(agent_id)["action_mask"][int(np.argmax(advice))]
    # Not the seat's turn: nothing to advise.
    other = next(a for a in env.agents if a != agent_id)
    assert adviser.advise(env, other).sum() == 0


def test_logits_are_the_action_head_plus_the_weighted_advice():
    model = _model(advice_weight=3.5)
    policy = model.policy
    n = advice_size(ENV_ID)
    for obs, mask, _ in _advised_positions(ENV_ID, 1, 20):
        x = torch.as_tensor(obs).reshape(1, -1)
        with torch.no_grad():
            latent = policy.mlp_extractor.forward_actor(policy.extract_features(x))
            logits = policy.action_net(latent)[0].numpy() + 3.5 * obs[-n:]
            expected = np.where(mask, np.exp(logits - logits[mask].max()), 0.0)
            expected /= expected.sum()
            probs = policy.get_distribution(x, action_masks=mask.reshape(1, -1)).distribution.probs[0].numpy()
            np.testing.assert_allclose(probs, expected, rtol=1e-5, atol=1e-7)
            # forward and evaluate_actions build the same distribution
            action = torch.as_tensor([int(np.argmax(probs))])
            _, log_prob, _ = policy.evaluate_actions(x, action, action_masks=mask.reshape(1, -1))
            np.testing.assert_allclose(float(log_prob[0]), np.log(probs.max()), rtol=1e-5)
            det, _, _ = policy.forward(x, deterministic=True, action_masks=mask.reshape(1, -1))
            assert int(det[0]) == int(np.argmax(probs))


def test_a_fresh_advised_policy_plays_the_heuristic_move():
    agent = PPOAgent.from_model(_model("mystria_v0"), "mystria_v0")
    positions = _advised_positions("mystria_v0", 2, 150)
    agree = [
        int(np.argmax(agent.action_probabilities(obs, mask))) == advice for obs, mask, advice in positions
    ]
    assert all(agree)


def test_saved_advised_model_loads_with_its_weight_and_acts_like_in_memory(tmp_path):
    model = _model(advice_weight=6.0)
    model.learn(128)
    path = tmp_path / "advised.zip"
    model.save(path)
    loaded = make_agent("ppo", ENV_ID, path=str(path))
    assert is_advised(loaded.policy) and loaded.policy.advice_weight == 6.0
    assert loaded._layers is not None  # the numpy path, with the advice added
    in_memory = PPOAgent.from_model(model, ENV_ID)
    for obs, mask, _ in _advised_positions(ENV_ID, 3, 60):
        np.testing.assert_allclose(
            loaded.action_probabilities(obs, mask), in_memory.action_probabilities(obs, mask), atol=1e-6
        )
    # It plays whole games from both seats, with its own seeded heuristic.
    env = mystic_envs.make(ENV_ID, illegal_action="raise")
    for seed in range(2):
        env.reset(seed=seed)
        for agent_id in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else loaded.act(env, agent_id))


def test_an_advised_model_for_another_game_is_a_clear_error(tmp_path):
    path = tmp_path / "advised.zip"
    _model().save(path)
    with pytest.raises(ModelError, match=re.escape("mystria_v0 has shape (")):
        make_agent("ppo", "mystria_v0", path=str(path))


def test_bad_advice_weight_and_observation_space():
    with pytest.raises(ValueError, match="advice_weight must be a finite number, got nan"):
        _model(advice_weight=float("nan"))
    env = mystic_envs.single_agent(ENV_ID)
    from gymnasium import spaces

    with pytest.raises(ValueError, match="an advised observation holds the env's vector and"):
        AdvisedPolicy(spaces.Box(0, 1, (3,)), env.action_space, lambda _: 1e-3)
    assert not is_advised(MaskableActorCriticPolicy) and is_advised(AdvisedPolicy)


def test_selfplay_env_with_advice_is_reproducible_and_advises_the_learner():
    def episode(seed):
        env = SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True)
        obs, _ = env.reset(seed=seed)
        seen = [obs]
        done = False
        while not done:
            advice = obs[-env.adviser.size :]
            assert advice.sum() == 1 and env.action_masks()[int(np.argmax(advice))]
            obs, _, term, trunc, _ = env.step(int(np.argmax(advice)))
            seen.append(obs)
            done = term or trunc
        assert obs[-env.adviser.size :].sum() == 0  # the game is over: no advice
        assert env.observation_space.shape == obs.shape
        return np.array(seen)

    np.testing.assert_array_equal(episode(11), episode(11))


def _short_advised_run(out, *flags: str) -> None:
    """256 advised training steps in one env, then one 4-game evaluation."""
    main(
        ["--advice", *flags, "--timesteps", "256", "--n-steps", "128", "--n-envs", "1",
         "--eval-every", "256", "--eval-games", "4", "--seed", "1", "--out", str(out), "--quiet"]
    )  # fmt: skip


def test_train_with_advice_writes_an_advised_model(tmp_path):
    out = tmp_path / "run"
    _short_advised_run(out, "--imitate", "4")
    agent = make_agent("ppo", ENV_ID, path=str(out / "model.zip"))
    assert is_advised(agent.policy)
    assert (out / "imitation.json").is_file()
    with pytest.raises(SystemExit) as refused:
        main(["--resume", str(out), "--advice"])
    assert refused.value.code == 2
    main(["--resume", str(out), "--timesteps", "384", "--quiet"])  # the advised envs come back too
    resumed = make_agent("ppo", ENV_ID, path=str(out / "model.zip"))
    assert is_advised(resumed.policy) and resumed.policy.advice_weight == agent.policy.advice_weight
    assert [line.split(",")[0] for line in (out / "progress.csv").read_text().splitlines()[1:]] == [
        "0", "256", "384",
    ]  # fmt: skip


def test_advice_config_errors():
    with pytest.raises(TrainError, match="advice must be True or False, got 'yes'"):
        TrainConfig(advice="yes").check()
    assert TrainConfig().advice_weight == ADVICE_WEIGHT  # the flag's default is the policy's


def test_advice_is_decided_on_the_seat_determinized_view():
    """The advice never reads the env's true state: its heuristic is handed a re-deal of what the
    seat cannot see (``state.determinize``), as every heuristic is (their own tests check that
    their decisions depend only on that view)."""
    env_id = "tarot_dice_v0"
    env = mystic_envs.make(env_id)
    adviser = Adviser(env_id, seed=0)
    decide = adviser.heuristic.decide
    seen = []

    def spy(state, seat):
        seen.append(state)
        return decide(state, seat)

    adviser.heuristic.decide = spy
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        agent_id = env.agent_selection
        real = env.unwrapped.game_state
        advice = adviser.advise(env, agent_id)
        assert seen[-1] is not real and seen[-1].current_player == real.current_player
        assert real.is_legal(int(np.argmax(advice)))
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent_id)["action_mask"]))))


def test_departures_count_decisions_that_were_not_the_advice(tmp_path):
    """A fresh advised model departs from its heuristic nowhere; one whose action head pushes a
    single action past the advice bonus departs whenever that action is legal and not advised.
    ``training.evaluate`` reports both counts."""
    from training.evaluate import markdown_report, run_tournament

    model = _model("mystria_v0")
    fresh = tmp_path / "fresh.zip"
    model.save(fresh)
    bias = model.policy.action_net.bias
    with torch.no_grad():
        bias[:] = 0.0
        bias[advice_size("mystria_v0") - 1] = 20.0  # the last place of the Magician board
    pushed = tmp_path / "pushed.zip"
    model.save(pushed)

    result = run_tournament("mystria_v0", [str(fresh), str(pushed), "heuristic"], games=2, workers=1)
    fresh_label, pushed_label, _ = result["agents"]
    advice = result["advice"]
    assert set(advice) == {fresh_label, pushed_label}
    assert advice[fresh_label]["decisions"] > 50 and advice[fresh_label]["departures"] == 0
    pushed_counts = advice[pushed_label]
    assert 0 < pushed_counts["departures"] < pushed_counts["decisions"]
    assert pushed_counts["departure_rate"] == pushed_counts["departures"] / pushed_counts["decisions"]
    report = markdown_report(result)
    assert f"{fresh_label} is advised by its heuristic (training --advice): 0 of its" in report
    # Plain agents are not counted.
    plain = run_tournament("mystria_v0", ["heuristic", "random"], games=2, workers=1)
    assert plain["advice"] == {}


def _anchored(anchor: float, seed: int = 0) -> AnchoredMaskablePPO:
    torch.set_num_threads(1)
    env = SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True)
    return AnchoredMaskablePPO(
        AdvisedPolicy, env, anchor=anchor, seed=seed, n_steps=128, batch_size=64, n_epochs=1,
        device="cpu", policy_kwargs={"advice_weight": 0.5},
    )  # fmt: skip


def _advice_cross_entropy(model) -> float:
    n = advice_size(ENV_ID)
    data = next(model.rollout_buffer.get(model.rollout_buffer.buffer_size))
    advised = data.observations[:, -n:].sum(dim=1) > 0
    with torch.no_grad():
        dist = model.policy.get_distribution(
            data.observations[advised], action_masks=data.action_masks[advised]
        )
        return float(-dist.log_prob(data.observations[advised, -n:].argmax(dim=1)).mean())


def test_the_anchor_pass_pulls_the_policy_toward_the_advice():
    model = _anchored(anchor=1.0)
    model.learn(128)
    before = _advice_cross_entropy(model)
    for _ in range(30):
        model._anchor_pass()
    assert _advice_cross_entropy(model) < before - 0.2
    # With no anchor, train() is MaskablePPO's own: the same seed gives the same weights.
    plain = MaskablePPO(
        AdvisedPolicy, SelfPlayEnv(ENV_ID, {"heuristic": 1.0}, advice=True), seed=4, n_steps=128,
        batch_size=64, n_epochs=1, device="cpu", policy_kwargs={"advice_weight": 0.5},
    )  # fmt: skip
    plain.learn(128)
    unanchored = _anchored(anchor=0.0, seed=4)
    unanchored.learn(128)
    for key, value in plain.policy.state_dict().items():
        assert torch.equal(value, unanchored.policy.state_dict()[key]), key


def test_anchor_errors(tmp_path):
    with pytest.raises(ValueError, match="anchor must be a finite number >= 0, got -1"):
        _anchored(anchor=-1)
    with pytest.raises(ValueError, match="an anchor needs an advised policy"):
        AnchoredMaskablePPO("MlpPolicy", SelfPlayEnv(ENV_ID, {"random": 1.0}), anchor=1.0, device="cpu")
    with pytest.raises(TrainError, match="--anchor needs --advice"):
        TrainConfig(anchor=1.0).check()
    with pytest.raises(TrainError, match="--anchor must be a finite number >= 0, got nan"):
        TrainConfig(anchor=float("nan"), advice=True).check()


def test_train_with_an_anchor_resumes_with_it(tmp_path):
    out = tmp_path / "anchored"
    _short_advised_run(out, "--anchor", "0.5")
    assert AnchoredMaskablePPO.load(out / "model.zip").anchor == 0.5
    main(["--resume", str(out), "--timesteps", "384", "--quiet"])
    assert AnchoredMaskablePPO.load(out / "model.zip").anchor == 0.5
    assert is_advised(make_agent("ppo", ENV_ID, path=str(out / "model.zip")).policy)


def test_evaluations_of_an_advised_model_replay_the_same_games():
    # The adviser's heuristic determinizes (Elemystic: which of the two unseen elements is the
    # opponent's secret), so it too must be reseeded from the evaluation game.
    from training.train import evaluate_against

    model = _model()
    runs = []
    for _ in range(3):
        me = PPOAgent.from_model(model, ENV_ID)
        played: list[int] = []
        act = me.act
        me.act = lambda env, agent_id, act=act, played=played: played.append(act(env, agent_id)) or played[-1]
        result = evaluate_against(me, "heuristic", ENV_ID, games=8, seed=0)
        runs.append((result["wins"], result["draws"], played))
    assert runs[0] == runs[1] == runs[2]
