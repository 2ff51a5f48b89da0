"""The Markdown + HTML report of a results frame.

:func:`build_report` runs the analyses that the data supports and writes, into ``out_dir``:

* ``report.md`` — headings, short findings, Markdown tables and the figures (relative links);
* ``report.html`` — the same content, self-contained (CSS inline, PNGs embedded as base64);
* ``fig_*.png`` — one PNG per figure; every figure has a caption saying what was simulated
  (strategies, players, edition, seed, number of games);
* ``table_*.csv`` — the full analysis tables behind the report (the report shows excerpts).

Sections the data cannot support are skipped with one sentence saying why (e.g. setup balance
when every game has its own setup; ratings with a single strategy).
"""

from __future__ import annotations

import base64
import html
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

if "matplotlib.pyplot" not in sys.modules:  # no screen needed
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis import (
    composition,
    ratings,
    robustness,
    setup_balance,
    winrates,
)
from tajsim.analysis.stats import game_index
from tajsim.games.tajmahal.analyses import commodities, connections
from tajsim.games.tajmahal.engine.enums import PART_NAMES

__all__ = ["ALL_SECTIONS", "REQUIRED_COLUMNS", "build_report", "markdown_table"]

#: Columns without which no report can be written.
REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "score", "rank", "winner")
#: Section names, in report order.
ALL_SECTIONS = (
    "overview",
    "win_rates",
    "seat_advantage",
    "score_composition",
    "commodities",
    "connections",
    "setup_balance",
    "ratings",
    "robustness",
)
_PART_COLOURS = ("#8c6d31", "#b5524b", "#d9a441", "#6b8e4e", "#7b68a6", "#4f7fa8")
_DPI = 110
#: openskill updates game by game in Python (~0.1 ms a game): the report rates at most this many.
OPENSKILL_MAX_GAMES = 50_000


# ---------------------------------------------------------------------------
# Blocks: one list renders to both Markdown and HTML
# ---------------------------------------------------------------------------
@dataclass
class _Heading:
    level: int
    text: str


@dataclass
class _Para:
    text: str


@dataclass
class _Table:
    frame: pd.DataFrame
    caption: str
    csv_name: str | None = None


@dataclass
class _Figure:
    file_name: str
    caption: str


_Block = _Heading | _Para | _Table | _Figure


@dataclass
class _Context:
    results: pd.DataFrame
    out_dir: Path
    config: dict[str, Any]
    components: Any
    blocks: list[_Block] = field(default_factory=list)
    n_figures: int = 0
    n_tables: int = 0
    files: list[Path] = field(default_factory=list)

    # -- helpers ----------------------------------------------------------------------------
    def heading(self, level: int, text: str) -> None:
        self.blocks.append(_Heading(level, text))

    def para(self, text: str) -> None:
        self.blocks.append(_Para(text))

    def table(self, frame: pd.DataFrame, caption: str, name: str | None = None,
              full: pd.DataFrame | None = None) -> None:
        """Show ``frame``; write ``full`` (default ``frame``) to ``table_<name>.csv``."""
        self.n_tables += 1
        csv_name = None
        if name is not None:
            csv_name = f"table_{name}.csv"
            path = self.out_dir / csv_name
            (frame if full is None else full).to_csv(path, index=False)
            self.files.append(path)
            caption = f"{caption} Full table: `{csv_name}`."
        self.blocks.append(_Table(frame, f"Table {self.n_tables}. {caption}", csv_name))

    def figure(self, fig: plt.Figure, name: str, what: str, frame: pd.DataFrame) -> None:
        """Save ``fig`` as ``fig_<name>.png`` with a caption: ``what`` + what was simulated."""
        self.n_figures += 1
        file_name = f"fig_{name}.png"
        path = self.out_dir / file_name
        fig.savefig(path, dpi=_DPI, bbox_inches="tight", facecolor="white")
        plt.close(fig)
        self.files.append(path)
        caption = f"Figure {self.n_figures}. {what} {describe_simulation(frame, self.config)}"
        self.blocks.append(_Figure(file_name, caption))


