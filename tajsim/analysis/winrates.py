"""Win rates by strategy, seat and player count, and the test of seat (first-player) advantage.

Ties: see :func:`tajsim.analysis.stats.win_value`. By default (``share_ties=True``) each of ``k``
tied winners scores ``1/k``, so the equal-players baseline is exactly ``1 / n_players`` and is
reported in the ``baseline`` column; ``share_ties=False`` counts every tied winner as a full win.

Line-ups: a seat comparison is fair only when every seat sees the same line-ups (own strategy and
opponents). :func:`seat_lineup_balance` checks that, and :func:`seat_advantage_test` compares the
seats within line-ups. ``by`` may name ``"lineup"`` (the strategies at the table,
:func:`table_lineups`), derived when the results have no such column.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, validate_games, win_value
from tajsim.analysis.stats import (
    chi_square_equal_shares,
    normal_quantile,
    proportion_table,
    wilson_interval,
)
from tajsim.analysis.stats.verdicts import (
    ALPHA,
    Order,
    cluster_sums,
    clustered_ratios,
    rank_first_probability,
    tested_order,
)

__all__ = [
    "CONFOUNDED_P",
    "LINEUP_KINDS",
    "REQUIRED_COLUMNS",
    "lineup_labels",
    "seat_advantage_test",
    "seat_lineup_balance",
    "strategy_order",
    "table_lineups",
    "win_rates",
    "win_rates_by_player_count",
    "win_rates_by_seat",
    "win_rates_by_strategy",
]

#: What a line-up is, for the seat analyses: own strategy and the opponents as a multiset
#: (``"opponents"``) or in turn order from the next seat on (``"order"``).
LINEUP_KINDS = ("opponents", "order")
#: Seats and line-ups count as confounded when their independence test gives a p-value below this.
CONFOUNDED_P = 0.01

#: Columns every function here reads.
REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "winner")


def win_rates(
    results: pd.DataFrame,
    by: Sequence[str] = ("strategy",),
    *,
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Win rate per group with a Wilson interval and the equal-players baseline.

    Parameters
    ----------
    results : DataFrame
        Results frame (docs/results-schema.md); needs ``winner``, ``n_players``, the game-key
        columns and the ``by`` columns.
    by : sequence of str
        Grouping columns, e.g. ``("n_players", "seat")``; ``"lineup"`` is derived
        (:func:`table_lineups`) when the results lack it.
    share_ties : bool
        Shared wins count ``1/k`` (default) or 1.
    confidence : float

    Returns
    -------
    DataFrame, one row per group
        ``by...``; ``n`` (int64, player-games); ``n_games`` (int64, distinct games);
        ``wins`` (float64, win values summed); ``win_rate``, ``ci_low``, ``ci_high`` (float64,
        Wilson); ``baseline`` (float64, mean ``1/n_players`` of the rows); ``excess``
        (``win_rate - baseline``).
    """
    by = list(by)
    frame = _with_lineup(results, by)[by].copy() if by else pd.DataFrame(index=results.index)
    frame["win"] = win_value(results, share_ties=share_ties)
    frame["inv_n"] = 1.0 / results["n_players"].astype(np.float64)
    frame["game"] = game_index(results)
    out = proportion_table(frame, by, "win", confidence=confidence, estimate_name="win_rate")
    out = out.rename(columns={"successes": "wins"})
    if by:
        grouped = frame.groupby(by, observed=True, sort=True)
        extra = grouped.agg(baseline=("inv_n", "mean"), n_games=("game", "nunique")).reset_index()
        out = out.merge(extra, on=by, how="left")
    else:
        out["baseline"] = frame["inv_n"].mean()
        out["n_games"] = frame["game"].nunique()
    out["n_games"] = out["n_games"].astype(np.int64)
    out["excess"] = out["win_rate"] - out["baseline"]
    return out[by + ["n", "n_games", "wins", "win_rate", "ci_low", "ci_high", "baseline",
                     "excess"]]


