"""A fingerprint per game of the sources that decide its outcomes and its records.

A game's fingerprint hashes the generic sources that shape every game's records
(:data:`GENERIC_SOURCES`) and the game's own ``SOURCE_FOLDERS`` (declared in
``tajsim/games/<name>/__init__.py``), and nothing of any other game. It is

* the code identity of a stored run of that game (a run refuses to resume under other code, a
  Dask worker refuses a task from a driver with other code) and of its benchmarks, so an edit to
  Taj Mahal's kernels leaves a stored Maharani run resumable;
* the key of the game's folder in numba's on-disk cache (:func:`numba_cache_dir`, used by the
  locator of :mod:`tajsim.games.numba_cache`): numba checks only the file of a cached function,
  not the files of the functions it calls, so after an edit to a rules module a cached batch
  kernel would keep running the old rules. A folder per fingerprint can never be stale, and an
  edit to one game recompiles that game only.

:func:`generic_fingerprint` hashes the generic sources alone: it keys the cache folder of the
compiled functions outside the wings (``tajsim/engine/rng.py``, ``tajsim/running/kernels.py``),
which call only generic code.

``import tajsim`` calls :func:`use_game_keyed_numba_cache` before any kernel module is imported,
so this module imports no numba; a fingerprint is computed when first asked for (by numba's
cache locators, a run), reading only the wing's cheap package ``__init__`` and its files.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

from tajsim.games import GAME_PACKAGES

ROOT = Path(__file__).resolve().parent.parent  # the tajsim package
GAMES_DIR = ROOT / "games"
#: Generic sources that shape every game's records (relative to the package): an edit to any of
#: them changes every game's fingerprint.
GENERIC_SOURCES = ("engine", "running/chunk.py", "running/records.py", "running/aggregates.py",
                   "running/config.py", "running/kernels.py")
_SUFFIXES = (".py", ".toml")
#: The owner of the cache folder of the package's compiled functions outside the wings.
GENERIC_CACHE = "generic"
#: The owner of the cache folder of compiled functions defined outside the package (tests,
#: scripts), which may call any game's kernels: keyed by every game's fingerprint.
OTHER_CACHE = "other"
#: numba's cache locators of :mod:`tajsim.games.numba_cache` (``NUMBA_CACHE_LOCATOR_CLASSES``,
#: see :func:`use_game_keyed_numba_cache`): the package's functions, then the others.
LOCATORS = ("tajsim.games.numba_cache.PackageCacheLocator",
            "tajsim.games.numba_cache.OtherCacheLocator")
#: The locators numba tries by default, by the names ``NUMBA_CACHE_LOCATOR_CLASSES`` takes.
NUMBA_DEFAULT_LOCATORS = ("UserProvidedCacheLocator", "InTreeCacheLocator",
                          "UserWideCacheLocator", "IPythonCacheLocator", "ZipCacheLocator")


def _files_under(roots: Iterable[Path]) -> list[Path]:
    """The ``.py`` and ``.toml`` files of ``roots`` (files or folders), sorted by path."""
    files: set[Path] = set()
    for root in roots:
        if root.is_file():
            files.add(root)
        elif root.is_dir():
            files.update(p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file())
    return sorted(files)


def generic_source_files() -> list[Path]:
    """Every file of :data:`GENERIC_SOURCES`, sorted by path."""
    return _files_under(ROOT / s for s in GENERIC_SOURCES)


def wing_source_files(game: str) -> list[Path]:
    """The files of the wing ``tajsim/games/<game>/`` that its ``SOURCE_FOLDERS`` name, sorted
    by path (importing only the wing's cheap package ``__init__``)."""
    wing = importlib.import_module(f"tajsim.games.{game}")
    if wing.__file__ is None:
        raise RuntimeError(f"tajsim.games.{game} has no __init__.py; expected a wing package")
    base = Path(wing.__file__).resolve().parent
    return _files_under(base / folder for folder in wing.SOURCE_FOLDERS)


def _hash(files: Iterable[Path]) -> str:
    """sha256 of the files' paths (relative to the package) and bytes: 16 hex digits."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(ROOT).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def generic_fingerprint() -> str:
    """The fingerprint of :data:`GENERIC_SOURCES` alone: 16 hex digits."""
    return _hash(generic_source_files())


@cache
def game_fingerprint(game: str) -> str:
    """The fingerprint of ``game`` (a wing's package name): its ``SOURCE_FOLDERS`` and
    :data:`GENERIC_SOURCES`, 16 hex digits. No other game's source changes it."""
    return _hash([*generic_source_files(), *wing_source_files(game)])


@lru_cache(maxsize=1)
def all_games_fingerprint() -> str:
    """The fingerprint of the generic sources and every registered game's: what code outside
    the package (tests, scripts), which may call any game, is keyed by."""
    return _hash([*generic_source_files(), *(f for game in GAME_PACKAGES
                                             for f in wing_source_files(game))])


# -- numba's cache -------------------------------------------------------------------------------
def numba_cache_base() -> Path:
    """Where the cache folders lie: ``NUMBA_CACHE_DIR`` when the user set it (numba reads it when
    it is imported), else ``$XDG_CACHE_HOME/tajsim`` (``~/.cache/tajsim``)."""
    numba = sys.modules.get("numba")
    user_dir = numba.config.CACHE_DIR if numba is not None else os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        return Path(user_dir)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tajsim"


def cache_folder_name(owner: str) -> str:
    """The cache folder of ``owner``'s compiled functions: ``numba-<game>-<game fingerprint>``,
    ``numba-generic-<generic fingerprint>`` or ``numba-other-<every game's fingerprint>``."""
    if owner == GENERIC_CACHE:
        return f"numba-{GENERIC_CACHE}-{generic_fingerprint()}"
    if owner == OTHER_CACHE:
        return f"numba-{OTHER_CACHE}-{all_games_fingerprint()}"
    return f"numba-{owner}-{game_fingerprint(owner)}"


def numba_cache_dir(owner: str, base: Path | None = None) -> Path:
    """The folder of ``owner``'s (a game, ``"generic"`` or ``"other"``) compiled functions under
    ``base`` (default :func:`numba_cache_base`)."""
    return (numba_cache_base() if base is None else base) / cache_folder_name(owner)


def cache_owner(py_file: str | Path) -> str:
    """Whose cache folder holds the compiled functions of the source file ``py_file``: the game
    whose wing (``tajsim/games/<name>/``) holds it, ``"generic"`` for the rest of the package,
    ``"other"`` outside it."""
    path = Path(py_file).resolve()
    try:
        parts = path.relative_to(ROOT).parts
    except ValueError:
        return OTHER_CACHE
    if len(parts) > 2 and parts[0] == "games" and (GAMES_DIR / parts[1] / "__init__.py").is_file():
        return parts[1]
    return GENERIC_CACHE


def use_game_keyed_numba_cache() -> None:
    """Make numba cache each game's compiled functions in that game's folder
    (:func:`numba_cache_dir`), the package's other ones in the generic folder.

    Puts :data:`LOCATORS` first in ``NUMBA_CACHE_LOCATOR_CLASSES`` (numba 0.62 and later read
    it), before the locators the user listed there or else numba's default ones (which then
    serve only what tajsim's locators decline: a folder that cannot be written, a notebook's
    functions). Child processes (``--parallel processes``, Dask workers) inherit it, and numba
    imports the locators when it first caches a function, so ``import tajsim`` stays free of
    numba. A user's own list keeps serving the functions defined outside the package. Must run
    before any kernel module is imported (``import tajsim`` does it).
    """
    listed = os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES", "")
    if LOCATORS[0] in listed.split(","):
        return  # set already (a child process of a tajsim process)
    ours = LOCATORS if not listed else LOCATORS[:1]
    value = ",".join([*ours, *(listed.split(",") if listed else NUMBA_DEFAULT_LOCATORS)])
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = value
    if "numba" in sys.modules:  # numba read its config already; each cached function reads this
        sys.modules["numba"].config.CACHE_LOCATOR_CLASSES = value
