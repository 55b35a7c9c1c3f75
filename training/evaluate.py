"""Round robin between agents on one env: win rates with 95% intervals, Elo ratings, seat statistics.

python -m training.evaluate --env elemystic_v0 --agents random heuristic [more ...] [--games 200]
    [--num-players N] [--variant NAME] [--env-kwarg KEY=VALUE ...] [--seed 0] [--workers N]
    [--out DIR] [--save-games N]
python -m training.evaluate --resume DIR [--games MORE] [--workers N]

An agent is a name from ``agents.AGENT_NAMES``, optionally with keyword options
(``mcts:simulations=200,c=1.4``), or the path of a saved model ending in ``.zip``. Every pairing
plays ``--games`` games, split equally over the seat orders, on ``--workers`` processes (default:
every core). Each game is seeded from ``--seed``, the pairing and the game index, so the results do
not depend on the number of workers. Writes ``results.json`` (everything, the command included),
``results.md`` (the tables it prints) and ``winrate.png`` to ``--out`` (default
``runs/eval/<env>-<timestamp>``). ``run_tournament`` does the same from Python, writing no
files but the chunk files of its ``run_dir``.

**Resumable.** The output folder is also the run folder: ``run.json`` (its settings, written before
the first game) and one file per finished chunk of :data:`CHUNK_GAMES` games of a pairing in a seat
order (``games/<pairing>/<first game>.json``), each written whole or not at all. Ctrl-C loses at
most the chunks in play and ends in one line that gives the command to continue:
``--resume DIR`` reads the settings from ``run.json``, plays only the missing chunks, and writes
the same results as an uninterrupted run (apart from the timing, and the commands that resumed it);
exit status 130. A larger ``--games`` with ``--resume`` extends a finished or interrupted run to
the results of a run of that many games; a flag that contradicts the run's settings is refused.
``--variant`` and ``--env-kwarg KEY=VALUE`` (repeatable) pass env keywords to every game
(``agents.cli``). ``--save-games N`` also writes the records (``agents.records``) of the first N
games of every pairing, which alternate over the seat orders, to ``records/<pairing>-<game>.json``
in the output folder; replay one with ``python -m agents.replay``.

With more than two players (``--num-players N``, default the env's own count) each pairing of A and B
is played as one agent against N - 1 copies of the other: A alone in each of the N seats, then B
alone in each, so every agent sits in every seat equally often. The results are then rank-based:
the lone agent's mean zero-sum reward ((players beaten - players lost to) / (N - 1), 0 between equals)
with a 95% normal interval, its win share (a win shared by k seats counts 1/k; 1/N between equals)
with a 95% Wilson interval, the same by seat, and openskill's Plackett-Luce ratings over every
game in place of Elo (``training.ratings.fit_openskill``).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import itertools
import json
import multiprocessing
import numbers
import os
import platform
import shlex
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

import mystic_envs
from agents import make_agent
from agents.cli import add_env_arguments
from agents.spec import AgentSpec, ConfigError, parse_agent_spec, resolve_model_path, table_options
from training.ratings import PRIOR_DRAWS, fit_elo, fit_openskill, mean_interval, wilson_interval
from training.run_files import file_part, write_atomic
from training.workers import one_thread_each

__all__ = [
    "AgentSpec",
    "ConfigError",
    "GameError",
    "check_out_dir",
    "default_workers",
    "main",
    "markdown_report",
    "parse_agent_spec",
    "play_game",
    "plot_matrix",
    "resolve_model_path",
    "run_tournament",
    "seat_orders",
    "write_outputs",
]

# Games per worker task, and per chunk file of a run folder. Fixed rather than derived from the worker
# count, so that an agent without a seed() method, which carries its random stream through a task,
# still plays the same games; a run folder keeps the value it was started with.
CHUNK_GAMES = 50
RUN_FILE = "run.json"  # a run folder's settings, which --resume reads
PROG = "python -m training.evaluate"
DEFAULT_GAMES = 200
DEFAULT_ENV = "elemystic_v0"
SPEC_HELP = "a name from agents.AGENT_NAMES, name:key=value,key=value, or a model path ending in .zip"


class GameError(RuntimeError):
    """A game raised: a bug in an agent or an env, never counted as a loss."""


def seat_orders(num_players: int) -> list[tuple[int, ...]]:
    """For each seat order a pairing is played in, the pairing member (0 or 1) in every seat.

    Pairings are of two agents. Each order seats one member alone against copies of the other in
    every other seat: member 0 alone in seat 0, 1, ..., then member 1 alone in each seat, so both
    sit in every seat equally often. With two players that is A-B and B-A.
    """
    orders = [
        tuple(other if seat != alone else lone for seat in range(num_players))
        for lone, other in ((0, 1), (1, 0))
        for alone in range(num_players)
    ]
    return list(dict.fromkeys(orders))


def lone_member(order: tuple[int, ...]) -> int:
    """The member (0 or 1) that sits alone in a seat order of more than two seats."""
    return 0 if order.count(0) == 1 else 1


# -- playing ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    """Games of one pairing in one seat order: the unit a worker builds its agents for."""

    env_id: str
    seed: int
    pairing: int
    members: tuple[AgentSpec, AgentSpec]
    order: tuple[int, ...]
    games: tuple[int, ...]
    num_players: int | None = None  # None: the env's default
    env_kwargs: tuple[tuple[str, Any], ...] = ()  # the other env keywords
    save_games: int = 0  # games 0 .. save_games - 1 of the pairing are recorded


@dataclass(frozen=True)
class _GameRecord:
    pairing: int
    game: int
    order: tuple[int, ...]
    rewards: tuple[float, ...]
    truncated: bool
    record: dict[str, Any] | None = None  # the game record, for the games --save-games keeps


def _game_seeds(seed: int, labels: tuple[str, str], game: int, num_seats: int) -> list[int]:
    """The env seed, then one seed per seat, for game ``game`` of the pairing ``labels``."""
    # Keyed by the labels rather than by list positions, so that adding or reordering agents leaves
    # every other pairing's games unchanged.
    pairing = int.from_bytes(hashlib.sha256("\0".join(labels).encode()).digest()[:8], "little")
    state = np.random.SeedSequence([seed, pairing, game]).generate_state(1 + num_seats, dtype=np.uint64)
    return [int(s) for s in state]


def play_game(
    env: Any, seat_agents: list[Any], env_seed: int, recorder: Callable[[Any], Any] | None = None
) -> tuple[tuple[float, ...], bool]:
    """One game through the AEC loop: every seat's final reward, and whether it was truncated.

    ``recorder(env)``, if given, is called after the reset and returns an ``agents.records.GameRecorder``
    that notes every step."""
    env.reset(seed=env_seed)
    notes = recorder(env) if recorder is not None else None
    final: dict[str, float] = {}
    truncated_any = False
    for agent_id in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent_id] = float(reward)
            truncated_any |= truncated
            action = None
        else:
            action = seat_agents[env.unwrapped.agent_name_mapping[agent_id]].act(env, agent_id)
        if notes is not None:
            notes.record(agent_id, action)
        env.step(action)
    return tuple(final[a] for a in env.possible_agents), truncated_any


def _play_task(task: _Task, on_game: Callable[[], None] | None = None) -> list[_GameRecord]:
    labels = (task.members[0].label, task.members[1].label)
    num_seats = len(task.order)
    # "raise": an illegal action is a bug in the agent, which must surface rather than lose quietly.
    kwargs = dict(task.env_kwargs)
    if task.num_players is not None:
        kwargs["num_players"] = task.num_players
    env = mystic_envs.make(task.env_id, illegal_action="raise", **kwargs)
    build_seeds = _game_seeds(task.seed, labels, task.games[0], num_seats)[1:]
    seat_agents = [
        make_agent(spec.name, task.env_id, seed=s, **table_options(spec, task.num_players))
        for spec, s in zip((task.members[m] for m in task.order), build_seeds, strict=True)
    ]
    records = []
    for game in task.games:
        env_seed, *agent_seeds = _game_seeds(task.seed, labels, game, num_seats)
        for agent, agent_seed in zip(seat_agents, agent_seeds, strict=True):
            reseed = getattr(agent, "seed", None)
            if callable(reseed):
                reseed(agent_seed)
        recorder = None
        if game < task.save_games:
            from agents.records import GameRecorder

            specs = [labels[m] for m in task.order]
            recorders: list[Any] = []

            def recorder(
                env: Any, specs: list[str] = specs, seed: int = env_seed, out: list = recorders
            ) -> Any:
                out.append(GameRecorder(env, task.env_id, seed, specs, kwargs=kwargs))
                return out[-1]

        try:
            rewards, truncated = play_game(env, seat_agents, env_seed, recorder)
        except Exception as exc:
            seats = ", ".join(f"player_{s}={labels[m]}" for s, m in enumerate(task.order))
            raise GameError(
                f"game {game} of {labels[0]} vs {labels[1]} ({seats}, env seed {env_seed}) raised {exc!r}"
            ) from exc
        record = recorders[0].finish() if recorder is not None else None
        records.append(_GameRecord(task.pairing, game, task.order, rewards, truncated, record))
        if on_game is not None:
            on_game()
    return records


def _play_chunk(task: _Task) -> tuple[_Task, list[_GameRecord]]:
    return task, _play_task(task)


def _chunks(items: Sequence[int], size: int) -> Iterable[tuple[int, ...]]:
    for start in range(0, len(items), size):
        yield tuple(items[start : start + size])


@contextlib.contextmanager
def _deaf_to_ctrl_c() -> Iterator[None]:
    """Processes started inside ignore SIGINT from their first instruction on (an ignored signal
    survives exec): Ctrl-C reaches the whole process group, and the main process alone handles it
    (the pool is then terminated) instead of every worker dying with its own traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers, and only it gets KeyboardInterrupt anyway
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _chunk_path(run_dir: Path, task: _Task) -> Path:
    # A game index belongs to one seat order, so the pairing and the first game name a chunk.
    pairing = f"{file_part(task.members[0].label)}-vs-{file_part(task.members[1].label)}"
    return run_dir / "games" / pairing / f"{task.games[0]}.json"


