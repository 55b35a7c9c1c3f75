"""The statistics and reports of ``training.leaderboard``: ratings with bootstrap intervals over deals,
pairing scores, the sanity checks, the Markdown table and the strength-against-budget plot.

Everything here is a pure function of the games of a run (each a dict: ``deal``, seat ``order``
index, every seat's ``places``, ``truncated``, each seat's ``moves`` and ``cpu_seconds``, or
``seconds`` of wall time in runs played before 5 December 2026), so that ``--verify`` can refit a
published table from its games alone.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.spec import AgentSpec
from training.evaluate import seat_orders
from training.ratings import fit_elo, fit_openskill, wilson_interval

__all__ = [
    "BOOTSTRAP",
    "HALF_WIDTH_TARGET",
    "Entrant",
    "budget_png",
    "budget_series",
    "markdown_report",
    "sanity_checks",
    "summarize",
]

#: Bootstrap resamples of the deals behind every rating interval.
BOOTSTRAP = 1000
#: The widest 95% Elo interval half-width the 2-player ladder aims for; wider ones are listed.
HALF_WIDTH_TARGET = 25.0
#: Where a game keeps its seats' seconds, by clock, the preferred first: CPU time since 5 December
#: 2026 (``training.leaderboard._Timed``), wall time before.
CLOCKS = {"cpu": "cpu_seconds", "wall": "seconds"}
# The series of the strength-against-budget plot, in its legend's order.
SEARCHES = {"mcts": "mcts (random rollouts)", "guided": "mcts:guide=ppo (network-guided)"}


@dataclass(frozen=True)
class Entrant:
    """A roster agent that can play: its spec, and the sha256 of every model file it loaded
    (``{path: sha256}``, empty for an agent without a model)."""

    spec: AgentSpec
    models: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def search(self) -> str | None:
        """``"mcts"`` for plain search, ``"guided"`` for the network-guided one, None without search."""
        if self.spec.name != "mcts":
            return None
        return "guided" if self.spec.options.get("guide") else "mcts"

    @property
    def simulations(self) -> int | None:
        return self.spec.options.get("simulations") if self.search else None


def _member_points(places: Sequence[int], order: Sequence[int]) -> float:
    """What member 0 of a pairing scored in one game: 1 a win, 0.5 a shared win, 0 otherwise
    (at N players the lone member against the best of the copies, or the reverse)."""
    best = min(places)
    top = {order[seat] for seat, p in enumerate(places) if p == best}
    return 0.5 if len(top) == 2 else float(top == {0})


def _by_deal(
    games: list[dict[str, Any]], deals: int, num_orders: int, key: tuple[str, str]
) -> list[list[dict[str, Any]]]:
    """A pairing's games of the first ``deals`` deals, by deal then seat order; every one must be there."""
    grid: list[list[Any]] = [[None] * num_orders for _ in range(deals)]
    for g in games:
        if g["deal"] < deals:
            grid[g["deal"]][g["order"]] = g
    if any(g is None for row in grid for g in row):
        raise ValueError(f"pairing {key} lacks games of the first {deals} deals")
    return grid


def _wilson_over_deals(deal_scores: np.ndarray) -> list[float]:
    return list(wilson_interval(float(deal_scores.sum()), len(deal_scores)))


def _elo_fit(
    labels: list[str], table: dict[tuple[str, str], np.ndarray], anchor: int, rows: Any
) -> np.ndarray:
    k = len(labels)
    index = {label: i for i, label in enumerate(labels)}
    scores, games = np.zeros((k, k)), np.zeros((k, k))
    for (a, b), points in table.items():
        if a == b:
            continue  # a game against oneself says nothing about strength
        chosen = points[rows]
        i, j = index[a], index[b]
        scores[i, j] += chosen.sum()
        scores[j, i] += chosen.size - chosen.sum()
        games[i, j] = games[j, i] = chosen.size
    return fit_elo(scores, games, anchor=anchor)


