"""A rule-based Mystick: Domination player (the balance reference of ``docs/rules/mystick_domination.md``).

It sees only what its seat sees: every decision is taken on ``state.determinize(seat)``, where the
other hands and every deck's order are re-dealt, and it reads only public facts (play areas,
Power, pool, scores, crosses, the Draw Count, deck sizes) plus its own hand and its own deck's
*composition* (its deck list less every card of its own it can see: that is the same in every
determinization, whatever order the deal gives). It plays any player count; "the opponent" below
is the leader among the other seats.

Every legal move is given a value in victory points, less the cards of its own deck it costs, and
the best is played (ties to the lowest action):

- Deck as life. A player whose deck runs out is eliminated, so a card taken from the deck (a draw,
  a Fate card, a redraw, a Major replaced) costs ``0.1 + 9 / (deck - 4 - 6 r)`` points, ``r`` the
  rounds still to come (``1 + pool // 4``: each takes an initiative draw and forced moves), plus
  0.03 per card it trails the thinnest rival deck by: nearly free with a deep deck, dear with a
  thin one. No move that can empty its own deck is played unless it wins the game at once (the
  next initiative draw needs a card too, so it keeps a reserve). A victory point counts less the
  further ahead on score it already is (``1 / (1 + lead / 4)``): a big lead is lost by
  elimination, not on points.
- Challenge. The chance a Fate card is a success is the share of the challenging Pawn's suit plus
  the Majors in the cards left in its deck; one redraw of the failures raises it to ``p + (1 - p) p``
  while the deck is healthy. The number of Fate cards is the Pawn's influence, capped by the open
  spaces of the cross. The expected transfer is ``E[min(successes - immunity, target's Power,
  room)]`` over the binomial; each Power moved is worth its victory point now, the bonus it will
  likely score at the round's end (doubled with Presence), and, from an enemy Pawn, the bonus that
  Pawn loses. An Aggression Pawn adds the chance of a kill times the target's worth; Power from
  the pool adds ``0.3 tanh(lead / 4)`` a Power (the game ends when the pool is empty: good for the
  leader). The best target of each Pawn is compared with the other moves.
- Draw Count. Drawing ends the round when the Draw Count reaches 3: worth the difference between
  its own bonus (Power on its Pawns, Presence doubled) and the best other seat's, and, with an
  empty pool, a win or a loss by the final scores. Below 3 a draw is worth a share of that lead,
  so it draws to close a round it leads and avoids drawing when behind (it plays, challenges, or
  turns the Draw Count down with Feint or the Emperor instead). Crossroads, a free move that raises
  the count, is used only at two players and only while it leaves the round running: ending rounds
  with it lost games (five players, the same 300 games: Swords decks 15.1% when it did, 19.6% when
  it did not), and at 3-5 players every use shortens a round for the whole table, so the game runs
  more rounds and every deck pays more initiative draws (Cups + Swords decks, which get no card
  back, were eliminated most and won least).
- Duels. A Swords Pawn's points "when this Pawn's challenge succeeds" count at the chance that the
  challenge moves some Power.
- Moves. An extra move (Haste, Dividend, The Chariot, The World) is a move it must make, and every
  move spends a card of the hand or the deck: it is worth the best other move it has now, not a
  flat point (valued at a point, Haste and the first-move cards lost Swords decks games). Who moves
  first in a round (Seize the Day) is another seat, the next in turn order.
- Development. Pawns are worth their influence plus a little rank (a high rank cannot be
  challenged by lower Pawns) and half of any duel point; +1 influence Attachments and Keen Edge go
  on its own strongest Pawn, -1 influence on the enemy Pawn that would spill the most Power or lose
  the most, traits on its own Pawns that lack them; Environments by the Pawns they boost or the
  special move they give.
- Actions by their immediate value: Kindle / Eternal Flame put Power on its Pawns, Firestorm
  strips the richest enemy Pawn, Siphon takes Power from the pool, Immolate kills a strong one,
  Flood costs every opponent a card, a card shuffled back into its deck (Hoard, Archive, Fortune,
  Dividend, Ebb Tide's cross) is worth what a deck card costs, Charge ends a round it leads, Feint
  stretches one it trails, Reflection scores its cross's Majors, Still Waters reopens its cross.
- Sub-decisions. Resources extras only with a deep deck and a thin hand; the redraw marks failures
  one by one while the successes in the cross fall short of what the transfer (or the kill) can
  use and the deck can pay for them; an effect's target is the best Pawn or player for its opcode
  (its own Pawn with room and Presence for Power it gains, the richest enemy Pawn for Power it
  removes, the leader for lost points, the thinnest deck for mills); simultaneous effects resolve
  in card order. Ties between equal targets go to the next seat in turn order, a rule that reads
  the same from every seat.

``decide(state, seat)`` is the whole player (about 65 us a decision); the same function is the
rollout policy of ``agents.mcts``.
"""

