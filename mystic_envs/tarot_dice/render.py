"""Text render of a Tarot Dice table, apart from the rules (pgx style), and the generated doc tables.

Shows what an onlooker sees: both players' dice, the Planet and Zodiac dice, the drafted Majors,
well tops, graveyards and the sacrificed card, hand sizes and the hand cards seen face up. Given a
``viewer`` seat, the text also names that seat's own hidden hand cards; face-down well cards and
the opponent's hidden cards never appear.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.tarot_dice.actions import target_name
from mystic_envs.tarot_dice.cards import (
    DEATH,
    DIE_NAMES,
    DIE_SIZES,
    KIND_NAMES,
    MAJORS,
    NUM_MAJORS,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_FACES,
    STRENGTH,
    TRIGGER_TEXT,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_FACES,
    card_name,
)
from mystic_envs.tarot_dice.phases import PH_GAME_OVER, PHASE_NAMES
from mystic_envs.tarot_dice.rules import ROUND_END_NAMES

if TYPE_CHECKING:
    from mystic_envs.tarot_dice.rules import TarotDiceState


def _die_name(die: int) -> str:
    if die == PLANET_DIE:
        return "the Planet die"
    if die == ZODIAC_DIE:
        return "the Zodiac die"
    return f"player_{die // NUM_SIZES}'s {DIE_NAMES[die % NUM_SIZES]}"


def describe(s: TarotDiceState, viewer: int | None = None) -> str:
    """The table as an onlooker sees it, or with ``viewer`` (0 or 1) as that seat sees it."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    game = s.game
    over = s.phase == PH_GAME_OVER
    round_no = s.rounds_done + (not over)
    lines = [
        f"Tarot Dice - round {round_no} (match of {game.num_rounds}), turn {s.turn_in_round + 1} of "
        f"{game.round_turn_limit} - phase {PHASE_NAMES[s.phase]}"
    ]
    points = f"Points: player_0 {s.points[0]}, player_1 {s.points[1]}"
    if s.last_round is not None:
        winner, won, how = s.last_round
        points += f"   (last round: player_{winner} scored {won}, {ROUND_END_NAMES[how]})"
    lines.append(points)
    if over:
        lines.append(f"Game over: player_{s.winners()[0]} wins")
    else:
        lines.append(f"To move: player_{s.player}")
    planet = PLANET_FACES[s.value[PLANET_DIE] - 1]
    zodiac = ZODIAC_FACES[s.value[ZODIAC_DIE] - 1]
    notes = []
    if not s.planet_active():
        notes.append("the Planet die is negated by Taurus")
    if not s.zodiac_active():
        notes.append("the Zodiac die is negated by the Sun")
    lines.append(
        f"Planet die: {planet.symbol} {planet.name} ({planet.number})   Zodiac die: {zodiac.symbol} "
        f"{zodiac.name} ({zodiac.number})" + (f"   [{'; '.join(notes)}]" if notes else "")
    )
    banned, locked = s.banned(), s.locked()
    for p in (0, 1):
        you = " (you)" if viewer == p else ""
        marks = []
        if s.round_starter == p:
            marks.append("starts this round")
        if s.draft_first == p:
            marks.append("picks first")
        lines.append(f"player_{p}{you}: {', '.join(marks)}")
        dice = []
        for k in range(NUM_SIZES):
            d = p * NUM_SIZES + k
            if not s.board >> d & 1:
                dice.append(f"{DIE_NAMES[k]} captured")
                continue
            shown = str(s.value[d]) if s.value[d] else "unrolled"
            tags = [t for t, on in (("banished", banned >> d & 1), ("locked", locked >> d & 1)) if on]
            dice.append(f"{DIE_NAMES[k]} {shown}" + (f" ({', '.join(tags)})" if tags else ""))
        lines.append("  dice: " + ", ".join(dice))
        majors = []
        for m in range(NUM_MAJORS):
            if s.owned[p] >> m & 1:
                tags = []
                if s.exhausted[p] >> m & 1:
                    tags.append("$ spent")
                if m in (STRENGTH, DEATH) and s.major_hand[p] >> m & 1:
                    tags.append("in hand")
                majors.append(MAJORS[m].name + (f" ({', '.join(tags)})" if tags else ""))
        lines.append("  Majors: " + (", ".join(majors) if majors else "none yet"))
        wells = []
        for k in range(WELLS):
            well = s.wells[p][k]
            if not s.open_wells[p] >> k & 1:
                wells.append(f"{k + 1}: gone")
                continue
            hidden = s.hidden_well[p] >> k & 1
            cards = ["[face down]" if hidden and i == 0 else card_name(c) for i, c in enumerate(well)]
            wells.append(f"{k + 1}: " + (" < ".join(cards) if cards else "empty"))
        lines.append("  wells (bottom < top): " + " | ".join(wells))
        if viewer == p:
            hand = [card_name(c) + (" (seen)" if s.public_hand[p] >> c & 1 else "") for c in s.hand[p]]
        else:
            # Seen cards first, then a count: the place of a hidden card among the others would
            # tell something about it.
            hand = [card_name(c) for c in s.hand[p] if s.public_hand[p] >> c & 1]
            hand += ["[hidden card]"] * len(s.hidden_hand(p))
        for m in (STRENGTH, DEATH):
            if s.major_hand[p] >> m & 1:
                hand.append(MAJORS[m].name)
        lines.append("  hand: " + (", ".join(hand) if hand else "empty"))
        graveyard = ", ".join(card_name(c) for c in s.graveyard[p])
        lines.append("  graveyard (top last): " + (graveyard or "empty"))
        if s.sacrificed[p] >= 0:
            lines.append(f"  sacrificed to The Devil: {card_name(s.sacrificed[p])}")
    if s.pile:
        pile = ", ".join(MAJORS[m].name for m in range(NUM_MAJORS) if s.pile >> m & 1)
        lines.append(f"Draft pile: {pile}")
    for play in s.plays:
        source = "The Devil" if play.from_devil else "the hand" if play.hidden else "a well"
        text = f"Playing: {card_name(play.card)} from {source}"
        if play.effect_card != play.card:
            text += f", with the effect of {card_name(play.effect_card)} (The Hanged Man)"
        if play.kind >= 0:
            text += f", as {play.value if play.kind == 0 else KIND_NAMES[play.kind]}"
        if play.target >= 0:
            text += f" on {_die_name(play.target)}"
        if play.pending:
            names = ", ".join(MAJORS[m].name for m in range(NUM_MAJORS) if play.pending >> m & 1)
            text += f"; triggered: {names}"
        lines.append(text)
    if s.resolving >= 0:
        lines.append(f"Resolving: {MAJORS[s.resolving].name}")
    return "\n".join(lines)


