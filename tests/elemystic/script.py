"""Move-script helpers for Elemystic rule tests: scripts are lists of readable moves.

``"draft Fire"``, ``"front Light"``, ``"back Water"``, ``"air strength"``, ``"air defense"``,
``"shadow self before"``, ``"shadow opponent after"`` ... Each move is checked against the
mover's legal actions, so a script that breaks a rule fails loudly.
"""

from __future__ import annotations

from mystic_envs.core.rng import Rng
from mystic_envs.elemystic import rules
from mystic_envs.elemystic.cards import DEFENSE, ELEMENT_NAMES, INV_DEFENSE, INV_STRENGTH, SPEED, STRENGTH
from mystic_envs.elemystic.rules import ElemysticGame, ElemysticState

E = {name: i for i, name in enumerate(ELEMENT_NAMES)}

_SPECIAL = {
    "air strength": rules.AIR_STRENGTH,
    "air defense": rules.AIR_DEFENSE,
    "shadow self before": rules.SHADOW_SELF_BEFORE,
    "shadow opponent before": rules.SHADOW_OPPONENT_BEFORE,
    "shadow self after": rules.SHADOW_SELF_AFTER,
    "shadow opponent after": rules.SHADOW_OPPONENT_AFTER,
}


def action(move: str) -> int:
    if move in _SPECIAL:
        return _SPECIAL[move]
    verb, name = move.split()
    base = {"draft": rules.DRAFT, "front": rules.PLAY_FRONT, "back": rules.PLAY_BACK}[verb]
    return base + E[name]


def new_state(starting_player: int = 0, seed: int = 0) -> RecordingState:
    """A recording game whose round-1 arrows point at ``starting_player``."""
    s = RecordingState.new(ElemysticGame(), Rng(seed))
    s.records = []
    s.starting_player = s.draft_first = s.play_first = s.player = starting_player
    return s


def deal(s: ElemysticState, unknown: str, secret0: str, secret1: str) -> None:
    s.deal(E[unknown], (E[secret0], E[secret1]))


def play(s: ElemysticState, moves: list[tuple[int, str]]) -> None:
    """Apply ``(seat, move)`` pairs, checking that ``seat`` is the one to move."""
    for seat, move in moves:
        assert s.current_player == seat, f"{move!r}: expected player_{seat} to move, got {s.current_player}"
        s.apply(action(move))
        s.check_invariants()


def draft(s: ElemysticState, picks: list[str]) -> None:
    """The five draft picks in turn order (the sixth card goes to the second drafter)."""
    df = s.draft_first
    order = [df, df, 1 - df, 1 - df, df]
    play(s, [(seat, f"draft {name}") for seat, name in zip(order, picks, strict=True)])


def setup_round(s: ElemysticState, hands: tuple[list[str], list[str]], unknown: str) -> None:
    """Deal and draft so that seat p holds ``hands[p]`` (its first element is its secret)."""
    deal(s, unknown, hands[0][0], hands[1][0])
    df = s.draft_first
    mine, theirs = hands[df][1:], hands[1 - df][1:]
    draft(s, [mine[0], mine[1], theirs[0], theirs[1], mine[2]])
    assert s.hand == [sum(1 << E[n] for n in hands[p]) for p in (0, 1)]


def play_columns(s: ElemysticState, plays: tuple[list[str], list[str]]) -> None:
    """Alternate the two seats' play moves, Play First player first."""
    pf = s.play_first
    order = []
    for k in range(3):
        order += [(pf, plays[pf][k]), (1 - pf, plays[1 - pf][k])]
    play(s, order)


class RecordingState(ElemysticState):
    """Logs every round's resolution: fronts, speeds, attacks, arrows before and after.

    The round is reset inside the ``apply()`` that resolves it, so tests read these records.
    """

    __slots__ = ("records",)

    def _finish_play_phase(self) -> None:
        self.records.append(
            {
                "fronts": tuple(self.front),
                "speeds": tuple(SPEED[f] for f in self.front),
                "play_first_before": self.play_first,
                "draft_first_before": self.draft_first,
                "attackers": [],
                "attacks": [],
                "winner": -1,
            }
        )
        super()._finish_play_phase()

    def _attack(self, att: int) -> None:
        rec = self.records[-1]
        strength, defense = self.totals(att)[0], self.totals(1 - att)[1]
        before = tuple(self.energy)
        super()._attack(att)
        rec["attackers"].append(att)
        rec["attacks"].append((att, strength, defense, before, tuple(self.energy)))
        rec["winner"] = self.winner

    def _end_round(self) -> None:
        rec = self.records[-1]
        rec["end_strength"] = (self.totals(0)[0], self.totals(1)[0])
        super()._end_round()
        rec["play_first_after"] = self.play_first
        rec["draft_first_after"] = self.draft_first


def book_totals(front: str, supports: list[str]) -> tuple[int, int]:
    """Strength and Defense of a column by the book: every top half plus the front's bottom half."""
    f = E[front]
    names = [front, *supports]
    return (
        sum(STRENGTH[E[n]] for n in names) + INV_STRENGTH[f],
        sum(DEFENSE[E[n]] for n in names) + INV_DEFENSE[f],
    )
