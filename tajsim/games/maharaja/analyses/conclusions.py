"""Maharaja's key conclusions for the robustness analysis (``CONCLUSIONS``): the order of the
income sources, the usual game end, the sign of a central palace's within-game win share.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from tajsim.analysis.robustness import Finding, fmt_estimate, tiered_order
from tajsim.games.maharaja.analyses.game_ends import game_ends
from tajsim.games.maharaja.analyses.income import income_by_source
from tajsim.games.maharaja.analyses.palaces import central_vs_outer


def income_ranking(results: pd.DataFrame) -> list[Finding]:
    """Order of the income sources by their mean gold per player-game (all strategies
    together; ``≈`` for neighbours not significantly different)."""
    table = income_by_source(results, by=None)
    table = table[table["kind"] == "income"].sort_values("mean", ascending=False)
    se = ((table["ci_high"] - table["ci_low"]) / (2 * 1.96)).to_numpy()
    value = tiered_order(list(table["source"]), table["mean"].to_numpy(), se)
    detail = "; ".join(f"{r.source} {fmt_estimate(r.mean, r.ci_low, r.ci_high, 2)}"
                       for r in table.itertuples())
    return [Finding("income_ranking", value, detail)]


def usual_game_end(results: pd.DataFrame) -> list[Finding]:
    """The most common way a game ends, per player count."""
    out = []
    for players, g in results.groupby("n_players", sort=True):
        table = game_ends(g).sort_values("rate", ascending=False)
        top = table.iloc[0]
        out.append(Finding(f"usual_game_end[{int(players)}p]", str(top["end_cause"]),
                           "share " + fmt_estimate(top["rate"], top["ci_low"], top["ci_high"])))
    return out


def central_palace_sign(results: pd.DataFrame) -> list[Finding]:
    """Sign of the within-game win share of a central palace in place of an outer one."""
    table = central_vs_outer(results, by=None)
    row = table[(table["measure"] == "within_game") & (table["outcome"] == "win")].iloc[0]
    sign = "+" if row["ci_low"] > 0 else "-" if row["ci_high"] < 0 else "0"
    return [Finding("central_palace_win_share", sign,
                    fmt_estimate(row["estimate"], row["ci_low"], row["ci_high"]))]


#: Maharaja's robustness conclusions (besides the generic ones).
CONCLUSIONS: dict[str, Callable[[pd.DataFrame], list[Finding]]] = {
    "income_ranking": income_ranking,
    "usual_game_end": usual_game_end,
    "central_palace_win_share": central_palace_sign,
}
