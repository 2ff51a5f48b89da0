"""Maharaja's palace analyses: how fast palaces are built (``palace_tempo``) and central against
outer palaces (``central_vs_outer``, within games too).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.stats import within_group_ols
from tajsim.analysis.winrates import win_rates
from tajsim.games.maharaja.analyses.helpers import (
    CONTROLS,
    _by,
    _check,
    _framed,
    _mean_table,
)


def _palace_rounds(results: pd.DataFrame) -> list[str]:
    """The ``palace_round_<k>`` columns, in order of k (none in runs made before they were)."""
    found = [c for c in results.columns if str(c).startswith("palace_round_")]
    return sorted(found, key=lambda c: int(str(c).rsplit("_", 1)[1]))


def palace_tempo(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                 confidence: float = 0.95) -> pd.DataFrame:
    """How fast players build their palaces, by group (t intervals clustered by game):

    * ``measure`` = "palaces_by_round": palaces a player has built by the end of round
      ``round`` (a game that ended earlier counts its final palaces), from the
      ``palace_round_<k>`` columns (left out when the results lack them);
    * "first_palace_round", "last_palace_round": the round of the player's first and last
      palace (players who built none are left out);
    * "palaces": palaces at the end;
    * "win_rate_by_first_palace_round": win rate (Wilson) by the round of the first palace
      (``round`` 0 = no palace built), all groups together.

    Returns ``measure``, ``by...``, ``round``, ``n``, ``n_games``, ``mean`` (palaces, a round
    or a win rate), ``ci_low``, ``ci_high``, ``baseline`` (win rates: 1/n_players).
    """
    _check(results, ["first_palace_round", "last_palace_round", "palaces", "winner"],
           "palace_tempo")
    keys = _by(results, by)
    frame = _framed(results)
    parts = []
    tempo = _palace_rounds(frame)
    if tempo:
        built_in = frame[tempo].to_numpy(np.int64)
        last = int(max(built_in.max(), frame["n_rounds"].max() if "n_rounds" in frame else 0))
        for r in range(1, last + 1):
            frame["_by_round"] = ((built_in > 0) & (built_in <= r)).sum(axis=1)
            table = _mean_table(frame, keys, "_by_round", confidence)
            table.insert(0, "measure", "palaces_by_round")
            table.insert(1 + len(keys), "round", r)
            parts.append(table)
    built = frame[frame["palaces"] > 0]
    for measure, sub, column in (("first_palace_round", built, "first_palace_round"),
                                 ("last_palace_round", built, "last_palace_round"),
                                 ("palaces", frame, "palaces")):
        table = _mean_table(sub, keys, column, confidence)
        table.insert(0, "measure", measure)
        parts.append(table)
    rates = win_rates(frame.assign(round=frame["first_palace_round"].astype(np.int64)),
                      by=["round"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "mean"})
    rates.insert(0, "measure", "win_rate_by_first_palace_round")
    parts.append(rates[["measure", "round", "n", "n_games", "mean", "ci_low", "ci_high",
                        "baseline"]])
    out = pd.concat(parts, ignore_index=True)
    out["round"] = out["round"].astype("Int64")
    columns = ["measure", *keys, "round", "n", "n_games", "mean", "sd", "ci_low", "ci_high",
               "baseline"]
    return out.reindex(columns=columns)


def central_vs_outer(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Central against outer palaces.

    * ``measure`` = "win_rate_by_central": win rate by the number of central palaces a player
      built (Wilson; ``level`` = that number);
    * "central" / "outer": palaces of each kind per player-game, by group (t, clustered);
    * "within_game": one central palace in place of an outer one (the palaces held equal),
      compared among the players of one game: the coefficient of ``palaces_central`` in
      ``outcome ~ palaces_central + palaces + seat + strategy + one effect per game`` for the
      outcomes ``win`` (win share) and ``gold``, with intervals clustered by game. An
      association: players build a central palace where they can.

    Returns ``measure``, ``by...``, ``level``, ``outcome``, ``n``, ``n_games``, ``estimate``,
    ``ci_low``, ``ci_high``, ``baseline`` (win rates: 1/n_players).
    """
    _check(results, ["palaces_central", "palaces_outer", "palaces", "winner", "gold"],
           "central_vs_outer")
    keys = _by(results, by)
    frame = _framed(results)
    rates = win_rates(frame.assign(level=frame["palaces_central"].astype(np.int64)),
                      by=["level"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "estimate"})
    rates.insert(0, "measure", "win_rate_by_central")
    rates["outcome"] = "win"
    parts = [rates[["measure", "level", "outcome", "n", "n_games", "estimate", "ci_low",
                    "ci_high", "baseline"]]]
    for measure in ("central", "outer"):
        table = _mean_table(frame, keys, f"palaces_{measure}", confidence)
        table = table.rename(columns={"mean": "estimate"}).drop(columns="sd")
        table.insert(0, "measure", measure)
        table["outcome"] = "palaces"
        parts.append(table)
    for outcome in ("win", "gold"):
        fit = within_group_ols(frame, outcome, ["palaces_central", "palaces"], CONTROLS,
                               group="_game", confidence=confidence)
        row = fit[fit["term"] == "palaces_central"].iloc[0]
        parts.append(pd.DataFrame([{"measure": "within_game", "outcome": outcome,
                                    "n": int(row["n"]), "n_games": int(row["n_games"]),
                                    "estimate": row["coef"], "ci_low": row["low"],
                                    "ci_high": row["high"]}]))
    out = pd.concat(parts, ignore_index=True)
    out["level"] = out["level"].astype("Int64")
    return out[["measure", *keys, "level", "outcome", "n", "n_games", "estimate", "ci_low",
                "ci_high", "baseline"]]
