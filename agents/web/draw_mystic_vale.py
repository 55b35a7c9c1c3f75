"""Mystic Vale's table as SVG, for one viewer (the same visibility as ``describe(viewer=...)``).

A header with the round (and the turn), the decision open and the VP pool; the commons (a row per
level, with the Fertile Soil supply) and the vale rows, each card with its cost, slot, symbols and
VP; the active player's Harvest (mana, spirits, VP, buys) and what the open decision is about; then
one area per seat, the viewer's first and the others in turn order: VP tokens, points, the mana
token (gold: active), deck and discard sizes, net decay, its vales, and its field and on-deck card
drawn as cards of three slot bands (each advancement's name, its symbols as small glyphs, its VP).
The viewer's own deck (as a set: its order is hidden) and discard pile are listed, and the top card
a Calm Weather shows it; another seat's discard pile is only a count (``"all"``: every seat's own
view at once). Every advancement's and vale's full text is its tooltip.
"""

from __future__ import annotations

import functools
import textwrap
from typing import Any

from agents.web import svg
from mystic_envs.mystic_vale.cards import (
    ADVANCEMENTS,
    COMMONS_FACE_UP,
    CURSED_LAND,
    FERTILE_SOIL,
    NUM_FERTILE_SOIL,
    SLOT_NAMES,
    SPIRIT_NAMES,
    SYMBOL_NAMES,
    VALE_BUYS,
    VALES,
    VALES_FACE_UP,
)
from mystic_envs.mystic_vale.decisions import GAME_OVER, HARVESTING, PEEK, SEARCH, STAGE_NAMES
from mystic_envs.mystic_vale.render import (
    SYMBOL_KEY,
    advancement_text,
    end_vp_parts,
    phase_note,
    sleeve_text,
    symbols_words,
    vale_text,
)
from mystic_envs.mystic_vale.sleeves import profile

WIDTH = 1000
ACCENT = "#2f5d8a"
VP_COLOUR = "#d4a72c"
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
# One colour per symbol, in SYMBOL_NAMES order: mana, decay, growth, guardian, the four spirits.
GLYPH_COLOURS = dict(
    zip(
        SYMBOL_NAMES,
        ("#2f74c0", "#7a2e2e", "#3f8f4f", "#b8860b", "#b5562b", "#2e6b3a", "#4a9bc9", "#6b4a9b"),
        strict=True,
    )
)
LEVEL_FILLS = ("#e6f2e1", "#dfe9f7", "#eee2f6")  # level 1, 2, 3 advancements
FERTILE_FILL, CURSED_FILL = "#f5ecd3", "#eedad5"
CARD_W, CARD_H, CARD_GAP = 92, 112, 6
BAND_H = 31
CARDS_PER_ROW = 10
TILE_W, TILE_H = 158, 36  # a commons advancement
VALE_W, VALE_H = 96, 44


def _fill(a: int) -> str:
    if a in FERTILE_SOIL:
        return FERTILE_FILL
    if a in CURSED_LAND:
        return CURSED_FILL
    return LEVEL_FILLS[ADVANCEMENTS[a].level - 1]


def _fit(label: str, width: float, size: float) -> float:
    # Shrink a name to its box: a bold character of the sans-serif fonts of FONT is about 0.62 em.
    return round(min(size, width / (0.62 * max(len(label), 1))), 1)


def _glyphs(x: float, y: float, counts: tuple[int, ...], names: tuple[str, ...] = SYMBOL_NAMES) -> list[str]:
    """One small lettered disc per symbol (2 guardians: two discs), left to right from ``x``."""
    parts = []
    k = 0
    for name, count in zip(names, counts, strict=True):
        for _ in range(count):
            cx = x + 5.5 + 11.5 * k
            parts.append(svg.circle(cx, y, 5.3, fill=GLYPH_COLOURS[name]))
            parts.append(
                svg.text(
                    cx,
                    y + 3.2,
                    SYMBOL_KEY[name],
                    size=7.5,
                    fill="white",
                    font_weight="700",
                    text_anchor="middle",
                )
            )
            k += 1
    return parts


