"""The seat-compensation report (issue 40, section 1): the compensation table per player count,
each seat's win share before and after with intervals and verdicts, the search's candidates and
how the compensation moves at another skill level (:mod:`tajsim.analysis.compensation`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.stats.verdicts import mde_proportion
from tajsim.reporting.render.blocks import Block, Bullets, Figure, Heading, Para, Table
from tajsim.reporting.render.figures import panel_grid, report_style, save_png, smallest_font_pt
from tajsim.reporting.render.pages import render_html, render_markdown
from tajsim.reporting.render.tables import write_csv

__all__ = ["compensation_blocks", "write_compensation_report"]


#: What each verdict of a seat's deviation from parity says, in the tables.
VERDICT_WORDS = {"equivalent": "within ±margin (TOST)",
                 "differs": "off parity (not shown within ±margin)",
                 "inconclusive": "not shown either way"}


def _pts(x: float) -> str:
    return f"{100 * x:.1f}"


def _level(frame: pd.DataFrame) -> str:
    """The verdicts' level of a frame's rows (older frames, without the column: 5%)."""
    levels = sorted(set(frame["alpha"])) if "alpha" in frame else [0.05]
    return " / ".join(f"{100 * a:.3g}%" for a in levels)


def _table_row(frame: pd.DataFrame, players: int) -> dict[str, Any]:
    """One player count's line of the compensation table."""
    before = frame[(frame.players == players) & ~frame.compensated]
    after = frame[(frame.players == players) & frame.compensated]
    return {
        "players": players,
        "compensation by seat": after.amounts.iloc[0],
        "largest deviation before (points)": float(100 * before.deviation.abs().max()),
        "largest deviation after (points)": float(100 * after.deviation.abs().max()),
        "games (n)": int(after.n.iloc[0]),
        "verdicts' level": _level(after),
        "every seat within the margin": "yes (TOST)" if (after.verdict == "equivalent").all()
        else "no",
    }


def _seat_table(frame: pd.DataFrame) -> pd.DataFrame:
    out = pd.DataFrame({
        "players": frame.players, "seat": frame.seat,
        "compensation": np.where(frame.compensated, "with", "none"),
        "amount": frame.amount, "n": frame.n,
        "win share %": 100 * frame.share,
        "95% CI": [f"[{_pts(lo)}, {_pts(hi)}]" for lo, hi in zip(frame.ci_low, frame.ci_high,
                                                                   strict=True)],
        "share - parity (points)": 100 * frame.deviation,
        "TOST interval (1 - 2 alpha)": [f"[{100 * lo:+.1f}, {100 * hi:+.1f}]"
                                        for lo, hi in zip(frame.tost_low, frame.tost_high,
                                                          strict=True)],
        "TOST p": frame.p_tost,
        "alpha": frame["alpha"] if "alpha" in frame else 0.05,
        "verdict": [VERDICT_WORDS.get(v, v) for v in frame.verdict],
    })
    return out.reset_index(drop=True)


def _figure(frame: pd.DataFrame, out_dir: Path, name: str, title: str) -> Figure:
    counts = sorted(frame.players.unique())
    with report_style():
        fig, axes = panel_grid(len(counts), panel_height=2.6, max_columns=2)
        for ax, n in zip(axes, counts, strict=True):
            sub = frame[frame.players == n]
            for k, (comp, colour, label) in enumerate(((False, "#b2182b", "no compensation"),
                                                       (True, "#2166ac", "compensated"))):
                part = sub[sub.compensated == comp].sort_values("seat")
                x = part.seat.to_numpy() + (k - 0.5) * 0.22
                est = 100 * part.share.to_numpy()
                err = np.vstack([est - 100 * part.ci_low.to_numpy(),
                                 100 * part.ci_high.to_numpy() - est])
                ax.errorbar(x, est, yerr=np.clip(err, 0, None), fmt="o", color=colour,
                            capsize=3, label=label)
            ax.axhline(100 / n, color="#555", lw=1, ls="--")
            ax.axhspan(100 / n - 1, 100 / n + 1, color="#999", alpha=0.2, lw=0)
            amounts = sub[sub.compensated].amounts.iloc[0]
            ax.set_title(f"{n} players (compensation {amounts})")
            ax.set_xticks(range(n), [f"seat {s}" for s in range(n)])
            ax.set_ylabel("win share (%)")
        axes[0].legend(loc="best")
        fig.suptitle(title)
        width, height = save_png(fig, out_dir / name)
        small = smallest_font_pt(fig)
        plt.close(fig)
    return Figure(name, f"Win share by seat with and without the compensation. {title}: each "
                        "seat's win share with its Wilson 95% interval, without (red) and with "
                        "(blue) the compensation; the dashed line is parity, the grey band ±1 "
                        "point.", width, height, small)


