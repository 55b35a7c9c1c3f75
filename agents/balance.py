"""Balance measurements by heuristic self-play, one mode per game (``--env``).

``python -m agents.balance --games 20000`` (Elemystic, the default) prints, for every element,
how the rounds in which it stood at the front of a column ended for that column's owner (lost
less Energy than the opponent / more / the same), and how often the starting seat won. The
figures are quoted in ``docs/rules/elemystic.md`` and checked by ``tests/elemystic/test_balance.py``.

``python -m agents.balance --env mystria_v0 --games 2000`` plays that many games under each set
of rules (``--variant`` picks one) and prints the first player's wins, how the games ended
(a player out of Energy drops, or the 12-turn end), the average final scores and drops, the
share of games the drops tie-break decided and the Objective tiles kept and achieved. The figures
are quoted in ``docs/rules/mystria.md`` and checked by ``tests/mystria/test_balance.py``.

``python -m agents.balance --env mystick_domination_v0 --num-players N --games 10000`` plays that many
heuristic self-play games at N players (2-5; several counts: ``--num-players 2 3 4 5``) and prints
each seat's wins and its distance from 1/N, the first mover's (the first initiative's winner),
the wins of every pair of suits a deck was built from and of every suit (its distance from 1/N),
the game length in moves and rounds,
how the games ended (the pool emptied at a round's end, or eliminations to the last player
standing), the winning margin (the top score over the second; its median / mean / 10th-90th
percentile and the games within 5 points, the columns Mystic Vale's report prints) and the share
of games whose only winner has fewer points than another seat. The figures are quoted in
``docs/rules/mystick_domination.md`` and checked by ``tests/mystick_domination/test_balance.py``.

``python -m agents.balance --env mystic_vale_v0 --num-players 2 3 4 --games 10000`` plays that many
heuristic self-play games at each player count (2-4) and prints the game length (turns per player,
actions), each seat's wins and each turn-order place's (the starting player first) with their
distance from 1/N, and how often each level-3 advancement and each vale is bought (per game, the
share of games with one bought, and the share its buyers won). The figures are quoted in
``docs/rules/mystic_vale.md`` and checked by ``tests/mystic_vale/test_balance.py``.

``python -m agents.balance --env tarot_dice_v0 --games 2000`` prints the first player's share of
the matches and of the rounds it started, how the rounds ended (the last pair captured, or the
nightfall duel at the turn limit), their length and points, and how often a match went to sudden
death. The figures are quoted in ``docs/rules/tarot_dice.md`` and checked by
``tests/tarot_dice/test_balance.py``.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, field

import numpy as np

from agents.heuristic import mystic_vale as vale_heuristic
from agents.heuristic import mystick_domination as mystick_heuristic
from agents.heuristic import mystria as mystria_heuristic
from agents.heuristic import tarot_dice as tarot_dice_heuristic
from agents.heuristic.elemystic import decide
from mystic_envs.core.rng import from_generator
from mystic_envs.elemystic.cards import COLUMN_SIZE, ELEMENT_NAMES, NUM_ELEMENTS, THUNDER
from mystic_envs.elemystic.rules import MASK_ELEMENTS, PLAY_FRONT, PLAY_PHASE, ElemysticGame
from mystic_envs.mystic_vale.cards import ADVANCEMENTS as VALE_ADVANCEMENTS
from mystic_envs.mystic_vale.cards import COMMONS as VALE_COMMONS
from mystic_envs.mystic_vale.cards import VALES as VALE_VALES
from mystic_envs.mystic_vale.decisions import BUY_COMMONS as VALE_BUY_COMMONS
from mystic_envs.mystic_vale.decisions import BUY_FERTILE as VALE_BUY_FERTILE
from mystic_envs.mystic_vale.decisions import BUY_VALE as VALE_BUY_VALE
from mystic_envs.mystic_vale.decisions import SUNSTONE as VALE_SUNSTONE
from mystic_envs.mystic_vale.rules import ValeGame
from mystic_envs.mystick_domination.cards import IS_MAJOR as MYSTICK_IS_MAJOR
from mystic_envs.mystick_domination.cards import SUIT as MYSTICK_SUIT
from mystic_envs.mystick_domination.cards import SUIT_NAMES as MYSTICK_SUITS
from mystic_envs.mystick_domination.rules import MystickGame
from mystic_envs.mystria import rules as mystria_rules
from mystic_envs.mystria.board import NUM_OBJECTIVES, OBJECTIVES, VARIANTS
from mystic_envs.tarot_dice import rules as tarot_dice_rules


@dataclass
class BalanceReport:
    games: int = 0
    rounds: int = 0
    start_seat_wins: int = 0
    less: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    more: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    tie: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    # The element each player kept out of its column (its fourth card), per element: how often
    # building the column left it unplayed; and how often it was played as a support (top half).
    left_out: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    supported: list[int] = field(default_factory=lambda: [0] * NUM_ELEMENTS)
    zero_zero: int = 0  # rounds in which neither player lost Energy
    equal: int = 0  # rounds in which both lost the same (0-0 included)
    play_first_less: int = 0  # decided rounds the Play First player lost less in
    play_first_more: int = 0
    thunder_rounds: int = 0  # rounds with Thunder at a front
    charged_rounds: int = 0  # rounds played with a Thunder Token charged
    lengths: list[int] = field(default_factory=list)  # rounds of each game

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
            "| element | rounds in front | lost less | lost more | tie | lost less, ties apart "
            "| in support | left unplayed |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for e in range(NUM_ELEMENTS):
            n = self.front_rounds(e)
            rows.append(
                f"| {ELEMENT_NAMES[e]} | {n} | {self.less[e]} | {self.more[e]} | {self.tie[e]} "
                f"| {100 * self.less_share(e):.1f}% | {self.supported[e]} | {self.left_out[e]} |"
            )
        rows.append("")
        rows.append(
            f"{self.games} games, {self.rounds} rounds ({self.rounds / self.games:.2f} a game); starting "
            f"seat won {100 * self.start_seat_rate:.1f}%"
        )
        n = max(self.rounds, 1)
        decided = max(self.play_first_less + self.play_first_more, 1)
        rows.append(
            f"rounds a game: median {int(np.median(self.lengths))}, at most {max(self.lengths)}; rounds "
            f"0-0 {100 * self.zero_zero / n:.1f}%, equal {100 * self.equal / n:.1f}%; Play First lost less "
            f"in {100 * self.play_first_less / decided:.1f}% of decided rounds; Thunder at a front in "
            f"{100 * self.thunder_rounds / n:.1f}% of rounds, a charged Thunder Token in "
            f"{100 * self.charged_rounds / n:.1f}%"
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
        play_first, charged = s.play_first, False
        while not s.is_terminal:
            if s.phase == PLAY_PHASE and s.player == play_first and s.played == [0, 0]:
                charged = any(s.thunder_charged)
            p = s.current_player
            a = decide(s.determinize(p, rng), p)
            if s.phase == PLAY_PHASE and s.played[p] == COLUMN_SIZE - 1:
                # The column's last element: what stays in hand is the one left unplayed.
                report.left_out[MASK_ELEMENTS[s.hand[p] & ~(1 << (a - PLAY_FRONT) % NUM_ELEMENTS)][0]] += 1
            s.apply(a)
            summary = s.last_round
            if summary is not None and summary is not logged:
                logged = summary
                report.rounds += 1
                lost = summary.energy_lost
                report.zero_zero += lost == (0, 0)
                report.equal += lost[0] == lost[1]
                report.play_first_less += lost[play_first] < lost[1 - play_first]
                report.play_first_more += lost[play_first] > lost[1 - play_first]
                report.thunder_rounds += THUNDER in summary.fronts
                report.charged_rounds += charged
                play_first, charged = s.play_first, False
                for owner in (0, 1):
                    e = summary.fronts[owner]
                    for x in MASK_ELEMENTS[summary.columns[owner] & ~(1 << e)]:
                        report.supported[x] += 1
                    mine, theirs = lost[owner], lost[1 - owner]
                    if mine < theirs:
                        report.less[e] += 1
                    elif mine > theirs:
                        report.more[e] += 1
                    else:
                        report.tie[e] += 1
        report.games += 1
        report.lengths.append(s.round)
        report.start_seat_wins += s.winner == s.starting_player
    return report


@dataclass
class MystriaReport:
    """Heuristic self-play tallies for one Mystria variant; "first" is the player who went first
    (6 drops), "second" the other (5 drops, assigns the score board)."""

    variant: str
    games: int = 0
    first_wins: int = 0
    dry_ends: int = 0  # a player had to act with no drop left (or no move or flip at all)
    dry_first_losses: int = 0  # ... and that player was the first player
    scored: int = 0  # games that reached the 12-turn end
    tie_breaks: int = 0  # scored games with equal points, decided by the drops left
    score_sums: list[int] = field(default_factory=lambda: [0, 0])  # [first, second], scored games
    drop_sums: list[int] = field(default_factory=lambda: [0, 0])  # [first, second], scored games
    margin_sum: int = 0  # winner's points - loser's points, scored games
    drawn: list[int] = field(default_factory=lambda: [0] * NUM_OBJECTIVES)
    kept: list[int] = field(default_factory=lambda: [0] * NUM_OBJECTIVES)
    achieved: list[int] = field(default_factory=lambda: [0] * NUM_OBJECTIVES)  # of kept, scored games
    kept_scored: list[int] = field(default_factory=lambda: [0] * NUM_OBJECTIVES)

    @property
    def first_rate(self) -> float:
        return self.first_wins / self.games

    @property
    def dry_rate(self) -> float:
        return self.dry_ends / self.games

    @property
    def tie_break_rate(self) -> float:
        return self.tie_breaks / self.games

    def mean(self, sums: list[int], seat: int) -> float:
        return sums[seat] / self.scored if self.scored else float("nan")

    def row(self) -> str:
        lo, hi = wilson(self.first_wins, self.games)
        second_dry = self.dry_ends - self.dry_first_losses
        return (
            f"| {self.variant} | {self.games} | {100 * self.first_rate:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] "
            f"| {100 * self.dry_rate:.1f}% ({self.dry_first_losses} / {second_dry}) "
            f"| {100 * self.scored / self.games:.1f}% "
            f"| {self.mean(self.score_sums, 0):.1f} / {self.mean(self.score_sums, 1):.1f} "
            f"| {self.mean(self.drop_sums, 0):.2f} / {self.mean(self.drop_sums, 1):.2f} "
            f"| {self.margin_sum / self.scored if self.scored else float('nan'):.1f} "
            f"| {100 * self.tie_break_rate:.1f}% |"
        )

    def tiles(self) -> str:
        # Expected points: what keeping the tile paid its holder on average, points x share fulfilled.
        rows = [
            "| tile | points | drawn | kept (of its draws) | fulfilled (12-turn games) | expected points |",
            "|---|--:|--:|--:|--:|--:|",
        ]
        for t, tile in enumerate(OBJECTIVES):
            kept = f"{self.kept[t]} ({100 * self.kept[t] / self.drawn[t]:.0f}%)" if self.drawn[t] else "0"
            if self.kept_scored[t]:
                share = self.achieved[t] / self.kept_scored[t]
                done, expected = f"{100 * share:.0f}%", f"{share * tile.points:.2f}"
            else:
                done = expected = "-"
            rows.append(f"| {tile.name} | {tile.points} | {self.drawn[t]} | {kept} | {done} | {expected} |")
        return "\n".join(rows)


MYSTRIA_HEADER = (
    "| rules | games | first player won [95% CI] | out of drops (first / second ran dry) "
    "| 12-turn end | final score first / second | drops left first / second | winning margin "
    "| decided by the drops tie-break |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|"
)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def measure_mystria(games: int, variant: str = "full", seed: int = 0) -> MystriaReport:
    """Play ``games`` Mystria heuristic-vs-heuristic games under ``variant`` from ``seed``."""
    game = mystria_rules.MystriaGame(variant=variant)
    rng = np.random.default_rng(seed)
    report = MystriaReport(variant)
    for _ in range(games):
        s = game.new_initial_state(int(rng.integers(2**63)))
        while not s.is_terminal:
            p = s.current_player
            s.apply(mystria_heuristic.decide(s.determinize(p, rng), p))
        first = s.first
        report.games += 1
        report.first_wins += s.winner == first
        for p in (0, 1):
            for t in s.drawn[p]:
                report.drawn[t] += 1
            if s.kept[p] >= 0:
                report.kept[s.kept[p]] += 1
        if s.end_reason != mystria_rules.SCORED:
            report.dry_ends += 1
            report.dry_first_losses += s.winner != first
            continue
        report.scored += 1
        totals = [s.score(p).total for p in (first, 1 - first)]
        report.tie_breaks += totals[0] == totals[1]
        report.margin_sum += abs(totals[0] - totals[1])
        for i, p in enumerate((first, 1 - first)):
            report.score_sums[i] += totals[i]
            report.drop_sums[i] += s.drops[p]
            if s.kept[p] >= 0:
                report.kept_scored[s.kept[p]] += 1
                report.achieved[s.kept[p]] += s.objective_done(p)
    return report


@dataclass
class TarotDiceReport:
    """Heuristic self-play tallies for Tarot Dice. "First" is the player who took the first turn of
    the match (it starts rounds 1 and 3, the other player round 2)."""

    games: int = 0
    first_wins: int = 0  # matches won by the first player of the match
    rounds: int = 0
    starter_wins: int = 0  # rounds won by the player who took their first turn
    nightfall: int = 0  # rounds ended by the nightfall duel
    nightfall_starter_wins: int = 0
    sudden_death: int = 0  # matches that needed a round beyond num_rounds
    turns: list[int] = field(default_factory=list)  # turns played, per round
    points: int = 0  # points scored, all rounds
    level: int = 0  # matches ended level (a rule variant's only): no winner

    @property
    def first_rate(self) -> float:
        return self.first_wins / self.games

    @property
    def starter_rate(self) -> float:
        return self.starter_wins / self.rounds

    @property
    def nightfall_rate(self) -> float:
        return self.nightfall / self.rounds

    def table(self) -> str:
        lo, hi = wilson(self.first_wins, self.games)
        slo, shi = wilson(self.starter_wins, self.rounds)
        turns = np.array(self.turns)
        captured = self.rounds - self.nightfall
        rows = [
            "| games | first player won the match [95% CI] | rounds | round starter won the round [95% CI] "
            "| ended by capturing the last pair / by the nightfall duel | turns per round: median / mean / "
            "longest | points per round | sudden-death matches |",
            "|--:|--:|--:|--:|--:|--:|--:|--:|",
            f"| {self.games} | {100 * self.first_rate:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] | {self.rounds} "
            f"| {100 * self.starter_rate:.1f}% [{100 * slo:.1f}-{100 * shi:.1f}] "
            f"| {100 * captured / self.rounds:.1f}% / {100 * self.nightfall_rate:.1f}% "
            f"| {np.median(turns):.0f} / {turns.mean():.1f} / {turns.max()} "
            f"| {self.points / self.rounds:.1f} | {100 * self.sudden_death / self.games:.1f}% |",
        ]
        if self.nightfall and captured:
            by_capture = self.starter_wins - self.nightfall_starter_wins
            rows.append(
                f"\nThe round starter won {100 * self.nightfall_starter_wins / self.nightfall:.1f}% of the "
                f"{self.nightfall} duels and {100 * by_capture / captured:.1f}% of the {captured} rounds "
                "ended by a capture."
            )
        return "\n".join(rows)


def measure_tarot_dice(
    games: int,
    seed: int = 0,
    *,
    game: tarot_dice_rules.TarotDiceGame | None = None,
    state_class: type[tarot_dice_rules.TarotDiceState] = tarot_dice_rules.TarotDiceState,
    random_draft: bool = False,
) -> TarotDiceReport:
    """Play ``games`` Tarot Dice heuristic-vs-heuristic matches from ``seed`` and tally every round.

    ``game``, ``state_class`` and ``random_draft`` serve the rule-variant study
    (``agents.tarot_dice_variants``): another turn limit, a subclass of the state with a candidate
    rule, both players drafting at random. A match still level when it ends (only a variant can end
    one so) counts in ``level`` and for neither player."""
    game = game or tarot_dice_rules.TarotDiceGame()
    rng = np.random.default_rng(seed)
    report = TarotDiceReport()
    for _ in range(games):
        s = state_class.new(game, from_generator(np.random.default_rng(int(rng.integers(2**63)))))
        first = starter = s.round_starter
        logged = None
        turns = 0
        while not s.is_terminal:
            p = s.current_player
            turns = s.turn_in_round
            if random_draft and s.phase_name == "draft":
                legal = s.legal_actions()
                s.apply(legal[int(rng.integers(len(legal)))])
            else:
                s.apply(tarot_dice_heuristic.decide(s.determinize(p, rng), p))
            if s.last_round is not None and s.last_round is not logged:
                logged = s.last_round
                winner, points, how = logged
                nightfall = how == tarot_dice_rules.NIGHTFALL
                report.rounds += 1
                report.starter_wins += winner == starter
                report.nightfall += nightfall
                report.nightfall_starter_wins += nightfall and winner == starter
                report.turns.append(turns + 1)
                report.points += points
                starter = s.round_starter
        report.games += 1
        if s.points[0] == s.points[1]:
            report.level += 1
        else:
            report.first_wins += s.winners() == [first]
        report.sudden_death += s.rounds_done > game.num_rounds
    return report


def percentile_spread(xs: list[int]) -> str:
    """Median / mean / 10th-90th percentile of ``xs``, as the margin columns print it."""
    a = np.array(xs)
    lo, hi = np.percentile(a, [10, 90])
    return f"{np.median(a):.0f} / {a.mean():.1f} / {lo:.0f}-{hi:.0f}"


def margin_cells(margins: list[int]) -> str:
    """The winning margin (points over the runner-up) and the share of games within 5 points."""
    return f"{percentile_spread(margins)} | {100 * np.mean(np.array(margins) <= 5):.1f}%"


MARGIN_HEADER = "winning margin (points over the runner-up) | games within 5 points"


@dataclass
class MystickReport:
    """Heuristic self-play tallies for Mystick Domination at ``n`` players. A game won by several
    seats (tied on score and cards left) counts a share for each; a drawn game for none."""

    n: int
    games: int = 0
    seat_wins: list[float] = field(default_factory=list)
    first_wins: float = 0.0  # the seat that won the first initiative (and moved first)
    pair_games: dict[tuple[int, int], int] = field(default_factory=dict)  # decks of that suit pair
    pair_wins: dict[tuple[int, int], float] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)  # actions per game, sub-decisions included
    turns: list[int] = field(default_factory=list)  # moves proper (play, draw, challenge, special)
    rounds: list[int] = field(default_factory=list)
    last_standing: int = 0  # games ended by eliminations down to one player
    with_elimination: int = 0  # games in which at least one seat was eliminated
    drawn: int = 0  # no winner: tied on score and cards left
    margins: list[int] = field(default_factory=list)  # the top score - the second score, per game
    behind: int = 0  # games whose only winner has fewer points than another seat (an elimination win)

    def __post_init__(self) -> None:
        self.seat_wins = [0.0] * self.n

    def seat_table(self) -> str:
        rows = [
            f"| seat | wins of {self.games} [95% CI] | distance from 1/{self.n} |",
            "|---|--:|--:|",
        ]
        fair = 1 / self.n
        for q in range(self.n):
            rows.append(self._rate_row(f"player_{q}", self.seat_wins[q], self.games, fair))
        rows.append(self._rate_row("first mover", self.first_wins, self.games, fair))
        return "\n".join(rows)

    @staticmethod
    def _rate_row(name: str, wins: float, games: int, fair: float) -> str:
        lo, hi = wilson(wins, games)
        rate = wins / games
        return (
            f"| {name} | {100 * rate:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] "
            f"| {100 * (rate - fair):+.1f} points |"
        )

    def pair_table(self) -> str:
        rows = ["| suits of the deck | decks | wins [95% CI] |", "|---|--:|--:|"]
        for pair in sorted(self.pair_games):
            k, w = self.pair_games[pair], self.pair_wins.get(pair, 0.0)
            lo, hi = wilson(w, k)
            name = " + ".join(MYSTICK_SUITS[x] for x in pair)
            rows.append(f"| {name} | {k} | {100 * w / k:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] |")
        return "\n".join(rows)

    def suit_table(self) -> str:
        """Wins of the decks holding each suit (a deck holds two), against an equal's 1/n."""
        rows = [f"| suit | decks | wins [95% CI] | distance from 1/{self.n} |", "|---|--:|--:|--:|"]
        for suit, name in enumerate(MYSTICK_SUITS):
            k = sum(v for pair, v in self.pair_games.items() if suit in pair)
            w = sum(self.pair_wins.get(pair, 0.0) for pair in self.pair_games if suit in pair)
            lo, hi = wilson(w, k)
            rows.append(
                f"| {name} | {k} | {100 * w / k:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}] "
                f"| {100 * (w / k - 1 / self.n):+.1f} points |"
            )
        return "\n".join(rows)

    def length_table(self) -> str:
        def spread(xs: list[int]) -> str:
            a = np.array(xs)
            return f"{np.median(a):.0f} / {a.mean():.1f} / {a.min()}-{a.max()}"

        g = self.games
        return "\n".join(
            [
                "| players | games | actions: median / mean / range | moves | rounds "
                "| ended by the empty pool | by the last player standing | a seat eliminated | drawn |",
                "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
                f"| {self.n} | {g} | {spread(self.moves)} | {spread(self.turns)} | {spread(self.rounds)} "
                f"| {100 * (g - self.last_standing) / g:.1f}% | {100 * self.last_standing / g:.1f}% "
                f"| {100 * self.with_elimination / g:.1f}% | {100 * self.drawn / g:.1f}% |",
                "",
                f"| {MARGIN_HEADER} | ended by elimination | the only winner behind another seat on points |",
                "|--:|--:|--:|--:|",
                f"| {margin_cells(self.margins)} | {100 * self.last_standing / g:.1f}% "
                f"| {100 * self.behind / g:.1f}% |",
            ]
        )

    def table(self) -> str:
        return f"{self.length_table()}\n\n{self.seat_table()}\n\n{self.pair_table()}\n\n{self.suit_table()}"


