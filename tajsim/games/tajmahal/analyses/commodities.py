"""Commodity value: what a good of each kind and each province tile is worth.

Two models of "winning" on player-game covariates are offered:

``model="clogit"`` (default)
    McFadden's conditional logit across the players of each game: the probability that player
    ``i`` wins game ``g`` is ``exp(x_i b) / sum_j exp(x_j b)`` over the table. It compares
    players only with their opponents of the same game (game-level conditions cancel; covariates
    constant within a game, like ``n_players``, are not identified and are dropped). Fitted by
    Newton-Raphson on the exact log-likelihood; standard errors from the Hessian (``cov="model"``)
    or the sandwich with one cluster per game (``cov="robust"``, default; statsmodels'
    ``cov_cluster``, CR1). Shared wins enter as fractional outcomes (``1/k`` each). ``coef`` is a
    log-odds-ratio per unit; the change in win probability is the average marginal effect
    ``mean_i(b * p_i * (1 - p_i))`` with a delta-method interval.
    The fit is ours: statsmodels' ``ConditionalLogit`` takes only 0/1 outcomes (no shared wins)
    and loops over the games in Python; tests/test_stats_sources.py checks ours against it on
    tie-free data (coefficients, covariances).
``model="lpm"``
    Linear probability model ``win ~ 1 + x``: statsmodels ``OLS`` with
    ``cov_type="cluster"`` (CR1, one cluster per game); ``coef`` is directly the change in win
    probability per unit (player-count dummies are added when several player counts are pooled).

Controls: ``seat`` and ``strategy`` dummies by default (reference: seat 0 and the first
strategy), so a good's value is not confounded with who tends to collect it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.regression.linear_model import OLS

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import (
    cluster_robust_covariance,
    mean_ci,
    normal_quantile,
    summarize_mean,
    wilson_interval,
)
from tajsim.games.tajmahal.engine.enums import GOOD_NAMES, N_VISITS

__all__ = [
    "GOODS_COLUMNS",
    "TILE_COLUMNS",
    "conditional_logit",
    "goods_contest",
    "goods_points",
    "goods_value",
    "linear_probability",
    "tile_value_by_visit",
    "win_regression",
]

GOODS_COLUMNS = tuple(f"goods_{g}" for g in GOOD_NAMES)
TILE_COLUMNS = tuple(f"tile_won_v{k}" for k in range(1, N_VISITS + 1))
DEFAULT_CONTROLS = ("seat", "strategy")


# ---------------------------------------------------------------------------
# Model fitting
# ---------------------------------------------------------------------------
def _design(
    results: pd.DataFrame, regressors: Sequence[str], controls: Sequence[str]
) -> tuple[np.ndarray, list[str], list[str]]:
    """Numeric regressors plus dummy-coded controls. Returns (X, names, kinds)."""
    blocks = [results[list(regressors)].to_numpy(dtype=np.float64)]
    names = list(regressors)
    kinds = ["regressor"] * len(names)
    for control in controls:
        if control not in results.columns:
            continue
        values = results[control].astype(str) if control != "seat" else results[control]
        dummies = pd.get_dummies(values, prefix=control, drop_first=True, dtype=np.float64)
        if dummies.shape[1]:
            blocks.append(dummies.to_numpy())
            names.extend(dummies.columns)
            kinds.extend(["control"] * dummies.shape[1])
    return np.hstack(blocks), names, kinds


def conditional_logit(
    X: np.ndarray,
    game: np.ndarray,
    weight: np.ndarray,
    *,
    cov: str = "robust",
    max_iter: int = 100,
    tol: float = 1e-10,
) -> dict[str, np.ndarray]:
    """Fit a conditional (within-game) logit by Newton-Raphson.

    Parameters
    ----------
    X : ndarray of float64, shape (N, k)
        Covariates of each player-game; columns must vary within some game.
    game : ndarray of int64, shape (N,)
        Dense game index 0..G-1.
    weight : ndarray of float64, shape (N,)
        Outcome: win value of each player-game (1 winner, 1/k tied winners, 0 others).
    cov : {"robust", "model"}
        Sandwich clustered by game, or the inverse observed information.

    Returns
    -------
    dict
        ``coef`` (k,), ``cov`` (k, k), ``prob`` (N,) fitted win probabilities, ``loglik``
        (0-d), ``ame`` (k,) average marginal effects and ``ame_cov`` (k, k).
    """
    N, k = X.shape
    G = int(game.max()) + 1
    W = np.bincount(game, weights=weight, minlength=G)  # total win weight per game
    beta = np.zeros(k)

    def pieces(b: np.ndarray):
        eta = X @ b
        gmax = np.full(G, -np.inf)
        np.maximum.at(gmax, game, eta)
        e = np.exp(eta - gmax[game])
        denom = np.bincount(game, weights=e, minlength=G)
        p = e / denom[game]
        xbar = np.column_stack(
            [np.bincount(game, weights=p * X[:, j], minlength=G) for j in range(k)]
        ) if k else np.zeros((G, 0))
        loglik = float((weight * (eta - gmax[game])).sum() - (W * np.log(denom)).sum())
        return p, xbar, loglik

    p, xbar, loglik = pieces(beta)
    for _ in range(max_iter):
        grad = X.T @ weight - xbar.T @ W
        hess = (X * (W[game] * p)[:, None]).T @ X - (xbar * W[:, None]).T @ xbar
        step = np.linalg.solve(hess + 1e-12 * np.eye(k), grad)
        scale = 1.0
        while True:
            cand = beta + scale * step
            p_new, xbar_new, ll_new = pieces(cand)
            if ll_new >= loglik - 1e-12 or scale < 1e-6:
                break
            scale /= 2.0
        beta, p, xbar = cand, p_new, xbar_new
        converged = abs(ll_new - loglik) < tol * (1.0 + abs(loglik))
        loglik = ll_new
        if converged:
            break
    hess = (X * (W[game] * p)[:, None]).T @ X - (xbar * W[:, None]).T @ xbar
    hess_inv = np.linalg.pinv(hess)
    if cov == "model":
        vcov = hess_inv
    elif cov == "robust":
        scores = weight[:, None] * X - W[game][:, None] * p[:, None] * X  # sums to per-game score
        vcov = cluster_robust_covariance(hess_inv, scores, game)
    else:
        raise ValueError(f"cov {cov!r} is not 'robust' or 'model'")
    # Average marginal effect of own covariate on own win probability.
    q = p * (1.0 - p)
    ame = beta * q.mean()
    dp = p[:, None] * (X - xbar[game])  # dp_i / d beta, shape (N, k)
    dq = ((1.0 - 2.0 * p)[:, None] * dp).mean(axis=0)  # d mean(q) / d beta, shape (k,)
    jac = np.eye(k) * q.mean() + beta[:, None] * dq[None, :]
    return {
        "coef": beta,
        "cov": vcov,
        "prob": p,
        "loglik": np.asarray(loglik),
        "ame": ame,
        "ame_cov": jac @ vcov @ jac.T,
    }


def linear_probability(
    X: np.ndarray, y: np.ndarray, game: np.ndarray
) -> dict[str, np.ndarray]:
    """OLS of ``y`` on ``X`` (X must include the intercept) with CR1 standard errors by game:
    statsmodels ``OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": game})``.

    Returns
    -------
    dict
        ``coef`` (k,), ``cov`` (k, k).
    """
    fit = OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": np.asarray(game)})
    return {"coef": np.asarray(fit.params), "cov": np.asarray(fit.cov_params())}


def _varies_within_games(X: np.ndarray, game: np.ndarray) -> np.ndarray:
    G = int(game.max()) + 1
    cols = []
    for j in range(X.shape[1]):
        lo = np.full(G, np.inf)
        hi = np.full(G, -np.inf)
        np.minimum.at(lo, game, X[:, j])
        np.maximum.at(hi, game, X[:, j])
        cols.append(bool(np.any(hi > lo)))
    return np.array(cols, dtype=bool)


def win_regression(
    results: pd.DataFrame,
    regressors: Sequence[str],
    *,
    controls: Sequence[str] = DEFAULT_CONTROLS,
    model: str = "clogit",
    cov: str = "robust",
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Regress winning on player-game covariates (see the module docstring for the models).

    Parameters
    ----------
    results : DataFrame
        Needs ``winner``, the game-key columns, ``regressors`` and the ``controls`` present.
    regressors : sequence of str
        Numeric or boolean columns.
    controls : sequence of str
        Categorical columns entered as dummies (dropped silently when absent).
    model : {"clogit", "lpm"}
    cov : {"robust", "model"}
        ``clogit`` only; ``lpm`` always uses the cluster-robust covariance.

    Returns
    -------
    DataFrame, one row per term (regressors first, then controls)
        ``term`` (str); ``kind`` (``"regressor"``/``"control"``); ``n`` (int64, player-games);
        ``n_games`` (int64); ``coef``, ``se``, ``coef_ci_low``, ``coef_ci_high``, ``z``,
        ``p_value`` (float64); ``win_prob_change`` with ``ci_low``/``ci_high`` (float64: the
        average marginal effect for clogit, ``coef`` for lpm); ``model`` (str). Terms that do not
        vary within any game (clogit) are reported with NaN estimates.
    """
    data = results.dropna(subset=list(regressors))
    game = game_index(data)
    y = win_value(data, share_ties=share_ties).to_numpy()
    X, names, kinds = _design(data, regressors, controls)
    z = normal_quantile(confidence)
    coef = np.full(len(names), np.nan)
    se = np.full(len(names), np.nan)
    ame = np.full(len(names), np.nan)
    ame_se = np.full(len(names), np.nan)
    if model == "clogit":
        keep = _varies_within_games(X, game)
        fit = conditional_logit(X[:, keep], game, y, cov=cov)
        coef[keep] = fit["coef"]
        se[keep] = np.sqrt(np.diag(fit["cov"]))
        ame[keep] = fit["ame"]
        ame_se[keep] = np.sqrt(np.diag(fit["ame_cov"]))
    elif model == "lpm":
        extra = []
        if data["n_players"].nunique() > 1:
            extra = [pd.get_dummies(data["n_players"], prefix="np", drop_first=True,
                                    dtype=np.float64).to_numpy()]
        design = np.hstack([np.ones((len(data), 1)), X, *extra])
        n_extra = sum(e.shape[1] for e in extra)
        keep = np.concatenate([[True], X.std(axis=0) > 0, np.ones(n_extra, dtype=bool)])
        fit = linear_probability(design[:, keep], y, game)
        full = np.full(design.shape[1], np.nan)
        full[keep] = fit["coef"]
        full_se = np.full(design.shape[1], np.nan)
        full_se[keep] = np.sqrt(np.diag(fit["cov"]))
        coef = full[1 : 1 + len(names)]
        se = full_se[1 : 1 + len(names)]
        ame, ame_se = coef.copy(), se.copy()
    else:
        raise ValueError(f"model {model!r} is not 'clogit' or 'lpm'")
    with np.errstate(invalid="ignore", divide="ignore"):
        zstat = coef / se
    return pd.DataFrame(
        {
            "term": names,
            "kind": kinds,
            "n": np.int64(len(data)),
            "n_games": np.int64(int(game.max()) + 1 if len(data) else 0),
            "coef": coef,
            "se": se,
            "coef_ci_low": coef - z * se,
            "coef_ci_high": coef + z * se,
            "z": zstat,
            "p_value": 2.0 * sps.norm.sf(np.abs(zstat)),
            "win_prob_change": ame,
            "ci_low": ame - z * ame_se,
            "ci_high": ame + z * ame_se,
            "model": model,
        }
    )