def _chunk_key(task: _Task) -> dict[str, Any]:
    """Everything a chunk's games depend on, as JSON reads it back: a file of other games is replayed."""
    key = {
        "env": task.env_id,
        "seed": task.seed,
        "agents": [m.label for m in task.members],
        "order": task.order,
        "games": task.games,
        "num_players": task.num_players,
        "env_kwargs": dict(task.env_kwargs),
        "save_games": task.save_games,
    }
    return json.loads(json.dumps(key))


def _read_chunk(run_dir: Path, task: _Task) -> list[_GameRecord] | None:
    """The games of the task's finished chunk file, or None if it is missing or holds other games."""
    try:
        chunk = json.loads(_chunk_path(run_dir, task).read_text())
        if chunk["task"] != _chunk_key(task):
            return None
        return [
            _GameRecord(task.pairing, g["game"], task.order, tuple(g["rewards"]), g["truncated"], g["record"])
            for g in chunk["games"]
        ]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_chunk(run_dir: Path, task: _Task, records: list[_GameRecord]) -> None:
    games = [
        {"game": r.game, "rewards": r.rewards, "truncated": r.truncated, "record": r.record} for r in records
    ]
    write_atomic(_chunk_path(run_dir, task), json.dumps({"task": _chunk_key(task), "games": games}) + "\n")


