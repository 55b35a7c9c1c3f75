"""Text render of a Tarot Dice table, apart from the rules (pgx style), and the generated doc tables.

Shows what an onlooker sees: both players' dice, the Planet and Zodiac dice with what their faces
do now, the drafted Majors, well tops, graveyards and the sacrificed card, hand sizes, and Strength
and Death in a hand. Given a ``viewer`` seat, the text also names that seat's own hidden hand cards;
face-down well cards and the opponent's hidden cards never appear.

``describe_action`` names an action as the phase and the speaker have it ("draft The Sun",
"reroll your D12", "player_1 rerolls their D12"), and ``table_effects`` says what every visible
card and the two symbol dice do (the terminal's ``?`` command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.tarot_dice.actions import (
    CAPTURE,
    CARD,
    DIE,
    DIE_OF,
    FACE,
    MAJOR,
    NUMBER_ACTION,
    PASS,
    PLAY_DEATH,
    PLAY_STRENGTH,
    WELL,
    action_meaning,
    target_name,
)
from mystic_envs.tarot_dice.cards import (
    DEATH,
    DECK_SIZE,
    DIE_NAMES,
    DIE_SIZES,
    FACE_KINDS,
    KIND_NAMES,
    MAJORS,
    NUM_MAJORS,
    NUM_MINORS,
    NUM_SIZES,
    PLANET_DIE,
    PLANET_FACES,
    PLANET_NAMES,
    RANK_KIND,
    RANKS_PER_SUIT,
    STRENGTH,
    TRIGGER_TEXT,
    WELLS,
    ZODIAC_DIE,
    ZODIAC_FACES,
    ZODIAC_NAMES,
    card_name,
)
from mystic_envs.tarot_dice.phases import (
    PH_ACTION,
    PH_AQUARIUS,
    PH_CHARIOT_CARD,
    PH_DEVIL,
    PH_DRAFT,
    PH_GAME_OVER,
    PH_HANGED,
    PH_JUSTICE,
    PH_LOVERS,
    PH_MAGICIAN,
    PH_MARS,
    PH_NEPTUNE,
    PH_PLANET_SYMBOL,
    PH_QUEEN,
    PH_ROLL_ANY,
    PH_TARGET,
    PH_TOWER,
    PH_URANUS,
    PH_VENUS,
    PH_WORLD,
    PH_ZODIAC_SYMBOL,
    PHASE_NAMES,
)
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
    lines.append(f"  {planet.name}: {planet.text}")
    lines.append(f"  {zodiac.name}: {zodiac.text}")
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
        # Every Minor in a hand is a hidden card: the others see how many.
        hand = [card_name(c) for c in s.hand[p]] if viewer == p else ["[hidden card]"] * len(s.hand[p])
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
        from_hand = play.hidden or play.card >= NUM_MINORS  # Strength and Death: no hidden cards
        source = "The Devil" if play.from_devil else "the hand" if from_hand else "a well"
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


# --- what things do, and actions in words ----------------------------------------------------------
#: What a Minor card does when played, by its kind (``cards.KIND_NAMES``), in the rules' words.
KIND_TEXT = (
    "a number: set any die that can show it to its value",
    "Page: set a die to 1",
    "Knight: banish a numbered die until the start of your next turn (it cannot capture, be captured, "
    "be targeted or rerolled)",
    "Queen: the reroll action twice",
    "King: set a die to its maximum",
    "no effect (counts as a face card)",
)


def card_effect(card: int) -> str:
    """What ``card`` (a Minor, or Strength or Death in a hand) does when played."""
    if card >= NUM_MINORS:
        m = MAJORS[card - NUM_MINORS]
        return m.text
    rank = card % RANKS_PER_SUIT
    if rank == 0:
        return "a number, 1 or 11: set any die that can show it to that value"
    return KIND_TEXT[RANK_KIND[rank]]


def table_effects(s: TarotDiceState, viewer: int | None = None) -> str:
    """What the symbol dice's faces, every Major drafted or in the pile, and every visible card do."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    planet = PLANET_FACES[s.value[PLANET_DIE] - 1]
    zodiac = ZODIAC_FACES[s.value[ZODIAC_DIE] - 1]
    lines = [
        f"Planet die, {planet.symbol} {planet.name}: {planet.text}"
        + ("" if s.planet_active() else " (negated now by Taurus)"),
        f"Zodiac die, {zodiac.symbol} {zodiac.name}: {zodiac.text}"
        + ("" if s.zodiac_active() else " (negated now by the Sun)"),
    ]
    for p in (0, 1):
        owned = [m for m in range(NUM_MAJORS) if s.owned[p] >> m & 1]
        if owned:
            lines.append(f"player_{p}'s Majors:")
            lines += [
                f"  {MAJORS[m].name} ({TRIGGER_TEXT[MAJORS[m].trigger]}): {MAJORS[m].text}" for m in owned
            ]
    if s.pile:
        lines.append("Majors in the draft pile:")
        lines += [
            f"  {MAJORS[m].name} ({TRIGGER_TEXT[MAJORS[m].trigger]}): {MAJORS[m].text}"
            for m in range(NUM_MAJORS)
            if s.pile >> m & 1
        ]
    seen: list[int] = []
    for p in (0, 1):
        for k in range(WELLS):
            well = s.wells[p][k]
            if well and not (s.hidden_well[p] >> k & 1 and len(well) == 1):
                seen.append(well[-1])
        if viewer == p:
            seen += s.hand[p]
    if seen:
        lines.append("Cards you can see (well tops and hands):")
        lines += [f"  {card_name(c)}: {card_effect(c)}" for c in dict.fromkeys(seen)]
    return "\n".join(lines)


