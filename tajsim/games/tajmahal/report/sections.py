"""Taj Mahal's report sections: the value of commodities and province tiles, and connection
scoring with its heat map on the board. Registered through :data:`SECTIONS` (the spec's
``report_module``)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap

from tajsim.analysis.stats import normal_quantile
from tajsim.analysis.stats.verdicts import minimum_detectable_effect, tested_order
from tajsim.games.tajmahal.analyses import commodities, connections
from tajsim.games.tajmahal.engine.component_files import default_components
from tajsim.games.tajmahal.report.board_plot import plot_board
from tajsim.games.tajmahal.report.province_effects import province_effects_net_of_visit
from tajsim.reporting.render import (
    PAGE_WIDTH_IN,
    ReportContext,
    error_bars,
    errorbar_panel,
    integer_axis,
)

__all__ = ["SECTIONS"]

#: Row labels of the goods-value panel: the tile's value is what it adds beyond its goods.
_GOOD_LABELS = {"province_tile": "province tile\n(beyond its goods)"}


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
    # Two rows on the page width: the goods and how contested they are side by side (same
    # row order), the province tile by visit below at full width.
    fig, axd = plt.subplot_mosaic([["value", "contest"], ["visit", "visit"]],
                                  figsize=(PAGE_WIDTH_IN, 6.4), layout="constrained",
                                  height_ratios=[1.1, 1])
    labels = [_GOOD_LABELS.get(str(g), str(g)) for g in value["good"]]
    errorbar_panel(axd["value"], labels, value["win_prob_change"].to_numpy(),
                   value["ci_low"].to_numpy(), value["ci_high"].to_numpy(), "#b5524b",
                   "change in win probability per unit")
    axd["value"].set_title("One more good, or province tile")
    ax = axd["visit"]
    ax.errorbar(tiles["visit"], tiles["win_prob_change"],
                yerr=error_bars(tiles["win_prob_change"], tiles["ci_low"], tiles["ci_high"]),
                fmt="o-", color="#4f7fa8", ecolor="#333", capsize=3, clip_on=False)
    ax.axhline(0, color="#999", lw=1)
    ax.set_xticks(tiles["visit"])
    ax.set_xlabel("visit in which the province tile is won")
    ax.set_ylabel("change in win probability")
    ax.set_title("Province tile by visit (its goods included)")
    c_all = contest.groupby("good", sort=False).apply(
        lambda g: pd.Series({"concentration": np.average(g["concentration"], weights=g["n"]),
                             "low": np.average(g["ci_low"], weights=g["n"]),
                             "high": np.average(g["ci_high"], weights=g["n"])}),
        include_groups=False).reset_index()
    errorbar_panel(axd["contest"], list(c_all["good"]), c_all["concentration"].to_numpy(),
                   c_all["low"].to_numpy(), c_all["high"].to_numpy(), "#6b8e4e",
                   "concentration (0 = even, 1 = one holder)")
    lo = float(c_all["low"].min())
    hi = float(c_all["high"].max())
    pad = max(0.05, (hi - lo) * 0.5)
    axd["contest"].set_xlim(max(0.0, lo - pad), min(1.0, hi + pad))
    axd["contest"].set_title("How contested (lower = more)")
    ctx.figure(fig, "commodity_value",
               "Top left: average marginal effect of one more good of each kind, and of one "
               "more province tile beyond the goods it brings, on the probability of winning, "
               "from a conditional logit within games with seat and strategy controls (the "
               "tile's row is one more tile at the same goods: its good is counted in the "
               "good's row, so a negative value means a tile is worth less than its good "
               "alone, not that tiles should be left). Bottom: the same for the province "
               "tile of each visit, its goods included. Top right: normalised concentration "
               "of each good across the players of a game. Bars: 95% intervals.", r)
    ctx.headline(_goods_order_statement(r, value))
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


def _goods_order_statement(results: pd.DataFrame, value: pd.DataFrame) -> str:
    """The goods in a tested order of their value for winning (every pair of conditional-logit
    coefficients tested with their covariance clustered by game, Holm): goods not told apart
    are said so, never ranked by noise; with the smallest value of a good these games
    detect."""
    goods, coef, cov = commodities.goods_coefficient_covariance(results)
    order = tested_order(goods, coef, cov=cov)
    goods_rows = value[value["good"] != "province_tile"]
    half = (goods_rows["ci_high"] - goods_rows["ci_low"]) / (2 * normal_quantile(0.95))
    mde = float(minimum_detectable_effect(float(half.max())))
    return (f"Goods by their value for winning: {order.words()}; every pair tested (Holm at "
            f"5%, clustered by game; n = {int(goods_rows['n_games'].iloc[0]):,} games). A good "
            f"worth less than {100 * mde:.1f} points of win probability apiece would go "
            "undetected here (80% power).")


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _province_effects_map(ctx: ReportContext, effects: pd.DataFrame,
                          missing_label: str) -> plt.Figure | None:
    """The connection heat map on the board, or None when the board cannot be drawn."""
    try:
        comps = ctx.components
        if comps is None:
            comps = default_components()
        if not set(effects["province"]) <= set(comps.province_slugs):
            return None
    except Exception:  # noqa: BLE001 - the map is optional; a dot plot replaces it
        return None
    values = dict(zip(effects["province"], effects["effect"]))
    finite = effects["effect"].dropna()
    reach = max(float(finite.abs().max()) if len(finite) else 1.0, 1e-9)
    # Diverging colours centred on 0 (an average province for its visit slot), without the
    # darkest ends so that the names stay readable; the values are in the table below.
    cmap = ListedColormap(plt.get_cmap("RdBu")(np.linspace(0.1, 0.9, 256)))
    fig, ax = plt.subplots(figsize=(PAGE_WIDTH_IN, 8.6), layout="constrained")
    return plot_board(comps, ax, province_values=values, cmap=cmap,
                      value_range=(-reach, reach),
                      missing_label=missing_label,
                      title="Chain points of a province net of its visit slot",
                      value_label="chain points per player vs the other provinces in the "
                                  "same visit slot")


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
    effects = province_effects_net_of_visit(r)
    fixed = effects[~effects["identified"]]
    fixed_text = ""
    if len(fixed):
        names = ", ".join(f"{row.province.title()} (always visited "
                          f"{_ordinal(int(round(row.mean_visit)))})"
                          for row in fixed.itertuples())
        fixed_text = (f" Grey, n/a: {names} shares its visit slot with no other province, so "
                      "its value cannot be told apart from the slot's and is not drawn (its "
                      "raw mean is in the table of raw chain points by province).")
    what = ("the chain points (palace + connection points) a player scores in the visit to a "
            "province minus the mean chain points of the other provinces when they are visited "
            "in the same slot (same player count), averaged over the player-games: what a "
            "province is worth, net of when it is visited (chain points grow from visit to "
            "visit); 0 = an average province for its place in the visit order.")
    fig = _province_effects_map(ctx, effects, "no other province in its visit slot: n/a")
    if fig is not None:
        ctx.figure(fig, "connection_heatmap",
                   f"Connection heat map on the board: {what} Values with 95% intervals in "
                   f"the table below.{fixed_text}", r)
    else:
        shown = effects.dropna(subset=["effect"]).sort_values("effect", ascending=False)
        fig, ax = plt.subplots(figsize=(7, 1.2 + 0.32 * len(shown)), layout="constrained")
        errorbar_panel(ax, list(shown["province"]), shown["effect"].to_numpy(),
                       shown["ci_low"].to_numpy(), shown["ci_high"].to_numpy(), "#b5524b",
                       "chain points vs the other provinces in the same visit slot")
        ctx.figure(fig, "connection_heatmap",
                   f"Province values (the board picture was unavailable for these provinces): "
                   f"{what} Bars: 95% intervals.{fixed_text}", r)
    ctx.table(effects.sort_values("effect", ascending=False, na_position="last"),
              "Chain points of each province net of its visit slot: `effect` = `raw_mean` "
              "(its mean chain points per player in the visit) − `slot_mean` (the other "
              "provinces' mean in the same slots); n = games, interval: normal, from a "
              "delta-method variance clustered by game; not identified (empty) for a province "
              "that never shares its slot.", "province_effects_net_of_visit")
    by_visit = ctx.analysis("chain_points_by_visit", by=("n_players",))
    dist = ctx.analysis("connection_distribution", by=("n_players",))
    fig, axes = plt.subplots(1, 2, figsize=(PAGE_WIDTH_IN, 3.9), layout="constrained")
    for P, grp in by_visit.groupby("n_players", sort=True):
        axes[0].errorbar(grp["visit"], grp["mean"],
                         yerr=error_bars(grp["mean"], grp["ci_low"], grp["ci_high"]),
                         fmt="o-", capsize=3, label=f"{int(P)} players")
    axes[0].set_xticks(range(1, 13))
    axes[0].set_xlabel("visit")
    axes[0].set_ylabel("mean chain points per player")
    axes[0].set_title("Chain points by visit")
    for P, grp in dist.groupby("n_players", sort=True):
        axes[1].plot(grp["points"], grp["share"], drawstyle="steps-mid", label=f"{int(P)} players")
    axes[1].set_xlabel("connection points in the game")
    axes[1].set_ylabel("share of player-games")
    axes[1].set_title("Distribution of connection points")
    integer_axis(axes[1].xaxis)  # points are whole numbers
    # One legend for both panels (the same colours), below them.
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center",
               ncol=by_visit["n_players"].nunique(), frameon=False)
    ctx.figure(fig, "connection_by_visit",
               "Left: mean chain points per player in each visit, with 95% intervals. Right: "
               "distribution of a player's connection points over the game.", r)
    ctx.table(by_province, "Raw chain points by province (sorted by mean): the mean chain "
              "points per player in the visit to each province, which include the effect of its "
              "visit slot (`mean_visit`; Agra is always visited last).",
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
