"""Win-rate intervals and Elo ratings from pairwise results (used by ``training.evaluate``)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["ELO_PER_NAT", "PRIOR_DRAWS", "Z95", "fit_elo", "wilson_interval"]

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal
ELO_PER_NAT = 400 / math.log(10)
# Virtual draws between every two agents in the Elo fit: enough to keep an unbeaten agent's rating
# finite, too few to move a rating measured over hundreds of games by more than a few points.
PRIOR_DRAWS = 1.0


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for the win rate ``score / games``; (0, 1) when no game was played.

    ``score`` counts a draw as half a win, which the interval treats like any other fraction.
    """
    if games < 0 or not 0 <= score <= games:
        raise ValueError(f"need 0 <= score <= games, got score {score}, games {games}")
    if games == 0:
        return 0.0, 1.0
    p = score / games
    spread = z * z / games
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / games + spread / (4 * games)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_elo(
    scores: np.ndarray, games: np.ndarray, anchor: int = 0, prior_draws: float = PRIOR_DRAWS
) -> np.ndarray:
    """Bradley-Terry maximum-likelihood ratings in Elo points, with agent ``anchor`` at exactly 0.

    ``scores[i, j]`` is what agent i scored against j (wins plus half the draws) in ``games[i, j]``
    games. ``prior_draws`` virtual draws between every two agents keep the ratings finite when an
    agent won or lost every game, and define them for agents that have not met. Solved with Hunter's
    (2004) minorization-maximization iteration, which raises the likelihood at every step.
    """
    scores = np.asarray(scores, dtype=float)
    games = np.asarray(games, dtype=float)
    k = len(scores)
    if scores.shape != (k, k) or games.shape != (k, k):
        raise ValueError(
            f"scores and games must be square and of one shape, got {scores.shape}, {games.shape}"
        )
    if not np.allclose(scores + scores.T, games) or not np.allclose(games, games.T):
        raise ValueError("scores[i, j] + scores[j, i] must equal games[i, j] = games[j, i]")
    if prior_draws <= 0:
        raise ValueError(f"prior_draws must be positive, got {prior_draws}")
    met = ~np.eye(k, dtype=bool)
    total = np.where(met, games + prior_draws, 0.0)
    points = np.where(met, scores + prior_draws / 2, 0.0).sum(axis=1)
    log_strength = np.zeros(k)
    for _ in range(100_000):
        strength = np.exp(log_strength)
        updated = np.log(points / (total / (strength[:, None] + strength[None, :])).sum(axis=1))
        updated -= updated.mean()  # only differences matter; this keeps the numbers from drifting
        step = np.max(np.abs(updated - log_strength), initial=0.0)
        log_strength = updated
        if step < 1e-12:
            break
    else:
        raise RuntimeError("the Elo fit did not converge in 100,000 iterations")
    elo = log_strength * ELO_PER_NAT
    return elo - elo[anchor]
