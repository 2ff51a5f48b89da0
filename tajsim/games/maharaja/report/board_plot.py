"""Pictures of a Maharaja board (matplotlib): cities, the start, roads and their villages.

* :func:`draw_board` draws the board; given ``village_values`` (one number per village) it
  colours the villages as a heat map; given a game ``state`` it adds what stands on the board:
  the houses in villages and cities, the palaces on their sites, the architects and the
  Maharaja.
* :func:`toll_heatmap` is the board with each village coloured by the mean tolls earned there
  per game, from a results frame.

``tajsim board show --game maharaja`` draws :func:`draw_board` of the components (the spec's
``board_picture``); the report draws the toll heat map and the final board of a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tajsim.games.maharaja.analyses import village_value
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import Components, default_components
from tajsim.games.maharaja.play.records import slug

__all__ = ["SEAT_COLOURS", "draw_board", "save_board", "toll_heatmap", "toll_values"]

#: One colour per seat (none of the board's own colours: red cities, brown roads, the heat map).
SEAT_COLOURS = ("#1f5fa8", "#2e9a47", "#8a4fb0", "#e08a00", "#17a5b8")
#: Default width (inches): fits the report's 9.5-inch column without being scaled down; the
#: height follows the map's shape.
WIDTH = 9.4
#: Outer palace sites drawn on a ring of this radius (map units) around their city.
SITE_RADIUS = 0.3
#: Map units from a city's centre to its row of architects (above) and of houses (below).
ROW_OFFSET = 0.5


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def draw_board(components: Components | None = None,
               village_values: Sequence[float] | None = None, title: str | None = None,
               label_villages: bool = True, value_label: str | None = None,
               state: np.ndarray | None = None, seat_labels: Sequence[str] | None = None,
               width: float = WIDTH) -> Any:
    """Draw the board; returns the matplotlib Figure.

    Parameters
    ----------
    components : the board (default: the shipped one)
    village_values : one number per village (board order): a heat map, each village labelled
        with its value; ``value_label`` names it on the colour bar
    title : the figure's title (default: the board's name)
    label_villages : write the villages' names
    state : a game state (``Game.state``): draw its houses, palaces, architects and Maharaja
    seat_labels : one legend entry per seat (default "seat 0" ...), with ``state``
    width : inches (the height follows the map)
    """
    plt = _pyplot()
    comps = components or default_components()
    xy = comps.junction_xy
    vxy = comps.village_xy
    pad = 0.8
    top = pad + (0.5 if state is not None else 0.2)  # room for the city names (and rows)
    span = xy.max(axis=0) - xy.min(axis=0) + np.array([2 * pad, pad + top])
    map_width = width - (2.2 if village_values is not None else 1.0)
    height = map_width * span[1] / span[0] + 1.1 + (0.6 if state is not None else 0.0)
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    for r in range(comps.n_roads):
        a, b = comps.roads[r]
        ax.plot([xy[a, 0], xy[b, 0]], [xy[a, 1], xy[b, 1]], color="#b08850", lw=2.5,
                zorder=1)
    values = None if village_values is None else np.asarray(village_values, float)
    if values is not None:
        sc = ax.scatter(vxy[:, 0], vxy[:, 1], c=values, cmap="YlOrRd", s=170,
                        edgecolors="black", zorder=3, vmin=0)
        fig.colorbar(sc, ax=ax, shrink=0.75, label=value_label or title or "value")
    else:
        ax.scatter(vxy[:, 0], vxy[:, 1], s=90, color="#f3e3c3", edgecolors="#7a5a2a",
                   zorder=3)
    cities = xy[:E.N_CITIES]
    # Over a heat map the cities turn slate: red squares would read as values.
    ax.scatter(cities[:, 0], cities[:, 1], s=520, marker="s",
               color="#c0392b" if values is None else "#4a5a6a", edgecolors="black", zorder=5)
    above = ROW_OFFSET + 0.22 if state is not None else 0.2
    for c, name in enumerate(comps.city_names):
        ax.annotate(name, (cities[c, 0], cities[c, 1] + above), ha="center", va="bottom",
                    fontsize=10.5, weight="bold", zorder=6,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                          "alpha": 0.7})
    ax.scatter([xy[E.START, 0]], [xy[E.START, 1]], s=400, marker="*", color="#2c3e50",
               zorder=5)
    # The start is named as the tables name it (its board name), "(start)" saying what it is.
    ax.annotate(f"{comps.start_name} (start)", xy[E.START], xytext=(0, -20),
                textcoords="offset points", ha="center", fontsize=9.5, style="italic")
    if state is not None:
        _draw_state(ax, comps, np.asarray(state), seat_labels)
    ax.set_title(title or comps.name, fontsize=10.5)
    ax.set_aspect("equal")
    ax.set_xlabel("longitude (reconstructed map)")
    ax.set_ylabel("latitude")
    ax.set_xlim(xy[:, 0].min() - pad, xy[:, 0].max() + pad)
    ax.set_ylim(xy[:, 1].min() - pad, xy[:, 1].max() + top)
    if label_villages:  # last: each name goes where it covers no other name or piece
        texts = [name if values is None else f"{name} {values[v]:.1f}"
                 for v, name in enumerate(comps.village_names)]
        place_labels(ax, vxy, texts, fontsize=7.5, color="#5a4020", zorder=4)
    return fig


#: Where a village's name may go, tried in this order: (dx, dy) in points, ha, va.
_LABEL_SPOTS = ((0, -7, "center", "top"), (0, 7, "center", "bottom"),
                (8, 0, "left", "center"), (-8, 0, "right", "center"),
                (6, -5, "left", "top"), (-6, -5, "right", "top"),
                (6, 5, "left", "bottom"), (-6, 5, "right", "bottom"))


def place_labels(ax: Any, anchors: np.ndarray, texts: Sequence[str], **style: Any) -> list[Any]:
    """Write ``texts[i]`` beside ``anchors[i]`` (float64[n, 2], data units) at the first spot
    of :data:`_LABEL_SPOTS` where it overlaps no text already on the axes, no marker and no
    label placed before it (else where it overlaps least); returns the annotations."""
    fig = ax.figure
    fig.canvas.draw()  # the layout fixes where everything lies on the canvas
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer).padded(1.5) for t in ax.texts if t.get_text()]
    to_px = fig.dpi / 72.0
    for collection in ax.collections:  # markers: a square box of each point's size
        points = ax.transData.transform(np.asarray(collection.get_offsets(), np.float64))
        sizes = np.broadcast_to(np.asarray(collection.get_sizes(), np.float64),
                                (len(points),)) if len(collection.get_sizes()) else \
            np.full(len(points), 36.0)
        for (x, y), size in zip(points, sizes):
            r = 0.5 * np.sqrt(size) * to_px
            boxes.append(_Box(x - r, y - r, x + r, y + r))
    placed = []
    for anchor, text in zip(np.asarray(anchors, np.float64), texts):
        best, best_overlap = None, np.inf
        for dx, dy, ha, va in _LABEL_SPOTS:
            label = ax.annotate(text, anchor, xytext=(dx, dy), textcoords="offset points",
                                ha=ha, va=va, **style)
            box = label.get_window_extent(renderer)
            overlap = sum(_overlap(box, other) for other in boxes)
            if overlap < best_overlap:
                if best is not None:
                    best[0].remove()
                best, best_overlap = (label, box), overlap
            else:
                label.remove()
            if overlap == 0:
                break
        assert best is not None
        boxes.append(best[1])
        placed.append(best[0])
    return placed


class _Box:
    """An axis-aligned box in canvas pixels (x0, y0, x1, y1), like a matplotlib Bbox."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.x0, self.y0, self.x1, self.y1 = x0, y0, x1, y1


