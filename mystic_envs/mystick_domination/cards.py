"""Mystick: Domination component data: the designed 78-card tarot set, as declarations only.

No card list of the published game survives (``components_known.md``), so every card below is
ours, built on the rulebook's rank -> type map: Ace-2 Environments, 3-7 Pawns, 8-10 Attachments,
Page-King Actions, and the 22 Major Arcana with the effect that resolves when one is drawn as Fate.
Each suit controls what the rulebook says it controls (Wands: Power; Cups: the Mystick Cross;
Swords: moves and the Draw Count; Pentacles: hands, decks and discard piles), and each suit's Pawns
tend to its trait. The five of Wands has influence 2 (the rulebook's challenge example).

A card's effect is data: a trigger (when it acts) and a tuple of :class:`Effect` rows (opcode,
amount, target), interpreted by ``effects.py``. No card has code of its own. ``why`` gives the
reason for a card's numbers (``docs/rules/mystick_domination.md`` prints it).
"""

from __future__ import annotations

from typing import NamedTuple

# --- suits, ranks, types, traits --------------------------------------------------------------------
WANDS, CUPS, SWORDS, PENTACLES = range(4)
SUIT_NAMES = ("Wands", "Cups", "Swords", "Pentacles")
NO_SUIT = -1  # the Major Arcana
RANK_NAMES = ("", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Page", "Knight", "Queen", "King")  # fmt: skip
NUM_RANKS = 14  # Ace = 1 ... King = 14
NUM_MINORS = 4 * NUM_RANKS
NUM_MAJORS = 22
NUM_CARDS = NUM_MINORS + NUM_MAJORS
MAJOR_RANK = 15  # "considered above all the Minors"; never compared in play (initiative discards Majors)

ENVIRONMENT, PAWN, ATTACHMENT, ACTION, MAJOR = range(5)
TYPE_NAMES = ("Environment", "Pawn", "Attachment", "Action", "Major Arcana")

AGGRESSION, PRESENCE, IMMUNITY, RESOURCES = 1, 2, 4, 8  # trait bits
TRAIT_BITS = (AGGRESSION, PRESENCE, IMMUNITY, RESOURCES)
TRAIT_NAMES = ("Aggression", "Presence", "Immunity", "Resources")
SUIT_TRAIT = (AGGRESSION, PRESENCE, IMMUNITY, RESOURCES)  # each suit's own trait

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII",
         "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI")  # fmt: skip


def rank_type(rank: int) -> int:
    """The card type of a Minor of ``rank`` (the rulebook's colour bands)."""
    if rank <= 2:
        return ENVIRONMENT
    if rank <= 7:
        return PAWN
    if rank <= 10:
        return ATTACHMENT
    return ACTION


# --- the effect vocabulary ------------------------------------------------------------------------
# Triggers: when a card's effects act.
ON_PLAY = 0  # an Action: resolves when played, then the card is discarded
FATE = 1  # a Major Arcana: resolves when drawn as Fate in a challenge (in cross order)
STATIC = 2  # in play: changes influence or traits while it stays
SPECIAL_MOVE = 3  # in your play area: "You may use a move to ..."
AFTER_NEXT_INITIATIVE = 4  # registers its effects to resolve after the next initiative draw
AFTER_EACH_INITIATIVE = 5  # in play: resolves after every initiative draw
WHEN_CHALLENGES = 6  # an Attachment: when the Pawn it is attached to challenges
WHEN_CHALLENGED = 7  # an Attachment: when the Pawn it is attached to is challenged
NONE = 8  # no effect beyond the card's type (a Pawn's traits, The Fool's success)
WHEN_WINS = 9  # a Pawn, or an Attachment on it: when this Pawn's challenge succeeds (it took Power)
TRIGGER_NAMES = ("on play", "fate", "static", "special move", "after the next initiative draw",
                 "after each initiative draw", "when this Pawn challenges", "when this Pawn is challenged",
                 "none", "when this Pawn's challenge succeeds")  # fmt: skip