from __future__ import annotations

import math

from agents.heuristic.base import DeterminizingHeuristic
from mystic_envs.mystick_domination.cards import (
    AFTER_NEXT_INITIATIVE,
    AGGRESSION,
    ATTACHMENT,
    CARD_BY_NAME,
    CLEAR_CROSS,
    CROSS_SPACES,
    DRAW,
    DRAW_COUNT,
    EFFECTS,
    ENVIRONMENT,
    EXTRA_MOVE,
    FLOOD,
    GRANT_TRAIT,
    IMMUNITY,
    INFLUENCE,
    INFLUENCE_PRINTED,
    IS_MAJOR,
    KILL,
    LOSE_SCORE,
    MAX_PAWNS,
    MILL,
    MOVE_FIRST,
    PAWN,
    PAWN_TARGETS,
    POWER_CREATE,
    POWER_DESTROY,
    POWER_FROM_POOL,
    POWER_TO_POOL,
    PRESENCE,
    RANK,
    RECOVER,
    RESOURCES,
    ROUND_DRAWS,
    SCORE,
    SCORE_PER_CROSS_MAJOR,
    SPECIAL_CARDS,
    SUCCESS,
    SUIT,
    T_EACH_OPPONENT,
    T_SELF,
    TRAIT_INFLUENCE,
    TRIGGER,
    TYPE,
    WHEN_CHALLENGED,
    WHEN_CHALLENGES,
    WHEN_WINS,
    Effect,
)
from mystic_envs.mystick_domination.rules import (
    ATTACH_TARGET,
    CHALLENGE_TARGET,
    EFFECT_TARGET,
    MOVE,
    ORDER,
    REDRAW,
    RESOURCES_CHOICE,
    MystickState,
)

HOLD = 0.75  # share of a Pawn's Power expected to survive to the round's end (and score its bonus)
WIN = 30.0  # a game won (or lost) at once, in victory points: more than any move's points
RESERVE = 2  # cards kept in the deck: the next initiative draw takes one (Majors more)
PRICE = 9.0  # a card of a deck of d costs about PRICE / (d - 4) points
OFFSET = 4
LEAD = 4.0
ROUND_DRAIN = 4  # Power a round takes from the pool, about (2 players)
ROUND_CARDS = 6
FIRST_MOVE = 0.3  # making a round's first move, a cost: moves spend cards, and passing is no move
DRAIN = 0.3  # a Power out of the pool, for a seat well ahead: the game's end comes nearer
# A special-move Environment's worth in play (Eternal Flame, Still Waters, Treasury): about a move
# it saves each round.
SPECIAL_WORTH = {
    CARD_BY_NAME["ace of wands"]: 1.8,
    CARD_BY_NAME["ace of cups"]: 0.8,
    CARD_BY_NAME["ace of pentacles"]: 0.5,
}
MAJOR_SHARE = 11 / 39  # how many draws a Major in hand costs: draws = 1 / (1 - share)


