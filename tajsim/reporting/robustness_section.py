"""The generic report section on robustness (``robustness``): which key conclusions hold in every
variant (component sets or rule options) the runs are labelled with.
"""

from __future__ import annotations

from tajsim.analysis import robustness
from tajsim.analysis.registry import conclusions_for
from tajsim.reporting.render import ReportContext

__all__ = ["section_robustness"]


def section_robustness(ctx: ReportContext) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    # Variants are whatever the runs label so: component sets or rule options.
    ctx.heading(2, "Robustness across variants")
    table = ctx.analysis("robustness")
    held = int(table["holds_in_all"].sum())
    ctx.para(f"{held} of {len(table)} key conclusions hold in all {r['variant'].nunique()} "
             "variants (the component sets or rule options the runs are labelled with).")
    ctx.table(table, "Key conclusions by variant.", "robustness",
              full=robustness.conclusion_values(robustness.split_variants(r),
                                                extra=conclusions_for(ctx.spec)))
