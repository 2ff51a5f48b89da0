"""The Markdown + HTML report of a results frame, for any registered game.

:func:`build_report` runs the sections the data supports (the generic ones and the game's own,
:func:`tajsim.reporting.sections.sections_for`) and writes, into ``out_dir``:

* ``report.md`` — headings, short findings, Markdown tables and the figures (relative links);
* ``report.html`` — the same content, self-contained (CSS inline, PNGs embedded as base64);
* ``fig_*.png`` — one PNG per figure; every figure has a caption saying what was simulated
  (strategies, players, edition, seed, number of games);
* ``table_*.csv`` — the full analysis tables behind the report (the report shows excerpts).

The figures are drawn for the HTML column (none wider, so none is shrunk and their text stays
readable) and every file is byte-stable: CSV floats rounded to 6 significant digits, PNGs under
one fixed style without version metadata, LF line ends (:mod:`tajsim.reporting.render`).

Sections the data cannot support are skipped with one sentence saying why (e.g. setup balance
when every game has its own setup; ratings with a single strategy). The analyses come from an
:class:`~tajsim.analysis.registry.AnalysisCache`: pass the run's cache and nothing it already
computed is computed again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.analysis.registry import AnalysisCache
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.reporting.render import (
    Block,
    Figure,
    Heading,
    Para,
    ReportContext,
    Table,
    front_matter,
    markdown_table,
    render_html,
    render_markdown,
    report_style,
)
from tajsim.reporting.sections import ON_REQUEST_SECTIONS, caveats_for, sections_for
from tajsim.running.run_files import atomic_write

__all__ = ["REQUIRED_COLUMNS", "build_report", "markdown_table", "write_report_files"]

#: Columns without which no report can be written.
REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "score", "rank", "winner")


def _add_caveats(ctx: ReportContext, first: int, notes: list[str], section: str) -> None:
    """Say the data caveats wherever they touch the numbers: at the end of the overview, and
    under the heading of every other section that shows a table or a figure (not a section about
    the caveat itself: the caveat's text names it as `section`)."""
    if not notes or len(ctx.blocks) == first:
        return
    if section == "overview":
        ctx.blocks.append(Para("**Data caveat.** " + " ".join(notes)))
        return
    shows_numbers = any(isinstance(b, (Table, Figure)) for b in ctx.blocks[first:])
    shown = [n for n in notes if f"`{section}`" not in n]
    if shown and shows_numbers and isinstance(ctx.blocks[first], Heading):
        ctx.blocks.insert(first + 1, Para("**Note.** " + " ".join(shown)))


def build_report(
    results: pd.DataFrame,
    out_dir: str | Path,
    *,
    title: str = "tajsim report",
    config: dict[str, Any] | None = None,
    sections: Sequence[str] | None = None,
    game: str | GameSpec | None = None,
    cache: AnalysisCache | None = None,
    board_components: Any = None,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Write the report of ``results`` into ``out_dir``.

    Parameters
    ----------
    results : DataFrame
        Results frame (docs/results-schema.md); at least :data:`REQUIRED_COLUMNS`. An optional
        ``variant`` column (component-data variant label) adds the robustness section.
    out_dir : str or Path
        Created if needed; existing ``fig_*``/``table_*`` files of the same names are replaced,
        each file whole or not at all (a full disk leaves the old one; ``OSError``). Whose
        folder it is, is the caller's check (:mod:`tajsim.reporting.outputs`).
    title : str
    config : dict, optional
        Run configuration (experiment ``name``, ``seed``, ...): shown in the overview and used
        in the figure captions.
    sections : sequence of str, optional
        Subset of the game's sections (default: all the data supports).
    game : str, optional
        The game the results come from (default Taj Mahal).
    cache : AnalysisCache, optional
        The analyses the run already computed on these results (reused, and filled).
    board_components : optional
        Components for the board pictures (default: the game's shipped ones).
    progress : callable, optional
        Receives one line per section as it is computed ("report: section 3 of 17:
        seat_advantage"), for commands to show on stderr.

    Returns
    -------
    Path
        ``out_dir / "report.md"`` (``report.html`` lies beside it).

    Raises
    ------
    ValueError
        Missing required columns, unknown section names, or an empty frame.
    """
    spec = get_game(game)
    missing = [c for c in REQUIRED_COLUMNS if c not in results.columns]
    if missing:
        raise ValueError(f"results lack columns {', '.join(missing)}; expected the results "
                         "schema (docs/results-schema.md)")
    if results.empty:
        raise ValueError("results are empty; expected at least one game")
    available = sections_for(spec)
    chosen = ([s for s in available if s not in ON_REQUEST_SECTIONS] if sections is None
              else list(sections))
    unknown = [s for s in chosen if s not in available]
    if unknown:
        raise ValueError(f"unknown report sections {unknown}; expected some of "
                         f"{', '.join(available)}")
    frame = results.reset_index(drop=True)
    if cache is None or cache.results is not results:
        cache = AnalysisCache(frame, spec)
    else:
        cache.results = frame  # same rows; the sections index it from 0
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ctx = ReportContext(results=frame, out_dir=out, config=dict(config or {}),
                        components=board_components, spec=spec, cache=cache)
    notes = caveats_for(spec)(frame)
    run = [name for name in available if name in chosen]
    with report_style():  # the same figures whatever the user's matplotlib style
        for number, name in enumerate(run, start=1):
            if progress is not None:  # a long report is not silent
                progress(f"report: section {number} of {len(run)}: {name}")
            first = len(ctx.blocks)
            available[name][0](ctx)
            _add_caveats(ctx, first, notes, name)
    # The summary of the sections' headline statements and the contents go first.
    ctx.blocks[:0] = front_matter(ctx.blocks, ctx.findings)
    return write_report_files(out, title, ctx.blocks)


def write_report_files(out: Path, title: str, blocks: list[Block]) -> Path:
    """Write ``report.md`` and ``report.html`` of ``blocks`` into ``out`` (the figures lie there
    already); returns the Markdown file's path."""
    md_path = out / "report.md"
    # Each file appears whole or not at all (a full disk leaves the old one), with "\n" line
    # ends: the same bytes on every platform.
    atomic_write(md_path, render_markdown(title, blocks).encode("utf-8"))
    atomic_write(out / "report.html", render_html(title, blocks, out).encode("utf-8"))
    return md_path
