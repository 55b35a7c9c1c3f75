"""The reference leaderboard of a game: a fixed roster on duplicate deals, joint ratings with intervals.

python -m training.leaderboard --env ID [--num-players N] [--games G] [--seed S] [--workers W] [--out DIR]
                               [--replay AGENT]... [--extend]
python -m training.leaderboard --finished --env ID [--num-players N] [--out DIR]
python -m training.leaderboard --verify [--env ID [--num-players N]] [--sample K]
python -m training.leaderboard --publish --env ID [--num-players N] [--out DIR]

The roster is :data:`ROSTER`, one agent spec a line (``agents.spec``): random, the heuristic, mcts
at four budgets from 16 to 1,024 simulations, the shipped ppo model, the shipped rllib policy and
the network-guided search (``mcts:guide=ppo``, ``agents.puct``) at 16 and 64 simulations. An agent
that cannot be built or cannot act at the table (no shipped model, a stale one) is skipped and
listed with its one-line reason.

**Model fingerprints.** Every agent that loads a model (ppo, rllib, the guided search) is recorded
with the sha256 of the files it loaded (:func:`model_fingerprint`), in ``run.json`` and in the
results. Resuming a run whose recorded fingerprint differs from the agent's files today is refused in
one line naming the agent; ``--replay AGENT`` drops that agent's finished games, in every pairing it
is in, and plays them again. ``--verify`` reports a published agent whose files changed as a failure.

**Duplicate deals.** Every pairing of two roster agents, an agent with itself included, plays the
same deals: deal ``d`` is the env seed drawn from ``numpy.random.SeedSequence([seed, d])``, the
same for every pairing. Each deal is played in every seat order of ``training.evaluate.seat_orders``
(at 2 players A-B and B-A; at N players each agent alone in every seat against N - 1 copies of the
other), so the luck of the deal cancels. Each seat's agent is seeded from ``(seed, deal, pairing
member, seat)``. ``--games`` counts the games of a pairing, a multiple of the seat orders.

**Ratings.** At 2 players one joint Bradley-Terry fit over every pairing (``training.ratings.fit_elo``)
on the Elo scale with random at 0, its 95% intervals the 2.5 and 97.5 percentiles of 1,000 refits
(``training.leaderboard_results.BOOTSTRAP``) on deals resampled with replacement (the same resample
for every pairing, so the deal stays the unit). At N players openskill's Plackett-Luce
(``fit_openskill``) and each agent's mean place (1 the best) over every seat it held, with the same
bootstrap's interval. A pairing's score (wins plus half the draws, per game) has a 95% Wilson
interval over deals, each deal's mean score counted as one trial: conservative, and never of zero
width.

**Sanity checks**, printed with every table: an agent against itself scores 0.5 within its interval;
every agent beats random (the interval above 0.5); the pairings whose results from two seat orders
have disjoint intervals (a seat advantage, or an agent that plays one seat worse); and intransitive
3-cycles (A beats B beats C beats A), marked where all three intervals exclude 0.5; at 2 players,
the agents whose 95% interval is wider than +-25 Elo (the target of a full ladder).

**Resumable.** The run folder (default ``runs/leaderboard/<env>-<n>p``) gets one file per finished
chunk of :data:`CHUNK_DEALS` deals of a pairing, each written to a temporary name and renamed, so
Ctrl-C loses at most the chunks in play and a rerun with the same folder plays only what is
missing. At the end ``results.json`` (every game's places, for ``--verify``), ``results.md`` and
``budget.png`` (the rating of plain and of guided search against their simulations, with ms per
move) are written the same way. Chunks are played deal block by deal block, so a run stopped
part-way has nearly the same deals in every pairing: ``--finished`` plays nothing and fits the run
at the deals every pairing has finished, writing the equivalent ``--games`` as the table's command.
**Publish.** ``--publish`` copies a finished run's ``results.json`` and ``budget.png`` to
``docs/leaderboard/<env>-<n>p.*`` and writes its table and checks into ``docs/leaderboard.md``
between that table's ``<!-- generated:leaderboard/<env>-<n>p -->`` markers (a new table gets its
section at the end of the page); the prose around them is the publisher's (how it was run, what it
shows), and a test keeps each published JSON and its block identical.
A run folder does not outlive its machine, so ``--extend`` starts one from the published table: its
games are written as finished chunks (the table keeps no moves or seconds, so the ms per move are
the new games'), and a larger ``--games`` plays only the deals after them.

**Verify.** ``--verify`` replays ``--sample`` deals of every pairing of each published leaderboard
(of ``--env``, of its ``--num-players`` table when given; the same deals for each pairing, drawn
with a fixed seed), checks that they replay to the published places, refits the published games to
check every rating, interval and pairing score, and checks that every agent with a model loads the
same files as the published games were played with.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

import mystic_envs
from agents import make_agent
from agents.spec import AgentSpec, ConfigError, parse_agent_spec, table_options
from training.evaluate import check_out_dir, default_workers, play_game, seat_orders
from training.leaderboard_results import Entrant, budget_png, markdown_report, summarize
from training.ratings import ranks_from_rewards
from training.run_files import file_part, write_atomic
from training.workers import one_thread_each

__all__ = [
    "CHUNK_DEALS",
    "PUBLISHED_DIR",
    "ROSTER",
    "build_roster",
    "deal_seed",
    "default_out",
    "main",
    "model_fingerprint",
    "play_pairing_deals",
    "published_path",
    "published_ratings",
    "run_leaderboard",
    "verify",
]

#: The roster of every game, one agent spec a line; an agent or option added later is one more line.
ROSTER: tuple[str, ...] = (
    "random",
    "heuristic",
    "mcts:simulations=16",
    "mcts:simulations=64",
    "mcts:simulations=256",
    "mcts:simulations=1024",
    "ppo",
    "rllib",
    "mcts:guide=ppo,simulations=16",
    "mcts:guide=ppo,simulations=64",
)
#: Deals per chunk file of a pairing: the unit of work, of resuming and of what Ctrl-C can lose.
CHUNK_DEALS = 5
# What --verify forgives between a published figure and its refit: float rounding, no more.
TOLERANCE = 1e-6
DEFAULT_DEALS = 1000
ROOT = Path(__file__).resolve().parent.parent
PUBLISHED_DIR = ROOT / "docs" / "leaderboard"
PROG = "python -m training.leaderboard"
DOCS_PAGE = ROOT / "docs" / "leaderboard.md"


def default_out(env_id: str, num_players: int) -> Path:
    """The run folder of ``env_id`` at ``num_players`` players when ``--out`` is not given."""
    return Path("runs", "leaderboard", f"{env_id}-{num_players}p")


def published_path(env_id: str, num_players: int) -> Path:
    """Where the published results of ``env_id`` at ``num_players`` players live."""
    return PUBLISHED_DIR / f"{env_id}-{num_players}p.json"


def published_ratings(env_id: str, num_players: int) -> dict[str, dict[str, Any]]:
    """Each published agent's rating (``{label: {"rating", "ci95", "scale"}}``), or ``{}`` when none is
    published. At 2 players the Elo rating; at more, the mean place (1 the best). An agent the table
    played from a kept model file (a ``path`` option: a model since replaced, as the pilot's ppo) is
    left out, since today's agent of that name is another player."""
    path = published_path(env_id, num_players)
    if not path.is_file():
        return {}
    result = json.loads(path.read_text())
    specs = result["agent_specs"]
    return {
        label: {"rating": entry["rating"], "ci95": entry["ci95"], "scale": result["rating_scale"]}
        for label, entry in result["ratings"].items()
        if "path" not in specs[label]["options"]
    }


# -- the roster ------------------------------------------------------------------------------------


def _one_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _shown(path: Path) -> str:
    # Relative to the repository for the shipped models, so a fingerprint reads the same in any checkout.
    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def model_fingerprint(agent: Any) -> dict[str, str]:
    """The sha256 of every model file ``agent`` loaded, by path (relative to the repository when inside
    it); ``{}`` for an agent without a model. The ppo and rllib agents keep the file or checkpoint
    folder they loaded as ``path``; the guided search keeps its ppo network as ``net``."""
    where = getattr(getattr(agent, "net", agent), "path", None)
    if where is None:
        return {}
    path = Path(where)
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return {_shown(p): _sha256(p) for p in files}


def _make(spec: AgentSpec, env_id: str, num_players: int, seed: int) -> Any:
    """``spec``'s agent for a table of ``num_players``: the ppo agent and the guided search are told
    the count, so that they load the model shipped for it (``agents.ppo``) or say in one line that
    there is none."""
    return make_agent(spec.name, env_id, seed=seed, **table_options(spec, num_players))


def build_roster(
    env_id: str, num_players: int, roster: Sequence[str] = ROSTER
) -> tuple[list[Entrant], dict[str, str]]:
    """The roster agents that can play ``env_id`` at ``num_players``, and the skipped ones with why.

    Each agent is built and asked for the first move of a fresh game, so a model made for another
    observation size or table is skipped here rather than failing a game later; each entrant
    carries the fingerprint of the model files it loaded (:func:`model_fingerprint`)."""
    entrants, skipped = [], {}
    env = mystic_envs.make(env_id, num_players=num_players, illegal_action="raise")
    for text in roster:
        spec = parse_agent_spec(text)
        try:
            agent = _make(spec, env_id, num_players, 0)
            env.reset(seed=0)
            agent.act(env, env.agent_selection)
        except Exception as exc:  # models and checkpoints raise many kinds; each is a reason to skip
            skipped[spec.label] = _one_line(exc)
            continue
        entrants.append(Entrant(spec, model_fingerprint(agent)))
    return entrants, skipped


def _pairings(entrants: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]]:
    """Every pairing, each agent with itself included, members in roster order."""
    return [(a, b) for i, a in enumerate(entrants) for b in entrants[i:]]


