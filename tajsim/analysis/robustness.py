"""Robustness to the reconstructed component data: do the key conclusions hold on every variant?

The runner reruns an experiment on alternative plausible boards and bonus-tile mixes; this module
takes the result frames keyed by a variant label and, for each key conclusion, states its value
in every variant and whether it is the same everywhere.

A conclusion is a function ``frame -> list[Finding]``: a name (e.g. ``best_strategy[4p]``), a
categorical value (``"alpha"``, ``"+"``, ``"jewels > rice > spices ≈ tea"``) and a detail string
with the estimate and its interval. Signs are three-valued: ``"+"`` / ``"-"`` when the 95%
interval excludes 0, ``"0"`` when it does not (so "no detectable effect" is a value too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from tajsim.analysis.composition import score_composition
from tajsim.analysis.frames import game_index
from tajsim.analysis.ratings import bradley_terry
from tajsim.analysis.winrates import seat_advantage_test, win_rates

__all__ = [
    "CONCLUSIONS",
    "Finding",
    "conclusion_values",
    "robustness",
    "fmt_estimate",
    "split_variants",
    "tiered_order",
]


class Finding(NamedTuple):
    """One conclusion's value in one frame."""

    conclusion: str
    value: str
    detail: str


def _sign(low: float, high: float) -> str:
    if not (np.isfinite(low) and np.isfinite(high)):
        return "n/a"
    if low > 0:
        return "+"
    if high < 0:
        return "-"
    return "0"


def fmt_estimate(estimate: float, low: float, high: float, digits: int = 3) -> str:
    return f"{estimate:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def tiered_order(names: Sequence[str], estimate: np.ndarray, se: np.ndarray) -> str:
    """Order names by estimate; ``" > "`` between neighbours whose difference is significant at
    95% (``|d| > 1.96 * sqrt(se1^2 + se2^2)``), ``" ≈ "`` otherwise, with names alphabetical inside
    a run of ``≈`` so that the string does not depend on noise."""
    order = np.argsort(-np.asarray(estimate, dtype=np.float64), kind="stable")
    tiers: list[list[str]] = [[names[order[0]]]]
    for prev, cur in zip(order[:-1], order[1:]):
        diff = estimate[prev] - estimate[cur]
        # an infinite estimate (a strategy above or below every other one) is its own tier
        if not np.isfinite(diff) or diff > 1.96 * np.sqrt(se[prev] ** 2 + se[cur] ** 2):
            tiers.append([])
        tiers[-1].append(names[cur])
    return " > ".join(" ≈ ".join(sorted(t)) for t in tiers)


def best_strategy(results: pd.DataFrame) -> list[Finding]:
    """Strategy with the highest win rate, per player count (with its interval)."""
    if results["strategy"].nunique() < 2:
        return []
    table = win_rates(results, by=("n_players", "strategy"))
    out = []
    for P, grp in table.groupby("n_players", sort=True):
        best = grp.sort_values("win_rate", ascending=False).iloc[0]
        out.append(Finding(f"best_strategy[{int(P)}p]", str(best["strategy"]),
                           "win rate "
                           + fmt_estimate(best["win_rate"], best["ci_low"], best["ci_high"])))
    return out


def strategy_ranking(results: pd.DataFrame) -> list[Finding]:
    """Order of the Bradley-Terry strengths (all player counts pooled); neighbours that are not
    significantly different are joined by ``≈``."""
    if results["strategy"].nunique() < 2:
        return []
    table = bradley_terry(results)
    value = tiered_order(list(table["strategy"]), table["strength"].to_numpy(),
                          table["se"].to_numpy())
    detail = "; ".join(f"{r.strategy} {fmt_estimate(r.strength, r.ci_low, r.ci_high, 2)}"
                       for r in table.itertuples())
    return [Finding("strategy_ranking", value, detail)]


