"""RLlib training (the ``rllib`` extra): masked modules, audited envs, the trainer, and the ``rllib`` agent.

The training runs are short (two iterations of 500 env steps) but go through everything a real run
does: a local Ray instance, a remote env runner, the masked module, the audit of every sampled action,
checkpoints, resuming, and play from the checkpoint without Ray. ``test_per_seat_training`` repeats
the smoke run with one module per seat for every registered game with more than two players, and
for Elemystic while no such game is registered, so per-seat training always runs.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="the rllib extra is not installed")

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModule  # noqa: E402

import mystic_envs  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.rllib import MODULES_SUBDIR, CheckpointError, pretrained_path  # noqa: E402
from training.evaluate import run_tournament  # noqa: E402
from training.rllib_config import (  # noqa: E402
    RANDOM_MODULE,
    SHARED_MODULE,
    SeatMapping,
    build_ppo_config,
)
from training.rllib_env import (  # noqa: E402
    AUDIT_KEY,
    AuditedPettingZooEnv,
    RLlibEnvError,
    check_rllib_env,
    make_rllib_env,
)
from training.rllib_module import MaskedPPOModule, MaskedRandomModule  # noqa: E402
from training.rllib_train import CSV_FIELDS, main  # noqa: E402

ENV_ID = "elemystic_v0"
CASES = [
    pytest.param(env_id, n, id=f"{env_id}-{n}p")
    for env_id in mystic_envs.ENV_IDS
    for n in mystic_envs.player_counts(env_id)
]
MULTIPLAYER = [p for p in CASES if p.values[1] > 2]
# Per-seat training is the trainer's code, the same for every env: Mystick Domination runs it at 3-5
# players. Mystic Vale (36-48 s a count: 1,000 steps of a 4-5k observation and 600-move games) is
# covered there and by test_every_env_passes_the_rllib_check at each of its counts.
PER_SEAT = [p for p in MULTIPLAYER if p.values[0] != "mystic_vale_v0"] or [
    pytest.param(ENV_ID, 2, id=f"{ENV_ID}-2p")
]
# Two iterations of 500 env steps on one remote env runner with two envs, a checkpoint after each.
SHORT = [
    "--timesteps", "1000", "--train-batch-size", "500", "--num-env-runners", "1",
    "--num-envs-per-env-runner", "2", "--hidden", "32", "32", "--checkpoint-every", "1", "--quiet",
]  # fmt: skip


def _rows(run):
    with open(run / "progress.csv", newline="") as f:
        return list(csv.DictReader(f))


def _train(tmp_path, env_id, num_players, *extra):
    run = tmp_path / f"{env_id}-{num_players}p"
    main(["--env", env_id, "--num-players", str(num_players), "--checkpoint-dir", str(run), *SHORT, *extra])
    assert not ray.is_initialized()
    return run


def _play(agents, env_id, num_players, games, seed=0):
    """Final rewards of ``games`` games; ``illegal_action="raise"``, so one illegal action fails the test."""
    env = mystic_envs.make(env_id, num_players=num_players, illegal_action="raise")
    results = []
    for game in range(games):
        env.reset(seed=seed + game)
        for agent_id in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            seat = env.unwrapped.agent_name_mapping[agent_id]
            env.step(
                None if terminated or truncated else agents[(seat + game) % len(agents)].act(env, agent_id)
            )
        results.append(env.unwrapped.game_state.returns())
    return results


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A two-iteration run on Elemystic: one shared module, half the episodes against random."""
    return _train(tmp_path_factory.mktemp("rllib"), ENV_ID, 2, "--seed", "3")


# -- the env and the modules -----------------------------------------------------------------------


@pytest.mark.parametrize(("env_id", "num_players"), CASES)
def test_every_env_passes_the_rllib_check(env_id, num_players):
    check_rllib_env(make_rllib_env(env_id, {"num_players": num_players}), games=3)


def test_audit_counts_an_illegal_action_and_every_seats_return():
    env = make_rllib_env(ENV_ID)
    obs, _ = env.reset(seed=0)
    agent = next(iter(obs))
    illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
    _, _, terminateds, _, infos = env.step({agent: illegal})
    # The default illegal_action="terminate" ends the game: the audit arrives with its last step.
    assert terminateds["__all__"]
    audit = next(info[AUDIT_KEY] for info in infos.values())
    returns = {a: -1.0 if a == agent else 0.0 for a in ("player_0", "player_1")}
    assert audit == {"actions": 1, "illegal_actions": 1, "returns": returns}


