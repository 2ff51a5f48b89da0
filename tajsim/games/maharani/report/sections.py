"""Maharani's report sections: where the gold comes from, what a second tile, a face-down
marker and a refresh turn are worth, the quarters (majorities and completion), the value of each
colour's zones, and the palace (the final board of a game and a heat map of where gold is made).
Registered through :data:`SECTIONS` (the spec's ``report_module``).

Every number shown carries its sample size and a 95% interval (the analyses compute them); the
within-game comparisons are associations in simulated play, not causal effects, and the text
says so where it reports them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.registry import missing_columns
from tajsim.games.maharani.engine.components import Components, default_components
from tajsim.games.maharani.report.board_plot import draw_palace, draw_space_values
from tajsim.reporting.render import (
    ReportContext,
    error_bars,
    errorbar_panel,
    join_words,
    panel_grid,
    rate_limits,
)
from tajsim.reporting.replay import replay_first_game

__all__ = ["SECTIONS"]

SOURCE_COLOURS = {"zones": "#3c7d9e", "groups": "#c27c2c", "quarters": "#5b8c4a",
                  "second": "#a8464b"}


def _components(ctx: ReportContext) -> Components:
    return ctx.components if isinstance(ctx.components, Components) else default_components()


def _skip(ctx: ReportContext, *names: str) -> bool:
    """Write a one-line "Skipped" note and return True when the results lack the columns of
    any of the analyses ``names``."""
    missing = sorted({c for n in names for c in missing_columns(ctx.results, n, ctx.spec)})
    if missing:
        ctx.para(f"Skipped: the results lack {', '.join(missing[:4])}"
                 f"{' ...' if len(missing) > 4 else ''} (made by an older tajsim?).")
    return bool(missing)


def _interval(row: Any, est: str = "coef", low: str = "low", high: str = "high",
              digits: int = 2) -> str:
    return f"{row[est]:+.{digits}f} [{row[low]:+.{digits}f}, {row[high]:+.{digits}f}]"


def _by(ctx: ReportContext) -> tuple[str, ...]:
    """Group by strategy, and by player count when the results mix several."""
    r = ctx.results
    return ("n_players", "strategy") if r["n_players"].nunique() > 1 else ("strategy",)


# ---------------------------------------------------------------------------------------------
# Gold by source
# ---------------------------------------------------------------------------------------------
def _section_gold_sources(ctx: ReportContext) -> None:
    ctx.heading(2, "Where the gold comes from")
    if _skip(ctx, "gold_by_source"):
        return
    by = _by(ctx)
    table = ctx.analysis("gold_by_source", by=by)
    parts = table[table["source"] != "score"]
    groups = parts.groupby(list(by), sort=True, observed=True)
    labels = [" ".join(str(k) + ("p" if c == "n_players" else "") for c, k in
                       zip(by, key if isinstance(key, tuple) else (key,)))
              for key, _ in groups]
    sources = list(dict.fromkeys(parts["source"]))
    fig, axes = panel_grid(len(sources), panel_height=0.32 * len(labels) + 1.3)
    for ax, source in zip(axes, sources):
        rows = pd.concat([g[g["source"] == source] for _, g in groups])
        errorbar_panel(ax, labels, rows["mean"].to_numpy(), rows["low"].to_numpy(),
                       rows["high"].to_numpy(), SOURCE_COLOURS.get(source, "#555"),
                       "gold per seat and game")
        ax.set_title(source)
    ctx.figure(fig, "gold_by_source",
               "Mean gold per seat from each source: zones of same-coloured tiles, groups of "
               "the seat's artisans, quarter scorings, and the 2 gold paid per second tile "
               "(negative). Bars: 95% t intervals.", ctx.results)
    shown = table[["source", *by, "n", "mean", "low", "high", "share_of_score"]]
    ctx.table(shown, "Gold per seat by source (t intervals; share_of_score = mean of the "
              "source over the mean score).", "gold_by_source", full=table)


# ---------------------------------------------------------------------------------------------
# Second tiles, markers, refreshes
# ---------------------------------------------------------------------------------------------
def _section_choices(ctx: ReportContext) -> None:
    ctx.heading(2, "Second tiles, face-down markers and refresh turns")
    if _skip(ctx, "second_tile_value", "marker_and_refresh_cost"):
        return
    second = ctx.analysis("second_tile_value")
    costs = ctx.analysis("marker_and_refresh_cost")
    both = pd.concat([second, costs], ignore_index=True)
    ok = both.dropna(subset=["coef"])
    if ok.empty:
        ctx.para("No estimate: the choices do not vary between the players of a game.")
        return
    def line(outcome: str, term: str) -> str:
        rows = both[(both["outcome"] == outcome) & (both["term"] == term)]
        if rows.empty or not np.isfinite(rows["coef"].iloc[0]):
            return "no estimate"
        digits = 3 if outcome == "win" else 2
        return _interval(rows.iloc[0], digits=digits)

    n_games = int(both["n_games"].max())
    ctx.headline(
        f"Compared among the players of one game ({n_games:,} games; game fixed effects, seat "
        "and strategy controls, intervals clustered by game), one more second tile bought "
        f"goes with {line('score', 'second_tiles')} gold net of its 2 gold and "
        f"{line('win', 'second_tiles')} in win share; one more marker turned face down with "
        f"{line('score', 'marker_turns')} gold and {line('win', 'marker_turns')} in win "
        f"share; one more refresh turn with {line('score', 'refresh_turns')} gold and "
        f"{line('win', 'refresh_turns')} in win share. These are associations in simulated "
        "play: strategies choose when to buy, turn or refresh, so a choice's estimate also "
        "carries the situations in which it is made.")
    fig, axes = panel_grid(2, panel_height=2.4)
    names = {"second_tiles": "one more second tile", "marker_turns": "one more face-down marker",
             "refresh_turns": "one more refresh turn"}
    for ax, outcome, colour, label in ((axes[0], "score", "#3c7d9e", "gold (net)"),
                                       (axes[1], "win", "#a8464b", "win share")):
        rows = ok[ok["outcome"] == outcome]
        errorbar_panel(ax, [names.get(t, t) for t in rows["term"]], rows["coef"].to_numpy(),
                       rows["low"].to_numpy(), rows["high"].to_numpy(), colour,
                       f"change in {label}")
        ax.set_title("Gold" if outcome == "score" else "Win share")
    ctx.figure(fig, "choices",
               "What goes with one more second tile, face-down marker or refresh turn, compared "
               "within games (seat and strategy controls). Bars: 95% intervals clustered by "
               "game.", ctx.results)
    ctx.table(both, "Within-game regressions (coef per unit, cluster-robust standard error, "
              "95% t interval with games - 1 degrees of freedom; n = seats, n_games = games).",
              "choices")


# ---------------------------------------------------------------------------------------------
# Quarters
# ---------------------------------------------------------------------------------------------
def _section_quarters(ctx: ReportContext) -> None:
    ctx.heading(2, "Quarters: majorities and completion")
    if _skip(ctx, "quarter_artisans", "quarter_completion"):
        return
    comps = _components(ctx)
    artisans = ctx.analysis("quarter_artisans")
    completion = ctx.analysis("quarter_completion", by=_by(ctx))
    top = artisans[artisans["kind"] == "most artisans"]
    fig, axes = panel_grid(2, panel_height=3.4)
    ax = axes[0]
    levels = ("top", "tied top", "below")
    colours = ("#5b8c4a", "#c2a02c", "#8a8a8a")
    width = 0.26
    for i, (level, colour) in enumerate(zip(levels, colours)):
        rows = top[top["level"] == level]
        x = rows["quarter"].to_numpy() + (i - 1) * width
        ax.bar(x, rows["win_share"], width, color=colour, label=level)
        ax.errorbar(x, rows["win_share"], yerr=error_bars(rows["win_share"], rows["win_low"],
                                                          rows["win_high"]),
                    fmt="none", ecolor="#333", capsize=2)
    ax.set_xticks(range(1, 5), [comps.quarter_names[q] for q in range(4)])
    ax.set_ylabel("win share")
    ax.set_ylim(*rate_limits(top["win_low"], top["win_high"], top["win_share"]))
    ax.set_title("Win share by artisans at the scoring")
    ax.legend(title="the seat had", ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.1),
              frameon=False)
    pay = completion[completion["kind"] == "payoff: score minus others"]
    errorbar_panel(axes[1], [comps.quarter_names[int(q) - 1] for q in pay["quarter"]],
                   pay["estimate"].to_numpy(), pay["low"].to_numpy(), pay["high"].to_numpy(),
                   "#3c7d9e", "completing seat's score minus the others' mean")
    axes[1].set_title("Does completing a quarter pay?")
    ctx.figure(fig, "quarters",
               "Left: win share of the seats with strictly the most artisans in a quarter when "
               "it was scored, tied for the most, or fewer (Wilson 95% intervals). Right: the "
               "score of the seat that laid a quarter's last space minus the mean score of the "
               "others in its game (t intervals over games).", ctx.results)
    names = {q + 1: comps.quarter_names[q] for q in range(len(comps.quarter_names))}
    top = top.assign(quarter=top["quarter"].map(names))
    ctx.table(top[["quarter", "level", "n", "win_share", "win_low", "win_high", "mean_gold",
                   "low", "high"]],
              "Most artisans at a quarter's scoring: win share (Wilson) and gold from that "
              "scoring (t interval); n = seats.", "quarter_majorities", full=artisans)
    rate = completion[completion["kind"] == "rate"]
    ctx.table(completion[completion["kind"] != "rate"].drop(columns=[c for c in _by(ctx)
                                                                     if c in completion]),
              "Completing a quarter: the completing seat's score minus the others' mean (t "
              "interval over games) and its win share against parity (Wilson).",
              "quarter_completion", full=completion)
    ctx.table(rate.drop(columns=["kind", "parity"], errors="ignore"),
              "Share of seats that laid a quarter's last space (Wilson intervals).",
              "quarter_completion_rate")


# ---------------------------------------------------------------------------------------------
# Colours
# ---------------------------------------------------------------------------------------------
def _section_colours(ctx: ReportContext) -> None:
    ctx.heading(2, "The value of each colour's zones")
    if _skip(ctx, "colour_zone_value"):
        return
    meta = _components(ctx).frame_meta()
    table = ctx.analysis("colour_zone_value", meta={"colour_names": meta["colour_names"]})
    fig, axes = panel_grid(2, panel_height=2.8)
    labels = list(table["colour"])
    errorbar_panel(axes[0], labels, table["mean_zone_gold"].to_numpy(), table["low"].to_numpy(),
                   table["high"].to_numpy(), "#3c7d9e", "zone gold per seat and game")
    axes[0].set_title("Zone gold made with each colour")
    errorbar_panel(axes[1], labels, table["win_per_gold"].to_numpy(),
                   table["win_low"].to_numpy(), table["win_high"].to_numpy(), "#a8464b",
                   "change in win share per gold")
    axes[1].set_title("What a gold of that colour's zones is worth")
    ctx.figure(fig, "colour_zones",
               "Left: mean zone gold a seat made with tiles of each colour (t intervals). "
               "Right: the change in win share that goes with one more gold from that colour's "
               "zones, from one within-game regression on all six colours (seat and strategy "
               "controls, 95% intervals clustered by game).", ctx.results)
    ranked = table.sort_values("mean_zone_gold", ascending=False)
    if len(ranked) > 1:
        most, least = ranked.iloc[0], ranked.iloc[-1]
        order = table.attrs["order"]
        test = (f"every pair tested, clustered by game, Holm over {len(order.pairwise)} "
                "pairs")
        apart = order.pairwise[order.pairwise["separated"]]
        if len(order.tiers) > 1:
            verdict = f"tested order: {order.value} ({test}; {order.braces_note()})"
        elif apart.empty:
            verdict = f"the colours are not told apart ({test})"
        else:
            verdict = (f"no order of the colours ({test}): of the pairs only "
                       + join_words([f"{a} > {b}" for a, b in zip(apart["a"], apart["b"])])
                       + (" is" if len(apart) == 1 else " are") + " told apart")
        ctx.headline(
            f"Zone gold per seat and game ranges from {most['mean_zone_gold']:.2f} "
            f"[{most['low']:.2f}, {most['high']:.2f}] ({most['colour']}) to "
            f"{least['mean_zone_gold']:.2f} [{least['low']:.2f}, {least['high']:.2f}] "
            f"({least['colour']}) over {int(most['n']):,} seats; {verdict}.")
    table = table.assign(n_games=table["n_games"].astype("Int64"))
    ctx.table(table.drop(columns=["column"]), "Zone gold by tile colour and its value in "
              "wins (n = seats, n_games = games).", "colour_zone_value", full=table)


# ---------------------------------------------------------------------------------------------
# The palace
# ---------------------------------------------------------------------------------------------
def _section_palace(ctx: ReportContext) -> None:
    ctx.heading(2, "The palace")
    comps = _components(ctx)
    game = replay_first_game(ctx, comps)
    if game is not None:
        first = ctx.results.iloc[0]
        who = ", ".join(f"P{p} {s} {g}" for p, (s, g) in enumerate(zip(game.strategies,
                                                                         game.scores())))
        fig = draw_palace(comps, game.state,
                          title=f"Final palace of game {int(first['game_id'])} (seed "
                                f"{int(first['seed'])})\ngold: {who}")
        ctx.figure(fig, "final_palace",
                   "The final palace of the first game of the results, played again from its "
                   "seed (its scores equal the recorded ones): each laid tile in its colour "
                   "with its arrow, black marks for the columns, the seats at the sides (the "
                   "artisans went back to their reserves when the quarters were scored).",
                   ctx.results)
    else:
        ctx.para("The first game could not be played again to the recorded scores (a custom "
                 "strategy, rule option or component set), so its final palace is not drawn.")
    if _skip(ctx, "space_gold"):
        return
    table = ctx.analysis("space_gold", meta={k: v for k, v in comps.frame_meta().items()
                                             if k in ("space_ids", "space_quarter",
                                                      "quarter_names")})
    if len(table) != comps.n_spaces:
        ctx.para(f"The results have {len(table)} space columns but the board has "
                 f"{comps.n_spaces} spaces: no heat map.")
        return
    n = int(table["n"].max())
    fig = draw_space_values(comps, table["mean_gold"].to_numpy(),
                            title=f"Mean zone + group gold made on each space (n = {n:,} games)")
    ctx.figure(fig, "space_gold",
               "Where gold is made: the mean zone and group gold earned by laying the tile on "
               "each space, over games (spaces never filled count 0).", ctx.results)
    by_quarter = table.groupby("quarter", sort=False)["mean_gold"].sum().round(1)
    best = table.sort_values("mean_gold", ascending=False)
    ctx.para(
        "Gold made per game in each quarter (sum over its spaces): "
        + ", ".join(f"{q} {v:.1f}" for q, v in by_quarter.items())
        + f". The richest spaces are {', '.join(best['space'].head(3))}; the poorest "
          f"{', '.join(best['space'].tail(3)[::-1])}.")
    ctx.table(pd.concat([best.head(8), best.tail(8)]),
              "The eight richest and the eight poorest spaces (mean gold per game, t "
              "intervals over games).", "space_gold", full=table)


#: Maharani's report sections: name -> (function, what it shows), in report order.
SECTIONS = {
    "gold_sources": (_section_gold_sources, "gold by source (zones, groups, quarters, second "
                                            "tiles) per strategy"),
    "choices": (_section_choices, "what a second tile, a face-down marker and a refresh turn "
                                  "are worth, within games"),
    "quarters": (_section_quarters, "quarter majorities against gold won, who completes "
                                    "quarters and whether it pays"),
    "colour_zones": (_section_colours, "the zone gold of each tile colour and its value in "
                                       "wins"),
    "palace": (_section_palace, "the final palace of a game and a heat map of where gold is "
                                "made"),
}
