"""Golden playthroughs (as OpenSpiel's): for each game, variant and player count, a checked-in file
of seeded games with their actions and a digest of every step, replayed by both engines.

A digest covers what a learner sees at one step: before the action, the mover, its observation and
its mask; after it, every seat's reward and whether the game ended. The files come from the
Python engine; a deliberate rule change regenerates them:

    python -m tests.core.golden --write

and the diff shows which games changed; ``--write --new`` writes only the files of a new case.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

import mystic_envs
from agents import make_agent
from tests.core.cases import case_id, cases

GOLDEN = Path(__file__).with_name("golden")
GAMES_PER_FILE = 3


def digest_view(mover: int, observation: np.ndarray, mask: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(np.int32(mover).tobytes())
    h.update(np.asarray(observation, dtype=np.float32).tobytes())
    h.update(np.asarray(mask, dtype=bool).tobytes())
    return h.hexdigest()[:16]


def digest_outcome(rewards: Any, ended: bool) -> str:
    h = hashlib.sha256()
    h.update(np.asarray(rewards, dtype=np.float32).tobytes())
    h.update(bytes([int(ended)]))
    return h.hexdigest()[:16]


def play_env(env: Any, seed: int, actions: list[int] | None, choose: Any = None):
    """Plays one game on an AEC env: the given actions, or those ``choose(env, agent)`` picks.
    Returns the actions and the digests (view, outcome) of each step."""
    env.reset(seed=seed)
    agents = env.possible_agents
    played, digests = [], []
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        mover = env.agent_selection
        seen = env.observe(mover)
        k = len(played)
        if actions is None:
            action = int(choose(env, mover))
        elif k < len(actions):
            action = actions[k]
        else:
            raise AssertionError(f"the game goes on after the {k} recorded actions")
        view = digest_view(agents.index(mover), seen["observation"], seen["action_mask"])
        env.step(action)
        ended = all(env.terminations.values()) or any(env.truncations.values())
        digests.append([view, digest_outcome([env.rewards[a] for a in agents], ended)])
        played.append(action)
    return played, digests


def play_batch(env_id: str, kwargs: dict, n: int, seed: int, actions: list[int]) -> list[list[str]]:
    """The same game on a batch of one: env 0's first game is seeded ``seed``."""
    from mystic_envs import vector

    v = vector.make(env_id, num_envs=1, seed=seed, num_players=n, **kwargs)
    v.reset()
    digests = []
    for action in actions:
        view = digest_view(int(v.current_player[0]), v.observation[0], v.action_mask[0])
        v.step(np.array([action], dtype=np.int64))
        digests.append([view, digest_outcome(v.rewards[0], bool(v.terminated[0] or v.truncated[0]))])
    return digests


def path_for(env_id: str, kwargs: dict, n: int) -> Path:
    return GOLDEN / f"{case_id(env_id, kwargs, n)}.json"


def write(new_only: bool = False) -> None:
    GOLDEN.mkdir(exist_ok=True)
    for env_id, kwargs, n in cases():
        if new_only and path_for(env_id, kwargs, n).exists():
            continue
        rng = np.random.default_rng(len(env_id) * 1000 + n)

        def random_legal(env: Any, agent: str, rng: np.random.Generator = rng) -> int:
            return int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))

        # Random games, then one between heuristics: random play rarely reaches a game's natural end
        # (random Mystria players run out of drops within 20 moves, before the final scoring).
        heuristic = make_agent("heuristic", env_id, seed=n)
        games = []
        for g in range(GAMES_PER_FILE):
            seed = 1000 * g + 17 * n
            env = mystic_envs.make(env_id, num_players=n, **kwargs)
            choose = heuristic.act if g == GAMES_PER_FILE - 1 else random_legal
            actions, digests = play_env(env, seed, None, choose)
            games.append({"seed": seed, "actions": actions, "digests": digests})
        record = {"env_id": env_id, "kwargs": kwargs, "num_players": n, "games": games}
        path_for(env_id, kwargs, n).write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(f"wrote {path_for(env_id, kwargs, n)}: {sum(len(g['actions']) for g in games)} steps")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="regenerate every golden file from the Python engine"
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="with --write: only the cases that have no file yet (a new variant)",
    )
    args = parser.parse_args()
    if args.write:
        write(new_only=args.new)
    else:
        parser.print_help()
