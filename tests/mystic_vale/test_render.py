"""Mystic Vale at the terminal: every action named for the phase and the speaker, the table
readable slot by slot, and nothing a seat may not see in its text (issue 19)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from agents.human import action_label
from mystic_envs.mystic_vale import decisions as d
from mystic_envs.mystic_vale import narrate, render
from mystic_envs.mystic_vale.cards import ADVANCEMENTS
from mystic_envs.mystic_vale.render import describe_action, table_effects
from tests.mystic_vale.script import (
    BLANKS,
    CURSED,
    FERTILE_CARD,
    act,
    aid,
    card,
    craft,
    lay_out,
    new,
    set_commons,
    start,
)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_action_of_random_games_gets_its_own_label(n):
    """No action falls back on its bare meaning, at any player count, for the mover or the table."""
    phases = set()
    for seed in range(3):
        s = new(n, seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            mover = s.current_player
            for a in s.legal_actions():
                assert render._phrase(s, a) is not None, (s.phase_name, d.action_meaning(a))
                mine = describe_action(s, a, mover)
                theirs = describe_action(s, a, (mover + 1) % n, name="player_x (random)")
                assert mine != d.ACTION_MEANINGS[a] and not mine.startswith("player_"), mine
                assert theirs.startswith("player_x (random) ") and "your " not in theirs, theirs
                assert action_label(s, a, None).startswith(f"player_{mover} ")
            phases.add(s.phase_name)
            s.apply(int(rng.choice(s.legal_actions())))
    assert {"planting", "harvest", "sleeve", "would_spoil"} <= phases


def _harvest(s, q: int = 0):
    """``q`` in its Harvest with 6 mana from Fertile Soil and a blank card in the field."""
    field = [FERTILE_CARD["top"], FERTILE_CARD["middle"], FERTILE_CARD["bottom"], BLANKS[0], BLANKS[1]]
    craft(s, q, BLANKS[0], "Fertile Soil top", "Fertile Soil middle", "Fertile Soil bottom")
    lay_out(s, q, field=field, on_deck=BLANKS[2], deck=[BLANKS[3]])
    start(s, q)
    return act(s, d.PASS)


def test_the_mover_hears_the_cards_named_the_table_hears_the_move():
    s = _harvest(new())
    set_commons(s, 3, "Stag")
    s._legal = None
    buy = d.BUY_COMMONS + 3
    cost = ADVANCEMENTS[aid("Stag")].cost  # the costs are design choices still being tuned
    stag = f"Stag (level 2, cost {cost}, top: 1 decay, 2 guardian, 1 animal) for {cost} mana"
    assert describe_action(s, buy, 0) == f"buy {stag}"
    assert describe_action(s, buy, 1) == f"player_0 buys {stag}"
    act(s, buy, d.DONE)
    assert s.phase_name == "sleeve"
    assert describe_action(s, card(BLANKS[1]), 0) == f"sleeve Stag (top) on field card #{BLANKS[1]} (blank)"
    assert describe_action(s, card(FERTILE_CARD["middle"]), 1, name="Ann") == (
        f"Ann sleeves Stag (top) on field card #{FERTILE_CARD['middle']} (- / Fertile Soil / -)"
    )
    assert "to sleeve: Stag (top)" in s.describe(0)


def test_push_names_the_on_deck_card_and_pass_says_what_follows():
    s = new()
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=FERTILE_CARD["middle"], deck=[BLANKS[0]])
    start(s, 0)
    assert describe_action(s, d.PUSH, 0) == (
        f"push: play the on-deck card #{FERTILE_CARD['middle']} (- / Fertile Soil / -)"
    )
    assert describe_action(s, d.PASS, 1) == "player_0 passes: ends planting and harvests"


def test_a_calm_weather_peek_is_named_to_its_owner_only():
    s = new()
    craft(s, 0, BLANKS[0], "Calm Weather")
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=BLANKS[0], deck=[CURSED["middle"][0], BLANKS[2]])
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase_name == "calm_weather_peek"
    top = f"card #{CURSED['middle'][0]} (- / Cursed Land / -)"
    assert (
        describe_action(s, d.DISCARD_PEEKED, 0) == f"discard {top} from the top of your deck (Calm Weather)"
    )
    for a in (d.DONE, d.DISCARD_PEEKED):
        theirs = describe_action(s, a, 1)
        assert "Cursed Land" not in theirs and f"#{CURSED['middle'][0]}" not in theirs, theirs
    # The same position with another card on top: seat 1 hears and reads the same.
    other = s.clone()
    other.deck[0][-1], other.deck[0][0] = other.deck[0][0], other.deck[0][-1]
    for a in (d.DONE, d.DISCARD_PEEKED):
        assert describe_action(other, a, 1) == describe_action(s, a, 1)
        assert describe_action(other, a, 0) != describe_action(s, a, 0)
    assert other.describe(1) == s.describe(1) and other.describe(None) == s.describe(None)
    assert other.describe(0) != s.describe(0)


def test_a_cleansing_rain_search_keeps_its_target_secret():
    s = new()
    craft(s, 0, BLANKS[0], "Cleansing Rain")
    deck = [CURSED["middle"][0], BLANKS[2], FERTILE_CARD["bottom"]]
    lay_out(s, 0, field=[CURSED["top"][0]], on_deck=BLANKS[0], deck=deck)
    start(s, 0)
    act(s, d.PUSH)
    assert s.phase_name == "cleansing_rain_search"
    heard = {describe_action(s, a, 1) for a in s.legal_actions() if a != d.DONE}
    assert heard == {"player_0 discards a card from their deck and shuffles it (Cleansing Rain)"}
    mine = describe_action(s, card(CURSED["middle"][0]), 0)
    target = f"card #{CURSED['middle'][0]} (- / Cursed Land / -)"
    assert mine == f"discard {target} from your deck, then shuffle it (Cleansing Rain)"
    assert "When Played: Cleansing Rain" in s.describe(1)


def test_another_seats_discard_pile_and_any_deck_order_stay_hidden():
    """Two positions that differ only in what seat 0 cannot see read the same to seat 0."""
    a, b = new(), new()
    for s, (deck, discard) in (
        (a, ([BLANKS[2], CURSED["top"][1]], [BLANKS[3]])),
        (b, ([BLANKS[3], BLANKS[2]], [CURSED["top"][1]])),
    ):
        craft(s, 1, BLANKS[3], "Stag")
        lay_out(s, 1, field=[BLANKS[0]], on_deck=BLANKS[1], deck=deck, discard=discard)
    assert a.describe(0) == b.describe(0) and a.describe(None) == b.describe(None)
    assert a.describe(1) != b.describe(1)  # seat 1 knows its own discard pile
    # Its own deck's order: seat 1 reads its deck as a set.
    c = b.clone()
    c.deck[1].reverse()
    assert c.describe(1) == b.describe(1)
    assert f"your deck ({len(b.deck[1])}, order unknown):" in b.describe(1)
    seat0 = b.describe(0)
    assert seat0.count("your deck (") == 1 and seat0.count("your discard pile (") <= 1  # its own only


def test_the_table_shows_slots_symbols_costs_and_vp():
    s = _harvest(new(3))
    set_commons(s, 3, "Stag")
    craft(s, 1, BLANKS[4], "Dawnsinger", "Woodland Warden")
    s.field[1], s.on_deck[1] = [BLANKS[4]], -1
    text = s.describe(0)
    assert text.splitlines()[2].startswith("key: M mana, D decay, + growth, G guardian")
    assert f"  row 2 place 1: Stag (1D 2G 1A); cost {ADVANCEMENTS[aid('Stag')].cost}, top slot" in text
    assert re.search(r"  row 2 place \d: \S.*, cost (\d[AFSW] ?)+, \d+ VP", text)
    middle, bottom = (render.advancement_short(aid(x)) for x in ("Dawnsinger", "Woodland Warden"))
    assert f"  field   #{BLANKS[4]} [- | {middle} | {bottom}]" in text and "Dawnsinger (1G 1S)" in middle
    assert re.search(
        r"player_0 \(you(, starting player)?\): 0 VP tokens, \d+ points, mana token (spent|active)", text
    )
    assert "harvest: mana 6, spirits 0A 0F 0S 0W" in text
    effects = table_effects(s, 2)
    warden = aid("Woodland Warden")
    assert f"  {render.advancement_text(warden)}" in effects and "bottom slot): 1G 1F" in effects
    assert ADVANCEMENTS[warden].ability.text in effects
    assert effects == table_effects(s, 0)  # all public


def test_the_final_table_breaks_the_points_down():
    s = new(2, 5)
    rng = np.random.default_rng(5)
    while not s.is_terminal:
        s.apply(int(rng.choice(s.legal_actions())))
    text = s.describe(0)
    rows = re.findall(r"player_\d: (\d+) VP tokens \+ (\d+) on cards \+ (\d+) on vales = (\d+) points", text)
    assert len(rows) == 2 and all(int(t) + int(c) + int(v) == int(p) for t, c, v, p in rows)
    assert describe_action(s, d.DONE, 0) == d.action_meaning(d.DONE)  # nothing to play any more


@pytest.mark.parametrize("n", [2, 4])
def test_a_whole_game_at_the_terminal_reads_in_words(n):
    """``python -m agents.play`` against heuristics: ``?`` then a number every turn, to the end."""
    from agents.play import main
    from tests.test_human import Terminal

    def answers():
        asked = 0
        while True:
            asked += 1
            if asked % 25 == 1:
                yield "?"
            yield lambda term, k=asked: _listed(term)[k % len(_listed(term))]

    term = Terminal(answers())
    argv = ["mystic_vale_v0", "--num-players", str(n), "--seat", "0", "--seed", "7"]
    assert main(argv, input_fn=term.input, output=term.output) == 0
    assert term.lines[-1] in ("You win!", "You lose.") and "Traceback" not in term.text
    assert "Advancements on the table:" in term.text  # the ? command
    # Some seat spoils in these seeded games, and the table hears it (agents.human.table_events).
    assert re.search(r"^(You|player_\d \(heuristic\)) spoiled", term.text, re.M)
    moves = [line for line in term.lines if re.match(r"player_\d \(heuristic\) ", line)]
    assert moves and {line.split()[0] for line in moves} == {f"player_{q}" for q in range(1, n)}
    assert not any(meaning in term.text for meaning in d.ACTION_MEANINGS[:3] + d.ACTION_MEANINGS[-3:])
    mine = [line for line in term.lines if line.startswith("player_0 (you): ")]
    assert any(re.match(r"player_0 \(you\): (push|pass|buy|sleeve) ", line) for line in mine), mine[:5]


def _listed(term) -> list[str]:
    start = max(i for i, line in enumerate(term.lines) if line.endswith("your legal actions:"))
    return [m.group(1) for line in term.lines[start:] if (m := re.match(r"\s+(\d+): ", line))]


def test_a_spoil_is_told_to_the_table_though_no_action_names_it():
    """A push that reveals a fourth decay spoils the field with no decision; a spoil in prep sets
    off no action either. ``narrate.events`` (every front end prints it after each move) tells both."""
    top, mid = CURSED["top"], CURSED["middle"]
    s = new()
    lay_out(s, 0, field=[top[0], top[1]], on_deck=BLANKS[0], deck=[mid[0], mid[1]])
    start(s, 0)
    before = s.clone()
    act(s, d.PUSH)  # 2 decay in the field + 1 on deck: planting goes on
    assert narrate.events(before, s, viewer=0) == []
    before = s.clone()
    act(s, d.PUSH)  # the fourth decay: spoiled
    assert narrate.events(before, s, viewer=0) == [
        "You spoiled: no harvest this turn, and the mana token is active."
    ]
    assert narrate.events(before, s, viewer=1, names=["player_0 (heuristic)", "you"]) == [
        "player_0 (heuristic) spoiled: no harvest this turn, and the mana token is active."
    ]

    s = new()
    craft(s, 0, BLANKS[2], "Stag")  # a blank with Stag: 1 decay
    craft(s, 0, BLANKS[2], "Hulking Thornhide")  # and a second
    lay_out(s, 0, field=[BLANKS[0]], on_deck=top[0], deck=[top[1], BLANKS[2], BLANKS[3]])
    start(s, 0)
    act(s, d.PASS)
    before = s.clone()
    act(s, d.DONE)  # the prep reveals 4 decay
    assert narrate.events(before, s) == [
        "player_0 spoiled in prep: the next harvest is skipped; the mana token is active."
    ]
    before = s.clone()
    act(s, d.PASS)  # player 1 passes into its harvest: no spoil, and the harvest is told
    assert narrate.events(before, s) == [
        f"player_1 harvests {s.h_mana} mana, spirits: none, 0 VP tokens at the end of the Harvest."
    ]
    before = s.clone()
    act(s, d.DONE)  # player 1 ends its harvest; player 0, spoiled in prep, skips its own
    assert narrate.events(before, s)[-1] == "player_0 skips this turn's harvest, having spoiled in prep."


def test_describe_names_the_round_and_who_skips_the_next_harvest():
    """The head line names the round (one turn of every seat from the starting player), the turn
    and the mover's place in the order; a seat that spoiled in prep is said to skip its next
    Harvest, to every viewer, until that turn has gone by."""
    s = new(3)
    start(s, 2)  # seat 2 starts: the order is 2, 0, 1
    head = s.describe().splitlines()[0]
    assert head.startswith("Mystic Vale, 3 players, round 1, turn 1 (the 1st to play)")
    s.turn = 5  # round 1 and the first two turns of round 2 (seats 2 and 0) are over
    s.start_turn(1)
    s._legal = None
    s.run()
    assert "round 2, turn 6 (the 3rd to play): player_1's turn" in s.describe(0).splitlines()[0]
    s = new()
    craft(s, 0, 14, "Stag", "Hulking Thornhide")  # 2 decay
    lay_out(s, 0, field=[12], on_deck=CURSED["top"][0], deck=[CURSED["top"][1], 14, 15])
    start(s, 0)
    act(s, d.PASS, d.DONE)  # prep reveals the 2-decay card: 4 showing, spoiled in prep
    assert s.skip_harvest[0] and s.active == 1
    for viewer in (0, 1, None):
        text = s.describe(viewer)
        assert text.count("skips its next Harvest") == 1, text
        lines = text.splitlines()
        at = next(k for k, x in enumerate(lines) if x.startswith("player_0"))
        assert "skips its next Harvest" in lines[at + 1], "said under seat 0's line"
    act(s, d.PASS, d.DONE)  # seat 1's turn, then seat 0's turn skips to its discard and prep
    assert not s.skip_harvest[0] and "skips its next Harvest" not in s.describe()
