"""The generic report section on the score (``score_composition``): the mean and distribution of
each score part, with the stacked score-parts figure the aggregate report reuses.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.stats.verdicts import minimum_detectable_effect
from tajsim.reporting.render import (
    PAGE_WIDTH_IN,
    PART_COLOURS,
    ReportContext,
    group_label,
    join_words,
)

__all__ = ["composition_wide", "score_parts_figure", "section_composition"]


def section_composition(ctx: ReportContext) -> None:
    r = ctx.results
    spec = ctx.spec
    shown = spec.score_display  # None: the score is points, every part shown
    parts = list(spec.shown_parts)
    total = shown.total if shown else "score"
    # The measures a player reads besides the total (Maharaja's palaces), in ranking order.
    others = tuple(m for m in shown.measures if m != total) if shown else ()
    ctx.heading(2, "Score composition")
    missing = [f"pts_{p}" for p in parts if f"pts_{p}" not in r.columns] + [
        m for m in (*others, total) if m not in r.columns]
    if missing:
        ctx.para(f"Skipped: the results lack {', '.join(missing)}.")
        return
    facet = [c for c in ("edition", "n_players") if c in r.columns and r[c].nunique() > 1]
    by = [*facet, "strategy"]
    # A game without a score display asks exactly what it always asked (the run's cache).
    extra = {} if shown is None else {"parts": tuple(parts), "total": total,
                                      "measures": others}
    table = ctx.analysis("score_composition", by=tuple(by), **extra)
    wide = composition_wide(table, by, [*others, total, *parts] if shown else [*parts, total])
    overall = ctx.analysis("score_composition", by=(), **extra)
    unit = spec.score_unit
    if shown is not None:
        ctx.para(f"{shown.note} The figure and the table show " + join_words(
            [f"the {m}" for m in shown.measures]) + f" a player ends with, and where the {total} "
            "comes from.")
    stated = [f"{_mean_ci(overall, m)} {m if m != 'score' else 'points'}"
              for m in (*others, total)]
    ctx.headline(f"A player ends with {join_words(stated)} a game on average (mean, 95% CI; "
                 f"n = {int(overall['n'].iloc[0]):,} player-games).")
    ctx.para(_mde_sentence(table, overall, total, unit if shown else "points"))
    fig = score_parts_figure(wide, [group_label(row, by) for _, row in wide.iterrows()], parts,
                             total, unit)
    what = "score" if shown is None else total
    ctx.figure(fig, "score_parts",
               f"Mean {unit} per player-game from each score part: gains stacked to the right of "
               f"0, costs (negative parts) to the left, so each segment's length is its part's "
               f"mean; the black tick marks the mean {what} (gains minus costs), its value "
               "written at the bar's right end"
               + (f"; {shown.note}" if shown else ".")
               , r)
    ctx.table(wide, f"Mean {unit} per player-game by score part"
              + (f", with the mean {join_words(list(shown.measures))}" if shown else "")
              + " (intervals and quantiles in the CSV).", "score_composition", full=table)
    ctx.csv(ctx.analysis("score_part_histogram", by=tuple(by),
                         **({"parts": tuple(parts)} if shown else {})),
            "table_score_part_histogram")
    ctx.para(f"The full distribution of each part ({unit} → frequency) is in "
             "`table_score_part_histogram.csv`.")


def _mde_sentence(table: pd.DataFrame, overall: pd.DataFrame, total: str, unit: str) -> str:
    """The smallest difference of the mean ``total`` between two rows of the table (groups of
    the smallest size, the overall spread) that these games detect: what the section can
    tell apart. Player-games of one game are correlated, so it is a lower bound where a
    strategy fills several seats."""
    sd = float(overall.loc[overall["part"] == total, "sd"].iloc[0])
    n_min = int(table.loc[table["part"] == total, "n"].min())
    if not (np.isfinite(sd) and n_min > 1):
        return ""
    mde = float(minimum_detectable_effect(sd * np.sqrt(2.0 / n_min)))
    return (f"The smallest difference in mean {total} between two groups of the table that "
            f"these games detect (80% power, two-sided 5%; groups of {n_min:,} player-games, "
            f"sd {sd:,.1f}): {mde:,.1f} {unit}. Parts are compared the same way: a part told "
            "apart from another needs at least such a difference.")


def _mean_ci(table: pd.DataFrame, part: str) -> str:
    """``mean [low, high]`` of ``part`` in a one-group score-composition table."""
    row = table[table["part"] == part].iloc[0]
    digits = 1 if abs(float(row["mean"])) < 1000 else 0
    return (f"{row['mean']:,.{digits}f} [{row['ci_low']:,.{digits}f}, "
            f"{row['ci_high']:,.{digits}f}]")


def composition_wide(table: pd.DataFrame, by: list[str], columns: list[str]) -> pd.DataFrame:
    """The long score-composition ``table`` as one row per group: ``by...``, ``n`` (int64,
    player-games) and the mean of each of ``columns`` (float64; parts, measures, the total)."""
    wide = table.pivot_table(index=by, columns="part", values="mean", observed=True,
                             sort=False)
    wide = wide[columns]
    counts = table[table["part"] == columns[0]].set_index(by)["n"]  # the same for every part
    wide.insert(0, "n", counts.reindex(wide.index).to_numpy())
    return wide.reset_index()


def score_parts_figure(wide: pd.DataFrame, labels: list[str], parts: list[str], total: str,
                       unit: str) -> plt.Figure:
    """Horizontal bars of the mean score parts of each row of ``wide``: positive means stacked
    to the right of 0, negative ones (costs) to the left, so no segment hides another, and a
    black diamond at the mean ``total`` (the sum of the parts). ``wide`` holds one float64
    column per part and ``total``, one row per label (the first on top)."""
    fig, ax = plt.subplots(figsize=(min(8.5, PAGE_WIDTH_IN), 1.8 + 0.45 * len(wide)),
                           layout="constrained")
    y = np.arange(len(wide))[::-1]
    values_of = wide[parts].to_numpy(np.float64)
    span = float(np.clip(values_of, 0, None).sum(axis=1).max()
                 - np.clip(values_of, None, 0).sum(axis=1).min())
    # A segment is labelled only when its label fits inside it (about 5% of the axis).
    smallest_label = max(3.0, 0.05 * span)
    right = np.zeros(len(wide))  # where the next gain starts
    left = np.zeros(len(wide))  # where the next cost starts (going left)
    for part, colour in zip(parts, PART_COLOURS):
        values = wide[part].to_numpy(np.float64)
        start = np.where(values >= 0, right, left)
        ax.barh(y, values, left=start, color=colour, edgecolor="white", label=part, height=0.7)
        for yi, si, v in zip(y, start, values):
            if abs(v) >= smallest_label:
                ax.text(si + v / 2, yi, f"{v:.1f}", ha="center", va="center", fontsize=8,
                        color="white")
        right += np.where(values >= 0, values, 0.0)
        left += np.where(values < 0, values, 0.0)
    handles, names = ax.get_legend_handles_labels()
    means = wide[total].to_numpy(np.float64)
    # The mean as a tick across the bar, its value beside the bar's right end: a marker on the
    # bar would cover a segment's label.
    (mark,) = ax.plot(means, y, ls="none", marker="|", color="black", markersize=22,
                      markeredgewidth=2.2)
    for yi, end, m in zip(y, right, means):
        ax.text(end + 0.01 * max(float(right.max()), 1.0), yi, f"{m:,.1f}", ha="left",
                va="center", fontsize=8.5)
    ax.axvline(0, color="#333", lw=1)
    ax.set_xlim(min(0.0, float(left.min())) * 1.05, max(float(right.max()), 1.0) * 1.1)
    ax.set_yticks(y, labels)
    ax.set_xlabel(f"mean {unit} per player-game (costs left of 0)")
    fig.legend([*handles, mark], [*names, f"mean {total} (value at the bar's end)"],
               loc="outside lower center", ncol=min(5, len(parts) + 1), frameon=False)
    ax.set_title(f"Score parts (mean {unit})")
    return fig
