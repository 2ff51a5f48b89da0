"""Setup balance: how much of the outcome comes from the setup (board) rather than from play,
which setup features shift win rates, and the most and least balanced setups.

A *setup* is a province order plus a bonus-tile placement, identified by ``setup_id`` within a
run (key columns: those of ``variant``, ``run_id``, ``seed``, ``edition``, ``n_players`` present,
plus ``setup_id``). The runner replays a setup from the run's ``seed`` and the ``setup_id``, so
every setup listed here can be replayed. These analyses need several games per setup: with one
game per setup the setup and play variance cannot be separated (the functions then return an
empty table or NaN estimates and the report says so).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, setup_key_columns, win_value
from tajsim.analysis.stats import (
    benjamini_hochberg,
    chi_square_equal_shares,
    difference_of_means,
    holm,
    icc_oneway,
    wilson_interval,
)

__all__ = [
    "games_per_setup",
    "setup_feature_tests",
    "setup_imbalance",
    "setup_variance_share",
]


def games_per_setup(results: pd.DataFrame) -> pd.Series:
    """Number of games played on each setup (Series of int64 indexed by the setup key)."""
    keys = setup_key_columns(results)
    frame = results[keys].copy()
    frame["_game"] = game_index(results)
    return frame.groupby(keys, observed=True, sort=True)["_game"].nunique().astype(np.int64)


def _outcome(
    results: pd.DataFrame, outcome: str, share_ties: bool, adjust_for_strategy: bool = False
) -> np.ndarray:
    """Outcome of each row; with ``adjust_for_strategy`` minus the mean outcome of the row's
    strategy (within its variant / edition / player count), plus the overall mean."""
    if outcome == "win":
        y = win_value(results, share_ties=share_ties).to_numpy()
    elif outcome == "score_margin":
        gidx = game_index(results)
        score = results["score"].to_numpy(np.float64)
        totals = np.bincount(gidx, weights=score)
        others = (totals[gidx] - score) / (results["n_players"].to_numpy(np.float64) - 1.0)
        y = score - others
    else:
        y = results[outcome].to_numpy(np.float64)
    if adjust_for_strategy and "strategy" in results.columns:
        keys = [c for c in ("variant", "edition", "n_players") if c in results.columns]
        series = pd.Series(y, index=results.index)
        group_mean = series.groupby([results[c] for c in keys], observed=True).transform("mean")
        strategy_mean = series.groupby([results[c] for c in [*keys, "strategy"]],
                                       observed=True).transform("mean")
        y = y - strategy_mean.to_numpy() + group_mean.to_numpy()
    return y


def _target_mask(results: pd.DataFrame, seat: int | None, strategy: str | None) -> np.ndarray:
    mask = np.ones(len(results), dtype=bool)
    if strategy is not None:
        mask &= (results["strategy"].astype(str) == str(strategy)).to_numpy()
    if seat is not None:
        mask &= (results["seat"] == seat).to_numpy()
    return mask


def setup_variance_share(
    results: pd.DataFrame,
    *,
    outcome: str = "win",
    seats: Sequence[int] | None = None,
    strategy: str | None = None,
    adjust_for_strategy: bool = True,
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Share of the variance of an outcome that lies between setups (one-way random-effects
    ANOVA, ICC(1); see :func:`tajsim.analysis.stats.icc_oneway`).

    For each player count (and edition) and each target, the observations are the outcome of the
    target's rows (one per game for a seat), grouped by setup. ``icc`` is the between-setup
    share: 0 when the setup does not matter, 1 when it decides everything. For a 0/1 outcome the
    share is on the probability scale: ``Var_setups(p_s) / (p(1 - p))``.

    Parameters
    ----------
    results : DataFrame
        Needs ``setup_id``, ``seat``, the game-key columns and the outcome's columns.
    outcome : {"win", "score", "score_margin"} or a numeric column name
        ``win``: win value; ``score_margin``: score minus the mean score of the opponents.
    seats : sequence of int, optional
        Seats to analyse, one target each (default: every seat). Ignored when ``strategy`` is
        given.
    strategy : str, optional
        Analyse this strategy's rows (all seats together) instead of seats.
    adjust_for_strategy : bool
        Subtract from each outcome the mean outcome of the row's strategy (default). Without it,
        which strategies sat in the seat enters the comparison: with seats rotated within a
        setup (the runner's ``games_per_setup``) every setup gets the same mix, the between-setup
        variance is too small and the share comes out negative; with unequal mixes it is
        inflated. No effect with a single strategy.

    Returns
    -------
    DataFrame, one row per group and target
        ``edition``/``n_players`` (those present); ``target`` (str, ``seat 0``... or the
        strategy); ``outcome`` (str); ``n`` (int64, observations); ``n_setups`` (int64);
        ``games_per_setup`` (float64, ``n0``); ``icc``, ``ci_low``, ``ci_high`` (float64);
        ``var_between``, ``var_within`` (float64); ``p_value`` (float64, F-test of no setup
        effect).
    """
    setup_keys = setup_key_columns(results)
    group_cols = [c for c in ("edition", "n_players") if c in results.columns]
    y_all = _outcome(results, outcome, share_ties, adjust_for_strategy and strategy is None)
    setup_code = results.groupby(setup_keys, observed=True, sort=False).ngroup().to_numpy()
    rows = []
    groups = results.groupby(group_cols, observed=True, sort=True).indices if group_cols else {
        (): np.arange(len(results))}
    for key, idx in groups.items():
        sub = results.iloc[idx]
        if strategy is not None:
            targets = [(str(strategy), _target_mask(sub, None, strategy))]
        else:
            all_seats = sorted(int(s) for s in sub["seat"].unique())
            chosen = all_seats if seats is None else [s for s in seats if s in all_seats]
            targets = [(f"seat {s}", _target_mask(sub, s, None)) for s in chosen]
        key_tuple = key if isinstance(key, tuple) else (key,)
        for label, mask in targets:
            stats = icc_oneway(y_all[idx][mask], setup_code[idx][mask], confidence)
            rows.append({
                **dict(zip(group_cols, key_tuple)), "target": label, "outcome": outcome,
                "n": int(stats["n"]), "n_setups": int(stats["n_groups"]),
                "games_per_setup": stats["n0"], "icc": stats["icc"],
                "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                "var_between": stats["var_between"], "var_within": stats["var_within"],
                "p_value": stats["p_value"],
            })
    return pd.DataFrame(rows)