def deal_seed(seed: int, deal: int) -> int:
    """The env seed of deal ``deal``: the same for every pairing."""
    return int(np.random.SeedSequence([seed, deal]).generate_state(1, dtype=np.uint64)[0])


def _agent_seed(seed: int, deal: int, member: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, deal, 1 + member, seat]).generate_state(1, dtype=np.uint64)[0])


# -- playing ---------------------------------------------------------------------------------------


class _Timed:
    """An agent whose moves are counted and timed in CPU time: the process's, so that what other
    processes take of the machine does not count (wall time under load had made a Tarot Dice move
    five times dearer than it is), and an agent's own threads (a threaded BLAS) do."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.seconds = 0.0
        self.moves = 0

    def act(self, env: Any, agent_id: str) -> int:
        start = time.process_time()
        action = self.agent.act(env, agent_id)
        self.seconds += time.process_time() - start
        self.moves += 1
        return action


@dataclass(frozen=True)
class _Task:
    """Some deals of one pairing, in every seat order: one chunk file."""

    env_id: str
    num_players: int
    seed: int
    members: tuple[AgentSpec, AgentSpec]
    deals: tuple[int, ...]


# Built agents by (env id, agent name, its options, seat): see play_pairing_deals.
AgentCache = dict[tuple[str, str, str, int], Any]


def play_pairing_deals(
    env_id: str,
    num_players: int,
    seed: int,
    members: tuple[AgentSpec, AgentSpec],
    deals: Iterable[int],
    agents: AgentCache | None = None,
) -> list[dict[str, Any]]:
    """Play ``deals`` of the pairing ``members`` in every seat order; one dict a game: its deal, seat
    order index, every seat's place (0 the best, ties share), truncation, and each seat's moves and
    the CPU seconds spent choosing them (``cpu_seconds``; see ``_Timed``).

    An agent that can be reseeded is built once a seat and reseeded before every game, which plays
    as a fresh one built with that seed; ``agents`` keeps them from one call to the next (a model
    takes 1 to 4 s of CPU to load, more than five deals of its games cost), else each call builds
    its own."""
    env = mystic_envs.make(env_id, num_players=num_players, illegal_action="raise")
    orders = seat_orders(num_players)
    built = {} if agents is None else agents
    games = []
    for deal in deals:
        env_seed = deal_seed(seed, deal)
        for o, order in enumerate(orders):
            seats = []
            for seat, member in enumerate(order):
                agent_seed = _agent_seed(seed, deal, member, seat)
                spec = members[member]
                key = (env_id, spec.name, repr(sorted(spec.options.items())), seat)
                agent = built.get(key)
                if agent is None or not callable(getattr(agent, "seed", None)):
                    agent = built[key] = _make(spec, env_id, num_players, agent_seed)
                else:
                    agent.seed(agent_seed)
                seats.append(_Timed(agent))
            rewards, truncated = play_game(env, seats, env_seed)
            games.append(
                {
                    "deal": deal,
                    "order": o,
                    "places": ranks_from_rewards(rewards),
                    "truncated": truncated,
                    "moves": [s.moves for s in seats],
                    "cpu_seconds": [round(s.seconds, 6) for s in seats],
                }
            )
    return games


# The agents a process has built for the run's chunks (see play_pairing_deals); a run clears them.
_AGENTS: AgentCache = {}


def _play_task(task: _Task) -> tuple[_Task, list[dict[str, Any]]]:
    return task, play_pairing_deals(
        task.env_id, task.num_players, task.seed, task.members, task.deals, _AGENTS
    )


def _chunk_path(run_dir: Path, members: tuple[AgentSpec, AgentSpec], start: int) -> Path:
    return (
        run_dir / "games" / f"{file_part(members[0].label)}--{file_part(members[1].label)}" / f"{start}.json"
    )


def _read_chunk(path: Path, task: _Task) -> list[dict[str, Any]] | None:
    """The games of a finished chunk file, or None if it is missing or holds other games."""
    try:
        chunk = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    same = chunk.get("labels") == [m.label for m in task.members] and chunk.get("deals") == list(task.deals)
    return chunk["games"] if same else None


def _run_dir_config(env_id: str, num_players: int, seed: int) -> dict[str, Any]:
    return {"env": env_id, "num_players": num_players, "seed": seed, "chunk_deals": CHUNK_DEALS}


def _open_run_dir(run_dir: Path, config: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Refuse a folder that holds another run's games; the caller has checked it can be written.
    Returns the model fingerprints the run recorded by agent (none for a new run, or for one
    begun before fingerprints were recorded)."""
    path = run_dir / "run.json"
    if path.is_file():
        held = json.loads(path.read_text())
        differ = ", ".join(f"{k} {held.get(k)!r}" for k in config if held.get(k) != config[k])
        if differ:
            raise ConfigError(
                f"--out: {str(run_dir)!r} holds a run with {differ}; give another --out to start a new one"
            )
        return held.get("models", {})
    if run_dir.exists() and any(run_dir.iterdir()):
        raise ConfigError(f"--out: {str(run_dir)!r} is a folder of something else, not a leaderboard run")
    return {}