def _run_tasks(
    tasks: list[_Task], workers: int, progress: bool, run_dir: Path | None = None
) -> tuple[list[_GameRecord], int]:
    """Every task's games, and how many of them were played here rather than read from ``run_dir``:
    with a run folder, finished chunk files are read and each task played is saved as one."""
    from tqdm import tqdm

    records: list[_GameRecord] = []
    missing = []
    for task in tasks:
        done = _read_chunk(run_dir, task) if run_dir is not None else None
        if done is None:
            missing.append(task)
        else:
            records.extend(done)
    kept = len(records)
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(
            tqdm(
                total=kept + sum(len(t.games) for t in missing),
                initial=kept,
                unit="game",
                disable=not progress,
            )
        )
        if workers == 1 or not missing:
            # In this process: no start-up cost, a failing game keeps its whole traceback, and the
            # bar moves after every game (a task of slow games can take an hour).
            results: Iterable[tuple[_Task, list[_GameRecord]]] = (
                (task, _play_task(task, on_game=lambda: bar.update(1))) for task in missing
            )
        else:
            # spawn rather than fork: safe once agents hold torch models or threads, and alike on every OS.
            context = multiprocessing.get_context("spawn")
            with _deaf_to_ctrl_c(), one_thread_each():
                pool = stack.enter_context(context.Pool(min(workers, len(missing))))
            results = pool.imap_unordered(_play_chunk, missing)
        for task, chunk in results:
            if run_dir is not None:
                _write_chunk(run_dir, task, chunk)
            records.extend(chunk)
            if workers != 1:
                bar.update(len(chunk))
    return sorted(records, key=lambda r: (r.pairing, r.game)), len(records) - kept


# -- results ---------------------------------------------------------------------------------------


def _member_outcomes(rewards: tuple[float, ...], order: tuple[int, ...]) -> tuple[int, int]:
    """Outcome of pairing members A and B in one game as an index: 0 win, 1 draw, 2 loss."""
    best = max(rewards)
    on_top = {order[seat] for seat, r in enumerate(rewards) if r == best}
    if len(on_top) == 2:
        return 1, 1
    return (0, 2) if on_top == {0} else (2, 0)


def _wdl_entry(wdl: np.ndarray) -> dict[str, Any]:
    wins, draws, losses = (int(x) for x in wdl)
    games = wins + draws + losses
    score = wins + draws / 2
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": score / games if games else None,
        "ci95": list(wilson_interval(score, games)),
    }


def default_workers() -> int:
    """Cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _check_inputs(
    env_id: str,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    workers: int | None,
    num_players: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
    save_games: int = 0,
) -> tuple[list[AgentSpec], int]:
    """The parsed agents and the env's player count, or a :class:`ConfigError` naming the bad input."""
    try:
        mystic_envs.env_module(env_id)
    except (TypeError, ValueError) as exc:
        raise ConfigError(str(exc)) from None
    if isinstance(agent_specs, str):
        raise ConfigError(
            f"agents must be a list of agent specs ({SPEC_HELP}), not the string {agent_specs!r}"
        )
    specs = [parse_agent_spec(text) for text in agent_specs]
    if len(specs) < 2:
        raise ConfigError(f"--agents needs at least 2 agents, got {len(specs)}; each is {SPEC_HELP}")
    labels = [s.label for s in specs]
    repeated = [label for label in labels if labels.count(label) > 1]
    if repeated:
        raise ConfigError(f"agent {repeated[0]!r} is listed twice in --agents; list each agent once")
    counts = mystic_envs.player_counts(env_id)
    if num_players is not None and (not _is_int(num_players) or num_players not in counts):
        raise ConfigError(
            f"--num-players: {env_id} is played by {', '.join(map(str, counts))} players, got {num_players!r}"
        )
    kwargs = dict(env_kwargs or {})
    if "num_players" in kwargs:
        raise ConfigError("env keyword num_players: give the table size as --num-players (num_players=)")
    if num_players is not None:
        kwargs["num_players"] = int(num_players)
    try:
        num_players = len(mystic_envs.make(env_id, **kwargs).possible_agents)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{env_id} refuses these env keywords: {' '.join(str(exc).split())}") from None
    num_orders = len(seat_orders(num_players))
    if not _is_int(games) or games < 1 or games % num_orders:
        raise ConfigError(
            f"--games must be a positive multiple of {num_orders} (the seat orders of {env_id} at "
            f"{num_players} players, so each pairing is played equally from every seat), got {games!r}"
        )
    if not _is_int(seed) or seed < 0:
        raise ConfigError(f"--seed must be a non-negative integer, got {seed!r}")
    if not _is_int(save_games) or not 0 <= save_games <= games:
        raise ConfigError(f"--save-games must be an integer from 0 to --games ({games}), got {save_games!r}")
    if workers is not None and (not _is_int(workers) or workers < 1):
        raise ConfigError(
            f"--workers must be a positive integer (default: all {default_workers()} cores), got {workers!r}"
        )
    for spec in specs:
        # Built once here, so that a bad option fails now with its name, not later inside a worker.
        try:
            make_agent(spec.name, env_id, seed=0, **table_options(spec, num_players))
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"agent {spec.label!r} cannot be built for {env_id}: {exc}") from None
    return specs, num_players


def run_tournament(
    env_id: str,
    agent_specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    progress: bool = False,
    num_players: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
    save_games: int = 0,
    run_dir: Path | None = None,
) -> dict[str, Any]:
    """Play the round robin and return every result as a JSON-ready dict.

    ``env_kwargs``: the env's other keywords, for every game. ``save_games``: the first that many
    games of each pairing are recorded; their records are in ``result["game_records"]``, keyed by
    the path ``write_outputs`` writes them to (``records/<pairing>-<game>.json``).

    ``agent_specs`` are as on the command line; ``games`` per pairing, split equally over the seat
    orders; ``workers`` processes (default: every core); ``num_players`` the table size (default:
    the env's; more than two gives the rank-based results of the module docstring). Raises
    :class:`ConfigError` for a bad input and :class:`GameError` if a game raises. Apart from
    ``timing`` and ``workers``, the result depends only on the inputs, never on the number of workers.

    ``run_dir``: a folder that keeps every finished chunk of :data:`CHUNK_GAMES` games of a pairing
    in a seat order as ``games/<pairing>/<first game>.json``, written whole or not at all. A call
    with the same inputs and folder (after a Ctrl-C, or with more ``games``) reads those and plays
    only the missing chunks, with the same result as one uninterrupted call; a chunk file of other
    inputs is played again and replaced.
    """
    specs, players = _check_inputs(
        env_id, agent_specs, games, seed, workers, num_players, env_kwargs, save_games
    )
    return _play_tournament(
        env_id, specs, players, games, seed, workers, progress, num_players, env_kwargs, save_games, run_dir
    )


