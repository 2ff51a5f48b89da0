"""Maharaja's key conclusions for the robustness analysis (``CONCLUSIONS``): the order of the
income sources, the usual game end, and the within-game win share of a central palace (a null:
an equivalence test against the margin), each with its test
(:mod:`tajsim.analysis.stats.verdicts`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from tajsim.analysis.robustness import (
    DEFAULT_OPTIONS,
    ConclusionOptions,
    Finding,
    argmax_finding,
    equivalence_finding,
    mean_order,
    order_finding,
)
from tajsim.analysis.stats import normal_quantile
from tajsim.analysis.stats.verdicts import equivalence_test
from tajsim.games.maharaja.analyses.helpers import _end_causes, _one_per_game
from tajsim.games.maharaja.analyses.income import GOLD_SOURCES
from tajsim.games.maharaja.analyses.palaces import central_vs_outer
from tajsim.games.maharaja.engine.enums import END_CAUSE_NAMES


def income_ranking(results: pd.DataFrame,
                   options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """Order of the income sources by their mean gold per player-game (all strategies
    together; every pair tested with the covariance clustered by game, Holm; braces around
    sources not told apart)."""
    order, detail = mean_order(results, [f"pts_{s}" for s in GOLD_SOURCES], list(GOLD_SOURCES),
                               options)
    return [order_finding("income_ranking", order, detail)]


def usual_game_end(results: pd.DataFrame,
                   options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """The most common way a game ends, per player count: an argmax of the causes' shares
    (pairwise tests of the shares of one multinomial, Holm)."""
    out = []
    for players, g in results.groupby("n_players", sort=True):
        games = _one_per_game(g)
        cause = _end_causes(games["end_cause"])
        names = [c for c in END_CAUSE_NAMES[1:] if (cause == c).any()] or list(
            END_CAUSE_NAMES[1:2])
        hits = pd.DataFrame({c: (cause == c).astype(np.float64) for c in names},
                            index=games.index)
        frame = pd.concat([games, hits.add_prefix("_end_")], axis=1)
        if len(names) < 2:
            share = float(hits[names[0]].mean()) if len(hits) else float("nan")
            out.append(Finding(f"usual_game_end[{int(players)}p]", names[0],
                               f"share {share:.3f} (n = {len(games):,} games)", "argmax"))
            continue
        order, detail = mean_order(frame, [f"_end_{c}" for c in names], names, options,
                                   unit="games")
        out.append(argmax_finding(f"usual_game_end[{int(players)}p]", order,
                                  detail.replace("mean ", "share ", 1)))
    return out


def central_palace_sign(results: pd.DataFrame,
                        options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """The within-game win share of a central palace in place of an outer one: ``+`` / ``-``
    where it differs, ``equivalent ±m`` where TOST places it within the margin, else
    ``inconclusive`` with the minimum detectable effect."""
    table = central_vs_outer(results, by=None)
    row = table[(table["measure"] == "within_game") & (table["outcome"] == "win")].iloc[0]
    se = (row["ci_high"] - row["ci_low"]) / (2 * normal_quantile(0.95))
    verdict = equivalence_test(row["estimate"], se, options.margin, n=int(row["n_games"]),
                               alpha=options.alpha)
    return [equivalence_finding("central_palace_win_share", verdict,
                                "win share of a central palace in place of an outer one")]


#: Maharaja's robustness conclusions (besides the generic ones).
CONCLUSIONS: dict[str, Callable[..., list[Finding]]] = {
    "income_ranking": income_ranking,
    "usual_game_end": usual_game_end,
    "central_palace_win_share": central_palace_sign,
}
