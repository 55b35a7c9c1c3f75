"""The compiled twins play exactly the Python engines' games (CONVENTIONS section 8).

EnvPool's oracle tests, for every game with a twin, each variant and player count: the batch
against one AEC env per slot (mover, observation bit for bit, mask, every seat's reward,
termination and truncation, autoreset seeds), the compiled single-game state against the Python
state (every seat's view, mask, returns, infos, clone, determinize with the same generator, the
privileged view), and every way to hand the core a bad action. ``--soak`` plays 10**6 steps a case
instead of 20,000 (``MYSTIC_EXACT_STEPS`` sets another number: the sanitizer run's short form).
"""

from __future__ import annotations

import gc
import os
import pickle
import weakref
import zlib

import numpy as np
import pytest

import mystic_envs
from mystic_envs import vector
from mystic_envs.core import compiled
from tests.core.cases import CASES, NOTHING_HIDDEN, require_core


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def case_seed(env_id: str, kwargs: dict, n: int) -> int:
    return zlib.crc32(f"{env_id}{sorted(kwargs.items())}{n}".encode())


def python_game(env_id: str, kwargs: dict, n: int):
    return mystic_envs.make_raw(env_id, num_players=n, **kwargs).game


# -- the batch against the AEC env -------------------------------------------------------------


def check_batch_against_envs(env_id: str, kwargs: dict, n: int, total_steps: int, num_envs: int, **extra):
    seed = case_seed(env_id, kwargs, n)
    v = vector.make(env_id, num_envs=num_envs, seed=seed, num_players=n, **kwargs, **extra)
    envs = [mystic_envs.make(env_id, num_players=n, **kwargs, **extra) for _ in range(num_envs)]
    agents = envs[0].possible_agents
    rng = np.random.default_rng(seed)
    v.reset()
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    ended = np.zeros(num_envs, dtype=bool)
    last_mover = np.full(num_envs, -1)
    games = np.zeros(num_envs, dtype=np.int64)
    counts = {"ends": 0, "truncations": 0}

    def compare(i: int, env) -> None:
        if ended[i]:
            assert v.current_player[i] == -1
            assert not v.action_mask[i].any()
            final = env.observe(agents[last_mover[i]])["observation"]
            assert same_bits(v.observation[i], final), f"env {i}: final view of seat {last_mover[i]}"
            return
        mover = env.agent_selection
        assert v.current_player[i] == agents.index(mover), f"env {i}: mover"
        seen = env.observe(mover)
        assert same_bits(v.observation[i], seen["observation"]), f"env {i}: observation of {mover}"
        assert np.array_equal(v.action_mask[i], seen["action_mask"].astype(bool)), f"env {i}: mask"

    for i, env in enumerate(envs):
        compare(i, env)
    steps = 0
    while steps < total_steps:
        actions = v.sample_legal() if rng.random() < 0.5 else np.zeros(num_envs, dtype=np.int64)
        for i in range(num_envs):
            if not ended[i] and not v.action_mask[i, actions[i]]:
                actions[i] = rng.choice(np.flatnonzero(v.action_mask[i]))
            if ended[i]:
                actions[i] = rng.integers(-5, 10**6)  # ignored: the env starts its next game
        movers = v.current_player.copy()
        v.step(actions)
        for i, env in enumerate(envs):
            if ended[i]:
                games[i] += 1
                assert v.env_status(i)[:2] == (games[i], (seed + i + int(games[i]) * num_envs) % 2**64)
                env.reset(seed=seed + i + int(games[i]) * num_envs)
                ended[i] = False
                assert not v.terminated[i] and not v.truncated[i] and not v.rewards[i].any()
                compare(i, env)
                continue
            env.step(int(actions[i]))
            steps += 1
            for p, agent in enumerate(agents):  # a seat that left (step(None)) earns nothing more
                assert np.float32(env.rewards.get(agent, 0.0)) == v.rewards[i, p], (
                    f"env {i}: reward of {agent}"
                )
            # A seat out of a game that goes on is terminated alone; the batch's flag is the game's.
            game_over, truncated = all(env.terminations.values()), any(env.truncations.values())
            assert bool(v.terminated[i]) == game_over, f"env {i}: terminated"
            assert bool(v.truncated[i]) == truncated, f"env {i}: truncated"
            if game_over or truncated:
                ended[i] = True
                last_mover[i] = movers[i]
                counts["ends"] += 1
                counts["truncations"] += int(v.truncated[i])
            else:
                # A seat eliminated while the game goes on is handed the move to leave (step(None));
                # the batch moves straight on to the next seat to play.
                while env.terminations[env.agent_selection]:
                    env.step(None)
            compare(i, env)
    return counts


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_batch_plays_the_aec_envs_games(env_id, kwargs, n, request):
    total = 10**6 if request.config.getoption("--soak") else int(os.environ.get("MYSTIC_EXACT_STEPS", 20_000))
    counts = check_batch_against_envs(env_id, kwargs, n, total, num_envs=7)
    assert counts["ends"] >= 1, "no game ended: autoreset was not exercised"


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_reset_with_a_seed_starts_the_games_of_that_seed(env_id, kwargs, n):
    v = vector.make(env_id, num_envs=3, seed=1, num_players=n, **kwargs)
    v.reset()
    for _ in range(5):
        v.step(v.sample_legal())
    v.reset(seed=2**64 - 2)  # env 2's game is seeded 2**64 (mod 2**64): 0
    for i, seed in enumerate((2**64 - 2, 2**64 - 1, 0)):
        assert v.env_status(i) == (0, seed, 0, False)
        env = mystic_envs.make(env_id, num_players=n, **kwargs)
        env.reset(seed=seed)
        assert same_bits(v.observation[i], env.observe(env.agent_selection)["observation"])
    with pytest.raises(ValueError, match="seed"):
        v.reset(seed=-1)


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_truncation_matches_the_aec_env(env_id, kwargs, n):
    counts = check_batch_against_envs(env_id, kwargs, n, 600, num_envs=3, max_steps=23)
    assert counts["truncations"] >= 3


