"""Pictures of the Maharani palace (matplotlib): the board of a game and heat maps over spaces.

* :func:`draw_palace`: the palace with its column marks, and, given a state, every laid tile in
  its colour with its arrow, and the artisans;
* :func:`draw_space_values`: one number per space as a heat map (any per-space statistic);
* :func:`gold_heatmap`: where gold is made: the mean zone + group gold earned by laying a tile on
  each space, over the setup records of many games (``SETUP_DTYPE["space_gold"]``).

``tajsim board show --game maharani`` draws :func:`draw_palace` of the components (the spec's
``board_picture``); the report's palace section draws a final board and the heat map.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import Components

__all__ = ["draw_palace", "draw_space_values", "gold_heatmap", "space_gold_means"]

# Matplotlib colours for the tile colour names of the shipped file (others: a fixed cycle).
TILE_COLOURS = {"blue": "#2b5cab", "orange": "#f08a24", "green": "#3c9a4a",
                "purple": "#7b3f9e", "red": "#c7352b", "yellow": "#e8c21f"}
FALLBACK = ("#2b5cab", "#f08a24", "#3c9a4a", "#7b3f9e", "#c7352b", "#e8c21f")
ARTISAN_COLOURS = ("#d62728", "#2ca02c", "#1f77b4", "#ffdd00")
#: Radius of a column mark (grid units): small enough to leave a space's id readable below it.
MARK_RADIUS = 0.1


def _figure(ax: Any, size: float = 7.0) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(size, size), layout="constrained")
    else:
        fig = ax.figure
    ax.set_aspect("equal")
    ax.set_xlim(-0.6, E.GRID + 0.6)
    ax.set_ylim(E.GRID + 0.6, -0.6)
    ax.axis("off")
    return fig, ax


def _tile_colour(components: Components, colour: int) -> str:
    name = components.colour_names[colour]
    return TILE_COLOURS.get(name, FALLBACK[colour % len(FALLBACK)])


def _frame(ax: Any, components: Components, n_players: int | None) -> None:
    from matplotlib.patches import Rectangle

    half = E.GRID / 2
    for a, b in ((0, half - 1), (half + 1, E.GRID)):  # quarter borders, not across the turntable
        ax.plot([half, half], [a, b], color="black", lw=2.5)
        ax.plot([a, b], [half, half], color="black", lw=2.5)
    ax.add_patch(Rectangle((half - 1, half - 1), 2, 2, fill=True, color="#d9cfb8", zorder=0))
    ax.text(half, half, "turntable", ha="center", va="center", fontsize=8)
    for q in range(E.N_QUARTERS):
        s = components.quarter_spaces(q)
        r, c = components.space_row[s].mean(), components.space_col[s].mean()
        r = -0.35 if r < half else E.GRID + 0.35
        ax.text(c + 0.5, r, f"{q + 1} {components.quarter_names[q]}", ha="center",
                va="center", fontsize=9, weight="bold")
    if n_players:
        sides = components.seat_sides[n_players]
        where = {E.DIR.N: (half, -0.35, "center"), E.DIR.S: (half, E.GRID + 0.35, "center"),
                 E.DIR.W: (-0.1, half, "right"), E.DIR.E: (E.GRID + 0.1, half, "left")}
        for p, side in enumerate(sides):
            x, y, ha = where[side]
            ax.text(x, y, f"P{p}", ha=ha, va="center", fontsize=11, weight="bold",
                    color=ARTISAN_COLOURS[2 * p if n_players == 2 else p])


def _marks(ax: Any, components: Components, s: int) -> None:
    from matplotlib.patches import Circle, Wedge

    r, c = int(components.space_row[s]), int(components.space_col[s])
    marks = int(components.space_marks[s])
    if marks & E.MARK_CENTRE:
        ax.add_patch(Circle((c + 0.5, r + 0.5), MARK_RADIUS, color="black", zorder=3))
    # half columns: a half disc on the edge, inside the space
    centres = {0: (c + 0.5, r, 180, 360), 1: (c + 1, r + 0.5, 90, 270),
               2: (c + 0.5, r + 1, 0, 180), 3: (c, r + 0.5, 270, 90)}
    for d in range(4):
        if marks >> d & 1:
            x, y, t1, t2 = centres[d]
            ax.add_patch(Wedge((x, y), MARK_RADIUS, t1, t2, color="black", zorder=3))


def _legend(fig: Any, with_tiles: bool, with_artisans: bool) -> None:
    """What the palace's marks mean (and, with tiles, their arrows; the artisans when any is
    drawn), below the picture."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], ls="none", marker="o", markersize=8, color="black",
               label="central column"),
        Line2D([], [], ls="none", marker="o", markersize=8, color="black", fillstyle="bottom",
               markerfacecoloralt="white", label="half column (on that edge)"),
    ]
    if with_tiles:
        handles += [
            Line2D([], [], ls="none", marker=r"$\rightarrow$", markersize=12, color="#555",
                   label="the tile's arrow"),
        ]
    if with_artisans:
        handles.append(Line2D([], [], ls="none", marker="o", markersize=8,
                              color=ARTISAN_COLOURS[0], markeredgecolor="black",
                              label="artisan (seat colour)"))
    if not with_tiles:
        handles.append(Line2D([], [], ls="none", marker="s", markersize=9, color="#f4efe4",
                              markeredgecolor="#7a6a55", label="space (its id)"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), frameon=False,
               fontsize=8.5)


