"""The generic report section on the setup (``setup_balance``): how much the setup decides, which
setups favour a seat, and which setup features go with a seat's win rate.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from tajsim.analysis import setup_balance
from tajsim.reporting.render import BASELINE_COLOUR, ReportContext, integer_axis, n_games
from tajsim.reporting.win_rate_sections import SIGNIFICANCE
from tajsim.running.repeats import deterministic_lineup

__all__ = ["BALANCED_SPREAD", "section_setup_balance"]

#: A setup is called balanced when its seat spread's 95% interval lies below this (win-rate
#: points): at few games a setup the interval is wide, and a spread of 0 says nothing.
BALANCED_SPREAD = 0.10


def section_setup_balance(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Setup balance")
    if "setup_id" not in r.columns:
        ctx.para("Skipped: the results have no `setup_id` column.")
        return
    note = ctx.spec.notes.setup_balance_note if ctx.spec.chance_only_in_setup else ""
    if note and deterministic_lineup(ctx.spec, r["strategy"].astype(str).unique()):
        # the game says why these would mislead when its games are a function of the setup
        ctx.para(f"Skipped: {note}")
        return
    per_setup = setup_balance.games_per_setup(r)
    if per_setup.max() < 2:
        ctx.para(f"Skipped: every game has its own setup ({len(per_setup):,} setups for "
                 f"{n_games(r):,} games), so the variance due to the setup cannot be separated "
                 "from the variance due to play. Run several games per setup to analyse it.")
        return
    share = ctx.analysis("setup_variance_share")
    ctx.para(
        f"{len(per_setup):,} setups with {per_setup.median():.0f} games each (median). The "
        "table gives, for each seat, the share of the variance of its win (after removing "
        "each strategy's mean) that lies between setups (ICC, one-way random-effects ANOVA): "
        f"0 = the setup ({ctx.spec.notes.setup_features_text}) does not matter."
    )
    ctx.table(share, "Share of win variance due to the setup, by seat.", "setup_variance_share")
    if share["icc"].notna().any():
        top = share.loc[share["icc"].idxmax()]
        ctx.headline(
            f"The setup's share of the win variance (ICC) is at most {top['icc']:.3f} "
            f"[{top['ci_low']:.3f}, {top['ci_high']:.3f}] ({top['target']}, "
            f"{int(top['n_setups']):,} setups, n = {int(top['n']):,}; 0: the setup does not "
            "matter).")
    imbalance = ctx.analysis("setup_imbalance")
    if not imbalance.empty:
        fig, ax = plt.subplots(figsize=(7.5, 4.0), layout="constrained")
        ax.hist(imbalance["spread"], bins=min(40, max(10, len(imbalance) // 5)),
                color="#d9a441", edgecolor="#8c6d31")
        null = float(np.average(imbalance["null_spread"], weights=imbalance["n"]))
        ax.axvline(null, color=BASELINE_COLOUR, ls="--",
                   label=f"expected by chance with equal seats ({null:.2f})")
        ax.set_xlabel("seat win-rate spread in a setup (best seat − worst seat)")
        ax.set_ylabel("setups")
        integer_axis(ax.yaxis)  # counts of setups
        fig.legend(loc="outside lower center", frameon=False)
        ctx.figure(fig, "setup_imbalance",
                   f"Distribution of setup imbalance over {len(imbalance):,} setups: the spread "
                   "between the best and the worst seat's win rate in each setup; dashed: the "
                   "spread expected by chance alone with equal seats and the same number of "
                   "games.", r)
        cols = [c for c in ("seed", "setup_id", "n_players") if c in imbalance.columns] + [
            "n", "spread", "ci_low", "ci_high", "best_seat", "worst_seat", "p_value", "q_value"]
        # Only setups the data tell apart are listed: a spread whose interval excludes equal
        # seats (0) and whose test survives the correction over setups. At a few games a
        # setup every spread is noise, and ranking them would present noise as findings.
        apart = imbalance[(imbalance["ci_low"] > 0) & (imbalance["q_value"] < SIGNIFICANCE)]
        games = float(per_setup.median())
        if apart.empty:
            ctx.headline(
                f"No setup's seats can be told apart at {games:.0f} games a setup (median, "
                f"{len(imbalance):,} setups): no spread's 95% interval excludes equal seats "
                "with q < 0.05, so no setup is listed as unbalanced (every setup is in "
                "`table_setup_imbalance.csv`).")
            ctx.csv(imbalance, "table_setup_imbalance")
        else:
            ctx.headline(
                f"{len(apart):,} of {len(imbalance):,} setups ({games:.0f} games a setup, "
                "median) have seats the data tell apart: their spread's 95% interval excludes "
                "equal seats and q < 0.05.")
            ctx.table(apart[cols].head(10), "Setups whose seats the data tell apart, least "
                      "balanced first (replay from seed + setup_id). Spread = best minus worst "
                      "seat win rate, with a conservative 95% interval (simultaneous Wilson "
                      "intervals) that excludes 0; p: chi-square test of equal seats; q: "
                      "Benjamini-Hochberg over setups, below 0.05.", "setup_imbalance",
                      full=imbalance)
        balanced = imbalance[imbalance["ci_high"] <= BALANCED_SPREAD].sort_values(
            ["ci_high", "spread"], kind="stable")
        if not balanced.empty:
            ctx.table(balanced[cols].head(5), "Setups shown to be balanced: the spread's 95% "
                      f"interval lies below {BALANCED_SPREAD:.2f} (narrowest first).")
    features = ctx.analysis("setup_feature_tests")
    if not features.empty:
        n_sig = int(features["significant"].sum())
        n_features = int(features["feature"].nunique()) if "feature" in features else \
            len(features)
        ctx.para(f"Setup features tested against seat 0's win rate: {n_features} "
                 f"({ctx.spec.notes.setup_features_text})"
                 f" in {len(features)} comparisons (a slope per unit of a numeric feature, "
                 "each level of a categorical one against the others), one observation per "
                 f"setup; {n_sig} of the comparisons significant at a 5% false discovery rate "
                 "(Benjamini-Hochberg).")
        ctx.table(features.head(10), "Setup features with the smallest p-values.",
                  "setup_feature_tests", full=features)