# -- the compiled single-game state against the Python state -----------------------------------


def check_same_state(core, py, twin) -> None:
    n = py.game.num_players
    assert core.current_player == py.current_player
    assert core.is_terminal == py.is_terminal
    assert np.array_equal(core.legal_mask(), py.legal_mask())
    assert core.legal_actions() == list(py.legal_actions())
    assert np.array_equal(core.returns(), np.asarray(py.returns(), dtype=np.float64))
    for p in range(n):
        assert same_bits(core.observation(p), py.observation(p)), f"seat {p}'s observation"
        assert core.player_done(p) == py.player_done(p)
    ci, pi = core.info(), py.info()
    assert ci.keys() == pi.keys()
    for key in pi:
        assert np.array_equal(np.asarray(ci[key]), np.asarray(pi[key])), f"info {key}"
    assert core.phase == py.phase and core.phase_name == py.phase_name
    assert same_bits(core.privileged_observation(), twin.privileged_observation(py)), "privileged view"


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_state_equals_the_python_engine(env_id, kwargs, n):
    game = python_game(env_id, kwargs, n)
    core_game = compiled.CoreGame(game)
    twin = core_game.twin
    rng = np.random.default_rng(case_seed(env_id, kwargs, n))
    clones = redeals = 0

    def play_both(core, py, moves: int) -> None:
        """Up to ``moves`` random legal moves on both engines, compared after each."""
        for _ in range(moves):
            if py.is_terminal:
                break
            a = int(rng.choice(py.legal_actions()))
            py.apply(a)
            core.apply(a)
            check_same_state(core, py, twin)

    for seed in [0, 1, 2**64 - 1, *rng.integers(0, 2**63, size=9).tolist()]:
        py, core = game.new_initial_state(seed), core_game.new_initial_state(seed)
        check_same_state(core, py, twin)
        while not py.is_terminal:
            roll = rng.random()
            if roll < 0.05:
                # A mid-game clone plays on alone; the original must not move with it.
                play_both(core.clone(), py.clone(), 3)
                clones += 1
            elif roll < 0.10:
                # The same numpy generator re-deals the same way, and the chance streams after it agree.
                seat = int(rng.integers(n))
                draw = int(rng.integers(2**32))
                d_py = py.determinize(seat, np.random.default_rng(draw))
                d_core = core.determinize(seat, np.random.default_rng(draw))
                check_same_state(d_core, d_py, twin)
                play_both(d_core, d_py, 6)
                redeals += 1
            play_both(core, py, 1)
        for seat in range(n):  # a finished game re-deals too (search may reach one)
            draw = int(rng.integers(2**32))
            d_py = py.determinize(seat, np.random.default_rng(draw))
            check_same_state(core.determinize(seat, np.random.default_rng(draw)), d_py, twin)
    assert clones >= 3 and redeals >= 3, (clones, redeals)


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_views_hold_no_hidden_card_and_the_privileged_view_does(env_id, kwargs, n):
    """A re-deal of what a seat cannot see leaves its view bit for bit, and the privileged view,
    which opens with every seat's view, holds the hidden cards: it changes under re-deals."""
    game = compiled.CoreGame(python_game(env_id, kwargs, n))
    rng = np.random.default_rng(7)
    obs = game.observation_size
    changed = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        for _ in range(int(rng.integers(0, 40))):
            if state.is_terminal:
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if state.is_terminal:
            continue
        priv = state.privileged_observation()
        for p in range(n):
            assert same_bits(priv[p * obs : (p + 1) * obs], state.observation(p))
        for p in range(n):
            redealt = state.determinize(p, np.random.default_rng(int(rng.integers(2**32))))
            assert same_bits(redealt.observation(p), state.observation(p)), f"seat {p} saw the re-deal"
            changed += not same_bits(redealt.privileged_observation()[n * obs :], priv[n * obs :])
    if (env_id, kwargs) in NOTHING_HIDDEN:
        assert changed == 0, "a re-deal changed something in a game where nothing is hidden"
    else:
        assert changed > 0, "no re-deal changed the hidden block: it holds no hidden card"


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_rollout_pickle_and_layouts(env_id, kwargs, n):
    game = compiled.CoreGame(python_game(env_id, kwargs, n))
    state = game.new_initial_state(3)
    state.apply(state.legal_actions()[0])
    copy = pickle.loads(pickle.dumps(state))
    assert same_bits(copy.observation(0), state.observation(0))
    assert copy.mirror().legal_actions() == state.legal_actions()
    played = copy.rollout(seed=11)
    assert copy.is_terminal and played > 0
    assert not state.is_terminal, "a rollout moved the state it was copied from"
    again = pickle.loads(pickle.dumps(state))
    assert again.rollout(seed=11) == played and np.array_equal(again.returns(), copy.returns())
    redealt = state.determinize(1, np.random.default_rng(4))  # the replay log carries re-deals too
    assert same_bits(
        pickle.loads(pickle.dumps(redealt)).privileged_observation(), redealt.privileged_observation()
    )
    v = vector.make(env_id, num_envs=2, seed=1, num_players=n, **kwargs)
    v.reset()
    with pytest.raises(TypeError, match="copied out of a batch"):
        pickle.dumps(v.state(1))
    layout = game.privileged_layout()
    assert layout[-1].stop == game.dims["privileged_size"]
    assert layout[-1].stop == len(state.privileged_observation())


