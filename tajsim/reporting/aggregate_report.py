"""The report of a run without records (``tajsim simulate --no-records``), from its aggregates.

Such a run keeps only mergeable sums (:class:`tajsim.running.aggregates.Aggregates`): per
strategy and seat the games, wins and the sums and squares of the score, its parts and the other
result fields. They support the win rates by seat and by strategy and the mean score and score
parts, each with n and a 95% interval; every other section needs the per-game rows (who sat with
whom, the setups, the finishing orders). :func:`build_aggregate_report` writes those sections and
says in the overview which sections need records, in the same files and layout as
:func:`tajsim.reporting.report.build_report`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.registry import AnalysisCache
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    ReportContext,
    error_bars,
    front_matter,
    join_words,
    panel_grid,
    rate_limits,
    report_style,
)
from tajsim.reporting.report import write_report_files
from tajsim.reporting.score_sections import score_parts_figure
from tajsim.reporting.sections import section_names
from tajsim.reporting.win_rate_sections import baseline_handle, strongest_statement
from tajsim.running.aggregates import Aggregates

__all__ = ["AGGREGATE_SECTIONS", "build_aggregate_report"]


def _overview(ctx: ReportContext, agg: Aggregates, missing: list[str]) -> None:
    ctx.heading(2, "Overview")
    ctx.para(ctx.description)
    ctx.para("**A run without records.** This run kept only its sums (`--no-records`), not a "
             "row per game, so this report shows what the sums support: the win rates by seat "
             "and by strategy and the mean score and its parts, each with n and a 95% "
             "interval. The sections that need the per-game rows are left out: "
             + join_words([f"`{name}`" for name in missing])
             + ". Run the simulation again without `--no-records` for them.")
    config = ctx.config
    facts = pd.DataFrame({
        "quantity": ["games", "player-games", "players", "strategies", "edition", "seed"],
        "value": [f"{agg.games:,}", f"{agg.games * agg.players:,}", str(agg.players),
                  ", ".join(agg.labels), str(config.get("edition", "not recorded")),
                  str(config.get("seed", "not recorded"))],
    })
    ctx.table(facts, "The simulated games (from the run's manifest and sums).")
    ctx.para("Conventions: every estimate comes with its sample size `n` and a 95% interval "
             "(`ci_low`, `ci_high`). A shared win counts 1/k for each of the k tied winners, so "
             "the expected win rate of equal players is exactly 1/n_players (the `baseline` "
             "column).")


def _rates(summary: pd.DataFrame, group: str, players: int) -> pd.DataFrame:
    """The win-rate rows of one group of ``Aggregates.summary()`` in the columns of the
    ``win_rates`` analysis: ``n`` (int64, player-games), ``win_rate``, ``ci_low``,
    ``ci_high``, ``baseline``, ``excess`` (float64)."""
    rows = summary[summary["group"] == group]
    out = pd.DataFrame({
        "n_players": players,
        ("strategy" if group == "strategy" else "seat"):
            rows["strategy"].astype(str) if group == "strategy" else rows["seat"],
        "n": rows["n"], "win_rate": rows["win_rate"], "ci_low": rows["win_ci_low"],
        "ci_high": rows["win_ci_high"], "baseline": 1.0 / players,
    }).reset_index(drop=True)
    out["excess"] = out["win_rate"] - out["baseline"]
    return out


def _win_rates(ctx: ReportContext, agg: Aggregates) -> None:
    ctx.heading(2, "Win rates")
    summary = agg.summary()
    by_seat = _rates(summary, "seat", agg.players)
    _, high = rate_limits(by_seat["ci_high"], by_seat["baseline"])
    fig, (ax,) = panel_grid(1, panel_height=2.7, extra_height=0.3)
    seats = by_seat["seat"].to_numpy()
    rate = by_seat["win_rate"].to_numpy()
    ax.bar(seats, rate, color="#d9a441", edgecolor="#8c6d31", width=0.65)
    ax.errorbar(seats, rate, yerr=error_bars(rate, by_seat["ci_low"], by_seat["ci_high"]),
                fmt="none", ecolor="#333", capsize=5, lw=1.3)
    ax.axhline(1.0 / agg.players, color=BASELINE_COLOUR, ls="--", lw=1.2)
    ax.set_xticks(seats, [f"seat {s}" + (" (first)" if s == 0 else "") for s in seats])
    ax.set_ylabel("win rate")
    ax.set_title(f"{agg.players}p — {agg.games:,} games")
    ax.set_ylim(0, high)
    fig.legend(handles=[baseline_handle()], loc="outside lower center", frameon=False)
    ctx.figure(fig, "win_rate_by_seat",
               f"Win rate by seat ({ctx.spec.notes.seat_note}), "
               "with 95% Wilson intervals; dashed line: the rate if all seats were equal.", None)
    ctx.table(by_seat, "Win rate by seat (n: player-games).", "win_rates_by_seat")
    if len(agg.labels) > 1:
        by_strategy = _rates(summary, "strategy", agg.players).sort_values(
            "win_rate", ascending=False, kind="stable")
        low, high = rate_limits(by_strategy["ci_high"], by_strategy["baseline"])
        fig, (ax,) = panel_grid(1, panel_height=1.0 + 0.3 * len(by_strategy), extra_height=0.3)
        y = np.arange(len(by_strategy))[::-1]
        rate = by_strategy["win_rate"].to_numpy()
        ax.errorbar(rate, y, xerr=error_bars(rate, by_strategy["ci_low"],
                                             by_strategy["ci_high"]),
                    fmt="o", color="#4f7fa8", ecolor="#333", capsize=4, clip_on=False)
        ax.axvline(1.0 / agg.players, color=BASELINE_COLOUR, ls="--", lw=1.2)
        ax.set_yticks(y, by_strategy["strategy"])
        ax.set_ylim(-0.6, len(by_strategy) - 0.4)
        ax.set_xlim(low, high)
        ax.set_xlabel("win rate")
        fig.legend(handles=[baseline_handle()], loc="outside lower center", frameon=False)
        ctx.figure(fig, "win_rate_by_strategy",
                   "Win rate by strategy with 95% Wilson intervals (strongest on top), x axis "
                   "from 0; dashed line: the rate of equal players (1/n_players).", None)
        ctx.table(by_strategy, "Win rate by strategy (n: player-games).",
                  "win_rates_by_strategy")
        ctx.headline(strongest_statement(by_strategy, ["n_players"]))


def _composition(ctx: ReportContext, agg: Aggregates) -> None:
    spec = ctx.spec
    shown = spec.score_display
    parts = list(spec.shown_parts)
    total = shown.total if shown else "score"
    measures = list(shown.measures) if shown else ["score"]
    ctx.heading(2, "Score composition")
    summary = agg.summary()
    rows = summary[summary["group"] == "strategy"].reset_index(drop=True)
    wide = pd.DataFrame({"strategy": rows["strategy"].astype(str), "n": rows["n"]})
    for name in measures:
        wide[name] = rows[name]
    for part in parts:
        wide[part] = rows[f"pts_{part}"]
    everyone = summary[summary["group"] == "all"].iloc[0]
    low, high = ("score_ci_low", "score_ci_high") if not shown else (None, None)
    stated = []
    for name in measures:
        lo = everyone[low] if low else everyone[f"{name}_ci_low"]
        hi = everyone[high] if high else everyone[f"{name}_ci_high"]
        stated.append(f"{everyone[name]:,.1f} [{lo:,.1f}, {hi:,.1f}] "
                      f"{name if name != 'score' else 'points'}")
    if shown is not None:
        ctx.para(shown.note)
    ctx.headline(f"A player ends with {join_words(stated)} a game on average (mean, 95% CI; "
                 f"n = {int(everyone['n']):,} player-games).")
    unit = spec.score_unit
    fig = score_parts_figure(wide, list(wide["strategy"]), parts, total, unit)
    ctx.figure(fig, "score_parts",
               f"Mean {unit} per player-game from each score part: gains stacked to the right "
               "of 0, costs (negative parts) to the left, so each segment's length is its "
               f"part's mean; the black tick marks the mean {total} (gains minus costs), its "
               "value written at the bar's right end.", None)
    ctx.table(wide, f"Mean {unit} per player-game by score part (n: player-games; the interval "
              "of the mean score is in the run's summary.csv).", "score_composition")


#: The sections a run without records supports, in report order.
AGGREGATE_SECTIONS: dict[str, Callable[[ReportContext, Aggregates], None]] = {
    "win_rates": _win_rates,
    "score_composition": _composition,
}


def build_aggregate_report(
    agg: Aggregates,
    out_dir: str | Path,
    *,
    title: str = "tajsim report",
    config: dict[str, Any] | None = None,
    sections: Sequence[str] | None = None,
    game: str | GameSpec | None = None,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Write the report of a run without records (its merged ``agg``) into ``out_dir``.

    Writes ``report.md``, ``report.html``, ``fig_*.png`` and ``table_*.csv`` like
    :func:`tajsim.reporting.report.build_report`, with the overview, the win rates and the score
    composition; the overview names the sections that need per-game records.

    Raises
    ------
    UserError
        A requested section needs per-game records, or the aggregates hold no game.
    """
    spec = get_game(game if game is not None else agg.game)
    if agg.games == 0:
        raise UserError("the run holds no finished game; expected at least one")
    everything = section_names(spec)
    supported = ["overview", *AGGREGATE_SECTIONS]
    chosen = supported if sections is None else list(sections)
    for name in chosen:
        if name not in supported:
            raise UserError(f"section {name!r} needs per-game records, and this run was made "
                            f"with --no-records; expected one of {', '.join(supported)}")
    missing = [name for name in everything if name not in supported]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    config = dict(config or {})
    seed = config.get("seed")
    ctx = ReportContext(results=pd.DataFrame(), out_dir=out, config=config, components=None,
                        spec=spec, cache=AnalysisCache(pd.DataFrame(), spec))
    ctx.description = (f"Simulated: {agg.players}-player games; "
                       + (f"edition {config['edition']}; " if config.get("edition") else "")
                       + f"strategies {', '.join(sorted(agg.labels))}; "
                       + (f"seed {seed}; " if seed is not None else "")
                       + f"n = {agg.games:,} games (sums only: a run without records).")
    run = [name for name in supported if name in chosen]
    with report_style():
        for number, name in enumerate(run, start=1):
            if progress is not None:
                progress(f"report: section {number} of {len(run)}: {name}")
            if name == "overview":
                _overview(ctx, agg, missing)
            else:
                AGGREGATE_SECTIONS[name](ctx, agg)
    ctx.blocks[:0] = front_matter(ctx.blocks, ctx.findings)
    return write_report_files(out, title, ctx.blocks)

