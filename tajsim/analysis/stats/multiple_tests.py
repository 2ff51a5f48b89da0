"""Corrections for many tests at once: Holm and Benjamini-Hochberg adjusted p-values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from statsmodels.stats.multitest import multipletests


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control): statsmodels'
    ``multipletests(p, method="holm")``.

    Parameters
    ----------
    p_values : array-like of float, shape (m,)
        NaNs are kept as NaN and do not count towards ``m``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Reject hypothesis i at level alpha iff ``adjusted[i] <= alpha``.
    """
    return _adjust(p_values, "holm")


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
    return _adjust(p_values, "fdr_bh")


def _adjust(p_values, method: str) -> np.ndarray:
    """``multipletests`` over the non-NaN p-values (statsmodels has no NaN policy); NaNs stay
    NaN in place and do not count towards ``m``."""
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method=method)[1]
    return out