def _model_changes(before: dict[str, str], now: dict[str, str]) -> str:
    """The model files whose sha256 differs, each as ``path old -> new`` (12 hex digits)."""
    return "; ".join(
        f"{path} {before.get(path, 'absent')[:12]} -> {now.get(path, 'absent')[:12]}"
        for path in sorted(before.keys() | now.keys())
        if before.get(path) != now.get(path)
    )


def _check_models(
    held: dict[str, dict[str, str]], entrants: Sequence[Entrant], replay: Sequence[str], where: str
) -> None:
    """Refuse to resume games that an agent played with other model files than the ones it loads today
    (unless they are to be replayed): its old games would be rated as today's model."""
    for e in entrants:
        before = held.get(e.label)
        if before is not None and before != e.models and e.label not in replay:
            raise ConfigError(
                f"--out: {where!r}: {e.label} played this run's games with other model files than "
                f"today's ({_model_changes(before, e.models)}); add --replay {shlex.quote(e.label)} to "
                "play its games again, or give another --out"
            )


def _drop_games(run_dir: Path, entrants: Sequence[Entrant], label: str) -> None:
    """Delete every finished chunk of every pairing ``label`` is in, so that they are played again."""
    for a, b in _pairings(entrants):
        folder = _chunk_path(run_dir, (a.spec, b.spec), 0).parent
        if label in (a.label, b.label) and folder.is_dir():
            shutil.rmtree(folder)