def _play_tournament(
    env_id: str,
    specs: list[AgentSpec],
    players: int,
    games: int,
    seed: int,
    workers: int | None,
    progress: bool,
    num_players: int | None,
    env_kwargs: dict[str, Any] | None,
    save_games: int,
    run_dir: Path | None,
    chunk_games: int = CHUNK_GAMES,
) -> dict[str, Any]:
    """``run_tournament`` after its input checks: ``specs`` and ``players`` are what they return."""
    frozen_kwargs = tuple(sorted((env_kwargs or {}).items()))
    workers = default_workers() if workers is None else workers
    orders = seat_orders(players)
    pairings = [tuple(sorted(pair, key=lambda spec: spec.label)) for pair in itertools.combinations(specs, 2)]
    tasks = [
        _Task(env_id, seed, p, members, order, chunk, num_players, frozen_kwargs, save_games)
        for p, members in enumerate(pairings)
        for o, order in enumerate(orders)
        for chunk in _chunks(range(o, games, len(orders)), chunk_games)
    ]
    start = time.perf_counter()
    records, played = _run_tasks(tasks, workers, progress, run_dir)
    seconds = time.perf_counter() - start
    timing: dict[str, Any] = {"seconds": seconds, "games_per_second": played / seconds if seconds else None}
    if played < len(records):
        timing["earlier_games"] = len(records) - played  # read from the chunk files of earlier calls
    saved = _saved_records(pairings, records)
    if players > 2:
        result = _multiplayer_results(env_id, specs, pairings, orders, records, games, seed, workers, timing)
        return _with_records(result, env_kwargs, saved)
    num_players = players

    labels = [s.label for s in specs]
    index = {label: i for i, label in enumerate(labels)}
    k = len(labels)
    wdl = np.zeros((k, k, 3), dtype=np.int64)  # [row, column, win/draw/loss] from the row's side
    by_order = np.zeros((len(pairings), len(orders), 3), dtype=np.int64)  # from member A's side
    by_seat = np.zeros((k, num_players, 3), dtype=np.int64)
    truncated = np.zeros(len(pairings), dtype=np.int64)
    for r in records:
        members = pairings[r.pairing]
        outcomes = _member_outcomes(r.rewards, r.order)
        i, j = index[members[0].label], index[members[1].label]
        wdl[i, j, outcomes[0]] += 1
        wdl[j, i, outcomes[1]] += 1
        by_order[r.pairing, orders.index(r.order), outcomes[0]] += 1
        truncated[r.pairing] += r.truncated
        for seat, m in enumerate(r.order):
            by_seat[index[members[m].label], seat, outcomes[m]] += 1

    anchor = next((i for i, s in enumerate(specs) if s.name == "random"), 0)
    elo = fit_elo(wdl[..., 0] + wdl[..., 1] / 2, wdl.sum(axis=2), anchor=anchor)
    anchor_note = (
        f"{labels[anchor]} anchored at 0"
        if specs[anchor].name == "random"
        else f"random is not among the agents, so the first one, {labels[anchor]}, is anchored at 0"
    )
    seat_names = [f"player_{s}" for s in range(num_players)]
    seat0 = by_seat[:, 0, :].sum(axis=0)
    result = {
        "env": env_id,
        "num_players": num_players,
        "agents": labels,
        "agent_specs": {s.label: {"name": s.name, "options": s.options} for s in specs},
        "games_per_pairing": games,
        "seed": seed,
        "workers": workers,
        "seat_orders": [{seat_names[s]: m for s, m in enumerate(order)} for order in orders],
        "matrix": {
            labels[i]: {labels[j]: _wdl_entry(wdl[i, j]) for j in range(k) if j != i} for i in range(k)
        },
        "pairings": [
            {
                "agents": [a.label, b.label],
                "overall": _wdl_entry(by_order[p].sum(axis=0)),
                "truncated": int(truncated[p]),
                "by_seat_order": [
                    {"seats": {seat_names[s]: (a, b)[m].label for s, m in enumerate(order)}}
                    | _wdl_entry(by_order[p, o])
                    for o, order in enumerate(orders)
                ],
            }
            for p, (a, b) in enumerate(pairings)
        ],
        "elo": {
            "ratings": {label: float(elo[i]) for i, label in enumerate(labels)},
            "anchor": labels[anchor],
            "anchor_note": anchor_note,
            "method": (
                f"Bradley-Terry maximum likelihood on all games, draws as half wins, {PRIOR_DRAWS:g} "
                "virtual draw between every two agents as prior, 400/ln(10) Elo points per unit"
            ),
        },
        "seats": {
            "player_0": _wdl_entry(seat0),
            "by_agent": {
                label: {name: _wdl_entry(by_seat[i, s]) for s, name in enumerate(seat_names)}
                for i, label in enumerate(labels)
            },
        },
        "total_games": len(records),
        "timing": timing,
    }
    return _with_records(result, env_kwargs, saved)


def _saved_records(pairings: list[tuple[AgentSpec, ...]], records: list[_GameRecord]) -> dict[str, Any]:
    return {
        f"records/{file_part(pairings[r.pairing][0].label)}-vs-{file_part(pairings[r.pairing][1].label)}"
        f"-{r.game}.json": r.record
        for r in records
        if r.record is not None
    }


