"""What Maharaja's report sections share: the groups' colours, reading the components and the
results (what varies, what players and games are compared by), skipping a section whose
analyses lack columns, interval text, and the side-by-side interval panel with its legend.

Grouping: when the results hold several variants (rule options, boards) the sections compare
the variants (all strategies together); with several player counts they compare the strategies
within each player count; otherwise the strategies.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index
from tajsim.analysis.registry import missing_columns
from tajsim.games.maharaja.analyses.seat_cards import CARD_SLUGS
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import Components, default_components
from tajsim.games.maharaja.play.records import slug
from tajsim.reporting.render import (
    ReportContext,
    error_bars,
    group_label,
    series_colour,
)

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
                    color=series_colour(i), ecolor="#444", elinewidth=0.9,
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
