"""A map of the board: provinces, roads, cities, fortresses, Agra; optional heat overlays.

``plot_board`` draws the provinces as coloured territories (every map point belongs to the
province of the nearest city or road inside a province, up to a distance), roads inside
provinces as solid lines and roads between provinces dashed, cities as dots, fortress cities as
diamonds (they carry the bonus tiles) and Agra as a gold star. Per-city or per-province values
(e.g. a "connection heat map") can replace the colours, with a colour bar.

Selects the Agg backend (no screen) unless pyplot is already imported or ``MPLBACKEND`` is set.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

# No screen needed: Agg, unless pyplot is already set up or the user chose a backend (Jupyter).
if "matplotlib.pyplot" not in sys.modules and "MPLBACKEND" not in os.environ:
    matplotlib.use("Agg")

import matplotlib.colors as mcolors
import matplotlib.patheffects as pe
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.component_files import default_components
from tajsim.games.tajmahal.engine.components import Components

__all__ = ["plot_board", "PROVINCE_COLOURS"]

#: Muted province colours (index = province), in the spirit of the board's cloth patterns.
PROVINCE_COLOURS = (
    "#c9b27c",  # ochre
    "#9fbfd6",  # pale blue
    "#d69f9f",  # rose
    "#b7c98c",  # olive green
    "#e0c08a",  # sand
    "#c7a3c9",  # lilac
    "#8fc7b5",  # teal
    "#e3a57a",  # saffron
    "#a9b3d9",  # periwinkle
    "#e8d27a",  # marigold (Agra)
    "#a8d08d",  # leaf green
    "#d2a9b4",  # mauve
)
_BONUS_STYLE = {  # Bonus kind -> (short text, face colour)
    E.BONUS.RICE: ("rice", "#f3efe2"),
    E.BONUS.TEA: ("tea", "#9ccf8a"),
    E.BONUS.SPICES: ("spice", "#f0a25a"),
    E.BONUS.JEWELS: ("gem", "#8fb3f0"),
    E.BONUS.PLUS2: ("+2", "#f2d35b"),
    E.BONUS.DRAW: ("card", "#d9d9d9"),
    E.BONUS.TAJ4: ("Taj +4", "#ffd24a"),
}
_BONUS_NAMES = ("rice", "tea", "spices", "jewels", "+2 points", "draw a card")
_INK = "#3b3226"
_INTER_ROAD = "#8a2b1d"
_FORTRESS = "#7b2d52"
_PAPER = "#f6f1e4"
_REACH = 1.25  # how far (map units) a territory reaches beyond its cities and roads
_STEP = 0.025  # raster step of the territories


def _values(
    values: Sequence[float] | np.ndarray | Mapping[Any, float] | Any,
    names: tuple[str, ...],
    slugs: tuple[str, ...],
    what: str,
) -> np.ndarray:
    """Values by index: float64, shape (len(names),), NaN where missing.

    Accepts a sequence/array by index (length n, or longer with zero padding as in the packed
    layout), a mapping or pandas Series keyed by name, slug or index.
    """
    n = len(names)
    out = np.full(n, np.nan)
    if hasattr(values, "items"):
        lookup = {**{s: i for i, s in enumerate(slugs)}, **{m: i for i, m in enumerate(names)}}
        for key, v in values.items():
            if isinstance(key, int | np.integer) and 0 <= int(key) < n:
                out[int(key)] = float(v)
            elif key in lookup:
                out[lookup[key]] = float(v)
            else:
                raise ValueError(f"{what}: unknown key {key!r}, expected a name, slug or index")
        return out
    arr = np.asarray(values, dtype=np.float64).ravel()
    if arr.size < n:
        raise ValueError(f"{what}: {arr.size} values, expected {n}")
    return arr[:n].copy()


def _segment_distance(px: np.ndarray, py: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points (px, py) to the segment a-b (same shape as px)."""
    d = b - a
    t = ((px - a[0]) * d[0] + (py - a[1]) * d[1]) / max(float(d @ d), 1e-12)
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(px - (a[0] + t * d[0]), py - (a[1] + t * d[1]))