def _with_records(result: dict[str, Any], env_kwargs: dict[str, Any] | None, saved: dict[str, Any]) -> dict:
    result["env_kwargs"] = dict(env_kwargs or {})
    if saved:
        result["game_records"] = saved
    return result


def _share(rewards: tuple[float, ...], seat: int) -> float:
    """The win share of ``seat``: 1/k if it is one of the k seats with the best reward, else 0."""
    best = max(rewards)
    return 1 / rewards.count(best) if rewards[seat] == best else 0.0


def _rank_entry(rewards: list[float], shares: list[float], num_players: int) -> dict[str, Any]:
    """Rank-based results of one agent over some games: its rewards and win shares."""
    games = len(rewards)
    wins = sum(share == 1 for share in shares)
    draws = sum(0 < share < 1 for share in shares)
    score = float(sum(shares))
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "win_rate": score / games if games else None,
        "ci95": list(wilson_interval(score, games)),
        "even_win_rate": 1 / num_players,
        "mean_reward": float(np.mean(rewards)) if games else None,
        "reward_ci95": list(mean_interval(rewards)),
    }


def _multiplayer_results(
    env_id: str,
    specs: list[AgentSpec],
    pairings: list[tuple[AgentSpec, ...]],
    orders: list[tuple[int, ...]],
    records: list[_GameRecord],
    games: int,
    seed: int,
    workers: int,
    timing: dict[str, Any],
) -> dict[str, Any]:
    """``run_tournament``'s result for more than two players: every figure is the lone agent's."""
    num_players = len(orders[0])
    labels = [s.label for s in specs]
    seat_names = [f"player_{s}" for s in range(num_players)]
    # (lone agent, the copies' agent) -> rewards and shares; agent -> seat -> the same when alone there.
    cell: dict[tuple[str, str], tuple[list[float], list[float]]] = {
        (a, b): ([], []) for a in labels for b in labels if a != b
    }
    by_seat = {label: [([], []) for _ in seat_names] for label in labels}
    by_order = [[([], []) for _ in orders] for _ in pairings]
    seat_totals: list[tuple[list[float], list[float]]] = [([], []) for _ in seat_names]
    truncated = np.zeros(len(pairings), dtype=np.int64)
    for r in records:
        members = pairings[r.pairing]
        lone = lone_member(r.order)
        seat = r.order.index(lone)
        reward, share = r.rewards[seat], _share(r.rewards, seat)
        for rewards, shares in (
            cell[members[lone].label, members[1 - lone].label],
            by_seat[members[lone].label][seat],
            by_order[r.pairing][orders.index(r.order)],
        ):
            rewards.append(reward)
            shares.append(share)
        for s in range(num_players):
            seat_totals[s][0].append(r.rewards[s])
            seat_totals[s][1].append(_share(r.rewards, s))
        truncated[r.pairing] += r.truncated

    # Games interleaved across pairings (game index first), so no pairing is rated last as a whole.
    rated = sorted(records, key=lambda r: (r.game, r.pairing))
    openskill = fit_openskill(
        (([pairings[r.pairing][m].label for m in r.order], r.rewards) for r in rated), labels
    )
    return {
        "env": env_id,
        "num_players": num_players,
        "agents": labels,
        "agent_specs": {s.label: {"name": s.name, "options": s.options} for s in specs},
        "games_per_pairing": games,
        "seed": seed,
        "workers": workers,
        "seat_orders": [{seat_names[s]: m for s, m in enumerate(order)} for order in orders],
        "matrix": {a: {b: _rank_entry(*cell[a, b], num_players) for b in labels if b != a} for a in labels},
        "pairings": [
            {
                "agents": [a.label, b.label],
                "truncated": int(truncated[p]),
                "by_seat_order": [
                    {"seats": {seat_names[s]: (a, b)[m].label for s, m in enumerate(order)}}
                    | {"alone": (a, b)[lone_member(order)].label}
                    | _rank_entry(*by_order[p][o], num_players)
                    for o, order in enumerate(orders)
                ],
            }
            for p, (a, b) in enumerate(pairings)
        ],
        "openskill": {
            "ratings": openskill,
            "method": (
                "openskill Plackett-Luce (tau=0), every seat a team of one ranked by its reward, games "
                "in game order across pairings; an agent in several seats of a game takes the mean of "
                "their updates; ordinal = mu - 3 sigma"
            ),
        },
        "seats": {
            "by_seat": {name: _rank_entry(*seat_totals[s], num_players) for s, name in enumerate(seat_names)},
            "by_agent": {
                label: {
                    name: _rank_entry(*by_seat[label][s], num_players) for s, name in enumerate(seat_names)
                }
                for label in labels
            },
        },
        "total_games": len(records),
        "timing": timing,
    }


# -- reports ---------------------------------------------------------------------------------------


def _percent(entry: dict[str, Any]) -> str:
    lo, hi = entry["ci95"]
    return f"{100 * entry['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _signed(rating: float) -> str:
    return "0" if rating == 0 else f"{rating:+.0f}"


def _reward(entry: dict[str, Any]) -> str:
    lo, hi = entry["reward_ci95"]
    return f"{entry['mean_reward']:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _command_lines(result: dict[str, Any]) -> list[str]:
    """The command that started the run, and those that resumed it."""
    if "command" not in result:
        return []
    lines = [f"`{result['command']}`", ""]
    if result.get("resumed"):
        lines += ["resumed with " + ", then ".join(f"`{command}`" for command in result["resumed"]), ""]
    return lines


def _games_played(result: dict[str, Any]) -> str:
    """The games and the time they took: with a resumed run, only this session's games were timed."""
    timing = result["timing"]
    where = f"{timing['seconds']:.1f} s on {result['workers']} workers"
    earlier = timing.get("earlier_games", 0)
    if not earlier:
        return f"{result['total_games']} games in {where}"
    return f"{result['total_games']} games, {result['total_games'] - earlier} in {where} and {earlier} before"