def deck_suits(deck: list[int]) -> tuple[int, int]:
    """The two suits a Mystick Domination deck is built from."""
    suits = sorted({MYSTICK_SUIT[c] for c in deck if not MYSTICK_IS_MAJOR[c]})
    return suits[0], suits[-1]


def measure_mystick(games: int, num_players: int = 2, seed: int = 0) -> MystickReport:
    """Play ``games`` Mystick Domination heuristic self-play games at ``num_players`` from ``seed``
    (random basic decks, as the env's default) and tally them."""
    game = MystickGame(num_players=num_players)
    rng = np.random.default_rng(seed)
    report = MystickReport(num_players)
    for _ in range(games):
        s = game.new_initial_state(int(rng.integers(2**63)))
        first = s.first_mover
        moves = turns = 0
        while not s.is_terminal:
            p = s.current_player
            turns += s.phase == 0  # phase "move": a move proper, not one of its sub-decisions
            s.apply(mystick_heuristic.decide(s.determinize(p, rng), p))
            moves += 1
        winners = s.winners()
        report.games += 1
        report.moves.append(moves)
        report.turns.append(turns)
        report.rounds.append(s.round)
        report.drawn += not winners
        report.last_standing += sum(s.alive) <= 1
        report.with_elimination += not all(s.alive)
        ranked = sorted(s.score, reverse=True)
        report.margins.append(ranked[0] - ranked[1])
        report.behind += len(winners) == 1 and max(s.score) > s.score[winners[0]]
        for q in range(num_players):
            pair = deck_suits(s.deck_list[q])
            report.pair_games[pair] = report.pair_games.get(pair, 0) + 1
            if q in winners:
                share = 1 / len(winners)
                report.seat_wins[q] += share
                report.pair_wins[pair] = report.pair_wins.get(pair, 0.0) + share
        if first in winners:
            report.first_wins += 1 / len(winners)
    return report


