"""Report sections: the generic ones every game gets, and the registry that adds a game's own.

A section is a function ``section(ctx) -> None`` (see :mod:`tajsim.reporting.render`). The report,
experiment files (``[report] sections = [...]``) and the command line's ``--section`` help all
read :func:`sections_for`: the generic sections in report order, with the game's own (its spec's
``report_module``: ``SECTIONS``, name -> (function, one-line description)) after the score
composition.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from tajsim.analysis import ratings, robustness, setup_balance, winrates
from tajsim.analysis.frames import game_index
from tajsim.analysis.registry import conclusions_for
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    PAGE_WIDTH_IN,
    PART_COLOURS,
    ReportContext,
    describe_simulation,
    error_bars,
    facet_groups,
    format_cell,
    group_label,
    integer_axis,
    join_words,
    n_games,
    panel_grid,
    pct,
    rate_limits,
    setup_keys,
    signed,
)
from tajsim.reporting.skill_sections import section_restricted, section_skill
from tajsim.running.repeats import deterministic_lineup, repeat_note_for_results

__all__ = ["GENERIC_SECTIONS", "OPENSKILL_MAX_GAMES", "Section", "baseline_handle",
           "composition_wide", "score_parts_figure", "section_names", "sections_for",
           "strongest_statement", "unnamed_when_equal"]

#: openskill updates game by game in Python (~0.1 ms a game): the report rates at most this many.
OPENSKILL_MAX_GAMES = 50_000
Section = Callable[[ReportContext], None]
#: The level at which the report names a best or worst seat or setup: above it the data cannot
#: tell them apart, and the report says so instead of ranking noise.
SIGNIFICANCE = 0.05
#: A setup is called balanced when its seat spread's 95% interval lies below this (win-rate
#: points): at few games a setup the interval is wide, and a spread of 0 says nothing.
BALANCED_SPREAD = 0.10


def _section_overview(ctx: ReportContext) -> None:
    r = ctx.results
    games = n_games(r)
    ctx.heading(2, "Overview")
    status = r.attrs.get("run_status") or {}
    if status and not status.get("complete", True):
        # Said first: every number below covers only the finished chunks, not the games the
        # run configuration (shown below) asks for.
        ctx.para(f"**{str(status.get('message', 'incomplete run')).capitalize()}.** Every "
                 f"statistic in this report covers the {int(status.get('games_finished', 0)):,}"
                 f" finished games only; run the command that wrote the run again to finish it, "
                 "then write the report again.")
    ctx.para(describe_simulation(r, ctx.config))
    repeated = repeat_note_for_results(ctx.spec, r)
    if repeated is not None:
        ctx.para(f"**{repeated}**")
    winners = r.groupby(game_index(r))["winner"].sum()
    facts = pd.DataFrame({
        "quantity": ["games", "player-games", "strategies", "player counts", "editions",
                     "distinct setups", "games with a shared win"],
        "value": [
            f"{games:,}", f"{len(r):,}", ", ".join(sorted(r["strategy"].astype(str).unique())),
            ", ".join(str(int(p)) for p in sorted(r["n_players"].unique())),
            ", ".join(sorted(r["edition"].astype(str).unique())) if "edition" in r
            else "not recorded",
            f"{r.groupby(setup_keys(r)).ngroups:,}" if "setup_id" in r else "not recorded",
            f"{int((winners > 1).sum()):,} ({pct(float((winners > 1).mean()))})",
        ],
    })
    ctx.table(facts, "The simulated games.")
    if ctx.config:
        shown = {k: v for k, v in ctx.config.items() if v is not None and (
            not isinstance(v, (dict, list)) or len(str(v)) < 200)}
        cfg = pd.DataFrame({"setting": list(shown), "value": [
            ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
            for v in shown.values()]})
        ctx.table(cfg, "Run configuration.")
    ctx.para(
        "Conventions: every estimate comes with its sample size `n` and a 95% interval "
        "(`ci_low`, `ci_high`). A shared win counts 1/k for each of the k tied winners, so the "
        "expected win rate of equal players is exactly 1/n_players (the `baseline` column)."
        + (f" In {ctx.spec.title} the lowest score wins: a lower mean score is better."
           if not ctx.spec.higher_score_wins else "")
    )


def baseline_handle() -> Line2D:
    return Line2D([], [], color=BASELINE_COLOUR, ls="--", lw=1.2,
                  label="equal players (1 / number of players)")


def _section_win_rates(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Win rates")
    facet = facet_groups(r)
    by_seat = ctx.analysis("win_rates", by=(*facet, "seat"))
    groups = list(by_seat.groupby(facet, sort=True))
    games_in = {key: int(grp["n"].iloc[0]) for key, grp in groups}  # every game has a seat 0
    # Every panel on the same scale from 0, rows of two: panels compare at a glance and the
    # text keeps its size on the page.
    _, high = rate_limits(by_seat["ci_high"], by_seat["baseline"])
    fig, axes = panel_grid(len(groups), panel_height=2.7, extra_height=0.3)
    for ax, (key, grp) in zip(axes, groups):
        seats = grp["seat"].to_numpy()
        rate = grp["win_rate"].to_numpy()
        err = error_bars(rate, grp["ci_low"], grp["ci_high"])
        ax.bar(seats, rate, color="#d9a441", edgecolor="#8c6d31", width=0.65)
        ax.errorbar(seats, rate, yerr=err, fmt="none", ecolor="#333", capsize=5, lw=1.3)
        ax.axhline(grp["baseline"].iloc[0], color=BASELINE_COLOUR, ls="--", lw=1.2)
        ax.set_xticks(seats, [f"seat {s}" + (" (first)" if s == 0 else "") for s in seats])
        ax.set_ylabel("win rate")
        ax.set_title(group_label(grp.iloc[0], facet) + f" — {games_in[key]:,} games")
        ax.set_ylim(0, high)
    # One legend for all panels, below them: it covers no bar.
    fig.legend(handles=[baseline_handle()], loc="outside lower center", frameon=False)
    ctx.figure(fig, "win_rate_by_seat",
               f"Win rate by seat ({ctx.spec.notes.seat_note}), "
               "with 95% Wilson intervals; dashed line: the rate if all seats were equal.", r)
    ctx.table(by_seat, "Win rate by seat.", "win_rates_by_seat")
    balance = winrates.seat_lineup_balance(r, by=facet)
    confounded = balance[balance["confounded"]]
    if not confounded.empty:
        labels = join_words([group_label(row, facet) for _, row in confounded.iterrows()])
        ctx.para(f"Caution ({labels}): the seats saw different line-ups (own strategy and "
                 "opponents), so these raw seat rates mix seat and line-up effects; see the "
                 "line-up-adjusted seat comparison.")

    if r["strategy"].nunique() > 1:
        by_strategy = ctx.analysis("win_rates", by=(*facet, "strategy"))
        groups = list(by_strategy.groupby(facet, sort=True))
        # One strategy order for every panel (best on top, by the mean excess over equal
        # players across the panels), one x scale from 0.
        strength = by_strategy.groupby("strategy", observed=True)["excess"].mean()
        order = sorted(strength.index.astype(str), key=lambda s: (-strength[s], s))
        row_of = {name: len(order) - 1 - i for i, name in enumerate(order)}
        low, high = rate_limits(by_strategy["ci_high"], by_strategy["baseline"])
        fig, axes = panel_grid(len(groups), panel_height=1.0 + 0.3 * len(order),
                               extra_height=0.3)
        for ax, (key, grp) in zip(axes, groups):
            y = np.array([row_of[str(s)] for s in grp["strategy"]])
            rate = grp["win_rate"].to_numpy()
            ax.errorbar(rate, y, xerr=error_bars(rate, grp["ci_low"], grp["ci_high"]),
                        fmt="o", color="#4f7fa8", ecolor="#333", capsize=4, clip_on=False)
            ax.axvline(grp["baseline"].iloc[0], color=BASELINE_COLOUR, ls="--", lw=1.2)
            ax.set_yticks(list(row_of.values()), list(row_of))
            ax.set_ylim(-0.6, len(order) - 0.4)
            ax.set_xlim(low, high)
            ax.set_xlabel("win rate")
            ax.set_title(group_label(grp.iloc[0], facet) + f" — {games_in[key]:,} games")
        fig.legend(handles=[baseline_handle()], loc="outside lower center", frameon=False)
        ctx.figure(fig, "win_rate_by_strategy",
                   "Win rate by strategy with 95% Wilson intervals, strategies in the same "
                   "order in every panel (strongest on average on top), x axis from 0; dashed "
                   "line: the rate of equal players (1/n_players).", r)
        ctx.table(by_strategy.sort_values([*facet, "win_rate"], ascending=[True] * len(facet)
                                          + [False]),
                  "Win rate by strategy.", "win_rates_by_strategy")
        for _key, grp in groups:
            ctx.headline(strongest_statement(grp, facet))


def _section_seat_advantage(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Seat advantage")
    facet = facet_groups(r)
    test = ctx.analysis("seat_advantage", by=tuple(facet))
    ctx.para(
        "Seats are compared within line-ups (a player's own strategy and its opponents): each "
        "seat's win rate is standardised over the line-ups that every seat saw, so no seat is "
        "credited with its opponents. With one strategy in every seat, or every line-up in every "
        "seat rotation, this is the plain win rate of the seat."
    )
    for row in test.itertuples():
        label = group_label(pd.Series(row._asdict()), facet)
        raw = (f"unadjusted, the first seat's excess is {signed(100 * row.raw_first_seat_excess)} "
               f"points, 95% CI [{signed(100 * row.raw_first_seat_excess_ci_low)}, "
               f"{signed(100 * row.raw_first_seat_excess_ci_high)}], over {row.n_games:,} games")
        if row.n == 0:
            ctx.para(f"**{label}**: the seat effect is not identified: no line-up occurs in "
                     f"every seat, so seat and line-up cannot be separated ({raw}; do not read "
                     "it as a seat effect).")
            continue
        apart = row.p_value < SIGNIFICANCE
        verdict = "significant" if apart else "not significant"
        # Seats are named best and worst only when the test tells them apart.
        order = (f"Best seat {row.best_seat}, worst seat {row.worst_seat}." if apart else
                 "The seats cannot be told apart at this level, so none is named best or "
                 "worst.")
        # The verdict goes in the first sentence: the summary at the top keeps only that one.
        ctx.headline(
            f"**{label}**: the first seat wins {pct(row.first_seat_win_rate)} of "
            f"{row.n:,} games (equal seats: {pct(row.first_seat_win_rate - row.first_seat_excess)}"
            f"; excess {signed(100 * row.first_seat_excess)} points, 95% CI "
            f"[{signed(100 * row.ci_low)}, {signed(100 * row.ci_high)}]); equal seats within "
            f"line-ups: p = {format_cell(row.p_value, 'p_value')} ({verdict} at 5%). Wald "
            f"test clustered by game: χ² = {row.chi2:.1f} on {row.dof} df; "
            f"Cramér's V = {row.cramers_v:.3f}. {order}"
        )
        if row.confounded:
            ctx.para(f"Caution ({label}): the seats saw different line-ups (seat × line-up "
                     f"p = {format_cell(row.lineup_seat_balance_p, 'p_value')}; "
                     f"{pct(row.support_share)} of the player-games have a line-up seen in "
                     f"every seat), so the estimate above uses only those {row.n:,} games; "
                     f"{raw}.")
    ctx.table(unnamed_when_equal(test), "Test of equal seats within line-ups (standardised "
              "seat win rates, Wald test clustered by game; ties shared; `raw_*`: unadjusted; "
              "best and worst seat left blank where p ≥ 0.05).", "seat_advantage", full=test)

    lineups = r.assign(lineup=winrates.table_lineups(r).to_numpy())
    per_group = lineups.groupby(facet, observed=True)["lineup"].nunique()
    if per_group.max() < 2:
        return
    by_lineup = winrates.seat_advantage_test(lineups, by=[*facet, "lineup"])
    ctx.para(
        f"By line-up (the strategies at the table: {lineups['lineup'].nunique()} line-ups): the "
        "seat effect can differ between line-ups, e.g. between mirror games of equal players "
        "and a field of unequal strategies; the pooled figures above average over them."
    )
    if per_group.max() <= 4:
        rates = winrates.win_rates(lineups, by=[*facet, "lineup", "seat"])
        groups = list(rates.groupby(facet, sort=True))
        _, high = rate_limits(rates["ci_high"], rates["baseline"])
        fig, axes = panel_grid(len(groups), panel_height=3.3)
        colours = ("#d9a441", "#4f7fa8", "#6b8e4e", "#b5524b")
        for ax, (_key, grp) in zip(axes, groups):
            names = sorted(grp["lineup"].unique())
            width = 0.8 / len(names)
            for j, name in enumerate(names):
                sub = grp[grp["lineup"] == name]
                x = sub["seat"].to_numpy() + (j - (len(names) - 1) / 2) * width
                rate = sub["win_rate"].to_numpy()
                ax.bar(x, rate, width=width * 0.95, color=colours[j % len(colours)],
                       label=f"{name} ({int(sub['n_games'].max()):,} games)")
                ax.errorbar(x, rate, yerr=error_bars(rate, sub["ci_low"], sub["ci_high"]),
                            fmt="none", ecolor="#333", capsize=3, lw=1.1)
            ax.axhline(grp["baseline"].iloc[0], color=BASELINE_COLOUR, ls="--", lw=1.2)
            seats = np.sort(grp["seat"].unique())
            ax.set_xticks(seats, [f"seat {s}" for s in seats])
            ax.set_ylabel("win rate")
            ax.set_title(group_label(grp.iloc[0], facet))
            ax.set_ylim(0, high)
            # Below the axes: a legend inside would cover bars.
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize=8,
                      frameon=False)
        ctx.figure(fig, "seat_win_rate_by_lineup",
                   "Win rate by seat within each line-up (strategies at the table), with 95% "
                   "Wilson intervals, all panels on one scale from 0; dashed line: the rate if "
                   "all seats were equal.", lineups)
    cols = [*facet, "lineup", "n", "n_games", "confounded", "first_seat_win_rate",
            "first_seat_excess", "ci_low", "ci_high", "chi2", "dof", "p_value", "best_seat",
            "worst_seat"]
    ctx.table(unnamed_when_equal(by_lineup[cols]), "Test of equal seats within each line-up "
              "(best and worst seat left blank where p ≥ 0.05).", "seat_advantage_by_lineup",
              full=by_lineup)


def unnamed_when_equal(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with ``best_seat`` / ``worst_seat`` blank (object column, "") in the rows
    whose ``p_value`` does not reject equal seats at :data:`SIGNIFICANCE`: a seat named best
    beside p = 0.4 would rank noise."""
    out = table.copy()
    equal = ~(out["p_value"] < SIGNIFICANCE)
    for col in ("best_seat", "worst_seat"):
        if col in out.columns:
            out[col] = out[col].astype(object).where(~equal, "")
    return out


