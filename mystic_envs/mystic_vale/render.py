"""Terminal text for Mystic Vale: the table as one seat (or an onlooker) sees it, and the actions.

Each card is shown as its three slots, ``[top | middle | bottom]``, each an advancement's name
with its symbols (``2G 1A 1D`` = 2 guardians, 1 animal, 1 decay; see ``SYMBOL_KEY``), then the
card's totals; ``ability_text(name)`` gives any card's or vale's full text on request and
``table_effects`` every one on the table (the terminal's ``?``). ``describe_action`` names each
action for the phase and the speaker (``agents.human.action_label``): the mover hears the
imperative with the cards named, the others a third-person line with only what the table learns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mystic_envs.mystic_vale.cards import (
    ADVANCEMENT_BUYS,
    ADVANCEMENT_BY_NAME,
    ADVANCEMENTS,
    COMMONS_FACE_UP,
    DISCARD_FROM_FIELD,
    FERTILE_SOIL,
    PEEK_TOP,
    REDRAW_ON_DECK,
    SEARCH_DECK,
    SLOT_NAMES,
    SPIRIT_NAMES,
    SPOIL_DECAY,
    SYMBOL_NAMES,
    VALE_BUYS,
    VALE_BY_NAME,
    VALES,
    VALES_FACE_UP,
)
from mystic_envs.mystic_vale.decisions import (
    BUY_COMMONS,
    BUY_FERTILE,
    BUY_VALE,
    CARD,
    CONCLAVE,
    CONCLAVE_TARGET,
    DECLARE,
    DISCARD_PEEKED,
    DISCARDING,
    DONE,
    GAME_OVER,
    HARVEST,
    HARVESTING,
    NUM_ACTIONS,
    PASS,
    PEEK,
    PLANT,
    PREPPING,
    PUSH,
    REDRAW_DRUID,
    REDRAW_VALE,
    SACRIFICE,
    SEARCH,
    SLEEVE,
    STAGE_NAMES,
    SUNSTONE,
    WOULD_SPOIL,
    WP_DISCARD,
    action_meaning,
)
from mystic_envs.mystic_vale.sleeves import VALE_REDRAW, VALE_SACRIFICE, Profile

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
    return sleeve_text(c, s.slots[q][c], s.prof[q][c])


def sleeve_text(c: int, slots: tuple[int, int, int], p: Profile) -> str:
    """:func:`card_text` of card index ``c`` from its slots and its profile."""
    parts = [advancement_short(a) if a >= 0 else "-" for a in slots]
    spirits = " ".join(f"{k}{SPIRIT_NAMES[i][0].upper()}" for i, k in enumerate(p.spirits) if k)
    totals = f"decay {p.decay}" + (f", growth {p.growth}" if p.growth else "")
    totals += f", mana {p.mana}" if p.mana else ""
    totals += f", {spirits}" if spirits else ""
    return f"#{c:<2} [{' | '.join(parts)}]  {totals}"


def ability_text(name: str) -> str:
    """The full text of an advancement or a vale, by name (case-insensitive)."""
    key = name.lower()
    if key in ADVANCEMENT_BY_NAME:
        return advancement_text(ADVANCEMENT_BY_NAME[key])
    if key in VALE_BY_NAME:
        return vale_text(VALE_BY_NAME[key])
    raise ValueError(f"no advancement or vale is named {name!r}")


def advancement_text(a_id: int) -> str:
    a = ADVANCEMENTS[a_id]
    band = ", long-wise band" if a.band else ""
    return (
        f"{a.name} (level {a.level}, cost {a.cost}, {SLOT_NAMES[a.slot]} slot{band}): "
        f"{symbols_short(a.symbols) or 'no symbols'}; harvest VP {a.harvest_vp}, end VP {a.end_vp}. "
        f"{a.ability.text or 'No ability.'}"
    )


def vale_text(v_id: int) -> str:
    v = VALES[v_id]
    return f"{v.name} (level {v.level}, cost {_cost(v.id)}, {v.end_vp} VP): {v.ability.text or 'No ability.'}"


def _cost(v: int) -> str:
    cost = VALES[v].cost
    return " ".join(f"{k}{SPIRIT_NAMES[i][0].upper()}" for i, k in enumerate(cost) if k)


def _cost_words(v: int) -> str:
    return ", ".join(f"{k} {SPIRIT_NAMES[i]}" for i, k in enumerate(VALES[v].cost) if k)


def _vale_short(v: int) -> str:
    mark = " *" if VALES[v].ability.text else ""
    return f"{VALES[v].name}{mark}, cost {_cost(v)}, {VALES[v].end_vp} VP"


# --- the table ----------------------------------------------------------------------------------
def _groups(s: ValeState, q: int, cards: list[int]) -> list[str]:
    """A pile as one line per distinct card content (``3x #6 #7 #8 [...]``): 20 cards of which
    most are alike read in a few lines."""
    by_content: dict[tuple[int, int, int], list[int]] = {}
    for c in sorted(cards):
        by_content.setdefault(s.slots[q][c], []).append(c)
    out = []
    for same in by_content.values():
        text = card_text(s, q, same[0])
        ids = " ".join(f"#{c}" for c in same)
        out.append(f"{len(same)}x {ids} {text.split(' ', 1)[1].lstrip()}" if len(same) > 1 else text)
    return out


def end_vp_parts(s: ValeState, q: int) -> tuple[int, int]:
    """Seat ``q``'s end-game points: (on its 20 cards, on its vales)."""
    vales = sum(VALES[v].end_vp for v in s.vales[q])
    return s.end_vp(q) - vales, vales


def phase_note(s: ValeState) -> list[str]:
    """What the open decision is about, in the words of the table (no secret in it)."""
    q, ph = s.active, s.phase
    if ph in WHEN_PLAYED_OPS:
        src = when_played_source(s)
        what = {
            WP_DISCARD: "may discard one other card of the field",
            PEEK: "keep or discard the top card of the deck",
            SEARCH: "may discard a card from the deck",
        }[ph]
        return [f"When Played: {src} on card #{s.wp_card}: {what}"]
    if ph == WOULD_SPOIL:
        return [f"would spoil: net decay {s.net_decay(q)} ({SPOIL_DECAY} spoils); use a save or accept it"]
    if ph == CONCLAVE_TARGET:
        return ["Conclave of Ents: choose the card that gets +1 guardian"]
    if ph == DECLARE and s.pending_buy is not None:
        adv = s.pending_buy[1]
        return [
            f"buying {ADVANCEMENTS[adv].name} (cost {ADVANCEMENTS[adv].cost}): declare an Earthchant Chorus "
            "card for its discount, or pay the full price"
        ]
    if s.stage == DISCARDING and s.sleeve_index < len(s.bought):
        todo = ", ".join(f"{ADVANCEMENTS[b[0]].name} ({SLOT_NAMES[ADVANCEMENTS[b[0]].slot]})"
                         for b in s.bought[s.sleeve_index :])  # fmt: skip
        return [f"to sleeve: {todo}"]
    return []


_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def describe(s: ValeState, viewer: int | None = None) -> str:
    """The table as seat ``viewer`` may see it (None: an onlooker): every card's three slots and
    totals, the commons and vale rows with their costs, each seat's VP, points, mana token and
    vales; the viewer's own deck (as a set: its order is hidden) and discard pile; another seat's
    discard pile only as a count."""
    if viewer is not None:
        viewer = s.check_seat(viewer, "viewer")
    lines = []
    over = s.phase == GAME_OVER
    if over:
        head = f"game over after {s.turn // s.n} rounds ({s.turn} turns)"
    else:
        # A round is one turn of every seat from the starting player on; the pool's end finishes
        # the round, so the round is what a player counts turns left by.
        order = (s.active - s.start_player) % s.n + 1
        head = (
            f"round {s.turn // s.n + 1}, turn {s.turn + 1} (the {_ORDINAL[order]} to play): "
            f"player_{s.active}'s turn ({STAGE_NAMES[s.stage]}), to decide: {s.phase_name}"
        )
    lines.append(f"Mystic Vale, {s.n} players, {head}")
    last = "  (ran out: this round is the last)" if s.end_triggered else ""
    lines.append(f"VP pool {s.pool}/{s.pool_start}{last}")
    lines.append(KEY_LINE)
    decks = ", ".join(f"level {k + 1} {len(s.level_deck[k])}" for k in range(3))
    lines.append(f"commons (mana; up to {ADVANCEMENT_BUYS} a turn; decks: {decks}):")
    for k, a in enumerate(s.commons):
        row, place = divmod(k, COMMONS_FACE_UP)
        where = f"  row {row + 1} place {place + 1}: "
        if a < 0:
            lines.append(where + "empty")
        else:
            adv = ADVANCEMENTS[a]
            lines.append(f"{where}{advancement_short(a)}; cost {adv.cost}, {SLOT_NAMES[adv.slot]} slot")
    top, middle, bottom = s.fertile
    soil = ADVANCEMENTS[FERTILE_SOIL[0]]
    lines.append(
        f"  Fertile Soil ({symbols_short(soil.symbols)}; cost {soil.cost}, any slot): top {top} left, "
        f"middle {middle}, bottom {bottom}"
    )
    decks = ", ".join(f"level {k + 1} {len(s.vale_deck[k])}" for k in range(2))
    lines.append(f"vales (spirits; up to {VALE_BUYS} a turn; decks: {decks}):")
    for k, v in enumerate(s.vale_up):
        row, place = divmod(k, VALES_FACE_UP)
        lines.append(f"  row {row + 1} place {place + 1}: " + (_vale_short(v) if v >= 0 else "empty"))
    for q in range(s.n):
        token = "active" if s.token_active[q] else "spent"
        tags = ", ".join(
            t for t in ("you" if q == viewer else "", "starting player" if q == s.start_player else "") if t
        )
        bought = s.bought_vales if q == s.active and not over else []
        vales = []
        for v in s.vales[q]:
            note = " (bought this turn)" if v in bought else ""
            vales.append(f"{VALES[v].name}{' *' if VALES[v].ability.text else ''} {VALES[v].end_vp} VP{note}")
        lines.append(
            f"player_{q}{f' ({tags})' if tags else ''}: {s.tokens[q]} VP tokens, {s.points(q)} points, "
            f"mana token {token}, deck {len(s.deck[q])}, discard {len(s.discard[q])}, net decay "
            f"{s.net_decay(q)}; vales: {', '.join(vales) or 'none'}"
        )
        if s.skip_harvest[q]:
            lines.append("  spoiled in prep: skips its next Harvest (straight to its Discard Phase)")
        for c in s.field[q]:
            lines.append("  field   " + card_text(s, q, c))
        if s.on_deck[q] >= 0:
            lines.append("  on deck " + card_text(s, q, s.on_deck[q]))
        if q == viewer:
            if s.phase == PEEK and q == s.active and s.deck[q]:
                lines.append("  top of deck (Calm Weather) " + card_text(s, q, s.deck[q][-1]))
            if s.deck[q]:
                lines.append(f"  your deck ({len(s.deck[q])}, order unknown):")
                lines += ["    " + g for g in _groups(s, q, s.deck[q])]
            if s.discard[q]:
                lines.append(f"  your discard pile ({len(s.discard[q])}):")
                lines += ["    " + g for g in _groups(s, q, s.discard[q])]
    if not over and s.stage == HARVESTING:
        sp = s.spirits_now()
        token = " (+1 with the mana token)" if s.token_active[s.active] and not s.token_used else ""
        buys = f"{s.buy_limit() - len(s.bought)} advancements, {VALE_BUYS - len(s.bought_vales)} vales"
        lines.append(
            f"harvest: mana {s.mana_left()}{token}, spirits {sp[0]}A {sp[1]}F {sp[2]}S {sp[3]}W, "
            f"VP {s.h_vp}; buys left: {buys}; bought "
            + (", ".join(ADVANCEMENTS[b[0]].name for b in s.bought) or "nothing")
        )
    if not over:
        lines += phase_note(s)
    if over:
        for q in range(s.n):
            cards, vales = end_vp_parts(s, q)
            lines.append(
                f"player_{q}: {s.tokens[q]} VP tokens + {cards} on cards + {vales} on vales "
                f"= {s.points(q)} points"
            )
        lines.append("winners: " + ", ".join(f"player_{q}" for q in s.winners()))
    return "\n".join(lines)


KEY_LINE = (
    "key: M mana, D decay, + growth, G guardian, A animal, F forest, S sky, W wild; "
    "VP/harvest: VP tokens each harvest, VP end: points at the end; * an ability (? prints its text)"
)


def table_effects(s: ValeState, viewer: int | None = None) -> str:
    """The full text of every advancement and vale on the table (the ``?`` command of the terminal
    front ends): the commons, Fertile Soil, what is sleeved on anyone's cards, the vale rows and
    the vales owned. All of it is public, so every viewer reads the same."""
    if viewer is not None:
        s.check_seat(viewer, "viewer")
    advancements = {a for a in s.commons if a >= 0}
    advancements.update(a for slots in s.slots for sl in slots for a in sl if a >= 0)
    advancements.update(FERTILE_SOIL)
    vales = {v for v in s.vale_up if v >= 0}
    vales.update(v for owned in s.vales for v in owned)
    lines = [KEY_LINE, "Advancements on the table:"]
    lines += [f"  {advancement_text(a)}" for a in sorted(advancements)]
    lines.append("Vales on the table:")
    lines += [f"  {vale_text(v)}" for v in sorted(vales)]
    return "\n".join(lines)


# --- the actions, as the mover and as the table hear them -----------------------------------------
def symbols_words(sym: tuple[int, ...]) -> str:
    """``1 decay, 2 guardian, 1 animal`` (empty: ``no symbols``)."""
    return ", ".join(f"{k} {name}" for name, k in zip(SYMBOL_NAMES, sym, strict=True) if k) or "no symbols"


def advancement_offer(a: int) -> str:
    """``Stag (level 2, cost 4, top: 1 decay, 2 guardian, 1 animal)``, with its VP if any."""
    adv = ADVANCEMENTS[a]
    vp = "".join(
        (
            f", {adv.harvest_vp} VP each harvest" if adv.harvest_vp else "",
            f", {adv.end_vp} VP at the end" if adv.end_vp else "",
        )
    )
    slot = f"{SLOT_NAMES[adv.slot]}: {symbols_words(adv.symbols)}"
    return f"{adv.name} (level {adv.level}, cost {adv.cost}, {slot}{vp})"


def vale_offer(v: int) -> str:
    """``World Tree (level 1, cost 1 animal, 1 forest, 3 VP)``."""
    vale = VALES[v]
    return f"{vale.name} (level {vale.level}, cost {_cost_words(v)}, {vale.end_vp} VP)"


def card_label(s: ValeState, q: int, c: int) -> str:
    """``card #3 (Fertile Soil / - / -)``: a card by index and the names in its three slots."""
    names = [ADVANCEMENTS[a].name if a >= 0 else "-" for a in s.slots[q][c]]
    return f"card #{c} ({'blank' if names == ['-'] * 3 else ' / '.join(names)})"


# The When Played choice each phase resolves (the ability is found on the card by its op, as the
# engine finds it, never by a card's name).
WHEN_PLAYED_OPS = {WP_DISCARD: DISCARD_FROM_FIELD, PEEK: PEEK_TOP, SEARCH: SEARCH_DECK}


def when_played_source(s: ValeState) -> str:
    """The advancement on the card being played whose When Played choice is open."""
    op = WHEN_PLAYED_OPS.get(s.phase)
    for a in s.slots[s.active][s.wp_card] if s.wp_card >= 0 else ():
        if a >= 0 and any(e.op == op for e in ADVANCEMENTS[a].ability.effects):
            return ADVANCEMENTS[a].name
    return "its When Played ability"


def _redraw_source(s: ValeState) -> tuple[str, int]:
    """The Peacekeeper Druid (an advancement with the redraw, on a field card not yet used)."""
    q = s.active
    for c in s.field[q]:
        if s.prof[q][c].redraw and c not in s.redraw_cards:
            for a in s.slots[q][c]:
                if a >= 0 and any(e.op == REDRAW_ON_DECK for e in ADVANCEMENTS[a].ability.effects):
                    return ADVANCEMENTS[a].name, c
    return "a redraw", -1


def _vale_with(s: ValeState, table: tuple[int, ...]) -> str:
    return next((VALES[v].name for v in s.active_vales() if table[v]), "a vale")


def _price(s: ValeState, a: int) -> tuple[str, str]:
    """What buying ``a`` now costs (full price, or only on an Earthchant Chorus card)."""
    cost = ADVANCEMENTS[a].cost
    full, cards = s._buy_options(a, split=True)
    if full:
        price = f"for {cost} mana"
        token = cost > s.mana_left()
        if cards:
            price += " (less on an Earthchant Chorus card)"
        return price + (", spending your mana token" if token else ""), price + (
            ", spending their mana token" if token else ""
        )
    if not cards:  # not buyable now (a label asked for anyway): the printed cost
        return f"for {cost} mana", f"for {cost} mana"
    least = min(max(0, cost - s.prof[s.active][c].discount) for c in cards)
    price = f"for {least} mana on an Earthchant Chorus card"
    return price, price


def _phrase(s: ValeState, a: int) -> tuple[str, str] | None:
    """(the mover's imperative, the table's third person) for ``a`` in this phase; None if ``a``
    is no action of this phase. The third person holds only what the table learns."""
    q, ph = s.active, s.phase
    if CARD <= a < DISCARD_PEEKED:
        c = a - CARD
        card = card_label(s, q, c)
    if ph == PLANT:
        if a == PASS:
            return "pass: end planting and harvest", "passes: ends planting and harvests"
        if a == PUSH and s.on_deck[q] >= 0:
            card = card_label(s, q, s.on_deck[q])
            return f"push: play the on-deck {card}", f"pushes: plays the on-deck {card}"
        if a == CONCLAVE:
            return CONCLAVE_USE
        return None
    if ph == WP_DISCARD:
        src = when_played_source(s)
        if a == DONE:
            return f"discard nothing ({src})", f"discards nothing ({src})"
        if CARD <= a < DISCARD_PEEKED:
            return f"discard field {card} ({src})", f"discards field {card} ({src})"
        return None
    if ph == PEEK and s.deck[q]:
        top = card_label(s, q, s.deck[q][-1])
        src = when_played_source(s)
        if a == DONE:
            return (
                f"put {top} back on top of your deck ({src})",
                f"puts the card seen back on top of their deck ({src})",
            )
        if a == DISCARD_PEEKED:
            return (
                f"discard {top} from the top of your deck ({src})",
                f"discards the top card of their deck ({src})",
            )
        return None
    if ph == SEARCH:
        src = when_played_source(s)
        if a == DONE:
            return (
                f"discard nothing from your deck, then shuffle it ({src})",
                f"discards nothing from their deck and shuffles it ({src})",
            )
        if CARD <= a < DISCARD_PEEKED:
            return (
                f"discard {card} from your deck, then shuffle it ({src})",
                f"discards a card from their deck and shuffles it ({src})",
            )
        return None
    if ph == WOULD_SPOIL:
        od = card_label(s, q, s.on_deck[q]) if s.on_deck[q] >= 0 else "on-deck card"
        if a == DONE:
            if s.stage == PREPPING:
                return (
                    "accept the spoil: skip your next harvest; your mana token turns active",
                    "spoils in prep: skips their next harvest; their mana token turns active",
                )
            return (
                "accept the spoil: no harvest this turn; your mana token turns active",
                "spoils: no harvest this turn; their mana token turns active",
            )
        if a == REDRAW_DRUID:
            src, c = _redraw_source(s)
            on = f" on card #{c}" if c >= 0 else ""
            return (
                f"{src}{on}: discard the on-deck {od} and reveal another",
                f"uses {src}{on}: discards the on-deck {od} and reveals another",
            )
        if a == REDRAW_VALE:
            src = _vale_with(s, VALE_REDRAW)
            return (
                f"{src}: discard the on-deck {od} and reveal another",
                f"uses {src}: discards the on-deck {od} and reveals another",
            )
        if a == SACRIFICE:
            src = _vale_with(s, VALE_SACRIFICE)
            return (
                f"return {src} to the box for 1 growth against the spoil",
                f"returns {src} to the box for 1 growth against the spoil",
            )
        if a == CONCLAVE:
            return CONCLAVE_USE
        return None
    if ph == CONCLAVE_TARGET and CARD <= a < DISCARD_PEEKED:
        where = "on-deck" if c == s.on_deck[q] else "field"
        return (
            f"+1 guardian on {where} {card} (Conclave of Ents)",
            f"puts +1 guardian on {where} {card} (Conclave of Ents)",
        )
    if ph == HARVEST:
        return _harvest_phrase(s, a)
    if ph == DECLARE and s.pending_buy is not None:
        adv = ADVANCEMENTS[s.pending_buy[1]]
        if a == DONE:
            return (
                f"pay the full price for {adv.name}: {adv.cost} mana",
                f"pays the full price for {adv.name}: {adv.cost} mana",
            )
        if CARD <= a < DISCARD_PEEKED:
            price = max(0, adv.cost - s.prof[q][c].discount)
            return (
                f"declare field {card} (Earthchant Chorus): {adv.name} for {price} mana, sleeved there",
                f"declares field {card} (Earthchant Chorus): {adv.name} for {price} mana, sleeved there",
            )
        return None
    if ph == SLEEVE and CARD <= a < DISCARD_PEEKED and s.sleeve_index < len(s.bought):
        adv = ADVANCEMENTS[s.bought[s.sleeve_index][0]]
        what = f"{adv.name} ({SLOT_NAMES[adv.slot]})"
        return f"sleeve {what} on field {card}", f"sleeves {what} on field {card}"
    return None


CONCLAVE_USE = (
    "use Conclave of Ents: +1 guardian on a card of yours",
    "uses Conclave of Ents: +1 guardian on a card of theirs",
)


def _harvest_phrase(s: ValeState, a: int) -> tuple[str, str] | None:
    if a == DONE:
        return (
            f"done: end the harvest (gain {s.h_vp} VP), then sleeve what you bought",
            f"ends the harvest (gains {s.h_vp} VP)",
        )
    if a == CONCLAVE:
        return CONCLAVE_USE
    if BUY_COMMONS <= a < BUY_FERTILE:
        adv = s.commons[a - BUY_COMMONS]
        if adv < 0:
            return None
        mine, theirs = _price(s, adv)
        return f"buy {advancement_offer(adv)} {mine}", f"buys {advancement_offer(adv)} {theirs}"
    if BUY_FERTILE <= a < BUY_VALE:
        slot = a - BUY_FERTILE
        adv = FERTILE_SOIL[slot]
        mine, theirs = _price(s, adv)
        left = f"; {s.fertile[slot]} left"
        return (
            f"buy Fertile Soil ({SLOT_NAMES[slot]}: 1 mana{left}) {mine}",
            f"buys Fertile Soil ({SLOT_NAMES[slot]}: 1 mana{left}) {theirs}",
        )
    if BUY_VALE <= a < SUNSTONE:
        v = s.vale_up[a - BUY_VALE]
        if v < 0:
            return None
        return f"buy vale {vale_offer(v)}", f"buys vale {vale_offer(v)}"
    if SUNSTONE <= a < NUM_ACTIONS:
        if not s.sunstone_left():  # no Sunstone Aerie of this seat's to use: nothing to price
            return None
        spirit = SPIRIT_NAMES[a - SUNSTONE]
        price = s.sunstone_price()
        return (
            f"use Sunstone Aerie: pay {price} mana and count one {spirit} spirit as wild this turn",
            f"uses Sunstone Aerie: pays {price} mana and counts one {spirit} spirit as wild this turn",
        )
    return None


def describe_action(s: ValeState, action: int, viewer: int | None = None, name: str | None = None) -> str:
    """``action``, about to be played in ``s``, as seat ``viewer`` hears it: the imperative with
    the cards named for the mover ("buy Stag (level 2, cost 4, top: ...) for 4 mana"), otherwise a
    sentence naming the mover (``name``, default ``player_<seat>``) with only what the table
    learns: the card a Calm Weather shows or a Cleansing Rain discards stays its owner's."""
    if not 0 <= action < NUM_ACTIONS or s.phase == GAME_OVER:
        return action_meaning(action)
    phrase = _phrase(s, action)
    if phrase is None:  # not an action of this phase: its plain meaning
        return action_meaning(action)
    mover = s.current_player
    if viewer == mover:
        return phrase[0]
    return f"{name or f'player_{mover}'} {phrase[1]}"
