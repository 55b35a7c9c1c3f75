"""OpenSpiel's own checks and algorithms on every game (``mystic_envs.openspiel``, docs/openspiel.md):
pyspiel's random-simulation test, the registered type and info, tensors equal to the env's
observations, the ``rng_seed`` stream, clone/pickle, truncation, IS-MCTS resampling, OpenSpiel's
Python MCTS (through ``evaluate_bots``) and IS-MCTS bots playing whole games, its RL environment,
and the code and games table of docs/openspiel.md."""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is in the [clients] extra: pip install -e .[clients]"
)

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

import mystic_envs  # noqa: E402
import mystic_envs.openspiel as mos  # noqa: E402
from mystic_envs import IllegalActionError  # noqa: E402
from mystic_envs.core.narration import action_label  # noqa: E402

CASES = [
    pytest.param(env_id, n, id=f"{env_id}-{n}p")
    for env_id in mystic_envs.ENV_IDS
    for n in mystic_envs.player_counts(env_id)
]
ENV_IDS = list(mystic_envs.ENV_IDS)


# Mystic Vale's random games are 400-600 actions, and these tests play whole games with rollouts
# or re-deals at every step (minutes a game): it plays them cut by max_steps (the game then ends
# with every return 0, as the env truncates), except where a test asks for the default length.
QUICK = {"mystic_vale_v0": {"max_steps": 60}}


def load(env_id: str, quick: bool = True, **params) -> pyspiel.Game:
    if quick:
        params = {**QUICK.get(env_id, {}), **params}
    return pyspiel.load_game(mos.SHORT_NAMES[env_id], params)


def random_playout(state, rng: np.random.Generator, max_actions: int | None = None):
    n = 0
    while not state.is_terminal() and (max_actions is None or n < max_actions):
        state.apply_action(int(rng.choice(state.legal_actions())))
        n += 1
    return state


def test_every_env_is_registered_under_its_short_name():
    assert {e: "python_mystic_" + e.removesuffix("_v0") for e in mystic_envs.ENV_IDS} == mos.SHORT_NAMES
    assert mos.SHORT_NAMES["elemystic_v0"] == "python_mystic_elemystic"
    assert set(mos.SHORT_NAMES.values()) <= set(pyspiel.registered_names())
    mos.register()  # a second registration changes nothing and raises nothing


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_game_type_and_info(env_id, n):
    game = load(env_id, quick=False, num_players=n)
    env = mystic_envs.make_raw(env_id, num_players=n)
    gt = game.get_type()
    assert gt.short_name == mos.SHORT_NAMES[env_id]
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (
        min(mystic_envs.player_counts(env_id)),
        max(mystic_envs.player_counts(env_id)),
    )
    assert gt.provides_information_state_tensor and gt.provides_observation_tensor
    assert gt.provides_information_state_string and gt.provides_observation_string
    assert {"rng_seed", "max_steps", "num_players"} <= set(gt.parameter_specification)
    if env_id == "mystria_v0":
        assert gt.parameter_specification["variant"] == "full"
    assert game.num_players() == n
    assert game.num_distinct_actions() == env.game.num_actions
    assert game.max_game_length() == env.max_steps
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    size = env.game.observation_size
    assert game.information_state_tensor_shape() == [size] == game.observation_tensor_shape()
    assert game.information_state_tensor_size() == size == game.observation_tensor_size()
    # OpenSpiel's C++ side measures the tensors itself, through the observer.
    assert pyspiel.Game.information_state_tensor_shape(game) == [size]
    assert pyspiel.Game.observation_tensor_size(game) == size


RANDOM_SIM_CASES = [
    *[
        pytest.param(env_id, {"num_players": n}, id=f"{env_id}-{n}p")
        for env_id in ENV_IDS
        for n in mystic_envs.player_counts(env_id)
    ],
    pytest.param("mystria_v0", {"variant": "intro"}, id="mystria_v0-intro"),
    # Truncated by max_steps: a terminal state with zero returns, within max_game_length.
    *[pytest.param(env_id, {"max_steps": 7}, id=f"{env_id}-max_steps7") for env_id in ENV_IDS],
]