# --- what a seat may read ----------------------------------------------------------------------
def card_price(s: MystickState, p: int, spent: float = 0.0) -> float:
    """The value of one card of ``p``'s deck (after ``spent`` more are gone): cheap while the deck
    is deep, steep as it thins, since an empty deck is elimination."""
    left = len(s.deck[p]) - spent
    rival = min((len(s.deck[q]) for q in others(s, p)), default=left)
    behind = max(0.0, rival - left) * 0.03  # a thinner deck than a rival's runs out first
    # Each round still to come costs an initiative draw and a few forced moves: a reserve.
    rounds_left = 1 + s.pool // ROUND_DRAIN
    return 0.1 + behind + PRICE / max(left - OFFSET - ROUND_CARDS * rounds_left, 0.5)


def deck_cost(s: MystickState, p: int, cards: float) -> float:
    """The value of ``cards`` cards of ``p``'s deck, priced at the deck's size halfway through."""
    return cards * card_price(s, p, cards / 2)


def point_weight(s: MystickState, p: int) -> float:
    """How much a victory point is worth now: less the further ahead this seat already is (a big
    lead is lost by elimination, not on points, so the deck matters more)."""
    lead = s.score[p] - max((s.score[q] for q in others(s, p)), default=0)
    return 1.0 / (1.0 + max(0, lead) / LEAD)


def success_share(s: MystickState, p: int, suit: int) -> float:
    """Share of ``p``'s remaining deck that is a success for a Pawn of ``suit`` (its suit or a Major);
    the composition, not the order, so every determinization agrees."""
    deck = s.deck[p]
    if not deck:
        return 0.0
    return sum(1 for c in deck if IS_MAJOR[c] or SUIT[c] == suit) / len(deck)


def multiplier(s: MystickState, q: int, slot: int) -> int:
    return 2 if s.traits[q][slot] & PRESENCE else 1


def bonus(s: MystickState, q: int) -> int:
    """The bonus points ``q`` would score if the round ended now."""
    return sum(s.power[q][t] * multiplier(s, q, t) for t in range(MAX_PAWNS) if s.pawn[q][t] >= 0)


def others(s: MystickState, p: int) -> list[int]:
    return [q for q in range(s.n) if q != p and s.alive[q]]


def bonus_lead(s: MystickState, p: int) -> float:
    """Own round-end bonus less the best other seat's."""
    rivals = others(s, p)
    return bonus(s, p) - max((bonus(s, q) for q in rivals), default=0)


def final_value(s: MystickState, p: int, extra: dict[int, float] | None = None) -> float:
    """The value of the game ending now, the round's bonus added: rank-based, as the rewards."""
    extra = extra or {}
    key = {q: (s.score[q] + extra.get(q, 0), len(s.deck[q])) for q in range(s.n) if s.alive[q]}
    mine = key[p]
    beat = sum(1 for q in range(s.n) if q != p and (not s.alive[q] or key[q] < mine))
    lost = sum(1 for q in key if q != p and key[q] > mine)
    return WIN * (beat - lost) / max(s.n - 1, 1)


def pawn_worth(s: MystickState, q: int, t: int) -> float:
    """What a Pawn in play is worth to its owner: its influence, its Power's bonus."""
    return 1.0 + s.infl[q][t] + s.power[q][t] * multiplier(s, q, t)


def drain_value(s: MystickState, p: int) -> float:
    """The worth of one Power leaving the pool (the game ends at a round's end with the pool empty):
    good for a seat ahead on points, bad for one behind."""
    lead = s.score[p] + bonus(s, p) - max((s.score[q] + bonus(s, q) for q in others(s, p)), default=0)
    return DRAIN * math.tanh(lead / 4.0)


def open_spaces(s: MystickState, p: int) -> int:
    return sum(1 for c in s.cross[p] if c < 0)


def turn_order(s: MystickState, p: int, code: int) -> int:
    """A tie-break key for a pawn code (or -1, the pool, first): seats counted from ``p`` in turn
    order, so the rule reads the same from every seat (lowest seat number first would make
    player_0 everyone's target at 3-5 players)."""
    if code < 0:
        return -1
    q, slot = divmod(code, MAX_PAWNS)
    return ((q - p) % s.n) * MAX_PAWNS + slot


def _pmf(k: int, q: float) -> list[float]:
    return [math.comb(k, i) * q**i * (1 - q) ** (k - i) for i in range(k + 1)]