def _play_missing(
    run_dir: Path, tasks: list[_Task], workers: int, progress: bool
) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Every task's games: read from finished chunk files, the rest played and saved one chunk at a time."""
    from tqdm import tqdm

    games: dict[tuple[str, str], list[dict[str, Any]]] = {}
    missing = []
    for task in tasks:
        done = _read_chunk(_chunk_path(run_dir, task.members, task.deals[0]), task)
        if done is None:
            missing.append(task)
        else:
            games.setdefault((task.members[0].label, task.members[1].label), []).extend(done)
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(tqdm(total=len(missing), unit="chunk", disable=not progress))
        if workers == 1 or len(missing) <= 1:
            results: Iterable[tuple[_Task, list[dict[str, Any]]]] = map(_play_task, missing)
        else:
            # spawn, as training.evaluate: safe with torch models in the workers.
            context = multiprocessing.get_context("spawn")
            with one_thread_each():
                pool = stack.enter_context(context.Pool(min(workers, len(missing))))
            results = pool.imap_unordered(_play_task, missing)
        for task, played in results:
            chunk = {"labels": [m.label for m in task.members], "deals": list(task.deals), "games": played}
            write_atomic(_chunk_path(run_dir, task.members, task.deals[0]), json.dumps(chunk))
            games.setdefault((task.members[0].label, task.members[1].label), []).extend(played)
            bar.update(1)
    return games


def _finished_deals(run_dir: Path, env_id: str, n: int, seed: int, entrants: Sequence[Entrant]) -> int:
    """The deals every pairing has finished from deal 0 on, whole chunks only (a stopped run plays its
    chunks deal block by deal block, so this is nearly all it played); ConfigError if none."""
    shared = None
    for a, b in _pairings(entrants):
        start = 0
        while (shared is None or start < shared) and _read_chunk(
            _chunk_path(run_dir, (a.spec, b.spec), start),
            _Task(env_id, n, seed, (a.spec, b.spec), tuple(range(start, start + CHUNK_DEALS))),
        ) is not None:
            start += CHUNK_DEALS
        shared = start if shared is None else min(shared, start)
    if not shared:
        raise ConfigError(f"--finished: no deal is finished by every pairing in {str(run_dir)!r}")
    return shared


# -- running ---------------------------------------------------------------------------------------


def _commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head


def _check_args(
    env_id: str,
    num_players: int | None,
    games: int | None,
    seed: int,
    workers: int | None,
    replay: Sequence[str] = (),
    roster: Sequence[str] = ROSTER,
) -> tuple[int, int]:
    """The table size and the deals a pairing, or a one-line ConfigError."""
    try:
        mystic_envs.env_module(env_id)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"--env: {exc}") from None
    counts = mystic_envs.player_counts(env_id)
    n = counts[0] if num_players is None else num_players
    if n not in counts:
        raise ConfigError(
            f"--num-players: {env_id} is played by {', '.join(map(str, counts))} players, got {n}"
        )
    orders = len(seat_orders(n))
    if games is None:
        games = DEFAULT_DEALS * orders
    if games < 1 or games % orders:
        raise ConfigError(
            f"--games must be a positive multiple of {orders} (every deal is played in all {orders} "
            f"seat orders at {n} players), got {games}"
        )
    if seed < 0:
        raise ConfigError(f"--seed must be a non-negative integer, got {seed}")
    if workers is not None and workers < 1:
        raise ConfigError(f"--workers must be a positive integer, got {workers}")
    labels = [parse_agent_spec(text).label for text in roster]
    for label in replay:
        if label not in labels:
            raise ConfigError(f"--replay: {label!r} is not on the roster, whose agents are {labels}")
    return n, games // orders


