"""Worker processes of ``training.evaluate``, ``training.leaderboard`` and ``training.imitate``: one
thread each.

numpy's BLAS and torch's OpenMP pool start a thread a core in every process. Workers already fill
the cores, and those threads then spin waiting for each other: two processes replaying leaderboard
games on two cores (the test suite's short form of ``--verify`` for Mystick Domination at 5 players
and Mystic Vale at 4, beside a ladder at ``nice -n 19``) took 273 s and 266 s with the default
threads, 48 s and 38 s with one; in CI the first took 150 s of a 1,393 s suite. ``training.imitate``'s
two workers with a PPO student (60 Mystria games, the same ladder beside) took a median 18.8 s
(9.5-26.9 s, 5 runs) with the default threads, 8.7 s (7.9-9.8 s, 3 runs) with one. No numpy import
here, so that the test suite's conftest can set the variables before anything reads them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

__all__ = ["ONE_THREAD_VARIABLES", "one_thread_each"]

# Read once, when the library loads in a process, so they must be in its environment from its start.
ONE_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def one_thread_each() -> Iterator[None]:
    """Processes started inside get one BLAS and one OpenMP thread, unless the caller's environment
    names a number itself."""
    unset = [name for name in ONE_THREAD_VARIABLES if name not in os.environ]
    os.environ.update(dict.fromkeys(unset, "1"))
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)
