"""Maharaja's report sections on the governor: the value of the governor action (``governor``)
and each seat's win rate by the governor order (``governor_order``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tajsim.games.maharaja.analyses.governor import GOVERNOR_TOP
from tajsim.games.maharaja.play.records import slug
from tajsim.games.maharaja.report.section_helpers import (
    _by,
    _ci,
    _components,
    _display,
    _facet,
    _legend_below,
    _series,
    _signed_ci,
    _skip,
)
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    PAGE_WIDTH_IN,
    SERIES_COLOURS,
    ReportContext,
    error_bars,
    panel_grid,
    pct,
    rate_limits,
    series_colour,
)
from tajsim.running.repeats import deterministic_lineup


# ---------------------------------------------------------------------------------------------
# The governor action
# ---------------------------------------------------------------------------------------------
def section_governor(ctx: ReportContext) -> None:
    ctx.heading(2, "The governor action")
    if _skip(ctx, "governor_value"):
        return
    facet = _facet(ctx)
    table = ctx.analysis("governor_value", by=facet or None)
    rates = table[table["measure"] == "win_rate"]
    levels = list(dict.fromkeys(rates["level"]))
    series = _series(rates, facet)
    by = _by(ctx)
    split = ctx.analysis("governor_value", by=by)
    split = split[split["measure"] == "win_rate"]
    lines = _series(split, by)
    two = len(lines) > 1 and len(lines) <= len(SERIES_COLOURS)
    fig, axes = panel_grid(2 if two else 1, panel_height=3.0,
                           single_width=PAGE_WIDTH_IN * 0.62,
                           extra_height=0.35 if len(series) > 1 or two else 0)
    ax = axes[0]
    width = 0.8 / len(series)
    for i, (label, sub) in enumerate(series):
        sub = sub.set_index("level").reindex(levels)
        x = np.arange(len(levels)) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, sub["estimate"], width=width * 0.95,
               color=series_colour(i) if facet else "#4f7fa8",
               label=label)
        ax.errorbar(x, sub["estimate"], yerr=error_bars(sub["estimate"], sub["ci_low"],
                                                        sub["ci_high"]),
                    fmt="none", ecolor="#333", capsize=3)
    for b in sorted(rates["baseline"].unique()):
        ax.axhline(b, color=BASELINE_COLOUR, ls="--", lw=1.2)
    ax.set_xticks(np.arange(len(levels)), levels)
    ax.set_xlabel("times the player chose the governor action")
    ax.set_ylabel("win rate")
    top = rate_limits(rates["ci_high"], split["ci_high"] if two else rates["ci_high"])[1]
    ax.set_ylim(0, top)
    ax.set_title("All players" if not facet else "By " + " and ".join(facet))
    if facet:
        ax.legend(loc="upper left", frameon=False)
    if two:
        ax = axes[1]
        for i, (label, sub) in enumerate(lines):
            sub = sub[sub["n"] >= 20].set_index("level").reindex(levels)
            x = np.arange(len(levels)) + (i - (len(lines) - 1) / 2) * 0.06
            ax.errorbar(x, sub["estimate"], yerr=error_bars(sub["estimate"], sub["ci_low"],
                                                            sub["ci_high"]),
                        marker="o", ms=4, lw=1.3, capsize=2.5,
                        color=series_colour(i), label=label)
        for b in sorted(split["baseline"].unique()):
            ax.axhline(b, color=BASELINE_COLOUR, ls="--", lw=1.2)
        ax.set_xticks(np.arange(len(levels)), levels)
        ax.set_xlabel("times the player chose the governor action")
        ax.set_ylim(0, top)
        ax.set_title("Within each " + " and ".join(by).replace("n_players", "player count"))
        _legend_below(fig, ax, len(lines))
    ctx.figure(fig, "governor_value",
               "Win rate by how often a player chose the governor action (95% Wilson "
               "intervals; dashed: equal players)"
               + (", over all players (left) and within each group (right; levels with "
                  "fewer than 20 player-games left out)." if two else "."), ctx.results)
    pooled = ctx.analysis("governor_value", by=None)
    within = pooled[pooled["measure"] == "within_game"].set_index("outcome")
    win, gold = within.loc["win"], within.loc["gold"]
    compared = (
        f"among the players of one game ({int(win['n_games']):,} games; seat and strategy "
        f"controls, intervals clustered by game), one more choice of the action goes with "
        f"{_signed_ci(win['estimate'], win['ci_low'], win['ci_high'])} in win share and "
        f"{_signed_ci(gold['estimate'], gold['ci_low'], gold['ci_high'], 2)} gold. Both are "
        "associations in simulated play, not causal effects (strategies choose the action "
        "when it pays); the action's effect on a given strategy is measured by playing that "
        "strategy with and without it (e.g. `hoarder` against `hoarder:governor=0`).")
    if facet:  # raw rates are not comparable across player counts: by group only
        gaps = table[table["measure"] == "raw_gap"]
        ahead = int((gaps["ci_low"] > 0).sum())
        ctx.headline(f"In {ahead} of {len(series)} groups the players who chose the governor "
                     f"action {levels[-1]} times win more than those who never did (the "
                     f"difference's Newcombe interval above 0). Compared {compared}")
    else:
        raw = pooled[pooled["measure"] == "win_rate"]
        low, high = raw.iloc[0], raw.iloc[-1]
        gap = pooled[pooled["measure"] == "raw_gap"]
        part = pooled[pooled["measure"] == "within_game_gap"]
        mostly_who = ""
        if len(gap) and len(part):
            gap, part = gap.iloc[0], part.iloc[0]
            # both 95% bounds, each one-sided at 97.5%: a 5% test whatever their correlation
            if gap["ci_low"] > 0 and -gap["ci_low"] / 2 < part["ci_low"] \
                    and part["ci_high"] < gap["ci_low"] / 2:
                gap_pts = _signed_ci(*(100 * gap[c] for c in ("estimate", "ci_low", "ci_high")), 1)
                part_pts = _signed_ci(*(100 * part[c] for c in ("estimate", "ci_low", "ci_high")),
                                      1)
                choices = ctx.results["chose_governor"]
                mean_top = float(choices[choices >= GOVERNOR_TOP].mean())
                mostly_who = (
                    f"Most of that difference ({gap_pts} points, Newcombe) is who chooses it, "
                    f"not the choosing: among the players of one game, choosing the action "
                    f"{mean_top:.1f} times (the {high['level']} players' mean) instead of never "
                    f"goes with {part_pts} points (the coefficient below, times that count), "
                    "inside half the gap's lower bound either way (the two 95% bounds: a test "
                    "at 5%). ")
        ctx.headline(
            f"Players who chose the governor action {high['level']} times win "
            f"{_ci(high['estimate'], high['ci_low'], high['ci_high'], percent=True)} of "
            f"{int(high['n']):,} player-games, those who never did "
            f"{_ci(low['estimate'], low['ci_low'], low['ci_high'], percent=True)} of "
            f"{int(low['n']):,}. " + mostly_who + "Compared " + compared)
    ctx.table(_display(table), "Win rate by governor choices (Wilson), the raw gap of the "
              "top level over never (Newcombe) and the within-game comparison (regression "
              "coefficient per choice, and times the top level's mean count; clustered by "
              "game).",
              "governor_value", full=table)


# ---------------------------------------------------------------------------------------------
# The governor order and the seats
# ---------------------------------------------------------------------------------------------
def section_governor_order(ctx: ReportContext) -> None:
    ctx.heading(2, "The governor order and the seats")
    if _skip(ctx, "order_balance"):
        return
    facet = _facet(ctx)
    table = ctx.analysis("order_balance", by=facet or None)
    groups = _series(table, facet)
    cities = [c for c in table["first_city"].unique() if c != "all"]
    rows = ["all", *sorted(cities)]
    city_names = {slug(c): c for c in _components(ctx).city_names}
    fig, axes = panel_grid(len(groups), panel_height=0.9 + 0.3 * len(rows),
                           extra_height=0.5)
    spread = max(0.05, float((table["win_rate"] - table["baseline"]).abs().max()))
    image = None
    for ax, (label, sub) in zip(axes, groups):
        grid = sub.pivot_table(index="first_city", columns="seat", values="win_rate",
                               observed=True).reindex(rows)
        base = float(sub["baseline"].iloc[0])
        image = ax.imshow(100 * (grid.to_numpy() - base), cmap="RdBu", aspect="auto",
                          vmin=-100 * spread, vmax=100 * spread)
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                v = grid.iat[i, j]
                if np.isfinite(v):
                    ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                            color="white" if abs(v - base) > 0.6 * spread else "black")
        ax.set_xticks(range(grid.shape[1]), [f"seat {s}" for s in grid.columns])
        ax.set_yticks(range(len(rows)), ["all orders" if r == "all" else
                                         f"{city_names.get(r, r)} first" for r in rows])
        ax.axhline(0.5, color="white", lw=2)
        if label != "all games":
            ax.set_title(label)
    fig.colorbar(image, ax=axes, orientation="horizontal", location="bottom", shrink=0.5,
                 label="win rate minus the rate of equal players (points)")
    ctx.figure(fig, "governor_order",
               "Win rate (%) of each seat over all governor orders and by the city the order "
               "scores first; colour: the difference from the rate of equal players (blue "
               "above, red below).", ctx.results)
    exhaustive = table.groupby([*facet], observed=True)["exhaustive"].all() if facet else \
        pd.Series([bool(table["exhaustive"].all())])
    overall = table[table["first_city"] == "all"]
    # At a temperature above 0 the strategies draw chance: an order's games differ.
    fixed = deterministic_lineup(ctx.spec, ctx.results["strategy"].astype(str).unique())
    if bool(exhaustive.all()):
        k = int(overall["n"].iloc[0] // overall["n_orders"].iloc[0])
        times = "once" if k == 1 else f"{k} times"
        ctx.para(
            f"Every one of the 5,040 governor orders was played {times}"
            f"{' in each group' if facet else ''}. " + (
                "The compiled strategies draw no chance, so a game is a function of the order "
                "and the seating: these rates are exact for a uniformly drawn order, and the "
                "Wilson intervals in the table are those of a sample of as many random orders."
                if fixed else
                "The strategies draw chance (a temperature above 0), so the games of an order "
                "differ: these rates are estimates over games, every order weighted equally."))
    else:
        ctx.para(f"The governor orders were drawn at random "
                 f"({int(overall['n_orders'].max()):,} distinct orders of 5,040 in the largest "
                 "group), so these rates are estimates with Wilson intervals over games.")
    for label, sub in groups:
        all_orders = sub[sub["first_city"] == "all"].sort_values("win_rate")
        worst, best = all_orders.iloc[0], all_orders.iloc[-1]
        by_city = sub[sub["first_city"] != "all"]
        far = by_city.loc[(by_city["win_rate"] - by_city["baseline"]).abs().idxmax()]
        ctx.headline(
            f"{label + ': s' if facet else 'S'}eat {int(best['seat'])} wins "
            f"{_ci(best['win_rate'], best['ci_low'], best['ci_high'], percent=True)} and seat "
            f"{int(worst['seat'])} {_ci(worst['win_rate'], worst['ci_low'], worst['ci_high'], percent=True)}"  # noqa: E501
            f" of {int(best['n']):,} games (equal players: {pct(best['baseline'])}); the "
            f"largest shift by the first city: seat {int(far['seat'])} wins "
            f"{_ci(far['win_rate'], far['ci_low'], far['ci_high'], percent=True)} of the "
            f"{int(far['n']):,} games whose order scores "
            f"{city_names.get(far['first_city'], far['first_city'])} first.")
    if bool(exhaustive.all()) and fixed:
        ctx.para(
            "The generic setup-balance section's share of variance due to the setup (ICC) is "
            "not shown for such a run: it needs several independent games per order, and "
            "deterministic play has none. In a mirror match the order decides everything; "
            "across the seat rotations of a mixed field the games of one order are tied "
            "together (a strategy that wins every rotation wins once in each seat), which "
            "biases the share downwards.")
    tests = []
    # In mirror matches each strategy's seats are tested on their own.
    names = sorted(ctx.results["strategy"].astype(str).unique()) if "strategy" in facet \
        else [None]
    for name in names:
        for seat in sorted(int(x) for x in ctx.results["seat"].unique()):
            found = ctx.analysis("setup_feature_tests", seat=seat, strategy=name)
            if not found.empty:
                found = found.assign(seat=seat)
                tests.append(found if name is None else found.assign(strategy=name))
    if tests:
        features = pd.concat(tests, ignore_index=True).sort_values("p_value", kind="stable")
        n_sig = int(features["significant"].sum())
        ctx.para(f"Setup features (the city scored first, the round in which each city is "
                 f"first scored) tested against each seat's win rate, one observation per "
                 f"order: {n_sig} of {len(features)} tests significant at a 5% false "
                 "discovery rate (Benjamini-Hochberg within each seat"
                 f"{' and strategy' if names != [None] else ''}).")
        shown = [*[c for c in ("strategy", "n_players") if c in features.columns], "seat",
                 "feature",
                 "level", "n", "effect", "ci_low", "ci_high", "p_value", "q_value"]
        ctx.table(features[shown].head(12), "Setup features with the smallest p-values, all "
                  "seats (effect: difference in win rate for a first city, change per later "
                  "round for a city's first visit).", "governor_order_features", full=features)
    ctx.table(table, "Win rate of each seat by the city scored first (Wilson intervals over "
              "games; n_orders: distinct governor orders).", "order_balance")
