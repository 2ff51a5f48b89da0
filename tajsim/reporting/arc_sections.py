"""The report section on the arc of a game (issue 40, section 4): lead changes, comebacks, the
runaway-leader test against its null model, kingmaking and (Maharaja) the turn order of a round,
from :mod:`tajsim.analysis.arc`.

Generic (registered in :data:`tajsim.reporting.sections.GENERIC_SECTIONS` as ``arc``); it skips
itself, without a heading, when the records keep no score trajectory (``score_r<k>``). Groups
are the runs' ``variant`` labels (the levels of an arc experiment) and the table sizes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tajsim.analysis.frames import round_columns
from tajsim.analysis.stats.multiple_tests import holm
from tajsim.analysis.stats.verdicts import holm_family, minimum_detectable_effect
from tajsim.reporting.render import (
    ReportContext,
    error_bars,
    panel_grid,
    series_colour,
)

__all__ = ["arc_table_wide", "section_arc"]

#: The figure shows a round that at least this many games of a group reached with a sole leader.
MIN_GAMES_A_ROUND = 100


def _pct(est: float, low: float, high: float) -> str:
    if not np.isfinite(est):
        return "n/a"
    return f"{100 * est:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _pts(est: float, low: float, high: float) -> str:
    return f"{100 * est:+.1f} [{100 * low:+.1f}, {100 * high:+.1f}]"


def _group(row: pd.Series) -> str:
    level = f"{row['variant']}, " if "variant" in row and pd.notna(row["variant"]) else ""
    return f"{level}{int(row['n_players'])}p"


def _keys(frame: pd.DataFrame) -> list[str]:
    return [c for c in ("variant", "n_players") if c in frame.columns]


def arc_table_wide(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per group of :func:`tajsim.analysis.arc.arc_summary`'s long frame: lead changes,
    the mid-game leader's chance observed and under the null, the runaway verdict and a
    trailing seat's chance, each with its 95% interval."""
    rows = []
    tests = summary[summary["measure"] == "runaway"]
    adjusted = dict(zip(tests.index, holm(tests["p_differs"].to_numpy(np.float64))))
    for _, g in summary.groupby(_keys(summary), sort=False):
        m = {(r.measure, r.label): r for r in g.itertuples()}
        first = g.iloc[0]
        row: dict[str, object] = {}
        if "variant" in g.columns:
            row["level"] = first["variant"]
        mean = m[("lead_changes", "mean")]
        row.update({"players": int(first["n_players"]), "games": int(mean.n),
                    "lead changes": f"{mean.estimate:.2f} [{mean.ci_low:.2f}, "
                                    f"{mean.ci_high:.2f}]"})
        none = m[("lead_changes", "0")]
        row["no change"] = _pct(none.estimate, none.ci_low, none.ci_high)
        obs, null = m[("leader_wins", "observed")], m[("leader_wins", "null")]
        row["mid-game leader wins"] = _pct(obs.estimate, obs.ci_low, obs.ci_high)
        row["null (no feedback)"] = _pct(null.estimate, null.ci_low, null.ci_high)
        test = m.get(("runaway", "observed - null"))
        if test is not None:
            row["observed - null (pts)"] = _pts(test.estimate, test.ci_low, test.ci_high)
            row["p"] = f"{test.p_value:.2g}" if np.isfinite(test.p_value) else "n/a"
            row["verdict"] = test.verdict
            row["p (differs, Holm)"] = f"{adjusted[test.Index]:.2g}"
        back = m[("comeback", "behind at mid-game")]
        row["behind at mid-game wins"] = _pct(back.estimate, back.ci_low, back.ci_high)
        rows.append(row)
    return pd.DataFrame(rows)


