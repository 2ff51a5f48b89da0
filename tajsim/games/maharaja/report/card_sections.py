"""Maharaja's report section on the character cards (``cards``): win rate and gold by the card
held at the end, an association in simulated play.
"""

from __future__ import annotations

import numpy as np

from tajsim.games.maharaja.report.section_helpers import (
    ASSOCIATION,
    _card_names,
    _ci,
    _components,
    _facet,
    _skip,
)
from tajsim.reporting.render import (
    BASELINE_COLOUR,
    ReportContext,
    errorbar_panel,
    group_label,
    panel_grid,
    pct,
    rate_limits,
)


def section_cards(ctx: ReportContext) -> None:
    ctx.heading(2, "Character cards")
    if _skip(ctx, "card_value"):
        return
    facet = _facet(ctx)
    table = ctx.analysis("card_value", by=facet or None)
    cards = _card_names(_components(ctx))
    table = table.assign(card=[cards.get(c, c) for c in table["card"]])
    final = table[(table["held"] == "final") & (table["n"] >= 30)].copy()
    final["key"] = [f"{group_label(r, list(facet))} {r['card']}" if facet else r["card"]
                    for _, r in final.iterrows()]
    rows = list(final["key"])
    fig, axes = panel_grid(2, panel_height=0.7 + 0.27 * len(rows))
    errorbar_panel(axes[0], rows, final["win_rate"].to_numpy(), final["ci_low"].to_numpy(),
                   final["ci_high"].to_numpy(), "#4f7fa8", "win rate")
    y = np.arange(len(rows))[::-1]
    if final["baseline"].nunique() == 1:
        axes[0].axvline(final["baseline"].iloc[0], color=BASELINE_COLOUR, ls="--", lw=1.2)
    else:  # one rate of equal players per player count: a mark on each row
        axes[0].scatter(final["baseline"], y, marker="|", s=160, color=BASELINE_COLOUR,
                        zorder=4)
    axes[0].set_xlim(*rate_limits(final["ci_high"], final["baseline"]))
    axes[0].set_title("Win rate by the card held at the end")
    errorbar_panel(axes[1], rows, final["gold"].to_numpy(), final["gold_low"].to_numpy(),
                   final["gold_high"].to_numpy(), "#d9a441", "gold at the end")
    axes[1].set_title("Gold at the end by the card held")
    ctx.figure(fig, "card_value",
               "Win rate (95% Wilson intervals; red: the rate of equal players) and gold "
               "at the end (t intervals) of the players by the character card they held when "
               "the game ended (cards held in fewer than 30 player-games left out).",
               ctx.results)
    # The headline compares cards held often enough, by their excess over equal players
    # (player counts have different baselines).
    common = final[final["n"] >= max(100, 0.01 * final["n"].sum())]
    common = common if not common.empty else final
    best = common.sort_values("excess", ascending=False).iloc[0]
    worst = common.sort_values("excess").iloc[0]
    ctx.headline(
        f"The holder of {best['key']} at the end wins {_ci(best['win_rate'], best['ci_low'], best['ci_high'], percent=True)}"  # noqa: E501
        f" of {int(best['n']):,} player-games (equal players: {pct(best['baseline'])}); the "
        f"holder of {worst['key']} {_ci(worst['win_rate'], worst['ci_low'], worst['ci_high'], percent=True)}"  # noqa: E501
        f" of {int(worst['n']):,}. This is {ASSOCIATION}: the card held at the end is the one "
        "a player kept or took with the character action, so its rate mixes what the card "
        "does with who takes it and when.")
    r = ctx.results
    if "strategy" in r.columns and r["strategy"].nunique() > 1:
        drafted = r.groupby("strategy", observed=True)["card_first"].agg(
            lambda s: s.value_counts(normalize=True).iloc[0])
        if float(drafted.min()) > 0.9:
            share = ("every one" if float(drafted.min()) == 1.0
                     else f"at least {pct(float(drafted.min()))}")
            ctx.para(f"The drafted card follows the strategy: each strategy drafted its "
                     f"favourite card in {share} of its games, so the rates by the drafted "
                     "card (in the table) compare strategies as much as cards.")
    ctx.table(table[["held", *facet, "card", "n", "win_rate", "ci_low", "ci_high", "baseline",
                     "gold", "gold_low", "gold_high"]],
              "Win rate (Wilson) and gold at the end (t, clustered by game) by the card held at "
              "the end and by the card drafted at setup; n = player-games.", "card_value",
              full=table)
