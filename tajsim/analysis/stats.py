"""Statistics used by every analysis (the results-frame helpers are in ``frames``).

Conventions shared by the analysis modules:

* Every table carries ``n`` (the sample size of its main estimate, in the unit the function
  documents: player-games, games or setups) and ``ci_low`` / ``ci_high`` for its main estimate.
  Secondary estimates in the same table carry ``<name>_ci_low`` / ``<name>_ci_high``.
* Intervals are two-sided at ``confidence`` (0.95 unless told).
* Functions accept scalars or NumPy arrays and broadcast; they never mutate their inputs.

Win values and ties
-------------------
``win_value(results, share_ties=True)`` gives each player-game a number in [0, 1]: 1 for a sole
winner, ``1/k`` for each of ``k`` tied winners, 0 otherwise. The win values of one game then sum
to 1, so the expected win rate of a seat or strategy under "everyone equal" is exactly
``1 / n_players``. With ``share_ties=False`` every tied winner counts 1 (the ``winner`` column as
is); win values of a game then sum to ``k`` and the equal-players baseline is ``E[k] / n_players``,
slightly above ``1 / n_players``. Wilson intervals accept fractional success counts (the usual
approximation; ties are rare in Taj Mahal after the tie-break).

Where the numbers come from
---------------------------
The intervals, tests and corrections are the libraries' (statsmodels, ``scipy.stats``), wrapped
only to keep this module's conventions (array broadcasting, ``n == 0`` gives NaN, NaN p-values
stay NaN): see each function's docstring and docs/analysis.md ("Where the statistics come
from"). :func:`icc_oneway` and :func:`fisher_z_interval` are ours (no library has the
unbalanced one-way ICC with its F interval, or the Fisher interval from ``r`` and ``n`` alone);
tests/test_stats_sources.py checks them against statsmodels and scipy on the same data.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    test_proportions_2indep,
)
from statsmodels.stats.sandwich_covariance import cov_cluster, cov_white_simple

__all__ = [
    "benjamini_hochberg",
    "chi_square_equal_shares",
    "cluster_robust_covariance",
    "difference_of_means",
    "fisher_z_interval",
    "holm",
    "icc_oneway",
    "mean_ci",
    "newcombe_difference",
    "normal_quantile",
    "paired_difference",
    "proportion_table",
    "summarize_mean",
    "two_proportion_test",
    "wilson_interval",
    "within_group_ols",
]

def normal_quantile(confidence: float = 0.95) -> float:
    """Two-sided standard-normal critical value, e.g. 1.96 for ``confidence=0.95``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence {confidence!r} must lie strictly between 0 and 1")
    return float(sps.norm.ppf(0.5 + confidence / 2.0))


# ---------------------------------------------------------------------------
# Proportions
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Means
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Multiple comparisons
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Variance components
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Regression helpers
# ---------------------------------------------------------------------------
def cluster_robust_covariance(
    bread_inverse: np.ndarray, scores: np.ndarray, clusters: np.ndarray | None
) -> np.ndarray:
    """Sandwich covariance ``B^-1 M B^-1`` with score sums per cluster: statsmodels'
    ``sandwich_covariance.cov_cluster((scores, bread_inverse), clusters)`` (CR1, the
    small-sample factor ``G / (G - 1) * (N - 1) / (N - k)`` of Stata's ``vce(cluster)`` and of
    statsmodels' ``cov_type="cluster"`` fits), or ``cov_white_simple`` (HC1, ``N / (N - k)``)
    without clusters. For a fit statsmodels can do itself, ask the fit for
    ``cov_type="cluster"`` instead; this is for estimators it does not have (the conditional
    logit with fractional outcomes).

    Parameters
    ----------
    bread_inverse : ndarray of float64, shape (k, k)
        Inverse of the (negative) Hessian or of ``X'X``.
    scores : ndarray of float64, shape (N, k)
        Per-observation score (gradient) contributions.
    clusters : ndarray, shape (N,), or None
        Cluster labels; ``None`` treats every observation as its own cluster (HC1).

    Returns
    -------
    ndarray of float64, shape (k, k)
    """
    scores = np.asarray(scores, dtype=np.float64)
    bread_inverse = np.asarray(bread_inverse, dtype=np.float64)
    if clusters is None:
        return cov_white_simple((scores, bread_inverse), use_correction=True)
    codes, _ = pd.factorize(pd.Series(np.asarray(clusters)), sort=False)
    n_clusters = int(codes.max()) + 1 if codes.size else 0
    if n_clusters < 2:  # the CR1 factor needs two clusters; one gives the plain sandwich
        return cov_cluster((scores, bread_inverse), codes.astype(np.int64), use_correction=False)
    return cov_cluster((scores, bread_inverse), codes.astype(np.int64), use_correction=True)