def _die_for(die: int, mover: int, viewer: int | None) -> str:
    """A die named for ``viewer``: "your D12", "their D12" (the mover's), "player_0's D12"."""
    if die == PLANET_DIE:
        return "the Planet die"
    if die == ZODIAC_DIE:
        return "the Zodiac die"
    owner, size = divmod(die, NUM_SIZES)
    if owner == viewer:
        return f"your {DIE_NAMES[size]}"
    return f"their {DIE_NAMES[size]}" if owner == mover else f"player_{owner}'s {DIE_NAMES[size]}"


# Die decisions: (imperative, third person) verb phrases; "{die}" is the die chosen.
_DIE_VERBS = {
    PH_ACTION: ("reroll {die}", "rerolls {die}"),
    PH_TARGET: ("target {die} with the card", "targets {die} with the card"),
    PH_QUEEN: ("reroll {die} (the Queen)", "rerolls {die} (the Queen)"),
    PH_ROLL_ANY: ("roll {die}", "rolls {die}"),
    PH_TOWER: ("reroll {die} (The Tower)", "rerolls {die} (The Tower)"),
    PH_LOVERS: ("play the number on {die} too (The Lovers)", "plays the number on {die} too (The Lovers)"),
    PH_JUSTICE: ("play the number on {die} too (Justice)", "plays the number on {die} too (Justice)"),
    PH_WORLD: ("play the number on {die} too (The World)", "plays the number on {die} too (The World)"),
    PH_NEPTUNE: ("banish {die} (Neptune)", "banishes {die} (Neptune)"),
    PH_MARS: ("roll {die} (Mars)", "rolls {die} (Mars)"),
    PH_VENUS: ("roll {die} (Venus)", "rolls {die} (Venus)"),
}


def _phrase(s: TarotDiceState, action: int, mover: int, viewer: int | None) -> tuple[str, str]:
    """``action`` in the phase ``s`` is in, as (imperative, third person)."""
    phase = s.phase
    if MAJOR <= action < WELL:
        m = MAJORS[action - MAJOR].name
        if phase == PH_DRAFT:
            return f"draft {m}", f"drafts {m}"
        if phase == PH_HANGED:
            return "use The Hanged Man on this card", "uses The Hanged Man on the card"
        return f"activate {m}", f"activates {m}"
    if WELL <= action < CAPTURE:
        k = action - WELL + 1
        if phase == PH_MAGICIAN:
            return (
                f"take well {k} to your hand (The Magician)",
                f"takes well {k} to their hand (The Magician)",
            )
        if phase == PH_DEVIL:
            return f"sacrifice the top of well {k} (The Devil)", f"sacrifices the top of well {k} (The Devil)"
        return f"put the card on well {k} (The Chariot)", f"puts the card on well {k} (The Chariot)"
    if CAPTURE <= action < DIE:
        a, b = divmod(action - CAPTURE, NUM_SIZES)
        mine = _die_for(mover * NUM_SIZES + a, mover, viewer)
        theirs = _die_for((1 - mover) * NUM_SIZES + b, mover, viewer)
        return f"capture {theirs} with {mine}", f"captures {theirs} with {mine}"
    if DIE <= action < CARD:
        die = _die_for(DIE_OF[mover][action - DIE], mover, viewer)
        verbs = _DIE_VERBS.get(phase, ("choose {die}", "chooses {die}"))
        return verbs[0].format(die=die), verbs[1].format(die=die)
    if CARD <= action < PLAY_STRENGTH:
        name = card_name(mover * DECK_SIZE + action - CARD)
        if phase == PH_CHARIOT_CARD:
            return f"return the {name} with The Chariot", f"returns the {name} with The Chariot"
        return f"play the {name}", f"plays the {name}"
    if action == PLAY_STRENGTH:
        return "play Strength from your hand", "plays Strength from their hand"
    if action == PLAY_DEATH:
        return "play Death from your hand", "plays Death from their hand"
    if FACE <= action < NUMBER_ACTION:
        kind = KIND_NAMES[FACE_KINDS[action - FACE]]
        return f"play Strength as a {kind}", f"plays Strength as a {kind}"
    if NUMBER_ACTION <= action < PASS:
        i = action - NUMBER_ACTION + 1
        if phase in (PH_PLANET_SYMBOL, PH_URANUS):
            return (
                f"turn the Planet die to {PLANET_NAMES[i - 1]}",
                f"turns the Planet die to {PLANET_NAMES[i - 1]}",
            )
        if phase in (PH_ZODIAC_SYMBOL, PH_AQUARIUS):
            return (
                f"turn the Zodiac die to {ZODIAC_NAMES[i - 1]}",
                f"turns the Zodiac die to {ZODIAC_NAMES[i - 1]}",
            )
        return f"play the number as {i}", f"plays the number as {i}"
    if action == PASS:
        if phase == PH_HANGED:
            return "play the card's own effect (no Hanged Man)", "plays the card's own effect"
        return "pass (decline the optional effects left)", "passes"
    text = action_meaning(action)
    return text, f"plays {text}"


def describe_action(
    s: TarotDiceState, action: int, viewer: int | None = None, name: str | None = None
) -> str:
    """``action`` about to be played in ``s``, in the words of the open sub-decision: the imperative
    for the mover (``viewer`` is its seat), otherwise a sentence naming the mover (``name``, default
    ``player_<seat>``), every die named for ``viewer`` ("your D8", "their D8")."""
    mover = s.current_player
    imperative, third = _phrase(s, action, mover, viewer)
    if viewer == mover:
        return imperative
    return f"{name or f'player_{mover}'} {third}"