def strongest_statement(grp: pd.DataFrame, facet: list[str]) -> str:
    """The win-rate headline of one panel of strategies: the one that wins most, and whether
    its 95% interval separates it from the next and from equal players."""
    ranked = grp.sort_values("excess", ascending=False)
    top = ranked.iloc[0]
    label = group_label(top, facet)
    rate = (f"{pct(top['win_rate'])} [{pct(top['ci_low'])}, {pct(top['ci_high'])}] of "
            f"{int(top['n']):,} player-games (equal players: {pct(top['baseline'])})")
    if len(ranked) > 1:
        second = ranked.iloc[1]
        if top["ci_low"] - top["baseline"] <= second["ci_high"] - second["baseline"]:
            return (f"{label}: {top['strategy']} wins most often, {rate}, but its interval "
                    f"overlaps that of {second['strategy']} ({pct(second['win_rate'])} "
                    f"[{pct(second['ci_low'])}, {pct(second['ci_high'])}]): the data do not "
                    "tell the two apart.")
    beats = "above" if top["ci_low"] > top["baseline"] else "not clearly above"
    return f"{label}: {top['strategy']} wins most often, {rate}; {beats} equal players."


def _section_composition(ctx: ReportContext) -> None:
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


def _section_setup_balance(ctx: ReportContext) -> None:
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
        "0 = the board does not matter."
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


