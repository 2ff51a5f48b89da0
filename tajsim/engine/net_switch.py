"""The weights sets of ``net`` loaded in this process, and the kernel switch that carries them
(every game's: the sets are known by their content, so one store serves every wing).

A set is the int64 array of one network (:mod:`tajsim.engine.net_nb`'s layout from its header
on), known by its fingerprint: an integer below 2**48 (exact in float64) that the ``net``
strategy's parameter vector holds, so a record's configuration names the weights it was played
with. :func:`remember_set` is called by whoever loads a weights file
(:meth:`tajsim.engine.net_weights.NetFormat.load_net_file`); :func:`net_switch` packs the sets
a line-up names into the array the kernels receive. Pure Python, no kernels: a wing's
``ids.kernel_switches`` imports it.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["fingerprint_of_set", "known_sets", "net_switch", "remember_set"]

#: The parameter slot holding a ``net`` seat's fingerprint by default: the slot after 16 base
#: heuristic weights (Maharani's and Taj Mahal's ``NET_FP_SLOT``; a wing whose slot differs
#: passes its own ``fp_slot``).
FP_SLOT = 16

_SETS: dict[int, np.ndarray] = {}
_LOCK = threading.Lock()


def fingerprint_of_set(quantised: np.ndarray) -> int:
    """The fingerprint of a set (int64[...]): its SHA-256's first 6 bytes (below 2**48)."""
    data = np.ascontiguousarray(quantised, dtype="<i8").tobytes()
    return int.from_bytes(hashlib.sha256(data).digest()[:6], "big")


def remember_set(quantised: np.ndarray) -> int:
    """Keep this set for the kernels; returns its fingerprint."""
    arr = np.ascontiguousarray(quantised, np.int64).copy()
    arr.setflags(write=False)
    fp = fingerprint_of_set(arr)
    with _LOCK:
        _SETS[fp] = arr
    return fp


def known_sets() -> dict[int, np.ndarray]:
    """The sets loaded so far, by fingerprint."""
    with _LOCK:
        return dict(_SETS)


def net_switch(rows: Sequence[Any] | None, fp_slot: int = FP_SLOT) -> np.ndarray:
    """The ``net`` kernel switch: ``[n_sets, (fingerprint, offset) x n_sets, sets...]`` (int64)
    with the sets the ``net`` seats' parameter ``rows`` name at ``row[fp_slot]`` (every known
    set when ``rows`` is None). A fingerprint no loaded file has is a ``ValueError`` (the
    registry loads the sets it registers)."""
    sets = known_sets()
    if rows is None:
        chosen = sorted(sets)
    else:
        chosen = []
        for row in rows:
            fp = int(float(row[fp_slot]))
            if fp not in sets:
                raise ValueError(f"net weights fingerprint {fp} is not loaded in this process; "
                                 "expected the fingerprint of a loaded weights file")
            if fp not in chosen:
                chosen.append(fp)
    header = 1 + 2 * len(chosen)
    parts = [np.zeros(header, np.int64)]
    parts[0][0] = len(chosen)
    offset = header
    for k, fp in enumerate(chosen):
        parts[0][1 + 2 * k] = fp
        parts[0][2 + 2 * k] = offset
        parts.append(sets[fp])
        offset += len(sets[fp])
    return np.concatenate(parts)
