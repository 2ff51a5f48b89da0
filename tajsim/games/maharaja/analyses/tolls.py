"""Maharaja's toll analyses: what each village (``village_value``) and each road (``road_value``)
earns in tolls, how often it holds houses at the end, and tolls per house.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.stats import mean_ci
from tajsim.errors import UserError
from tajsim.games.maharaja.analyses.helpers import (
    _check,
    _one_per_game,
    _ratio_of_means,
    _wilson,
)
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.play.records import slug


def _village_columns(results: pd.DataFrame) -> list[str]:
    names = [c[len("tolls_"):] for c in results.columns if c.startswith("tolls_")
             and f"houses_{c[len('tolls_'):]}" in results.columns]
    if not names:
        raise UserError("village_value needs the tolls_<village> and houses_<village> columns "
                        "of a Maharaja results frame")
    return names


def _road_of_village(meta: Mapping[str, Any] | None) -> dict[str, str]:
    if not meta:
        return {}
    names = [slug(v) for v in meta["village_names"]]
    # The start is named as the board names it (the map's label), "start" when not given.
    junctions = [*meta["city_names"], meta.get("start_name", "start")]
    out = {}
    for r, (a, b) in enumerate(meta["roads"]):
        for v in meta["road_villages"][r]:
            if v >= 0:
                out[names[v]] = f"{junctions[a]}-{junctions[b]}"
    return out


def village_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """What each village earns its house owners, over games (one observation per game).

    ``mean``: tolls earned there per game (t interval). ``held``: the share of games in which
    it holds at least one house at the end (Wilson). ``houses``: houses standing there at the
    end, per game. ``per_house``: tolls per house standing at the end, ``sum(tolls) /
    sum(houses)`` over all games with a delta-method interval. The records carry the tolls of a
    whole game and the houses at its end, not how long each house stood, so ``per_house`` is
    not the toll of a house-round: a house built in round 8 counts as much as one built at
    setup, and tolls earned by houses moved away before the end are divided among those left.
    ``meta`` (``Components.frame_meta()``) names each village's road.

    Returns ``village``, ``road``, ``n`` (games), ``mean``, ``sd``, ``ci_low``, ``ci_high``,
    ``held``, ``held_low``, ``held_high``, ``houses``, ``houses_low``, ``houses_high``,
    ``per_house``, ``per_house_low``, ``per_house_high``; sorted by ``mean``, richest first.
    """
    names = _village_columns(results)
    roads = _road_of_village(meta)
    games = _one_per_game(results)
    rows = []
    for name in names:
        tolls = games[f"tolls_{name}"].to_numpy(np.float64)
        houses = games[f"houses_{name}"].to_numpy(np.float64)
        mean, low, high, n, sd = mean_ci(tolls, confidence)
        h_mean, h_low, h_high, _, _ = mean_ci(houses, confidence)
        held = float((houses > 0).sum())
        held_low, held_high = _wilson(held, n, confidence)
        ratio, r_low, r_high = _ratio_of_means(tolls, houses, confidence)
        rows.append({
            "village": name, "road": roads.get(name, ""), "n": n, "mean": mean, "sd": sd,
            "ci_low": low, "ci_high": high, "held": held / n if n else np.nan,
            "held_low": held_low, "held_high": held_high, "houses": h_mean,
            "houses_low": h_low, "houses_high": h_high, "per_house": ratio,
            "per_house_low": r_low, "per_house_high": r_high,
        })
    return pd.DataFrame(rows).sort_values("mean", ascending=False, kind="stable",
                                          ignore_index=True)


def road_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Tolls earned per game on each road (its villages together), with a t interval over
    games, the houses standing on it at the end and the tolls per such house (as in
    :func:`village_value`, with the same caveat). ``meta`` is ``Components.frame_meta()``
    (default: the shipped board; the results must come from that board).

    Returns ``road``, ``villages``, ``n`` (games), ``mean``, ``sd``, ``ci_low``, ``ci_high``,
    ``houses``, ``per_house``, ``per_house_low``, ``per_house_high``; richest first.
    """
    meta = meta or default_components().frame_meta()
    games = _one_per_game(results)
    names = [slug(v) for v in meta["village_names"]]
    # The start is named as the board names it (the map's label), "start" when not given.
    junctions = [*meta["city_names"], meta.get("start_name", "start")]
    rows = []
    for r, (a, b) in enumerate(meta["roads"]):
        vil = [names[v] for v in meta["road_villages"][r] if v >= 0]
        _check(games, [f"tolls_{v}" for v in vil] + [f"houses_{v}" for v in vil], "road_value")
        tolls = sum(games[f"tolls_{v}"].to_numpy(np.float64) for v in vil)
        houses = sum(games[f"houses_{v}"].to_numpy(np.float64) for v in vil)
        mean, low, high, n, sd = mean_ci(tolls, confidence)
        ratio, r_low, r_high = _ratio_of_means(tolls, houses, confidence)
        rows.append({"road": f"{junctions[a]}-{junctions[b]}", "villages": ", ".join(vil),
                     "n": n, "mean": mean, "sd": sd, "ci_low": low, "ci_high": high,
                     "houses": float(houses.mean()) if n else np.nan, "per_house": ratio,
                     "per_house_low": r_low, "per_house_high": r_high})
    return pd.DataFrame(rows).sort_values("mean", ascending=False, kind="stable",
                                          ignore_index=True)
