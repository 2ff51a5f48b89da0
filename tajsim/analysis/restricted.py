"""Restricted play: what a game feature is worth to the player who may not use it.

Jaffe et al., "Evaluating Competitive Game Balance with Restricted Play" (AIIDE 2012): a feature
is worth what the best available player loses when it is forbidden to use it. A run seats one
restricted strategy (``balanced:forbid=governor``) against the same strategy unrestricted
(``balanced``) in the other seats, in every seat rotation; this module compares the restricted
seat with the unrestricted seats of the same games.

The unrestricted strategy of a restricted one is its text without the ``forbid=`` assignment
(``balanced:temperature=1:forbid=governor`` -> ``balanced:temperature=1``): that text names the
**level** (the skill of the players), the ``forbid`` value the **restriction**.

Two kinds of loss, each positive when the restriction hurts:

* ``win_rate``: the unrestricted seats' win share minus the restricted seat's (a shared win counts
  ``1/k`` for each of ``k`` winners), with Newcombe's interval for the difference of two
  proportions. Newcombe treats the seats as independent samples; within a game they are not
  (one seat's win is the others' loss, which widens the true interval), so the table also gives
  the interval of the paired per-game difference (``paired_ci_low`` / ``paired_ci_high``: a t
  interval over games of the unrestricted seats' mean win value minus the restricted seat's);
  ``significant`` asks both intervals to exclude 0.
* one row per score measure (the spec's ``score_display`` measures, e.g. palaces and gold; the
  score where the game has none): the unrestricted seats' mean minus the restricted seat's, a t
  interval over games of the per-game difference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import newcombe_difference, paired_difference, wilson_interval
from tajsim.errors import UserError

__all__ = ["FORBID", "FORBID_KEY", "IGNORE", "RETUNED", "WIN_RATE", "parse_restricted",
           "restricted_play", "split_restriction"]

#: The strategy option that names a restriction (``tajsim.strategies.spec.FORBID``; spelt here
#: so that the analysis layer reads result frames without the strategy registry).
FORBID_KEY = "forbid"
#: The ``measure`` of the win-rate rows.
WIN_RATE = "win_rate"
#: A restriction removes the game, rather than a feature, when the restricted seat wins less
#: than this at every level, and less than this at the upper end of its 95% interval at one
#: level at least: the seat (almost) never wins, its loss is the table's ceiling (1/n of the
#: wins), and it ranks nothing among features.
REMOVES_GAME_RATE = 0.01


#: ``variant`` of a restricted row: the seat forbidden the family with the level's weights, the
#: seat forbidden it with weights re-tuned under the restriction (its best response), or the seat
#: that may use the feature but ignores it (its weights set after ``forbid=none``).
FORBID, RETUNED, IGNORE = "forbid", "forbid, re-tuned", "ignore"


def parse_restricted(text: str) -> tuple[str, str, str, str]:
    """``(level, restriction, family, variant)`` of a strategy text.

    The options written before ``forbid=`` are the level's; those written after it belong to
    the restricted seat alone:

    * ``"balanced:temperature=1:forbid=governor"`` -> ``("balanced:temperature=1",
      "governor", "governor", "forbid")``;
    * ``"tuned:forbid=crown:palace=1.2:crown=0.3"`` (weights re-tuned under the restriction,
      :func:`tajsim.play.tuning.tune` with ``forbid``) -> ``("tuned", "crown re-tuned",
      "crown", "forbid, re-tuned")``;
    * ``"tuned:forbid=none:crown=0"`` (the feature ignored, not forbidden) -> ``("tuned",
      "ignore crown=0", "crown=0", "ignore")``;
    * a strategy without ``forbid=`` (or ``forbid=none`` last) -> ``(text, "", "", "")``.
    """
    name, *assignments = str(text).split(":")
    kept, after, forbid, seen = [], [], "", False
    for item in assignments:
        key, _, value = item.partition("=")
        if key.strip() == FORBID_KEY:
            forbid, seen = ("" if value.strip() == "none" else value.strip()), True
        elif seen:
            after.append(item.strip())
        else:
            kept.append(item)
    level = ":".join([name, *kept])
    if forbid and after:
        return level, f"{forbid} re-tuned", forbid, RETUNED
    if forbid:
        return level, forbid, forbid, FORBID
    if after:
        weights = "+".join(after)
        return level, f"ignore {weights}", weights, IGNORE
    return level, "", "", ""


def split_restriction(text: str) -> tuple[str, str]:
    """``"balanced:temperature=1:forbid=governor"`` -> ``("balanced:temperature=1",
    "governor")``; a strategy without a restriction (or ``forbid=none``) -> ``(text, "")``;
    options after ``forbid=`` are the restricted seat's own (:func:`parse_restricted`)."""
    level, restriction, _, _ = parse_restricted(text)
    return level, restriction


