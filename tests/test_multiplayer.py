"""The multi-player machinery at 3-5 players: single_agent, self-play training, evaluation with
openskill ratings, MCTS and terminal play.

No registered game has more than two players yet, so everything runs on the race fixture of
``multiplayer_toy`` (hidden hands, elimination), registered per test. The last tests run the same
checks over every registered env with more than two players once one lands.
"""

from __future__ import annotations

import csv
import itertools
import json
import re

import multiplayer_toy
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import agents  # noqa: F401  (registers heuristic, mcts and ppo as single_agent opponents)
import mystic_envs
from agents import make_agent
from agents.mcts import MCTSAgent
from agents.play import main as play_main
from training.evaluate import main as evaluate_main
from training.evaluate import play_game, run_tournament, seat_orders
from training.ratings import fit_openskill, ranks_from_rewards
from training.selfplay import OpponentPool, SelfPlayEnv
from training.train import evaluate_against
from training.train import main as train_main

TOY = multiplayer_toy.ENV_ID


@pytest.fixture
def toy(monkeypatch):
    return multiplayer_toy.register(monkeypatch)


def _random_game(n: int, seed: int):
    """A random game at ``n`` players: each agent's last reward and the info of its last step."""
    env = mystic_envs.make(TOY, num_players=n)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final, left_while_running = {}, []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            if not env.unwrapped.game_state.is_terminal:
                left_while_running.append(agent)
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final, left_while_running


# -- the fixture game ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_fixture_eliminates_players_who_leave_with_their_rank_while_the_others_play_on(toy, n):
    eliminated_games = 0
    for seed in range(60):
        final, out = _random_game(n, seed)
        assert set(final) == {f"player_{s}" for s in range(n)}
        assert sum(final.values()) == pytest.approx(0)  # zero-sum at every player count
        # The first player out while the game ran took the worst reward, -1.
        if out:
            eliminated_games += 1
            assert final[out[0]] == -1
    assert eliminated_games > 5


def test_the_fixture_passes_the_pettingzoo_api_test(toy):
    from pettingzoo.test import api_test

    api_test(mystic_envs.make(TOY, num_players=4), num_cycles=300)


# -- single_agent ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5])
def test_single_agent_puts_the_opponent_in_every_other_seat(toy, n):
    env = mystic_envs.single_agent(TOY, opponent="heuristic", num_players=n)
    check_env(env, skip_render_check=True)
    seats, outcomes = set(), {"eliminated": 0, "played out": 0}
    for seed in range(150):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert len(env.aec_env.possible_agents) == n
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            _obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            total += reward
            done = terminated or truncated
        state = env.aec_env.game_state
        if state.is_terminal:
            outcomes["played out"] += 1
            assert total == pytest.approx(state.returns()[env.seat])
        else:
            # The learner went out: its episode ends at once, with the rank it could not escape,
            # while the opponents' game is still running.
            outcomes["eliminated"] += 1
            assert not state.in_race[env.seat]
            assert total == pytest.approx(state.returns()[env.seat]) and total < 0
        assert not env.action_masks().any()
    assert seats == set(range(n))
    assert min(outcomes.values()) > 10


# -- self-play pool and training -------------------------------------------------------------------


