"""What a Mystic Vale move caused, as one seat may know it (``mystic_envs.core.narration``).

The harvest a planting ends in (the mana, spirits and VP tokens of the field and the vales, with
the Harvest abilities and vales that gave them), the VP tokens taken when the Harvest ends,
spoils, which no action names (a push that spoils is decided by the card revealed), harvests
skipped after a spoil in prep, and the end of the game. The field is face up, so every seat sees
what a harvest yields.
"""

from __future__ import annotations

from mystic_envs.core.narration import Teller
from mystic_envs.mystic_vale.cards import ADVANCEMENTS, HARVEST, SPIRIT_NAMES, VALES
from mystic_envs.mystic_vale.decisions import GAME_OVER, HARVESTING, PLANTING, WOULD_SPOIL
from mystic_envs.mystic_vale.rules import ValeState


def events(
    before: ValeState, after: ValeState, viewer: int | None = None, names: list[str] | None = None
) -> list[str]:
    """What the action between ``before`` and ``after`` caused, one sentence a line, as seat
    ``viewer`` (None: an onlooker) may know it; ``names[q]`` names seat ``q``."""
    who = Teller(viewer, names)
    out = []
    q = before.active
    if before.phase == GAME_OVER:
        return out
    # A planting that ends without its Harvest spoiled; accepting a would-spoil is named already.
    planting_on = after.active == q and after.stage in (PLANTING, HARVESTING)
    if before.stage == PLANTING and before.phase != WOULD_SPOIL and not planting_on:
        out.append(f"{who(q)} spoiled: no harvest this turn, and the mana token is active.")
    for p in range(len(before.skip_harvest)):
        if after.skip_harvest[p] and not before.skip_harvest[p]:
            out.append(f"{who(p)} spoiled in prep: the next harvest is skipped; the mana token is active.")
        elif before.skip_harvest[p] and not after.skip_harvest[p]:
            out.append(f"{who.verb(p, 'skips', 'skip')} this turn's harvest, having spoiled in prep.")
    if before.stage != HARVESTING and after.stage == HARVESTING and after.active == q:
        out.append(_harvest(after, q, who))
    gained = [after.tokens[p] - before.tokens[p] for p in range(len(after.tokens))]
    for p, x in enumerate(gained):
        if x:
            s = "" if x == 1 else "s"
            out.append(f"{who.verb(p, 'takes', 'take')} {x} VP token{s} ({after.pool} left in the pool).")
    if after.phase == GAME_OVER:
        scores = ", ".join(f"{who(p, False)} {after.scores()[p]:g}" for p in range(len(after.tokens)))
        out.append(f"The game is over; final VP: {scores}.")
    return out


def _harvest(s: ValeState, q: int, who: Teller) -> str:
    spirits = ", ".join(f"{n} {SPIRIT_NAMES[k]}" for k, n in enumerate(s.h_spirits) if n)
    sources = []
    for c in s.field[q]:
        for a in s.slots[q][c]:
            if a >= 0 and ADVANCEMENTS[a].ability.trigger == HARVEST:
                sources.append(ADVANCEMENTS[a].name)
    sources += [VALES[v].name for v in s.active_vales(q) if VALES[v].ability.trigger == HARVEST]
    used = f"; abilities: {', '.join(sources)}" if sources else ""
    vp = f"{s.h_vp} VP token{'' if s.h_vp == 1 else 's'}"
    return (
        f"{who.verb(q, 'harvests', 'harvest')} {s.h_mana} mana, spirits: {spirits or 'none'}, "
        f"{vp} at the end of the Harvest{used}."
    )
