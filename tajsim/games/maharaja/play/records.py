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
from numba import njit

from tajsim.engine.game_notes import SetupFeature
from tajsim.engine.record_columns import category_dtype, per_game_block
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.setups import order_of_index

__all__ = ["frame_columns", "setup_feature_columns", "setup_features", "slug"]

END_CATEGORIES = list(E.END_CAUSE_NAMES)
CARD_SLUGS = ("mogul", "trader", "sadhu", "monk", "builder", "artisan")


def slug(name: str) -> str:
    """Column-safe name ("Wandering Monk" -> "wandering_monk")."""
    return re.sub(r"[^a-z]", "_", name.lower())


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
    # per game: each value repeated on the game's n rows; blocks [columns, rows] so that a
    # column is a contiguous row of its block, handed on without a copy (issue 42: a column cut
    # from a [rows, columns] array was copied again; 15 ms of a 5,000-game chunk before)
    cities = [slug(c) for c in meta["city_names"]]
    cols: dict[str, Any] = {
        "order_index": np.repeat(setups["order_index"].astype(np.int16), n),
        "first_city": pd.Categorical.from_codes(
            np.repeat(setups["governor_order"][:, 0].astype(np.int64), n),
            dtype=category_dtype(tuple(cities))),
        "end_cause": pd.Categorical.from_codes(np.repeat(setups["end_cause"].astype(np.int64), n),
                                               dtype=category_dtype(tuple(END_CATEGORIES))),
        "n_rounds": np.repeat(setups["n_rounds"].astype(np.int8), n),
    }
    first = _first_visits(setups["visit_city"], len(cities))  # [cities, G]
    visit = np.repeat(first, n, axis=1)
    for c, name in enumerate(cities):
        cols[f"visit_{name}"] = visit[c]
    # the seat's own values: [G, n, ...] is row-major in (game, seat), the rows' order
    palace_round = setups["palace_round"][:, :n, :].reshape(G * n, -1)  # [rows, 7]
    tempo = np.ascontiguousarray(palace_round.T, dtype=np.int8)
    cols["first_palace_round"] = tempo[0]
    cols["last_palace_round"] = palace_round.max(axis=1).astype(np.int8)
    for k in range(tempo.shape[0]):  # the tempo curve: palaces built by each round
        cols[f"palace_round_{k + 1}"] = tempo[k]
    held = _rounds_held(setups["card_by_round"][:, :, :n], len(CARD_SLUGS))
    for k, name in enumerate(CARD_SLUGS):
        cols[f"rounds_{name}"] = held[k]
    # per game (the same on the game's rows): tolls earned and houses standing in each village
    villages = [slug(x) for x in meta["village_names"]]
    V = len(villages)
    tolls = per_game_block(setups["tolls_by_village"][:, :V], n, np.int16)
    houses = per_game_block(setups["village_houses"][:, :V], n, np.int8)
    for v, name in enumerate(villages):
        cols[f"tolls_{name}"] = tolls[v]
        cols[f"houses_{name}"] = houses[v]
    return cols


def _rounds_held(card_by_round: np.ndarray, n_cards: int) -> np.ndarray:
    """int8[n_cards, G * n]: the rounds each seat held each character card, from
    ``card_by_round`` [G, rounds, n] (another value: none), counted in one compiled pass (a
    comparison a card over the strided records took 20 ms a 5,000-game chunk, a bincount 10)."""
    G, _, n = card_by_round.shape
    held = np.zeros((n_cards, G * n), np.int8)
    _count_held_nb(card_by_round, n_cards, held)
    return held


@njit(cache=True, nogil=True)
def _count_held_nb(card_by_round, n_cards, held):
    """held[c, g * n + p] += 1 for each round game g's seat p held card c.

    card_by_round : int8[G, rounds, n]; held : int8[n_cards, G * n]
    """
    n = card_by_round.shape[2]
    for g in range(card_by_round.shape[0]):
        for r in range(card_by_round.shape[1]):
            for p in range(n):
                card = card_by_round[g, r, p]
                if card >= 0 and card < n_cards:
                    held[card, g * n + p] += 1


def _first_visits(visit_city: np.ndarray, n_cities: int) -> np.ndarray:
    """int8[n_cities, G]: the round (1-based) each city is first scored in each game, 0 if
    never; ``visit_city`` [G, rounds] holds the city scored each round (another value: none)."""
    G, rounds = visit_city.shape
    first = np.zeros((n_cities, G), np.int8)
    games = np.arange(G)
    for r in range(rounds - 1, -1, -1):  # the earliest round written last
        city = visit_city[:, r].astype(np.int64)
        hit = (city >= 0) & (city < n_cities)
        first[city[hit], games[hit]] = r + 1
    return first


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
