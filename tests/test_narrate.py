"""Every game's narration (``mystic_envs.<game>.narrate.events``, ``agents.human.table_events``):
it tells a seat nothing it cannot see (over random games at every player count, each seat's story
of each move is the same on the true deal and on a deal re-made for that seat by ``determinize``,
whenever that seat sees the same table after the move on both), and each game's events are told
with the numbers the engine used."""

from __future__ import annotations

import importlib
import itertools
import re

import numpy as np
import pytest
from recorded import recorded_game
from test_human import Terminal, first_listed_action

import mystic_envs
from agents import make_agent
from agents.demo import main as demo_main
from agents.play import main as play_main
from agents.records import RecordError, Replay, load_record
from agents.replay import run as replay_run
from mystic_envs.core.narration import action_label, table_events
from mystic_envs.mystick_domination.cards import CARDS
from mystic_envs.mystick_domination.decisions import ORDER
from mystic_envs.mystria.rules import SCORED

GAMES = [(env_id, n) for env_id in mystic_envs.ENV_IDS for n in mystic_envs.player_counts(env_id)]
# Games are played until this many (move, seat) stories are compared; long ones are cut short.
COMPARISONS = 300
MAX_MOVES = 300


def narrator(env_id: str):
    return importlib.import_module(f"mystic_envs.{env_id.removesuffix('_v0')}.narrate")


@pytest.mark.parametrize(("env_id", "n"), GAMES)
def test_no_narration_tells_a_seat_what_it_cannot_see(env_id: str, n: int) -> None:
    narrate = narrator(env_id)
    game = mystic_envs.make_raw(env_id, num_players=n).unwrapped.game
    pick = np.random.default_rng(n)
    compared = told = seed = 0
    while compared < COMPARISONS:
        seed += 1
        c, t = _compare_stories(narrate, game.new_initial_state(seed=seed), n, pick)
        compared, told = compared + c, told + t
    assert told > 10, told


def _compare_stories(narrate, state, n: int, pick: np.random.Generator) -> tuple[int, int]:
    """One random game: (stories compared, how many of them told something)."""
    compared = told = 0
    for _ in range(MAX_MOVES):
        if state.is_terminal:
            break
        action = int(pick.choice(state.legal_actions()))
        after = state.clone()
        after.apply(action)
        for seat in range(n):
            other = state.determinize(seat, np.random.default_rng(int(pick.integers(2**31))))
            other.rng = state.clone().rng  # the same chance stream: what no deal decides comes alike
            if not other.is_legal(action):
                continue  # a deal where the mover could not have made this move: not one to compare
            other_after = other.clone()
            other_after.apply(action)
            if not np.array_equal(after.observation(seat), other_after.observation(seat)):
                continue  # the move showed this seat something that differs between the deals
            story = narrate.events(state, after, viewer=seat)
            assert story == narrate.events(other, other_after, viewer=seat), (action, seat)
            compared += 1
            told += bool(story)
        state = after
    return compared, told


def stories(env_id: str, n: int, games: int, viewer: int | None = None):
    """(before, after, story) for every move of ``games`` random games at ``n`` seats."""
    narrate = narrator(env_id)
    game = mystic_envs.make_raw(env_id, num_players=n).unwrapped.game
    pick = np.random.default_rng(0)
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        for _ in range(2000):
            if state.is_terminal:
                break
            after = state.clone()
            after.apply(int(pick.choice(state.legal_actions())))
            yield state, after, narrate.events(state, after, viewer=viewer)
            state = after


def test_elemystic_tells_each_fight_with_what_makes_its_totals():
    fights = 0
    for before, after, story in stories("elemystic_v0", 2, 6, viewer=0):
        r = after.last_round
        if r is None or r is before.last_round:
            assert story == []
            continue
        fights += 1
        assert story[0].startswith(f"Round {r.round} fight: your column has ")
        for a in r.attacks:
            # Every total is told with the cards and tokens that make it, and they add up.
            assert sum(x for _, x in a.strength_parts) == a.strength
            assert sum(x for _, x in a.defense_parts) == a.defense
            who = "You attack" if a.attacker == 0 else "player_1 attacks"
            line = next(s for s in story if f"{who} with Strength {a.strength} (" in s)
            assert f"against Defense {a.defense} (" in line
            assert (f": {a.damage} damage." if a.damage else "no damage") in line
        assert f"Your Energy: {after.energy[0]}." in story
    assert fights >= 10


