"""Markdown tables of an env's observation layout, actions and infos, generated from the env itself.

``python -m mystic_envs.core.docs ENV_ID`` prints them; ``docs/rules/<game>.md`` holds a copy
between ``<!-- generated:... -->`` markers, and a test keeps the two identical.
"""

from __future__ import annotations

import sys

import mystic_envs
from mystic_envs.core.game import Bounds


def observation_table(env_id: str, **kwargs: object) -> str:
    env = mystic_envs.make_raw(env_id, **kwargs)
    rows = ["| index | name | meaning | bounds |", "|---|---|---|---|"]
    for entry in env.observation_layout:
        span = str(entry.start) if entry.size == 1 else f"{entry.start}-{entry.stop - 1}"
        rows.append(f"| {span} | `{entry.name}` | {entry.meaning} | {_bounds_text(entry.bounds)} |")
    return "\n".join(rows)


def _bounds_text(bounds: Bounds | None) -> str:
    """``[low, high]`` of a part; a part with bounds per value shows each distinct pair once."""
    if bounds is None:
        return ""
    pairs = [bounds] if isinstance(bounds[0], float) else list(dict.fromkeys(bounds))
    return ", ".join(f"[{low:.4g}, {high:.4g}]" for low, high in pairs)


def action_table(env_id: str, **kwargs: object) -> str:
    env = mystic_envs.make_raw(env_id, **kwargs)
    rows = ["| action | meaning |", "|---|---|"]
    for a in range(env.action_space(env.possible_agents[0]).n):
        rows.append(f"| {a} | {env.action_meaning(a)} |")
    return "\n".join(rows)


def info_table(env_id: str, **kwargs: object) -> str:
    env = mystic_envs.make_raw(env_id, **kwargs)
    rows = ["| key | shape | dtype | meaning | codes |", "|---|---|---|---|---|"]
    for field in env.info_schema:
        shape = "()" if not field.shape else f"({', '.join(map(str, field.shape))},)"
        codes = ", ".join(f"{i} {name}" for i, name in enumerate(field.names)) if field.names else ""
        rows.append(f"| `{field.name}` | {shape} | {field.dtype} | {field.meaning} | {codes} |")
    return "\n".join(rows)


def generated_blocks(env_id: str) -> dict[str, str]:
    """Marker name -> generated Markdown, as embedded in the game's rules page.

    A game module may add its own tables (component data) in ``DOC_TABLES``.
    """
    blocks = {
        "observation": observation_table(env_id),
        "actions": action_table(env_id),
        "infos": info_table(env_id),
    }
    for name, make_table in getattr(mystic_envs.env_module(env_id), "DOC_TABLES", {}).items():
        blocks[name] = make_table()
    return blocks


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in mystic_envs.ENV_IDS:
        ids = list(mystic_envs.ENV_IDS)
        raise SystemExit(f"usage: python -m mystic_envs.core.docs ENV_ID (one of {ids})")
    for name, block in generated_blocks(args[0]).items():
        print(f"<!-- generated:{name} -->\n{block}\n<!-- /generated:{name} -->\n")


if __name__ == "__main__":
    main()
