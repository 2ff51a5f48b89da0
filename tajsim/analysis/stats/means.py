"""Means: intervals (t, normal, bootstrap), per-group summaries, Welch and paired differences."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.stats.proportions import normal_quantile


def mean_ci(
    values: np.ndarray | pd.Series, confidence: float = 0.95, method: str = "t"
) -> tuple[float, float, float, int, float]:
    """Mean with a t (default) or normal interval (``scipy.stats.t.interval`` /
    ``scipy.stats.norm.interval`` around the mean with its standard error).

    Parameters
    ----------
    values : array-like of float, shape (n,)
        NaNs are dropped.
    method : {"t", "normal"}

    Returns
    -------
    (mean, ci_low, ci_high, n, sd) : tuple of float, float, float, int, float
        ``n < 2`` gives ``nan`` bounds.
    """
    arr = np.asarray(values, dtype=np.float64)
    arr = arr[~np.isnan(arr)]
    n = int(arr.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0, float("nan")
    mean = float(arr.mean())
    if n < 2:
        return mean, float("nan"), float("nan"), n, float("nan")
    sd = float(arr.std(ddof=1))
    low, high = _mean_interval(mean, sd, n, confidence, method)
    return mean, float(low), float(high), n, sd


def _mean_interval(mean, sd, n, confidence: float, method: str):
    """(low, high) of a mean from its ``sd`` and ``n`` (arrays broadcast; ``n < 2`` gives NaN):
    scipy's t (``n - 1`` df) or normal interval with scale ``sd / sqrt(n)``."""
    normal_quantile(confidence)
    n = np.asarray(n, dtype=np.float64)
    loc = np.asarray(mean, dtype=np.float64)
    enough = n > 1
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.asarray(sd, dtype=np.float64) / np.sqrt(n)
    spread = enough & (scale > 0)
    # scipy wants a positive scale: a zero sd is a zero-width interval, set below.
    scale_ok, df_ok = np.where(spread, scale, 1.0), np.where(spread, n - 1.0, 1.0)
    if method == "t":
        low, high = sps.t.interval(confidence, df_ok, loc=loc, scale=scale_ok)
    elif method == "normal":
        low, high = sps.norm.interval(confidence, loc=loc, scale=scale_ok)
    else:
        raise ValueError(f"method {method!r} is not 't' or 'normal'")
    flat = np.where(enough & (scale == 0), loc, np.nan)
    return np.where(spread, low, flat), np.where(spread, high, flat)


def summarize_mean(
    frame: pd.DataFrame,
    by: Sequence[str],
    value: str,
    *,
    confidence: float = 0.95,
    method: str = "t",
    quantiles: Sequence[float] = (),
) -> pd.DataFrame:
    """Group means of one numeric column with t (or normal) intervals (scipy, as
    :func:`mean_ci`, vectorised over the groups).

    Returns
    -------
    DataFrame
        ``by...``, ``n`` (int64), ``mean``, ``sd``, ``ci_low``, ``ci_high`` (float64) and one
        ``q<percent>`` column (float64) per requested quantile, e.g. ``q50`` for 0.5.
    """
    by = list(by)
    values = frame[value].astype(np.float64)
    keys = [frame[c] for c in by] if by else [pd.Series(0, index=frame.index, name="_all")]
    grouped = values.groupby(keys, observed=True, sort=True)
    out = grouped.agg(n="count", mean="mean", sd="std")
    for q in quantiles:
        out[f"q{round(q * 100):d}"] = grouped.quantile(q)
    out = out.reset_index()
    if not by:
        out = out.drop(columns=["_all"])
    out["n"] = out["n"].astype(np.int64)
    low, high = _mean_interval(out["mean"].to_numpy(), out["sd"].to_numpy(),
                               out["n"].to_numpy(), confidence, method)
    out["ci_low"] = low
    out["ci_high"] = high
    ordered = by + ["n", "mean", "sd", "ci_low", "ci_high"] + [
        f"q{round(q * 100):d}" for q in quantiles
    ]
    return out[ordered]


def difference_of_means(
    a: np.ndarray, b: np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float, float]:
    """Welch difference ``mean(a) - mean(b)``: ``scipy.stats.ttest_ind(a, b, equal_var=False)``
    and its ``confidence_interval``.

    Returns
    -------
    (difference, ci_low, ci_high, p_value) : tuple of float
        ``nan`` when either sample has fewer than 2 values. Two samples without variation give a
        zero-width interval and p-value 0 (different means) or NaN (equal means).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a = a[~np.isnan(a)]
    b = b[~np.isnan(b)]
    if a.size < 2 or b.size < 2:
        diff = float(a.mean() - b.mean()) if a.size and b.size else float("nan")
        return diff, float("nan"), float("nan"), float("nan")
    diff = float(a.mean() - b.mean())
    if a.var(ddof=1) == 0 and b.var(ddof=1) == 0:
        return diff, diff, diff, float("nan") if diff == 0 else 0.0
    test = sps.ttest_ind(a, b, equal_var=False)
    low, high = test.confidence_interval(confidence)
    return diff, float(low), float(high), float(test.pvalue)


def paired_difference(
    a: np.ndarray, b: np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float, float, int]:
    """Mean of the paired differences ``a - b`` (one pair per independent unit, e.g. a game in
    which both were measured): ``scipy.stats.ttest_rel(a, b)`` and its ``confidence_interval``.

    Parameters
    ----------
    a, b : array-like of float, shape (n,)
        Pairs with a NaN in either are dropped.

    Returns
    -------
    (difference, ci_low, ci_high, p_value, n) : tuple of float, float, float, float, int
        ``nan`` bounds and p-value for fewer than 2 pairs. Differences without variation give
        a zero-width interval and p-value 0 (a nonzero difference) or NaN (none).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    n = int(a.size)
    diff = float((a - b).mean()) if n else float("nan")
    if n < 2:
        return diff, float("nan"), float("nan"), float("nan"), n
    if np.all(a - b == a[0] - b[0]):
        return diff, diff, diff, float("nan") if diff == 0 else 0.0, n
    test = sps.ttest_rel(a, b)
    low, high = test.confidence_interval(confidence)
    return diff, float(low), float(high), float(test.pvalue), n
