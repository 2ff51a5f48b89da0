"""Strategy comparison: head-to-head matrix, openskill ratings and a Bradley-Terry cross-check.

The games are expected to come from a round-robin tournament with seats rotated (the runner's
job); :func:`seat_rotation_check` says whether the strategies were spread evenly over the seats
and whether every seat saw the same line-ups.

Rank comparisons use the ``rank`` column (1 = best; tied players share a rank): "A finished above
B" means ``rank_A < rank_B``; a shared rank counts one half.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats as sps
from scipy.special import expit
from statsmodels.discrete.discrete_model import Logit
from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

from tajsim.analysis.frames import game_index, validate_games
from tajsim.analysis.stats import normal_quantile, wilson_interval
from tajsim.analysis.winrates import seat_lineup_balance

__all__ = [
    "bradley_terry",
    "head_to_head",
    "head_to_head_matrix",
    "openskill_ratings",
    "seat_rotation_check",
]


def _pairs(results: pd.DataFrame) -> pd.DataFrame:
    """Every ordered pair of seats with different strategies in a game.

    Returns columns ``game`` (int64), ``a``, ``b`` (int64 strategy codes), ``score`` (1 when a
    finished above b, 0.5 tie, 0 below); plus ``names`` in ``attrs``."""
    validate_games(results)
    game = game_index(results)
    codes, names = pd.factorize(results["strategy"].astype(str), sort=True)
    rank = results["rank"].to_numpy(np.int64)
    order = np.lexsort((results["seat"].to_numpy(), game))
    game_s, code_s, rank_s = game[order], codes[order], rank[order]
    starts = np.flatnonzero(np.r_[True, game_s[1:] != game_s[:-1]])
    sizes = np.diff(np.r_[starts, game_s.size])
    frames = []
    for P in np.unique(sizes):
        sel = starts[sizes == P]
        idx = sel[:, None] + np.arange(P)[None, :]  # (G_P, P)
        ii, jj = np.where(~np.eye(P, dtype=bool))
        a = code_s[idx][:, ii]
        b = code_s[idx][:, jj]
        ra = rank_s[idx][:, ii]
        rb = rank_s[idx][:, jj]
        score = np.where(ra < rb, 1.0, np.where(ra == rb, 0.5, 0.0))
        g = np.broadcast_to(game_s[sel][:, None], a.shape)
        keep = a != b
        frames.append(pd.DataFrame({"game": g[keep], "a": a[keep], "b": b[keep],
                                    "score": score[keep]}))
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        {"game": [], "a": [], "b": [], "score": []})
    out.attrs["names"] = list(names)
    return out


def head_to_head(results: pd.DataFrame, *, confidence: float = 0.95) -> pd.DataFrame:
    """Share of games in which strategy A finished above strategy B, for every ordered pair.

    Per game, the share of (A seat, B seat) pairs in which A's rank is better (ties 1/2) — 1, 0
    or 1/2 when each appears once; then averaged over the games in which both played. Interval:
    Wilson with the (possibly fractional) sum over ``n`` games.

    Returns
    -------
    DataFrame, one row per ordered pair (A != B) that met
        ``strategy_a``, ``strategy_b`` (str); ``n`` (int64, games where both played);
        ``a_above_b``, ``ci_low``, ``ci_high`` (float64); ``tie_share`` (float64).
    """
    pairs = _pairs(results)
    names = pairs.attrs["names"]
    pairs["tie"] = (pairs["score"] == 0.5).astype(np.float64)
    per_game = pairs.groupby(["a", "b", "game"], sort=True).agg(
        score=("score", "mean"), tie=("tie", "mean"))
    table = per_game.groupby(["a", "b"], sort=True).agg(
        n=("score", "size"), wins=("score", "sum"), tie_share=("tie", "mean")).reset_index()
    low, high = wilson_interval(table["wins"].to_numpy(), table["n"].to_numpy(), confidence)
    return pd.DataFrame({
        "strategy_a": [names[i] for i in table["a"]],
        "strategy_b": [names[i] for i in table["b"]],
        "n": table["n"].astype(np.int64).to_numpy(),
        "a_above_b": (table["wins"] / table["n"]).to_numpy(),
        "ci_low": low,
        "ci_high": high,
        "tie_share": table["tie_share"].to_numpy(),
    })


def head_to_head_matrix(table: pd.DataFrame, value: str = "a_above_b") -> pd.DataFrame:
    """Pivot :func:`head_to_head` output to a square matrix (rows A, columns B, NaN diagonal).

    Returns
    -------
    DataFrame of float64, shape (k, k), index and columns the strategy names
    """
    names = sorted(set(table["strategy_a"]) | set(table["strategy_b"]))
    matrix = table.pivot(index="strategy_a", columns="strategy_b", values=value)
    return matrix.reindex(index=names, columns=names).astype(np.float64)


def bradley_terry(
    results: pd.DataFrame,
    *,
    confidence: float = 0.95,
    max_iter: int = 100,
) -> pd.DataFrame:
    """Bradley-Terry strengths from all pairwise finishing orders: a logistic regression on the
    pairwise outcomes (statsmodels ``Logit``, Newton's method) with a covariance clustered by
    game (``cov_type="cluster"``).

    Model: ``P(A above B) = expit(theta_A - theta_B)``, with a tie counted as half a win each
    way (a fractional outcome, which ``Logit`` fits as a quasi-likelihood). Each unordered pair of
    seats with different strategies is one row, its design ``+1`` for A and ``-1`` for B with the
    first strategy's column left out (``theta_0 = 0``). A multiplayer game contributes every such
    pair; those pairs are not independent, so the likelihood is a composite likelihood and the
    standard errors are the sandwich clustered by game (statsmodels' CR1). Strengths are centred
    to mean 0 (their covariance is carried through the centring).

    Returns
    -------
    DataFrame, one row per strategy, best first
        ``strategy`` (str); ``n`` (int64, pairwise comparisons involving it); ``n_games``
        (int64); ``strength``, ``se``, ``ci_low``, ``ci_high`` (float64, log-odds scale);
        ``p_beat_average`` (float64, ``expit(strength)``) with ``p_beat_average_ci_low``/
        ``_high``; ``separated`` (str: ``"above all"`` / ``"below all"`` for a strategy that
        finished above / below every strategy it met: its strength is +inf / -inf, with no
        interval, and it is left out of the fit of the others, whose strengths would otherwise
        run away with it; ``""`` otherwise); ``rank`` (int64).
    """
    pairs = _pairs(results)
    names = pairs.attrs["names"]
    K = len(names)
    # Use each unordered pair once: keep a < b orientation.
    pairs = pairs[pairs["a"] < pairs["b"]]
    if K < 2 or pairs.empty:
        return pd.DataFrame(columns=["strategy", "n", "n_games", "strength", "se", "ci_low",
                                     "ci_high", "p_beat_average", "p_beat_average_ci_low",
                                     "p_beat_average_ci_high", "separated", "rank"])
    a = pairs["a"].to_numpy(np.int64)
    b = pairs["b"].to_numpy(np.int64)
    y = pairs["score"].to_numpy(np.float64)
    game = pairs["game"].to_numpy(np.int64)
    above, below = _separated(a, b, y, K)
    keep = [k for k in range(K) if k not in above and k not in below]
    z = normal_quantile(confidence)
    theta_c = np.full(K, np.nan)
    se = np.full(K, np.nan)
    for k in above:
        theta_c[k] = np.inf
    for k in below:
        theta_c[k] = -np.inf
    if len(keep) >= 2:
        index = {k: i for i, k in enumerate(keep)}
        rows = np.isin(a, keep) & np.isin(b, keep)
        ra = np.array([index[k] for k in a[rows]], np.int64)
        rb = np.array([index[k] for k in b[rows]], np.int64)
        m = len(keep)
        # Free parameters: theta_1..theta_{m-1}, theta_0 = 0.
        D = np.zeros((ra.size, m))
        D[np.arange(ra.size), ra] += 1.0
        D[np.arange(ra.size), rb] -= 1.0
        fit = _fit_pairwise_logit(y[rows], D[:, 1:], game[rows], max_iter)
        theta = np.r_[0.0, fit.params]
        vcov = np.zeros((m, m))
        vcov[1:, 1:] = fit.cov_params()
        centre = np.eye(m) - 1.0 / m
        theta_c[keep] = centre @ theta
        se[keep] = np.sqrt(np.clip(np.diag(centre @ vcov @ centre.T), 0, None))
    elif len(keep) == 1:
        theta_c[keep[0]] = 0.0
    n_comp = np.bincount(a, minlength=K) + np.bincount(b, minlength=K)
    strategy = results["strategy"].astype(str)
    gidx = game_index(results)
    n_games = [int(np.unique(gidx[(strategy == s).to_numpy()]).size) for s in names]
    with np.errstate(invalid="ignore"):
        out = pd.DataFrame({
            "strategy": names,
            "n": n_comp.astype(np.int64),
            "n_games": np.asarray(n_games, dtype=np.int64),
            "strength": theta_c,
            "se": se,
            "ci_low": theta_c - z * se,
            "ci_high": theta_c + z * se,
            "p_beat_average": expit(theta_c),
            "p_beat_average_ci_low": expit(theta_c - z * se),
            "p_beat_average_ci_high": expit(theta_c + z * se),
            "separated": ["above all" if k in above else "below all" if k in below else ""
                          for k in range(K)],
        })
    # strongest first: those above everyone in the order they were found, then the fitted ones,
    # then those below everyone (the last found first)
    order = ([above[i] for i in range(len(above))]
             + sorted(keep, key=lambda k: -theta_c[k])
             + [below[i] for i in range(len(below) - 1, -1, -1)])
    out = out.iloc[order].reset_index(drop=True)
    out["rank"] = np.arange(1, K + 1, dtype=np.int64)
    return out


def _separated(a: np.ndarray, b: np.ndarray, y: np.ndarray, K: int) -> tuple[list[int], list[int]]:
    """Strategies with no finite Bradley-Terry strength: one that finished above (or below)
    every strategy it met among those left has a strength of +inf (-inf) and would drag every
    other strength with it. Found one at a time, each time among the strategies still left
    (``a``, ``b``: the two strategies of each pair; ``y``: A's share, ties one half).

    Returns (above, below): strategy indices in the order they were found."""
    left = set(range(K))
    above: list[int] = []
    below: list[int] = []
    while len(left) > 1:
        rows = np.isin(a, list(left)) & np.isin(b, list(left))
        score = (np.bincount(a[rows], weights=y[rows], minlength=K)
                 + np.bincount(b[rows], weights=1.0 - y[rows], minlength=K))
        count = np.bincount(a[rows], minlength=K) + np.bincount(b[rows], minlength=K)
        found = False
        for k in sorted(left):
            if count[k] == 0:
                continue
            if score[k] == count[k]:
                above.append(k)
            elif score[k] == 0:
                below.append(k)
            else:
                continue
            left.discard(k)
            found = True
            break
        if not found:
            break
    return above, below


def _fit_pairwise_logit(y: np.ndarray, X: np.ndarray, game: np.ndarray, max_iter: int):
    """statsmodels ``Logit(y, X)`` by Newton's method with the covariance clustered by game.

    A strategy that finished above (or below) everyone it met has no finite strength: Newton's
    method then stops at a large value after ``max_iter`` steps, as any fit would; statsmodels'
    warnings about it are not repeated for every report."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PerfectSeparationWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        return Logit(y, X).fit(method="newton", maxiter=max_iter, disp=False,
                               cov_type="cluster", cov_kwds={"groups": game})


def openskill_ratings(
    results: pd.DataFrame,
    *,
    model: str = "PlackettLuce",
    tau: float = 0.0,
    confidence: float = 0.95,
    max_games: int | None = None,
) -> pd.DataFrame:
    """openskill (Weng-Lin) ratings of the strategies, updating game by game in game order.

    Each game is one multi-team match: one team per seat, ranked by ``rank``. A strategy that sits
    in several seats of one game plays each seat with a copy of its rating, and its new rating is
    the mean of the copies' updates (an approximation); games with a single distinct strategy are
    skipped. ``tau = 0`` (no added dynamics: a strategy's strength does not drift), so ``sigma``
    keeps shrinking with games; the interval ``mu +/- z * sigma`` is the approximate posterior
    interval of the Weng-Lin update, not a frequentist interval — compare with
    :func:`bradley_terry`.

    Parameters
    ----------
    model : str
        An ``openskill.models`` class name, e.g. ``"PlackettLuce"``, ``"BradleyTerryFull"``.
    tau : float
        openskill's additive dynamics factor (0: strengths do not drift).
    max_games : int, optional
        Rate only the first ``max_games`` games in game order (the update runs in Python at
        roughly 0.1 ms per game; the ``n``/``n_games`` columns count the games rated).

    Returns
    -------
    DataFrame, one row per strategy, best first
        ``strategy`` (str); ``n`` (int64, player-games rated); ``n_games`` (int64); ``mu``,
        ``sigma``, ``ci_low``, ``ci_high``, ``ordinal`` (``mu - 3 sigma``) (float64); ``rank``
        (int64, by ``mu``).
    """
    import openskill.models as osm

    validate_games(results)
    rating_model = getattr(osm, model)(tau=tau)
    game = game_index(results)
    names = sorted(results["strategy"].astype(str).unique())
    code = pd.Categorical(results["strategy"].astype(str), categories=names).codes.astype(
        np.int64)
    rank = results["rank"].to_numpy(np.int64)
    order = np.lexsort((results["seat"].to_numpy(), game))
    game_s, code_s, rank_s = game[order], code[order], rank[order]
    starts = np.flatnonzero(np.r_[True, game_s[1:] != game_s[:-1]])
    ends = np.r_[starts[1:], game_s.size]
    if max_games is not None:
        starts, ends = starts[:max_games], ends[:max_games]
    mu = np.full(len(names), rating_model.mu)
    sigma = np.full(len(names), rating_model.sigma)
    n_rows = np.zeros(len(names), dtype=np.int64)
    n_games = np.zeros(len(names), dtype=np.int64)
    for start, end in zip(starts, ends):
        codes = code_s[start:end]
        distinct = np.unique(codes)
        if distinct.size < 2:
            continue
        teams = [[rating_model.rating(mu=mu[c], sigma=sigma[c])] for c in codes]
        updated = rating_model.rate(teams, ranks=rank_s[start:end].tolist())
        new_mu = np.array([t[0].mu for t in updated])
        new_sigma = np.array([t[0].sigma for t in updated])
        for c in distinct:
            sel = codes == c
            mu[c] = mu[c] + (new_mu[sel] - mu[c]).mean()
            sigma[c] = new_sigma[sel].mean()
            n_rows[c] += int(sel.sum())
            n_games[c] += 1
    z = normal_quantile(confidence)
    out = pd.DataFrame({
        "strategy": names, "n": n_rows, "n_games": n_games, "mu": mu, "sigma": sigma,
        "ci_low": mu - z * sigma, "ci_high": mu + z * sigma, "ordinal": mu - 3.0 * sigma,
    })
    out = out.sort_values("mu", ascending=False, kind="stable").reset_index(drop=True)
    out["rank"] = np.arange(1, len(out) + 1, dtype=np.int64)
    return out


def seat_rotation_check(results: pd.DataFrame, *, lineup: str = "opponents") -> pd.DataFrame:
    """How often each strategy sat in each seat, per player count, with a chi-square test of
    independence of strategy and seat (small p: seats not rotated evenly), and whether every
    seat saw the same line-ups (own strategy and opponents; see
    :func:`tajsim.analysis.winrates.seat_lineup_balance`).

    Even strategy counts per seat are not enough: two strategies rotated over three seats put
    each strategy in each seat equally often, yet seat 1 always plays the lone strategy, so seat
    and line-up are confounded. ``confounded`` flags that.

    Returns
    -------
    DataFrame, one row per player count and strategy
        ``n_players``; ``strategy`` (str); ``n`` (int64, player-games); ``seat<s>`` (int64
        counts); ``p_value`` (float64, strategy x seat independence); ``lineup_p_value``
        (float64, line-up x seat independence), ``lineup_imbalance`` (0 = every seat saw the
        same line-ups), ``support_share`` (share of player-games whose line-up occurs in every
        seat), ``confounded`` (bool): the same for all rows of a player count.
    """
    balance = seat_lineup_balance(results, by=("n_players",), lineup=lineup).set_index(
        "n_players")
    tables = []
    for P, grp in results.groupby("n_players", observed=True, sort=True):
        counts = pd.crosstab(grp["strategy"].astype(str), grp["seat"])
        counts.columns = [f"seat{int(c)}" for c in counts.columns]
        if counts.shape[0] > 1 and counts.shape[1] > 1:
            p_value = float(sps.chi2_contingency(counts.to_numpy(), correction=False)[1])
        else:
            p_value = float("nan")
        t = counts.reset_index().rename(columns={"strategy": "strategy"})
        t.insert(0, "n_players", P)
        t.insert(2, "n", counts.sum(axis=1).to_numpy(np.int64))
        t["p_value"] = p_value
        check = balance.loc[P]
        t["lineup_p_value"] = float(check["p_value"])
        t["lineup_imbalance"] = float(check["imbalance"])
        t["support_share"] = float(check["support_share"])
        t["confounded"] = bool(check["confounded"])
        tables.append(t)
    if not tables:
        return pd.DataFrame()
    out = pd.concat(tables, ignore_index=True)
    seats = sorted((c for c in out.columns if c.startswith("seat")), key=lambda c: int(c[4:]))
    rest = [c for c in out.columns if c not in seats and c not in ("n_players", "strategy", "n")]
    return out[["n_players", "strategy", "n", *seats, *rest]]