def strategy_order(
    results: pd.DataFrame, *, share_ties: bool = True, alpha: float = ALPHA,
    n_boot: int = 400, seed: int = 0,
) -> Order:
    """The strategies ordered by win rate with every pair tested: the differences of their win
    rates with a covariance clustered by game (strategies at one table share its winner),
    Holm over the pairs (:func:`tajsim.analysis.stats.verdicts.tested_order`), and the
    probability that each ranks first when the games are resampled (``n_boot`` replicates,
    ``seed``). Call it on one player count (win rates of different counts do not compare).

    Returns
    -------
    Order
        ``best`` is the strategy that wins most often, or ``"{a, b}"`` when the first ones are
        not told apart; ``p_first`` the bootstrap probabilities.
    """
    codes, names = pd.factorize(results["strategy"].astype(str), sort=True)
    sums, counts = cluster_sums(game_index(results), codes,
                                win_value(results, share_ties=share_ties).to_numpy(), len(names))
    estimate, cov = clustered_ratios(sums, counts)
    order = tested_order(list(names), estimate, cov=cov, alpha=alpha)
    first = rank_first_probability(sums, counts, list(names), n_boot=n_boot, seed=seed)
    return Order(order.names, order.estimates, order.tiers, order.pairwise, order.alpha, first)


def win_rates_by_strategy(results: pd.DataFrame, *, share_ties: bool = True,
                          confidence: float = 0.95) -> pd.DataFrame:
    """:func:`win_rates` by ``n_players`` and ``strategy`` (rates are not comparable across
    player counts, so they are never pooled)."""
    return win_rates(results, by=("n_players", "strategy"), share_ties=share_ties,
                     confidence=confidence)


def win_rates_by_seat(results: pd.DataFrame, *, share_ties: bool = True,
                      confidence: float = 0.95) -> pd.DataFrame:
    """:func:`win_rates` by ``n_players`` and ``seat``."""
    return win_rates(results, by=("n_players", "seat"), share_ties=share_ties,
                     confidence=confidence)


def win_rates_by_player_count(results: pd.DataFrame, *, share_ties: bool = True,
                              confidence: float = 0.95) -> pd.DataFrame:
    """:func:`win_rates` by ``edition``, ``n_players`` and ``strategy``."""
    by = [c for c in ("edition", "n_players", "strategy") if c in results.columns]
    return win_rates(results, by=by, share_ties=share_ties, confidence=confidence)


# ---------------------------------------------------------------------------
# Line-ups
# ---------------------------------------------------------------------------
def _check_lineup_kind(kind: str) -> str:
    if kind not in LINEUP_KINDS:
        raise ValueError(f"lineup {kind!r} is not one of {', '.join(LINEUP_KINDS)}")
    return kind


def _lineup_codes(results: pd.DataFrame, kind: str) -> tuple[np.ndarray, np.ndarray, list]:
    """Integer codes of each row's line-up as its player saw it and of its game's line-up.

    Returns ``(view_key, table_key, names)``: int64 keys aligned on the rows (unique within a
    player count) and the sorted strategy names the keys encode (base ``len(names)`` digits)."""
    _check_lineup_kind(kind)
    validate_games(results)
    game = game_index(results)
    codes, names = pd.factorize(results["strategy"].astype(str), sort=True)
    K = max(len(names), 1)
    seat = results["seat"].to_numpy(np.int64)
    n_players = results["n_players"].to_numpy(np.int64)
    view_key = np.empty(len(results), np.int64)
    table_key = np.empty(len(results), np.int64)
    for P in np.unique(n_players):
        sel = np.flatnonzero(n_players == P)
        rows = sel[np.lexsort((seat[sel], game[sel]))].reshape(-1, int(P))  # (games, seats)
        table = codes[rows]
        key = np.zeros(rows.shape[0], np.int64)
        for col in np.sort(table, axis=1).T:
            key = key * K + col
        table_key[rows] = key[:, None]
        for s in range(int(P)):
            others = table[:, [(s + k) % P for k in range(1, int(P))]]
            if kind == "opponents":
                others = np.sort(others, axis=1)
            key = table[:, s].astype(np.int64)
            for col in others.T:
                key = key * K + col
            view_key[rows[:, s]] = key
    return view_key, table_key, list(names)