# -- the data the twins receive -------------------------------------------------------------------


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_the_twin_holds_the_python_tables(env_id, kwargs, n):
    game = compiled.CoreGame(python_game(env_id, kwargs, n))
    held = compiled.core_module().tables(game.core_name)
    declared = {k: [int(x) for x in v] for k, v in game.twin.core_tables().items()}
    assert held == declared
    with pytest.raises(ValueError, match="holds"):
        name, values = next(iter(declared.items()))
        compiled.core_module().load_tables(game.core_name, {**declared, name: [*values, 0]})
    assert compiled.core_module().tables(game.core_name) == declared, "a failed load changed a table"


# -- bad input at the boundary ----------------------------------------------------------------------


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_bad_actions_name_the_env_and_change_nothing(env_id, kwargs, n):
    v = vector.make(env_id, num_envs=4, seed=5, num_players=n, **kwargs)
    v.reset()
    before = [a.copy() for a in (v.current_player, v.observation, v.action_mask, v.rewards)]
    status = [v.env_status(i) for i in range(4)]
    good = v.sample_legal()
    illegal = np.flatnonzero(~v.action_mask[2])
    cases = [
        (v.num_actions, ValueError, "env 2: action .* out of range"),
        (-1, ValueError, "env 2: action -1 "),
    ]
    if illegal.size:
        cases.append((int(illegal[0]), mystic_envs.IllegalActionError, "env 2: action .* is illegal"))
    for action, error, message in cases:
        bad = good.copy()
        bad[2] = action
        with pytest.raises(error, match=message):
            v.step(bad)
        for a, b in zip(before, (v.current_player, v.observation, v.action_mask, v.rewards), strict=True):
            assert np.array_equal(a, b)
        assert [v.env_status(i) for i in range(4)] == status
    with pytest.raises(ValueError, match="shape"):
        v.step(good[:3])
    with pytest.raises(TypeError, match="integers"):
        v.step(good.astype(np.float64))
    with pytest.raises(ValueError, match="seat"):
        v.observe(n)
    v.step(good)  # the batch still works
    state = compiled.CoreGame(python_game(env_id, kwargs, n)).new_initial_state(0)
    with pytest.raises(TypeError):
        state.apply(1.5)
    with pytest.raises(ValueError, match="seat"):
        state.observation(-1)
    wrong = next(a for a in range(state.game.num_actions) if not state.is_legal(a))
    view = state.observation(0)
    with pytest.raises(mystic_envs.IllegalActionError, match="illegal action"):
        state.apply(wrong)
    assert same_bits(state.observation(0), view)


