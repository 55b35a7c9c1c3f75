"""Every bad input of CONVENTIONS section 3 gets its documented error, and ``max_steps``
truncates: out-of-range and wrongly typed actions, the three illegal-action modes, stepping
after the end or before reset, bad keyword arguments, bad ids and seats."""

from __future__ import annotations

import numpy as np
import pytest

import mystic_envs
from mystic_envs import GameOverError, IllegalActionError
from mystic_envs.core.aec import GAME_OVER, ILLEGAL, MAX_STEPS

from .helpers import (
    CASES,
    canonical_bytes,
    make,
    make_raw,
    random_mask_action,
    reset_to_illegal_chance,
    single_agent,
)


def env_state(env) -> tuple:
    """What must not change when an action is refused (the step counter may: a penalized action
    counts towards ``max_steps``)."""
    return (
        env.agent_selection,
        [env.observe(a)["observation"].tobytes() for a in env.possible_agents],
        [env.observe(a)["action_mask"].tobytes() for a in env.possible_agents],
        dict(env.terminations),
        dict(env.truncations),
        canonical_bytes(env.unwrapped.game_state),
    )


def assert_ending_info(info: dict, end_reason: int, offender: int = -1) -> None:
    """The info of every ending: over, why, who broke the rules, and no winner unless played out."""
    assert info["game_over"] == 1 and info["end_reason"] == end_reason
    assert info["illegal_player"] == offender
    if end_reason != GAME_OVER:
        assert not info["winners"].any()


def assert_ended_cleanly(env) -> None:
    """After every agent has left, however the game ended, no mask offers an action."""
    for ag in env.possible_agents:
        assert not env.observe(ag)["action_mask"].any(), f"{ag} is offered actions after the end"


