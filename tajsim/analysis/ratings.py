"""Strategy comparison: head-to-head matrix, openskill ratings, a Bradley-Terry cross-check, and
the head-to-head structure that a transitive rating hides: the cycles among the pairs whose
intervals exclude 50%, and Nash averaging (the maximum-entropy Nash equilibrium of the
head-to-head game), a ranking that does not force transitivity.

The games are expected to come from a round-robin tournament with seats rotated (the runner's
job); :func:`seat_rotation_check` says whether the strategies were spread evenly over the seats
and whether every seat saw the same line-ups.

Rank comparisons use the ``rank`` column (1 = best; tied players share a rank): "A finished above
B" means ``rank_A < rank_B``; a shared rank counts one half.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps
from scipy.optimize import linprog, minimize
from scipy.special import expit
from statsmodels.discrete.discrete_model import Logit
from statsmodels.genmod.families import Binomial
from statsmodels.genmod.generalized_linear_model import GLM
from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

from tajsim.analysis.frames import game_index, validate_games
from tajsim.analysis.stats import holm, normal_quantile, wilson_interval
from tajsim.analysis.stats.verdicts import Order, p_clause, tested_order
from tajsim.analysis.winrates import seat_lineup_balance

__all__ = [
    "PairMatrix",
    "Structure",
    "bradley_terry",
    "bradley_terry_order",
    "bradley_terry_pairs",
    "bradley_terry_verdict",
    "find_cycles",
    "head_to_head",
    "head_to_head_matrix",
    "head_to_head_structure",
    "nash_averaging",
    "nash_equilibrium",
    "nash_payoff",
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
        run away with it; ``""`` otherwise); ``rank`` (int64). ``attrs["cov"]``: the
        strengths' covariance in the rows' order, float64[K, K] (NaN for a separated one).
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
    z = normal_quantile(confidence)
    theta_c, se, above, below, keep, cov = _centred_strengths(
        a, b, y, K, lambda rows, X: _fit_pairwise_logit(y[rows], X, game[rows], max_iter))
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
    out.attrs["cov"] = cov[np.ix_(order, order)]  # the rows' strengths' covariance
    return out


def _centred_strengths(a: np.ndarray, b: np.ndarray, y: np.ndarray, K: int,
                       fit: Callable[[np.ndarray, np.ndarray], Any]
                       ) -> tuple[np.ndarray, np.ndarray, list[int], list[int], list[int],
                                  np.ndarray]:
    """Bradley-Terry strengths centred to mean 0 and their standard errors, float64[K] each,
    from comparisons ``a[i]`` against ``b[i]`` with outcome ``y[i]`` (the share of ``a``).
    Strategies separated from the rest (:func:`_separated`) get +-inf and no interval and are
    left out; ``fit(rows, X)`` fits the others' logit on the comparisons ``rows`` (bool) with
    design ``X`` (theta_0 = 0: one column fewer than those kept) and returns a result with
    ``params`` and ``cov_params()``. Returns ``(strength, se, above, below, kept, cov)``,
    ``cov`` the centred strengths' covariance, float64[K, K] (NaN for a separated one): they
    sum to 0, so they are negatively correlated, and a difference's variance needs it."""
    above, below = _separated(a, b, y, K)
    keep = [k for k in range(K) if k not in above and k not in below]
    theta_c = np.full(K, np.nan)
    se = np.full(K, np.nan)
    cov = np.full((K, K), np.nan)
    theta_c[above] = np.inf
    theta_c[below] = -np.inf
    if len(keep) >= 2:
        index = {k: i for i, k in enumerate(keep)}
        rows = np.isin(a, keep) & np.isin(b, keep)
        ra = np.array([index[k] for k in a[rows]], np.int64)
        rb = np.array([index[k] for k in b[rows]], np.int64)
        m = len(keep)
        D = np.zeros((ra.size, m))
        D[np.arange(ra.size), ra] += 1.0
        D[np.arange(ra.size), rb] -= 1.0
        result = fit(rows, D[:, 1:])
        theta = np.r_[0.0, result.params]
        vcov = np.zeros((m, m))
        vcov[1:, 1:] = result.cov_params()
        centre = np.eye(m) - 1.0 / m
        theta_c[keep] = centre @ theta
        centred = centre @ vcov @ centre.T
        se[keep] = np.sqrt(np.clip(np.diag(centred), 0, None))
        cov[np.ix_(keep, keep)] = centred
    elif len(keep) == 1:
        theta_c[keep[0]] = 0.0
    return theta_c, se, above, below, keep, cov


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


