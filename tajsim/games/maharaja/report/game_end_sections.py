"""Maharaja's report sections on how games end (``game_ends``: a 7th palace or round 10, and
when) and the actions left unperformed, by cause (``penalties``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tajsim.games.maharaja.report.section_helpers import (
    _by,
    _ci,
    _dodge_panel,
    _facet,
    _legend_below,
    _series,
    _skip,
)
from tajsim.reporting.render import (
    PAGE_WIDTH_IN,
    ReportContext,
    error_bars,
    group_label,
    join_words,
    panel_grid,
    pct,
    rate_limits,
    series_colour,
)

END_LABELS = {"seventh_palace": "a 7th palace", "round_10": "round 10 reached",
              "both": "both at once", "round_cap": "the round cap"}
END_PHRASES = {"seventh_palace": "end with a 7th palace",
               "round_10": "end when a governor reaches the last round box (round 10)",
               "both": "end both ways in the same round",
               "round_cap": "hit the simulator's round cap"}
ACTION_LABELS = {"all": "all actions", "two_houses": "two houses", "move_house": "move a house",
                 "palace_house": "palace + house"}


# ---------------------------------------------------------------------------------------------
# How games end
# ---------------------------------------------------------------------------------------------
def _end_phrase(row: Any) -> str:
    """"97.7% [97.3, 98.1] end with a 7th palace (in round 8.09 [...] on average)", or "1 game
    ends ..." for a cause seen fewer than 20 times (a percentage would round to 0)."""
    phrase = END_PHRASES[row.end_cause]
    if row.successes >= 20:
        head = f"{_ci(row.rate, row.ci_low, row.ci_high, percent=True)} {phrase}"
    elif row.successes == 1:
        head = "1 game " + phrase.replace("end ", "ends ", 1).replace("hit ", "hits ", 1)
    else:
        head = f"{row.successes} games {phrase}"
    if row.rounds_high > row.rounds_low:  # causes that always end in round 10 say nothing
        head += f" (in round {_ci(row.rounds, row.rounds_low, row.rounds_high, 2)} on average)"
    return head


def section_game_ends(ctx: ReportContext) -> None:
    ctx.heading(2, "How games end")
    if _skip(ctx, "game_ends", "game_length"):
        return
    facet = _facet(ctx)
    ends = ctx.analysis("game_ends", by=facet or None)
    length = ctx.analysis("game_length", by=facet or None)
    seen = ends[ends.groupby("end_cause")["successes"].transform("sum") > 0]
    seen = seen.assign(key=seen["end_cause"].map(END_LABELS))
    causes = list(dict.fromkeys(seen["key"]))
    series = _series(seen, facet)
    fig, axes = panel_grid(2, panel_height=0.9 + 0.45 * len(causes) * max(1, len(series) / 3),
                           extra_height=0.35 if len(series) > 1 else 0)
    _dodge_panel(axes[0], causes, series, "rate", "share of games")
    axes[0].set_xlim(*rate_limits(seen["ci_high"]))
    axes[0].set_title("How the game ends")
    ax = axes[1]
    anyend = length[length["end_cause"] == "any"]
    rounds = sorted(anyend["n_rounds"].unique())
    width = 0.8 / len(series)
    for i, (label, sub) in enumerate(_series(anyend, facet)):
        sub = sub.set_index("n_rounds").reindex(rounds)
        x = np.array(rounds) + (i - (len(series) - 1) / 2) * width
        ax.bar(x, sub["rate"], width=width * 0.95, color=series_colour(i),
               label=label)
        ax.errorbar(x, sub["rate"], yerr=error_bars(sub["rate"], sub["ci_low"], sub["ci_high"]),
                    fmt="none", ecolor="#333", capsize=2, lw=0.9)
    ax.set_xticks(rounds)
    ax.set_xlabel("the game's last round")
    ax.set_ylabel("share of games")
    ax.set_ylim(0, rate_limits(anyend["ci_high"])[1])
    ax.set_title("When it ends")
    _legend_below(fig, axes[0], len(series))
    ctx.figure(fig, "game_ends",
               "Left: share of games ending with a 7th palace, with a governor reaching the "
               "last round box (round 10), or both in the same round. Right: share of games "
               "whose last round is each round (all causes). 95% Wilson intervals over games.",
               ctx.results)
    for label, sub in _series(ends, facet):
        n = int(sub["n"].iloc[0])
        parts = [_end_phrase(r) for r in sub.itertuples() if r.successes > 0]
        ctx.headline(f"{label + ': o' if facet else 'O'}f {n:,} games, {'; '.join(parts)}.")
    ctx.table(ends, "End causes (Wilson intervals over games) and the mean last round of each "
              "(t intervals).", "game_ends")
    ctx.csv(length, "table_game_length")
    ctx.para("The share of games ending after each round, by cause, is in "
             "`table_game_length.csv`.")


# ---------------------------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------------------------
def section_penalties(ctx: ReportContext) -> None:
    ctx.heading(2, "Penalties and their causes")
    if _skip(ctx, "penalties"):
        return
    by = _by(ctx)
    table = ctx.analysis("penalties", by=by)
    # Kinds left unperformed at least once in 200 player-games (the rest stay in the CSV).
    happened = table[table.groupby("action")["mean"].transform("max") >= 0.005]
    if happened.empty:
        ctx.para(f"Players left fewer than one chosen action in 200 unperformed over "
                 f"{int(table['n_games'].max()):,} games (table: `table_penalties.csv`).")
        ctx.csv(table, "table_penalties")
        return
    happened = happened.assign(key=[ACTION_LABELS.get(a, a) for a in happened["action"]])
    rows = list(dict.fromkeys(happened["key"]))
    series = _series(happened, by)
    fig, axes = panel_grid(1, panel_height=0.7 + 0.32 * len(rows) * max(1, len(series) / 3),
                           single_width=PAGE_WIDTH_IN * 0.7,
                           extra_height=0.35 if len(series) > 1 else 0)
    _dodge_panel(axes[0], rows, series, "mean", "actions left unperformed per player-game")
    _legend_below(fig, axes[0], len(series))
    ctx.figure(fig, "penalties",
               "Chosen actions a player left unperformed per game (each pays every other "
               "player 2 gold, R17), in all and by the action (the actions left unperformed "
               "at least once in 200 player-games), with 95% t intervals clustered by game.",
               ctx.results)
    overall = happened[happened["action"] == "all"]
    causes = happened[happened["action"] != "all"]
    main = causes.groupby("action")["mean"].mean().sort_values(ascending=False)
    texts = [f"{group_label(r, list(by))} {_ci(r['mean'], r['ci_low'], r['ci_high'], 2)} "
             f"(at least one in {pct(r['any'])})"
             for _, r in overall.sort_values("mean", ascending=False).iterrows()]
    ctx.headline(
        f"Unperformed actions per player-game: {join_words(texts)} "
        f"(n = {int(overall['n'].min()):,} player-games or more per group). The main cause "
        f"is {ACTION_LABELS.get(main.index[0], main.index[0])}"
        + (f", then {ACTION_LABELS.get(main.index[1], main.index[1])}" if len(main) > 1
           else "")
        + ": a player reveals an action it then cannot carry out (no site, too little gold, "
          "no house left), or chooses to skip it.")
    ctx.table(happened.drop(columns="key"), "Unperformed actions per player-game by kind (t, "
              "clustered by game) and the share of player-games with at least one (Wilson); "
              "kinds that never occurred are in the CSV.", "penalties", full=table)