def run_leaderboard(
    env_id: str,
    num_players: int | None = None,
    games: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    out: Path | None = None,
    progress: bool = False,
    roster: Sequence[str] = ROSTER,
    replay: Sequence[str] = (),
    extend: bool = False,
    finished: bool = False,
) -> dict[str, Any]:
    """Play (or resume) the leaderboard in ``out`` and write ``results.json``, ``results.md`` and
    ``budget.png`` there; returns the result. The agents in ``replay`` have every finished game of
    theirs dropped and played again. With ``extend`` the published table's games are taken as
    finished first (``--extend``: a later machine grows a published ladder without its run folder).
    With ``finished`` (``--finished``) nothing is played: the run in ``out``, stopped part-way, is
    fitted at the deals every pairing has finished (``games`` is then ignored; the result's ``deals``
    says how many). A bad argument raises :class:`ConfigError` before anything is written, and so
    does resuming games an agent played with other model files than today's
    (:func:`model_fingerprint`, recorded in ``run.json``) unless it is replayed."""
    n, deals = _check_args(env_id, num_players, games, seed, workers, replay, roster)
    run_dir = Path(out) if out is not None else default_out(env_id, n)
    if finished and not (run_dir / "run.json").is_file():
        raise ConfigError(f"--finished: {str(run_dir)!r} holds no leaderboard run to fit")
    check_out_dir(run_dir)
    config = _run_dir_config(env_id, n, seed)
    held = _open_run_dir(run_dir, config)
    entrants, skipped = build_roster(env_id, n, roster)
    if len(entrants) < 2:
        raise ConfigError(f"{env_id} at {n} players: fewer than 2 roster agents can play ({skipped})")
    if finished:
        deals = _finished_deals(run_dir, env_id, n, seed, entrants)
    for label in replay:
        if label in skipped:
            raise ConfigError(f"--replay: {label} cannot play at this table ({skipped[label]})")
    _check_models(held, entrants, replay, str(run_dir))
    published = _published_to_extend(env_id, n, seed, entrants, replay) if extend else None
    for label in replay:
        _drop_games(run_dir, entrants, label)
    if published is not None:
        held = _import_published(run_dir, published, entrants, replay) | held
    # Dropped before recording today's fingerprints: stopped in between, the rerun asks for --replay again.
    models = held | {e.label: e.models for e in entrants if e.models}
    write_atomic(run_dir / "run.json", json.dumps(config | {"models": models}, indent=2) + "\n")
    tasks = [
        _Task(env_id, n, seed, (a.spec, b.spec), tuple(range(start, min(start + CHUNK_DEALS, deals))))
        for start in range(0, deals, CHUNK_DEALS)
        for a, b in _pairings(entrants)
    ]
    try:
        pairing_games = _play_missing(run_dir, tasks, workers or default_workers(), progress)
    finally:
        _AGENTS.clear()
    result = summarize(env_id, n, seed, entrants, skipped, pairing_games, deals, roster)
    _write_outputs(result, run_dir)
    return result


def _write_outputs(result: dict[str, Any], run_dir: Path) -> None:
    write_atomic(run_dir / "results.json", json.dumps(result, indent=1) + "\n")
    write_atomic(run_dir / "results.md", markdown_report(result))
    if any(r["simulations"] is not None for r in result["ratings"].values()):
        write_atomic(run_dir / "budget.png", budget_png(result))


# -- publish ---------------------------------------------------------------------------------------


def docs_block(result: dict[str, Any]) -> str:
    """What ``docs/leaderboard.md`` holds of a published table between its markers: the command, the
    rating table and the sanity checks (:func:`markdown_report` without its heading)."""
    return markdown_report(result).split("\n", 2)[2].rstrip("\n")


def docs_markers(env_id: str, num_players: int) -> tuple[str, str]:
    name = f"leaderboard/{env_id}-{num_players}p"
    return f"<!-- generated:{name} -->", f"<!-- /generated:{name} -->"


def _page_with_block(page: str, result: dict[str, Any], with_plot: bool) -> str:
    """``page`` with the table of ``result`` between its markers, or with a new section at its end
    (and its plot, ``with_plot``)."""
    env_id, n = result["env"], result["num_players"]
    start, end = docs_markers(env_id, n)
    block = f"{start}\n{docs_block(result)}\n{end}"
    i, j = page.find(start), page.find(end)
    if (i < 0) != (j < 0) or j < i:
        raise ConfigError(f"--publish: {_shown(DOCS_PAGE)} has a broken {start} block; mend it by hand")
    if i >= 0:
        return page[:i] + block + page[j + len(end) :]
    image = ""
    if with_plot:
        image = (
            f"\n\n![mcts rating and ms per move against simulations, {env_id}-{n}p]"
            f"(leaderboard/{env_id}-{n}p.png)"
        )
    return f"{page.rstrip()}\n\n### {env_id}, {n} players\n\n{block}{image}\n"


