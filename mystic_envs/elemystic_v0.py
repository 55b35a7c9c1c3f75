"""Elemystic (``elemystic_v0``): a two-player element-drafting duel.

Each round both players draft elements (one secret each, then 2-2-1-1 from six face up), build a
column of three by alternately playing them to the front or the back, and attack: the front
element's Speed orders the attacks, its ability and bottom numbers count, every card's top half
adds Strength and Defense. Damage is Strength minus the defender's Defense; the first player
brought from 10 Energy to 0 loses. Full rules and the designed components (Thunder and the two
Thunder Tokens, Life, every stat): ``docs/rules/elemystic.md``.

| | |
|---|---|
| Agents | ``player_0``, ``player_1`` |
| Actions | ``Discrete(33)`` |
| Observation | ``Dict(observation=Box(float32, (125,)), action_mask=Box(int8, (33,)))`` |
| Observation bounds | each layout part's (``docs/rules/elemystic.md``); most in [0, 1] |
| Rewards | +1 win, -1 loss at the end; 0 otherwise (0 for both if truncated) |
| Import | ``from mystic_envs import elemystic_v0`` |

Actions (``env.unwrapped.action_meaning(a)``):

| a | meaning |
|---|---|
| 0-8 | draft element a (Earth, Light, Air, Storm, Water, Fire, Shadow, Thunder, Life) |
| 9-17 | play element a-9 to the front (a column's first element is always "front") |
| 18-26 | play element a-18 to the back |
| 27, 28 | Air Token fourth turn: +2 Strength, +3 Defense |
| 29-32 | Shadow: swap own / opponent's totals, before attacking; own / opponent's, after |

Observation: egocentric, laid out by ``env.unwrapped.observation_layout`` (name, slice,
meaning, bounds); the full table is in ``docs/rules/elemystic.md``. The opponent's secret element is in
it only while the observing player's Light effect lasts (until the end of the next Play Elements
phase); the Unknown Element never is. Both players' Thunder Tokens are public: taken (the column
is silenced) and charged (+4 Strength this round).

Keyword arguments: ``render_mode`` (``"ansi"``, ``"human"``), ``illegal_action``
(``"terminate"`` default, ``"penalize"``, ``"raise"``), ``illegal_reward`` (-1.0),
``max_steps`` (1000), ``num_players`` (2 only).

Infos: the same numeric keys on every step from ``reset()`` on (``phase`` code, ``scores``,
``game_over``, ``winners`` as 0/1 per seat, ``end_reason`` code, ``illegal_player``, and this game's
own); ``env.unwrapped.info_schema`` lists them, ``env.unwrapped.info_names`` holds the code tables,
and ``docs/rules/elemystic.md`` has the table. ``env.state()`` is every seat's observation side by side (a
global view for centralized critics); ``parallel_env()`` is the turn-based parallel view.

Version history:

- v0: first release.
- v0 (issue 20, unreleased so the id stays): Fire has Speed 6 (the rulebook's Speed picture beside
  its Attacks Example) and Shadow 5; the Thunder Tokens mean something: Thunder takes the
  opponent's token and it comes back charged, +4 Strength for its owner's next round (observation
  ``thunder_charged``, 125 values instead of 123); the top halves vary (Earth 2/2, Air 2/0, Storm
  2/2, Water 1/2, Shadow 3/0); Earth's, Air's, Storm's, Water's and Shadow's bottom halves and
  Life's restore (3) re-balanced. Models trained on the first release no longer load.
- v0 (issue 27, unreleased so the id stays): seeded games changed once: every draw (the first
  player, each round's deal, ``determinize``'s coin) comes from the core generator
  (``mystic_envs.core.rng``, shared with the compiled twin), and ``reset(seed=s)`` plays the game
  seeded ``s``; records of 0.1.0 no longer replay.
- v0 (issue 32, unreleased so the id stays): the observation ``Box`` carries each layout part's
  bounds instead of (-inf, inf); the observations themselves are unchanged, and models saved with
  the old space still load and resume (only the shape is compared).
"""

from __future__ import annotations

from typing import Any

from mystic_envs.core.aec import MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.elemystic.env import ElemysticEnv
from mystic_envs.elemystic.render import cards_table, tokens_table

#: Extra generated tables of docs/rules/elemystic.md (see mystic_envs.core.docs).
DOC_TABLES = {"cards": cards_table, "tokens": tokens_table}


def raw_env(**kwargs: Any) -> ElemysticEnv:
    """The bare AEC env."""
    return ElemysticEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    """The AEC env wrapped like PettingZoo's classic games (order enforcing)."""
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    """The turn-based parallel view: ``step`` takes a dict of actions and plays only the mover's;
    ``infos[agent]["active_agent"]`` is the mover's seat index."""
    return TurnBasedParallelEnv(env(**kwargs))


__all__ = ["ElemysticEnv", "env", "parallel_env", "raw_env"]
