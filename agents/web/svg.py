"""A few SVG building blocks shared by the table drawers: escaped text, boxes, a document."""

from __future__ import annotations

from html import escape
from typing import Any

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"
INK = "#1f2933"
MUTED = "#616e7c"
FELT = "#f4f1ea"
LINE = "#9aa5b1"


def _attrs(attrs: dict[str, Any]) -> str:
    # Python names cannot hold dashes: font_size becomes font-size.
    return "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), quote=True)}"'
        for k, v in attrs.items()
        if v is not None
    )


def tag(name: str, body: str = "", **attrs: Any) -> str:
    if body:
        return f"<{name}{_attrs(attrs)}>{body}</{name}>"
    return f"<{name}{_attrs(attrs)}/>"


def text(x: float, y: float, s: str, size: float = 13, **attrs: Any) -> str:
    attrs.setdefault("fill", INK)
    return tag("text", escape(str(s)), x=round(x, 1), y=round(y, 1), font_size=size, **attrs)


def rect(x: float, y: float, w: float, h: float, **attrs: Any) -> str:
    return tag("rect", x=round(x, 1), y=round(y, 1), width=round(w, 1), height=round(h, 1), **attrs)


def circle(x: float, y: float, r: float, **attrs: Any) -> str:
    return tag("circle", cx=round(x, 1), cy=round(y, 1), r=r, **attrs)


def line(x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> str:
    return tag("line", x1=round(x1, 1), y1=round(y1, 1), x2=round(x2, 1), y2=round(y2, 1), **attrs)


def title(s: str) -> str:
    """A tooltip for the enclosing group (what a card or token does)."""
    return f"<title>{escape(s)}</title>"


def group(parts: list[str], **attrs: Any) -> str:
    return tag("g", "".join(parts), **attrs)


def heading(
    width: int, head: str, winners: list[int] | None, to_act: int, shared: str = "tie between"
) -> list[str]:
    """The top line of a multi-player table: the game's ``head`` at the left, at the right who acts
    (``winners`` None) or who won (one seat, or ``shared`` and the seats that share the win)."""
    if winners is None:
        status = f"player_{to_act} to act"
    elif len(winners) == 1:
        status = f"Game over: player_{winners[0]} wins"
    else:
        status = f"Game over: {shared} " + ", ".join(f"player_{q}" for q in winners)
    return [
        text(20, 32, head, size=17, font_weight="700"),
        text(width - 20, 32, status, size=15, text_anchor="end", font_weight="600"),
    ]


def document(width: int, height: int, parts: list[str], label: str) -> str:
    """A whole SVG drawing that scales to the page width and keeps its proportions."""
    body = rect(0, 0, width, height, fill=FELT, rx=10) + "".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label, quote=True)}" font-family="{escape(FONT, quote=True)}">{body}</svg>'
    )


def text_block(lines: list[str], label: str, width_chars: int | None = None) -> str:
    """Lines of monospace text as an SVG drawing (the fallback of a game without its own drawer)."""
    chars = width_chars or max((len(s) for s in lines), default=20)
    width = max(320, int(chars * 7.9) + 32)
    height = 20 * len(lines) + 28
    parts = [
        text(16, 28 + 20 * i, s, size=13, font_family=MONO, style="white-space: pre")
        for i, s in enumerate(lines)
    ]
    return document(width, height, parts, label)