# Opcodes. "you" is the player who played the card (Q&A), its owner.
SCORE = 0  # you score `amount` victory points
SCORE_PER_CROSS_MAJOR = 1  # you score `amount` per Major Arcana in your Mystick Cross
LOSE_SCORE = 2  # the target player loses `amount` victory points (never below 0)
POWER_FROM_POOL = 3  # move up to `amount` Power from the pool to the target Pawn (its room allowing)
POWER_CREATE = 4  # put up to `amount` new Power on the target Pawn (its room allowing)
POWER_DESTROY = 5  # remove up to `amount` Power on the target Pawn from the game
POWER_TO_POOL = 6  # move up to `amount` Power from the target Pawn to the pool
KILL = 7  # discard the target Pawn (its Power returns to the pool, its Attachments are discarded)
DRAW_COUNT = 8  # the Draw Count changes by `amount` (never below 0)
DRAW = 9  # you draw `amount` cards (Majors replaced); the Draw Count does not change
MILL = 10  # the target player discards the top `amount` cards of their deck
RECOVER = 11  # shuffle the top `amount` cards of your discard pile into your deck
PEEK = 12  # the owner alone looks at the top `amount` cards of the target's deck, put back in order
FLOOD = 13  # the top `amount` cards of the target's deck go to the open spaces of their cross
CLEAR_CROSS = 14  # empty the target's cross: its first `amount` cards shuffled into its deck, the rest
#                   to its discard pile
SUCCESS = 15  # the challenge in progress gets `amount` extra successes
EXTRA_MOVE = 16  # you take another move after this one
MOVE_FIRST = 17  # the target player (you, if none is named) makes the first move of this round
INFLUENCE = 18  # STATIC: the attached Pawn's influence changes by `amount`
GRANT_TRAIT = 19  # STATIC: the attached Pawn gains the trait bit `amount`
TRAIT_INFLUENCE = 20  # STATIC (Environment): your Pawns with the trait bit `target` get +`amount` influence
OP_NAMES = ("score", "score per cross Major", "lose score", "power from pool", "create power",
            "destroy power", "power to pool", "kill", "draw count", "draw", "mill", "recover", "peek",
            "flood", "clear cross", "success", "extra move", "move first", "influence", "grant trait",
            "trait influence")  # fmt: skip
NUM_OPS = len(OP_NAMES)

# Targets of an effect row.
T_NONE = 0  # you, or nothing to choose
T_OWN_PAWN_ROOM = 1  # a Pawn you control with room for Power
T_PAWN_WITH_POWER = 2  # any Pawn in play with at least one Power
T_ENEMY_PAWN = 3  # a Pawn an opponent controls
T_OPPONENT = 4  # an opponent still in the game
T_EACH_OPPONENT = 5  # every opponent still in the game (no choice; LOSE_SCORE, MILL, FLOOD)
T_ANY_PLAYER = 6  # any player still in the game, you included
T_CHALLENGER = 7  # the Pawn making the challenge in progress
T_CHALLENGE_TARGET = 8  # the Pawn being challenged (nothing if the challenge is on the pool)
T_ATTACHED = 9  # the Pawn this Attachment is attached to
T_SELF = 10  # you (a cost you pay)
T_OWN_PAWN_EMPTY = 11  # a Pawn you control with no Power (and room for some)
TARGET_NAMES = ("none", "own Pawn with room", "Pawn with Power", "enemy Pawn", "opponent", "each opponent",
                "any player", "challenging Pawn", "challenge's target", "attached Pawn", "self",
                "own Pawn with no Power")  # fmt: skip
PAWN_TARGETS = (T_OWN_PAWN_ROOM, T_PAWN_WITH_POWER, T_ENEMY_PAWN, T_OWN_PAWN_EMPTY)  # chosen Pawns
PLAYER_TARGETS = (T_OPPONENT, T_ANY_PLAYER)  # chosen players


class Effect(NamedTuple):
    """One row of a card's effect: what happens (``op``), how much, and to whom."""

    op: int
    amount: int = 0
    target: int = T_NONE