def _markdown_multiplayer(result: dict[str, Any]) -> str:
    labels = result["agents"]
    matrix = result["matrix"]
    n = result["num_players"]
    orders = len(result["seat_orders"])
    lines = [f"# Round robin on {result['env']}, {n} players", ""]
    lines += _command_lines(result)
    lines += [
        f"{result['games_per_pairing']} games per pairing ({result['games_per_pairing'] // orders} from each "
        f"of {orders} seat orders: each agent alone in every seat against {n - 1} copies of the other), "
        f"seed {result['seed']}: {_games_played(result)}.",
        "",
        f"## Row alone against {n - 1} copies of column",
        "",
        f"Win share (a win shared by k seats counts 1/k; {100 / n:.1f}% between equals) with its 95% "
        "Wilson interval, then the mean zero-sum reward ((players beaten - players lost to) / "
        f"{n - 1}; 0 between equals) with its 95% normal interval.",
        "",
        "| row alone vs column | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for row in labels:
        cells = [
            "—" if col == row else f"{_percent(matrix[row][col])}<br>{_reward(matrix[row][col])}"
            for col in labels
        ]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    skill = result["openskill"]
    lines += [
        "",
        "## openskill ratings",
        "",
        f"{skill['method']}.",
        "",
        "| agent | ordinal | mu | sigma |",
        "|---|---:|---:|---:|",
    ]
    for label in sorted(labels, key=lambda name: -skill["ratings"][name]["ordinal"]):
        r = skill["ratings"][label]
        lines.append(f"| {label} | {r['ordinal']:.2f} | {r['mu']:.2f} | {r['sigma']:.2f} |")
    seats = result["seats"]
    seat_names = list(result["seat_orders"][0])
    lines += [
        "",
        "## Seats",
        "",
        "Every game, whoever sat there: win share and mean reward of each seat.",
        "",
        "| seat | games | win share | mean reward |",
        "|---|---:|---:|---:|",
    ]
    for name in seat_names:
        e = seats["by_seat"][name]
        lines.append(f"| {name} | {e['games']} | {_percent(e)} | {_reward(e)} |")
    lines += [
        "",
        "Each agent alone in each seat: win share.",
        "",
    ]
    lines += _by_agent_rows(labels, seat_names, seats)
    return "\n".join(lines) + "\n"


def _by_agent_rows(labels: list[str], seat_names: list[str], seats: dict[str, Any]) -> list[str]:
    """The table of each agent's results by the seat it sat in."""
    rows = [
        "| agent | " + " | ".join(f"as {name}" for name in seat_names) + " |",
        "|---|" + "---:|" * len(seat_names),
    ]
    for label in labels:
        by_seat = seats["by_agent"][label]
        cells = [f"{_percent(by_seat[name])} of {by_seat[name]['games']}" for name in seat_names]
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return rows


def markdown_report(result: dict[str, Any]) -> str:
    """The win-rate matrix, the Elo table and the seat statistics of ``result`` as Markdown (for more
    than two players: the lone agent's win shares and rewards, openskill ratings, seats)."""
    if result["num_players"] > 2:
        return _markdown_multiplayer(result)
    labels = result["agents"]
    matrix = result["matrix"]
    orders = len(result["seat_orders"])
    lines = [f"# Round robin on {result['env']}", ""]
    lines += _command_lines(result)
    lines += [
        f"{result['games_per_pairing']} games per pairing ({result['games_per_pairing'] // orders} from each "
        f"of {orders} seat orders), seed {result['seed']}: {_games_played(result)}.",
        "",
        "## Win rate, row vs column",
        "",
        "Draws count as half a win; brackets hold the 95% Wilson score interval.",
        "",
        "| row vs column | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for row in labels:
        cells = ["—" if col == row else _percent(matrix[row][col]) for col in labels]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")

    elo = result["elo"]
    lines += [
        "",
        "## Elo",
        "",
        f"{elo['method']}; {elo['anchor_note']}.",
        "",
        "| agent | Elo | score | wins-draws-losses |",
        "|---|---:|---:|---:|",
    ]
    for label in sorted(labels, key=lambda name: -elo["ratings"][name]):
        totals = np.sum([[e["wins"], e["draws"], e["losses"]] for e in matrix[label].values()], axis=0)
        score = (totals[0] + totals[1] / 2) / totals.sum()
        rating = _signed(elo["ratings"][label])
        lines.append(f"| {label} | {rating} | {100 * score:.1f}% | {'-'.join(map(str, totals))} |")

    seats = result["seats"]
    seat_names = list(result["seat_orders"][0])
    lines += [
        "",
        "## Seats",
        "",
        f"player_0 won {_percent(seats['player_0'])} of {seats['player_0']['games']} games "
        "(draws count half).",
        "",
    ]
    lines += _by_agent_rows(labels, seat_names, seats)
    return "\n".join(lines) + "\n"


def plot_matrix(result: dict[str, Any], path: Path | BinaryIO) -> None:
    """Save the win-rate matrix of ``result`` as a PNG heatmap with each cell's rate and interval."""
    import matplotlib as mpl
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    labels = result["agents"]
    k = len(labels)
    rates = np.full((k, k), np.nan)
    for i, row in enumerate(labels):
        for j, col in enumerate(labels):
            if i != j:
                rates[i, j] = result["matrix"][row][col]["win_rate"]
    n = result.get("num_players", 2)
    # With more players the colours turn at the win share of equals, 1/n, rather than at 1/2.
    norm = {"vmin": 0, "vmax": 1} if n == 2 else {"norm": mpl.colors.TwoSlopeNorm(1 / n, vmin=0, vmax=1)}
    side = 1.7 * k + 2.5
    # A bare Figure on the Agg canvas, so that saving never touches pyplot's global backend.
    fig = Figure(figsize=(side + 1.2, side))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    image = ax.imshow(
        np.ma.masked_invalid(rates), cmap=mpl.colormaps["RdYlGn"].with_extremes(bad="0.85"), **norm
    )
    for i, row in enumerate(labels):
        for j, col in enumerate(labels):
            if i != j:
                # White on the dark ends of the colour map, black in its light middle.
                colour = "white" if abs(norm_value(rates[i, j], n) - 0.5) > 0.3 else "black"
                text = _percent(result["matrix"][row][col]).replace(" [", "\n[")
                ax.text(j, i, text, ha="center", va="center", color=colour)
    ax.set_xticks(range(k), labels=labels, rotation=20, ha="right")
    ax.set_yticks(range(k), labels=labels)
    ax.set_xlabel("column (opponent)")
    ax.set_ylabel("row")
    if n == 2:
        title = (
            f"{result['env']}: win rate of row vs column, {result['games_per_pairing']} games a pairing\n"
            "draws count half; 95% Wilson interval"
        )
    else:
        title = (
            f"{result['env']}, {n} players: win share of row alone vs {n - 1} copies of column\n"
            f"{result['games_per_pairing']} games a pairing; shared wins split; {1 / n:.0%} between equals"
        )
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label="win rate" if n == 2 else "win share")
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")


def norm_value(rate: float, num_players: int) -> float:
    """Where ``rate`` falls on the plot's colour scale (0 to 1, the middle at 1/num_players)."""
    even = 1 / num_players
    return rate / even / 2 if rate <= even else 0.5 + (rate - even) / (1 - even) / 2


def check_out_dir(out_dir: Path, flag: str = "--out") -> None:
    """ConfigError (one line) unless ``out_dir`` is a folder that exists or can be made, and is writable.

    Leaves nothing behind: folders it creates to find out are removed again, so a run that is then
    refused (or fails) has not half-written its output. Called before the work, not at the end.
    """
    out_dir = Path(out_dir)
    missing: list[Path] = []  # the deepest first
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        missing.append(existing)
        existing = existing.parent
    if not existing.is_dir():
        what = "it" if existing == out_dir else f"{str(existing)!r}"
        raise ConfigError(
            f"{flag}: cannot create the folder {str(out_dir)!r}: {what} is a file, not a folder"
        )
    try:
        for folder in reversed(missing):
            folder.mkdir()
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"{flag}: cannot write to the folder {str(out_dir)!r} ({reason})") from None
    finally:
        for folder in missing:
            with contextlib.suppress(OSError):
                folder.rmdir()


