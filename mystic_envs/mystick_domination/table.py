"""Mystick Domination at the table: action labels and the ``?`` text of a terminal client.

``describe_action(state, action, viewer, name)`` says an action in the words of the open
sub-decision: the imperative for the seat about to act ("challenge the pool with your Five of
Wands"), a sentence in the third person for everyone else ("player_2 challenges the pool with their
Five of Wands"). ``table_effects(state, viewer)`` is what every card on the table does, and the
viewer's own hand. Both read only what ``viewer`` may see: the cards in play, the crosses, the
cards shown, the deck tops it looked at, and its own hand. A card named by a move is public from then
on (every card is played face up), so a label may name it; nothing else of a hand or deck order is
read. ``render.py`` re-exports both, where ``agents.human`` looks for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystick_domination.cards import (
    ACTION,
    ATTACHMENT,
    CARDS,
    CLEAR_CROSS,
    CROSS_SPACES,
    EFFECTS,
    ENVIRONMENT,
    FLOOD,
    IS_MAJOR,
    KILL,
    LOSE_SCORE,
    MAX_PAWNS,
    MILL,
    MOVE_FIRST,
    NUM_CARDS,
    PAWN,
    PEEK,
    POWER_CREATE,
    POWER_DESTROY,
    POWER_FROM_POOL,
    POWER_TO_POOL,
    ROUND_DRAWS,
    SPECIAL_CARDS,
    SUIT,
    SUIT_NAMES,
    TRAIT_BITS,
    TRAIT_NAMES,
    TRIGGER_NAMES,
    TYPE_NAMES,
)
from mystic_envs.mystick_domination.cards import (
    NONE as NO_TRIGGER,
)
from mystic_envs.mystick_domination.decisions import (
    ATTACH_TARGET,
    CHALLENGE_TARGET,
    EFFECT_TARGET,
    GAME_OVER,
    MOVE,
    ORDER,
    REDRAW,
    REGISTER,
    RESOURCES_CHOICE,
)

if TYPE_CHECKING:
    from mystic_envs.mystick_domination.rules import MystickState

__all__ = ["TRAIT_TEXT", "card_line", "describe_action", "table_effects"]

# What each trait does, for the ``?`` text (the rulebook's words, shortened).
TRAIT_TEXT = (
    "Aggression: a challenge with at least as many successes as the target's influence discards "
    "the target Pawn (after the Power moves).",
    "Presence: the Power on this Pawn scores double at the end of the round.",
    "Immunity: a challenge against this Pawn loses one success.",
    "Resources: each draw move may take one more card (a choice).",
)


def _traits(bits: int) -> str:
    return "/".join(TRAIT_NAMES[t] for t, b in enumerate(TRAIT_BITS) if bits & b)


def card_line(card: int) -> str:
    """A card's name, title, type (influence and traits for a Pawn) and effect text, on one line."""
    c = CARDS[card]
    head = f"{c.name} ({c.title}), {TYPE_NAMES[c.type]}"
    if c.type == PAWN:
        traits = _traits(c.traits)
        head += f", influence {c.influence}" + (f", {traits}" if traits else "")
        return head  # a Pawn's text is its traits, already said
    if c.trigger != NO_TRIGGER and c.type != ACTION and not c.is_major:
        head += f" ({TRIGGER_NAMES[c.trigger]})"
    return f"{head}: {c.text or 'no text'}"


# -- naming things for a viewer ----------------------------------------------------------------
def _seat(q: int, mover: int, viewer: int | None, third: bool) -> str:
    """A seat as an object: "you" (the viewer), "themselves" (the mover, told in the third
    person), or ``player_<q>``."""
    if q == viewer:
        return "you"
    return "themselves" if third and q == mover else f"player_{q}"


def _owner(q: int, mover: int, viewer: int | None, third: bool) -> str:
    """A seat as a possessive: "your" (the viewer), "their" (the mover, told in the third
    person), or ``player_<q>'s``."""
    if q == viewer:
        return "your"
    return "their" if third and q == mover else f"player_{q}'s"


def _pawn(s: MystickState, q: int, slot: int, mover: int, viewer: int | None, third: bool) -> str:
    c = s.pawn[q][slot]
    what = CARDS[c].name if c >= 0 else "empty slot"
    extra = f", Power {s.power[q][slot]}/{s.infl[q][slot]}" if c >= 0 else ""
    return f"{_owner(q, mover, viewer, third)} {what} (slot {slot}{extra})"


