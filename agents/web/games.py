"""The games a web page plays: who may sit at a table, one game in server memory, one viewer's picture.

A :class:`Session` holds a live env (or a replayed record), every position and every move; a
:class:`GameStore` keeps a bounded number of them. :func:`view_payload` builds what one viewer's
page gets, and only that: the SVG, the text, the move list and the actions are made for that viewer
from what that seat may see (``describe(viewer=seat)``, ``public_action_meaning`` for the other
seats' moves). The seed, from which every hidden card could be re-dealt, is sent only once the game
is over or when no human sits at the table.
"""

from __future__ import annotations

import importlib.util
import inspect
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from agents.human import action_label, table_events
from agents.records import GameRecorder, RecordError, parse_record, replay
from agents.web.draw import ALL, describe_text, draw, drawer
from mystic_envs.core.aec import ENV_KWARGS, game_keywords

#: Games kept in memory; the least recently used one goes when a new one would pass it.
MAX_GAMES = 32
#: Actions a game may have before it must end (every env's own max_steps is lower or close).
MAX_RECORD_ACTIONS = 20_000
HUMAN = "human"
# Options a page may give each agent, with the limits that keep one request short: nothing from the
# page may name a file on the server, and a search may not hold the server for minutes.
AGENT_OPTIONS: dict[str, dict[str, tuple[type, Any]]] = {
    "random": {},
    "heuristic": {},
    "mcts": {
        "simulations": (int, (1, 2000)),
        "rollout": (str, ("random", "heuristic")),
        "c": (float, (0, 10)),
    },
    "ppo": {"deterministic": (bool, None)},
    "rllib": {"deterministic": (bool, None)},
}
#: What each agent name means when the page gives no options (mcts with a small budget, one of the
#: leaderboard's, so that the seat menu can show its published rating).
AGENT_DEFAULTS: dict[str, dict[str, Any]] = {"mcts": {"simulations": 64}}
# Keyword choices a page cannot guess from a default value.
KWARG_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {("mystria_v0", "variant"): ("full", "intro")}


class BadRequest(ValueError):
    """A request the server refuses: answered with ``status`` and the one-line message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# -- what can sit at a table -------------------------------------------------------------------


def available_agents(env_id: str) -> list[str]:
    """The agent names a page may seat at ``env_id`` (``human`` first)."""
    from agents.heuristic import HEURISTICS
    from agents.ppo import has_shipped_model
    from agents.rllib import pretrained_path as rllib_path

    names = [HUMAN, "random"]
    if env_id in HEURISTICS:
        names.append("heuristic")
    names.append("mcts")
    if has_shipped_model(env_id) and importlib.util.find_spec("sb3_contrib") is not None:
        names.append("ppo")
    if rllib_path(env_id).is_dir():
        names.append("rllib")
    return names


def parse_agent(text: Any, env_id: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value,...`` as (name, options), within ``AGENT_OPTIONS``' limits."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(f"a seat is an agent name, got {text!r}")
    name, has_options, option_text = text.strip().partition(":")
    known = available_agents(env_id)
    if name not in known:
        raise BadRequest(f"unknown agent {name!r} for {env_id}; choose from {', '.join(known)}")
    if name == HUMAN:
        if has_options:
            raise BadRequest("the human seat takes no options")
        return name, {}
    options = dict(AGENT_DEFAULTS.get(name, {}))
    allowed = AGENT_OPTIONS[name]
    for item in option_text.split(",") if has_options else []:
        key, has_value, value = (part.strip() for part in item.partition("="))
        if not has_value or key not in allowed:
            keys = ", ".join(allowed) or "none"
            raise BadRequest(f"bad option {item!r} for agent {name!r}; it takes key=value with keys: {keys}")
        kind, limits = allowed[key]
        options[key] = _option(name, key, value, kind, limits)
    return name, options


def _option(name: str, key: str, value: str, kind: type, limits: Any) -> Any:
    if kind is bool:
        if value.lower() not in ("true", "false"):
            raise BadRequest(f"agent {name!r}: {key} must be true or false, got {value!r}")
        return value.lower() == "true"
    if kind is str:
        if value not in limits:
            raise BadRequest(f"agent {name!r}: {key} must be one of {', '.join(limits)}, got {value!r}")
        return value
    try:
        number = kind(value)
    except ValueError:
        raise BadRequest(f"agent {name!r}: {key} must be a number, got {value!r}") from None
    low, high = limits
    if not low <= number <= high:
        raise BadRequest(f"agent {name!r}: {key} must be from {low} to {high}, got {value!r}")
    return number


def agent_label(name: str, options: dict[str, Any]) -> str:
    """The agent spec string a record keeps for a seat (``mcts:simulations=100``)."""
    if not options:
        return name
    return (
        name
        + ":"
        + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
    )


def env_keywords(env_id: str) -> list[dict[str, Any]]:
    """The game's own keywords (``num_players`` aside) with defaults, and choices where known."""
    game_class = mystic_envs.make_raw(env_id).game_class
    params = inspect.signature(game_class.__init__).parameters
    out = []
    for name in game_keywords(game_class):
        if name == "num_players":
            continue
        default = params[name].default
        default = None if default is inspect.Parameter.empty else default
        out.append({"name": name, "default": default, "choices": KWARG_CHOICES.get((env_id, name))})
    return out


