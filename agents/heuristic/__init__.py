"""Rule-based players, one per game: ``HEURISTICS[env_id](seed=...)``."""

from __future__ import annotations

from agents.heuristic.elemystic import ElemysticHeuristic

HEURISTICS = {"elemystic_v0": ElemysticHeuristic}

__all__ = ["HEURISTICS", "ElemysticHeuristic"]
