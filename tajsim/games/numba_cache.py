"""numba cache locators that key each game's compiled functions by that game's fingerprint.

numba picks a *locator* for every function compiled with ``cache=True`` (when it is decorated):
the folder its cache files go to. numba itself checks only that a function's own source file is
unchanged, not the files of the functions it calls, so a batch kernel cached before an edit of a
rules module would load with the old rules. These locators therefore put the cache files in a
folder named by the fingerprint of every source the function may call
(:mod:`tajsim.games.fingerprint`), under :func:`~tajsim.games.fingerprint.numba_cache_base`:

==================================  ============================================================
function defined in                 folder
==================================  ============================================================
``tajsim/games/<name>/``            ``numba-<name>-<game fingerprint>``: generic + that wing
the rest of ``tajsim/``             ``numba-generic-<generic fingerprint>``: calls only generic
                                    code (``engine/rng.py``, ``running/kernels.py``)
anywhere else (tests, scripts)      ``numba-other-<every game's fingerprint>``: may call any game
==================================  ============================================================

An edit to one game's sources renames that game's folder only: the other games load their
kernels as before, and no cached kernel can be stale. Inside a folder numba's own layout holds
(a subfolder per source folder, named with a hash of its path).

numba imports this module by name from ``NUMBA_CACHE_LOCATOR_CLASSES``, which ``import tajsim``
sets (:func:`~tajsim.games.fingerprint.use_game_keyed_numba_cache`). A locator that cannot
create or write its folder declines (returns None), and numba tries the next one in that list.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

from tajsim.games.fingerprint import OTHER_CACHE, cache_owner, numba_cache_dir

__all__ = ["OtherCacheLocator", "PackageCacheLocator"]


class _FingerprintedLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """A locator whose folder is :func:`~tajsim.games.fingerprint.numba_cache_dir` of the
    function's owner; numba's source stamp (a hash of the function's own file) is kept."""

    def __init__(self, py_func: Any, py_file: str, folder: Path) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(folder, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def _claims(cls, owner: str) -> bool:
        raise NotImplementedError

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> _FingerprintedLocator | None:
        if not os.path.exists(py_file):  # a notebook cell or another placeholder: not ours
            return None
        owner = cache_owner(py_file)
        if not cls._claims(owner):
            return None
        self = cls(py_func, py_file, numba_cache_dir(owner))
        try:
            self.ensure_cache_path()
        except OSError:  # cannot be created or written: the next locator in the list
            return None
        return self


class PackageCacheLocator(_FingerprintedLocator):
    """The functions of the tajsim package: a wing's in its game's folder, the others in the
    generic folder."""

    @classmethod
    def _claims(cls, owner: str) -> bool:
        return owner != OTHER_CACHE


class OtherCacheLocator(_FingerprintedLocator):
    """Functions defined outside the package (a test's or a script's), which may call any
    game's kernels: in the folder keyed by every game's fingerprint."""

    @classmethod
    def _claims(cls, owner: str) -> bool:
        return owner == OTHER_CACHE
