"""Corrections for many tests at once: Holm and Benjamini-Hochberg adjusted p-values."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from statsmodels.stats.multitest import multipletests


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control): the values of statsmodels'
    ``multipletests(p, method="holm")`` (``tests/test_stats_sources.py`` checks them), computed
    here by the same operations, because statsmodels' Holm branch calls ``gc.collect()``: a
    full collection per call, 0.08 s to 2 s in a process that holds compiled kernels.

    Parameters
    ----------
    p_values : array-like of float, shape (m,)
        NaNs are kept as NaN and do not count towards ``m``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Reject hypothesis i at level alpha iff ``adjusted[i] <= alpha``.
    """
    return _adjust(p_values, _holm_sorted)


def benjamini_hochberg(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values; false-discovery-rate control):
    statsmodels' ``multipletests(p, method="fdr_bh")``.

    Parameters
    ----------
    p_values : array-like of float, shape (m,)
        NaNs are kept as NaN and do not count towards ``m``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Reject hypothesis i at FDR q iff ``adjusted[i] <= q``.
    """
    return _adjust(p_values, lambda p: multipletests(p, method="fdr_bh")[1])


def _holm_sorted(p: np.ndarray) -> np.ndarray:
    """statsmodels' Holm step: ``p`` sorted times m, m-1, ..., 1, a running maximum, capped
    at 1, back in the input's order (ties get the same value in any order)."""
    order = np.argsort(p)
    adjusted = np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1))
    adjusted[adjusted > 1] = 1
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


def _adjust(p_values, correct: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``correct`` over the non-NaN p-values (statsmodels has no NaN policy); NaNs stay NaN in
    place and do not count towards ``m``."""
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = correct(p[ok])
    return out
