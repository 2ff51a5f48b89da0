"""Regression helpers: cluster-robust covariances and within-group (fixed-effects) OLS."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.sandwich_covariance import cov_cluster, cov_white_simple


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
