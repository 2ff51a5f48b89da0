"""One fingerprint of the sources that decide a game's outcome and its records.

It keys numba's on-disk cache (:func:`use_source_keyed_numba_cache`) and identifies the code
of a run (a stored run refuses to resume under other code, a worker refuses a task from a driver
with other code), and the benchmarks record it. The sources are the generic kernel and record
files below plus every game's declared ``SOURCE_FOLDERS`` (``tajsim/games/<name>/__init__.py``),
so an edit to any kernel of any game gives a new fingerprint: the cache can never go stale.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from functools import lru_cache
from pathlib import Path

from tajsim.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parent.parent  # the tajsim package
#: Generic sources that shape every game's records (relative to the package).
GENERIC_SOURCES = ("engine", "running/chunk.py", "running/records.py", "running/aggregates.py",
                   "running/config.py", "running/kernels.py")
_SUFFIXES = (".py", ".toml")


def source_files() -> list[Path]:
    """Every file the fingerprint covers, sorted by path."""
    roots = [ROOT / s for s in GENERIC_SOURCES]
    for name in GAME_PACKAGES:
        wing = importlib.import_module(f"tajsim.games.{name}")  # the cheap package init only
        base = Path(wing.__file__).resolve().parent
        roots.extend(base / folder for folder in wing.SOURCE_FOLDERS)
    files: set[Path] = set()
    for root in roots:
        if root.is_file():
            files.add(root)
        elif root.is_dir():
            files.update(p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file())
    return sorted(files)


@lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """sha256 of the covered files (relative path and bytes): 16 hex digits."""
    h = hashlib.sha256()
    for path in source_files():
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def use_source_keyed_numba_cache() -> None:
    """Point numba's on-disk cache at a directory named by :func:`source_fingerprint`.

    numba checks only the file of each cached function, not the files of the functions it
    calls, so after an edit to a rules module a cached batch kernel would keep running the old
    rules. A cache directory per fingerprint can never be stale. ``NUMBA_CACHE_DIR`` set by the
    user wins. Must run before any kernel module is imported (``import tajsim`` does it).
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache_dir = str(base / "tajsim" / f"numba-{source_fingerprint()}")
    os.environ["NUMBA_CACHE_DIR"] = cache_dir
    if "numba" in sys.modules:  # numba read its config already; cache locators read this
        sys.modules["numba"].config.CACHE_DIR = cache_dir