def summarize(
    env_id: str,
    num_players: int,
    seed: int,
    entrants: Sequence[Entrant],
    skipped: dict[str, str],
    pairing_games: dict[tuple[str, str], list[dict[str, Any]]],
    deals: int,
    roster: Sequence[str],
) -> dict[str, Any]:
    """Ratings, intervals, pairing scores and sanity checks from the games of the first ``deals``
    deals of every pairing (a pairing's members in ``entrants`` order, every agent with itself too);
    deterministic (the bootstrap is seeded by ``seed``). ``roster`` is recorded as the one asked for."""
    orders = seat_orders(num_players)
    labels = [e.label for e in entrants]
    by_label = {e.label: e for e in entrants}
    # In roster order, whatever order the chunks finished in.
    grids = {
        (a.label, b.label): _by_deal(pairing_games[a.label, b.label], deals, len(orders), (a.label, b.label))
        for i, a in enumerate(entrants)
        for b in entrants[i:]
    }
    # Each pairing as a (deals, orders) array of member 0's points.
    table = {
        key: np.array([[_member_points(g["places"], orders[g["order"]]) for g in row] for row in grid])
        for key, grid in grids.items()
    }
    rng = np.random.default_rng([seed, 31])
    resamples = rng.integers(deals, size=(BOOTSTRAP, deals))
    anchor = labels.index("random") if "random" in labels else 0

    pairings = []
    for (a, b), points in table.items():
        deal_scores = points.mean(axis=1)
        by_order = [
            {"seats": [(a, b)[m] for m in order], "members": list(order), "score": float(points[:, o].mean())}
            | {"ci95": _wilson_over_deals(points[:, o])}
            for o, order in enumerate(orders)
        ]
        pairings.append(
            {
                "agents": [a, b],
                "games": int(points.size),
                "score": float(deal_scores.mean()),
                "ci95": _wilson_over_deals(deal_scores),
                "by_seat_order": by_order,
            }
        )

    # Moves and seconds by clock: an agent's ms per move are its CPU-timed games' where it has any,
    # so that a run resumed across the change of clock reports one clock.
    timed = {clock: {label: [0, 0.0] for label in labels} for clock in CLOCKS}
    truncated = 0
    for (a, b), grid in grids.items():
        for g in (g for row in grid for g in row):
            truncated += g["truncated"]
            clock = next(c for c in CLOCKS if CLOCKS[c] in g)
            for seat, member in enumerate(orders[g["order"]]):
                t = timed[clock][(a, b)[member]]
                t[0] += g["moves"][seat]
                t[1] += g[CLOCKS[clock]][seat]
    # The games a rating rests on: those against the other agents.
    games_of = {
        label: sum(p["games"] for p in pairings if label in p["agents"] and p["agents"][0] != p["agents"][1])
        for label in labels
    }

    if num_players == 2:
        elo = _elo_fit(labels, table, anchor, slice(None))
        boot = np.array([_elo_fit(labels, table, anchor, rows) for rows in resamples])
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
        ratings = {
            label: {"rating": float(elo[i]), "ci95": [float(low[i]), float(high[i])]}
            for i, label in enumerate(labels)
        }
        scale = "Elo"
        extra: dict[str, Any] = {}
    else:
        places = _places_by_deal(labels, grids, orders)
        boot = np.array([[places[label][rows].sum(0) for label in labels] for rows in resamples])
        mean_place = boot[..., 0] / boot[..., 1]
        low, high = np.percentile(mean_place, [2.5, 97.5], axis=0)
        ratings = {
            label: {
                "rating": float(places[label][:, 0].sum() / places[label][:, 1].sum()),
                "ci95": [float(low[i]), float(high[i])],
            }
            for i, label in enumerate(labels)
        }
        scale = "mean place"
        # Deal by deal, pairings in roster order: no pairing is rated last as a whole.
        rated = [(a, b, g) for d in range(deals) for (a, b), grid in grids.items() if a != b for g in grid[d]]
        extra = {
            "openskill": fit_openskill(
                (([(a, b)[m] for m in orders[g["order"]]], [-p for p in g["places"]]) for a, b, g in rated),
                labels,
            )
        }
    for label in labels:
        clock = next((c for c in CLOCKS if timed[c][label][0]), None)
        moves, seconds = timed[clock][label] if clock else (0, 0.0)
        ratings[label] |= {
            "games": games_of[label],
            "ms_per_move": 1000 * seconds / moves if moves else None,
            **({"ms_clock": clock} if clock == "cpu" else {}),
            "simulations": by_label[label].simulations,
            "search": by_label[label].search,
        }
    result = {
        "env": env_id,
        "num_players": num_players,
        "seed": seed,
        "deals": deals,
        "games_per_pairing": deals * len(orders),
        "seat_orders": [list(o) for o in orders],
        "roster": list(roster),
        "agents": labels,
        "agent_specs": {e.label: {"name": e.spec.name, "options": e.spec.options} for e in entrants},
        "skipped": skipped,
        "models": {e.label: e.models for e in entrants if e.models},
        "rating_scale": scale,
        "ratings": ratings,
        "anchor": labels[anchor] if num_players == 2 else None,
        "bootstrap": BOOTSTRAP,
        "truncated_games": truncated,
        "pairings": pairings,
        **extra,
    }
    result["checks"] = sanity_checks(result)
    # Every game's places, one string a deal (the seat orders one after the other), for --verify.
    result["places"] = {
        f"{a}|{b}": ["".join(str(p) for g in row for p in g["places"]) for row in grid]
        for (a, b), grid in grids.items()
    }
    return result


