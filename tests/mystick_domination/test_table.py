"""Mystick Domination at the terminal: action labels for every kind of action, the ``?`` text, and
that neither tells a seat anything it cannot see (``determinize`` re-deals it: nothing changes)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from mystic_envs.mystick_domination.cards import CARDS, NUM_CARDS
from mystic_envs.mystick_domination.rules import MystickGame
from mystic_envs.mystick_domination.table import describe_action, table_effects
from tests.mystick_domination.script import action, cid, play, table


def _said(s, move: str) -> tuple[str, str, str]:
    """``move`` as the mover, seat (mover + 1) and an onlooker hear it."""
    a = action(s, move)
    return (
        describe_action(s, a, s.player),
        describe_action(s, a, (s.player + 1) % s.n),
        describe_action(s, a, None),
    )


def _position_a():
    # player_0 to move with a Pawn, an Environment, an Attachment and an Action in hand, two Pawns
    # in play, a special move, and a stacked deck for its Seven of Wands' challenge.
    return table(
        n=3,
        hands={0: ["Five of Wands", "Two of Wands", "Nine of Wands", "Queen of Wands", "Knight of Wands"]},
        pawns={0: [("Seven of Wands", 0), ("Five of Cups", 1)], 1: [("Five of Swords", 1)]},
        envs={0: ["Ace of Wands"]},
        tops={0: ["Three of Wands", "Two of Cups", "II The High Priestess", "Four of Cups"]},
        draw_count=2,
        pool=5,
    )


def _position_b():
    # player_1's Merchant (Resources) carries two of its own Attachments that trigger together.
    return table(
        n=3,
        hands={1: ["Eight of Swords"]},
        pawns={
            1: [("Three of Pentacles", 0, [("Ten of Swords", 1), ("Nine of Pentacles", 1)])],
            0: [("Five of Wands", 1)],
        },
        mover=1,
        pool=5,
    )


MOVES = [
    (
        "play Five of Wands",
        "play Five of Wands (Zealot) as a Pawn, influence 2, Aggression",
        "plays Five of Wands (Zealot) as a Pawn, influence 2, Aggression",
    ),
    (
        "play Two of Wands",
        "play Two of Wands (Bonfire), an Environment: Your Pawns with Aggression have +1 influence.",
        "plays Two of Wands (Bonfire), an Environment",
    ),
    (
        "play Nine of Wands",
        "play Nine of Wands (Kindled Will), an Attachment: The attached Pawn has +1 influence.",
        "plays Nine of Wands (Kindled Will), an Attachment",
    ),
    (
        "play Queen of Wands",
        "play Queen of Wands (Siphon): Move up to 2 Power from the pool to a Pawn you control.",
        "plays Queen of Wands (Siphon)",
    ),
    ("draw", "draw a card (Draw Count 2 -> 3: the round ends)", "draws a card (Draw Count 2 -> 3"),
    (
        "challenge 0",
        "challenge with your Seven of Wands (slot 0: 3 Fate cards, Wands and Majors succeed)",
        "challenges with their Seven of Wands (slot 0",
    ),
    (
        "special Ace of Wands",
        "use Ace of Wands (Eternal Flame): move 1 Power from the pool to a Pawn you control that has no "
        "Power",
        "uses Ace of Wands (Eternal Flame): move 1 Power from the pool to a Pawn they control",
    ),
]


@pytest.mark.parametrize(("move", "mine", "theirs"), MOVES)
def test_every_kind_of_move_is_said_in_the_imperative_and_the_third_person(move, mine, theirs):
    s = _position_a()
    own, other, onlooker = _said(s, move)
    assert own == mine
    assert other.startswith(f"player_0 {theirs}") and onlooker == other


def test_a_challenge_its_target_the_redraw_and_a_major_choosing_a_player():
    s = _position_a()
    play(s, (0, "challenge 0"))
    assert _said(s, "pool")[0] == "challenge the pool (5 Power) with your Seven of Wands (slot 0)"
    own, seat1, onlooker = _said(s, "pawn 1 0")
    assert own == "challenge player_1's Five of Swords (slot 0, Power 1/2) with your Seven of Wands (slot 0)"
    assert (
        seat1
        == "player_0 challenges your Five of Swords (slot 0, Power 1/2) with their Seven of Wands (slot 0)"
    )
    assert onlooker.startswith("player_0 challenges player_1's Five of Swords")
    play(s, (0, "pawn 1 0"))
    # The Fate cards are face up in the cross: success or failure is for everyone to see.
    assert _said(s, "mark 1")[0] == "mark the Fate card in space 1, Three of Wands (a success) for the redraw"
    assert _said(s, "mark 2")[1] == (
        "player_0 marks the Fate card in space 2, Two of Cups (a failure) for the redraw"
    )
    assert "II The High Priestess (a success)" in _said(s, "mark 3")[0]
    assert _said(s, "done")[0] == "keep every Fate card (no redraw)"
    play(s, (0, "mark 2"))
    assert _said(s, "done") == (
        "redraw the marked Fate card (space 2)",
        "player_0 redraws the marked Fate card (space 2)",
        "player_0 redraws the marked Fate card (space 2)",
    )
    play(s, (0, "done"))
    assert s.phase_name == "effect_target"  # The High Priestess asks for an opponent
    assert _said(s, "player 1")[:2] == (
        "look at the top 3 cards of player_1's deck (II The High Priestess)",
        "player_0 looks at the top 3 cards of your deck (II The High Priestess)",
    )
    assert describe_action(s, action(s, "player 2"), 2).endswith(
        "at the top 3 cards of your deck (II The High Priestess)"
    )


def test_an_action_and_an_attachment_choosing_their_pawns():
    s = _position_a()
    play(s, (0, "play Knight of Wands"))
    assert _said(s, "pawn 1 0")[:2] == (
        "remove up to 2 Power on player_1's Five of Swords (slot 0, Power 1/2) from the game "
        "(Knight of Wands)",
        "player_0 removes up to 2 Power on your Five of Swords (slot 0, Power 1/2) from the game "
        "(Knight of Wands)",
    )
    assert describe_action(s, action(s, "pawn 0 1"), 2) == (
        "player_0 removes up to 2 Power on their Five of Cups (slot 1, Power 1/2) from the game "
        "(Knight of Wands)"
    )
    s = _position_a()
    play(s, (0, "play Nine of Wands"))
    assert _said(s, "pawn 0 1")[0] == "attach Nine of Wands to your Five of Cups (slot 1, Power 1/2)"
    assert (
        _said(s, "pawn 1 0")[1]
        == "player_0 attaches Nine of Wands to your Five of Swords (slot 0, Power 1/2)"
    )


def test_resources_and_the_order_of_simultaneous_effects():
    s = _position_b()
    play(s, (1, "draw"))
    assert _said(s, "extra 0")[:2] == (
        "draw no extra card (Resources)",
        "player_1 draws no extra card (Resources)",
    )
    assert _said(s, "extra 1")[0] == "draw 1 extra card (Resources)"
    s = _position_b()
    play(s, (1, "challenge 0"))  # only the pool to challenge; both Attachments trigger at once
    assert s.phase_name == "order_effects"
    assert _said(s, "order Ten of Swords")[0] == (
        "resolve Ten of Swords (Keen Edge) next: When the attached Pawn challenges, it gets 1 extra success."
    )
    assert _said(s, "order Nine of Pentacles")[1].startswith(
        "player_1 resolves Nine of Pentacles (Ledger) next"
    )


def test_a_name_replaces_the_seat_and_out_of_range_actions_fall_back_on_the_meaning():
    s = _position_a()
    a = action(s, "draw")
    assert describe_action(s, a, 1, name="player_0 (random)").startswith("player_0 (random) draws a card")
    assert (
        describe_action(s, a, 0, name="ignored for the mover")
        == "draw a card (Draw Count 2 -> 3: the round ends)"
    )
    assert describe_action(s, -1, 0) == s.game.action_meaning(-1)
    assert describe_action(s, s.game.num_actions, 0) == s.game.action_meaning(s.game.num_actions)


def test_the_table_effects_show_what_is_in_play_and_only_the_viewers_hand():
    s = table(
        n=3,
        hands={0: ["Queen of Wands"], 1: ["Queen of Pentacles", "King of Pentacles"]},
        pawns={0: [("Seven of Wands", 1, [("Nine of Wands", 0)])], 2: [("Five of Swords", 0)]},
        envs={1: ["Ace of Pentacles"]},
        cross={0: ["XX Judgement", "Three of Cups"]},
    )
    text = table_effects(s, 0)
    for expected in (
        "Pawn 0: Seven of Wands (Pyromancer), influence 4 (printed 3), Aggression, Power 1",
        "attached by player_0: Nine of Wands (Kindled Will), Attachment (static): The attached Pawn has +1",
        "Ace of Pentacles (Treasury), Environment (special move): You may use a move to draw 1 card",
        "1: XX Judgement (Judgement), Major Arcana: After the next initiative draw, you score 2 victory",
        "2: Three of Cups (Novice Seer), Pawn, influence 1, Presence",
        "your hand:\n    Queen of Wands (Siphon), Action: Move up to 2 Power from the pool to a Pawn you",
        "Immunity: a challenge against this Pawn loses one success.",
    ):
        assert expected in text, expected
    assert "Queen of Pentacles" not in text and "King of Pentacles" not in text  # player_1's hand
    assert "Queen of Wands" not in table_effects(s, 1) and "Queen of Pentacles (Hoard)" in table_effects(s, 1)
    assert "your hand" not in table_effects(s, None)
    with pytest.raises(ValueError, match="viewer"):
        table_effects(s, 3)


def test_cards_shown_revealed_and_waiting_are_on_the_table():
    s = table(n=2, hands={1: ["Queen of Pentacles"]}, tops={1: ["Three of Swords", "Four of Swords"]})
    s.shown[1][cid("Queen of Pentacles")] = 1  # shown at the initiative draw
    s.known_top[1] = s.looked[0][1] = 2  # player_0's Appraise: player_0 looked at them
    s.delayed = [(0, cid("XX Judgement"))]
    text = table_effects(s, 0)
    assert "shown in hand:\n    Queen of Pentacles (Hoard), Action" in text
    assert "deck top (you looked at them, top first):\n    Three of Swords (Duelist)" in text
    assert text.index("Three of Swords") < text.index("Four of Swords")
    assert "Three of Swords" not in table_effects(s, 1), "the look was player_0's alone (I-10)"
    assert "After the next initiative draw:\n  player_0's XX Judgement" in text


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_no_label_or_table_text_changes_when_determinize_re_deals_what_the_viewer_cannot_see(n):
    game = MystickGame(num_players=n)
    checked = 0
    for seed in range(2):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        for step in range(400):
            if s.is_terminal:
                break
            if step % 5 == 0:
                for p in range(n):
                    d = s.determinize(p, np.random.default_rng(step + p))
                    # Every action id, legal or not: the labels of another seat's move must not
                    # depend on its hidden hand.
                    for a in range(game.num_actions):
                        assert describe_action(s, a, p) == describe_action(d, a, p), (seed, step, p, a)
                    assert table_effects(s, p) == table_effects(d, p), (seed, step, p)
                    assert s.describe(p) == d.describe(p), (seed, step, p)
                    checked += 1
            s.apply(int(rng.choice(s.legal_actions())))
    assert checked > 20


def test_a_card_played_is_named_to_everyone_and_an_unplayed_hand_never_is():
    # The labels of the mover's legal moves name only the cards it plays: every other hand card
    # stays out of what the other seats hear.
    s = _position_a()
    heard = " ".join(describe_action(s, a, 1) for a in s.legal_actions())
    assert all(CARDS[c].name in heard for c in range(NUM_CARDS) if s.hand[0][c])


def test_the_render_module_serves_the_terminal_front_ends():
    # agents.human finds the game's labels and ? text in its render module.
    from agents.human import action_label
    from agents.human import table_effects as human_table_effects
    from mystic_envs.mystick_domination import render, table

    assert render.describe_action is table.describe_action and render.table_effects is table.table_effects
    s = _position_a()
    assert action_label(s, action(s, "draw"), 1, name="player_0 (random)") == (
        "player_0 (random) draws a card (Draw Count 2 -> 3: the round ends)"
    )
    assert human_table_effects(s, 0) == table_effects(s, 0)


def test_a_human_at_a_four_player_table_reads_labels_and_the_effects_and_plays():
    from agents.human import HumanAgent
    from mystic_envs import mystick_domination_v0

    env = mystick_domination_v0.env(num_players=4)
    env.reset(seed=2)
    lines: list[str] = []
    answers = iter(["?", "x"])

    def answer(prompt: str) -> str:
        # "?", a bad answer, then the first legal action listed, every time after.
        nxt = next(answers, None)
        if nxt is not None:
            return nxt
        start = max(i for i, line in enumerate(lines) if line.endswith("your legal actions:"))
        return lines[start + 1].split(":")[0].strip()

    # env_id None: the agent's own check of the id waits for the game's registration.
    human = HumanAgent(input_fn=answer, output=lines.append)
    moves = 0
    for agent in env.agent_iter(max_iter=60):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(human.act(env, agent))
        moves += 1
    text = "\n".join(lines)
    assert moves > 30
    assert "Traits:\n  Aggression:" in text and "your hand:" in text  # the ? text
    assert "'x' is not a number" in text
    assert "Mystick Cross" in text or "draw a card (Draw Count" in text
    listed = "\n".join(line for line in lines if re.match(r"\s+\d+: ", line))
    assert "play it / resolve" not in listed and "target the Pawn in slot" not in listed  # no raw meanings


@pytest.mark.skipif(
    "mystick_domination_v0" not in __import__("mystic_envs").ENV_IDS,
    reason="agents.play takes the game once it is registered in mystic_envs (helper F's last step)",
)
def test_agents_play_at_four_players_against_random_to_the_end():
    from agents.play import main as play_main

    lines: list[str] = []

    def answer(prompt: str) -> str:
        start = max(i for i, line in enumerate(lines) if line.endswith("your legal actions:"))
        return next(m.group(1) for line in lines[start:] if (m := re.match(r"\s+(\d+): ", line)))

    argv = [
        "mystick_domination_v0",
        "--num-players",
        "4",
        "--opponent",
        "random",
        "--seed",
        "1",
        "--seat",
        "0",
    ]
    assert play_main(argv, input_fn=answer, output=lines.append) == 0
    text = "\n".join(lines)
    assert "against 3 x random" in lines[0] and "Final table:" in text and "Winner:" in text
    assert re.search(r"player_[123] \(random\) (plays|draws|challenges|attaches|uses|marks|keeps)", text)


def test_any_discard_pile_can_be_browsed_at_the_terminal_and_on_the_page():
    from agents.web import draw_mystick_domination as draw

    s = table(discards={1: ["Ace of Swords", "Two of Swords", "The Magician"]})  # The Magician on top
    text = table_effects(s, viewer=0)
    pile = text.split("player_1:")[1].split("discard pile (3, top first):")[1].splitlines()[1:4]
    assert [line.split(": ")[0].strip() for line in pile] == ["1", "2", "3"]
    assert "The Magician" in pile[0] and "Two of Swords" in pile[1] and "Ace of Swords" in pile[2]
    picture = draw.draw(s, 0)
    tip = re.search(r"<title>player_1&#x27;s discard pile, top first: ([^<]*)</title>", picture)
    assert tip is not None, "the page's discard pile has no list to browse"
    listed = tip.group(1)
    assert listed.index("The Magician") < listed.index("Two of Swords") < listed.index("Ace of Swords")


def test_seize_the_day_names_the_seat_it_lets_move_first():
    s = table(decks=["swords_pentacles", "wands_cups"], hands={0: ["King of Swords"]}, draw_count=2,
              tops={0: ["Ace of Pentacles"], 1: ["Two of Wands", "King of Cups"]})  # fmt: skip
    play(s, (0, "play King of Swords"), (1, "draw"))
    assert describe_action(s, action(s, "player 1"), 0) == (
        "let player_1 make the first move of the round (King of Swords)"
    )
    assert describe_action(s, action(s, "player 0"), 1) == (
        "player_0 lets themselves make the first move of the round (King of Swords)"
    )
