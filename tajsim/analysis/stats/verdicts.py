"""Verdicts: what a stated conclusion may say, each kind with its own test.

A report states conclusions of a few kinds, and each kind needs its own test:

* **A null** ("no first-seat edge") is an *equivalence* claim: :func:`equivalence_test` runs two
  one-sided tests (TOST) against a declared margin ``±m`` (default :data:`DEFAULT_MARGIN`, 2
  points of win rate). Three verdicts: :data:`EQUIVALENT` (the difference lies within ``±m``:
  TOST rejects both one-sided nulls, i.e. the ``1 - 2 alpha`` interval lies inside ``±m``),
  :data:`DIFFERS` (the two-sided test rejects 0 and the difference is not shown to lie within
  the margin) and :data:`INCONCLUSIVE` (neither), the last with the minimum detectable effect
  at that n. A difference that is significant but inside the margin is equivalent: it is
  smaller than what the margin calls a difference.
* **An order or an argmax** ("best strategy", "most valuable good", "largest score part") is a
  *tested order*: :func:`tested_order` tests every pair with a z (or t) test of the difference,
  Holm-adjusted over all pairs, and groups the items into tiers whose every cross-tier pair is
  separated; items of one tier are "not told apart". Where per-cluster (per-game) sums are at
  hand, :func:`rank_first_probability` adds the probability that each item ranks first under a
  bootstrap that resamples games.
* **A family** of verdicts ("holds at every level", a dozen restrictions): :func:`holm_family`
  makes one family-wise statement (Holm) over their p-values.
* :func:`minimum_detectable_effect` (and :func:`mde_proportion`) gives the smallest difference a
  two-sided test at 5% detects with 80% power at a standard error (or n), for a section to state
  at its n.

Standard errors may come from anywhere (a Wilson or Newcombe interval's half-width, a regression
clustered by game); :func:`clustered_ratios` gives the estimates and covariance of several ratio
means from per-game sums (a linearised, game-clustered covariance with the CR1 factor the
project uses everywhere, docs/analysis.md), so that pairwise differences use the covariance of
items measured in the same games. tests/test_analysis_verdicts.py checks each against
statsmodels, scipy or a simulation with a known answer.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, special

from tajsim.analysis.stats.multiple_tests import holm
from tajsim.errors import UserError

__all__ = [
    "ALPHA",
    "DEFAULT_MARGIN",
    "DIFFERS",
    "EQUIVALENT",
    "INCONCLUSIVE",
    "POWER",
    "Equivalence",
    "Family",
    "Order",
    "HOLDS",
    "FAILS",
    "NOT_AVAILABLE",
    "STATUSES",
    "check_margin",
    "compare_verdicts",
    "cluster_sums",
    "clustered_ratios",
    "equivalence_of_means",
    "equivalence_test",
    "holm_family",
    "mde_proportion",
    "p_clause",
    "minimum_detectable_effect",
    "rank_first_probability",
    "tested_order",
]

#: Default equivalence margin of a null about a win rate: ±2 percentage points.
DEFAULT_MARGIN = 0.02
#: Level of every verdict's test (two-sided for differences, each side of TOST).
ALPHA = 0.05
#: Power at which a minimum detectable effect is stated.
POWER = 0.8
EQUIVALENT, DIFFERS, INCONCLUSIVE = "equivalent", "differs", "inconclusive"


def check_margin(margin: float) -> float:
    """``margin`` as a float, or a one-line ``UserError`` when it is not a positive number."""
    try:
        value = float(margin)
    except (TypeError, ValueError):
        raise UserError(f"equivalence margin {margin!r} is not a number; expected a positive "
                        "number such as 0.02 (two points of win rate)") from None
    if not (np.isfinite(value) and value > 0):
        raise UserError(f"equivalence margin {margin!r} is not positive; expected a positive "
                        "number such as 0.02 (two points of win rate)")
    return value


def _check_level(alpha: float, power: float) -> None:
    if not 0.0 < alpha < 0.5:
        raise UserError(f"alpha {alpha!r} is not between 0 and 0.5; expected e.g. 0.05")
    if not alpha < power < 1.0:
        raise UserError(f"power {power!r} is not between alpha and 1; expected e.g. 0.8")


def _cdf(x: float, df: float) -> float:
    """The standard normal (``df`` infinite) or Student t cdf at ``x`` (scipy.special: no
    frozen distribution per call, which costs a millisecond)."""
    return float(special.ndtr(x) if not np.isfinite(df) else special.stdtr(df, x))


def _quantile(q: float, df: float) -> float:
    return float(special.ndtri(q) if not np.isfinite(df) else special.stdtrit(df, q))


@functools.lru_cache(maxsize=512)  # a t test's df differs from call to call
def _mde_factor(alpha: float, power: float, df: float) -> float:
    """``k`` with power(k * se) == ``power`` for the two-sided test at ``alpha``: the root of
    ``F(k - c) + F(-k - c) = power`` (``F`` the normal, or t with ``df``, cdf; ``c`` the
    critical value). Both tails are counted, as statsmodels' power functions do."""
    crit = _quantile(1.0 - alpha / 2.0, df)

    def gap(k: float) -> float:
        return _cdf(k - crit, df) + _cdf(-k - crit, df) - power

    return float(optimize.brentq(gap, 0.0, crit + 20.0, xtol=1e-12))


