"""The generator of chance, checked against a table of known outputs in Python and in C.

The first rows are SplitMix64's published reference outputs (seeds 0 and 1, as in Vigna's
``splitmix64.c``); the rest pin the bounded integers (with a bound that rejects often), the
shuffle, the sample and the reals, so that neither implementation can drift from the other.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mystic_envs.core import compiled
from mystic_envs.core.rng import Rng, from_generator
from tests.core.cases import require_core

U64 = {
    0: [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F],
    1: [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E],
    42: [0xBDD732262FEB6E95, 0x28EFE333B266F103, 0x47526757130F9F52],
    2**64 - 1: [0xE4D971771B652C20, 0xE99FF867DBF682C9, 0x382FF84CB27281E9],
}
# (seed, kind, n, count) -> outputs
TABLE = [
    ((7, "below", 6, 12), [2, 0, 5, 3, 2, 1, 2, 1, 0, 2, 0, 5]),
    ((7, "below", 2**32, 3), [1674306020, 72105175, 3868737664]),
    ((7, "below", 3_000_000_000, 5), [1169489244, 50364882, 2702282041, 1748790878, 1357325684]),
    ((2026, "permutation", 10, 0), [1, 0, 6, 7, 3, 9, 2, 5, 4, 8]),
    ((2026, "sample", 22, 5), [18, 10, 15, 1, 0]),
    ((99, "random", 0, 3), [0.2615304715693846, 0.0316577610861849, 0.8347597245449443]),
]


def python_outputs(seed: int, kind: str, n: int, count: int) -> list:
    r = Rng(seed)
    if kind == "u64":
        return [r.next_u64() for _ in range(count)]
    if kind == "below":
        return [r.below(n) for _ in range(count)]
    if kind == "random":
        return [r.random() for _ in range(count)]
    if kind == "permutation":
        return r.permutation(n)
    return r.sample(n, count)


@pytest.mark.parametrize("seed", list(U64))
def test_reference_outputs_in_python(seed):
    assert python_outputs(seed, "u64", 0, 3) == U64[seed]


@pytest.mark.parametrize(("args", "expected"), TABLE)
def test_known_outputs_in_python(args, expected):
    assert python_outputs(*args) == expected


@pytest.mark.parametrize("seed", list(U64))
def test_reference_outputs_in_c(seed):
    require_core()
    assert compiled.core_module().rng(seed, "u64", 0, 3) == U64[seed]


@pytest.mark.parametrize(("args", "expected"), TABLE)
def test_known_outputs_in_c(args, expected):
    require_core()
    assert compiled.core_module().rng(*args) == expected


def test_c_equals_python_over_many_draws():
    require_core()
    core = compiled.core_module()
    rng = np.random.default_rng(0)
    for seed in rng.integers(0, 2**63, size=20).tolist():
        for n in (1, 2, 3, 5, 7, 22, 52, 1000, 2**31 + 1):
            assert core.rng(seed, "below", n, 50) == python_outputs(seed, "below", n, 50)
        assert core.rng(seed, "permutation", 78, 0) == python_outputs(seed, "permutation", 78, 0)
        assert core.rng(seed, "sample", 30, 12) == python_outputs(seed, "sample", 30, 12)
        assert core.rng(seed, "random", 0, 20) == python_outputs(seed, "random", 0, 20)


def test_bounded_integers_are_uniform():
    r = Rng(123)
    counts = np.bincount([r.below(6) for _ in range(60_000)], minlength=6)
    chi2 = float(((counts - 10_000) ** 2 / 10_000).sum())
    assert chi2 < 20.5, counts  # 5 degrees of freedom: p = 0.001
    shuffles = {tuple(r.permutation(3)) for _ in range(300)}
    assert len(shuffles) == 6


def test_copies_pickles_and_errors():
    r = Rng(5)
    r.next_u64()
    c = r.copy()
    assert c == r and pickle.loads(pickle.dumps(r)) == r
    assert c.next_u64() == r.next_u64()
    for bad in (-1, 2**64, 1.5, True, "3"):
        with pytest.raises((TypeError, ValueError), match="seed"):
            Rng(bad)
    with pytest.raises(ValueError, match="below"):
        Rng(0).below(0)
    with pytest.raises(ValueError, match="sample"):
        Rng(0).sample(3, 4)
    assert from_generator(np.random.default_rng(1)) == Rng(int(np.random.default_rng(1).integers(2**63)))