def test_vector_make_checks_its_arguments():
    env_id = CASES[0].values[0] if CASES else pytest.skip("no twin built")
    with pytest.raises(ValueError, match="num_envs"):
        vector.make(env_id, num_envs=0)
    with pytest.raises(ValueError, match="num_threads"):
        vector.make(env_id, num_threads=0)
    with pytest.raises(ValueError, match="seed"):
        vector.make(env_id, seed=-1)
    with pytest.raises(TypeError, match="render_mode"):
        vector.make(env_id, render_mode="ansi")
    with pytest.raises(TypeError, match="unexpected keyword"):
        vector.make(env_id, colour="red")
    with pytest.raises(RuntimeError, match="reset"):
        vector.make(env_id).step(np.zeros(1, dtype=np.int64))


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_sample_legal_is_uniform_over_the_legal_actions(env_id, kwargs, n):
    """Each env's draws cover exactly its legal actions, each about equally often (a mask with many
    legal actions far apart tests the scan that skips 8 mask bytes at a time)."""
    v = vector.make(env_id, num_envs=6, seed=21, num_players=n, **kwargs)
    v.reset()
    for _ in range(40):  # into the game, where masks hold more actions
        v.step(v.sample_legal())
    draws = 3000
    counts = np.zeros((v.num_envs, v.num_actions), dtype=np.int64)
    out = np.zeros(v.num_envs, dtype=np.int64)
    for _ in range(draws):
        v.sample_legal(out=out)
        counts[np.arange(v.num_envs), out] += 1
    for i in range(v.num_envs):
        legal = np.flatnonzero(v.action_mask[i])
        if legal.size == 0:  # an ending step draws 0
            assert counts[i, 0] == draws
            continue
        assert np.array_equal(np.flatnonzero(counts[i]), legal)
        p = 1 / legal.size
        sigma = np.sqrt(draws * p * (1 - p))
        assert np.all(np.abs(counts[i, legal] - draws * p) < 5 * sigma + 1)


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_the_mirror_replays_only_what_came_since_the_last_one(env_id, kwargs, n, monkeypatch):
    """describe() and check_invariants() run on a Python mirror of the compiled state; after the
    first, each mirror extends the last one along the same history (clones and re-deals included)
    instead of replaying the game from its seed, and equals a mirror made from scratch."""
    game = compiled.CoreGame(python_game(env_id, kwargs, n))
    state = game.new_initial_state(17)
    state.check_invariants()
    starts = []
    real = game.base.new_initial_state
    monkeypatch.setattr(game.base, "new_initial_state", lambda seed: starts.append(seed) or real(seed))
    rng = np.random.default_rng(4)
    for step in range(60):
        if state.is_terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
        if step % 7 == 3:
            state = state.clone()
        if step % 11 == 5 and not state.is_terminal:
            state = state.determinize(state.current_player, rng)
        state.check_invariants()
    assert starts == []
    fresh = compiled.CoreState(game, state._raw.clone(), state._log)
    for p in range(n):
        assert same_bits(fresh.mirror().observation(p), state.mirror().observation(p))
    assert fresh.describe(0) == state.describe(0)
    assert starts == [17]


