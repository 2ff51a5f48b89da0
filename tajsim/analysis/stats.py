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
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

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
    "proportion_table",
    "summarize_mean",
    "two_proportion_test",
    "wilson_interval",
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
    """Wilson score interval for a binomial proportion.

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
    z = normal_quantile(confidence)
    x = np.asarray(successes, dtype=np.float64)
    n_arr = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n_arr
        denom = 1.0 + z * z / n_arr
        centre = (p + z * z / (2.0 * n_arr)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n_arr + z * z / (4.0 * n_arr * n_arr)) / denom
    # The interval always contains p (guards rounding at p = 0 or 1).
    low = np.clip(np.fmin(centre - half, p), 0.0, 1.0)
    high = np.clip(np.fmax(centre + half, p), 0.0, 1.0)
    low = np.where(n_arr > 0, low, np.nan)
    high = np.where(n_arr > 0, high, np.nan)
    return low, high


def newcombe_difference(
    x1: float | np.ndarray,
    n1: float | np.ndarray,
    x2: float | np.ndarray,
    n2: float | np.ndarray,
    confidence: float = 0.95,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two independent proportions ``p1 - p2`` with Newcombe's hybrid score interval.

    Newcombe (1998), method 10: combines the two Wilson intervals; good coverage for small or
    extreme proportions, unlike the Wald interval.

    Returns
    -------
    (difference, low, high) : tuple of ndarray of float64
    """
    x1, n1, x2, n2 = (np.asarray(v, dtype=np.float64) for v in (x1, n1, x2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = x1 / n1
        p2 = x2 / n2
    l1, u1 = wilson_interval(x1, n1, confidence)
    l2, u2 = wilson_interval(x2, n2, confidence)
    diff = p1 - p2
    low = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return diff, low, high


def two_proportion_test(
    x1: float | np.ndarray,
    n1: float | np.ndarray,
    x2: float | np.ndarray,
    n2: float | np.ndarray,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Pooled two-sided z-test of ``p1 == p2`` with the Newcombe interval of ``p1 - p2``.

    Returns
    -------
    pandas.DataFrame
        One row per input element: ``n1``, ``n2``, ``p1``, ``p2``, ``difference``, ``ci_low``,
        ``ci_high`` (float64), ``z``, ``p_value`` (float64), and ``n`` = ``n1 + n2``.
    """
    x1, n1, x2, n2 = (np.atleast_1d(np.asarray(v, dtype=np.float64)) for v in (x1, n1, x2, n2))
    diff, low, high = newcombe_difference(x1, n1, x2, n2, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (x1 + x2) / (n1 + n2)
        se = np.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
        z = np.where(se > 0, diff / se, 0.0)
    p_value = 2.0 * sps.norm.sf(np.abs(z))
    return pd.DataFrame(
        {
            "n": n1 + n2,
            "n1": n1,
            "n2": n2,
            "p1": x1 / n1,
            "p2": x2 / n2,
            "difference": diff,
            "ci_low": low,
            "ci_high": high,
            "z": z,
            "p_value": p_value,
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
    """Chi-square goodness-of-fit of counts against equal expected shares.

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
    expected = np.full(k, total / k)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = k - 1
    p_value = float(sps.chi2.sf(chi2, dof))
    cramers_v = float(np.sqrt(chi2 / (total * dof)))
    return chi2, dof, p_value, cramers_v


# ---------------------------------------------------------------------------
# Means
# ---------------------------------------------------------------------------
def mean_ci(
    values: np.ndarray | pd.Series, confidence: float = 0.95, method: str = "t"
) -> tuple[float, float, float, int, float]:
    """Mean with a t (default) or normal interval.

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
    crit = _critical(confidence, n - 1, method)
    half = crit * sd / np.sqrt(n)
    return mean, mean - half, mean + half, n, sd


def _critical(confidence: float, dof: float | np.ndarray, method: str) -> np.ndarray | float:
    if method == "t":
        return sps.t.ppf(0.5 + confidence / 2.0, dof)
    if method == "normal":
        return normal_quantile(confidence)
    raise ValueError(f"method {method!r} is not 't' or 'normal'")


def summarize_mean(
    frame: pd.DataFrame,
    by: Sequence[str],
    value: str,
    *,
    confidence: float = 0.95,
    method: str = "t",
    quantiles: Sequence[float] = (),
) -> pd.DataFrame:
    """Group means of one numeric column with t (or normal) intervals.

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
    n = out["n"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        crit = np.where(n > 1, _critical(confidence, np.maximum(n - 1, 1), method), np.nan)
        half = crit * out["sd"].to_numpy() / np.sqrt(n)
    out["ci_low"] = out["mean"] - half
    out["ci_high"] = out["mean"] + half
    ordered = by + ["n", "mean", "sd", "ci_low", "ci_high"] + [
        f"q{round(q * 100):d}" for q in quantiles
    ]
    return out[ordered]


def difference_of_means(
    a: np.ndarray, b: np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float, float]:
    """Welch difference ``mean(a) - mean(b)``.

    Returns
    -------
    (difference, ci_low, ci_high, p_value) : tuple of float
        ``nan`` when either sample has fewer than 2 values.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    a = a[~np.isnan(a)]
    b = b[~np.isnan(b)]
    if a.size < 2 or b.size < 2:
        diff = float(a.mean() - b.mean()) if a.size and b.size else float("nan")
        return diff, float("nan"), float("nan"), float("nan")
    va = a.var(ddof=1) / a.size
    vb = b.var(ddof=1) / b.size
    diff = float(a.mean() - b.mean())
    se = np.sqrt(va + vb)
    if se == 0:
        return diff, diff, diff, float("nan") if diff == 0 else 0.0
    dof = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    crit = sps.t.ppf(0.5 + confidence / 2.0, dof)
    p_value = float(2.0 * sps.t.sf(abs(diff) / se, dof))
    return diff, float(diff - crit * se), float(diff + crit * se), p_value


def fisher_z_interval(r: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """Interval and two-sided p-value for a Pearson correlation via Fisher's z.

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
    # Exact t-test of zero correlation for the p-value.
    t = r_c * np.sqrt((n - 2) / (1.0 - r_c * r_c))
    p_value = float(2.0 * sps.t.sf(abs(t), n - 2))
    return float(np.tanh(z - crit * se)), float(np.tanh(z + crit * se)), p_value


# ---------------------------------------------------------------------------
# Multiple comparisons
# ---------------------------------------------------------------------------
def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control).

    Parameters
    ----------
    p_values : array-like of float, shape (m,)
        NaNs are kept as NaN and do not count towards ``m``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Reject hypothesis i at level alpha iff ``adjusted[i] <= alpha``.
    """
    def step_down(sorted_p: np.ndarray) -> np.ndarray:
        m = sorted_p.size
        return np.maximum.accumulate((m - np.arange(m)) * sorted_p)

    return _adjust_sorted(p_values, step_down)


def benjamini_hochberg(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values; false-discovery-rate control).

    Parameters
    ----------
    p_values : array-like of float, shape (m,)
        NaNs are kept as NaN and do not count towards ``m``.

    Returns
    -------
    ndarray of float64, shape (m,)
        Reject hypothesis i at FDR q iff ``adjusted[i] <= q``.
    """
    def step_up(sorted_p: np.ndarray) -> np.ndarray:
        m = sorted_p.size
        scaled = sorted_p * m / np.arange(1, m + 1)
        return np.minimum.accumulate(scaled[::-1])[::-1]

    return _adjust_sorted(p_values, step_up)


def _adjust_sorted(p_values, adjust) -> np.ndarray:
    """Apply ``adjust`` (sorted non-NaN p-values -> adjusted, same order) and put the results
    back in the input order, capped at 1; NaNs stay NaN and do not count towards ``m``."""
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any():
        return out
    pv = p[ok]
    order = np.argsort(pv, kind="stable")
    adjusted = np.empty(pv.size)
    adjusted[order] = np.minimum(adjust(pv[order]), 1.0)
    out[ok] = adjusted
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
    """Sandwich covariance ``B^-1 M B^-1`` with score sums per cluster (CR1 small-sample factor).

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
    N, k = scores.shape
    if clusters is None:
        summed = scores
        g = N
    else:
        codes, _ = pd.factorize(pd.Series(clusters), sort=False)
        g = int(codes.max()) + 1 if codes.size else 0
        summed = np.zeros((g, k))
        np.add.at(summed, codes, scores)
    meat = summed.T @ summed
    factor = g / (g - 1) if g > 1 else 1.0
    if clusters is None:
        factor = N / max(N - k, 1)
    return factor * bread_inverse @ meat @ bread_inverse
