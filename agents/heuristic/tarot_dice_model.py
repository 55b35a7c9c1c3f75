"""The dice model behind the Tarot Dice heuristic (``agents/heuristic/tarot_dice.py``).

``Model(state, seat)`` scores a position of the dice (their values, the numbered dice on the board,
the dice banished) at the start of the opponent's turn, as match value for ``seat`` (+1 a won
match): the chance of taking the round's last pair, by the number of pairs left, or of winning the
nightfall duel near the turn limit, and what the last pair is worth. ``Model.finish`` first plays
out the rest of the current turn's Planet phase (rolls weighed at a few representative faces). The
strategy it encodes is described in the heuristic's module docstring.

What it leaves out, for speed (each would multiply the faces weighed per roll): a modelled roll
ignores Libra's reroll of a repeated value, Pisces' rolls of the dice showing the same value and
Sagittarius's roll of the symbol dice; the Moon's Planet phase rerolls the Zodiac die in the model
(Virgo or not) but leaves the Planet die's face as it is.

It reads only what the seat sees: its own cards, the other's public ones and the number of the
other's hidden cards (as a chance they hold a King or a Page), the dice and the symbol dice.
"""

from __future__ import annotations

import math

from mystic_envs.tarot_dice.arcana import card_values, effect_kind
from mystic_envs.tarot_dice.cards import (
    AQUARIUS,
    ARIES,
    CANCER,
    CAPRICORN,
    DECK_SIZE,
    GEMINI,
    JUPITER,
    KING,
    KING_EFFECT,
    LEO,
    MARS,
    MERCURY,
    MOON,
    NEPTUNE,
    NORTH_NODE,
    NUM_NUMBERED,
    PAGE,
    PAGE_EFFECT,
    PLANET_DIE,
    PLUTO,
    QUEEN_EFFECT,
    RANKS_PER_SUIT,
    SATURN,
    SCORPIO,
    SOUTH_NODE,
    STRENGTH,
    SUN,
    TAURUS,
    TEMPERANCE,
    URANUS,
    VENUS,
    VIRGO,
    ZODIAC_DIE,
)
from mystic_envs.tarot_dice.dice import OWN_DICE, SIZE, TWIN, bits
from mystic_envs.tarot_dice.rules import TarotDiceState

# --- tuning -------------------------------------------------------------------------------------
RANK_WEIGHT = (1.0, 0.5, 0.3, 0.2, 0.15, 0.1)  # material: the largest die weighs most
MATERIAL_SCALE = 0.12  # logistic slope per point of weighted die size
FIX = 0.4  # chance a player without a safe capture breaks the opponent's next one
REPS = 4  # representative faces of a roll
LAST_TURN_EDGE = 0.75  # the duel's odds for the player taking the round's last turn (0.66 in balance)
STALL_COST = 0.02  # opening Virgo later rather than now leaves fewer turns to win by captures
LATENT = 0.35  # under Virgo, the weight of the captures it holds back (for the player who waits)
# Weight of the nightfall duel by the turns left after this one (D-3); the last turn is the duel.
NIGHTFALL_WEIGHT = {2: 0.85, 3: 0.6, 4: 0.45, 5: 0.35, 6: 0.25, 7: 0.18, 8: 0.12, 9: 0.08}

# --- tables -------------------------------------------------------------------------------------
_SIZES = (4, 6, 8, 10, 12, 20)


def _quantiles(probs: list[float], k: int) -> tuple[tuple[int, float], ...]:
    """``k`` equally weighted faces standing for a roll with ``probs`` (faces 1..len)."""
    out: dict[int, float] = {}
    cdf, face, acc = 0.0, 0, []
    for p in probs:
        cdf += p
        acc.append(cdf)
    for i in range(k):
        target = (i + 0.5) / k
        face = next(f for f, c in enumerate(acc) if c >= target - 1e-12)
        out[face + 1] = out.get(face + 1, 0.0) + 1.0 / k
    return tuple(out.items())