# -- head-to-head structure: cycles and a ranking that does not force transitivity --------------
@dataclass(frozen=True)
class PairMatrix:
    """Head-to-head shares as matrices over ``names``: ``share[i, j]`` is the share of the
    games strategy ``i`` won against (finished above) ``j``, ties counted one half, so
    ``share[j, i] = 1 - share[i, j]``; ``low`` / ``high`` its interval, ``n`` the games.
    Pairs that never met (and the diagonal) are NaN (``n`` 0)."""

    names: tuple[str, ...]
    share: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n: np.ndarray

    @classmethod
    def from_pairs(cls, a: Sequence[str], b: Sequence[str], share: Sequence[float],
                   low: Sequence[float], high: Sequence[float], n: Sequence[float],
                   order: Sequence[str] | None = None) -> PairMatrix:
        """From one row per pair (either orientation; the other is its complement)."""
        names = tuple(order) if order is not None else tuple(dict.fromkeys([*a, *b]))
        index = {name: i for i, name in enumerate(names)}
        k = len(names)
        mats = [np.full((k, k), np.nan) for _ in range(3)]
        games = np.zeros((k, k))
        for ai, bi, s, lo, hi, g in zip(a, b, share, low, high, n):
            i, j = index[ai], index[bi]
            mats[0][i, j], mats[1][i, j], mats[2][i, j] = s, lo, hi
            mats[0][j, i], mats[1][j, i], mats[2][j, i] = 1 - s, 1 - hi, 1 - lo
            games[i, j] = games[j, i] = g
        return cls(names, mats[0], mats[1], mats[2], games)

    @classmethod
    def from_head_to_head(cls, table: pd.DataFrame, order: Sequence[str] | None = None
                          ) -> PairMatrix:
        """From :func:`head_to_head` (its ``a_above_b`` with its Wilson interval)."""
        return cls.from_pairs(table["strategy_a"].astype(str), table["strategy_b"].astype(str),
                              table["a_above_b"], table["ci_low"], table["ci_high"],
                              table["n"], order=order)

    def beats(self) -> np.ndarray:
        """bool[k, k]: ``i`` beats ``j`` with the interval of its share above 50%."""
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(self.low, nan=0.0) > 0.5

    def p_values(self) -> np.ndarray:
        """Two-sided score test of a share of 1/2 for each pair (over its games): NaN where
        the pair never met."""
        with np.errstate(invalid="ignore", divide="ignore"):
            z = (self.share - 0.5) / np.sqrt(0.25 / self.n)
        return np.where(self.n > 0, 2.0 * sps.norm.sf(np.abs(z)), np.nan)


def find_cycles(beats: np.ndarray, max_cycles: int = 50) -> list[tuple[int, ...]]:
    """The elementary cycles of the directed graph ``beats[i, j]`` (i beats j), each listed
    from its smallest index, shortest first; at most ``max_cycles`` of them.

    A depth-first search from each node over larger nodes only finds every cycle once. It is
    exponential in the worst case, which the few strategies of a ladder never reach."""
    edges = np.asarray(beats, dtype=bool)
    k = edges.shape[0]
    found: list[tuple[int, ...]] = []
    for start in range(k):
        stack: list[tuple[int, list[int]]] = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in map(int, np.flatnonzero(edges[node])):
                if nxt == start and len(path) > 2:
                    found.append(tuple(path))
                elif nxt > start and nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    found = sorted(set(found), key=lambda c: (len(c), c))
    return found[:max_cycles]