class Card(NamedTuple):
    id: int  # 0-55 Minors (suit * 14 + rank - 1), 56-77 Majors (56 + number)
    name: str  # "Five of Wands", "XIII Death": what makes two cards duplicates
    title: str
    suit: int  # NO_SUIT for a Major
    rank: int  # 1 (Ace) - 14 (King); MAJOR_RANK for a Major
    number: int  # a Major's numeral 0-21; -1 for a Minor
    type: int
    influence: int  # a Pawn's printed influence; 0 for the rest
    traits: int  # a Pawn's printed traits (bits)
    trigger: int
    effects: tuple[Effect, ...]
    text: str
    why: str

    @property
    def is_major(self) -> bool:
        return self.type == MAJOR


E = Effect
# fmt: off
# (rank, title, influence, traits, trigger, effects, text, why) per suit, Ace to King.
_MINOR_ROWS: dict[int, tuple[tuple, ...]] = {
    WANDS: (
        (1, "Eternal Flame", 0, 0, SPECIAL_MOVE, (E(POWER_FROM_POOL, 1, T_OWN_PAWN_EMPTY),),
         "You may use a move to move 1 Power from the pool to a Pawn you control that has no Power.",
         "Half a challenge on the pool, free of Fate cards, so it must not repeat: once per Pawn a round "
         "(Power leaves Pawns at the round's end). Onto any Pawn with room it filled Pawns every move and "
         "Wands + Cups won 88% at 2 players."),
        (2, "Bonfire", 0, 0, STATIC, (E(TRAIT_INFLUENCE, 1, AGGRESSION),),
         "Your Pawns with Aggression have +1 influence.",
         "+1 lets a Wands Pawn reach the influence of the Pawns it means to kill."),
        (3, "Firebrand", 1, AGGRESSION, NONE, (), "Aggression.",
         "Cheapest killer: one success kills a Pawn of influence 1 it challenges."),
        (4, "Torchbearer", 2, 0, NONE, (), "",
         "A plain 2-influence Pawn, the suit's steady collector."),
        (5, "Zealot", 2, AGGRESSION, NONE, (), "Aggression.",
         "Influence 2 is the rulebook's challenge example (one success, one failure)."),
        (6, "War Priest", 2, AGGRESSION, NONE, (), "Aggression.",
         "The rank-6 killer: safe from the 3-5 Pawns it hunts."),
        (7, "Pyromancer", 3, AGGRESSION, NONE, (), "Aggression.",
         "Top Pawn of the suit: three Fate cards, kills influence 3 with a full sweep."),
        (8, "Battle Fury", 0, 0, STATIC, (E(GRANT_TRAIT, AGGRESSION, T_ATTACHED),),
         "The attached Pawn has Aggression.", "Wands' trait for any Pawn."),
        (9, "Kindled Will", 0, 0, STATIC, (E(INFLUENCE, 1, T_ATTACHED),),
         "The attached Pawn has +1 influence.", "One more Fate card and one more room for Power."),
        (10, "Burnout", 0, 0, WHEN_CHALLENGES, (E(POWER_DESTROY, 1, T_CHALLENGER),),
         "When the attached Pawn challenges, remove 1 Power on it from the game.",
         "The curse of Wands, which destroy Power: each challenge of an enemy Pawn burns what it holds "
         "(issue 28: it was one of five plain -1/+1 influence Attachments)."),
        (11, "Kindle", 0, 0, ON_PLAY, (E(POWER_CREATE, 1, T_OWN_PAWN_ROOM),),
         "Put 1 new Power on a Pawn you control.", "Creates Power: one bonus point at the round's end."),
        (12, "Firestorm", 0, 0, ON_PLAY, (E(POWER_DESTROY, 2, T_PAWN_WITH_POWER),),
         "Remove up to 2 Power on a Pawn from the game.", "Destroys what a 2-influence Pawn holds."),
        (13, "Siphon", 0, 0, ON_PLAY, (E(POWER_FROM_POOL, 2, T_OWN_PAWN_ROOM),),
         "Move up to 2 Power from the pool to a Pawn you control.",
         "Power without Fate cards and without points (only its bonus at the round's end): it drains "
         "the pool, so Power ends the game sooner. Moving Power back to the pool kept games going until "
         "a deck ran out (issue 28)."),
        (14, "Immolate", 0, 0, ON_PLAY, (E(KILL, 0, T_ENEMY_PAWN), E(LOSE_SCORE, 2, T_SELF)),
         "Discard a Pawn an opponent controls; you lose 2 victory points.",
         "A kill on demand costs about two challenges' worth of points."),
    ),
    CUPS: (
        (1, "Still Waters", 0, 0, SPECIAL_MOVE,
         (E(CLEAR_CROSS, 0, T_NONE),),
         "You may use a move to discard every card in your Mystick Cross.",
         "Reopens a cross: free, but only Fate cards, which cost the deck, fill a cross, so it cannot "
         "repeat on its own (issue 28: it also scored 1 point for each Major in the cross, a Reflection "
         "at every use)."),
        (2, "Communion", 0, 0, STATIC, (E(TRAIT_INFLUENCE, 1, PRESENCE),),
         "Your Pawns with Presence have +1 influence.", "Presence Pawns hold more Power to double."),
        (3, "Novice Seer", 1, PRESENCE, NONE, (), "Presence.", "Doubles one Power: 2 bonus points."),
        (4, "Acolyte of the Well", 2, 0, NONE, (), "", "A plain 2-influence Pawn."),
        (5, "Dreamer", 2, PRESENCE, NONE, (), "Presence.", "Up to 4 bonus points a round."),
        (6, "Healer", 2, 0, NONE, (), "", "A plain Pawn of rank 6: hard to challenge."),
        (7, "High Mystic", 3, PRESENCE, NONE, (), "Presence.", "Up to 6 bonus points a round."),
        (8, "Radiance", 0, 0, STATIC, (E(GRANT_TRAIT, PRESENCE, T_ATTACHED),),
         "The attached Pawn has Presence.", "Cups' trait for any Pawn."),
        (9, "Deep Well", 0, 0, WHEN_CHALLENGES, (E(CLEAR_CROSS, 0, T_NONE),),
         "When the attached Pawn challenges, first discard every card in your Mystick Cross.",
         "Cups control the cross: a Pawn that always finds its cross open (issue 28: it was a second "
         "+1 influence)."),
        (10, "Drowning Sorrow", 0, 0, STATIC, (E(INFLUENCE, -1, T_ATTACHED),),
         "The attached Pawn has -1 influence.", "As Burnout."),
        (11, "Ebb Tide", 0, 0, ON_PLAY, (E(CLEAR_CROSS, 8, T_NONE),),
         "Shuffle every card in your Mystick Cross into your deck.",
         "The tide returns: the Fate your challenges spent flows back, and the cross reopens (issue 28: "
         "it discarded a cross; Cups + Swords decks, with no card coming back, ran out first at 4-5 "
         "players)."),
        (12, "Flood", 0, 0, ON_PLAY, (E(FLOOD, 1, T_EACH_OPPONENT),),
         "Put the top card of each opponent's deck into the open spaces of their Mystick Cross "
         "(if none is open, to their discard pile).",
         "A space of every cross at the table (issue 28: 2 cards of one opponent's deck, it was a "
         "mill at 2 players and a small part of the table at 4-5, where Cups + Swords decks trailed)."),
        (13, "Reflection", 0, 0, ON_PLAY, (E(SCORE_PER_CROSS_MAJOR, 1, T_NONE),),
         "You score 1 victory point for each Major Arcana in your Mystick Cross.",
         "Majors are 11 of 39 cards: after two challenges a cross holds one or two."),
        (14, "Tidal Curse", 0, 0, AFTER_NEXT_INITIATIVE, (E(FLOOD, 3, T_EACH_OPPONENT),),
         "After the next initiative draw, put the top 3 cards of each opponent's deck into their "
         "Mystick Cross.",
         "A slow, bigger Flood on the whole table: three spaces gone for the next round (Cups fell "
         "behind at 3-5 players, where one opponent is a small part of the table)."),
    ),
    SWORDS: (
        (1, "Crossroads", 0, 0, SPECIAL_MOVE, (E(DRAW_COUNT, 1, T_NONE),),
         "You may use a move to raise the Draw Count by 1.",
         "Swords alter the Draw Count: a move that costs no card and brings the round's end (and its "
         "bonus) nearer, so it cannot stall (issue 28: as a move that lowered the count it was used 4.6 "
         "times a game and turned rounds into a deck race)."),
        (2, "Vigil", 0, 0, STATIC, (E(TRAIT_INFLUENCE, 1, IMMUNITY),),
         "Your Pawns with Immunity have +1 influence.", "Swords' low influence grows."),
        (3, "Duelist", 1, IMMUNITY, WHEN_WINS, (E(SCORE, 2, T_NONE),),
         "Immunity. When this Pawn's challenge succeeds, you score 2 victory points.",
         "Swords win by the duel: points for every challenge won, two here, where influence 1 wins "
         "one Power at most (issue 28: Swords' cards scored nothing, and Swords decks won near 30% "
         "once points decided the games)."),
        (4, "Sentinel", 1, IMMUNITY, WHEN_WINS, (E(SCORE, 2, T_NONE),),
         "Immunity. When this Pawn's challenge succeeds, you score 2 victory points.",
         "As the Duelist, one rank safer (issue 28: at influence 2 Swords decks won no more, 44.3% "
         "at 2 players)."),
        (5, "Knight-Errant", 2, IMMUNITY, WHEN_WINS, (E(SCORE, 1, T_NONE),),
         "Immunity. When this Pawn's challenge succeeds, you score 1 victory point.",
         "The suit's main collector."),
        (6, "Strategist", 2, 0, WHEN_WINS, (E(SCORE, 1, T_NONE),),
         "When this Pawn's challenge succeeds, you score 1 victory point.", "A plain Pawn of rank 6."),
        (7, "Champion", 3, IMMUNITY, WHEN_WINS, (E(SCORE, 1, T_NONE),),
         "Immunity. When this Pawn's challenge succeeds, you score 1 victory point.",
         "Highest rank and Immune: the safest bank."),
        (8, "Warding Sigil", 0, 0, STATIC, (E(GRANT_TRAIT, IMMUNITY, T_ATTACHED),),
         "The attached Pawn has Immunity.", "Swords' trait for any Pawn (not doubled, Q&A)."),
        (9, "Parry", 0, 0, WHEN_CHALLENGED, (E(DRAW_COUNT, 1, T_NONE),),
         "When the attached Pawn is challenged, raise the Draw Count by 1.",
         "Every challenge on it brings the round's end (and its bonus points) closer."),
        (10, "Keen Edge", 0, 0, WHEN_CHALLENGES, (E(SUCCESS, 1, T_NONE),),
         "When the attached Pawn challenges, it gets 1 extra success.", "One sure success."),
        (11, "Feint", 0, 0, ON_PLAY, (E(DRAW_COUNT, -1, T_NONE),),
         "Lower the Draw Count by 1.", "One more move for everyone before the round ends."),
        (12, "Charge", 0, 0, ON_PLAY, (E(DRAW_COUNT, 1, T_NONE),),
         "Raise the Draw Count by 1.", "Ends a round sooner without drawing a card."),
        (13, "Haste", 0, 0, ON_PLAY, (E(EXTRA_MOVE, 0, T_NONE),),
         "Take another move after this one.", "Trades the card for the move it cost."),
        (14, "Seize the Day", 0, 0, AFTER_NEXT_INITIATIVE, (E(MOVE_FIRST, 0, T_ANY_PLAYER),),
         "After the next initiative draw, you choose the player who makes the first move of the "
         "round, whoever won it.",
         "The first move matters (a review says the first player is strongly favoured)."),
    ),
    PENTACLES: (
        (1, "Treasury", 0, 0, SPECIAL_MOVE, (E(DRAW, 1, T_NONE),),
         "You may use a move to draw 1 card; the Draw Count does not change.",
         "A draw that does not end the round, at one card of your deck."),
        (2, "Archive", 0, 0, AFTER_EACH_INITIATIVE, (E(RECOVER, 2, T_NONE),),
         "After each initiative draw, shuffle the top 2 cards of your discard pile into your deck.",
         "Two cards a round back against elimination: about what a round's initiative draw and a "
         "challenge cost."),
        (3, "Merchant", 1, RESOURCES, NONE, (), "Resources.", "One extra draw a draw move."),
        (4, "Scribe", 1, RESOURCES, NONE, (), "Resources.", "As the Merchant, one rank safer."),
        (5, "Banker", 2, 0, NONE, (), "", "A plain 2-influence Pawn."),
        (6, "Guildmaster", 2, RESOURCES, NONE, (), "Resources.", "Collector and card engine."),
        (7, "Magnate", 3, RESOURCES, NONE, (), "Resources.", "Top Pawn of the suit."),
        (8, "Hidden Cache", 0, 0, STATIC, (E(GRANT_TRAIT, RESOURCES, T_ATTACHED),),
         "The attached Pawn has Resources.", "Pentacles' trait for any Pawn."),
        (9, "Ledger", 0, 0, WHEN_CHALLENGES, (E(DRAW, 1, T_NONE),),
         "When the attached Pawn challenges, you draw 1 card; the Draw Count does not change.",
         "'You' is who played it: on an enemy Pawn you draw when they challenge."),
        (10, "Heavy Purse", 0, 0, WHEN_CHALLENGED, (E(RECOVER, 2, T_NONE),),
         "When the attached Pawn is challenged, shuffle the top 2 cards of your discard pile into your "
         "deck.",
         "A Pawn worth challenging pays its keeper back in cards (issue 28: it was a third -1 "
         "influence)."),
        (11, "Appraise", 0, 0, ON_PLAY, (E(PEEK, 3, T_OPPONENT),),
         "Look at the top 3 cards of an opponent's deck, then put them back in the same order.",
         "Three cards: the next challenge's Fate for most Pawns."),
        (12, "Dividend", 0, 0, ON_PLAY, (E(RECOVER, 2, T_NONE), E(EXTRA_MOVE, 0, T_NONE)),
         "Shuffle the top 2 cards of your discard pile into your deck, then take another move.",
         "Cards back and the move back. As Levy (an opponent discarded 2) it fed the deck race that "
         "ended most games (issue 28)."),
        (13, "Hoard", 0, 0, ON_PLAY, (E(RECOVER, 3, T_NONE),),
         "Shuffle the top 3 cards of your discard pile into your deck.", "Undoes a Levy and more."),
        (14, "Fortune", 0, 0, ON_PLAY, (E(RECOVER, 2, T_NONE), E(DRAW, 2, T_NONE)),
         "Shuffle the top 2 cards of your discard pile into your deck, then draw 2 cards; the Draw Count "
         "does not change.",
         "Two cards for the hand that the deck does not pay for. Drawing 2 alone cost two deck cards and "
         "was played in under 1% of the games that held it."),
    ),
}

