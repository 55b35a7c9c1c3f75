"""The shipped-model table (``agents/pretrained/MODELS.json``) and ``make_agent("ppo", env_id,
num_players=N)``: every entry matches its file and the game, the stale one is refused, and the count
picks the entry."""

from __future__ import annotations

import copy
import json
import re

import gymnasium
import numpy as np
import pytest
from gameplay import play_game
from sb3_contrib import MaskablePPO
from stable_baselines3.common.save_util import load_from_zip_file

import agents.ppo as ppo
from agents import make_agent
from agents.ppo import ModelError, shipped_models
from agents.spec import AgentSpec, parse_agent_spec, table_options
from training.evaluate import run_tournament
from training.ratings import wilson_interval

TABLE = shipped_models()


def test_every_shipped_zip_has_one_entry_that_records_how_it_was_made_and_what_it_scored():
    assert {m.file for m in TABLE.values()} == {p.name for p in ppo.PRETRAINED_DIR.glob("*_ppo.zip")}
    for (env_id, n), m in TABLE.items():
        assert m.path.is_file() and (m.progress is None or (ppo.PRETRAINED_DIR / m.progress).is_file())
        # The training command of this game, and the command that wrote the shipped file.
        trainers = ("training.train", "training.core_train")
        assert any(c.startswith(f"python -m {t} --env {env_id} ") for c in m.commands for t in trainers)
        assert m.commands[-1].endswith(f"agents/pretrained/{m.file}")
        assert m.budget["timesteps"] > 0 and m.budget["wall_time"] and m.budget["machine"]
        assert {"random", "heuristic"} <= {f["opponent"] for f in m.figures}
        for f in m.figures:
            assert f["command"].startswith(f"python -m training.evaluate --env {env_id} ")
            assert f"--games {f['games']}" in f["command"]
            # At more than two players a figure is the model's alone against N - 1 copies of the
            # opponent: its win share over the half of the pairing's games it sat alone in.
            assert (n == 2) == ("games_alone" not in f), (env_id, n, f["opponent"])
            if n > 2:
                assert f"--num-players {n}" in f["command"] and 2 * f["games_alone"] == f["games"]
            trials = f.get("games_alone", f["games"])
            # The interval is the 95% Wilson interval of the win rate over those games (as rounded).
            low, high = wilson_interval(f["win_rate"] * trials, trials)
            assert f["ci95"] == pytest.approx([low, high], abs=1e-3), (env_id, f["opponent"])


@pytest.mark.parametrize("key", sorted(TABLE), ids=lambda k: f"{k[0]}-{k[1]}p")
def test_an_entry_is_its_file_and_its_status_says_whether_the_game_still_fits_it(key):
    env_id, n = key
    m = TABLE[key]
    data, _, _ = load_from_zip_file(m.path, device="cpu", print_system_info=False)
    assert data["observation_space"].shape == (m.env_version["observation_size"],)
    assert data["action_space"].n == m.env_version["num_actions"]
    fits = ppo._env_shapes(env_id, n) == (m.env_version["observation_size"], m.env_version["num_actions"])
    assert fits == (m.status == "current"), f"{m.file} is marked {m.status}"
    assert ppo.pretrained_path(env_id, n) == m.path  # where it lives, stale or not
    if m.status == "current":
        agent = make_agent("ppo", env_id, num_players=n, seed=0)
        assert agent.shipped == m and agent.path == str(m.path)
    else:
        with pytest.raises(ModelError) as err:
            make_agent("ppo", env_id, num_players=n, seed=0)
        text = str(err.value)
        assert "\n" not in text and "is stale" in text
        assert f"trained for observations of shape ({m.env_version['observation_size']},)" in text