def published_ratings(env_id: str) -> dict[str, dict[str, str]]:
    """By player count, each seat menu agent's rating on the published leaderboard
    (``training.leaderboard``, ``docs/leaderboard/``), as the menu shows it; agents not rated are absent."""
    from training.leaderboard import published_ratings as read

    out = {}
    for n in mystic_envs.player_counts(env_id):
        ratings = read(env_id, n)
        shown = {}
        for name in available_agents(env_id):
            rating = ratings.get(agent_label(name, AGENT_DEFAULTS.get(name, {})))
            if rating is None:
                continue
            lo, hi = rating["ci95"]
            if rating["scale"] == "Elo":
                shown[name] = (
                    "Elo 0"
                    if lo == hi == rating["rating"] == 0
                    else (f"Elo {rating['rating']:+.0f} [{lo:+.0f}, {hi:+.0f}]")
                )
            else:
                shown[name] = f"place {rating['rating']:.2f} [{lo:.2f}, {hi:.2f}]"
        if shown:
            out[str(n)] = shown
    return out


def catalog() -> dict[str, Any]:
    games = []
    for env_id in mystic_envs.ENV_IDS:
        games.append(
            {
                "env_id": env_id,
                "player_counts": list(mystic_envs.player_counts(env_id)),
                "kwargs": env_keywords(env_id),
                "agents": available_agents(env_id),
                "ratings": published_ratings(env_id),
                "drawn": drawer(env_id) is not None,
            }
        )
    return {"games": games, "agent_defaults": AGENT_DEFAULTS}


# -- one game in memory ------------------------------------------------------------------------


@dataclass
class Move:
    step: int
    player: int
    action: int
    meaning: str
    public_meaning: str