def minimum_detectable_effect(
    se: float | np.ndarray, *, alpha: float = ALPHA, power: float = POWER,
    df: float | None = None,
) -> np.ndarray:
    """The smallest true difference a two-sided test at ``alpha`` detects with ``power``, at
    standard error ``se`` (about ``2.80 * se`` at 5% and 80%).

    Parameters
    ----------
    se : float or ndarray of float, shape (m,)
        Standard error of the estimate (of a difference, for a difference).
    df : float, optional
        Degrees of freedom of a t test (None: normal).

    Returns
    -------
    ndarray of float64, shape (m,) (0-d for a scalar): NaN where ``se`` is NaN.
    """
    _check_level(alpha, power)
    factor = _mde_factor(float(alpha), float(power), float("inf") if df is None else float(df))
    return np.asarray(se, dtype=np.float64) * factor


def mde_proportion(
    p: float | np.ndarray, n1: float | np.ndarray, n2: float | np.ndarray | None = None, *,
    alpha: float = ALPHA, power: float = POWER,
) -> np.ndarray:
    """Minimum detectable difference of a proportion near ``p``: against a fixed value with
    ``n1`` trials (``n2`` None: ``se = sqrt(p(1-p)/n1)``), or between two independent samples
    of ``n1`` and ``n2`` trials (``se = sqrt(p(1-p)(1/n1 + 1/n2))``). ``n <= 0`` gives NaN.

    Returns
    -------
    ndarray of float64 (0-d for scalars)
    """
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.asarray(n1, dtype=np.float64) > 0, n1, np.nan)
        if n2 is not None:
            inv = inv + 1.0 / np.where(np.asarray(n2, dtype=np.float64) > 0, n2, np.nan)
        se = np.sqrt(p * (1.0 - p) * inv)
    return minimum_detectable_effect(se, alpha=alpha, power=power)


