"""Files of a resumable run folder (``training.evaluate``, ``training.leaderboard``): each written whole
or not at all, so that Ctrl-C at any moment leaves the files of a run either finished or absent."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["file_part", "write_atomic"]


def file_part(label: str) -> str:
    """``label`` as part of a file name: agent labels hold ':', ',', '=' and model paths' '/', so only
    letters, digits, '.', '-' and '_' are kept; the others become '_'."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in label)


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``path`` whole or not at all: a Ctrl-C mid-write leaves the old file or none, and no
    temporary file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Named by the process rather than made by mkstemp, so the file gets the umask's permissions.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(text.encode() if isinstance(text, str) else text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
