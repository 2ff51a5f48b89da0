"""Does strategy A beat strategy B? Their win share and score compared within games.

The unit is the game. ``tajsim compare`` plays every game on its own setup (one game per
setup) with its own random streams; the seat rotation only decides which seat each strategy
takes in game ``g`` (``game_id`` modulo the rotation), it does not replay a deal with the seats
swapped. Games are therefore independent, and the rotation is a stratification by seat that is
balanced by design; nothing pairs one game with another, so a bootstrap over rotation blocks
would estimate the same thing as one over games, and a percentile bootstrap is degenerate at 0 of
``n`` wins ("[0.0, 0.0]"). Within a game, A's and B's results are not independent (one's win is
often the other's loss), so each game gives one value per measure: the mean over A's seats, the
mean over B's seats and their difference.

Win shares (the measure ``"win"``) are bounded, so they get score intervals, never a t interval
(which leaves [0, 100] at small ``n`` and collapses to a point at 0 or ``n`` wins):

* A's (B's) win share: the Wilson interval of the per-game shares summed over ``n`` games. A
  per-game share is a sole win (1), a shared one (1/k) or, with A in several seats, the mean of
  its seats; any value ``x`` in [0, 1] has ``var(x) <= E[x](1 - E[x])`` (as ``x**2 <= x``), so
  the binomial variance the Wilson interval assumes is exact for 0/1 outcomes and conservative
  otherwise; leaving the seat strata out of the variance is conservative too.
* A - B: each game's difference ``d`` in [-1, 1] is mapped to ``(1 + d) / 2`` in [0, 1] (with
  two players, A's own win share in that game), its Wilson interval mapped back; the p-value is
  the score test of ``(1 + d) / 2 = 1/2``, the test this Wilson interval inverts (the interval
  excludes 0 exactly when ``p < 1 - confidence``). Never a degenerate p: 0 wins of 20 gives
  ``p = 7.7e-06``, not 0. With a field the games the field wins give ``d = 0``, and the interval
  is conservative.

Other measures (score, Maharaja's palaces and gold) are unbounded counts: their per-game means
and differences get t intervals and the paired t-test over games
(:func:`tajsim.analysis.stats.paired_difference`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import mean_ci, normal_quantile, paired_difference, wilson_interval

__all__ = ["REQUIRED_COLUMNS", "VERDICT_MAX_WIDTH", "VERDICT_MIN_GAMES", "compare_strategies",
           "share_difference", "share_interval", "verdict_status"]

REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "winner")

#: Fewer games than this give no verdict, whatever the interval (Wilson's coverage is close to
#: its nominal level from about 20 trials on).
VERDICT_MIN_GAMES = 20
#: A win-share difference whose interval includes 0 and is wider than this (20 points of A - B)
#: says "too few games": a difference of 10 points either way could not be excluded.
VERDICT_MAX_WIDTH = 0.20


def share_interval(shares: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of per-game shares in [0, 1] with its Wilson interval over the games (the sum of
    the shares as successes, the games as trials; see the module docstring for why that is
    valid for fractional shares). Returns ``(mean, low, high)``; NaN for no games."""
    x = np.asarray(shares, dtype=np.float64)
    n = x.size
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    low, high = wilson_interval(float(x.sum()), float(n), confidence)
    return float(x.mean()), float(low), float(high)


def share_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95
                     ) -> tuple[float, float, float, float, int]:
    """``mean(a - b)`` of per-game shares in [0, 1]: the Wilson interval of ``(1 + d) / 2``
    mapped back to [-1, 1], and the two-sided score test of no difference (statsmodels'
    ``proportions_ztest(sum, n, value=0.5, prop_var=0.5)``, which this interval inverts).

    Returns ``(difference, low, high, p_value, n)``; NaN for no games."""
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = int(d.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), float("nan"), 0
    m, low, high = share_interval((1.0 + d) / 2.0, confidence)
    normal_quantile(confidence)  # checks the level
    z = (m - 0.5) / np.sqrt(0.25 / n)
    p_value = float(2.0 * sps.norm.sf(abs(z)))
    return float(d.mean()), 2.0 * low - 1.0, 2.0 * high - 1.0, p_value, n


def verdict_status(n: int, low: float, high: float) -> str:
    """What a win-share difference's interval allows: ``"a"`` (A wins more often), ``"b"``,
    ``"too few"`` (fewer than :data:`VERDICT_MIN_GAMES` games, or an interval that includes 0
    and is wider than :data:`VERDICT_MAX_WIDTH`) or ``"none"`` (no difference detected by a
    narrow enough interval)."""
    if n < VERDICT_MIN_GAMES or not (np.isfinite(low) and np.isfinite(high)):
        return "too few"
    if low > 0:
        return "a"
    if high < 0:
        return "b"
    return "too few" if high - low > VERDICT_MAX_WIDTH else "none"


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
        ``ci_high``, ``p_value`` (float64); ``interval`` (str: ``"wilson"`` for the win
        share, ``"t"`` for other measures) and ``test`` (str: ``"score"``, ``"paired t"``).
        See the module docstring for why each.

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
        if measure == "win":  # bounded shares: score intervals and the score test
            a_mean, a_low, a_high = share_interval(per_game[0], confidence)
            b_mean, b_low, b_high = share_interval(per_game[1], confidence)
            diff, low, high, p_value, n = share_difference(per_game[0], per_game[1],
                                                           confidence)
            interval, test = "wilson", "score"
        else:
            a_mean, a_low, a_high, _, _ = mean_ci(per_game[0], confidence)
            b_mean, b_low, b_high, _, _ = mean_ci(per_game[1], confidence)
            diff, low, high, p_value, n = paired_difference(per_game[0], per_game[1],
                                                            confidence)
            interval, test = "t", "paired t"
        rows.append({
            "measure": measure, "n": n,
            "n_a": int(seats[0, both].sum()), "n_b": int(seats[1, both].sum()),
            "a_mean": a_mean, "a_ci_low": a_low, "a_ci_high": a_high,
            "b_mean": b_mean, "b_ci_low": b_low, "b_ci_high": b_high,
            "difference": diff, "ci_low": low, "ci_high": high, "p_value": p_value,
            "interval": interval, "test": test,
        })
    out = pd.DataFrame(rows)
    return out.astype({"n": np.int64, "n_a": np.int64, "n_b": np.int64})
