"""Taj Mahal's own results-frame columns and setup features, from the setup records.

The generic results frame (``tajsim.running.records``) holds the columns every game has (game,
seat, strategy, score and its parts, the result fields, the per-game metrics); this module adds
what only Taj Mahal's setup records say (``docs/results-schema.md``):

* ``visit_<province>``: the visit number (1..12) of each province;
* ``bonus_<city>``: the square bonus tile each fortress started with (categorical);
* ``tile_won_v1..12``: whether the player claimed the province tile of visit k;
* ``chain_v1..12``: palace + connection points the player scored at visit k.

The setup features (for the setup-balance analyses and the aggregates) are the visit number of
each province and the starting bonus tile of each fortress.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.engine.game_notes import SetupFeature
from tajsim.engine.record_columns import category_dtype, per_game_block
from tajsim.games.tajmahal.engine import enums as E

#: Categories of the ``bonus_<city>`` columns: the square bonus tiles (the Taj Mahal +4 tile
#: lies on Agra, which has no column; "taj4" is added only if a component file puts one on a
#: fortress).
BONUS_CATEGORIES = list(E.BONUS_NAMES[: E.BONUS.TAJ4])
FEATURE_PREFIXES = ("visit_", "bonus_")


def bonus_categories(meta: Mapping[str, Any]) -> list[str]:
    """Categories for the ``bonus_<city>`` columns of a run on these components."""
    kinds = meta["bonus_kinds"]
    if kinds and max(kinds) >= E.BONUS.TAJ4:
        return list(E.BONUS_NAMES)
    return list(BONUS_CATEGORIES)


def _visit_of(setups: np.ndarray) -> np.ndarray:
    """int64[G, 12]: visit index (0..11) of each province."""
    order = setups["province_order"].astype(np.int64)  # [G, 12] province of visit k
    visit_of = np.empty_like(order)
    np.put_along_axis(visit_of, order, np.broadcast_to(np.arange(E.N_VISITS), order.shape),
                      axis=1)
    return visit_of


def frame_columns(meta: Mapping[str, Any], results: np.ndarray,
                  setups: np.ndarray) -> dict[str, Any]:
    """The game's columns of the results frame, one value per player row (game-major).

    Parameters
    ----------
    meta : mapping
        ``Components.frame_meta()`` of the run.
    results : RESULT_DTYPE[G * n_players]
    setups : SETUP_DTYPE[G]
    """
    G = setups.shape[0]
    n = results.shape[0] // max(G, 1)
    # each block [columns, rows]: a column is one contiguous row of it, handed on without a copy
    # (a column cut from [rows, columns] was copied again, issue 42)
    cols: dict[str, Any] = {}
    visit = per_game_block(_visit_of(setups) + 1, n, np.int8)
    for prov, slug in enumerate(meta["province_slugs"]):
        cols[f"visit_{slug}"] = visit[prov]
    categories = category_dtype(tuple(bonus_categories(meta)))
    cities = list(meta["bonus_cities"])
    bonus_at = per_game_block(setups["bonus_at"][:, cities], n, np.int64)
    for i, slug in enumerate(meta["bonus_city_slugs"]):
        cols[f"bonus_{slug}"] = pd.Categorical.from_codes(bonus_at[i], dtype=categories)
    seat = np.tile(np.arange(n, dtype=np.int64), G)
    won = per_game_block(setups["tile_owner"][:, :E.N_VISITS], n, np.int64) == seat
    for k in range(E.N_VISITS):
        cols[f"tile_won_v{k + 1}"] = won[k]
    chain = np.ascontiguousarray(setups["conn_by_visit"][:, :E.N_VISITS, :n].transpose(1, 0, 2),
                                 dtype=np.int8).reshape(E.N_VISITS, G * n)
    for k in range(E.N_VISITS):
        cols[f"chain_v{k + 1}"] = chain[k]
    return cols


def setup_features(meta: Mapping[str, Any], setups: np.ndarray | None) -> list[SetupFeature]:
    """The visit number of each province and the starting bonus tile of each fortress."""
    visit = None if setups is None else _visit_of(setups)
    bonus_at = None if setups is None else setups["bonus_at"].astype(np.int64)
    visits = tuple(str(v + 1) for v in range(E.N_VISITS))
    out = [SetupFeature(f"visit_{slug}", None if visit is None else visit[:, prov], visits)
           for prov, slug in enumerate(meta["province_slugs"])]
    out += [SetupFeature(f"bonus_{slug}", None if bonus_at is None else bonus_at[:, city],
                         tuple(E.BONUS_NAMES))
            for city, slug in zip(meta["bonus_cities"], meta["bonus_city_slugs"])]
    return out


def setup_feature_columns(columns: Sequence[str]) -> list[str]:
    """The results-frame columns that hold setup features (``visit_*`` and ``bonus_*``)."""
    return [c for c in columns if str(c).startswith(FEATURE_PREFIXES)]