# (number, title, trigger, effects, text, why)
_MAJOR_ROWS: tuple[tuple, ...] = (
    (0, "The Fool", NONE, (), "No effect beyond its success.", "The blank Major: a pure success."),
    (1, "The Magician", FATE, (E(SUCCESS, 1, T_NONE), E(DRAW, 1, T_NONE)),
     "1 extra success; draw 1 card (the Draw Count does not change).",
     "Mastery of every suit: a second success and a card for the hand."),
    (2, "The High Priestess", FATE, (E(PEEK, 3, T_OPPONENT), E(DRAW, 1, T_NONE)),
     "Look at the top 3 cards of an opponent's deck, then put them back in the same order; draw 1 card.",
     "Hidden knowledge: an opponent's next Fate, and a card."),
    (3, "The Empress", FATE, (E(SCORE, 1, T_NONE), E(RECOVER, 1, T_NONE)),
     "You score 1 victory point; shuffle the top card of your discard pile into your deck.",
     "Abundance: a point and a card back."),
    (4, "The Emperor", FATE, (E(DRAW_COUNT, -1, T_NONE), E(SCORE, 1, T_NONE)),
     "Lower the Draw Count by 1; you score 1 victory point.", "Rule over time: a longer round and a point."),
    (5, "The Hierophant", FATE, (E(SUCCESS, 1, T_NONE), E(RECOVER, 2, T_NONE)),
     "1 extra success; shuffle the top 2 cards of your discard pile into your deck.",
     "Tradition: the Fate spent comes back, and a success."),
    (6, "The Lovers", FATE, (E(POWER_FROM_POOL, 1, T_OWN_PAWN_ROOM), E(SCORE, 1, T_NONE)),
     "Move 1 Power from the pool to a Pawn you control; you score 1 victory point.",
     "A union: Power for another of your Pawns, and its point."),
    (7, "The Chariot", FATE, (E(EXTRA_MOVE, 0, T_NONE), E(DRAW_COUNT, -1, T_NONE)),
     "Take another move after this one; lower the Draw Count by 1.",
     "Momentum: a move and the time to make it."),
    (8, "Strength", FATE, (E(SUCCESS, 1, T_NONE), E(SCORE, 1, T_NONE)),
     "1 extra success; you score 1 victory point.", "Force: a success and a point whatever it takes."),
    (9, "The Hermit", FATE, (E(RECOVER, 3, T_NONE), E(PEEK, 3, T_OPPONENT)),
     "Shuffle the top 3 cards of your discard pile into your deck; look at the top 3 cards of an "
     "opponent's deck, then put them back in the same order.",
     "The lantern: what was spent returns, and a look ahead."),
    (10, "Wheel of Fortune", FATE, (E(DRAW_COUNT, 1, T_NONE), E(DRAW, 1, T_NONE)),
     "Raise the Draw Count by 1; draw 1 card (the Draw Count does not change).",
     "The wheel turns: the round nears its end, and a card (lost if the round ends first)."),
    (11, "Justice", FATE, (E(LOSE_SCORE, 1, T_OPPONENT), E(SCORE, 1, T_NONE)),
     "An opponent loses 1 victory point (never below 0); you score 1.", "A two-point swing."),
    (12, "The Hanged Man", FATE, (E(POWER_DESTROY, 1, T_CHALLENGER), E(RECOVER, 3, T_NONE)),
     "Remove 1 Power on the challenging Pawn from the game; shuffle the top 3 cards of your discard "
     "pile into your deck.",
     "Sacrifice: Power given up for cards. As a mill of 2 (Levy's twin) it fed the deck race (issue 28)."),
    (13, "Death", FATE, (E(KILL, 0, T_CHALLENGE_TARGET),),
     "Discard the Pawn this challenge targets (its Power returns to the pool: nothing to transfer).",
     "The rulebook's Q&A: a Major that kills the challenge's target."),
    (14, "Temperance", FATE, (E(POWER_FROM_POOL, 1, T_CHALLENGER), E(RECOVER, 1, T_NONE)),
     "Move 1 Power from the pool to the challenging Pawn; shuffle the top card of your discard pile "
     "into your deck.",
     "Balance: Power in, a card back. Moving Power to the pool kept games going (issue 28)."),
    (15, "The Devil", FATE, (E(LOSE_SCORE, 1, T_EACH_OPPONENT),),
     "Each opponent loses 1 victory point.", "Temptation's toll on the whole table."),
    (16, "The Tower", FATE, (E(POWER_DESTROY, 2, T_CHALLENGE_TARGET), E(DRAW_COUNT, 1, T_NONE)),
     "Remove up to 2 Power on the Pawn this challenge targets from the game; raise the Draw Count by 1.",
     "Upheaval: the target's Power falls and the round nears its end (it was Death's twin)."),
    (17, "The Star", FATE, (E(SCORE, 2, T_NONE),), "You score 2 victory points.", "Two points."),
    (18, "The Moon", FATE, (E(DRAW_COUNT, -1, T_NONE), E(RECOVER, 1, T_NONE)),
     "Lower the Draw Count by 1; shuffle the top card of your discard pile into your deck.",
     "A long night: the round stretches and a card returns (it was a small Flood)."),
    (19, "The Sun", FATE, (E(POWER_CREATE, 1, T_CHALLENGER), E(SCORE, 1, T_NONE)),
     "Put 1 new Power on the challenging Pawn; you score 1 victory point.",
     "Radiance: new Power and its point (it was Kindle on the challenger)."),
    (20, "Judgement", AFTER_NEXT_INITIATIVE, (E(SCORE, 2, T_NONE), E(DRAW, 1, T_NONE)),
     "After the next initiative draw, you score 2 victory points and draw 1 card.",
     "A reckoning at the next round: lost if you are eliminated first."),
    (21, "The World", FATE, (E(SUCCESS, 2, T_NONE), E(EXTRA_MOVE, 0, T_NONE)),
     "2 extra successes; take another move after this one.", "The strongest Major: completion."),
)
# fmt: on


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in range(4):
        for rank, title, infl, traits, trigger, effects, text, why in _MINOR_ROWS[suit]:
            cid = suit * NUM_RANKS + rank - 1
            assert cid == len(cards)
            name = f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"
            cards.append(
                Card(
                    cid,
                    name,
                    title,
                    suit,
                    rank,
                    -1,
                    rank_type(rank),
                    infl,
                    traits,
                    trigger,
                    effects,
                    text,
                    why,
                )
            )
    for number, title, trigger, effects, text, why in _MAJOR_ROWS:
        cid = NUM_MINORS + number
        name = f"{ROMAN[number]} {title}"
        cards.append(
            Card(cid, name, title, NO_SUIT, MAJOR_RANK, number, MAJOR, 0, 0, trigger, effects, text, why)
        )
    return tuple(cards)