def publish(env_id: str, num_players: int | None = None, out: Path | None = None) -> list[Path]:
    """Copy the finished run in ``out`` (default :func:`default_out`) to ``docs/leaderboard/`` and its
    table into ``docs/leaderboard.md``; returns the files written. Everything is read and checked
    before the first write: a run that is missing, unfinished, of another table or not written by
    the command line (no ``command``) is a one-line ConfigError and nothing changes."""
    n, _ = _check_args(env_id, num_players, None, 0, 1, (), ROSTER)
    run_dir = Path(out) if out is not None else default_out(env_id, n)
    source = run_dir / "results.json"
    if not source.is_file():
        raise ConfigError(
            f"--publish: no finished run in {run_dir} ({source} is missing: run the ladder first)"
        )
    try:
        result = json.loads(source.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"--publish: {source} cannot be read ({_one_line(exc)})") from None
    if (result.get("env"), result.get("num_players")) != (env_id, n):
        raise ConfigError(
            f"--publish: {source} is {result.get('env')} at {result.get('num_players')} players, "
            f"not {env_id} at {n}"
        )
    if "command" not in result:
        raise ConfigError(
            f"--publish: {source} has no command (write it with the command line, not run_leaderboard)"
        )
    png = run_dir / "budget.png"
    page = _page_with_block(DOCS_PAGE.read_text(), result, png.is_file())
    written = [published_path(env_id, n)]
    write_atomic(written[0], json.dumps(result, indent=1) + "\n")
    if png.is_file():
        written.append(written[0].with_suffix(".png"))
        write_atomic(written[-1], png.read_bytes())
    write_atomic(DOCS_PAGE, page)
    return [*written, DOCS_PAGE]


# -- verify ----------------------------------------------------------------------------------------


