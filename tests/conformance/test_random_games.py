"""Thousands of random-legal games on the raw engine with every invariant checked after every
move (CONVENTIONS sections 2 and 6), and random games through the AEC env checking the
zero-sum reward rule (section 3). ``pytest --soak`` plays 100,000 engine games per case (Mystic
Vale: 20 by default, 2,000 under ``--soak``; see ``SHORT_FORM``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mystic_envs import GameOverError, IllegalActionError
from mystic_envs.core.aec import GAME_OVER
from mystic_envs.core.game import zero_sum_returns

from .helpers import CASES, default_max_steps, game, make, random_mask_action, snapshot

DEFAULT_GAMES = 2_000
SOAK_GAMES = 100_000
CHUNK = 500  # games per test item, so pytest-xdist can spread a long run over its workers
# Mystic Vale's random games cost 0.1-0.35 s each with every check (400-600 actions, 2-4 seats):
# the default run plays a short form per player count (engine games, AEC games), ``--soak`` its
# full form, 2,000 engine games (100,000 would take days) and the 200 AEC games of the others.
SHORT_FORM = {"mystic_vale_v0": (20, 30)}  # (engine games, AEC games) a player count
FULL_FORM = {"mystic_vale_v0": 2_000}
AEC_GAMES = 200
# Mystick Domination's 3- to 5-player random games cost 0.04-0.2 s each with every check (2,000 of
# them at 4-5 players were 6 of CI's 20 minutes, at 3 players 84 s): the default run plays 500 a
# count there, ``--soak`` the full form.
SHORT_COUNT = {("mystick_domination_v0", n): 500 for n in (3, 4, 5)}
# Its compiled engine (states equal to the Python engine's at every step by tests/core): 500 games
# at 3 players (2,000 took 138 s of CI), 200 at 4-5 (500 took 61 s and 88 s).
COMPILED_SHORT_COUNT = {
    ("mystick_domination_v0", 3): 500,
    ("mystick_domination_v0", 4): 200,
    ("mystick_domination_v0", 5): 200,
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "first_seed" not in metafunc.fixturenames:
        return
    soak = metafunc.config.getoption("soak")
    params = []
    for case in CASES:
        env_id, n = case.values
        if env_id in SHORT_FORM:
            total = FULL_FORM[env_id] if soak else SHORT_FORM[env_id][0]
        else:
            short = (
                COMPILED_SHORT_COUNT if getattr(env_id, "kwargs", {}).get("engine") == "c" else SHORT_COUNT
            )
            total = SOAK_GAMES if soak else short.get((env_id, n), DEFAULT_GAMES)
        for start in range(0, total, CHUNK):
            count = min(CHUNK, total - start)
            params.append(
                pytest.param(env_id, n, start, count, id=f"{case.id}-games{start}-{start + count - 1}")
            )
    metafunc.parametrize(("env_id", "n", "first_seed", "count"), params)


def check_state(state, num_players: int, num_actions: int, obs_size: int) -> list[int]:
    """Every per-step promise of the engine; returns the legal actions."""
    terminal = state.is_terminal
    player = state.current_player
    assert (player == -1) == terminal, f"current_player {player} with is_terminal {terminal}"
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (num_actions,)
    assert np.flatnonzero(mask).tolist() == legal, "legal_mask() disagrees with legal_actions()"
    assert [state.is_legal(a) for a in range(num_actions)] == mask.tolist(), "is_legal() disagrees"
    if terminal:
        assert legal == []
    else:
        assert 0 <= player < num_players
        assert legal, "a live state with no legal action"
    for p in range(num_players):
        obs = state.observation(p)
        assert obs.dtype == np.float32 and obs.shape == (obs_size,), (obs.dtype, obs.shape)
        assert np.isfinite(obs).all(), f"non-finite observation for seat {p}"
    state.check_invariants()
    return legal


def check_final_returns(returns: np.ndarray, num_players: int) -> None:
    assert returns.shape == (num_players,)
    assert abs(float(returns.sum())) < 1e-9, f"returns {returns} do not sum to 0"
    # Each seat gets (beaten - lost to) / (n - 1), so every value is k / (n - 1) in [-1, 1].
    scaled = returns * (num_players - 1)
    assert np.allclose(scaled, np.round(scaled)) and np.all(np.abs(returns) <= 1.0), returns
    if num_players == 2:
        assert set(returns.tolist()) <= {-1.0, 0.0, 1.0}


def test_random_legal_games(env_id: str, n: int, first_seed: int, count: int) -> None:
    g = game(env_id, n)
    num_actions, obs_size = g.num_actions, g.observation_size
    cap = default_max_steps(env_id, n)
    rng = np.random.default_rng(first_seed)
    cut = 0
    lengths = []
    for seed in range(first_seed, first_seed + count):
        state = g.new_initial_state(seed)
        moves = 0
        legal = check_state(state, n, num_actions, obs_size)
        while not state.is_terminal:
            if n == 2:
                assert not state.returns().any(), "returns() must be zeros while a 2-player game runs"
            if moves == cap:
                cut += 1
                break
            state.apply(legal[rng.integers(len(legal))])
            moves += 1
            legal = check_state(state, n, num_actions, obs_size)
        else:
            lengths.append(moves)
            check_final_returns(state.returns(), n)
            with pytest.raises(GameOverError):
                state.apply(0)
    # The env's default max_steps only stops stalemates: random play almost never reaches it.
    assert cut <= max(1, count // 100), f"{cut} of {count} random games ran past max_steps={cap}"
    assert min(lengths) > 0


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_returned_arrays_are_copies(env_id: str, n: int) -> None:
    """Masks and observations handed out are fresh arrays: writing to one, or playing on, must
    not change what another call returns or what was returned before."""
    state = game(env_id, n).new_initial_state(0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        if state.is_terminal:
            break
        mask, obs = state.legal_mask(), state.observation(state.current_player)
        kept_mask, kept_obs = mask.copy(), obs.copy()
        mask[:] = ~mask
        obs[:] = -7.0
        np.testing.assert_array_equal(state.legal_mask(), kept_mask)
        np.testing.assert_array_equal(state.observation(state.current_player), kept_obs)
        fresh_obs = state.observation(state.current_player)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        np.testing.assert_array_equal(fresh_obs, kept_obs)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_aec_random_games_zero_sum(env_id: str, n: int, request: pytest.FixtureRequest) -> None:
    """Through the wrapped env: rewards at the end equal the engine's returns, sum to 0, are in
    {-1, 0, 1} for two players, and were 0 before; masks are zero for agents not to act; handed
    out observations are never rewritten later; infos carry the final scores and winners."""
    env = make(env_id, n)
    rng = np.random.default_rng(0)
    winners_seen = set()
    games = AEC_GAMES
    if env_id in SHORT_FORM and not request.config.getoption("soak"):
        games = SHORT_FORM[env_id][1]
    for seed in range(games):
        env.reset(seed=seed)
        state = env.unwrapped.game_state
        totals = dict.fromkeys(env.possible_agents, 0.0)
        handed_out = []
        final_rewards: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            assert env.unwrapped.info_names["phase"][info["phase"]] == state.phase_name
            if not (term or trunc):
                assert reward == 0.0, "reward before the end of the game"
                assert env.possible_agents[state.current_player] == agent
                np.testing.assert_array_equal(obs["action_mask"], state.legal_mask().astype(np.int8))
                np.testing.assert_array_equal(obs["observation"], state.observation(state.current_player))
                for other in env.agents:
                    if other != agent:
                        assert not env.observe(other)["action_mask"].any(), f"{other} has a mask off turn"
                handed_out.append((obs["observation"], obs["observation"].copy()))
                env.step(random_mask_action(obs["action_mask"], rng))
                # Each seat's reward on the step it terminated (a seat eliminated mid-game gets it
                # then, and leaves before the others finish).
                for ag, done in env.terminations.items():
                    if done and ag not in final_rewards:
                        final_rewards[ag] = env.rewards[ag]
            else:
                assert term and not trunc
                assert info["game_over"] == 1 and info["end_reason"] == GAME_OVER
                assert np.flatnonzero(info["winners"]).tolist() == state.winners()
                env.step(None)
        assert state.is_terminal and not env.agents
        returns = state.returns()
        check_final_returns(returns, n)
        assert set(final_rewards) == set(env.possible_agents)
        assert math.isclose(sum(final_rewards.values()), 0.0, abs_tol=1e-9)
        for i, agent in enumerate(env.possible_agents):
            assert totals[agent] == returns[i] == final_rewards[agent]
        winners_seen.update(state.winners())
        for given, kept in handed_out:
            np.testing.assert_array_equal(given, kept, err_msg="an observation handed out was rewritten")
    assert winners_seen == set(range(n)), f"only seats {winners_seen} ever won {games} random games"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_zero_sum_returns(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(200):
        placement = rng.integers(0, n, size=n).tolist()
        got = zero_sum_returns(placement)
        for i in range(n):
            beat = sum(placement[j] > placement[i] for j in range(n))
            lost = sum(placement[j] < placement[i] for j in range(n))
            assert got[i] == pytest.approx((beat - lost) / (n - 1))
        assert abs(got.sum()) < 1e-12
    # Hand-worked examples, ties included.
    assert zero_sum_returns(list(range(n))).tolist() == pytest.approx(
        [(n - 1 - 2 * i) / (n - 1) for i in range(n)]
    )
    assert zero_sum_returns([0] * n).tolist() == [0.0] * n
    assert zero_sum_returns([0] + [1] * (n - 1)).tolist() == pytest.approx([1.0] + [-1 / (n - 1)] * (n - 1))


def test_zero_sum_returns_examples() -> None:
    assert zero_sum_returns([0, 1]).tolist() == [1.0, -1.0]
    assert zero_sum_returns([1, 0]).tolist() == [-1.0, 1.0]
    assert zero_sum_returns([0, 0]).tolist() == [0.0, 0.0]
    assert zero_sum_returns([0, 1, 1]).tolist() == [1.0, -0.5, -0.5]
    assert zero_sum_returns([0, 0, 1]).tolist() == [0.5, 0.5, -1.0]
    assert zero_sum_returns([2, 0, 1, 1]).tolist() == pytest.approx([-1.0, 1.0, 0.0, 0.0])
    assert zero_sum_returns([0, 1, 2, 3, 4]).tolist() == [1.0, 0.5, 0.0, -0.5, -1.0]


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_illegal_apply_on_engine_raises(env_id: str, n: int) -> None:
    """``apply()`` checks legality itself and names the action, its meaning and the phase."""
    g = game(env_id, n)
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(40):
        state = g.new_initial_state(seed)
        for _ in range(int(rng.integers(0, 40))):
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal:
            continue
        before = snapshot(state, n)
        illegal = [a for a in range(g.num_actions) if not state.is_legal(a)]
        for a in [-1, g.num_actions, *illegal[:3]]:
            with pytest.raises(IllegalActionError) as err:
                state.apply(a)
            assert isinstance(err.value, ValueError)
            assert f"action {a} " in str(err.value) and state.phase_name in str(err.value)
            if 0 <= a < g.num_actions:
                assert g.action_meaning(a) in str(err.value)
            checked += 1
        assert snapshot(state, n) == before, "a refused action changed the state"
    assert checked > 0