def _demean(values: np.ndarray, codes: np.ndarray, n_groups: int) -> np.ndarray:
    sums = np.zeros((n_groups,) + values.shape[1:])
    np.add.at(sums, codes, values)
    counts = np.bincount(codes, minlength=n_groups).astype(float)
    shape = (n_groups,) + (1,) * (values.ndim - 1)
    return values - (sums / counts.reshape(shape))[codes]


def within_group_ols(frame: pd.DataFrame, outcome: str, terms: Sequence[str],
                     controls: Sequence[str] = (), group: str = "game_id",
                     confidence: float = 0.95) -> pd.DataFrame:
    """``outcome ~ terms + controls + one fixed effect per group``, standard errors clustered by
    group: the "within" estimator (e.g. one group per game, so that only differences between
    the players of one game identify the coefficients).

    Each group's mean is removed from the outcome and the regressors, then statsmodels
    ``OLS(...).fit(cov_type="cluster")`` runs on what is left; its covariance is scaled by
    ``(N - k) / (N - k - G)`` for the G absorbed means, so coefficients and standard errors equal
    those of the regression with one dummy per group (Stata's ``areg ..., vce(cluster)``;
    ``tests/test_stats_sources.py`` checks it) without building G columns. Intervals are t
    intervals with G - 1 degrees of freedom.

    Parameters
    ----------
    frame : DataFrame
        One row per observation.
    outcome : str
        Numeric column.
    terms : sequence of str
        Numeric columns whose coefficients are reported.
    controls : sequence of str
        Categorical columns entered as dummies (first level dropped); absent ones are skipped.
    group : str
        The fixed-effect and cluster column.

    Returns
    -------
    DataFrame
        One row per term: ``term``, ``coef``, ``se``, ``low``, ``high``, ``n`` (rows),
        ``n_games`` (groups). A term constant within every group, or a combination of the
        terms before it, has NaN estimates; controls that repeat other columns are dropped.
    """
    cols = [np.asarray(frame[t], float) for t in terms]
    names = list(terms)
    for c in controls:
        if c not in frame:
            continue
        cat = pd.Categorical(frame[c])
        for level in cat.categories[1:]:
            cols.append(np.asarray(cat == level, float))
            names.append(f"{c}={level}")
    X = np.column_stack(cols) if cols else np.zeros((len(frame), 0))
    y = np.asarray(frame[outcome], float)
    codes, uniques = pd.factorize(frame[group])
    G = len(uniques)
    Xd = _demean(X, codes, G)
    yd = _demean(y, codes, G)
    # Keep a column only if it adds to the rank of those before it: a regressor constant within
    # every group, or a control that repeats others (seat = strategy in a fixed line-up), drops
    # out instead of making the fit singular; the terms come first, so they are kept first.
    kept: list[int] = []
    for j in range(Xd.shape[1]):
        if np.linalg.matrix_rank(Xd[:, kept + [j]]) == len(kept) + 1:
            kept.append(j)
    Xd = Xd[:, kept]
    names = [names[j] for j in kept]
    n, k = Xd.shape
    nan_row = {"coef": np.nan, "se": np.nan, "low": np.nan, "high": np.nan, "n": n,
               "n_games": G}
    if k == 0 or G < 2 or n - k - G < 1:
        return pd.DataFrame([{"term": t, **nan_row} for t in terms])
    fit = OLS(yd, Xd).fit(cov_type="cluster", cov_kwds={"groups": codes})
    cov = np.asarray(fit.cov_params()) * (n - k) / (n - k - G)
    crit = float(sps.t.ppf(0.5 + confidence / 2, G - 1))
    out = []
    for term in terms:
        if term not in names:
            out.append({"term": term, **nan_row})
            continue
        i = names.index(term)
        coef, se = float(fit.params[i]), float(np.sqrt(max(cov[i, i], 0.0)))
        out.append({"term": term, "coef": coef, "se": se, "low": coef - crit * se,
                    "high": coef + crit * se, "n": n, "n_games": G})
    return pd.DataFrame(out)
