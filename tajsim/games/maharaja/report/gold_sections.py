"""Maharaja's report sections on gold: where it comes from and where it goes (``income``), and
what villages and roads earn in tolls, with the heat map on the board (``tolls``).
"""

from __future__ import annotations

import pandas as pd

from tajsim.analysis.frames import game_index
from tajsim.analysis.robustness import mean_order
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.report.board_plot import toll_heatmap
from tajsim.games.maharaja.report.section_helpers import (
    _by,
    _ci,
    _components,
    _dodge_panel,
    _legend_below,
    _series,
    _skip,
    _varies,
    _village_names,
)
from tajsim.reporting.render import (
    ReportContext,
    errorbar_panel,
    group_label,
    join_words,
    panel_grid,
)

SOURCE_LABELS = {"city": "city scoring", "lone": "lone-scorer bonus", "tolls_in": "tolls received",
                 "gold_action": "gold action", "trader": "the Trader",
                 "penalties_in": "others' penalties", "build_spent": "houses and palaces",
                 "tolls_out": "tolls paid", "gold": "gold at the end"}


# ---------------------------------------------------------------------------------------------
# Gold
# ---------------------------------------------------------------------------------------------
def _richest_villages(frame: pd.DataFrame, villages: list[str], names: dict) -> str:
    """"The richest village" as a tested argmax: every pair of villages' mean tolls per game
    compared with the covariance clustered by game (one row per game), Holm; villages not
    told apart at the top are named together."""
    games = frame.loc[~pd.Series(game_index(frame)).duplicated().to_numpy()]
    order, _ = mean_order(games, [f"tolls_{v}" for v in villages], villages, unit="games")
    top = [names.get(v, v) for v in order.tiers[0]]
    if len(top) == 1:
        return (f"The richest village is {top[0]}, told apart from every other (pairwise tests "
                "clustered by game, Holm at 5%).")
    if len(top) > 4:  # a long tie: name the highest means only
        ranked = [names.get(v, v) for v in order.names if v in order.tiers[0]]
        return (f"{len(top)} villages are not told apart at the top (pairwise tests clustered "
                f"by game, Holm at 5%; the highest means: {', '.join(ranked[:3])}, ...).")
    return (f"The richest villages are {join_words(top)}, not told apart from each other "
            "(pairwise tests clustered by game, Holm at 5%).")


def section_income(ctx: ReportContext) -> None:
    ctx.heading(2, "Where the gold comes from")
    if _skip(ctx, "income_by_source"):
        return
    by = _by(ctx)
    table = ctx.analysis("income_by_source", by=by)
    pooled = ctx.analysis("income_by_source", by=None)
    table = table.assign(key=table["source"].map(SOURCE_LABELS))
    series = _series(table, by)
    income = [SOURCE_LABELS[s] for s in table.loc[table["kind"] == "income", "source"].unique()]
    other = [SOURCE_LABELS[s] for s in table.loc[table["kind"] != "income", "source"].unique()]
    height = 0.5 + 0.32 * len(income) * max(1.0, len(series) / 3)
    fig, axes = panel_grid(2, panel_height=height, extra_height=0.35 if len(series) > 1 else 0)
    _dodge_panel(axes[0], income, series, "mean", "gold per player-game")
    axes[0].set_title("Income by source")
    _dodge_panel(axes[1], other, series, "mean", "gold per player-game")
    axes[1].set_title("Spending (negative) and the gold kept")
    _legend_below(fig, axes[0], len(series))
    ctx.figure(fig, "income_by_source",
               "Mean gold per player-game from each source of income, each kind of spending "
               "(negative) and at the end of the game (the starting gold included). Bars: 95% "
               "t intervals clustered by game.", ctx.results)
    inc = pooled[pooled["kind"] == "income"].sort_values("mean", ascending=False)
    n = int(inc["n"].iloc[0])
    parts = [f"{SOURCE_LABELS[r.source]} {_ci(r.mean, r.ci_low, r.ci_high)} gold "
             f"({100 * r.share:.0f}%)" for r in inc.itertuples()]
    spend = pooled[pooled["kind"] != "income"].set_index("source")
    ctx.headline(
        f"Over {n:,} player-games ({int(inc['n_games'].iloc[0]):,} games), a player's income "
        f"comes from {join_words(parts[:4])}; the rest is small. Houses and palaces cost "
        f"{_ci(-spend.loc['build_spent', 'mean'], -spend.loc['build_spent', 'ci_high'], -spend.loc['build_spent', 'ci_low'])}"  # noqa: E501
        f" gold, tolls paid {_ci(-spend.loc['tolls_out', 'mean'], -spend.loc['tolls_out', 'ci_high'], -spend.loc['tolls_out', 'ci_low'])}"  # noqa: E501
        f", and a player ends with {_ci(spend.loc['gold', 'mean'], spend.loc['gold', 'ci_low'], spend.loc['gold', 'ci_high'])}"  # noqa: E501
        " gold (the tie-breaker after palaces).")
    if len(series) > 1:
        tolls = table[table["source"] == "tolls_in"].sort_values("mean", ascending=False)
        top, low = tolls.iloc[0], tolls.iloc[-1]
        ctx.para(f"Tolls received differ most between the groups: "
                 f"{group_label(top, list(by))} {_ci(top['mean'], top['ci_low'], top['ci_high'])}"
                 f" against {group_label(low, list(by))} "
                 f"{_ci(low['mean'], low['ci_low'], low['ci_high'])} gold per player-game.")
    wide = table.pivot_table(index=list(by), columns="source", values="mean", observed=True,
                             sort=True) if by else None
    if wide is not None:
        wide = wide[[c for c in SOURCE_LABELS if c in wide.columns]].reset_index()
        counts = table[table["source"] == "city"][[*by, "n"]]
        wide = counts.merge(wide, on=list(by))
        ctx.table(wide, "Mean gold per player-game by source (spending negative; intervals and "
                  "shares of income in the CSV).", "income_by_source",
                  full=table.drop(columns="key"))
    else:
        ctx.table(table.drop(columns="key"), "Mean gold per player-game by source.",
                  "income_by_source")