class _HidesTheMask(AuditedPettingZooEnv):
    """An env whose observations lose their mask after the first move: the check must notice."""

    def step(self, action):
        observations, *rest = super().step(action)
        for obs in observations.values():
            obs["action_mask"] = np.zeros_like(obs["action_mask"])
        return observations, *rest


def test_the_rllib_check_catches_a_broken_env():
    with pytest.raises(RLlibEnvError, match="one agent to move"):
        check_rllib_env(_HidesTheMask(mystic_envs.make(ENV_ID)), games=1)


def _batch(env_id, count, seed=0):
    """Observations and masks of the acting seat along random games, as an RLlib batch."""
    env = mystic_envs.make(env_id)
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    env.reset(seed=seed)
    while len(masks) < count:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset(seed=int(rng.integers(1 << 30)))
            continue
        observations.append(obs["observation"])
        masks.append(obs["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return {
        "observation": torch.as_tensor(np.array(observations)),
        "action_mask": torch.as_tensor(np.array(masks)),
    }


def _spaces(env_id=ENV_ID):
    env = mystic_envs.make(env_id)
    return {
        "observation_space": env.observation_space("player_0"),
        "action_space": env.action_space("player_0"),
    }


def test_masked_module_gives_illegal_actions_zero_probability():
    module = MaskedPPOModule(**_spaces(), model_config={"hidden": [16]})
    batch = _batch(ENV_ID, 200)
    legal = batch["action_mask"].bool()
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward({Columns.OBS: batch})[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits, dim=-1)
        assert torch.all(probs[~legal] == 0) and torch.all(probs[legal] > 0)
        assert torch.isfinite(torch.log_softmax(logits, dim=-1)).all()  # PPO's ratios and entropy stay finite
    dist = module.get_exploration_action_dist_cls().from_logits(
        module.forward_exploration({Columns.OBS: batch})[Columns.ACTION_DIST_INPUTS]
    )
    samples = torch.stack([dist.sample() for _ in range(50)])
    assert legal.gather(1, samples.T).all()
    assert module.compute_values({Columns.OBS: batch}).shape == (200,)
    # Env runners build the module inference-only: the value network stays on the learner.
    assert not hasattr(MaskedPPOModule(**_spaces(), inference_only=True, model_config={}), "vf")


def test_masked_random_module_plays_uniformly_over_legal_actions():
    module = MaskedRandomModule(**_spaces())
    batch = _batch(ENV_ID, 50)
    masks = batch["action_mask"].numpy().astype(bool)
    counts = np.zeros_like(masks, dtype=int)
    for _ in range(200):
        actions = module.forward_exploration({Columns.OBS: batch})[Columns.ACTIONS]
        counts[np.arange(len(actions)), actions] += 1
    assert not counts[~masks].any()
    # Uniform: each legal action's count is Binomial(200, 1/k); 5 standard deviations never fail by chance.
    k = masks.sum(axis=1, keepdims=True)
    expected, spread = 200 / k, np.sqrt(200 * (1 / k) * (1 - 1 / k))
    assert (
        np.abs(counts - expected)[masks] <= (5 * spread + 1e-9).repeat(masks.shape[1], axis=1)[masks]
    ).all()


def test_modules_reject_observations_without_a_mask():
    env = mystic_envs.make(ENV_ID)
    with pytest.raises(ValueError, match="action_mask"):
        MaskedPPOModule(
            observation_space=env.observation_space("player_0")["observation"],
            action_space=env.action_space("player_0"),
        )


class _Episode:
    def __init__(self, id_):
        self.id_ = id_


@pytest.mark.parametrize("policies", ["shared", "per-seat"])
def test_seat_mapping(policies):
    own = (lambda seat: SHARED_MODULE) if policies == "shared" else (lambda seat: f"player_{seat}")
    seats = [f"player_{s}" for s in range(3)]
    episodes = [_Episode(f"episode-{i}") for i in range(400)]
    self_play = SeatMapping(3, policies, 0.0)
    assert all(self_play(a, e) == own(s) for e in episodes for s, a in enumerate(seats))
    versus = SeatMapping(3, policies, 1.0)
    learners = []
    for e in episodes:
        modules = [versus(a, e) for a in seats]
        assert [versus(a, e) for a in seats] == modules  # each seat, asked again, gets the same answer
        assert modules.count(RANDOM_MODULE) == 2
        learners.append(next(s for s, m in enumerate(modules) if m != RANDOM_MODULE))
        assert modules[learners[-1]] == own(learners[-1])
    assert set(learners) == {0, 1, 2}
    half = SeatMapping(3, policies, 0.5)
    share = np.mean([RANDOM_MODULE in {half(a, e) for a in seats} for e in episodes])
    assert 0.4 < share < 0.6


def test_config_builder_rejects_bad_inputs():
    for kwargs, message in (
        ({"env_id": "nope"}, "env_id: unknown env id"),
        ({"num_players": 7}, "num_players must be one of"),
        ({"policies": "each"}, "policies must be one of"),
        ({"vs_random": 1.5}, "vs_random must be"),
        ({"num_env_runners": -1}, "num_env_runners must be"),
        ({"num_envs_per_env_runner": 0}, "num_envs_per_env_runner must be"),
        ({"hidden": []}, "hidden must be"),
        ({"seed": -2}, "seed must be"),
    ):
        with pytest.raises(ValueError, match=message):
            build_ppo_config(**{"env_id": ENV_ID, **kwargs})


def test_config_builder_modules_and_env_check():
    config = build_ppo_config(ENV_ID, policies="per-seat", vs_random=0.25)
    specs = config.rl_module_spec.rl_module_specs
    assert (
        specs["player_0"].module_class is MaskedPPOModule
        and specs["player_1"].module_class is MaskedPPOModule
    )
    assert specs[RANDOM_MODULE].module_class is MaskedRandomModule
    assert set(config.policies_to_train) == {"player_0", "player_1"}
    assert config.disable_env_checking  # RLlib's pre-check plays unmasked random actions
    assert config.env == "mystic/elemystic-v0" and config.env_config == {"num_players": 2}
    self_play = build_ppo_config(ENV_ID, vs_random=0).rl_module_spec.rl_module_specs
    assert set(self_play) == {SHARED_MODULE}


# -- training --------------------------------------------------------------------------------------


def test_short_run_samples_no_illegal_action(run):
    rows = _rows(run)
    assert list(rows[0]) == CSV_FIELDS
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert int(rows[-1]["env_steps"]) >= 1000
    # Every sampled action of every finished episode was checked against its mask, and none broke it.
    assert sum(int(r["audited_actions"]) for r in rows) > 500
    assert all(int(r["illegal_actions"]) == 0 for r in rows)
    assert sum(int(r["vs_random_games"]) for r in rows) > 0
    meta = json.loads((run / "checkpoint" / "mystic_envs.json").read_text())
    assert meta["env_id"] == ENV_ID and meta["num_players"] == 2 and meta["modules"] == [SHARED_MODULE]
    assert meta["iteration"] == 2 and meta["illegal_actions"] == 0
    assert json.loads((run / "run.json").read_text())["seed"] == 3
    assert not list(run.glob("checkpoint.*"))  # the swap of checkpoints left nothing behind


def test_the_audit_catches_an_unmasked_policy():
    """The same audit on a module that ignores the mask: it must count illegal actions."""

    class Unmasked(MaskedPPOModule):
        def _forward(self, batch, **kwargs):
            return {Columns.ACTION_DIST_INPUTS: self.pi(batch[Columns.OBS]["observation"])}

    config = build_ppo_config(
        ENV_ID, num_env_runners=0, num_envs_per_env_runner=1, hidden=[8], train_batch_size_per_learner=200,
        minibatch_size=100, num_epochs=1,
    )  # fmt: skip
    specs = config.rl_module_spec.rl_module_specs
    specs[SHARED_MODULE] = dataclasses.replace(specs[SHARED_MODULE], module_class=Unmasked)
    config.rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
    ray.init(address="local", num_cpus=1, include_dashboard=False)
    try:
        algo = config.build_algo()
        result = algo.train()
        algo.stop()
    finally:
        ray.shutdown()
    runners = result["env_runners"]
    assert runners["illegal_actions"] > 0 and runners["audited_actions"] >= runners["illegal_actions"]


def test_a_run_that_samples_an_illegal_action_stops_saves_and_fails(tmp_path, monkeypatch, capsys):
    def unmasked(self, batch, **kwargs):
        return {Columns.ACTION_DIST_INPUTS: self.pi(batch[Columns.OBS]["observation"])}

    # Sampling in this process (no env runner actors), so the patched module is the one that acts.
    monkeypatch.setattr(MaskedPPOModule, "_forward", unmasked)
    out = tmp_path / "unmasked"
    argv = [*SHORT, "--timesteps", "5000", "--num-env-runners", "0", "--checkpoint-every", "100"]
    with pytest.raises(SystemExit, match="illegal actions were sampled"):
        main(["--env", ENV_ID, "--checkpoint-dir", str(out), *argv])
    rows = _rows(out)
    assert len(rows) == 1 and int(rows[0]["illegal_actions"]) > 0  # stopped after the first iteration
    assert (out / "checkpoint" / "mystic_envs.json").is_file()
    assert not ray.is_initialized()


def test_resume_continues_the_run(run, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    # Resources may change on resume (here the envs per runner), the learning settings may not.
    main(["--resume", str(copy), "--timesteps", "1500", "--num-envs-per-env-runner", "1", "--quiet"])
    rows = _rows(copy)
    assert [int(r["iteration"]) for r in rows] == [1, 2, 3]
    assert rows[:2] == _rows(run)
    meta = json.loads((copy / "checkpoint" / "mystic_envs.json").read_text())
    assert meta["iteration"] == 3 and meta["env_steps"] == int(rows[-1]["env_steps"]) >= 1500
    before = make_agent("rllib", ENV_ID, path=run).policies[SHARED_MODULE]
    after = make_agent("rllib", ENV_ID, path=copy).policies[SHARED_MODULE]
    assert not all(np.array_equal(w0, w1) for (w0, _), (w1, _) in zip(before, after, strict=True))
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["--resume", str(copy), "--lr", "0.1"])
    assert "only --timesteps" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--env", "nope"], "--env: unknown env id"),
        (["--num-players", "9"], "--num-players must be one of"),
        (["--policies", "all"], "--policies must be one of"),
        (["--vs-random", "-0.5"], "--vs-random must be"),
        (["--num-env-runners", "-1"], "--num-env-runners must be"),
        (["--timesteps", "0"], "--timesteps must be"),
        (["--lr", "0"], "--lr must be"),
        (["--train-batch-size", "1"], "--train-batch-size must be"),
        (["--resume", "/nonexistent/run"], "not an RLlib run folder"),
    ],
)
def test_bad_flags_are_one_line_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert message in err and err.startswith("python -m training.rllib_train: error:")