def test_the_pool_draws_an_opponent_for_every_seat(toy):
    pool = OpponentPool(TOY, {"heuristic": 1.0, "random": 1.0}, seed=0, num_players=4)
    mixed = 0
    for _ in range(100):
        pool.start_episode()
        assert len(pool.by_seat) == len(pool.labels) == 4
        assert all(
            type(a).__name__ == {"heuristic": "RaceHeuristic", "random": "RandomPolicy"}[label]
            for a, label in zip(pool.by_seat, pool.labels, strict=True)
        )
        label = pool.label_for(1)
        others = [pool.labels[s] for s in (0, 2, 3)]
        assert label == (others[0] if len(set(others)) == 1 else "+".join(others))
        mixed += len(set(others)) > 1
    assert 50 < mixed < 100  # 3 seats of 2 equally likely kinds: mixed 3/4 of the time

    # Two players: one draw per episode (a choice, then the agent's seed), the opponent in both
    # seats: the random stream of every run made before more seats were supported.
    two = OpponentPool(TOY, {"heuristic": 1.0, "random": 1.0}, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        expected = ["heuristic", "random"][int(rng.choice(2, p=[0.5, 0.5]))]
        rng.integers(2**63)
        assert two.start_episode() == expected
        assert two.by_seat[0] is two.by_seat[1] is two.current


def test_selfplay_env_plays_three_players_with_a_mixed_table(toy):
    env = SelfPlayEnv(TOY, {"heuristic": 1.0, "random": 1.0}, num_players=3)
    labels = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        labels.add(info["opponent"])
        done = False
        while not done:
            _, _, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = term or trunc
        assert info["opponent"] == env.pool.label_for(env.seat)
    assert {"heuristic", "random", "heuristic+random", "random+heuristic"} <= labels


TRAIN_SHORT = ["--n-steps", "64", "--n-envs", "1", "--eval-every", "128", "--quiet"]


def test_train_runs_at_three_players_and_its_model_plays_a_three_player_tournament(toy, tmp_path):
    out = tmp_path / "run"
    argv = ["--env", TOY, "--num-players", "3", "--timesteps", "256", "--seed", "2", "--out", str(out)]
    model = train_main(
        [*argv, *TRAIN_SHORT, "--eval-games", "9", "--opponents", "self", "random", "heuristic"]
    )
    assert json.loads((out / "config.json").read_text())["num_players"] == 3
    with open(out / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == [0, 128, 256]
    for row in rows:
        for opponent in ("random", "heuristic"):
            # Win shares of 9 games, a ninth or a shared part of one at a time.
            assert 0 <= float(row[f"ci_low_{opponent}"]) <= float(row[f"win_rate_{opponent}"]) <= 1
    result = run_tournament(TOY, [str(model), "random"], games=6, seed=0, workers=1, num_players=3)
    assert result["matrix"][str(model)]["random"]["games"] == 3
    # A three-player model refuses a four-player table in one line.
    agent = make_agent("ppo", TOY, path=str(model))
    env = mystic_envs.make(TOY, num_players=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"trained for observations of shape \(18,\).*another num_players"):
        agent.act(env, env.agent_selection)


def test_evaluate_against_seats_the_agent_everywhere_and_splits_shared_wins(toy):
    heuristic = make_agent("heuristic", TOY)
    result = evaluate_against(heuristic, "random", TOY, games=150, seed=0, num_players=3)
    assert result["wins"] + result["draws"] + result["losses"] == 150
    assert result["ci_low"] > 1 / 3  # better than an equal's share against two random players


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--num-players", "6"], r"--num-players: race_toy_v0 is played by 2, 3, 4, 5 players, got 6"),
        (["--num-players", "3", "--eval-games", "10"], r"--eval-games must be a multiple of 3"),
        (["--num-players", "3", "--imitate", "4"], r"--imitate plays two-player games only, not 3 players"),
    ],
)
def test_train_bad_player_counts_are_usage_errors(toy, args, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as info:
        train_main(["--env", TOY, "--out", str(tmp_path / "run"), *args])
    assert info.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(message, last), last
    assert not (tmp_path / "run").exists()


def test_train_refuses_a_player_count_the_elemystic_rulebook_does_not_allow(capsys, tmp_path):
    with pytest.raises(SystemExit):
        train_main(["--num-players", "3", "--out", str(tmp_path / "run")])
    assert "--num-players: elemystic_v0 is played by 2 players, got 3" in capsys.readouterr().err


# -- evaluation ------------------------------------------------------------------------------------


@pytest.fixture
def tournament(toy):
    return run_tournament(TOY, ["random", "heuristic"], games=120, seed=0, workers=1, num_players=3)


def test_every_agent_sits_in_every_seat_equally_often_alone_against_copies(tournament):
    assert tournament["num_players"] == 3 and tournament["total_games"] == 120
    assert len(tournament["seat_orders"]) == 6
    (pairing,) = tournament["pairings"]
    alone = [order["alone"] for order in pairing["by_seat_order"]]
    assert alone.count("random") == alone.count("heuristic") == 3
    assert all(order["games"] == 20 for order in pairing["by_seat_order"])
    for label in ("random", "heuristic"):
        by_seat = tournament["seats"]["by_agent"][label]
        assert [by_seat[f"player_{s}"]["games"] for s in range(3)] == [20, 20, 20]
    assert all(tournament["seats"]["by_seat"][f"player_{s}"]["games"] == 120 for s in range(3))


def test_rank_based_scores_and_openskill_rate_the_heuristic_above_random(tournament):
    strong = tournament["matrix"]["heuristic"]["random"]
    weak = tournament["matrix"]["random"]["heuristic"]
    for entry in (strong, weak):
        assert entry["games"] == 60 and entry["even_win_rate"] == pytest.approx(1 / 3)
        lo, hi = entry["ci95"]
        assert lo <= entry["win_rate"] <= hi
        lo, hi = entry["reward_ci95"]
        assert -1 <= lo <= entry["mean_reward"] <= hi <= 1
    assert strong["ci95"][0] > 1 / 3 > weak["ci95"][1]
    assert strong["reward_ci95"][0] > 0 > weak["reward_ci95"][1]
    ratings = tournament["openskill"]["ratings"]
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"] + 2
    assert ratings["heuristic"]["ordinal"] == pytest.approx(
        ratings["heuristic"]["mu"] - 3 * ratings["heuristic"]["sigma"]
    )
    assert "elo" not in tournament  # Elo is for two players


def test_the_win_share_splits_a_shared_win():
    # Seat 1 shares the top reward with seat 2: half a win each, counted as a draw.
    from training.evaluate import _share

    assert [_share((-1.0, 0.5, 0.5), s) for s in range(3)] == [0, 0.5, 0.5]
    assert ranks_from_rewards([-1.0, 0.5, 0.5, 0.0]) == [3, 0, 0, 2]


def test_openskill_from_hand_made_games():
    labels = ["a", "b", "c"]
    # a always first, c always last, over tables of three distinct agents.
    games = [
        (list(p), [1.0 if x == "a" else (-1.0 if x == "c" else 0.0) for x in p])
        for p in itertools.permutations(labels)
    ] * 5
    ratings = fit_openskill(games, labels)
    assert ratings["a"]["mu"] > ratings["b"]["mu"] > ratings["c"]["mu"]
    assert all(r["sigma"] < 25 / 3 for r in ratings.values())
    # An agent in two seats of one game takes the mean of both updates: beaten by b from both seats
    # it loses less than two separate games would take.
    once = fit_openskill([(["b", "a"], [1.0, -1.0])], ["a", "b"])
    twice = fit_openskill([(["b", "a", "a"], [1.0, -0.5, -0.5])], ["a", "b"])
    assert twice["a"]["mu"] < 25 and once["a"]["mu"] < 25


def test_evaluate_cli_writes_the_multiplayer_tables(toy, tmp_path, capsys):
    out = tmp_path / "eval"
    evaluate_main(
        [
            "--env",
            TOY,
            "--num-players",
            "4",
            "--agents",
            "random",
            "heuristic",
            "--games",
            "16",
            "--workers",
            "1",
            "--out",
            str(out),
        ]
    )
    result = json.loads((out / "results.json").read_text())
    assert result["num_players"] == 4 and result["command"].endswith("--out " + str(out))
    markdown = (out / "results.md").read_text()
    assert "# Round robin on race_toy_v0, 4 players" in markdown
    assert "## Row alone against 3 copies of column" in markdown
    assert "## openskill ratings" in markdown and "## Seats" in markdown
    assert (out / "winrate.png").stat().st_size > 1000
    assert markdown in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--num-players", "7"], r"--num-players: race_toy_v0 is played by 2, 3, 4, 5 players, got 7"),
        (["--num-players", "3", "--games", "4"], r"--games must be a positive multiple of 6 .* at 3 players"),
    ],
)
def test_evaluate_bad_player_counts_are_usage_errors(toy, args, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as info:
        evaluate_main(["--env", TOY, "--agents", "random", "heuristic", "--out", str(tmp_path / "e"), *args])
    assert info.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert re.search(message, last), last


def test_two_player_seat_orders_are_unchanged():
    assert seat_orders(2) == [(0, 1), (1, 0)]


# -- MCTS ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_mcts_plays_legal_games_at_every_player_count(toy, n):
    env = mystic_envs.make(TOY, num_players=n, illegal_action="raise")
    seats = [make_agent("mcts", TOY, seed=s, simulations=20) for s in range(n)]
    rewards, truncated = play_game(env, seats, env_seed=n)
    assert not truncated and sum(rewards) == pytest.approx(0)


def test_mcts_wins_more_than_its_share_against_random_players(toy):
    # Against two random players an equal wins a third; the search values every node for the seat
    # that moved into it, so it avoids the die the random players roll into elimination.
    shares = []
    env = mystic_envs.make(TOY, num_players=3, illegal_action="raise")
    for game in range(45):
        seat = game % 3
        seats = [
            make_agent("mcts", TOY, seed=game, simulations=60)
            if s == seat
            else make_agent("random", TOY, seed=100 * game + s)
            for s in range(3)
        ]
        rewards, _ = play_game(env, seats, env_seed=game)
        best = max(rewards)
        shares.append(1 / rewards.count(best) if rewards[seat] == best else 0.0)
    assert np.mean(shares) > 0.5, np.mean(shares)


def test_mcts_choice_at_four_players_depends_only_on_what_it_sees(toy):
    env = mystic_envs.make(TOY, num_players=4)
    for seed in range(8):
        env.reset(seed=seed)
        for _ in range(seed % 4):
            env.step(0)
        state = env.unwrapped.game_state
        seat = state.current_player
        choices = set()
        for redeal in range(3):
            # Re-deal every hidden hand: the searcher's view is unchanged, so must be its choice.
            state.hands[[p for p in range(4) if p != seat]] = np.random.default_rng(redeal).choice(
                multiplayer_toy.CARD_VALUES, size=(3, multiplayer_toy.HAND)
            )
            choices.add(MCTSAgent(simulations=40, seed=seed, env_id=TOY).act(env, f"player_{seat}"))
        assert len(choices) == 1


def test_mcts_takes_the_win_a_card_gives_at_three_players(toy):
    env = mystic_envs.make(TOY, num_players=3)
    env.reset(seed=0)
    state = env.unwrapped.game_state
    seat = state.current_player
    state.positions[:] = 0
    state.positions[seat] = 7
    state.hands[seat] = [1, 3, 2]
    # Another seat one step from the target: anything but the 3 lets it win first.
    state.positions[(seat + 1) % 3] = 9
    agent = MCTSAgent(simulations=200, seed=0, env_id=TOY)
    assert agent.act(env, f"player_{seat}") == 1


# -- terminal play ---------------------------------------------------------------------------------


def _scripted(answer: str = "0"):
    lines: list[str] = []

    def input_fn(prompt: str) -> str:
        lines.append(prompt)
        return answer

    return lines, input_fn


@pytest.mark.parametrize("n", [3, 5])
def test_play_runs_a_full_game_against_n_minus_one_opponents(toy, n):
    for seed in range(12):
        lines, input_fn = _scripted()
        assert (
            play_main(
                [TOY, "--num-players", str(n), "--seat", "0", "--seed", str(seed), "--opponent", "random"],
                input_fn=input_fn,
                output=lines.append,
            )
            == 0
        )
        assert lines[0].startswith(f"{TOY}: you are player_0, against {n - 1} x random")
        assert f"--num-players {n}" in lines[0]
        rewards = [line for line in lines if re.match(r"  player_\d \((you|random)\): [+-]?\d", line)]
        assert len(rewards) == n
        moved = {m.group(1) for line in lines if (m := re.match(r"(player_\d) \(random\): ", line))}
        assert moved <= {f"player_{s}" for s in range(1, n)}
        if any("out of the game" in line for line in lines):
            break
    else:
        pytest.fail("no game had a player eliminated")


def test_play_refuses_a_player_count_the_game_does_not_have(toy, capsys):
    with pytest.raises(SystemExit) as info:
        play_main([TOY, "--num-players", "6"], input_fn=lambda p: "q", output=lambda t: None)
    assert info.value.code == 2
    assert "--num-players: race_toy_v0 is played by 2, 3, 4, 5 players, got 6" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        play_main([TOY, "--num-players", "3", "--seat", "3"], input_fn=lambda p: "q", output=lambda t: None)
    assert "--seat must be random or a seat from 0 to 2, got '3'" in capsys.readouterr().err


# -- every registered env with more than two players -----------------------------------------------

MULTI = [env_id for env_id in mystic_envs.ENV_IDS if max(mystic_envs.player_counts(env_id)) > 2]
MULTI_PARAMS = [pytest.param(e, max(mystic_envs.player_counts(e)), id=e) for e in MULTI]
# Mystic Vale's random rollouts to the end are ~600 moves at 4 players (135 s for this test's 8
# games): its search reads the return after 20 rollout moves instead, the same code path.
SEARCH = {"mystic_vale_v0": "mcts:simulations=4,rollout_depth=20"}


@pytest.mark.parametrize(("env_id", "n"), MULTI_PARAMS)
def test_registered_multiplayer_envs_evaluate_and_search_at_their_largest_table(env_id, n):
    result = run_tournament(
        env_id,
        ["random", SEARCH.get(env_id, "mcts:simulations=4")],
        games=2 * n,
        seed=0,
        workers=1,
        num_players=n,
    )
    assert result["num_players"] == n and result["total_games"] == 2 * n
    env = mystic_envs.single_agent(env_id, opponent="random", num_players=n)
    check_env(env, skip_render_check=True)