@dataclass(frozen=True)
class Equivalence:
    """The verdict on a null: is a difference within ``±margin``?

    Attributes
    ----------
    estimate, se : float
        The difference and its standard error.
    margin : float
        The equivalence margin ``m`` (same unit as ``estimate``).
    n : int
        Its sample size (the unit the caller's table documents: games, player-games).
    ci_low, ci_high : float
        The two-sided ``1 - alpha`` interval (95%).
    p_equivalent : float
        TOST p-value: the larger of the two one-sided p-values against ``-m`` and ``+m``.
    p_differs : float
        Two-sided p-value against 0.
    verdict : str
        :data:`EQUIVALENT`, :data:`DIFFERS` or :data:`INCONCLUSIVE`.
    mde : float
        Minimum detectable effect at this n (two-sided ``alpha``, power :data:`POWER`).
    alpha : float
    df : float
        Degrees of freedom of the t reference (inf: normal).
    """

    estimate: float
    se: float
    margin: float
    n: int
    ci_low: float
    ci_high: float
    p_equivalent: float
    p_differs: float
    verdict: str
    mde: float
    alpha: float = ALPHA
    df: float = float("inf")

    def tost_interval(self) -> tuple[float, float]:
        """The two-sided ``1 - 2 alpha`` interval (90%): TOST finds equivalence exactly when
        it lies within ``±margin``."""
        crit = _quantile(1.0 - self.alpha, self.df)
        return self.estimate - crit * self.se, self.estimate + crit * self.se

    @property
    def p_value(self) -> float:
        """The p-value of the verdict's own claim (TOST for equivalence, two-sided for a
        difference, NaN for an inconclusive one, which claims nothing)."""
        if self.verdict == EQUIVALENT:
            return self.p_equivalent
        if self.verdict == DIFFERS:
            return self.p_differs
        return float("nan")

    def short(self, scale: float = 1.0, unit: str = "") -> str:
        """``"+"`` / ``"-"`` for a difference, ``"equivalent ±m"`` (m times ``scale``, then
        ``unit``) or ``"inconclusive"``: the short value a conclusion table shows."""
        if self.verdict == DIFFERS:
            return "+" if self.estimate > 0 else "-"
        if self.verdict == EQUIVALENT:
            return f"equivalent ±{scale * self.margin:g}{unit}"
        return INCONCLUSIVE

    def text(self, scale: float = 100.0, unit: str = " points", digits: int = 1) -> str:
        """One sentence-part: the verdict, the estimate with its 95% interval, the margin,
        the p-value and n; an inconclusive one adds its minimum detectable effect. An
        equivalence shows the interval TOST decides on, the (1 - 2 alpha) one, which lies
        within the margin (the 95% one may not)."""
        def fmt(x: float) -> str:
            return f"{scale * x:+.{digits}f}"

        est = (f"{fmt(self.estimate)} [{fmt(self.ci_low)}, {fmt(self.ci_high)}]{unit}, "
               f"n = {self.n:,}")
        m = f"±{scale * self.margin:.{digits}f}{unit}"
        if self.verdict == EQUIVALENT:
            low, high = self.tost_interval()
            level = f"{100 * (1 - 2 * self.alpha):g}%"
            return (f"equivalent within {m} ({fmt(self.estimate)} [{fmt(low)}, {fmt(high)}]"
                    f"{unit} ({level} interval), n = {self.n:,}; TOST "
                    f"{p_clause(self.p_equivalent)})")
        if self.verdict == DIFFERS:
            return f"differs ({est}; {p_clause(self.p_differs)}; margin {m})"
        return (f"inconclusive ({est}: neither excludes 0 nor lies within {m}; detectable "
                f"at this n: {scale * self.mde:.{digits}f}{unit})")


def format_p(p: float) -> str:
    """A p-value as the reports write it: two significant digits, "< 1e-4" below, "n/a"."""
    return "n/a" if not np.isfinite(p) else f"{p:.2g}" if p >= 1e-4 else "< 1e-4"


def p_clause(p: float) -> str:
    """``format_p`` in a sentence: "p = 0.077", "p < 1e-4"."""
    text = format_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def equivalence_test(
    estimate: float, se: float, margin: float = DEFAULT_MARGIN, *, n: int,
    alpha: float = ALPHA, df: float | None = None, power: float = POWER,
) -> Equivalence:
    """TOST of ``|difference| < margin`` and the two-sided test of ``difference == 0``, from an
    estimate and its standard error (normal, or t with ``df``): the verdict of a null.

    ``p_equivalent = max(P(T > (est + m)/se), P(T < (est - m)/se))``, as statsmodels'
    ``ttost_ind`` / ``ttost_paired`` compute it from the same estimate and standard error.
    ``se == 0`` is decided exactly (equivalent when ``|est| < m``, else different where
    ``est != 0``); a NaN ``se`` or estimate is inconclusive with NaN p-values.
    """
    margin = check_margin(margin)
    _check_level(alpha, power)
    estimate, se = float(estimate), float(se)
    dof = float("inf") if df is None else float(df)
    crit = _quantile(1.0 - alpha / 2.0, dof)
    mde = float(minimum_detectable_effect(se, alpha=alpha, power=power, df=df))
    if not (np.isfinite(estimate) and np.isfinite(se)) or se < 0:
        return Equivalence(estimate, se, margin, int(n), float("nan"), float("nan"),
                           float("nan"), float("nan"), INCONCLUSIVE, mde, alpha, dof)
    if se == 0:
        p_eq = 0.0 if abs(estimate) < margin else 1.0
        p_diff = 0.0 if estimate != 0 else 1.0
    else:
        p_low = _cdf(-(estimate + margin) / se, dof)  # H0: difference <= -m
        p_high = _cdf((estimate - margin) / se, dof)  # H0: difference >= +m
        p_eq = max(p_low, p_high)
        p_diff = 2.0 * _cdf(-abs(estimate) / se, dof)
    verdict = (EQUIVALENT if p_eq < alpha else DIFFERS if p_diff < alpha else INCONCLUSIVE)
    return Equivalence(estimate, se, margin, int(n), estimate - crit * se,
                       estimate + crit * se, p_eq, p_diff, verdict, mde, alpha, dof)


