"""Move-script helpers for Mystria rule tests: scripts are lists of readable moves.

``"keep Crook"``, ``"score red"`` (the second player's score token on the highest free value),
``"move B2 to A1"``, ``"flip C3"``, ``"take C3"``, ``"place 5"``. Each move is checked against the
mover's legal actions (a move also against its stated direction), so a script that breaks a rule
fails loudly. Boards are written as strings: a stack as its tokens top first (``"RGB"``), a Magician
board as three rows of four places (``"PPPR GRRR BBBP"``, ``.`` for an empty place).
"""

from __future__ import annotations

import itertools

from mystic_envs.mystria import rules
from mystic_envs.mystria.board import COLOUR_NAMES, MOVE_PAIRS, NUM_COLOURS, OBJECTIVES, SPACE_INDEX
from mystic_envs.mystria.rules import MystriaGame, MystriaState

LETTER = {"P": 0, "G": 1, "B": 2, "R": 3}
COLOUR = {name: i for i, name in enumerate(COLOUR_NAMES)}
TILE = {t.name: i for i, t in enumerate(OBJECTIVES)}


def action(move: str) -> int:
    verb, _, rest = move.partition(" ")
    if verb == "keep":
        return rules.KEEP + TILE[rest]
    if verb == "score":
        return rules.ASSIGN + COLOUR[rest]
    if verb == "move":
        a, b = (SPACE_INDEX[name] for name in rest.split(" to "))
        return rules.MOVE + MOVE_PAIRS.index((min(a, b), max(a, b)))
    if verb == "flip":
        return rules.FLIP + SPACE_INDEX[rest]
    if verb == "take":
        return rules.TAKE + SPACE_INDEX[rest]
    if verb == "place":
        return rules.PLACE + int(rest) - 1
    raise ValueError(f"unknown move {move!r}")


def stack(tokens: str) -> tuple[int, ...]:
    return tuple(LETTER[t] for t in tokens)


def new_state(variant: str = "full", first: int = 0, seed: int = 0) -> MystriaState:
    """A fresh game (first deal of the seeds from ``seed`` on) whose first player is ``first``."""
    game = MystriaGame(variant=variant)
    for s in itertools.count(seed):
        state = game.new_initial_state(s)
        if state.first == first:
            return state
    raise AssertionError("unreachable")


def play(s: MystriaState, moves: list[tuple[int, str]]) -> None:
    """Apply ``(seat, move)`` pairs, checking the seat to move and a move's direction."""
    for seat, move in moves:
        assert s.current_player == seat, f"{move!r}: expected player_{seat} to move, got {s.current_player}"
        if move.startswith("move "):
            src, dst = (SPACE_INDEX[n] for n in move[5:].split(" to "))
            assert s.stacks[src] and not s.stacks[dst], f"{move!r} does not go from a stack to an empty space"
        s.apply(action(move))
        s.check_invariants()


def start(
    s: MystriaState, values: tuple[str, str, str] = ("red", "blue", "green"), keep: str | None = None
) -> None:
    """Play the setup decisions left: both magicians keep their first tile (full rules; ``keep``
    names the second player's), then the second player puts ``values`` on the score board, highest
    value first."""
    first, second = s.first, 1 - s.first
    if s.phase_name == "keep_objective":
        play(s, [(first, f"keep {OBJECTIVES[s.drawn[first][0]].name}")])
        play(s, [(second, f"keep {keep or OBJECTIVES[s.drawn[second][0]].name}")])
    play(s, [(second, f"score {c}") for c in values])


def set_board(s: MystriaState, board: dict[str, str], magician_boards: tuple[str, str] | None = None) -> None:
    """The central board (space name -> stack, top first; other spaces empty) and, if given, both
    Magician boards; the bag holds the rest."""
    if magician_boards is not None:
        s.masks = [magician_masks(magician_boards[0]), magician_masks(magician_boards[1])]
    s.set_board({name: stack(tokens) for name, tokens in board.items()})


def magician_masks(rows: str) -> list[int]:
    """Per-colour place masks of a Magician board written as rows of four (``.`` = empty)."""
    places = rows.replace(" ", "")
    assert len(places) == 12, rows
    masks = [0] * NUM_COLOURS
    for i, t in enumerate(places):
        if t != ".":
            masks[LETTER[t]] |= 1 << i
    return masks
