"""How the report words verdicts (:mod:`tajsim.analysis.stats.verdicts`): the legend of the
conclusion tables, the equivalence margin an experiment file sets, and each section's minimum
detectable effect at its n."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.stats.verdicts import (
    ALPHA,
    DEFAULT_MARGIN,
    POWER,
    check_margin,
    mde_proportion,
)
from tajsim.reporting.render import ReportContext, join_words

__all__ = ["MARGIN_KEY", "margin_kwargs", "margin_of", "mde_clause", "verdict_legend",
           "win_rate_mde_sentence"]

#: The ``[report]`` key (and report config key) of the equivalence margin, in win-rate units.
MARGIN_KEY = "equivalence_margin"


def margin_of(ctx: ReportContext) -> float:
    """The equivalence margin of the report: the config's :data:`MARGIN_KEY`, else 0.02."""
    value = (ctx.config or {}).get(MARGIN_KEY)
    return DEFAULT_MARGIN if value is None else check_margin(value)


def margin_kwargs(ctx: ReportContext) -> dict[str, Any]:
    """The analysis arguments that carry a configured margin ({} for the default, so that the
    report reuses what the run computed with the same arguments)."""
    value = (ctx.config or {}).get(MARGIN_KEY)
    return {} if value is None else {"margin": check_margin(value)}


def verdict_legend(margin: float) -> str:
    """What the values of a conclusion table mean, in one paragraph's sentences."""
    return (
        f"Each conclusion is stated with its kind's test. A null (\"no first-seat edge\") is an "
        f"equivalence test (two one-sided tests at {100 * ALPHA:g}%) against a margin of "
        f"±{100 * margin:g} points of win rate: **equivalent ±{100 * margin:g} pts** (the "
        "difference lies within the margin), **+** / **-** (it differs, in that direction), "
        "**inconclusive** (neither: the detail gives the smallest difference detectable at "
        f"that n, {100 * POWER:g}% power). An order tests every pair (Holm over the pairs): `>` "
        "separates items told apart, braces enclose items **not told apart** (`{rice, "
        "spices}`), which is no claim that they are equal; a tier of three or more may hold a "
        "pair told apart when an item between them is told apart from neither, and the detail "
        "then names that pair. A best item (best strategy, most "
        "valuable good, largest score part) is the first tier of that order, with the "
        "probability that each item ranks first when the games are resampled.")


def mde_clause(long: pd.DataFrame, group: str, prefix: str = "first_seat_advantage") -> str:
    """``"4.7 points at random (600 games), 1.2 at weak (10,000 games)"``: the minimum detectable
    effect of the conclusions named ``prefix...`` at each ``group`` value ("" when none)."""
    rows = long[long["conclusion"].str.startswith(prefix) & long["mde"].notna()]
    parts = []
    for key, grp in rows.groupby(group, sort=False):
        worst = grp.sort_values("mde", ascending=False).iloc[0]
        parts.append(f"{100 * float(worst['mde']):.1f} points at {key} "
                     f"({int(worst['n']):,} games)")
    return join_words(parts)


def win_rate_mde_sentence(n_games: int, n_players: int, panel: str = "") -> str:
    """The smallest difference of a win rate from equal players, and between two seats' win
    rates, that these games detect (two-sided 5%, 80% power), as a sentence; ``panel`` names
    the panel it is computed for (the one with the fewest games) when there are several."""
    p = 1.0 / n_players
    one = float(mde_proportion(p, n_games))
    two = float(mde_proportion(p, n_games, n_games))
    if not np.isfinite(one):
        return ""
    where = f" ({panel}, the panel with the fewest games)" if panel else ""
    return (f"At {n_games:,} games{where} the smallest true difference these data detect "
            f"({100 * POWER:g}% power, two-sided {100 * ALPHA:g}%) is {100 * one:.1f} points for "
            f"one seat against equal players ({100 * p:.1f}%) and {100 * two:.1f} points between "
            "two independent rates of that size; a smaller effect may exist unseen.")
