"""What Maharaja's analyses share: the column check with its one-line error, the grouping
columns, one row per game or per player-game with the generic game key, means clustered by
game, ratios of means, the games' end causes and Wilson intervals as floats.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import wilson_interval
from tajsim.errors import UserError
from tajsim.games.maharaja.engine.enums import END_CAUSE_NAMES

#: Within-game comparisons control for these (dummies; absent ones are skipped).
CONTROLS = ("seat", "strategy")


def _check(results: pd.DataFrame, columns: Sequence[str], name: str) -> None:
    missing = [c for c in columns if c not in results.columns]
    if missing:
        raise UserError(f"{name} needs the column {missing[0]!r}; the results frame has none "
                        "(is it a Maharaja run?)")


def _by(results: pd.DataFrame, by: Sequence[str] | str | None) -> list[str]:
    if by is None:
        return []
    cols = [by] if isinstance(by, str) else list(by)
    _check(results, cols, "the grouping")
    return cols


def _framed(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with ``win`` (1/k for each of k tied winners, else 0) and ``_game`` (one
    number per game, whatever the run: ``run_id`` and ``seed`` are part of the key)."""
    return results.assign(win=win_value(results).to_numpy(), _game=game_index(results))


def _with_game(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with ``_game`` (as in :func:`_framed`), for analyses that need no wins."""
    return results.assign(_game=game_index(results))


def _one_per_game(results: pd.DataFrame) -> pd.DataFrame:
    """The first row of each game (for the columns that are the same on a game's rows)."""
    first = ~pd.Series(game_index(results)).duplicated().to_numpy()
    return results.loc[first]


def _groups(frame: pd.DataFrame, keys: Sequence[str]):
    """``[(key tuple, sub-frame)]`` in sorted key order; one group when ``keys`` is empty."""
    if not keys:
        return [((), frame)]
    return [((k,) if not isinstance(k, tuple) else k, g)
            for k, g in frame.groupby(list(keys), observed=True, sort=True)]


def clustered_mean(values: np.ndarray, clusters: np.ndarray, confidence: float = 0.95
                   ) -> dict[str, float]:
    """Mean of ``values`` with a t interval clustered by ``clusters`` (one cluster per game).

    The standard error is the cluster-robust one of a mean, ``sqrt(G / (G - 1) * sum_g e_g^2) /
    N`` with ``e_g`` the sum of the deviations from the mean in cluster ``g``, and the interval
    has ``G - 1`` degrees of freedom. With one value per cluster it is the plain t interval.

    Returns
    -------
    dict
        ``n`` (values), ``n_games`` (clusters), ``mean``, ``sd``, ``ci_low``, ``ci_high``.
    """
    y = np.asarray(values, dtype=np.float64)
    codes = pd.factorize(np.asarray(clusters))[0]
    n, G = int(y.size), int(codes.max()) + 1 if y.size else 0
    out = {"n": n, "n_games": G, "mean": np.nan, "sd": np.nan, "ci_low": np.nan,
           "ci_high": np.nan}
    if n == 0:
        return out
    mean = float(y.mean())
    out["mean"] = mean
    out["sd"] = float(y.std(ddof=1)) if n > 1 else np.nan
    if G < 2:
        return out
    residual = np.bincount(codes, weights=y - mean, minlength=G)
    se = float(np.sqrt(G / (G - 1) * np.sum(residual ** 2)) / n)
    if se == 0:
        out["ci_low"] = out["ci_high"] = mean
        return out
    low, high = sps.t.interval(confidence, G - 1, loc=mean, scale=se)
    out["ci_low"], out["ci_high"] = float(low), float(high)
    return out


def _mean_table(frame: pd.DataFrame, keys: Sequence[str], column: str,
                confidence: float = 0.95) -> pd.DataFrame:
    """Per group: :func:`clustered_mean` of ``column`` over ``frame`` (which has ``_game``)."""
    rows = []
    for key, g in _groups(frame, keys):
        stats = clustered_mean(g[column].to_numpy(np.float64), g["_game"].to_numpy(), confidence)
        rows.append({**dict(zip(keys, key)), **stats})
    return pd.DataFrame(rows, columns=[*keys, "n", "n_games", "mean", "sd", "ci_low",
                                       "ci_high"])


def _ratio_of_means(y: np.ndarray, x: np.ndarray, confidence: float = 0.95
                    ) -> tuple[float, float, float]:
    """``sum(y) / sum(x)`` over paired observations with a delta-method t interval (``n - 1``
    df; the linearised values ``(y - r x) / mean(x)``). NaN when ``sum(x)`` is 0."""
    y, x = np.asarray(y, np.float64), np.asarray(x, np.float64)
    n = y.size
    if n < 2 or x.sum() <= 0:
        return np.nan, np.nan, np.nan
    ratio = float(y.sum() / x.sum())
    linear = (y - ratio * x) / x.mean()
    se = float(linear.std(ddof=1) / np.sqrt(n))
    if se == 0:
        return ratio, ratio, ratio
    low, high = sps.t.interval(confidence, n - 1, loc=ratio, scale=se)
    return ratio, float(low), float(high)


def _end_causes(values: pd.Series) -> np.ndarray:
    """End-cause names of a column that holds them as names (``frame_columns``) or as codes
    (the runner's per-game metric of the same name)."""
    if pd.api.types.is_numeric_dtype(values.dtype):
        codes = values.to_numpy(np.int64)
        return np.array(END_CAUSE_NAMES, dtype=object)[codes]
    return values.astype(str).to_numpy()


def _wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    low, high = wilson_interval(successes, n, confidence)
    return float(low), float(high)