def write_outputs(result: dict[str, Any], out_dir: Path) -> dict[str, Path]:
    """Write ``results.json``, ``results.md`` and ``winrate.png`` to ``out_dir``; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out_dir / "results.json",
        "markdown": out_dir / "results.md",
        "plot": out_dir / "winrate.png",
    }
    saved = result.get("game_records") or {}
    if saved:
        from agents.records import save_record

        (out_dir / "records").mkdir(exist_ok=True)
        for name, record in saved.items():
            save_record(record, out_dir / name)
        paths["records"] = out_dir / "records"
    # results.json lists the record files rather than holding them.
    summary = {k: v for k, v in result.items() if k != "game_records"}
    if saved:
        summary["saved_games"] = sorted(saved)
    write_atomic(paths["json"], json.dumps(summary, indent=2) + "\n")
    write_atomic(paths["markdown"], markdown_report(result))
    image = io.BytesIO()
    plot_matrix(result, image)
    write_atomic(paths["plot"], image.getvalue())
    return paths


# The settings of a run folder's run.json: the flags a tournament's games depend on, as main parsed them.
_SETTINGS = ("env", "agents", "games", "num_players", "variant", "env_kwarg", "seed", "save_games")
_TOOL = "training.evaluate"


def _flag_text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(value)
    if isinstance(value, dict):
        return " ".join(f"{k}={v}" for k, v in value.items()) or "(none)"
    return str(value)


def _resumed_run(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """The run.json of the run ``--resume`` names, updated for this session (its ``--games``, and the
    command added to those that resumed it); a ConfigError if it cannot be resumed as asked."""
    folder = Path(args.resume)
    if not folder.exists():
        raise ConfigError(f"--resume: no folder {str(folder)!r}")
    if not folder.is_dir():
        raise ConfigError(f"--resume: {str(folder)!r} is a file, not a run folder")
    not_a_run = f"--resume: {str(folder)!r} is not a {_TOOL} run"
    try:
        run = json.loads((folder / RUN_FILE).read_text())
    except FileNotFoundError:
        raise ConfigError(f"{not_a_run} (no {RUN_FILE})") from None
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{not_a_run} ({RUN_FILE} is unreadable: {' '.join(str(exc).split())})") from None
    if (
        not isinstance(run, dict)
        or run.get("tool") != _TOOL
        or not isinstance(run.get("settings"), dict)
        or set(run["settings"]) != set(_SETTINGS)
        or not _is_int(run.get("chunk_games"))
        or run["chunk_games"] < 1
        or not isinstance(run.get("command"), str)
    ):
        raise ConfigError(f"{not_a_run} (its {RUN_FILE} is another tool's, or edited)")
    if run.get("mystic_envs") != mystic_envs.__version__:
        raise ConfigError(
            f"--resume: the run in {str(folder)!r} was played with mystic_envs {run.get('mystic_envs')}, "
            f"this is {mystic_envs.__version__}, whose games may differ; resume it with that version "
            "or start a new run"
        )
    held = run["settings"]
    given = {key: getattr(args, key) for key in _SETTINGS if key not in ("games", "env_kwarg")}
    given["env_kwarg"] = dict(args.env_kwarg) or None
    clashes = [
        f"--{key.replace('_', '-')} {_flag_text(value)} (the run has {_flag_text(held[key])})"
        for key, value in given.items()
        if value is not None and value != held[key]
    ]
    if args.out is not None and Path(args.out).resolve() != folder.resolve():
        clashes.append(f"--out {args.out} (the run is in {folder})")
    if clashes:
        raise ConfigError(
            f"--resume continues the run in {str(folder)!r} with its own settings, which these flags "
            f"contradict: {'; '.join(clashes)}; only --games (more) and --workers may be given"
        )
    games = held["games"] if args.games is None else args.games
    if games < held["games"]:
        raise ConfigError(
            f"--resume: the run in {str(folder)!r} has {held['games']} games a pairing; --games {games} "
            f"would drop some (give {held['games']} or more)"
        )
    workers = run.get("workers") if args.workers is None else args.workers
    return {
        **run,
        "settings": {**held, "games": games},
        "workers": workers,
        "resumed": [*run.get("resumed", []), command],
    }


def _new_run(args: argparse.Namespace, out: Path, command: str) -> dict[str, Any]:
    """The run.json of a tournament that ``command`` starts in ``out``; a ConfigError if ``out`` has one."""
    if args.agents is None:
        raise ConfigError("the following arguments are required: --agents (or --resume DIR)")
    if (out / RUN_FILE).exists():
        raise ConfigError(
            f"--out: {str(out)!r} already holds a run ({RUN_FILE}); continue a tournament with "
            f"--resume {shlex.quote(str(out))}, or give another --out"
        )
    defaults = {"env": DEFAULT_ENV, "games": DEFAULT_GAMES, "seed": 0, "save_games": 0}
    settings = {key: getattr(args, key) for key in _SETTINGS}
    settings = {
        key: defaults[key] if value is None and key in defaults else value for key, value in settings.items()
    }
    settings["env_kwarg"] = dict(args.env_kwarg)
    return {
        "tool": _TOOL,
        "command": command,
        "settings": settings,
        "workers": args.workers,  # not a setting (the results do not depend on it); --resume reuses it
        "chunk_games": CHUNK_GAMES,
        "mystic_envs": mystic_envs.__version__,
    }


def _env_kwargs(settings: dict[str, Any]) -> dict[str, Any]:
    kwargs = dict(settings["env_kwarg"])
    if settings["variant"] is not None:
        if "variant" in kwargs:
            raise ConfigError("--variant and --env-kwarg variant both given; give one")
        kwargs["variant"] = settings["variant"]
    reserved = sorted(set(kwargs) & {"render_mode", "illegal_action", "illegal_reward"})
    if reserved:
        raise ConfigError(f"--env-kwarg {reserved[0]}: set by the evaluation itself, not a game option")
    return kwargs


def main(argv: list[str] | None = None) -> dict[str, Any]:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = shlex.join([*PROG.split(), *argv])
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--env", help=f"env id, one of {list(mystic_envs.ENV_IDS)} (default {DEFAULT_ENV})")
    parser.add_argument("--agents", nargs="+", metavar="AGENT", help=f"two or more: {SPEC_HELP}")
    parser.add_argument(
        "--games",
        type=int,
        help=f"games per pairing, split equally over the seat orders (default {DEFAULT_GAMES})",
    )
    add_env_arguments(
        parser,
        num_players_help="players at the table (default: the env's default); more than two plays one "
        "agent against N - 1 copies of the other",
    )
    parser.add_argument("--seed", type=int, help="the seed every game's seeds derive from (default 0)")
    parser.add_argument(
        "--workers", type=int, help=f"worker processes (default: all {default_workers()} cores)"
    )
    parser.add_argument(
        "--save-games",
        type=int,
        metavar="N",
        help="write the records of the first N games of every pairing to OUT/records/ (default 0)",
    )
    parser.add_argument("--out", type=Path, help="output folder (default runs/eval/<env>-<timestamp>)")
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="continue the tournament in DIR with its own settings, playing only its missing games "
        "(a larger --games extends it)",
    )
    args = parser.parse_args(argv)
    out = (
        args.resume
        or args.out
        or Path("runs", "eval", f"{args.env or DEFAULT_ENV}-{datetime.now():%Y%m%d-%H%M%S}")
    )
    try:
        run = _new_run(args, out, command) if args.resume is None else _resumed_run(args, command)
        settings = run["settings"]
        kwargs = _env_kwargs(settings)
        # Before the games: a tournament can take an hour, and its results must have somewhere to go.
        check_out_dir(out, "--out" if args.resume is None else "--resume")
        specs, players = _check_inputs(
            settings["env"],
            settings["agents"],
            settings["games"],
            settings["seed"],
            run["workers"],
            settings["num_players"],
            kwargs,
            settings["save_games"],
        )
    except ConfigError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print(
            f"interrupted before the first game: nothing written to {out}; run again: {command}",
            file=sys.stderr,
        )
        raise SystemExit(130) from None  # 128 + SIGINT, as a shell reports a program stopped by Ctrl-C
    try:
        write_atomic(out / RUN_FILE, json.dumps(run, indent=2) + "\n")
        result = _play_tournament(
            settings["env"],
            specs,
            players,
            settings["games"],
            settings["seed"],
            run["workers"],
            True,
            settings["num_players"],
            kwargs,
            settings["save_games"],
            out,
            run["chunk_games"],
        )
        result["command"] = run["command"]
        if "resumed" in run:
            result["resumed"] = run["resumed"]
        # The flags in the order the parser has them, as results.json has always listed them.
        config = {key: settings[key] for key in _SETTINGS[:-1]}
        result["config"] = {
            **config,
            "workers": run["workers"],
            "save_games": settings["save_games"],
            "out": str(out),
        }
        result["versions"] = {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "mystic_envs": mystic_envs.__version__,
        }
        paths = write_outputs(result, out)
    except KeyboardInterrupt:
        print(
            f"interrupted: the finished games are kept in {out}; continue with: "
            f"{PROG} --resume {shlex.quote(str(out))}",
            file=sys.stderr,
        )
        raise SystemExit(130) from None
    print(markdown_report(result))
    for kind, path in paths.items():
        print(f"{kind}: {path}")
    return result


if __name__ == "__main__":
    main()
