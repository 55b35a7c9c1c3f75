"""Terminal text for Mystic Vale: the table as one seat (or everyone) sees it.

Each card is shown as its three slots, ``[top | middle | bottom]``, each an advancement's name
with its symbols (``2G 1A 1D`` = 2 guardians, 1 animal, 1 decay; see ``SYMBOL_KEY``), then the
card's totals; ``ability_text(name)`` gives any card's or vale's full text on request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystic_vale.cards import (
    ADVANCEMENT_BY_NAME,
    ADVANCEMENTS,
    FERTILE_SOIL,
    SLOT_NAMES,
    SPIRIT_NAMES,
    SYMBOL_NAMES,
    VALE_BY_NAME,
    VALES,
)
from mystic_envs.mystic_vale.decisions import ACTION_MEANINGS, GAME_OVER, PEEK, STAGE_NAMES

if TYPE_CHECKING:
    from mystic_envs.mystic_vale.rules import ValeState

SYMBOL_KEY = {"mana": "M", "decay": "D", "growth": "+", "guardian": "G", "animal": "A", "forest": "F",
              "sky": "S", "wild": "W"}  # fmt: skip


def symbols_short(sym: tuple[int, ...]) -> str:
    return " ".join(f"{k}{SYMBOL_KEY[name]}" for name, k in zip(SYMBOL_NAMES, sym, strict=True) if k)


def advancement_short(a: int) -> str:
    adv = ADVANCEMENTS[a]
    extra = []
    if adv.harvest_vp:
        extra.append(f"{adv.harvest_vp}VP/harvest")
    if adv.end_vp:
        extra.append(f"{adv.end_vp}VP end")
    if adv.ability.text:
        extra.append("*")
    sym = symbols_short(adv.symbols)
    return " ".join(x for x in (adv.name, f"({sym})" if sym else "", " ".join(extra)) if x)


def card_text(s: ValeState, q: int, c: int) -> str:
    """``#c [top | middle | bottom]`` with the card's decay, growth, mana and spirits."""
    parts = []
    for slot in range(3):
        a = s.slots[q][c][slot]
        parts.append(advancement_short(a) if a >= 0 else "-")
    p = s.prof[q][c]
    spirits = " ".join(f"{k}{SPIRIT_NAMES[i][0].upper()}" for i, k in enumerate(p.spirits) if k)
    totals = f"decay {p.decay}" + (f", growth {p.growth}" if p.growth else "")
    totals += f", mana {p.mana}" if p.mana else ""
    totals += f", {spirits}" if spirits else ""
    return f"#{c:<2} [{' | '.join(parts)}]  {totals}"


def ability_text(name: str) -> str:
    """The full text of an advancement or a vale, by name (case-insensitive)."""
    key = name.lower()
    if key in ADVANCEMENT_BY_NAME:
        return _advancement_text(ADVANCEMENT_BY_NAME[key])
    if key in VALE_BY_NAME:
        return _vale_text(VALE_BY_NAME[key])
    raise ValueError(f"no advancement or vale is named {name!r}")


def _advancement_text(a_id: int) -> str:
    a = ADVANCEMENTS[a_id]
    band = ", long-wise band" if a.band else ""
    return (
        f"{a.name} (level {a.level}, cost {a.cost}, {SLOT_NAMES[a.slot]} slot{band}): "
        f"{symbols_short(a.symbols) or 'no symbols'}; harvest VP {a.harvest_vp}, end VP {a.end_vp}. "
        f"{a.ability.text or 'No ability.'}"
    )


def _vale_text(v_id: int) -> str:
    v = VALES[v_id]
    return f"{v.name} (level {v.level}, cost {_cost(v.id)}, {v.end_vp} VP): {v.ability.text or 'No ability.'}"


def _adv_short(a: int) -> str:
    return f"{ADVANCEMENTS[a].name} ({ADVANCEMENTS[a].cost})" if a >= 0 else "-"


def _vale_short(v: int) -> str:
    return f"{VALES[v].name} ({_cost(v)}, {VALES[v].end_vp}VP)" if v >= 0 else "-"