def _roll_table(k: int) -> dict[tuple[int, int], tuple[tuple[int, float], ...]]:
    table = {}
    for s in _SIZES:
        uniform = [1.0 / s] * s
        down = [0.0] * s
        up = [0.0] * s
        for f in range(s):
            down[max(0, f - 1)] += 1.0 / s
            up[min(s - 1, f + 1)] += 1.0 / s
        reps = min(k, s)
        table[s, 0] = _quantiles(uniform, reps)
        table[s, SCORPIO] = _quantiles(down, reps)
        table[s, CAPRICORN] = _quantiles(up, reps)
    return table


ROLL = _roll_table(REPS)
ROLL_SMALL = _roll_table(3)
# BEAT[sx][sy]: chance a fresh roll of a die of size sx shows more than one of size sy.
BEAT = {sx: {sy: sum(max(0, sx - y) for y in range(1, sy + 1)) / (sx * sy) for sy in _SIZES} for sx in _SIZES}


def _gt(sx: int, vx: int | None, sy: int, vy: int | None) -> float:
    """Chance die x ends above die y; ``None`` is a fresh roll."""
    if vx is None:
        if vy is None:
            return BEAT[sx][sy]
        return max(0, sx - vy) / sx
    if vy is None:
        return min(max(vx - 1, 0), sy) / sy
    return 1.0 if vx > vy else 0.0


def _can_capture(a: int, b: int, cancer: bool) -> bool:
    if a >= b:
        return True
    return cancer and (9 if a == 6 else a) >= (6 if b == 9 else b)


# --- what a player can do with its cards -------------------------------------------------------
class Kit:
    """A player's cards as flip tools: a King, a Page, a Queen, numbers, and for the opponent the
    chance that its hidden hand cards hold a King or a Page (``hidden``)."""

    __slots__ = ("hidden", "king", "nums", "page", "queen")

    def __init__(self, s: TarotDiceState, p: int, viewer: int) -> None:
        cards = [w[-1] for w in s.wells[p] if w]
        hand = s.hand[p] if p == viewer else []  # every Minor in the other's hand is hidden
        cards += hand
        kinds = [effect_kind(c) for c in cards]
        strength = bool(s.major_hand[p] >> STRENGTH & 1)
        self.king = strength or KING_EFFECT in kinds
        self.page = strength or PAGE_EFFECT in kinds
        self.queen = strength or QUEEN_EFFECT in kinds
        nums = 0
        temperance = bool(s.owned[p] >> TEMPERANCE & 1)
        for c in cards:
            for v in card_values(c):
                nums |= 1 << v
                if temperance:
                    nums |= (1 << (v - 1)) | (1 << (v + 1))
        self.nums = nums & 0b1_1111_1111_1110
        self.hidden = 0.0
        if p != viewer:
            secret = len(s.hand[p]) - len(hand)
            if secret:
                seen = set(cards) | set(s.graveyard[p])
                if s.sacrificed[p] >= 0:
                    seen.add(s.sacrificed[p])
                pool = [c for c in range(p * DECK_SIZE, (p + 1) * DECK_SIZE) if c not in seen]
                good = sum(1 for c in pool if c % RANKS_PER_SUIT in (KING, PAGE))
                f = good / len(pool) if pool else 0.0
                self.hidden = 1.0 - (1.0 - f) ** secret