def test_existing_run_folder_is_not_overwritten(run, capsys):
    with pytest.raises(SystemExit):
        main(["--checkpoint-dir", str(run)])
    assert "already holds a run" in capsys.readouterr().err


@pytest.mark.parametrize(("env_id", "num_players"), PER_SEAT)
def test_per_seat_training(env_id, num_players, tmp_path):
    run = _train(tmp_path, env_id, num_players, "--policies", "per-seat")
    assert all(int(r["illegal_actions"]) == 0 for r in _rows(run))
    agent = make_agent("rllib", env_id, path=run)
    assert set(agent.policies) == {f"player_{i}" for i in range(num_players)}
    random = make_agent("random", env_id, seed=0)
    _play([agent, random], env_id, num_players, games=4)


# -- the rllib agent -------------------------------------------------------------------------------


def test_checkpoint_plays_legally_without_ray(run):
    """A fresh interpreter loads the checkpoint and plays: Ray and torch are never imported."""
    script = f"""
import sys
import mystic_envs
from agents import make_agent
agent = make_agent("rllib", "{ENV_ID}", path=sys.argv[1])
other = make_agent("random", "{ENV_ID}", seed=1)
env = mystic_envs.make("{ENV_ID}", illegal_action="raise")
for game in range(20):
    env.reset(seed=game)
    for agent_id in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        seat = env.unwrapped.agent_name_mapping[agent_id]
        env.step(None if terminated or truncated else (agent, other)[(seat + game) % 2].act(env, agent_id))
heavy = sorted(m for m in ("ray", "torch") if m in sys.modules)
assert not heavy, heavy
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", script, str(run)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_agent_acts_as_the_rllib_module(run):
    """The agent's numpy forward pass gives the probabilities of the restored RLlib module."""
    module = RLModule.from_checkpoint(run / "checkpoint" / MODULES_SUBDIR / SHARED_MODULE)
    agent = make_agent("rllib", ENV_ID, path=run)
    batch = _batch(ENV_ID, 100, seed=4)
    with torch.no_grad():
        logits = module.forward_inference({Columns.OBS: batch})[Columns.ACTION_DIST_INPUTS]
    expected = torch.softmax(logits.double(), dim=-1).numpy()
    for i in range(100):
        probs = agent.action_probabilities(
            batch["observation"][i].numpy(), batch["action_mask"][i].numpy(), "player_0"
        )
        np.testing.assert_allclose(probs, expected[i], atol=1e-5)


