"""The web app of ``python -m agents.serve`` through its JSON API (Starlette's TestClient).

The browser tests are in test_serve_e2e.py; these check the API's answers, its refusals (each a 4xx
JSON answer with a one-line message, after which the server plays on), the bound on games in
memory, and that a seat's page never holds what that seat may not see.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the serve extra (pip install -e '.[serve]') is not installed")
from starlette.testclient import TestClient

import mystic_envs
from agents.serve import main as serve_main
from agents.web.app import create_app
from agents.web.draw import draw, drawer, fallback
from agents.web.games import parse_agent
from mystic_envs.elemystic.cards import ELEMENT_NAMES


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def _new(client: TestClient, **body) -> dict:
    body.setdefault("env_id", "elemystic_v0")
    body.setdefault("seats", ["human", "random"])
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _error(r, status: int) -> str:
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert message and "\n" not in message
    return message


def _play_out(client: TestClient, game_id: str, token: str | None, pick=lambda actions: actions[0]) -> dict:
    q = {"token": token} if token else {}
    data = client.get(f"/api/games/{game_id}", params=q).json()
    for _ in range(5000):
        if data["game_over"]:
            return data
        if data["to_move_kind"] == "agent":
            data = client.post(f"/api/games/{game_id}/advance", json=q).json()
        else:
            action = pick(data["actions"])["action"]
            data = client.post(f"/api/games/{game_id}/move", json={"token": token, "action": action}).json()
    raise AssertionError("the game did not end")


def test_catalog_lists_every_game_with_its_players_keywords_and_agents(client):
    games = {g["env_id"]: g for g in client.get("/api/catalog").json()["games"]}
    assert tuple(games) == mystic_envs.ENV_IDS
    for env_id, g in games.items():
        assert g["player_counts"] == list(mystic_envs.player_counts(env_id))
        assert g["agents"][:2] == ["human", "random"] and "mcts" in g["agents"]
    variant = {k["name"]: k for k in games["mystria_v0"]["kwargs"]}["variant"]
    assert variant["default"] == "full" and variant["choices"] == ["full", "intro"]
    assert "rllib" in games["elemystic_v0"]["agents"]


def test_the_page_and_its_files_are_served_without_anything_from_the_network(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        body = client.get(f"/static/{name}").text
        assert "http://" not in body and "https://" not in body
    assert "http" not in page.text.replace('"/static', "")


def test_a_whole_elemystic_game_against_random_then_its_record_replays(client):
    created = _new(client, seed=11)
    token = created["tokens"]["0"]
    final = _play_out(client, created["id"], token)
    assert final["result"]["end_reason"] == "game over"
    assert sum(final["result"]["winners"]) == 1 and final["seed"] == 11
    assert final["actions"] == [] and final["to_move"] == -1
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["env_id"] == "elemystic_v0" and record["seed"] == 11
    assert record["agents"] == ["human", "random"] and len(record["actions"]) == final["num_steps"]
    assert record["result"] == final["result"]
    replayed = client.post("/api/replays", json=record)
    assert replayed.status_code == 201
    rid = replayed.json()["id"]
    view = client.get(f"/api/games/{rid}", params={"view": "0"}).json()
    assert view["source"] == "replay" and view["num_steps"] == final["num_steps"] and view["game_over"]
    assert view["svg"] == final["svg"] and view["result"] == final["result"]
    start = client.get(f"/api/games/{rid}", params={"step": 0, "view": "all"}).json()
    assert start["step"] == 0 and start["moves"] == [] and "everything" in start["viewer_label"]


@pytest.mark.parametrize("env_id", [e for e in mystic_envs.ENV_IDS if e != "elemystic_v0"])
def test_every_other_game_plays_to_the_end_and_replays(client, env_id):
    created = _new(client, env_id=env_id, seats=["human", "heuristic"], seed=4)
    rng = np.random.default_rng(0)
    final = _play_out(client, created["id"], created["tokens"]["0"], lambda a: a[int(rng.integers(len(a)))])
    assert final["result"]["end_reason"] in ("game over", "max_steps")
    record = client.get(f"/api/games/{created['id']}/record").json()
    rid = client.post("/api/replays", json=record).json()["id"]
    assert client.get(f"/api/games/{rid}", params={"view": "0"}).json()["svg"] == final["svg"]


def test_a_watched_game_shows_everything_labelled_and_any_seat_view(client):
    created = _new(client, seats=["heuristic", "mcts:simulations=20"], seed=2)
    assert created["tokens"] == {}
    data = client.get(f"/api/games/{created['id']}").json()
    assert data["viewer"] == "all" and "everything" in data["viewer_label"] and data["seed"] == 2
    assert client.get(f"/api/games/{created['id']}", params={"view": "1"}).json()["viewer"] == 1
    assert client.get(f"/api/games/{created['id']}", params={"view": "public"}).json()["viewer"] is None
    _error(client.get(f"/api/games/{created['id']}", params={"view": "7"}), 400)
    stepped = client.post(f"/api/games/{created['id']}/advance", json={"view": "1"}).json()
    assert stepped["num_steps"] == 1 and stepped["viewer"] == 1 and len(stepped["moves"]) == 1


def test_bad_games_agents_keywords_and_seeds_are_4xx_with_a_message(client):
    assert "unknown game" in _error(client.post("/api/games", json={"env_id": "chess_v0", "seats": []}), 400)
    bad_agent = client.post("/api/games", json={"env_id": "elemystic_v0", "seats": ["human", "alphazero"]})
    assert "unknown agent 'alphazero'" in _error(bad_agent, 400)
    bad_kwarg = {"env_id": "mystria_v0", "seats": ["human", "random"], "kwargs": {"variant": "huge"}}
    assert "variant" in _error(client.post("/api/games", json=bad_kwarg), 400)
    unknown_kwarg = {"env_id": "mystria_v0", "seats": ["human", "random"], "kwargs": {"colour": 1}}
    assert "colour" in _error(client.post("/api/games", json=unknown_kwarg), 400)
    render = {"env_id": "mystria_v0", "seats": ["human", "random"], "kwargs": {"illegal_action": "raise"}}
    assert "illegal_action" in _error(client.post("/api/games", json=render), 400)
    seats = client.post("/api/games", json={"env_id": "elemystic_v0", "seats": ["human"]})
    assert "2 seats" in _error(seats, 400)
    players = client.post("/api/games", json={"env_id": "elemystic_v0", "num_players": 3, "seats": []})
    assert "players" in _error(players, 400)
    seed = client.post(
        "/api/games", json={"env_id": "elemystic_v0", "seats": ["human", "random"], "seed": -1}
    )
    assert "seed" in _error(seed, 400)
    assert "JSON" in _error(client.post("/api/games", content=b"{nope"), 400)
    assert "JSON object" in _error(client.post("/api/games", json=[1, 2]), 400)
    # Still serving.
    assert _new(client)["id"]


def test_agent_options_stay_within_limits_and_never_name_a_file():
    assert parse_agent("mcts", "elemystic_v0") == ("mcts", {"simulations": 64})
    assert parse_agent("mcts:simulations=40,rollout=heuristic", "mystria_v0") == (
        "mcts",
        {"simulations": 40, "rollout": "heuristic"},
    )
    for spec, words in [
        ("mcts:simulations=100000", "from 1 to 2000"),
        ("ppo:path=/etc/passwd", "keys: deterministic"),
        ("human:x=1", "no options"),
        ("heuristic:FIX=2", "keys: none"),
        ("mcts:simulations=lots", "a number"),
    ]:
        with pytest.raises(ValueError, match=words):
            parse_agent(spec, "elemystic_v0")


def test_illegal_out_of_turn_and_late_moves_are_refused_and_the_game_goes_on(client):
    created = _new(client, seed=5, seats=["human", "human"])
    gid, t0, t1 = created["id"], created["tokens"]["0"], created["tokens"]["1"]
    state = client.get(f"/api/games/{gid}", params={"token": t0}).json()
    mover, waiter = (t0, t1) if state["to_move"] == 0 else (t1, t0)
    mine = client.get(f"/api/games/{gid}", params={"token": mover}).json()
    legal = {a["action"] for a in mine["actions"]}
    illegal = next(a for a in range(9) if a not in legal)  # a draft of an element not in the pool
    assert "illegal move" in _error(
        client.post(f"/api/games/{gid}/move", json={"token": mover, "action": illegal}), 400
    )
    turn = client.post(f"/api/games/{gid}/move", json={"token": waiter, "action": min(legal)})
    assert "turn" in _error(turn, 409)
    _error(client.post(f"/api/games/{gid}/move", json={"token": "forged", "action": 0}), 403)
    for action in ("3", 2.5, True, None, 10_000):
        _error(client.post(f"/api/games/{gid}/move", json={"token": mover, "action": action}), 400)
    assert "human seat" in _error(client.post(f"/api/games/{gid}/advance", json={}), 409)
    assert "not over" in _error(client.get(f"/api/games/{gid}/record"), 409)
    after = client.get(f"/api/games/{gid}", params={"token": mover}).json()
    assert after["num_steps"] == 0 and after["actions"] == mine["actions"]
    moved = client.post(f"/api/games/{gid}/move", json={"token": mover, "action": min(legal)})
    assert moved.status_code == 200 and moved.json()["num_steps"] == 1
    _error(client.get(f"/api/games/{gid}", params={"token": "forged"}), 403)
    _error(client.get(f"/api/games/{gid}", params={"step": 9}), 400)
    _error(client.get(f"/api/games/{gid}", params={"view": "all"}), 403)
    assert "no game" in _error(client.get("/api/games/doesnotexist"), 404)


def test_moves_after_the_end_are_refused(client):
    created = _new(client, seed=3)
    final = _play_out(client, created["id"], created["tokens"]["0"])
    late = client.post(
        f"/api/games/{created['id']}/move", json={"token": created["tokens"]["0"], "action": 0}
    )
    assert "over" in _error(late, 409)
    assert "over" in _error(client.post(f"/api/games/{created['id']}/advance", json={}), 409)
    assert final["game_over"]


def test_malformed_and_diverging_records_are_refused_with_the_reason(client):
    assert "JSON" in _error(client.post("/api/replays", content=b"not json"), 400)
    for content, reason in ((b"\xff\xfe{\x00}\x00", "not UTF-8 text"), (b"{" * 100_000, "not valid JSON")):
        message = _error(client.post("/api/replays", content=content), 400)
        assert message.startswith("bad record: the uploaded record is not") and reason in message
        assert "\n" not in message
    assert "format" in _error(client.post("/api/replays", json={"format": "pgn"}), 400)
    created = _new(client, seats=["random", "random"], seed=8)
    _play_out(client, created["id"], None)
    record = client.get(f"/api/games/{created['id']}/record").json()
    tampered = json.loads(json.dumps(record))
    tampered["actions"][3]["meaning"] = "draft a dragon"
    assert "step 3" in _error(client.post("/api/replays", json=tampered), 400)
    tampered = dict(record, env_id="go_v0")
    assert "env_id" in _error(client.post("/api/replays", json=tampered), 400)
    assert client.post("/api/replays", json=record).status_code == 201


def test_games_in_memory_are_bounded_least_recently_used_first():
    client = TestClient(create_app(limit=2))
    first, second = _new(client)["id"], _new(client)["id"]
    client.get(f"/api/games/{first}")  # used: the second is now the oldest
    third = _new(client)["id"]
    assert "keeps the 2 most recent" in _error(client.get(f"/api/games/{second}"), 404)
    assert client.get(f"/api/games/{first}").status_code == 200
    assert client.get(f"/api/games/{third}").status_code == 200
    assert len(client.app.state.store) == 2


def test_a_seat_page_never_holds_the_other_seats_secret(client):
    for seed in range(6):
        created = _new(client, seed=seed, seats=["human", "random"])
        page = client.get(f"/api/games/{created['id']}", params={"token": created["tokens"]["0"]}).json()
        assert page["seed"] is None and page["viewer"] == 0
        state = client.app.state.store.get(created["id"]).positions[-1]
        hidden = {ELEMENT_NAMES[state.secret[1]], ELEMENT_NAMES[state.unknown]}
        shown = {ELEMENT_NAMES[state.secret[0]]}
        for name in hidden:
            assert f">{name}</text>" not in page["svg"]
        for name in shown:
            assert f">{name}</text>" in page["svg"]
        onlooker = client.get(f"/api/games/{created['id']}").json()
        assert (
            onlooker["viewer"] is None and f">{ELEMENT_NAMES[state.secret[0]]}</text>" not in onlooker["svg"]
        )


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_a_seat_drawing_is_the_same_whatever_that_seat_cannot_see(env_id):
    # determinize(p) re-deals everything seat p cannot see: its picture must not change.
    for game in range(3):
        env = mystic_envs.make(env_id)
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        for step in range(300):
            state = env.unwrapped.game_state
            if state.is_terminal:
                break
            if step % 4 == 0:
                for p in range(state.game.num_players):
                    other = state.determinize(p, np.random.default_rng(step))
                    assert draw(env_id, state, p) == draw(env_id, other, p), (game, step, p)
                    assert draw(env_id, state, None) == draw(env_id, other, None), (game, step)
            env.step(int(rng.choice(np.flatnonzero(state.legal_mask()))))


def test_a_game_without_its_own_drawer_gets_its_text(client):
    env = mystic_envs.make("elemystic_v0")
    env.reset(seed=0)
    state = env.unwrapped.game_state
    picture = draw("newgame_v0", state, 0)
    assert drawer("newgame_v0") is None and picture == fallback(state, 0)
    assert picture.startswith("<svg") and "Elemystic - round 1" in picture
    everything = fallback(state, "all")
    assert "as player_0 sees it" in everything and "as player_1 sees it" in everything


def test_serve_refuses_a_bad_port(capsys):
    assert serve_main(["--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_the_other_seats_kept_objective_stays_secret_until_the_end(client):
    from mystic_envs.mystria.board import OBJECTIVES

    created = _new(client, env_id="mystria_v0", seats=["human", "heuristic"], seed=1)
    gid, token = created["id"], created["tokens"]["0"]
    session = client.app.state.store.get(gid)
    page = client.get(f"/api/games/{gid}", params={"token": token}).json()
    while session.positions[-1].kept[1] < 0 or session.positions[-1].kept[0] < 0:
        if page["to_move_kind"] == "agent":
            page = client.post(f"/api/games/{gid}/advance", json={"token": token}).json()
        else:
            move = {"token": token, "action": page["actions"][0]["action"]}
            page = client.post(f"/api/games/{gid}/move", json=move).json()
    secret = OBJECTIVES[session.positions[-1].kept[1]].name
    listed = " ".join(m["label"] for m in page["moves"])
    assert "keeps one of the two Objective tiles" in listed and secret not in listed
    assert secret not in page["svg"] and secret not in page["text"]
    final = _play_out(client, gid, token)
    assert secret in final["svg"]  # revealed at the end, as at the table


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_mystick_domination_drawer_shows_every_seat_and_only_the_viewers_hand(n):
    # Straight on the engine, before (and whether or not) the game is registered.
    from agents.web import draw_mystick_domination as md
    from mystic_envs.mystick_domination.cards import CARD_BY_NAME
    from mystic_envs.mystick_domination.rules import MystickGame

    game = MystickGame(num_players=n)
    state = game.new_initial_state(n)
    rng = np.random.default_rng(n)
    for step in range(300):
        if state.is_terminal:
            break
        if step % 6 == 0:
            for p in range(n):
                other = state.determinize(p, np.random.default_rng(step))
                assert md.draw(state, p) == md.draw(other, p), (step, p)
            assert md.draw(state, None) == md.draw(state.determinize(0, np.random.default_rng(1)), None)
        state.apply(int(rng.choice(state.legal_actions())))
    picture = md.draw(state, 0)
    assert picture.startswith("<svg") and picture.endswith("</svg>")
    for q in range(n):
        assert f">player_{q}" in picture
    assert f"pool: {state.pool} Power" in picture and "Draw Count" in picture and "Mystick Cross" in picture
    assert draw("mystick_domination_v0", state, 0) == picture  # found by its module name

    from tests.mystick_domination.script import table

    s = table(
        n=n,
        hands={0: ["Queen of Wands"], 1: ["Queen of Pentacles"]},
        pawns={0: [("Seven of Wands", 2, [("Nine of Wands", 0)])]},
        envs={1: ["Ace of Pentacles"]},
        cross={0: ["XVI The Tower"]},
    )
    seat0, seat1, everyone, onlooker = md.draw(s, 0), md.draw(s, 1), md.draw(s, "all"), md.draw(s, None)
    for text in (seat0, seat1, everyone, onlooker):
        # What is in play is public: the Pawn with its Power and Attachment, the cross, Environments.
        assert ">0: 7 Wands</text>" in text and ">Power 2/4</text>" in text and "+ 9 Wands (player_0)" in text
        assert ">XVI Tower</text>" in text and ">Ace Pentacles</text>" in text
    assert ">Queen Wands</text>" in seat0 and ">Queen Wands</text>" not in seat1
    assert ">Queen Pentacles</text>" in seat1 and ">Queen Pentacles</text>" not in seat0
    assert ">Queen Wands</text>" in everyone and ">Queen Pentacles</text>" in everyone
    assert ">Queen Wands</text>" not in onlooker and ">Queen Pentacles</text>" not in onlooker
    s.shown[1][CARD_BY_NAME["queen of pentacles"]] = 1  # shown at the initiative: public from then on
    assert ">Queen Pentacles</text>" in md.draw(s, 0)
    s.alive[n - 1] = False
    assert ">eliminated</text>" in md.draw(s, 0)
