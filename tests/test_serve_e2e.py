"""The page of ``python -m agents.serve`` in a real browser: Debian's headless Chromium driven by
Playwright (never Playwright's own browser download), the server started and stopped here on
127.0.0.1 and a free port.

A whole Elemystic game against random played by clicking, its final screen, its record downloaded
and replayed; one game of each other game played through the page against an agent; a watched game;
bad input shown on the page while the server plays on.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the serve extra (pip install -e '.[serve]') is not installed")
pytest.importorskip("playwright", reason="the serve extra (pip install -e '.[serve]') is not installed")

import mystic_envs
from agents.web.browser import CHROMIUM, chromium, running_server

if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} is missing: make venv installs Debian's chromium (apt-get install chromium)",
        allow_module_level=True,
    )

# Small games where the rules allow it, so each stays well under 30 s of clicking.
QUICK_KWARGS = {"tarot_dice_v0": {"num_rounds": 1, "round_turn_limit": 12}}


@pytest.fixture(scope="module")
def server():
    with running_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(server)
    # The seat menus are built once the page has fetched the catalog; reading them (eval_on_selector
    # does not wait) before that fails on a loaded machine.
    page.wait_for_selector("#seat-1")
    yield page
    context.close()


def start(page, env_id: str, seats: list[str], seed: int, kwargs: dict | None = None) -> None:
    page.select_option("#game", env_id)
    for seat, who in enumerate(seats):
        page.select_option(f"#seat-{seat}", who)
    for key, value in (kwargs or {}).items():
        field = page.locator(f"#kw-{key}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board:not([hidden])")
    page.select_option("#speed", "0")


def play_by_clicking(page, seed: int, limit: int = 2000) -> int:
    """Click one of the legal-action buttons whenever it is our turn, until the game is over."""
    rng = np.random.default_rng(seed)
    clicks = 0
    while clicks < limit:
        page.wait_for_selector("#actions button, #board[data-over=true]")
        if page.get_attribute("#board", "data-over") == "true":
            return clicks
        before = page.get_attribute("#board", "data-moves")
        buttons = page.locator("#actions button")
        buttons.nth(int(rng.integers(buttons.count()))).click()
        page.wait_for_function("m => document.getElementById('board').dataset.moves !== m", arg=before)
        clicks += 1
    raise AssertionError(f"the game did not end within {limit} clicks")


def test_a_whole_elemystic_game_by_clicking_then_its_record_replays(page, tmp_path: Path):
    start(page, "elemystic_v0", ["human", "random"], seed=7)
    assert "player_0 (you)" in page.inner_text("#viewer")
    clicks = play_by_clicking(page, seed=7)
    assert clicks >= 6  # at least a round's drafts and plays
    result = page.inner_text("#result")
    assert ("wins" in result or "draw" in result) and "Final scores" in result and "Seed 7" in result
    assert page.inner_text("#status").endswith("Game over")
    assert page.locator("#table svg").count() == 1
    moves = int(page.get_attribute("#board", "data-moves"))
    assert page.locator("#moves li").count() == moves
    assert page.inner_text("#step-label") == f"move {moves} of {moves}"
    page.click("#step-back")
    page.wait_for_selector(f"#board[data-step='{moves - 1}']")
    assert page.inner_text("#step-label") == f"move {moves - 1} of {moves}"
    page.click("#step-first")
    page.wait_for_selector("#board[data-step='0']")
    assert page.locator("#moves li").count() == 0
    page.click("#step-last")
    page.wait_for_selector(f"#board[data-step='{moves}']")
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["env_id"] == "elemystic_v0" and record["seed"] == 7 and len(record["actions"]) == moves
    assert record["agents"] == ["human", "random"]

    page.goto(page.url.split("#")[0])
    page.set_input_files("#upload", str(path))
    page.click("#replay")
    page.wait_for_selector(f"#board[data-moves='{moves}'][data-over=true]")
    assert page.inner_text("#result") == result
    assert "everything" in page.inner_text("#viewer")
    page.select_option("#view", "1")
    page.wait_for_function("() => document.getElementById('viewer').textContent.includes('player_1')")
    page.click("#step-first")
    page.wait_for_selector("#board[data-step='0']")


@pytest.mark.parametrize("env_id", [e for e in mystic_envs.ENV_IDS if e != "elemystic_v0"])
def test_one_game_of_each_other_game_through_the_page(page, env_id):
    page.select_option("#game", env_id)
    agent = (
        "heuristic"
        if "heuristic" in page.eval_on_selector("#seat-1", "e => Array.from(e.options).map(o => o.value)")
        else "random"
    )
    start(page, env_id, ["human", agent], seed=3, kwargs=QUICK_KWARGS.get(env_id))
    play_by_clicking(page, seed=3)
    result = page.inner_text("#result")
    assert "Final scores" in result
    assert page.locator("#table svg").count() == 1 and page.locator("#download").is_visible()


def test_a_game_of_agents_is_watched_with_everything_shown(page):
    start(page, "mystria_v0", ["heuristic", "random"], seed=1, kwargs={"variant": "intro"})
    page.wait_for_selector("#board[data-over=true]")
    assert "everything" in page.inner_text("#viewer")
    assert "Final scores" in page.inner_text("#result")


def test_the_seat_menu_shows_the_published_ratings(page):
    from training.leaderboard import published_ratings

    page.select_option("#game", "elemystic_v0")
    texts = page.eval_on_selector(
        "#seat-1", "e => Object.fromEntries(Array.from(e.options).map(o => [o.value, o.text]))"
    )
    heuristic = published_ratings("elemystic_v0", 2)["heuristic"]
    assert texts["heuristic"].startswith(f"heuristic · Elo {heuristic['rating']:+.0f} [")
    assert texts["mcts"].startswith("mcts (simulations=64) · Elo +") and texts["random"] == "random · Elo 0"


def test_bad_input_is_shown_on_the_page_and_the_server_plays_on(page, tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ this is not a record")
    page.set_input_files("#upload", str(bad))
    page.click("#replay")
    page.wait_for_selector("#error:not([hidden])")
    assert "JSON" in page.inner_text("#error")
    bad.write_bytes(b"\xff\xfe{\x00}\x00")  # UTF-16: the server, not the browser, judges the bytes
    page.set_input_files("#upload", str(bad))
    page.click("#replay")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('not UTF-8')")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "mystic-envs-record", "schema_version": 99}))
    page.set_input_files("#upload", str(wrong))
    page.click("#replay")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('schema_version')")
    page.select_option("#game", "tarot_dice_v0")
    page.fill("#kw-num_rounds", "0")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('num_rounds')")
    # Still serving: a good game starts and clears the message.
    start(page, "elemystic_v0", ["human", "random"], seed=2)
    page.wait_for_selector("#actions button")
    assert page.is_hidden("#error")
