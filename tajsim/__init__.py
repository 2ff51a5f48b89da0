"""tajsim: Monte Carlo strategy analysis for Reiner Knizia's Taj Mahal.

The public entry points are imported lazily so that ``import tajsim`` stays cheap (the numba
kernels compile, or load from cache, on first use).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any


def _use_source_keyed_numba_cache() -> None:
    """Point numba's on-disk cache at a directory named by a hash of the kernel sources.

    numba checks only the file of each cached function, not the files of the functions it
    calls, so after an edit to the engine a cached batch kernel would keep running the old
    rules. A cache directory per source hash can never be stale. ``NUMBA_CACHE_DIR`` set by the
    user wins.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for folder in ("engine", "strategies", "running"):
        for path in sorted((root / folder).glob("*.py")):
            source = path.read_bytes()
            if b"@njit" in source:  # only kernel modules: editing the Python layer keeps the cache
                digest.update(path.name.encode())
                digest.update(source)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache_dir = str(base / "tajsim" / f"numba-{digest.hexdigest()[:16]}")
    os.environ["NUMBA_CACHE_DIR"] = cache_dir
    if "numba" in sys.modules:  # numba read its config already; cache locators read this
        sys.modules["numba"].config.CACHE_DIR = cache_dir


_use_source_keyed_numba_cache()

__version__ = "0.1.0"
__all__ = ["Game", "GameRecord", "play_game", "simulate", "default_components"]


def __getattr__(name: str) -> Any:
    if name in ("Game", "GameRecord", "play_game"):
        from tajsim.engine import game

        return getattr(game, name)
    if name == "simulate":
        from tajsim.running.simulate import simulate

        return simulate
    if name == "default_components":
        from tajsim.engine.components import default_components

        return default_components
    raise AttributeError(f"module 'tajsim' has no attribute {name!r}")