def published_games(published: dict[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """The games of a published table by pairing, as a run plays them, from its ``places``. The table
    keeps no moves or seconds: they read 0 (so they count in no ms per move), and no game truncated."""
    n, orders = published["num_players"], len(published["seat_orders"])
    games = {}
    for key, per_deal in published["places"].items():
        a, b = key.split("|")
        games[a, b] = [
            {"deal": d, "order": o, "places": [int(c) for c in text[o * n : (o + 1) * n]], "truncated": False}
            | {"moves": [0] * n, "cpu_seconds": [0.0] * n}
            for d, text in enumerate(per_deal)
            for o in range(orders)
        ]
    return games


def _published_to_extend(
    env_id: str, n: int, seed: int, entrants: Sequence[Entrant], replay: Sequence[str]
) -> dict[str, Any]:
    """``--extend``'s published table, read before anything is written; a one-line ConfigError when
    there is none, it was played from another seed, it holds truncated games (it does not say which)
    or an agent played it with other model files than today's (unless it is replayed)."""
    path = published_path(env_id, n)
    if not path.is_file():
        raise ConfigError(f"--extend: no published leaderboard for {env_id} at {n} players ({_shown(path)})")
    published = json.loads(path.read_text())
    if published["seed"] != seed:
        raise ConfigError(
            f"--extend: the published table was played from --seed {published['seed']}, not {seed}"
        )
    if published.get("truncated_games"):
        raise ConfigError(
            f"--extend: the published table holds {published['truncated_games']} truncated games and "
            "does not say which; play it again without --extend"
        )
    by_label = {e.label: e for e in entrants}
    for label, before in published.get("models", {}).items():
        if label in by_label and label not in replay and by_label[label].models != before:
            raise ConfigError(
                f"--extend: {label} played the published games with other model files than today's "
                f"({_model_changes(before, by_label[label].models)}); add --replay {shlex.quote(label)} "
                "to play its games again"
            )
    return published


def _import_published(
    run_dir: Path, published: dict[str, Any], entrants: Sequence[Entrant], replay: Sequence[str]
) -> dict[str, dict[str, str]]:
    """Write the published table's games of today's pairings (but the replayed agents') as finished
    chunks of ``run_dir`` where a chunk is missing, so that the run plays only the deals after them.
    Returns the published model fingerprints, as the run's own."""
    source = published_path(published["env"], published["num_players"]).name
    whole = published["deals"] // CHUNK_DEALS * CHUNK_DEALS
    today = {(a.label, b.label): (a.spec, b.spec) for a, b in _pairings(entrants)}
    for pair, played in published_games(published).items():
        if pair not in today or set(pair) & set(replay):
            continue
        for start in range(0, whole, CHUNK_DEALS):
            chunk_path = _chunk_path(run_dir, today[pair], start)
            if not chunk_path.exists():
                deals = list(range(start, start + CHUNK_DEALS))
                chunk = {"labels": list(pair), "deals": deals, "imported": source}
                chunk["games"] = [g for g in played if start <= g["deal"] < start + CHUNK_DEALS]
                write_atomic(chunk_path, json.dumps(chunk))
    return {label: fp for label, fp in published.get("models", {}).items() if label not in replay}


def verify(
    env_id: str | None = None,
    sample: int = 2,
    pairings: Sequence[tuple[str, str]] | None = None,
    num_players: int | None = None,
) -> list[str]:
    """Check the published leaderboards (of ``env_id``, or all; of its ``num_players`` table, or
    all its tables): replay ``sample`` deals of every pairing (or of ``pairings``) and refit the
    published games. Returns the failures, [] when all hold."""
    count = "*" if num_players is None else str(num_players)
    paths = sorted(PUBLISHED_DIR.glob(f"{env_id or '*'}-{count}p.json"))
    if not paths:
        which = f" for {env_id}" if env_id else ""
        which += f" at {num_players} players" if num_players is not None else ""
        raise ConfigError(f"--verify: no published leaderboard{which} in {PUBLISHED_DIR}")
    failures = []
    for path in paths:
        published = json.loads(path.read_text())
        failures += [f"{path.name}: {f}" for f in _verify_one(published, sample, pairings)]
    return failures


def _replay_command(env_id: str, num_players: int, label: str) -> str:
    return f"{PROG} --env {env_id} --num-players {num_players} --replay {shlex.quote(label)}"


def _in_repo(options: dict[str, Any]) -> dict[str, Any]:
    """A published spec's options with a relative model ``path`` read from the repository, so that
    ``--verify`` finds a kept model (``docs/leaderboard/models/``) from any working directory."""
    if "path" in options and not Path(options["path"]).is_absolute():
        return options | {"path": str(ROOT / options["path"])}
    return options


def _verify_one(
    published: dict[str, Any], sample: int, chosen: Sequence[tuple[str, str]] | None
) -> list[str]:
    env_id, n, seed, deals = published["env"], published["num_players"], published["seed"], published["deals"]
    specs = {
        label: AgentSpec(label, s["name"], _in_repo(s["options"]))
        for label, s in published["agent_specs"].items()
    }
    failures = []
    # Refit: the published games must give the published figures.
    pairing_games = published_games(published)
    entrants = [Entrant(specs[label]) for label in published["agents"]]
    refit = summarize(
        env_id, n, seed, entrants, published["skipped"], pairing_games, deals, published["roster"]
    )
    for label, r in published["ratings"].items():
        if not np.allclose(
            [refit["ratings"][label]["rating"], *refit["ratings"][label]["ci95"]],
            [r["rating"], *r["ci95"]],
            atol=TOLERANCE,
        ):
            failures.append(
                f"{label}: the published games refit to {refit['ratings'][label]['rating']:.3f}, "
                f"not {r['rating']:.3f}"
            )
        if not r["ci95"][0] - TOLERANCE <= r["rating"] <= r["ci95"][1] + TOLERANCE:
            failures.append(f"{label}: rating {r['rating']:.3f} outside its interval {r['ci95']}")
    for p, q in zip(published["pairings"], refit["pairings"], strict=True):
        inside = p["ci95"][0] - TOLERANCE <= q["score"] <= p["ci95"][1] + TOLERANCE
        if not (inside and abs(p["score"] - q["score"]) < TOLERANCE):
            failures.append(
                f"{' vs '.join(p['agents'])}: the published games score {q['score']:.4f}, "
                f"published {p['score']:.4f} {p['ci95']}"
            )
    # Models: an agent that loads other files today than the published games were played with cannot
    # replay them; its pairings are left out of the replay (results from before fingerprints have none).
    stale: set[str] = set()
    for label, before in published.get("models", {}).items():
        spec = specs[label]
        try:
            now = model_fingerprint(_make(spec, env_id, n, 0))
        except Exception as exc:  # as in build_roster: any failure to load is the finding
            stale.add(label)
            failures.append(f"{label}: its model no longer loads ({_one_line(exc)})")
            continue
        if now != before:
            stale.add(label)
            failures.append(
                f"{label}: the published games were played with other model files than today's "
                f"({_model_changes(before, now)}), so its pairings are not replayed; "
                f"{_replay_command(env_id, n, label)} plays them again"
            )
    # Replay: a stratified sample, the same deals for every pairing.
    picked = sorted(
        np.random.default_rng([seed, 32]).choice(deals, size=min(sample, deals), replace=False).tolist()
    )
    built: AgentCache = {}  # as a run's workers keep them: a model loads once
    for key, per_deal in published["places"].items():
        a, b = key.split("|")
        if (chosen is not None and (a, b) not in chosen) or stale & {a, b}:
            continue
        replayed = play_pairing_deals(env_id, n, seed, (specs[a], specs[b]), picked, built)
        for d in picked:
            text = "".join(str(p) for g in replayed if g["deal"] == d for p in g["places"])
            if text != per_deal[d]:
                failures.append(f"{a} vs {b}, deal {d}: replayed places {text}, published {per_deal[d]}")
    return failures


# -- command line ----------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--env", help=f"env id, one of {list(mystic_envs.ENV_IDS)} (with --verify: default all)"
    )
    parser.add_argument(
        "--num-players", type=int, help="table size (default: the env's smallest; with --verify: all)"
    )
    parser.add_argument(
        "--games",
        type=int,
        help=f"games a pairing, a multiple of the seat orders (default {DEFAULT_DEALS} deals)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the base seed every deal derives from (default 0)"
    )
    parser.add_argument(
        "--workers", type=int, help=f"worker processes (default: all {default_workers()} cores)"
    )
    parser.add_argument(
        "--out", type=Path, help="run folder (default runs/leaderboard/<env>-<n>p); a rerun resumes"
    )
    parser.add_argument(
        "--replay",
        action="append",
        default=[],
        metavar="AGENT",
        help="drop every finished game of this roster agent (e.g. after its model changed) and play them "
        "again; may be repeated",
    )
    parser.add_argument(
        "--extend",
        action="store_true",
        help="take the published table's games (docs/leaderboard/<env>-<n>p.json) as finished, so that a "
        "larger --games plays only the deals after them (their ms per move are not kept)",
    )
    parser.add_argument(
        "--finished",
        action="store_true",
        help="play nothing: fit the run folder (a run stopped part-way) at the deals every pairing has "
        "finished; the table's command names the equivalent --games",
    )
    parser.add_argument("--verify", action="store_true", help="replay and refit the published leaderboards")
    parser.add_argument(
        "--publish",
        action="store_true",
        help="copy the finished run (--out) to docs/leaderboard/ and its table into docs/leaderboard.md",
    )
    parser.add_argument(
        "--sample", type=int, default=2, help="with --verify: deals replayed a pairing (default 2)"
    )
    args = parser.parse_args(argv)
    try:
        if args.publish:
            others = args.verify or args.replay or args.extend or args.finished or args.seed != 0
            if others or args.games is not None or args.workers is not None:
                raise ConfigError(
                    "--publish copies a finished run; it goes with --env, --num-players and --out only"
                )
            if args.env is None:
                raise ConfigError("--env is required with --publish")
            for path in publish(args.env, args.num_players, args.out):
                print(f"wrote {_shown(path)}")
            return 0
        if args.finished:
            clash = [
                f
                for f, on in (
                    ("--games", args.games is not None),
                    ("--workers", args.workers is not None),
                    ("--replay", args.replay),
                    ("--extend", args.extend),
                    ("--verify", args.verify),
                )
                if on
            ]
            if clash:
                raise ConfigError(
                    f"--finished fits the games a run has played; it does not go with {clash[0]}"
                )
        if args.verify:
            if args.replay or args.extend:
                flag = "--replay" if args.replay else "--extend"
                raise ConfigError(f"{flag} plays a run's games; it does not go with --verify")
            if args.sample < 1:
                raise ConfigError(f"--sample must be a positive integer, got {args.sample}")
            if args.env is not None:
                try:
                    mystic_envs.env_module(args.env)
                except (TypeError, ValueError) as exc:
                    raise ConfigError(f"--env: {exc}") from None
            if args.num_players is not None and args.env is None:
                raise ConfigError("--num-players goes with --env")
            failures = verify(args.env, args.sample, num_players=args.num_players)
            for line in failures:
                print(f"FAILED {line}")
            print(f"{PROG} --verify: {'all checks hold' if not failures else f'{len(failures)} failures'}")
            return 1 if failures else 0
        if args.env is None:
            raise ConfigError("--env is required (or --verify)")
        result = run_leaderboard(
            args.env,
            args.num_players,
            args.games,
            args.seed,
            args.workers,
            args.out,
            progress=True,
            replay=args.replay,
            extend=args.extend,
            finished=args.finished,
        )
    except ConfigError as exc:
        parser.error(" ".join(str(exc).split()))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; the finished chunks are kept: the same command resumes", file=sys.stderr)
        return 130
    argv = sys.argv[1:] if argv is None else argv
    if args.finished:  # the command that fits the same games, whatever the folder holds later
        games = result["deals"] * len(seat_orders(result["num_players"]))
        argv = [a for a in argv if a != "--finished"] + ["--games", str(games)]
    result["command"] = shlex.join(["python", "-m", "training.leaderboard", *argv])
    result["commit"] = _commit()
    result["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    run_dir = args.out or default_out(result["env"], result["num_players"])
    _write_outputs(result, run_dir)
    print(markdown_report(result))
    print(f"results: {run_dir / 'results.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
