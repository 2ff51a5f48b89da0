"""Maharaja's game-end analyses: how games end and in which round (``game_ends``), and the share
of games ending after each round (``game_length``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.stats import mean_ci
from tajsim.games.maharaja.analyses.helpers import (
    _by,
    _check,
    _end_causes,
    _groups,
    _one_per_game,
    _wilson,
)
from tajsim.games.maharaja.engine.enums import END_CAUSE_NAMES


def game_ends(results: pd.DataFrame, by: Sequence[str] | str | None = None,
              confidence: float = 0.95) -> pd.DataFrame:
    """How games end: the share of each end cause (Wilson, over games) and the mean round of
    the end for each cause (t). Causes: ``seventh_palace`` (a player built a 7th palace),
    ``round_10`` (a governor reached the last box), ``both`` in the same round, ``round_cap``
    (the simulator's bound, which no game should reach).

    Returns ``by...``, ``end_cause``, ``n`` (games), ``successes``, ``rate``, ``ci_low``,
    ``ci_high``, ``rounds``, ``rounds_low``, ``rounds_high``.
    """
    _check(results, ["end_cause", "n_rounds"], "game_ends")
    keys = _by(results, by)
    games = _one_per_game(results)
    rows = []
    for key, g in _groups(games, keys):
        cause = _end_causes(g["end_cause"])
        rounds = g["n_rounds"].to_numpy(np.float64)
        n = len(g)
        for name in END_CAUSE_NAMES[1:]:
            hit = cause == name
            low, high = _wilson(float(hit.sum()), n, confidence)
            r_mean, r_low, r_high, _, _ = mean_ci(rounds[hit], confidence)
            rows.append({**dict(zip(keys, key)), "end_cause": name, "n": n,
                         "successes": int(hit.sum()), "rate": hit.mean() if n else np.nan,
                         "ci_low": low, "ci_high": high, "rounds": r_mean,
                         "rounds_low": r_low, "rounds_high": r_high})
    return pd.DataFrame(rows)


def game_length(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                confidence: float = 0.95) -> pd.DataFrame:
    """When games end: the share of games (Wilson) that end after each round, by end cause
    (``end_cause`` = "any" for all causes together).

    Returns ``by...``, ``n_rounds``, ``end_cause``, ``n`` (games), ``successes``, ``rate``,
    ``ci_low``, ``ci_high``.
    """
    _check(results, ["end_cause", "n_rounds"], "game_length")
    keys = _by(results, by)
    games = _one_per_game(results)
    rows = []
    for key, g in _groups(games, keys):
        cause = _end_causes(g["end_cause"])
        rounds = g["n_rounds"].to_numpy(np.int64)
        n = len(g)
        for r in range(int(rounds.min()), int(rounds.max()) + 1):
            for name in ("any", *END_CAUSE_NAMES[1:]):
                hit = (rounds == r) & ((cause == name) | (name == "any"))
                if name != "any" and not hit.any():
                    continue
                low, high = _wilson(float(hit.sum()), n, confidence)
                rows.append({**dict(zip(keys, key)), "n_rounds": r, "end_cause": name, "n": n,
                             "successes": int(hit.sum()), "rate": float(hit.mean()),
                             "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)