def _vp_badge(x: float, y: float, harvest: int, end: int) -> list[str]:
    """VP at the right of a band: blue for VP tokens each Harvest, grey for end-game points."""
    parts = []
    for value, colour, what in ((end, "#7b8794", "end"), (harvest, ACCENT, "harvest")):
        if value:
            parts.append(svg.rect(x - 15, y - 6.5, 15, 12, rx=3, fill=colour))
            parts.append(svg.text(x - 7.5, y + 3, str(value), size=8.5, fill="white", text_anchor="middle"))
            parts.append(svg.title(f"{value} VP {'each Harvest' if what == 'harvest' else 'at the end'}"))
            x -= 17
    return parts


def _band(x: float, y: float, w: float, slot: int, a: int, covered: bool = False) -> str:
    """One slot of a card: the advancement's name, symbols and VP, or an open slot."""
    if a < 0:
        return svg.group(
            [
                svg.rect(x, y, w, BAND_H - 3, rx=3, fill="none", stroke=svg.LINE, stroke_dasharray="3 3"),
                svg.text(x + w / 2, y + 17, SLOT_NAMES[slot], size=8.5, fill=svg.MUTED, text_anchor="middle"),
            ],
            class_="slot open",
        )
    adv = ADVANCEMENTS[a]
    name = adv.name + (" *" if adv.ability.text else "")
    tip = advancement_text(a) + (" (its ability is covered by a later band)" if covered else "")
    parts = [
        svg.title(tip),
        svg.rect(x, y, w, BAND_H - 3, rx=3, fill=_fill(a), stroke="#c3ccd5"),
        svg.text(
            x + 3,
            y + 10,
            name,
            size=_fit(name, w - 6, 9),
            font_weight="600",
            text_decoration="line-through" if covered else None,
        ),
    ]
    parts += _glyphs(x + 2, y + 20, adv.symbols)
    parts += _vp_badge(x + w - 2, y + 20, adv.harvest_vp, adv.end_vp)
    return svg.group(parts, class_="slot")


def _at(x: float, y: float, face: str) -> str:
    return svg.tag("g", face, transform=f"translate({round(x, 1)},{round(y, 1)})")


def _card(s: Any, q: int, c: int, x: float, y: float, note: str = "") -> str:
    """One of a seat's 20 cards: its index, its decay and growth, and its three slot bands."""
    return _at(x, y, _card_face(c, s.slots[q][c], s.band[q][c], note))


@functools.lru_cache(maxsize=4096)
def _card_face(c: int, slots: tuple[int, int, int], band: int, note: str) -> str:
    # Drawn once per content at the origin: a card changes only when something is sleeved on it,
    # and a 4-player table has 40-odd cards on show (the page redraws it after every move).
    p = profile(slots, band)
    x = y = 0
    parts = [
        svg.title(sleeve_text(c, slots, p) + (f" ({note})" if note else "")),
        svg.rect(x, y, CARD_W, CARD_H, rx=6, fill="white", stroke="#52606d", stroke_width=1.2),
        svg.text(x + 5, y + 12, f"#{c}", size=10, font_weight="700"),
    ]
    totals = []
    if p.decay:
        totals.append(f"{p.decay} decay")
    if p.growth:
        totals.append(f"{p.growth} growth")
    if totals:
        parts.append(
            svg.text(x + CARD_W - 5, y + 12, ", ".join(totals), size=8.5, fill=svg.MUTED, text_anchor="end")
        )
    banded = [k for k in range(3) if slots[k] >= 0 and ADVANCEMENTS[slots[k]].band]
    for k in range(3):
        covered = len(banded) > 1 and k in banded and k != band
        parts.append(_band(x + 3, y + 16 + BAND_H * k, CARD_W - 6, k, slots[k], covered))
    return svg.group(parts, class_="card")


