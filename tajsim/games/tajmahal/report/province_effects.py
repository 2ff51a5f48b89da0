"""What a province is worth for chain points, net of when it is visited.

The raw mean chain points of a province (:func:`~tajsim.games.tajmahal.analyses.connections.
chain_points_by_province`) mostly measure its place in the visit order: chain points grow from
visit to visit, and Agra is always visited last. :func:`province_effects_net_of_visit`
compares each province with the other provinces visited in the same slot instead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from tajsim.analysis.frames import game_index
from tajsim.games.tajmahal.analyses.connections import CHAIN_COLUMNS, province_columns

__all__ = ["province_effects_net_of_visit"]


def province_effects_net_of_visit(
    results: pd.DataFrame, *, confidence: float = 0.95
) -> pd.DataFrame:
    """Chain points of each province minus those of the other provinces in the same visit slot.

    For a player-game and a province ``p`` visited in slot ``k``, the chain points scored in that
    visit (``chain_v<k>``) are compared with the mean chain points of the *other* provinces when
    they were visited in slot ``k`` (same edition and player count). The effect of ``p`` is the
    mean of these differences over its player-games: 0 means an average province for its place
    in the order; +0.2 means 0.2 more palace + connection points per player than another
    province visited at the same time. A province that is always visited in a slot no other
    province takes (Agra, always 12th) has no comparison: its effect is NaN and ``identified``
    is false.

    The interval is a normal interval from a delta-method variance clustered by game (the
    players of a game share its setup, and the reference means are estimated from the same
    games), so ``n`` counts games.

    Parameters
    ----------
    results : DataFrame
        Needs ``chain_v1..12``, the ``visit_<province>`` columns, ``n_players`` and the game
        key columns.
    confidence : float
        Interval coverage.

    Returns
    -------
    DataFrame, one row per province, in the order of the ``visit_*`` columns
        ``province`` (str slug); ``n`` (int64, games); ``n_player_games`` (int64);
        ``effect``, ``se``, ``ci_low``, ``ci_high`` (float64, chain points per player in the
        visit, net of the slot); ``raw_mean`` (float64, mean chain points in the visit);
        ``slot_mean`` (float64, the mean of the other provinces in the same slots:
        ``raw_mean - effect``); ``mean_visit`` (float64); ``identified`` (bool).
    """
    pcols = province_columns(results)
    if len(pcols) != len(CHAIN_COLUMNS):
        raise ValueError(f"results have {len(pcols)} visit_<province> columns, expected "
                         f"{len(CHAIN_COLUMNS)}")
    n_slots = len(CHAIN_COLUMNS)
    games = game_index(results)
    n_games = int(games.max()) + 1 if len(games) else 0
    first = np.unique(games, return_index=True)[1]
    # Per game: the slot of each province (a setup feature: the same for every player), the
    # chain points of all its players in each slot, and its number of players.
    slot = results[pcols].to_numpy(np.int64)[first] - 1  # (G, provinces), 0-based
    chain = np.zeros((n_games, n_slots))
    np.add.at(chain, games, results[list(CHAIN_COLUMNS)].to_numpy(np.float64))
    players = np.bincount(games, minlength=n_games).astype(np.float64)
    group_cols = [c for c in ("edition", "n_players") if c in results.columns]
    group = results[group_cols].iloc[first].groupby(group_cols, sort=True,
                                                    observed=True).ngroup().to_numpy(np.int64)
    n_cells = (int(group.max()) + 1) * n_slots if n_games else 0
    cell = group[:, None] * n_slots + np.arange(n_slots)[None, :]  # (G, slots)
    # Every province's observations per cell (edition/players x slot).
    all_sum = np.bincount(cell.ravel(), weights=chain.ravel(), minlength=n_cells)
    all_count = np.bincount(cell.ravel(), weights=np.repeat(players, n_slots),
                            minlength=n_cells)
    z = float(norm.ppf(0.5 + confidence / 2))
    rows = []
    for p, column in enumerate(pcols):
        own_slot = slot[:, p]
        own_cell = group * n_slots + own_slot
        own_chain = chain[np.arange(n_games), own_slot]
        own_sum = np.bincount(own_cell, weights=own_chain, minlength=n_cells)
        own_count = np.bincount(own_cell, weights=players, minlength=n_cells)
        other_sum = all_sum - own_sum
        other_count = all_count - own_count
        total = float(own_count.sum())
        raw_mean = float(own_sum.sum() / total) if total else np.nan
        used = own_count > 0
        identified = bool(total) and bool(np.all(other_count[used] > 0))
        effect = se = np.nan
        if identified:
            with np.errstate(invalid="ignore", divide="ignore"):
                ref = np.where(other_count > 0, other_sum / other_count, 0.0)
                weight = np.where(other_count > 0, own_count / other_count, 0.0)
            effect = float((own_sum - own_count * ref).sum() / total)
            # Influence of each game on the effect (linearised ratio of sums), clustered by
            # game: its own visit to p, and its visits to the other provinces, which enter the
            # reference means of p's slots.
            residual = chain - players[:, None] * ref[cell]  # (G, slots)
            through_ref = (weight[cell] * residual).sum(1) - weight[own_cell] * residual[
                np.arange(n_games), own_slot]
            influence = (residual[np.arange(n_games), own_slot] - effect * players
                         - through_ref) / total
            if n_games > 1:
                se = float(np.sqrt(n_games / (n_games - 1) * np.sum(influence ** 2)))
        rows.append({
            "province": column.removeprefix("visit_"),
            "n": n_games,
            "n_player_games": int(total),
            "effect": effect,
            "se": se,
            "ci_low": effect - z * se,
            "ci_high": effect + z * se,
            "raw_mean": raw_mean,
            "slot_mean": raw_mean - effect,
            "mean_visit": float((own_slot + 1) @ players / total) if total else np.nan,
            "identified": identified,
        })
    out = pd.DataFrame(rows)
    out["n"] = out["n"].astype(np.int64)
    out["n_player_games"] = out["n_player_games"].astype(np.int64)
    return out
