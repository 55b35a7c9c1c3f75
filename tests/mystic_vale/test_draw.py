"""Mystic Vale's table in the browser (``agents/web/draw_mystic_vale.py``): valid SVG at every
player count, every card's slots drawn, and nothing a viewer may not see in its picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from agents.web import draw_mystic_vale as mv
from agents.web.draw import draw, drawer
from mystic_envs.mystic_vale import decisions as d
from tests.mystic_vale.script import BLANKS, CURSED, act, aid, craft, lay_out, new, set_commons, start

SVG = "{http://www.w3.org/2000/svg}"


def _texts(picture: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(picture).iter(f"{SVG}text")]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_player_count_draws_for_every_viewer_and_hides_what_it_cannot_see(n):
    """Valid SVG for each seat, an onlooker and "all"; a seat's picture and the onlooker's do not
    change when ``determinize`` re-deals what that seat cannot see (deck orders, another seat's
    deck and discard pile, the commons and vale decks)."""
    s = new(n, n)
    rng = np.random.default_rng(n)
    step = 0
    secret_phases = {d.PEEK, d.SEARCH}
    while not s.is_terminal and step < 160:
        if step % 40 == 0 or s.phase in secret_phases:
            secret_phases.discard(s.phase)  # the first Calm Weather peek and Cleansing Rain search
            for viewer in [*range(n), None, "all"]:
                picture = mv.draw(s, viewer)
                assert ET.fromstring(picture).tag == f"{SVG}svg"
                seats = [t for t in _texts(picture) if t.startswith("player_") and len(t) <= 14]
                assert len(seats) == n, seats  # one area a seat (the header's "to act" has more words)
            for p in range(n):
                other = s.determinize(p, np.random.default_rng(step))
                assert mv.draw(other, p) == mv.draw(s, p), (step, p)
                assert mv.draw(other, None) == mv.draw(s, None), step
        s.apply(int(rng.choice(s.legal_actions())))
        step += 1
    assert drawer("mystic_vale_v0") is mv.draw and draw("mystic_vale_v0", s, 0) == mv.draw(s, 0)


def test_cards_show_their_three_slots_and_the_viewers_seat_comes_first():
    s = new(3)
    craft(s, 1, BLANKS[0], "Stag", "Dawnsinger", "Woodland Warden")
    lay_out(s, 1, field=[BLANKS[0]], on_deck=CURSED["bottom"][0], deck=[BLANKS[1]])
    texts = _texts(mv.draw(s, 1))
    assert {"Stag", "Dawnsinger *", "Woodland Warden *"} <= set(texts)
    mover = s.current_player
    assert [t for t in texts if t.startswith("player_")][:3] == [
        f"player_{mover} to act",
        "player_1 (you)",
        "player_2",
    ]
    assert "on deck" in texts and f"#{BLANKS[0]}" in texts
    assert {"G", "A", "D", "S", "F"} <= set(texts)  # the symbols as lettered glyphs


def test_another_seats_discard_pile_and_a_peek_stay_with_their_owner():
    s = new()
    craft(s, 0, BLANKS[0], "Calm Weather")
    craft(s, 0, BLANKS[3], "Woodland Warden")
    # Woodland Warden's card sits in seat 0's discard pile (and nowhere in the commons); the peek
    # will show a Cursed Land.
    for k, a in enumerate(s.commons):
        if a == aid("Woodland Warden"):
            set_commons(s, k, "Aurora")
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=BLANKS[0], deck=[CURSED["middle"][0], BLANKS[2]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase == d.PEEK
    own, other, onlooker = mv.draw(s, 0), mv.draw(s, 1), mv.draw(s, None)
    assert "top of deck (Calm Weather)" in _texts(own)
    assert "Woodland Warden" in own and "Your discard pile" in own
    for picture in (other, onlooker):
        assert "top of deck (Calm Weather)" not in _texts(picture)
        assert "Woodland Warden" not in picture and "Your discard pile" not in picture
    everyone = mv.draw(s, "all")
    assert "top of deck (Calm Weather)" in _texts(everyone) and "Its discard pile" in everyone


def test_the_header_names_the_round_and_the_place_in_the_order():
    """The header counts rounds (a turn of every seat from the starting player), as ``describe``."""
    s = new(3)
    assert "Mystic Vale \u00b7 round 1, turn 1 (1st to play) \u00b7 planting \u00b7 planting" in _texts(
        mv.draw(s, 0)
    )
    rng = np.random.default_rng(0)
    while s.turn < 4:
        s.apply(int(rng.choice(s.legal_actions())))
    texts = _texts(mv.draw(s, 0))
    assert any(t.startswith("Mystic Vale \u00b7 round 2, turn 5 (2nd to play)") for t in texts)
    while not s.is_terminal:
        s.apply(int(rng.choice(s.legal_actions())))
    assert f"Mystic Vale \u00b7 after {s.turn // 3} rounds \u00b7 game over" in _texts(mv.draw(s, None))
