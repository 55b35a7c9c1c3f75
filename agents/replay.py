"""Step through a game record at the terminal, or re-run it to the end and check it.

python -m agents.replay RECORD [--seat P] [--to-end]

RECORD is a record file (``agents.records``: written by ``agents.play --save``, by
``training.evaluate --save-games N`` and by the web page). The game is re-played from its env id,
keywords and seed, each recorded action checked as it comes (the player to move, its legality, its
action meaning), and at the end the scores, winners, rewards and end reason. Each position is shown
with ``describe()``: the public table by default, or as seat ``P`` saw it with ``--seat P``; each
move as that seat heard it (``agents.human.action_label``), then what it caused as that seat
could know it (``agents.human.table_events``: the dice rolled, a challenge's Fate cards, a
fight's totals, a harvest, the final scoring).

Interactive commands: Enter or ``n`` one move forward, ``b`` one back, ``e`` to the end, ``?`` what
the things on the table do, ``q`` (or end of input) quits. ``--to-end`` re-runs the whole record
without asking and prints the final table and the result. The exit status is 0 when the record
is reproduced (or the viewer quits before a divergence), 1 with a one-line error when the record
is malformed or the engine no longer reproduces it (the error names the step, and the library
version that made the record if it is not this one), 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agents.human import action_label, table_effects, table_events
from agents.records import RecordError, Replay, ReplayStep, load_record

FORWARD, BACK, END, QUIT, HELP = ("", "n"), ("b",), ("e",), ("q", "quit"), ("?", "help")
PROMPT = "[Enter/n] forward  [b] back  [e] end  [?] effects  [q] quit: "


def _seat_name(record: dict[str, Any], seat: int) -> str:
    return f"player_{seat} ({record['agents'][seat]})"


def move_line(record: dict[str, Any], before: Any, step: ReplayStep, viewer: int | None) -> str:
    """The move ``step`` as seat ``viewer`` heard it (None: an onlooker)."""
    label = action_label(before, step.action, viewer=viewer, name=_seat_name(record, step.player))
    if step.player == viewer:
        label = f"{_seat_name(record, step.player)}, you: {label}"
    return f"move {step.step + 1}: {label}" + (" [refused: illegal]" if step.illegal else "")


def event_lines(record: dict[str, Any], before: Any, after: Any, viewer: int | None) -> list[str]:
    """What the move between ``before`` and ``after`` caused, as seat ``viewer`` could know it."""
    names = [_seat_name(record, q) for q in range(record["num_players"])]
    return [f"  {line}" for line in table_events(before, after, viewer=viewer, names=names)]


def result_lines(record: dict[str, Any]) -> list[str]:
    result = record["result"]
    lines = [f"Result ({result['end_reason']}):"]
    for seat in range(record["num_players"]):
        score, reward = result["scores"][seat], result["rewards"][seat]
        lines.append(f"  {_seat_name(record, seat)}: score {score:g}, reward {reward:+g}")
    winners = [f"player_{s}" for s, won in enumerate(result["winners"]) if won]
    lines.append(f"  winner: {', '.join(winners) or 'none'}")
    return lines


class Viewer:
    """The positions of a replay, computed as far as they have been asked for."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.replay = Replay(record)
        self.record = self.replay.record
        self.states = [self.replay.initial_state]
        self.steps: list[ReplayStep] = []
        self._steps: Iterator[ReplayStep] = iter(self.replay)
        self.done = False

    def reach(self, position: int) -> int:
        """Compute up to ``position`` (states[position] exists afterwards, if the record is that long);
        returns the last position known. RecordError at a divergence."""
        while len(self.states) <= position and not self.done:
            try:
                step = next(self._steps)
            except StopIteration:
                self.done = True  # the result was checked too
                break
            self.steps.append(step)
            self.states.append(step.state)
        return len(self.states) - 1