def _n_games(frame: pd.DataFrame) -> int:
    return int(np.unique(game_index(frame)).size) if len(frame) else 0


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe_simulation(frame: pd.DataFrame, config: dict[str, Any] | None = None) -> str:
    """One sentence: strategies, player counts, editions, seed(s) and number of games of
    ``frame`` (seed and experiment name from ``config`` when given)."""
    config = config or {}
    strategies = sorted(frame["strategy"].astype(str).unique())
    players = sorted(int(p) for p in frame["n_players"].unique())
    parts = []
    name = config.get("name") or config.get("experiment")
    if name:
        parts.append(f"experiment '{name}'")
    parts.append(f"{_join([str(p) for p in players])}-player games")
    if "edition" in frame.columns:
        editions = sorted(frame["edition"].astype(str).unique())
        parts.append(f"edition {_join(editions)}")
    shown = strategies if len(strategies) <= 8 else strategies[:8] + ["..."]
    parts.append(f"strategies {', '.join(shown)}")
    seed = config.get("seed")
    if seed is None and "seed" in frame.columns:
        seeds = sorted(int(s) for s in frame["seed"].unique())
        seed = seeds[0] if len(seeds) == 1 else f"{len(seeds)} seeds"
    if isinstance(seed, str) and seed.endswith(" seeds"):
        parts.append(seed)
    elif seed is not None:
        parts.append(f"seed {seed}")
    if "variant" in frame.columns and frame["variant"].nunique() > 1:
        parts.append(f"{frame['variant'].nunique()} component variants")
    return f"Simulated: {'; '.join(parts)}; n = {_n_games(frame):,} games."


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------
_P_COLUMNS = ("p_value", "q_value", "p_holm", "lineup_seat_balance_p")


def _format_cell(value: Any, column: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, str):
        return " ".join(value.split())  # one line: no newlines inside a table cell
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}" if column in ("n", "n_games") or abs(int(value)) >= 10000 \
            else str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if column == "wins" and v.is_integer():
            return f"{int(v):,}"
        if column in _P_COLUMNS or column.endswith("p_value"):
            return f"{v:.2g}" if v >= 1e-3 else f"{v:.1e}"
        if abs(v) >= 1000:
            return f"{v:,.0f}"
        return f"{v:.3f}"
    return str(value)


def markdown_table(frame: pd.DataFrame, max_rows: int = 40) -> str:
    """A GitHub-flavoured Markdown table (no ``tabulate`` needed).

    Floats get 3 decimals (p-values 2 significant digits), integers as is, booleans yes/no;
    ``|`` in cells is escaped; at most ``max_rows`` rows (a last line says how many were left
    out).
    """
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    lines = ["| " + " | ".join(c.replace("|", "\\|") for c in cols) + " |"]
    aligns = []
    for c in shown.columns:
        numeric = pd.api.types.is_numeric_dtype(shown[c]) and not pd.api.types.is_bool_dtype(
            shown[c])
        aligns.append("---:" if numeric else ":---")
    lines.append("| " + " | ".join(aligns) + " |")
    for row in shown.itertuples(index=False):
        cells = [_format_cell(v, str(c)).replace("|", "\\|") for v, c in zip(row, cols)]
        lines.append("| " + " | ".join(cells) + " |")
    if len(frame) > max_rows:
        lines.append(f"\n*{len(frame) - max_rows} more rows in the CSV file.*")
    return "\n".join(lines)


def _html_table(frame: pd.DataFrame, max_rows: int = 40) -> str:
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v, c in zip(row, cols):
            cls = ' class="num"' if isinstance(v, (int, float, np.integer, np.floating)) and \
                not isinstance(v, (bool, np.bool_)) else ""
            cells.append(f"<td{cls}>{html.escape(_format_cell(v, c))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if len(frame) > max_rows:
        more = f'<p class="more">{len(frame) - max_rows} more rows in the CSV file.</p>'
    return (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"{more}")


def _inline_md(text: str) -> str:
    """Escape text for HTML and render `code` and **bold** spans."""
    out = html.escape(text)
    parts = out.split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1050px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.5; }
