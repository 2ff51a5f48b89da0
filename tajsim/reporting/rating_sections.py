"""The generic report section on ratings (``ratings``): openskill and Bradley-Terry ratings and the
head-to-head table.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis import ratings
from tajsim.reporting.render import PAGE_WIDTH_IN, ReportContext, error_bars, n_games

__all__ = ["OPENSKILL_MAX_GAMES", "section_ratings"]

#: openskill updates game by game in Python (~0.1 ms a game): the report rates at most this many.
OPENSKILL_MAX_GAMES = 50_000


def section_ratings(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Strategy comparison")
    if r["strategy"].nunique() < 2:
        ctx.para("Skipped: only one strategy played.")
        return
    games = n_games(r)
    os_table = ctx.analysis("openskill_ratings", max_games=OPENSKILL_MAX_GAMES)
    rated = (f" Rated on the first {OPENSKILL_MAX_GAMES:,} of {games:,} games."
             if games > OPENSKILL_MAX_GAMES else "")
    bt = ctx.analysis("bradley_terry")
    h2h = ctx.analysis("head_to_head")
    order = list(bt["strategy"])  # strongest first
    matrix = ratings.head_to_head_matrix(h2h).reindex(index=order, columns=order)
    fig, axes = plt.subplots(1, 2, figsize=(PAGE_WIDTH_IN, 1.3 + 0.4 * len(os_table)),
                             layout="constrained")
    o = os_table.iloc[::-1]
    axes[0].errorbar(o["mu"], np.arange(len(o)),
                     xerr=error_bars(o["mu"], o["ci_low"], o["ci_high"]), fmt="o",
                     color="#4f7fa8", ecolor="#333", capsize=4, clip_on=False)
    axes[0].set_yticks(np.arange(len(o)), o["strategy"])
    axes[0].set_xlabel("openskill μ (Plackett-Luce), ±1.96σ")
    axes[0].set_title("openskill rating ladder")
    b = bt[np.isfinite(bt["strength"])].iloc[::-1]
    apart = [f"{row.strategy} finished {row.separated.replace(' all', '')} every strategy it "
             "met (no finite strength; left out of the fit)"
             for row in bt[bt["separated"] != ""].itertuples()]
    axes[1].errorbar(b["strength"], np.arange(len(b)),
                     xerr=error_bars(b["strength"], b["ci_low"], b["ci_high"]), fmt="s",
                     color="#b5524b", ecolor="#333", capsize=4, clip_on=False)
    axes[1].axvline(0, color="#999", lw=1)
    axes[1].set_yticks(np.arange(len(b)), b["strategy"])
    axes[1].set_xlabel("Bradley-Terry strength (log-odds vs average), 95% CI")
    axes[1].set_title("Bradley-Terry cross-check")
    ctx.figure(fig, "rating_ladder",
               "Rating ladder: openskill Plackett-Luce ratings (updated game by game, seats as "
               f"teams{'; first ' + format(OPENSKILL_MAX_GAMES, ',') + ' games' if rated else ''}"
               ") and Bradley-Terry strengths from all pairwise finishing orders "
               "(sandwich intervals clustered by game)"
               + (f"; {'; '.join(apart)}." if apart else "."), r)
    k = len(matrix)
    fig, ax = plt.subplots(figsize=(min(PAGE_WIDTH_IN, 1.6 + 0.75 * k), 1.2 + 0.65 * k),
                           layout="constrained")
    values = matrix.to_numpy()
    spread = float(np.nanmax(np.abs(values - 0.5))) if np.isfinite(values).any() else 0.5
    spread = min(0.5, max(0.1, math.ceil(spread * 20) / 20))
    im = ax.imshow(values, cmap="RdBu", vmin=0.5 - spread, vmax=0.5 + spread)
    ax.set_xticks(range(k), matrix.columns, rotation=45, ha="right")
    ax.set_yticks(range(k), matrix.index)
    for i in range(k):
        for j in range(k):
            v = matrix.iat[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8.5,
                        color="white" if abs(v - 0.5) > 0.6 * spread else "black")
    ax.set_xlabel("strategy B")
    ax.set_ylabel("strategy A")
    fig.colorbar(im, ax=ax, label="share of games A finished above B")
    ctx.figure(fig, "head_to_head",
               "Head-to-head: share of the games in which the row strategy finished above the "
               "column strategy (ties count one half); strategies ordered by Bradley-Terry "
               "strength, strongest first.", r)
    finite = bt[np.isfinite(bt["strength"])]
    if len(finite) > 1:
        top, second = finite.iloc[0], finite.iloc[1]
        ctx.headline(
            f"Bradley-Terry (all pairwise finishing orders of {games:,} games): "
            f"{ratings.bradley_terry_verdict(bt)}; strength of {top['strategy']} "
            f"{top['strength']:+.2f} [{top['ci_low']:+.2f}, {top['ci_high']:+.2f}], of "
            f"{second['strategy']} {second['strength']:+.2f} "
            f"[{second['ci_low']:+.2f}, {second['ci_high']:+.2f}] (log-odds against the "
            "average strategy).")
    ctx.table(os_table, f"openskill ratings (interval: μ ± 1.96σ).{rated}", "openskill_ratings")
    ctx.table(bt, "Bradley-Terry strengths.", "bradley_terry")
    ctx.table(h2h, "Head-to-head with 95% Wilson intervals.", "head_to_head")
    _structure(ctx, h2h, order, games)
    rotation = ctx.analysis("seat_rotation_check")
    if not rotation.empty and (rotation["p_value"] < 0.01).any():
        ctx.para("Caution: strategies were not rotated evenly over the seats "
                 "(see `table_seat_rotation.csv`).")
    elif not rotation.empty and rotation["confounded"].any():
        ctx.para("Caution: each strategy sat in each seat about equally often, but the seats "
                 "saw different line-ups (see `table_seat_rotation.csv`).")
    ctx.csv(rotation, "table_seat_rotation")


def _structure(ctx: ReportContext, h2h: pd.DataFrame, order: list[str], games: int) -> None:
    """What a transitive rating hides (issue 39): the cycles among the pairs whose interval
    excludes 50%, and Nash averaging, a ranking that does not force transitivity, each with
    its best-strategy verdict."""
    if len(order) < 3:
        return
    pairs = ratings.PairMatrix.from_head_to_head(h2h, order=order)
    structure = ratings.head_to_head_structure(pairs)
    k = len(order)
    if structure.cycles:
        named = "; ".join(structure.cycle_text(c) + (" (survives Holm)" if holds else
                                                    " (an edge does NOT survive Holm)")
                          for c, holds in zip(structure.cycles, structure.cycle_holm))
        ctx.para(f"Head-to-head cycles (an edge counts only when its 95% interval excludes "
                 f"50%; Holm over the {k * (k - 1) // 2} pairs): {named}. Bradley-Terry orders "
                 "a cycle as if it were transitive.")
    else:
        ctx.para("No head-to-head cycle: the pairs whose 95% interval excludes 50% all point "
                 "the way of one order.")
    ctx.headline(f"Nash averaging (the maximum-entropy Nash equilibrium of the head-to-head "
                 f"game, {games:,} games; a ranking that does not force transitivity): "
                 f"{structure.verdict.replace('`', '')}.")
    ctx.table(structure.nash, "Nash averaging (Balduzzi et al. 2018): each strategy's weight in "
              "the maximum-entropy Nash equilibrium of the game whose payoff is the share of "
              "games finished above the other minus 50%, and its share against the "
              "equilibrium mixture (50% in the support).", "nash_averaging")