def nash_equilibrium(payoff: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """The maximum-entropy Nash equilibrium of the symmetric zero-sum game with the
    antisymmetric ``payoff`` (``payoff[i, j]``: what strategy i gains against j; the
    antisymmetric part is used): Balduzzi et al. (2018), "Re-evaluating evaluation".

    Its value is 0, so the equilibria are the mixtures ``p`` with ``payoff.T @ p >= 0`` (no
    strategy gains against ``p``), a polytope. Each strategy's largest weight in it comes from a
    linear programme (scipy ``linprog``, HiGHS): the strategies with a positive one are the
    union of all equilibria's supports; their mean lies inside the polytope, and SLSQP climbs
    from there to the mixture of largest entropy (unique: entropy is strictly concave). A
    dominant strategy gives a pure equilibrium; rock-paper-scissors the uniform one.

    Returns
    -------
    ndarray of float64, shape (k,): the equilibrium mixture (sums to 1).
    """
    A = np.asarray(payoff, dtype=np.float64)
    A = np.nan_to_num((A - A.T) / 2.0)
    k = A.shape[0]
    if k == 1:
        return np.ones(1)
    ones = np.ones((1, k))
    vertices = []
    for i in range(k):
        c = np.zeros(k)
        c[i] = -1.0
        res = linprog(c, A_ub=-A.T, b_ub=np.full(k, tol), A_eq=ones, b_eq=[1.0],
                      bounds=(0, None), method="highs")
        if res.status == 0 and res.x[i] > 1e-7:
            vertices.append(res.x)
    start = np.mean(vertices, axis=0)
    support = np.flatnonzero(start > 1e-9)
    if support.size > 1:
        sub = A[np.ix_(support, np.arange(k))]

        def neg_entropy(q: np.ndarray) -> float:
            q = np.clip(q, 1e-300, None)
            return float(np.sum(q * np.log(q)))

        def gradient(q: np.ndarray) -> np.ndarray:
            return np.log(np.clip(q, 1e-300, None)) + 1.0

        res = minimize(neg_entropy, start[support], jac=gradient, method="SLSQP",
                       bounds=[(0.0, 1.0)] * support.size,
                       constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1.0},
                                    {"type": "ineq", "fun": lambda q: sub.T @ q + tol}],
                       options={"ftol": 1e-12, "maxiter": 200})
        if res.success and np.all(sub.T @ res.x >= -1e-6):
            start = np.zeros(k)
            start[support] = res.x
    p = np.where(start > 1e-9, start, 0.0)
    p /= p.sum()
    # A strategy in an equilibrium's support earns the game's value, 0, against it. The LPs'
    # feasibility slack lets one that loses a little (-0.3 points) keep a weight of about
    # slack / loss (3.6e-7): that is not membership of the support.
    p = np.where(A @ p >= -SUPPORT_GAIN_TOL, p, 0.0)
    return p / p.sum()


#: How far below the game's value (0) a strategy's gain against the equilibrium may fall and it
#: still count as in the support: far above the solvers' slack, far below a measurable share.
SUPPORT_GAIN_TOL = 1e-6


def nash_payoff(pairs: PairMatrix, kind: str = "margin") -> np.ndarray:
    """The antisymmetric game of a head-to-head matrix: ``"margin"`` (default) is the share
    above 1/2 (``share - 0.5``, bounded, in win-share points); ``"logodds"`` is Balduzzi's
    log-odds ``logit(share)`` with the shares taken as ``(wins + 1/2) / (n + 1)`` so that a
    pair decided 4,000 to 0 stays finite. Pairs that never met count 0."""
    share = pairs.share
    if kind == "logodds":
        with np.errstate(invalid="ignore", divide="ignore"):
            smoothed = (share * pairs.n + 0.5) / (pairs.n + 1.0)
            values = np.log(smoothed / (1.0 - smoothed))
    elif kind == "margin":
        values = share - 0.5
    else:
        raise ValueError(f"payoff {kind!r} is not 'margin' or 'logodds'")
    return np.nan_to_num(values)


def nash_averaging(pairs: PairMatrix, kind: str = "margin") -> pd.DataFrame:
    """Nash averaging (Balduzzi et al. 2018): the maximum-entropy Nash equilibrium of the
    head-to-head game and each strategy's payoff against it, a ranking that does not force
    transitivity (a cycle shares the equilibrium; Bradley-Terry would order it).

    Returns
    -------
    DataFrame, one row per strategy, by payoff then weight (best first)
        ``strategy`` (str); ``n`` (int64, its games, summed over its pairs); ``nash_weight``
        (float64: its weight in the equilibrium); ``nash_payoff`` (float64: its mean
        share against the equilibrium mixture, in [0, 1]: 0.5 for every strategy of the
        support, below 0.5 for one outside it); ``in_support`` (bool); ``rank`` (int64).
    """
    p = nash_equilibrium(nash_payoff(pairs, kind))
    share = np.where(np.isnan(pairs.share), 0.5, pairs.share)
    np.fill_diagonal(share, 0.5)
    against = share @ p
    out = pd.DataFrame({
        "strategy": list(pairs.names),
        "n": pairs.n.sum(axis=1).astype(np.int64),
        "nash_weight": p,
        "nash_payoff": against,
        "in_support": p > 0,
    })
    out = out.sort_values(["in_support", "nash_payoff", "nash_weight"],
                          ascending=False, kind="stable").reset_index(drop=True)
    out["rank"] = np.arange(1, len(out) + 1, dtype=np.int64)
    return out