def _section_ratings(ctx: ReportContext) -> None:
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
        apart = top["ci_low"] > second["ci_high"]
        ctx.headline(
            f"Bradley-Terry (all pairwise finishing orders of {games:,} games): {top['strategy']} "
            f"is {'the strongest' if apart else 'first, but not told apart from the next'}, "
            f"strength {top['strength']:+.2f} [{top['ci_low']:+.2f}, {top['ci_high']:+.2f}] "
            f"against {second['strategy']}'s {second['strength']:+.2f} "
            f"[{second['ci_low']:+.2f}, {second['ci_high']:+.2f}] (log-odds against the "
            "average strategy)" + ("." if apart else "; the intervals overlap."))
    ctx.table(os_table, f"openskill ratings (interval: μ ± 1.96σ).{rated}", "openskill_ratings")
    ctx.table(bt, "Bradley-Terry strengths.", "bradley_terry")
    ctx.table(h2h, "Head-to-head with 95% Wilson intervals.", "head_to_head")
    rotation = ctx.analysis("seat_rotation_check")
    if not rotation.empty and (rotation["p_value"] < 0.01).any():
        ctx.para("Caution: strategies were not rotated evenly over the seats "
                 "(see `table_seat_rotation.csv`).")
    elif not rotation.empty and rotation["confounded"].any():
        ctx.para("Caution: each strategy sat in each seat about equally often, but the seats "
                 "saw different line-ups (see `table_seat_rotation.csv`).")
    ctx.csv(rotation, "table_seat_rotation")