def _overlap(a: Any, b: Any) -> float:
    """The area (square pixels) two boxes share."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return float(w * h) if w > 0 and h > 0 else 0.0


def _draw_state(ax: Any, comps: Components, state: np.ndarray,
                seat_labels: Sequence[str] | None) -> None:
    """Houses (small squares beside their village or in a row under their city), palaces (the
    centre site on the city, the outer sites on a ring around it; white = free, grey = a
    neutral palace), architects (triangles in a row above their junction) and the Maharaja (a
    gold ring round his city)."""
    from matplotlib.lines import Line2D

    n = int(state[E.S_N_PLAYERS])
    xy = comps.junction_xy
    vxy = comps.village_xy
    step = 0.085  # map units between two house squares
    for v in range(E.N_VILLAGES):
        k = 0
        for p in range(n):
            for _ in range(int(state[E.S_HOUSES + v * E.MAX_PLAYERS + p])):
                ax.scatter([vxy[v, 0] + 0.13 + k * step], [vxy[v, 1] + 0.1], s=26, marker="s",
                           color=SEAT_COLOURS[p], edgecolors="black", linewidths=0.5,
                           zorder=7)
                k += 1
    for c in range(E.N_CITIES):
        loc = E.LOC_CITY + c
        houses = [p for p in range(n)
                  for _ in range(int(state[E.S_HOUSES + loc * E.MAX_PLAYERS + p]))]
        for k, p in enumerate(houses):
            ax.scatter([xy[c, 0] + step * (k - (len(houses) - 1) / 2)], [xy[c, 1] - ROW_OFFSET],
                       s=26, marker="s", color=SEAT_COLOURS[p], edgecolors="black",
                       linewidths=0.5, zorder=7)
        for site in range(E.N_SITES):
            owner = int(state[E.S_SITE + c * E.N_SITES + site])
            colour = (SEAT_COLOURS[owner] if owner >= 0 else "#9a9a9a"
                      if owner == E.SITE_NEUTRAL else "white")
            if site == E.SITE_CENTRE:
                pos, size, marker = xy[c], 150, "p"
            else:
                angle = np.pi / 2 + 2 * np.pi * (site - 1) / (E.N_SITES - 1) + np.pi / 6
                pos = xy[c] + SITE_RADIUS * np.array([np.cos(angle), np.sin(angle)])
                size, marker = 70, "p"
            ax.scatter([pos[0]], [pos[1]], s=size, marker=marker, color=colour,
                       edgecolors="black", linewidths=0.7, zorder=8)
    here: dict[int, list[int]] = {}
    for p in range(n):
        j = int(state[E.S_ARCH + p])
        if 0 <= j < E.N_JUNCTIONS:
            here.setdefault(j, []).append(p)
    for j, seats in here.items():
        for k, p in enumerate(seats):
            ax.scatter([xy[j, 0] + 0.12 * (k - (len(seats) - 1) / 2)], [xy[j, 1] + ROW_OFFSET],
                       s=70, marker="^", color=SEAT_COLOURS[p], edgecolors="black",
                       linewidths=0.6, zorder=9)
    maharaja = int(state[E.S_MAHARAJA])
    if 0 <= maharaja < E.N_CITIES:
        ax.scatter([xy[maharaja, 0]], [xy[maharaja, 1]], s=1500, facecolors="none",
                   edgecolors="#d4a017", linewidths=2.5, zorder=4)
    labels = list(seat_labels or [f"seat {p}" for p in range(n)])
    handles = [Line2D([], [], ls="none", marker="s", markersize=8, color=SEAT_COLOURS[p],
                      markeredgecolor="black", label=labels[p]) for p in range(n)]
    handles += [
        Line2D([], [], ls="none", marker="p", markersize=9, color="white",
               markeredgecolor="black", label="palace site (free)"),
        Line2D([], [], ls="none", marker="p", markersize=9, color="#9a9a9a",
               markeredgecolor="black", label="neutral palace"),
        Line2D([], [], ls="none", marker="^", markersize=8, color="#777",
               markeredgecolor="black", label="architect"),
        Line2D([], [], ls="none", marker="o", markersize=14, markerfacecolor="none",
               markeredgecolor="#d4a017", markeredgewidth=2, label="the Maharaja"),
    ]
    ax.figure.legend(handles=handles, loc="outside lower center", ncol=min(5, len(handles)),
                     frameon=False, fontsize=8.5)


def save_board(path: str | Path, components: Components | None = None, **kwargs: Any) -> Path:
    """Draw the board and save it (PNG, SVG ... by the suffix)."""
    plt = _pyplot()
    fig = draw_board(components, **kwargs)
    out = Path(path)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def toll_values(table: pd.DataFrame, components: Components | None = None) -> np.ndarray:
    """The ``mean`` column of a :func:`village_value` table in the board's village order
    (0 for a village the table lacks)."""
    comps = components or default_components()
    by_name = table.set_index("village")["mean"]
    return np.array([float(by_name.get(slug(name), 0.0)) for name in comps.village_names])


def toll_heatmap(results: pd.DataFrame, components: Components | None = None,
                 title: str | None = None, table: pd.DataFrame | None = None) -> Any:
    """The board with each village coloured (and labelled) by the mean tolls earned there per
    game, from a results frame with the ``tolls_<village>`` columns (or a ready
    :func:`village_value` ``table``); returns the Figure."""
    comps = components or default_components()
    table = village_value(results) if table is None else table
    n = int(table["n"].max()) if len(table) else 0
    return draw_board(comps, village_values=toll_values(table, comps),
                      title=title or f"Tolls earned per game in each village (n = {n:,} games)",
                      value_label="mean tolls earned per game (gold)")
