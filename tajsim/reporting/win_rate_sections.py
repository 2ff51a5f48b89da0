"""The generic report sections on who wins: the overview (what was simulated, how wins are
counted), win rates by seat and by strategy (``win_rates``) and the seats compared within
line-ups (``seat_advantage``), with the helpers other reports reuse: the equal-players legend
entry, the headline of a panel's strongest strategy, and best and worst seats left unnamed where
the test does not tell the seats apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from tajsim.analysis import winrates
from tajsim.analysis.frames import game_index
from tajsim.analysis.stats import normal_quantile
from tajsim.analysis.stats.verdicts import (
    Equivalence,
    Order,
    equivalence_test,
    minimum_detectable_effect,
)
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    ReportContext,
    describe_simulation,
    error_bars,
    facet_groups,
    format_cell,
    group_label,
    join_words,
    n_games,
    panel_grid,
    pct,
    rate_limits,
    setup_keys,
    signed,
)
from tajsim.reporting.verdict_wording import margin_of, win_rate_mde_sentence
from tajsim.running.repeats import repeat_note_for_results

__all__ = ["SIGNIFICANCE", "baseline_handle", "section_overview", "section_seat_advantage",
           "section_win_rates", "strongest_statement", "unnamed_when_equal"]

#: The level at which the report names a best or worst seat or setup: above it the data cannot
#: tell them apart, and the report says so instead of ranking noise.
SIGNIFICANCE = 0.05


def section_overview(ctx: ReportContext) -> None:
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


def section_win_rates(ctx: ReportContext) -> None:
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
    # the panel with the fewest games (the most players among equals: the smallest rate)
    key, grp = min(groups, key=lambda kg: (games_in[kg[0]], -len(kg[1])))
    ctx.para(win_rate_mde_sentence(games_in[key], len(grp),
                                   group_label(grp.iloc[0], facet) if len(groups) > 1 else ""))
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
        panels = {_key_tuple(k): g for k, g in r.groupby(facet, observed=True, sort=True)}
        for key, grp in groups:
            panel = panels[_key_tuple(key)]
            tested = (winrates.strategy_order(panel) if panel["strategy"].nunique() > 1
                      else None)
            ctx.headline(strongest_statement(grp, facet, tested))


def section_seat_advantage(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Seat advantage")
    facet = facet_groups(r)
    test = ctx.analysis("seat_advantage", by=tuple(facet))
    margin = margin_of(ctx)
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
        first_seat = equivalence_test(row.first_seat_excess, (row.ci_high - row.ci_low)
                                      / (2 * normal_quantile(0.95)), margin, n=int(row.n))
        # Seats are named best and worst only when the test tells them apart.
        order = (f"Best seat {row.best_seat}, worst seat {row.worst_seat}." if apart else
                 "The seats cannot be told apart at this level, so none is named best or "
                 "worst.")
        # The verdict goes in the first sentence: the summary at the top keeps only that one.
        ctx.headline(
            f"**{label}**: the first seat wins {pct(row.first_seat_win_rate)} of "
            f"{row.n:,} games (equal seats: {pct(row.first_seat_win_rate - row.first_seat_excess)}"
            f"; excess {signed(100 * row.first_seat_excess)} points, 95% CI "
            f"[{signed(100 * row.ci_low)}, {signed(100 * row.ci_high)}]): "
            f"{_first_seat_words(first_seat)}; equal seats within line-ups: "
            + (f"p = {format_cell(row.p_value, 'p_value')} ({verdict} at 5%). Wald test "
               f"clustered by game: χ² = {row.chi2:.1f} on {row.dof} df; Cramér's V = "
               f"{row.cramers_v:.3f}." if np.isfinite(row.p_value) else
               f"not computable at n = {row.n:,} games (too few games, or no variation "
               "within the line-ups).")
            + f" {order}"
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


def _key_tuple(key: object) -> tuple:
    return key if isinstance(key, tuple) else (key,)


def _first_seat_words(verdict: Equivalence) -> str:
    """The first seat's excess as an equivalence verdict against the margin, in words."""
    m = f"±{100 * verdict.margin:.1f} points"
    detectable = f"the smallest edge these games detect: {100 * verdict.mde:.1f} points"
    if verdict.verdict == "equivalent":
        return (f"the first seat's edge is within {m} (equivalent: TOST p = "
                f"{format_cell(verdict.p_equivalent, 'p_value')}; {detectable})")
    if verdict.verdict == "differs":
        return f"the first seat's edge differs from zero ({detectable})"
    return (f"inconclusive: no edge is shown, yet none within {m} either (the smallest edge "
            f"these games detect: {100 * verdict.mde:.1f} points)")


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


def strongest_statement(grp: pd.DataFrame, facet: list[str], order: Order | None = None) -> str:
    """The win-rate headline of one panel of strategies: the one that wins most and whether it
    is told apart from the others. With ``order`` (:func:`tajsim.analysis.winrates.
    strategy_order`: pairwise tests clustered by game, Holm, and P(first) under a game
    bootstrap) the statement is that tested argmax; without it (a table without games, the
    aggregate report) the first two intervals must not overlap."""
    ranked = grp.sort_values("excess", ascending=False)
    top = ranked.iloc[0]
    label = group_label(top, facet)
    rate = (f"{pct(top['win_rate'])} [{pct(top['ci_low'])}, {pct(top['ci_high'])}] of "
            f"{int(top['n']):,} player-games (equal players: {pct(top['baseline'])})")
    beats = "above" if top["ci_low"] > top["baseline"] else "not clearly above"
    if order is not None and len(ranked) > 1:
        first = ", ".join(f"{k} {v:.2f}" for k, v in sorted(order.p_first.items(),
                                                             key=lambda kv: -kv[1])[:3])
        pairs = len(order.pairwise)
        # Holm's first step tests at alpha / pairs: the detectable gap there bounds the rest
        mde = float(minimum_detectable_effect(order.pairwise["se"].iloc[0],
                                              alpha=0.05 / pairs))
        tail = (f"probability of ranking first when the games are resampled: {first}; the "
                f"smallest difference between the first two strategies these games detect "
                f"after Holm over {pairs} pair{'s' if pairs != 1 else ''}: "
                f"{100 * mde:.1f} points")
        if len(order.tiers[0]) > 1:
            shown = ranked[ranked["strategy"].astype(str).isin(order.tiers[0])]
            rates = "; ".join(f"{r.strategy} {pct(r.win_rate)} [{pct(r.ci_low)}, "
                              f"{pct(r.ci_high)}]" for r in shown.itertuples())
            return (f"{label}: {join_words(list(order.tiers[0]))} are not told apart at the "
                    f"top ({rates}; pairwise tests clustered by game, Holm at 5%; {tail}).")
        return (f"{label}: {top['strategy']} wins most often, {rate}, told apart from every "
                f"other strategy (pairwise tests clustered by game, Holm: largest p = "
                f"{format_cell(order.best_p_value, 'p_value')}); {beats} equal players ({tail}).")
    if len(ranked) > 1:
        second = ranked.iloc[1]
        if top["ci_low"] - top["baseline"] <= second["ci_high"] - second["baseline"]:
            return (f"{label}: {top['strategy']} wins most often, {rate}, but its interval "
                    f"overlaps that of {second['strategy']} ({pct(second['win_rate'])} "
                    f"[{pct(second['ci_low'])}, {pct(second['ci_high'])}]): the data do not "
                    "tell the two apart.")
    return f"{label}: {top['strategy']} wins most often, {rate}; {beats} equal players."
