"""Conformance suite: every game in ``mystic_envs.ENV_IDS``, at every player count, against
CONVENTIONS.md sections 2, 3 and 6. A game is tested the moment it is registered."""
