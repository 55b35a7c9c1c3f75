"""Tarot Dice (``tarot_dice_v0``): a two-player duel of polyhedral dice and tarot cards.

Each player has a D4, D6, D8, D10, D12 and D20. On your turn you capture (one of your dice showing
at least one of the opponent's takes it: both leave the board), reroll any one die, or play a Minor
Arcana card from your hand or the top of one of your three wells (numbers set a die to their value,
a Page sets 1, a Knight banishes, a Queen rerolls twice, a King sets the maximum). Three drafted
Major Arcana bend those actions, and two shared D12s, the Planet die (acts at the end of every
turn) and the Zodiac die (changes how dice roll, capture and change), rewrite the rules as they
turn. Whoever captures the last pair wins the round and scores the two dice's maximum values
(D20 + D4 = 24). A match is ``num_rounds`` rounds (then sudden death while the totals are level);
the most points wins. Full rules, every ambiguity of the draft rulebook settled, the designed
match end and anti-stall rule: ``docs/rules/tarot_dice.md``.

| | |
|---|---|
| Agents | ``player_0`` (Cups + Swords), ``player_1`` (Wands + Pentacles); the first player is drawn |
| Actions | ``Discrete(122)`` |
| Observation | ``Dict(observation=Box(float32, (1074,)), action_mask=Box(int8, (122,)))`` |
| Observation bounds | each layout part's (``docs/rules/tarot_dice.md``); most in [0, 1] |
| Rewards | +1 for the match winner, -1 for the loser, at the end; 0 for both if truncated |
| Import | ``from mystic_envs import tarot_dice_v0`` |

Actions (``env.unwrapped.action_meaning(a)``). One group serves every sub-decision that picks the
same kind of thing; the observation's ``phase`` says which decision is open, and the mask allows
only its answers. Dice are egocentric (t: 0-5 your D4 ... D20, 6-11 the opponent's, 12 the Planet
die, 13 the Zodiac die); cards are your own deck's (l: 0-13 your first suit Ace ... King, 14-27
your second suit).

| a | meaning |
|---|---|
| 0-21 | Major Arcana a: draft it (``draft``), use it when it triggers (``triggers``, ``hanged_man``) |
| 22-24 | well a-21 (The Magician: to the hand; The Devil: sacrifice its top; The Chariot: onto it) |
| 25-60 | capture: your die (a-25) // 6 takes the opponent's die (a-25) % 6 |
| 61-74 | die a-61: reroll it (``action``), or choose it for the die decision open |
| 75-102 | your card a-75: play it (``action``), or return it with The Chariot (``chariot_card``) |
| 103, 104 | play Strength, play Death from your hand |
| 105-108 | play Strength as a Page, Knight, Queen, King |
| 109-120 | number a-108: the value a number card is played as, or the Planet / Zodiac die's new face |
| 121 | pass: decline the optional effects left (a "may" Major, The Hanged Man) |

Observation: egocentric, laid out by ``env.unwrapped.observation_layout`` (name, slice, meaning,
bounds); the full table is in ``docs/rules/tarot_dice.md``. Public: every die, both symbol dice, the draft,
the Majors, well tops, graveyards, the card sacrificed to The Devil, hand sizes, Strength and
Death in a hand, and the card being played with its target and triggers. Private: your own Minor
Arcana in hand, every one a hidden card (The Magician's included). Seen by nobody: face-down well
cards and undealt cards.

Keyword arguments: ``num_rounds`` (2: each player starts one round; level totals then go to
sudden-death rounds), ``round_turn_limit`` (60 turns, after which the round ends in the nightfall
duel), ``render_mode`` (``"ansi"``, ``"human"``), ``illegal_action`` (``"terminate"`` default,
``"penalize"``, ``"raise"``), ``illegal_reward`` (-1.0), ``max_steps`` (2000), ``num_players``
(2 only).

Infos: the same numeric keys on every step from ``reset()`` on (``phase`` code, ``scores``,
``game_over``, ``winners`` as 0/1 per seat, ``end_reason`` code, ``illegal_player``, and this game's
own); ``env.unwrapped.info_schema`` lists them, ``env.unwrapped.info_names`` holds the code tables,
and ``docs/rules/tarot_dice.md`` has the table. ``env.state()`` is every seat's observation side by side (a
global view for centralized critics); ``parallel_env()`` is the turn-based parallel view.

Version history:

- v0: first release.
- v0, issue 20 (rulings a player of the game would accept; ids stay ``_v0``, the game is
  unreleased): a banished die loses only what the Knight's text takes from it (capturing, being
  captured, cards, rerolls): Leo's lock, Mercury's and Jupiter's sizes count it, Pluto and Saturn
  change it, Neptune may banish it again (I-7). A Page or King changes numbered dice only, and The
  Emperor never sets the Planet die (the symbol dice's texts list what changes them; I-34).
  Strength and Death played from the hand are no hidden cards (I-30); The Magician's well top is a
  hidden card in the hand (the observation loses ``own_seen``, ``determinize`` re-deals it; I-28).
  The "$" mark has no rule effect (the observation loses ``majors_spent``; D-1), and the nightfall
  duel comes at 60 turns instead of 40 (D-3); both measured against the alternatives. Observation
  1,124 -> 1,074 values; the PPO baseline retrained.
- v0, issue 27 (the compiled core): every shuffle, die and coin comes from the core generator
  (``mystic_envs.core.rng``, shared with the compiled twin), and ``reset(seed=s)`` plays the game
  seeded ``s``, so seeded games changed once: records of 0.1.0 no longer replay. A roll of several
  dice is one draw per die in die order; ``determinize`` re-deals from one draw of the numpy
  generator it is given, and the copy's chance goes on from that stream.
- v0 (issue 32, unreleased so the id stays): the observation ``Box`` carries each layout part's
  bounds instead of (-inf, inf); the observations themselves are unchanged, and models saved with
  the old space still load and resume (only the shape is compared).
"""

from __future__ import annotations

from typing import Any

from mystic_envs.core.aec import MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.tarot_dice.env import TarotDiceEnv
from mystic_envs.tarot_dice.render import dice_table, faces_table, majors_table

#: Extra generated tables of docs/rules/tarot_dice.md (see mystic_envs.core.docs).
DOC_TABLES = {"dice": dice_table, "faces": faces_table, "majors": majors_table}


def raw_env(**kwargs: Any) -> TarotDiceEnv:
    """The bare AEC env."""
    return TarotDiceEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    """The AEC env wrapped like PettingZoo's classic games (order enforcing)."""
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    """The turn-based parallel view: ``step`` takes a dict of actions and plays only the mover's;
    ``infos[agent]["active_agent"]`` is the mover's seat index."""
    return TurnBasedParallelEnv(env(**kwargs))


__all__ = ["TarotDiceEnv", "env", "parallel_env", "raw_env"]
