"""The generic report section on robustness (``robustness``): which key conclusions hold in every
variant (component sets or rule options) the runs are labelled with, each with its kind's test
(equivalence for a null, tested orders, a Holm statement for the family).
"""

from __future__ import annotations

from tajsim.analysis import robustness
from tajsim.analysis.registry import conclusion_options, conclusions_for
from tajsim.reporting.render import ReportContext, join_words
from tajsim.reporting.verdict_wording import margin_kwargs, margin_of, mde_clause, verdict_legend

__all__ = ["section_robustness"]


def section_robustness(ctx: ReportContext) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    # Variants are whatever the runs label so: component sets or rule options.
    ctx.heading(2, "Robustness across variants")
    extra = margin_kwargs(ctx)
    table = ctx.analysis("robustness", **extra)
    long = robustness.conclusion_values(robustness.split_variants(r),
                                        extra=conclusions_for(ctx.spec),
                                        options=conclusion_options(ctx.spec), **extra)
    held = table[table["holds_in_all"]]
    familywise = table[table["holds_familywise"]]
    mde = mde_clause(long, "variant")
    ctx.para(verdict_legend(margin_of(ctx)) + " A conclusion holds in every variant when each "
             "variant's verdict confirms the consensus (the most common conclusive value); an "
             "inconclusive variant confirms nothing.")
    ctx.headline(
        f"{len(held)} of {len(table)} key conclusions hold in all {r['variant'].nunique()} "
        "variants (the component sets or rule options the runs are labelled with)"
        + (f": {join_words(list(held['conclusion']))}" if len(held) else "")
        + (f"; {len(familywise)} of them family-wise (Holm over the {len(held)} "
           f"statement{'s' if len(held) != 1 else ''}, each the largest p-value over its "
           "variants)" if len(held) else "") + "."
        + (f" Smallest first-seat effect detectable: {mde}." if mde else ""))
    ctx.table(table, "Key conclusions by variant (`p_holm`: Holm over the conclusions that "
              "hold in all).", "robustness", full=long)
