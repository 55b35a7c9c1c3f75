"""A griffe extension for the docs site's API reference (mkdocs.yml loads it for mkdocstrings).

The project's docstrings are written to read well in ``help()`` and as the argparse description,
not as Markdown. Three habits would render wrongly, so the docstrings are rewritten for the site
only (the source is untouched):

- a command's usage lines (``python -m training.train [--env ID] [--seed 0]``) become a code block;
  as Markdown, ``[--env ID] [--seed 0]`` is a reference link that cannot resolve, which fails the
  strict build;
- doctest lines (``>>> make("elemystic_v0")``) become a ``pycon`` block instead of nested quotes;
- Sphinx roles (``:class:`Foo```) become plain code spans.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`~?([^`]+)`")
_USAGE = re.compile(r"^(python -m |python benchmarks/)")


def _fence(lines: list[str], start: int, lang: str, belongs: Any) -> tuple[list[str], int]:
    """The block of lines from ``start`` that ``belongs`` accepts, fenced; and the index after it."""
    end = start
    while end < len(lines) and belongs(lines[end]):
        end += 1
    return [f"```{lang}", *lines[start:end], "```"], end


def markdown_docstring(text: str) -> str:
    """``text`` with usage lines and doctests fenced and Sphinx roles turned into code spans."""
    lines = _ROLE.sub(r"``\1``", text).split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _USAGE.match(line):
            # A usage line, its indented continuations and any usage lines right after it.
            block, i = _fence(lines, i, "text", lambda s: bool(_USAGE.match(s)) or s.startswith("    "))
        elif line.startswith(">>>"):
            block, i = _fence(lines, i, "pycon", lambda s: s.startswith((">>>", "...")))
        else:
            out.append(line)
            i += 1
            continue
        # A fenced block needs blank lines around it to stand alone in Markdown.
        if out and out[-1].strip():
            out.append("")
        out.extend(block)
        if i < len(lines) and lines[i].strip():
            out.append("")
    return "\n".join(out)


class MarkdownDocstrings(griffe.Extension):
    """Rewrites every docstring griffe loads with :func:`markdown_docstring`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
