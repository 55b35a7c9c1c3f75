"""Game records: a finished game as JSON, saved, loaded, checked and replayed exactly.

A record holds what it takes to re-run a game bit for bit: the env id and keywords, the seed
``reset()`` got, and every action in order. Chance lives in the engine's own generator, seeded from
``reset(seed)``, so the same seed and actions give the same game in any process (CONVENTIONS
section 3). Each action also carries its ``action_meaning``, so a record the engine no longer
reproduces (a rule changed, an action renumbered) fails at the first step that differs, and the
final scores, winners and rewards are checked at the end. The format is documented, field by
field, in ``docs/records.md``::

    {
      "format": "mystic-envs-record",
      "schema_version": 1,
      "library_version": "0.3.0",           # mystic_envs.__version__ that played it
      "env_id": "elemystic_v0",
      "kwargs": {"max_steps": 1000},          # env keywords, JSON scalars (render_mode is dropped)
      "num_players": 2,
      "seed": 123,                            # the seed given to env.reset()
      "agents": ["human", "heuristic"],       # one agent spec string per seat, in seat order
      "actions": [                            # every action played, in order (step(None) is not one)
        {"step": 0, "player": 0, "action": 5, "meaning": "...", "public_meaning": "...",
         "label": "...", "public_label": "...", "events": ["..."]},
        {"step": 1, "player": 1, "action": 9, "meaning": "...", "public_meaning": "...",
         "illegal": true}                     # only on an action the engine refused
      ],
      "result": {
        "scores": [3.0, 0.0],                 # the final info's scores, per seat
        "winners": [1, 0],                    # the final info's winners, per seat
        "rewards": [1.0, -1.0],               # each seat's total reward over the episode
        "end_reason": "game over"             # "game over", "max_steps" or "illegal action"
      },
      "meta": {}                              # optional: free-form JSON (date, notes), not checked
    }

``meaning`` is the full action meaning, ``public_meaning`` what the other seats saw (they differ
only for a secret choice, such as Mystria's kept Objective tile): the fixed names of the action
index, which a replay checks. ``label`` is the move in the mover's words with the card, die or
target named, ``public_label`` the table's sentence in the third person, and ``events`` what the
move caused as the table saw it (``mystic_envs.core.narration``: the dice rolled, a challenge's
Fate cards, a fight's totals ...); these three are written for readers, left out of an illegal
action, optional in a record and not checked by a replay. A record is the whole game, every
seat's secrets included: show one seat's view of it with ``describe(viewer=seat)``.

Making one::

    env = mystic_envs.make(env_id, **kwargs)
    env.reset(seed=seed)
    recorder = GameRecorder(env, env_id, seed, agents=["human", "heuristic"], kwargs=kwargs)
    for agent in env.agent_iter():
        ..., terminated, truncated, _ = env.last()
        action = None if terminated or truncated else choose(agent)
        recorder.record(agent, action)         # before every step, None included
        env.step(action)
    save_record(recorder.finish(), "game.json")

and checking one: ``for step in replay(load_record("game.json")): ...`` re-runs it, raising
:class:`RecordError` at the first divergence (``python -m agents.replay`` does this at the terminal).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from mystic_envs.core.aec import END_REASONS, RUNNING
from mystic_envs.core.game import GameState, is_integer
from mystic_envs.core.narration import action_label, table_events

__all__ = [
    "FORMAT",
    "SCHEMA_VERSION",
    "GameRecorder",
    "RecordError",
    "Replay",
    "ReplayStep",
    "load_record",
    "parse_record",
    "replay",
    "save_record",
]

FORMAT = "mystic-envs-record"
SCHEMA_VERSION = 1
#: The end reasons a finished record may give (every one of ``END_REASONS`` but "running").
FINISHED_REASONS = END_REASONS[RUNNING + 1 :]
# Keywords that change nothing about the game played: not stored, ignored if present.
_PRESENTATION_KWARGS = ("render_mode",)
_KEYS = ("format", "schema_version", "library_version", "env_id", "kwargs", "num_players", "seed")
_KEYS += ("agents", "actions", "result")
_ACTION_KEYS = ("step", "player", "action", "meaning", "public_meaning")
# Written for readers: the move's words and what it caused, absent from older records.
_STORY_KEYS = ("label", "public_label", "events")


class RecordError(ValueError):
    """A record that is malformed, does not fit its env, or that the engine does not reproduce.

    The message is one line naming the field or the step."""


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _game_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if k not in _PRESENTATION_KWARGS}


def _json_scalar(key: str, value: Any) -> Any:
    """``value`` as a JSON scalar (numpy numbers become Python ones); RecordError otherwise."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, str | bool | int) or _is_number(value):
        return value
    raise RecordError(f"kwargs[{key!r}] must be a JSON number, string, boolean or null, got {value!r}")


