"""``mcts`` searching in C (``agents.mcts``, ``engine="c"``; ``mystic_envs/core/c/search.c``): legal,
reproducible, the same search as the Python one, used by default where it can be, strict about
its arguments."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from gameplay import play_game

import mystic_envs
from agents import make_agent
from agents.mcts import MCTSAgent, _Node
from mystic_envs.core import compiled
from tests.core.cases import require_core

TWINS = ("elemystic_v0", "mystria_v0", "tarot_dice_v0")
BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "mcts_speed.py"


@pytest.fixture(autouse=True)
def _core() -> None:
    require_core()


def positions(env_id: str, count: int, seed: int = 0) -> list[tuple[compiled.CoreState, object]]:
    """(compiled state, equal Python state) pairs at seeded random points of seeded games, each
    with at least two legal moves."""
    base = mystic_envs.make_raw(env_id).game
    core_game = compiled.CoreGame(base)
    rng = np.random.default_rng(seed)
    out = []
    game_seed = seed
    while len(out) < count:
        py, core = base.new_initial_state(game_seed), core_game.new_initial_state(game_seed)
        for _ in range(int(rng.integers(0, 25))):
            if py.is_terminal:
                break
            legal = py.legal_actions()
            a = legal[int(rng.integers(len(legal)))]
            py.apply(a)
            core.apply(a)
        if not py.is_terminal and len(py.legal_actions()) > 1:
            out.append((core, py))
        game_seed += 1
    return out


@pytest.mark.parametrize("env_id", TWINS)
@pytest.mark.parametrize("depth", [None, 0, 3])
def test_search_visits_legal_actions_only_and_counts_every_iteration(env_id, depth):
    for i, (core, _) in enumerate(positions(env_id, 6)):
        visits, done = core.search(core.current_player, 40, 1.4, seed=i, rollout_depth=depth)
        legal = core.legal_mask()
        assert done == 40 and visits.sum() == 40
        assert visits.dtype == np.int64 and np.all(visits >= 0)
        assert not np.any(visits[~legal]), "a visited action is illegal at the root"


def test_search_is_reproducible_from_its_seed_and_leaves_the_state_alone():
    differed = 0
    for core, _ in positions("mystria_v0", 6):
        before = core.clone()
        a, _ = core.search(core.current_player, 60, 1.4, seed=5)
        b, _ = core.search(core.current_player, 60, 1.4, seed=5)
        c, _ = core.search(core.current_player, 60, 1.4, seed=6)
        assert np.array_equal(a, b)
        differed += not np.array_equal(a, c)
        for p in range(core.game.num_players):
            assert np.array_equal(core.observation(p), before.observation(p))
        assert core.legal_actions() == before.legal_actions()
    assert differed, "another seed never changed the search"


@pytest.mark.parametrize("env_id", TWINS)
def test_search_depends_only_on_what_the_searcher_sees(env_id):
    # Another truth that the searcher cannot tell apart (a re-deal from its own view) gets the
    # very same search from the same seed, though the other seat's view differs.
    hidden_differed = 0
    for i, (core, _) in enumerate(positions(env_id, 6, seed=1)):
        seat = core.current_player
        other = core.determinize(seat, np.random.default_rng(i))
        assert np.array_equal(other.observation(seat), core.observation(seat))
        hidden_differed += any(
            not np.array_equal(other.observation(p), core.observation(p))
            for p in range(core.game.num_players)
        )
        a, _ = core.search(seat, 50, 1.4, seed=i)
        b, _ = other.search(seat, 50, 1.4, seed=i)
        assert np.array_equal(a, b)
    assert hidden_differed, "no position had anything hidden to re-deal"


def test_agent_plays_the_same_game_from_the_same_seed():
    def game(agent_seed: int) -> list[int]:
        agent = make_agent("mcts", "mystria_v0", seed=agent_seed, simulations=30, engine="c")
        return play_game("mystria_v0", (agent, make_agent("random", "mystria_v0", seed=1)), 3)[1]

    assert game(11) == game(11)
    assert game(11) != game(12)


def test_search_finds_the_winning_move():
    # Elemystic positions (from seeded random play) where exactly one move wins at once whatever
    # the hidden cards are: checked on 8 re-deals from the mover's view.
    rng = np.random.default_rng(0)
    game = compiled.CoreGame(mystic_envs.make_raw("elemystic_v0").game)
    found = 0
    for seed in range(100):
        state = game.new_initial_state(seed)
        while not state.is_terminal and found < 8:
            seat, legal = state.current_player, state.legal_actions()
            wins = [a for a in legal if len(legal) > 1 and _wins_at_once(state, seat, a, rng)]
            if len(wins) == 1:
                found += 1
                visits, _ = state.search(seat, 300, 1.4, seed=found)
                assert int(np.argmax(visits)) == wins[0], f"game {seed}: missed the win {wins[0]}: {visits}"
            state.apply(legal[int(rng.integers(len(legal)))])
        if found == 8:
            break
    assert found == 8


def _wins_at_once(state, seat, action, rng) -> bool:
    for _ in range(8):
        d = state.determinize(seat, rng)
        d.apply(action)
        if not d.is_terminal or d.returns()[seat] <= 0:
            return False
    return True


def _shares_python(state, seat: int, sims: int, seeds, c: float = 1.4) -> np.ndarray:
    out = np.zeros(state.game.num_actions)
    for s in seeds:
        agent = MCTSAgent(simulations=sims, seed=s, c=c, engine="python")
        root = _Node(seat)
        for _ in range(sims):
            agent._iterate(root, state.determinize(seat, agent.rng))
        for a, child in root.children.items():
            out[a] += child.visits / sims
    return out / len(seeds)


def _shares_c(core, seat: int, sims: int, seeds, c: float = 1.4) -> np.ndarray:
    out = np.zeros(core.game.num_actions)
    for s in seeds:
        out += core.search(seat, sims, c, seed=s)[0] / sims
    return out / len(seeds)


def test_the_c_search_is_the_python_search_in_distribution():
    # The mean share of root visits of each action over 60 searches of 64 iterations: within
    # sampling noise of each other (two sets of C seeds differ by 0.03-0.09 in L1 on these), while a
    # different exploration constant moves the shares visibly on positions with many moves.
    same = other = 0.0
    for env_id in ("elemystic_v0", "mystria_v0"):
        for core, py in positions(env_id, 2, seed=3):
            seat = py.current_player
            ref = _shares_python(py, seat, 64, range(60))
            d = np.abs(ref - _shares_c(core, seat, 64, range(1000, 1060))).sum()
            assert d < 0.2, f"{env_id}: C and Python visit shares differ by {d:.3f} in L1"
            same += d
            other += np.abs(ref - _shares_c(core, seat, 64, range(1000, 1060), c=0.2)).sum()
    assert other > 1.5 * same


def test_agent_searches_in_c_by_default_on_a_python_env(monkeypatch):
    calls = []
    search = compiled.CoreState.search

    def spy(self, *args, **kwargs):
        calls.append(args)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(compiled.CoreState, "search", spy)
    for env_id in TWINS:
        agent = make_agent("mcts", env_id, seed=0, simulations=20)
        assert agent.engine == "auto"
        play_game(env_id, (agent, make_agent("random", env_id, seed=0)), 0)
        assert calls, f"{env_id}: the agent never searched in C"
        calls.clear()
    # Heuristic rollouts call Python per move: that agent keeps the Python search.
    assert make_agent("mcts", "elemystic_v0", rollout="heuristic").engine == "python"


def test_agent_plays_on_a_compiled_env(monkeypatch):
    # The env's state is itself a compiled one: searched as it is, with no replay.
    monkeypatch.setattr(MCTSAgent, "_iterate", None)  # the Python search would fail loudly
    agent = make_agent("mcts", "elemystic_v0", seed=0, simulations=30, engine="c")
    rewards, _ = play_game(
        "elemystic_v0", (agent, make_agent("random", "elemystic_v0", seed=0)), 4, engine="c"
    )
    assert sorted(rewards.values()) == [-1.0, 1.0]


def test_agent_falls_back_to_python_where_the_game_cannot_be_replayed():
    env = mystic_envs.make("elemystic_v0")
    env.reset(seed=0)
    state = env.unwrapped.game_state
    auto = make_agent("mcts", "elemystic_v0", seed=0, simulations=10)
    strict = make_agent("mcts", "elemystic_v0", seed=0, simulations=10, engine="c")
    assert auto._compiled_root(env.unwrapped, state) is not None
    # An env that keeps no history (a bare namespace, as the tests of Python mcts use) ...
    seats = {"player_0": 0, "player_1": 1}
    bare = SimpleNamespace(game_state=state, agent_name_mapping=seats, game=state.game)
    assert auto._compiled_root(bare, state) is None
    with pytest.raises(compiled.CoreUnavailableError, match="engine='c': the env keeps no history"):
        strict._compiled_root(bare, state)
    # ... and a game changed behind the env's back.
    state.apply(state.legal_actions()[0])
    assert auto._compiled_root(env.unwrapped, state) is None
    with pytest.raises(compiled.CoreUnavailableError, match="differs from the replay of its history"):
        strict._compiled_root(env.unwrapped, state)
    assert env.observe(env.agent_selection)["action_mask"][auto.act(env, env.agent_selection)] == 1


def test_env_keeps_the_history_of_its_game():
    env = mystic_envs.make_raw("mystria_v0", illegal_action="penalize")
    assert env.game_history() is None
    env.reset(seed=9)
    assert env.game_history() == (9, ())
    played = []
    for _ in range(5):
        a = env.game_state.legal_actions()[-1]
        env.step(a)
        played.append(a)
    illegal = int(np.flatnonzero(~env.game_state.legal_mask())[0])
    env.step(illegal)  # penalized: the game does not change, so the history does not either
    assert env.game_history() == (9, tuple(played))
    env.game_state = env.game_state.clone()
    assert env.game_history() is None


def test_time_budget_stops_the_c_search():
    core, _ = positions("elemystic_v0", 1)[0]
    _, done = core.search(core.current_player, 10**9, 1.4, seed=0, time_budget=0.05)
    assert 1 <= done < 10**9
    _, done = core.search(core.current_player, 10**9, 1.4, seed=0, time_budget=0.0)
    assert done == 1


@pytest.mark.parametrize(
    ("kw", "error", "match"),
    [
        ({"seat": 2}, ValueError, r"player must be a seat index \(0 to 1\), got 2"),
        ({"seat": -1}, ValueError, r"player must be a seat index \(0 to 1\), got -1"),
        ({"simulations": 0}, ValueError, "simulations must be >= 1, got 0"),
        ({"c": -0.5}, ValueError, "c must be a finite number >= 0"),
        ({"c": math.nan}, ValueError, "c must be a finite number >= 0"),
        ({"c": math.inf}, ValueError, "c must be a finite number >= 0"),
        ({"rollout_depth": -2}, ValueError, "rollout_depth must be >= 0"),
        ({"time_budget": math.nan}, ValueError, "time_budget must be a number of seconds"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64}, ValueError, "seed"),
    ],
)
def test_bad_search_arguments_are_one_line_errors(kw, error, match):
    core, _ = positions("elemystic_v0", 1)[0]
    args = {"seat": core.current_player, "simulations": 10, "c": 1.4, "seed": 0} | kw
    with pytest.raises(error, match=match) as info:
        core.search(**args)
    assert "\n" not in str(info.value)


def test_bad_search_buffers_and_ended_games_are_one_line_errors():
    core, _ = positions("elemystic_v0", 1)[0]
    raw, seat, n = core._raw, core.current_player, core.game.num_actions
    with pytest.raises(ValueError, match="visits must hold 33 items of 8 bytes"):
        raw.search(seat, 10, 1.4, -1, -1.0, 0, np.zeros(n, dtype=np.int32))
    with pytest.raises(ValueError, match="visits must hold 33 items"):
        raw.search(seat, 10, 1.4, -1, -1.0, 0, np.zeros(n + 1, dtype=np.int64))
    with pytest.raises(ValueError, match="seat must be 0-1, got 2"):
        raw.search(2, 10, 1.4, -1, -1.0, 0, np.zeros(n, dtype=np.int64))
    frozen = np.zeros(n, dtype=np.int64)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="visits must be a writable C-contiguous array"):
        raw.search(seat, 10, 1.4, -1, -1.0, 0, frozen)
    while not core.is_terminal:
        core.apply(core.legal_actions()[0])
    with pytest.raises(ValueError, match="search: the game is over"):
        core.search(0, 10, 1.4, seed=0)


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"engine": "gpu"}, r"unknown engine 'gpu'; choose one of \['auto', 'c', 'python'\]"),
        ({"engine": "c", "rollout": "heuristic"}, "engine='c' plays random rollouts only"),
        ({"c": math.inf}, r"c must be a number >= 0 \(finite\)"),
    ],
)
def test_bad_engine_options_are_clear_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        MCTSAgent(env_id="elemystic_v0", **kw)


def test_speed_benchmark_quick_run(tmp_path):
    # Structure only: a timed assertion would fail on a loaded machine.
    spec = importlib.util.spec_from_file_location("mcts_speed", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "speed.json"
    report = bench.main(["--quick", "--env", "elemystic_v0", "--json", str(out)])
    assert json.loads(out.read_text()) == report
    row = report["envs"]["elemystic_v0"]
    for name in ("python", "c", "ratio"):
        assert len(row[name]["rounds"]) == 1 and row[name]["median"] > 0
    assert row["ratio"]["median"] == pytest.approx(row["c"]["median"] / row["python"]["median"])


def _load_bench(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCH.with_name(f"{name}.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_benchmark_positions_stop_at_the_end_of_a_short_game():
    # A walk longer than any game used to look for a longer game forever.
    spots = _load_bench("mcts_speed").positions("elemystic_v0", 3, spacing=10_000)
    assert len(spots) == 3
    for game_seed, actions in spots:
        state = mystic_envs.make_raw("elemystic_v0").game.new_initial_state(game_seed)
        for a in actions:
            state.apply(a)
        assert not state.is_terminal and len(state.legal_actions()) > 1
    assert any(len(actions) > 0 for _, actions in spots)


def test_search_speed_benchmark_quick_run(tmp_path):
    # Structure only, as above; the build against itself must find the same visit counts.
    out = tmp_path / "search.json"
    report = _load_bench("search_speed").main(["--quick", "--env", "mystria_v0", "--json", str(out)])
    assert json.loads(out.read_text()) == report
    row = report["envs"]["mystria_v0"]
    assert row["same_counts"] is True
    assert row["ratio"]["median"] == pytest.approx(row["current"]["median"] / row["baseline"]["median"])


def test_search_speed_benchmark_refuses_a_missing_baseline(tmp_path, capsys):
    with pytest.raises(SystemExit):
        _load_bench("search_speed").main(["--quick", "--baseline", str(tmp_path / "none.so")])
    assert "--baseline" in capsys.readouterr().err
