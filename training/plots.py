"""Learning curves from a training run's ``progress.csv`` (written by ``training.train``).

python -m training.plots RUN_DIR_OR_CSV [more ...] [--out learning_curve.png]

Draws the evaluation win rate against random and against heuristic over timesteps, with the 95%
Wilson interval of each evaluation as a band; several runs share the axes (one colour per run).
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["main", "plot_learning_curves", "read_progress"]

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


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(prog="python -m training.plots", description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="run folders or progress.csv files")
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


if __name__ == "__main__":
    main()