@dataclass
class Session:
    """A game on the server: the live env (or a replayed record), every position, every move."""

    id: str
    env_id: str
    kwargs: dict[str, Any]
    seed: int
    seats: list[str]  # "human" or an agent spec, per seat
    tokens: dict[str, int]  # token -> human seat
    env: Any
    agents: dict[int, Any]
    source: str  # "live" or "replay"
    positions: list[Any] = field(default_factory=list)  # the game state after k moves, k = 0 ...
    moves: list[Move] = field(default_factory=list)
    recorder: GameRecorder | None = None
    record: dict[str, Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> Any:
        return self.env.unwrapped

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.record is not None

    @property
    def humans(self) -> list[int]:
        return sorted(self.tokens.values())

    def to_move(self) -> int:
        """The seat to move now, or -1 once the game is over."""
        if self.over:
            return -1
        return self.base.agent_name_mapping[self.env.agent_selection]

    # -- playing --------------------------------------------------------------------------
    def play(self, seat: int, action: int) -> None:
        assert self.recorder is not None
        agent = self.env.agent_selection
        self.recorder.record(agent, action)
        self.moves.append(
            Move(
                len(self.moves),
                seat,
                action,
                self.base.action_meaning(action),
                self.base.public_action_meaning(action),
            )
        )
        self.env.step(action)
        self.positions.append(self.base.game_state.clone())
        self._settle()

    def _settle(self) -> None:
        """Let finished agents leave (``step(None)``); once every one has, keep the record."""
        assert self.recorder is not None
        while self.env.agents:
            agent = self.env.agent_selection
            if not (self.base.terminations[agent] or self.base.truncations[agent]):
                return
            self.recorder.record(agent, None)
            self.env.step(None)
        self.record = self.recorder.finish()

    def start(self) -> None:
        self.positions.append(self.base.game_state.clone())
        self._settle()


def _seat_seed(seed: int, seat: int) -> int:
    # Each agent's own stream, fixed by the game's seed, so a game can be played again.
    return int(np.random.SeedSequence([seed, seat]).generate_state(1)[0])


def _new_id() -> str:
    return secrets.token_hex(6)


class GameStore:
    """The games in memory, at most ``limit``: the least recently used goes first."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self._lock:
            self._games[session.id] = session
            while len(self._games) > self.limit:
                self._games.popitem(last=False)

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise BadRequest(
                    f"no game {game_id!r} on this server (it keeps the {self.limit} most recent games)", 404
                )
            self._games.move_to_end(game_id)
            return session

    def __len__(self) -> int:
        return len(self._games)


def json_object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(f"{what} must be a JSON object, got {type(data).__name__}")
    return data


def new_session(body: dict[str, Any]) -> Session:
    """A live game from a ``POST /api/games`` body, every agent built before the first move."""
    env_id = body.get("env_id")
    if not isinstance(env_id, str) or env_id not in mystic_envs.ENV_IDS:
        raise BadRequest(f"unknown game {env_id!r}; available: {', '.join(mystic_envs.ENV_IDS)}")
    kwargs = body.get("kwargs") or {}
    if not isinstance(kwargs, dict):
        raise BadRequest(f"kwargs must be an object of env keywords, got {kwargs!r}")
    blocked = sorted(k for k in kwargs if k in ENV_KWARGS and k != "max_steps")
    if blocked:
        raise BadRequest(f"the page sets {', '.join(blocked)} itself; give the game's own keywords only")
    kwargs = {k: v for k, v in kwargs.items() if v is not None and v != ""}
    num_players = body.get("num_players")
    if num_players is not None:
        counts = mystic_envs.player_counts(env_id)
        if isinstance(num_players, bool) or num_players not in counts:
            raise BadRequest(f"{env_id} is for {', '.join(map(str, counts))} players, not {num_players!r}")
        kwargs["num_players"] = int(num_players)
    try:
        env = mystic_envs.make(env_id, **kwargs)
    except (TypeError, ValueError) as exc:
        raise BadRequest(f"{env_id}: {one_line(exc)}") from None
    n = len(env.possible_agents)
    seats = body.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        raise BadRequest(f"seats must list who sits in each of the {n} seats, got {seats!r}")
    seed = body.get("seed")
    if seed is None or seed == "":
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadRequest(f"seed must be an integer >= 0, got {seed!r}")
    parsed = [parse_agent(s, env_id) for s in seats]
    agents: dict[int, Any] = {}
    for seat, (name, options) in enumerate(parsed):
        if name == HUMAN:
            continue
        try:
            agents[seat] = make_agent(name, env_id, seed=_seat_seed(seed, seat), **options)
        except (TypeError, ValueError, ModuleNotFoundError, OSError) as exc:
            raise BadRequest(f"agent {name!r} cannot sit at {env_id}: {one_line(exc)}") from None
    env.reset(seed=seed)
    labels = [agent_label(name, options) for name, options in parsed]
    tokens = {secrets.token_urlsafe(12): seat for seat, (name, _) in enumerate(parsed) if name == HUMAN}
    session = Session(_new_id(), env_id, kwargs, seed, labels, tokens, env, agents, "live")
    session.recorder = GameRecorder(
        env, env_id, seed, agents=labels, kwargs=kwargs, meta={"source": "agents.serve"}
    )
    session.start()
    return session


def replay_session(raw: bytes) -> Session:
    """A finished game from an uploaded record file's bytes, replayed exactly (``RecordError``, a
    file that is not UTF-8 or not JSON included, -> 400)."""
    try:
        record = parse_record(raw, "the uploaded record")
        if len(record["actions"]) > MAX_RECORD_ACTIONS:
            raise BadRequest(f"a record of more than {MAX_RECORD_ACTIONS} actions is too long for the page")
        run = replay(record)
        positions = [run.initial_state]
        moves = []
        for step in run:
            positions.append(step.state)
            moves.append(Move(step.step, step.player, step.action, step.meaning, step.public_meaning))
    except RecordError as exc:
        raise BadRequest(f"bad record: {one_line(exc)}") from None
    session = Session(
        _new_id(),
        record["env_id"],
        record["kwargs"],
        record["seed"],
        record["agents"],
        {},
        run.env,
        {},
        "replay",
    )
    session.positions = positions
    session.moves = moves
    session.record = record
    return session


# -- one viewer's picture of a game ------------------------------------------------------------


def _viewer(session: Session, token: str | None, view: str | None) -> tuple[int | str | None, str]:
    """(viewer, label): a token's seat; in a game with no human seat, the ``view`` asked for."""
    if token:
        if token not in session.tokens:
            raise BadRequest("this token opens no seat of this game", 403)
        seat = session.tokens[token]
        return seat, f"player_{seat} (you): what your seat may see"
    if session.humans and session.source == "live":
        if view not in (None, "", "public"):
            raise BadRequest("a game with a human seat shows other views only to that seat's page", 403)
        return None, "onlooker: public information only"
    if view in (None, "", ALL):
        return ALL, "watching: everything every seat sees is shown"
    if view == "public":
        return None, "onlooker: public information only"
    try:
        seat = int(view)
    except ValueError:
        seat = -1
    if not 0 <= seat < session.num_players:
        raise BadRequest(
            f"view must be all, public or a seat from 0 to {session.num_players - 1}, got {view!r}"
        )
    return seat, f"as player_{seat} sees it"


