"""Maharaja's report sections: where the gold comes from, what villages and roads earn in tolls
(with the heat map on the board), the character cards, palace tempo, how games end, penalties,
central against outer palaces, the governor action, and the final board of a game played again
from its seed. Registered through :data:`SECTIONS` (the spec's ``report_module``).

Every number shown carries its sample size and a 95% interval (the analyses compute them). What
goes with a player's own choices (a card, a palace site, the governor action) is an association
in simulated play, not a causal effect: strategies choose their actions when they pay; the text
says so where it reports one.

Grouping: when the results hold several variants (rule options, boards) the sections compare
the variants (all strategies together); with several player counts they compare the strategies
within each player count; otherwise the strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index
from tajsim.analysis.registry import missing_columns
from tajsim.games.maharaja.analyses import CARD_SLUGS
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import Components, default_components
from tajsim.games.maharaja.play.records import slug
from tajsim.games.maharaja.report.board_plot import draw_board, toll_heatmap
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    PAGE_WIDTH_IN,
    ReportContext,
    error_bars,
    errorbar_panel,
    group_label,
    join_words,
    panel_grid,
    pct,
    rate_limits,
)
from tajsim.reporting.replay import replay_first_game
from tajsim.running.repeats import deterministic_lineup

__all__ = ["SECTIONS"]

#: Marker colours of the groups compared in one panel (strategies, variants).
GROUP_COLOURS = ("#4f7fa8", "#b5524b", "#6b8e4e", "#d9a441", "#7b68a6", "#5f9ea0", "#9c6b98",
                 "#8c6d31", "#c77d4e", "#555555")
SOURCE_LABELS = {"city": "city scoring", "lone": "lone-scorer bonus", "tolls_in": "tolls received",
                 "gold_action": "gold action", "trader": "the Trader",
                 "penalties_in": "others' penalties", "build_spent": "houses and palaces",
                 "tolls_out": "tolls paid", "gold": "gold at the end"}
END_LABELS = {"seventh_palace": "a 7th palace", "round_10": "round 10 reached",
              "both": "both at once", "round_cap": "the round cap"}
END_PHRASES = {"seventh_palace": "end with a 7th palace",
               "round_10": "end when a governor reaches the last round box (round 10)",
               "both": "end both ways in the same round",
               "round_cap": "hit the simulator's round cap"}
ACTION_LABELS = {"all": "all actions", "two_houses": "two houses", "move_house": "move a house",
                 "palace_house": "palace + house"}
ASSOCIATION = ("an association in simulated play, not a causal effect (strategies choose "
               "their actions when they pay)")


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------
def _components(ctx: ReportContext) -> Components:
    return ctx.components if isinstance(ctx.components, Components) else default_components()


def _village_names(comps: Components) -> dict[str, str]:
    """Column name (slug) -> the village's name on the board."""
    return {slug(v): v for v in comps.village_names}


def _card_names(comps: Components) -> dict[str, str]:
    """The analyses' card names -> the cards' names in the components."""
    names = comps.card_names if len(comps.card_names) == len(CARD_SLUGS) else E.CARD_NAMES
    return dict(zip(CARD_SLUGS, names))


def _skip(ctx: ReportContext, *names: str) -> bool:
    """Write a one-line "Skipped" note and return True when the results lack the columns of
    any of the analyses ``names``."""
    missing = sorted({c for n in names for c in missing_columns(ctx.results, n, ctx.spec)})
    if missing:
        ctx.para(f"Skipped: the results lack {', '.join(missing[:4])}"
                 f"{' ...' if len(missing) > 4 else ''} (made by an older tajsim?).")
    return bool(missing)


def _varies(ctx: ReportContext, column: str) -> bool:
    r = ctx.results
    return column in r.columns and r[column].nunique() > 1


def _mirrors(ctx: ReportContext) -> bool:
    """Whether every game is a mirror match (one strategy in every seat)."""
    r = ctx.results
    return bool(r.groupby(game_index(r))["strategy"].nunique().max() == 1)


def _facet(ctx: ReportContext) -> tuple[str, ...]:
    """What whole games are compared by: the variants and the player counts that vary, and the
    strategy when every game is a mirror match of one."""
    cols = tuple(c for c in ("variant", "n_players") if _varies(ctx, c))
    if _varies(ctx, "strategy") and _mirrors(ctx):
        cols += ("strategy",)
    return cols