# --- the model -----------------------------------------------------------------------------------
class Model:
    """The dice model of one decision of seat ``me`` (module docstring). Positions are
    ``(vals, board, ban)``: the 14 die values, the numbered dice on the board, and the dice banished
    during the opponent's coming turn."""

    def __init__(self, s: TarotDiceState, me: int) -> None:
        self.s = s
        self.me = me
        self.opp = 1 - me
        self.kits = (Kit(s, me, me), Kit(s, 1 - me, me))
        game = s.game
        self.final = s.rounds_done >= game.num_rounds - 1
        self.lead = s.points[me] - s.points[1 - me]
        self.planet_pending = s.planet_phase_pending()
        self.captured = s.captured_this_turn
        # The opponent's Knight and Hermit banishes hold until its next turn starts: they bind this
        # turn's rolls and Planet phase, not the opponent's coming turn that ``ban`` describes.
        self.turn_ban = s.knight_ban[1 - me]
        self.turn = s.turn_in_round
        self.limit = game.round_turn_limit
        self.second = 1 - s.round_starter  # wins the duel when every pair ties
        last = s.round_starter if (self.limit - 1) % 2 == 0 else 1 - s.round_starter
        self.last_turn_mine = last == me  # takes the round's last turn, before the duel
        self.memo: dict = {}
        self.v1memo: dict = {}
        self.v2memo: dict = {}
        self.vnmemo: dict = {}
        self.stakes: dict = {}
        self.finished: dict = {}

    # -- match value ------------------------------------------------------------------------------
    def stake(self, total: int, won: bool) -> float:
        """Match value of ending the round won (or lost) with a last pair worth ``total``."""
        if self.final:
            margin = self.lead + total if won else self.lead - total
            return 1.0 if margin > 0 else (-1.0 if margin < 0 else 0.0)
        # An earlier round: worth the chance the next round's last pair is smaller (D-2).
        f = min(1.0, max(0.05, (total - 8) / 32))
        return f if won else -f

    def utility(self, p_win: float, board: int) -> float:
        """Match value of winning the round with chance ``p_win``: each possible last pair weighted
        by the product of its dice's sizes (large dice last longer)."""
        stakes = self.stakes.get(board)
        if stakes is None:
            sm = [SIZE[d] for d in bits(board & OWN_DICE[self.me])]
            st = [SIZE[d] for d in bits(board & OWN_DICE[self.opp])]
            wm, wt = sum(sm), sum(st)
            win = lose = 0.0
            for a in sm:
                for b in st:
                    w = a * b / (wm * wt)
                    win += w * self.stake(a + b, True)
                    lose += w * self.stake(a + b, False)
            stakes = self.stakes[board] = (win, lose)
        return p_win * stakes[0] + (1.0 - p_win) * stakes[1]

    # -- positions at the start of the opponent's turn --------------------------------------------
    def static(self, vals: list[int], board: int, ban: int) -> float:
        planet, zodiac = vals[PLANET_DIE], vals[ZODIAC_DIE]
        sun = planet == SUN
        env = (
            sun or zodiac != VIRGO,
            not sun and zodiac == CANCER,
            not sun and zodiac == LEO,
            _planet_effect(planet, zodiac),
        )
        xs = tuple((SIZE[d], vals[d], not ban >> d & 1) for d in NUMBERED_BITS[board & OWN_DICE[self.opp]])
        ys = tuple((SIZE[d], vals[d], not ban >> d & 1) for d in NUMBERED_BITS[board & OWN_DICE[self.me]])
        key = (xs, ys, env, board)
        memo = self.memo
        out = memo.get(key)
        if out is None:
            out = memo[key] = self._static(vals, board, xs, ys, env)
        return out

    def _static(self, vals: list[int], board: int, xs: tuple, ys: tuple, env: tuple) -> float:
        left = self.limit - self.turn - 1  # turns still to play in the round after this one
        if left <= 0:
            won, points = self.duel(vals, board)
            return self.stake(points, won)
        masks = ((board >> (6 * self.opp)) & 63, (board >> (6 * self.me)) & 63)
        # Under Virgo the player who opens it needs only the values with captures allowed.
        p_opp = self.value(xs, ys, 1, env, masks) if env[0] or self.last_turn_mine else 0.0
        if left == 1 and p_opp < 1.0:
            # The opponent's turn is the last: unless it takes the last pair, the duel decides.
            won, points = self.duel(vals, board)
            q = self.duel_flip(vals, board, self.opp, env)
            p = 1.0 - q if won else 0.0
            return p * self.stake(points, True) + (1.0 - p) * self.stake(points, False)
        edge = LAST_TURN_EDGE if self.last_turn_mine else 1.0 - LAST_TURN_EDGE
        if env[0]:
            p = 1.0 - p_opp
        else:
            # Virgo: nobody captures until a player turns it away, which hands the other player the
            # first capture. Left alone, the round ends in the duel, where the player with the last
            # turn has the edge; so the other one opens, as soon as it can.
            open_env = (True, *env[1:])
            opp_first = self.value(xs, ys, 1, open_env, masks)
            if self.last_turn_mine:
                # Waiting suits this player: it keeps its dice out of reach of the captures that
                # opening would bring, and high for the duel.
                p = 1.0 - ((1.0 - LATENT) * p_opp + LATENT * opp_first)
            else:
                me_first = self.value(ys, xs, 0, open_env, (masks[1], masks[0]))
                p = min(me_first, max(1.0 - opp_first - STALL_COST, edge))
        u = self.utility(p, board)
        w = NIGHTFALL_WEIGHT.get(left, 0.0)
        if not w:
            return u
        won, points = self.duel(vals, board)
        if left == 2:
            # The opponent acts, then this player takes the round's last turn.
            mine = self.duel_flip(vals, board, self.me, env)
            if won:
                qo = self.duel_flip(vals, board, self.opp, env)
                p = (1.0 - qo) + qo * mine
            else:
                p = mine
        else:
            p = 0.5 * (won + edge)
        un = p * self.stake(points, True) + (1.0 - p) * self.stake(points, False)
        return (1.0 - w) * u + w * un

    def duel(self, vals: list[int], board: int) -> tuple[bool, int]:
        """The nightfall duel on these dice (D-3): (this player wins, the points)."""
        lines = []
        for p in (self.me, self.opp):
            dice = bits(board & OWN_DICE[p])
            dice.sort(key=lambda d: (vals[d], SIZE[d]), reverse=True)
            lines.append(dice)
        for a, b in zip(lines[0], lines[1], strict=True):
            if vals[a] != vals[b]:
                return vals[a] > vals[b], SIZE[a] + SIZE[b]
        return self.me == self.second, SIZE[lines[0][0]] + SIZE[lines[1][0]]

    def duel_flip(self, vals: list[int], board: int, who: int, env: tuple) -> float:
        """Chance seat ``who``, to move, ends its turn ahead in the duel: its top die (or its
        largest, pumped) against the other's top die."""
        mine = bits(board & OWN_DICE[who])
        theirs = bits(board & OWN_DICE[1 - who])
        top = max(mine, key=lambda d: (vals[d], SIZE[d]))
        big = mine[-1]
        other = max(theirs, key=lambda d: (vals[d], SIZE[d]))
        k = 0 if who == self.me else 1
        q = self.flip(SIZE[top], vals[top], SIZE[other], vals[other], k, env)[0]
        if big != top:
            q = max(q, self.flip(SIZE[big], vals[big], SIZE[other], vals[other], k, env)[0])
        return q

    def value(self, xs: tuple, ys: tuple, who: int, env: tuple, masks: tuple[int, int]) -> float:
        """Chance the player to move (``who``: 0 me, 1 the opponent), with dice ``xs`` against
        ``ys`` (their sizes as bit masks ``masks``), wins the round."""
        n = len(xs)
        if n == 1:
            return self.v1(xs[0], ys[0], who, env)
        if n == 2:
            return self.v2(xs, ys, who, env)
        return self.vn(xs, ys, who, env, masks)

    def v1(self, x: tuple, y: tuple, who: int, env: tuple) -> float:
        key = (x, y, who, env)
        memo = self.v1memo
        if key in memo:
            return memo[key]
        cap_ok, cancer = env[0], env[1]
        if cap_ok and x[2] and y[2] and _can_capture(x[1], y[1], cancer):
            out = 1.0
        else:
            qx, xa, ya = self.flip(x[0], x[1], y[0], y[1], who, env)
            qy = self.flip(y[0], ya, x[0], xa, 1 - who, env)[0]
            out = qx * (1.0 - qy) / (1.0 - qx * qy) if qx * qy < 1.0 else 0.5
        memo[key] = out
        return out

    def flip(self, sx: int, vx: int, sy: int, vy: int, who: int, env: tuple) -> tuple[float, int, int]:
        """(chance the mover ends its turn with its die strictly higher, its value then, the other's)."""
        kit = self.kits[who]
        leo, planet = env[2], env[3]
        lock_x = leo and vx >= vy
        lock_y = leo and vy >= vx
        options: list[tuple[int | None, int | None]] = []
        if vx > vy:
            options.append((vx, vy))  # already ahead (Virgo or a banish held the capture back)
        if not lock_x:
            options.append((None, vy))
            if kit.king:
                options.append((sx, vy))
            top = kit.nums & ((1 << (sx + 1)) - 1)
            if top:
                v = top.bit_length() - 1
                if v > vy:
                    options.append((v, vy))
        if not lock_y:
            options.append((vx, None))
            if kit.page:
                options.append((vx, 1))
            low = kit.nums & ((1 << min(vx, sy + 1)) - 1)
            if low:
                options.append((vx, (low & -low).bit_length() - 1))
        best, bx, by = 0.0, vx, vy
        reroll = 0.0
        for ox, oy in options:
            q = self.planet_gt(sx, ox, sy, oy, planet, leo)
            if ox is None or oy is None:
                reroll = max(reroll, q)
            if q > best:
                best, bx, by = q, ox, oy
        if kit.queen and reroll > 0.0:
            q = 1.0 - (1.0 - reroll) ** 2
            if q > best:
                best = q
        if kit.hidden:
            best += (1.0 - best) * kit.hidden
        if bx is None:
            bx = (max(vy, by or 0) + 1 + sx) // 2
        if by is None:
            by = max(1, vx // 2)
        return best, bx, by

    @staticmethod
    def planet_gt(sx: int, vx: int | None, sy: int, vy: int | None, planet: int, leo: bool) -> float:
        """``_gt`` after the mover's Planet phase (one pair left)."""
        if planet:
            lx = leo and vx is not None and (vy is None or vx >= vy)
            ly = leo and vy is not None and (vx is None or vy >= vx)
            if planet == VENUS:
                vx = vx if lx else None
            elif planet == MARS:
                vy = vy if ly else None
            elif planet in (MERCURY, JUPITER):
                small = min(sx, sy) if planet == MERCURY else max(sx, sy)
                if sx == small and not lx:
                    vx = None
                if sy == small and not ly:
                    vy = None
            elif planet == SOUTH_NODE:
                if vx is not None and vx <= 2 and not lx:
                    vx = None
                if vy is not None and vy <= 2 and not ly:
                    vy = None
            elif planet == NORTH_NODE:
                if vx == sx and not lx:
                    vx = None
                if vy == sy and not ly:
                    vy = None
            elif planet == PLUTO:
                if vx is not None and vx % 2 == 0 and not lx:
                    vx //= 2
                if vy is not None and vy % 2 == 0 and not ly:
                    vy //= 2
            elif planet == SATURN:
                if vx is not None and vx % 2 and not lx:
                    vx += 1
                if vy is not None and vy % 2 and not ly:
                    vy += 1
        return _gt(sx, vx, sy, vy)

    def v2(self, xs: tuple, ys: tuple, who: int, env: tuple) -> float:
        key = (xs, ys, who, env)
        out = self.v2memo.get(key)
        if out is None:
            out = self.v2memo[key] = self._v2(xs, ys, who, env)
        return out

    def _v2(self, xs: tuple, ys: tuple, who: int, env: tuple) -> float:
        cap_ok, cancer = env[0], env[1]
        best = -1.0
        if cap_ok:
            for i in (0, 1):
                if not xs[i][2]:
                    continue
                for j in (0, 1):
                    if ys[j][2] and _can_capture(xs[i][1], ys[j][1], cancer):
                        x, y = xs[1 - i], ys[1 - j]
                        v = 1.0 - self.v1((y[0], y[1], True), (x[0], x[1], True), 1 - who, env)
                        if v > best:
                            best = v
        neutral = _material(ys, xs)
        threat = neutral
        if cap_ok:
            for i in (0, 1):
                for j in (0, 1):
                    if _can_capture(ys[j][1], xs[i][1], cancer):
                        x, y = xs[1 - i], ys[1 - j]
                        v = 1.0 - self.v1((x[0], x[1], True), (y[0], y[1], True), who, env)
                        if v > threat:
                            threat = v
        passing = 1.0 - (FIX * neutral + (1.0 - FIX) * threat)
        return max(best, passing)

    def vn(self, xs: tuple, ys: tuple, who: int, env: tuple, masks: tuple[int, int]) -> float:
        # With four pairs or more only captures and Cancer count, not the Planet die or Leo.
        key = (xs, ys, who, env if len(xs) == 3 else env[:2])
        out = self.vnmemo.get(key)
        if out is None:
            out = self.vnmemo[key] = self._vn(xs, ys, who, env, masks)
        return out

    def _vn(self, xs: tuple, ys: tuple, who: int, env: tuple, masks: tuple[int, int]) -> float:
        cap_ok, cancer = env[0], env[1]
        n = len(xs)
        mx, my = masks
        best = -1.0
        if cap_ok:
            for i, j in _captures(xs, ys, cancer, n == 3):
                if n == 3:
                    rx = tuple((s, v, True) for s, v, _ in xs[:i] + xs[i + 1 :])
                    ry = tuple((s, v, True) for s, v, _ in ys[:j] + ys[j + 1 :])
                    v = 1.0 - self.v2(ry, rx, 1 - who, env)
                else:
                    v = 1.0 - MATERIAL[my & ~(1 << _SIZE_INDEX[ys[j][0]])][mx & ~(1 << _SIZE_INDEX[xs[i][0]])]
                if v > best:
                    best = v
        neutral = MATERIAL[my][mx]
        threat = neutral
        if cap_ok:
            for j, i in _captures(ys, xs, cancer, False, banish=False):
                v = 1.0 - MATERIAL[mx & ~(1 << _SIZE_INDEX[xs[i][0]])][my & ~(1 << _SIZE_INDEX[ys[j][0]])]
                if v > threat:
                    threat = v
        passing = 1.0 - (FIX * neutral + (1.0 - FIX) * threat)
        return max(best, passing)

    # -- the rest of this turn --------------------------------------------------------------------
    def finish(self, vals: list[int], board: int, ban: int, captured: bool | None = None) -> float:
        """Expected value of a position reached during this turn: the Planet phase still to come
        (if it is), then the opponent's turn."""
        if not self.planet_pending:
            return self.static(vals, board, ban)
        if captured is None:
            captured = self.captured
        key = (tuple(vals), board, ban, captured)
        out = self.finished.get(key)
        if out is None:
            out = self.finished[key] = self._finish(vals, board, ban, captured)
        return out

    def _finish(self, vals: list[int], board: int, ban: int, captured: bool) -> float:
        planet, zodiac = vals[PLANET_DIE], vals[ZODIAC_DIE]
        if zodiac == TAURUS and planet != SUN:
            return self.static(vals, board, ban)
        if zodiac == ARIES and planet != SUN and not captured:
            return self.static(vals, board, ban)
        active = board & ~(ban | self.turn_ban)
        if planet in (MARS, VENUS):
            side = OWN_DICE[self.opp] if planet == MARS else OWN_DICE[self.me]
            dice = bits(self._changeable(vals, board, active) & side)
            if not dice:
                return self.static(vals, board, ban)
            if len(dice) > 2:
                # Beyond two choices, the die with the most to change: Venus the own die showing
                # least for its size, Mars the opponent's showing most.
                sign = 1 if planet == MARS else -1
                dice = [max(dice, key=lambda d: (sign * vals[d] / SIZE[d], SIZE[d]))]
            return max(self.rolled(vals, board, ban, d, False) for d in dice)
        if planet == MOON:
            v = list(vals)
            v[ZODIAC_DIE] = VIRGO
            virgo = self.static(v, board, ban)
            v[ZODIAC_DIE] = GEMINI  # a face the model gives no standing effect
            return virgo / 12 + 11 * self.static(v, board, ban) / 12
        if planet in (MERCURY, JUPITER, SOUTH_NODE, NORTH_NODE):
            ds = bits(active)
            if planet in (MERCURY, JUPITER):
                # The size is read over the board, banished dice included (I-9); they do not roll.
                sizes = [SIZE[d] for d in bits(board)]
                if not sizes:
                    return self.static(vals, board, ban)
                want = min(sizes) if planet == MERCURY else max(sizes)
                ds = [d for d in ds if SIZE[d] == want]
            elif planet == SOUTH_NODE:
                ds = [d for d in ds if vals[d] <= 2]
            else:
                ds = [d for d in ds if vals[d] == SIZE[d]]
            ch = self._changeable(vals, board, active)
            ds = [d for d in ds if ch >> d & 1]
            return self.rolled_many(vals, board, ban, ds)
        if planet in (PLUTO, SATURN):
            v = list(vals)
            for d in bits(self._changeable(vals, board, board)):  # banished dice change too (I-10)
                if planet == PLUTO and v[d] % 2 == 0:
                    v[d] //= 2
                elif planet == SATURN and v[d] % 2 == 1:
                    v[d] += 1
            return self.static(v, board, ban)
        return self.static(vals, board, ban)

    def _changeable(self, vals: list[int], board: int, active: int) -> int:
        """The dice of ``active`` that Leo leaves free: it locks the highest on the board (I-13)."""
        if vals[ZODIAC_DIE] != LEO or vals[PLANET_DIE] == SUN:
            return active
        top = max((vals[d] for d in bits(board)), default=0)
        return active & ~sum(1 << d for d in bits(board) if vals[d] == top)

    def _roll_faces(self, vals: list[int], d: int, table: dict) -> tuple:
        zodiac = vals[ZODIAC_DIE] if vals[PLANET_DIE] != SUN else 0
        mod = zodiac if zodiac in (SCORPIO, CAPRICORN) else 0
        return table[SIZE[d], mod]

    def rolled(self, vals: list[int], board: int, ban: int, d: int, then_planet: bool) -> float:
        """Expected value after rolling die ``d`` (with the Zodiac's effect on the roll)."""
        if d in (PLANET_DIE, ZODIAC_DIE):
            return self.symbol_rolled(vals, board, ban, d, then_planet)
        changeable = self._changeable(vals, board, board & ~(ban | self.turn_ban))
        if not changeable >> d & 1:
            return self.finish(vals, board, ban) if then_planet else self.static(vals, board, ban)
        zodiac = vals[ZODIAC_DIE] if vals[PLANET_DIE] != SUN else 0
        dice = [d]
        if zodiac == GEMINI and changeable >> TWIN[d] & 1:
            dice.append(TWIN[d])
        if len(dice) == 1:
            total = 0.0
            v = list(vals)
            for face, w in self._roll_faces(vals, d, ROLL):
                v[d] = face
                total += w * (self.finish(v, board, ban) if then_planet else self.static(v, board, ban))
            return total
        return self.rolled_many(vals, board, ban, dice, then_planet)

    def rolled_many(
        self, vals: list[int], board: int, ban: int, dice: list[int], then_planet: bool = False
    ) -> float:
        score = self.finish if then_planet else self.static
        if not dice:
            return score(vals, board, ban)
        v = list(vals)
        # Beyond two dice the rest stand at their middle face: the spread of two is enough to rank.
        # Own dice first, so the two are the same for either seat (die order would pick player_0's).
        if len(dice) > 2:
            dice = sorted(dice, key=lambda d: not OWN_DICE[self.me] >> d & 1)
        for d in dice[2:]:
            v[d] = (SIZE[d] + 1) // 2
        if len(dice) == 1:
            table = self._roll_faces(vals, dice[0], ROLL)
            total = 0.0
            for face, w in table:
                v[dice[0]] = face
                total += w * score(v, board, ban)
            return total
        a, b = dice[0], dice[1]
        total = 0.0
        for fa, wa in self._roll_faces(vals, a, ROLL_SMALL):
            v[a] = fa
            for fb, wb in self._roll_faces(vals, b, ROLL_SMALL):
                v[b] = fb
                total += wa * wb * score(v, board, ban)
        return total

    def symbol_rolled(self, vals: list[int], board: int, ban: int, d: int, then_planet: bool) -> float:
        total = 0.0
        for face in range(1, 13):
            total += self.symbol_set(vals, board, ban, d, face, then_planet, rolled=True) / 12
        return total

    def symbol_set(
        self,
        vals: list[int],
        board: int,
        ban: int,
        d: int,
        face: int,
        then_planet: bool,
        rolled: bool = False,
    ) -> float:
        """Value after the Planet or Zodiac die comes to show ``face`` (Uranus, Neptune and a rolled
        Aquarius ask this player to choose)."""
        v = list(vals)
        v[d] = face
        score = self.finish if then_planet else self.static
        if d == PLANET_DIE and face == vals[d] and not rolled:
            return score(v, board, ban)  # set to the face it shows: nothing appears (I-17)
        if d == PLANET_DIE:
            ban &= ~self.s.neptune_ban
            negated = v[ZODIAC_DIE] == TAURUS and face != SUN
            if not negated and face == URANUS:
                return max(
                    self.symbol_set(vals, board, ban, d, f, then_planet) for f in range(1, 13) if f != URANUS
                )
            if not negated and face == NEPTUNE:
                dice = bits(board)  # Neptune is no card: a banished die may be banished again (I-7)
                if dice:
                    return max(score(v, board, ban | 1 << b) for b in dice)
            return score(v, board, ban)
        if face == TAURUS and v[PLANET_DIE] != SUN:
            ban &= ~self.s.neptune_ban
        if rolled and face == AQUARIUS and v[PLANET_DIE] != SUN:
            return max(
                self.symbol_set(vals, board, ban, d, f, then_planet) for f in range(1, 13) if f != AQUARIUS
            )
        return score(v, board, ban)


def _planet_effect(planet: int, zodiac: int) -> int:
    """The Planet face acting at the end of the coming turns, 0 if none (Taurus; Aries without a
    capture, which a flip is not)."""
    if planet == SUN:
        return 0
    if zodiac in (TAURUS, ARIES):
        return 0
    return planet


def _material(xs: tuple, ys: tuple) -> float:
    """Chance the player with dice ``xs`` (to move) beats ``ys`` when no capture decides."""
    return MATERIAL[sum(1 << _SIZE_INDEX[s] for s, _, _ in xs)][sum(1 << _SIZE_INDEX[s] for s, _, _ in ys)]


def _material_table() -> list[list[float]]:
    """MATERIAL[x][y]: ``_material`` for the sets of die sizes ``x`` and ``y`` (bit k: size k):
    the dice sorted by size, the largest weighing most, through a logistic."""
    table = []
    for x in range(64):
        row = []
        sx = sorted((_SIZES[k] for k in range(6) if x >> k & 1), reverse=True)
        for y in range(64):
            sy = sorted((_SIZES[k] for k in range(6) if y >> k & 1), reverse=True)
            diff = sum(RANK_WEIGHT[k] * (a - b) for k, (a, b) in enumerate(zip(sx, sy, strict=False)))
            row.append(1.0 / (1.0 + math.exp(-MATERIAL_SCALE * diff)))
        table.append(row)
    return table


_SIZE_INDEX = {s: k for k, s in enumerate(_SIZES)}
MATERIAL = _material_table()
NUMBERED_BITS = tuple(tuple(bits(m)) for m in range(1 << NUM_NUMBERED))  # bits() of a set of numbered dice


def _captures(xs: tuple, ys: tuple, cancer: bool, every: bool, banish: bool = True) -> list[tuple[int, int]]:
    """Captures (i, j) the mover (dice ``xs``) can make; unless ``every``, for each target only the
    smallest die able to take it (a larger one would only lose more). ``banish=False`` ignores
    banishes (they will have ended by the turn considered)."""
    out = []
    for j, (_, vy, ay) in enumerate(ys):
        if banish and not ay:
            continue
        for i, (_, vx, ax) in enumerate(xs):
            if (ax or not banish) and (vx >= vy or (cancer and _can_capture(vx, vy, True))):
                out.append((i, j))
                if not every:
                    break
    return out


__all__ = ["Kit", "Model"]
