"""Robustness to the reconstructed component data: do the key conclusions hold on every variant?

The runner reruns an experiment on alternative plausible boards and bonus-tile mixes; this module
takes the result frames keyed by a variant label and, for each key conclusion, states its value
in every variant and whether it holds in every one.

A conclusion is a function ``(frame, options) -> list[Finding]``: a name (e.g.
``best_strategy[4p]``), a value, a detail string with the estimate and its interval, and the
conclusion's kind with the p-value of what it states (:mod:`tajsim.analysis.stats.verdicts`):

* a **null** (``first_seat_advantage``): an equivalence test against the margin of
  :class:`ConclusionOptions` (default ±2 points of win rate); the value is ``"+"`` / ``"-"``
  (differs), ``"equivalent ±2 pts"`` or ``"inconclusive"`` (with the minimum detectable effect
  in the detail);
* an **order** (``strategy_ranking``): pairwise tests, Holm-adjusted, ``"a > {b, c} > d"``:
  ``>`` between tiers every pair of which is told apart, braces around items not told apart;
* an **argmax** (``best_strategy``, ``largest_score_part``): the first tier of a tested order,
  ``"a"`` or ``"{a, b}"`` (not told apart), with the bootstrap probability that each ranks first
  where the per-game sums are at hand.

What a "score part" is comes from the game's spec (``ConclusionOptions.parts``, the registry
fills it from ``GameSpec.shown_parts``): a ranking key is no score, so Maharaja's largest part
is the largest part of its gold, never "palaces".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from tajsim.analysis.composition import part_names
from tajsim.analysis.frames import game_index
from tajsim.analysis.ratings import bradley_terry
from tajsim.analysis.stats import normal_quantile
from tajsim.analysis.stats.verdicts import (
    ALPHA,
    DEFAULT_MARGIN,
    HOLDS,
    INCONCLUSIVE,
    NOT_AVAILABLE,
    Equivalence,
    Order,
    check_margin,
    cluster_sums,
    clustered_ratios,
    compare_verdicts,
    equivalence_test,
    holm_family,
    minimum_detectable_effect,
    rank_first_probability,
    tested_order,
)
from tajsim.analysis.winrates import seat_advantage_test, strategy_order, win_rates

__all__ = [
    "ARGMAX",
    "CATEGORY",
    "CONCLUSIONS",
    "NULL",
    "ORDER",
    "ConclusionOptions",
    "Finding",
    "argmax_finding",
    "conclusion_values",
    "consensus_value",
    "equivalence_finding",
    "fmt_estimate",
    "mean_order",
    "order_finding",
    "robustness",
    "split_variants",
    "tiered_order",
]

#: The kinds of conclusion (``Finding.kind``), each with its test.
NULL, ORDER, ARGMAX, CATEGORY = "null", "order", "argmax", "category"


class Finding(NamedTuple):
    """One conclusion's value in one frame.

    ``kind`` is :data:`NULL`, :data:`ORDER`, :data:`ARGMAX` or :data:`CATEGORY`; ``p_value`` the
    p-value of what the value states (TOST for an equivalence, two-sided for a difference, the
    largest Holm-adjusted pairwise p of the separations an order or argmax claims; NaN when it
    claims nothing); ``mde`` the minimum detectable effect at the frame's n (NaN where none
    applies), in the unit of the estimate.
    """

    conclusion: str
    value: str
    detail: str
    kind: str = CATEGORY
    p_value: float = float("nan")
    mde: float = float("nan")


@dataclass(frozen=True)
class ConclusionOptions:
    """What the conclusions need beyond a frame.

    Attributes
    ----------
    margin : float
        Equivalence margin of a null about a win rate (0.02: two points).
    alpha : float
        Level of every test.
    parts : tuple of str, optional
        The score parts (``GameSpec.shown_parts``); None: every ``pts_*`` column.
    part_total : str
        What the parts add up to (``"score"``, Maharaja's ``"gold"``): names the conclusion
        ``largest_<total>_part``.
    higher_is_better : bool
        The game's ``better_score`` (No Thanks!: lower).
    n_boot : int
        Bootstrap replicates of the probability of ranking first.
    """

    margin: float = DEFAULT_MARGIN
    alpha: float = ALPHA
    parts: tuple[str, ...] | None = None
    part_total: str = "score"
    higher_is_better: bool = True
    n_boot: int = 400

    def with_margin(self, margin: float | None) -> ConclusionOptions:
        """These options with ``margin`` (checked) in place of theirs; None keeps theirs."""
        return self if margin is None else replace(self, margin=check_margin(margin))


DEFAULT_OPTIONS = ConclusionOptions()


def fmt_estimate(estimate: float, low: float, high: float, digits: int = 3) -> str:
    return f"{estimate:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def tiered_order(names: Sequence[str], estimate: np.ndarray, se: np.ndarray) -> str:
    """Order names by estimate with every pair tested (Holm over the pairs, the estimates taken
    as independent): ``"a > {b, c}"``, braces around names not told apart
    (:func:`tajsim.analysis.stats.verdicts.tested_order`; pass a covariance there when the
    items share games)."""
    return tested_order(list(names), np.asarray(estimate, dtype=np.float64), se=se).value


def equivalence_finding(name: str, verdict: Equivalence, what: str, *, scale: float = 100.0,
                        unit: str = " points", short_unit: str = " pts") -> Finding:
    """A null's finding: the verdict's short value, ``what`` and its text as the detail."""
    return Finding(name, verdict.short(scale, short_unit),
                   f"{what} {verdict.text(scale, unit)}", NULL, verdict.p_value,
                   float(verdict.mde))


def order_finding(name: str, order: Order, detail: str) -> Finding:
    """An order's finding: its tiers, the largest Holm p of the separations it claims."""
    return Finding(name, order.value, f"{order.words()}; {detail}", ORDER,
                   order.claim_p_value, _order_mde(order))


def argmax_finding(name: str, order: Order, detail: str) -> Finding:
    """An argmax's finding: the first tier of a tested order (``"{a, b}"``: not told apart;
    a pair of that tier its tests do tell apart is named in the detail), with the probability
    that each item ranks first when the order has it."""
    first = ""
    if order.p_first:
        shown = sorted(order.p_first.items(), key=lambda kv: -kv[1])[:4]
        first = "; P(first) " + ", ".join(f"{k} {v:.2f}" for k, v in shown)
    within = order.within_clause(order.tiers[0])
    return Finding(name, order.best, f"{detail}{first}" + (f"; {within}" if within else ""),
                   ARGMAX, order.best_p_value, _order_mde(order))


def _order_mde(order: Order) -> float:
    """The minimum detectable difference between the first two items (their pairwise
    standard error) at the level Holm's first step tests them, alpha over the number of pairs
    (a bound: later steps test at larger levels), or NaN for one item."""
    if order.pairwise.empty:
        return float("nan")
    first = order.pairwise.iloc[0]
    return float(minimum_detectable_effect(first["se"], alpha=ALPHA / len(order.pairwise)))


def best_strategy(results: pd.DataFrame,
                  options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """Strategy with the highest win rate, per player count: an argmax over the pairwise tests
    of the win rates (clustered by game, Holm), with the bootstrap P(first)."""
    if results["strategy"].nunique() < 2:
        return []
    table = win_rates(results, by=("n_players", "strategy"))
    out = []
    for P, grp in table.groupby("n_players", sort=True):
        frame = results[results["n_players"] == P]
        if frame["strategy"].nunique() < 2:
            continue
        order = strategy_order(frame, alpha=options.alpha, n_boot=options.n_boot)
        rates = "; ".join(f"{r.strategy} {fmt_estimate(r.win_rate, r.ci_low, r.ci_high)}"
                          for r in grp.sort_values("win_rate", ascending=False).itertuples())
        out.append(argmax_finding(f"best_strategy[{int(P)}p]", order,
                                  f"win rate {rates} (n = {int(grp['n_games'].max()):,} games)"))
    return out


def strategy_ranking(results: pd.DataFrame,
                     options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """Order of the Bradley-Terry strengths (all player counts pooled), every pair tested with
    the strengths' covariance (centred strengths sum to 0: their differences' variances are not
    the sums of their variances), Holm."""
    if results["strategy"].nunique() < 2:
        return []
    table = bradley_terry(results)
    order = tested_order(list(table["strategy"]), table["strength"].to_numpy(),
                         cov=table.attrs["cov"], alpha=options.alpha)
    detail = "; ".join(f"{r.strategy} {fmt_estimate(r.strength, r.ci_low, r.ci_high, 2)}"
                       for r in table.itertuples())
    return [order_finding("strategy_ranking", order, detail)]


def seat_advantage_sign(results: pd.DataFrame,
                        options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """The first seat's excess win rate (rate minus 1/n, within line-ups), per player count:
    ``+`` / ``-`` where it differs, ``equivalent ±m`` where TOST places it within the margin,
    ``inconclusive`` otherwise (with the minimum detectable effect)."""
    table = seat_advantage_test(results)
    z = normal_quantile(0.95)
    out = []
    for r in table.itertuples():
        se = (r.ci_high - r.ci_low) / (2 * z)
        verdict = equivalence_test(r.first_seat_excess, se, options.margin, n=int(r.n),
                                   alpha=options.alpha)
        out.append(equivalence_finding(f"first_seat_advantage[{int(r.n_players)}p]", verdict,
                                       "first seat's excess"))
    return out


def largest_score_part(results: pd.DataFrame,
                       options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """Score part with the largest mean, per player count: an argmax over the pairwise tests of
    the part means (the parts of one player-game are correlated: covariance clustered by game,
    Holm), with the bootstrap P(first). The parts are the spec's (``options.parts``): a ranking
    key is no score part."""
    parts = list(options.parts) if options.parts is not None else list(part_names(results))
    parts = [p for p in parts if f"pts_{p}" in results.columns]
    if len(parts) < 2:
        return []
    name = ("largest_score_part" if options.part_total == "score"
            else f"largest_{options.part_total}_part")
    out = []
    for P, frame in results.groupby("n_players", sort=True):
        order, detail = mean_order(frame, [f"pts_{p}" for p in parts], parts, options)
        out.append(argmax_finding(f"{name}[{int(P)}p]", order, detail))
    return out


def mean_order(results: pd.DataFrame, columns: Sequence[str], names: Sequence[str],
               options: ConclusionOptions = DEFAULT_OPTIONS, *,
               unit: str = "player-games") -> tuple[Order, str]:
    """The means of several columns of the same rows (score parts, income sources, indicator
    columns) in a tested order: their covariance clustered by game (a row's columns and a
    game's rows are correlated), pairwise tests with Holm, and the probability that each ranks
    first when the games are resampled.

    Returns
    -------
    (order, detail) : Order, str
        The detail lists each mean with its 95% normal interval and n (rows, in ``unit``).
    """
    names = list(names)
    k = len(names)
    games = game_index(results)
    values = results[list(columns)].to_numpy(np.float64)
    sums, counts = cluster_sums(np.repeat(games, k), np.tile(np.arange(k), len(results)),
                                values.ravel(), k)
    estimate, cov = clustered_ratios(sums, counts)
    order = tested_order(names, estimate, cov=cov, alpha=options.alpha)
    first = rank_first_probability(sums, counts, names, n_boot=options.n_boot)
    order = Order(order.names, order.estimates, order.tiers, order.pairwise, order.alpha, first)
    z = normal_quantile(0.95)
    se = np.sqrt(np.diag(cov))
    shown = "; ".join(
        f"{n} {fmt_estimate(m, m - z * s, m + z * s, 2)}"
        for n, m, s in zip(order.names, order.estimates, se[[names.index(n) for n in order.names]]))
    return order, f"mean {shown} (n = {len(results):,} {unit})"


#: Key conclusions of every game, checked by default, by name; a game adds its own (its
#: analyses module's ``CONCLUSIONS``, passed as ``extra``).
CONCLUSIONS: dict[str, Callable[..., list[Finding]]] = {
    "best_strategy": best_strategy,
    "strategy_ranking": strategy_ranking,
    "seat_advantage_sign": seat_advantage_sign,
    "largest_score_part": largest_score_part,
}


def split_variants(results: pd.DataFrame, column: str = "variant") -> dict[str, pd.DataFrame]:
    """Split one frame with a variant-label column into ``{label: frame}``."""
    return {str(k): g for k, g in results.groupby(column, observed=True, sort=True)}


def conclusion_values(
    frames: Mapping[str, pd.DataFrame],
    conclusions: Sequence[str] | None = None,
    extra: Mapping[str, Callable[..., list[Finding]]] | None = None,
    *,
    options: ConclusionOptions | None = None,
    margin: float | None = None,
) -> pd.DataFrame:
    """Every conclusion's value in every variant (long format).

    Parameters
    ----------
    options : ConclusionOptions, optional
        Margin, level, score parts (default :class:`ConclusionOptions`).
    margin : float, optional
        The equivalence margin of a null (overrides ``options.margin``; an experiment file's
        ``{ name = "robustness", margin = 0.03 }``).

    Returns
    -------
    DataFrame
        ``conclusion``, ``variant``, ``value``, ``detail``, ``kind`` (str); ``p_value``,
        ``mde`` (float64: the p-value of what the value states, the minimum detectable effect);
        ``n`` (int64, games in the variant). A conclusion that cannot be computed on a variant
        (missing columns, one strategy) has value ``"n/a"`` and the reason as detail.
    """
    opts = (options or DEFAULT_OPTIONS).with_margin(margin)
    available = {**CONCLUSIONS, **(extra or {})}
    names = list(available) if conclusions is None else list(conclusions)
    unknown = [n for n in names if n not in available]
    if unknown:
        raise ValueError(f"unknown conclusion {unknown[0]!r}; expected one of "
                         f"{', '.join(available)}")
    rows = []
    for variant, frame in frames.items():
        n_games = int(game_index(frame).max()) + 1 if len(frame) else 0
        for name in names:
            try:
                findings = available[name](frame, opts)
            except (KeyError, ValueError, np.linalg.LinAlgError) as exc:
                findings = [Finding(name, "n/a", f"not computed: {exc}")]
            for f in findings:
                rows.append({"conclusion": f.conclusion, "variant": str(variant),
                             "value": f.value, "detail": f.detail, "kind": f.kind,
                             "p_value": _float(f.p_value), "mde": _float(f.mde),
                             "n": n_games})
    out = pd.DataFrame(rows, columns=["conclusion", "variant", "value", "detail", "kind",
                                      "p_value", "mde", "n"])
    out["n"] = out["n"].astype(np.int64)
    out["p_value"] = out["p_value"].astype(np.float64)
    out["mde"] = out["mde"].astype(np.float64)
    return out


def _float(x: float) -> float:
    return float(x) if x is not None and not (isinstance(x, float) and math.isnan(x)) \
        else float("nan")


def robustness(
    frames: Mapping[str, pd.DataFrame],
    conclusions: Sequence[str] | None = None,
    *,
    reference: str | None = None,
    extra: Mapping[str, Callable[..., list[Finding]]] | None = None,
    options: ConclusionOptions | None = None,
    margin: float | None = None,
) -> pd.DataFrame:
    """For each key conclusion, whether it holds in every variant.

    Parameters
    ----------
    frames : mapping of str to DataFrame
        Result frames keyed by variant label (e.g. ``{"default": df0, "board_b": df1}``); see
        :func:`split_variants` for one frame with a ``variant`` column.
    conclusions : sequence of str, optional
        Names from :data:`CONCLUSIONS` and ``extra`` (default: all).
    extra : mapping of str to callable, optional
        The game's own conclusions (its analyses module's ``CONCLUSIONS``).
    reference : str, optional
        Variant whose value is the reference (default: the most common conclusive value, the
        consensus).
    options, margin
        As :func:`conclusion_values`.

    Returns
    -------
    DataFrame, one row per conclusion
        ``conclusion`` (str); ``holds_in_all`` (bool: every variant's verdict confirms the
        consensus, :func:`tajsim.analysis.stats.verdicts.compare_verdicts`, and the consensus
        states something: not ``n/a``, not ``inconclusive``, and a claim with a p-value, so
        not an order that tells nothing apart); ``consensus`` (str, the
        reference or most common conclusive value); ``agree_share`` (float64, share of
        variants whose verdict holds against it); ``p_value`` (float64: the largest p-value
        over the variants, the p of "holds in all" as an intersection-union test; NaN where it
        does not hold); ``p_holm`` (float64, Holm over the conclusions that hold in all) and
        ``holds_familywise`` (bool, ``p_holm < alpha``); ``n_variants`` (int64); ``n``
        (int64, games over all variants); then one str column per variant with its value.
    """
    opts = (options or DEFAULT_OPTIONS).with_margin(margin)
    long = conclusion_values(frames, conclusions, extra, options=opts)
    variants = [str(v) for v in frames]
    rows = []
    for name, grp in long.groupby("conclusion", sort=False):
        values = dict(zip(grp["variant"], grp["value"]))
        p_values = dict(zip(grp["variant"], grp["p_value"]))
        present = [values.get(v, NOT_AVAILABLE) for v in variants]
        if reference is not None and reference in values:
            consensus = values[reference]
        else:
            consensus = consensus_value(present, [p_values.get(v, np.nan) for v in variants])
        statuses = [compare_verdicts(consensus, v) for v in present]
        agree = float(np.mean([s == HOLDS for s in statuses]))
        # a consensus whose statement has no p-value claims nothing (every item not told
        # apart): it cannot hold, however often it recurs
        claimed = [p_values.get(v, np.nan) for v in variants if values.get(v) == consensus]
        states = bool(claimed) and bool(np.isfinite(claimed).all())
        holds = bool(agree == 1.0 and states
                     and consensus not in (NOT_AVAILABLE, INCONCLUSIVE))
        rows.append({
            "conclusion": name,
            "holds_in_all": holds,
            "consensus": consensus,
            "agree_share": agree,
            "p_value": (float(np.max([p_values.get(v, np.nan) for v in variants]))
                        if holds else float("nan")),
            "n_variants": len(variants),
            "n": int(grp["n"].sum()),
            **{v: values.get(v, NOT_AVAILABLE) for v in variants},
        })
    out = pd.DataFrame(rows)
    if not out.empty:
        family = holm_family(out["p_value"].to_numpy(np.float64), opts.alpha)
        out.insert(5, "p_holm", family.p_holm)
        out.insert(6, "holds_familywise", family.holds & out["holds_in_all"].to_numpy())
        out["n_variants"] = out["n_variants"].astype(np.int64)
        out["n"] = out["n"].astype(np.int64)
    return out


def consensus_value(values: Sequence[str], p_values: Sequence[float] | None = None) -> str:
    """The most common value that states something: conclusive (not ``n/a``, not
    ``inconclusive``) and, where ``p_values`` are given, with a p-value (an order that tells
    nothing apart has none); failing that the most common conclusive value, then the most
    common value. Ties go to the first seen."""
    values = list(values)
    p = list(p_values) if p_values is not None else [0.0] * len(values)
    conclusive = [v for v in values if v not in (NOT_AVAILABLE, INCONCLUSIVE)]
    claims = [v for v, q in zip(values, p)
              if v not in (NOT_AVAILABLE, INCONCLUSIVE) and np.isfinite(q)]
    pool = claims or conclusive or values
    counts = pd.Series(pool).value_counts(sort=False)
    return str(counts.index[int(np.argmax(counts.to_numpy()))])