def bradley_terry_pairs(pairs: PairMatrix, confidence: float = 0.95) -> pd.DataFrame:
    """Bradley-Terry strengths from a head-to-head matrix of independent pair tables (the
    ladder's: each pair plays its own games): a binomial GLM of each pair's share with its
    games as weights (statsmodels), ``P(i above j) = expit(theta_i - theta_j)``, centred to
    mean 0. A strategy that won (lost) every game it played has no finite strength
    (``separated``: "above all" / "below all") and is left out of the fit, as in
    :func:`bradley_terry`.

    Returns
    -------
    DataFrame, one row per strategy, best first
        ``strategy`` (str); ``n`` (int64, games); ``strength``, ``se``, ``ci_low``, ``ci_high``
        (float64, log-odds); ``separated`` (str); ``rank`` (int64).
    """
    names = pairs.names
    K = len(names)
    ii, jj = np.triu_indices(K, 1)
    met = pairs.n[ii, jj] > 0
    a, b = ii[met].astype(np.int64), jj[met].astype(np.int64)
    y, w = pairs.share[a, b], pairs.n[a, b]
    def fit_glm(rows: np.ndarray, X: np.ndarray) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return GLM(y[rows], X, family=Binomial(), var_weights=w[rows]).fit()

    theta_c, se, above, below, keep, cov = _centred_strengths(a, b, y, K, fit_glm)
    z = normal_quantile(confidence)
    with np.errstate(invalid="ignore"):
        out = pd.DataFrame({
            "strategy": list(names), "n": pairs.n.sum(axis=1).astype(np.int64),
            "strength": theta_c, "se": se,
            "ci_low": theta_c - z * se, "ci_high": theta_c + z * se,
            "separated": ["above all" if k in above else "below all" if k in below else ""
                          for k in range(K)],
        })
    order = [*above, *sorted(keep, key=lambda k: -theta_c[k]), *reversed(below)]
    out = out.iloc[order].reset_index(drop=True)
    out["rank"] = np.arange(1, K + 1, dtype=np.int64)
    out.attrs["cov"] = cov[np.ix_(order, order)]  # the rows' strengths' covariance
    return out


def bradley_terry_order(bt: pd.DataFrame) -> Order | None:
    """The finite Bradley-Terry strengths of ``bt`` (:func:`bradley_terry` or
    :func:`bradley_terry_pairs`) in a tested order: every pair's difference by a Wald test with
    the strengths' covariance (``bt.attrs["cov"]``: centred strengths are correlated), Holm
    over the pairs (:func:`tajsim.analysis.stats.verdicts.tested_order`). Overlapping
    intervals would not say that two strengths are not told apart. None when fewer than two
    strengths are finite or the covariance is missing."""
    finite = np.isfinite(bt["strength"].to_numpy(np.float64))
    cov = bt.attrs.get("cov")
    if finite.sum() < 2 or cov is None:
        return None
    rows = np.flatnonzero(finite)
    return tested_order(list(bt["strategy"].iloc[rows]), bt["strength"].to_numpy()[rows],
                        cov=np.asarray(cov)[np.ix_(rows, rows)])