def seat_advantage_sign(results: pd.DataFrame) -> list[Finding]:
    """Sign of the first seat's excess win rate (rate minus 1/n), per player count."""
    table = seat_advantage_test(results)
    return [
        Finding(f"first_seat_advantage[{int(r.n_players)}p]", _sign(r.ci_low, r.ci_high),
                f"excess {fmt_estimate(r.first_seat_excess, r.ci_low, r.ci_high)}, "
                f"p={r.p_value:.3g}")
        for r in table.itertuples()
    ]


def largest_score_part(results: pd.DataFrame) -> list[Finding]:
    """Score part with the largest mean, per player count."""
    table = score_composition(results, by=("n_players",), include_total=False, quantiles=())
    out = []
    for P, grp in table.groupby("n_players", sort=True):
        top = grp.sort_values("mean", ascending=False).iloc[0]
        out.append(Finding(f"largest_score_part[{int(P)}p]", str(top["part"]),
                           f"mean {fmt_estimate(top['mean'], top['ci_low'], top['ci_high'], 2)}"))
    return out


#: Key conclusions of every game, checked by default, by name; a game adds its own (its
#: analyses module's ``CONCLUSIONS``, passed as ``extra``).
CONCLUSIONS: dict[str, Callable[[pd.DataFrame], list[Finding]]] = {
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
    extra: Mapping[str, Callable[[pd.DataFrame], list[Finding]]] | None = None,
) -> pd.DataFrame:
    """Every conclusion's value in every variant (long format).

    Returns
    -------
    DataFrame
        ``conclusion``, ``variant``, ``value``, ``detail`` (str); ``n`` (int64, games in the
        variant). A conclusion that cannot be computed on a variant (missing columns, one
        strategy) has value ``"n/a"`` and the reason as detail.
    """
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
                findings = available[name](frame)
            except (KeyError, ValueError, np.linalg.LinAlgError) as exc:
                findings = [Finding(name, "n/a", f"not computed: {exc}")]
            for f in findings:
                rows.append({"conclusion": f.conclusion, "variant": str(variant),
                             "value": f.value, "detail": f.detail, "n": n_games})
    out = pd.DataFrame(rows, columns=["conclusion", "variant", "value", "detail", "n"])
    out["n"] = out["n"].astype(np.int64)
    return out


def robustness(
    frames: Mapping[str, pd.DataFrame],
    conclusions: Sequence[str] | None = None,
    *,
    reference: str | None = None,
    extra: Mapping[str, Callable[[pd.DataFrame], list[Finding]]] | None = None,
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
        Variant whose value is the reference (default: the most common value, the consensus).

    Returns
    -------
    DataFrame, one row per conclusion
        ``conclusion`` (str); ``holds_in_all`` (bool: the same value in every variant and not
        ``n/a``); ``consensus`` (str, the reference or most common value); ``agree_share``
        (float64, share of variants with that value); ``n_variants`` (int64); ``n`` (int64,
        games over all variants); then one str column per variant with its value.
    """
    long = conclusion_values(frames, conclusions, extra)
    variants = [str(v) for v in frames]
    rows = []
    for name, grp in long.groupby("conclusion", sort=False):
        values = dict(zip(grp["variant"], grp["value"]))
        present = [values.get(v, "n/a") for v in variants]
        if reference is not None and reference in values:
            consensus = values[reference]
        else:
            consensus = pd.Series(present).value_counts().index[0]
        agree = float(np.mean([v == consensus for v in present]))
        rows.append({
            "conclusion": name,
            "holds_in_all": bool(agree == 1.0 and consensus != "n/a"),
            "consensus": consensus,
            "agree_share": agree,
            "n_variants": len(variants),
            "n": int(grp["n"].sum()),
            **{v: values.get(v, "n/a") for v in variants},
        })
    out = pd.DataFrame(rows)
    if not out.empty:
        out["n_variants"] = out["n_variants"].astype(np.int64)
        out["n"] = out["n"].astype(np.int64)
    return out