def _by(ctx: ReportContext) -> tuple[str, ...]:
    """What players are compared by: the variants (all strategies together), else the
    strategies within each player count."""
    if _varies(ctx, "variant"):
        return _facet(ctx)
    return ("n_players", "strategy") if _varies(ctx, "n_players") else ("strategy",)


def _labels(table: pd.DataFrame, by: Sequence[str]) -> list[str]:
    return [group_label(row, list(by)) for _, row in table.iterrows()] if by else \
        ["all games"] * len(table)


def _ci(est: float, low: float, high: float, digits: int = 1, percent: bool = False) -> str:
    """"12.3 [11.9, 12.7]" (or "41.2% [38.0, 44.5]")."""
    if percent:
        return f"{100 * est:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
    return f"{est:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _signed_ci(est: float, low: float, high: float, digits: int = 3) -> str:
    return f"{est:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


def _dodge_panel(ax: plt.Axes, rows: Sequence[str], series: Sequence[tuple[str, pd.DataFrame]],
                 est: str, xlabel: str, low: str = "ci_low", high: str = "ci_high",
                 key: str = "key") -> None:
    """Several groups' estimates per row (first row on top), side by side within a row, each
    group in its colour with its interval bar; ``series`` = [(label, table with ``key`` naming
    the row)]."""
    y0 = np.arange(len(rows))[::-1].astype(float)
    k = len(series)
    width = min(0.8, 0.22 * k)
    for i, (label, table) in enumerate(series):
        t = table.set_index(key).reindex(list(rows))
        offset = (i - (k - 1) / 2) * (width / max(k - 1, 1)) if k > 1 else 0.0
        y = y0 - offset
        ax.errorbar(t[est], y, xerr=error_bars(t[est], t[low], t[high]), fmt="o", ms=4.5,
                    color=GROUP_COLOURS[i % len(GROUP_COLOURS)], ecolor="#444", elinewidth=0.9,
                    capsize=2.5, label=label, clip_on=False)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(y0, list(rows))
    ax.set_ylim(-0.7, len(rows) - 0.3)
    for y in y0[:-1] - 0.5:  # rows apart at a glance
        ax.axhline(y, color="#eee", lw=0.8, zorder=0)
    ax.set_xlabel(xlabel)


def _series(table: pd.DataFrame, by: Sequence[str]) -> list[tuple[str, pd.DataFrame]]:
    """The table split by the ``by`` groups, labelled, in sorted order."""
    if not by:
        return [("all games", table)]
    # By label, so that a group keeps its colour and place in every figure of the report.
    return sorted(((group_label(g.iloc[0], list(by)), g)
                   for _, g in table.groupby(list(by), observed=True, sort=True)),
                  key=lambda item: item[0])