h1 { border-bottom: 2px solid #b58b2a; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .15em; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 .3em; font-size: 0.86em; }
th, td { border: 1px solid #d0d0d0; padding: 3px 7px; }
th { background: #f3efe2; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafafa; }
figure { margin: 1.2em 0; }
figure img { max-width: 100%; border: 1px solid #e4e4e4; }
figcaption, .caption { font-size: 0.88em; color: #555; margin-top: .3em; }
code { background: #f4f4f4; padding: 0 3px; border-radius: 3px; }
.more { font-size: 0.85em; color: #777; font-style: italic; }
"""


def _render_markdown(title: str, blocks: list[_Block]) -> str:
    out = [f"# {title}", ""]
    for b in blocks:
        if isinstance(b, _Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, _Para):
            out += [b.text, ""]
        elif isinstance(b, _Table):
            out += [f"*{b.caption}*", "", markdown_table(b.frame), ""]
        elif isinstance(b, _Figure):
            out += [f"![{b.caption.split('.')[0]}]({b.file_name})", "", f"*{b.caption}*", ""]
    return "\n".join(out)


def _render_html(title: str, blocks: list[_Block], out_dir: Path) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for b in blocks:
        if isinstance(b, _Heading):
            out.append(f"<h{b.level}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, _Para):
            out.append(f"<p>{_inline_md(b.text)}</p>")
        elif isinstance(b, _Table):
            out.append(f'<p class="caption">{_inline_md(b.caption)}</p>{_html_table(b.frame)}')
        elif isinstance(b, _Figure):
            data = base64.b64encode((out_dir / b.file_name).read_bytes()).decode("ascii")
            out.append(f'<figure><img alt="{html.escape(b.caption.split(".")[0])}" '
                       f'src="data:image/png;base64,{data}"><figcaption>'
                       f"{_inline_md(b.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Sections
# ---------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _group_label(row: pd.Series, cols: Sequence[str]) -> str:
    parts = []
    for c in cols:
        if c == "n_players":
            parts.append(f"{int(row[c])}p")
        elif c == "edition":
            parts.append(f"ed. {row[c]}")
        else:
            parts.append(str(row[c]))
    return " ".join(parts)


def _section_overview(ctx: _Context) -> None:
    r = ctx.results
    n_games = _n_games(r)
    ctx.heading(2, "Overview")
    ctx.para(describe_simulation(r, ctx.config))
    winners = r.groupby(game_index(r))["winner"].sum()
    facts = pd.DataFrame({
        "quantity": ["games", "player-games", "strategies", "player counts", "editions",
                     "distinct setups", "games with a shared win"],
        "value": [
            f"{n_games:,}", f"{len(r):,}", ", ".join(sorted(r["strategy"].astype(str).unique())),
            ", ".join(str(int(p)) for p in sorted(r["n_players"].unique())),
            ", ".join(sorted(r["edition"].astype(str).unique())) if "edition" in r
            else "not recorded",
            f"{r.groupby(_setup_keys(r)).ngroups:,}" if "setup_id" in r else "not recorded",
            f"{int((winners > 1).sum()):,} ({_pct(float((winners > 1).mean()))})",
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
    )


def _setup_keys(r: pd.DataFrame) -> list[str]:
    return [c for c in ("variant", "run_id", "seed", "edition", "n_players", "setup_id")
            if c in r.columns]


def _facet_groups(r: pd.DataFrame) -> list[str]:
    return [c for c in ("edition", "n_players") if c in r.columns and r[c].nunique() > 1] or [
        "n_players"]


def _section_win_rates(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Win rates")
    facet = _facet_groups(r)
    by_seat = winrates.win_rates(r, by=[*facet, "seat"])
    groups = list(by_seat.groupby(facet, sort=True))
    fig, axes = plt.subplots(1, len(groups), figsize=(4.2 * len(groups) + 0.8, 3.6),
                             squeeze=False, layout="constrained")
    for ax, (_key, grp) in zip(axes[0], groups):
        seats = grp["seat"].to_numpy()
        rate = grp["win_rate"].to_numpy()
        err = _err(rate, grp["ci_low"], grp["ci_high"])
        ax.bar(seats, rate, color="#d9a441", edgecolor="#8c6d31", width=0.65)
        ax.errorbar(seats, rate, yerr=err, fmt="none", ecolor="#333", capsize=5, lw=1.3)
        ax.axhline(grp["baseline"].iloc[0], color="#b5524b", ls="--", lw=1.2,
                   label=f"equal seats (1/{int(grp['n_players'].iloc[0])})")
        ax.set_xticks(seats, [f"seat {s}" + (" (first)" if s == 0 else "") for s in seats])
        ax.set_ylabel("win rate")
        ax.set_title(_group_label(grp.iloc[0], facet) + f" — {int(grp['n'].iloc[0]):,} games")
        ax.set_ylim(0, max(float(grp["ci_high"].max()) * 1.25, 0.05))
        ax.legend(loc="lower right", fontsize=8)
    ctx.figure(fig, "win_rate_by_seat",
               "Win rate by seat (seat 0 plays first in the first visit), with 95% Wilson "
               "intervals; dashed line: the rate if all seats were equal.", r)
    ctx.table(by_seat, "Win rate by seat.", "win_rates_by_seat")
    balance = winrates.seat_lineup_balance(r, by=facet)
    confounded = balance[balance["confounded"]]
    if not confounded.empty:
        labels = _join([_group_label(row, facet) for _, row in confounded.iterrows()])
        ctx.para(f"Caution ({labels}): the seats saw different line-ups (own strategy and "
                 "opponents), so these raw seat rates mix seat and line-up effects; see the "
                 "line-up-adjusted seat comparison.")

    if r["strategy"].nunique() > 1:
        by_strategy = winrates.win_rates(r, by=[*facet, "strategy"])
        groups = list(by_strategy.groupby(facet, sort=True))
        n_strat = r["strategy"].nunique()
        fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups) + 0.8,
                                                          1.0 + 0.42 * n_strat),
                                 squeeze=False, layout="constrained")
        for ax, (_key, grp) in zip(axes[0], groups):
            grp = grp.sort_values("win_rate")
            y = np.arange(len(grp))
            rate = grp["win_rate"].to_numpy()
            ax.errorbar(rate, y, xerr=_err(rate, grp["ci_low"], grp["ci_high"]),
                        fmt="o", color="#4f7fa8", ecolor="#333", capsize=4)
            ax.axvline(grp["baseline"].iloc[0], color="#b5524b", ls="--", lw=1.2)
            ax.set_yticks(y, grp["strategy"].astype(str))
            ax.set_xlabel("win rate")
            ax.set_title(_group_label(grp.iloc[0], facet))
        ctx.figure(fig, "win_rate_by_strategy",
                   "Win rate by strategy with 95% Wilson intervals; dashed line: the rate of "
                   "equal players (1/n_players).", r)
        ctx.table(by_strategy.sort_values([*facet, "win_rate"], ascending=[True] * len(facet)
                                          + [False]),
                  "Win rate by strategy.", "win_rates_by_strategy")


def _section_seat_advantage(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Seat advantage")
    facet = _facet_groups(r)
    test = winrates.seat_advantage_test(r, by=facet)
    ctx.para(
        "Seats are compared within line-ups (a player's own strategy and its opponents): each "
        "seat's win rate is standardised over the line-ups that every seat saw, so no seat is "
        "credited with its opponents. With one strategy in every seat, or every line-up in every "
        "seat rotation, this is the plain win rate of the seat."
    )
    for row in test.itertuples():
        label = _group_label(pd.Series(row._asdict()), facet)
        raw = (f"unadjusted, the first seat's excess is {100 * row.raw_first_seat_excess:+.1f} "
               f"points, 95% CI [{100 * row.raw_first_seat_excess_ci_low:+.1f}, "
               f"{100 * row.raw_first_seat_excess_ci_high:+.1f}], over {row.n_games:,} games")
        if row.n == 0:
            ctx.para(f"**{label}**: the seat effect is not identified: no line-up occurs in "
                     f"every seat, so seat and line-up cannot be separated ({raw}; do not read "
                     "it as a seat effect).")
            continue
        verdict = "significant" if row.p_value < 0.05 else "not significant"
        ctx.para(
            f"**{label}**: the first seat wins {_pct(row.first_seat_win_rate)} of "
            f"{row.n:,} games (equal seats: {_pct(row.first_seat_win_rate - row.first_seat_excess)}"
            f"; excess {100 * row.first_seat_excess:+.1f} points, 95% CI "
            f"[{100 * row.ci_low:+.1f}, {100 * row.ci_high:+.1f}]). Test of equal seats within "
            f"line-ups (Wald, clustered by game): χ² = {row.chi2:.1f} on {row.dof} df, "
            f"p = {_format_cell(row.p_value, 'p_value')} ({verdict} at 5%); "
            f"Cramér's V = {row.cramers_v:.3f}. Best seat {row.best_seat}, "
            f"worst seat {row.worst_seat}."
        )
        if row.confounded:
            ctx.para(f"Caution ({label}): the seats saw different line-ups (seat × line-up "
                     f"p = {_format_cell(row.lineup_seat_balance_p, 'p_value')}; "
                     f"{_pct(row.support_share)} of the player-games have a line-up seen in "
                     f"every seat), so the estimate above uses only those {row.n:,} games; "
                     f"{raw}.")
    ctx.table(test, "Test of equal seats within line-ups (standardised seat win rates, Wald test "
              "clustered by game; ties shared; `raw_*`: unadjusted).", "seat_advantage")

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
        fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups) + 0.8, 4.2),
                                 squeeze=False, layout="constrained")
        colours = ("#d9a441", "#4f7fa8", "#6b8e4e", "#b5524b")
        for ax, (_key, grp) in zip(axes[0], groups):
            names = sorted(grp["lineup"].unique())
            width = 0.8 / len(names)
            for j, name in enumerate(names):
                sub = grp[grp["lineup"] == name]
                x = sub["seat"].to_numpy() + (j - (len(names) - 1) / 2) * width
                rate = sub["win_rate"].to_numpy()
                ax.bar(x, rate, width=width * 0.95, color=colours[j % len(colours)],
                       label=f"{name} ({int(sub['n_games'].max()):,} games)")
                ax.errorbar(x, rate, yerr=_err(rate, sub["ci_low"], sub["ci_high"]),
                            fmt="none", ecolor="#333", capsize=3, lw=1.1)
            ax.axhline(grp["baseline"].iloc[0], color="#b5524b", ls="--", lw=1.2)
            seats = np.sort(grp["seat"].unique())
            ax.set_xticks(seats, [f"seat {s}" for s in seats])
            ax.set_ylabel("win rate")
            ax.set_title(_group_label(grp.iloc[0], facet))
            ax.set_ylim(0, max(float(grp["ci_high"].max()) * 1.15, 0.05))
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), fontsize=7,
                      frameon=False)
        ctx.figure(fig, "seat_win_rate_by_lineup",
                   "Win rate by seat within each line-up (strategies at the table), with 95% "
                   "Wilson intervals; dashed line: the rate if all seats were equal.", lineups)
    cols = [*facet, "lineup", "n", "n_games", "confounded", "first_seat_win_rate",
            "first_seat_excess", "ci_low", "ci_high", "chi2", "dof", "p_value", "best_seat",
            "worst_seat"]
    ctx.table(by_lineup[cols], "Test of equal seats within each line-up.",
              "seat_advantage_by_lineup", full=by_lineup)


def _section_composition(ctx: _Context) -> None:
    r = ctx.results
    parts_present = [p for p in PART_NAMES if f"pts_{p}" in r.columns]
    if len(parts_present) < len(PART_NAMES):
        ctx.heading(2, "Score composition")
        ctx.para("Skipped: the results lack some `pts_<part>` columns.")
        return
    ctx.heading(2, "Score composition")
    facet = [c for c in ("edition", "n_players") if c in r.columns and r[c].nunique() > 1]
    by = [*facet, "strategy"]
    table = composition.score_composition(r, by)
    wide = table.pivot_table(index=by, columns="part", values="mean", observed=True,
                             sort=False)
    wide = wide[[*PART_NAMES, "score"]]
    counts = table[table["part"] == "score"].set_index(by)["n"]
    wide.insert(0, "n", counts.reindex(wide.index).to_numpy())
    wide = wide.reset_index()
    labels = [_group_label(row, by) for _, row in wide.iterrows()]
    fig, ax = plt.subplots(figsize=(8.5, 1.8 + 0.45 * len(wide)), layout="constrained")
    left = np.zeros(len(wide))
    y = np.arange(len(wide))[::-1]
    for part, colour in zip(PART_NAMES, _PART_COLOURS):
        values = wide[part].to_numpy(np.float64)
        ax.barh(y, values, left=left, color=colour, edgecolor="white", label=part, height=0.7)
        for yi, li, v in zip(y, left, values):
            if v >= 3:
                ax.text(li + v / 2, yi, f"{v:.1f}", ha="center", va="center", fontsize=7.5,
                        color="white")
        left += values
    ax.set_yticks(y, labels)
    ax.set_xlabel("mean points per player-game")
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=6,
               fontsize=8, frameon=False)
    ax.set_title("Score parts (mean points)")
    ctx.figure(fig, "score_parts",
               "Mean points per player-game from each score part, stacked (the bar length is "
               "the mean score).", r)
    ctx.table(wide, "Mean points per player-game by score part (intervals and quantiles in "
              "the CSV).", "score_composition", full=table)
    hist = composition.score_part_histogram(r, by)
    hist.to_csv(ctx.out_dir / "table_score_part_histogram.csv", index=False)
    ctx.files.append(ctx.out_dir / "table_score_part_histogram.csv")
    ctx.para("The full distribution of each part (points → frequency) is in "
             "`table_score_part_histogram.csv`.")


def _err(est: Any, low: Any, high: Any) -> np.ndarray:
    """Error-bar lengths, shape (2, n), never negative (rounding at 0 or 1)."""
    est, low, high = (np.asarray(v, dtype=np.float64) for v in (est, low, high))
    return np.clip(np.vstack([est - low, high - est]), 0.0, None)


def _errorbar_panel(ax: plt.Axes, labels: Sequence[str], est: np.ndarray, low: np.ndarray,
                    high: np.ndarray, colour: str, xlabel: str) -> None:
    y = np.arange(len(labels))[::-1]
    ax.errorbar(est, y, xerr=_err(est, low, high), fmt="o", color=colour,
                ecolor="#333", capsize=4)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)


def _section_commodities(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Commodity value")
    need = [*commodities.GOODS_COLUMNS, "n_province_tiles", *commodities.TILE_COLUMNS]
    missing = [c for c in need if c not in r.columns]
    if missing:
        ctx.para(f"Skipped: the results lack {', '.join(missing[:4])}.")
        return
    value = commodities.goods_value(r)
    points = commodities.goods_points(r)
    tiles = commodities.tile_value_by_visit(r)
    contest = commodities.goods_contest(r)
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.9), layout="constrained",
                             gridspec_kw={"width_ratios": [1, 1.15, 1]})
    _errorbar_panel(axes[0], list(value["good"]), value["win_prob_change"].to_numpy(),
                    value["ci_low"].to_numpy(), value["ci_high"].to_numpy(), "#b5524b",
                    "change in win probability per unit")
    axes[0].set_title("One more good / province tile")
    ax = axes[1]
    ax.errorbar(tiles["visit"], tiles["win_prob_change"],
                yerr=_err(tiles["win_prob_change"], tiles["ci_low"], tiles["ci_high"]),
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
    _errorbar_panel(axes[2], list(c_all["good"]), c_all["concentration"].to_numpy(),
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


def _province_values_figure(ctx: _Context, by_province: pd.DataFrame) -> plt.Figure | None:
    """The connection heat map on the board, or None when the board cannot be drawn."""
    try:
        from tajsim.games.tajmahal.report.board_plot import plot_board

        comps = ctx.components
        if comps is None:
            from tajsim.games.tajmahal.engine.components import default_components

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


def _section_connections(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Connection scoring")
    missing = [c for c in (*connections.CHAIN_COLUMNS, "pts_connection") if c not in r.columns]
    pcols = connections.province_columns(r)
    if missing or len(pcols) != len(connections.CHAIN_COLUMNS):
        ctx.para("Skipped: the results lack `chain_v<k>`, `pts_connection` or the twelve "
                 "`visit_<province>` columns.")
        return
    by_province = connections.chain_points_by_province(r).sort_values("mean", ascending=False)
    fig = _province_values_figure(ctx, by_province)
    if fig is not None:
        ctx.figure(fig, "connection_heatmap",
                   "Connection heat map: mean chain points (palace + connection points) a "
                   "player scores in the visit to each province, drawn on the board.", r)
    else:
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
        bp = by_province.sort_values("mean")
        _errorbar_panel(ax, list(bp["province"])[::-1], bp["mean"].to_numpy()[::-1],
                        bp["ci_low"].to_numpy()[::-1], bp["ci_high"].to_numpy()[::-1],
                        "#b5524b", "mean chain points per player in the visit")
        ctx.figure(fig, "connection_heatmap",
                   "Mean chain points per player in the visit to each province, with 95% "
                   "intervals (the board picture was unavailable for these provinces).", r)
    by_visit = connections.chain_points_by_visit(r, by=("n_players",))
    dist = connections.connection_distribution(r, by=("n_players",))
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
    for P, grp in by_visit.groupby("n_players", sort=True):
        axes[0].errorbar(grp["visit"], grp["mean"], yerr=_err(grp["mean"], grp["ci_low"],
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
            from tajsim.games.tajmahal.engine.components import default_components

            comps = default_components()
        adjacency = connections.province_adjacency_from_components(comps)
        if adjacency is not None and not {c.removeprefix("visit_") for c in pcols} <= set(
                adjacency):
            adjacency = None
    except Exception:  # noqa: BLE001 - adjacency is an optional extra feature
        adjacency = None
    if "setup_id" in r.columns:
        effects = connections.province_order_effects(r, province_adjacency=adjacency)
        ctx.table(effects.head(15), "Province order and connection points: correlation of "
                  "each province's visit number (and, with the board, the number of consecutive "
                  "visits to neighbouring provinces) with the mean connection points of a setup; "
                  "one observation per setup; q = Benjamini-Hochberg.", "province_order_effects",
                  full=effects)


def _section_setup_balance(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Setup balance")
    if "setup_id" not in r.columns:
        ctx.para("Skipped: the results have no `setup_id` column.")
        return
    per_setup = setup_balance.games_per_setup(r)
    if per_setup.max() < 2:
        ctx.para(f"Skipped: every game has its own setup ({len(per_setup):,} setups for "
                 f"{_n_games(r):,} games), so the variance due to the setup cannot be separated "
                 "from the variance due to play. Run several games per setup to analyse it.")
        return
    share = setup_balance.setup_variance_share(r)
    ctx.para(
        f"{len(per_setup):,} setups with {per_setup.median():.0f} games each (median). The "
        "table gives, for each seat, the share of the variance of its win (after removing "
        "each strategy's mean) that lies between setups (ICC, one-way random-effects ANOVA): "
        "0 = the board does not matter."
    )
    ctx.table(share, "Share of win variance due to the setup, by seat.", "setup_variance_share")
    imbalance = setup_balance.setup_imbalance(r)
    if not imbalance.empty:
        fig, ax = plt.subplots(figsize=(7.5, 3.8), layout="constrained")
        ax.hist(imbalance["spread"], bins=min(40, max(10, len(imbalance) // 5)),
                color="#d9a441", edgecolor="#8c6d31")
        null = float(np.average(imbalance["null_spread"], weights=imbalance["n"]))
        ax.axvline(null, color="#b5524b", ls="--",
                   label=f"expected with equal seats ({null:.2f})")
        ax.set_xlabel("seat win-rate spread in a setup (best seat − worst seat)")
        ax.set_ylabel("setups")
        ax.legend(fontsize=8)
        ctx.figure(fig, "setup_imbalance",
                   f"Distribution of setup imbalance over {len(imbalance):,} setups: the spread "
                   "between the best and the worst seat's win rate in each setup; dashed: the "
                   "spread expected by chance alone with equal seats and the same number of "
                   "games.", r)
        cols = [c for c in ("seed", "setup_id", "n_players") if c in imbalance.columns] + [
            "n", "spread", "ci_low", "ci_high", "best_seat", "worst_seat", "p_value", "q_value"]
        ctx.table(imbalance[cols].head(5), "Least balanced setups (replay from seed + "
                  "setup_id). Spread = best minus worst seat win rate, with a conservative 95% "
                  "interval (simultaneous Wilson intervals); p: chi-square test of equal seats; "
                  "q: Benjamini-Hochberg over setups.", "setup_imbalance", full=imbalance)
        ctx.table(imbalance[cols].tail(5).iloc[::-1], "Most balanced setups.")
    features = setup_balance.setup_feature_tests(r)
    if not features.empty:
        n_sig = int(features["significant"].sum())
        ctx.para(f"Setup features tested against seat 0's win rate: {len(features)} "
                 f"(province visit numbers and bonus tiles by city), one observation per setup; "
                 f"{n_sig} significant at a 5% false discovery rate (Benjamini-Hochberg).")
        ctx.table(features.head(10), "Setup features with the smallest p-values.",
                  "setup_feature_tests", full=features)


def _section_ratings(ctx: _Context) -> None:
    r = ctx.results
    ctx.heading(2, "Strategy comparison")
    if r["strategy"].nunique() < 2:
        ctx.para("Skipped: only one strategy played.")
        return
    n_games = _n_games(r)
    os_table = ratings.openskill_ratings(r, max_games=OPENSKILL_MAX_GAMES)
    rated = (f" Rated on the first {OPENSKILL_MAX_GAMES:,} of {n_games:,} games."
             if n_games > OPENSKILL_MAX_GAMES else "")
    bt = ratings.bradley_terry(r)
    h2h = ratings.head_to_head(r)
    order = list(bt["strategy"])  # strongest first
    matrix = ratings.head_to_head_matrix(h2h).reindex(index=order, columns=order)
    fig, axes = plt.subplots(1, 2, figsize=(11, 1.3 + 0.45 * len(os_table)),
                             layout="constrained")
    o = os_table.iloc[::-1]
    axes[0].errorbar(o["mu"], np.arange(len(o)), xerr=_err(o["mu"], o["ci_low"], o["ci_high"]),
                     fmt="o", color="#4f7fa8", ecolor="#333", capsize=4)
    axes[0].set_yticks(np.arange(len(o)), o["strategy"])
    axes[0].set_xlabel("openskill μ (Plackett-Luce), ±1.96σ")
    axes[0].set_title("openskill rating ladder")
    b = bt.iloc[::-1]
    axes[1].errorbar(b["strength"], np.arange(len(b)),
                     xerr=_err(b["strength"], b["ci_low"], b["ci_high"]), fmt="s",
                     color="#b5524b", ecolor="#333", capsize=4)
    axes[1].axvline(0, color="#999", lw=1)
    axes[1].set_yticks(np.arange(len(b)), b["strategy"])
    axes[1].set_xlabel("Bradley-Terry strength (log-odds vs the average), 95% CI")
    axes[1].set_title("Bradley-Terry cross-check")
    ctx.figure(fig, "rating_ladder",
               "Rating ladder: openskill Plackett-Luce ratings (updated game by game, seats as "
               f"teams{'; first ' + format(OPENSKILL_MAX_GAMES, ',') + ' games' if rated else ''}"
               ") and Bradley-Terry strengths from all pairwise finishing orders "
               "(sandwich intervals clustered by game).", r)
    k = len(matrix)
    fig, ax = plt.subplots(figsize=(1.6 + 0.75 * k, 1.2 + 0.65 * k), layout="constrained")
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
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.6 * spread else "black")
    ax.set_xlabel("strategy B")
    ax.set_ylabel("strategy A")
    fig.colorbar(im, ax=ax, label="share of games A finished above B")
    ctx.figure(fig, "head_to_head",
               "Head-to-head: share of the games in which the row strategy finished above the "
               "column strategy (ties count one half); strategies ordered by Bradley-Terry "
               "strength, strongest first.", r)
    ctx.table(os_table, f"openskill ratings (interval: μ ± 1.96σ).{rated}", "openskill_ratings")
    ctx.table(bt, "Bradley-Terry strengths.", "bradley_terry")
    ctx.table(h2h, "Head-to-head with 95% Wilson intervals.", "head_to_head")
    rotation = ratings.seat_rotation_check(r)
    if not rotation.empty and (rotation["p_value"] < 0.01).any():
        ctx.para("Caution: strategies were not rotated evenly over the seats "
                 "(see `table_seat_rotation.csv`).")
    elif not rotation.empty and rotation["confounded"].any():
        ctx.para("Caution: each strategy sat in each seat about equally often, but the seats "
                 "saw different line-ups (see `table_seat_rotation.csv`).")
    rotation.to_csv(ctx.out_dir / "table_seat_rotation.csv", index=False)
    ctx.files.append(ctx.out_dir / "table_seat_rotation.csv")


def _section_robustness(ctx: _Context) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    ctx.heading(2, "Robustness to the component data")
    table = robustness.robustness(robustness.split_variants(r))
    held = int(table["holds_in_all"].sum())
    ctx.para(f"{held} of {len(table)} key conclusions hold in all {r['variant'].nunique()} "
             "component variants.")
    ctx.table(table, "Key conclusions by component variant.", "robustness",
              full=robustness.conclusion_values(robustness.split_variants(r)))


_SECTIONS: dict[str, Callable[[_Context], None]] = {
    "overview": _section_overview,
    "win_rates": _section_win_rates,
    "seat_advantage": _section_seat_advantage,
    "score_composition": _section_composition,
    "commodities": _section_commodities,
    "connections": _section_connections,
    "setup_balance": _section_setup_balance,
    "ratings": _section_ratings,
    "robustness": _section_robustness,
}


def build_report(
    results: pd.DataFrame,
    out_dir: str | Path,
    *,
    title: str = "tajsim report",
    config: dict[str, Any] | None = None,
    sections: Sequence[str] | None = None,
    board_components: Any = None,
) -> Path:
    """Write the report of ``results`` into ``out_dir``.

    Parameters
    ----------
    results : DataFrame
        Results frame (docs/results-schema.md); at least :data:`REQUIRED_COLUMNS`. An optional
        ``variant`` column (component-data variant label) adds the robustness section.
    out_dir : str or Path
        Created if needed; existing ``fig_*``/``table_*`` files of the same names are replaced.
    title : str
    config : dict, optional
        Run configuration (experiment ``name``, ``seed``, ...): shown in the overview and used
        in the figure captions.
    sections : sequence of str, optional
        Subset of :data:`ALL_SECTIONS` (default: all the data supports).
    board_components : Components, optional
        Board for the connection heat map (default ``default_components()``).

    Returns
    -------
    Path
        ``out_dir / "report.md"`` (``report.html`` lies beside it).

    Raises
    ------
    ValueError
        Missing required columns, unknown section names, or an empty frame.
    """
    missing = [c for c in REQUIRED_COLUMNS if c not in results.columns]
    if missing:
        raise ValueError(f"results lack columns {', '.join(missing)}; expected the results "
                         "schema (docs/results-schema.md)")
    if results.empty:
        raise ValueError("results are empty; expected at least one game")
    chosen = list(ALL_SECTIONS) if sections is None else list(sections)
    unknown = [s for s in chosen if s not in _SECTIONS]
    if unknown:
        raise ValueError(f"unknown report sections {unknown}; expected some of "
                         f"{', '.join(ALL_SECTIONS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ctx = _Context(results=results.reset_index(drop=True), out_dir=out, config=dict(config or {}),
                   components=board_components)
    for name in ALL_SECTIONS:
        if name in chosen:
            _SECTIONS[name](ctx)
    md_path = out / "report.md"
    md_path.write_text(_render_markdown(title, ctx.blocks), encoding="utf-8")
    (out / "report.html").write_text(_render_html(title, ctx.blocks, out), encoding="utf-8")
    return md_path