def test_agent_in_a_tournament(run):
    """training.evaluate takes rllib:path=... like any agent, on worker processes."""
    result = run_tournament(ENV_ID, [f"rllib:path={run}", "random"], games=20, workers=2)
    entry = result["matrix"][f"rllib:path={run}"]["random"]
    assert entry["games"] == 20


def test_agent_sampling_is_seeded_and_legal(run):
    a = make_agent("rllib", ENV_ID, path=run, deterministic=False, seed=5)
    b = make_agent("rllib", ENV_ID, path=run, deterministic=False, seed=5)
    env_a, env_b = (
        mystic_envs.make(ENV_ID, illegal_action="raise"),
        mystic_envs.make(ENV_ID, illegal_action="raise"),
    )
    env_a.reset(seed=1)
    env_b.reset(seed=1)
    for agent_id in env_a.agent_iter():
        _, _, terminated, truncated, _ = env_a.last()
        action = None if terminated or truncated else a.act(env_a, agent_id)
        assert action == (None if action is None else b.act(env_b, agent_id))
        env_a.step(action)
        env_b.step(action)


def test_agent_module_choice_and_module_folder(run):
    module_dir = run / "checkpoint" / MODULES_SUBDIR / SHARED_MODULE
    for path in (run, run / "checkpoint", module_dir):
        assert set(make_agent("rllib", ENV_ID, path=path).policies) == {SHARED_MODULE}
    with pytest.raises(CheckpointError, match="has no module 'player_0'"):
        make_agent("rllib", ENV_ID, path=run, module="player_0")