def bradley_terry_verdict(bt: pd.DataFrame) -> str:
    """The best strategy by Bradley-Terry in words, from :func:`bradley_terry_order`: "`X` is
    the strongest" when the first tier holds one strategy, else "`X` and `Y` are first, not
    told apart", with the test named and the first two's Holm-adjusted p."""
    order = bradley_terry_order(bt)
    if order is None:
        return "no two finite strengths to compare"
    pw = order.pairwise
    first_two = pw[(pw["a"] == order.names[0]) & (pw["b"] == order.names[1])].iloc[0]
    test = (f"Wald tests of the strengths' differences with their covariance, Holm over "
            f"{len(pw)} pair{'s' if len(pw) != 1 else ''}; `{order.names[0]}` against "
            f"`{order.names[1]}`: {p_clause(float(first_two['p_holm']))}")
    tier = order.tiers[0]
    if len(tier) == 1:
        return f"`{tier[0]}` is the strongest ({test})"
    names = ", ".join(f"`{n}`" for n in tier[:-1]) + f" and `{tier[-1]}`"
    return f"{names} are first, not told apart ({test})"


@dataclass(frozen=True)
class Structure:
    """What :func:`head_to_head_structure` found: the significant edges, the cycles among
    them (named), the Nash averaging table and its "best strategy" verdict."""

    pairs: PairMatrix
    cycles: list[tuple[str, ...]]
    cycle_holm: list[bool]
    nash: pd.DataFrame
    verdict: str

    def cycle_text(self, cycle: Sequence[str]) -> str:
        """``a > b (52.5% [51.0, 54.0]) > c (...) > a (...)``: each edge with its share."""
        index = {name: i for i, name in enumerate(self.pairs.names)}
        parts = [f"`{cycle[0]}`"]
        for x, y in zip(cycle, [*cycle[1:], cycle[0]]):
            i, j = index[x], index[y]
            parts.append(f"`{y}` ({100 * self.pairs.share[i, j]:.1f}% "
                         f"[{100 * self.pairs.low[i, j]:.1f}, {100 * self.pairs.high[i, j]:.1f}]"
                         " of the wins)")
        # written "a beats b (..) beats c": the share is the left one's against the right one
        return " > ".join(parts)


def head_to_head_structure(pairs: PairMatrix, kind: str = "margin") -> Structure:
    """Cycles and Nash averaging of a head-to-head matrix, with the "best strategy" verdict.

    An edge ``i > j`` counts only when the 95% interval of i's share against j excludes 50%
    (each pair's own interval); a cycle is a closed path of such edges (greedy > balanced >
    hoarder > greedy). ``cycle_holm`` says whether every edge of a cycle also survives Holm's
    correction over all the pairs (score tests of a share of 1/2).

    The verdict: the Nash support is the set no strategy beats on average. One strategy in it
    that beats every other with its interval above 50% is the best; one that some other is
    not told apart from (interval includes 50%) is "first, but not separated from ..." (not
    told apart; worded so); a support of several strategies has no single best (a cycle, or
    strategies not told apart).
    """
    names = pairs.names
    beats = pairs.beats()
    cycles_idx = find_cycles(beats)
    p = pairs.p_values()
    upper = np.triu_indices(len(names), 1)
    flat = p[upper]
    adjusted = np.full_like(p, np.nan)
    if flat.size:
        adj = holm(flat)
        adjusted[upper] = adj
        adjusted.T[upper] = adj
    holds = [bool(all(adjusted[i, j] < 0.05 for i, j in zip(c, [*c[1:], c[0]])))
             for c in cycles_idx]
    nash = nash_averaging(pairs, kind)
    support = list(nash.loc[nash["in_support"], "strategy"])
    if len(support) == 1:
        best = support[0]
        i = names.index(best)
        level = [names[j] for j in range(len(names)) if j != i and pairs.n[i, j] > 0
                 and not beats[i, j]]
        if not level:
            verdict = (f"`{best}` is the best: the equilibrium is pure and `{best}` beats "
                       "every other strategy, each interval above 50%")
        else:
            verdict = (f"`{best}` is first (a pure equilibrium) but not separated from "
                       + ", ".join(f"`{x}`" for x in level)
                       + " (interval includes 50%)")
    else:
        weights = ", ".join(f"`{r.strategy}` {100 * r.nash_weight:.0f}%"
                            for r in nash[nash["in_support"]].itertuples())
        inside = [c for c in cycles_idx if all(names[i] in support for i in c)]
        why = ("a cycle among them" if inside else
               "no cycle among them: some of their pairs are not separated")
        verdict = f"no single best strategy: the equilibrium mixes {weights} ({why})"
    return Structure(pairs, [tuple(names[i] for i in c) for c in cycles_idx], holds, nash,
                     verdict)