def _territories(
    c: Components, sx: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[float, float, float, float]]:
    """Raster of provinces.

    Returns label (int64[h, w], province or -1 outside), clearance (float64[h, w], distance to
    the nearest city or road), X, Y (float64[h, w] map coordinates) and the extent.
    """
    xy = c.city_xy
    pad = _REACH + 0.4
    x0, y0 = xy.min(0) - pad
    x1, y1 = xy.max(0) + pad
    xs = np.arange(x0, x1, _STEP)
    ys = np.arange(y0, y1, _STEP)
    X, Y = np.meshgrid(xs, ys)
    best = np.full(X.shape, np.inf)
    label = np.full(X.shape, -1, dtype=np.int64)
    clearance = np.full(X.shape, np.inf)
    margin = _REACH + 0.1

    def window(pts: np.ndarray) -> tuple[slice, slice]:
        lo = np.floor((pts.min(0) - margin - (x0, y0)) / _STEP).astype(int)
        hi = np.ceil((pts.max(0) + margin - (x0, y0)) / _STEP).astype(int) + 1
        return slice(max(lo[1], 0), hi[1]), slice(max(lo[0], 0), hi[0])

    def update(prov: int, pts: np.ndarray, site: bool) -> None:
        win = window(pts)
        px, py = X[win] * sx, Y[win]
        if len(pts) == 1:
            d = np.hypot(px - pts[0, 0] * sx, py - pts[0, 1])
        else:
            a, b = pts[0] * (sx, 1.0), pts[1] * (sx, 1.0)
            d = _segment_distance(px, py, a, b)
        np.minimum(clearance[win], d, out=clearance[win])
        if site:
            closer = d < best[win]
            best[win][closer] = d[closer]
            label[win][closer] = prov

    for city in range(c.n_cities):
        update(int(c.city_province[city]), xy[[city]], True)
    for (a, b), is_inter in zip(c.roads.tolist(), c.inter_province_roads):
        update(int(c.city_province[a]), xy[[a, b]], not is_inter)
    label[best > _REACH] = -1
    return label, clearance, X, Y, (x0, xs[-1], y0, ys[-1])


def _label_points(c: Components, label: np.ndarray, clearance: np.ndarray, px: np.ndarray,
                  py: np.ndarray, sizes: np.ndarray, obstacles: np.ndarray | None = None,
                  sx: float = 1.0) -> np.ndarray:
    """Where to write each province's name: float64, shape (12, 2).

    ``sizes`` (float64, shape (12, 2)) is the width and height of each name in map units. The
    chosen point keeps the whole name box inside the territory if possible, away from roads and
    cities, and near the middle of the province's cities. ``obstacles`` (float64, shape
    (m, 2), map units) are points the name must not cover at all (cities and their names): a
    name may cross a road, but not hide a city.
    """
    from scipy.ndimage import minimum_filter
    from scipy.spatial import cKDTree

    blocked = np.full(px.shape, np.inf)
    if obstacles is not None and len(obstacles):
        tree = cKDTree(np.asarray(obstacles, dtype=np.float64) * (sx, 1.0))
        blocked = tree.query(np.column_stack([px.ravel() * sx, py.ravel()]))[0].reshape(
            px.shape)
    out = np.zeros((c.n_provinces, 2))
    for p in range(c.n_provinces):
        mask = label == p
        w = max(int(sizes[p, 0] / _STEP) | 1, 1)
        h = max(int(sizes[p, 1] / _STEP) | 1, 1)
        inside = minimum_filter(mask.astype(np.uint8), size=(h, w), mode="constant") > 0
        clear = minimum_filter(clearance, size=(h, w), mode="nearest")
        free = minimum_filter(blocked, size=(h, w), mode="nearest")
        centre = c.city_xy[c.province_cities(p)].mean(0)
        score = (3.0 * np.minimum(clear, 0.3) + 10.0 * np.minimum(free, 0.2)
                 - 0.08 * np.hypot(px - centre[0], py - centre[1]))
        score = np.where(inside if inside.any() else mask, score, -np.inf)
        r, k = np.unravel_index(int(np.argmax(score)), score.shape)
        out[p] = (px[r, k], py[r, k])
    return out


