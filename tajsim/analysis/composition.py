"""Score composition: mean and distribution of each score part by strategy, player count, edition.

The parts are the ``pts_<part>`` columns of the results frame: the game's declared score parts
(``GameSpec.score_parts``, e.g. Taj Mahal's palace, connection, commodity, bonus, special,
cards), which sum to ``score``. By default every ``pts_*`` column of the frame is a part.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.stats import summarize_mean, wilson_interval

__all__ = ["part_names", "score_composition", "score_part_histogram"]
DEFAULT_BY = ("edition", "n_players", "strategy")
DEFAULT_QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def part_names(results: pd.DataFrame) -> tuple[str, ...]:
    """The score parts of a results frame: its ``pts_<part>`` columns, in frame order."""
    return tuple(c[4:] for c in results.columns if str(c).startswith("pts_"))


def _present(results: pd.DataFrame, by: Sequence[str] | None) -> list[str]:
    if by is None:
        return [c for c in DEFAULT_BY if c in results.columns]
    return list(by)


def score_composition(
    results: pd.DataFrame,
    by: Sequence[str] | None = None,
    *,
    parts: Sequence[str] | None = None,
    include_total: bool = True,
    total: str = "score",
    measures: Sequence[str] = (),
    confidence: float = 0.95,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
) -> pd.DataFrame:
    """Mean, interval and quantiles of each score part per group (long format).

    Parameters
    ----------
    results : DataFrame
        Needs ``pts_<part>`` for each requested part, ``score`` (when ``include_total``) and
        the ``by`` columns.
    by : sequence of str, optional
        Default: those of ``edition``, ``n_players``, ``strategy`` present.
    parts : sequence of str, optional
        Part names without the ``pts_`` prefix (default: every ``pts_*`` column).
    include_total : bool
        Add ``part == total`` rows for the total the parts add up to.
    total : str
        The column the parts add up to (default ``score``; a game whose score is a ranking
        key gives what its parts really sum to, e.g. Maharaja's ``gold``: its spec's
        ``score_display``). ``share_of_score`` is a part's share of it.
    measures : sequence of str
        Other result columns summarised the same way before the total (``part`` = the column
        name, e.g. Maharaja's ``palaces``); they are not parts, their share is NaN.
    quantiles : sequence of float
        Quantiles reported as ``q10``, ``q25``, ... columns.

    Returns
    -------
    DataFrame, one row per group and part
        ``by...``; ``part`` (str); ``n`` (int64, player-games); ``mean``, ``sd``, ``ci_low``,
        ``ci_high`` (float64, t interval of the mean); ``q<pct>`` (float64); ``share_of_score``
        (float64, the part's mean over the group's mean ``total``).
    """
    by = _present(results, by)
    parts = part_names(results) if parts is None else tuple(parts)
    # name -> column: the parts, the other measures, then the total.
    columns = {name: f"pts_{name}" for name in parts}
    columns.update({name: name for name in measures})
    if include_total:
        columns[total] = total
    tables = []
    for name, col in columns.items():
        table = summarize_mean(results, by, col, confidence=confidence, quantiles=quantiles)
        table.insert(len(by), "part", name)
        tables.append(table)
    out = pd.concat(tables, ignore_index=True)
    totals = summarize_mean(results, by, total)[[*by, "mean"]].rename(
        columns={"mean": "_mean_total"})
    out = out.merge(totals, on=by, how="left") if by else out.assign(
        _mean_total=float(totals["_mean_total"].iloc[0]))
    with np.errstate(invalid="ignore", divide="ignore"):
        out["share_of_score"] = out["mean"] / out["_mean_total"]
    out.loc[out["part"].isin([m for m in measures if m != total]), "share_of_score"] = np.nan
    return out.drop(columns="_mean_total")


def score_part_histogram(
    results: pd.DataFrame,
    by: Sequence[str] | None = None,
    *,
    parts: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Frequency of each point value of each score part per group (the full distribution).

    Returns
    -------
    DataFrame, one row per group, part and observed point value
        ``by...``; ``part`` (str); ``points`` (int64); ``count`` (int64); ``n`` (int64,
        player-games in the group); ``share``, ``ci_low``, ``ci_high`` (float64, Wilson).
    """
    by = _present(results, by)
    parts = part_names(results) if parts is None else tuple(parts)
    tables = []
    for name in parts:
        col = f"pts_{name}"
        keys = [*by, col]
        counts = results.groupby(keys, observed=True, sort=True).size().rename("count")
        counts = counts.reset_index().rename(columns={col: "points"})
        if by:
            sizes = results.groupby(by, observed=True).size().rename("n").reset_index()
            counts = counts.merge(sizes, on=by, how="left")
        else:
            counts["n"] = len(results)
        counts.insert(len(by), "part", name)
        tables.append(counts)
    out = pd.concat(tables, ignore_index=True)
    out["points"] = out["points"].astype(np.int64)
    out["count"] = out["count"].astype(np.int64)
    out["n"] = out["n"].astype(np.int64)
    out["share"] = out["count"] / out["n"]
    low, high = wilson_interval(out["count"].to_numpy(), out["n"].to_numpy(), confidence)
    out["ci_low"] = low
    out["ci_high"] = high
    return out
