"""Maharaja's character-card analysis (``card_value``): win rate and final gold by the card held
at the end and drafted at setup.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.winrates import win_rates
from tajsim.games.maharaja.analyses.helpers import (
    _by,
    _check,
    _framed,
    _mean_table,
)
from tajsim.games.maharaja.analyses.seat_cards import CARD_SLUGS


def card_value(results: pd.DataFrame, by: Sequence[str] | str | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Win rate (Wilson, shared wins 1/k) and final gold (t, clustered by game) by character,
    held at the end (``held`` = "final") and drafted at setup ("first"). Associations: the card
    held at the end is the one a player kept or took.

    Returns ``held``, ``by...``, ``card``, ``n`` (player-games), ``n_games``, ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high``, ``baseline`` (1/n_players), ``excess``, ``gold``,
    ``gold_low``, ``gold_high``.
    """
    _check(results, ["card_final", "card_first", "winner", "gold"], "card_value")
    keys = _by(results, by)
    frame = _framed(results)
    out = []
    for held, column in (("final", "card_final"), ("first", "card_first")):
        codes = frame[column].astype(np.int64).to_numpy()
        names = np.array([CARD_SLUGS[c] if 0 <= c < len(CARD_SLUGS) else str(c) for c in codes])
        cards = frame.assign(card=pd.Categorical(names, categories=[
            *CARD_SLUGS, *sorted(set(names) - set(CARD_SLUGS))]))
        rates = win_rates(cards, by=[*keys, "card"], confidence=confidence)
        gold = _mean_table(cards, [*keys, "card"], "gold", confidence)
        gold = gold[[*keys, "card", "mean", "ci_low", "ci_high"]].rename(
            columns={"mean": "gold", "ci_low": "gold_low", "ci_high": "gold_high"})
        table = rates.merge(gold, on=[*keys, "card"], how="left")
        table["card"] = table["card"].astype(str)
        table.insert(0, "held", held)
        out.append(table)
    return pd.concat(out, ignore_index=True)
