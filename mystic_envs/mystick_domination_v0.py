"""Mystick: Domination (``mystick_domination_v0``): tarot-deck duels of Pawns and Power, 2-5 players.

Each player has a 39-card deck (two suits of 14 Minor Arcana and 11 Major Arcana). Minors are
Environments (Ace-2), Pawns (3-7, with influence and traits), Attachments (8-10) and Actions
(Page-King). A move is one of: play a card, draw (the Draw Count goes up by one; at 3 the round
ends), challenge (a Pawn draws as many Fate cards as its influence into its owner's 8-space
Mystick Cross; cards of its suit and Majors are successes; each success takes one Power from the
pool or an enemy Pawn and scores a victory point), or a special move of an Environment in play.
At a round's end Power on Pawns scores bonus points (Presence doubles) and leaves the game; when
the pool is empty the highest score wins. A player whose deck runs out is eliminated at once; the
last player standing wins. The card set is designed (none was published): every card, every
rule, and every reading of an ambiguity is in ``docs/rules/mystick_domination.md``.

| | |
|---|---|
| Agents | ``player_0`` ... ``player_{n-1}`` (``num_players`` 2-5) |
| Actions | ``Discrete(136)`` at 2 players (147, 158, 169 at 3, 4, 5) |
| Observation | ``Dict(observation=Box(float32, (1462,)), action_mask=Box(int8, (136,)))`` at 2 players |
| Observation bounds | each layout part's (``docs/rules/mystick_domination.md``); most in [0, 1] |
| Observation size | 2125, 2788, 3451 at 3, 4, 5 players |
| Rewards | (players beaten - players lost to) / (n - 1) at the end; an eliminated seat's at once |
| Import | ``from mystic_envs import mystick_domination_v0`` |

Actions (``env.unwrapped.action_meaning(a)``). One group serves every sub-decision that picks the
same kind of thing; the observation's ``phase`` says which is open. Seats in targets are relative
to the chooser (r = 0 yourself, 1 the next player in turn order, ...). At n players:

| a | meaning |
|---|---|
| 0-77 | card a: play it from your hand (``move``), or resolve its effect next (``order_effects``) |
| 78 | draw |
| 79-89 | draw a-79 extra cards with Resources (``resources``) |
| 90-99 | challenge with your Pawn in slot a-90 |
| 100 | target the pool (``challenge_target``) |
| 101 ... 101+10n-1 | target the Pawn in slot (a-101) % 10 of relative seat (a-101) // 10 |
| then n actions | target relative seat r (an effect's player target) |
| then 8 actions | mark the Fate card in cross space k for the redraw (``redraw``) |
| then 1 action | redraw the marked cards (none marked: keep them all) |
| last 4 actions | special move of the Ace of Wands, Cups, Swords, Pentacles in your play area |

Observation: egocentric (own seat first, then the next seats in turn order), laid out by
``env.unwrapped.observation_layout``; the full table is in ``docs/rules/mystick_domination.md``.
Public: play areas, Power, scores, Mystick Crosses, discard piles, deck and hand sizes, face-up
cards in hand (initiative draws), how many top cards of a deck somebody looked at, and, with two
players and random decks (one 78-card set split in two), the opponent's deck list. Private: your
own hand, the deck tops you looked at (Appraise, The High Priestess), and everywhere else the deck
lists (3-5 players, preset or listed decks: only the cards you have seen are known). Seen by
nobody: deck order and the other hands' face-down cards.

Keyword arguments: ``num_players`` (2-5, default 2), ``decks`` (``"random"`` default: a random
legal basic deck per player from the seed, the two halves of one 78-card set at two players; a
preset name such as ``"wands_cups"``; or one entry per seat, each ``"random"``, a preset or a list
of 39 card names or ids), ``construction`` (``"basic"`` default or ``"advanced"``: the rules a
listed deck must meet), ``reshuffle_opening_majors`` (False), ``render_mode`` (``"ansi"``,
``"human"``), ``illegal_action`` (``"terminate"`` default, ``"penalize"``, ``"raise"``),
``illegal_reward`` (-1.0), ``max_steps`` (5000).

Infos: the same numeric keys on every step from ``reset()`` on (``phase`` code, ``scores``,
``game_over``, ``winners`` as 0/1 per seat, ``end_reason`` code, ``illegal_player``, and this game's
own: ``round``, ``pool``, ``draw_count``, ``deck_sizes``, ``eliminated``);
``env.unwrapped.info_schema`` lists them, ``env.unwrapped.info_names`` holds the code tables, and
``docs/rules/mystick_domination.md`` has the table. ``env.state()`` is every seat's observation side
by side (a global view for centralized critics); ``parallel_env()`` is the turn-based parallel view.

Version history:

- v0: first release.
- v0: deck lists are hidden information at 3-5 players and for preset or listed decks (D-5):
  ``*_unseen`` holds only what the observer knows is among another seat's unseen cards, and
  ``determinize`` re-deals deck composition as a legal deck; a look at a deck (Appraise, The High
  Priestess) is the looker's alone (I-10). Observation shape unchanged; its values change at 3-5
  players and for chosen decks; with two random decks only after a look, and in another seat's
  view of an Attachment waiting for its Pawn (face up in hand).
- v0: the card set rebalanced by suit (D-11 of the rules page): Eternal Flame lights only a Pawn
  with no Power, Still Waters scores its cross's Majors before clearing it, Crossroads costs every
  player a card, Tidal Curse floods each opponent, Archive returns 2 cards, Fortune shuffles 2
  back before it draws; one new effect target (a Pawn of yours with no Power), and mills and
  floods that hit each opponent. Observation and action shapes unchanged.
- v0 (issue 28): the round ends the moment the Draw Count reaches 3, the rest of the move lost
  (I-2); the observation adds each Attachment's owner to the Pawn slots and ``*_discard_order``
  (1,858 values at 2 players, was 1,462), so models trained before it no longer load.
- v0 (issue 28): the card set where Power and points decide the game (D-13 of the rules page): no
  card mills another deck; the 22 Majors are distinct Fate effects; Swords Pawns score when their
  challenge succeeds (a new trigger), Crossroads raises the Draw Count, Seize the Day lets its owner
  choose who moves first, Ebb Tide shuffles your cross into your deck, Flood takes one card of each
  opponent. Observation and action shapes unchanged; seeded games change.
- v0, mystic-envs 0.2.0 (issue 27): ``reset(seed=s)`` plays the game seeded ``s`` itself (it went
  through numpy's generator first), so seeded games changed once and records of 0.1.0 no longer
  replay. The engine's own draws move to the core generator with its compiled twin.
- v0 (issue 29, unreleased so the id stays): seeded games changed once more: every draw (the
  random decks, every shuffle of a deck, ``determinize``'s re-deal) comes from the core generator
  (``mystic_envs.core.rng``, shared with the compiled twin) instead of numpy's, so records made
  before it no longer replay. The game has a compiled twin: ``mystic_envs.vector.make`` batches it
  and ``mystic_envs.make(..., engine="c")`` plays it, the same games step for step.
- v0 (issue 29): advanced listed decks holding copies of a card play on the compiled twin too
  (``vector.make`` and ``engine="c"`` refused them in one line): the core takes each seat's deck
  as its list of card ids. The Python engine's games, observations and spaces are unchanged.
- v0 (issue 32, unreleased so the id stays): the observation ``Box`` carries each layout part's
  bounds instead of (-inf, inf); the observations themselves are unchanged, and models saved with
  the old space still load and resume (only the shape is compared). A score, the pool and a
  seat's waiting effects have no maximum, so their entries saturate (score at 60, the pool at
  twice its start, each waiting effect at 4; the same in the compiled twin) and cannot leave the
  ``Box``; no value changes below the caps, which 10**6 random moves never reached.
"""

from __future__ import annotations

from typing import Any

from mystic_envs.core.aec import MysticOrderEnforcingWrapper, TurnBasedParallelEnv
from mystic_envs.mystick_domination.env import MystickDominationEnv
from mystic_envs.mystick_domination.render import cards_table, suits_table

#: Extra generated tables of docs/rules/mystick_domination.md (see mystic_envs.core.docs).
DOC_TABLES = {"cards": cards_table, "pawns": suits_table}


def raw_env(**kwargs: Any) -> MystickDominationEnv:
    """The bare AEC env."""
    return MystickDominationEnv(**kwargs)


def env(**kwargs: Any) -> MysticOrderEnforcingWrapper:
    """The AEC env wrapped like PettingZoo's classic games (order enforcing)."""
    return MysticOrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> TurnBasedParallelEnv:
    """The turn-based parallel view: ``step`` takes a dict of actions and plays only the mover's;
    ``infos[agent]["active_agent"]`` is the mover's seat index."""
    return TurnBasedParallelEnv(env(**kwargs))


__all__ = ["MystickDominationEnv", "env", "parallel_env", "raw_env"]