def plot_board(
    components: Components | None = None,
    ax: Axes | None = None,
    *,
    city_values: Sequence[float] | np.ndarray | Mapping[Any, float] | None = None,
    province_values: Sequence[float] | np.ndarray | Mapping[Any, float] | None = None,
    cmap: str | mcolors.Colormap = "viridis",
    title: str | None = None,
    show_bonus: bool = False,
    setup_bonus_at: Sequence[int] | np.ndarray | None = None,
    value_label: str | None = None,
    label_cities: str = "fortress",
    value_range: tuple[float, float] | None = None,
    missing_label: str | None = None,
) -> Figure:
    """Draw the board as a map.

    Parameters
    ----------
    components : Components, optional
        Default ``default_components()``.
    ax : matplotlib Axes, optional
        Draw into this axes; default a new 9.5 x 10 inch figure.
    city_values : array-like float, shape (n_cities,) (or longer, padded), or mapping, optional
        Per-city values (keys: city name, slug or index). Cities are drawn as coloured discs
        sized by value, with a colour bar; NaN cities stay plain.
    province_values : array-like float, shape (12,), or mapping, optional
        Per-province values; the territories are coloured by value, with a colour bar.
    cmap : str or Colormap
        Colour map of the overlays.
    title : str, optional
        Default: a summary of the board.
    show_bonus : bool
        Show bonus tiles: the Taj Mahal +4 on Agra and, with ``setup_bonus_at``, the tile on
        each fortress; without it, the mix of square tiles as a note.
    setup_bonus_at : array-like int, shape (n_cities,) or (MAX_CITIES,), optional
        ``enums.Bonus`` kind lying on each city at setup, -1 none (``SETUP_DTYPE.bonus_at``).
        Implies ``show_bonus``.
    value_label : str, optional
        Colour bar label.
    label_cities : {"fortress", "all", "none"}
        Which city names to write (province names are always written).
    value_range : (float, float), optional
        Colour scale of ``province_values`` (default: their minimum and maximum), e.g.
        symmetric around 0 for a diverging colour map.
    missing_label : str, optional
        Legend entry of the grey provinces without a value (NaN) in ``province_values``.

    Returns
    -------
    matplotlib.figure.Figure
    """
    c = default_components() if components is None else components
    if label_cities not in ("fortress", "all", "none"):
        raise ValueError(f"label_cities={label_cities!r}, expected 'fortress', 'all' or 'none'")
    if ax is None:
        fig, ax = plt.subplots(figsize=(9.5, 10), layout="constrained", facecolor="white")
    fig = ax.figure
    xy = c.city_xy
    lat0 = float(np.mean(xy[:, 1]))
    sx = float(np.cos(np.deg2rad(lat0))) if 0 < abs(lat0) < 80 else 1.0
    colormap = plt.get_cmap(cmap) if isinstance(cmap, str) else cmap

    # Territories.
    label, clearance, X, Y, extent = _territories(c, sx)
    pvals = None
    if province_values is not None:
        pvals = _values(province_values, c.province_names, c.province_slugs, "province_values")
    if pvals is not None:
        finite = pvals[np.isfinite(pvals)]
        if value_range is not None:
            pnorm = mcolors.Normalize(*value_range)
        else:
            pnorm = mcolors.Normalize(*(finite.min(), finite.max()) if finite.size else (0, 1))
        colours = [
            colormap(pnorm(v)) if np.isfinite(v) else mcolors.to_rgba("#dddddd") for v in pvals
        ]
        alpha = 0.85
    else:
        colours = [mcolors.to_rgba(PROVINCE_COLOURS[p % len(PROVINCE_COLOURS)])
                   for p in range(c.n_provinces)]
        alpha = 0.75
    rgba = np.zeros(label.shape + (4,))
    for p in range(c.n_provinces):
        rgba[label == p] = colours[p]
    rgba[..., 3] = np.where(label >= 0, alpha, 0.0)
    ax.set_facecolor(_PAPER)
    ax.imshow(rgba, origin="lower", extent=extent, interpolation="nearest", zorder=1,
              aspect="auto")
    for p in range(c.n_provinces):
        edge = np.array(mcolors.to_rgb(colours[p])) * 0.55
        ax.contour(X, Y, (label == p).astype(float), levels=[0.5], colors=[edge],
                   linewidths=1.1, zorder=2)

    # Roads.
    inter = c.inter_province_roads
    for (a, b), is_inter in zip(c.roads.tolist(), inter):
        if is_inter:
            ax.plot(xy[[a, b], 0], xy[[a, b], 1], color=_INTER_ROAD, lw=1.7,
                    ls=(0, (4, 2.2)), zorder=3, solid_capstyle="round")
        else:
            ax.plot(xy[[a, b], 0], xy[[a, b], 1], color=_INK, lw=1.8, alpha=0.8, zorder=3,
                    solid_capstyle="round")

    # Cities.
    plain = ~c.city_fortress
    fort = c.city_fortress.copy()
    fort[c.agra_city] = False
    halo = [pe.withStroke(linewidth=2.6, foreground="white", alpha=0.85)]
    ax.scatter(xy[plain, 0], xy[plain, 1], s=34, marker="o", facecolor="white",
               edgecolor=_INK, linewidth=1.2, zorder=5)
    ax.scatter(xy[fort, 0], xy[fort, 1], s=70, marker="D", facecolor=_FORTRESS,
               edgecolor="white", linewidth=1.0, zorder=5)
    ax.scatter(xy[c.agra_city, 0], xy[c.agra_city, 1], s=330, marker="*", facecolor="#f2c230",
               edgecolor=_INK, linewidth=1.1, zorder=6)

    cbar_axes: list[tuple[mcolors.Normalize, str]] = []
    if city_values is not None:
        cvals = _values(city_values, c.city_names, c.city_slugs, "city_values")
        ok = np.isfinite(cvals)
        if ok.any():
            cnorm = mcolors.Normalize(cvals[ok].min(), cvals[ok].max())
            if cnorm.vmin == cnorm.vmax:
                cnorm = mcolors.Normalize(cnorm.vmin - 0.5, cnorm.vmax + 0.5)
            size = 60 + 260 * cnorm(cvals[ok])
            ax.scatter(xy[ok, 0], xy[ok, 1], s=size, c=cvals[ok], cmap=colormap, norm=cnorm,
                       edgecolor=_INK, linewidth=0.8, zorder=7, alpha=0.95)
            cbar_axes.append((cnorm, value_label or "city value"))
    if pvals is not None:
        cbar_axes.append((pnorm, value_label or "province value"))

    # City names (and where they lie, for the province names to avoid: points along each).
    obstacles = [xy]
    city_labels = []  # (city, x offset, y offset (points), text, font size)
    for city in range(c.n_cities):
        is_fort = bool(c.city_fortress[city])
        if city == c.agra_city:
            ax.annotate("Agra", xy[city], xytext=(9, -13), textcoords="offset points",
                        fontsize=9.5, fontweight="bold", color=_INK, zorder=8,
                        path_effects=halo)
            city_labels.append((city, 9, -13, "Agra", 9.5))
        elif label_cities == "all" or (label_cities == "fortress" and is_fort):
            size = 7.6 if is_fort else 6.6
            ax.annotate(c.city_names[city], xy[city], xytext=(5, 4), textcoords="offset points",
                        fontsize=size, color=_INK if is_fort else "#5a5045",
                        style="normal" if is_fort else "italic", zorder=8, path_effects=halo)
            city_labels.append((city, 5, 4, c.city_names[city], size))

    # Province names (size of each name in map units, from the axes' scale).
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect(1.0 / sx)
    ax.apply_aspect()
    bbox = ax.get_window_extent()
    fontsize = 10.5
    x_per_pt = (extent[1] - extent[0]) / max(bbox.width * 72 / fig.dpi, 1.0)
    for city, x0_pt, y0_pt, text, size in city_labels:
        along = np.linspace(x0_pt, x0_pt + 0.6 * size * len(text), max(2, len(text)))
        for y_pt in (y0_pt, y0_pt + 0.5 * size, y0_pt + size):
            obstacles.append(xy[city] + np.column_stack(
                [along * x_per_pt, np.full(along.shape, y_pt * x_per_pt * sx)]))
    sizes = np.array(
        [[0.75 * fontsize * len(n) * x_per_pt + 0.1, 1.2 * fontsize * x_per_pt * sx]
         for n in c.province_names]
    )
    points = _label_points(c, label, clearance, X, Y, sizes, np.vstack(obstacles), sx)
    for p, name in enumerate(c.province_names):
        # Over a value colour scale (dark at both ends) the names are ink on a white halo;
        # otherwise a darker shade of the province's own colour.
        colour = _INK if pvals is not None else np.array(mcolors.to_rgb(colours[p])) * 0.38
        halo_alpha = 0.85 if pvals is not None else 0.6
        ax.text(points[p, 0], points[p, 1], name.upper(), ha="center", va="center",
                fontsize=fontsize, fontweight="bold", color=colour, alpha=0.9, zorder=4,
                path_effects=[pe.withStroke(linewidth=3, foreground="white",
                                            alpha=halo_alpha)])

    # Bonus tiles.
    if setup_bonus_at is not None:
        show_bonus = True
    if show_bonus:
        kinds = np.full(c.n_cities, -1)
        kinds[c.agra_city] = E.BONUS.TAJ4
        if setup_bonus_at is not None:
            at = np.asarray(setup_bonus_at, dtype=np.int64).ravel()[: c.n_cities]
            kinds[: len(at)] = np.where(at >= 0, at, kinds[: len(at)])
            kinds[c.agra_city] = E.BONUS.TAJ4
        for city in np.flatnonzero(kinds >= 0):
            text, face = _BONUS_STYLE.get(int(kinds[city]), ("?", "white"))
            agra = city == c.agra_city
            ax.annotate(text, xy[city], xytext=(8, -22) if agra else (-6, -12),
                        textcoords="offset points", ha="left" if agra else "right",
                        fontsize=6.8, color=_INK, zorder=9,
                        bbox={"boxstyle": "round,pad=0.2", "fc": face, "ec": _INK, "lw": 0.6})
        if setup_bonus_at is None:
            counts = np.bincount(c.bonus_tiles, minlength=E.N_BONUS_KINDS)
            mix = ", ".join(f"{counts[k]} {_BONUS_NAMES[k]}" for k in range(E.BONUS.TAJ4)
                            if counts[k])
            ax.text(0.99, 0.01, f"square bonus tiles (shuffled onto the fortresses): {mix}",
                    transform=ax.transAxes, ha="right", va="bottom", fontsize=7.5, color=_INK,
                    zorder=9)

    # Legend, frame, title.
    handles = [
        Line2D([], [], color=_INK, lw=1.8, label="road inside a province"),
        Line2D([], [], color=_INTER_ROAD, lw=1.7, ls=(0, (4, 2.2)), label="road between provinces"),
        Line2D([], [], ls="", marker="o", ms=6, mfc="white", mec=_INK, label="city"),
        Line2D([], [], ls="", marker="D", ms=6.5, mfc=_FORTRESS, mec="white",
               label="fortress city (bonus tile)"),
        Line2D([], [], ls="", marker="*", ms=15, mfc="#f2c230", mec=_INK,
               label="Agra (Taj Mahal +4; province tile 12)"),
    ]
    if missing_label and pvals is not None and not np.isfinite(pvals).all():
        handles.append(Patch(facecolor="#dddddd", edgecolor="#888888", label=missing_label))
    leg = ax.legend(handles=handles, loc="upper right", fontsize=8, frameon=True,
                    framealpha=0.9, facecolor="white", edgecolor="#bbb0a0")
    leg.set_zorder(10)
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect(1.0 / sx)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_color("#bbb0a0")
    n_inter = int(inter.sum())
    if title is None:
        title = (f"Taj Mahal board: {c.n_provinces} provinces, {c.n_cities} cities "
                 f"({int(c.city_fortress.sum())} fortresses), {c.n_roads} roads "
                 f"({n_inter} between provinces)")
    ax.set_title(title, fontsize=11.5, color=_INK, pad=8)
    for norm, text in cbar_axes:
        sm = plt.cm.ScalarMappable(norm=norm, cmap=colormap)
        cb = fig.colorbar(sm, ax=ax, fraction=0.04, pad=0.015, shrink=0.7)
        cb.set_label(text, fontsize=9)
    return fig