@dataclass
class MysticValeReport:
    """Heuristic self-play tallies for Mystic Vale at ``n`` players. A turn is one player's turn
    (planting to prep); a game won by several seats (tied on points and on the tiebreak) counts a
    share for each. "Bought" is per purchase (an advancement from the commons, a vale from its row)."""

    n: int
    games: int = 0
    seat_wins: list[float] = field(default_factory=list)
    first_wins: float = 0.0  # the starting player (the mana token with the starting symbol)
    order_wins: list[float] = field(default_factory=list)  # by turn order: the starting player first
    moves: list[int] = field(default_factory=list)  # actions per game, sub-decisions included
    turns: list[int] = field(default_factory=list)  # turns of each player (the same for every seat)
    points: list[int] = field(default_factory=list)  # the winner's points, per game
    overflow: list[int] = field(default_factory=list)  # VP taken from the box past the pool, per game
    shared: int = 0  # games won by more than one seat
    unfinished: int = 0  # games cut at the move limit (none expected)
    margins: list[int] = field(default_factory=list)  # the winner's points - the runner-up's, per game
    runner_up: list[float] = field(default_factory=list)  # the runner-up's points / the winner's
    first_vale: list[int] = field(default_factory=list)  # the round of the game's first vale (0: none)
    adv_bought: list[int] = field(default_factory=list)  # copies bought, per commons advancement id
    adv_games: list[int] = field(default_factory=list)  # games in which some seat bought one
    adv_buyers: list[int] = field(default_factory=list)  # (game, seat) pairs that bought one
    adv_buyer_wins: list[float] = field(default_factory=list)
    vale_bought: list[int] = field(default_factory=list)
    vale_games: list[int] = field(default_factory=list)
    vale_buyers: list[int] = field(default_factory=list)
    vale_buyer_wins: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.seat_wins = [0.0] * self.n
        self.order_wins = [0.0] * self.n
        k, v = len(VALE_ADVANCEMENTS), len(VALE_VALES)
        self.adv_bought, self.adv_games, self.adv_buyers = [0] * k, [0] * k, [0] * k
        self.adv_buyer_wins = [0.0] * k
        self.vale_bought, self.vale_games, self.vale_buyers = [0] * v, [0] * v, [0] * v
        self.vale_buyer_wins = [0.0] * v

    def length_table(self) -> str:
        spread = percentile_spread
        g = self.games
        vales = np.array(self.first_vale)
        bought = vales[vales > 0]
        return "\n".join(
            [
                "| players | games | turns per player: median / mean / 10th-90th percentile "
                "| actions per game | winner's points | VP past the pool | ended by the empty pool "
                "| shared wins |",
                "|--:|--:|--:|--:|--:|--:|--:|--:|",
                f"| {self.n} | {g} | {spread(self.turns)} | {spread(self.moves)} | {spread(self.points)} "
                f"| {np.mean(self.overflow):.1f} | {100 * (g - self.unfinished) / g:.1f}% "
                f"| {100 * self.shared / g:.1f}% |",
                "",
                f"| {MARGIN_HEADER} "
                "| runner-up's points / winner's: median / 10th percentile "
                "| first vale of the game, round: median / 10th-90th percentile | games with no vale |",
                "|--:|--:|--:|--:|--:|",
                f"| {margin_cells(self.margins)} "
                f"| {100 * np.median(self.runner_up):.0f}% / {100 * np.percentile(self.runner_up, 10):.0f}% "
                f"| {spread(list(bought)) if bought.size else '-'} | {100 * np.mean(vales == 0):.1f}% |",
            ]
        )

    def seat_table(self) -> str:
        rows = [f"| seat | wins of {self.games} [95% CI] | distance from 1/{self.n} |", "|---|--:|--:|"]
        for q in range(self.n):
            rows.append(MystickReport._rate_row(f"player_{q}", self.seat_wins[q], self.games, 1 / self.n))
        # The seat is drawn at random, so the seats above are even by symmetry; the turn order is
        # where a first-player edge would show.
        order = ("1st to play (the starting player)", "2nd to play", "3rd to play", "4th to play")
        for k in range(self.n):
            rows.append(MystickReport._rate_row(order[k], self.order_wins[k], self.games, 1 / self.n))
        return "\n".join(rows)

    def _bought_rows(self, names: list[str], bought, games, buyers, wins) -> list[str]:
        g = self.games
        rows = []
        for name, b, k, m, w in zip(names, bought, games, buyers, wins, strict=True):
            share = f"{100 * w / m:.1f}%" if m else "-"
            rows.append(f"| {name} | {b / g:.2f} | {100 * k / g:.1f}% | {share} |")
        return rows

    def bought_table(self) -> str:
        """Each level-3 advancement and each vale: copies bought per game, the share of games in
        which some seat bought one, and how often a seat that bought one won (an equal's: 1/n)."""
        head = (
            f"| {{}} | bought per game | games with one bought | its buyers won (1/{self.n} = "
            f"{100 / self.n:.0f}%) |\n|---|--:|--:|--:|"
        )
        level3 = [i for i, a in enumerate(VALE_ADVANCEMENTS) if a.kind == VALE_COMMONS and a.level == 3]
        tallies = (self.adv_bought, self.adv_games, self.adv_buyers, self.adv_buyer_wins)
        adv = self._bought_rows(
            [VALE_ADVANCEMENTS[i].name for i in level3], *([x[i] for i in level3] for x in tallies)
        )
        vales = self._bought_rows(
            [f"{v.name} (level {v.level})" for v in VALE_VALES],
            self.vale_bought,
            self.vale_games,
            self.vale_buyers,
            self.vale_buyer_wins,
        )
        return "\n".join([head.format("level-3 advancement"), *adv, "", head.format("vale"), *vales])

    def table(self) -> str:
        return f"{self.length_table()}\n\n{self.seat_table()}\n\n{self.bought_table()}"


