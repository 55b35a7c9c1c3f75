"""Mystic Vale (``mystic_vale_v0``): card crafting for 2-4 players.

Each player owns 20 sleeved cards. A turn: push cards from the deck into the field one at a time
(decay on the field and on-deck cards, less growth, spoils at 4: no Harvest, but the mana token
turns active), or pass; in the Harvest, spend the field's mana (and the mana token) on up to two
advancements (Fertile Soil or the nine face-up commons), each sleeved into an open slot of a field
card, and its spirit symbols on up to two of the eight face-up vales; VP tokens come from the
field's VP symbols and abilities. When the VP pool runs out the round is finished, and tokens plus
end-game VP on advancements and vales decide (tiebreak: level-3 advancements + level-2 vales). The
card pool is designed where the rulebook and research give nothing: every card, rule and reading
is in ``docs/rules/mystic_vale.md``.

| | |
|---|---|
| Agents | ``player_0`` ... ``player_{n-1}`` (``num_players`` 2-4) |
| Actions | ``Discrete(51)`` at every player count |
| Observation | ``Dict(observation=Box(float32, (2984,)), action_mask=Box(int8, (51,)))`` at 2 players |
| Observation bounds | each layout part's (``docs/rules/mystic_vale.md``); most in [0, 1] |
| Observation size | 4157, 5330 at 3, 4 players |
| Rewards | (players beaten - players lost to) / (n - 1) at the end |
| Import | ``from mystic_envs import mystic_vale_v0`` |

Actions (``env.unwrapped.action_meaning(a)``); the observation's ``phase`` says which decision
is open:

| a | meaning |
|---|---|
| 0 | pass (end planting) |
| 1 | push (the on-deck card into the field) |
| 2 | done / decline / keep the peeked card / accept the spoil / pay full price |
| 3-22 | your card a-3 (a field, deck or on-deck card: the phase says which) |
| 23 | discard the top card of your deck (Calm Weather) |
| 24, 25 | instead of spoiling, discard the on-deck card and reveal another (Peacekeeper Druid; a vale) |
| 26 | instead of spoiling, Blooming Arbor to the box for 1 growth |
| 27 | use Conclave of Ents (+1 guardian on a card) |
| 28-36 | buy the face-up commons advancement at position a-28 (rows of levels 1, 2, 3) |
| 37-39 | buy a Fertile Soil (top, middle, bottom) |
| 40-47 | buy the face-up vale at position a-40 (level-1 row, level-2 row) |
| 48-50 | Sunstone Aerie: 2 mana, one animal / forest / sky spirit counts as wild |

Observation: egocentric (own seat first, then the next seats in turn order), laid out by
``env.unwrapped.observation_layout``; the full table is in ``docs/rules/mystic_vale.md``. Public:
fields, on-deck cards, what is sleeved on every card, pile sizes, vales, VP tokens, mana tokens,
the commons and vale rows, the active player's Harvest. Private: your own discard pile, and the
top card of your deck while you look at it with Calm Weather. Seen by nobody: deck order, the
commons and vale decks, the level-1 advancements left in the box.

Keyword arguments: ``num_players`` (2-4, default 2), ``render_mode`` (``"ansi"``, ``"human"``),
``illegal_action`` (``"terminate"`` default, ``"penalize"``, ``"raise"``), ``illegal_reward``
(-1.0), ``max_steps`` (5000), ``engine`` (``"python"`` default, ``"c"``: the same game on the compiled
twin ``mystic_envs/mystic_vale/mystic_vale.c``, which ``mystic_envs.vector.make("mystic_vale_v0",
num_envs=N)`` also batches; ``docs/core.md``).

Infos: the same numeric keys on every step from ``reset()`` on (``phase`` code, ``scores`` (points
so far: tokens + end-game VP), ``game_over``, ``winners`` as 0/1 per seat, ``end_reason`` code,
``illegal_player``, and this game's own: ``turn``, ``pool``, ``vp_tokens``, ``stage``, ``active``);
``env.unwrapped.info_schema`` lists them. ``env.state()`` is every seat's observation side by
side; ``parallel_env()`` is the turn-based parallel view.

Version history:

- v0: first release.
- v0, issue 19 (balance): the designed card data retuned for the game's length (a median of 22
  turns a player under heuristic self-play, the real game's 10-15 wanted): VP tokens each Harvest
  on level-1, -2 and -3 advancements, a growth on Hollow Burrow and four level-2/3 ones, a VP
  token on five vales (docs/rules/mystic_vale.md, "Designed components" and "Balance").
- v0, mystic-envs 0.2.0 (issue 27): ``reset(seed=s)`` plays the game seeded ``s`` itself (it went
  through numpy's generator first), so seeded games changed once and records of 0.1.0 no longer
  replay.
- v0, issue 28: carried growth counts in the decay every seat is shown; ``describe()`` names the
  round and the skipped Harvest; the designed economy retuned (four level-1 cards with two
  symbols and a VP token, fewer points on the designed level 3s, the designed level-2 vales'
  end VP capped): docs/rules/mystic_vale.md, "Designed components".
- v0, mystic-envs 0.3.0 (issue 29, the compiled twin): every shuffle and draw (the starting
  decks, the level and vale decks, the starting player, each reshuffled discard pile, Cleansing
  Rain's shuffle) comes from the core generator (``mystic_envs.core.rng``, shared with the
  compiled twin), so seeded games changed once more: records of 0.2.0 no longer replay, and their
  replay names both versions. ``determinize`` re-deals from one draw of the numpy generator it is
  given, and the copy's chance goes on from that stream.
- v0 (issue 32, unreleased so the id stays): the observation ``Box`` carries each layout part's
  bounds instead of (-inf, inf); the observations themselves are unchanged, and models saved with
  the old space still load and resume (only the shape is compared). Every bound is derived from
  the components (the VP pool, 20 cards at their sleeve's most, every vale in the game), none
  from play, so no observation can leave its ``Box``.
"""

from __future__ import annotations

from typing import Any

from mystic_envs.core.aec import MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.mystic_vale.docs_tables import DOC_TABLES as DOC_TABLES
from mystic_envs.mystic_vale.env import MysticValeEnv


def raw_env(**kwargs: Any) -> MysticValeEnv:
    """The bare AEC env."""
    return MysticValeEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    """The AEC env wrapped like PettingZoo's classic games (order enforcing)."""
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    """The turn-based parallel view: ``step`` takes a dict of actions and plays only the mover's;
    ``infos[agent]["active_agent"]`` is the mover's seat index."""
    return TurnBasedParallelEnv(env(**kwargs))


__all__ = ["MysticValeEnv", "env", "parallel_env", "raw_env"]
