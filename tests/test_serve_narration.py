"""The page's move list tells what each move caused (``agents.web.games.move_entry``'s ``events``,
``mystic_envs.core.narration.table_events``), as the viewer may know it."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the serve extra (pip install -e '.[serve]') is not installed")
from starlette.testclient import TestClient

from agents.web.app import create_app
from mystic_envs.core.narration import table_events


def test_the_move_list_tells_each_moves_story_for_its_viewer():
    client = TestClient(create_app())
    r = client.post(
        "/api/games", json={"env_id": "tarot_dice_v0", "seats": ["human", "heuristic"], "seed": 4}
    )
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["tokens"]["0"]
    session = client.app.state.store.get(gid)
    page = client.get(f"/api/games/{gid}", params={"token": token}).json()
    while len(page["moves"]) < 12:
        if page["to_move_kind"] == "agent":
            page = client.post(f"/api/games/{gid}/advance", json={"token": token}).json()
        else:
            move = {"token": token, "action": page["actions"][0]["action"]}
            page = client.post(f"/api/games/{gid}/move", json=move).json()
    for m in page["moves"]:
        before, after = session.positions[m["step"]], session.positions[m["step"] + 1]
        assert m["events"] == table_events(before, after, viewer=0)
    told = [line for m in page["moves"] for line in m["events"]]
    assert any(line.startswith("A new round: every numbered die is rolled: your D4 ") for line in told)
    watched = client.get(f"/api/games/{gid}").json()  # the public table: the same story, told to no seat
    assert [m["events"] for m in watched["moves"]] == [
        table_events(session.positions[m["step"]], session.positions[m["step"] + 1]) for m in watched["moves"]
    ]