VALE_MOVE_LIMIT = 20_000  # a safety cut far above any game (a 4-player game is ~1,500 actions)


def measure_mystic_vale(games: int, num_players: int = 2, seed: int = 0) -> MysticValeReport:
    """Play ``games`` Mystic Vale heuristic self-play games at ``num_players`` (2-4) from ``seed``
    and tally their length, seats and purchases."""
    game = ValeGame(num_players=num_players)
    rng = np.random.default_rng(seed)
    report = MysticValeReport(num_players)
    for _ in range(games):
        s = game.new_initial_state(int(rng.integers(2**63)))
        first = s.start_player
        turns = [0] * num_players
        active = -1
        moves = 0
        first_vale = 0
        advs: list[set[int]] = [set() for _ in range(num_players)]
        vales: list[set[int]] = [set() for _ in range(num_players)]
        while not s.is_terminal and moves < VALE_MOVE_LIMIT:
            if s.active != active:  # a new turn: planting (or a skipped Harvest) to prep
                active = s.active
                turns[active] += 1
            a = vale_heuristic.decide(s.determinize(s.current_player, rng), s.current_player)
            if VALE_BUY_COMMONS <= a < VALE_BUY_FERTILE:
                adv = s.commons[a - VALE_BUY_COMMONS]
                report.adv_bought[adv] += 1
                advs[s.active].add(adv)
            elif VALE_BUY_VALE <= a < VALE_SUNSTONE:
                v = s.vale_up[a - VALE_BUY_VALE]
                report.vale_bought[v] += 1
                vales[s.active].add(v)
                first_vale = first_vale or s.turn // num_players + 1
            s.apply(a)
            moves += 1
        report.games += 1
        report.moves.append(moves)
        if not s.is_terminal:
            report.unfinished += 1
            continue
        report.turns.append(max(turns))
        report.overflow.append(s.overflow)
        winners = s.winners()
        report.points.append(s.points(winners[0]))
        ranked = sorted((s.points(q) for q in range(num_players)), reverse=True)
        report.margins.append(ranked[0] - ranked[1])
        report.runner_up.append(ranked[1] / ranked[0] if ranked[0] else 1.0)
        report.first_vale.append(first_vale)
        report.shared += len(winners) > 1
        share = [1 / len(winners) if q in winners else 0.0 for q in range(num_players)]
        for q in range(num_players):
            report.seat_wins[q] += share[q]
            for ids, buyers, wins in (
                (advs[q], report.adv_buyers, report.adv_buyer_wins),
                (vales[q], report.vale_buyers, report.vale_buyer_wins),
            ):
                for i in ids:
                    buyers[i] += 1
                    wins[i] += share[q]
        for ids, counts in ((advs, report.adv_games), (vales, report.vale_games)):
            for i in set().union(*ids):
                counts[i] += 1
        report.first_wins += share[first]
        for q in range(num_players):
            report.order_wins[(q - first) % num_players] += share[q]
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m agents.balance", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--env",
        default="elemystic_v0",
        choices=("elemystic_v0", "mystria_v0", "tarot_dice_v0", "mystick_domination_v0", "mystic_vale_v0"),
    )
    parser.add_argument(
        "--games",
        type=int,
        help="games (per variant for mystria_v0, per player count for mystick_domination_v0 and "
        "mystic_vale_v0; default 20000 elemystic, 2000 mystria and tarot_dice, 1000 mystick_domination "
        "and mystic_vale)",
    )
    parser.add_argument(
        "--num-players",
        type=int,
        nargs="+",
        help="mystick_domination_v0 (2-5) and mystic_vale_v0 (2-4) only: player counts (default 2)",
    )
    parser.add_argument("--variant", choices=VARIANTS, help="mystria_v0 only: one variant (default both)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.seed < 0:
        parser.error(f"--seed must be a non-negative integer, got {args.seed}")
    if args.num_players is not None and args.env not in ("mystick_domination_v0", "mystic_vale_v0"):
        parser.error(
            "--num-players is for mystick_domination_v0 and mystic_vale_v0 (the other games are for two "
            "players)"
        )
    per_count = {
        "mystick_domination_v0": (MystickGame, measure_mystick),
        "mystic_vale_v0": (ValeGame, measure_mystic_vale),
    }
    if args.env in per_count:
        if args.variant:
            parser.error("--variant is for mystria_v0")
        game_cls, measure_count = per_count[args.env]
        allowed = game_cls.PLAYER_COUNTS
        counts = args.num_players or [2]
        bad = [k for k in counts if k not in allowed]
        if bad:
            parser.error(f"--num-players must be among {allowed[0]}-{allowed[-1]}, got {bad[0]}")
        for k in counts:
            print(
                f"## {k} players\n\n{measure_count(args.games or 1000, k, args.seed).table()}\n", flush=True
            )
        return
    if args.env == "elemystic_v0":
        if args.variant:
            parser.error("--variant is for mystria_v0")
        print(measure(args.games or 20_000, args.seed).table())
        return
    if args.env == "tarot_dice_v0":
        if args.variant:
            parser.error("--variant is for mystria_v0")
        print(measure_tarot_dice(args.games or 2000, args.seed).table())
        return
    variants = [args.variant] if args.variant else VARIANTS
    reports = [measure_mystria(args.games or 2000, v, args.seed) for v in variants]
    print(MYSTRIA_HEADER)
    for r in reports:
        print(r.row())
    for r in reports:
        if r.variant == "full":
            print(f"\nObjective tiles kept ({r.variant} rules, both players):\n\n{r.tiles()}")


if __name__ == "__main__":
    main()