def test_step_and_sample_legal_take_any_integer_actions_and_free_the_batch():
    """step and sample_legal are the core's own methods; other dtypes, lists and strided arrays go
    through the Python conversion and play the same games, and a dropped batch is collected."""
    env_id = CASES[0].values[0] if CASES else pytest.skip("no twin built")
    a, b = vector.make(env_id, num_envs=3, seed=9), vector.make(env_id, num_envs=3, seed=9)
    with pytest.raises(RuntimeError, match="reset"):
        a.sample_legal()
    a.reset()
    b.reset()
    out = np.zeros(3, dtype=np.int64)
    forms = [
        lambda x: x.astype(np.int32),
        lambda x: x.astype(np.uint16),
        lambda x: x.tolist(),
        lambda x: np.repeat(x, 2)[::2],  # int64 but not contiguous
        lambda x: x.astype(">i8"),  # int64 in the other byte order
    ]
    for step in range(200):
        actions = a.sample_legal(out=out)
        assert actions is out
        b.step(b.sample_legal().copy())
        a.step(forms[step % len(forms)](actions))
        assert np.array_equal(a.observation, b.observation)
        assert np.array_equal(a.rewards, b.rewards)
    with pytest.raises(ValueError, match="0-"):
        a.step(np.full(3, 2**63, dtype=np.uint64))
    with pytest.raises(TypeError, match="integers"):
        a.step(["x", "y", "z"])
    for wrong in (
        np.zeros(3, dtype=np.int32),
        np.zeros(4, dtype=np.int64),
        [0, 0, 0],
        np.zeros(6, np.int64)[::2],
    ):
        with pytest.raises(TypeError, match="out must be a writable int64"):
            a.sample_legal(out=wrong)
    with pytest.raises(TypeError, match="one optional argument"):
        a.sample_legal(out, out)
    with pytest.raises(TypeError, match="one optional argument"):
        a.sample_legal(where=out)
    gone = weakref.ref(a)
    del a
    gc.collect()
    assert gone() is None


@pytest.mark.parametrize(("env_id", "kwargs", "n"), CASES)
def test_threads_split_the_batch_without_changing_it(env_id, kwargs, n):
    runs = []
    for threads in (1, 2, 3):
        v = vector.make(env_id, num_envs=37, seed=9, num_threads=threads, num_players=n, **kwargs)
        v.reset()
        trace = []
        for _ in range(150):
            v.step(v.sample_legal())
            trace.append((v.observation.copy(), v.rewards.copy(), v.terminated.copy(), v.action_mask.copy()))
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other, strict=True):
            assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
