"""training.workers: worker processes start with one BLAS and one OpenMP thread each."""

from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest

from training.workers import ONE_THREAD_VARIABLES, one_thread_each


def _thread_variables() -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in ONE_THREAD_VARIABLES}


def test_a_worker_gets_one_thread_unless_the_caller_named_a_number(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ONE_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with one_thread_each(), multiprocessing.get_context("spawn").Pool(1) as pool:
        seen = pool.apply(_thread_variables)
    assert seen == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "3", "MKL_NUM_THREADS": "1"}
    # The parent's own environment is as it was.
    assert _thread_variables() == {
        "OPENBLAS_NUM_THREADS": None,
        "OMP_NUM_THREADS": "3",
        "MKL_NUM_THREADS": None,
    }


def test_the_variables_go_even_when_the_pool_fails_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ONE_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValueError), one_thread_each():
        multiprocessing.get_context("spawn").Pool(0)
    assert _thread_variables() == dict.fromkeys(ONE_THREAD_VARIABLES)


def _play_reporting_threads(env_id: str, teacher: str, chunk: list, gamma: float, student: str | None):
    from training.imitate import Demonstrations

    threads = [float(os.environ.get(name, "0")) for name in ONE_THREAD_VARIABLES]
    return Demonstrations(
        np.array([threads], dtype=np.float32),
        np.ones((1, 1), dtype=bool),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.float32),
    )


def test_imitation_workers_get_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # training.imitate forks its workers: they must be forked with the variables already set.
    import training.imitate

    for name in ONE_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(training.imitate, "_play", _play_reporting_threads)
    demos = training.imitate.collect("tarot_dice_v0", 4, workers=2)
    assert demos.observations.tolist() == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    assert _thread_variables() == dict.fromkeys(ONE_THREAD_VARIABLES)
