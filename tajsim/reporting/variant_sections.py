"""The report section that puts rule variants side by side (issue 40, section 2): one table and
one figure from :func:`tajsim.analysis.variants.variant_comparison`: seat balance, skill
gradient, length and ties, diversity (the winners' score profiles, and which style wins a table
of several presets) and the arc (lead changes, winning from behind, the runaway test).

Generic (registered in :data:`tajsim.reporting.sections.GENERIC_SECTIONS` as ``variants``); it
skips itself, without a heading, unless the runs carry at least two ``variant`` labels. The
stronger level of a mixed table is the one that wins more over every variant together.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.arc import RUNAWAY_MARGIN
from tajsim.analysis.stats.verdicts import ALPHA, p_clause
from tajsim.analysis.variants import closest_to_parity, has_trajectories
from tajsim.reporting.render import (
    PAGE_WIDTH_IN,
    ReportContext,
    error_bars,
    join_words,
    n_games,
    series_colour,
    series_marker,
)

__all__ = ["section_variants", "variant_table_wide"]

#: Measures not counted in games (seat-games; the null model's synthetic copies): the
#: table's ``games`` column leaves them out.
SEAT_GAME_MEASURES = ("comeback", "leader_wins_null")
#: The parts of :func:`variant_table_wide`.
TABLE_PARTS = ("all", "balance", "styles", "arc")


def _pts(est: float, low: float, high: float) -> str:
    return f"{100 * est:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def _pct(est: float, low: float, high: float) -> str:
    return f"{100 * est:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _bits(est: float, low: float, high: float) -> str:
    if not np.isfinite(low):
        return f"{est:.2f}"
    return f"{est:.2f} [{low:.2f}, {high:.2f}]"


def _arc_cells(m: dict, row: dict[str, object]) -> None:
    """The arc columns of one table row (``m``: measure -> row of the long frame)."""
    if "lead_changes" in m:
        r = m["lead_changes"]
        row["lead changes / game"] = f"{r.estimate:.2f} [{r.ci_low:.2f}, {r.ci_high:.2f}]"
    if "comeback" in m:
        r = m["comeback"]
        row["behind at mid-game wins"] = f"{_pct(r.estimate, r.ci_low, r.ci_high)} (n {r.n:,})"
    if "runaway" in m:
        r = m["runaway"]
        holm = f"; differs: Holm p {r.p_holm:.2g}" if np.isfinite(r.p_holm) else ""
        word = r.verdict
        if word in ("runaway", "catch-up") and not r.p_holm < 0.05:  # the family's word
            word = f"{word} alone, not after Holm"
        row["runaway: leader over null (pts)"] = _pts(r.estimate, r.ci_low, r.ci_high)
        row["runaway verdict"] = f"{word} (n {r.n:,}{holm})"


def _style_name(measure: str, shared: bool) -> str:
    """The strategy of a ``style_share:<strategy>`` measure, without the parameters the mix's
    label already says (``shared``)."""
    name = measure.removeprefix("style_share:")
    return name.partition(":")[0] if shared else name


def variant_table_wide(long: pd.DataFrame, part: str = "all") -> pd.DataFrame:
    """One row per (players, level, variant): each seat's rate, the largest deviation from
    parity (points), ties, length and the winners' diversity (mirror levels), the stronger's
    share, the first seat's rate and the winning level's entropy (mixed pairs: the skill
    profile's key numbers), or which style wins (style mixes: the entropy and each style's
    share); and on every row the arc: lead changes a game, a trailing seat's chance at
    mid-game, the runaway test against the null model.

    ``part``: ``"all"`` (every row and column), ``"balance"`` (the mirror levels and mixed
    pairs, without the arc), ``"styles"`` (the style mixes, without the arc) or ``"arc"``
    (every row, the arc's columns only)."""
    if part not in TABLE_PARTS:
        raise ValueError(f"part {part!r}; expected one of {', '.join(TABLE_PARTS)}")
    rows = []
    order = {v: i for i, v in enumerate(dict.fromkeys(long["variant"]))}
    levels = {v: i for i, v in enumerate(dict.fromkeys(long["level"]))}
    long = long.sort_values(["n_players", "level", "variant"], kind="stable",
                            key=lambda c: c.map(levels) if c.name == "level" else
                            c.map(order) if c.name == "variant" else c)
    for (n, level, variant), g in long.groupby(["n_players", "level", "variant"], sort=False):
        m = {r.measure: r for r in g.itertuples()}
        row: dict[str, object] = {"players": int(n), "level": level, "variant": variant,
                                  "games": int(g.loc[~g["measure"].isin(SEAT_GAME_MEASURES),
                                                     "n"].max())}
        style = "winning_style_entropy" in m
        if (part == "balance" and style) or (part == "styles" and not style):
            continue
        if part == "arc":
            pass
        elif style:
            r = m["winning_style_entropy"]
            k = sum(1 for key in m if key.startswith("style_share:"))
            row["winning style entropy (bits)"] = (
                f"{_bits(r.estimate, r.ci_low, r.ci_high)} of {np.log2(k):.2f}")
            shared = level.endswith(")")  # the styles' common parameters are in the label
            row["styles' win shares"] = ", ".join(
                f"{_style_name(key, shared)} "
                f"{_pct(m[key].estimate, m[key].ci_low, m[key].ci_high)}"
                for key in m if key.startswith("style_share:"))
        elif "stronger_share" in m:
            r = m["stronger_share"]
            row["stronger's share"] = _pct(r.estimate, r.ci_low, r.ci_high)
            if "first_seat" in m:
                r = m["first_seat"]
                row["first seat (mixed)"] = _pct(r.estimate, r.ci_low, r.ci_high)
            if "winning_strategy_entropy" in m:
                r = m["winning_strategy_entropy"]
                row["winning level entropy (bits)"] = _bits(r.estimate, r.ci_low, r.ci_high)
        else:
            seats = sorted(k for k in m if k.startswith("seat_"))
            row["seat rates"] = " / ".join(f"{100 * m[k].estimate:.1f}" for k in seats)
            r = m["max_seat_deviation"]
            row["largest deviation (pts)"] = _pts(r.estimate, r.ci_low, r.ci_high)
            r = m["ties"]
            row["ties"] = _pct(r.estimate, r.ci_low, r.ci_high)
            if "length" in m:
                r = m["length"]
                row["length"] = f"{r.estimate:.2f} [{r.ci_low:.2f}, {r.ci_high:.2f}]"
            if "winner_profile_entropy" in m:
                r = m["winner_profile_entropy"]
                row["winners' diversity (bits)"] = _bits(r.estimate, r.ci_low, r.ci_high)
        if part in ("all", "arc"):
            _arc_cells(m, row)
        rows.append(row)
    return pd.DataFrame(rows)


#: Parameter names shortened in the figure's level labels.
SHORT_PARAMETERS = {"temperature": "T", "iterations": "it"}


def short_level(level: str) -> str:
    """A level label for the figure: a style mix as "style mix", each strategy's parameters
    as ``T=1 it=20`` after its name (``search:iterations=20:temperature=0.25 vs hoarder`` ->
    ``search it=20 T=0.25 vs hoarder``)."""
    if level.startswith("styles: "):
        return "style mix"
    parts = []
    for strategy in level.split(" vs "):
        name, *params = strategy.split(":")
        for param in params:
            key, _, value = param.partition("=")
            name += f" {SHORT_PARAMETERS.get(key, key)}={value}"
        parts.append(name)
    return " vs ".join(parts)


def _row_labels(frame: pd.DataFrame, sizes: int) -> pd.Series:
    """The figure's level labels (:func:`short_level`), with the table size where the
    comparison has ``sizes`` > 1 of them."""
    level = frame["level"].astype(str).map(short_level)
    if sizes < 2:
        return level
    return level + " (" + frame["n_players"].astype(str) + "p)"


def _arc_paragraph(long: pd.DataFrame) -> str:
    """The arc measures' definitions and the family-wise count of runaway verdicts."""
    tests = long[long["measure"] == "runaway"]
    runaway = tests[(tests["p_holm"] < 0.05) & (tests["estimate"] > 0)]
    catch_up = tests[(tests["p_holm"] < 0.05) & (tests["estimate"] < 0)]
    return (
        "The arc of each row's games (every level, the mixed pairs and style mixes included; "
        "from the per-round score trajectories, as the `arc` section defines them): the mean "
        "**lead changes** a game (the sole leader after a round differs from the previous "
        "one; t interval over games); a seat **behind at mid-game**'s share of the win (behind "
        "the sole leader after round ceil(R/2), Taj Mahal visit 6; Wilson interval, n "
        "seat-games); and the **runaway** test: the mid-game leader's share of the win minus "
        "the same in the null model without feedback (each seat's points in each round drawn "
        "from the same seat and strategy's points in that round of the other games: it keeps "
        "the better player and the seat, and removes any feedback from the standing), in "
        "points with its normal interval, n the games with a sole mid-game leader; verdict "
        f"'runaway' (the lead is worth more than the rates give it), 'catch-up', 'no feedback' "
        f"(TOST within ±{100 * RUNAWAY_MARGIN:.0f} points) or 'inconclusive'; Holm over the "
        f"{len(tests)} tests of the table. Family-wise: {len(runaway)} of {len(tests)} rows "
        f"show a runaway leader and {len(catch_up)} a catch-up (Holm p < 0.05).")


def _panels_figure(panels: list[tuple[str, pd.DataFrame, float | None, float]],
                   variants: list[str]) -> plt.Figure:
    """Two panels a row, one tick per level (and table size), the variants as coloured points
    side by side within it; each row of panels as tall as its longer panel's levels."""
    columns = 2 if len(panels) > 1 else 1
    n_rows = -(-len(panels) // columns)
    sizes = max(p[1]["n_players"].nunique() for p in panels)
    counts = [_row_labels(p[1], sizes).nunique() for p in panels] + [0] * (n_rows * columns)
    heights = [max(counts[i * columns:(i + 1) * columns]) for i in range(n_rows)]
    band = 0.11 * (len(variants) + 1)  # inches a level
    fig, axes = plt.subplots(n_rows, columns, squeeze=False, layout="constrained",
                             figsize=(PAGE_WIDTH_IN, sum(0.9 + band * h for h in heights)),
                             gridspec_kw={"height_ratios": [0.9 + band * h for h in heights]})
    offsets = (np.arange(len(variants)) - (len(variants) - 1) / 2) / (len(variants) + 1)
    for ax, (label, frame, centre, scale) in zip(axes.flat, panels, strict=False):
        frame = frame.assign(_row=_row_labels(frame, sizes).to_numpy())
        levels = list(dict.fromkeys(frame["_row"]))
        for j, variant in enumerate(variants):
            sub = frame[frame["variant"] == variant].set_index("_row").reindex(levels)
            ys = -np.arange(len(levels)) - offsets[j]
            est = scale * sub["estimate"].to_numpy(np.float64)
            low = scale * sub["ci_low"].to_numpy(np.float64)
            high = scale * sub["ci_high"].to_numpy(np.float64)
            ax.errorbar(est, ys, xerr=error_bars(est, low, high), fmt=series_marker(j),
                        ms=3, capsize=2, lw=1, color=series_colour(j),
                        label=variant)
        ax.set_yticks(-np.arange(len(levels)), levels, fontsize=7)
        ax.set_ylim(-len(levels) + 0.5, 0.5)
        ax.tick_params(axis="x", labelsize=7)
        if centre is not None:
            ax.axvline(centre, color="#999", lw=1)
        ax.set_xlabel(label, fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.remove()
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, title="variant", loc="outside upper center",
               ncols=min(len(variants), 5), fontsize=8, title_fontsize=8, frameon=False)
    return fig


def section_variants(ctx: ReportContext) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    long = ctx.analysis("variant_comparison")
    if long.empty:
        return
    ctx.heading(2, "Variants side by side")
    variants = list(dict.fromkeys(long["variant"]))
    games = {str(k): n_games(g) for k, g in r.groupby("variant", observed=True, sort=False)}
    dev = long[long["measure"] == "max_seat_deviation"]
    gradient = long[long["measure"] == "stronger_share"]
    named = join_words([f"**{v}** ({games.get(v, 0):,} games)" for v in variants])
    ctx.para(
        f"{len(variants)} variants ({named}) "
        "played at each skill level in mirror games (one strategy in every seat: each seat's win "
        "rate, ties shared, with its Wilson 95% interval; the largest deviation of a seat from "
        "parity, 1/n, in points, with that seat's interval; the share of tied games; the mean "
        "game length, with a normal interval; the winners' diversity: the entropy in bits of "
        "the score part that gave the winner most points, with a 95% bootstrap interval, 0 "
        "when every game is won the same way) and in mixed tables of two levels, each in each "
        "seat equally often (the skill profile's key numbers: the stronger level's win share, "
        "its seats together, Wilson interval over games, 1/2 would mean skill does not decide; "
        "the first seat's rate in those tables; the entropy of which level wins, 1 bit when "
        "both win equally often). The seat with the largest deviation is chosen after looking, "
        "so its interval is a little optimistic; each seat's rate is in the full table.")
    styles = long[long["measure"] == "winning_style_entropy"]
    if len(styles):
        ctx.para(
            "Style mixes (rows `styles: ...`): several strategies of one skill level (the "
            "game's heuristic presets: one evaluation function, other weights) share the "
            "tables, each in each seat and against each other equally often. The **winning "
            "style entropy** is the entropy in bits of which strategy wins (shared wins split; "
            "95% bootstrap interval; log2(k) bits when the k styles win equally often, 0 when "
            "one always wins): the diversity of the strategies that win, beside each style's "
            "share of the wins (Wilson interval over games). The mixed pairs' entropy says "
            "only which of two skill levels wins.")
    if has_trajectories(r) and (long["measure"] == "runaway").any():
        ctx.para(_arc_paragraph(long))
    else:
        ctx.para("No arc measures: these records predate the per-round score trajectories "
                 "(play the runs again with `--restart`).")
    words = []
    for (n, level), g in dev.groupby(["n_players", "level"], sort=False):
        words.append(f"{level} ({n}p): " + ", ".join(
            f"{r.variant} {_pts(r.estimate, r.ci_low, r.ci_high)}" for r in g.itertuples()))
    best_words = "; ".join(
        f"{r.level} ({r.n_players}p): " + (
            f"**{r.variant}** ({p_clause(r.p_value)})" if r.closest
            else f"not told apart ({r.not_apart}; {p_clause(r.p_value)})")
        for r in closest_to_parity(long).itertuples() if np.isfinite(r.p_value))
    parts = []
    if words:
        parts.append("Largest deviation of a seat from parity (points, 95% interval), by "
                     f"level: {'; '.join(words)}."
                     + (f" Closest to parity (the smallest absolute deviation, named where "
                        f"it is below each other variant's: one-sided z tests, the largest p "
                        f"shown, all below {ALPHA:g}; else the variants not told apart from "
                        f"it; approximate, the seat chosen after looking): {best_words}."
                        if best_words else ""))
    if len(gradient):
        parts.append("Stronger level's share in mixed tables: " + "; ".join(
            f"{r.variant} {r.level} ({r.n_players}p): {_pct(r.estimate, r.ci_low, r.ci_high)}"
            for r in gradient.itertuples()) + ".")
    if not parts and len(styles):  # style mixes only: which style wins is the comparison
        parts.append(
            "Which style wins, by variant (the winners' styles' entropy, bits, 95% bootstrap "
            "interval): " + "; ".join(
                f"{level} ({n}p): " + ", ".join(
                    f"{r.variant} {_bits(r.estimate, r.ci_low, r.ci_high)}"
                    for r in g.itertuples())
                for (n, level), g in styles.groupby(["n_players", "level"], sort=False))
            + ".")
    if parts:
        ctx.headline(" ".join(parts))
    sizes = sorted(int(n) for n in long["n_players"].unique())
    full_csv = True  # the long table goes with the first table shown
    for n in sizes:  # one table a table size: each fits the page's rows
        wide = variant_table_wide(long[long["n_players"] == n], "balance")
        if wide.empty:  # only style mixes at this size: their table below shows them
            continue
        ctx.table(wide.drop(columns="players"),
                  f"The variants side by side at {n} "
                  "players: per level, each seat's win rate (%), the largest deviation from "
                  "parity (points, 95% interval), ties, length and the winners' diversity "
                  "(mirror games), or the stronger level's share, the first seat's rate and the "
                  "winning level's entropy (mixed tables: the skill profile's key numbers). The "
                  "style mixes and the arc of the same rows follow.",
                  "variant_comparison" if full_csv else None, full=long if full_csv else None)
        full_csv = False
    if len(styles):
        ctx.table(variant_table_wide(long, "styles"), "Which style wins, by variant: the "
                  "winning style's entropy (bits, 95% bootstrap interval, of log2(k) at most) "
                  "and each style's share of the wins (Wilson interval over the games).",
                  "variant_comparison" if full_csv else None, full=long if full_csv else None)
    for n in sizes:
        arc_rows = variant_table_wide(long[long["n_players"] == n], "arc")
        if "runaway: leader over null (pts)" not in arc_rows.columns:
            continue
        # the levels shortened as in the figure, so that the table fits the page
        arc_rows = arc_rows.drop(columns="players").assign(
            level=arc_rows["level"].astype(str).map(short_level))
        ctx.table(arc_rows, f"The arc of every row's games at {n} players, by variant: lead "
                  "changes a game (t interval), a seat behind the sole mid-game leader's share "
                  "of the win (Wilson, n seat-games), and the runaway test (the mid-game "
                  "leader's share of the win minus the null model's, points, normal interval, "
                  "its verdict, n games with a sole mid-game leader, and the p of a "
                  "difference, Holm over the comparison's tests; 'no feedback' is each row's "
                  f"own equivalence test, TOST within ±{100 * RUNAWAY_MARGIN:.0f} points). "
                  "Levels: T temperature, it iterations; the style mix is the one above.")
    diversity = long[long["measure"] == "winner_profile_entropy"]
    panels = [("largest seat deviation from parity (points)", dev, 0.0, 100.0),
              ("stronger level's share, mixed tables (%)", gradient, 50.0, 100.0),
              ("winners' diversity: dominant score part (bits)", diversity, None, 1.0),
              ("winning style entropy, style mixes (bits)", styles, None, 1.0),
              ("lead changes a game", long[long["measure"] == "lead_changes"], None, 1.0),
              ("runaway: leader's win share - null (points)",
               long[long["measure"] == "runaway"], 0.0, 100.0)]
    panels = [p for p in panels if len(p[1])]
    fig = _panels_figure(panels, variants)
    ctx.figure(fig, "variants", "The variants side by side (colours), with 95% intervals, "
               "by level (and table size, rows): the largest deviation of a seat from parity "
               "in mirror games, the stronger level's share in mixed tables, the winners' "
               "diversity in mirror games, the winning style's entropy in the style mixes, "
               "and the arc of every level's games: lead changes a game and the runaway test "
               "(the mid-game leader's share of the win minus the null model's; 0: a lead is "
               "worth what the seats' own round-by-round rates give it). Levels: T "
               "temperature, it iterations.", r)
