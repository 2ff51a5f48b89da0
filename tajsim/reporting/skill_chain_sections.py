"""Skill chains and skill profiles on the page.

* :func:`section_skill_profile`: the report section ``skill_profile`` (registered in
  :data:`tajsim.reporting.sections.GENERIC_SECTIONS`): the win-rate matrix of the skill levels
  (:func:`tajsim.analysis.skill_profile.skill_profile`), each cell with its Wilson interval and
  n, the first seat's rate, a heat map and a headline. It adds nothing, not even a heading, to
  results in which fewer than three levels meet head to head (a single pair is ``tajsim
  compare``'s case).
* :func:`write_chain`: a chain's table (:func:`tajsim.analysis.skill_chain.play_chain`) as
  ``chain.md``, ``chain.csv`` and ``fig_chain.png`` (win share and Elo gap per step, with their
  intervals), what ``tajsim chain`` writes after every step.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from tajsim.analysis.skill_chain import ALPHA, CHAIN_COLUMNS
from tajsim.analysis.skill_profile import profile_matrix
from tajsim.analysis.stats.verdicts import (
    DIFFERS,
    EQUIVALENT,
    equivalence_test,
    mde_proportion,
)
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    PAGE_WIDTH_IN,
    ReportContext,
    error_bars,
    join_words,
    report_style,
    save_png,
    write_csv,
)
from tajsim.reporting.verdict_wording import margin_of
from tajsim.running.run_files import atomic_write

__all__ = ["CHAIN_DESIGN_FLAGS", "StoredChain", "chain_figure", "chain_markdown", "profile_cells",
           "read_chain", "read_stored_profile", "section_skill_profile", "write_chain"]


def _pct(x: float, signed: bool = False) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:{'+' if signed else ''}.1f}"


def _interval(est: float, low: float, high: float) -> str:
    return f"{_pct(est)}% [{_pct(low)}, {_pct(high)}]"


def _elo(x: float) -> str:
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"


def _p(p: float) -> str:
    return "n/a" if not np.isfinite(p) else ("< 1e-300" if p == 0 else f"{p:.2g}")


# -- the profile -----------------------------------------------------------------------------
def profile_cells(table: pd.DataFrame) -> pd.DataFrame:
    """The matrix as text cells: ``share% [low, high] (n)`` off the diagonal, the mirror's
    first-seat rate on it (``first seat 55.0% [..] (n)``); ``-`` for pairs not met."""
    order = table.attrs.get("levels") or list(dict.fromkeys(
        table.loc[table["kind"] != "all", "level"]))
    cells = table[table["kind"] != "all"].set_index(["level", "opponent"])
    out = pd.DataFrame(index=order, columns=order, dtype=object)
    for a in order:
        for b in order:
            if (a, b) not in cells.index:
                out.loc[a, b] = "-"
                continue
            c = cells.loc[(a, b)]
            if c["kind"] == "mirror":
                rate = _interval(c.first_seat_rate, c.first_seat_ci_low, c.first_seat_ci_high)
                out.loc[a, b] = f"first seat {rate} ({int(c.n):,})"
            else:
                out.loc[a, b] = f"{_interval(c.share, c.ci_low, c.ci_high)} ({int(c.n):,})"
    out.index.name = "level (row) against"
    return out.reset_index()


def _profile_figure(table: pd.DataFrame) -> plt.Figure:
    share = profile_matrix(table)
    order = list(share.index)
    k = len(order)
    size = min(PAGE_WIDTH_IN, 1.9 + 1.15 * k)
    fig, ax = plt.subplots(figsize=(size, 0.8 + 0.75 * k), layout="constrained")
    values = share.to_numpy(np.float64)
    image = ax.imshow(np.where(np.isfinite(values), values, 0.5), cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            v = values[i, j]
            text = "mirror" if i == j else ("-" if not np.isfinite(v) else f"{100 * v:.0f}%")
            dark = np.isfinite(v) and abs(v - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=8.5,
                    color="white" if dark else "black")
    short = [s if len(s) <= 22 else s[:20] + ".." for s in order]
    ax.set_xticks(range(k), short, rotation=30, ha="right")
    ax.set_yticks(range(k), short)
    ax.set_xlabel("opponent")
    ax.set_ylabel("level")
    fig.colorbar(image, ax=ax, label="row level's win share", shrink=0.85)
    return fig


def _first_seat_test(row: pd.Series, players: list[int], margin: float) -> str:
    """The verdict on "equal seats" for the first seat's rate against 1 / players (one table
    size only; nothing when several are pooled): an equivalence test within ``±margin`` (TOST,
    the rate's binomial standard error), so that a large p is never read as "no edge"."""
    if len(players) != 1 or not int(row.n):
        return ""
    p0 = 1.0 / players[0]
    rate, n = float(row.first_seat_rate), int(row.n)
    spread = rate * (1.0 - rate) if 0 < rate < 1 else p0 * (1.0 - p0)  # never a zero se
    se = math.sqrt(spread / n)
    test = equivalence_test(rate - p0, se, margin, n=n)
    edge = f"{100 * (rate - p0):+.1f} points"
    if test.verdict == EQUIVALENT:
        return (f"; its edge {edge} is equivalent to none within ±{100 * margin:g} points "
                f"(TOST p = {_p(test.p_equivalent)})")
    if test.verdict == DIFFERS:
        return f"; its edge {edge} differs from none (p = {_p(test.p_differs)})"
    return (f"; its edge {edge} is inconclusive against ±{100 * margin:g} points (an edge of "
            f"{100 * test.mde:.1f} points would be detected)")


def section_skill_profile(ctx: ReportContext) -> None:
    """The profile of the results' own head-to-head games; where they hold none, the stored
    profiles the report's configuration names (``[report] profiles``: folders written by
    ``tajsim profile``, read, not played again; see :func:`read_stored_profile`)."""
    r = ctx.results
    table = pd.DataFrame()
    if {"strategy", "seat", "winner"} <= set(r.columns):
        table = ctx.analysis("skill_profile")
    if not table.empty and len(set(table.loc[table["kind"] == "pair", "level"])) >= 3:
        players = sorted(int(p) for p in r["n_players"].unique())
        ctx.heading(2, "Skill profile")
        ctx.para(_profile_design(table, players))
        _show_profile(ctx, table, players, "skill_profile", "", r)
        return
    # a single pair is tajsim compare's (and the ratings section's) case: nothing shown
    stored = [read_stored_profile(Path(folder)) for folder in ctx.config.get("profiles", ())]
    if not stored:
        return
    ctx.heading(2, "Skill profile")
    levels = list(dict.fromkeys(lv for t, _ in stored for lv in t.attrs["levels"]))
    counts = sorted({int(info["players"]) for _, info in stored})
    ctx.para(_profile_design(stored[0][0], counts, levels)
             + " Read from the stored profiles named below (not played again for this "
             "report); each is made by the command shown, with its cost.")
    for table, info in stored:
        players = [int(info["players"])]
        made = (f"Made with `{info['command']}` ({float(info['wall_s']):.0f} s wall, "
                f"{float(info['cpu_s']):.0f} s CPU on the machine it ran on).")
        ctx.heading(3, f"{players[0]} players")
        ctx.para(made)
        saved = ctx.description
        ctx.description = (f"Simulated: tajsim profile, {players[0]}-player games, "
                           f"{int(info['games_per_match']):,} games a match (rounded up to "
                           f"whole seatings), seed {info['seed']}; stored in "
                           f"{info['folder']}.")
        try:
            _show_profile(ctx, table, players, f"skill_profile_{players[0]}p",
                          f" {players[0]} players.", None)
        finally:
            ctx.description = saved


def read_stored_profile(folder: Path) -> tuple[pd.DataFrame, dict]:
    """The long table (:func:`tajsim.analysis.skill_profile.skill_profile`) and the provenance
    (``profile.json``: game, players, levels, command, wall and CPU seconds) that ``tajsim
    profile`` wrote into ``folder``; ``attrs["levels"]`` set from the provenance. A folder
    without them is a one-line ``UserError``."""
    import json

    from tajsim.errors import UserError

    try:
        info = json.loads((folder / "profile.json").read_text())
        table = pd.read_csv(folder / "table_skill_profile.csv")
    except (OSError, ValueError) as exc:
        raise UserError(f"stored profile {str(folder)!r} cannot be read ({exc}); expected a "
                        "folder written by tajsim profile") from None
    table = table.astype({"level": str, "opponent": str, "kind": str, "n": np.int64,
                          "seats_balanced": bool})
    table.attrs["levels"] = [lv for lv in info["levels"] if lv in set(table["level"])]
    info["folder"] = str(folder)
    return table, info


def _profile_design(table: pd.DataFrame, players: list[int],
                    levels: list[str] | None = None) -> str:
    levels = levels or table.attrs.get("levels") or list(dict.fromkeys(
        table.loc[table["kind"] != "all", "level"]))
    return (
        f"The skill levels {join_words([f'**{lv}**' for lv in levels])} play each other head "
        "to head in every seating (two players: both seats; four: 2 against 2 in every "
        "arrangement; each level in each seat equally often), and each plays itself (the "
        "mirror). A cell is the row level's win share against the column level (ties shared), "
        "with its Wilson 95% interval over games and n (games); cell (B, A) is 100 minus cell "
        "(A, B), from the same games. The diagonal gives the first seat's win rate in the "
        f"level's mirror (equal players: {join_words([f'{100 / p:.0f}%' for p in players])}). "
        "This is the profile by which the TAG framework's balancing competition scores a "
        "variant: the win-rate matrix of its skill levels and the first player's rate.")


def _show_profile(ctx: ReportContext, table: pd.DataFrame, players: list[int], name: str,
                  where: str, frame: pd.DataFrame | None) -> None:
    """The matrix table, the heat map and the headline of one profile (``where``: a words
    suffix naming the table size in the captions; ``frame``: the games, None for a stored
    profile, whose caption is ``ctx.description``)."""
    levels = table.attrs.get("levels") or list(dict.fromkeys(
        table.loc[table["kind"] != "all", "level"]))
    pairs = table[table["kind"] == "pair"]
    met = set(pairs["level"])
    ctx.table(profile_cells(table), "The win-rate matrix (row level against column level), "
              f"Wilson 95% intervals, n games per cell.{where}", name=name, full=table)
    cells = pairs["n"].to_numpy(np.float64)
    if len(cells) and cells.min() > 0:
        ctx.para(f"With {int(cells.min()):,} games in the smallest cell, the smallest "
                 "difference of a cell's share from 50% these games detect (80% power, "
                 f"two-sided 5%) is {100 * float(mde_proportion(0.5, cells.min())):.1f} points.")
    ctx.figure(_profile_figure(table), name,
               f"The row level's win share against the column level (50%: equal).{where}",
               frame)
    shares = pairs.pivot(index="level", columns="opponent", values="ci_low")
    beats_all = [lv for lv in levels if lv in shares.index
                 and (shares.loc[lv].dropna() > 0.5).all()
                 and shares.loc[lv].notna().sum() == len(met) - 1]
    every = table[table["kind"] == "all"].iloc[0]
    baseline = join_words([f"{100 / p:.0f}%" for p in players])
    rate = _interval(every.first_seat_rate, every.first_seat_ci_low, every.first_seat_ci_high)
    first = (f"the first seat wins {rate} of the {int(every.n):,} profile games (equal "
             f"players: {baseline}{_first_seat_test(every, players, margin_of(ctx))})")
    unbalanced = (not bool(table["seats_balanced"].all()))
    caveat = (" Some cells' games do not hold each level in each seat equally often: their "
              "shares mix skill with seat." if unbalanced else "")
    smallest = pairs.loc[pairs["n"].idxmin()]
    lead = f"{players[0]} players: " if frame is None else ""
    if beats_all:
        top = beats_all[0]
        row = pairs[pairs["level"] == top]
        weakest = row.loc[row["ci_low"].idxmin()]
        ctx.headline(
            f"{lead}**{top}** beats every other level (each interval above 50%: an "
            "intersection-union test, every pair significant at 5%, needs no correction; its "
            f"closest: {_interval(weakest.share, weakest.ci_low, weakest.ci_high)} against "
            f"{weakest.opponent}, n = {int(weakest.n):,}); {first}.{caveat}")
    else:
        ctx.headline(f"{lead}No level's interval lies above 50% against every other (the "
                     f"smallest cell has n = {int(smallest.n):,} games); {first}.{caveat}")


# -- the chain -------------------------------------------------------------------------------
#: The chain figure's text on the page.
FIGURE_ALT = ("The stronger level's win share and the Elo-like gap per step, 95% intervals (a "
              "hollow marker: a step that is not significant)")


def chain_figure(table: pd.DataFrame) -> plt.Figure:
    """Two panels: the stronger level's win share per step and the Elo-like gap, each with its
    95% interval; a non-significant step drawn hollow."""
    steps = table["step"].to_numpy(np.int64)
    def budget(text: str) -> str:  # "mcts:iterations=25" -> "25"
        return text.split(":")[-1].partition("=")[2] or text

    pairs = [(budget(w), budget(st)) for w, st in zip(table["weaker"], table["stronger"])]
    # long budgets or many steps: the two budgets on two lines, so neighbouring labels (about
    # 36 characters fit across a panel) do not touch
    wide = len(pairs) * max((len(a) + len(b) + 1 for a, b in pairs), default=0) > 36
    arrow = "\u2192\n" if wide else "\u2192"
    labels = [f"{a}{arrow}{b}\nn = {int(n):,}" for (a, b), n in zip(pairs, table["n"])]
    fig, axes = plt.subplots(1, 2, figsize=(PAGE_WIDTH_IN, 3.4), layout="constrained")
    sig = table["significant"].to_numpy(bool)
    for ax, (est, low, high, name, ref) in zip(axes, (
            ("share", "ci_low", "ci_high", "stronger level's win share (%)", 50.0),
            ("elo", "elo_ci_low", "elo_ci_high", "Elo-like gap (points)", 0.0))):
        scale = 100.0 if est == "share" else 1.0
        e = table[est].to_numpy(np.float64) * scale
        lo = table[low].to_numpy(np.float64) * scale
        hi = table[high].to_numpy(np.float64) * scale
        finite = np.isfinite(e)
        top = np.nanmax(np.where(np.isfinite(hi), hi, e)[finite]) if finite.any() else 1.0
        hi = np.where(np.isfinite(hi), hi, max(top, 1.0) * 1.15)  # an infinite bound: clipped
        for i in range(len(steps)):
            if not finite[i]:
                continue
            ax.errorbar([i], [e[i]], yerr=error_bars([e[i]], [lo[i]], [hi[i]]), fmt="o",
                        color="#4f7fa8", mfc="#4f7fa8" if sig[i] else "white", ecolor="#333",
                        capsize=4)
        ax.axhline(ref, color=BASELINE_COLOUR, ls="--", lw=1)
        ax.set_xticks(range(len(steps)), labels)
        ax.set_xlim(-0.6, len(steps) - 0.4)
        ax.set_xlabel(f"step: {table.attrs.get('param', 'budget')} of the weaker \u2192 "
                      "stronger level")
        ax.set_ylabel(name)
    return fig


def chain_markdown(table: pd.DataFrame, command: str = "") -> str:
    """The chain as a Markdown page: what was played, the table, the chain's length with its
    test, and (when given) the command that made it."""
    a = table.attrs
    title = a.get("title", a.get("game", ""))
    length = int(a.get("chain_length", 0))
    ended = a.get("ended", "")
    lines = [f"# Skill chain: {title}, {a.get('players')} players", ""]
    factor = a.get("factor", 4)
    looks = int(a.get("looks", 1) or 1)
    alpha = float(a.get("alpha", 0.05))
    if looks > 1:
        stages = [int(x) for x in a.get("stages", [])]
        interim = float(a.get("interim_p", 0.001))
        final = float(a.get("final_level", alpha - interim * (looks - 1)))
        played = (
            f"for up to {stages[-1]:,} games in {looks} looks, after "
            f"{join_words([f'{x:,}' for x in stages])} games (each a whole number of seating "
            f"blocks; each stage's new games a match seeded from the chain's seed, the step and "
            f"the stage, so a look's games are a prefix of the full step's), seed "
            f"{a.get('seed', 0)}. A step stops at an interim look as significant only if its "
            f"one-sided p is below {interim:g} (a Haybittle-Peto boundary); the last look tests "
            f"at {final:g} = {alpha:g} - {looks - 1} x {interim:g}, so a step's type I error is "
            f"at most {100 * alpha:g}% (Bonferroni over its looks). A step significant early "
            "counts the games it played (n, look); a step that is not significant plays all "
            "of them, so the step that ends the chain is measured over the full count. (A step "
            "stopped early shows the fixed-n interval of its games; stopping on a large gain "
            "biases its estimate slightly upward: the design controls the decision, not the "
            "interval.)")
        test = "p: one-sided score test of a share of 50% against more, at the look's level."
    else:
        played = (f"for {a.get('games', 0):,} games (rounded up to whole seating blocks), seed "
                  f"{a.get('seed', 0)}.")
        test = ("p: one-sided score test of a share of 50% against more, at "
                f"{100 * alpha:g}%.")
    lines.append(
        f"Each level is the previous one at {factor:g} times the budget "
        f"(`{a.get('param', '')}`); each step plays the two levels head to head in every "
        f"seating (two players: both seats; four: 2 against 2 in every arrangement) {played} "
        "Win share of the stronger level (ties shared) with its Wilson 95% interval over games; "
        "Elo-like gap 400 log10(p / (1 - p)) with the interval mapped the same way; upset rate: "
        "the share of games the weaker level wins (a shared win counts), Wilson interval; "
        f"{test} The chain stops at the first step that is not significant (a fixed-sequence "
        f"procedure: the counted steps hold family-wise at {100 * alpha:g}%).")
    lines.append("")
    look_col = " look |" if looks > 1 else ""
    head = (f"| step | weaker | stronger | n |{look_col} stronger's share | Elo gap | upset rate "
            "| p (one-sided) | significant |")
    lines += [head, f"|---:|---|---|---:|{'---:|' if looks > 1 else ''}---|---|---|---:|---|"]
    for r in table.itertuples(index=False):
        look_cell = (f" {int(getattr(r, 'look', 1))} of {int(getattr(r, 'looks', 1))} |"
                     if looks > 1 else "")
        level = getattr(r, "level", alpha)
        sig = "yes" if r.significant else "no"
        sig += f" (at {float(level):g})" if looks > 1 else ""
        lines.append(
            f"| {r.step} | `{r.weaker}` | `{r.stronger}` | {r.n:,} |{look_cell} "
            f"{_interval(r.share, r.ci_low, r.ci_high)} | {_elo(r.elo)} "
            f"[{_elo(r.elo_ci_low)}, {_elo(r.elo_ci_high)}] | "
            f"{_interval(r.upset_rate, r.upset_ci_low, r.upset_ci_high)} | {_p(r.p_value)} | "
            f"{sig} |")
    lines.append("")
    if ended == "not significant":
        last = table.iloc[-1]
        verdict = {"equivalent": f"the gain is within ±{100 * a.get('margin', 0.02):g} points "
                                 "of none (TOST, equivalent)",
                   # not significant one-sided yet different: the share is below 50%
                   "differs": "the higher budget does worse (two-sided test of no gain)",
                   "inconclusive": f"inconclusive: its {last.n:,} games detect a gain of "
                                   f"{100 * last.mde:.1f} points of win share (80% power, "
                                   "two-sided 5%), not a smaller one"}.get(
            str(last.equivalence), str(last.equivalence))
        top = table.iloc[length - 1]["stronger"] if length else table.iloc[0]["weaker"]
        worse = str(last.equivalence) == "differs" and float(last.share) < 0.5
        # a chain that ends on a loss (more budget plays worse) has not reached where more
        # search stops paying: it says so rather than "strong play ends here"
        where = (f"the higher budget loses, so `{last.weaker}` lies below the budgets at which "
                 "more search pays (a dip of the search's curve, not its top); this chain does "
                 "not measure where strong play ends" if worse else
                 f"strong play for this game at this table size ends at `{top}`")
        lines.append(
            f"**Chain length: {length}** significant step{'s' if length != 1 else ''}: "
            f"measured with {last.n:,} games a step, {where}. The step that ends "
            f"the chain, `{last.weaker}` against `{last.stronger}`, gives the higher budget "
            f"{_interval(last.share, last.ci_low, last.ci_high)} (n = {last.n:,}, one-sided p "
            f"= {_p(last.p_value)}); {verdict}.")
    elif ended == "running":
        lines.append(f"**Chain length so far: at least {length}**: every step played gained "
                     "significantly and the chain was still climbing when this was written (a "
                     "chain interrupted here has not measured its end).")
    else:
        why = ("the next budget leaves the parameter's range" if a.get("ended_by_range")
               else "the step limit (--max-steps) was reached")
        lines.append(f"**Chain length: at least {length}**: every step played gained "
                     f"significantly; the chain stopped because {why}, so its end is not "
                     "measured.")
    if command:
        lines += ["", "Made with:", "", "```", command, "```"]
        earlier = int(a.get("earlier_steps") or 0)
        if earlier:
            lines += ["", f"Resumed: {_steps(1, earlier)} played earlier, "
                      f"{_steps(earlier + 1, len(table), word=False)} in a resumed run "
                      "(`--resume`: the earlier steps kept, not replayed; each step's games are "
                      "seeded from the chain's seed and the step, so the table is the one this "
                      "command makes in one go)."]
        if a.get("wall_s") is not None:
            workers = a.get("workers")
            cores = ("all cores" if workers is None
                     else f"{workers} worker{'s' if workers != 1 else ''}")
            how = (f"{cores}; the CPU of this process and its finished worker processes")
            wall, cpu = float(a["wall_s"]), float(a["cpu_s"])
            if not earlier:
                lines += ["", f"Cost: {wall:,.0f} s wall, {cpu:,.0f} s CPU ({how}) on the "
                          "machine it ran on."]
            elif a.get("earlier_wall_s") is not None:
                e_wall, e_cpu = float(a["earlier_wall_s"]), float(a["earlier_cpu_s"])
                lines += ["", f"Cost: {e_wall + wall:,.0f} s wall, {e_cpu + cpu:,.0f} s CPU in "
                          f"all: {e_wall:,.0f} s wall, {e_cpu:,.0f} s CPU earlier "
                          f"({_steps(1, earlier)}) and {wall:,.0f} s wall, {cpu:,.0f} s CPU in "
                          f"the resumed run ({_steps(earlier + 1, len(table))}; {how}), on the "
                          "machines they ran on."]
            else:
                lines += ["", f"Cost of the resumed run ({_steps(earlier + 1, len(table))}): "
                          f"{wall:,.0f} s wall, {cpu:,.0f} s CPU ({how}) on the machine it "
                          f"ran on; the earlier run's ({_steps(1, earlier)}) is not recorded."]
            stored = int(a.get("stored_games") or 0) + int(a.get("earlier_stored_games") or 0)
            if stored:
                lines.append(f"The cost leaves out the {stored:,} games read back from "
                             f"`{a.get('store')}` rather than played: an earlier run of this "
                             "command played and kept them (`--store`; a game is fixed by its "
                             "seed, so they are the games this command plays).")
    return "\n".join(lines) + "\n"


def _steps(first: int, last: int, word: bool = True) -> str:
    """``steps 1-2``, ``step 3`` (``3`` without ``word``); ``no step`` for none."""
    if last < first:
        return "no step"
    span = str(first) if first == last else f"{first}-{last}"
    return f"{'step' if first == last else 'steps'} {span}" if word else span


def write_chain(table: pd.DataFrame, out_dir: str | Path, command: str = "",
                figure: bool = True) -> list[Path]:
    """Write ``chain.csv`` (the full table), ``chain.md`` (:func:`chain_markdown`) and, with
    ``figure``, ``fig_chain.png`` (:func:`chain_figure`) into ``out_dir``; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "chain.csv", out / "chain.md"]
    write_csv(table, paths[0])
    text = chain_markdown(table, command)
    if figure:
        text = text.replace("\nMade with:", f"\n![{FIGURE_ALT}](fig_chain.png)"
                                             "\n\nMade with:") if command else \
            text + f"\n![{FIGURE_ALT}](fig_chain.png)\n"
        with report_style():
            paths.append(out / "fig_chain.png")
            save_png(chain_figure(table), paths[-1])
            plt.close("all")
    atomic_write(paths[1], text.encode("utf-8"))
    return paths


# -- a chain read back (tajsim chain --resume) ------------------------------------------------
#: The options of a chain's "Made with" command that :func:`read_chain` reads, and their types.
_MADE_WITH = {"--game": ("game", str), "-p": ("players", int), "--start": ("start", str),
              "--games": ("games", int), "--looks": ("looks", int),
              "--interim-p": ("interim_p", float), "--max-steps": ("max_steps", int),
              "--factor": ("factor", float), "--edition": ("edition", str),
              "--seed": ("seed", int), "--out": ("out", str), "-w": ("workers", int),
              "--store": ("store", str)}
#: The options that make a chain's design (every one of :data:`_MADE_WITH` but those that
#: change no game): option name -> its flag.
CHAIN_DESIGN_FLAGS = {name: flag for flag, (name, _) in _MADE_WITH.items()
                      if name not in ("max_steps", "out", "workers", "store")}
#: The columns of chains written before the group-sequential steps (one look each).
_ONE_LOOK_COLUMNS = CHAIN_COLUMNS[:-3]


@dataclass(frozen=True)
class StoredChain:
    """A chain that ``tajsim chain`` wrote (:func:`read_chain`): its table (the columns of
    :data:`~tajsim.analysis.skill_chain.CHAIN_COLUMNS`, the values as ``chain.csv`` holds them),
    the options of the command that made it (its design: ``game``, ``players``, ``start``,
    ``games``, ``looks``, ``interim_p`` (None where the command does not give it: the default),
    ``max_steps``, ``factor``, ``seed``, ``edition`` (None: the default), ``out``, ``workers``),
    that command, and its cost (wall and CPU seconds; None where ``chain.md`` has no Cost
    line), and ``stored_games``: the games its runs read back from ``--store`` rather than
    played, which the cost leaves out (0 where ``chain.md`` names none)."""

    table: pd.DataFrame
    options: dict[str, Any]
    command: str
    wall_s: float | None
    cpu_s: float | None
    stored_games: int = 0


def _csv_value(text: str, kind: str) -> Any:
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text) if text != "" else float("nan")
    if kind == "bool":
        if text not in ("True", "False"):
            raise ValueError(text)
        return text == "True"
    if text == "":
        raise ValueError(text)
    return text


#: The kind of each chain column's values in chain.csv.
_COLUMN_KIND = {c: ("int" if c in ("step", "n", "look", "looks")
                    else "bool" if c in ("significant", "ends_chain")
                    else "str" if c in ("weaker", "stronger", "equivalence") else "float")
                for c in CHAIN_COLUMNS}


def read_chain(folder: str | Path) -> StoredChain:
    """The chain ``tajsim chain`` wrote into ``folder``: ``chain.csv`` (every value checked
    against its column's type) and the "Made with" command and Cost line of ``chain.md`` (the
    chain's design). A chain of one-look steps written before the look columns existed reads
    with ``look`` 1, ``looks`` 1 and ``level`` 0.05 (what it tested at). A missing, corrupt or
    truncated file is a one-line ``UserError`` naming it and what was expected; nothing is
    guessed."""
    from tajsim.errors import UserError

    folder = Path(folder)
    csv_path, md_path = folder / "chain.csv", folder / "chain.md"
    expected = ("expected the chain.csv and chain.md that tajsim chain writes (run it without "
                "--resume to start a chain)")
    for path in (csv_path, md_path):
        if not path.is_file():
            raise UserError(f"--resume: {path} is missing; {expected}")
    try:
        text = md_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"--resume: {md_path} cannot be read ({exc}); {expected}") from None
    found = re.search(r"^Made with:\n\n```\n(.+)\n```", text, re.MULTILINE)
    if found is None:
        raise UserError(f"--resume: {md_path} has no \"Made with\" command; expected the "
                        "chain.md of tajsim chain, whose command gives the chain's design")
    command = found.group(1).strip()
    options = _made_with_options(command, md_path)
    cost = re.search(r"^Cost: ([\d,.]+) s wall, ([\d,.]+) s CPU", text, re.MULTILINE)
    wall = float(cost.group(1).replace(",", "")) if cost else None
    cpu = float(cost.group(2).replace(",", "")) if cost else None
    left_out = re.search(r"^The cost leaves out the ([\d,]+) games read back", text, re.MULTILINE)
    stored_games = int(left_out.group(1).replace(",", "")) if left_out else 0
    try:
        raw = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"--resume: {csv_path} cannot be read ({first}); expected the table "
                        "tajsim chain writes") from None
    columns = tuple(raw.columns)
    if columns == _ONE_LOOK_COLUMNS and options["looks"] == 1:
        raw = raw.assign(look="1", looks="1", level=str(ALPHA))
    elif columns != CHAIN_COLUMNS:
        missing = [c for c in CHAIN_COLUMNS if c not in columns]
        other = [c for c in columns if c not in CHAIN_COLUMNS]
        what = (f"missing {', '.join(missing[:4])}" if missing else
                f"other columns {', '.join(other[:4])}" if other else "columns out of order")
        raise UserError(f"--resume: {csv_path} has the wrong columns ({what}); expected the "
                        f"{len(CHAIN_COLUMNS)} columns {CHAIN_COLUMNS[0]} .. {CHAIN_COLUMNS[-1]} "
                        "that tajsim chain writes")
    rows: list[dict[str, Any]] = []
    for i, record in enumerate(raw.to_dict("records")):
        row: dict[str, Any] = {}
        for column in CHAIN_COLUMNS:
            value, kind = record[column], _COLUMN_KIND[column]
            try:
                row[column] = _csv_value(str(value), kind)
            except ValueError:
                raise UserError(f"--resume: {csv_path} line {i + 2}, column {column}: "
                                f"{value!r} is not {'a' if kind != 'int' else 'an'} {kind}; "
                                "expected the table tajsim chain writes") from None
        rows.append(row)
    if not rows:
        raise UserError(f"--resume: {csv_path} holds no steps; expected the table tajsim chain "
                        "writes after each step")
    table = pd.DataFrame(rows, columns=list(CHAIN_COLUMNS))
    return StoredChain(table, options, command, wall, cpu, stored_games)


def _made_with_options(command: str, where: Path) -> dict[str, Any]:
    """The options of a chain's "Made with" command (:data:`_MADE_WITH`); a one-line
    ``UserError`` for a command that is not a chain's."""
    from tajsim.errors import UserError

    def bad(what: str) -> UserError:
        return UserError(f"--resume: {where}'s \"Made with\" command {what}; expected the "
                         "tajsim chain command that made the chain")

    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise bad(f"cannot be split ({exc})") from None
    if words[:2] != ["tajsim", "chain"]:
        raise bad("is not a tajsim chain command")
    options: dict[str, Any] = {"interim_p": None, "edition": None, "workers": None,
                               "store": None}
    rest = words[2:]
    while rest:
        flag = rest.pop(0)
        if flag not in _MADE_WITH:
            raise bad(f"has an option it does not know ({flag})")
        if not rest:
            raise bad(f"ends without {flag}'s value")
        name, kind = _MADE_WITH[flag]
        value = rest.pop(0)
        try:
            options[name] = kind(value)
        except ValueError:
            raise bad(f"gives {flag} {value!r}, not {'an int' if kind is int else 'a number'}")\
                from None
    missing = [f for f, (name, _) in _MADE_WITH.items() if name not in options]
    if missing:
        raise bad(f"lacks {', '.join(missing)}")
    return options