class _Spaces(gymnasium.Env):
    """Only the spaces of a game's table, to save an untrained model of that size."""

    def __init__(self, obs_size: int, num_actions: int) -> None:
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (obs_size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(num_actions)

    def reset(self, *, seed=None, options=None):
        return np.zeros(self.observation_space.shape, np.float32), {}

    def step(self, action):
        return np.zeros(self.observation_space.shape, np.float32), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(self.action_space.n, bool)


ENV = "mystic_vale_v0"


@pytest.fixture
def two_counts(tmp_path, monkeypatch):
    """In place of the shipped table: Mystic Vale at 2 and 4 players (untrained models of each size)."""
    entries = {}
    for n in (2, 4):
        obs_size, num_actions = ppo._env_shapes(ENV, n)
        model = MaskablePPO(
            "MlpPolicy", _Spaces(obs_size, num_actions), policy_kwargs={"net_arch": [8]}, device="cpu"
        )
        model.save(tmp_path / f"model_{n}p.zip")
        entry = copy.deepcopy(json.loads(ppo.MODELS_FILE.read_text())[ENV]["2"])
        entry["file"] = f"model_{n}p.zip"
        entry["env_version"].update(observation_size=obs_size, num_actions=num_actions)
        entries[str(n)] = entry
    (tmp_path / "MODELS.json").write_text(json.dumps({ENV: entries}))
    monkeypatch.setattr(ppo, "PRETRAINED_DIR", tmp_path)
    monkeypatch.setattr(ppo, "MODELS_FILE", tmp_path / "MODELS.json")
    return tmp_path


def test_num_players_picks_the_entry_of_that_count(two_counts):
    four = make_agent("ppo", ENV, num_players=4, seed=0)
    assert four.shipped.num_players == 4 and four.path == str(two_counts / "model_4p.zip")
    assert four.policy.observation_space.shape == (ppo._env_shapes(ENV, 4)[0],)
    rewards, _ = play_game(
        ENV, [four] + [make_agent("random", ENV, seed=s) for s in range(3)], 0, num_players=4
    )
    assert len(rewards) == 4
    guided = make_agent("mcts", ENV, seed=0, guide="ppo", num_players=4)
    assert guided.net.shipped.num_players == 4
    default = make_agent("ppo", ENV, seed=0)
    assert default.shipped.num_players == 2 and default.path == str(two_counts / "model_2p.zip")
    # The 2-player model at a table of 4 refuses in one line when it acts.
    env = ppo.mystic_envs.make(ENV, num_players=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="a table of another num_players"):
        default.act(env, env.agent_selection)


def test_a_tournament_at_four_players_seats_the_four_player_model(two_counts):
    # training.evaluate --num-players 4 --agents ppo ...: the model shipped for 4, not the default one.
    result = run_tournament(ENV, ["ppo", "random"], 8, seed=0, workers=1, num_players=4)
    assert result["matrix"]["ppo"]["random"]["games"] == 4
    assert table_options(parse_agent_spec("mcts:guide=ppo"), 4) == {"guide": "ppo", "num_players": 4}
    assert table_options(parse_agent_spec("ppo"), None) == {}  # the game's default count
    for spec in [parse_agent_spec(t) for t in ("ppo:num_players=2", "mcts:simulations=8", "random")] + [
        AgentSpec("ppo:path=m.zip", "ppo", {"path": "m.zip"})
    ]:
        assert table_options(spec, 4) == spec.options  # its own count or file, or no network


def test_a_count_without_a_model_or_outside_the_game_is_a_one_line_error(two_counts):
    with pytest.raises(ModelError) as err:
        make_agent("ppo", ENV, num_players=3)
    assert str(err.value) == (
        "no PPO model is shipped for mystic_vale_v0 at 3 players (models exist for 2, 4 players; "
        "MODELS.json); pass path='model.zip'"
    )
    for bad in (5, 2.0, True, "4"):
        with pytest.raises(
            ValueError, match=r"^num_players: mystic_vale_v0 is played by 2, 3, 4 players, got"
        ):
            make_agent("ppo", ENV, num_players=bad)
    # A model given by path is checked against the count asked for.
    with pytest.raises(
        ModelError, match=r"shape \(2984,\) and 51 actions; mystic_vale_v0 at 4 players has shape"
    ):
        make_agent("ppo", ENV, path=two_counts / "model_2p.zip", num_players=4)


def test_every_game_has_a_current_model_at_every_count():
    # Issue 31's roster plays the shipped ppo (and the guided search on it) at every table size; a
    # count without one is refused in one line (the test above, on a table of two counts).
    for env_id in ppo.mystic_envs.ENV_IDS:
        for n in ppo.mystic_envs.player_counts(env_id):
            entry = ppo.shipped_model(env_id, n)
            assert (entry.env_id, entry.num_players, entry.status) == (env_id, n, "current")


def test_a_stale_entry_is_refused_in_one_line_and_named_when_none_fits(two_counts):
    # The game changed under the 4-player model: its entry (a model of another observation size)
    # is marked stale, as Mystick Domination's was when issue 28 grew its observation.
    table = json.loads((two_counts / "MODELS.json").read_text())
    obs_size, num_actions = ppo._env_shapes(ENV, 2)
    table[ENV]["4"].update(file="model_2p.zip", status="stale")
    table[ENV]["4"]["env_version"].update(observation_size=obs_size, num_actions=num_actions)
    del table[ENV]["2"]
    (two_counts / "MODELS.json").write_text(json.dumps(table))
    with pytest.raises(ModelError) as err:
        make_agent("ppo", ENV, num_players=4, seed=0)
    text = str(err.value)
    assert (
        "\n" not in text and "is stale" in text and f"trained for observations of shape ({obs_size},)" in text
    )
    with pytest.raises(ModelError) as err:
        make_agent("ppo", ENV, num_players=2)
    assert "(no current model; a stale one for 4; MODELS.json)" in str(err.value)


def _edited(edit):
    table = json.loads(ppo.MODELS_FILE.read_text())
    edit(table)
    return json.dumps(table)


ENTRY = ("elemystic_v0", "2")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"is unreadable: Expecting property name"),
        ('{"elemystic_v0": {"2": {}, "2": {}}}', r"is unreadable: key '2' appears twice"),
        (_edited(lambda t: t.update(chess_v0=t["elemystic_v0"])), r"chess_v0 at 2 players: unknown env id"),
        (
            _edited(lambda t: t["elemystic_v0"].update({"3": t["elemystic_v0"]["2"]})),
            r"elemystic_v0 at 3 players: the player count must be one of 2$",
        ),
        (
            _edited(lambda t: t[ENTRY[0]][ENTRY[1]].update(status="best")),
            r"status must be one of \['current', 'stale'\], got 'best'",
        ),
        (_edited(lambda t: t[ENTRY[0]][ENTRY[1]].pop("budget")), r"missing field\(s\) \['budget'\]"),
        (_edited(lambda t: t[ENTRY[0]][ENTRY[1]].update(file="../x.zip")), r"file must be a file name in"),
        (_edited(lambda t: t[ENTRY[0]][ENTRY[1]]["env_version"].pop("rules")), r"env_version must have"),
        (
            _edited(lambda t: t[ENTRY[0]][ENTRY[1]]["figures"][0].update(ci95=[0.98, 0.99])),
            r"figure against 'random': needs games > 0 and 0 <= ci95\[0\] <= win_rate",
        ),
        (
            _edited(lambda t: t[ENTRY[0]][ENTRY[1]]["figures"][0].update(ci95=[0.9])),
            r"figure against 'random': needs",
        ),
    ],
)
def test_a_bad_table_is_a_one_line_error(tmp_path, text, message):
    path = tmp_path / "MODELS.json"
    path.write_text(text)
    with pytest.raises(ModelError) as err:
        shipped_models(path)
    assert "\n" not in str(err.value)
    assert re.search(message, str(err.value)), str(err.value)
