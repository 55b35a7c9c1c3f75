"""training.workers: worker processes start with one BLAS and one OpenMP thread each."""

from __future__ import annotations

import multiprocessing
import os

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
