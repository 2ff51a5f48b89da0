"""Connection scoring: distribution of connection points, chain points by visit and by province,
and how the province order of a setup changes the connection potential of a game.

"Chain points" of a visit are the ``chain_v<k>`` column: palace plus connection points the player
scored in visit ``k``. The province of visit ``k`` is the one whose ``visit_<province>`` column
equals ``k``. The results record chain points per visit, not per city, so city-level chain points
are not available from results; province-level values are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.composition import score_composition, score_part_histogram
from tajsim.analysis.frames import setup_key_columns
from tajsim.analysis.stats import benjamini_hochberg, summarize_mean
from tajsim.games.tajmahal.engine.enums import N_VISITS

__all__ = [
    "CHAIN_COLUMNS",
    "chain_points_by_province",
    "chain_points_by_visit",
    "connection_distribution",
    "connection_summary",
    "province_adjacency_from_components",
    "province_columns",
    "province_order_effects",
]

CHAIN_COLUMNS = tuple(f"chain_v{k}" for k in range(1, N_VISITS + 1))


def province_columns(results: pd.DataFrame) -> list[str]:
    """The ``visit_<province>`` columns of ``results``, in frame order."""
    return [c for c in results.columns if c.startswith("visit_")]


def connection_summary(
    results: pd.DataFrame, by: Sequence[str] | None = None, *, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean and quantiles of connection points per group (:func:`score_composition` rows for
    ``connection``); output columns as there."""
    return score_composition(results, by, parts=("connection",), include_total=False,
                             confidence=confidence)


def connection_distribution(
    results: pd.DataFrame, by: Sequence[str] | None = None, *, confidence: float = 0.95
) -> pd.DataFrame:
    """Frequency of each connection-point total per group (:func:`score_part_histogram` for
    ``connection``); output columns as there."""
    return score_part_histogram(results, by, parts=("connection",), confidence=confidence)


