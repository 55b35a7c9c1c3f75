"""Errors raised by every mystic-envs environment and rules engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is in the action space but not legal in the current state.

    Raised by every rules engine's ``apply()`` and by environments made with
    ``illegal_action="raise"``. The message names the action, its meaning and the phase.
    """


class GameOverError(RuntimeError):
    """``step()`` or ``apply()`` was called on a game that has already ended."""