def _tile(x: float, y: float, a: int, where: str) -> str:
    """A commons advancement for sale: name, cost, slot, symbols, VP."""
    return _at(x, y, _tile_face(a, where))


@functools.lru_cache(maxsize=1024)
def _tile_face(a: int, where: str) -> str:
    x = y = 0
    if a < 0:
        return svg.group(
            [
                svg.rect(x, y, TILE_W, TILE_H, rx=5, fill="none", stroke=svg.LINE, stroke_dasharray="4 3"),
                svg.text(
                    x + TILE_W / 2, y + 22, f"{where}: empty", size=10, fill=svg.MUTED, text_anchor="middle"
                ),
            ]
        )
    adv = ADVANCEMENTS[a]
    name = adv.name + (" *" if adv.ability.text else "")
    parts = [
        svg.title(f"{where}: {advancement_text(a)}"),
        svg.rect(x, y, TILE_W, TILE_H, rx=5, fill=_fill(a), stroke="#9aa5b1"),
        svg.circle(x + 13, y + 18, 9, fill="white", stroke=GLYPH_COLOURS["mana"], stroke_width=1.5),
        svg.text(x + 13, y + 22, str(adv.cost), size=11, font_weight="700", text_anchor="middle"),
        svg.text(x + 27, y + 14, name, size=_fit(name, TILE_W - 34, 11), font_weight="600"),
        svg.text(x + TILE_W - 4, y + 30, SLOT_NAMES[adv.slot], size=8.5, fill=svg.MUTED, text_anchor="end"),
    ]
    parts += _glyphs(x + 26, y + 26, adv.symbols)
    parts += _vp_badge(x + TILE_W - 44, y + 26, adv.harvest_vp, adv.end_vp)
    return svg.group(parts, class_="advancement")


def _vale(x: float, y: float, v: int, note: str = "", w: float = VALE_W) -> str:
    """A vale: name, spirit cost as glyphs, end-game VP; ``*`` has an ability (the tooltip)."""
    return _at(x, y, _vale_face(v, note, w))


@functools.lru_cache(maxsize=1024)
def _vale_face(v: int, note: str, w: float) -> str:
    x = y = 0
    if v < 0:
        return svg.rect(x, y, w, VALE_H, rx=5, fill="none", stroke=svg.LINE, stroke_dasharray="4 3")
    vale = VALES[v]
    name = vale.name + (" *" if vale.ability.text else "")
    parts = [
        svg.title(vale_text(v) + (f" ({note})" if note else "")),
        svg.rect(x, y, w, VALE_H, rx=5, fill="#f2f7ee" if vale.level == 1 else "#e6f0e0", stroke="#6f8f5f"),
        svg.text(x + 4, y + 13, name, size=_fit(name, w - 8, 10), font_weight="600"),
        svg.text(
            x + 4, y + 40, f"level {vale.level}" + (f" \u00b7 {note}" if note else ""), size=8, fill=svg.MUTED
        ),
    ]
    parts += _glyphs(x + 3, y + 25, tuple(vale.cost), SPIRIT_NAMES)
    parts.append(svg.circle(x + w - 12, y + 28, 9, fill=VP_COLOUR, stroke="#8a6d12"))
    parts.append(
        svg.text(x + w - 12, y + 32, str(vale.end_vp), size=10, font_weight="700", text_anchor="middle")
    )
    return svg.group(parts, class_="vale")


def _market(s: Any, y: float) -> tuple[str, float]:
    """The commons (a row per level, the Fertile Soil supply) and the two vale rows."""
    level_sizes = tuple(len(deck) for deck in s.level_deck)
    vale_sizes = tuple(len(deck) for deck in s.vale_deck)
    return _market_at(y, tuple(s.commons), tuple(s.fertile), tuple(s.vale_up), level_sizes, vale_sizes)


