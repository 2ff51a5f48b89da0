"""Win rates by strategy, seat and player count, and the test of seat (first-player) advantage.

Ties: see :func:`tajsim.analysis.stats.win_value`. By default (``share_ties=True``) each of ``k``
tied winners scores ``1/k``, so the equal-players baseline is exactly ``1 / n_players`` and is
reported in the ``baseline`` column; ``share_ties=False`` counts every tied winner as a full win.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.commodities import conditional_logit
from tajsim.analysis.stats import (
    chi_square_equal_shares,
    game_index,
    proportion_table,
    validate_games,
    wilson_interval,
    win_value,
)

__all__ = [
    "REQUIRED_COLUMNS",
    "seat_advantage_test",
    "win_rates",
    "win_rates_by_player_count",
    "win_rates_by_seat",
    "win_rates_by_strategy",
]

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
        Grouping columns, e.g. ``("n_players", "seat")``.
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
    frame = results[by].copy() if by else pd.DataFrame(index=results.index)
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


def win_rates_by_strategy(results: pd.DataFrame, **kwargs) -> pd.DataFrame:
    """:func:`win_rates` by ``n_players`` and ``strategy`` (rates are not comparable across
    player counts, so they are never pooled)."""
    return win_rates(results, by=("n_players", "strategy"), **kwargs)


def win_rates_by_seat(results: pd.DataFrame, **kwargs) -> pd.DataFrame:
    """:func:`win_rates` by ``n_players`` and ``seat``."""
    return win_rates(results, by=("n_players", "seat"), **kwargs)


def win_rates_by_player_count(results: pd.DataFrame, **kwargs) -> pd.DataFrame:
    """:func:`win_rates` by ``edition``, ``n_players`` and ``strategy``."""
    by = [c for c in ("edition", "n_players", "strategy") if c in results.columns]
    return win_rates(results, by=by, **kwargs)


def seat_advantage_test(
    results: pd.DataFrame,
    *,
    by: Sequence[str] = ("n_players",),
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Test whether seats win equally often, per player count (or other ``by`` groups).

    Method: the win values of each seat are summed over the games of a group and compared with
    equal shares by a chi-square goodness-of-fit test with ``n_players - 1`` degrees of freedom
    (with ``share_ties=True`` a tie adds ``1/k`` to each tied seat, so the counts sum to the number
    of games). Effect sizes: Cramér's V of that table, and the first seat's win rate minus
    ``1/n_players`` with a Wilson interval.

    Seat effects are only attributable to the seat when strategies are balanced over seats
    (rotated, or the same strategy everywhere): ``strategy_seat_balance_p`` is the p-value of a
    chi-square test of independence of strategy and seat (``nan`` with one strategy); a small
    value means the seat comparison is confounded by strategy. The chi-square test assumes the
    winning seat is a multinomial draw; when strategies of very different strength are rotated
    evenly, seat counts vary less than that and the test is conservative. ``wald_p_value`` is a
    second test that holds strategy constant: a Wald test of the seat dummies in a conditional
    logit of winning on seat and strategy dummies (robust covariance, ``n_players - 1`` df).

    Parameters
    ----------
    results : DataFrame
        Needs ``winner``, ``seat``, ``n_players``, ``strategy`` and the game-key columns.
    by : sequence of str
        Groups tested separately; must include ``n_players`` (or hold one player count).

    Returns
    -------
    DataFrame, one row per group
        ``by...``; ``n`` (int64, games); ``n_tied_games`` (int64); ``chi2``, ``dof``,
        ``p_value``, ``cramers_v``; ``first_seat_win_rate``, ``first_seat_excess`` (rate minus
        ``1/n_players``) with ``ci_low``/``ci_high`` (interval of the excess); ``best_seat``,
        ``worst_seat`` (int64), ``seat_spread`` (best minus worst seat win rate);
        ``strategy_seat_balance_p``; ``wald_chi2``, ``wald_p_value`` (strategy-adjusted test).
    """
    validate_games(results)
    by = list(by)
    frame = results[list(dict.fromkeys([*by, "n_players", "seat", "strategy"]))].copy()
    frame["win"] = win_value(results, share_ties=share_ties).to_numpy()
    frame["game"] = game_index(results)
    frame["won"] = results["winner"].to_numpy(dtype=bool)
    rows = []
    groups = frame.groupby(by, observed=True, sort=True) if by else [((), frame)]
    for key, grp in groups:
        n_players_values = grp["n_players"].unique()
        if n_players_values.size != 1:
            raise ValueError("seat_advantage_test needs one player count per group; add n_players"
                             " to by")
        P = int(n_players_values[0])
        counts = np.bincount(grp["seat"].to_numpy(np.int64), weights=grp["win"].to_numpy(),
                             minlength=P)[:P]
        n_games = int(grp["game"].nunique())
        chi2, dof, p_value, cramers_v = chi_square_equal_shares(counts)
        winners_per_game = np.bincount(
            pd.factorize(grp["game"])[0], weights=grp["won"].to_numpy(np.float64))
        rates = counts / n_games
        low, high = wilson_interval(counts[0], n_games, confidence)
        balance_p = _strategy_seat_balance(grp)
        wald_chi2, wald_p = _seat_wald_test(grp)
        key_tuple = key if isinstance(key, tuple) else (key,)
        rows.append(
            {
                **dict(zip(by, key_tuple)),
                "n": n_games,
                "n_tied_games": int((winners_per_game > 1).sum()),
                "chi2": chi2,
                "dof": dof,
                "p_value": p_value,
                "cramers_v": cramers_v,
                "first_seat_win_rate": rates[0],
                "first_seat_excess": rates[0] - 1.0 / P,
                "ci_low": float(low) - 1.0 / P,
                "ci_high": float(high) - 1.0 / P,
                "best_seat": int(np.argmax(rates)),
                "worst_seat": int(np.argmin(rates)),
                "seat_spread": float(rates.max() - rates.min()),
                "strategy_seat_balance_p": balance_p,
                "wald_chi2": wald_chi2,
                "wald_p_value": wald_p,
            }
        )
    out = pd.DataFrame(rows)
    if not out.empty:
        out["n"] = out["n"].astype(np.int64)
    return out