@pytest.mark.parametrize(("env_id", "params"), RANDOM_SIM_CASES)
def test_pyspiel_random_sim_test(env_id, params):
    # serialize=False: OpenSpiel serializes a sampled-stochastic game with its RNG state, which a
    # Python game cannot hand to C++ (GetRNGState); pickling is tested below instead.
    game = load(env_id, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_tensors_are_the_env_observations(env_id, n):
    """The first deal of rng_seed=s is env.reset(seed=s)'s; along one random game every tensor
    OpenSpiel hands out (Python and C++ paths, observer) is the env's observation."""
    seed = 11
    game = load(env_id, quick=False, num_players=n, rng_seed=seed)
    state = game.new_initial_state()
    env = mystic_envs.make(env_id, num_players=n)
    env.reset(seed=seed)
    observer = make_observation(game, INFO_STATE_OBS_TYPE)
    obs_observer = make_observation(game)
    size = game.observation_tensor_size()
    assert observer.tensor.shape == (size,) and list(observer.dict) == [
        e.name for e in env.unwrapped.observation_layout
    ]
    rng = np.random.default_rng(0)
    steps = 0
    # Each seat's reward on the step it terminated: a seat eliminated mid-game (Mystick Domination
    # at 3+ players) leaves the env with its fixed reward while the others play on.
    final = {}

    def drain_eliminated() -> None:
        # OpenSpiel never hands a turn to an eliminated seat; the env does, once, for step(None).
        for a in env.agents:
            if env.terminations[a]:
                final.setdefault(a, env.rewards[a])
        while env.agents and env.terminations[env.agent_selection] and not state.is_terminal():
            env.step(None)

    while not state.is_terminal():
        drain_eliminated()
        player = state.current_player()
        assert env.agent_selection == f"player_{player}"
        mask = env.observe(env.agent_selection)["action_mask"]
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        for p in range(n):
            expected = env.observe(f"player_{p}")["observation"]
            assert np.array_equal(state.information_state_tensor(p), expected)
            assert np.array_equal(state.observation_tensor(p), expected)
            observer.set_from(state, p)
            assert np.array_equal(observer.tensor, expected)
            for entry in env.unwrapped.observation_layout:
                assert np.array_equal(observer.dict[entry.name], expected[entry.slice])
            if steps % 10 == 0:  # the C++ paths build a scratch state per call: sampled
                assert np.array_equal(pyspiel.State.information_state_tensor(state, p), expected)
                assert np.array_equal(pyspiel.State.observation_tensor(state, p), expected)
                assert state.observation_string(p) == state.game_state.describe(viewer=p)
                assert obs_observer.string_from(state, p) == state.observation_string(p)
                text = state.information_state_string(p)
                assert text.startswith(f"player_{p} ")
                assert text == observer.string_from(state, p)
        assert np.array_equal(state.information_state_tensor(), state.information_state_tensor(player))
        action = int(rng.choice(state.legal_actions()))
        # The label the terminal gives, as the mover hears it, with the index's fixed name
        # (action_meaning) added only where two legal actions would read alike.
        label = action_label(env.unwrapped.game_state, action, viewer=player)
        meaning = env.unwrapped.action_meaning(action)
        assert state.action_to_string(player, action) in (label, f"{label} [{meaning}]")
        if steps % 10 == 0:
            strings = [state.action_to_string(player, a) for a in state.legal_actions()]
            assert len(set(strings)) == len(strings)
        state.apply_action(action)
        env.step(action)
        steps += 1
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    drain_eliminated()
    rewards = [final[a] for a in env.possible_agents]
    # Rank rewards are thirds and quarters: zero-sum up to float rounding, whatever order they add in.
    assert state.returns() == rewards and sum(rewards) == pytest.approx(0.0, abs=1e-12)
    assert str(state) == env.unwrapped.game_state.describe()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_information_state_string_is_exact(env_id):
    # Tabular algorithms key on it: equal strings for equal tensors, different for different.
    game = load(env_id)
    rng = np.random.default_rng(1)
    seen: dict[str, np.ndarray] = {}
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            tensor = np.asarray(state.information_state_tensor(p))
            text = state.information_state_string(p)
            if text in seen:
                assert np.array_equal(seen[text], tensor)
            seen[text] = tensor
            state.apply_action(int(rng.choice(state.legal_actions())))
    by_tensor = {t.tobytes(): s for s, t in seen.items()}
    assert len(by_tensor) == len(seen)


def deals(game: pyspiel.Game, count: int, seed: int = 0) -> list[str]:
    """The histories and final tables of ``count`` games from ``game``, played by one seeded rng."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        state = random_playout(game.new_initial_state(), rng)
        out.append(f"{state.history()} {state.returns()} {state}")
    return out


def openings(game: pyspiel.Game, count: int) -> list[tuple]:
    """What every seat sees at the start of the next ``count`` games of ``game``."""
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        out.append(tuple(tuple(state.information_state_tensor(p)) for p in range(game.num_players())))
    return out


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rng_seed_stream(env_id):
    assert deals(load(env_id, rng_seed=3), 3) == deals(load(env_id, rng_seed=3), 3)  # whole games
    first = openings(load(env_id, rng_seed=3), 3)
    assert len(set(first)) == 3  # successive states deal differently
    assert openings(load(env_id, rng_seed=4), 3) != first
    assert openings(load(env_id, rng_seed=-1), 1)  # -1: a seed from the OS
    # Clones (OpenSpiel's Clone makes a scratch initial state) and unused states draw nothing:
    # the deals go on from where they were.
    game = load(env_id, rng_seed=3)
    state = game.new_initial_state()
    clones = [state.clone() for _ in range(3)]
    game.new_initial_state()  # never used
    n = game.num_players()
    assert [tuple(tuple(c.information_state_tensor(p)) for p in range(n)) for c in clones] == first[:1] * 3
    assert openings(game, 2) == first[1:]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_clone_pickle_and_deepcopy_continue_the_same_game(env_id):
    game = load(env_id, rng_seed=5)
    state = random_playout(game.new_initial_state(), np.random.default_rng(2), max_actions=25)
    copies = [state.clone(), pickle.loads(pickle.dumps(state)), copy.deepcopy(state)]
    for c in copies:
        assert isinstance(c, mos.MysticOpenSpielState)
        assert c.history() == state.history() and str(c) == str(state)
        assert c.game_state is not state.game_state
    ends = []
    for s in [state, *copies]:
        random_playout(s, np.random.default_rng(3))  # chance inside apply() follows each copy's rng
        ends.append((s.history(), s.returns(), str(s)))
    assert all(e == ends[0] for e in ends)
    # A fresh, unused state pickles with the deal it would have had.
    fresh = game.new_initial_state()
    assert str(pickle.loads(pickle.dumps(fresh))) == str(fresh)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pickled_game_keeps_its_seed_stream(env_id):
    # OpenSpiel's sampled-stochastic games test this: after a playout, the unpickled game deals
    # what the original deals next.
    game = load(env_id, rng_seed=0)
    random_playout(game.new_initial_state(), np.random.default_rng(0))
    restored = pickle.loads(pickle.dumps(game))
    assert str(restored) == str(game)
    assert deals(restored, 1) == deals(game, 1)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_max_steps_truncates_with_zero_returns(env_id):
    game = load(env_id, max_steps=5)
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    for _ in range(5):
        assert not state.is_terminal()
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and not state.game_state.is_terminal
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == [] and state.returns() == [0.0] * game.num_players()
    assert state.rewards() == [0.0] * game.num_players()


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_mcts_bot_plays_whole_games(env_id, n):
    """OpenSpiel's Python MCTS (random rollouts) against its uniform random bot, in every seat,
    through evaluate_bots. (pyspiel's C++ MCTSBot crashes on any Python game, OpenSpiel's own
    python_tic_tac_toe included, so the Python one is used.)"""
    game = load(env_id, num_players=n, rng_seed=7)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for seat in range(n):
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(n)]
        bots[seat] = mcts.MCTSBot(game, 2.0, 4, evaluator, solve=False, random_state=rng)
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == n and sum(returns) == pytest.approx(0.0)
        assert all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_resample_from_infostate_keeps_what_the_player_knows(env_id, n):
    game = load(env_id, num_players=n, rng_seed=4)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    redealt = False
    while not state.is_terminal():
        p = state.current_player()
        sample = state.resample_from_infostate(p, rng if len(state.history()) % 2 else sampler)
        assert isinstance(sample, mos.MysticOpenSpielState) and sample.history() == state.history()
        assert sample.current_player() == p and sample.legal_actions() == state.legal_actions()
        assert sample.information_state_string(p) == state.information_state_string(p)
        others = [q for q in range(n) if q != p]
        redealt |= any(
            sample.information_state_string(q) != state.information_state_string(q) for q in others
        )
        random_playout(sample, rng)  # a re-dealt world plays on to its own end
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert redealt, "no resample ever re-dealt what another seat holds"
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(game.new_initial_state().resample_from_infostate(0, rng))


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_ismcts_bot_plays_whole_games(env_id, n):
    """OpenSpiel's IS-MCTS searches worlds re-dealt by resample_from_infostate, so unlike MCTSBot
    (which searches the true state) it never sees hidden cards or future draws."""
    game = load(env_id, num_players=n, rng_seed=8)
    rng = np.random.RandomState(0)
    worlds = np.random.default_rng(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds))
    state = game.new_initial_state()
    while not state.is_terminal():
        # ISMCTSBot asserts that every world it searches keeps the mover's information state.
        mover = state.current_player()
        action = bot.step(state) if mover == 0 else int(worlds.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_rl_environment_episode(env_id, n):
    """OpenSpiel's RL environment (what its DQN, NFSP and policy-gradient agents train in)."""
    game = load(env_id, num_players=n, rng_seed=1)
    env = rl_environment.Environment(game)
    size = game.information_state_tensor_size()
    assert env.observation_spec()["info_state"] == (size,)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    rng = np.random.default_rng(0)
    time_step = env.reset()
    steps = 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        assert len(time_step.observations["info_state"][player]) == size and legal
        time_step = env.step([int(rng.choice(legal))])
        steps += 1
    assert steps <= game.max_game_length()
    assert len(time_step.rewards) == n and sum(time_step.rewards) == pytest.approx(0.0)


def test_bad_input_gives_clear_errors():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'foo'"):
        load("elemystic_v0", foo=1)
    with pytest.raises(ValueError, match=r"rng_seed must be -1 or an integer 0-2\*\*64-1"):
        load("elemystic_v0", rng_seed=-2)
    with pytest.raises(ValueError, match="max_steps must be -1 or >= 1"):
        load("elemystic_v0", max_steps=0)
    with pytest.raises(ValueError, match="exactly 2 players"):
        load("elemystic_v0", num_players=3)
    with pytest.raises(ValueError, match="variant"):
        load("mystria_v0", variant="nope")
    with pytest.raises(ValueError, match="unknown env id"):
        mos.short_name("chess_v0")
    game = load("elemystic_v0")
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError, match=f"illegal action {illegal} "):
        state.apply_action(illegal)
    assert state.history() == []  # nothing half-applied
    with pytest.raises(ValueError, match="seat index"):
        state.information_state_tensor(2)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="private_info=SINGLE_PLAYER"):
        make_observation(game, public)