@functools.lru_cache(maxsize=256)
def _market_at(
    y: float,
    commons: tuple[int, ...],
    fertile: tuple[int, ...],
    vale_up: tuple[int, ...],
    level_sizes: tuple[int, ...],
    vale_sizes: tuple[int, ...],
) -> tuple[str, float]:
    # The market changes only when something is bought: drawn once per content.
    parts = [svg.text(20, y + 12, "Commons", size=13, font_weight="700")]
    for row in range(3):
        ry = y + 20 + (TILE_H + 6) * row
        parts.append(svg.text(20, ry + 15, f"level {row + 1}", size=11))
        parts.append(svg.text(20, ry + 29, f"deck {level_sizes[row]}", size=9.5, fill=svg.MUTED))
        for k in range(COMMONS_FACE_UP):
            where = f"row {row + 1} place {k + 1}"
            parts.append(_tile(74 + (TILE_W + 6) * k, ry, commons[row * COMMONS_FACE_UP + k], where))
    fy = y + 20 + (TILE_H + 6) * 3
    supply = ", ".join(f"{SLOT_NAMES[k]} {fertile[k]}" for k in range(3))
    soil = ADVANCEMENTS[FERTILE_SOIL[0]]
    parts.append(
        svg.group(
            [
                svg.title(
                    f"{advancement_text(FERTILE_SOIL[0])} Any slot; {NUM_FERTILE_SOIL // 3} a slot to start."
                ),
                svg.rect(74, fy, 3 * TILE_W + 12, 22, rx=5, fill=FERTILE_FILL, stroke="#9aa5b1"),
                svg.text(
                    82,
                    fy + 15,
                    f"Fertile Soil (cost {soil.cost}, {symbols_words(soil.symbols)}) left: {supply}",
                    size=11,
                ),
            ]
        )
    )
    vx = 74 + 3 * (TILE_W + 6) + 20
    parts.append(svg.text(vx, y + 12, "Vales (paid with spirits)", size=13, font_weight="700"))
    for row in range(2):
        ry = y + 20 + (VALE_H + 8) * row
        for k in range(VALES_FACE_UP):
            parts.append(_vale(vx + (VALE_W + 5) * k, ry, vale_up[row * VALES_FACE_UP + k]))
    decks = f"vale decks: level 1 {vale_sizes[0]}, level 2 {vale_sizes[1]}"
    parts.append(svg.text(vx, y + 20 + (VALE_H + 8) * 2 + 10, decks, size=10, fill=svg.MUTED))
    return "".join(parts), fy + 22 - y


def _harvest(s: Any) -> list[str]:
    if s.phase == GAME_OVER or s.stage != HARVESTING:
        return []
    sp = s.spirits_now()
    token = " (+1 with the mana token)" if s.token_active[s.active] and not s.token_used else ""
    spirits = " ".join(f"{k}{SPIRIT_NAMES[i][0].upper()}" for i, k in enumerate(sp)) or "none"
    bought = ", ".join(ADVANCEMENTS[b[0]].name for b in s.bought) + (
        (", " if s.bought and s.bought_vales else "") + ", ".join(VALES[v].name for v in s.bought_vales)
    )
    return [
        f"Harvest of player_{s.active}: mana {s.mana_left()}{token} \u00b7 spirits {spirits} \u00b7 "
        f"VP {s.h_vp} \u00b7 advancement buys left {s.buy_limit() - len(s.bought)}, vale buys left "
        f"{VALE_BUYS - len(s.bought_vales)} \u00b7 bought: {bought or 'nothing'}"
    ]


def _badge(x: float, y: float, label: str, fill: str) -> list[str]:
    w = max(70, 7 * len(label) + 16)
    return [
        svg.rect(x - w, y, w, 20, rx=10, fill=fill),
        svg.text(x - w / 2, y + 14, label, size=11.5, fill="white", text_anchor="middle"),
    ]


