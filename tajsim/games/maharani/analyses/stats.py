"""Small statistics helpers of the Maharani analyses (candidates for promotion to the generic
``tajsim.analysis.stats``, which this wing may not import): a t interval for a mean, the Wilson
interval, and least squares with game fixed effects and cluster-robust (CR1, one cluster per
game) standard errors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

__all__ = ["mean_interval", "wilson", "within_game_ols"]


def mean_interval(x: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float, int]:
    """(mean, low, high, n) with a Student-t interval (nan bounds for n < 2)."""
    x = np.asarray(x, float)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0
    m = float(x.mean())
    if n < 2:
        return m, float("nan"), float("nan"), n
    se = float(x.std(ddof=1)) / np.sqrt(n)
    t = float(sps.t.ppf(0.5 + confidence / 2, n - 1))
    return m, m - t * se, m + t * se, n


def wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return float("nan"), float("nan")
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return float(centre - half), float(centre + half)


def _demean(values: np.ndarray, codes: np.ndarray, n_groups: int) -> np.ndarray:
    sums = np.zeros((n_groups,) + values.shape[1:])
    np.add.at(sums, codes, values)
    counts = np.bincount(codes, minlength=n_groups).astype(float)
    shape = (n_groups,) + (1,) * (values.ndim - 1)
    return values - (sums / counts.reshape(shape))[codes]


def within_game_ols(frame: pd.DataFrame, outcome: str, terms: Sequence[str],
                    controls: Sequence[str] = (), game: str = "game_id",
                    confidence: float = 0.95) -> pd.DataFrame:
    """``outcome ~ terms + controls + game fixed effects`` by least squares.

    Each game's mean is removed from the outcome and the regressors (so only differences
    between the players of one game identify the coefficients); ``controls`` are categorical
    columns entered as dummies (first level dropped). Standard errors are cluster-robust by game
    (CR1). Returns one row per term: ``coef``, ``se``, ``low``, ``high`` (t interval with
    games - 1 degrees of freedom), ``n`` (rows), ``n_games``.
    """
    cols = [np.asarray(frame[t], float) for t in terms]
    names = list(terms)
    for c in controls:
        if c not in frame:
            continue
        cat = pd.Categorical(frame[c])
        for level in cat.categories[1:]:
            cols.append((cat == level).astype(float))
            names.append(f"{c}={level}")
    X = np.column_stack(cols) if cols else np.zeros((len(frame), 0))
    y = np.asarray(frame[outcome], float)
    codes, uniques = pd.factorize(frame[game])
    G = len(uniques)
    Xd = _demean(X, codes, G)
    yd = _demean(y, codes, G)
    keep = np.abs(Xd).sum(axis=0) > 1e-12  # drop regressors constant within every game
    Xd = Xd[:, keep]
    names = [nm for nm, k in zip(names, keep) if k]
    out = []
    if Xd.shape[1] == 0 or G < 2:
        for t in terms:
            out.append({"term": t, "coef": np.nan, "se": np.nan, "low": np.nan, "high": np.nan,
                        "n": len(frame), "n_games": G})
        return pd.DataFrame(out)
    XtX_inv = np.linalg.pinv(Xd.T @ Xd)
    beta = XtX_inv @ Xd.T @ yd
    resid = yd - Xd @ beta
    scores = np.zeros((G, Xd.shape[1]))
    np.add.at(scores, codes, Xd * resid[:, None])
    n, k = Xd.shape
    dof = max(n - k - G, 1)
    correction = (G / max(G - 1, 1)) * ((n - 1) / dof)
    cov = correction * XtX_inv @ (scores.T @ scores) @ XtX_inv
    t = float(sps.t.ppf(0.5 + confidence / 2, max(G - 1, 1)))
    for term in terms:
        if term not in names:
            out.append({"term": term, "coef": np.nan, "se": np.nan, "low": np.nan,
                        "high": np.nan, "n": n, "n_games": G})
            continue
        i = names.index(term)
        se = float(np.sqrt(max(cov[i, i], 0.0)))
        out.append({"term": term, "coef": float(beta[i]), "se": se,
                    "low": float(beta[i] - t * se), "high": float(beta[i] + t * se), "n": n,
                    "n_games": G})
    return pd.DataFrame(out)
