"""Maharaja's penalty analysis (``penalties``): actions left unperformed per player-game, by
kind.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.stats import proportion_table
from tajsim.games.maharaja.analyses.helpers import (
    _by,
    _check,
    _mean_table,
    _with_game,
)
from tajsim.games.maharaja.engine.enums import ACT_SLUGS


def penalties(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
              confidence: float = 0.95) -> pd.DataFrame:
    """Actions left unperformed per player-game (each pays every other player 2 gold, R17), by
    kind (the penalties' causes) and in all (``action`` = "all"; t intervals clustered by
    game), with the share of player-games with at least one (``any``, Wilson).

    Returns ``by...``, ``action``, ``n`` (player-games), ``n_games``, ``mean``, ``sd``,
    ``ci_low``, ``ci_high``, ``any``, ``any_low``, ``any_high``.
    """
    cols = [f"missed_{a}" for a in ACT_SLUGS]
    _check(results, cols + ["penalties"], "penalties")
    keys = _by(results, by)
    frame = _with_game(results)
    parts = []
    for action, column in (("all", "penalties"), *((a, f"missed_{a}") for a in ACT_SLUGS
                                                   if a != "gold")):
        table = _mean_table(frame, keys, column, confidence)
        frame["_any"] = (frame[column] > 0).astype(np.float64)
        share = proportion_table(frame, keys, "_any", confidence=confidence)
        table["any"] = share["rate"].to_numpy()
        table["any_low"] = share["ci_low"].to_numpy()
        table["any_high"] = share["ci_high"].to_numpy()
        table.insert(len(keys), "action", action)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)