def test_tarot_dice_tells_every_roll_capture_and_effect():
    seen: set[str] = set()
    for _, after, story in stories("tarot_dice_v0", 2, 4):
        assert len(story) >= len(after.log)  # one line per logged event (the match's end adds one)
        for entry, line in zip(after.log, story, strict=False):
            seen.add(entry[0])
            if entry[0] in ("roll", "set") and entry[1] < 12:
                owner, value = divmod(entry[1], 6)[0], entry[3]
                assert line.startswith(f"player_{owner}'s D")
                assert (f" rolls {value}" if entry[0] == "roll" else f" is set to {value} ") in line
            if entry[0] == "capture":
                assert line.startswith(f"player_{entry[1]} captures ")
    assert seen >= {"roll", "set", "zodiac", "planet", "major", "capture", "round_end", "round_roll"}


def test_mystick_domination_tells_initiative_fate_challenges_and_rounds():
    seen: set[str] = set()
    for _, after, story in stories("mystick_domination_v0", 3, 3):
        kinds = {entry[0] for entry in after.log}
        seen |= kinds
        if "challenge" in kinds:
            successes, moved, _ = after.last_challenge
            line = next(s for s in story if " challenges " in s)
            assert f": {successes} success" in line
            assert (f"{moved} Power moves" if moved else "no Power moves") in line
        if "fate" in kinds:
            q, cards = next(e[1:] for e in after.log if e[0] == "fate")
            assert f"Fate for player_{q}'s challenge: {', '.join(CARDS[c].name for c in cards)}." in story
    assert seen >= {"initiative", "initiative_winner", "fate", "challenge", "effect", "round_end", "out"}


def test_mystic_vale_tells_harvests_vp_tokens_and_spoils():
    harvests = spoils = tokens = 0
    for before, after, story in stories("mystic_vale_v0", 2, 3):
        for line in story:
            if " harvests " in line:
                harvests += 1
                assert line.startswith(f"player_{after.active} harvests {after.h_mana} mana, spirits: ")
                assert f"{after.h_vp} VP token" in line
            spoils += " spoiled" in line
            if " takes " in line and " VP token" in line:
                tokens += 1
                q = int(line.split()[0].removeprefix("player_"))
                assert line.startswith(f"player_{q} takes {after.tokens[q] - before.tokens[q]} VP token")
    assert harvests >= 10 and spoils and tokens


def test_mystria_tells_the_final_scoring_by_colour_objective_and_majority():
    scored = 0
    for env_seed in range(30):
        env = mystic_envs.make("mystria_v0")
        env.reset(seed=env_seed)
        state = env.unwrapped.game_state
        agent = make_agent("heuristic", "mystria_v0", seed=env_seed)
        while not state.is_terminal:
            before = state.clone()
            env.step(agent.act(env, env.agent_selection))
            state = env.unwrapped.game_state
        story = narrator("mystria_v0").events(before, state, viewer=1)
        if state.end_reason != SCORED:
            continue
        scored += 1
        for q, whose in ((0, "player_0's"), (1, "Your")):
            s = state.score(q)
            assert (
                f"{whose} scoring: colours {s.colours}, objective {s.objective} " in story[-3 + q]
                and f"majority {s.majority}, drops {s.drops}: {s.total} points." in story[-3 + q]
            )
        ending = r"(You win|player_0 wins)(\.| on drops left, the points being level\.)"
        assert re.fullmatch(ending, story[-1])
        if scored == 3:
            break
    assert scored


LARGEST = [(env_id, max(mystic_envs.player_counts(env_id))) for env_id in mystic_envs.ENV_IDS]


@pytest.mark.parametrize(("env_id", "n"), LARGEST)
def test_records_carry_each_moves_labels_and_what_the_table_saw_it_cause(env_id: str, n: int) -> None:
    kwargs = {} if n == 2 else {"num_players": n}
    record = recorded_game(env_id, 3, **kwargs)
    replay = Replay(record)
    before, told = replay.initial_state, 0
    for entry, step in zip(record["actions"], replay, strict=True):
        assert entry["label"] == action_label(before, step.action, viewer=step.player)
        assert entry["public_label"] == action_label(before, step.action)
        assert entry["events"] == table_events(before, step.state)
        told += bool(entry["events"])
        before = step.state
    assert told
    # Records from before the labels (no label, public_label or events) still load and replay.
    for entry in record["actions"]:
        for key in ("label", "public_label", "events"):
            del entry[key]
    assert len(Replay(load_record(record)).run()) == len(record["actions"])
    record["actions"][0]["events"] = "rolled"
    with pytest.raises(RecordError, match=r"actions\[0\]\.events must be a list of strings"):
        load_record(record)