def _cost(v: int) -> str:
    cost = VALES[v].cost
    return " ".join(f"{k}{SPIRIT_NAMES[i][0].upper()}" for i, k in enumerate(cost) if k)


def describe(s: ValeState, viewer: int | None = None) -> str:
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = []
    over = s.phase == GAME_OVER
    head = "game over"
    if not over:
        head = f"player_{s.active}'s turn ({STAGE_NAMES[s.stage]}), to decide: {s.phase_name}"
    lines.append(f"Mystic Vale, {s.n} players, turn {s.turn + 1}: {head}")
    lines.append(f"VP pool {s.pool}/{s.pool_start}" + ("  (ran out: last round)" if s.end_triggered else ""))
    for row in range(3):
        shown = [s.commons[row * 3 + k] for k in range(3)]
        cards = "; ".join(_adv_short(a) for a in shown)
        lines.append(f"commons row {row + 1}: {cards}")
    top, middle, bottom = s.fertile
    lines.append(f"Fertile Soil left: top {top}, middle {middle}, bottom {bottom} (cost 2)")
    for row in range(2):
        shown = [s.vale_up[row * 4 + k] for k in range(4)]
        vales = "; ".join(_vale_short(v) for v in shown)
        lines.append(f"vales row {row + 1}: {vales}")
    for q in range(s.n):
        token = "active" if s.token_active[q] else "spent"
        vales = ", ".join(VALES[v].name for v in s.vales[q]) or "none"
        lines.append(
            f"player_{q}{' (you)' if q == viewer else ''}: {s.tokens[q]} VP tokens, {s.points(q)} points, "
            f"mana token {token}, deck {len(s.deck[q])}, discard {len(s.discard[q])}, net decay "
            f"{s.net_decay(q)}; vales: {vales}"
        )
        for c in s.field[q]:
            lines.append("  field   " + card_text(s, q, c))
        if s.on_deck[q] >= 0:
            lines.append("  on deck " + card_text(s, q, s.on_deck[q]))
        if q == viewer:
            for c in sorted(s.discard[q]):
                lines.append("  discard " + card_text(s, q, c))
            if s.phase == PEEK and q == s.active and s.deck[q]:
                lines.append("  top of deck (Calm Weather) " + card_text(s, q, s.deck[q][-1]))
    if not over and s.stage == 1:
        sp = s.spirits_now()
        lines.append(
            f"harvest: mana {s.mana_left()}, spirits {sp[0]}A {sp[1]}F {sp[2]}S {sp[3]}W, VP {s.h_vp}; "
            "bought " + (", ".join(ADVANCEMENTS[b[0]].name for b in s.bought) or "nothing")
        )
    if over:
        lines.append("winners: " + ", ".join(f"player_{q}" for q in s.winners()))
    elif viewer == s.current_player or (viewer is None and s.phase_name != "cleansing_rain_search"):
        # (a deck search's choices would show which cards are in the deck)
        lines.append("legal: " + "; ".join(f"{a} {ACTION_MEANINGS[a]}" for a in s.legal_actions()))
    return "\n".join(lines)


def table_effects(s: ValeState, viewer: int | None = None) -> str:
    """The full text of every advancement and vale on the table (the ``?`` command of the terminal
    front ends): the commons, Fertile Soil, what is sleeved on anyone's cards, the vale rows and
    the vales owned. All of it is public, so every viewer reads the same."""
    advancements = {a for a in s.commons if a >= 0}
    advancements.update(a for slots in s.slots for sl in slots for a in sl if a >= 0)
    advancements.update(FERTILE_SOIL)
    vales = {v for v in s.vale_up if v >= 0}
    vales.update(v for owned in s.vales for v in owned)
    lines = ["Advancements on the table:"]
    lines += [f"  {_advancement_text(a)}" for a in sorted(advancements)]
    lines.append("Vales on the table:")
    lines += [f"  {_vale_text(v)}" for v in sorted(vales)]
    return "\n".join(lines)
