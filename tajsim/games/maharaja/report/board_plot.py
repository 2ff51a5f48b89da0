"""A matplotlib picture of a Maharaja board: cities, the start, roads and their villages.

``draw_board(components)`` returns a figure; ``village_values`` (optional, one number per
village) colours the villages as a heat map (e.g. tolls earned), ``title`` names it. Used by
``tajsim board show --game maharaja`` once the lead wires the wing in.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tajsim.games.maharaja.analyses import village_value
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import Components, default_components
from tajsim.games.maharaja.play.records import slug

__all__ = ["draw_board", "save_board", "toll_heatmap"]


def draw_board(components: Components | None = None,
               village_values: Sequence[float] | None = None, title: str | None = None,
               label_villages: bool = True):
    """Draw the board; returns the matplotlib Figure."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    comps = components or default_components()
    xy = comps.junction_xy
    fig, ax = plt.subplots(figsize=(10, 7))
    for r in range(comps.n_roads):
        a, b = comps.roads[r]
        ax.plot([xy[a, 0], xy[b, 0]], [xy[a, 1], xy[b, 1]], color="#b08850", lw=2.5,
                zorder=1)
    vxy = comps.village_xy
    if village_values is not None:
        vals = np.asarray(village_values, float)
        sc = ax.scatter(vxy[:, 0], vxy[:, 1], c=vals, cmap="YlOrRd", s=160,
                        edgecolors="black", zorder=3)
        fig.colorbar(sc, ax=ax, shrink=0.7, label=title or "value")
    else:
        ax.scatter(vxy[:, 0], vxy[:, 1], s=90, color="#f3e3c3", edgecolors="#7a5a2a",
                   zorder=3)
    if label_villages:
        for v, name in enumerate(comps.village_names):
            ax.annotate(name, vxy[v], xytext=(0, -12), textcoords="offset points",
                        ha="center", fontsize=7, color="#5a4020", zorder=4)
    cities = xy[:E.N_CITIES]
    ax.scatter(cities[:, 0], cities[:, 1], s=520, marker="s", color="#c0392b",
               edgecolors="black", zorder=5)
    for c, name in enumerate(comps.city_names):
        ax.annotate(name, cities[c], xytext=(0, 14), textcoords="offset points", ha="center",
                    fontsize=11, weight="bold", zorder=6)
    ax.scatter([xy[E.START, 0]], [xy[E.START, 1]], s=400, marker="*", color="#2c3e50",
               zorder=5)
    ax.annotate(f"{comps.start_name} (start)", xy[E.START], xytext=(0, -18),
                textcoords="offset points", ha="center", fontsize=10, style="italic")
    ax.set_title(title or comps.name, fontsize=11)
    ax.set_aspect("equal")
    ax.set_xlabel("longitude (reconstructed map)")
    ax.set_ylabel("latitude")
    pad = 0.8
    ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
    ax.set_ylim(xy[:, 1].min() - pad, xy[:, 1].max() + pad)
    fig.tight_layout()
    return fig


def save_board(path: str | Path, components: Components | None = None, **kwargs) -> Path:
    """Draw the board and save it (PNG, SVG ... by the suffix)."""
    import matplotlib.pyplot as plt

    fig = draw_board(components, **kwargs)
    out = Path(path)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def toll_heatmap(results, components: Components | None = None, title: str | None = None):
    """The board with each village coloured by the mean tolls earned there per game (from a
    results frame with the ``tolls_<village>`` columns); returns the Figure."""
    comps = components or default_components()
    table = village_value(results).set_index("village")
    values = [float(table.loc[slug(name), "mean"]) if slug(name) in table.index else 0.0
              for name in comps.village_names]
    return draw_board(comps, village_values=values,
                      title=title or "tolls earned per game, by village")
