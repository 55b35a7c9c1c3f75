"""Agent specs: the text by which every command line names an agent.

``name``, ``name:key=value,key=value`` (``mcts:simulations=200,c=1.4``) or the path of a saved model
ending in ``.zip``. ``parse_agent_spec`` turns one into an :class:`AgentSpec`, which
``agents.make_agent(spec.name, env_id, **spec.options)`` builds. ``agents.play``, ``agents.demo``,
``training.evaluate`` and ``training.train`` all read agents this way, so a spec that one accepts
every other accepts too.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import AGENT_NAMES

__all__ = ["AgentSpec", "ConfigError", "parse_agent_spec", "resolve_model_path", "table_options"]


class ConfigError(ValueError):
    """A bad agent spec or tournament input; the command lines report it as a usage error."""


@dataclass(frozen=True)
class AgentSpec:
    """One entrant: its ``label`` as given, the ``agents.make_agent`` name and keyword options."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)


def resolve_model_path(path: str) -> tuple[str, dict[str, Any]]:
    """The agent name and options that load the saved model at ``path``."""
    if not Path(path).is_file():
        raise ConfigError(f"agent {path!r}: no such model file")
    return "ppo", {"path": path}


def _option_value(text: str) -> Any:
    # Options arrive as strings; agents expect numbers and flags.
    for convert in (int, float):
        with contextlib.suppress(ValueError):
            return convert(text)
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def parse_agent_spec(text: str) -> AgentSpec:
    """``name``, ``name:key=value,key=value`` or ``path/to/model.zip`` as an :class:`AgentSpec`."""
    label = text.strip()
    name, has_options, option_text = label.partition(":")
    # A known agent's options may end in a model path (mcts:guide=ppo,path=run/model.zip).
    if label.endswith(".zip") and name not in AGENT_NAMES:
        return AgentSpec(label, *resolve_model_path(label))
    if name == "human":
        raise ConfigError("agent 'human' needs a terminal; play against any agent with python -m agents.play")
    if name not in AGENT_NAMES:
        raise ConfigError(
            f"unknown agent {name!r}; known agents: {list(AGENT_NAMES)}, or a model path ending in .zip"
        )
    options: dict[str, Any] = {}
    for item in option_text.split(",") if has_options else []:
        key, has_value, value = (part.strip() for part in item.partition("="))
        if not has_value or not key.isidentifier() or key in options:
            raise ConfigError(
                f"bad options in agent {label!r}: expected distinct key=value pairs separated by commas, "
                "as in 'mcts:simulations=200,c=1.4'"
            )
        if key == "seed":
            raise ConfigError(f"agent {label!r}: seed is not an agent option; --seed sets every agent's seed")
        options[key] = _option_value(value)
    return AgentSpec(label, name, options)


def table_options(spec: AgentSpec, num_players: int | None) -> dict[str, Any]:
    """``spec``'s options for a table of ``num_players`` (None: the game's default count).

    The agents that load the network shipped for a table (``ppo``, the guided search
    ``mcts:guide=ppo``) are told the count, so that ``--num-players 4 --agents ppo`` plays the
    4-player model, or says in one line that there is none; a spec that names its own ``path`` or
    ``num_players`` keeps it.
    """
    options = spec.options
    loads_shipped = spec.name == "ppo" or (spec.name == "mcts" and options.get("guide") is not None)
    if num_players is None or not loads_shipped or "path" in options or "num_players" in options:
        return options
    return options | {"num_players": num_players}
