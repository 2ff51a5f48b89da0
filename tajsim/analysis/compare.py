"""Does strategy A beat strategy B? Their win share and score compared within games.

A and B play at the same tables (``tajsim compare``: every seat rotation, alone or with a
field), so their results in one game are not independent (one's win is often the other's
loss), and a test for two independent samples would be wrong. The unit is the game instead:
for each game that seats both, the mean of a measure over A's seats minus its mean over B's
seats; games are independent, so the mean of these differences gets a t interval and a paired
t-test (:func:`tajsim.analysis.stats.paired_difference`). Each strategy's own mean is its
per-game mean with a t interval over the same games.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import mean_ci, paired_difference

__all__ = ["REQUIRED_COLUMNS", "compare_strategies"]

REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "winner")


def compare_strategies(results: pd.DataFrame, *, a: str | None = None, b: str | None = None,
                       measures: Sequence[str] = ("win", "score"),
                       confidence: float = 0.95) -> pd.DataFrame:
    """Strategy ``a`` against strategy ``b`` (labels of the ``strategy`` column), measure by
    measure, over the games that seat both.

    Parameters
    ----------
    results : DataFrame
        The results frame (one row per player per game).
    a, b : str, optional
        The two strategies' labels (default: the first two strategies of the results, in the
        order they first appear).
    measures : sequence of str
        ``"win"`` (the win share, ties shared: :func:`tajsim.analysis.frames.win_value`) and
        numeric columns of ``results`` (``"score"``, Maharaja's ``"palaces"``, ``"gold"`` ...).

    Returns
    -------
    DataFrame
        One row per measure: ``measure``; ``n`` (int64: games that seat both); ``n_a``,
        ``n_b`` (int64: their player-games); ``a_mean``, ``a_ci_low``, ``a_ci_high``,
        ``b_mean``, ``b_ci_low``, ``b_ci_high``, ``difference`` (A - B), ``ci_low``,
        ``ci_high``, ``p_value`` (float64; the paired t-test of no difference).

    Raises
    ------
    ValueError
        ``a`` equals ``b``, a label or a measure column is missing, or no game seats both.
    """
    labels = results["strategy"].astype(str)
    if a is None or b is None:
        first = [s for s in pd.unique(labels) if s not in (a, b)]
        if len(first) < (a is None) + (b is None):
            raise ValueError("the results hold fewer than two strategies; expected two to "
                             "compare")
        a = a if a is not None else first.pop(0)
        b = b if b is not None else first.pop(0)
    if a == b:
        raise ValueError(f"compare {a!r} with itself; expected two different strategies")
    for name in (a, b):
        if not (labels == name).any():
            raise ValueError(f"strategy {name!r} is not in the results; expected one of "
                             f"{', '.join(sorted(labels.unique()))}")
    for measure in measures:
        if measure != "win" and measure not in results.columns:
            raise ValueError(f"measure {measure!r} is not a column of the results")
    games = game_index(results)
    side = np.where(labels == a, 0, np.where(labels == b, 1, -1))
    mine = side >= 0
    n_games = int(games.max()) + 1 if len(games) else 0
    # Seats of A and of B in each game: games that lack either are left out.
    seats = np.zeros((2, n_games))
    np.add.at(seats, (side[mine], games[mine]), 1.0)
    both = (seats[0] > 0) & (seats[1] > 0)
    if not both.any():
        raise ValueError(f"no game seats both {a!r} and {b!r}")
    rows = []
    for measure in measures:
        values = (win_value(results) if measure == "win" else results[measure]).to_numpy(
            np.float64)
        sums = np.zeros((2, n_games))
        np.add.at(sums, (side[mine], games[mine]), values[mine])
        with np.errstate(invalid="ignore", divide="ignore"):
            per_game = sums[:, both] / seats[:, both]  # [2, games with both]: mean per seat
        a_mean, a_low, a_high, _, _ = mean_ci(per_game[0], confidence)
        b_mean, b_low, b_high, _, _ = mean_ci(per_game[1], confidence)
        diff, low, high, p_value, n = paired_difference(per_game[0], per_game[1], confidence)
        rows.append({
            "measure": measure, "n": n,
            "n_a": int(seats[0, both].sum()), "n_b": int(seats[1, both].sum()),
            "a_mean": a_mean, "a_ci_low": a_low, "a_ci_high": a_high,
            "b_mean": b_mean, "b_ci_low": b_low, "b_ci_high": b_high,
            "difference": diff, "ci_low": low, "ci_high": high, "p_value": p_value,
        })
    out = pd.DataFrame(rows)
    return out.astype({"n": np.int64, "n_a": np.int64, "n_b": np.int64})