def _by_round_figure(ctx: ReportContext, by_round: pd.DataFrame, results: pd.DataFrame) -> None:
    # a round that few games reach (the long tail of a game of variable length) is left out;
    # a small run keeps the rounds that half its games reach
    observed = by_round[by_round["measure"] == "leader_wins_by_round"]
    least = min(MIN_GAMES_A_ROUND, int(observed["n"].max()) // 2) if len(observed) else 0
    wins = observed[observed["n"] >= max(least, 1)]
    nulls = by_round[by_round["measure"] == "null_leader_wins_by_round"]
    sizes = sorted(int(n) for n in wins["n_players"].unique())
    if not sizes:
        return
    fig, axes = panel_grid(len(sizes), panel_height=3.0, max_columns=2)
    for ax, n in zip(axes, sizes, strict=True):
        sub = wins[wins["n_players"] == n]
        groups = list(dict.fromkeys(sub["variant"])) if "variant" in sub.columns else [None]
        for i, group in enumerate(groups):
            part = sub if group is None else sub[sub["variant"] == group]
            x = part["label"].astype(int).to_numpy()
            est = 100 * part["estimate"].to_numpy(np.float64)
            low = 100 * part["ci_low"].to_numpy(np.float64)
            high = 100 * part["ci_high"].to_numpy(np.float64)
            colour = series_colour(i)
            ax.errorbar(x + 0.08 * (i - (len(groups) - 1) / 2), est,
                        yerr=error_bars(est, low, high), fmt="o-", ms=3, lw=1, capsize=2,
                        color=colour, label=str(group) if group is not None else None)
            nul = nulls[nulls["n_players"] == n]
            nul = nul if group is None else nul[nul["variant"] == group]
            nul = nul[nul["label"].astype(int).isin(x)]  # the rounds the level's points show
            ax.plot(nul["label"].astype(int).to_numpy(), 100 * nul["estimate"].to_numpy(),
                    ls=":", lw=1.2, color=colour)
        ax.axhline(100 / n, color="#999", lw=1, ls="--")
        ax.set_title(f"{n} players", fontsize=9)
        ax.set_xlabel("round")
        ax.set_ylabel("sole leader wins (%)")
        ax.set_ylim(0, 100)
        if groups != [None]:
            ax.legend(fontsize=7, frameon=False, loc="lower right")
    ctx.figure(fig, "arc_leader_by_round", "The sole leader's chance of winning (%, 95% Wilson "
               "interval) after each round, by level (points and solid lines), and the same in "
               "the null model without feedback (dotted lines of the level's colour: 5 copies "
               "of every game, each seat's round points drawn independently); the dashed grey "
               "line is 1/n, the chance of a seat chosen at random. The last round is the "
               f"final score; rounds that fewer than {least:,} games of a level reached with a "
               "sole leader are left out (every round is in the analysis `arc_by_round`).",
               results)


def section_arc(ctx: ReportContext) -> None:
    r = ctx.results
    if not round_columns(r):
        return
    summary = ctx.analysis("arc_summary")
    if summary.empty:
        return
    ctx.heading(2, "The arc of a game")
    ctx.para(
        "From the per-round score trajectories of the records (each seat's score after every "
        "round; the last round is the final score). The **leader** after a round is the seat "
        "with the most points, alone; **lead changes** count the rounds in which the sole "
        "leader differs from the previous one (tied rounds skipped, the final scores included); "
        "**mid-game** is after round ceil(R/2) of a game of R rounds. The arc's winner is the "
        "seat with the highest final score (k tied seats 1/k each), so that the games and the "
        "null model are scored alike. The **runaway test** compares the sole mid-game leader's "
        "chance of winning with the same in a **null model without feedback**: 20 synthetic "
        "copies of every game in which each seat's points in each round are drawn independently "
        "from the same seat's points, under the same strategy, in the same round of the other "
        "games (a last round, with its end scoring, from the other games' last rounds). The null "
        "keeps every seat's and strategy's own scoring rate round by round (a seat's edge, the "
        "better player); it removes every dependence between a seat's rounds within a game: "
        "feedback from the standing and a lasting edge within one game alike. A difference "
        "(two-sided test at 5%, normal interval with the null's own sampling error; "
        "Holm-adjusted over the table's groups in its last column) above zero "
        "reads **runaway** (a lead is worth more than the seats' own rates give it: the leader "
        "pulls away), below zero **catch-up**; a difference within ±5 points (TOST at 5%) reads "
        "**no feedback** (a lead is worth what the players' own rates and the luck so far give "
        "it: the better player, not a runaway). Each verdict is its own test at 5%.")
    words = []
    for _, g in summary.groupby(_keys(summary), sort=False):
        m = {(x.measure, x.label): x for x in g.itertuples()}
        test = m.get(("runaway", "observed - null"))
        obs, null = m[("leader_wins", "observed")], m[("leader_wins", "null")]
        mean = m[("lead_changes", "mean")]
        verdict = f"**{test.verdict}** (p = {test.p_value:.2g})" if test is not None else "n/a"
        words.append(
            f"{_group(g.iloc[0])}: {mean.estimate:.2f} lead changes a game "
            f"[{mean.ci_low:.2f}, {mean.ci_high:.2f}], the mid-game leader wins "
            f"{_pct(obs.estimate, obs.ci_low, obs.ci_high)} (n = {obs.n:,}) against "
            f"{_pct(null.estimate, null.ci_low, null.ci_high)} without feedback: {verdict}")
    tests = summary[summary["measure"] == "runaway"]
    family = holm_family(tests["p_differs"].to_numpy(np.float64))
    up = tests[(tests["verdict"] == "runaway")]
    ctx.headline("; ".join(words) + ". Over the groups, "
                 + family.statement("differences from the null (two-sided)")
                 + f"; {len(up)} of {len(tests)} read runaway one by one.")
    # the interval is normal (the observed and the null's sampling errors), so its width gives
    # the standard error the detectable difference rests on
    se = (tests["ci_high"].to_numpy(np.float64) - tests["ci_low"].to_numpy(np.float64)) / (
        2.0 * 1.959963984540054)
    mde = minimum_detectable_effect(se)
    if len(tests) and np.isfinite(mde).any():
        ctx.para("The smallest difference from the null these games detect (80% power, "
                 f"two-sided 5%): {100 * np.nanmin(mde):.1f} to {100 * np.nanmax(mde):.1f} "
                 "points across the groups; a smaller feedback may exist unseen.")
    ctx.table(arc_table_wide(summary), "Lead changes a game (mean, t interval; the share of "
              "games without one, Wilson), the sole mid-game leader's chance of winning "
              "observed and in the null model without feedback (Wilson), their difference in "
              "points (95% interval), its p-value and verdict, and the chance of a seat behind "
              "at mid-game (seat-games, Wilson).", "arc_summary", full=summary)
    deficit = ctx.analysis("comeback_by_deficit")
    if len(deficit):
        d = deficit[deficit["measure"] == "comeback_by_deficit"].copy()
        d["group"] = [_group(x) for _, x in d.iterrows()]
        d["win"] = [_pct(x.estimate, x.ci_low, x.ci_high) for x in d.itertuples()]
        wide = d[["group", "label", "win", "n"]].rename(
            columns={"label": "mid-game deficit (points)", "win": "wins (95%)",
                     "n": "seat-games"})
        ctx.table(wide, "Winning from behind: a seat's chance of winning by its deficit to the "
                  "sole leader at mid-game, in bins of equal counts (points of the game's "
                  "score; Wilson intervals).", "comeback_by_deficit", full=deficit)
    _by_round_figure(ctx, ctx.analysis("arc_by_round"), r)
    if (r["n_players"] >= 4).any() and "seed" in r.columns:
        king = ctx.analysis("kingmaking")
        if len(king):
            k = king.copy()
            k["group"] = [_group(x) for _, x in k.iterrows()]
            k["share"] = [_pct(x.estimate, x.ci_low, x.ci_high) for x in k.itertuples()]
            shown = k[["group", "measure", "label", "share", "n"]]
            games = k[(k["measure"] == "kingmaking") & (k["label"] == "games")]
            ctx.headline("Kingmaking at 4 or more players (a seat out of contention at the "
                         "start of the last round whose other play of that round changes the "
                         "winner): " + "; ".join(
                             f"{_group(x)}: {_pct(x.estimate, x.ci_low, x.ci_high)} of games "
                             f"(n = {int(x.n):,})" for _, x in games.iterrows()) + ".")
            ctx.para(
                "Kingmaking, defined operationally: at the start of a game's last round a seat "
                "is **out of contention** when its deficit to the leader is larger than the "
                "most any seat of the group gained on the leader in a last round (no last round "
                "seen in these games lets it catch up). The game is replayed from that moment "
                "with that seat alone drawing its choices from another policy stream (another play "
                "of the round in its own style; every other seat, and chance, as before); the "
                "seat **decides who wins** when the winners change. Limits: another play in the "
                "seat's style, not its best or worst one, so the share says whether its "
                "choices can matter, not whether a player would use them; a deterministic "
                "strategy replays the same (none here: every level is stochastic); every "
                "replay is checked to reproduce the recorded final scores (`not_reproduced`).")
            ctx.table(shown, "Kingmaking: the share of games (Wilson) in which a seat out of "
                      "contention decides who wins, the share with such a seat, the share "
                      "among those, and replays that did not reproduce the game.",
                      "kingmaking", full=king)
    if "turn_r1" in r.columns and "draft_pos" in r.columns:
        turns = ctx.analysis("turn_order")
        effect = turns[turns["measure"] == "first_turn_effect"]
        if len(effect):
            ctx.headline("Acting first in a round, the draft place held fixed: " + "; ".join(
                f"{_group(x)}: {100 * x.estimate:+.2f} points of win rate a round acting "
                f"first [{100 * x.ci_low:+.2f}, {100 * x.ci_high:+.2f}] (n = {int(x.n):,} "
                f"games; {x.verdict}, p = {x.p_value:.2g}, margin ±2 points)"
                for _, x in effect.iterrows()) + ".")
        t = turns.copy()
        t["group"] = [_group(x) for _, x in t.iterrows()]
        t["value"] = [(_pct(x.estimate, x.ci_low, x.ci_high) if x.measure != "first_turn_effect"
                       else _pts(x.estimate, x.ci_low, x.ci_high)) for x in t.itertuples()]
        ctx.para("Maharaja's turn order in a round (the seats by the character cards they hold "
                 "at the reveal) is told apart from the setup draft: the win rate by draft "
                 "place, by the rounds in which a seat acted first, and the effect of one more "
                 "round acting first with the draft place held fixed (a linear probability "
                 "model with one intercept per game and draft-place dummies, standard errors "
                 "clustered by game; verdict by TOST within ±2 points a round).")
        ctx.table(t[["group", "measure", "label", "value", "n", "verdict"]],
                  "Turn order and draft: win rates (Wilson) and the effect of acting first "
                  "(points of win rate a round, 95% interval).", "turn_order", full=turns)
