"""Learning curves from training runs' ``progress.csv`` (``training.train``'s and ``training.core_train``'s).

python -m training.plots RUN_DIR_OR_CSV [more ...] [--out learning_curve.png]
python -m training.plots bands RUN_DIR_OR_CSV RUN_DIR_OR_CSV [more ...] [--out seed_bands.png]

The first form draws each run's evaluation win rate against each opponent over timesteps, with the
95% Wilson interval of each evaluation as a band; several runs share the axes (one colour per run).

``bands`` draws one recipe run with several seeds: per evaluation opponent, every seed's curve as a
thin line, their mean as a thick one, and the range over the seeds (lowest to highest) as the band,
against timesteps. The k-th evaluations of the runs are taken together (runs of one recipe evaluate
at the same schedule; ``training.core_train`` rounds it up to whole updates, so their timesteps differ
slightly and the mean of them is the x value); only the evaluations every run has, against the
opponents every run has, are drawn. It prints the numbers it plots (:func:`seed_bands` returns them).
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["SeedBand", "main", "plot_learning_curves", "plot_seed_bands", "read_progress", "seed_bands"]

OPPONENTS = ("random", "heuristic")


def read_progress(path: str | Path) -> list[dict[str, float]]:
    """The rows of a ``progress.csv`` (or of ``RUN_DIR/progress.csv``) as numbers."""
    path = Path(path)
    if path.is_dir():
        path = path / "progress.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no training progress file at {str(path)!r}")
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        needed = {"timesteps", *(f"{k}_{o}" for o in OPPONENTS for k in ("win_rate", "ci_low", "ci_high"))}
        missing = needed - set(reader.fieldnames or [])
        if missing and not ("timesteps" in (reader.fieldnames or []) and opponents_of(reader.fieldnames)):
            raise ValueError(f"{str(path)!r} is not a training progress CSV: no column(s) {sorted(missing)}")
        return [{k: float(v) for k, v in row.items() if v not in ("", None)} for row in reader]


def opponents_of(columns: Sequence[str]) -> list[str]:
    """The opponents a progress CSV has ``win_rate_X``, ``ci_low_X`` and ``ci_high_X`` columns for,
    in column order (``training.core_train`` writes one triple per ``--eval-opponents`` spec)."""
    names = set(columns)
    return [
        c[len("win_rate_") :]
        for c in columns
        if c.startswith("win_rate_") and {f"ci_low_{c[9:]}", f"ci_high_{c[9:]}"} <= names
    ]


def plot_learning_curves(
    sources: str | Path | Sequence[str | Path], out: str | Path, title: str | None = None
) -> Path:
    """Save the learning curves of one or more runs to ``out`` (PNG); returns ``out``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if isinstance(sources, (str, Path)):
        sources = [sources]
    tables = [read_progress(source) for source in sources]
    # The opponents of the first run's columns (random and heuristic for training.train's runs).
    opponents = opponents_of(list(tables[0][0])) if tables and tables[0] else list(OPPONENTS)
    opponents = opponents or list(OPPONENTS)
    fig = Figure(figsize=(5 * len(opponents), 4))
    FigureCanvasAgg(fig)
    axes = list(np.atleast_1d(fig.subplots(1, len(opponents), sharey=True)))
    for i, (source, rows) in enumerate(zip(sources, tables, strict=True)):
        label = Path(source).name if len(sources) > 1 else None
        for ax, opponent in zip(axes, opponents, strict=True):
            points = [r for r in rows if f"win_rate_{opponent}" in r]
            steps = [r["timesteps"] for r in points]
            rate = [r[f"win_rate_{opponent}"] for r in points]
            low = [r[f"ci_low_{opponent}"] for r in points]
            high = [r[f"ci_high_{opponent}"] for r in points]
            (line,) = ax.plot(steps, rate, marker="o", markersize=3, color=f"C{i}", label=label)
            ax.fill_between(steps, low, high, color=line.get_color(), alpha=0.2)
    for ax, opponent in zip(axes, opponents, strict=True):
        ax.axhline(0.5, color="0.6", linewidth=0.8, linestyle="--")
        ax.set_title(f"vs {opponent}")
        ax.set_xlabel("timesteps")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (draws half), 95% CI")
    if len(sources) > 1:
        axes[0].legend(fontsize=8)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=110)
    return out


@dataclass(frozen=True)
class SeedBand:
    """The curve of several seeds against one opponent: ``per_seed`` (seeds, evaluations) win rates,
    their ``mean`` and range (``low``, ``high``: the lowest and highest seed), at ``timesteps`` (the
    mean over the seeds of each evaluation's timesteps; ``timesteps_spread`` is their max - min)."""

    opponent: str
    timesteps: np.ndarray
    timesteps_spread: np.ndarray
    per_seed: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray


def seed_bands(sources: Sequence[str | Path]) -> list[SeedBand]:
    """The seed bands (:class:`SeedBand`, one per opponent every run was evaluated against) of the runs
    ``sources`` (run folders or ``progress.csv`` files; at least two). ``ValueError`` (one line) for
    fewer than two runs, runs without a common opponent or evaluation, or runs whose k-th evaluations
    are not at about the same timesteps (another schedule: more than half an evaluation apart)."""
    if isinstance(sources, (str, Path)) or len(sources) < 2:
        raise ValueError("seed bands need two or more runs of one recipe (one per seed)")
    tables = [read_progress(source) for source in sources]
    columns = [set().union(*(row.keys() for row in rows)) if rows else set() for rows in tables]
    first = opponents_of(list(tables[0][0])) if tables[0] else []
    opponents = [o for o in first if all(f"win_rate_{o}" in c for c in columns)]
    if not opponents:
        raise ValueError(f"the runs {[str(s) for s in sources]} have no evaluation opponent in common")
    bands = []
    for opponent in opponents:
        key = f"win_rate_{opponent}"
        curves = [[(r["timesteps"], r[key]) for r in rows if key in r] for rows in tables]
        k = min(len(c) for c in curves)
        if k == 0:
            raise ValueError(f"a run has no evaluation against {opponent!r}")
        steps = np.array([[t for t, _ in c[:k]] for c in curves], dtype=np.float64)
        rates = np.array([[w for _, w in c[:k]] for c in curves], dtype=np.float64)
        spread = steps.max(axis=0) - steps.min(axis=0)
        gaps = np.diff(steps.mean(axis=0))
        if k > 1 and (spread > 0.5 * np.median(gaps)).any():
            bad = int(np.argmax(spread > 0.5 * np.median(gaps)))
            raise ValueError(
                f"the runs evaluate at other timesteps (evaluation {bad}: "
                f"{', '.join(f'{t:,.0f}' for t in steps[:, bad])}): not one recipe's seeds"
            )
        bands.append(
            SeedBand(
                opponent=opponent,
                timesteps=steps.mean(axis=0),
                timesteps_spread=spread,
                per_seed=rates,
                mean=rates.mean(axis=0),
                low=rates.min(axis=0),
                high=rates.max(axis=0),
            )
        )
    return bands


def plot_seed_bands(
    sources: Sequence[str | Path], out: str | Path, title: str | None = None
) -> tuple[Path, list[SeedBand]]:
    """Save the seed bands of ``sources`` (:func:`seed_bands`) to the PNG ``out``; returns it and them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import EngFormatter

    out = Path(out)
    if not out.parent.is_dir():
        raise FileNotFoundError(f"no folder {str(out.parent)!r} to write {out.name!r} into")
    bands = seed_bands(sources)
    fig = Figure(figsize=(5 * len(bands), 4))
    FigureCanvasAgg(fig)
    axes = list(np.atleast_1d(fig.subplots(1, len(bands), sharey=True)))
    for ax, band in zip(axes, bands, strict=True):
        for i, (source, rates) in enumerate(zip(sources, band.per_seed, strict=True)):
            name = Path(source).name if Path(source).name != "progress.csv" else Path(source).parent.name
            ax.plot(band.timesteps, rates, color=f"C{i}", linewidth=0.8, alpha=0.8, label=name)
        ax.fill_between(band.timesteps, band.low, band.high, color="0.5", alpha=0.2, label="range over seeds")
        ax.plot(band.timesteps, band.mean, color="k", linewidth=2, marker="o", markersize=3, label="mean")
        ax.axhline(0.5, color="0.6", linewidth=0.8, linestyle="--")
        ax.xaxis.set_major_formatter(EngFormatter(sep=""))
        ax.set_title(f"vs {band.opponent}")
        ax.set_xlabel("timesteps")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"win rate (draws half), {len(sources)} seeds")
    axes[0].legend(fontsize=7, loc="lower right")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return out, bands


def _band_table(bands: list[SeedBand]) -> str:
    lines = []
    for band in bands:
        lines.append(f"vs {band.opponent}: timesteps, mean [lowest, highest seed], each seed")
        for k, t in enumerate(band.timesteps):
            seeds = " ".join(f"{w:.3f}" for w in band.per_seed[:, k])
            lines.append(
                f"  {t:>11,.0f}  {band.mean[k]:.3f} [{band.low[k]:.3f}, {band.high[k]:.3f}]  {seeds}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> Path:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bands"]:
        return _main_bands(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m training.plots", description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", nargs="+", help="run folders or progress.csv files ('bands' first: seed bands)"
    )
    parser.add_argument(
        "--out", default="learning_curve.png", help="PNG to write (default learning_curve.png)"
    )
    parser.add_argument("--title")
    args = parser.parse_args(argv)
    try:
        path = plot_learning_curves(args.runs, args.out, args.title)
    except (FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    print(path)
    return path


def _main_bands(argv: list[str]) -> Path:
    parser = argparse.ArgumentParser(
        prog="python -m training.plots bands",
        description="Mean and range over seeds of one recipe's runs, per evaluation opponent.",
    )
    parser.add_argument("runs", nargs="+", help="two or more run folders or progress.csv files, one per seed")
    parser.add_argument("--out", default="seed_bands.png", help="PNG to write (default seed_bands.png)")
    parser.add_argument("--title")
    args = parser.parse_args(argv)
    try:
        path, bands = plot_seed_bands(args.runs, args.out, args.title)
    except (FileNotFoundError, ValueError) as exc:
        parser.error(str(exc))
    print(_band_table(bands))
    print(path)
    return path


if __name__ == "__main__":
    main()