# --- generated doc tables ------------------------------------------------------------------------
def majors_table() -> str:
    """The Major Arcana as the engine reads them (embedded in docs/rules/tarot_dice.md)."""
    rows = ["| # | Major | trigger | may | $ | text |", "|--:|---|---|:-:|:-:|---|"]
    for m in MAJORS:
        rows.append(
            f"| {m.number} | {m.name} | {TRIGGER_TEXT[m.trigger]} | {'yes' if m.optional else 'no'} | "
            f"{'$' if m.dollar else ''} | {m.text} |"
        )
    return "\n".join(rows)


def faces_table() -> str:
    """The Planet and Zodiac dice, face by face (embedded in docs/rules/tarot_dice.md)."""
    rows = ["| face | Planet die | effect | Zodiac die | effect |", "|--:|---|---|---|---|"]
    for planet, zodiac in zip(PLANET_FACES, ZODIAC_FACES, strict=True):
        rows.append(
            f"| {planet.number} | {planet.symbol} {planet.name} | {planet.text} | {zodiac.symbol} "
            f"{zodiac.name} | {zodiac.text} |"
        )
    return "\n".join(rows)


def dice_table() -> str:
    """Each player's numbered dice and their egocentric action targets."""
    rows = ["| target t | die | faces |", "|--:|---|---|"]
    for t in range(2 * NUM_SIZES + 2):
        faces = f"1-{DIE_SIZES[t % NUM_SIZES]}" if t < 2 * NUM_SIZES else "12 symbols, numbered 1-12"
        rows.append(f"| {t} | {target_name(t)} | {faces} |")
    return "\n".join(rows)