def equivalence_of_means(
    a: np.ndarray, b: np.ndarray, margin: float, *, paired: bool = False,
    alpha: float = ALPHA,
) -> Equivalence:
    """TOST of ``|mean(a) - mean(b)| < margin`` on two samples: Welch's standard error and
    Welch-Satterthwaite df (statsmodels ``ttost_ind(..., usevar="unequal")``), or the paired
    one (``ttost_paired``) with ``paired=True``. NaNs are dropped (pairwise when paired).

    Returns
    -------
    Equivalence
        ``n``: pairs when paired, else ``len(a) + len(b)``.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if paired:
        keep = ~(np.isnan(a) | np.isnan(b))
        d = a[keep] - b[keep]
        n = int(d.size)
        se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
        return equivalence_test(float(d.mean()) if n else float("nan"), se, margin, n=n,
                                alpha=alpha, df=max(n - 1, 1))
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if a.size < 2 or b.size < 2:
        return equivalence_test(float("nan"), float("nan"), margin, n=int(a.size + b.size),
                                alpha=alpha)
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    se = float(np.sqrt(va + vb))
    df = float((va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))) \
        if va + vb > 0 else float(a.size + b.size - 2)
    return equivalence_test(float(a.mean() - b.mean()), se, margin, n=int(a.size + b.size),
                            alpha=alpha, df=df)


def cluster_sums(
    cluster: np.ndarray, item: np.ndarray, values: np.ndarray, n_items: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums and counts of each item's observations, for :func:`clustered_ratios`
    and :func:`rank_first_probability`.

    Parameters
    ----------
    cluster : ndarray of int, shape (N,)
        Dense cluster (game) number 0..G-1 of each observation.
    item : ndarray of int, shape (N,)
        Item number 0..n_items-1 of each observation.
    values : ndarray of float, shape (N,)

    Returns
    -------
    (sums, counts) : ndarray of float64, each shape (G, n_items)
    """
    cluster = np.asarray(cluster, dtype=np.int64)
    item = np.asarray(item, dtype=np.int64)
    g = int(cluster.max()) + 1 if cluster.size else 0
    sums = np.zeros((g, n_items))
    counts = np.zeros((g, n_items))
    np.add.at(sums, (cluster, item), np.asarray(values, dtype=np.float64))
    np.add.at(counts, (cluster, item), 1.0)
    return sums, counts