def _places_by_deal(
    labels: list[str], grids: dict[tuple[str, str], list[list[dict[str, Any]]]], orders: list
) -> dict[str, np.ndarray]:
    """Per agent, a (deals, 2) array: the sum of its places (1 the best) and the seats it held, in
    games against other agents."""
    deals = len(next(iter(grids.values())))
    out = {label: np.zeros((deals, 2)) for label in labels}
    for (a, b), grid in grids.items():
        if a == b:
            continue
        for d, row in enumerate(grid):
            for g in row:
                for seat, member in enumerate(orders[g["order"]]):
                    out[(a, b)[member]][d] += (1 + g["places"][seat], 1)
    return out


def sanity_checks(result: dict[str, Any]) -> dict[str, Any]:
    """The self-play, beats-random, seat-order and cycle checks of a result, and at 2 players the
    agents whose 95% interval is wider than +-:data:`HALF_WIDTH_TARGET` Elo (``wide_intervals``:
    label to half-width); see the module docstring."""
    by_pair = {tuple(p["agents"]): p for p in result["pairings"]}
    labels = result["agents"]
    self_play = {}
    for label in labels:
        p = by_pair[label, label]
        self_play[label] = {"score": p["score"], "ci95": p["ci95"], "ok": p["ci95"][0] <= 0.5 <= p["ci95"][1]}
    beats_random = {}
    if "random" in labels:
        for label in labels:
            if label == "random":
                continue
            p = by_pair.get(("random", label))
            score, (lo, hi) = (1 - p["score"], (1 - p["ci95"][1], 1 - p["ci95"][0])) if p else (None, (0, 1))
            if p is None:
                p = by_pair[label, "random"]
                score, (lo, hi) = p["score"], p["ci95"]
            beats_random[label] = {"score": score, "ci95": [lo, hi], "ok": lo > 0.5}
    seat_differences = []
    for p in result["pairings"]:
        orders = p["by_seat_order"]
        for x in range(len(orders)):
            for y in range(x + 1, len(orders)):
                if sorted(orders[x]["members"]) != sorted(orders[y]["members"]):
                    continue  # at N players the lone member and the copies expect different scores
                (lx, hx), (ly, hy) = orders[x]["ci95"], orders[y]["ci95"]
                if hx < ly or hy < lx:
                    seat_differences.append({"agents": p["agents"], "orders": [orders[x], orders[y]]})
    checks: dict[str, Any] = {
        "self_play": self_play,
        "beats_random": beats_random,
        "seat_differences": seat_differences,
        "cycles": _cycles(labels, by_pair),
    }
    if result["num_players"] == 2:
        half_widths = {label: (r["ci95"][1] - r["ci95"][0]) / 2 for label, r in result["ratings"].items()}
        checks["wide_intervals"] = {
            label: half for label, half in half_widths.items() if half > HALF_WIDTH_TARGET
        }
    return checks


