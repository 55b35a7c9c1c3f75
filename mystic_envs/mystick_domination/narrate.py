"""What a Mystick Domination move caused, as one seat may know it (``mystic_envs.core.narration``).

From the state's ``log`` of the last ``apply()``, which holds only what the table sees: each
initiative draw (the cards shown, Majors discarded, ties redrawn) and its winner, each
challenge's Fate cards, redraws, successes, the Power moved and the points it scored, the
effects that resolve (Majors drawn as Fate, Actions, Pawns and Attachments) or wait for the next
initiative draw, the points each round's Power scores, eliminations and the final placing.
Cards drawn into a hand are never in the log.
"""

from __future__ import annotations

from mystic_envs.core.narration import Teller
from mystic_envs.mystick_domination.cards import ACTION, CARDS, MAX_PAWNS, SUIT, SUIT_NAMES
from mystic_envs.mystick_domination.decisions import GAME_OVER, MOVE
from mystic_envs.mystick_domination.rules import MystickState


def _card(c: int) -> str:
    return CARDS[c].name


def events(
    before: MystickState, after: MystickState, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, one sentence a line, as seat
    ``viewer`` (None: an onlooker) may know it; ``names[q]`` names seat ``q``."""
    who = Teller(viewer, names)
    out = []
    played = _action_played(before, after)
    for entry in after.log:
        kind = entry[0]
        if kind == "initiative":
            out.append(f"Initiative: {who.verb(entry[1], 'shows', 'show')} {_card(entry[2])}.")
        elif kind == "initiative_major":
            drawn = who.verb(entry[1], "draws", "draw")
            out.append(f"Initiative: {drawn} {_card(entry[2])}, a Major: discarded.")
        elif kind == "initiative_winner":
            moves = "move" if entry[1] == viewer else "moves"
            out.append(f"{who.verb(entry[1], 'wins', 'win')} the initiative and {moves} first.")
        elif kind == "fate":
            _, q, cards = entry
            shown = ", ".join(_card(c) for c in cards) or "nothing (the deck is empty)"
            out.append(f"Fate for {who.own(q)} challenge: {shown}.")
        elif kind == "redraw" and entry[2]:  # a redraw of nothing keeps the Fate: the label says so
            _, q, dropped, drawn = entry
            out.append(
                f"{who.verb(q, 'redraws', 'redraw')} {', '.join(map(_card, dropped))}: "
                f"new Fate {', '.join(map(_card, drawn)) or 'none (the deck is empty)'}."
            )
        elif kind == "challenge":
            out.append(_challenge(entry, who))
        elif kind == "challenge_lost":
            out.append(f"{who.own(entry[1], True)} {_card(entry[2])} left play: the challenge does nothing.")
        elif kind == "effect":
            _, q, c = entry
            if c == played:
                continue  # the Action just played: its label gave its text
            out.append(f"{who.own(q, True)} {_card(c)} takes effect: {CARDS[c].text or 'no text'}")
        elif kind == "delayed":
            _, q, c = entry
            out.append(f"{who.own(q, True)} {_card(c)} will take effect after the next initiative draw.")
        elif kind == "round_end":
            _, number, gained = entry
            points = ", ".join(f"{who(q, False)} {x}" for q, x in enumerate(gained) if after.alive[q] or x)
            out.append(f"Round {number} ends; the Power on the Pawns scores: {points or 'nothing'}.")
        elif kind == "out":
            for q in entry[1]:
                out.append(f"{who(q)} {'are' if q == viewer else 'is'} out of the game: the deck is empty.")
    if after.phase == GAME_OVER and before.phase != GAME_OVER:
        order = sorted(range(after.n), key=lambda q: after.placement[q])
        places = ", ".join(f"{who(q, False)} ({after.score[q]} points)" for q in order)
        out.append(f"The game is over; the placing, first to last: {places}.")
    return out


def _action_played(before: MystickState, after: MystickState) -> int:
    """The Action card the move played from its mover's hand (-1 for none)."""
    if before.phase != MOVE:
        return -1
    q = before.player
    gone = [c for c in range(len(CARDS)) if before.hand[q][c] > after.hand[q][c] and CARDS[c].type == ACTION]
    return gone[0] if len(gone) == 1 else -1


def _challenge(entry: tuple, who: Teller) -> str:
    _, q, card, target, target_card, successes, moved, killed = entry
    if target < 0:
        against, source = "the pool", "from the pool"
    else:
        r = target // MAX_PAWNS
        against = f"{who.own(r)} {_card(target_card)}"
        source = f"from {against}"
    suit = SUIT_NAMES[SUIT[card]]
    line = (
        f"{who.own(q, True)} {_card(card)} challenges {against}: {successes} "
        f"success{'' if successes == 1 else 'es'} ({suit} and Majors in the Fate count)"
    )
    if moved:
        line += f"; {moved} Power moves {source}, scoring {moved} point{'' if moved == 1 else 's'}"
    else:
        line += "; no Power moves"
    if killed:
        line += f"; Aggression kills {against}"
    return line + "."