def _display(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` for a report table: nullable integer columns as text, missing values blank
    (the CSV keeps the numbers)."""
    out = frame.copy()
    for column in out.columns:
        if isinstance(out[column].dtype, pd.Int64Dtype):
            out[column] = [("" if pd.isna(v) else str(int(v))) for v in out[column]]
    return out


def _legend_below(fig: plt.Figure, ax: plt.Axes, n: int) -> None:
    """The axes' legend below the panels, in as many columns as fit the figure's width (six
    at most): a row wider than the figure is clipped at both edges."""
    if n > 1:
        handles, labels = ax.get_legend_handles_labels()
        # About 0.075 inch a character at the legend's font size, plus the marker and gaps.
        entry = max(0.075 * max(len(label) for label in labels) + 0.75, 0.5)
        fits = max(1, int(fig.get_figwidth() // entry))
        rows = -(-n // min(n, 6, fits))
        fig.legend(handles, labels, loc="outside lower center", ncol=-(-n // rows),
                   frameon=False)


# ---------------------------------------------------------------------------------------------
# Gold
# ---------------------------------------------------------------------------------------------
def _section_income(ctx: ReportContext) -> None:
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
def _section_tolls(ctx: ReportContext) -> None:
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
    villages = villages.assign(village=[names.get(v, v) for v in villages["village"]])
    top, bottom = villages.iloc[0], villages.iloc[-1]
    total = float(villages["mean"].sum())
    per_house = villages.dropna(subset=["per_house"]).sort_values("per_house",
                                                                  ascending=False)
    best = per_house.iloc[0]
    ctx.headline(
        f"Over {n:,} games the villages earn their owners {total:.1f} gold of tolls per game in "
        f"all. The richest is {top['village']} ({top['road']}): "
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


# ---------------------------------------------------------------------------------------------
# Character cards
# ---------------------------------------------------------------------------------------------
def _section_cards(ctx: ReportContext) -> None:
    ctx.heading(2, "Character cards")
    if _skip(ctx, "card_value"):
        return
    facet = _facet(ctx)
    table = ctx.analysis("card_value", by=facet or None)
    cards = _card_names(_components(ctx))
    table = table.assign(card=[cards.get(c, c) for c in table["card"]])
    final = table[(table["held"] == "final") & (table["n"] >= 30)].copy()
    final["key"] = [f"{group_label(r, list(facet))} {r['card']}" if facet else r["card"]
                    for _, r in final.iterrows()]
    rows = list(final["key"])
    fig, axes = panel_grid(2, panel_height=0.7 + 0.27 * len(rows))
    errorbar_panel(axes[0], rows, final["win_rate"].to_numpy(), final["ci_low"].to_numpy(),
                   final["ci_high"].to_numpy(), "#4f7fa8", "win rate")
    y = np.arange(len(rows))[::-1]
    if final["baseline"].nunique() == 1:
        axes[0].axvline(final["baseline"].iloc[0], color=BASELINE_COLOUR, ls="--", lw=1.2)
    else:  # one rate of equal players per player count: a mark on each row
        axes[0].scatter(final["baseline"], y, marker="|", s=160, color=BASELINE_COLOUR,
                        zorder=4)
    axes[0].set_xlim(*rate_limits(final["ci_high"], final["baseline"]))
    axes[0].set_title("Win rate by the card held at the end")
    errorbar_panel(axes[1], rows, final["gold"].to_numpy(), final["gold_low"].to_numpy(),
                   final["gold_high"].to_numpy(), "#d9a441", "gold at the end")
    axes[1].set_title("Gold at the end by the card held")
    ctx.figure(fig, "card_value",
               "Win rate (95% Wilson intervals; red: the rate of equal players) and gold "
               "at the end (t intervals) of the players by the character card they held when "
               "the game ended (cards held in fewer than 30 player-games left out).",
               ctx.results)
    # The headline compares cards held often enough, by their excess over equal players
    # (player counts have different baselines).
    common = final[final["n"] >= max(100, 0.01 * final["n"].sum())]
    common = common if not common.empty else final
    best = common.sort_values("excess", ascending=False).iloc[0]
    worst = common.sort_values("excess").iloc[0]
    ctx.headline(
        f"The holder of {best['key']} at the end wins {_ci(best['win_rate'], best['ci_low'], best['ci_high'], percent=True)}"  # noqa: E501
        f" of {int(best['n']):,} player-games (equal players: {pct(best['baseline'])}); the "
        f"holder of {worst['key']} {_ci(worst['win_rate'], worst['ci_low'], worst['ci_high'], percent=True)}"  # noqa: E501
        f" of {int(worst['n']):,}. This is {ASSOCIATION}: the card held at the end is the one "
        "a player kept or took with the character action, so its rate mixes what the card "
        "does with who takes it and when.")
    r = ctx.results
    if "strategy" in r.columns and r["strategy"].nunique() > 1:
        drafted = r.groupby("strategy", observed=True)["card_first"].agg(
            lambda s: s.value_counts(normalize=True).iloc[0])
        if float(drafted.min()) > 0.9:
            share = ("every one" if float(drafted.min()) == 1.0
                     else f"at least {pct(float(drafted.min()))}")
            ctx.para(f"The drafted card follows the strategy: each strategy drafted its "
                     f"favourite card in {share} of its games, so the rates by the drafted "
                     "card (in the table) compare strategies as much as cards.")
    ctx.table(table[["held", *facet, "card", "n", "win_rate", "ci_low", "ci_high", "baseline",
                     "gold", "gold_low", "gold_high"]],
              "Win rate (Wilson) and gold at the end (t, clustered by game) by the card held at "
              "the end and by the card drafted at setup; n = player-games.", "card_value",
              full=table)


# ---------------------------------------------------------------------------------------------
# Palace tempo
# ---------------------------------------------------------------------------------------------
def _section_palace_tempo(ctx: ReportContext) -> None:
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
                            color=GROUP_COLOURS[i % len(GROUP_COLOURS)], label=label)
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
# How games end
# ---------------------------------------------------------------------------------------------
def _end_phrase(row: Any) -> str:
    """"97.7% [97.3, 98.1] end with a 7th palace (in round 8.09 [...] on average)", or "1 game
    ends ..." for a cause seen fewer than 20 times (a percentage would round to 0)."""
    phrase = END_PHRASES[row.end_cause]
    if row.successes >= 20:
        head = f"{_ci(row.rate, row.ci_low, row.ci_high, percent=True)} {phrase}"
    elif row.successes == 1:
        head = "1 game " + phrase.replace("end ", "ends ", 1).replace("hit ", "hits ", 1)
    else:
        head = f"{row.successes} games {phrase}"
    if row.rounds_high > row.rounds_low:  # causes that always end in round 10 say nothing
        head += f" (in round {_ci(row.rounds, row.rounds_low, row.rounds_high, 2)} on average)"
    return head


def _section_game_ends(ctx: ReportContext) -> None:
    ctx.heading(2, "How games end")
    if _skip(ctx, "game_ends", "game_length"):
        return
    facet = _facet(ctx)
    ends = ctx.analysis("game_ends", by=facet or None)
    length = ctx.analysis("game_length", by=facet or None)
    seen = ends[ends.groupby("end_cause")["successes"].transform("sum") > 0]
    seen = seen.assign(key=seen["end_cause"].map(END_LABELS))
    causes = list(dict.fromkeys(seen["key"]))
    series = _series(seen, facet)
    fig, axes = panel_grid(2, panel_height=0.9 + 0.45 * len(causes) * max(1, len(series) / 3),
                           extra_height=0.35 if len(series) > 1 else 0)
    _dodge_panel(axes[0], causes, series, "rate", "share of games")
    axes[0].set_xlim(*rate_limits(seen["ci_high"]))
    axes[0].set_title("How the game ends")
    ax = axes[1]
    anyend = length[length["end_cause"] == "any"]
    rounds = sorted(anyend["n_rounds"].unique())
    width = 0.8 / len(series)
    for i, (label, sub) in enumerate(_series(anyend, facet)):
        sub = sub.set_index("n_rounds").reindex(rounds)
        x = np.array(rounds) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, sub["rate"], width=width * 0.95, color=GROUP_COLOURS[i % len(GROUP_COLOURS)],
               label=label)
        ax.errorbar(x, sub["rate"], yerr=error_bars(sub["rate"], sub["ci_low"], sub["ci_high"]),
                    fmt="none", ecolor="#333", capsize=2, lw=0.9)
    ax.set_xticks(rounds)
    ax.set_xlabel("the game's last round")
    ax.set_ylabel("share of games")
    ax.set_ylim(0, rate_limits(anyend["ci_high"])[1])
    ax.set_title("When it ends")
    _legend_below(fig, axes[0], len(series))
    ctx.figure(fig, "game_ends",
               "Left: share of games ending with a 7th palace, with a governor reaching the "
               "last round box (round 10), or both in the same round. Right: share of games "
               "whose last round is each round (all causes). 95% Wilson intervals over games.",
               ctx.results)
    for label, sub in _series(ends, facet):
        n = int(sub["n"].iloc[0])
        parts = [_end_phrase(r) for r in sub.itertuples() if r.successes > 0]
        ctx.headline(f"{label + ': o' if facet else 'O'}f {n:,} games, {'; '.join(parts)}.")
    ctx.table(ends, "End causes (Wilson intervals over games) and the mean last round of each "
              "(t intervals).", "game_ends")
    ctx.csv(length, "table_game_length")
    ctx.para("The share of games ending after each round, by cause, is in "
             "`table_game_length.csv`.")


# ---------------------------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------------------------
def _section_penalties(ctx: ReportContext) -> None:
    ctx.heading(2, "Penalties and their causes")
    if _skip(ctx, "penalties"):
        return
    by = _by(ctx)
    table = ctx.analysis("penalties", by=by)
    # Kinds left unperformed at least once in 200 player-games (the rest stay in the CSV).
    happened = table[table.groupby("action")["mean"].transform("max") >= 0.005]
    if happened.empty:
        ctx.para(f"Players left fewer than one chosen action in 200 unperformed over "
                 f"{int(table['n_games'].max()):,} games (table: `table_penalties.csv`).")
        ctx.csv(table, "table_penalties")
        return
    happened = happened.assign(key=[ACTION_LABELS.get(a, a) for a in happened["action"]])
    rows = list(dict.fromkeys(happened["key"]))
    series = _series(happened, by)
    fig, axes = panel_grid(1, panel_height=0.7 + 0.32 * len(rows) * max(1, len(series) / 3),
                           single_width=PAGE_WIDTH_IN * 0.7,
                           extra_height=0.35 if len(series) > 1 else 0)
    _dodge_panel(axes[0], rows, series, "mean", "actions left unperformed per player-game")
    _legend_below(fig, axes[0], len(series))
    ctx.figure(fig, "penalties",
               "Chosen actions a player left unperformed per game (each pays every other "
               "player 2 gold, R17), in all and by the action (the actions left unperformed "
               "at least once in 200 player-games), with 95% t intervals clustered by game.",
               ctx.results)
    overall = happened[happened["action"] == "all"]
    causes = happened[happened["action"] != "all"]
    main = causes.groupby("action")["mean"].mean().sort_values(ascending=False)
    texts = [f"{group_label(r, list(by))} {_ci(r['mean'], r['ci_low'], r['ci_high'], 2)} "
             f"(at least one in {pct(r['any'])})"
             for _, r in overall.sort_values("mean", ascending=False).iterrows()]
    ctx.headline(
        f"Unperformed actions per player-game: {join_words(texts)} "
        f"(n = {int(overall['n'].min()):,} player-games or more per group). The main cause "
        f"is {ACTION_LABELS.get(main.index[0], main.index[0])}"
        + (f", then {ACTION_LABELS.get(main.index[1], main.index[1])}" if len(main) > 1
           else "")
        + ": a player reveals an action it then cannot carry out (no site, too little gold, "
          "no house left), or chooses to skip it.")
    ctx.table(happened.drop(columns="key"), "Unperformed actions per player-game by kind (t, "
              "clustered by game) and the share of player-games with at least one (Wilson); "
              "kinds that never occurred are in the CSV.", "penalties", full=table)


# ---------------------------------------------------------------------------------------------
# Palaces: central and outer
# ---------------------------------------------------------------------------------------------
def _section_central(ctx: ReportContext) -> None:
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


# ---------------------------------------------------------------------------------------------
# The governor action
# ---------------------------------------------------------------------------------------------
def _section_governor(ctx: ReportContext) -> None:
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
    two = len(lines) > 1 and len(lines) <= len(GROUP_COLOURS)
    fig, axes = panel_grid(2 if two else 1, panel_height=3.0,
                           single_width=PAGE_WIDTH_IN * 0.62,
                           extra_height=0.35 if len(series) > 1 or two else 0)
    ax = axes[0]
    width = 0.8 / len(series)
    for i, (label, sub) in enumerate(series):
        sub = sub.set_index("level").reindex(levels)
        x = np.arange(len(levels)) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, sub["estimate"], width=width * 0.95,
               color=GROUP_COLOURS[i % len(GROUP_COLOURS)] if facet else "#4f7fa8",
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
                        color=GROUP_COLOURS[i % len(GROUP_COLOURS)], label=label)
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
    flat = win["ci_low"] <= 0 <= win["ci_high"]
    compared = (
        f"among the players of one game ({int(win['n_games']):,} games; seat and strategy "
        f"controls, intervals clustered by game), one more choice of the action goes with "
        f"{_signed_ci(win['estimate'], win['ci_low'], win['ci_high'])} in win share and "
        f"{_signed_ci(gold['estimate'], gold['ci_low'], gold['ci_high'], 2)} gold. Both are "
        "associations in simulated play, not causal effects (strategies choose the action "
        "when it pays); the action's effect on a given strategy is measured by playing that "
        "strategy with and without it (e.g. `hoarder` against `hoarder:governor=0`).")
    if facet:  # raw rates are not comparable across player counts: by group only
        ahead = sum(1 for _, sub in series
                    if sub.iloc[-1]["ci_low"] > sub.iloc[0]["ci_high"])
        ctx.headline(f"In {ahead} of {len(series)} groups the players who chose the governor "
                 f"action {levels[-1]} times win more than those who never did (the "
                 f"intervals apart). Compared {compared}")
    else:
        raw = pooled[pooled["measure"] == "win_rate"]
        low, high = raw.iloc[0], raw.iloc[-1]
        apart = high["ci_low"] > low["ci_high"] or high["ci_high"] < low["ci_low"]
        ctx.headline(
            f"Players who chose the governor action {high['level']} times win "
            f"{_ci(high['estimate'], high['ci_low'], high['ci_high'], percent=True)} of "
            f"{int(high['n']):,} player-games, those who never did "
            f"{_ci(low['estimate'], low['ci_low'], low['ci_high'], percent=True)} of "
            f"{int(low['n']):,}. "
            + ("Most of that difference is who chooses it: compared " if apart and flat
               else "Compared ") + compared)
    ctx.table(_display(table), "Win rate by governor choices (Wilson) and the within-game "
              "comparison (regression coefficient per choice, clustered by game).",
              "governor_value", full=table)


# ---------------------------------------------------------------------------------------------
# The governor order and the seats
# ---------------------------------------------------------------------------------------------
def _section_governor_order(ctx: ReportContext) -> None:
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


# ---------------------------------------------------------------------------------------------
# The final board of a game
# ---------------------------------------------------------------------------------------------
def _section_final_board(ctx: ReportContext) -> None:
    ctx.heading(2, "The board at the end of a game")
    comps = _components(ctx)
    game = replay_first_game(ctx, comps)
    if game is None:
        ctx.para("The first game could not be played again to the recorded scores (a custom "
                 "strategy, rule option or component set), so its final board is not drawn.")
        return
    first = ctx.results.iloc[0]
    seats = np.arange(len(game.strategies))
    palaces, gold = game.state[E.S_PALACES + seats], game.state[E.S_GOLD + seats]
    labels = [f"P{p} {s}: {int(palaces[p])} palaces, {int(gold[p])} gold"
              for p, s in enumerate(game.strategies)]
    fig = draw_board(comps, state=game.state, seat_labels=labels,
                     title=f"Game {int(first['game_id'])} (seed {int(first['seed'])}) at its "
                           "end")
    ctx.figure(fig, "final_board",
               "The board at the end of the first game of the results, played again from its "
               "seed (its scores equal the recorded ones): houses as small squares in the "
               "seats' colours beside their village or under their city, palaces on the "
               "city's centre and ring of outer sites (grey: neutral palaces of unused "
               "colours), architects as triangles above their city, the Maharaja's city "
               "ringed in gold.", ctx.results)


#: Maharaja's report sections: name -> (function, what it shows), in report order.
SECTIONS = {
    "income": (_section_income, "gold by source (scorings, tolls, actions, the Trader, "
                                "penalties) and spending, per strategy"),
    "tolls": (_section_tolls, "tolls earned by village (heat map on the board) and by road, "
                              "per game and per house"),
    "cards": (_section_cards, "win rate and gold by the character card held"),
    "palace_tempo": (_section_palace_tempo, "palaces built by each round, first and last "
                                            "palace"),
    "game_ends": (_section_game_ends, "how games end (7th palace or round 10) and when"),
    "penalties": (_section_penalties, "actions left unperformed, by cause"),
    "central_vs_outer": (_section_central, "central against outer palaces"),
    "governor": (_section_governor, "the value of the governor action"),
    "governor_order": (_section_governor_order, "each seat's win rate by the governor order "
                                                "(exact over all 5,040 orders when enumerated)"),
    "final_board": (_section_final_board, "the board at the end of a game, played again from "
                                          "its seed"),
}