def _pile_lines(s: Any, q: int, cards: list[int], head: str) -> list[str]:
    groups: dict[tuple[int, int, int], list[int]] = {}
    for c in sorted(cards):
        groups.setdefault(s.slots[q][c], []).append(c)
    items = []
    for slots, same in groups.items():
        names = [ADVANCEMENTS[a].name if a >= 0 else "-" for a in slots]
        what = "blank" if names == ["-"] * 3 else " / ".join(names)
        ids = " ".join(f"#{c}" for c in same)
        items.append(f"{len(same)}x {what} ({ids})" if len(same) > 1 else f"{ids} {what}")
    return textwrap.wrap(f"{head}: " + " \u00b7 ".join(items), 150)


def _seat(s: Any, q: int, y0: float, viewer: int | str | None) -> tuple[list[str], float]:
    over = s.phase == GAME_OVER
    own = viewer == q or viewer == "all"
    body: list[str] = []
    you = " (you)" if viewer == q else ""
    body.append(svg.text(28, y0 + 24, f"player_{q}{you}", size=16, font_weight="700"))
    marks = [
        f"{s.tokens[q]} VP tokens",
        f"{s.points(q)} points",
        f"deck {len(s.deck[q])}",
        f"discard {len(s.discard[q])}",
        f"net decay {s.net_decay(q)}",
    ]
    body.append(svg.text(170, y0 + 24, " \u00b7 ".join(marks), size=13))
    right = WIDTH - 32
    if not over and s.player == q:
        body += _badge(right, y0 + 8, f"to act: {s.phase_name.replace('_', ' ')}", ACCENT)
    elif over and q in s.winners():
        body += _badge(right, y0 + 8, "winner", "#3f8f4f")
    # The mana token: gold while active (1 mana to spend), grey once spent.
    active = s.token_active[q]
    token = "mana token " + ("active" if active else "spent")
    body.append(
        svg.group(
            [
                svg.title("mana token: " + ("active (+1 mana in a Harvest)" if active else "spent")),
                svg.circle(37, y0 + 40, 8, fill=VP_COLOUR if active else "#cbd2d9", stroke="#8a6d12"),
                svg.text(37, y0 + 43.5, "M", size=9, font_weight="700", text_anchor="middle"),
                svg.text(
                    51, y0 + 44, token + (" \u00b7 starting player" if q == s.start_player else ""), size=11
                ),
            ]
        )
    )
    y = y0 + 52
    if over:
        cards, vales = end_vp_parts(s, q)
        body.append(
            svg.text(
                28,
                y + 10,
                f"{s.tokens[q]} VP tokens + {cards} on cards + {vales} on vales = {s.points(q)} points",
                size=12,
                font_weight="600",
            )
        )
        y += 18
    # Its vales.
    label_y = y + (26 if s.vales[q] else 16)
    body.append(svg.text(28, label_y, "Vales", size=11, fill=svg.MUTED))
    bought = s.bought_vales if q == s.active and not over else []
    for k, v in enumerate(s.vales[q]):
        note = "bought this turn" if v in bought else ""
        body.append(_vale(70 + (VALE_W + 5) * (k % 9), y + 4 + (VALE_H + 4) * (k // 9), v, note))
    if not s.vales[q]:
        body.append(svg.text(70, label_y, "none", size=11, fill=svg.MUTED))
    y += 8 + ((VALE_H + 4) * ((len(s.vales[q]) + 8) // 9) if s.vales[q] else 24)
    # The field, then the on-deck card (and a Calm Weather peek of one's own).
    shown = [(c, "field") for c in s.field[q]]
    if s.on_deck[q] >= 0:
        shown.append((s.on_deck[q], "on deck"))
    if own and s.phase == PEEK and q == s.active and s.deck[q]:
        shown.append((s.deck[q][-1], "top of deck (Calm Weather)"))
    body.append(svg.text(28, y + 10, f"Field ({len(s.field[q])} cards)", size=11, fill=svg.MUTED))
    y += 16
    for k, (c, where) in enumerate(shown):
        col, row = k % CARDS_PER_ROW, k // CARDS_PER_ROW
        x = 28 + (CARD_W + CARD_GAP) * col
        cy = y + (CARD_H + 22) * row
        if where != "field":
            body.append(
                svg.rect(
                    x - 3,
                    cy - 3,
                    CARD_W + 6,
                    CARD_H + 6,
                    rx=8,
                    fill="none",
                    stroke=ACCENT,
                    stroke_width=2,
                    stroke_dasharray="5 3",
                )
            )
            body.append(
                svg.text(x + CARD_W / 2, cy + CARD_H + 14, where, size=10, fill=ACCENT, text_anchor="middle")
            )
        body.append(_card(s, q, c, x, cy, where))
    rows = max(1, (len(shown) + CARDS_PER_ROW - 1) // CARDS_PER_ROW)
    y += (CARD_H + 22) * rows
    if own:
        lines = []
        if s.deck[q]:
            head = f"{'Your' if viewer == q else 'Its'} deck ({len(s.deck[q])}, order unknown)"
            if s.phase == SEARCH and q == s.active:
                head += ", searched with Cleansing Rain"
            lines += _pile_lines(s, q, s.deck[q], head)
        if s.discard[q]:
            lines += _pile_lines(
                s, q, s.discard[q], f"{'Your' if viewer == q else 'Its'} discard pile ({len(s.discard[q])})"
            )
        for line in lines:
            body.append(svg.text(28, y + 2, line, size=11))
            y += 15
    height = y - y0 + 4
    frame = svg.rect(
        14,
        y0,
        WIDTH - 28,
        height,
        rx=8,
        fill="white",
        stroke=ACCENT if viewer == q else svg.LINE,
        stroke_width=2 if viewer == q else 1,
    )
    return [frame, svg.group(body, class_="seat")], height


def draw(s: Any, viewer: int | str | None) -> str:
    over = s.phase == GAME_OVER
    stage = "game over" if over else f"{STAGE_NAMES[s.stage]} \u00b7 {s.phase_name.replace('_', ' ')}"
    if over:
        when = f"after {s.turn // s.n} rounds"
    else:
        # The round (a turn of every seat from the starting player on) is what a player counts by.
        order = (s.active - s.start_player) % s.n + 1
        when = f"round {s.turn // s.n + 1}, turn {s.turn + 1} ({ORDINALS[order]} to play)"
    head = f"Mystic Vale \u00b7 {when} \u00b7 {stage}"
    parts = svg.heading(WIDTH, head, s.winners() if over else None, s.player)
    parts.append(svg.circle(32, 58, 9, fill=VP_COLOUR, stroke="#8a6d12"))
    pool = f"VP pool {s.pool}/{s.pool_start}" + (" \u00b7 ran out: the last round" if s.end_triggered else "")
    parts.append(svg.text(48, 63, pool, size=14, font_weight="600"))
    key = ", ".join(f"{SYMBOL_KEY[n]} {n}" for n in SYMBOL_NAMES)
    parts.append(
        svg.text(
            WIDTH - 20,
            82,
            f"symbols: {key}; * an ability (hover for its text)",
            size=11,
            fill=svg.MUTED,
            text_anchor="end",
        )
    )
    market, h = _market(s, 92)
    parts.append(market)
    y = 92 + h + 20
    notes = _harvest(s) + ([] if over else phase_note(s))
    for row in [r for note in notes for r in textwrap.wrap(note, 150)][:4]:
        parts.append(svg.text(24, y, row, size=12))
        y += 16
    first = viewer if isinstance(viewer, int) else 0
    y += 4
    for k in range(s.n):
        seat, h = _seat(s, (first + k) % s.n, y, viewer)
        parts += seat
        y += h + 10
    label = f"Mystic Vale table, {'everything shown' if viewer == 'all' else 'seat view'}"
    return svg.document(WIDTH, int(y + 6), parts, label)