def makers(env_id: str, n: int):
    """Both public constructors: the order-enforcing wrapped env and the bare one."""
    return [lambda **kw: make(env_id, n, **kw), lambda **kw: make_raw(env_id, n, **kw)]


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_out_of_range_and_wrong_type_actions(env_id: str, n: int) -> None:
    for make_env in makers(env_id, n):
        env = make_env()
        env.reset(seed=0)
        num_actions = env.action_space(env.agent_selection).n
        before = env_state(env)
        for bad in (-1, num_actions, num_actions + 100, np.int64(-1), np.array(num_actions)):
            with pytest.raises(ValueError, match=str(int(bad))):
                env.step(bad)
        for bad in (
            1.5,
            "3",
            None,
            True,
            False,
            np.bool_(True),
            np.array([1, 2]),
            np.float64(2.0),
            np.array(2.0),
            [1],
            3 + 0j,
        ):
            with pytest.raises(TypeError):
                env.step(bad)
        assert env_state(env) == before, "a refused action changed the env"
        # The rules engine itself refuses them too (search agents call it directly).
        for bad in (True, np.bool_(False), 1.5, None, "0"):
            with pytest.raises(TypeError):
                env.unwrapped.game_state.apply(bad)
        assert env_state(env) == before, "a refused action changed the engine's state"


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_numpy_integer_actions_are_accepted(env_id: str, n: int) -> None:
    rng = np.random.default_rng(0)
    # np.int8 only where the action fits it (Mystick Domination has more than 127 actions).
    small = lambda a: np.int8(a) if a < 128 else np.int16(a)  # noqa: E731
    conversions = [int, np.int64, np.int32, small, np.uint16, np.intp, np.array, lambda a: np.array([a])]
    plain = make(env_id, n)
    other = make(env_id, n)
    plain.reset(seed=4)
    other.reset(seed=4)
    for step in range(40):
        if plain.terminations[plain.agent_selection]:
            break
        a = random_mask_action(plain.observe(plain.agent_selection)["action_mask"], rng)
        plain.step(a)
        other.step(conversions[step % len(conversions)](a))
        assert env_state(other) == env_state(plain)
    assert step > len(conversions)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_illegal_action_raise(env_id: str, n: int) -> None:
    assert issubclass(IllegalActionError, ValueError)
    rng = np.random.default_rng(1)
    for seed in range(10):
        env = make(env_id, n, illegal_action="raise")
        a = reset_to_illegal_chance(env, seed, rng)
        before = env_state(env)
        with pytest.raises(IllegalActionError) as err:
            env.step(a)
        message = str(err.value)
        assert env.unwrapped.action_meaning(a) in message, message
        assert env.unwrapped.game_state.phase_name in message, message
        assert env_state(env) == before, "a raised illegal action changed the env"
        env.step(random_mask_action(env.observe(env.agent_selection)["action_mask"], rng))


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_illegal_action_terminate(env_id: str, n: int) -> None:
    rng = np.random.default_rng(2)
    for seed in range(10):
        for make_env in makers(env_id, n):
            env = make_env() if seed % 2 else make_env(illegal_action="terminate")
            a = reset_to_illegal_chance(env, seed, rng)
            offender = env.agent_selection
            phase = env.unwrapped.game_state.phase_name
            env.step(a)
            expected = {ag: (-1.0 if ag == offender else 0.0) for ag in env.possible_agents}
            assert env.rewards == expected
            assert all(env.terminations.values()) and not any(env.truncations.values())
            # What the offender tried, and its legal list, can name its hidden cards or tiles:
            # infos (which every seat gets) say only who broke the rules; the message is the env's.
            message = env.unwrapped.last_illegal_message
            meaning = env.unwrapped.action_meaning(a)
            assert f"illegal action {a} ({meaning})" in message and phase in message
            assert "legal:" in message
            seat = env.possible_agents.index(offender)
            # Every agent sees its reward once, then leaves; stepping after that is an error.
            seen = {}
            for ag in env.agent_iter():
                _, reward, term, trunc, info = env.last()
                assert term and not trunc
                assert_ending_info(info, ILLEGAL, seat)
                seen[ag] = reward
                env.step(None)
            assert seen == expected
            assert not env.agents
            assert_ended_cleanly(env)
            with pytest.raises(GameOverError):
                env.step(0)
            with pytest.raises(GameOverError):
                env.step(None)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_illegal_action_penalize(env_id: str, n: int) -> None:
    rng = np.random.default_rng(3)
    for seed in range(10):
        env = make(env_id, n, illegal_action="penalize", illegal_reward=-0.5)
        a = reset_to_illegal_chance(env, seed, rng)
        offender = env.agent_selection
        before = env_state(env)
        for _ in range(2):  # twice in a row: the penalty is per offence, not accumulated
            env.step(a)
            assert env_state(env) == before, "a penalized action changed the game"
            assert env.rewards == {ag: (-0.5 if ag == offender else 0.0) for ag in env.agents}
            obs, reward, term, trunc, info = env.last()
            assert env.agent_selection == offender
            assert (reward, term, trunc) == (-0.5, False, False)
            assert info["illegal_player"] == env.possible_agents.index(offender) and not info["game_over"]
        # The game goes on, to a normal zero-sum end.
        totals = dict.fromkeys(env.possible_agents, 0.0)
        first = True
        for ag in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[ag] += 0.0 if first else reward
            first = False
            env.step(None if term or trunc else random_mask_action(obs["action_mask"], rng))
        returns = env.unwrapped.game_state.returns()
        assert env.unwrapped.game_state.is_terminal
        assert [totals[ag] for ag in env.possible_agents] == returns.tolist()


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_step_after_the_end_and_before_reset(env_id: str, n: int) -> None:
    rng = np.random.default_rng(4)
    for make_env in makers(env_id, n):
        env = make_env()
        with pytest.raises((AssertionError, RuntimeError), match="reset"):
            env.step(0)
        with pytest.raises(AttributeError, match="agent_selection"):
            env.last()
        env.reset(seed=0)
        if hasattr(env, "_has_updated"):  # the order-enforcing wrapper: a loop must step
            agents = iter(env.agent_iter())
            next(agents)
            with pytest.raises(AssertionError, match=r"need to call step\(\)"):
                next(agents)
            env.reset(seed=0)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                with pytest.raises(GameOverError, match=r"step\(None\)"):
                    env.step(0)  # a finished agent may only pass None
            env.step(None if term or trunc else random_mask_action(obs["action_mask"], rng))
        assert env.unwrapped.game_state.is_terminal and not env.agents
        with pytest.raises(GameOverError, match="reset"):
            env.step(0)
        with pytest.raises(GameOverError):
            env.step(None)
        env.reset(seed=1)  # and reset() brings it back
        assert env.agents == env.possible_agents


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_max_steps_truncates_every_agent(env_id: str, n: int) -> None:
    rng = np.random.default_rng(5)
    for make_env in makers(env_id, n):
        env = make_env(max_steps=5)
        env.reset(seed=0)
        for i in range(5):
            assert not any(env.truncations.values()), f"truncated after {i} steps"
            agent = env.agent_selection
            assert not env.terminations[agent], "the game ended before max_steps"
            env.step(random_mask_action(env.observe(agent)["action_mask"], rng))
        assert all(env.truncations.values()) and not any(env.terminations.values())
        assert all(r == 0.0 for r in env.rewards.values())
        seen = set()
        for ag in env.agent_iter():
            _, reward, term, trunc, info = env.last()
            assert trunc and not term and reward == 0.0
            assert_ending_info(info, MAX_STEPS)
            assert not env.observe(ag)["action_mask"].any()
            seen.add(ag)
            env.step(None)
        assert seen == set(env.possible_agents)
        assert_ended_cleanly(env)
        with pytest.raises(GameOverError):
            env.step(0)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_bad_keyword_arguments(env_id: str, n: int) -> None:
    for make_env in makers(env_id, n):
        with pytest.raises(TypeError):
            make_env(no_such_option=1)
        for bad in ("ignore", "Terminate", None, 1):
            with pytest.raises(ValueError):
                make_env(illegal_action=bad)
        for bad in ("rgb_array", "ANSI", "", 1):
            with pytest.raises(ValueError):
                make_env(render_mode=bad)
        for bad in (0, -1):
            with pytest.raises(ValueError):
                make_env(max_steps=bad)
        for bad in (2.5, True, "5", np.float64(3)):
            with pytest.raises(TypeError):
                make_env(max_steps=bad)
    for bad in sorted(set(range(0, 9)) - set(mystic_envs.player_counts(env_id))):
        for construct in (mystic_envs.make, mystic_envs.make_raw):
            with pytest.raises(ValueError):
                construct(env_id, num_players=bad)
        with pytest.raises(ValueError):
            mystic_envs.single_agent(env_id, num_players=bad)
    for bad in (True, 2.0, "2", None):
        with pytest.raises(TypeError, match="num_players must be an int"):
            make(env_id, bad)
    # A count read from a numpy array is an integer, as it is for a seed or an action.
    count = make_raw(env_id, np.int64(n)).unwrapped.game.num_players
    assert count == n and type(count) is int
    for bad in (-1, 2**64):  # seeds are 64-bit: the core generator's (mystic_envs.core.rng)
        with pytest.raises(ValueError, match="seed"):
            make(env_id, n).reset(seed=bad)
    for bad in ("3", 1.5, True, [1, 2]):
        with pytest.raises(TypeError):
            make(env_id, n).reset(seed=bad)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_bad_seats_for_the_engine_are_clear_errors(env_id: str, n: int) -> None:
    state = make_raw(env_id, n).game.new_initial_state(0)
    rng = np.random.default_rng(0)
    for bad, error in (
        (n, ValueError),
        (-1, ValueError),
        (True, TypeError),
        ("0", TypeError),
        (0.0, TypeError),
    ):
        for call in (
            state.observation,
            lambda p: state.determinize(p, rng),
            lambda p: state.describe(viewer=p),
        ):
            with pytest.raises(error, match="must be a seat index"):
                call(bad)
    assert state.observation(np.int64(n - 1)).shape == (state.game.observation_size,)


