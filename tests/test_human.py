"""The human agent and ``python -m agents.play``, driven by scripted input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mystic_envs
from agents import make_agent
from agents.human import PROMPT, HumanAgent, QuitGame, action_label, table_effects
from agents.play import main
from mystic_envs.elemystic.cards import ELEMENT_NAMES

ROOT = Path(__file__).resolve().parents[1]
ENV_ID = "elemystic_v0"


class Terminal:
    """Scripted ``input_fn`` and collecting ``output``: answers are strings or ``f(terminal)``."""

    def __init__(self, answers=()):
        self.answers = iter(answers)
        self.lines: list[str] = []  # everything shown, prompts included

    def input(self, prompt: str) -> str:
        self.lines.append(prompt)
        try:
            answer = next(self.answers)
        except StopIteration:
            raise EOFError from None
        return answer(self) if callable(answer) else answer

    def output(self, text: str) -> None:
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def first_listed_action(term: Terminal) -> str:
    """The first number of the last action list printed: what a hurried player would type."""
    start = max(i for i, line in enumerate(term.lines) if line.endswith("your legal actions:"))
    return next(m.group(1) for line in term.lines[start:] if (m := re.match(r"\s+(\d+): ", line)))


def always(choose):
    while True:
        yield choose


def fresh_env(seed: int = 0):
    env = mystic_envs.make(ENV_ID, illegal_action="raise")
    env.reset(seed=seed)
    return env


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("x", r"^'x' is not a number; type one of [\d, ]+ \(q to quit\)\.$"),
        ("", r"^Type the number of an action: [\d, ]+ \(q to quit\)\.$"),
        ("   ", r"^Type the number of an action"),
        ("ILLEGAL", r"^Action \d+ is not legal now; type one of"),
        ("999", r"^There is no action 999; type one of"),
        ("-1", r"^There is no action -1; type one of"),
        ("2.5", r"^'2.5' is not a number"),
    ],
)
def test_bad_input_is_answered_in_one_line_and_asked_again(bad, message):
    env = fresh_env()
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    illegal = next(a for a in range(env.action_space(agent).n) if a not in legal)
    bad = str(illegal) if bad == "ILLEGAL" else bad
    term = Terminal([bad, f" {legal[-1]} "])
    assert HumanAgent(ENV_ID, input_fn=term.input, output=term.output).act(env, agent) == legal[-1]
    assert term.lines.count(PROMPT) == 2
    reply = term.lines[term.lines.index(PROMPT) + 1]
    assert "\n" not in reply and re.search(message, reply), reply


def test_several_bad_answers_then_a_legal_one():
    env = fresh_env(1)
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    illegal = next(a for a in range(env.action_space(agent).n) if a not in legal)
    term = Terminal(["x", str(illegal), "1000", "", str(legal[0])])
    assert HumanAgent(input_fn=term.input, output=term.output).act(env, agent) == legal[0]
    assert term.lines.count(PROMPT) == 5


def test_the_table_and_legal_actions_numbered_by_action_id_are_shown():
    env = fresh_env(2)
    agent = env.agent_selection
    seat = env.unwrapped.agent_name_mapping[agent]
    legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    term = Terminal([str(legal[0])])
    HumanAgent(input_fn=term.input, output=term.output).act(env, agent)
    assert term.lines[0] == env.unwrapped.game_state.describe(viewer=seat)
    listed = [line for line in term.lines if re.match(r"\s+\d+: ", line)]
    state = env.unwrapped.game_state
    width = len(str(legal[-1]))
    assert listed == [f"  {a:>{width}}: {action_label(state, a, viewer=seat)}" for a in legal]
    # The mover's own labels are imperatives with the card's numbers: "draft Fire [S3 D0 | ...]".
    assert all(re.fullmatch(r"\s+\d+: draft \w+ \[S\d D\d \| IS\d ID\d Sp\d\]", line) for line in listed), (
        listed
    )


@pytest.mark.parametrize("answers", [["q"], ["quit"], [" Q "], ["x", "QUIT"], []], ids=str)
def test_q_quit_and_end_of_input_raise_quit_game(answers):
    env = fresh_env()
    term = Terminal(answers)
    with pytest.raises(QuitGame):
        HumanAgent(input_fn=term.input, output=term.output).act(env, env.agent_selection)


def test_seed_and_env_id_are_accepted_and_ignored():
    shown = []
    for kwargs in ({"env_id": ENV_ID, "seed": 3}, {"env_id": None, "seed": None}, {"seed": 7}):
        env = fresh_env(5)
        term = Terminal(["x", "q"])
        with pytest.raises(QuitGame):
            HumanAgent(**kwargs, input_fn=term.input, output=term.output).act(env, env.agent_selection)
        shown.append(term.lines)
    assert shown[0] == shown[1] == shown[2]


def human_prompts(env, agent, state, choice: int) -> list[str]:
    """Everything ``HumanAgent`` shows ``agent`` when the env holds ``state``, then restores the env."""
    real = env.unwrapped.game_state
    env.unwrapped.game_state = state
    try:
        term = Terminal([str(choice)])
        assert HumanAgent(input_fn=term.input, output=term.output).act(env, agent) == choice
    finally:
        env.unwrapped.game_state = real
    return term.lines


@pytest.mark.parametrize("seat", [0, 1])
def test_prompts_never_show_the_opponents_hidden_secret(seat):
    """Two checks, both sound where a plain search for the secret's name is not (that name may be a
    drafted card, a past front or part of a token's text):

    - what the human is shown cannot change when everything hidden from its seat is re-dealt
      (``determinize``), and the re-deal did change the opponent's secret many times;
    - in round 1, where neither name has any public reason to appear, the Unknown Element never
      shows and the opponent's secret shows only once it is visible (played face up).
    """
    changed = checked_round_one = 0
    rng = np.random.default_rng(seat)
    for seed in range(20):
        env = fresh_env(seed)
        you = env.possible_agents[seat]
        opponent = make_agent("heuristic", ENV_ID, seed=seed)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if agent != you:
                env.step(opponent.act(env, agent))
                continue
            state = env.unwrapped.game_state
            choice = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
            shown = human_prompts(env, agent, state, choice)
            for k in range(3):
                other = state.determinize(seat, np.random.default_rng(seed * 1000 + k))
                changed += other.secret[1 - seat] != state.secret[1 - seat]
                assert human_prompts(env, agent, other, choice) == shown
            if state.round == 1:
                text = "\n".join(shown)
                assert not re.search(rf"\b{ELEMENT_NAMES[state.unknown]}\b", text)
                if not state.secret_visible_to(seat):
                    checked_round_one += 1
                    assert not re.search(rf"\b{ELEMENT_NAMES[state.secret[1 - seat]]}\b", text), text
                assert f"+ 1 secret ({ELEMENT_NAMES[state.secret[seat]]})" in text or not (
                    state.hand[seat] >> state.secret[seat] & 1
                )
            env.step(choice)
    assert changed > 50 and checked_round_one > 50


@pytest.mark.parametrize(
    ("opponent", "seat"), [("heuristic", "0"), ("random", "1"), ("mcts:simulations=5", "random")]
)
def test_play_main_runs_a_full_game_to_a_winner(opponent, seat):
    term = Terminal(always(first_listed_action))
    argv = [ENV_ID, "--opponent", opponent, "--seat", seat, "--seed", "4"]
    assert main(argv, input_fn=term.input, output=term.output) == 0
    you = re.search(r"you are (player_\d)", term.lines[0]).group(1)
    assert term.lines[-2].startswith("Winner: player_") or term.lines[-1].startswith("Winner: player_")
    assert term.lines[-1] in ("You win!", "You lose.")
    assert any(line.startswith("\nFinal table:\n") for line in term.lines)
    rewards = [line for line in term.lines if re.match(r"  player_\d \((you|.+)\): [+-]\d", line)]
    assert len(rewards) == 2 and any(f"{you} (you)" in line for line in rewards)
    # The opponent's moves in the third person: "player_1 (random) drafts Fire".
    opponent_moves = [
        line
        for line in term.lines
        if re.match(rf"player_\d \({re.escape(opponent)}\) (drafts|plays|uses) ", line)
    ]
    assert opponent_moves


def test_play_main_first_table_hides_the_opponents_secret():
    term = Terminal(["q"])
    assert main([ENV_ID, "--seat", "0", "--seed", "9"], input_fn=term.input, output=term.output) == 130
    state = fresh_env(9).unwrapped.game_state  # the same deal as the game above
    table = next(line for line in term.lines if line.startswith("Elemystic - round 1"))
    for hidden in (state.secret[1], state.unknown):
        assert not re.search(rf"\b{ELEMENT_NAMES[hidden]}\b", table), table
    assert f"+ 1 secret ({ELEMENT_NAMES[state.secret[0]]})" in table


def test_play_main_never_names_the_objective_tile_an_opponent_keeps():
    # Mystria, full rules: player_1 (the opponent) keeps a tile before the human's first decision
    # with this seed; its move line must not say which one, while the human's own keep is named.
    term = Terminal(always(first_listed_action))
    assert main(["mystria_v0", "--seat", "0", "--seed", "3"], input_fn=term.input, output=term.output) == 0
    opponent_keeps = [line for line in term.lines if re.match(r"player_1 \(heuristic\) keeps", line)]
    own_keeps = [line for line in term.lines if re.match(r"player_0 \(you\): keep", line)]
    assert opponent_keeps and own_keeps
    assert all("face down" in line and "points" not in line for line in opponent_keeps), opponent_keeps
    assert all("Objective tile" in line and "points" in line for line in own_keeps), own_keeps


def test_play_main_is_reproducible_from_its_seed():
    runs = []
    for _ in range(2):
        term = Terminal(always(first_listed_action))
        main([ENV_ID, "--seed", "11"], input_fn=term.input, output=term.output)
        runs.append(term.lines)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("answers", [["q"], ["quit"], []], ids=["q", "quit", "eof"])
def test_play_main_quit_prints_game_abandoned_and_returns_130(answers):
    term = Terminal(answers)
    assert main([ENV_ID, "--seed", "0"], input_fn=term.input, output=term.output) == 130
    assert term.lines[-1].strip() == "game abandoned"


def test_play_main_ctrl_c_is_abandoned_too():
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    lines: list[str] = []
    assert main([ENV_ID, "--seed", "0"], input_fn=interrupt, output=lines.append) == 130
    assert lines[-1].strip() == "game abandoned"


@pytest.mark.parametrize("stdin", ["q\n", ""], ids=["q", "eof"])
def test_command_exits_130_without_a_traceback(stdin):
    proc = subprocess.run(
        [sys.executable, "-m", "agents.play", ENV_ID, "--opponent", "random", "--seed", "0"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 130, proc.stderr
    assert "game abandoned" in proc.stdout
    assert "Traceback" not in proc.stderr + proc.stdout


@pytest.mark.parametrize(
    ("argv", "accepted"),
    [
        (["chess_v0"], r"invalid choice: 'chess_v0' \(choose from .*elemystic_v0"),
        (
            [ENV_ID, "--opponent", "alphazero"],
            r"unknown agent 'alphazero'; choose from random, heuristic, mcts",
        ),
        ([ENV_ID, "--opponent", "human"], r"unknown agent 'human'; choose from random, heuristic"),
        ([ENV_ID, "--opponent", "mcts:simulations"], r"bad options in agent 'mcts:simulations'"),
        ([ENV_ID, "--opponent", "heuristic:depth=3"], r"--opponent 'heuristic:depth=3' cannot be built"),
        ([ENV_ID, "--seat", "2"], r"--seat must be random or a seat from 0 to 1, got '2'"),
        ([ENV_ID, "--seed", "-1"], r"--seed must be a non-negative integer"),
    ],
)
def test_bad_arguments_are_one_line_usage_errors(argv, accepted, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv, input_fn=Terminal().input, output=lambda text: None)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("python -m agents.play: error: ")
    assert re.search(accepted, err[-1]), err[-1]


# -- labels that fit the phase and the speaker; the ? command ------------------------------------------


def _positions(env_id: str, seed: int, moves: int):
    """The states of a heuristic game, one per move, with the move played from each."""
    env = mystic_envs.make(env_id)
    env.reset(seed=seed)
    players = [make_agent("heuristic", env_id, seed=s) for s in range(2)]
    out = []
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated or len(out) == moves:
            break
        action = players[env.unwrapped.agent_name_mapping[agent]].act(env, agent)
        out.append((env.unwrapped.game_state.clone(), action))
        env.step(action)
    return out


def test_tarot_dice_draft_labels_name_the_draft_not_every_use_of_a_major():
    state, _ = _positions("tarot_dice_v0", 0, 1)[0]
    me = state.current_player
    labels = [action_label(state, a, viewer=me) for a in state.legal_actions()]
    assert all(re.fullmatch(r"draft (The )?[A-Z][\w ]+", label) for label in labels), labels
    assert "draft The Sun" in labels and not any("trigger" in label for label in labels)
    assert action_label(state, state.legal_actions()[0], viewer=1 - me).startswith(f"player_{me} drafts ")


def test_tarot_dice_opponent_moves_are_told_in_the_third_person():
    seen = 0
    for state, action in _positions("tarot_dice_v0", 1, 200):
        mover = state.current_player
        mine = action_label(state, action, viewer=mover)
        theirs = action_label(state, action, viewer=1 - mover, name="player_x (heuristic)")
        assert theirs.startswith("player_x (heuristic) ") and not mine.startswith("player_")
        # Dice keep their owners: the mover's are "their" dice for the other seat, never "your".
        if "your D" in mine and "capture" not in mine:
            seen += 1
            assert "their D" in theirs and "your D" not in theirs, (mine, theirs)
    assert seen > 5


def test_tarot_dice_table_shows_what_the_symbol_dice_do():
    state, _ = _positions("tarot_dice_v0", 0, 1)[0]
    text = state.describe()
    assert "  Venus: At the end of your turn, roll one die you control." in text
    assert "  Virgo: Capturing is not allowed while Virgo is showing." in text


def test_mystria_labels_name_spaces_and_keep_a_kept_tile_secret():
    states = _positions("mystria_v0", 3, 30)
    keep_state, keep = states[0]
    mover = keep_state.current_player
    assert re.fullmatch(
        r"keep Objective tile .+ \(\d points: places [\d ]+\)", action_label(keep_state, keep, mover)
    )
    assert (
        action_label(keep_state, keep, 1 - mover)
        == f"player_{mover} keeps one of the two Objective tiles drawn, face down"
    )
    texts = [action_label(s, a, viewer=None) for s, a in states]
    assert any(
        re.search(r"(moves the stack \w+ on [A-E]\d to [A-E]\d|flips the stack on [A-E]\d)", t) for t in texts
    )
    assert any(re.search(r"takes the top token \(\w+\) on [A-E]\d", t) for t in texts)
    assert any(re.search(r"places the \w+ token on place \d+ of their board", t) for t in texts)
    board = states[-1][0].describe()
    assert re.search(r"A1:\S+\s+-+\s+A2:", board) and " 1" in board and "12" in board
    assert re.search(r"B2:\*\s+-+\s+B3:", keep_state.describe())  # a star space, empty at the deal


def test_mystria_final_table_breaks_the_score_down():
    term = Terminal(always(first_listed_action))
    assert main(["mystria_v0", "--seat", "0", "--seed", "3"], input_fn=term.input, output=term.output) == 0
    final = next(line for line in term.lines if line.startswith("\nFinal table:\n"))
    rows = re.findall(
        r"player_\d: colours (\d+) \+ objective (\d+) \+ Majority (\d+) \+ drops (\d+) = (\d+)", final
    )
    assert len(rows) == 2 and all(sum(map(int, r[:4])) == int(r[4]) for r in rows), final


def test_elemystic_shows_each_rounds_fight():
    states = _positions("elemystic_v0", 2, 40)
    later = next(s for s, _ in states if s.last_round is not None)
    text = later.describe()
    assert re.search(
        r"player_\d attacks first \((Speed \d+ against \d+|Speeds tied at \d+: Play First)\)", text
    )
    attacks = re.findall(
        r"player_\d attacks: Strength (\d+) against Defense (\d+): (no damage|(\d+) damage)", text
    )
    assert attacks and all(int(dmg or 0) == max(int(s) - int(d), 0) for s, d, _, dmg in attacks)


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_question_mark_prints_the_effects_and_asks_again(env_id):
    env = mystic_envs.make(env_id)
    env.reset(seed=0)
    agent = env.agent_selection
    seat = env.unwrapped.agent_name_mapping[agent]
    legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
    term = Terminal(["?", str(legal[0])])
    assert HumanAgent(env_id, input_fn=term.input, output=term.output).act(env, agent) == legal[0]
    assert term.lines.count(PROMPT) == 2
    effects = term.lines[term.lines.index(PROMPT) + 1]
    assert effects == table_effects(env.unwrapped.game_state, viewer=seat) and len(effects) > 100


@pytest.mark.parametrize("env_id", mystic_envs.ENV_IDS)
def test_labels_and_effects_hide_what_the_viewer_cannot_see(env_id):
    """A viewer's labels and ``?`` text cannot change when what it cannot see is re-dealt."""
    rng = np.random.default_rng(0)
    for state, action in _positions(env_id, 4, 60):
        for viewer in (0, 1):
            other = state.determinize(viewer, np.random.default_rng(int(rng.integers(2**32))))
            assert table_effects(other, viewer) == table_effects(state, viewer)
            if state.current_player != viewer:
                assert action_label(other, action, viewer) == action_label(state, action, viewer)