# --- challenges --------------------------------------------------------------------------------
def challenge_value(s: MystickState, p: int, slot: int, target: int) -> float:
    """Expected value of ``p``'s Pawn in ``slot`` challenging ``target`` (-1 the pool, else a pawn
    code), less the cards it costs."""
    k = min(s.infl[p][slot], open_spaces(s, p))
    if k <= 0:
        return -1.0
    deck = len(s.deck[p])
    if deck - k < RESERVE:
        return -WIN  # the Fate Draw would leave the deck empty or nearly
    share = success_share(s, p, SUIT[s.pawn[p][slot]])
    redraw = deck - k - RESERVE >= k
    q = share + (1 - share) * share if redraw else share
    extra = sum(
        e.amount
        for a, _ in s.attach[p][slot]
        if TRIGGER[a] == WHEN_CHALLENGES
        for e in EFFECTS[a]
        if e.op == SUCCESS
    )
    room = s.infl[p][slot] - s.power[p][slot]
    if target < 0:
        have, immune, their_mult, kill_at, worth = s.pool, 0, 0, None, 0.0
    else:
        r, t = divmod(target, MAX_PAWNS)
        have = s.power[r][t]
        immune = 1 if s.traits[r][t] & IMMUNITY else 0
        their_mult = multiplier(s, r, t)
        kill_at = s.infl[r][t] if s.traits[p][slot] & AGGRESSION else None
        worth = pawn_worth(s, r, t)
    cap = min(have, room)
    moved = kill = won = 0.0
    for x, pr in enumerate(_pmf(k, q)):
        got = max(0, x + extra - immune)
        moved += pr * min(got, cap)
        if kill_at is not None and got >= kill_at:
            kill += pr
        if got and cap:
            won += pr
    mine = multiplier(s, p, slot)
    value = moved * (1.0 + HOLD * mine + HOLD * their_mult) + kill * worth + won * win_points(s, p, slot)
    value += 0.3 * k * MAJOR_SHARE  # a Major's own effect, usually to the drawer's good
    value *= point_weight(s, p)
    if target < 0:
        value += moved * drain_value(s, p)
    used = k + (k * (1 - share) if redraw else 0)
    return value - deck_cost(s, p, used)


def win_points(s: MystickState, p: int, slot: int) -> float:
    """The points ``p`` scores when its Pawn in ``slot`` wins a challenge (the Swords Pawns' duel,
    and such Attachments of its own)."""
    cards = [s.pawn[p][slot]] + [a for a, owner in s.attach[p][slot] if owner == p]
    return float(sum(e.amount for c in cards if TRIGGER[c] == WHEN_WINS for e in EFFECTS[c] if e.op == SCORE))


def best_target(s: MystickState, p: int, slot: int) -> tuple[float, int]:
    targets = s.challenge_targets(p, slot)
    if not targets:
        return -WIN, 1
    value, _, target = max((challenge_value(s, p, slot, t), -turn_order(s, p, t), t) for t in targets)
    return value, target


# --- draws and the Draw Count ------------------------------------------------------------------
def round_end_value(s: MystickState, p: int, draw_count: int) -> float:
    """The value of the Draw Count becoming ``draw_count`` (the round ends at 3)."""
    lead = bonus_lead(s, p)
    if draw_count >= ROUND_DRAWS:
        if s.pool == 0:
            return final_value(s, p, {q: bonus(s, q) for q in range(s.n) if s.alive[q]})
        return lead
    return 0.3 * lead * draw_count / ROUND_DRAWS


def draw_value(s: MystickState, p: int) -> float:
    deck = len(s.deck[p])
    minors = sum(1 for c in s.deck[p] if not IS_MAJOR[c])
    if deck <= RESERVE or minors <= 2:
        # The draw may eliminate this seat (Majors are replaced): only to end a won game.
        if s.draw_count + 1 >= ROUND_DRAWS and s.pool == 0 and deck >= 2:
            v = round_end_value(s, p, s.draw_count + 1)
            if v > 0:
                return v
        return -WIN
    hand = s.hand_size[p]
    card = (0.6 if hand <= 1 else 0.3 if hand <= 3 else 0.1) * min(1.0, (deck - 4) / 12)
    change = round_end_value(s, p, s.draw_count + 1) - round_end_value(s, p, s.draw_count)
    return card + change - deck_cost(s, p, 1 / (1 - MAJOR_SHARE))


