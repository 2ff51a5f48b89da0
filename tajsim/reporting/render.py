"""The rendering toolkit of the reports: blocks (headings, paragraphs, tables, figures) that
render to both Markdown and self-contained HTML, the :class:`ReportContext` that sections write
into, and the formatting and plotting helpers every section shares.

A report section is a function ``section(ctx: ReportContext) -> None``; it asks ``ctx.analysis``
for the analyses it shows (computed once, shared with the run that made the data) and adds
blocks with ``ctx.heading``, ``ctx.para``, ``ctx.table`` and ``ctx.figure``.
"""

from __future__ import annotations

import base64
import html
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

if "matplotlib.pyplot" not in sys.modules:  # no screen needed
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index
from tajsim.analysis.registry import AnalysisCache
from tajsim.engine.spec import GameSpec

PART_COLOURS = ("#8c6d31", "#b5524b", "#d9a441", "#6b8e4e", "#7b68a6", "#4f7fa8", "#c77d4e",
                "#5f9ea0", "#9c6b98", "#7a7a52")
DPI = 110


# ---------------------------------------------------------------------------
# Blocks: one list renders to both Markdown and HTML
# ---------------------------------------------------------------------------
@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str


@dataclass
class Table:
    frame: pd.DataFrame
    caption: str
    csv_name: str | None = None


@dataclass
class Figure:
    file_name: str
    caption: str


Block = Heading | Para | Table | Figure


@dataclass
class ReportContext:
    results: pd.DataFrame
    out_dir: Path
    config: dict[str, Any]
    components: Any
    spec: GameSpec
    cache: AnalysisCache
    blocks: list[Block] = field(default_factory=list)
    n_figures: int = 0
    n_tables: int = 0
    files: list[Path] = field(default_factory=list)

    # -- helpers ----------------------------------------------------------------------------
    def analysis(self, name: str, **kwargs: Any) -> pd.DataFrame:
        """Analysis ``name`` of the results (from the shared cache: computed once)."""
        return self.cache.get(name, **kwargs)

    def heading(self, level: int, text: str) -> None:
        self.blocks.append(Heading(level, text))

    def para(self, text: str) -> None:
        self.blocks.append(Para(text))

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
        self.blocks.append(Table(frame, f"Table {self.n_tables}. {caption}", csv_name))

    def figure(self, fig: plt.Figure, name: str, what: str, frame: pd.DataFrame) -> None:
        """Save ``fig`` as ``fig_<name>.png`` with a caption: ``what`` + what was simulated."""
        self.n_figures += 1
        file_name = f"fig_{name}.png"
        path = self.out_dir / file_name
        fig.savefig(path, dpi=DPI, bbox_inches="tight", facecolor="white")
        plt.close(fig)
        self.files.append(path)
        caption = f"Figure {self.n_figures}. {what} {describe_simulation(frame, self.config)}"
        self.blocks.append(Figure(file_name, caption))


def n_games(frame: pd.DataFrame) -> int:
    return int(np.unique(game_index(frame)).size) if len(frame) else 0


def join_words(items: Sequence[str]) -> str:
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
    parts.append(f"{join_words([str(p) for p in players])}-player games")
    if "edition" in frame.columns:
        editions = sorted(frame["edition"].astype(str).unique())
        parts.append(f"edition {join_words(editions)}")
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
    return f"Simulated: {'; '.join(parts)}; n = {n_games(frame):,} games."


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------
_P_COLUMNS = ("p_value", "q_value", "p_holm", "lineup_seat_balance_p")


def format_cell(value: Any, column: str) -> str:
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
        cells = [format_cell(v, str(c)).replace("|", "\\|") for v, c in zip(row, cols)]
        lines.append("| " + " | ".join(cells) + " |")
    if len(frame) > max_rows:
        lines.append(f"\n*{len(frame) - max_rows} more rows in the CSV file.*")
    return "\n".join(lines)


def html_table(frame: pd.DataFrame, max_rows: int = 40) -> str:
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v, c in zip(row, cols):
            cls = ' class="num"' if isinstance(v, (int, float, np.integer, np.floating)) and \
                not isinstance(v, (bool, np.bool_)) else ""
            cells.append(f"<td{cls}>{html.escape(format_cell(v, c))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if len(frame) > max_rows:
        more = f'<p class="more">{len(frame) - max_rows} more rows in the CSV file.</p>'
    return (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"{more}")


def inline_md(text: str) -> str:
    """Escape text for HTML and render `code` and **bold** spans."""
    out = html.escape(text)
    parts = out.split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


CSS = """
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


def render_markdown(title: str, blocks: list[Block]) -> str:
    out = [f"# {title}", ""]
    for b in blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [b.text, ""]
        elif isinstance(b, Table):
            out += [f"*{b.caption}*", "", markdown_table(b.frame), ""]
        elif isinstance(b, Figure):
            out += [f"![{b.caption.split('.')[0]}]({b.file_name})", "", f"*{b.caption}*", ""]
    return "\n".join(out)


def render_html(title: str, blocks: list[Block], out_dir: Path) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for b in blocks:
        if isinstance(b, Heading):
            out.append(f"<h{b.level}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            out.append(f"<p>{inline_md(b.text)}</p>")
        elif isinstance(b, Table):
            out.append(f'<p class="caption">{inline_md(b.caption)}</p>{html_table(b.frame)}')
        elif isinstance(b, Figure):
            data = base64.b64encode((out_dir / b.file_name).read_bytes()).decode("ascii")
            out.append(f'<figure><img alt="{html.escape(b.caption.split(".")[0])}" '
                       f'src="data:image/png;base64,{data}"><figcaption>'
                       f"{inline_md(b.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def group_label(row: pd.Series, cols: Sequence[str]) -> str:
    parts = []
    for c in cols:
        if c == "n_players":
            parts.append(f"{int(row[c])}p")
        elif c == "edition":
            parts.append(f"ed. {row[c]}")
        else:
            parts.append(str(row[c]))
    return " ".join(parts)


def setup_keys(r: pd.DataFrame) -> list[str]:
    return [c for c in ("variant", "run_id", "seed", "edition", "n_players", "setup_id")
            if c in r.columns]


def facet_groups(r: pd.DataFrame) -> list[str]:
    return [c for c in ("edition", "n_players") if c in r.columns and r[c].nunique() > 1] or [
        "n_players"]


def error_bars(est: Any, low: Any, high: Any) -> np.ndarray:
    """Error-bar lengths, shape (2, n), never negative (rounding at 0 or 1)."""
    est, low, high = (np.asarray(v, dtype=np.float64) for v in (est, low, high))
    return np.clip(np.vstack([est - low, high - est]), 0.0, None)


def errorbar_panel(ax: plt.Axes, labels: Sequence[str], est: np.ndarray, low: np.ndarray,
                    high: np.ndarray, colour: str, xlabel: str) -> None:
    y = np.arange(len(labels))[::-1]
    ax.errorbar(est, y, xerr=error_bars(est, low, high), fmt="o", color=colour,
                ecolor="#333", capsize=4)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)