def test_unknown_env_id() -> None:
    for construct in (mystic_envs.make, mystic_envs.make_raw, mystic_envs.single_agent):
        with pytest.raises(ValueError) as err:
            construct("nope")
        for env_id in mystic_envs.ENV_IDS:
            assert env_id in str(err.value), f"the error does not list {env_id}: {err.value}"
    with pytest.raises(TypeError):
        mystic_envs.make(3)


@pytest.mark.parametrize(("env_id", "n"), CASES)
def test_single_agent_errors(env_id: str, n: int) -> None:
    for bad in (-1, n, True, 1.5, "0"):
        with pytest.raises(ValueError):
            single_agent(env_id, n, seat=bad)
    with pytest.raises(ValueError):
        single_agent(env_id, n, opponent="no-such-opponent")
    with pytest.raises(TypeError):
        single_agent(env_id, n, opponent=42)
    with pytest.raises(TypeError):
        single_agent(env_id, n, no_such_option=1)
    env = single_agent(env_id, n, seat=0)
    env.reset(seed=0)
    num_actions = env.action_space.n
    with pytest.raises(ValueError):
        env.step(num_actions)
    with pytest.raises(TypeError):
        env.step(1.5)
    rng = np.random.default_rng(6)
    done = False
    while not done:
        _, _, term, trunc, _ = env.step(random_mask_action(env.action_masks(), rng))
        done = term or trunc
    for action in (0, num_actions - 1):  # any action, once the game has ended
        with pytest.raises(RuntimeError, match="reset"):
            env.step(action)


@pytest.mark.parametrize(("env_id", "num_players"), CASES)
def test_penalized_illegal_actions_count_towards_max_steps(env_id, num_players):
    env = make_raw(env_id, num_players, illegal_action="penalize", illegal_reward=-0.5, max_steps=3)
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    for _ in range(3):
        env.step(illegal)
    assert all(env.truncations.values())
    assert env.infos[agent]["end_reason"] == MAX_STEPS
    assert env.infos[agent]["illegal_player"] == env.possible_agents.index(agent)
