"""Maharaja's own results-frame columns and setup features, derived from the setup records.

``frame_columns`` adds, to the generic results frame (one row per seat per game, games in
order, seats inside), the columns an analyst of this game groups by: the governor order
(``order_index``), the round each city is first scored (``visit_<city>``, 0 if never), the
first city scored, how and when the game ended, the seat's palace tempo (the round of its first,
last and k-th palace: ``palace_round_<k>``, 0 if never built), the rounds it held each
character, and per game the tolls earned in each village and the houses standing there
at the end (``tolls_<village>``, ``houses_<village>``). ``setup_features`` names the setup's
categorical features for the generic setup-balance analyses: the first city scored and the
whole governor order (5,040 values, so an exhaustive run over ``enumerated_setup_ids()`` is
exact).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from tajsim.engine.game_notes import SetupFeature
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.setups import order_of_index

__all__ = ["frame_columns", "setup_feature_columns", "setup_features", "slug"]

END_CATEGORIES = list(E.END_CAUSE_NAMES)
CARD_SLUGS = ("mogul", "trader", "sadhu", "monk", "builder", "artisan")


def slug(name: str) -> str:
    """Column-safe name ("Wandering Monk" -> "wandering_monk")."""
    return re.sub(r"[^a-z]", "_", name.lower())


def _per_row(setups: np.ndarray, n_players: int) -> np.ndarray:
    return np.arange(setups.shape[0]).repeat(n_players)


def frame_columns(meta: Mapping[str, Any], results: np.ndarray,
                  setups: np.ndarray) -> dict[str, Any]:
    """Extra results-frame columns, one value per (game, seat) row.

    Parameters
    ----------
    meta : ``Components.frame_meta()`` of the run's components
    results : RESULT_DTYPE[G * n] (rows game-major, seats inside)
    setups : SETUP_DTYPE[G]
    """
    G = setups.shape[0]
    n = results.shape[0] // G if G else 0
    rows = _per_row(setups, n)
    seat = np.tile(np.arange(n, dtype=np.int64), G)
    cities = [slug(c) for c in meta["city_names"]]
    cols: dict[str, Any] = {
        "order_index": setups["order_index"][rows].astype(np.int16),
        "first_city": pd.Categorical.from_codes(
            setups["governor_order"][rows, 0].astype(np.int64), categories=list(cities)),
        "end_cause": pd.Categorical.from_codes(setups["end_cause"][rows].astype(np.int64),
                                               categories=END_CATEGORIES),
        "n_rounds": setups["n_rounds"][rows].astype(np.int8),
    }
    visits = setups["visit_city"].astype(np.int64)  # [G, MAX_ROUNDS]
    for c, name in enumerate(cities):
        hit = visits == c
        first = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, 0)
        cols[f"visit_{name}"] = first[rows].astype(np.int8)
    palace_round = setups["palace_round"][rows, seat]  # [rows, 7]
    cols["first_palace_round"] = palace_round[:, 0].astype(np.int8)
    cols["last_palace_round"] = palace_round.max(axis=1).astype(np.int8)
    for k in range(palace_round.shape[1]):  # the tempo curve: palaces built by each round
        cols[f"palace_round_{k + 1}"] = palace_round[:, k].astype(np.int8)
    cards = setups["card_by_round"][rows, :, seat]  # [rows, MAX_ROUNDS]
    for k, name in enumerate(CARD_SLUGS):
        cols[f"rounds_{name}"] = (cards == k).sum(axis=1).astype(np.int8)
    # per game (the same on the game's rows): tolls earned and houses standing in each village
    for v, name in enumerate(slug(x) for x in meta["village_names"]):
        cols[f"tolls_{name}"] = setups["tolls_by_village"][rows, v].astype(np.int16)
        cols[f"houses_{name}"] = setups["village_houses"][rows, v].astype(np.int8)
    return cols


def governor_order_labels(meta: Mapping[str, Any]) -> tuple[str, ...]:
    """Label of each of the 5,040 orders: the cities from the bottom box up."""
    return _order_labels(tuple(slug(c) for c in meta["city_names"]))


@lru_cache(maxsize=8)
def _order_labels(names: tuple[str, ...]) -> tuple[str, ...]:
    # once a board: 5,040 labels cost 18 ms, which every chunk's aggregates paid (issue 42)
    return tuple(">".join(names[c] for c in order_of_index(k)) for k in range(E.N_ORDERS))


def setup_features(meta: Mapping[str, Any], setups: np.ndarray | None) -> list[SetupFeature]:
    """The setup's categorical features (``GameSpec.setup_features``), one code per game:
    ``first_city`` (the city scored in round 1) and ``governor_order`` (the Lehmer index of the
    whole order); codes None when ``setups`` is None (the layout only)."""
    first = None if setups is None else setups["governor_order"][:, 0].astype(np.int64)
    order = None if setups is None else setups["order_index"].astype(np.int64)
    cities = tuple(slug(c) for c in meta["city_names"])
    return [SetupFeature("first_city", first, cities),
            SetupFeature("governor_order", order, governor_order_labels(meta))]


def setup_feature_columns(columns: Sequence[str]) -> list[str]:
    """The results-frame columns that hold setup features: the first city scored and the
    round each city is first scored. The order's index is left out: a number with no order of
    its own (a slope on it would mean nothing); each order's own effect is the setup-balance
    analyses' per-setup comparison (one setup per order in an enumerated run)."""
    wanted = ("first_city",)
    return [c for c in columns if c in wanted or c.startswith("visit_")]