def _seat_wald_test(grp: pd.DataFrame) -> tuple[float, float]:
    """Wald test that all seat effects are 0 in a conditional logit of winning on seat and
    strategy dummies (robust covariance): a seat test that holds strategy constant.

    Returns (chi2, p_value) with ``n_players - 1`` degrees of freedom; NaN when not estimable."""
    seats = pd.get_dummies(grp["seat"], prefix="seat", drop_first=True, dtype=np.float64)
    k_seat = seats.shape[1]
    if k_seat == 0:
        return float("nan"), float("nan")
    blocks = [seats.to_numpy()]
    strategies = grp["strategy"].astype(str)
    if strategies.nunique() > 1:
        blocks.append(pd.get_dummies(strategies, drop_first=True, dtype=np.float64).to_numpy())
    X = np.hstack(blocks)
    game = pd.factorize(grp["game"])[0].astype(np.int64)
    try:
        fit = conditional_logit(X, game, grp["win"].to_numpy(np.float64))
        b = fit["coef"][:k_seat]
        V = fit["cov"][:k_seat, :k_seat]
        chi2 = float(b @ np.linalg.solve(V, b))
    except np.linalg.LinAlgError:
        return float("nan"), float("nan")
    if not np.isfinite(chi2):
        return float("nan"), float("nan")
    return chi2, float(sps.chi2.sf(chi2, k_seat))


def _strategy_seat_balance(grp: pd.DataFrame) -> float:
    """p-value of a chi-square test of independence of strategy and seat (NaN if undefined)."""
    strat, _ = pd.factorize(grp["strategy"])
    seat, _ = pd.factorize(grp["seat"])
    n_strat, n_seat = strat.max() + 1, seat.max() + 1
    if n_strat < 2 or n_seat < 2:
        return float("nan")
    table = np.bincount(strat * n_seat + seat, minlength=n_strat * n_seat).reshape(
        n_strat, n_seat)
    return float(sps.chi2_contingency(table, correction=False)[1])