def clustered_ratios(
    numerators: np.ndarray, denominators: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Ratio means ``r_j = sum_g Y_gj / sum_g N_gj`` of k items over G clusters (games) and
    their covariance, linearised and clustered by game with the CR1 factor
    ``G/(G-1) * (N-1)/(N-k)`` (``N = sum N_gj``): the covariance statsmodels'
    ``OLS(y, item dummies).fit(cov_type="cluster")`` gives when every observation belongs to
    one item and ``N_gj`` counts the observations.

    Parameters
    ----------
    numerators : ndarray of float, shape (G, k)
        Per-cluster sums of the outcome of each item (a game's win values of a strategy).
    denominators : ndarray of float, shape (G, k)
        Per-cluster counts of each item's observations (0 where the item is absent).

    Returns
    -------
    (estimate, cov) : ndarray of float64, shapes (k,) and (k, k)
        NaN for an item without observations.
    """
    y = np.asarray(numerators, dtype=np.float64)
    m = np.asarray(denominators, dtype=np.float64)
    if y.ndim != 2 or y.shape != m.shape:
        raise ValueError(f"numerators {y.shape} and denominators {m.shape} must be the same "
                         "(clusters, items) shape")
    totals = m.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = np.where(totals > 0, y.sum(axis=0) / totals, np.nan)
        influence = (y - np.nan_to_num(estimate) * m) / np.where(totals > 0, totals, np.nan)
    g, k = y.shape
    n_obs = float(totals.sum())
    if g < 2 or n_obs <= k:
        return estimate, np.full((k, k), np.nan)
    influence = np.nan_to_num(influence)
    factor = g / (g - 1.0) * (n_obs - 1.0) / (n_obs - k)
    cov = factor * influence.T @ influence
    absent = ~(totals > 0)
    cov[absent, :] = np.nan
    cov[:, absent] = np.nan
    return estimate, cov


@dataclass(frozen=True)
class Order:
    """A tested order of items (best first) and its pairwise tests.

    Attributes
    ----------
    names : tuple of str
        The items, best first (by estimate; ties by name).
    estimates : ndarray of float64, shape (k,)
        In the order of ``names``.
    tiers : tuple of tuple of str
        Consecutive groups of ``names``: every pair of items in different tiers is separated
        (Holm-adjusted pairwise test at ``alpha``); items of one tier are not told apart. A
        tier's names are alphabetical, so that the value does not depend on noise.
    pairwise : DataFrame
        One row per pair (``a`` above ``b`` by estimate): ``a``, ``b`` (str), ``difference``,
        ``se``, ``z``, ``p_value``, ``p_holm`` (float64), ``separated`` (bool).
    alpha : float
    p_first : dict of str to float
        The probability that each item ranks first under the cluster bootstrap (empty when
        not computed).
    """

    names: tuple[str, ...]
    estimates: np.ndarray
    tiers: tuple[tuple[str, ...], ...]
    pairwise: pd.DataFrame
    alpha: float = ALPHA
    p_first: dict[str, float] = field(default_factory=dict)

    @property
    def value(self) -> str:
        """``"a > {b, c} > d"``: ``>`` between tiers, braces around items not told apart."""
        return " > ".join(_tier_text(t) for t in self.tiers)

    @property
    def best(self) -> str:
        """The argmax: the first tier, ``"a"`` when one item is separated from every other,
        ``"{a, b}"`` when the first items are not told apart."""
        return _tier_text(self.tiers[0])

    @property
    def best_p_value(self) -> float:
        """The largest Holm-adjusted p of the first tier's items against every other item:
        the p-value of "the first tier is above the rest" (NaN for one item only)."""
        top = set(self.tiers[0])
        rows = self.pairwise[self.pairwise["a"].isin(top) & ~self.pairwise["b"].isin(top)]
        return float(rows["p_holm"].max()) if len(rows) else float("nan")

    @property
    def claim_p_value(self) -> float:
        """The largest Holm-adjusted p over every pair the order separates (NaN when it
        separates none)."""
        tier_of = {name: i for i, t in enumerate(self.tiers) for name in t}
        cross = [tier_of[a] != tier_of[b] for a, b in zip(self.pairwise["a"], self.pairwise["b"])]
        rows = self.pairwise[np.asarray(cross, dtype=bool)]
        return float(rows["p_holm"].max()) if len(rows) else float("nan")

    @property
    def separated_within(self) -> tuple[tuple[str, str], ...]:
        """The pairs ``(a, b)`` (``a`` above ``b``) of one tier that their test tells apart.

        A tier of three or more can hold one: ``a > c`` separated while ``b``, between them,
        is told apart from neither, so no split into tiers separates every cross-tier pair.
        Braces then do not mean "none told apart"; :meth:`words` and :meth:`within_clause`
        name these pairs."""
        tier_of = {name: i for i, t in enumerate(self.tiers) for name in t}
        return tuple((a, b) for a, b, s in zip(self.pairwise["a"], self.pairwise["b"],
                                               self.pairwise["separated"])
                     if s and tier_of[a] == tier_of[b])

    @property
    def contenders(self) -> tuple[str, ...]:
        """The first item by estimate and every item its pairwise test does not tell from it
        (Holm), in order: the items that may be the largest. Tighter than the first tier when
        that tier holds :attr:`separated_within` pairs."""
        first = self.names[0]
        apart = {b for a, b, s in zip(self.pairwise["a"], self.pairwise["b"],
                                      self.pairwise["separated"]) if a == first and s}
        return tuple(n for n in self.names if n not in apart)

    def within_clause(self, tier: Sequence[str] | None = None) -> str:
        """``"told apart within a tier: a > c, a > d"`` for the pairs of
        :attr:`separated_within` (of ``tier`` only, when given); "" when there are none."""
        pairs = [f"{a} > {b}" for a, b in self.separated_within
                 if tier is None or a in tier]
        return f"told apart within a tier: {', '.join(pairs)}" if pairs else ""

    def braces_note(self) -> str:
        """What the braces of :attr:`value` mean here: ``"braces: not told apart"``, or, when a
        tier holds :attr:`separated_within` pairs, ``"braces: no split into tiers separates
        every pair, told apart within a tier: a > c"``."""
        within = self.within_clause()
        return (f"braces: no split into tiers separates every pair, {within}" if within
                else "braces: not told apart")

    def words(self) -> str:
        """The order in words: ``"a, then b and c (not told apart), then d"``; a tier with
        :attr:`separated_within` pairs reads ``"b, c and d (not split into tiers told apart;
        told apart within a tier: b > d)"``."""
        parts = []
        for t in self.tiers:
            names = list(t)
            within = self.within_clause(t)
            text = names[0] if len(names) == 1 else (
                ", ".join(names[:-1]) + f" and {names[-1]} "
                + (f"(not split into tiers told apart; {within})" if within
                   else "(not told apart)"))
            parts.append(text)
        return ", then ".join(parts)


def _tier_text(tier: Sequence[str]) -> str:
    return tier[0] if len(tier) == 1 else "{" + ", ".join(tier) + "}"


def tested_order(
    names: Sequence[str], estimates: np.ndarray | Sequence[float], *,
    cov: np.ndarray | None = None, se: np.ndarray | Sequence[float] | None = None,
    alpha: float = ALPHA, higher_is_better: bool = True, df: float | None = None,
) -> Order:
    """Order items by estimate with every pair tested: a z (or t with ``df``) test of each
    difference, Holm-adjusted over the ``k(k-1)/2`` pairs, and tiers whose cross-tier pairs are
    all separated.

    Parameters
    ----------
    names : sequence of str, length k
    estimates : array-like of float, shape (k,)
    cov : ndarray of float, shape (k, k), optional
        Covariance of the estimates (pairwise variances ``v_a + v_b - 2 c_ab``): use it when
        the items are measured in the same games.
    se : array-like of float, shape (k,), optional
        Standard errors when no covariance is known (the estimates taken as independent).
    higher_is_better : bool
        False: the lowest estimate is first (a lower score wins).

    Returns
    -------
    Order
        Tiers built greedily down the order (an item opens a new tier when it is separated from
        every item of the current one), then neighbouring tiers merged until every cross-tier
        pair is separated. An infinite estimate (a strategy above or below all others) is
        separated from every finite one.
    """
    if not 0.0 < alpha < 0.5:
        raise UserError(f"alpha {alpha!r} is not between 0 and 0.5; expected e.g. 0.05")
    labels = [str(n) for n in names]
    est = np.asarray(estimates, dtype=np.float64)
    k = len(labels)
    if est.shape != (k,) or k == 0:
        raise ValueError(f"estimates of shape {est.shape} for {k} names; expected ({k},)")
    if cov is not None:
        variance = np.asarray(cov, dtype=np.float64)
        if variance.shape != (k, k):
            raise ValueError(f"cov of shape {variance.shape}; expected ({k}, {k})")
    elif se is not None:
        variance = np.diag(np.asarray(se, dtype=np.float64) ** 2)
    else:
        raise ValueError("tested_order needs cov or se")
    sign = 1.0 if higher_is_better else -1.0
    order = sorted(range(k), key=lambda i: (-sign * est[i] if not np.isnan(est[i])
                                            else np.inf, labels[i]))
    dof = float("inf") if df is None else float(df)
    # every pair (i above j in the order), as arrays
    pos_i, pos_j = np.triu_indices(k, 1)
    first = np.asarray(order)[pos_i]
    second = np.asarray(order)[pos_j]
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = sign * (est[first] - est[second])
        infinite = np.isinf(est[first]) | np.isinf(est[second])
        var = variance[first, first] + variance[second, second] - 2.0 * variance[first, second]
        var = np.where(infinite, np.nan, var)
        z = np.where(var > 0, diff / np.sqrt(np.where(var > 0, var, 1.0)),
                     np.where(diff > 0, np.inf, np.nan))
        z = np.where(infinite, np.where(diff > 0, np.inf, np.nan), z)
        tail = (special.ndtr(-np.abs(z)) if not np.isfinite(dof)
                else special.stdtr(dof, -np.abs(z)))
        p = np.where(np.isinf(z) & (z > 0), 0.0, 2.0 * tail)
    pairwise = pd.DataFrame({
        "a": [labels[i] for i in first], "b": [labels[j] for j in second],
        "difference": diff, "se": np.sqrt(np.where(var >= 0, var, np.nan)), "z": z,
        "p_value": p,
    }, columns=["a", "b", "difference", "se", "z", "p_value"])
    pairwise["p_holm"] = holm(pairwise["p_value"].to_numpy()) if len(pairwise) else []
    pairwise["separated"] = (pairwise["p_holm"] < alpha).astype(bool)
    separated = {(a, b) for a, b, s in zip(pairwise["a"], pairwise["b"], pairwise["separated"])
                 if s}
    ranked = [labels[i] for i in order]
    tiers: list[list[str]] = [[ranked[0]]]
    for name in ranked[1:]:
        if all((above, name) in separated for above in tiers[-1]):
            tiers.append([name])
        else:
            tiers[-1].append(name)
    merged = True
    while merged:  # every cross-tier pair separated, or the tiers between them become one
        merged = False
        for s in range(len(tiers)):
            for t in range(s + 1, len(tiers)):
                if any((a, b) not in separated for a in tiers[s] for b in tiers[t]):
                    tiers[s:t + 1] = [[n for tier in tiers[s:t + 1] for n in tier]]
                    merged = True
                    break
            if merged:
                break
    return Order(names=tuple(ranked), estimates=est[order],
                 tiers=tuple(tuple(sorted(t)) for t in tiers), pairwise=pairwise, alpha=alpha)


def rank_first_probability(
    numerators: np.ndarray, denominators: np.ndarray, names: Sequence[str], *,
    n_boot: int = 1000, seed: int = 0, higher_is_better: bool = True, chunk: int = 100,
) -> dict[str, float]:
    """The probability that each item's ratio mean ranks first when the games are resampled
    (a nonparametric bootstrap clustered by game, ``n_boot`` replicates, seeded).

    Parameters
    ----------
    numerators, denominators : ndarray of float, shape (G, k)
        Per-game sums and counts of each item, as :func:`clustered_ratios`.
    names : sequence of str, length k

    Returns
    -------
    dict of str to float
        ``{name: share of replicates in which it ranks first}`` (ties between items split the
        replicate), summing to 1.
    """
    y = np.asarray(numerators, dtype=np.float64)
    m = np.asarray(denominators, dtype=np.float64)
    g, k = y.shape
    rng = np.random.default_rng(seed)
    wins = np.zeros(k)
    sign = 1.0 if higher_is_better else -1.0
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        weights = rng.multinomial(g, np.full(g, 1.0 / g), size=b).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = sign * (weights @ y) / (weights @ m)
        ratio = np.where(np.isnan(ratio), -np.inf, ratio)
        top = ratio == ratio.max(axis=1, keepdims=True)
        wins += (top / top.sum(axis=1, keepdims=True)).sum(axis=0)
        done += b
    return {str(name): float(w / n_boot) for name, w in zip(names, wins)}


@dataclass(frozen=True)
class Family:
    """One family-wise (Holm) statement over a set of verdicts.

    Attributes
    ----------
    p_values, p_holm : ndarray of float64, shape (m,)
        Each verdict's p-value and its Holm-adjusted p (NaN: a verdict that claims nothing,
        left out of the family).
    holds : ndarray of bool, shape (m,)
        ``p_holm < alpha``.
    alpha : float
    """

    p_values: np.ndarray
    p_holm: np.ndarray
    holds: np.ndarray
    alpha: float = ALPHA

    @property
    def size(self) -> int:
        """Verdicts in the family (those with a p-value)."""
        return int(np.sum(~np.isnan(self.p_values)))

    def statement(self, what: str = "verdicts") -> str:
        """``"7 of 9 verdicts stand family-wise (Holm, 5%)"``."""
        return (f"{int(self.holds.sum())} of {self.size} {what} stand family-wise (Holm at "
                f"{100 * self.alpha:g}%)")


def holm_family(p_values: Sequence[float] | np.ndarray, alpha: float = ALPHA) -> Family:
    """Holm over the verdicts' p-values (NaNs stay out of the family): the family-wise
    statement of a set of verdicts."""
    p = np.asarray(p_values, dtype=np.float64)
    adjusted = holm(p)
    return Family(p_values=p, p_holm=adjusted, holds=np.nan_to_num(adjusted, nan=1.0) < alpha,
                  alpha=alpha)


#: Statuses of a verdict judged against a reference verdict (:func:`compare_verdicts`).
HOLDS, FAILS, NOT_AVAILABLE = "holds", "fails", "n/a"
STATUSES = (HOLDS, FAILS, INCONCLUSIVE, NOT_AVAILABLE)
_DIFFERENCES = ("+", "-")


def _is_null_value(value: str) -> bool:
    return value in _DIFFERENCES or value.startswith(EQUIVALENT) or value == INCONCLUSIVE


def _tiers_of(value: str) -> list[set[str]]:
    """``"a > {b, c} > d"`` -> ``[{a}, {b, c}, {d}]``; a single name is one tier of one.
    (The ``≈`` of reports before the verdicts reads as braces.)"""
    tiers = []
    for tier in value.split(" > "):
        tier = tier.strip()
        if tier.startswith("{") and tier.endswith("}"):
            tier = tier[1:-1]
            tiers.append({t.strip() for t in tier.split(", ")})
        else:
            tiers.append({t.strip() for t in tier.split(" ≈ ")})
    return tiers


def compare_verdicts(reference: str, value: str) -> str:
    """The status of ``value`` (a conclusion's verdict at a level or variant) against the
    reference's verdict: one of :data:`STATUSES`.

    * A null (``"+"``, ``"-"``, ``"equivalent ±m"``, ``"inconclusive"``): an inconclusive value
      is :data:`INCONCLUSIVE` (it confirms nothing), and so is every value against an
      inconclusive reference (there is nothing to confirm); otherwise it **holds** when the
      same and **fails** when not (a difference against an equivalence, the other sign, or an
      equivalence against a difference: the level finds the effect negligible).
    * An order or an argmax (``"a > {b, c}"``, ``"a"``, ``"{a, b}"``; braces: not told apart):
      it **fails** where a pair the reference separates is separated the other way, is
      **inconclusive** where such a pair is not told apart (or an item is missing), and
      **holds** otherwise: telling more apart than the reference still holds, because "not
      told apart" claims no equality. An argmax is the first tier of an order: ``"a"`` against
      ``"{a, b}"`` is inconclusive, against ``"b"`` it fails.
    * ``"n/a"`` on either side: :data:`NOT_AVAILABLE`.
    """
    if value == NOT_AVAILABLE or reference == NOT_AVAILABLE:
        return NOT_AVAILABLE
    if _is_null_value(reference) or _is_null_value(value):
        if INCONCLUSIVE in (reference, value):
            return INCONCLUSIVE
        return HOLDS if value == reference else FAILS
    ref_tiers, tiers = _tiers_of(reference), _tiers_of(value)
    ordered = " > " in reference or " > " in value
    if not ordered:
        # two argmax sets: the reference's first tier against the level's
        ref_top, top = ref_tiers[0], tiers[0]
        if not ref_top & top:
            return FAILS
        if top - ref_top and ref_top - top:
            # the level puts above an item of the reference's top one the reference put below
            # it (``{a, b}`` against ``{b, c}``: a > c, then c > a): a pair separated both ways
            return FAILS
        if top <= ref_top:
            return HOLDS
        return INCONCLUSIVE
    ref_rank = {name: i for i, t in enumerate(ref_tiers) for name in t}
    rank = {name: i for i, t in enumerate(tiers) for name in t}
    reversed_pair = unresolved = False
    names = list(ref_rank)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ref_order = np.sign(ref_rank[b] - ref_rank[a])
            if ref_order == 0:
                continue  # the reference claims nothing about this pair
            if a not in rank or b not in rank:
                unresolved = True
                continue
            order = np.sign(rank[b] - rank[a])
            if order == 0:
                unresolved = True
            elif order != ref_order:
                reversed_pair = True
    if reversed_pair:
        return FAILS
    return INCONCLUSIVE if unresolved else HOLDS