def _count(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


# -- effect rows that wait for a target ----------------------------------------------------------
# Verb phrases of effect rows waiting for a target, in the imperative; the third person adds an
# "s" to the first word. {target}: the Pawn or seat chosen; {of}: that seat's possessive ("your",
# "player_1's"); {n}: the row's amount. A row without an entry reads "choose {target}".
_ROW_VERBS = {
    POWER_FROM_POOL: "move up to {n} Power from the pool to {target}",
    POWER_CREATE: "put up to {n} new Power on {target}",
    POWER_DESTROY: "remove up to {n} Power on {target} from the game",
    POWER_TO_POOL: "move up to {n} Power from {target} to the pool",
    KILL: "discard {target}",
    LOSE_SCORE: "make {target} lose {n} victory point(s)",
    PEEK: "look at the top {n} cards of {of} deck",
    MILL: "make {target} discard the top {n} cards of {of} deck",
    FLOOD: "put the top {n} cards of {of} deck into {of} Mystick Cross",
    CLEAR_CROSS: "discard every card in {of} Mystick Cross",
    MOVE_FIRST: "let {target} make the first move of the round",
}


def _effect_target(s: MystickState, action: int, mover: int, viewer: int | None, third: bool) -> str:
    A = s.acts
    _, card, k = s.queue[0] if s.queue else (mover, -1, -1)
    verb, n = "choose {target}", 0
    if card >= 0 and k != REGISTER:
        row = EFFECTS[card][k]
        verb, n = _ROW_VERBS.get(row.op, verb), row.amount
    if A.player <= action < A.mark:
        q = (mover + action - A.player) % s.n
        target, of = _seat(q, mover, viewer, third), _owner(q, mover, viewer, third)
    elif action == A.pool:
        target = of = "the pool"
    else:
        r, slot = divmod(action - A.pawn, MAX_PAWNS)
        q = (mover + r) % s.n
        target = _pawn(s, q, slot, mover, viewer, third)
        of = _owner(q, mover, viewer, third)
    text = verb.format(target=target, of=of, n=n)
    if third:
        first, _, rest = text.partition(" ")
        text = f"{first}s {rest}"
    source = f" ({CARDS[card].name})" if card >= 0 else ""
    return text + source


# -- one action, as (imperative, third person) ---------------------------------------------------
def _play(card: int) -> tuple[str, str]:
    c = CARDS[card]
    what = f"{c.name} ({c.title})"
    if c.type == PAWN:
        traits = _traits(c.traits)
        how = f" as a Pawn, influence {c.influence}" + (f", {traits}" if traits else "")
    elif c.type == ENVIRONMENT:
        how = f", an Environment: {c.text}"
    elif c.type == ATTACHMENT:
        how = f", an Attachment: {c.text}"
    elif c.type == ACTION:
        how = f": {c.text}"
    else:
        how = ""
    return f"play {what}{how}", f"plays {what}{how}"


def _phrase(s: MystickState, action: int, viewer: int | None, third: bool) -> tuple[str, str]:
    A = s.acts
    phase, mover = s.phase, s.player
    if phase == MOVE:
        if action < A.draw:
            return _play(action)
        if action == A.draw:
            after = s.draw_count + 1
            end = ": the round ends" if after >= ROUND_DRAWS else ""
            note = f" (Draw Count {s.draw_count} -> {after}{end})"
            return "draw a card" + note, "draws a card" + note
        if A.challenger <= action < A.pool:
            slot = action - A.challenger
            c = s.pawn[mover][slot]
            if c < 0:
                return f"challenge with the empty slot {slot}", f"challenges with the empty slot {slot}"
            fate = _count(s.infl[mover][slot], "Fate card")
            what = f"{CARDS[c].name} (slot {slot}: {fate}, {SUIT_NAMES[SUIT[c]]} and Majors succeed)"
            return f"challenge with your {what}", f"challenges with their {what}"
        if A.special <= action < A.size:
            c = CARDS[SPECIAL_CARDS[action - A.special]]
            what = c.text.removeprefix("You may use a move to ").rstrip(".")
            return (
                f"use {c.name} ({c.title}): {what}",
                f"uses {c.name} ({c.title}): {what.replace(' you control', ' they control')}",
            )
    if phase == RESOURCES_CHOICE and A.extra <= action < A.challenger:
        k = action - A.extra
        if k == 0:
            return "draw no extra card (Resources)", "draws no extra card (Resources)"
        extra = _count(k, "extra card")
        return f"draw {extra} (Resources)", f"draws {extra} (Resources)"
    if phase == CHALLENGE_TARGET and A.pool <= action < A.player:
        c = s.ch_card
        mine = f"{CARDS[c].name} (slot {s.ch_slot})" if c >= 0 else "Pawn"
        if action == A.pool:
            target = f"the pool ({s.pool} Power)"
        else:
            r, slot = divmod(action - A.pawn, MAX_PAWNS)
            target = _pawn(s, (mover + r) % s.n, slot, mover, viewer, third)
        return f"challenge {target} with your {mine}", f"challenges {target} with their {mine}"
    if phase == ATTACH_TARGET and A.pawn <= action < A.player:
        r, slot = divmod(action - A.pawn, MAX_PAWNS)
        target = _pawn(s, (mover + r) % s.n, slot, mover, viewer, third)
        card = CARDS[s.pending_card].name if s.pending_card >= 0 else "the Attachment"
        return f"attach {card} to {target}", f"attaches {card} to {target}"
    if phase == EFFECT_TARGET and A.pool <= action < A.mark:
        return (
            _effect_target(s, action, mover, viewer, False),
            _effect_target(s, action, mover, viewer, True),
        )
    if phase == REDRAW and A.mark <= action <= A.done:
        suit = SUIT[s.ch_card] if s.ch_card >= 0 else -2
        if action == A.done:
            if not s.marked:
                return "keep every Fate card (no redraw)", "keeps every Fate card (no redraw)"
            spaces = ", ".join(str(j + 1) for j in sorted(s.marked))
            if len(s.marked) == 1:
                what = f"the marked Fate card (space {spaces})"
            else:
                what = f"the {len(s.marked)} marked Fate cards (spaces {spaces})"
            return f"redraw {what}", f"redraws {what}"
        j = action - A.mark
        c = s.cross[mover][j] if j < CROSS_SPACES else -1
        if c < 0:
            what = f"space {j + 1} (empty)"
        else:
            verdict = "a success" if IS_MAJOR[c] or SUIT[c] == suit else "a failure"
            what = f"the Fate card in space {j + 1}, {CARDS[c].name} ({verdict})"
        return f"mark {what} for the redraw", f"marks {what} for the redraw"
    if phase == ORDER and action < NUM_CARDS:
        c = CARDS[action]
        return (
            f"resolve {c.name} ({c.title}) next: {c.text}",
            f"resolves {c.name} ({c.title}) next: {c.text}",
        )
    meaning = s.game.action_meaning(action)
    return meaning, f"plays {meaning!r}"


def describe_action(s: MystickState, action: int, viewer: int | None = None, name: str | None = None) -> str:
    """``action``, about to be played in ``s``, as seat ``viewer`` hears it: the imperative for the
    seat to act, otherwise a sentence naming it (``name``, default ``player_<seat>``). Pawns are
    named by their card and slot, seats as "you", "their" (the mover's) or ``player_<q>``."""
    if not 0 <= action < s.game.num_actions:
        return s.game.action_meaning(action)
    if s.phase == GAME_OVER:
        return s.game.action_meaning(action)
    mover = s.player
    if viewer == mover:
        return _phrase(s, action, viewer, third=False)[0]
    return f"{name or f'player_{mover}'} {_phrase(s, action, viewer, third=True)[1]}"


# -- the ``?`` command ---------------------------------------------------------------------------
def table_effects(s: MystickState, viewer: int | None = None) -> str:
    """What every card on the table does (play areas, Attachments, Environments, each Mystick
    Cross, the cards shown and waiting, every discard pile top first), the traits, and
    ``viewer``'s own hand."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = [
        "A challenge draws as many Fate cards as the Pawn's influence into its owner's Mystick Cross "
        f"({CROSS_SPACES} spaces); a card of the Pawn's suit or any Major is a success; each success "
        f"moves 1 Power (and scores 1 point). The round ends when the Draw Count reaches {ROUND_DRAWS}.",
        "Traits:",
    ]
    lines += [f"  {t}" for t in TRAIT_TEXT]
    for q in range(s.n):
        you = " (you)" if q == viewer else ""
        out = "" if s.alive[q] else " - eliminated"
        rows: list[str] = []
        rows += [f"  {card_line(c)}" for c in s.envs[q]]
        for slot in range(MAX_PAWNS):
            c = s.pawn[q][slot]
            if c < 0:
                continue
            card, infl, traits = CARDS[c], s.infl[q][slot], _traits(s.traits[q][slot])
            printed = "" if infl == card.influence else f" (printed {card.influence})"
            rows.append(
                f"  Pawn {slot}: {card.name} ({card.title}), influence {infl}{printed}"
                + (f", {traits}" if traits else "")
                + f", Power {s.power[q][slot]}"
            )
            for a, o in s.attach[q][slot]:
                rows.append(f"    attached by player_{o}: {card_line(a)}")
        cross = [c for c in s.cross[q] if c >= 0]
        if cross:
            rows.append("  Mystick Cross:")
            rows += [f"    {j + 1}: {card_line(c)}" for j, c in enumerate(s.cross[q]) if c >= 0]
        if q != viewer and any(s.shown[q]):
            rows.append("  shown in hand:")
            rows += [
                f"    {card_line(c)}" + (f" x{k}" if k > 1 else "") for c, k in enumerate(s.shown[q]) if k
            ]
        looked = s.looked_top(viewer, q)
        if looked:
            rows.append("  deck top (you looked at them, top first):")
            rows += [f"    {card_line(c)}" for c in reversed(s.deck[q][-looked:])]
        if s.discard[q]:  # the Q&A lets anyone look through the discard piles
            rows.append(f"  discard pile ({len(s.discard[q])}, top first):")
            rows += [f"    {k + 1}: {card_line(c)}" for k, c in enumerate(reversed(s.discard[q]))]
        if q == viewer:
            held = [(c, k) for c, k in enumerate(s.hand[q]) if k]
            rows.append("  your hand:" if held else "  your hand: empty")
            rows += [f"    {card_line(c)}" + (f" x{k}" if k > 1 else "") for c, k in held]
        lines.append(f"player_{q}{you}{out}:" + ("" if rows else " nothing in play"))
        lines += rows
    if s.delayed:
        lines.append("After the next initiative draw:")
        lines += [f"  player_{o}'s {card_line(c)}" for o, c in s.delayed]
    return "\n".join(lines)
