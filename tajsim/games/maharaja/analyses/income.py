"""Maharaja's gold analysis (``income_by_source``): gold per player-game by source, by spending
and in the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.games.maharaja.analyses.helpers import (
    _by,
    _check,
    _mean_table,
    _with_game,
)
from tajsim.games.maharaja.engine.enums import PART_NAMES

GOLD_SOURCES = ("city", "lone", "tolls_in", "gold_action", "trader", "penalties_in")
GOLD_SPENDING = ("build_spent", "tolls_out")
assert set(GOLD_SOURCES + GOLD_SPENDING) < set(PART_NAMES)


def income_by_source(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Mean gold per player-game from each source, each kind of spending and in the end.

    Returns ``by...``, ``source``, ``kind`` ("income", "spending" (negative) or "final": the
    gold a player ends with, starting gold included), ``n`` (player-games), ``n_games``,
    ``mean``, ``sd``, ``ci_low``, ``ci_high`` (t, clustered by game), ``share`` (of the group's
    income from all sources; NaN for spending and the final gold).
    """
    cols = [f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING]
    _check(results, [*cols, "gold"], "income_by_source")
    keys = _by(results, by)
    frame = _with_game(results)
    frame["_income"] = frame[[f"pts_{s}" for s in GOLD_SOURCES]].sum(axis=1)
    total = _mean_table(frame, keys, "_income", confidence)
    parts = []
    for source, kind in ([(s, "income") for s in GOLD_SOURCES]
                         + [(s, "spending") for s in GOLD_SPENDING] + [("gold", "final")]):
        table = _mean_table(frame, keys, "gold" if kind == "final" else f"pts_{source}",
                            confidence)
        table.insert(len(keys), "source", source)
        table.insert(len(keys) + 1, "kind", kind)
        table["share"] = (table["mean"].to_numpy() / total["mean"].to_numpy()
                          if kind == "income" else np.nan)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)
