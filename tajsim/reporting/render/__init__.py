"""The rendering toolkit of the reports, all re-exported here: blocks (headings, paragraphs,
tables, figures) that render to both Markdown and self-contained HTML, the
:class:`ReportContext` that sections write into, and the formatting and plotting helpers every
section shares. One module a job:
``blocks`` (the blocks and ``ReportContext``), ``pages`` (Markdown and HTML pages), ``tables``
(cells, tables, CSV), ``figures`` (style, page size, PNGs, plotting helpers), ``wording``.

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

from tajsim.reporting.render.blocks import (
    Block,
    Bullets,
    Contents,
    Figure,
    Heading,
    Para,
    ReportContext,
    Table,
    anchor,
    front_matter,
    short_finding,
)
from tajsim.reporting.render.figures import (
    BASELINE_COLOUR,
    DPI,
    MIN_FONT_PT,
    MIN_TEXT_PX,
    PAGE_WIDTH_IN,
    PAGE_WIDTH_PX,
    PART_COLOURS,
    REPORT_STYLE,
    SERIES_COLOURS,
    SERIES_MARKERS,
    error_bars,
    errorbar_panel,
    integer_axis,
    panel_grid,
    rate_limits,
    report_style,
    save_png,
    series_colour,
    series_marker,
    smallest_font_pt,
)
from tajsim.reporting.render.pages import (
    CSS,
    inline_md,
    render_html,
    render_markdown,
)
from tajsim.reporting.render.tables import (
    CSV_SIGNIFICANT_DIGITS,
    MAX_TABLE_ROWS,
    format_cell,
    html_table,
    is_wide,
    markdown_table,
    pct,
    round_significant,
    signed,
    unsigned_zero,
    write_csv,
)
from tajsim.reporting.render.wording import (
    describe_simulation,
    facet_groups,
    group_label,
    join_words,
    n_games,
    setup_keys,
)

__all__ = [
    "BASELINE_COLOUR",
    "Block",
    "Bullets",
    "CSS",
    "CSV_SIGNIFICANT_DIGITS",
    "Contents",
    "DPI",
    "Figure",
    "Heading",
    "MAX_TABLE_ROWS",
    "MIN_FONT_PT",
    "MIN_TEXT_PX",
    "PAGE_WIDTH_IN",
    "PAGE_WIDTH_PX",
    "PART_COLOURS",
    "Para",
    "REPORT_STYLE",
    "ReportContext",
    "SERIES_COLOURS",
    "SERIES_MARKERS",
    "Table",
    "anchor",
    "describe_simulation",
    "error_bars",
    "errorbar_panel",
    "facet_groups",
    "format_cell",
    "front_matter",
    "group_label",
    "html_table",
    "inline_md",
    "integer_axis",
    "is_wide",
    "join_words",
    "markdown_table",
    "n_games",
    "panel_grid",
    "pct",
    "rate_limits",
    "render_html",
    "render_markdown",
    "report_style",
    "round_significant",
    "save_png",
    "series_colour",
    "series_marker",
    "setup_keys",
    "short_finding",
    "signed",
    "smallest_font_pt",
    "unsigned_zero",
    "write_csv",
]
