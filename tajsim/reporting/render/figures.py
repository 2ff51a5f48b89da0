"""Report figures: colours, the page width and resolution a figure is drawn for, the fixed
matplotlib style, panel grids, byte-stable PNGs and the plotting helpers the sections share."""

from __future__ import annotations

import io
import math
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

if "matplotlib.pyplot" not in sys.modules:  # no screen needed
    matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.text import Text
from matplotlib.ticker import MaxNLocator

from tajsim.running.run_files import atomic_write

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

PART_COLOURS = ("#8c6d31", "#b5524b", "#d9a441", "#6b8e4e", "#7b68a6", "#4f7fa8", "#c77d4e",
                "#5f9ea0", "#9c6b98", "#7a7a52")
#: Colours of a figure's series (levels, variants); past ten, :func:`series_marker` gives the
#: series a new marker shape.
SERIES_COLOURS = ("#4f7fa8", "#b5524b", "#6a9b5a", "#8a6bb0", "#c58a2b",
                  "#3f9c9c", "#7a7a7a", "#c9709f", "#8c8a2e", "#2f3f6f")
SERIES_MARKERS = ("o", "s", "^", "D")
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


def series_colour(j: int) -> str:
    """The j-th series' colour (cycled through :data:`SERIES_COLOURS`)."""
    return SERIES_COLOURS[j % len(SERIES_COLOURS)]


def series_marker(j: int) -> str:
    """The j-th series' marker: a new shape each time the colours start again."""
    return SERIES_MARKERS[j // len(SERIES_COLOURS) % len(SERIES_MARKERS)]


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
