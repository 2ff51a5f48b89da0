"""Proportions: the normal quantile of a confidence level, Wilson intervals, Newcombe differences,
the two-proportion test, win-rate tables and the chi-square test of equal shares."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    test_proportions_2indep,
)


def normal_quantile(confidence: float = 0.95) -> float:
    """Two-sided standard-normal critical value, e.g. 1.96 for ``confidence=0.95``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence!r} must lie strictly between 0 and 1")
    return float(sps.norm.ppf(0.5 + confidence / 2.0))


def wilson_interval(
    successes: float | np.ndarray, n: float | np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion: statsmodels'
    ``proportion_confint(successes, n, alpha=1 - confidence, method="wilson")``.

    Parameters
    ----------
    successes : float or ndarray of float, shape (m,)
        Success counts; may be fractional (shared wins), must satisfy ``0 <= successes <= n``.
    n : float or ndarray of float, shape (m,)
        Trials. ``n == 0`` gives ``nan`` bounds.
    confidence : float
        Two-sided coverage.

    Returns
    -------
    (low, high) : tuple of ndarray of float64, shape (m,) (0-d for scalar input)
    """
    normal_quantile(confidence)  # checks the level
    x = np.asarray(successes, dtype=np.float64)
    n_arr = np.asarray(n, dtype=np.float64)
    has_trials = n_arr > 0
    # n == 0 -> NaN below; 0 of 1 in its place spares the library a 0/0.
    safe_x, safe_n = np.where(has_trials, x, 0.0), np.where(has_trials, n_arr, 1.0)
    low, high = proportion_confint(safe_x, safe_n, alpha=1.0 - confidence, method="wilson")
    p = safe_x / safe_n
    # The interval contains p also where rounding puts a bound a hair past it (p = 0 or 1).
    low = np.where(has_trials, np.fmin(low, p), np.nan)
    high = np.where(has_trials, np.fmax(high, p), np.nan)
    return low, high


def newcombe_difference(
    x1: float | np.ndarray,
    n1: float | np.ndarray,
    x2: float | np.ndarray,
    n2: float | np.ndarray,
    confidence: float = 0.95,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two independent proportions ``p1 - p2`` with Newcombe's hybrid score interval:
    statsmodels' ``confint_proportions_2indep(..., compare="diff", method="newcomb")``.

    Newcombe (1998), method 10: combines the two Wilson intervals; good coverage for small or
    extreme proportions, unlike the Wald interval. ``n1 == 0`` or ``n2 == 0`` gives NaN.

    Returns
    -------
    (difference, low, high) : tuple of ndarray of float64
    """
    normal_quantile(confidence)
    x1, n1, x2, n2 = (np.asarray(v, dtype=np.float64) for v in (x1, n1, x2, n2))
    ok = (n1 > 0) & (n2 > 0)
    x1_safe, x2_safe = np.where(ok, x1, 0.0), np.where(ok, x2, 0.0)
    n1_safe, n2_safe = np.where(ok, n1, 1.0), np.where(ok, n2, 1.0)
    low, high = confint_proportions_2indep(x1_safe, n1_safe, x2_safe, n2_safe, compare="diff",
                                           method="newcomb", alpha=1.0 - confidence)
    diff = np.where(ok, x1_safe / n1_safe - x2_safe / n2_safe, np.nan)
    return diff, np.where(ok, low, np.nan), np.where(ok, high, np.nan)


def two_proportion_test(
    x1: float | np.ndarray,
    n1: float | np.ndarray,
    x2: float | np.ndarray,
    n2: float | np.ndarray,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Pooled two-sided z-test of ``p1 == p2`` with the Newcombe interval of ``p1 - p2``.

    The test is statsmodels' ``test_proportions_2indep(..., method="score", correction=False)``:
    at a null difference of 0 the score test's restricted estimate is the pooled proportion, so
    it is the pooled z-test (``proportions_ztest``; ``z**2`` is the Pearson chi-square of the
    2 x 2 table), vectorised over pairs. When the pooled proportion is 0 or 1 (no variation:
    nothing to test) ``z`` is 0 and ``p_value`` 1; an empty sample (``n1`` or ``n2`` 0) gives
    NaN, which the multiple-comparison corrections leave out.

    Returns
    -------
    pandas.DataFrame
        One row per input element: ``n1``, ``n2``, ``p1``, ``p2``, ``difference``, ``ci_low``,
        ``ci_high`` (float64), ``z``, ``p_value`` (float64), and ``n`` = ``n1 + n2``.
    """
    x1, n1, x2, n2 = (np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in (x1, n1, x2, n2))
    diff, low, high = newcombe_difference(x1, n1, x2, n2, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        test = test_proportions_2indep(x1, n1, x2, n2, value=0.0, method="score",
                                       compare="diff", correction=False, return_results=True)
        pooled = (x1 + x2) / (n1 + n2)
        p1, p2 = np.where(n1 > 0, x1 / n1, np.nan), np.where(n2 > 0, x2 / n2, np.nan)
    varies = (pooled > 0) & (pooled < 1)
    z = np.where(varies, np.asarray(test.statistic, dtype=np.float64), 0.0)
    p_value = np.where(varies, np.asarray(test.pvalue, dtype=np.float64), 1.0)
    both = (n1 > 0) & (n2 > 0)
    return pd.DataFrame(
        {
            "n": n1 + n2,
            "n1": n1,
            "n2": n2,
            "p1": p1,
            "p2": p2,
            "difference": diff,
            "ci_low": low,
            "ci_high": high,
            "z": np.where(both, z, np.nan),
            "p_value": np.where(both, p_value, np.nan),
        }
    )


def proportion_table(
    frame: pd.DataFrame,
    by: Sequence[str],
    value: str,
    *,
    confidence: float = 0.95,
    estimate_name: str = "rate",
) -> pd.DataFrame:
    """Group ``frame`` by ``by`` and give the mean of a [0, 1] column with a Wilson interval.

    Parameters
    ----------
    frame : DataFrame
        Must hold ``by`` columns and ``value`` (float or bool in [0, 1]).
    by : sequence of str
        Grouping columns (may be empty: one row for the whole frame).
    value : str
        Column whose mean is a proportion (fractional values allowed).
    estimate_name : str
        Name of the estimate column.

    Returns
    -------
    DataFrame
        ``by...``, ``n`` (int64 rows), ``successes`` (float64 sum of ``value``),
        ``<estimate_name>``, ``ci_low``, ``ci_high`` (float64).
    """
    by = list(by)
    values = frame[value].astype(np.float64)
    if by:
        grouped = values.groupby([frame[c] for c in by], observed=True, sort=True)
        out = grouped.agg(n="size", successes="sum").reset_index()
    else:
        out = pd.DataFrame({"n": [int(values.size)], "successes": [float(values.sum())]})
    out["n"] = out["n"].astype(np.int64)
    out[estimate_name] = out["successes"] / out["n"]
    low, high = wilson_interval(out["successes"].to_numpy(), out["n"].to_numpy(), confidence)
    out["ci_low"] = low
    out["ci_high"] = high
    return out


def chi_square_equal_shares(counts: np.ndarray) -> tuple[float, int, float, float]:
    """Chi-square goodness-of-fit of counts against equal expected shares:
    ``scipy.stats.chisquare``.

    Parameters
    ----------
    counts : ndarray of float, shape (k,)
        Observed (possibly fractional) counts per category.

    Returns
    -------
    (chi2, dof, p_value, cramers_v) : tuple
        ``cramers_v = sqrt(chi2 / (N * (k - 1)))`` with ``N = counts.sum()``: 0 when the counts are
        equal, 1 when one category takes everything.
    """
    counts = np.asarray(counts, dtype=np.float64)
    k = counts.size
    total = counts.sum()
    if k < 2 or total <= 0:
        return float("nan"), max(k - 1, 0), float("nan"), float("nan")
    test = sps.chisquare(counts)
    chi2 = float(test.statistic)
    dof = k - 1
    cramers_v = float(np.sqrt(chi2 / (total * dof)))
    return chi2, dof, float(test.pvalue), cramers_v