def chain_points_by_visit(
    results: pd.DataFrame, by: Sequence[str] = ("n_players",), *, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean chain points (palace + connection) a player scores in each visit.

    Returns
    -------
    DataFrame, one row per group and visit
        ``by...``; ``visit`` (int64, 1..12); ``n`` (int64, player-games); ``mean``, ``sd``,
        ``ci_low``, ``ci_high`` (float64).
    """
    tables = []
    for k, col in enumerate(CHAIN_COLUMNS, start=1):
        t = summarize_mean(results, by, col, confidence=confidence)
        t.insert(len(by), "visit", np.int64(k))
        tables.append(t)
    return pd.concat(tables, ignore_index=True)


def _chain_at_province(results: pd.DataFrame) -> tuple[np.ndarray, list[str], np.ndarray]:
    """Chain points of each row at each province: (values (N, 12), slugs, visits (N, 12))."""
    pcols = province_columns(results)
    visits = results[pcols].to_numpy(np.int64)  # (N, n_prov) visit numbers 1..12
    chain = results[list(CHAIN_COLUMNS)].to_numpy(np.float64)  # (N, 12)
    values = np.take_along_axis(chain, visits - 1, axis=1)
    return values, [c.removeprefix("visit_") for c in pcols], visits


def chain_points_by_province(
    results: pd.DataFrame, by: Sequence[str] = (), *, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean chain points a player scores in the visit to each province.

    Needs ``chain_v1..12`` and the twelve ``visit_<province>`` columns.

    Returns
    -------
    DataFrame, one row per group and province
        ``by...``; ``province`` (str slug); ``n`` (int64, player-games); ``mean``, ``sd``,
        ``ci_low``, ``ci_high`` (float64, chain points per player in that visit);
        ``mean_visit`` (float64, average visit number of the province);
        ``share_of_chain_points`` (float64, the province's share of all chain points of the
        group).
    """
    values, slugs, visits = _chain_at_province(results)
    long = pd.DataFrame({
        "province": np.tile(np.array(slugs, dtype=object), len(results)),
        "chain": values.reshape(-1),
        "visit": visits.reshape(-1).astype(np.float64),
    })
    for c in by:
        long[c] = np.repeat(results[c].to_numpy(), len(slugs))
    keys = [*by, "province"]
    table = summarize_mean(long, keys, "chain", confidence=confidence)
    extra = long.groupby(keys, observed=True, sort=True).agg(
        mean_visit=("visit", "mean"), total=("chain", "sum")).reset_index()
    table = table.merge(extra, on=keys, how="left")
    if by:
        totals = table.groupby(list(by), observed=True)["total"].transform("sum")
    else:
        totals = table["total"].sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        table["share_of_chain_points"] = table["total"] / totals
    return table.drop(columns="total")


def province_adjacency_from_components(components: object) -> dict[str, set[str]] | None:
    """Province neighbours ``{slug: {slug, ...}}`` read from a components/board object, if it
    exposes them (``province_neighbours`` as slugs or indices, or city roads plus the city's
    province). Returns ``None`` when it cannot tell."""
    slugs = list(getattr(components, "province_slugs", []) or [])
    if not slugs:
        return None
    for attr in ("province_neighbours", "province_neighbors", "neighbours"):
        neigh = getattr(components, attr, None)
        if neigh is None:
            continue
        items = neigh.items() if isinstance(neigh, Mapping) else enumerate(neigh)
        adjacency: dict[str, set[str]] = {}
        for key, others in items:
            name = slugs[key] if isinstance(key, (int, np.integer)) else _slug(str(key))
            adjacency[name] = {
                slugs[o] if isinstance(o, (int, np.integer)) else _slug(str(o)) for o in others
            }
        return adjacency
    roads = getattr(components, "roads", None)
    city_province = getattr(components, "city_province", None)
    if roads is not None and city_province is not None:
        adjacency = {s: set() for s in slugs}
        for a, b in roads:
            pa, pb = slugs[int(city_province[a])], slugs[int(city_province[b])]
            if pa != pb:
                adjacency[pa].add(pb)
                adjacency[pb].add(pa)
        return adjacency
    return None


def _slug(name: str) -> str:
    return "".join(ch if ch.isalpha() else "_" for ch in name.lower())


def province_order_effects(
    results: pd.DataFrame,
    *,
    province_adjacency: Mapping[str, Iterable[str]] | None = None,
    outcome: str = "pts_connection",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Association of province-order features with the mean connection points of a setup.

    Each setup (board) is one observation: its mean ``outcome`` per player-game over the games
    played on it, so games sharing a setup are not counted as independent. Features: the visit
    number of each province (``visit_<province>``) and, when ``province_adjacency`` is given,
    ``consecutive_adjacent`` = how many of the 11 consecutive visit pairs go to neighbouring
    provinces. For each feature: Pearson correlation with its Fisher-z interval and exact p-value
    (``scipy.stats.pearsonr`` and its ``confidence_interval``), the least-squares slope
    (``scipy.stats.linregress``: outcome points per unit of feature), and Benjamini-Hochberg
    q-values across features (statsmodels ``multipletests``).

    Parameters
    ----------
    results : DataFrame
        Needs ``setup_id``, the ``visit_<province>`` columns and ``outcome``.
    province_adjacency : mapping of str to iterable of str, optional
        Neighbouring provinces by slug (see :func:`province_adjacency_from_components`).
    outcome : str
        Player-game column averaged per setup (default ``pts_connection``).

    Returns
    -------
    DataFrame, one row per feature, sorted by p-value
        ``feature`` (str); ``n`` (int64, setups); ``n_games`` (int64); ``correlation``,
        ``ci_low``, ``ci_high`` (float64); ``slope`` (float64); ``p_value``, ``q_value``
        (float64).
    """
    keys = setup_key_columns(results)
    pcols = province_columns(results)
    frame = results[keys + pcols + [outcome]].copy()
    frame["_game"] = results["game_id"].to_numpy()
    per_setup = frame.groupby(keys, observed=True, sort=False).agg(
        **{c: (c, "first") for c in pcols}, y=(outcome, "mean"), n_games=("_game", "nunique"))
    features = {c: per_setup[c].to_numpy(np.float64) for c in pcols}
    if province_adjacency is not None:
        slugs = [c.removeprefix("visit_") for c in pcols]
        adjacency = {k: set(v) for k, v in province_adjacency.items()}
        visits = per_setup[pcols].to_numpy(np.int64)
        order = np.argsort(visits, axis=1)  # province index at visit 1..12
        count = np.zeros(len(per_setup))
        for k in range(order.shape[1] - 1):
            a = order[:, k]
            b = order[:, k + 1]
            count += [slugs[j] in adjacency.get(slugs[i], ()) for i, j in zip(a, b)]
        features["consecutive_adjacent"] = count
    y = per_setup["y"].to_numpy(np.float64)
    n = int(y.size)
    rows = []
    for name, x in features.items():
        r = slope = low = high = p = np.nan
        if n >= 3 and np.std(x) > 0 and np.std(y) > 0:
            test = sps.pearsonr(x, y)
            r, p = float(test.statistic), float(test.pvalue)
            slope = float(sps.linregress(x, y).slope)
            if n >= 4:  # Fisher's z needs n - 3 > 0
                low, high = (float(v) for v in test.confidence_interval(confidence))
            else:
                p = np.nan
        rows.append({"feature": name, "n": n, "n_games": int(per_setup["n_games"].sum()),
                     "correlation": r, "ci_low": low, "ci_high": high, "slope": slope,
                     "p_value": p})
    out = pd.DataFrame(rows)
    out["q_value"] = benjamini_hochberg(out["p_value"].to_numpy())
    out["n"] = out["n"].astype(np.int64)
    out["n_games"] = out["n_games"].astype(np.int64)
    return out.sort_values("p_value", kind="stable").reset_index(drop=True)
