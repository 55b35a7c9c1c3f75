"""Mystria (``mystria_v0``): a two-player duel of magicians forming triangles of tokens.

Twenty stacks of three coloured tokens stand on a central board of joined spaces. On their turn a
magician moves whole stacks to adjacent empty spaces or flips them, giving the opponent one Energy
drop per action, until three joined stacks show the same colour on top (a triangle); then they
take the top token of one of those stacks and place it on their 12-place Magician board. After
twelve turns each, colour groups, the Majority token, secret Objective tiles (full rules) and the
drops left score; a magician who must act with no drop left loses at once. Full rules, the
designed board, Magician board and Objective tiles: ``docs/rules/mystria.md``.

| | |
|---|---|
| Agents | ``player_0``, ``player_1`` (who goes first is drawn from the seed) |
| Actions | ``Discrete(127)`` |
| Observation | ``Dict(observation=Box(float32, (889,)), action_mask=Box(int8, (127,)))`` |
| Observation bounds | each layout part's (``docs/rules/mystria.md``); most in [0, 1] |
| Rewards | +1 win, -1 loss at the end (also for running out of drops); 0 for a draw or if truncated |
| Import | ``from mystic_envs import mystria_v0`` |

Actions (``env.unwrapped.action_meaning(a)``; spaces A1 ... E4 row by row, places 1-12):

| a | meaning |
|---|---|
| 0-7 | keep Objective tile a (full rules setup; one of the two drawn) |
| 8-11 | score board: colour a-8 (purple, green, blue, red) on the highest free value (second player) |
| 12-66 | move a stack along the line of pair a-12 (``board.MOVE_PAIRS``), into its empty end (gaps: never) |
| 67-90 | flip the stack on space a-67 |
| 91-114 | take the top token of the stack on space a-91 (it must be part of a triangle) |
| 115-126 | place the token taken on place a-114 of one's Magician board |

Observation: egocentric, laid out by ``env.unwrapped.observation_layout`` (name, slice, meaning,
bounds); the full table is in ``docs/rules/mystria.md``. Everything is public except the Objective tiles: a
seat sees its own two drawn tiles and the one it kept; the opponent's kept tile only once the game
is over, a discarded tile never. The last 436 values are a one-action look-ahead computed from the
public board (which move or flip would form a triangle and of which colour, where each colour would
complete one, which take leaves one standing).

Keyword arguments: ``variant`` (``"full"`` default, ``"intro"``: the introductory rules, no
Objective tiles, score board 2/3/3/4 multiplied by group sizes, Majority 5), ``render_mode``
(``"ansi"``, ``"human"``), ``illegal_action`` (``"terminate"`` default, ``"penalize"``, ``"raise"``),
``illegal_reward`` (-1.0), ``max_steps`` (1000), ``num_players`` (2 only), ``engine`` (``"python"``
default, ``"c"``: the same game on the compiled twin ``mystic_envs/mystria/mystria.c``, which
``mystic_envs.vector.make("mystria_v0", num_envs=N)`` also batches; ``docs/core.md``).

Infos: the same numeric keys on every step from ``reset()`` on (``phase`` code, ``scores``,
``game_over``, ``winners`` as 0/1 per seat, ``end_reason`` code, ``illegal_player``, and this game's
own); ``env.unwrapped.info_schema`` lists them, ``env.unwrapped.info_names`` holds the code tables,
and ``docs/rules/mystria.md`` has the table. ``env.state()`` is every seat's observation side by side (a
global view for centralized critics); ``parallel_env()`` is the turn-based parallel view.

Version history:

- v0: first release (observation with the one-action look-ahead, 889 values).
- v0 (not yet released, so the id stays): the central board has gaps (no line A2-A3, E2-E3, C1-C2,
  C5-C6: 51 lines, 26 triangles; their 4 move actions stay in ``Discrete(127)`` and are never
  legal) and its stars are B2, B4, D2, D4, so the first triangle costs about a drop instead of
  standing free in two deals of three; the Objective tiles are four half-turn pairs priced by how
  often they are fulfilled (4, 6, 7 points); the observation keeps its 889 values and layout (the
  gaps' look-ahead rows stay zero), and the state keeps its public board part until a stack
  changes.
- v0 (issue 27): every shuffle and coin comes from the core generator (``mystic_envs.core.rng``,
  shared with the compiled twin), so seeded games changed once: the same seed deals another game,
  and records of 0.1.0 no longer replay.
- v0 (issue 32, unreleased so the id stays): the observation ``Box`` carries each layout part's
  bounds instead of (-inf, inf); the observations themselves are unchanged, and models saved with
  the old space still load and resume (only the shape is compared).
"""

from __future__ import annotations

from typing import Any

from mystic_envs.core.aec import MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.mystria.env import MystriaEnv
from mystic_envs.mystria.render import board_diagram, magician_diagram, objectives_table

#: Extra generated tables of docs/rules/mystria.md (see mystic_envs.core.docs).
DOC_TABLES = {"board": board_diagram, "magician_board": magician_diagram, "objectives": objectives_table}


def raw_env(**kwargs: Any) -> MystriaEnv:
    """The bare AEC env."""
    return MystriaEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    """The AEC env wrapped like PettingZoo's classic games (order enforcing)."""
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    """The turn-based parallel view: ``step`` takes a dict of actions and plays only the mover's;
    ``infos[agent]["active_agent"]`` is the mover's seat index."""
    return TurnBasedParallelEnv(env(**kwargs))


__all__ = ["MystriaEnv", "env", "parallel_env", "raw_env"]