def _section_robustness(ctx: ReportContext) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    # Variants are whatever the runs label so: component sets or rule options.
    ctx.heading(2, "Robustness across variants")
    table = ctx.analysis("robustness")
    held = int(table["holds_in_all"].sum())
    ctx.para(f"{held} of {len(table)} key conclusions hold in all {r['variant'].nunique()} "
             "variants (the component sets or rule options the runs are labelled with).")
    ctx.table(table, "Key conclusions by variant.", "robustness",
              full=robustness.conclusion_values(robustness.split_variants(r),
                                                extra=conclusions_for(ctx.spec)))



#: The sections of every game, in report order: name -> (function, what it shows).
GENERIC_SECTIONS: dict[str, tuple[Section, str]] = {
    "overview": (_section_overview, "what was simulated and the run configuration"),
    "win_rates": (_section_win_rates, "win rate by seat and by strategy, with intervals"),
    "seat_advantage": (_section_seat_advantage, "seats compared within line-ups"),
    "score_composition": (_section_composition, "mean and distribution of each score part"),
    "setup_balance": (_section_setup_balance, "how much the setup decides, and which features"),
    "ratings": (_section_ratings, "openskill and Bradley-Terry ratings, head-to-head"),
    "robustness": (_section_robustness, "key conclusions across variants (component sets, "
                                        "rule options)"),
    "skill": (section_skill, "key conclusions across skill levels (runs labelled with a "
                             "variant that play different strategies)"),
    "restricted": (section_restricted, "restricted play: what a forbidden feature costs the "
                                       "restricted seat (strategies with forbid=)"),
}
#: The game's own sections come after this one.
_GAME_SECTIONS_AFTER = "score_composition"


def sections_for(game: str | GameSpec | None = None) -> dict[str, tuple[Section, str]]:
    """Every section of ``game`` in report order: the generic ones and the game's own."""
    spec = get_game(game)
    own = importlib.import_module(spec.report_module).SECTIONS if spec.report_module else {}
    out: dict[str, tuple[Section, str]] = {}
    for name, entry in GENERIC_SECTIONS.items():
        out[name] = entry
        if name == _GAME_SECTIONS_AFTER:
            out.update(own)
    return out


def caveats_for(game: str | GameSpec | None = None) -> Callable[[pd.DataFrame], list[str]]:
    """The game's data caveats (its report module's ``caveats(results) -> list[str]``: one
    sentence per condition that touches the results, e.g. Taj Mahal's card shortages), or a
    function giving none."""
    spec = get_game(game)
    if not spec.report_module:  # a game without report sections of its own states none
        return lambda _r: []
    return getattr(importlib.import_module(spec.report_module), "caveats", lambda _r: [])


def section_names(game: str | GameSpec | None = None) -> list[str]:
    return list(sections_for(game))