# ---------------------------------------------------------------------------------------------
# Villages and roads
# ---------------------------------------------------------------------------------------------
def section_tolls(ctx: ReportContext) -> None:
    ctx.heading(2, "Tolls: what village houses and roads earn")
    if _skip(ctx, "village_value", "road_value"):
        return
    comps = _components(ctx)
    meta = comps.frame_meta()
    frame, note = ctx.results, ""
    if _varies(ctx, "variant"):
        first = frame["variant"].iloc[0]
        frame = frame[frame["variant"] == first]
        note = (f" Only the games of variant {first} are shown here (the first run's board: "
                "variants may put the villages on other roads).")
    meta_key = {**{k: meta[k] for k in ("village_names", "city_names", "roads",
                                        "road_villages")}, "start_name": comps.start_name}
    subset = {} if frame is ctx.results else {"subset": f"variant == {str(first)!r}"}
    villages = ctx.analysis("village_value", meta=meta_key, **subset)
    roads = ctx.analysis("road_value", meta=meta_key, **subset)
    n = int(villages["n"].max())
    if comps.digest() == default_components().digest():
        note += " The shipped board is a reconstruction (docs/games/maharaja/components.md)."
    fig = toll_heatmap(frame, comps, table=villages)
    ctx.figure(fig, "toll_heatmap",
               "Tolls earned per game in each village (the gold its house owners received from "
               "travellers, the bank's payments for the Wandering Monk included), on the board; "
               f"each village is labelled with its mean over {n:,} games.{note}", frame)
    names = _village_names(comps)
    richest = _richest_villages(frame, list(villages["village"]), names)
    villages = villages.assign(village=[names.get(v, v) for v in villages["village"]])
    top, bottom = villages.iloc[0], villages.iloc[-1]
    total = float(villages["mean"].sum())
    per_house = villages.dropna(subset=["per_house"]).sort_values("per_house",
                                                                  ascending=False)
    best = per_house.iloc[0]
    ctx.headline(
        f"Over {n:,} games the villages earn their owners {total:.1f} gold of tolls per game in "
        f"all. {richest} The highest mean is {top['village']}'s ({top['road']}): "
        f"{_ci(top['mean'], top['ci_low'], top['ci_high'])} gold per game; the poorest "
        f"{bottom['village']}: {_ci(bottom['mean'], bottom['ci_low'], bottom['ci_high'])}. Per "
        f"house standing there at the end, {best['village']} pays most: "
        f"{_ci(best['per_house'], best['per_house_low'], best['per_house_high'], 2)} gold a "
        "game. Caveat: the records hold the tolls of a whole game and the houses at its end, "
        "not how long each house stood, so the value per house counts a house built in the "
        "last rounds like one built at setup (and divides the tolls of houses moved away "
        "among those left): it is the toll income per end-of-game house, not per house-round.")
    rows = list(roads["road"])
    fig, axes = panel_grid(2, panel_height=0.6 + 0.27 * len(rows))
    errorbar_panel(axes[0], rows, roads["mean"].to_numpy(), roads["ci_low"].to_numpy(),
                   roads["ci_high"].to_numpy(), "#b5524b", "tolls earned per game (gold)")
    axes[0].set_title("Tolls per road (its villages together)")
    errorbar_panel(axes[1], rows, roads["per_house"].to_numpy(),
                   roads["per_house_low"].to_numpy(), roads["per_house_high"].to_numpy(),
                   "#4f7fa8", "gold per game per house standing at the end")
    axes[1].set_title("Per house on the road at the end")
    ctx.figure(fig, "road_value",
               "Tolls earned per game on each road (left, t intervals over games) and the same "
               "per house standing on the road at the end (right, ratio of the sums with a "
               f"delta-method interval).{note}", frame)
    shown = ["village", "road", "n", "mean", "ci_low", "ci_high", "held", "houses",
             "per_house", "per_house_low", "per_house_high"]
    ctx.table(villages[shown], "Tolls per game by village (t intervals over games), the share "
              "of games in which it holds a house at the end, the houses there at the end, and "
              "the tolls per such house (delta-method interval).", "village_value",
              full=ctx.cache.get("village_value", meta=meta_key, **subset))
    ctx.table(roads, "Tolls per game by road.", "road_value")
