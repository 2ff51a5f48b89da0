"""Small statistics helpers for Maharaja's analyses: group means with t intervals and group
proportions with Wilson intervals, both with their sample size ``n``.

The wing may import only the generic modules that keep their paths, so these are local; they
follow ``tajsim.analysis.stats`` (same column names: ``n``, ``mean``/``rate``, ``sd``,
``ci_low``, ``ci_high``) and can be replaced by it when the lead wires the wing in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

__all__ = ["group_means", "group_rates", "wilson"]


def wilson(successes: np.ndarray | float, n: np.ndarray | float,
           confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a proportion (arrays welcome); n = 0 gives (0, 1)."""
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    k = np.asarray(successes, np.float64)
    m = np.asarray(n, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(m > 0, k / np.maximum(m, 1), 0.0)
        d = 1 + z * z / np.maximum(m, 1)
        c = p + z * z / (2 * np.maximum(m, 1))
        r = z * np.sqrt(p * (1 - p) / np.maximum(m, 1) + z * z / (4 * np.maximum(m, 1) ** 2))
        lo = np.where(m > 0, (c - r) / d, 0.0)
        hi = np.where(m > 0, (c + r) / d, 1.0)
    return lo, hi


def group_means(frame: pd.DataFrame, by: Sequence[str], value: str,
                confidence: float = 0.95) -> pd.DataFrame:
    """``by...``, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high`` of column ``value`` (t
    intervals; NaN bounds for n < 2)."""
    by = list(by)
    values = frame[value].astype(np.float64)
    keys = [frame[c] for c in by] if by else [pd.Series(0, index=frame.index, name="_all")]
    out = values.groupby(keys, observed=True, sort=True).agg(n="count", mean="mean", sd="std")
    out = out.reset_index()
    if not by:
        out = out.drop(columns=["_all"])
    out["n"] = out["n"].astype(np.int64)
    n = out["n"].to_numpy(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        crit = np.where(n > 1, sps.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)), np.nan)
        half = crit * out["sd"].to_numpy() / np.sqrt(n)
    out["ci_low"] = out["mean"] - half
    out["ci_high"] = out["mean"] + half
    return out[by + ["n", "mean", "sd", "ci_low", "ci_high"]]


def group_rates(frame: pd.DataFrame, by: Sequence[str], flag: str,
                confidence: float = 0.95) -> pd.DataFrame:
    """``by...``, ``n``, ``successes``, ``rate``, ``ci_low``, ``ci_high`` of boolean column
    ``flag`` (Wilson intervals)."""
    by = list(by)
    values = frame[flag].astype(np.float64)
    keys = [frame[c] for c in by] if by else [pd.Series(0, index=frame.index, name="_all")]
    out = values.groupby(keys, observed=True, sort=True).agg(n="count", successes="sum")
    out = out.reset_index()
    if not by:
        out = out.drop(columns=["_all"])
    out["n"] = out["n"].astype(np.int64)
    out["successes"] = out["successes"].astype(np.int64)
    out["rate"] = out["successes"] / out["n"]
    lo, hi = wilson(out["successes"].to_numpy(), out["n"].to_numpy(), confidence)
    out["ci_low"] = lo
    out["ci_high"] = hi
    return out[by + ["n", "successes", "rate", "ci_low", "ci_high"]]
