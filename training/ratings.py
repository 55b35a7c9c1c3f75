"""Win-rate intervals and Elo ratings from pairwise results, and, for more than two players,
intervals of mean rewards and openskill's Plackett-Luce ratings (used by ``training.evaluate``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = [
    "ELO_PER_NAT",
    "PRIOR_DRAWS",
    "Z95",
    "fit_elo",
    "fit_openskill",
    "mean_interval",
    "ranks_from_rewards",
    "wilson_interval",
]

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
    agent won or lost every game, and define them for agents that have not met. Solved by Newton's
    method with a halving step (the log-likelihood is strictly concave), which converges in a few
    iterations where the minorization-maximization iteration took thousands on a ladder spanning
    2,000 Elo.
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
    points = np.where(met, scores + prior_draws / 2, 0.0)
    free = np.arange(k) != anchor  # the anchor's log-strength stays 0

    def log_likelihood(theta: np.ndarray) -> float:
        gap = theta[:, None] - theta[None, :]
        # points[i, j] * log p_ij with log p_ij = -log(1 + exp(-gap)), stable for any gap.
        return float(-(points * np.logaddexp(0.0, -gap)).sum())

    theta = np.zeros(k)
    current = log_likelihood(theta)
    for _ in range(200):
        win = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p_ij, i's chance against j
        gradient = (points - total * win).sum(axis=1)
        weight = total * win * win.T
        curvature = np.diag(weight.sum(axis=1)) - weight  # the negated Hessian, a weighted Laplacian
        step = np.zeros(k)
        step[free] = np.linalg.solve(curvature[np.ix_(free, free)], gradient[free])
        size = 1.0
        while True:
            trial = theta + size * step
            value = log_likelihood(trial)
            # Far from the optimum a full step can overshoot; near it the likelihood's change is
            # below rounding, where the full Newton step is taken.
            if value >= current - 1e-12 * abs(current) or size < 1e-6:
                break
            size /= 2
        theta, current = trial, value
        if np.max(np.abs(size * step), initial=0.0) < 1e-12:
            break
    else:
        raise RuntimeError("the Elo fit did not converge in 200 Newton steps")
    return theta * ELO_PER_NAT


def mean_interval(
    values: Sequence[float], z: float = Z95, low: float = -1.0, high: float = 1.0
) -> tuple[float, float]:
    """Normal-approximation interval of the mean of ``values`` (rewards in [``low``, ``high``]),
    clipped to that range; the whole range for fewer than two values."""
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return low, high
    half = z * float(x.std(ddof=1)) / math.sqrt(x.size)
    mean = float(x.mean())
    return max(low, mean - half), min(high, mean + half)


def ranks_from_rewards(rewards: Sequence[float]) -> list[int]:
    """Each seat's rank, 0 the best: the number of seats with a higher reward (ties share a rank)."""
    return [sum(other > r for other in rewards) for r in rewards]


def fit_openskill(
    games: Iterable[tuple[Sequence[str], Sequence[float]]], labels: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings (``openskill``) of ``labels`` from ``games``: (agent in each seat,
    reward of each seat) pairs, rated one after the other in the order given.

    Every seat is a team of one, ranked by its reward (ties share a rank). An agent sitting in
    several seats of one game (one agent against copies of another) is rated in each of them from
    its rating before the game, and takes the mean of those updates: one game is one result for it.
    ``tau=0``: the agents do not change during a tournament, so no drift is added between games.
    Returns ``mu``, ``sigma`` and the conservative ``ordinal`` (mu - 3 sigma) of each agent.
    """
    try:
        from openskill.models import PlackettLuce
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            "ratings for more than two players need openskill (the train extra): "
            "pip install 'mystic-envs[train]'"
        ) from exc

    model = PlackettLuce(tau=0.0)
    ratings: dict[str, Any] = {label: model.rating(name=label) for label in labels}
    for seats, rewards in games:
        teams = [[model.rating(mu=ratings[a].mu, sigma=ratings[a].sigma)] for a in seats]
        rated = model.rate(teams, ranks=ranks_from_rewards(rewards))
        for agent in dict.fromkeys(seats):
            mine = [team[0] for team, a in zip(rated, seats, strict=True) if a == agent]
            ratings[agent] = model.rating(
                mu=float(np.mean([r.mu for r in mine])), sigma=float(np.mean([r.sigma for r in mine]))
            )
    return {
        label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for label, r in ratings.items()
    }