def test_import_mystic_envs_does_not_import_pyspiel():
    code = "import sys, mystic_envs; mystic_envs.make('elemystic_v0'); assert 'pyspiel' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


DOC = Path(__file__).resolve().parents[2] / "docs" / "openspiel.md"


def doc_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("index", range(3))
def test_docs_page_code_runs(index, capsys):
    blocks = doc_blocks()
    assert len(blocks) == 3, f"{DOC.name} has {len(blocks)} python blocks; this test runs 3"
    exec(compile(blocks[index], f"{DOC.name} block {index + 1}", "exec"), {"__name__": "openspiel_doc"})
    assert capsys.readouterr().out  # every block prints what it found


def test_docs_page_games_table_is_the_registered_games():
    rows = re.findall(
        r"^\| `(python_mystic_\w+)` \| `(\w+)` \| (.*?) \| (\d+) \| (\d+) \| (\d+) \|$",
        DOC.read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert [r[0] for r in rows] == list(mos.SHORT_NAMES.values())
    for name, env_id, params, actions, size, length in rows:
        game = pyspiel.load_game(name)
        assert mos.SHORT_NAMES[env_id] == name
        spec = dict(game.get_type().parameter_specification)
        del spec["rng_seed"], spec["max_steps"]  # described below the table, for every game
        shown = dict(re.findall(r"`(\w+)=([^`]+)`", params))
        assert shown == {k: f'"{v}"' if isinstance(v, str) else str(v) for k, v in spec.items()}, name
        assert int(actions) == game.num_distinct_actions()
        assert int(size) == game.information_state_tensor_size()
        assert int(length) == game.max_game_length()
