"""Maharaja's governor analyses: the value of the governor action (``governor_value``) and each
seat's win rate by the governor order (``order_balance``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.stats import newcombe_difference, within_group_ols
from tajsim.analysis.winrates import win_rates
from tajsim.games.maharaja.analyses.helpers import (
    CONTROLS,
    _by,
    _check,
    _framed,
    _groups,
)
from tajsim.games.maharaja.engine.enums import N_ORDERS

#: Governor choices are counted up to this (the last level is "this many or more").
GOVERNOR_TOP = 3


# ---------------------------------------------------------------------------------------------
# The governor action
# ---------------------------------------------------------------------------------------------
def governor_value(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                   confidence: float = 0.95) -> pd.DataFrame:
    """The governor action (move a governor two boxes down: which city is scored when).

    * ``measure`` = "win_rate": win rate by how often a player chose the action (``level`` 0,
      1, 2, "3+"), by group (Wilson);
    * "within_game": one more choice of the action, compared among the players of one game:
      the coefficient of ``chose_governor`` in ``outcome ~ chose_governor + seat + strategy +
      one effect per game`` for ``win`` (win share) and ``gold``, intervals clustered by game;
    * "raw_gap" (``level`` "3+ vs 0", by group): the top level's win rate minus that of the
      players who never chose the action (Newcombe interval; player-games as independent, as
      the rates);
    * "within_game_gap" (``level`` "3+ vs 0", outcome ``win``): the within-game coefficient
      times the top level's mean number of choices: the part of the raw gap that one game's
      players show between those counts, with the coefficient's interval scaled alike.

    Both are associations: players choose the action when it pays (or when nothing else
    does), so neither is the effect of forcing it on a player.

    Returns ``measure``, ``by...``, ``level``, ``outcome``, ``n``, ``n_games``, ``estimate``,
    ``ci_low``, ``ci_high``, ``baseline``.
    """
    _check(results, ["chose_governor", "winner", "gold"], "governor_value")
    keys = _by(results, by)
    frame = _framed(results)
    times = np.minimum(frame["chose_governor"].astype(np.int64).to_numpy(), GOVERNOR_TOP)
    levels = [str(k) for k in range(GOVERNOR_TOP)] + [f"{GOVERNOR_TOP}+"]
    frame["level"] = pd.Categorical(np.array(levels)[times], categories=levels)
    rates = win_rates(frame, by=[*keys, "level"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "estimate"})
    rates.insert(0, "measure", "win_rate")
    rates["outcome"] = "win"
    rates["level"] = rates["level"].astype(str)
    parts = [rates]
    top, gap_level = levels[-1], f"{levels[-1]} vs {levels[0]}"
    ends = rates[rates["level"].isin([levels[0], top])]
    for _, g in (ends.groupby(keys, observed=True, sort=False) if keys else [((), ends)]):
        ranked = g.set_index("level")
        if not {levels[0], top} <= set(ranked.index):
            continue
        hi, lo = ranked.loc[top], ranked.loc[levels[0]]
        diff, low, high = newcombe_difference(hi["estimate"] * hi["n"], hi["n"],
                                              lo["estimate"] * lo["n"], lo["n"], confidence)
        row = {k: hi[k] for k in keys}
        parts.append(pd.DataFrame([{**row, "measure": "raw_gap", "level": gap_level,
                                    "outcome": "win", "n": int(hi["n"] + lo["n"]),
                                    "estimate": float(diff), "ci_low": float(low),
                                    "ci_high": float(high)}]))
    top_choices = frame.loc[times == GOVERNOR_TOP, "chose_governor"].astype(np.float64)
    for outcome in ("win", "gold"):
        fit = within_group_ols(frame, outcome, ["chose_governor"], CONTROLS, group="_game",
                               confidence=confidence).iloc[0]
        within = {"outcome": outcome, "n": int(fit["n"]), "n_games": int(fit["n_games"])}
        parts.append(pd.DataFrame([{**within, "measure": "within_game",
                                    "estimate": fit["coef"], "ci_low": fit["low"],
                                    "ci_high": fit["high"]}]))
        if outcome == "win" and len(top_choices):
            scale = float(top_choices.mean())
            parts.append(pd.DataFrame([{**within, "measure": "within_game_gap",
                                        "level": gap_level, "estimate": fit["coef"] * scale,
                                        "ci_low": fit["low"] * scale,
                                        "ci_high": fit["high"] * scale}]))
    out = pd.concat(parts, ignore_index=True)
    out["n_games"] = out["n_games"].astype("Int64")  # the raw gap's rows count player-games
    return out[["measure", *keys, "level", "outcome", "n", "n_games", "estimate", "ci_low",
                "ci_high", "baseline"]]


# ---------------------------------------------------------------------------------------------
# The governor order and the seats
# ---------------------------------------------------------------------------------------------
def order_balance(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of each seat by the city the governor order scores first (``first_city``) and
    over all orders (``first_city`` = "all"), by group, with Wilson intervals over games.

    ``exhaustive`` says whether the group played every one of the 5,040 orders equally often
    (``setups = "enumerated"``): the compiled strategies draw no chance, so a game is a function
    of the order and the seating, and the rates of such a run are then exact for a uniformly
    drawn order (the intervals are those of a sample of as many random orders). In a mirror
    match (one strategy in every seat) a seat's rate is its position's advantage.

    Returns ``by...``, ``first_city``, ``seat``, ``n`` (games), ``n_orders`` (distinct orders),
    ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``baseline``, ``excess``, ``exhaustive``.
    """
    _check(results, ["first_city", "order_index", "seat", "winner"], "order_balance")
    keys = _by(results, by)
    frame = _framed(results).assign(first_city=results["first_city"].astype(str))
    parts = []
    for cities in (False, True):
        group = [*keys, "first_city", "seat"] if cities else [*keys, "seat"]
        table = win_rates(frame, by=group, confidence=confidence)
        orders = frame.groupby(group, observed=True, sort=True)["order_index"].nunique()
        table["n_orders"] = orders.to_numpy(np.int64)
        if not cities:
            table.insert(len(keys), "first_city", "all")
        parts.append(table)
    out = pd.concat(parts, ignore_index=True)
    # every order equally often within the group (games counted once: seat 0's rows)
    exhaustive = {}
    for key, g in _groups(frame[frame["seat"] == 0], keys):
        counts = g["order_index"].value_counts()
        exhaustive[key] = bool(len(counts) == N_ORDERS and counts.nunique() == 1)
    out["exhaustive"] = [exhaustive.get(tuple(row[k] for k in keys), False)
                         for _, row in out.iterrows()]
    return out[[*keys, "first_city", "seat", "n", "n_orders", "wins", "win_rate", "ci_low",
                "ci_high", "baseline", "excess", "exhaustive"]]
