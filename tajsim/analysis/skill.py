"""The skill axis: do a game's key conclusions hold at every skill level?

A result of simulated play is a result about its players. This module checks each key conclusion
(the robustness conclusions: :data:`tajsim.analysis.robustness.CONCLUSIONS` and the game's own)
at several skill levels, each a labelled run of its own (a ``variant``: ``random``, the best
heuristic at a low and a high temperature, the search at two budgets), and says for each level
whether the conclusion of a reference level **holds**, **fails** or is **not significant** there.

A conclusion's value is a sign (``+`` / ``-`` / ``0``), an order of names with ``>`` between
significantly different neighbours and ``≈`` between the others, or a category (a name). Only
what the reference level states significantly is the conclusion:

* a sign: ``+`` at the reference holds where the level finds ``+``, is not significant where it
  finds ``0`` and fails where it finds ``-``;
* an order: it fails where some pair the reference orders significantly is ordered the other way
  significantly, is not significant where such a pair is merely not told apart (``≈``), and
  holds otherwise (a level that tells more pairs apart than the reference still holds);
* a category: it holds where the value is the same and fails where it differs;
* a reference that states nothing significant (``0``, an order of ``≈`` only) holds where the
  level states nothing either and fails where the level finds an effect.

``n/a`` (not computable at that level, e.g. a strategy ranking in a mirror match) stays ``n/a``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.robustness import Finding, conclusion_values
from tajsim.errors import UserError

__all__ = ["HOLDS", "FAILS", "NOT_SIGNIFICANT", "NOT_AVAILABLE", "STATUSES", "compare_value",
           "skill_levels"]

HOLDS, FAILS, NOT_SIGNIFICANT, NOT_AVAILABLE = "holds", "fails", "ns", "n/a"
#: Every status a cell of the skill table can take.
STATUSES = (HOLDS, FAILS, NOT_SIGNIFICANT, NOT_AVAILABLE)
_SIGNS = ("+", "-", "0")


def _tiers(value: str) -> dict[str, int] | None:
    """``"a > b ≈ c"`` -> ``{"a": 0, "b": 1, "c": 1}``; None when the value is not an order."""
    if " > " not in value and " ≈ " not in value:
        return None
    out: dict[str, int] = {}
    for rank, tier in enumerate(value.split(" > ")):
        for name in tier.split(" ≈ "):
            out[name.strip()] = rank
    return out


def compare_value(reference: str, value: str) -> str:
    """The status of ``value`` (a level's value of a conclusion) against the reference's value,
    by the rules of the module docstring: one of :data:`STATUSES`."""
    if value == "n/a" or reference == "n/a":
        return NOT_AVAILABLE
    if reference in _SIGNS and value in _SIGNS:
        if reference == "0":
            return HOLDS if value == "0" else FAILS
        if value == reference:
            return HOLDS
        return NOT_SIGNIFICANT if value == "0" else FAILS
    ref_tiers, tiers = _tiers(reference), _tiers(value)
    if ref_tiers is None and tiers is None:
        return HOLDS if value == reference else FAILS
    # an order against a one-name value (a single tier) reads the name as an order of one
    ref_tiers = ref_tiers or {reference: 0}
    tiers = tiers or {value: 0}
    common = [name for name in ref_tiers if name in tiers]
    reversed_pair = unresolved = False
    claims = 0
    for i, a in enumerate(common):
        for b in common[i + 1:]:
            ref_order = np.sign(ref_tiers[b] - ref_tiers[a])  # +1: a above b at the reference
            order = np.sign(tiers[b] - tiers[a])
            if ref_order == 0:
                if order != 0:
                    claims += 1  # the level tells apart what the reference does not
                continue
            if order == 0:
                unresolved = True
            elif order != ref_order:
                reversed_pair = True
    if not common:
        return FAILS
    if all(ref_tiers[a] == ref_tiers[common[0]] for a in common):
        # the reference tells nothing apart: it holds where the level does not either
        return HOLDS if claims == 0 else FAILS
    if reversed_pair:
        return FAILS
    return NOT_SIGNIFICANT if unresolved else HOLDS


def skill_levels(
    frames: Mapping[str, pd.DataFrame],
    conclusions: Sequence[str] | None = None,
    *,
    reference: str | None = None,
    extra: Mapping[str, Callable[[pd.DataFrame], list[Finding]]] | None = None,
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
        The level whose values are the conclusions (default: the most common value of each
        conclusion over the levels, as in the robustness analysis).
    extra : mapping of str to callable, optional
        The game's own conclusions (its analyses module's ``CONCLUSIONS``).

    Returns
    -------
    DataFrame, one row per conclusion and level (levels in the order of ``frames``)
        ``conclusion``, ``level``, ``value`` (str), ``reference_value`` (str), ``status``
        (str, one of :data:`STATUSES`), ``detail`` (str: the estimate and its 95% interval),
        ``n`` (int64, games at that level), ``is_reference`` (bool).

    Raises
    ------
    tajsim.errors.UserError
        ``reference`` is not one of the levels.
    ValueError
        A conclusion name is unknown.
    """
    levels = [str(k) for k in frames]
    if reference is not None and reference not in levels:
        raise UserError(f"reference level {reference!r} is not one of the levels; expected "
                        f"one of {', '.join(levels)}")
    long = conclusion_values(frames, conclusions, extra)
    rows = []
    for name, grp in long.groupby("conclusion", sort=False):
        by_level = {str(r.variant): r for r in grp.itertuples()}
        if reference is not None:
            ref_value = by_level[reference].value if reference in by_level else "n/a"
        else:
            present = [by_level[lv].value for lv in levels if lv in by_level]
            known = [v for v in present if v != "n/a"] or present
            ref_value = pd.Series(known).value_counts().index[0]
        for level in levels:
            row = by_level.get(level)
            value = row.value if row is not None else "n/a"
            rows.append({
                "conclusion": name, "level": level, "value": value,
                "reference_value": ref_value, "status": compare_value(ref_value, value),
                "detail": row.detail if row is not None else "not computed at this level",
                "n": int(row.n) if row is not None else 0,
                "is_reference": level == reference,
            })
    out = pd.DataFrame(rows, columns=["conclusion", "level", "value", "reference_value",
                                      "status", "detail", "n", "is_reference"])
    out["n"] = out["n"].astype(np.int64)
    out["is_reference"] = out["is_reference"].astype(bool)
    return out