def compensation_blocks(found: pd.DataFrame, other: pd.DataFrame | None, trace: pd.DataFrame,
                        meta: dict[str, Any], out_dir: Path) -> list[Block]:
    """The report's blocks; writes the tables' CSVs and the figures into ``out_dir``.

    ``found``/``other``: :func:`~tajsim.analysis.compensation.verify_compensation` frames of
    every player count concatenated, at the level the compensation was found for and at the
    other level; ``trace``: the search's candidates; ``meta``: ``title, currency, why,
    strategy, other_strategy, margin, search_games, search_seed, verify_seed`` and a
    ``command`` line.
    """
    margin = 100 * meta["margin"]
    unit = meta["currency"]
    counts = sorted(found.players.unique())
    table = pd.DataFrame([_table_row(found, n) for n in counts])
    blocks: list[Block] = [
        Para(f"A **variant, not the rules**: each seat gets a number of {unit} at setup (the "
             f"rule option `compensation`; {meta['why']}). The players see it as they see any "
             f"other {unit}: it is in the game state from the start. The amounts were searched "
             f"in mirror matches of `{meta['strategy']}` in every seat (fixed seats), "
             f"{meta['search_games']:,} games a candidate on common random numbers (master seed "
             f"{meta['search_seed']}: an exact lattice search, secant steps in whole units then "
             f"a coordinate search"
             + (f" in whole units, then in steps down to {meta['finest']:g} of a unit"
                if float(meta.get("finest", 1)) < 1 else "")
             + ", `tajsim.analysis.compensation`)"
             + (f"; the best candidates (at most {meta['refine_top']}, those within three "
                "standard errors of the best) were played again on "
                f"{meta['refine_games']:,} games (master seed {meta['search_seed'] + 1}) and "
                "the best there chosen" if meta.get("refine_games") else "")
             + f"; the choice was then verified on fresh games (master seed "
             f"{meta['verify_seed']}; a player count's own settings, where it has them, are in "
             "the table of settings below). A seat's win share counts a shared win as a fraction. "
             + ("An amount with a fraction, `w + f/4`, gives the seat `w + 1` in a share `f/4` "
                "of the games and `w` in the others, drawn for each game from its chance seed "
                "(at a table: a die, or a rota of the games). "
                if float(meta.get("finest", 1)) < 1 else "")
             +
             f"Made by `{meta['command']}`."),
        Heading(2, "The compensation table"),
        Table(table, f"The compensation by seat ({unit}) for each player count and the largest "
                     f"deviation of a seat's win share from parity before and after, on the "
                     f"fresh games (n games each); 'every seat within the margin': each seat's "
                     f"TOST against ±{margin:g} point is significant (an intersection-union "
                     f"test, no multiplicity correction needed).", "table_compensation.csv"),
    ]
    write_csv(table, out_dir / "table_compensation.csv")
    reached = [n for n in counts if (found[(found.players == n) & found.compensated].verdict
                                     == "equivalent").all()]
    missed = [n for n in counts if n not in reached]
    items = []
    if reached:
        items.append(f"Every seat within ±{margin:g} point of parity (TOST) at "
                     + ", ".join(f"{n} players ({_level(found[found.players == n])} level)"
                                 for n in reached) + ".")
    if missed:
        items.append(f"Not shown within ±{margin:g} point at {', '.join(map(str, missed))} "
                     f"players: the best amounts found are reported with their verdicts (the "
                     f"finest step of {unit} still moves a seat by more than the margin, or the "
                     "interval is too wide to tell).")
    detect = []
    for n in counts:
        games = int(found[(found.players == n) & found.compensated]["n"].min())
        detect.append(f"{100 * float(mde_proportion(1.0 / n, games)):.1f} points at {n} players "
                      f"({games:,} games)")
    items.append("The smallest deviation of one seat from parity these fresh games detect (80% "
                 f"power, two-sided 5%): {', '.join(detect)}.")
    blocks.append(Bullets(items))
    per_count = meta.get("per_count")
    if per_count is not None and len(per_count):
        blocks.append(Heading(2, "The settings of each player count"))
        write_csv(per_count, out_dir / "table_settings.csv")
        blocks.append(Table(per_count, "Games of each stage, the verification's master seed and "
                                       "the number of looks at each player count (a "
                                       "`[compensation.at.N]` table of the experiment file "
                                       "overrides the study's settings for one count). A look "
                                       "is one verification on fresh games of the same "
                                       "question, the earlier ones counted; with k looks each "
                                       "verdict is at 5%/k (Bonferroni over the looks), so a "
                                       "seat shown within the margin at any look is shown at "
                                       "5% family-wise.", "table_settings.csv"))
    blocks.append(Heading(2, "Each seat before and after"))
    seats = _seat_table(found)
    write_csv(seats, out_dir / "table_seats.csv")
    blocks.append(Table(seats, f"Each seat's win share with no compensation and with the "
                               f"amounts found, at `{meta['strategy']}` (n games each), its "
                               f"Wilson 95% interval, its deviation from parity with the "
                               f"1 - 2 alpha interval TOST decides on (90% at 5%), and the "
                               f"verdict at level alpha: 'within ±margin' where TOST against "
                               f"±{margin:g} point is significant, 'off parity' where the "
                               "deviation differs from 0 (two-sided) and is not shown within "
                               "the margin, 'not shown either way' otherwise.",
                        "table_seats.csv"))
    blocks.append(_figure(found, out_dir, "fig_compensation.png",
                          f"Win share by seat at {meta['strategy']}"))
    if other is not None and len(other):
        blocks.append(Heading(2, "At another skill level"))
        rows = []
        for n in sorted(other.players.unique()):
            before = other[(other.players == n) & ~other.compensated]
            after = other[(other.players == n) & other.compensated]
            rows.append({"players": n, "compensation": after.amounts.iloc[0],
                         "games (n)": int(after.n.iloc[0]),
                         "largest deviation before (points)":
                             float(100 * before.deviation.abs().max()),
                         "largest deviation after (points)":
                             float(100 * after.deviation.abs().max()),
                         "seats within ±margin after": int((after.verdict
                                                            == "equivalent").sum()),
                         "seats differing from parity after": int((after.verdict
                                                                   == "differs").sum())})
        moved = pd.DataFrame(rows)
        write_csv(moved, out_dir / "table_other_level.csv")
        blocks.append(Para(f"The same amounts played by `{meta['other_strategy']}` in every "
                           "seat, without and with the compensation: does a compensation "
                           "found for one skill level carry over to another?"))
        blocks.append(Table(moved, f"The compensation found at `{meta['strategy']}` played at "
                                   f"`{meta['other_strategy']}`: the largest deviation from "
                                   f"parity before and after and how many seats are within "
                                   f"±{margin:g} point (TOST) or differ from parity "
                                   "(two-sided test, 5%).", "table_other_level.csv"))
        other_seats = _seat_table(other)
        write_csv(other_seats, out_dir / "table_other_level_seats.csv")
        blocks.append(Table(other_seats, f"Each seat at `{meta['other_strategy']}`, as above.",
                            "table_other_level_seats.csv"))
        blocks.append(_figure(other, out_dir, "fig_other_level.png",
                              f"Win share by seat at {meta['other_strategy']}"))
    blocks.append(Heading(2, "The search"))
    write_csv(trace, out_dir / "table_search.csv")
    blocks.append(Table(trace, f"Every candidate the search played ({meta['search_games']:,} "
                               "games each, the same games for all; stage 'refine': the best "
                               "again on more games of another seed), its largest deviation "
                               "from parity (the search's objective) and its seats' win "
                               "shares; these are the search's own games, not the "
                               "verification's.", "table_search.csv"))
    return blocks


def write_compensation_report(title: str, blocks: list[Block], out_dir: Path) -> None:
    """``report.md`` and ``report.html`` of ``blocks`` in ``out_dir``."""
    (out_dir / "report.md").write_text(render_markdown(title, blocks))
    (out_dir / "report.html").write_text(render_html(title, blocks, out_dir))
