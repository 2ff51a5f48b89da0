"""Report sections about the players rather than the game: the key conclusions across skill
levels (:mod:`tajsim.analysis.skill`) and restricted play (:mod:`tajsim.analysis.restricted`).

Both are generic (:data:`tajsim.reporting.sections.GENERIC_SECTIONS` registers them) and skip
themselves, without a heading, on data they do not fit: the skill section needs runs labelled
with a ``variant`` that play different strategies (variants that play the same strategies are
component sets or rule options: the robustness section's case), the restricted-play section a
strategy with ``forbid=``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tajsim.analysis import skill
from tajsim.analysis.restricted import WIN_RATE, split_restriction
from tajsim.analysis.stats import normal_quantile
from tajsim.analysis.stats.verdicts import holm_family, minimum_detectable_effect, tested_order
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    ReportContext,
    error_bars,
    join_words,
    n_games,
    panel_grid,
    pct,
    series_colour,
)
from tajsim.reporting.verdict_wording import margin_kwargs, margin_of, mde_clause, verdict_legend

__all__ = ["section_restricted", "section_skill", "skill_table_wide"]


def _level_strategies(results: pd.DataFrame, column: str = "variant") -> dict[str, list[str]]:
    """The strategies each variant plays, variants in their order."""
    return {str(k): sorted(g["strategy"].astype(str).unique())
            for k, g in results.groupby(column, observed=True, sort=True)}


def skill_table_wide(long: pd.DataFrame) -> pd.DataFrame:
    """The skill analysis (:func:`tajsim.analysis.skill.skill_levels`) as conclusion x level:
    each cell ``"<status>: <value>"``; levels as columns in their order; a conclusion that
    also holds at a ``random`` level is marked ``(structural)``."""
    levels = list(dict.fromkeys(long["level"]))
    cells = long.assign(cell=[f"{s}: {v}" for s, v in zip(long["status"], long["value"])])
    wide = cells.pivot(index="conclusion", columns="level", values="cell")
    order = list(dict.fromkeys(long["conclusion"]))
    wide = wide.reindex(index=order, columns=levels).reset_index().rename_axis(columns=None)
    if "structural" in long.columns:
        structural = long.groupby("conclusion", sort=False)["structural"].any()
        wide["conclusion"] = [f"{c} (structural)" if structural.get(c, False) else c
                              for c in wide["conclusion"]]
    return wide


def section_skill(ctx: ReportContext) -> None:
    r = ctx.results
    if "variant" not in r.columns or r["variant"].nunique() < 2:
        return
    plays = _level_strategies(r)
    if len({tuple(v) for v in plays.values()}) < 2:
        return  # the variants play the same strategies: components or rules, not skill
    ctx.heading(2, "Across skill levels")
    reference = ctx.config.get("skill_reference") if ctx.config else None
    reference = reference if reference in plays else None
    long = ctx.analysis("skill_levels", reference=reference, **margin_kwargs(ctx))
    games = {str(k): n_games(g) for k, g in r.groupby("variant", observed=True, sort=True)}
    described = "; ".join(f"**{lv}**: {join_words(s)} ({games[lv]:,} games)"
                          for lv, s in plays.items())
    ref_words = (f"the conclusions of the reference level **{reference}**" if reference
                 else "the most common conclusive value of each conclusion over the levels")
    ctx.para(f"The key conclusions (the robustness conclusions of {ctx.spec.title}) checked at "
             f"{len(plays)} skill levels: {described}. Each cell compares a level's verdict "
             f"with {ref_words}: **holds** (the same statement), **fails** (a conclusive "
             "statement that contradicts it: the other sign, a difference against an "
             "equivalence or the reverse, another best item), **inconclusive** (the level "
             "cannot confirm it: too few games, or items it does not tell apart), **n/a** (not "
             "computable there). A conclusion marked **(structural)** also holds where every "
             "seat plays `random`: the rules make it, not the players' skill. "
             + verdict_legend(margin_of(ctx))
             + (" Every level is a mirror match (one strategy in every seat), so the "
                "conclusions about strategies (the best strategy, the strategy ranking) have no "
                "value and are left out: what remains is about the game at that level of play."
                if all(len(v) == 1 for v in plays.values()) else ""))
    judged = long[long["status"] != skill.NOT_AVAILABLE]
    per_conclusion = judged.groupby("conclusion", sort=False)["status"]
    always = [c for c, s in per_conclusion if (s == skill.HOLDS).all()]
    familywise = sorted(set(long.loc[long["holds_familywise"], "conclusion"]),
                        key=list(dict.fromkeys(long["conclusion"])).index)
    structural = [c for c in always
                  if bool(long.loc[long["conclusion"] == c, "structural"].any())]
    failing = {c: list(judged.loc[s.index][s == skill.FAILS]["level"])
               for c, s in per_conclusion if (s == skill.FAILS).any()}
    weak = {c: list(judged.loc[s.index][s == skill.INCONCLUSIVE]["level"])
            for c, s in per_conclusion
            if c not in failing and (s == skill.INCONCLUSIVE).any()}
    n_judged = judged["conclusion"].nunique()
    n_statements = int((long["status"] == skill.HOLDS).sum())
    fail_words = "; ".join(f"{c} fails at {join_words(lv)}" for c, lv in failing.items())
    weak_words = "; ".join(f"{c} at {join_words(lv)}" for c, lv in weak.items())
    per_level = ", ".join(f"{g:,}" for g in games.values())
    mde = mde_clause(long, "level")
    ctx.headline(
        f"Across {len(plays)} skill levels ({per_level} games), {len(always)} of {n_judged} key "
        f"conclusions hold at every level where they can be computed"
        + (f" ({join_words(always)})" if always else "")
        + (f"; {len(familywise)} of them family-wise (Holm over the {n_statements} "
           f"statement{'s' if n_statements != 1 else ''} that hold)" if always else "")
        + (f"; structural (they hold for `random` too): {join_words(structural)}"
           if structural else "")
        + (f"; {fail_words}" if failing else "")
        + (f"; inconclusive: {weak_words}" if weak else "") + "."
        + (f" Smallest first-seat effect detectable: {mde}." if mde else ""))
    ctx.table(skill_table_wide(long), "Key conclusions by skill level (status: value).",
              "skill_levels", full=long)
    details = long[["conclusion", "level", "status", "value", "detail", "p_value", "p_holm",
                    "n"]]
    ctx.table(details, "Every conclusion at every level with its estimate, 95% interval and "
              "test (p_value: of the level's own statement; p_holm: Holm over the statements "
              "that hold; n: games at the level).")


def _loss_cell(row: pd.Series, measure: str) -> str:
    if measure == WIN_RATE:
        return (f"{100 * row['loss']:+.1f} pts [{100 * row['ci_low']:+.1f}, "
                f"{100 * row['ci_high']:+.1f}]")
    return f"{row['loss']:+.2f} [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]"


def section_restricted(ctx: ReportContext) -> None:
    r = ctx.results
    if not any(split_restriction(s)[1] for s in r["strategy"].astype(str).unique()):
        return
    ctx.heading(2, "Restricted play")
    table = ctx.analysis("restricted_play")
    measures = list(dict.fromkeys(table["measure"]))
    levels = list(dict.fromkeys(table["level"]))
    restrictions = list(dict.fromkeys(table["restriction"]))
    ctx.para(
        "What a feature is worth to the player who may not use it (Jaffe et al., AIIDE 2012): "
        "one seat plays a strategy forbidden a family of actions (`forbid=...`) against the "
        "same strategy unrestricted in the other seats, in every seat rotation. The loss is the "
        "unrestricted seats' mean minus the restricted seat's (positive: the feature pays). Win "
        "rate in percentage points (a shared win counts 1/k), Newcombe's interval; "
        f"{join_words([m for m in measures if m != WIN_RATE])} with t intervals of the per-game "
        "difference. Newcombe treats the seats as independent; the paired per-game interval "
        "(in the full table) is the one that respects a game's seats, and a loss is called "
        "significant when both exclude 0. n: games (one restricted seat each).")
    wide = []
    for (restriction, level), grp in table.groupby(["restriction", "level"], sort=False):
        row: dict[str, object] = {"restriction": restriction, "level": level}
        for m in measures:
            sel = grp[grp["measure"] == m].iloc[0]
            row[f"{m} loss" if m != WIN_RATE else "win-rate loss"] = _loss_cell(sel, m)
        row["significant (win rate)"] = bool(grp[grp["measure"] == WIN_RATE]
                                             ["significant"].iloc[0])
        row["n"] = int(grp["n"].iloc[0])
        wide.append(row)
    prints = _footprints(ctx, table)
    for row in wide:
        got = prints.get(str(table[(table["restriction"] == row["restriction"])
                                   & (table["level"] == row["level"])]
                             ["restricted_strategy"].iloc[0]))
        row["decisions changed"] = got[0] if got else "-"
        row["actions removed"] = got[1] if got else "-"
    wide_frame = pd.DataFrame(wide)
    wide_frame["_r"] = wide_frame["restriction"].map(restrictions.index)
    wide_frame["_l"] = wide_frame["level"].map(levels.index)
    wide_frame = wide_frame.sort_values(["_r", "_l"]).drop(columns=["_r", "_l"])
    ctx.table(wide_frame, "Loss of each restriction at each level (unrestricted minus "
              "restricted; 95% intervals). Footprint: the share of the restricted seat's "
              "decisions whose unrestricted choice the restriction forbade, and of its legal "
              "actions it removed (Wilson 95% intervals over decisions), counted by replaying "
              f"the first {FOOTPRINT_GAMES} games of each restricted strategy ("
              f"{FOOTPRINT_SEARCH_GAMES} of a search) move by move, checked to be the recorded "
              "games (their scores); '-' where they could not be replayed.",
              "restricted_play", full=table)
    _restricted_figure(ctx, table, measures, levels, restrictions)
    win = table[table["measure"] == WIN_RATE]
    removed = win[win["removes_game"]] if "removes_game" in win else win.iloc[:0]
    if len(removed):
        others = [m for m in measures if m != WIN_RATE]
        scores = table[table["removes_game"] & table["measure"].isin(others[:1])] \
            .set_index(["restriction", "level"]) if others else None
        parts = []
        for r in removed.itertuples():
            text = (f"{r.restriction} at {r.level} (the seat wins {pct(r.restricted)}, "
                    f"at most {pct(r.restricted_win_high)}")
            if scores is not None and (r.restriction, r.level) in scores.index:
                sc = scores.loc[(r.restriction, r.level)]
                text += (f"; {others[0]} loss {sc['loss']:+.1f} [{sc['ci_low']:+.1f}, "
                         f"{sc['ci_high']:+.1f}]")
            parts.append(text + ")")
        ctx.para("**Removes the game, not a feature:** " + join_words(parts) + ". The "
                 "restricted seat (almost) never wins: its win-rate loss is the table's "
                 "ceiling, so it is reported with its score loss and never ranked among the "
                 "features below.")
    ranked_win = win[~win["removes_game"]] if "removes_game" in win else win
    if "variant" in ranked_win:  # re-tuned and ignore rows are read beside, not ranked
        ranked_win = ranked_win[ranked_win["variant"].isin(["forbid", ""])]
    helps = win[win["significant"] & (win["loss"] < 0)]
    if len(helps):
        ctx.para("A negative loss means the strategy does better without the feature: it uses "
                 "it where it does not pay (" + join_words(
                     [f"{r.restriction} at {r.level}" for r in helps.itertuples()]) + ").")
    family = holm_family(win["p_value"].to_numpy(np.float64))
    held = family.holds & win["significant"].to_numpy(bool)
    z = normal_quantile(0.95)
    mde = minimum_detectable_effect(
        ((win["paired_ci_high"] - win["paired_ci_low"]) / (2 * z)).to_numpy(np.float64))
    ctx.para(
        f"Family-wise: {int(held.sum())} of {family.size} win-rate losses are told from zero "
        f"with Holm over the {family.size} restrictions and levels at 5% (the per-row "
        "`significant` is each test alone). The smallest win-rate loss these games detect "
        "(80% power, two-sided 5%, paired per-game interval): "
        + join_words([f"{100 * m:.1f} points for {r.restriction} at {r.level} "
                      f"({int(r.n):,} games)" for m, r in zip(mde, win.itertuples())][:6])
        + ("; ..." if len(win) > 6 else "") + ".")
    statements = []
    for level in levels:
        at = ranked_win[ranked_win["level"] == level].sort_values("loss", ascending=False)
        if at.empty:
            continue
        zero = list(at[~at["significant"]]["restriction"])
        better = list(at[at["significant"] & (at["loss"] < 0)]["restriction"])
        # "costs most" is an argmax: tested pairwise (Holm) on the paired per-game standard
        # errors, the restrictions' games taken as independent (a run each)
        order = tested_order(list(at["restriction"]), at["loss"].to_numpy(np.float64),
                             se=((at["paired_ci_high"] - at["paired_ci_low"]) / (2 * z))
                             .to_numpy(np.float64))
        # the contenders, not the first tier: a tier may chain items its tests tell apart
        top = at[at["restriction"] == order.names[0]].iloc[0]
        rivals = list(order.contenders[1:])
        statements.append(
            f"at {level} forbidding {top['restriction']} costs most, "
            f"{100 * top['loss']:+.1f} win-rate points [{100 * top['ci_low']:+.1f}, "
            f"{100 * top['ci_high']:+.1f}] (n = {int(top['n']):,} games)"
            + (f", not told apart (Holm) from forbidding {join_words(rivals)}" if rivals
               else "")
            + (f", {join_words(zero)} cannot be told from zero" if zero else "")
            + (f", forbidding {join_words(better)} helps" if better else ""))
    if len(removed):
        statements.append(join_words(sorted(set(removed["restriction"])))
                          + " removes the game (the seat almost never wins; not ranked)")
    ctx.headline("Restricted play: " + "; ".join(statements) + ".")


#: Games replayed per restricted strategy for its footprint (a search's cost more).
FOOTPRINT_GAMES = 200
FOOTPRINT_SEARCH_GAMES = 20


def _footprints(ctx: ReportContext, table: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """The footprint (decisions changed, actions removed: cells with Wilson intervals) of each
    restricted strategy of ``table``, counted on its first recorded games replayed move by
    move (:func:`tajsim.play.footprint.footprint`). A strategy whose games cannot be replayed
    as recorded (another seat than its level, a custom strategy, other components) has none."""
    from tajsim.analysis.stats import wilson_interval
    from tajsim.play.footprint import footprint

    r = ctx.results
    if not {"seed", "game_id", "seat", "score"} <= set(r.columns):
        return {}
    keys = [c for c in ("variant", "run_id", "seed", "n_players", "game_id") if c in r.columns]
    out: dict[str, tuple[str, str]] = {}
    for text, level in table[["restricted_strategy", "level"]].drop_duplicates().itertuples(
            index=False):
        try:
            strategy, _ = ctx.spec.strategies.parse(str(text))
            n_max = FOOTPRINT_SEARCH_GAMES if "search" in strategy.tags else FOOTPRINT_GAMES
            games = r[r["strategy"] == text][keys].drop_duplicates().head(n_max)
            rows = r.merge(games, on=keys).sort_values([*keys, "seat"])
            n_players = int(rows["n_players"].iloc[0]) if "n_players" in rows else \
                len(rows) // len(games)
            labels = rows["strategy"].astype(str).to_numpy().reshape(len(games), n_players)
            if not ((labels == text) | (labels == level)).all() \
                    or rows["seed"].nunique() != 1:
                continue
            first = rows.iloc[0]
            edition = ctx.spec.rules_code(str(first["edition"]) if "edition" in rows else None,
                                          ctx.config.get("options") or None)
            fp = footprint(ctx.spec, [str(text), str(level)], (labels != text).astype(np.int64),
                           0, int(first["seed"]), edition=edition,
                           game_ids=rows["game_id"].to_numpy(np.int64)[::n_players],
                           setup_ids=rows["setup_id"].to_numpy(np.int64)[::n_players]
                           if "setup_id" in rows else None)
            if not (fp.scores == rows["score"].to_numpy().reshape(fp.scores.shape)).all():
                continue
        except Exception:  # noqa: BLE001 - a strategy or setup the replay cannot play: no cell
            continue
        cells = []
        for hits, total in ((fp.changed, fp.decisions), (fp.removed, fp.legal)):
            low, high = wilson_interval(hits, total, 0.95)
            cells.append(f"{100 * hits / total:.1f}% [{100 * float(low):.1f}, "
                         f"{100 * float(high):.1f}]" if total else "-")
        out[str(text)] = (cells[0], cells[1])
    return out


def _restricted_figure(ctx: ReportContext, table: pd.DataFrame, measures: list[str],
                       levels: list[str], restrictions: list[str]) -> None:
    fig, axes = panel_grid(len(measures), panel_height=0.9 + 0.45 * len(restrictions),
                           max_columns=len(measures) if len(measures) <= 3 else 2,
                           extra_height=0.5)
    y = np.arange(len(restrictions))[::-1].astype(np.float64)
    offsets = (np.arange(len(levels)) - (len(levels) - 1) / 2) * 0.22
    handles = []
    for ax, measure in zip(axes, measures):
        scale = 100.0 if measure == WIN_RATE else 1.0
        for i, level in enumerate(levels):
            at = (table[(table["measure"] == measure) & (table["level"] == level)]
                  .set_index("restriction").reindex(restrictions))
            est = at["loss"].to_numpy(np.float64) * scale
            low = at["ci_low"].to_numpy(np.float64) * scale
            high = at["ci_high"].to_numpy(np.float64) * scale
            h = ax.errorbar(est, y + offsets[i], xerr=error_bars(est, low, high), fmt="o",
                            color=series_colour(i), ecolor="#333",
                            capsize=3, ms=5, label=level)
            if ax is axes[0]:
                handles.append(h)
        ax.axvline(0, color=BASELINE_COLOUR, lw=1)
        ax.set_yticks(y, restrictions)
        ax.set_xlabel("win-rate loss (points)" if measure == WIN_RATE
                      else f"{measure} loss (mean)")
    for ax in axes[1:]:
        ax.tick_params(labelleft=False)  # the restrictions are named once, on the first panel
    fig.legend(handles=handles, loc="outside lower center", ncol=min(len(levels), 2),
               frameon=False, fontsize=9, title="level (unrestricted strategy)")
    ctx.figure(fig, "restricted_play",
               "Restricted play: what each forbidden feature costs the restricted seat against "
               "the same strategy unrestricted (unrestricted mean minus restricted; right of 0: "
               "the feature pays), at each level, with 95% intervals (Newcombe for the win "
               "rate, per-game t for the measures).", ctx.results)