def _decode(key: int, K: int, P: int) -> list[int]:
    digits = []
    for _ in range(P):
        key, d = divmod(int(key), K)
        digits.append(d)
    return digits[::-1]


def lineup_labels(results: pd.DataFrame, *, lineup: str = "opponents") -> pd.Series:
    """The line-up each player-game faced: its own strategy, then its opponents.

    Parameters
    ----------
    results : DataFrame
        Needs ``strategy``, ``seat``, ``n_players`` and the game-key columns (complete games).
    lineup : {"opponents", "order"}
        ``"opponents"``: the opponents as a multiset (sorted names), e.g. ``"greedy | balanced,
        balanced"``; ``"order"``: the opponents in turn order from the next seat on.

    Returns
    -------
    Series of str aligned on ``results.index``, named ``lineup``.
    """
    view_key, _, names = _lineup_codes(results, lineup)
    K = max(len(names), 1)
    n_players = results["n_players"].to_numpy(np.int64)
    pairs = pd.DataFrame({"P": n_players, "key": view_key})
    text = {}
    for P, key in pairs.drop_duplicates().itertuples(index=False):
        digits = _decode(key, K, int(P))
        text[(P, key)] = f"{names[digits[0]]} | " + ", ".join(names[d] for d in digits[1:])
    labels = [text[(P, k)] for P, k in zip(n_players, view_key)]
    return pd.Series(labels, index=results.index, name="lineup")


def table_lineups(results: pd.DataFrame) -> pd.Series:
    """The line-up of each row's game: the strategies at the table, e.g. ``"2 balanced + 1
    greedy"`` (``"3 balanced"`` for a mirror game). A game-level key: usable in ``by``.

    Returns
    -------
    Series of str aligned on ``results.index``, named ``lineup``.
    """
    _, table_key, names = _lineup_codes(results, "opponents")
    K = max(len(names), 1)
    n_players = results["n_players"].to_numpy(np.int64)
    pairs = pd.DataFrame({"P": n_players, "key": table_key})
    text = {}
    for P, key in pairs.drop_duplicates().itertuples(index=False):
        counts = pd.Series(_decode(key, K, int(P))).value_counts(sort=False).sort_index()
        text[(P, key)] = " + ".join(f"{c} {names[d]}" for d, c in counts.items())
    labels = [text[(P, k)] for P, k in zip(n_players, table_key)]
    return pd.Series(labels, index=results.index, name="lineup")


def _with_lineup(results: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """``results`` with a ``lineup`` column (:func:`table_lineups`) when ``by`` asks for one."""
    if "lineup" in by and "lineup" not in results.columns:
        return results.assign(lineup=table_lineups(results).to_numpy())
    return results


def seat_lineup_balance(
    results: pd.DataFrame,
    *,
    by: Sequence[str] = ("n_players",),
    lineup: str = "opponents",
) -> pd.DataFrame:
    """Does every seat see the same line-ups? The check that a seat comparison is not confounded
    with who the seat played against.

    Each player-game is labelled by its line-up (:func:`lineup_labels`: own strategy and
    opponents); per group, the seat x line-up table is compared with independence by a
    chi-square test. Deterministic seating plans give ``p_value`` 1 when balanced and ~0 when
    not (a design check, not a sampling test: the rows of one game are dependent).

    Returns
    -------
    DataFrame, one row per group
        ``by...``; ``n`` (int64, player-games); ``n_games`` (int64); ``n_lineups`` (int64,
        distinct line-ups); ``chi2``, ``dof``, ``p_value`` (seat x line-up independence; NaN with
        one line-up); ``imbalance`` (largest total-variation distance between one seat's line-up
        distribution and the pooled one: 0 balanced, up to 1); ``support_share`` (share of
        player-games whose line-up occurs in every seat); ``confounded`` (bool, ``p_value <
        0.01``).
    """
    by = list(by)
    view_key, _, _ = _lineup_codes(results, lineup)
    frame = _with_lineup(results, by)[by].copy() if by else pd.DataFrame(index=results.index)
    frame["_seat"] = results["seat"].to_numpy(np.int64)
    frame["_view"] = view_key
    frame["_game"] = game_index(results)
    rows = []
    groups = frame.groupby(by, observed=True, sort=True) if by else [((), frame)]
    for key, grp in groups:
        stats = _balance(grp["_seat"].to_numpy(), pd.factorize(grp["_view"])[0])
        key_tuple = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key_tuple)), "n": len(grp),
                     "n_games": int(grp["_game"].nunique()), **stats})
    out = pd.DataFrame(rows)
    if not out.empty:
        for col in ("n", "n_games", "n_lineups"):
            out[col] = out[col].astype(np.int64)
        out["confounded"] = out["confounded"].astype(bool)
    return out