def count_change_value(s: MystickState, p: int, amount: int) -> float:
    new = max(0, s.draw_count + amount)
    return round_end_value(s, p, new) - round_end_value(s, p, s.draw_count)


# --- effects -----------------------------------------------------------------------------------
def pawn_choice(s: MystickState, p: int, eff: Effect, codes: list[int]) -> tuple[float, int]:
    """Value and pawn code of the best choice for a Pawn-targeted effect row of ``p``."""
    scored = []
    for code in codes:
        r, t = divmod(code, MAX_PAWNS)
        own = r == p
        mult = multiplier(s, r, t)
        op = eff.op
        if op in (POWER_FROM_POOL, POWER_CREATE):
            room = s.infl[r][t] - s.power[r][t]
            gain = min(eff.amount, room, s.pool if op == POWER_FROM_POOL else eff.amount)
            v = gain * HOLD * mult * (1 if own else -1) + (0.1 if s.traits[r][t] & IMMUNITY else 0)
            if op == POWER_FROM_POOL:
                v += gain * drain_value(s, p)
        elif op in (POWER_DESTROY, POWER_TO_POOL):
            k = min(eff.amount, s.power[r][t])
            v = -k * mult if own else k * mult
            if op == POWER_TO_POOL:
                v -= k * drain_value(s, p)
        elif op == KILL:
            v = -pawn_worth(s, r, t) if own else pawn_worth(s, r, t)
        else:
            v = 0.0
        scored.append((v, -turn_order(s, p, code), code))
    v, _, code = max(scored)
    return v, code


def mill_value(s: MystickState, q: int, amount: int) -> float:
    """The worth of ``amount`` cards of another seat ``q``'s deck discarded: a win if it empties it."""
    deck = len(s.deck[q])
    return WIN if deck <= amount else amount * (0.2 + 2.0 / max(deck - 1, 1))


def player_choice(s: MystickState, p: int, eff: Effect, seats: list[int]) -> tuple[float, int]:
    """Value and seat of the best choice for a player-targeted effect row of ``p``."""
    scored = []
    for q in seats:
        op = eff.op
        if op == CLEAR_CROSS:
            filled = CROSS_SPACES - open_spaces(s, q)
            best_infl = max((s.infl[q][t] for t in range(MAX_PAWNS) if s.pawn[q][t] >= 0), default=0)
            short = max(0, best_infl - open_spaces(s, q))
            v = 0.5 * short + 0.05 * filled if q == p else -0.5 * short - 0.05 * filled
        elif op in (MILL, FLOOD):
            v = mill_value(s, q, eff.amount) if q != p else -WIN
        elif op == LOSE_SCORE:
            v = min(eff.amount, s.score[q]) + 0.01 * s.score[q]
        elif op == MOVE_FIRST:  # a move costs cards (a draw, Fate) or a card in hand: let another start
            v = -FIRST_MOVE if q == p else FIRST_MOVE
        else:  # PEEK and the rest: what it shows is not used
            v = 0.0
        # Ties go to the next seat in turn order, not the lowest seat number: a rule that reads
        # the same from every seat (lowest-first made player_0 everyone's target at 3-5 players).
        scored.append((v, -((q - p) % s.n), q))
    v, _, q = max(scored)
    return v, q


