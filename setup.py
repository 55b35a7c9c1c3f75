"""Builds the compiled core, mystic_envs.core._core (docs/core.md); the rest of the package is
declared in pyproject.toml.

One extension module: the shared generator, batch driver and Python glue in mystic_envs/core/c/,
and every game's twin, mystic_envs/<game>/<game>.c. C11 with the C and POSIX libraries only. The
extension is optional: without a compiler the install still succeeds on the Python engines, and
mystic_envs.vector says in one line how to get the core. MYSTIC_CORE_CFLAGS adds compiler flags
(make sanitize uses it for AddressSanitizer and UndefinedBehaviorSanitizer).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).parent
CORE = Path("mystic_envs/core/c")
# Every game whose room holds a twin, in the order of mystic_envs.ENV_IDS.
GAMES = [
    g
    for g in ("elemystic", "mystria", "tarot_dice", "mystick_domination", "mystic_vale")
    if (HERE / "mystic_envs" / g / f"{g}.c").exists()
]

extra = shlex.split(os.environ.get("MYSTIC_CORE_CFLAGS", ""))
core = Extension(
    "mystic_envs.core._core",
    sources=[str(CORE / c) for c in ("module.c", "batch.c", "search.c")]
    + [f"mystic_envs/{g}/{g}.c" for g in GAMES],
    include_dirs=[str(CORE)],
    define_macros=[(f"ME_HAVE_{g.upper()}", "1") for g in GAMES],
    extra_compile_args=[
        "-std=c11",
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror=implicit-function-declaration",
        "-pthread",
        *extra,
    ],
    extra_link_args=["-pthread", *extra],
    depends=[str(CORE / h) for h in ("rng.h", "game.h", "batch.h", "search.h")],
    libraries=["m"],
    optional=True,
)

setup(ext_modules=[core])
