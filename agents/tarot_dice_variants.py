"""Tarot Dice's designed rules against simpler ones, by heuristic self-play (issue 20).

``python -m agents.tarot_dice_variants --variant NAME --games N --seed S`` plays N heuristic matches
under one candidate and prints the balance table of ``agents.balance`` for it, plus the matches a
candidate left level (``draw`` only). The candidates (``docs/rules/tarot_dice.md``, D-1 and D-3):

- ``shipped``: the rules as they are (the ``"$"`` mark has no rule effect, the nightfall duel at 60
  turns).
- ``once-a-round``: the ``"$"`` rule before this version: a ``"$"`` Major, once used, acts no more
  this round (emulated by taking it from its owner until the next draft; the one case it misses,
  a Major used in The Devil's card and offered again to the card that brought The Devil, is rare).
- ``limit-N``: the nightfall duel at N turns instead of 60 (``limit-40`` is the rule before this
  version; an odd N gives the round's starter the last turn).
- ``starter-ties``: a duel whose pairs all tie goes to the round's starter, not the second player.
- ``...+random-draft`` (a suffix to any of them): both players draft at random instead of by the
  heuristic's fixed order, which always takes the same six Majors (two "$" ones, Strength and The
  Moon), so that every "$" Major is met and used.
- ``draw``: a round reaching 40 turns (the limit before this version) ends with no winner and no
  points (the heuristic's model values such a round as the match standing it leaves); level
  matches go on to sudden death, stopped after 8 rounds for the measurement (``unfinished``).

Only this study uses the variants: they are subclasses of the engine's state built here, never
options of the env.
"""

from __future__ import annotations

import argparse

from agents.balance import TarotDiceReport, measure_tarot_dice
from agents.heuristic import tarot_dice_model as model_module
from mystic_envs.tarot_dice import rules
from mystic_envs.tarot_dice.actions import PASS
from mystic_envs.tarot_dice.cards import HANGED_MAN, JUDGEMENT, MAJORS, NUM_MAJORS

MAX_ROUNDS = 8  # the draw candidate's sudden death is cut here (rounds in a match)


class _Variant(rules.TarotDiceState):
    __slots__ = ()
    once_a_round = False
    draw_at_limit = False
    starter_ties = False

    def clone(self, *, share_rng: bool = False) -> rules.TarotDiceState:
        c = super().clone(share_rng=share_rng)
        c.__class__ = type(self)
        return c

    def _apply(self, action: int) -> None:
        phase, p = self.phase_name, self.player
        super()._apply(action)
        if not self.once_a_round:
            return
        used = -1
        if phase == "triggers" and action < NUM_MAJORS and MAJORS[action].dollar:
            used = action
        elif phase == "hanged_man" and action != PASS:
            used = HANGED_MAN
        elif phase == "card_value" and self.resolving == JUDGEMENT:
            used = JUDGEMENT
        if used >= 0 and p >= 0:
            self.owned[p] &= ~(1 << used)

    def nightfall(self) -> tuple[int, int]:
        winner, points = super().nightfall()
        if self.starter_ties:
            lines = [
                sorted(
                    (d for d in range(12) if self.board >> d & 1 and d // 6 == p),
                    key=lambda d: (self.value[d], rules.SIZE[d]),
                    reverse=True,
                )
                for p in (0, 1)
            ]
            if all(self.value[a] == self.value[b] for a, b in zip(*lines, strict=True)):
                winner = self.round_starter
        return winner, points

    def _end_turn(self) -> None:
        if not self.draw_at_limit or self.turn_in_round + 1 < self.game.round_turn_limit:
            super()._end_turn()
            return
        self.turn_in_round += 1
        self.rounds_done += 1
        self.last_round = (-1, 0, rules.NIGHTFALL)
        done = self.rounds_done >= self.game.num_rounds and self.points[0] != self.points[1]
        if done or self.rounds_done >= MAX_ROUNDS:
            self._end_match()
        else:
            self._next_round()


def _draw_model() -> None:
    """Teach the heuristic's model that a round reaching the limit is drawn: the duel's terms
    become the value of the standing (the lead decides in the last round, nothing before)."""
    model = model_module.Model

    def draw_value(self: model_module.Model) -> float:
        if self.final:
            return 1.0 if self.lead > 0 else (-1.0 if self.lead < 0 else 0.0)
        return 0.0

    original = model._static

    def _static(self, vals, board, xs, ys, env):  # a patch of the model's private method
        left = self.limit - self.turn - 1
        if left <= 0:
            return draw_value(self)
        if left > 1:
            saved = model_module.NIGHTFALL_WEIGHT
            model_module.NIGHTFALL_WEIGHT = {}
            try:
                u = original(self, vals, board, xs, ys, env)
            finally:
                model_module.NIGHTFALL_WEIGHT = saved
            w = saved.get(left, 0.0)
            return (1.0 - w) * u + w * draw_value(self)
        masks = ((board >> (6 * self.opp)) & 63, (board >> (6 * self.me)) & 63)
        p_opp = self.value(xs, ys, 1, env, masks) if env[0] else 0.0
        return p_opp * self.utility(0.0, board) + (1.0 - p_opp) * draw_value(self)

    model._static = _static
    model_module.LAST_TURN_EDGE = 0.5  # a draw gives the last turn no edge


def measure(variant: str, games: int, seed: int) -> tuple[TarotDiceReport, int]:
    """Play ``games`` heuristic matches under ``variant``; (the report, matches left unfinished)."""
    limit = rules.TarotDiceGame().round_turn_limit
    random_draft = variant.endswith("+random-draft")
    variant = variant.removesuffix("+random-draft")
    cls = type("Variant", (_Variant,), {"__slots__": ()})
    if variant == "once-a-round":
        cls.once_a_round = True
    elif variant == "starter-ties":
        cls.starter_ties = True
    elif variant == "draw":
        cls.draw_at_limit = True
        limit = 40
        _draw_model()
    elif variant.startswith("limit-"):
        limit = int(variant.removeprefix("limit-"))
    elif variant != "shipped":
        raise SystemExit(f"unknown variant {variant!r}")
    report = measure_tarot_dice(
        games,
        seed,
        game=rules.TarotDiceGame(round_turn_limit=limit),
        state_class=cls,
        random_draft=random_draft,
    )
    return report, report.level


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="shipped")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report, unfinished = measure(args.variant, args.games, args.seed)
    print(f"variant {args.variant}, {args.games} matches, seed {args.seed}")
    print(report.table())
    if unfinished:
        print(f"{unfinished} matches still level after {MAX_ROUNDS} rounds (no winner)")


if __name__ == "__main__":
    main()
