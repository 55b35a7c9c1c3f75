"""Elemystic balance measurement: heuristic self-play, per-element front outcomes.

``python -m agents.balance --games 20000`` prints, for every element, how the rounds in which it
stood at the front of a column ended for that column's owner (lost less Energy than the
opponent / more / the same), and how often the starting seat won. The figures are quoted in
``docs/rules/elemystic.md`` and checked by ``tests/elemystic/test_balance.py``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np

from agents.heuristic.elemystic import decide
from mystic_envs.elemystic.cards import ELEMENT_NAMES, NUM_ELEMENTS
from mystic_envs.elemystic.rules import ElemysticGame


@dataclass
class BalanceReport:
    games: int = 0
    rounds: int = 0
    start_seat_wins: int = 0
    less: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    more: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    tie: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)

    def front_rounds(self, e: int) -> int:
        return self.less[e] + self.more[e] + self.tie[e]

    def less_share(self, e: int) -> float:
        """Share of decided rounds (ties counted apart) in which ``e``'s owner lost less."""
        decided = self.less[e] + self.more[e]
        return self.less[e] / decided if decided else float("nan")

    @property
    def start_seat_rate(self) -> float:
        return self.start_seat_wins / self.games

    def table(self) -> str:
        rows = [
            "| element | rounds in front | lost less | lost more | tie | lost less, ties apart |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for e in range(NUM_ELEMENTS):
            n = self.front_rounds(e)
            rows.append(
                f"| {ELEMENT_NAMES[e]} | {n} | {self.less[e]} | {self.more[e]} | {self.tie[e]} "
                f"| {100 * self.less_share(e):.1f}% |"
            )
        rows.append("")
        rows.append(
            f"{self.games} games, {self.rounds} rounds ({self.rounds / self.games:.2f} a game); starting "
            f"seat won {100 * self.start_seat_rate:.1f}%"
        )
        return "\n".join(rows)


def measure(games: int, seed: int = 0) -> BalanceReport:
    """Play ``games`` heuristic-vs-heuristic games from ``seed`` and tally every round."""
    game = ElemysticGame()
    rng = np.random.default_rng(seed)
    report = BalanceReport()
    for _ in range(games):
        s = game.new_initial_state(int(rng.integers(2**63)))
        logged = None
        while not s.is_terminal:
            p = s.current_player
            s.apply(decide(s.determinize(p, rng), p))
            summary = s.last_round
            if summary is not None and summary is not logged:
                logged = summary
                report.rounds += 1
                lost = summary.energy_lost
                for owner in (0, 1):
                    e = summary.fronts[owner]
                    mine, theirs = lost[owner], lost[1 - owner]
                    if mine < theirs:
                        report.less[e] += 1
                    elif mine > theirs:
                        report.more[e] += 1
                    else:
                        report.tie[e] += 1
        report.games += 1
        report.start_seat_wins += s.winner == s.starting_player
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    print(measure(args.games, args.seed).table())


if __name__ == "__main__":
    main()