def setup_imbalance(
    results: pd.DataFrame,
    *,
    min_games: int = 2,
    adjust_for_strategy: bool = True,
    share_ties: bool = True,
    confidence: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Seat imbalance of each setup: the spread between its best and worst seat's win rate.

    For each setup with at least ``min_games`` games: the win rate of every seat; the spread
    ``max - min`` with a conservative interval built from simultaneous Wilson intervals of the
    seats' win rates (each at level ``1 - (1 - confidence) / n_players``, Bonferroni):
    ``[max(0, max_i low_i - min_j high_j), max_i high_i - min_j low_j]``; the spread expected by
    chance when all seats are equal (``null_spread``, simulated with the same number of games —
    the raw spread is biased upwards, so compare with it); and a chi-square test of equal seats
    with Benjamini-Hochberg q-values across setups. Sorted from the least balanced (largest
    spread) to the most balanced.

    With ``adjust_for_strategy`` (default) the seat win rates are first corrected for the
    strategies that sat there: ``rate - mean(expected win rate of those strategies) + 1/P``
    (identical to the raw rates when every seat saw the same strategies, as with seats rotated
    within the setup). The chi-square test uses the raw counts: it is exact for a single
    strategy and conservative when strategies differ but are rotated evenly within the setup.

    Parameters
    ----------
    adjust_for_strategy : bool
    seed : int
        Seed of the simulation of ``null_spread``.

    Returns
    -------
    DataFrame, one row per setup
        the setup key columns (``seed``, ``setup_id``, ...: replay a setup from them);
        ``n`` (int64, games); ``win_rate_seat<s>`` (float64, one per seat, strategy-adjusted
        unless ``adjust_for_strategy=False``); ``spread``,
        ``ci_low``, ``ci_high`` (float64); ``null_spread`` (float64); ``excess_spread``
        (``spread - null_spread``); ``best_seat``, ``worst_seat`` (int64); ``chi2``,
        ``p_value``, ``q_value`` (float64).
    """
    keys = setup_key_columns(results)
    rng = np.random.default_rng(seed)
    win = win_value(results, share_ties=share_ties).to_numpy()
    adjusted = (_outcome(results, "win", share_ties, True) if adjust_for_strategy else win)
    gidx = game_index(results)
    seat = results["seat"].to_numpy(np.int64)
    n_players = results["n_players"].to_numpy(np.int64)
    null_cache: dict[tuple[int, int], float] = {}
    rows = []
    for key, idx in results.groupby(keys, observed=True, sort=True).indices.items():
        P = int(n_players[idx[0]])
        games, local = np.unique(gidx[idx], return_inverse=True)
        m = games.size
        if m < min_games:
            continue
        wins = np.bincount(seat[idx], weights=win[idx], minlength=P)[:P]
        rates = np.round(np.bincount(seat[idx], weights=adjusted[idx], minlength=P)[:P] / m, 12)
        spread = float(rates.max() - rates.min())
        shift = rates - wins / m  # strategy adjustment of each seat's rate
        low, high = wilson_interval(wins, np.full(P, m), 1.0 - (1.0 - confidence) / P)
        low, high = low + shift, high + shift
        if (m, P) not in null_cache:
            sims = rng.multinomial(m, np.full(P, 1.0 / P), size=2000) / m
            null_cache[(m, P)] = float((sims.max(axis=1) - sims.min(axis=1)).mean())
        chi2, _, p_value, _ = chi_square_equal_shares(wins)
        key_tuple = key if isinstance(key, tuple) else (key,)
        row = {**dict(zip(keys, key_tuple)), "n": m}
        row.update({f"win_rate_seat{s}": float(r) for s, r in enumerate(rates)})
        row.update(
            spread=spread,
            ci_low=float(max(0.0, low.max() - high.min())),
            ci_high=float(high.max() - low.min()),
            null_spread=null_cache[(m, P)],
            excess_spread=spread - null_cache[(m, P)],
            best_seat=int(np.argmax(rates)), worst_seat=int(np.argmin(rates)),
            chi2=chi2, p_value=p_value,
        )
        rows.append(row)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["q_value"] = benjamini_hochberg(out["p_value"].to_numpy())
    out["n"] = out["n"].astype(np.int64)
    return out.sort_values(["spread", "p_value"], ascending=[False, True],
                           kind="stable").reset_index(drop=True)


def _ols_slope(x: np.ndarray, y: np.ndarray, confidence: float) -> tuple[float, ...]:
    """Least-squares slope of y on (1, x) with classical t(n - 2) inference:
    ``scipy.stats.linregress`` (slope, its standard error and p-value) and the t quantile.

    Returns (slope, ci_low, ci_high, p_value)."""
    n = y.size
    if n < 3 or np.ptp(x) <= 0:
        return (float("nan"),) * 4
    fit = sps.linregress(x, y)
    slope, se = float(fit.slope), float(fit.stderr)
    if se == 0:
        return slope, slope, slope, float("nan")
    low, high = sps.t.interval(confidence, n - 2, loc=slope, scale=se)
    return slope, float(low), float(high), float(fit.pvalue)


def setup_feature_tests(
    results: pd.DataFrame,
    *,
    seat: int | None = 0,
    strategy: str | None = None,
    outcome: str = "win",
    adjust_for_strategy: bool = True,
    share_ties: bool = True,
    fdr: float = 0.05,
    confidence: float = 0.95,
    features: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Which setup features shift the win rate of a seat (default seat 0) or of a strategy.

    The unit is the setup: the target's mean outcome over the games of each setup (games on one
    board are not independent, and a feature is fixed within a setup). ``features`` are the
    game's setup-feature columns (``GameSpec.setup_feature_columns``; Taj Mahal: each
    ``visit_<province>`` and ``bonus_<city>``). A numeric feature (a visit number) gets a slope
    (level ``"per unit"``; effect = change in win rate per unit, e.g. per later visit of that
    province: the
    least-squares slope across setups, t-test with ``setups - 2`` df); a categorical one gets an
    indicator per level (effect = difference in mean win rate between setups with and without
    that level, e.g. that bonus tile on that city: Welch t-test; needs two setups on each
    side). p-values are
    corrected across all features of a player-count group by Benjamini-Hochberg (``q_value``,
    FDR) and Holm (``p_holm``, FWER).

    Parameters
    ----------
    seat, strategy
        Target rows: this seat, this strategy, or both (``seat=None`` for every seat of the
        strategy).
    outcome : {"win", "score", "score_margin"} or a numeric column
    adjust_for_strategy : bool
        Subtract the mean outcome of each row's strategy first (default; removes the noise, or
        bias, of which strategies sat in the target seat on each board). Ignored with
        ``strategy``.
    fdr : float
        ``significant`` is ``q_value <= fdr``.

    Returns
    -------
    DataFrame, one row per group and feature, sorted by p-value within group
        ``edition``/``n_players`` (present ones); ``feature`` (str, the column); ``level``
        (str: the level, e.g. the bonus kind, or ``"per unit"`` for a slope); ``n`` (int64,
        setups); ``n_with`` (int64,
        setups with the level; for visit features all); ``n_games`` (int64); ``effect``,
        ``ci_low``, ``ci_high`` (float64); ``p_value``, ``q_value``, ``p_holm`` (float64);
        ``significant`` (bool). Features constant over the setups (e.g. Agra's province, always
        visited last) have NaN estimates.
    """
    setup_keys = setup_key_columns(results)
    group_cols = [c for c in ("edition", "n_players") if c in results.columns]
    frame = results[list(dict.fromkeys([*setup_keys, *group_cols]))].copy()
    frame["_y"] = _outcome(results, outcome, share_ties,
                           adjust_for_strategy and strategy is None)
    frame["_game"] = game_index(results)
    frame = frame[_target_mask(results, seat, strategy)]
    if features is None:
        raise ValueError("setup_feature_tests needs the setup-feature columns (the game spec's "
                         "setup_feature_columns; the analysis registry passes them)")
    missing = [c for c in features if c not in results.columns]
    if missing:
        raise ValueError(f"setup feature columns {missing} are not in the results")
    # numeric features get a slope; categorical and yes/no ones a difference per level
    visit_cols = [c for c in features if pd.api.types.is_numeric_dtype(results[c])
                  and not pd.api.types.is_bool_dtype(results[c])]
    bonus_cols = [c for c in features if c not in visit_cols]
    first = results.loc[frame.index, visit_cols + bonus_cols]
    frame = pd.concat([frame, first], axis=1)
    per_setup = frame.groupby(setup_keys, observed=True, sort=True).agg(
        _y=("_y", "mean"), _games=("_game", "nunique"),
        **{c: (c, "first") for c in visit_cols + bonus_cols})
    per_setup = per_setup.reset_index()
    tables = []
    groups = per_setup.groupby(group_cols, observed=True, sort=True) if group_cols else [
        ((), per_setup)]
    for key, sub in groups:
        y = sub["_y"].to_numpy(np.float64)
        n_games = int(sub["_games"].sum())
        rows = []
        for col in visit_cols:
            effect, low, high, p_value = _ols_slope(sub[col].to_numpy(np.float64), y,
                                                    confidence)
            rows.append({"feature": col, "level": "per unit", "n": y.size, "n_with": y.size,
                         "n_games": n_games, "effect": effect, "ci_low": low, "ci_high": high,
                         "p_value": p_value})
        for col in bonus_cols:
            values = sub[col].astype(str).to_numpy()
            for level in sorted(set(values)):
                hit = values == level
                effect, low, high, p_value = difference_of_means(y[hit], y[~hit], confidence)
                rows.append({"feature": col, "level": level, "n": y.size,
                             "n_with": int(hit.sum()), "n_games": n_games, "effect": effect,
                             "ci_low": low, "ci_high": high, "p_value": p_value})
        table = pd.DataFrame(rows)
        if table.empty:
            continue
        table["q_value"] = benjamini_hochberg(table["p_value"].to_numpy())
        table["p_holm"] = holm(table["p_value"].to_numpy())
        table["significant"] = table["q_value"] <= fdr
        key_tuple = key if isinstance(key, tuple) else (key,)
        for pos, (c, v) in enumerate(zip(group_cols, key_tuple)):
            table.insert(pos, c, v)
        tables.append(table.sort_values("p_value", kind="stable"))
    if not tables:
        return pd.DataFrame()
    out = pd.concat(tables, ignore_index=True)
    for c in ("n", "n_with", "n_games"):
        out[c] = out[c].astype(np.int64)
    return out
