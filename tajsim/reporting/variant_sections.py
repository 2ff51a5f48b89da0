"""The report section that puts rule variants side by side (issue 40, section 2): one table and
one figure from :func:`tajsim.analysis.variants.variant_comparison`.

Generic (registered in :data:`tajsim.reporting.sections.GENERIC_SECTIONS` as ``variants``); it
skips itself, without a heading, unless the runs carry at least two ``variant`` labels. The
stronger level of a mixed table is the one that wins more over every variant together.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tajsim.reporting.render import ReportContext, error_bars, join_words, n_games, panel_grid

__all__ = ["section_variants", "variant_table_wide"]

#: Marker colours of the levels (cycled).
LEVEL_COLOURS = ("#4f7fa8", "#b5524b", "#6a9b5a", "#8a6bb0", "#c58a2b")


def _pts(est: float, low: float, high: float) -> str:
    return f"{100 * est:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def _pct(est: float, low: float, high: float) -> str:
    return f"{100 * est:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _bits(est: float, low: float, high: float) -> str:
    if not np.isfinite(low):
        return f"{est:.2f}"
    return f"{est:.2f} [{low:.2f}, {high:.2f}]"


def variant_table_wide(long: pd.DataFrame) -> pd.DataFrame:
    """One row per (players, level, variant): each seat's rate, the largest deviation from
    parity (points), ties, length and the winners' diversity (mirror levels), or the stronger's
    share, the first seat's rate and the winning level's entropy (mixed pairs: the skill
    profile's key numbers)."""
    rows = []
    order = {v: i for i, v in enumerate(dict.fromkeys(long["variant"]))}
    levels = {v: i for i, v in enumerate(dict.fromkeys(long["level"]))}
    long = long.sort_values(["n_players", "level", "variant"], kind="stable",
                            key=lambda c: c.map(levels) if c.name == "level" else
                            c.map(order) if c.name == "variant" else c)
    for (n, level, variant), g in long.groupby(["n_players", "level", "variant"], sort=False):
        m = {r.measure: r for r in g.itertuples()}
        row: dict[str, object] = {"players": int(n), "level": level, "variant": variant,
                                  "games": int(g["n"].max())}
        if "stronger_share" in m:
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
        rows.append(row)
    return pd.DataFrame(rows)


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
    best = dev.loc[dev["estimate"].abs().groupby([dev["n_players"], dev["level"]]).idxmin()]
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
    words = []
    for (n, level), g in dev.groupby(["n_players", "level"], sort=False):
        words.append(f"{level} ({n}p): " + ", ".join(
            f"{r.variant} {_pts(r.estimate, r.ci_low, r.ci_high)}" for r in g.itertuples()))
    best_words = "; ".join(f"{r.level}: **{r.variant}**" for r in best.itertuples())
    ctx.headline(
        "Largest deviation of a seat from parity (points, 95% interval), by level: "
        + "; ".join(words) + f". Closest to parity: {best_words}."
        + (" Stronger level's share in mixed tables: "
           + "; ".join(f"{r.variant} {r.level}: {_pct(r.estimate, r.ci_low, r.ci_high)}"
                       for r in gradient.itertuples()) + "." if len(gradient) else ""))
    ctx.table(variant_table_wide(long), "The variants side by side: per player count and level, "
              "each seat's win rate (%), the largest deviation from parity (points, 95% "
              "interval), ties, length and the winners' diversity (mirror games), or the "
              "stronger level's share, the first seat's rate and the winning level's entropy "
              "(mixed tables: the skill profile's key numbers).", "variant_comparison",
              full=long)
    diversity = long[long["measure"] == "winner_profile_entropy"]
    panels = [("max_seat_deviation", "largest seat deviation from parity (points)", dev, 0.0),
              ("stronger_share", "stronger level's win share in mixed tables (%)", gradient,
               50.0),
              ("winner_profile_entropy", "winners' diversity: entropy of the dominant score "
               "part (bits)", diversity, None)]
    panels = [p for p in panels if len(p[2])]
    rows = max(p[2]["level"].nunique() * (len(variants) + 1) for p in panels)
    fig, axes = panel_grid(len(panels), panel_height=0.6 + 0.22 * rows, max_columns=1,
                           single_width=7.0)
    for ax, (_, label, frame, centre) in zip(axes, panels, strict=True):
        lv = list(dict.fromkeys(frame["level"]))
        ticks, names = [], []
        for i, level in enumerate(lv):
            sub = frame[frame["level"] == level].set_index("variant").reindex(variants)
            ys = -(i * (len(variants) + 1) + np.arange(len(variants)))
            scale = 1.0 if centre is None else 100.0  # bits as they are, rates in %
            est = scale * sub["estimate"].to_numpy(np.float64)
            low = scale * sub["ci_low"].to_numpy(np.float64)
            high = scale * sub["ci_high"].to_numpy(np.float64)
            ax.errorbar(est, ys, xerr=error_bars(est, low, high), fmt="o", capsize=3,
                        color=LEVEL_COLOURS[i % len(LEVEL_COLOURS)], label=level)
            ticks += list(ys)
            names += variants
        ax.set_yticks(ticks, names)
        if centre is not None:
            ax.axvline(centre, color="#999", lw=1)
        ax.set_xlabel(label)
        ax.legend(title="level", loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8,
                  title_fontsize=8, frameon=False)
    ctx.figure(fig, "variants", "The variants side by side: the largest deviation of a seat "
               "from parity in mirror games, the stronger level's share in mixed tables and the "
               "winners' diversity in mirror games, with 95% intervals, by level.", r)