def _step(session: Session, step: str | None) -> int:
    last = len(session.positions) - 1
    if step in (None, ""):
        return last
    try:
        k = int(step)
    except ValueError:
        raise BadRequest(f"step must be an integer from 0 to {last}, got {step!r}") from None
    if not 0 <= k <= last:
        raise BadRequest(f"step must be from 0 to {last}, got {k}")
    return k


def move_entry(
    session: Session, m: Move, viewer: int | str | None, seat_page: bool = False
) -> dict[str, Any]:
    """One move of the list as ``viewer`` may read it: in full for the mover, for everyone once the
    game is over and in a watched game; otherwise as the table heard it (a secret stays secret).
    ``seat_page``: the viewer is the human of that seat, whose own moves read "you". ``events``:
    what the move caused, as the viewer's seat may know it (the public story for everyone else)."""
    before = session.positions[m.step]
    if viewer == m.player:
        who, label = "you" if seat_page else f"player_{m.player}", action_label(before, m.action, m.player)
    elif viewer == ALL or session.over:
        who, label = f"player_{m.player}", action_label(before, m.action, m.player)
    else:
        who, label = "", action_label(before, m.action, viewer if isinstance(viewer, int) else None)
    seat = viewer if isinstance(viewer, int) else None
    events = table_events(before, session.positions[m.step + 1], viewer=seat)
    return {"step": m.step, "player": m.player, "who": who, "label": label, "events": events}


def view_payload(session: Session, token: str | None, view: str | None, step: str | None) -> dict[str, Any]:
    viewer, viewer_label = _viewer(session, token, view)
    k = _step(session, step)
    state = session.positions[k]
    latest = k == len(session.positions) - 1
    to_move = session.to_move() if latest else (-1 if state.is_terminal else int(state.current_player))
    secret_free = session.over or not session.humans
    moves = [move_entry(session, m, viewer, seat_page=bool(token)) for m in session.moves[:k]]
    actions = []
    if latest and not session.over and isinstance(viewer, int) and viewer == to_move and token:
        mask = session.base.game_state.legal_mask()
        actions = [
            {"action": int(a), "label": action_label(state, int(a), viewer)} for a in np.flatnonzero(mask)
        ]
    seat_kinds = [HUMAN if s == HUMAN else "agent" for s in session.seats]
    payload: dict[str, Any] = {
        "id": session.id,
        "env_id": session.env_id,
        "kwargs": session.kwargs,
        "source": session.source,
        "seats": session.seats,
        "human_seats": session.humans,
        "viewer": viewer,
        "viewer_label": viewer_label,
        "step": k,
        "num_steps": len(session.positions) - 1,
        "game_over": session.over,
        "to_move": to_move,
        "to_move_kind": seat_kinds[to_move] if to_move >= 0 else None,
        "phase": state.phase_name,
        "scores": [float(x) for x in state.scores()],
        "svg": draw(session.env_id, state, viewer),
        "text": describe_text(state, viewer),
        "moves": moves,
        "actions": actions,
        "seed": session.seed if secret_free else None,
    }
    if session.over:
        assert session.record is not None
        payload["result"] = session.record["result"]
    return payload


__all__ = [
    "AGENT_DEFAULTS",
    "MAX_GAMES",
    "BadRequest",
    "GameStore",
    "Session",
    "available_agents",
    "catalog",
    "env_keywords",
    "json_object",
    "move_entry",
    "new_session",
    "one_line",
    "parse_agent",
    "replay_session",
    "view_payload",
]
