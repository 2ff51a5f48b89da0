"""Maharaja's report sections on palaces: how fast they are built (``palace_tempo``) and central
against outer sites (``central_vs_outer``).
"""

from __future__ import annotations

import numpy as np

from tajsim.games.maharaja.report.section_helpers import (
    ASSOCIATION,
    _by,
    _ci,
    _display,
    _labels,
    _legend_below,
    _series,
    _signed_ci,
    _skip,
)
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    ReportContext,
    error_bars,
    group_label,
    join_words,
    panel_grid,
    rate_limits,
    series_colour,
)


# ---------------------------------------------------------------------------------------------
# Palace tempo
# ---------------------------------------------------------------------------------------------
def section_palace_tempo(ctx: ReportContext) -> None:
    ctx.heading(2, "Palace tempo")
    if _skip(ctx, "palace_tempo"):
        return
    by = _by(ctx)
    table = ctx.analysis("palace_tempo", by=by)
    curve = table[table["measure"] == "palaces_by_round"]
    panels = ("n_players",) if "n_players" in by else ()
    lines = [c for c in by if c not in panels]
    if not curve.empty:
        groups = _series(curve, panels) if panels else [("", curve)]
        fig, axes = panel_grid(len(groups), panel_height=3.3, extra_height=0.35)
        for ax, (title, sub) in zip(axes, groups):
            for i, (label, line) in enumerate(_series(sub, lines)):
                ax.errorbar(line["round"].astype(int), line["mean"],
                            yerr=error_bars(line["mean"], line["ci_low"], line["ci_high"]),
                            marker="o", ms=3.5, lw=1.4, capsize=2,
                            color=series_colour(i), label=label)
            ax.axhline(7, color="#999", lw=1, ls=":")
            ax.set_xlabel("round")
            ax.set_ylabel("palaces built by the end of the round")
            ax.set_xticks(sorted(curve["round"].astype(int).unique()))
            if title:
                ax.set_title(title)
        _legend_below(fig, axes[0], len(_series(curve[curve["round"] == 1], lines)))
        ctx.figure(fig, "palace_tempo",
                   "Palaces a player has built by the end of each round (a game that ended "
                   "earlier counts its final palaces), with 95% t intervals clustered by game; "
                   "dotted: the 7th palace that ends the game.", ctx.results)
    first = table[table["measure"] == "first_palace_round"]
    last = table[table["measure"] == "last_palace_round"]
    palaces = table[table["measure"] == "palaces"]
    lines_text = [f"{group_label(p, list(by))} {_ci(p['mean'], p['ci_low'], p['ci_high'], 2)}"
                  for _, p in palaces.sort_values("mean", ascending=False).iterrows()]
    if first["mean"].min() == first["mean"].max() and (first["sd"].fillna(0) == 0).all():
        first_text = (f"Every player who built a palace built its first in round "
                      f"{first['mean'].min():.0f}")
    else:
        first_text = (f"The first palace comes in round {first['mean'].min():.2f} to "
                      f"{first['mean'].max():.2f} on average (by group)")
    ctx.headline(
        f"Palaces at the end per player (n = {int(palaces['n'].min()):,} player-games or more "
        f"per group): {join_words(lines_text)}. {first_text}; the last comes in round "
        f"{last['mean'].min():.2f} to {last['mean'].max():.2f} on average.")
    by_first = table[table["measure"] == "win_rate_by_first_palace_round"]
    if len(by_first[by_first["n"] >= 30]) > 1:
        ctx.para("Win rate by the round of the first palace: " + join_words([
            f"round {int(r['round'])} {_ci(r['mean'], r['ci_low'], r['ci_high'], percent=True)}"
            f" (n = {int(r['n']):,})" for _, r in by_first[by_first["n"] >= 30].iterrows()])
            + f" ({ASSOCIATION}).")
    shown = table[table["measure"].isin(["first_palace_round", "last_palace_round",
                                         "palaces"])]
    ctx.table(shown[["measure", *by, "n", "mean", "ci_low", "ci_high"]],
              "First and last palace round (of the players who built one) and palaces at the "
              "end, per player-game (t intervals clustered by game); the curve by round and the "
              "win rate by the round of the first palace are in the CSV.", "palace_tempo",
              full=table)


# ---------------------------------------------------------------------------------------------
# Palaces: central and outer
# ---------------------------------------------------------------------------------------------
def section_central(ctx: ReportContext) -> None:
    ctx.heading(2, "Central and outer palaces")
    if _skip(ctx, "central_vs_outer"):
        return
    by = _by(ctx)
    table = ctx.analysis("central_vs_outer", by=by)
    rates = table[(table["measure"] == "win_rate_by_central") & (table["n"] >= 10)]
    counts = table[table["measure"].isin(["central", "outer"])]
    within = table[table["measure"] == "within_game"].set_index("outcome")
    fig, axes = panel_grid(2, panel_height=3.0)
    ax = axes[0]
    x = rates["level"].astype(int).to_numpy()
    ax.bar(x, rates["estimate"], color="#d9a441", edgecolor="#8c6d31", width=0.65)
    ax.errorbar(x, rates["estimate"], yerr=error_bars(rates["estimate"], rates["ci_low"],
                                                      rates["ci_high"]),
                fmt="none", ecolor="#333", capsize=4)
    for b in sorted(rates["baseline"].unique()):
        ax.axhline(b, color=BASELINE_COLOUR, ls="--", lw=1.2)
    ax.set_xticks(x)
    ax.set_xlabel("central palaces the player built")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, rate_limits(rates["ci_high"])[1])
    ax.set_title("Win rate by central palaces")
    ax = axes[1]
    labels = _labels(counts[counts["measure"] == "central"], by)
    y = np.arange(len(labels))[::-1]
    for measure, colour, shift in (("central", "#b5524b", 0.15), ("outer", "#4f7fa8", -0.15)):
        sub = counts[counts["measure"] == measure]
        ax.errorbar(sub["estimate"], y + shift, xerr=error_bars(sub["estimate"], sub["ci_low"],
                                                                sub["ci_high"]),
                    fmt="o", color=colour, ecolor="#333", capsize=3, label=measure)
    ax.set_yticks(y, labels)
    ax.set_xlabel("palaces per player-game")
    ax.set_title("Central and outer palaces built")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    ctx.figure(fig, "central_vs_outer",
               "Left: win rate by the number of central palaces a player built (Wilson 95% "
               "intervals; levels with fewer than 10 player-games left out; dashed: equal "
               "players). Right: central and outer palaces per player-game (t intervals, "
               "clustered by game).", ctx.results)
    win, gold = within.loc["win"], within.loc["gold"]
    ctx.headline(
        f"Players who build more central palaces win more, but they also build more palaces. "
        f"Compared among the players of one game with the same number of palaces "
        f"({int(win['n_games']):,} games; seat and strategy controls, intervals clustered by "
        f"game), a central palace in place of an outer one goes with "
        f"{_signed_ci(win['estimate'], win['ci_low'], win['ci_high'])} in win share and "
        f"{_signed_ci(gold['estimate'], gold['ci_low'], gold['ci_high'], 2)} gold. This is "
        "an association in simulated play, not a causal effect: a player takes the centre "
        "when it is free and affordable.")
    ctx.table(_display(table), "Win rate by central palaces (Wilson), central and outer "
              "palaces per player-game (t, clustered) and the within-game comparison of a "
              "central palace with an outer one (regression coefficient, clustered by game).",
              "central_vs_outer", full=table)