def test_labels_name_the_card_die_or_target_for_the_mover_and_the_table():
    """The bare index names (``action_meaning``) never reach a player where a state is at hand:
    each front end's label names the thing acted on, in the imperative for the mover and in the
    third person for everyone else; OpenSpiel's ``action_to_string`` is the same label."""
    game = mystic_envs.make_raw("tarot_dice_v0").unwrapped.game
    for state, _, _ in stories("tarot_dice_v0", 2, 1):
        captures = [a for a in state.legal_actions() if game.action_meaning(a).startswith("capture")]
        if captures:
            break
    mover, capture = state.current_player, captures[0]
    mine = action_label(state, capture, viewer=mover)
    assert re.fullmatch(r"capture player_\d's D\d+ with your D\d+", mine), mine
    assert action_label(state, capture, viewer=1 - mover).startswith(f"player_{mover} captures your D")

    vale = mystic_envs.make_raw("mystic_vale_v0").unwrapped.game
    bare = vale.action_meaning(0)  # "done / decline / keep / accept the spoil / full price"
    said = 0
    for before, _, _ in stories("mystic_vale_v0", 2, 1):
        if 0 in before.legal_actions():
            said += 1
            assert action_label(before, 0, viewer=before.current_player) != bare
            assert not action_label(before, 0).endswith(bare)
    assert said

    for before, _, _ in stories("mystick_domination_v0", 2, 1):
        mover = before.current_player
        for a in before.legal_actions():
            meaning = before.game.action_meaning(a)
            if meaning.startswith("card ") and meaning.endswith(": play it / resolve its effect next"):
                card = meaning.removeprefix("card ").split(":")[0]
                # The same index plays a card from the hand, or picks which waiting effect resolves next.
                if before.phase == ORDER:
                    assert action_label(before, a, viewer=mover).startswith(f"resolve {card} (")
                else:
                    assert action_label(before, a, viewer=mover).startswith(f"play {card} (")
                    assert action_label(before, a).startswith(f"player_{mover} plays {card} (")


@pytest.mark.parametrize(("env_id", "n"), LARGEST)
def test_every_action_index_has_a_label_in_every_position(env_id: str, n: int) -> None:
    """OpenSpiel's ``action_to_string`` may be asked about any index, legal or not."""
    for before, _, _ in stories(env_id, n, 1):
        for a in range(len(before.legal_mask())):
            for viewer in (None, before.current_player):
                assert action_label(before, a, viewer=viewer)


def test_the_terminal_and_the_replay_tell_each_moves_story(tmp_path):
    """``agents.play`` prints the story after each move, as the human's seat may know it;
    ``agents.replay`` prints it, indented, under each move, as the chosen seat could know it."""
    term = Terminal(itertools.repeat(first_listed_action))
    path = tmp_path / "game.json"
    argv = ["elemystic_v0", "--seat", "0", "--seed", "5", "--save", str(path)]
    assert play_main(argv, input_fn=term.input, output=term.output) == 0
    assert any(line.startswith("Round 1 fight: your column has ") for line in term.lines)
    attack = r"(You attack|player_1 \(heuristic\) attacks) with Strength \d+ \(\d+ "
    assert any(re.search(attack, line) for line in term.lines)

    shown: list[str] = []
    steps = len(load_record(path)["actions"])
    forward = iter(["n"] * steps + ["q"])
    assert replay_run(path, seat=1, input_fn=lambda _: next(forward), output=shown.append) == 0
    text = "\n".join(shown)
    assert "\n  Round 1 fight: player_0 (human)'s column has " in text
    assert "\n  Your Energy: " in text


def test_the_demo_tells_what_each_move_caused_as_the_table_saw_it(capsys):
    assert demo_main(["--env", "tarot_dice_v0", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    first_roll = r"^  A new round: every numbered die is rolled: player_0 \(heuristic\)'s D4 \d+"
    assert re.search(first_roll, out, re.M)
    assert re.search(r"^  player_\d \((heuristic|random)\)'s D\d+ rolls \d+ \(was \d+\)\.$", out, re.M)
