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

__all__ = ["fingerprint_of_set", "known_sets", "line_up_net_switch", "net_params",
           "net_rollout_rows", "net_switch", "remember_set", "with_net_rollout"]

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


def net_params(n_params: int, base_weights: np.ndarray, fingerprint: int,
               fp_slot: int = FP_SLOT) -> np.ndarray:
    """A ``net`` seat's vector (float64[n_params]): the base heuristic's weights (its
    candidates' values) first, the weights set's ``fingerprint`` at ``fp_slot``, the rest (the
    generic options) 0. Every wing's ``registry.net_params``."""
    base = np.asarray(base_weights, np.float64)
    vec = np.zeros(n_params)
    vec[:len(base)] = base
    vec[fp_slot] = float(fingerprint)
    return vec


def with_net_rollout(search_params: np.ndarray, net_vector: np.ndarray, n_params: int,
                     rollout_slot: int, rollout_net: int, rollouts_at: int) -> np.ndarray:
    """A search's vector ``search_params`` rolling out with ``net`` (its vector ``net_vector``):
    ``rollout_net`` in ``rollout_slot``, the rollouts' slice ``[rollouts_at:n_params - 2]``
    ``net``'s own first slots (the base weights, the fingerprint); the search's settings and
    the generic options (the last two slots) stay. Every wing's
    ``registry.expert_with_net_rollout``."""
    out = np.array(search_params, np.float64, copy=True)
    net = np.asarray(net_vector, np.float64)
    out[rollout_slot] = float(rollout_net)
    out[rollouts_at:n_params - 2] = net[:n_params - 2 - rollouts_at]
    return out


def net_rollout_rows(strategy_ids: Sequence[int], params: Any, search_ids: Sequence[int],
                     rollout_slot: int, rollout_net: int, rollouts_at: int) -> list[Any]:
    """The rollouts' parameter slices (``row[rollouts_at:]``: the base weights, then the
    fingerprint) of the seats of ``search_ids`` whose ``params`` row holds ``rollout_net`` in
    ``rollout_slot`` (none without ``params``). Every wing's ``ids.net_rollout_rows``."""
    if params is None:
        return []
    return [np.asarray(row, np.float64)[rollouts_at:]
            for sid, row in zip(strategy_ids, params, strict=True)
            if sid in search_ids and int(row[rollout_slot]) == rollout_net]


def line_up_net_switch(strategy_ids: Sequence[int], params: Any, net_id: int,
                       rollout_rows: list[Any], fp_slot: int = FP_SLOT) -> np.ndarray | None:
    """The ``net`` kernel switch of a line-up (each wing's ``kernel_switches``): the sets its
    ``net_id`` seats' ``params`` rows and the ``rollout_rows`` (:func:`net_rollout_rows`) name
    (every set loaded for a ``net`` seat without ``params``), or None when the line-up has
    neither (the kernels leave the network out)."""
    ids = [int(i) for i in strategy_ids]
    if net_id in ids:
        rows = None if params is None else [row for sid, row in zip(ids, params, strict=True)
                                            if sid == net_id] + list(rollout_rows)
        return net_switch(rows, fp_slot)
    if rollout_rows:
        return net_switch(rollout_rows, fp_slot)
    return None
