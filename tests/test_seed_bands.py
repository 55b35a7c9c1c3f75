"""Learning curves of several seeds with a band (``training.plots bands``), on synthetic progress CSVs
of ``training.core_train``'s and ``training.train``'s formats: the numbers it plots, and bad input."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from training.plots import main, plot_seed_bands, seed_bands

CORE = "mcts:simulations=300"


def _write(path, fields, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return path


def _core_run(folder, steps, heuristic, mcts):
    """A progress.csv as training.core_train writes it (opponents heuristic and mcts)."""
    fields = ["timesteps", "updates", "seconds", "timesteps_per_s"]
    for o in ("heuristic", CORE):
        fields += [f"win_rate_{o}", f"ci_low_{o}", f"ci_high_{o}"]
    fields += ["train_games_self", "entropy"]
    rows = []
    for t, h, m in zip(steps, heuristic, mcts, strict=True):
        rows.append(
            {"timesteps": t, "updates": t // 4096, "seconds": 1.0, "timesteps_per_s": "", "entropy": ""}
            | {
                "win_rate_heuristic": h,
                "ci_low_heuristic": max(h - 0.1, 0),
                "ci_high_heuristic": min(h + 0.1, 1),
            }
            | {f"win_rate_{CORE}": m, f"ci_low_{CORE}": 0, f"ci_high_{CORE}": 1, "train_games_self": 10}
        )
    return _write(folder / "progress.csv", fields, rows)


def test_mean_and_range_over_seeds_of_core_train_runs(tmp_path):
    runs = [
        _core_run(tmp_path / "s1", [0, 252_387, 513_146], [0.0, 0.54, 0.51], [0.0, 0.32, 0.33]),
        _core_run(tmp_path / "s2", [0, 258_036, 505_730], [0.02, 0.61, 0.73], [0.0, 0.35, 0.46]),
        # A shorter run: only the evaluations every run has are taken together.
        _core_run(tmp_path / "s3", [0, 257_894], [0.0, 0.51], [0.01, 0.27]),
    ]
    bands = seed_bands([r.parent for r in runs])
    assert [b.opponent for b in bands] == ["heuristic", CORE]
    h, m = bands
    np.testing.assert_allclose(h.per_seed, [[0.0, 0.54], [0.02, 0.61], [0.0, 0.51]])
    np.testing.assert_allclose(h.mean, [0.02 / 3, (0.54 + 0.61 + 0.51) / 3])
    np.testing.assert_allclose(h.low, [0.0, 0.51])
    np.testing.assert_allclose(h.high, [0.02, 0.61])
    np.testing.assert_allclose(m.mean, [0.01 / 3, (0.32 + 0.35 + 0.27) / 3])
    np.testing.assert_allclose(m.low, [0.0, 0.27])
    np.testing.assert_allclose(m.high, [0.01, 0.35])
    np.testing.assert_allclose(h.timesteps, [0, (252_387 + 258_036 + 257_894) / 3])
    np.testing.assert_allclose(h.timesteps_spread, [0, 258_036 - 252_387])

    out, plotted = plot_seed_bands(runs, tmp_path / "bands.png", title="three seeds")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    np.testing.assert_allclose(plotted[0].mean, h.mean)


def test_train_runs_have_random_and_heuristic_curves(tmp_path):
    fields = ["timesteps", "episodes", "seconds"]
    for o in ("random", "heuristic"):
        fields += [f"win_rate_{o}", f"ci_low_{o}", f"ci_high_{o}"]
    runs = []
    for seed, (r, h) in enumerate([(0.9, 0.2), (0.8, 0.4)]):
        rows = [
            {"timesteps": t, "episodes": 1, "seconds": 1}
            | {f"{k}_random": r * t / 100 for k in ("win_rate", "ci_low", "ci_high")}
            | {f"{k}_heuristic": h * t / 100 for k in ("win_rate", "ci_low", "ci_high")}
            for t in (0, 50, 100)
        ]
        runs.append(_write(tmp_path / f"s{seed}.csv", fields, rows))
    rand, heur = seed_bands(runs)
    assert (rand.opponent, heur.opponent) == ("random", "heuristic")
    np.testing.assert_allclose(rand.mean, [0, 0.425, 0.85])
    np.testing.assert_allclose(heur.low, [0, 0.1, 0.2])
    np.testing.assert_allclose(heur.high, [0, 0.2, 0.4])


def test_the_command_prints_the_plotted_numbers(tmp_path, capsys):
    a = _core_run(tmp_path / "a", [0, 250_000], [0.1, 0.5], [0.0, 0.2])
    b = _core_run(tmp_path / "b", [0, 250_000], [0.3, 0.7], [0.2, 0.4])
    out = tmp_path / "curve.png"
    assert main(["bands", str(a.parent), str(b), "--out", str(out)]) == out and out.is_file()
    text = capsys.readouterr().out
    assert "vs heuristic" in text and "250,000  0.600 [0.500, 0.700]  0.500 0.700" in text
    assert f"vs {CORE}" in text and "0.300 [0.200, 0.400]" in text


def test_runs_that_are_not_one_recipes_seeds_are_one_line_errors(tmp_path, capsys):
    a = _core_run(tmp_path / "a", [0, 250_000, 500_000], [0.1, 0.5, 0.6], [0.0, 0.2, 0.3])
    other_schedule = _core_run(tmp_path / "b", [0, 100_000, 200_000], [0.1, 0.5, 0.6], [0.0, 0.2, 0.3])
    _write(tmp_path / "c" / "progress.csv", ["timesteps", "win_rate_x", "ci_low_x", "ci_high_x"], [])
    cases = [
        ([a], "two or more runs"),
        ([a, other_schedule], r"evaluate at other timesteps \(evaluation 1: 250,000, 100,000\)"),
        ([a, tmp_path / "c"], "no evaluation opponent in common"),
        ([a, tmp_path / "missing"], "no training progress file"),
    ]
    for sources, message in cases:
        with pytest.raises((ValueError, FileNotFoundError), match=message):
            seed_bands(sources)
    with pytest.raises(SystemExit):
        main(["bands", str(a), str(a), "--out", str(tmp_path / "no_such_folder" / "x.png")])
    err = capsys.readouterr().err
    assert "no folder" in err and len(err.strip().splitlines()[-1]) < 200
    assert not (tmp_path / "no_such_folder").exists()
