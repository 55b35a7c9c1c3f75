"""The one generator of chance that the Python engines and their compiled twins share.

Every shuffle, die and coin of a game is drawn from :class:`Rng`, and ``mystic_envs/core/c/rng.h``
is the same generator in C, so that a seeded game is the same game on both engines
(CONVENTIONS section 8). It is small on purpose, so that both implementations can be read side by
side and checked against the table of known outputs in ``tests/core/test_rng.py``:

- **The stream** is SplitMix64 (Steele, Lea and Flood, 2014; the seeder of the xoshiro family):
  a 64-bit state that the golden-ratio constant advances, and each output is that state passed
  through a fixed mixing function. It passes BigCrush, needs no warm-up and takes any 64-bit seed.
- **An integer below n** (``below``, 1 <= n <= 2**32) is Lemire's multiply-and-shift on the top
  32 bits of an output, with rejection of the few low products that would bias it, so every value
  is equally likely.
- **A shuffle** is Fisher-Yates from the last position down (position ``i`` swaps with
  ``below(i + 1)``); ``sample(n, k)`` is the forward partial shuffle, ``k`` draws for ``k`` items.
- **A real in [0, 1)** is the top 53 bits of an output times 2**-53.

Seeds are integers 0 <= seed < 2**64; a state pickles and copies as one integer.
"""

from __future__ import annotations

import secrets
from typing import Any

from mystic_envs.core.game import is_integer

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def check_seed64(seed: Any, name: str = "seed") -> int:
    """``seed`` as an int in [0, 2**64): ``TypeError`` unless an integer, ``ValueError`` outside."""
    if not is_integer(seed):
        raise TypeError(f"{name} must be an integer 0 <= {name} < 2**64, got {seed!r}")
    if not 0 <= seed <= MASK64:
        raise ValueError(f"{name} must be an integer 0 <= {name} < 2**64, got {seed!r}")
    return int(seed)


def fresh_seed() -> int:
    """A 64-bit seed from the operating system, for games that were given none."""
    return secrets.randbits(64)


class Rng:
    """SplitMix64 with unbiased bounded integers, shuffles and reals (see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = check_seed64(seed)

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> int:
        return self.state

    def __setstate__(self, state: int) -> None:
        self.state = state

    def copy(self) -> Rng:
        c = Rng.__new__(Rng)
        c.state = self.state
        return c

    def next_u64(self) -> int:
        s = (self.state + GAMMA) & MASK64
        self.state = s
        z = ((s ^ (s >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``1 <= n <= 2**32`` (Lemire's method)."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"below(n) needs 1 <= n <= 2**32, got {n}")
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def integers(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high)``."""
        return low + self.below(high - low)

    def random(self) -> float:
        """A uniform real in ``[0, 1)``."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, last position first)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def permutation(self, n: int) -> list[int]:
        """``range(n)`` shuffled."""
        items = list(range(n))
        self.shuffle(items)
        return items

    def sample(self, n: int, k: int) -> list[int]:
        """``k`` distinct integers of ``range(n)`` in draw order (forward partial Fisher-Yates)."""
        if not 0 <= k <= n:
            raise ValueError(f"sample(n, k) needs 0 <= k <= n, got n={n}, k={k}")
        items = list(range(n))
        for i in range(k):
            j = i + self.below(n - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]


def from_generator(rng: Any) -> Rng:
    """A core generator seeded by one draw of a ``numpy.random.Generator``: how ``determinize``
    turns the caller's numpy generator into the stream both engines re-deal from."""
    return Rng(int(rng.integers(2**63)))
