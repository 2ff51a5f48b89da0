"""``seat_cards``: which character card each seat holds, and the seat's effect within a card.

A Maharaja seat is a draft position: seat 0 chooses its character card first, and the cards,
not the seats, then set the order of play. A seat's win rate therefore mixes what its position
does with the cards it ends up holding. This analysis tells the two apart as far as the records
allow:

* ``share``: the share of a seat's games in which it holds each card (at the end: ``held`` =
  "final", the ``card_final`` column; drafted at setup: "first", ``card_first``), Wilson
  intervals over the seat's games;
* ``win_rate``: the win rate of each seat among the games in which it holds a card (the seat
  effect within a card, read down a card; the card effect within a seat, read across a seat),
  Wilson intervals; card "all" is the seat's rate over all its games;
* ``card_adjusted``: each seat's win rate standardised to the pooled card mix (direct
  standardisation: the cells' rates weighted by how often each card is held by any seat of the
  group), over the cards the seat held in at least ``min_n`` games (``coverage``: the pooled
  share of those cards). If the seats differ only because they hold different cards, the
  adjusted rates are nearly equal (what is left: the cards their opponents hold, which differ
  by seat too). Normal interval from the cells' binomial variances (a seat's cells
  are disjoint sets of games, so independent once games are).

Associations, not causal effects: the final card is one a player kept or took with the character
action, so it depends on the game as well as on the seat. In a mirror match at temperature 0
every seat drafts the same card in every game, and then a drafted card's cells hold one seat.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import wilson_interval
from tajsim.analysis.winrates import win_rates
from tajsim.errors import UserError
from tajsim.games.maharaja.engine.enums import N_CARDS

__all__ = ["CARD_SLUGS", "HELD_COLUMNS", "seat_cards"]

#: The cards' names in the analyses, in card-code order (``CARD_NAMES`` slugged).
CARD_SLUGS = ("mogul", "trader", "sadhu", "monk", "builder", "artisan")
#: ``held`` -> the record column that names the card.
HELD_COLUMNS = {"final": "card_final", "first": "card_first"}
COLUMNS = ("held", "measure", "seat", "card", "n", "count", "estimate", "ci_low", "ci_high",
           "baseline", "excess", "coverage")
assert len(CARD_SLUGS) == N_CARDS


def _card_names(codes: pd.Series) -> pd.Categorical:
    values = codes.astype(np.int64).to_numpy()
    names = np.array([CARD_SLUGS[c] if 0 <= c < N_CARDS else str(c) for c in values])
    return pd.Categorical(names, categories=[*CARD_SLUGS,
                                             *sorted(set(names) - set(CARD_SLUGS))])


def _shares(frame: pd.DataFrame, keys: list[str], confidence: float) -> pd.DataFrame:
    """Per group and seat, the share of its games in which it holds each card (zero counts
    included)."""
    counts = frame.groupby([*keys, "seat", "card"], observed=False, sort=True).size()
    counts = counts.rename("count").reset_index()
    totals = frame.groupby([*keys, "seat"], observed=True, sort=True).size().rename("n")
    table = counts.merge(totals.reset_index(), on=[*keys, "seat"], how="inner")
    low, high = wilson_interval(table["count"].to_numpy(np.float64),
                                table["n"].to_numpy(np.float64), confidence)
    return table.assign(measure="share", estimate=table["count"] / table["n"], ci_low=low,
                        ci_high=high, baseline=np.nan, excess=np.nan, coverage=np.nan)


def _cell_rates(frame: pd.DataFrame, keys: list[str], confidence: float) -> pd.DataFrame:
    """Win rate of each seat within each card it held, and over all its games (card "all")."""
    cells = win_rates(frame, by=[*keys, "seat", "card"], confidence=confidence)
    cells["card"] = cells["card"].astype(str)
    seats = win_rates(frame, by=[*keys, "seat"], confidence=confidence).assign(card="all")
    table = pd.concat([cells, seats], ignore_index=True).rename(
        columns={"wins": "count", "win_rate": "estimate"})
    return table.assign(measure="win_rate", coverage=np.nan)


def _adjusted(frame: pd.DataFrame, cells: pd.DataFrame, keys: list[str], min_n: int,
              confidence: float) -> pd.DataFrame:
    """Each seat's win rate standardised to its group's pooled card mix (see the module)."""
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    rows = []
    groups = frame.groupby(keys, observed=True, sort=True) if keys else [((), frame)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        mix = g["card"].astype(str).value_counts(normalize=True)
        mine = cells
        for k, v in zip(keys, key):
            mine = mine[mine[k] == v]
        for seat, s in mine[mine["card"] != "all"].groupby("seat", sort=True):
            s = s[s["n"] >= min_n]
            weight = mix.reindex(s["card"]).fillna(0.0).to_numpy()
            covered = float(weight.sum())
            if covered == 0:
                continue
            p, n = s["estimate"].to_numpy(), s["n"].to_numpy(np.float64)
            estimate = float((weight * p).sum() / covered)
            se = float(np.sqrt((weight ** 2 * p * (1 - p) / n).sum()) / covered)
            rows.append({**dict(zip(keys, key)), "seat": seat, "card": "card_adjusted",
                         "n": int(n.sum()), "count": float((p * n).sum()),
                         "estimate": estimate, "ci_low": max(0.0, estimate - z * se),
                         "ci_high": min(1.0, estimate + z * se),
                         "baseline": float(s["baseline"].iloc[0]), "coverage": covered})
    table = pd.DataFrame(rows, columns=[*keys, "seat", "card", "n", "count", "estimate",
                                        "ci_low", "ci_high", "baseline", "coverage"])
    return table.assign(measure="card_adjusted", excess=table["estimate"] - table["baseline"])


def seat_cards(results: pd.DataFrame, by: Sequence[str] | str | None = None,
               held: Sequence[str] = ("final", "first"), min_n: int = 30,
               confidence: float = 0.95) -> pd.DataFrame:
    """Which card each seat holds and its win rate within each card (module docstring).

    Returns ``held`` ("final" or "first"), ``by...``, ``measure`` ("share", "win_rate",
    "card_adjusted"), ``seat``, ``card`` (a card, "all" or "card_adjusted"), ``n`` (player-
    games: the seat's games for a share, the games in which it held the card for a rate),
    ``count`` (games holding the card, or wins: a shared win counts 1/k), ``estimate``,
    ``ci_low``, ``ci_high``, ``baseline`` (1/n_players for rates), ``excess``, ``coverage``
    (card-adjusted rows: the pooled share of the cards counted).
    """
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    unknown = [h for h in held if h not in HELD_COLUMNS]
    if unknown:
        raise UserError(f"seat_cards: held={unknown[0]!r} is not one of "
                        f"{', '.join(HELD_COLUMNS)}")
    needed = [*keys, "seat", "winner", "n_players", *(HELD_COLUMNS[h] for h in held)]
    missing = [c for c in needed if c not in results.columns]
    if missing:
        raise UserError(f"seat_cards needs the column {missing[0]!r}; the results frame has "
                        "none (is it a Maharaja run?)")
    parts = []
    for which in held:
        frame = results.assign(card=_card_names(results[HELD_COLUMNS[which]]),
                               win=win_value(results).to_numpy(), _game=game_index(results))
        cells = _cell_rates(frame, keys, confidence)
        parts += [_shares(frame, keys, confidence).assign(held=which), cells.assign(held=which),
                  _adjusted(frame, cells, keys, min_n, confidence).assign(held=which)]
    out = pd.concat(parts, ignore_index=True)
    out["card"] = out["card"].astype(str)
    out["seat"] = out["seat"].astype(np.int64)
    out["n"] = out["n"].astype(np.int64)
    # (an empty card-adjusted part, with too few games a cell, would leave them as objects)
    for column in COLUMNS[5:]:
        out[column] = out[column].astype(np.float64)
    return out[["held", *keys, *COLUMNS[1:]]]