def test_per_seat_checkpoint_plays_each_seat_with_its_module(run, tmp_path):
    state = pickle.loads(
        (run / "checkpoint" / MODULES_SUBDIR / SHARED_MODULE / "module_state.pkl").read_bytes()
    )
    last = max(k for k in state if k.startswith("pi."))[: -len(".weight")]
    # player_1's module: the same network with a zeroed output layer, so uniform over the legal actions.
    uniform = {k: np.zeros_like(v) if k.startswith(last) else v for k, v in state.items()}

    def checkpoint(name, modules):
        for module, module_state in modules.items():
            folder = tmp_path / name / MODULES_SUBDIR / module
            folder.mkdir(parents=True)
            (folder / "module_state.pkl").write_bytes(pickle.dumps(module_state))
        return tmp_path / name

    per_seat = checkpoint("per-seat", {"player_0": state, "player_1": uniform})
    agent = make_agent("rllib", ENV_ID, path=per_seat)
    forced = make_agent("rllib", ENV_ID, path=per_seat, module="player_1")
    batch = _batch(ENV_ID, 30)
    for obs, mask in zip(batch["observation"].numpy(), batch["action_mask"].numpy(), strict=True):
        legal_uniform = mask / mask.sum()
        np.testing.assert_allclose(agent.action_probabilities(obs, mask, "player_1"), legal_uniform)
        np.testing.assert_allclose(forced.action_probabilities(obs, mask, "player_0"), legal_uniform)
    assert not np.allclose(agent.action_probabilities(obs, mask, "player_0"), legal_uniform)
    with pytest.raises(CheckpointError, match="choose one with module=NAME"):
        make_agent("rllib", ENV_ID, path=checkpoint("two", {"a": state, "b": uniform}))


