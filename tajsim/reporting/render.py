"""The rendering toolkit of the reports: blocks (headings, paragraphs, tables, figures) that
render to both Markdown and self-contained HTML, the :class:`ReportContext` that sections write
into, and the formatting and plotting helpers every section shares.

A report section is a function ``section(ctx: ReportContext) -> None``; it asks ``ctx.analysis``
for the analyses it shows (computed once, shared with the run that made the data) and adds
blocks with ``ctx.heading``, ``ctx.para``, ``ctx.table`` and ``ctx.figure``.

Figures are drawn for the page: the HTML column is :data:`PAGE_WIDTH_PX` wide and a PNG of
:data:`PAGE_WIDTH_IN` inches at :data:`DPI` fills it at its natural size, so a figure no wider
than that is never scaled down and its smallest text (at least :data:`MIN_FONT_PT`) stays
readable. :func:`panel_grid` lays several panels out in rows of at most two.

Everything written is byte-stable (the same data give the same bytes on any machine with the
same library versions): CSV floats are rounded to :data:`CSV_SIGNIFICANT_DIGITS` significant
digits (:func:`write_csv`), PNGs carry no version or date and are drawn with matplotlib's own
DejaVu fonts under a fixed style (:func:`report_style`).
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

if "matplotlib.pyplot" not in sys.modules:  # no screen needed
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from tajsim.analysis.frames import game_index
from tajsim.analysis.registry import AnalysisCache
from tajsim.engine.spec import GameSpec
from tajsim.running.store import atomic_write

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

PART_COLOURS = ("#8c6d31", "#b5524b", "#d9a441", "#6b8e4e", "#7b68a6", "#4f7fa8", "#c77d4e",
                "#5f9ea0", "#9c6b98", "#7a7a52")
#: The dashed line of "equal players" (1 / number of players).
BASELINE_COLOUR = "#b5524b"
#: Resolution of the PNGs (pixels per inch).
DPI = 110
#: Width of the HTML report's column (CSS ``max-width`` of the body), in CSS pixels.
PAGE_WIDTH_PX = 1050
#: A figure this wide (inches) fills the column at its natural size.
PAGE_WIDTH_IN = PAGE_WIDTH_PX / DPI
#: Smallest text drawn in a report figure (points): 7.5 pt at 110 dpi is 11.5 px.
MIN_FONT_PT = 7.5
#: Smallest text height (CSS pixels) a figure may show at its displayed size.
MIN_TEXT_PX = 9.0
#: Rows a report table shows (the CSV file has them all).
MAX_TABLE_ROWS = 40
#: Significant digits of the floats written to CSV files.
CSV_SIGNIFICANT_DIGITS = 6

#: matplotlib settings of every report figure, on top of matplotlib's defaults (so a user's
#: style cannot change the shipped PNGs): matplotlib's bundled DejaVu fonts, text sizes chosen
#: for :data:`PAGE_WIDTH_IN`, a white background.
REPORT_STYLE: dict[RcKeyType, Any] = {
    "font.family": ["DejaVu Sans"],
    "font.sans-serif": ["DejaVu Sans"],
    "mathtext.fontset": "dejavusans",
    "font.size": 9.5,
    "axes.titlesize": 10.5,
    "axes.labelsize": 9.5,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 8.5,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.facecolor": "white",
}


@contextmanager
def report_style() -> Iterator[None]:
    """Draw under :data:`REPORT_STYLE` (matplotlib's defaults first: no user style leaks in)."""
    with plt.style.context("default"), plt.rc_context(REPORT_STYLE):
        yield


def panel_grid(
    n_panels: int,
    *,
    panel_height: float,
    max_columns: int = 2,
    single_width: float = 5.6,
    extra_height: float = 0.0,
) -> tuple[plt.Figure, list[plt.Axes]]:
    """A figure of ``n_panels`` axes in rows of at most ``max_columns``, sized for the page.

    Several panels take the page width (:data:`PAGE_WIDTH_IN`) and add rows rather than
    columns, so the text keeps its size; one panel is ``single_width`` inches wide.
    ``extra_height`` (inches) leaves room for a figure legend. Unused grid cells are removed.
    """
    columns = max(1, min(max_columns, n_panels))
    rows = math.ceil(n_panels / columns)
    width = PAGE_WIDTH_IN if columns > 1 else min(single_width, PAGE_WIDTH_IN)
    fig, axes = plt.subplots(rows, columns, figsize=(width, panel_height * rows + extra_height),
                             squeeze=False, layout="constrained")
    flat = list(axes.flat)
    for ax in flat[n_panels:]:
        ax.remove()
    return fig, flat[:n_panels]


def smallest_font_pt(fig: plt.Figure) -> float:
    """The size (points) of the smallest visible text of ``fig``, once it has been drawn."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    return float(min(sizes)) if sizes else float("nan")


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
    width_px: int = 0
    height_px: int = 0
    #: Height of the figure's smallest text in the PNG's own pixels.
    min_text_px: float = float("nan")


@dataclass
class Bullets:
    """A list of short statements (``**bold**`` and `code` spans as in paragraphs)."""

    items: list[str]


@dataclass
class Contents:
    """The table of contents: (heading text, anchor) of every section."""

    entries: list[tuple[str, str]]


Block = Heading | Para | Table | Figure | Bullets | Contents


def anchor(text: str) -> str:
    """The anchor of a heading, as GitHub makes it for Markdown (lower case, punctuation left
    out, spaces as hyphens); the HTML report gives its headings the same ids."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def short_finding(text: str) -> str:
    """A section's headline statement cut for the summary: its sentences up to the first that
    gives an interval ("[low, high]"); when a sentence left out calls the finding an
    association, the summary says so too (it must not read as a causal claim)."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z*])", text.strip())
    kept: list[str] = []
    for sentence in sentences:
        kept.append(sentence)
        if "[" in sentence:
            break
    dropped = " ".join(sentences[len(kept):])
    out = " ".join(kept)
    if "association" in dropped and "association" not in out:
        out += " (An association in simulated play, not a causal effect.)"
    return out


def front_matter(blocks: list[Block], findings: list[tuple[str, str]]) -> list[Block]:
    """What a long report opens with: a summary of the sections' headline statements
    (``findings``: (section heading, statement)) and a table of contents of the level-2
    headings of ``blocks``."""
    out: list[Block] = []
    if findings:
        out += [Heading(2, "Summary of findings"),
                Para("The headline statement of each section (95% intervals; n as stated); the "
                     "sections give the details and the caveats."),
                Bullets([f"**{section}.** {short_finding(text)}" if section
                         else short_finding(text) for section, text in findings])]
    headings = [b.text for b in blocks if isinstance(b, Heading) and b.level == 2]
    if len(headings) > 1:
        out += [Heading(2, "Contents"), Contents([(h, anchor(h)) for h in headings])]
    return out


@dataclass
class ReportContext:
    results: pd.DataFrame
    out_dir: Path
    config: dict[str, Any]
    components: Any
    spec: GameSpec
    cache: AnalysisCache
    blocks: list[Block] = field(default_factory=list)
    #: The sections' headline statements (heading, text), for the summary at the top.
    findings: list[tuple[str, str]] = field(default_factory=list)
    #: What was simulated, for figure captions drawn without a results frame (a run without
    #: records); by default the captions describe the frame the figure shows.
    description: str = ""
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

    def headline(self, text: str) -> None:
        """A paragraph that states the section's main finding (with n and its interval); the
        report's summary at the top repeats it under the section's name."""
        self.para(text)
        section = next((b.text for b in reversed(self.blocks) if isinstance(b, Heading)
                        and b.level == 2), "")
        self.findings.append((section, text))

    def table(self, frame: pd.DataFrame, caption: str, name: str | None = None,
              full: pd.DataFrame | None = None) -> None:
        """Show ``frame``; write ``full`` (default ``frame``) to ``table_<name>.csv``."""
        self.n_tables += 1
        csv_name = None
        if name is not None:
            csv_name = self.csv(frame if full is None else full, f"table_{name}")
            caption = f"{caption} Full table: `{csv_name}`."
        self.blocks.append(Table(frame, f"Table {self.n_tables}. {caption}", csv_name))

    def csv(self, frame: pd.DataFrame, name: str) -> str:
        """Write ``frame`` to ``<name>.csv`` (:func:`write_csv`); returns the file name."""
        path = self.out_dir / f"{name}.csv"
        write_csv(frame, path)
        self.files.append(path)
        return path.name

    def figure(self, fig: plt.Figure, name: str, what: str,
               frame: pd.DataFrame | None) -> None:
        """Save ``fig`` as ``fig_<name>.png`` with a caption: ``what`` + what was simulated
        (``frame`` described, or :attr:`description` when ``frame`` is None)."""
        self.n_figures += 1
        file_name = f"fig_{name}.png"
        path = self.out_dir / file_name
        width_px, height_px = save_png(fig, path)
        min_text_px = smallest_font_pt(fig) * DPI / 72
        plt.close(fig)
        self.files.append(path)
        simulated = (self.description if frame is None
                     else describe_simulation(frame, self.config))
        caption = f"Figure {self.n_figures}. {what} {simulated}"
        self.blocks.append(Figure(file_name, caption, width_px, height_px, min_text_px))


def save_png(fig: plt.Figure, path: Path) -> tuple[int, int]:
    """Write ``fig`` as a PNG of its own size at :data:`DPI`, without the metadata that would
    differ between machines or library versions; returns its (width, height) in pixels.

    The file appears whole or not at all (written beside it, then renamed): a full disk never
    leaves a truncated PNG."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # A panel with nothing to show (a statistic of too few games) leaves matplotlib's
        # constrained layout nothing to size; the figure is still right, the warning is noise.
        warnings.filterwarnings("ignore", message="constrained_layout not applied")
        fig.savefig(buffer, format="png", dpi=DPI, facecolor="white",
                    metadata={"Software": None})
    atomic_write(Path(path), buffer.getvalue())
    width, height = fig.get_size_inches() * DPI
    return int(round(width)), int(round(height))


def round_significant(values: Any, digits: int = CSV_SIGNIFICANT_DIGITS) -> np.ndarray:
    """``values`` (float64 array) rounded to ``digits`` significant digits; whole numbers
    (counts kept as floats) stay exact, -0.0 becomes 0.0, NaN and infinities stay."""
    out = np.array(values, dtype=np.float64).reshape(-1)
    finite = np.isfinite(out) & ~((out == np.round(out)) & (np.abs(out) < 2.0 ** 53))
    # Python's formatting rounds the exact binary value correctly; the decimal is read back.
    out[finite] = [float(f"{x:.{digits}g}") for x in out[finite].tolist()]
    out[out == 0] = 0.0  # no "-0.0"
    return out


def write_csv(frame: pd.DataFrame, path: str | Path, digits: int = CSV_SIGNIFICANT_DIGITS,
              *, index: bool = False) -> None:
    """Write ``frame`` to CSV with its floats rounded to ``digits`` significant digits, so
    that the file does not change with the last bits of a computation.

    Floats are written as the shortest decimal that reads back as the rounded value
    (``0.00255926``, ``1.2e-07``), whole numbers exactly (``1234567.0``), -0.0 as ``0.0``,
    NaN as an empty field;
    integers, text and booleans as they are. The index is written only with ``index=True``
    (as it is). Lines end in a line feed on every platform. The file appears whole or not at
    all (written beside it, then renamed).
    """
    columns = []
    for position in range(frame.shape[1]):  # by position: column names may repeat
        values = frame.iloc[:, position]
        if pd.api.types.is_float_dtype(values.dtype):
            values = pd.Series(round_significant(
                values.to_numpy(dtype=np.float64, na_value=np.nan), digits), index=frame.index)
        elif values.dtype == object:
            values = pd.Series([round_significant([v], digits)[0]
                                if isinstance(v, (float, np.floating)) else v for v in values],
                               index=frame.index, dtype=object)
        columns.append(values)
    out = pd.concat(columns, axis=1) if columns else frame.copy()
    out.columns = frame.columns
    atomic_write(Path(path), out.to_csv(index=index, lineterminator="\n").encode("utf-8"))


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
        parts.append(f"{frame['variant'].nunique()} variants")
    return f"Simulated: {'; '.join(parts)}; n = {n_games(frame):,} games."


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------
_P_COLUMNS = ("p_value", "q_value", "p_holm", "lineup_seat_balance_p")


def format_cell(value: Any, column: str) -> str:
    """One table cell as text: floats with 3 decimals (p-values 2 significant digits, counts
    of shared wins as few decimals as they need), integers as they are (counts with thousands
    separators), booleans yes/no; never "-0.000"."""
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
        if math.isnan(v):
            return ""
        if column == "wins":  # shared wins count 1/k: 991.5, 12.333
            text = f"{v:,.3f}".rstrip("0").rstrip(".")
        elif column in _P_COLUMNS or column.endswith("p_value"):
            text = f"{v:.2g}" if v >= 1e-3 else f"{v:.1e}"
        elif abs(v) >= 1000:
            text = f"{v:,.0f}"
        else:
            text = f"{v:.3f}"
        return unsigned_zero(text)
    return str(value)


def unsigned_zero(text: str) -> str:
    """``text`` without the sign when it shows a zero ("-0.000" -> "0.000", "+0.0" -> "0.0")."""
    if text[:1] in "+-" and not any(ch in "123456789" for ch in text.split("e")[0]):
        return text[1:]
    return text


def signed(value: float, decimals: int = 1) -> str:
    """``value`` with its sign ("+1.2", "-0.4") and "0.0" rather than "-0.0" or "+0.0"."""
    return unsigned_zero(f"{value:+.{decimals}f}")


def markdown_table(frame: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> str:
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


#: Text cells longer than this may wrap (with a minimum width); shorter ones stay on one line.
_WRAP_CHARS = 32


def html_table(frame: pd.DataFrame, max_rows: int = MAX_TABLE_ROWS) -> str:
    """The table as HTML inside a horizontally scrolling box (``div.table-scroll``), so a
    table wider than the page scrolls inside the column instead of running off the page; one
    that probably is (:func:`is_wide`) keeps its first column in view while it scrolls."""
    shown = frame.head(max_rows)
    cols = [str(c) for c in shown.columns]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v, c in zip(row, cols):
            text = format_cell(v, c)
            if isinstance(v, (int, float, np.integer, np.floating)) and \
                    not isinstance(v, (bool, np.bool_)):
                cls = ' class="num"'
            elif len(text) > _WRAP_CHARS:
                cls = ' class="long"'
            else:
                cls = ""
            cells.append(f"<td{cls}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = ""
    if len(frame) > max_rows:
        more = f'<p class="more">{len(frame) - max_rows} more rows in the CSV file.</p>'
    box = "table-scroll wide" if is_wide(shown) else "table-scroll"
    return (f'<div class="{box}"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>{more}")


def is_wide(frame: pd.DataFrame) -> bool:
    """Whether the HTML table of ``frame`` is probably wider than the column: about 7.5 px a
    character of the longest header or cell of each column, plus padding (an estimate for the
    caption's hint; the scrolling box holds any width)."""
    width = 0.0
    for column in frame.columns:
        cells = [format_cell(v, str(column)) for v in frame[column]]
        longest = max([len(str(column)), *(min(len(c), _WRAP_CHARS) for c in cells)])
        width += 7.5 * longest + 15
    return width > PAGE_WIDTH_PX


def inline_md(text: str) -> str:
    """Escape text for HTML and render `code` and **bold** spans."""
    out = html.escape(text)
    parts = out.split("`")
    out = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


CSS = f"""
body {{ font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: {PAGE_WIDTH_PX}px; margin: 2em auto; padding: 0 1em; color: #222;
       line-height: 1.5; }}
h1 {{ border-bottom: 2px solid #b58b2a; padding-bottom: .2em; }}
h2 {{ border-bottom: 1px solid #ddd; padding-bottom: .15em; margin-top: 2em; }}
.table-scroll {{ max-width: 100%; overflow-x: auto; margin: .6em 0 .3em; }}
table {{ border-collapse: collapse; font-size: 0.86em; }}
th, td {{ border: 1px solid #d0d0d0; padding: 3px 7px; white-space: nowrap; }}
td {{ background: #fff; }}
td.long {{ white-space: normal; min-width: 14em; }}
th {{ background: #f3efe2; text-align: left; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
tr:nth-child(even) td {{ background: #fafafa; }}
.table-scroll.wide th:first-child, .table-scroll.wide td:first-child {{
  position: sticky; left: 0; z-index: 1; box-shadow: 2px 0 2px -1px #bbb; }}
figure {{ margin: 1.2em 0; }}
figure img {{ display: block; max-width: 100%; height: auto;
             outline: 1px solid #e4e4e4; outline-offset: -1px; }}
figcaption, .caption {{ font-size: 0.88em; color: #555; margin-top: .3em; }}
code {{ background: #f4f4f4; padding: 0 3px; border-radius: 3px; }}
.more {{ font-size: 0.85em; color: #777; font-style: italic; }}
ul.contents {{ columns: 2; }}
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
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Contents):
            out += [f"- [{text}](#{target})" for text, target in b.entries] + [""]
    return "\n".join(out)


def render_html(title: str, blocks: list[Block], out_dir: Path) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{html.escape(title)}</h1>"]
    for b in blocks:
        if isinstance(b, Heading):
            ident = f' id="{anchor(b.text)}"' if b.level == 2 else ""
            out.append(f"<h{b.level}{ident}>{html.escape(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            out.append(f"<p>{inline_md(b.text)}</p>")
        elif isinstance(b, Bullets):
            out.append("<ul>" + "".join(f"<li>{inline_md(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Contents):
            out.append('<ul class="contents">' + "".join(
                f'<li><a href="#{target}">{html.escape(text)}</a></li>'
                for text, target in b.entries) + "</ul>")
        elif isinstance(b, Table):
            wide = is_wide(b.frame.head(MAX_TABLE_ROWS))
            hint = " (A wide table: scroll it sideways.)" if wide else ""
            out.append(f'<p class="caption">{inline_md(b.caption)}{hint}</p>'
                       f"{html_table(b.frame)}")
        elif isinstance(b, Figure):
            data = base64.b64encode((out_dir / b.file_name).read_bytes()).decode("ascii")
            size = (f' width="{b.width_px}" height="{b.height_px}"'
                    f' data-min-text-px="{b.min_text_px:.1f}"' if b.width_px else "")
            out.append(f'<figure><img alt="{html.escape(b.caption.split(".")[0])}"{size} '
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
    """Estimates with interval bars, one row per label (the first label on top), a line at 0."""
    y = np.arange(len(labels))[::-1]
    ax.errorbar(est, y, xerr=error_bars(est, low, high), fmt="o", color=colour,
                ecolor="#333", capsize=4, clip_on=False)
    ax.axvline(0, color="#999", lw=1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_xlabel(xlabel)


def rate_limits(*values: Any, pad: float = 0.04) -> tuple[float, float]:
    """Axis limits for rates: from 0 to the largest of ``values`` (e.g. interval highs and the
    baseline), with a margin on both sides so that markers at 0 or at the top are not cut."""
    top = max([float(np.nanmax(np.asarray(v, dtype=np.float64))) for v in values] + [0.05])
    top = min(1.0, top * 1.05)
    return -pad * top, top * (1 + pad)


def integer_axis(axis: Any) -> None:
    """Ticks at whole numbers only (for counts)."""
    axis.set_major_locator(MaxNLocator(integer=True))