def _balance(seat: np.ndarray, view: np.ndarray) -> dict[str, float | int | bool]:
    """Seat x line-up balance statistics of one group (see :func:`seat_lineup_balance`)."""
    seats, seat_code = np.unique(seat, return_inverse=True)
    n_seat, n_view = seats.size, int(view.max()) + 1
    table = np.bincount(seat_code * n_view + view, minlength=n_seat * n_view).reshape(
        n_seat, n_view).astype(np.float64)
    pooled = table.sum(axis=0) / table.sum()
    shares = table / table.sum(axis=1, keepdims=True)
    imbalance = float(0.5 * np.abs(shares - pooled[None, :]).sum(axis=1).max())
    support = (table > 0).all(axis=0)
    if n_seat > 1 and n_view > 1:
        chi2, p_value, dof, _ = sps.chi2_contingency(table, correction=False)
    else:
        chi2, p_value, dof = float("nan"), float("nan"), 0
    return {
        "n_lineups": n_view, "chi2": float(chi2), "dof": int(dof), "p_value": float(p_value),
        "imbalance": imbalance, "support_share": float(table[:, support].sum() / table.sum()),
        "confounded": bool(np.isfinite(p_value) and p_value < CONFOUNDED_P),
    }


# ---------------------------------------------------------------------------
# Seat advantage
# ---------------------------------------------------------------------------
def seat_advantage_test(
    results: pd.DataFrame,
    *,
    by: Sequence[str] = ("n_players",),
    share_ties: bool = True,
    lineup: str = "opponents",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Test whether seats win equally often, per player count, holding the line-up constant.

    A seat's win rate also depends on whom it plays: when seats see different line-ups (e.g.
    two strategies rotated over three seats, where seat 1 is always the lone strategy), raw seat
    rates mix seat and line-up effects. So the rates are **standardised over line-ups**: each
    player-game is labelled by its line-up (:func:`lineup_labels`: own strategy and opponents),
    the win rate of every (seat, line-up) cell is taken, and seat ``s``'s rate is
    ``sum_v w_v * rate[s, v]`` over the line-ups ``v`` seen in *every* seat, with ``w_v`` the
    pooled share of ``v``. When every seat sees the same line-ups (mirror games, full seat
    rotations) this equals the raw rate; line-ups not seen in every seat are left out (``n``
    counts the games used; none left: NaN, the seat effect is not identified).

    Test: Wald test that the standardised seat rates are equal (``n_players - 1`` df), with a
    covariance clustered by game (the seats of a game share its winner); effect sizes: Cramér's
    V of the standardised rates and the first seat's rate minus ``1/n_players`` with a normal
    interval. ``confounded`` / ``lineup_seat_balance_p`` (:func:`seat_lineup_balance`) flag
    designs whose seats saw different line-ups; the ``raw_*`` columns are the unadjusted
    chi-square test of the seats' summed win values against equal shares and the raw first-seat
    excess (Wilson interval), for comparison.

    Parameters
    ----------
    results : DataFrame
        Needs ``winner``, ``seat``, ``n_players``, ``strategy`` and the game-key columns.
    by : sequence of str
        Groups tested separately; must include ``n_players`` (or hold one player count).
        ``"lineup"`` (the strategies at the table, :func:`table_lineups`) is derived when the
        results lack such a column: ``by=("n_players", "lineup")`` tests each line-up apart.
    share_ties : bool
        Shared wins count ``1/k`` (default) or 1.
    lineup : {"opponents", "order"}
        What a line-up is: own strategy and the opponents as a multiset (default) or in turn
        order.

    Returns
    -------
    DataFrame, one row per group
        ``by...``; ``n`` (int64, games in the standardised estimate); ``n_games`` (int64, games
        in the group); ``n_tied_games``; ``n_lineups``, ``support_share``,
        ``lineup_seat_balance_p``, ``confounded`` (the balance check); ``chi2``, ``dof``,
        ``p_value`` (line-up-adjusted Wald test), ``cramers_v``; ``first_seat_win_rate``,
        ``first_seat_excess`` with ``ci_low``/``ci_high`` (interval of the excess);
        ``best_seat``, ``worst_seat`` (int64; -1 when not identified), ``seat_spread`` (best
        minus worst standardised rate); ``raw_first_seat_excess`` with
        ``raw_first_seat_excess_ci_low``/``_ci_high``; ``raw_chi2``, ``raw_p_value``.
    """
    validate_games(results)
    by = list(by)
    view_key, _, _ = _lineup_codes(results, lineup)
    source = _with_lineup(results, by)
    frame = source[list(dict.fromkeys([*by, "n_players", "seat"]))].copy()
    frame["win"] = win_value(results, share_ties=share_ties).to_numpy()
    frame["game"] = game_index(results)
    frame["won"] = results["winner"].to_numpy(dtype=bool)
    frame["view"] = view_key
    z = normal_quantile(confidence)
    rows = []
    groups = frame.groupby(by, observed=True, sort=True) if by else [((), frame)]
    for key, grp in groups:
        n_players_values = grp["n_players"].unique()
        if n_players_values.size != 1:
            raise ValueError("seat_advantage_test needs one player count per group; add n_players"
                             " to by")
        P = int(n_players_values[0])
        seat = grp["seat"].to_numpy(np.int64)
        win = grp["win"].to_numpy(np.float64)
        game = pd.factorize(grp["game"])[0].astype(np.int64)
        view = pd.factorize(grp["view"])[0].astype(np.int64)
        n_games = int(game.max()) + 1
        counts = np.bincount(seat, weights=win, minlength=P)[:P]
        raw_chi2, _, raw_p, _ = chi_square_equal_shares(counts)
        raw_low, raw_high = wilson_interval(counts[0], n_games, confidence)
        winners_per_game = np.bincount(game, weights=grp["won"].to_numpy(np.float64))
        balance = _balance(seat, view)
        std = _standardised_seat_rates(seat, view, win, game, P)
        rates, cov = std["rates"], std["cov"]
        chi2, p_value = _equal_rates_wald(rates, cov)
        finite = bool(np.isfinite(rates).all())
        se0 = float(np.sqrt(cov[0, 0])) if finite else float("nan")
        key_tuple = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(by, key_tuple)),
                "n": std["n_games"],
                "n_games": n_games,
                "n_tied_games": int((winners_per_game > 1).sum()),
                "n_lineups": balance["n_lineups"],
                "support_share": balance["support_share"],
                "lineup_seat_balance_p": balance["p_value"],
                "confounded": balance["confounded"],
                "chi2": chi2,
                "dof": P - 1,
                "p_value": p_value,
                "cramers_v": float(np.sqrt(P * ((rates - 1.0 / P) ** 2).sum() / (P - 1)))
                if finite else float("nan"),
                "first_seat_win_rate": float(rates[0]),
                "first_seat_excess": float(rates[0]) - 1.0 / P,
                "ci_low": float(rates[0]) - 1.0 / P - z * se0,
                "ci_high": float(rates[0]) - 1.0 / P + z * se0,
                "best_seat": int(np.argmax(rates)) if finite else -1,
                "worst_seat": int(np.argmin(rates)) if finite else -1,
                "seat_spread": float(rates.max() - rates.min()) if finite else float("nan"),
                "raw_first_seat_excess": counts[0] / n_games - 1.0 / P,
                "raw_first_seat_excess_ci_low": float(raw_low) - 1.0 / P,
                "raw_first_seat_excess_ci_high": float(raw_high) - 1.0 / P,
                "raw_chi2": raw_chi2,
                "raw_p_value": raw_p,
            }
        )
    out = pd.DataFrame(rows)
    if not out.empty:
        for col in ("n", "n_games", "n_tied_games", "n_lineups", "dof", "best_seat",
                    "worst_seat"):
            out[col] = out[col].astype(np.int64)
        out["confounded"] = out["confounded"].astype(bool)
    return out


def _standardised_seat_rates(seat: np.ndarray, view: np.ndarray, win: np.ndarray,
                             game: np.ndarray, P: int) -> dict:
    """Seat win rates standardised over the line-ups seen in every seat, with their covariance
    clustered by game. Returns ``rates`` (P,), ``cov`` (P, P) and ``n_games`` used.

    This is a least-squares fit of the win values on one dummy per (seat, line-up) cell (the
    cell means) followed by the weighted sums ``rates = L @ means``, with statsmodels' CR1
    cluster covariance (``G / (G - 1) * (N - 1) / (N - k)``, ``k`` cells). It stays ours,
    computed from cell sums, because the dummy matrix (rows x cells, thousands of cells for a
    tournament's line-ups) would not fit in memory; tests/test_stats_sources.py checks it
    against ``OLS(...).fit(cov_type="cluster")`` on the same data."""
    n_view = int(view.max()) + 1
    cell = seat * n_view + view
    n_cell = np.bincount(cell, minlength=P * n_view).reshape(P, n_view).astype(np.float64)
    sum_cell = np.bincount(cell, weights=win, minlength=P * n_view).reshape(P, n_view)
    support = np.asarray((n_cell > 0).all(axis=0))  # an array (the stubs allow a scalar)
    nan = {"rates": np.full(P, np.nan), "cov": np.full((P, P), np.nan), "n_games": 0}
    if not support.any():
        return nan
    weight = np.where(support, n_cell.sum(axis=0), 0.0)
    weight /= weight.sum()
    mean_cell = sum_cell / np.maximum(n_cell, 1.0)
    rates = (mean_cell * weight[None, :]).sum(axis=1)
    used = support[view]
    s, v, g = seat[used], view[used], game[used]
    # Each row's score of the cell-means fit (bread 1/n_cell) mapped through L.
    influence = weight[v] / n_cell[s, v] * (win[used] - mean_cell[s, v])
    games, g_code = np.unique(g, return_inverse=True)
    scores = np.zeros((games.size, P))
    np.add.at(scores, (g_code, s), influence)
    n_rows, n_cells = int(used.sum()), P * int(support.sum())
    factor = games.size / (games.size - 1) if games.size > 1 else 1.0
    if n_rows > n_cells:
        factor *= (n_rows - 1) / (n_rows - n_cells)
    return {"rates": rates, "cov": factor * scores.T @ scores, "n_games": int(games.size)}


def _equal_rates_wald(rates: np.ndarray, cov: np.ndarray) -> tuple[float, float]:
    """Wald test that all entries of ``rates`` are equal: (chi2, p) with ``len - 1`` df (what
    statsmodels' ``wald_test(R, use_f=False, scalar=True)`` gives for the contrasts ``R``;
    checked against it in tests/test_stats_sources.py)."""
    P = rates.size
    if P < 2 or not (np.isfinite(rates).all() and np.isfinite(cov).all()):
        return float("nan"), float("nan")
    contrast = np.hstack([-np.ones((P - 1, 1)), np.eye(P - 1)])
    d = contrast @ rates
    try:
        chi2 = float(d @ np.linalg.solve(contrast @ cov @ contrast.T, d))
    except np.linalg.LinAlgError:
        return float("nan"), float("nan")
    if not np.isfinite(chi2) or chi2 < 0:
        return float("nan"), float("nan")
    return chi2, float(sps.chi2.sf(chi2, P - 1))