def row_value(s: MystickState, p: int, eff: Effect) -> float:
    """The value to ``p`` of one effect row of its own resolving now (its best target chosen)."""
    op, amount = eff.op, eff.amount
    targets = s.effect_targets(p, eff)
    if targets is not None:
        if not targets:
            return 0.0
        if eff.target in PAWN_TARGETS:
            return pawn_choice(s, p, eff, targets)[0]
        return player_choice(s, p, eff, targets)[0]
    if op == SCORE:
        return float(amount)
    if op == SCORE_PER_CROSS_MAJOR:
        return float(amount * sum(1 for c in s.cross[p] if c >= 0 and IS_MAJOR[c]))
    if op == LOSE_SCORE:
        if eff.target == T_SELF:
            return -float(min(amount, s.score[p]))
        if eff.target == T_EACH_OPPONENT:
            return sum(min(amount, s.score[q]) for q in others(s, p)) / max(len(others(s, p)), 1)
        return 0.0
    if op == DRAW_COUNT:
        return count_change_value(s, p, amount)
    if op == DRAW:
        if len(s.deck[p]) - amount < RESERVE + 1:
            return -WIN
        return amount * (0.4 if s.hand_size[p] <= 2 else 0.1) - deck_cost(s, p, amount / (1 - MAJOR_SHARE))
    if op == MILL and eff.target == T_EACH_OPPONENT:  # Crossroads: the table pays a card too
        rivals = others(s, p)
        return sum(mill_value(s, q, amount) for q in rivals) / max(len(rivals), 1)
    if op == MILL:  # T_SELF (Crossroads)
        return -WIN if len(s.deck[p]) - amount < RESERVE + 1 else -deck_cost(s, p, amount)
    if op == RECOVER:
        back = min(amount, len(s.discard[p]))
        # A card back in the deck is worth what a card of it costs (Hoard, Archive, Fortune's
        # refill): valued lower, Fortune's draws looked dearer than the cards it returns.
        return back * card_price(s, p)
    if op == CLEAR_CROSS:
        best_infl = max((s.infl[p][t] for t in range(MAX_PAWNS) if s.pawn[p][t] >= 0), default=0)
        back = min(amount, CROSS_SPACES - open_spaces(s, p)) * card_price(s, p)  # Ebb Tide
        return 0.8 * max(0, best_infl - open_spaces(s, p)) - 0.2 + back
    if op == EXTRA_MOVE:
        return follow_up_value(s, p)
    if op == MOVE_FIRST:
        return 0.4
    if op == SUCCESS:
        return 1.0
    return 0.0


def card_effects_value(s: MystickState, p: int, c: int) -> float:
    _PLAYING[0] = c
    return sum(row_value(s, p, e) for e in EFFECTS[c])


_PLAYING = [-1]  # the card whose rows are being valued (its extra move is not that card again)
_IN_FOLLOW_UP = [False]


def follow_up_value(s: MystickState, p: int) -> float:
    """An extra move is a move the player must make (there is no pass, and a move spends a card of
    the hand or the deck): worth the best other move it has now, which may be below zero. Valued
    at a flat point, Haste was played where it only forced a draw or a poor challenge."""
    if _IN_FOLLOW_UP[0]:
        return 0.0
    card = _PLAYING[0]
    _IN_FOLLOW_UP[0] = True
    try:
        values = [v for a, v in move_values(s, p).items() if a != card]
    finally:
        _IN_FOLLOW_UP[0] = False
    return max(values, default=0.0)