def draw_palace(components: Components, state: np.ndarray | None = None, ax: Any = None,
                title: str | None = None) -> Any:
    """The palace (and the tiles and artisans of ``state``, if given). Returns the figure."""
    from matplotlib.patches import Circle, FancyArrow, Rectangle

    fig, ax = _figure(ax)
    n_players = int(state[E.S_N_PLAYERS]) if state is not None else None
    artisans = False  # whether any artisan stands on the board (then the legend names them)
    for s in range(components.n_spaces):
        r, c = int(components.space_row[s]), int(components.space_col[s])
        t = int(state[E.S_SPACE_TILE + s]) if state is not None else -1
        face = "#f4efe4" if t < 0 else _tile_colour(components, int(components.tile_colour[t]))
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="#7a6a55", lw=0.8))
        _marks(ax, components, s)
        if t >= 0:
            arrow = int(state[E.S_SPACE_ARROW + s])
            dx, dy = E.DIR_DC[arrow] * 0.28, E.DIR_DR[arrow] * 0.28
            ax.add_patch(FancyArrow(c + 0.5 - dx, r + 0.5 - dy, 2 * dx, 2 * dy, width=0.05,
                                    head_width=0.16, head_length=0.12, color="white",
                                    length_includes_head=True, zorder=4))
            a = int(state[E.S_SPACE_ARTISAN + s])
            if a >= 0:
                artisans = True
                ax.add_patch(Circle((c + 0.78, r + 0.78), 0.13, facecolor=ARTISAN_COLOURS[a],
                                    edgecolor="black", zorder=5))
        else:
            # Between the central mark and the lower edge's half column: both stay clear.
            ax.text(c + 0.5, r + 0.72, components.space_ids[s], ha="center", va="center",
                    fontsize=7.5, color="#7a6a55")
    _frame(ax, components, n_players)
    _legend(fig, state is not None, artisans)
    if title:
        ax.set_title(title)
    return fig


def draw_space_values(components: Components, values: np.ndarray, ax: Any = None,
                      title: str | None = None, cmap: str = "magma_r",
                      fmt: str = "{:.1f}") -> Any:
    """A heat map of ``values`` (float, shape (n_spaces,)) over the palace, each space labelled
    with its value. Returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    values = np.asarray(values, float)
    if values.shape != (components.n_spaces,):
        raise ValueError(f"values has shape {values.shape}, expected ({components.n_spaces},)")
    fig, ax = _figure(ax)
    finite = values[np.isfinite(values)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    norm = plt.Normalize(lo, hi if hi > lo else lo + 1)
    cm = plt.get_cmap(cmap)
    for s in range(components.n_spaces):
        r, c = int(components.space_row[s]), int(components.space_col[s])
        v = values[s]
        face = cm(norm(v)) if np.isfinite(v) else "#dddddd"
        ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="#7a6a55", lw=0.8))
        ax.text(c + 0.5, r + 0.5, fmt.format(v) if np.isfinite(v) else "-", ha="center",
                va="center", fontsize=8, color="black" if norm(v) < 0.6 else "white")
    _frame(ax, components, None)
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cm)
    fig.colorbar(sm, ax=ax, fraction=0.04, pad=0.02)
    if title:
        ax.set_title(title)
    return fig


def space_gold_means(components: Components, setups: np.ndarray) -> np.ndarray:
    """Mean gold (zone + group) made by laying a tile on each space, over games:
    float64, shape (n_spaces,)."""
    gold = np.asarray(setups["space_gold"], float)[:, :components.n_spaces]
    if gold.shape[0] == 0:
        return np.full(components.n_spaces, np.nan)
    return gold.mean(axis=0)


def gold_heatmap(components: Components, setups: np.ndarray, ax: Any = None,
                 title: str | None = None) -> Any:
    """Where gold is made: :func:`space_gold_means` drawn with :func:`draw_space_values`."""
    n = int(np.asarray(setups).shape[0])
    return draw_space_values(components, space_gold_means(components, setups), ax=ax,
                             title=title or f"mean zone + group gold per space (n = {n} games)")
