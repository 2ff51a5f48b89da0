"""Taj Mahal's report sections: the value of commodities and province tiles, and connection
scoring with its heat map on the board. Registered through :data:`SECTIONS` (the spec's
``report_module``)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.games.tajmahal.analyses import commodities, connections
from tajsim.games.tajmahal.engine.component_files import default_components
from tajsim.games.tajmahal.report.board_plot import plot_board
from tajsim.reporting.render import ReportContext, error_bars, errorbar_panel

__all__ = ["SECTIONS"]


def _section_commodities(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Commodity value")
    need = [*commodities.GOODS_COLUMNS, "n_province_tiles", *commodities.TILE_COLUMNS]
    missing = [c for c in need if c not in r.columns]
    if missing:
        ctx.para(f"Skipped: the results lack {', '.join(missing[:4])}.")
        return
    value = ctx.analysis("goods_value")
    points = ctx.analysis("goods_points")
    tiles = ctx.analysis("tile_value_by_visit")
    contest = ctx.analysis("goods_contest")
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.9), layout="constrained",
                             gridspec_kw={"width_ratios": [1, 1.15, 1]})
    errorbar_panel(axes[0], list(value["good"]), value["win_prob_change"].to_numpy(),
                    value["ci_low"].to_numpy(), value["ci_high"].to_numpy(), "#b5524b",
                    "change in win probability per unit")
    axes[0].set_title("One more good / province tile")
    ax = axes[1]
    ax.errorbar(tiles["visit"], tiles["win_prob_change"],
                yerr=error_bars(tiles["win_prob_change"], tiles["ci_low"], tiles["ci_high"]),
                fmt="o-", color="#4f7fa8", ecolor="#333", capsize=3)
    ax.axhline(0, color="#999", lw=1)
    ax.set_xticks(tiles["visit"])
    ax.set_xlabel("visit in which the province tile is won")
    ax.set_ylabel("change in win probability")
    ax.set_title("Province tile by visit")
    c_all = contest.groupby("good", sort=False).apply(
        lambda g: pd.Series({"concentration": np.average(g["concentration"], weights=g["n"]),
                             "low": np.average(g["ci_low"], weights=g["n"]),
                             "high": np.average(g["ci_high"], weights=g["n"])}),
        include_groups=False).reset_index()
    errorbar_panel(axes[2], list(c_all["good"]), c_all["concentration"].to_numpy(),
                    c_all["low"].to_numpy(), c_all["high"].to_numpy(), "#6b8e4e",
                    "concentration (0 = even spread, 1 = one holder)")
    lo = float(c_all["low"].min())
    hi = float(c_all["high"].max())
    pad = max(0.05, (hi - lo) * 0.5)
    axes[2].set_xlim(max(0.0, lo - pad), min(1.0, hi + pad))
    axes[2].set_title("How contested (lower = more)")
    ctx.figure(fig, "commodity_value",
               "Left: average marginal effect of one more good of each kind (and one more "
               "province tile beyond its goods) on the probability of winning, from a "
               "conditional logit within games with seat and strategy controls. Middle: the "
               "same for the province tile of each visit (its goods included). Right: "
               "normalised concentration of each good across the players of a game. Bars: 95% "
               "intervals.", r)
    ctx.table(value[["good", "n", "n_games", "coef", "se", "p_value", "win_prob_change",
                     "ci_low", "ci_high"]],
              "Value of goods for winning (conditional logit; coef = log-odds per unit; "
              "win_prob_change = average marginal effect).", "goods_value", full=value)
    ctx.table(points[["good", "n", "mean_goods", "mean_points", "ci_low", "ci_high",
                      "points_per_good", "marginal_points", "share_holding"]],
              "Points from goods (n goods of a kind score n(n+1)/2; marginal_points = what "
              "the next good would add).", "goods_points", full=points)
    ctx.table(tiles[["visit", "n", "claim_rate", "win_prob_change", "ci_low", "ci_high",
                     "p_value", "score_difference"]],
              "Province tile by visit (regression estimate; raw comparisons in the CSV).",
              "tile_value_by_visit", full=tiles)
    ctx.table(contest, "How contested each good is.", "goods_contest")


def _province_values_figure(ctx: ReportContext, by_province: pd.DataFrame) -> plt.Figure | None:
    """The connection heat map on the board, or None when the board cannot be drawn."""
    try:
        comps = ctx.components
        if comps is None:
            comps = default_components()
        slugs = set(comps.province_slugs)
        values = dict(zip(by_province["province"], by_province["mean"]))
        if not set(values) <= slugs:
            return None
        return plot_board(comps, province_values=values, cmap="YlOrRd",
                          title="Mean chain points per player in the visit to each province",
                          value_label="chain points (palace + connection)")
    except Exception:  # noqa: BLE001 - the map is optional; a bar chart replaces it
        return None


def _section_connections(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Connection scoring")
    missing = [c for c in (*connections.CHAIN_COLUMNS, "pts_connection") if c not in r.columns]
    pcols = connections.province_columns(r)
    if missing or len(pcols) != len(connections.CHAIN_COLUMNS):
        ctx.para("Skipped: the results lack `chain_v<k>`, `pts_connection` or the twelve "
                 "`visit_<province>` columns.")
        return
    by_province = ctx.analysis("chain_points_by_province").sort_values("mean", ascending=False)
    fig = _province_values_figure(ctx, by_province)
    if fig is not None:
        ctx.figure(fig, "connection_heatmap",
                   "Connection heat map: mean chain points (palace + connection points) a "
                   "player scores in the visit to each province, drawn on the board.", r)
    else:
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
        bp = by_province.sort_values("mean")
        errorbar_panel(ax, list(bp["province"])[::-1], bp["mean"].to_numpy()[::-1],
                        bp["ci_low"].to_numpy()[::-1], bp["ci_high"].to_numpy()[::-1],
                        "#b5524b", "mean chain points per player in the visit")
        ctx.figure(fig, "connection_heatmap",
                   "Mean chain points per player in the visit to each province, with 95% "
                   "intervals (the board picture was unavailable for these provinces).", r)
    by_visit = ctx.analysis("chain_points_by_visit", by=("n_players",))
    dist = ctx.analysis("connection_distribution", by=("n_players",))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    for P, grp in by_visit.groupby("n_players", sort=True):
        axes[0].errorbar(grp["visit"], grp["mean"], yerr=error_bars(grp["mean"], grp["ci_low"],
                                                               grp["ci_high"]),
                         fmt="o-", capsize=3, label=f"{int(P)} players")
    axes[0].set_xticks(range(1, 13))
    axes[0].set_xlabel("visit")
    axes[0].set_ylabel("mean chain points per player")
    axes[0].set_title("Chain points by visit")
    axes[0].legend(fontsize=8)
    for P, grp in dist.groupby("n_players", sort=True):
        axes[1].plot(grp["points"], grp["share"], drawstyle="steps-mid", label=f"{int(P)} players")
    axes[1].set_xlabel("connection points in the game")
    axes[1].set_ylabel("share of player-games")
    axes[1].set_title("Distribution of connection points")
    axes[1].legend(fontsize=8)
    ctx.figure(fig, "connection_by_visit",
               "Left: mean chain points per player in each visit, with 95% intervals. Right: "
               "distribution of a player's connection points over the game.", r)
    ctx.table(by_province, "Chain points by province (sorted by mean).",
              "chain_points_by_province")
    adjacency = None
    try:
        comps = ctx.components
        if comps is None:
            comps = default_components()
        adjacency = connections.province_adjacency_from_components(comps)
        if adjacency is not None and not {c.removeprefix("visit_") for c in pcols} <= set(
                adjacency):
            adjacency = None
    except Exception:  # noqa: BLE001 - adjacency is an optional extra feature
        adjacency = None
    if "setup_id" in r.columns:
        effects = ctx.analysis("province_order_effects", province_adjacency=adjacency)
        ctx.table(effects.head(15), "Province order and connection points: correlation of "
                  "each province's visit number (and, with the board, the number of consecutive "
                  "visits to neighbouring provinces) with the mean connection points of a setup; "
                  "one observation per setup; q = Benjamini-Hochberg.", "province_order_effects",
                  full=effects)



#: Taj Mahal's own sections: name -> (function, what it shows).
SECTIONS = {
    "commodities": (_section_commodities, "what goods and province tiles are worth for winning"),
    "connections": (_section_connections, "connection points by province, visit and setup"),
}