# --- playing cards -----------------------------------------------------------------------------
def attachment_choice(s: MystickState, p: int, c: int, codes: list[int]) -> tuple[float, int]:
    """Value and pawn code of the best Pawn for Attachment ``c``."""
    scored = []
    for code in codes:
        r, t = divmod(code, MAX_PAWNS)
        own = r == p
        v = 0.0
        for e in EFFECTS[c]:
            if e.op == INFLUENCE:
                if e.amount > 0:
                    gain = 1.2 + 0.3 * multiplier(s, r, t) + 0.1 * RANK[s.pawn[r][t]] / 7
                else:
                    spill = max(0, s.power[r][t] - (s.infl[r][t] + e.amount)) * multiplier(s, r, t)
                    gain = (
                        0.8 + spill + (0.6 if s.infl[r][t] + e.amount <= 0 else 0.0) if s.infl[r][t] else 0.1
                    )
                    gain = -gain
                v += gain if own else -gain
            elif e.op == GRANT_TRAIT:
                has = s.traits[r][t] & e.amount
                worth = {AGGRESSION: 0.6, PRESENCE: 0.4 * s.infl[r][t], IMMUNITY: 0.5, RESOURCES: 0.2}[
                    e.amount
                ]
                if has:
                    worth = 0.0
                v += worth if own else -worth
            elif e.op == SUCCESS:  # Keen Edge, when this Pawn challenges
                gain = 0.5 + 0.5 * s.infl[r][t]
                v += gain if own else -gain
            elif e.op == DRAW:  # Ledger: "you" draw when it challenges; a deck card each time
                v += 0.1 if own else -0.1
            elif e.op == DRAW_COUNT and TRIGGER[c] == WHEN_CHALLENGED:  # Parry
                v += 0.2 if own else 0.0
            elif e.op == CLEAR_CROSS:  # Deep Well: your cross opens when this Pawn challenges
                v += 0.3 * s.infl[r][t] if own else 0.0
            elif e.op == POWER_DESTROY:  # Burnout: each challenge of this Pawn burns a Power
                loss = 0.4 + 0.2 * s.infl[r][t] * multiplier(s, r, t)
                v += -loss if own else loss
            elif e.op == RECOVER:  # Heavy Purse: "you" get cards back when this Pawn is challenged
                v += 0.3 if s.infl[r][t] else 0.0
        scored.append((v, -turn_order(s, p, code), code))
    v, _, code = max(scored)
    return v, code


def environment_value(s: MystickState, p: int, c: int) -> float:
    if c in SPECIAL_CARDS:
        if any(e == c for e in s.envs[p]):
            return 0.1  # a second copy gives nothing more
        return SPECIAL_WORTH.get(c, 0.7)
    v = 0.3
    for e in EFFECTS[c]:
        if e.op == TRAIT_INFLUENCE:
            mine = sum(1 for t in range(MAX_PAWNS) if s.pawn[p][t] >= 0 and s.traits[p][t] & e.target)
            held = sum(k for x, k in enumerate(s.hand[p]) if k and TYPE[x] == PAWN)
            v += 1.1 * mine + 0.2 * min(held, 2)
        elif e.op == RECOVER:  # Archive, each round
            v += 0.8 + 2.0 / max(len(s.deck[p]) - 1, 1) * 2
    return v


def play_value(s: MystickState, p: int, c: int) -> float:
    kind = TYPE[c]
    if kind == PAWN:
        duel = sum(e.amount for e in EFFECTS[c] if TRIGGER[c] == WHEN_WINS and e.op == SCORE)
        return 2.0 + INFLUENCE_PRINTED[c] + 0.05 * RANK[c] + 0.5 * duel
    if kind == ENVIRONMENT:
        return environment_value(s, p, c)
    if kind == ATTACHMENT:
        codes = [
            q * MAX_PAWNS + t for q in range(s.n) if s.alive[q] for t in range(MAX_PAWNS) if s.pawn[q][t] >= 0
        ]
        return attachment_choice(s, p, c, codes)[0]
    # An Action: its rows now (or, delayed ones, about their worth later)
    if TRIGGER[c] == AFTER_NEXT_INITIATIVE:
        return 0.3 + sum(_delayed_value(s, p, e) for e in EFFECTS[c])
    return card_effects_value(s, p, c) - 0.2  # a card spent


def _delayed_value(s: MystickState, p: int, e: Effect) -> float:
    if e.op == FLOOD:
        return 0.4 * e.amount
    if e.op == MOVE_FIRST:
        return 0.3
    if e.op == SCORE:
        return float(e.amount)
    return 0.0


def special_value(s: MystickState, p: int, k: int) -> float:
    c = SPECIAL_CARDS[k]
    raises = [e for e in EFFECTS[c] if e.op == DRAW_COUNT]
    if raises and s.n > 2:
        # Not at 3-5 players: a round Crossroads shortens takes less Power out of the pool, so the
        # game runs more rounds, each an initiative draw from every deck, which Cups + Swords
        # decks (none of their cards returns a card or drains the pool) cannot pay. Four players:
        # 7.9 rounds a game -> 5.6, Cups + Swords 15.9% -> 19.5% (2,000 and 10,000 games, Balance).
        return -WIN
    if any(s.draw_count + e.amount >= ROUND_DRAWS for e in raises):
        # Crossroads never ends a round: measured over the same 300 five-player games, the decks
        # that used it to end rounds won 15.1% with Swords, 19.6% when they only used it before.
        return -1.0
    return card_effects_value(s, p, c)