def header(record: dict[str, Any], seat: int | None) -> str:
    seats = ", ".join(_seat_name(record, s) for s in range(record["num_players"]))
    view = "the public table" if seat is None else f"what player_{seat} saw"
    kwargs = ", ".join(f"{k}={v!r}" for k, v in record["kwargs"].items())
    return (
        f"{record['env_id']}{f' ({kwargs})' if kwargs else ''}, seed {record['seed']}: {seats}; "
        f"{len(record['actions'])} moves, recorded with mystic-envs {record['library_version']}. "
        f"Showing {view}."
    )


def run(
    path: str | Path,
    seat: int | None = None,
    to_end: bool = False,
    input_fn: Callable[[str], str] = input,
    output: Callable[[str], Any] = print,
) -> int:
    """The command without its argument parsing; returns the exit status."""
    try:
        record = load_record(path)
        if seat is not None and not 0 <= seat < record["num_players"]:
            raise RecordError(f"--seat must be a seat from 0 to {record['num_players'] - 1}, got {seat}")
        viewer = Viewer(record)
        output(header(record, seat))
        if to_end:
            viewer.reach(len(record["actions"]) + 1)
            output(f"Reproduced: {len(viewer.steps)} moves, the recorded result.")
            output("\nFinal table:\n" + viewer.states[-1].describe(viewer=seat))
            output("\n".join(result_lines(record)))
            return 0
        return _interactive(viewer, seat, input_fn, output)
    except RecordError as exc:
        output_error(str(exc))
        return 1


def output_error(message: str) -> None:
    print(f"python -m agents.replay: error: {' '.join(message.split())}", file=sys.stderr)


def _show(viewer: Viewer, position: int, seat: int | None, output: Callable[[str], Any]) -> None:
    record = viewer.record
    total = len(record["actions"])
    if position == 0:
        output(f"\n-- start (0 of {total} moves) --")
    else:
        step = viewer.steps[position - 1]
        output(f"\n-- after {position} of {total} moves --")
        output(move_line(record, viewer.states[position - 1], step, seat))
        for line in event_lines(record, viewer.states[position - 1], viewer.states[position], seat):
            output(line)
    output(viewer.states[position].describe(viewer=seat))
    if position == total and viewer.done:
        output("\n".join(result_lines(record)))


def _interactive(
    viewer: Viewer, seat: int | None, input_fn: Callable[[str], str], output: Callable[[str], Any]
) -> int:
    position = 0
    total = len(viewer.record["actions"])
    viewer.reach(1)  # the first step is checked before anything is shown
    _show(viewer, position, seat, output)
    while True:
        try:
            command = input_fn(PROMPT).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return 0
        if command in QUIT:
            return 0
        if command in HELP:
            output(table_effects(viewer.states[position], viewer=seat))
            continue
        if command in FORWARD:
            if position == total:
                output("This is the end of the game (b: back, q: quit).")
                continue
            position += 1
        elif command in BACK:
            if position == 0:
                output("This is the start of the game (Enter: forward, q: quit).")
                continue
            position -= 1
        elif command in END:
            position = total
        else:
            output(f"Unknown command {command!r}: Enter or n forward, b back, e end, ? effects, q quit.")
            continue
        # One further step computed and checked: the end shows the result only once it is verified.
        viewer.reach(position + 1)
        _show(viewer, position, seat, output)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agents.replay", description="Step through a game record, or re-run it to the end."
    )
    parser.add_argument("record", metavar="RECORD", type=Path, help="a game record (JSON)")
    parser.add_argument(
        "--seat", type=int, metavar="P", help="show what seat P saw (default: the public table)"
    )
    parser.add_argument(
        "--to-end", action="store_true", help="re-run the record without asking; print the end"
    )
    return parser


def main(
    argv: list[str] | None = None,
    input_fn: Callable[[str], str] = input,
    output: Callable[[str], Any] = print,
) -> int:
    args = build_parser().parse_args(argv)
    return run(args.record, seat=args.seat, to_end=args.to_end, input_fn=input_fn, output=output)


if __name__ == "__main__":
    sys.exit(main())