CARDS: tuple[Card, ...] = _build()
CARD_NAMES: tuple[str, ...] = tuple(c.name for c in CARDS)
CARD_BY_NAME: dict[str, int] = {c.name.lower(): c.id for c in CARDS}
for _c in CARDS:  # "The Tower", "Tower" and "XVI" name the same Major; "5 of Wands" a Minor too
    if _c.is_major:
        CARD_BY_NAME.setdefault(_c.title.lower(), _c.id)
        CARD_BY_NAME.setdefault(_c.title.lower().removeprefix("the "), _c.id)
        CARD_BY_NAME.setdefault(ROMAN[_c.number].lower(), _c.id)
    else:
        CARD_BY_NAME.setdefault(f"{_c.rank} of {SUIT_NAMES[_c.suit]}".lower(), _c.id)

# Hot-path copies: plain tuples index faster than NamedTuple attributes.
SUIT = tuple(c.suit for c in CARDS)
RANK = tuple(c.rank for c in CARDS)
TYPE = tuple(c.type for c in CARDS)
IS_MAJOR = tuple(c.type == MAJOR for c in CARDS)
INFLUENCE_PRINTED = tuple(c.influence for c in CARDS)
TRAITS_PRINTED = tuple(c.traits for c in CARDS)
TRIGGER = tuple(c.trigger for c in CARDS)
EFFECTS = tuple(c.effects for c in CARDS)
SPECIAL_CARDS: tuple[int, ...] = tuple(c.id for c in CARDS if c.trigger == SPECIAL_MOVE)
MAJOR_IDS = tuple(range(NUM_MINORS, NUM_CARDS))


def suit_cards(suit: int) -> tuple[int, ...]:
    """The 14 card ids of ``suit``, Ace to King."""
    return tuple(range(suit * NUM_RANKS, (suit + 1) * NUM_RANKS))


# --- game constants -------------------------------------------------------------------------------
POOL_BY_PLAYERS = {2: 11, 3: 15, 4: 19, 5: 23}  # the rulebook's chart
OPENING_HAND = 6
CROSS_SPACES = 8
ROUND_DRAWS = 3  # the round ends when the Draw Count reaches 3
DECK_SIZE = 39
SUIT_CARDS_PER_DECK = 14
MAJORS_PER_DECK = 11
MAX_COPIES_ADVANCED = 3
MAX_PAWNS = 10  # play-area slots for Pawns: a basic deck holds exactly 10 (D-4)
