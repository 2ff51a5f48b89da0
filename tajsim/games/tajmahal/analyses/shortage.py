"""Card shortages (R3): how often the deck and the discard pile both run dry, and who pays.

With five players the heuristic strategies keep so many cards in hand (the final card points)
that the deck and the discard pile can both be empty: the display is dealt short and players get
fewer cards than the rules give them (``docs/rules.md`` R3). The results record it per game
(``exhausted_visit``, ``n_short_deals``, ``display_cards_short``) and per player
(``display_cards_missed``, ``deck_cards_missed``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index
from tajsim.analysis.stats import summarize_mean, wilson_interval
from tajsim.analysis.winrates import table_lineups
from tajsim.errors import UserError

__all__ = ["card_shortage", "shortage_games"]

DEFAULT_BY = ("edition", "n_players")


def shortage_games(results: pd.DataFrame) -> pd.Series:
    """bool per row: the row's game ran the deck and the discard pile dry (a draw found no
    card)."""
    return results["exhausted_visit"] > 0


def card_shortage(results: pd.DataFrame, by: Sequence[str] | None = None, *,
                  confidence: float = 0.95) -> pd.DataFrame:
    """How often the cards run out, per group (default: edition and player count; ``by`` may
    name ``"lineup"``, the strategies at the table, derived when the results lack it).

    Returns
    -------
    DataFrame, one row per group
        ``by...``; ``n`` (int64, games); ``exhausted`` (int64, games in which a draw found no
        card) and ``rate``, ``ci_low``, ``ci_high`` (float64, Wilson); ``short_deal_rate`` with
        ``short_deal_ci_low`` / ``short_deal_ci_high`` (games with a display dealt short);
        ``first_visit`` (float64, mean first visit of a shortage in the games that had one);
        ``missed_per_player`` with ``missed_ci_low`` / ``missed_ci_high`` (float64, cards a
        player was owed but did not get, mean over player-games, t interval) and
        ``n_player_games`` (int64).
    """
    if by is None:
        by = [c for c in DEFAULT_BY if c in results.columns]
    else:
        by = list(by)
        if "lineup" in by and "lineup" not in results.columns:
            results = results.assign(lineup=table_lineups(results))
        unknown = [c for c in by if c not in results.columns]
        if unknown:
            raise UserError(f"card_shortage: by {unknown} are not columns of the results; "
                            "expected results columns (or 'lineup')")
    frame = results.assign(_game=game_index(results),
                           _missed=results["display_cards_missed"].astype(np.int64)
                           + results["deck_cards_missed"].astype(np.int64))
    games = frame.groupby([*by, "_game"], observed=True, sort=True).agg(
        exhausted_visit=("exhausted_visit", "first"), n_short_deals=("n_short_deals", "first"))
    games = games.reset_index()
    grouped = games.groupby(by, observed=True, sort=True) if by else [((), games)]
    rows = []
    for key, grp in grouped:
        n = len(grp)
        hit = grp["exhausted_visit"] > 0
        short = grp["n_short_deals"] > 0
        low, high = wilson_interval(float(hit.sum()), n, confidence)
        s_low, s_high = wilson_interval(float(short.sum()), n, confidence)
        row = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        row.update(n=n, exhausted=int(hit.sum()), rate=hit.mean(), ci_low=float(low),
                   ci_high=float(high), short_deal_rate=short.mean(),
                   short_deal_ci_low=float(s_low), short_deal_ci_high=float(s_high),
                   first_visit=float(grp.loc[hit, "exhausted_visit"].mean()) if hit.any()
                   else np.nan)
        rows.append(row)
    out = pd.DataFrame(rows)
    missed = summarize_mean(frame, by, "_missed", confidence=confidence)
    missed = missed.rename(columns={"mean": "missed_per_player", "ci_low": "missed_ci_low",
                                    "ci_high": "missed_ci_high", "n": "n_player_games"})
    keep = [*by, "missed_per_player", "missed_ci_low", "missed_ci_high", "n_player_games"]
    out = out.merge(missed[keep], on=by, how="left") if by else pd.concat(
        [out, missed[keep].reset_index(drop=True)], axis=1)
    for col in ("n", "exhausted", "n_player_games"):
        out[col] = out[col].astype(np.int64)
    return out