def _cycles(labels: list[str], by_pair: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Intransitive 3-cycles on the pairing scores (a tournament with any cycle has one of length 3)."""

    def edge(a: str, b: str) -> tuple[float, bool]:
        if (a, b) in by_pair:
            p = by_pair[a, b]
            return p["score"], not p["ci95"][0] <= 0.5 <= p["ci95"][1]
        score, sure = edge(b, a)
        return 1 - score, sure

    cycles = []
    for i, a in enumerate(labels):
        for j, b in enumerate(labels[i + 1 :], i + 1):
            for c in labels[j + 1 :]:
                for x, y, z in ((a, b, c), (a, c, b)):
                    edges = [edge(x, y), edge(y, z), edge(z, x)]
                    if all(score > 0.5 for score, _ in edges):
                        cycles.append({"cycle": [x, y, z], "significant": all(sure for _, sure in edges)})
    return cycles


# -- reports ---------------------------------------------------------------------------------------


def _interval(lo: float, hi: float, digits: int = 0) -> str:
    return f"[{lo:+.{digits}f}, {hi:+.{digits}f}]" if digits == 0 else f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def markdown_report(result: dict[str, Any], heading: str = "##") -> str:
    """The rating table, the sanity checks, cycles and skipped agents of ``result`` as Markdown."""
    n = result["num_players"]
    two = n == 2
    lines = [f"{heading} {result['env']}, {n} players", ""]
    if "command" in result:
        lines += [f"`{result['command']}` at commit `{result.get('commit', 'unknown')}`", ""]
    lines += [
        f"{result['deals']} deals, {result['games_per_pairing']} games a pairing "
        f"({len(result['seat_orders'])} seat orders a deal), seed {result['seed']}; "
        f"{result['truncated_games']} games truncated.",
        "",
    ]
    ratings = result["ratings"]
    order = sorted(ratings, key=lambda label: -ratings[label]["rating"] if two else ratings[label]["rating"])
    ms_heading = _ms_heading(ratings)
    if two:
        lines += [
            f"| agent | Elo | 95% interval | games | {ms_heading} |",
            "|---|---:|---:|---:|---:|",
        ]
    else:
        lines += [
            f"| agent | mean place | 95% interval | openskill mu | games | {ms_heading} |",
            "|---|---:|---:|---:|---:|---:|",
        ]
    for label in order:
        r = ratings[label]
        ms = "—" if r["ms_per_move"] is None else f"{r['ms_per_move']:.2f}"
        if two:
            rating = "0" if label == result["anchor"] else f"{r['rating']:+.0f}"
            lines.append(f"| {label} | {rating} | {_interval(*r['ci95'])} | {r['games']} | {ms} |")
        else:
            mu = result["openskill"][label]["mu"]
            lines.append(
                f"| {label} | {r['rating']:.2f} | {_interval(*r['ci95'], 2)} | {mu:.2f} "
                f"| {r['games']} | {ms} |"
            )
    lines += ["", *_check_lines(result)]
    return "\n".join(lines) + "\n"


def _ms_heading(ratings: dict[str, Any]) -> str:
    """The ms column's heading: CPU ms where every timed agent was timed in CPU time, else plain ms
    (wall time, as in tables played before the CPU clock)."""
    timed = [r for r in ratings.values() if r["ms_per_move"] is not None]
    return "CPU ms per move" if timed and all(r.get("ms_clock") == "cpu" for r in timed) else "ms per move"


def _pct(score: float, ci: Sequence[float]) -> str:
    return f"{100 * score:.1f}% [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _seat_difference_line(difference: dict[str, Any]) -> str:
    """A flagged pair of seat orders; an agent against itself by member (``A`` the one whose score is
    shown), as its two copies' names are the same."""
    copies = difference["agents"][0] == difference["agents"][1]
    shown = [
        f"seats {'-'.join('AB'[m] for m in o['members']) if copies else '-'.join(o['seats'])} "
        f"{_pct(o['score'], o['ci95'])}"
        for o in difference["orders"]
    ]
    return f"    - {' vs '.join(difference['agents'])}: {', '.join(shown)}" + (
        " (A and B two copies, A's score)" if copies else ""
    )


def _check_lines(result: dict[str, Any]) -> list[str]:
    checks = result["checks"]
    bad_self = [k for k, v in checks["self_play"].items() if not v["ok"]]
    lines = [
        "Sanity checks:",
        "",
        "- against itself (0.5 within the interval): "
        + ("every agent" if not bad_self else "FAILED for " + ", ".join(bad_self))
        + "; "
        + ", ".join(f"{k} {_pct(v['score'], v['ci95'])}" for k, v in checks["self_play"].items()),
    ]
    if checks["beats_random"]:
        weak = [k for k, v in checks["beats_random"].items() if not v["ok"]]
        lines.append(
            "- beats random (interval above 50%): "
            + ("every agent" if not weak else "NOT SHOWN for " + ", ".join(weak))
            + "; "
            + ", ".join(f"{k} {_pct(v['score'], v['ci95'])}" for k, v in checks["beats_random"].items())
        )
    differences = checks["seat_differences"]
    if differences:
        lines.append("- seat orders whose intervals do not overlap (the first member's score):")
        lines.extend(_seat_difference_line(d) for d in differences)
    else:
        lines.append("- seat orders whose intervals do not overlap: none")
    cycles = checks["cycles"]
    if cycles:
        lines.append(
            "- intransitive 3-cycles (each beats the next; * every interval excludes 50%): "
            + "; ".join(" > ".join(c["cycle"]) + (" *" if c["significant"] else "") for c in cycles)
        )
    else:
        lines.append("- intransitive 3-cycles: none")
    if "wide_intervals" in checks:
        wide = checks["wide_intervals"]
        lines.append(
            f"- 95% interval half-width above {HALF_WIDTH_TARGET:.0f} Elo: "
            + (", ".join(f"{label} ±{half:.0f}" for label, half in wide.items()) if wide else "none")
        )
    if result["skipped"]:
        lines.append(
            "- skipped: " + "; ".join(f"{label} ({why})" for label, why in result["skipped"].items())
        )
    return lines


def budget_series(result: dict[str, Any]) -> dict[str, list[tuple[int, str]]]:
    """The searching agents of ``result`` as ``{search: [(simulations, label), ...]}``, by simulations,
    for each search it has (``"mcts"``, ``"guided"``)."""
    series: dict[str, list[tuple[int, str]]] = {}
    for label, r in result["ratings"].items():
        # Results written before the guided search joined the roster have no "search": their only
        # searching agent was plain mcts.
        search = r.get("search", "mcts")
        if r["simulations"] is not None:
            series.setdefault(search, []).append((r["simulations"], label))
    return {search: sorted(series[search]) for search in SEARCHES if search in series}


def budget_png(result: dict[str, Any]) -> bytes:
    """The rating of each search (plain mcts and the network-guided one, as far as the result has
    them) against its simulations a move, with its milliseconds a move, as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ratings = result["ratings"]
    fig = Figure(figsize=(6.4, 4.4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    right = ax.twinx()
    all_sims: set[int] = set()
    colors = dict(zip(SEARCHES, ("C0", "C2"), strict=True))
    for search, searched in budget_series(result).items():
        name, color = SEARCHES[search], colors[search]
        sims = [s for s, _ in searched]
        all_sims.update(sims)
        rating = np.array([ratings[label]["rating"] for _, label in searched])
        ci = np.array([ratings[label]["ci95"] for _, label in searched]).reshape(-1, 2)
        ax.errorbar(
            sims,
            rating,
            yerr=[rating - ci[:, 0], ci[:, 1] - rating],
            marker="o",
            capsize=4,
            color=color,
            label=f"{name}: rating",
        )
        right.plot(
            sims,
            [ratings[label]["ms_per_move"] for _, label in searched],
            "s--",
            color=color,
            alpha=0.6,
            label=f"{name}: {_ms_heading(ratings)}",
        )
    ticks = sorted(all_sims)
    ax.set_xscale("log", base=2)
    ax.set_xticks(ticks, labels=[str(s) for s in ticks])
    ax.minorticks_off()
    ax.set_xlabel("simulations a move")
    two = result["num_players"] == 2
    ax.set_ylabel(
        "Elo (random = 0), 95% interval (solid)" if two else "mean place (1 the best), 95% interval"
    )
    if not two:
        ax.invert_yaxis()
    right.set_yscale("log")
    right.set_ylabel(f"{_ms_heading(ratings)} (dashed)")
    handles = [h for axis in (ax, right) for h in axis.get_legend_handles_labels()[0]]
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    ax.set_title(
        f"{result['env']}, {result['num_players']} players: search strength and cost\n"
        f"{result['games_per_pairing']} games a pairing on {result['deals']} duplicate deals",
        fontsize=10,
    )
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    return buffer.getvalue()