# --- the player --------------------------------------------------------------------------------
def move_values(s: MystickState, p: int) -> dict[int, float]:
    """The value of every legal move of ``p`` (phase ``move``)."""
    A = s.acts
    out = {}
    for a in s.legal_actions():
        if a < A.draw:
            out[a] = play_value(s, p, a)
        elif a == A.draw:
            out[a] = draw_value(s, p)
        elif a < A.pool:
            out[a] = best_target(s, p, a - A.challenger)[0]
        else:
            out[a] = special_value(s, p, a - A.special)
    return out


def _redraw_action(s: MystickState, p: int) -> int:
    A = s.acts
    cross = s.cross[p]
    suit = SUIT[s.ch_card]
    kept = [j for j in s.fate if j not in s.marked]
    successes = s.ch_bonus + sum(1 for j in kept if IS_MAJOR[cross[j]] or SUIT[cross[j]] == suit)
    slot = s.ch_slot
    room = s.infl[p][slot] - s.power[p][slot]
    if s.ch_tseat < 0:
        need = min(room, s.pool)
    else:
        r, t = s.ch_tseat, s.ch_tslot
        immune = 1 if s.traits[r][t] & IMMUNITY else 0
        need = min(room, s.power[r][t]) + immune
        if s.traits[p][slot] & AGGRESSION:
            need = max(need, s.infl[r][t] + immune)
    failures = [j for j in sorted(kept) if not (IS_MAJOR[cross[j]] or SUIT[cross[j]] == suit)]
    # Each mark costs a deck card; keep the reserve and mark only what may still be used.
    short = need - successes - len(s.marked)
    share = success_share(s, p, suit)
    gain = share * (1.0 + HOLD * multiplier(s, p, slot)) * point_weight(s, p)
    if (
        failures
        and short > 0
        and len(s.deck[p]) - len(s.marked) - 1 >= RESERVE + 1
        and gain > card_price(s, p, len(s.marked) + 1)
    ):
        return A.mark + failures[0]
    return A.done


def decide(state: MystickState, seat: int) -> int:
    """The action of ``seat`` (to move) on its determinized view ``state``."""
    s, p = state, seat
    A = s.acts
    legal = s.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = s.phase
    if phase == MOVE:
        values = move_values(s, p)
        return max(values, key=lambda a: (values[a], -a))
    if phase == RESOURCES_CHOICE:
        deck, hand = len(s.deck[p]), s.hand_size[p]
        want = 0 if deck < 20 or hand >= 3 else min(s.resources_max, 3 - hand, (deck - 20) // 3)
        return A.extra + max(0, want)
    if phase == CHALLENGE_TARGET:
        return s._target_action(best_target(s, p, s.ch_slot)[1])
    if phase == ATTACH_TARGET:
        _, code = attachment_choice(s, p, s.pending_card, s.choice)
        return s._target_action(code)
    if phase == EFFECT_TARGET:
        _owner, card, k = s.queue[0]
        eff = EFFECTS[card][k]
        if s._choice_is_player():
            _, q = player_choice(s, p, eff, s.choice)
            return A.player + (q - p) % s.n
        _, code = pawn_choice(s, p, eff, s.choice)
        return s._target_action(code)
    if phase == REDRAW:
        return _redraw_action(s, p)
    if phase == ORDER:
        return legal[0]
    return legal[0]


def rollout_policy(state: MystickState, rng: object) -> int:
    """The heuristic as a state-level rollout policy of ``agents.mcts`` (reads ``state`` in full)."""
    return decide(state, state.current_player)


class MystickDominationHeuristic(DeterminizingHeuristic):
    """Rule-based Mystick: Domination agent for 2-5 players; see the module docstring."""

    decide = staticmethod(decide)


__all__ = ["MystickDominationHeuristic", "decide", "rollout_policy"]
