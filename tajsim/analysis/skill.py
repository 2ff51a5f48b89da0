"""The skill axis: do a game's key conclusions hold at every skill level?

A result of simulated play is a result about its players. This module checks each key conclusion
(the robustness conclusions: :data:`tajsim.analysis.robustness.CONCLUSIONS` and the game's own)
at several skill levels, each a labelled run of its own (a ``variant``: ``random``, the best
heuristic at a low and a high temperature, the search at two budgets), and says for each level
whether the conclusion of a reference level **holds**, **fails** or is **inconclusive** there
(:func:`tajsim.analysis.stats.verdicts.compare_verdicts`).

A conclusion's value is a verdict of its kind (:mod:`tajsim.analysis.robustness`): a null
(``+`` / ``-`` / ``equivalent ±m`` / ``inconclusive``, by an equivalence test against the
margin), an order (``a > {b, c}``: braces around items not told apart, Holm over the pairs) or
an argmax (``a`` or ``{a, b}``). Only what the reference level states is the conclusion:

* a null: the same verdict holds, another conclusive one fails (the other sign; a difference
  where the reference found equivalence; equivalence where it found a difference), an
  inconclusive one is inconclusive; a reference that is itself inconclusive states nothing, so
  every level is inconclusive against it;
* an order or argmax: it fails where a pair the reference separates is separated the other way,
  is inconclusive where such a pair is not told apart, and holds otherwise (a level that tells
  more apart than the reference still holds: "not told apart" claims no equality); a reference
  that tells nothing apart (its statement has no p-value) claims nothing, and every level is
  inconclusive against it.

Two more columns make the table a designer can act on: ``structural`` marks a conclusion that
also holds at a level where every seat plays ``random`` (the rules, not the players' skill, make
it), and ``holds_familywise`` asks every level's statement of it to survive Holm over all the
statements of the table (one family-wise statement for "holds at every level").
``n/a`` (not computable at that level, e.g. a strategy ranking in a mirror match) stays ``n/a``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.robustness import (
    ConclusionOptions,
    Finding,
    conclusion_values,
    consensus_value,
)
from tajsim.analysis.stats.verdicts import (
    ALPHA,
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_AVAILABLE,
    STATUSES,
    compare_verdicts,
    holm_family,
)
from tajsim.errors import UserError

__all__ = ["HOLDS", "FAILS", "INCONCLUSIVE", "NOT_SIGNIFICANT", "NOT_AVAILABLE", "STATUSES",
           "compare_value", "is_random_level", "skill_levels"]

#: The status of a level that cannot confirm the reference (was "ns" before the verdicts).
NOT_SIGNIFICANT = INCONCLUSIVE
#: A level whose strategies all begin with this plays at random: what holds there is structural.
RANDOM_STRATEGY = "random"


def compare_value(reference: str, value: str) -> str:
    """The status of ``value`` (a level's value of a conclusion) against the reference's value:
    :func:`tajsim.analysis.stats.verdicts.compare_verdicts`."""
    return compare_verdicts(reference, value)


def is_random_level(results: pd.DataFrame) -> bool:
    """Whether every seat of ``results`` plays ``random`` (with or without options)."""
    names = results["strategy"].astype(str).unique()
    return len(names) > 0 and all(n.split(":")[0] == RANDOM_STRATEGY for n in names)


def skill_levels(
    frames: Mapping[str, pd.DataFrame],
    conclusions: Sequence[str] | None = None,
    *,
    reference: str | None = None,
    extra: Mapping[str, Callable[..., list[Finding]]] | None = None,
    options: ConclusionOptions | None = None,
    margin: float | None = None,
) -> pd.DataFrame:
    """Every key conclusion at every skill level, judged against the reference level.

    Parameters
    ----------
    frames : mapping of str to DataFrame
        Result frames keyed by skill level, in the order to report them (e.g.
        ``{"random": df0, "balanced T=4": df1, ...}``; one frame with a ``variant`` column:
        :func:`tajsim.analysis.robustness.split_variants`).
    conclusions : sequence of str, optional
        Names from :data:`tajsim.analysis.robustness.CONCLUSIONS` and ``extra`` (default: all).
    reference : str, optional
        The level whose values are the conclusions (default: the most common conclusive value
        of each conclusion over the levels, as in the robustness analysis).
    extra : mapping of str to callable, optional
        The game's own conclusions (its analyses module's ``CONCLUSIONS``).
    options, margin
        As :func:`tajsim.analysis.robustness.conclusion_values` (``margin``: the equivalence
        margin of a null, default 0.02 of win rate).

    Returns
    -------
    DataFrame, one row per conclusion and level (levels in the order of ``frames``)
        ``conclusion``, ``level``, ``value`` (str), ``reference_value`` (str), ``status``
        (str, one of :data:`STATUSES`), ``detail`` (str: the estimate, its 95% interval, n),
        ``kind`` (str), ``p_value`` (float64, of the level's own statement), ``p_holm``
        (float64, Holm over every statement that holds in the table), ``mde`` (float64, the
        minimum detectable effect at the level), ``n`` (int64, games at that level),
        ``is_reference`` (bool), ``structural`` (bool, per conclusion: it holds at a
        ``random`` level other than the reference), ``holds_familywise`` (bool, per
        conclusion: it holds at every level where computable and every one of those
        statements survives Holm).

    Raises
    ------
    tajsim.errors.UserError
        ``reference`` is not one of the levels, or a bad ``margin``.
    ValueError
        A conclusion name is unknown.
    """
    levels = [str(k) for k in frames]
    if reference is not None and reference not in levels:
        raise UserError(f"reference level {reference!r} is not one of the levels; expected "
                        f"one of {', '.join(levels)}")
    random_levels = {str(k) for k, f in frames.items() if is_random_level(f)}
    long = conclusion_values(frames, conclusions, extra, options=options, margin=margin)
    alpha = options.alpha if options is not None else ALPHA
    rows = []
    for name, grp in long.groupby("conclusion", sort=False):
        by_level = {str(r.variant): r for r in grp.itertuples()}
        if reference is not None:
            ref_value = by_level[reference].value if reference in by_level else NOT_AVAILABLE
        else:
            present = [by_level[lv] for lv in levels if lv in by_level]
            ref_value = consensus_value([r.value for r in present], [r.p_value for r in present])
        # a reference statement without a p-value claims nothing (every item not told apart):
        # there is nothing to confirm
        claimed = [by_level[lv].p_value for lv in levels
                   if lv in by_level and by_level[lv].value == ref_value
                   and (reference is None or lv == reference)]
        empty = not claimed or not np.isfinite(claimed).all()
        for level in levels:
            row = by_level.get(level)
            value = row.value if row is not None else NOT_AVAILABLE
            status = compare_value(ref_value, value)
            if empty and status != NOT_AVAILABLE:
                status = INCONCLUSIVE
            rows.append({
                "conclusion": name, "level": level, "value": value,
                "reference_value": ref_value, "status": status,
                "detail": row.detail if row is not None else "not computed at this level",
                "kind": row.kind if row is not None else "",
                "p_value": float(row.p_value) if row is not None else float("nan"),
                "mde": float(row.mde) if row is not None else float("nan"),
                "n": int(row.n) if row is not None else 0,
                "is_reference": level == reference,
            })
    columns = ["conclusion", "level", "value", "reference_value", "status", "detail", "kind",
               "p_value", "p_holm", "mde", "n", "is_reference", "structural",
               "holds_familywise"]
    out = pd.DataFrame(rows, columns=[c for c in columns if c not in
                                      ("p_holm", "structural", "holds_familywise")])
    holding = (out["status"] == HOLDS).to_numpy()
    family = holm_family(np.where(holding, out["p_value"].to_numpy(np.float64), np.nan), alpha)
    out["p_holm"] = family.p_holm
    survives = pd.Series(family.holds, index=out.index)
    judged = out["status"] != NOT_AVAILABLE
    structural, familywise = {}, {}
    for name, grp in out.groupby("conclusion", sort=False):
        at_random = grp[grp["level"].isin(random_levels) & ~grp["is_reference"]]
        structural[name] = bool((at_random["status"] == HOLDS).any())
        sel = grp[judged.loc[grp.index]]
        familywise[name] = bool(len(sel) and (sel["status"] == HOLDS).all()
                                and survives.loc[sel.index].all())
    out["structural"] = out["conclusion"].map(structural).astype(bool)
    out["holds_familywise"] = out["conclusion"].map(familywise).astype(bool)
    out["n"] = out["n"].astype(np.int64)
    out["is_reference"] = out["is_reference"].astype(bool)
    return out[columns]