# ---------------------------------------------------------------------------
# Public analyses
# ---------------------------------------------------------------------------
def goods_value(
    results: pd.DataFrame,
    *,
    include_tiles: bool = True,
    controls: Sequence[str] = DEFAULT_CONTROLS,
    model: str = "clogit",
    cov: str = "robust",
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Value of one more good of each kind (and one more province tile) for winning.

    Regression of winning on ``goods_rice``, ``goods_tea``, ``goods_spices``, ``goods_jewels``
    (and ``n_province_tiles`` when ``include_tiles``) with seat and strategy controls; see
    :func:`win_regression`. The goods count includes the goods of the province tiles, so the tile
    term is the value of a tile *beyond* its goods. The points a good adds are in
    :func:`goods_points`.

    Returns
    -------
    DataFrame
        :func:`win_regression` rows for the goods (and tile) terms only, plus ``good``
        (str: ``rice``.. or ``province_tile``).
    """
    regressors = list(GOODS_COLUMNS) + (["n_province_tiles"] if include_tiles else [])
    table = win_regression(results, regressors, controls=controls, model=model, cov=cov,
                           share_ties=share_ties, confidence=confidence)
    table = table[table["kind"] == "regressor"].reset_index(drop=True)
    table.insert(0, "good", [t.removeprefix("goods_") if t.startswith("goods_")
                             else "province_tile" for t in table["term"]])
    return table


def goods_coefficient_covariance(
    results: pd.DataFrame, *, controls: Sequence[str] = DEFAULT_CONTROLS,
    share_ties: bool = True,
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The goods' conditional-logit coefficients (the model of :func:`goods_value` without the
    tile term) and their covariance clustered by game: what a tested order of the goods needs,
    because the goods are held by the same players and their estimates are correlated.

    Returns
    -------
    (goods, coef, cov) : list of str, ndarray of float64 shape (k,), shape (k, k)
        NaN for a good that never varies within a game.
    """
    regressors = list(GOODS_COLUMNS)
    data = results.dropna(subset=regressors)
    game = game_index(data)
    y = win_value(data, share_ties=share_ties).to_numpy()
    X, names, _ = _design(data, regressors, controls)
    keep = _varies_within_games(X, game)
    fit = conditional_logit(X[:, keep], game, y, cov="robust")
    full_coef = np.full(len(names), np.nan)
    full_cov = np.full((len(names), len(names)), np.nan)
    full_coef[keep] = fit["coef"]
    full_cov[np.ix_(keep, keep)] = fit["cov"]
    k = len(regressors)
    return [g.removeprefix("goods_") for g in regressors], full_coef[:k], full_cov[:k, :k]


def goods_points(results: pd.DataFrame, *, confidence: float = 0.95) -> pd.DataFrame:
    """Points that goods of each kind bring (``n`` goods of a kind score ``n(n+1)/2``).

    Returns
    -------
    DataFrame, one row per good kind
        ``good`` (str); ``n`` (int64, player-games); ``mean_goods`` with
        ``mean_goods_ci_low``/``_high``; ``mean_points`` (points from that kind) with
        ``ci_low``/``ci_high``; ``points_per_good`` (mean points over mean goods);
        ``marginal_points`` (mean of ``n + 1``: what the next good of the kind would add) with
        ``marginal_points_ci_low``/``_high``; ``share_holding`` (share of player-games holding
        one or more).
    """
    rows = []
    for good, col in zip(GOOD_NAMES, GOODS_COLUMNS):
        held = results[col].astype(np.float64).to_numpy()
        pts = held * (held + 1.0) / 2.0
        mg, mg_lo, mg_hi, n, _ = mean_ci(held, confidence)
        mp, mp_lo, mp_hi, _, _ = mean_ci(pts, confidence)
        mm, mm_lo, mm_hi, _, _ = mean_ci(held + 1.0, confidence)
        rows.append(
            {
                "good": good, "n": n, "mean_goods": mg, "mean_goods_ci_low": mg_lo,
                "mean_goods_ci_high": mg_hi, "mean_points": mp, "ci_low": mp_lo,
                "ci_high": mp_hi,
                "points_per_good": mp / mg if mg > 0 else np.nan,
                "marginal_points": mm, "marginal_points_ci_low": mm_lo,
                "marginal_points_ci_high": mm_hi,
                "share_holding": float((held > 0).mean()) if n else np.nan,
            }
        )
    out = pd.DataFrame(rows)
    out["n"] = out["n"].astype(np.int64)
    return out


def tile_value_by_visit(
    results: pd.DataFrame,
    *,
    controls: Sequence[str] = DEFAULT_CONTROLS,
    model: str = "clogit",
    cov: str = "robust",
    share_ties: bool = True,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Value of the province tile by the visit in which it is won.

    Regresses winning on the twelve ``tile_won_v<k>`` indicators (plus seat and strategy
    controls) — the tile's goods are part of its value here, so goods are not controlled — and
    adds raw comparisons of claimants with the other players.

    Returns
    -------
    DataFrame, one row per visit 1..12
        ``visit`` (int64); ``n`` (int64, player-games); ``claim_rate`` (share of games in which
        anyone claimed the tile) with ``claim_rate_ci_low``/``_high``; ``win_prob_change`` with
        ``ci_low``/``ci_high`` (regression, see :func:`win_regression`); ``coef``, ``se``,
        ``p_value``; ``win_rate_if_won``, ``win_rate_if_not``, ``raw_difference`` with
        ``raw_difference_ci_low``/``_high`` (claimant minus the mean of the other players of the
        same game, averaged over games with a claimant, t interval over games; ignores
        confounding);
        ``score_difference`` (claimant minus the others of the same game, likewise) with
        ``score_difference_ci_low``/``_high``.
    """
    cols = [c for c in TILE_COLUMNS if c in results.columns]
    reg = win_regression(results, cols, controls=controls, model=model, cov=cov,
                         share_ties=share_ties, confidence=confidence)
    reg = reg[reg["kind"] == "regressor"].set_index("term")
    win = win_value(results, share_ties=share_ties).to_numpy()
    game = game_index(results)
    n_games = int(game.max()) + 1 if len(results) else 0
    score = results["score"].to_numpy(np.float64)
    rows = []
    for col in cols:
        won = results[col].to_numpy(dtype=bool)
        claimed_games = np.unique(game[won]).size
        c_lo, c_hi = wilson_interval(claimed_games, n_games, confidence)
        # Rows of one game are dependent (their wins add up to 1), so the claimant-vs-others
        # difference is taken within each game where the tile was claimed, then averaged over
        # those games with a t interval.
        diff, d_lo, d_hi = _within_game_difference(win, won, game, confidence)
        s_diff, s_lo, s_hi = _within_game_difference(score, won, game, confidence)
        r = reg.loc[col]
        rows.append(
            {
                "visit": int(col.removeprefix("tile_won_v")), "n": int(len(results)),
                "claim_rate": claimed_games / n_games if n_games else np.nan,
                "claim_rate_ci_low": float(c_lo), "claim_rate_ci_high": float(c_hi),
                "win_prob_change": r["win_prob_change"], "ci_low": r["ci_low"],
                "ci_high": r["ci_high"], "coef": r["coef"], "se": r["se"],
                "p_value": r["p_value"],
                "win_rate_if_won": win[won].mean() if won.any() else np.nan,
                "win_rate_if_not": win[~won].mean() if (~won).any() else np.nan,
                "raw_difference": float(diff), "raw_difference_ci_low": float(d_lo),
                "raw_difference_ci_high": float(d_hi),
                "score_difference": s_diff, "score_difference_ci_low": s_lo,
                "score_difference_ci_high": s_hi,
            }
        )
    out = pd.DataFrame(rows)
    out["visit"] = out["visit"].astype(np.int64)
    out["n"] = out["n"].astype(np.int64)
    return out


def goods_contest(
    results: pd.DataFrame,
    by: Sequence[str] = ("n_players",),
    *,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """How contested each kind of good is: its concentration across the players of a game.

    For each game and kind with at least one good held, the Herfindahl index ``H = sum_i s_i^2``
    of the players' shares ``s_i`` is normalised to ``(H - 1/P) / (1 - 1/P)``: 0 when the goods
    are spread evenly over the ``P`` players, 1 when one player holds them all. Low
    concentration = contested.

    Returns
    -------
    DataFrame, one row per group and kind
        ``by...``; ``good`` (str); ``n`` (int64, games with the kind present);
        ``concentration`` with ``ci_low``/``ci_high`` (t interval over games);
        ``contested_rate`` (share of those games with two or more holders) with
        ``contested_rate_ci_low``/``_high`` (Wilson); ``mean_holders``; ``mean_total`` (goods of
        the kind per game); ``top_share`` (mean share of the biggest holder).
    """
    by = list(by)
    game = game_index(results)
    frames = []
    for good, col in zip(GOOD_NAMES, GOODS_COLUMNS):
        held = results[col].astype(np.float64)
        per = pd.DataFrame({"game": game, "held": held.to_numpy(),
                            "P": results["n_players"].to_numpy(np.float64)})
        for c in by:
            per[c] = results[c].to_numpy()
        per["held_sq"] = per["held"] ** 2
        per["holder"] = (per["held"] > 0).astype(np.float64)
        agg = per.groupby("game", sort=False).agg(
            total=("held", "sum"), sq=("held_sq", "sum"), top=("held", "max"),
            holders=("holder", "sum"), P=("P", "first"),
            **{c: (c, "first") for c in by},
        )
        agg = agg[agg["total"] > 0].copy()
        hhi = agg["sq"] / agg["total"] ** 2
        agg["concentration"] = (hhi - 1.0 / agg["P"]) / (1.0 - 1.0 / agg["P"])
        agg["contested"] = (agg["holders"] >= 2).astype(np.float64)
        agg["top_share"] = agg["top"] / agg["total"]
        table = summarize_mean(agg, by, "concentration", confidence=confidence)
        table = table.rename(columns={"mean": "concentration"}).drop(columns="sd")
        keys = [agg[c] for c in by] if by else [pd.Series(0, index=agg.index)]
        extra = agg.groupby(keys, observed=True, sort=True).agg(
            contested=("contested", "sum"), mean_holders=("holders", "mean"),
            mean_total=("total", "mean"), top_share=("top_share", "mean"))
        extra = extra.reset_index(drop=not by)
        table = pd.concat([table.reset_index(drop=True), extra.drop(columns=by)], axis=1)
        low, high = wilson_interval(table["contested"].to_numpy(), table["n"].to_numpy(),
                                    confidence)
        table["contested_rate"] = table["contested"] / table["n"]
        table["contested_rate_ci_low"] = low
        table["contested_rate_ci_high"] = high
        table.insert(len(by), "good", good)
        frames.append(table.drop(columns="contested"))
    return pd.concat(frames, ignore_index=True)


def _within_game_difference(
    values: np.ndarray, won: np.ndarray, game: np.ndarray, confidence: float
) -> tuple[float, float, float]:
    """Mean over games with a claimant of (claimant's value - mean value of the others in that
    game), with a t interval over games.

    Parameters
    ----------
    values : float64[rows]; won : bool[rows]; game : int64[rows] game index of each row.
    """
    frame = pd.DataFrame({"v": values, "won": won, "g": game})
    frame = frame[frame.groupby("g")["won"].transform("any")]
    if frame.empty:
        return float("nan"), float("nan"), float("nan")
    claimant = frame[frame["won"]].groupby("g")["v"].mean()
    others = frame[~frame["won"]].groupby("g")["v"].mean()
    per_game = (claimant - others).dropna()
    mean, lo, hi, _, _ = mean_ci(per_game.to_numpy(), confidence)
    return mean, lo, hi