class GameRecorder:
    """Records a game played on a live AEC env.

    ``env`` is the env ``mystic_envs.make(env_id, **kwargs)`` built, just reset with ``seed`` (no
    action played yet). Call :meth:`record` before every ``env.step``, with the same action (``None``
    for a finished agent's step), then :meth:`finish` once the game is over. ``agents`` names who
    sat in each seat (agent spec strings such as ``"mcts:simulations=200"`` or ``"human"``).
    """

    def __init__(
        self,
        env: Any,
        env_id: str,
        seed: int,
        agents: list[str],
        kwargs: dict[str, Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> None:
        base = env.unwrapped
        if base.metadata.get("name") != env_id:
            raise RecordError(
                f"env_id {env_id!r} does not name the env to record ({base.metadata.get('name')!r})"
            )
        if base.game_state is None or base.num_steps != 0:
            raise RecordError(
                "GameRecorder needs an env just reset with the record's seed, before any action"
            )
        if not is_integer(seed) or seed < 0:
            raise RecordError(f"seed must be the integer >= 0 given to env.reset(), got {seed!r}")
        n = len(base.possible_agents)
        if len(agents) != n or not all(isinstance(a, str) for a in agents):
            raise RecordError(f"agents must be {n} strings, one per seat, got {agents!r}")
        self.env = env
        self.env_id = env_id
        self.seed = int(seed)
        self.agents = list(agents)
        self.kwargs = {k: _json_scalar(k, v) for k, v in _game_kwargs(dict(kwargs or {})).items()}
        self.meta = dict(meta or {})
        self.actions: list[dict[str, Any]] = []
        self._rewards = _RewardTally(base.possible_agents)
        self._info: dict[str, Any] | None = None
        # The last action's entry and the state before it: its events are told once it is played.
        self._told: tuple[dict[str, Any], GameState] | None = None

    def record(self, agent: str, action: Any) -> None:
        """Note ``agent``'s ``action`` just before ``env.step(action)``; ``None`` for a finished agent."""
        base = self.env.unwrapped
        if agent != base.agent_selection:
            raise RecordError(f"record({agent!r}, ...) but {base.agent_selection} is to step")
        self._tell()
        self._rewards.take(base, agent)
        self._info = base.infos[agent]
        if action is None:
            return
        a = int(action)
        entry = {
            "step": len(self.actions),
            "player": base.agent_name_mapping[agent],
            "action": a,
            "meaning": base.action_meaning(a),
            "public_meaning": base.public_action_meaning(a),
        }
        state = base.game_state
        if not bool(state.legal_mask()[a]) or state.is_terminal:
            entry["illegal"] = True
        else:
            entry["label"] = action_label(state, a, viewer=entry["player"])
            entry["public_label"] = action_label(state, a)
            self._told = (entry, state.clone())
        self.actions.append(entry)

    def _tell(self) -> None:
        # The state has moved on from the last legal action: what it caused, as the table saw it.
        if self._told is not None:
            entry, before = self._told
            entry["events"] = table_events(before, self.env.unwrapped.game_state)
            self._told = None

    def finish(self) -> dict[str, Any]:
        """The record of the game, which must be over (played out, truncated or ended by an illegal
        action)."""
        base = self.env.unwrapped
        self._tell()
        info = base.infos[base.agents[-1]] if base.agents else self._info
        if info is None or not int(info["game_over"]):
            raise RecordError("finish(): the game is not over yet")
        rewards = self._rewards.totals(base)
        return {
            "format": FORMAT,
            "schema_version": SCHEMA_VERSION,
            "library_version": mystic_envs.__version__,
            "env_id": self.env_id,
            "kwargs": dict(self.kwargs),
            "num_players": len(base.possible_agents),
            "seed": self.seed,
            "agents": list(self.agents),
            "actions": [dict(a) for a in self.actions],
            "result": _result(info, rewards),
            **({"meta": self.meta} if self.meta else {}),
        }


class _RewardTally:
    """Each seat's total reward over an episode, as ``env.last()`` hands it out.

    An agent's cumulative reward restarts at 0 when it acts, so adding what ``last()`` shows at
    each of its turns, its last (finished) one included, counts every reward exactly once."""

    def __init__(self, agents: list[str]) -> None:
        self.total = {a: 0.0 for a in agents}
        self.left: set[str] = set()

    def take(self, base: Any, agent: str) -> None:
        self.total[agent] += float(base._cumulative_rewards[agent])
        if base.terminations[agent] or base.truncations[agent]:
            self.left.add(agent)

    def totals(self, base: Any) -> list[float]:
        # Agents whose finished step(None) has not come yet still hold their last rewards.
        pending = {a: float(base._cumulative_rewards.get(a, 0.0)) for a in base.agents if a not in self.left}
        return [self.total[a] + pending.get(a, 0.0) for a in base.possible_agents]


def _result(info: dict[str, Any], rewards: list[float]) -> dict[str, Any]:
    return {
        "scores": [float(x) for x in np.asarray(info["scores"]).tolist()],
        "winners": [int(x) for x in np.asarray(info["winners"]).tolist()],
        "rewards": [float(r) for r in rewards],
        "end_reason": END_REASONS[int(info["end_reason"])],
    }


# -- saving and loading ------------------------------------------------------------------------


def save_record(record: dict[str, Any], path: str | os.PathLike[str]) -> Path:
    """Check ``record`` and write it to ``path`` as JSON, atomically: a temporary file in the same
    folder, renamed over ``path`` once complete, so no reader ever sees half a record."""
    checked = load_record(record)
    path = Path(path)
    if path.is_dir():
        raise RecordError(f"cannot save a record to {path}: it is a folder")
    if not path.parent.is_dir():
        raise RecordError(f"cannot save a record to {path}: folder {path.parent} does not exist")
    text = json.dumps(checked, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def parse_record(raw: bytes, where: str = "record") -> dict[str, Any]:
    """A checked copy of the record whose file content is ``raw`` (an upload, say); ``where`` names
    it in the one-line :class:`RecordError` that anything else than a valid record raises."""
    data = _json_text(raw, where)
    try:
        return _check(data)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _json_text(raw: bytes, where: str) -> Any:
    # Decoded here rather than by json.loads, which would guess UTF-16 or UTF-32 from the first
    # bytes: records are written as UTF-8, and anything else is a wrong file, not another encoding.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"{where} is not a record: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{where} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise RecordError(f"{where} is not a record: JSON nested too deeply") from None


def load_record(source: str | os.PathLike[str] | dict[str, Any]) -> dict[str, Any]:
    """A checked copy of the record at path ``source`` (or the dict ``source``).

    :class:`RecordError`, one line naming the field, for anything that does not fit the schema or
    its env: a file that is not UTF-8 or not JSON, another format or schema version, an unknown env
    id, keywords the env refuses, a player count or action out of place, a result of the wrong
    shape."""
    if isinstance(source, dict):
        try:
            return _check(source)
        except RecordError as exc:
            raise RecordError(f"record: {exc}") from None
    if isinstance(source, str | os.PathLike):
        try:
            raw = Path(source).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read record {source}: {exc.strerror or exc}") from None
        return parse_record(raw, str(source))
    raise RecordError(f"a record is a path or a dict, got {type(source).__name__}")


def _check(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {data.get('format')!r}")
    version = data.get("schema_version")
    if not is_integer(version) or version != SCHEMA_VERSION:
        raise RecordError(
            f"schema_version {version!r} is not supported (this library reads {SCHEMA_VERSION})"
        )
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise RecordError(f"missing field(s): {', '.join(missing)}")
    unknown = sorted(k for k in data if k not in _KEYS and k != "meta")
    if unknown:
        raise RecordError(f"unknown field(s): {', '.join(unknown)}")
    if not isinstance(data["library_version"], str):
        raise RecordError(f"library_version must be a string, got {data['library_version']!r}")
    env_id = data["env_id"]
    if not isinstance(env_id, str) or env_id not in mystic_envs.ENV_IDS:
        raise RecordError(
            f"env_id {env_id!r} is not a game of this library ({', '.join(mystic_envs.ENV_IDS)})"
        )
    kwargs = data["kwargs"]
    if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
        raise RecordError(f"kwargs must be an object of env keywords, got {kwargs!r}")
    kwargs = {k: _json_scalar(k, v) for k, v in _game_kwargs(kwargs).items()}
    try:
        env = mystic_envs.make(env_id, **kwargs)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"kwargs: {' '.join(str(exc).split())}") from None
    n = len(env.possible_agents)
    if not is_integer(data["num_players"]) or data["num_players"] != n:
        raise RecordError(
            f"num_players is {data['num_players']!r} but {env_id} with these kwargs has {n} players"
        )
    seed = data["seed"]
    if not is_integer(seed) or seed < 0:
        raise RecordError(f"seed must be an integer >= 0, got {seed!r}")
    agents = data["agents"]
    if not isinstance(agents, list) or len(agents) != n or not all(isinstance(a, str) for a in agents):
        raise RecordError(f"agents must be a list of {n} strings (one agent spec per seat), got {agents!r}")
    num_actions = env.action_space(env.possible_agents[0]).n
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"actions must be a list, got {type(actions).__name__}")
    checked_actions = [_check_action(i, entry, n, num_actions) for i, entry in enumerate(actions)]
    record = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "library_version": data["library_version"],
        "env_id": env_id,
        "kwargs": kwargs,
        "num_players": n,
        "seed": int(seed),
        "agents": list(agents),
        "actions": checked_actions,
        "result": _check_result(data["result"], n),
    }
    if "meta" in data:
        if not isinstance(data["meta"], dict):
            raise RecordError(f"meta must be an object, got {data['meta']!r}")
        record["meta"] = data["meta"]
    return record


def _check_action(i: int, entry: Any, n: int, num_actions: int) -> dict[str, Any]:
    where = f"actions[{i}]"
    if not isinstance(entry, dict):
        raise RecordError(f"{where} must be an object, got {entry!r}")
    missing = [k for k in _ACTION_KEYS if k not in entry]
    if missing:
        raise RecordError(f"{where} lacks {', '.join(missing)}")
    unknown = sorted(k for k in entry if k not in (*_ACTION_KEYS, *_STORY_KEYS, "illegal"))
    if unknown:
        raise RecordError(f"{where} has unknown field(s) {', '.join(unknown)}")
    if not is_integer(entry["step"]) or entry["step"] != i:
        raise RecordError(f"{where}.step must be {i}, got {entry['step']!r}")
    if not is_integer(entry["player"]) or not 0 <= entry["player"] < n:
        raise RecordError(f"{where}.player must be a seat from 0 to {n - 1}, got {entry['player']!r}")
    if not is_integer(entry["action"]) or not 0 <= entry["action"] < num_actions:
        raise RecordError(
            f"{where}.action must be an integer from 0 to {num_actions - 1}, got {entry['action']!r}"
        )
    for key in ("meaning", "public_meaning"):
        if not isinstance(entry[key], str):
            raise RecordError(f"{where}.{key} must be a string, got {entry[key]!r}")
    out = {k: entry[k] for k in _ACTION_KEYS}
    for key in ("label", "public_label"):
        if key in entry:
            if not isinstance(entry[key], str):
                raise RecordError(f"{where}.{key} must be a string, got {entry[key]!r}")
            out[key] = entry[key]
    if "events" in entry:
        events = entry["events"]
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise RecordError(f"{where}.events must be a list of strings, got {events!r}")
        out["events"] = list(events)
    if "illegal" in entry:
        if entry["illegal"] is not True:
            raise RecordError(f"{where}.illegal is only written as true, got {entry['illegal']!r}")
        out["illegal"] = True
    return out


def _check_result(result: Any, n: int) -> dict[str, Any]:
    if not isinstance(result, dict):
        raise RecordError(f"result must be an object, got {result!r}")
    keys = ("scores", "winners", "rewards", "end_reason")
    missing = [k for k in keys if k not in result]
    if missing:
        raise RecordError(f"result lacks {', '.join(missing)}")
    for key in ("scores", "rewards"):
        values = result[key]
        if not isinstance(values, list) or len(values) != n or not all(_is_number(v) for v in values):
            raise RecordError(f"result.{key} must be a list of {n} numbers, got {values!r}")
    winners = result["winners"]
    if (
        not isinstance(winners, list)
        or len(winners) != n
        or any(w not in (0, 1) or isinstance(w, bool) for w in winners)
    ):
        raise RecordError(f"result.winners must be a list of {n} entries 0 or 1, got {winners!r}")
    if result["end_reason"] not in FINISHED_REASONS:
        raise RecordError(
            f"result.end_reason must be one of {', '.join(FINISHED_REASONS)}, got {result['end_reason']!r}"
        )
    return {
        "scores": [float(v) for v in result["scores"]],
        "winners": [int(w) for w in winners],
        "rewards": [float(v) for v in result["rewards"]],
        "end_reason": result["end_reason"],
    }


# -- replaying ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayStep:
    """One recorded action, replayed: ``state`` is a copy of the game just after it."""

    step: int
    player: int
    agent: str
    action: int
    meaning: str
    public_meaning: str
    illegal: bool
    state: GameState
    info: dict[str, Any]


class Replay:
    """Re-runs a record on a fresh env, one action at a time (iterate it, or call :meth:`run`).

    ``initial_state`` is the game before the first action. Iterating yields a :class:`ReplayStep`
    per recorded action, checking first that the recorded player is the one to move, that the
    action is legal (or refused, where the record says it was) and that its ``action_meaning`` is
    the recorded one; after the last action, that the game is over with the recorded scores,
    winners, rewards and end reason. Any difference raises :class:`RecordError` naming the step,
    and the library version that made the record when it is not this one.
    """

    def __init__(self, record: str | os.PathLike[str] | dict[str, Any]) -> None:
        self.record = load_record(record)
        self.env = mystic_envs.make(self.record["env_id"], **self.record["kwargs"])
        self.env.reset(seed=self.record["seed"])
        self.base = self.env.unwrapped
        self.initial_state: GameState = self.base.game_state.clone()
        self.final_info: dict[str, Any] | None = None
        self.final_rewards: list[float] | None = None

    def _fail(self, what: str) -> RecordError:
        made = self.record["library_version"]
        version = (
            f" (the record was made with mystic-envs {made}, this is {mystic_envs.__version__})"
            if made != mystic_envs.__version__
            else ""
        )
        return RecordError(f"{what}{version}")

    def _step_out_finished(self, tally: _RewardTally) -> None:
        # Finished agents leave with step(None), as in any AEC loop.
        while self.env.agents:
            agent = self.env.agent_selection
            if not (self.base.terminations[agent] or self.base.truncations[agent]):
                return
            tally.take(self.base, agent)
            self.final_info = self.base.infos[agent]
            self.env.step(None)

    def __iter__(self) -> Iterator[ReplayStep]:
        base = self.base
        tally = _RewardTally(base.possible_agents)
        for entry in self.record["actions"]:
            i = entry["step"]
            self._step_out_finished(tally)
            if not self.env.agents:
                left = len(self.record["actions"]) - i
                raise self._fail(f"step {i}: the game is already over, with {left} recorded action(s) left")
            agent = self.env.agent_selection
            seat = base.agent_name_mapping[agent]
            if seat != entry["player"]:
                raise self._fail(
                    f"step {i}: the record has player_{entry['player']} to move, the game has {agent}"
                )
            a = entry["action"]
            meaning = base.action_meaning(a)
            if meaning != entry["meaning"]:
                raise self._fail(
                    f"step {i}: action {a} now means {meaning!r}, the record says {entry['meaning']!r}"
                )
            legal = bool(base.game_state.legal_mask()[a])
            illegal = entry.get("illegal", False)
            if legal == illegal:
                now = "legal" if legal else "illegal"
                raise self._fail(f"step {i}: action {a} ({meaning}) is {now} here, the record says otherwise")
            tally.take(base, agent)
            self.env.step(a)
            info = dict(base.infos[agent])
            yield ReplayStep(
                i, seat, agent, a, meaning, entry["public_meaning"], illegal, base.game_state.clone(), info
            )
        self._step_out_finished(tally)
        if self.env.agents:
            raise self._fail(
                f"the record ends after {len(self.record['actions'])} actions but the game goes on "
                f"({self.env.agent_selection} to move)"
            )
        self.final_rewards = tally.totals(base)
        self._check_result(_result(self.final_info, self.final_rewards))

    def _check_result(self, got: dict[str, Any]) -> None:
        want = self.record["result"]
        for key in ("end_reason", "winners", "scores", "rewards"):
            if key in ("scores", "rewards"):
                same = np.allclose(got[key], want[key], rtol=0, atol=1e-6)
            else:
                same = got[key] == want[key]
            if not same:
                raise self._fail(
                    f"result.{key}: the replay ends with {got[key]!r}, the record says {want[key]!r}"
                )

    def run(self) -> list[ReplayStep]:
        """Every step, checked to the end (``RecordError`` at the first divergence)."""
        return list(self)


def replay(record: str | os.PathLike[str] | dict[str, Any]) -> Replay:
    """A :class:`Replay` of ``record`` (a path or a dict, loaded and checked by :func:`load_record`)."""
    return Replay(record)
