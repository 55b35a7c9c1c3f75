"""Shared fixtures of the client tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    """The client runs use tiny networks; torch's default thread pool only fights the other test
    worker for the cores (a 30-update DQN run took 7 s instead of well under one)."""
    try:
        import torch
    except ImportError:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