def restricted_play(
    results: pd.DataFrame,
    measures: Sequence[str] = ("score",),
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The loss of each restriction at each level: win rate and mean score measures.

    Parameters
    ----------
    results : DataFrame
        Results frame with ``strategy``, ``winner``, the game key and the ``measures``; each game
        used holds restricted seats and seats of their unrestricted strategy (other seats are
        ignored).
    measures : sequence of str
        Result columns whose mean loss to report (the report passes the spec's
        ``score_display.measures``; default: ``score``).
    confidence : float
        Level of the intervals.

    Returns
    -------
    DataFrame, one row per (level, restriction, measure)
        ``level``, ``restriction`` (the family, ``"NAME re-tuned"`` or ``"ignore W=0"``:
        :func:`parse_restricted`), ``family``, ``variant`` (``forbid``, ``forbid, re-tuned`` or
        ``ignore``), ``measure`` (``win_rate`` or a measure), ``n`` (int64,
        games), ``n_restricted`` / ``n_unrestricted`` (int64, seat-games), ``restricted`` /
        ``unrestricted`` (float64, the means), ``loss`` (unrestricted minus restricted),
        ``ci_low``, ``ci_high`` (Newcombe for the win rate, paired t for a measure),
        ``paired_ci_low``, ``paired_ci_high`` (paired t over games, every row), ``p_value``
        (paired t), ``significant`` (bool: the intervals exclude 0), ``restricted_win_high``
        (float64: the upper end of the restricted seat's Wilson 95% win-rate interval) and
        ``removes_game`` (bool, the same on every row of a restriction: at every level the
        restricted seat wins less than :data:`REMOVES_GAME_RATE`, and at one level at least
        its interval's upper end is below it too: the restriction removes the game, whatever
        the level, so a level with fewer games inherits the verdict).

    Raises
    ------
    tajsim.errors.UserError
        No restricted strategy in the results, a measure the results lack, or a restricted
        strategy whose unrestricted strategy sits at none of its tables.
    """
    missing = [c for c in ("strategy", "winner", *measures) if c not in results.columns]
    if missing:
        raise UserError(f"restricted_play needs the column {missing[0]!r}; the results have "
                        "none (expected a result field such as 'score')")
    labels = results["strategy"].astype(str).to_numpy()
    parsed = {text: split_restriction(text) for text in pd.unique(labels)}
    variants = {text: parse_restricted(text) for text in pd.unique(labels)}
    restricted = sorted(t for t, (_, forbid) in parsed.items() if forbid)
    if not restricted:
        raise UserError("restricted_play found no restricted strategy in the results; expected "
                        "strategies such as 'balanced:forbid=NAME' against 'balanced'")
    game = game_index(results)
    win = win_value(results).to_numpy()
    n_games = int(game.max()) + 1
    rows = []
    for text in restricted:
        level, forbid = parsed[text]
        is_r, is_u = labels == text, labels == level
        # the games that hold both the restricted seat and its unrestricted strategy
        both = np.zeros(n_games, bool)
        both[np.intersect1d(game[is_r], game[is_u])] = True
        is_r, is_u = is_r & both[game], is_u & both[game]
        if not is_r.any():
            raise UserError(f"restricted strategy {text!r} never sits at a table with "
                            f"{level!r}; expected the restricted strategy against its "
                            "unrestricted one (strategies = [restricted, unrestricted, ...])")
        wins_r, seats_r = float(win[is_r].sum()), int(is_r.sum())
        win_high = float(np.asarray(wilson_interval(wins_r, seats_r, 0.95)[1]))
        for measure in (WIN_RATE, *measures):
            values = win if measure == WIN_RATE else results[measure].to_numpy(np.float64)
            per_game_r = _per_game_mean(values[is_r], game[is_r], n_games)[both]
            per_game_u = _per_game_mean(values[is_u], game[is_u], n_games)[both]
            loss, p_low, p_high, p_value, n = paired_difference(per_game_u, per_game_r,
                                                                confidence)
            row = {
                "level": level, "restricted_strategy": text, "restriction": forbid,
                "family": variants[text][2], "variant": variants[text][3], "measure": measure,
                "n": n, "n_restricted": int(is_r.sum()),
                "n_unrestricted": int(is_u.sum()),
                "restricted": float(values[is_r].mean()),
                "unrestricted": float(values[is_u].mean()),
                "loss": float(values[is_u].mean() - values[is_r].mean()),
                "ci_low": p_low, "ci_high": p_high,
                "paired_ci_low": p_low, "paired_ci_high": p_high, "p_value": p_value,
                "restricted_win_high": win_high,
            }
            if measure == WIN_RATE:
                diff, low, high = newcombe_difference(values[is_u].sum(), is_u.sum(),
                                                      values[is_r].sum(), is_r.sum(), confidence)
                row.update(loss=float(diff), ci_low=float(low), ci_high=float(high))
            lows, highs = (row["ci_low"], row["paired_ci_low"]), (row["ci_high"],
                                                                  row["paired_ci_high"])
            row["significant"] = bool(min(lows) > 0 or max(highs) < 0)
            rows.append(row)
    out = pd.DataFrame(rows)
    win_rows = out[out["measure"] == WIN_RATE].groupby("restriction")
    removes = (win_rows["restricted"].max() < REMOVES_GAME_RATE) \
        & (win_rows["restricted_win_high"].min() < REMOVES_GAME_RATE)
    out["removes_game"] = out["restriction"].map(removes).fillna(False).astype(bool)
    for col in ("n", "n_restricted", "n_unrestricted"):
        out[col] = out[col].astype(np.int64)
    return out[["level", "restriction", "family", "variant", "restricted_strategy", "measure",
                "n", "n_restricted", "n_unrestricted", "restricted", "unrestricted", "loss",
                "ci_low", "ci_high",
                "paired_ci_low", "paired_ci_high", "p_value", "significant",
                "restricted_win_high", "removes_game"]]


def _per_game_mean(values: np.ndarray, games: np.ndarray, n_games: int) -> np.ndarray:
    """Mean of ``values`` (float64[k]) per game (int64[k] in 0..n_games-1): float64[n_games],
    NaN for a game without values."""
    total = np.bincount(games, weights=values, minlength=n_games)
    count = np.bincount(games, minlength=n_games)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)