def test_shipped_policy_loads_by_default_and_beats_random():
    agent = make_agent("rllib", ENV_ID)
    assert set(agent.policies) == {SHARED_MODULE} and agent.meta["illegal_actions"] == 0
    results = _play([agent, make_agent("random", ENV_ID, seed=0)], ENV_ID, 2, games=40)
    # Game g seats the agent in seat g % 2; docs/rllib.md's 1,000-game figure is 97%.
    wins = sum(r[g % 2] > 0 for g, r in enumerate(results))
    assert wins >= 32
    with pytest.raises(CheckpointError, match="no pretrained RLlib policy is shipped for 'mystria_v0'"):
        make_agent("rllib", "mystria_v0")


def test_broken_weights_are_clear_errors_never_illegal_actions(tmp_path):
    shipped = pretrained_path(ENV_ID)
    weights = pickle.loads((shipped / "module_state.pkl").read_bytes())

    def edited(name, edit):
        copy = tmp_path / name
        shutil.copytree(shipped, copy)
        changed = {key: value.copy() for key, value in weights.items()}
        edit(changed)
        (copy / "module_state.pkl").write_bytes(pickle.dumps(changed))
        return copy

    nan = edited("nan", lambda w: w["pi.0.bias"].__setitem__(0, np.nan))
    with pytest.raises(CheckpointError, match=r"pi\.0 holds NaN or infinite weights"):
        make_agent("rllib", ENV_ID, path=nan)
    text = edited("text", lambda w: w.__setitem__("pi.0.bias", np.array(["x"] * len(w["pi.0.bias"]))))
    with pytest.raises(CheckpointError, match=r"pi\.0 is not numeric"):
        make_agent("rllib", ENV_ID, path=text)
    # Finite but huge: float32 overflows to inf; the agent says so instead of playing action 0.
    last = max(int(k.split(".")[1]) for k in weights if k.startswith("pi."))
    huge = edited("huge", lambda w: w.__setitem__(f"pi.{last}.weight", w[f"pi.{last}.weight"] * 1e38))
    agent = make_agent("rllib", ENV_ID, path=huge)
    env = mystic_envs.make(ENV_ID)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="non-finite action scores"):
        agent.act(env, env.agent_selection)


def test_bad_checkpoints_are_clear_errors(run, tmp_path):
    with pytest.raises(CheckpointError, match="does not exist"):
        make_agent("rllib", ENV_ID, path=tmp_path / "missing")
    with pytest.raises(CheckpointError, match="not an RLlib checkpoint"):
        make_agent("rllib", ENV_ID, path=tmp_path)
    with pytest.raises(CheckpointError, match="trained on elemystic_v0, not mystria_v0"):
        make_agent("rllib", "mystria_v0", path=run)

    def broken(name, content):
        copy = tmp_path / name
        shutil.copytree(run / "checkpoint", copy)
        (copy / MODULES_SUBDIR / SHARED_MODULE / "module_state.pkl").write_bytes(content)
        return copy

    state = (run / "checkpoint" / MODULES_SUBDIR / SHARED_MODULE / "module_state.pkl").read_bytes()
    with pytest.raises(CheckpointError, match="unreadable"):
        make_agent("rllib", ENV_ID, path=broken("truncated", state[: len(state) // 2]))
    # A pickle that would run code when loaded is refused before anything runs.
    with pytest.raises(CheckpointError, match=r"unreadable .*not a numpy array part"):
        make_agent("rllib", ENV_ID, path=broken("hostile", pickle.dumps(subprocess.Popen)))
    weights = pickle.loads(state)
    weights["pi.2.weight"] = weights["pi.2.weight"][:, :10]
    with pytest.raises(CheckpointError, match=r"pi\.2 does not fit"):
        make_agent("rllib", ENV_ID, path=broken("reshaped", pickle.dumps(weights)))
    without_meta = broken("no-meta", state)
    (without_meta / "mystic_envs.json").unlink()
    with pytest.raises(CheckpointError, match="observations of size 125 and 33 actions; this env has"):
        make_agent("rllib", "mystria_v0", path=without_meta)
    with pytest.raises(CheckpointError, match="holds no trained module"):
        make_agent("rllib", ENV_ID, path=broken("empty", pickle.dumps({})))
