"""Correlations with intervals: Fisher's z interval of a correlation and the one-way intraclass
correlation (ours: no library has them from these inputs; tests/test_stats_sources.py checks
them against statsmodels and scipy)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.stats.proportions import normal_quantile


def fisher_z_interval(r: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """Interval and two-sided p-value for a Pearson correlation from ``r`` and ``n`` alone.

    Ours, because scipy offers both only with the data (``scipy.stats.pearsonr(x, y)`` and its
    ``confidence_interval()``, which the analyses use when they have the data): Fisher's z
    interval ``tanh(atanh(r) -/+ z / sqrt(n - 3))`` and the exact t-test of zero correlation;
    tests/test_stats_sources.py checks both against ``pearsonr`` on the same data.

    Returns
    -------
    (ci_low, ci_high, p_value) : tuple of float (``nan`` when ``n < 4``)
    """
    if n < 4 or not np.isfinite(r):
        return float("nan"), float("nan"), float("nan")
    r_c = float(np.clip(r, -0.999999, 0.999999))
    z = np.arctanh(r_c)
    se = 1.0 / np.sqrt(n - 3)
    crit = normal_quantile(confidence)
    t = r_c * np.sqrt((n - 2) / (1.0 - r_c * r_c))
    p_value = float(2.0 * sps.t.sf(abs(t), n - 2))
    return float(np.tanh(z - crit * se)), float(np.tanh(z + crit * se)), p_value


def icc_oneway(
    values: np.ndarray, groups: np.ndarray, confidence: float = 0.95
) -> dict[str, float]:
    """One-way random-effects ANOVA: share of variance between groups (ICC(1)).

    Uses the unbalanced-design ANOVA estimator with ``n0 = (N - sum(n_i^2) / N) / (a - 1)`` and the
    F-based interval of Shrout & Fleiss (1979) with ``n0`` as the group size (exact for balanced
    normal data, approximate otherwise, e.g. for a 0/1 outcome).

    Ours: statsmodels and scipy have the one-way ANOVA but not this ICC with its interval, and an
    OLS on group dummies would not scale to thousands of setups. tests/test_stats_sources.py
    checks the F-test against ``scipy.stats.f_oneway`` and the variance components against
    statsmodels' ``MixedLM`` (REML, which equals the ANOVA estimator on balanced data).

    Parameters
    ----------
    values : ndarray of float, shape (N,)
    groups : ndarray, shape (N,)
        Group label of each value.

    Returns
    -------
    dict
        ``n`` (values), ``n_groups``, ``n0``, ``ms_between``, ``ms_within``, ``var_between``,
        ``var_within``, ``icc``, ``ci_low``, ``ci_high``, ``f``, ``p_value`` (F-test of no group
        effect). The ICC estimate may be negative by chance when the true share is ~0.
    """
    y = np.asarray(values, dtype=np.float64)
    codes, _ = pd.factorize(pd.Series(groups), sort=False)
    ok = ~np.isnan(y)
    y = y[ok]
    codes = codes[ok]
    N = y.size
    codes = pd.factorize(codes)[0]  # renumber the groups left after dropping NaNs, then count
    sizes = np.bincount(codes)
    a = sizes.size
    result = dict(
        n=float(N), n_groups=float(a), n0=float("nan"), ms_between=float("nan"),
        ms_within=float("nan"), var_between=float("nan"), var_within=float("nan"),
        icc=float("nan"), ci_low=float("nan"), ci_high=float("nan"), f=float("nan"),
        p_value=float("nan"),
    )
    if a < 2 or N - a < 1:
        return result
    sums = np.bincount(codes, weights=y)
    means = sums / sizes
    grand = y.mean()
    ss_between = float((sizes * (means - grand) ** 2).sum())
    ss_within = float(((y - means[codes]) ** 2).sum())
    ms_between = ss_between / (a - 1)
    ms_within = ss_within / (N - a)
    n0 = (N - (sizes**2).sum() / N) / (a - 1)
    var_between = (ms_between - ms_within) / n0
    result.update(n0=float(n0), ms_between=ms_between, ms_within=ms_within,
                  var_between=float(var_between), var_within=ms_within)
    if ms_within <= 0:
        return result
    icc = var_between / (var_between + ms_within)
    f = ms_between / ms_within
    d1, d2 = a - 1, N - a
    alpha = 1.0 - confidence
    f_low = f / sps.f.ppf(1 - alpha / 2, d1, d2)
    f_high = f * sps.f.ppf(1 - alpha / 2, d2, d1)
    result.update(
        icc=float(icc),
        ci_low=float((f_low - 1) / (f_low + n0 - 1)),
        ci_high=float((f_high - 1) / (f_high + n0 - 1)),
        f=float(f),
        p_value=float(sps.f.sf(f, d1, d2)),
    )
    return result
