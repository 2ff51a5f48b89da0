"""Analyses by name, for experiment files and the report.

An experiment file names the analyses to run; each entry is a name or a table with ``name``,
an optional ``as`` (the key of the result) and keyword arguments of the function::

    analyses = [
        "win_rates_by_seat",
        "seat_advantage",
        { name = "goods_value", model = "lpm" },
        { name = "setup_feature_tests", as = "features_alpha", strategy = "alpha", seat = -1 },
    ]

(TOML has no null: ``seat = -1`` stands for ``seat = None``.) :func:`run_analyses` returns
``{key: DataFrame}``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from tajsim.analysis import (
    composition,
    ratings,
    robustness,
    setup_balance,
    winrates,
)
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses import commodities, connections

__all__ = ["ANALYSES", "REQUIRED_COLUMNS", "missing_columns", "run_analyses"]


def _robustness_from_variant_column(results: pd.DataFrame, **kwargs: Any) -> pd.DataFrame:
    """:func:`tajsim.analysis.robustness.robustness` on a frame with a ``variant`` column."""
    column = kwargs.pop("column", "variant")
    if column not in results.columns:
        raise UserError(f"robustness needs a {column!r} column naming the variant of each row")
    return robustness.robustness(robustness.split_variants(results, column), **kwargs)


#: name -> function(results, **kwargs) -> DataFrame
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "win_rates": winrates.win_rates,
    "win_rates_by_strategy": winrates.win_rates_by_strategy,
    "win_rates_by_seat": winrates.win_rates_by_seat,
    "win_rates_by_player_count": winrates.win_rates_by_player_count,
    "seat_advantage": winrates.seat_advantage_test,
    "score_composition": composition.score_composition,
    "score_part_histogram": composition.score_part_histogram,
    "goods_value": commodities.goods_value,
    "goods_points": commodities.goods_points,
    "tile_value_by_visit": commodities.tile_value_by_visit,
    "goods_contest": commodities.goods_contest,
    "connection_summary": connections.connection_summary,
    "connection_distribution": connections.connection_distribution,
    "chain_points_by_visit": connections.chain_points_by_visit,
    "chain_points_by_province": connections.chain_points_by_province,
    "province_order_effects": connections.province_order_effects,
    "setup_variance_share": setup_balance.setup_variance_share,
    "setup_imbalance": setup_balance.setup_imbalance,
    "setup_feature_tests": setup_balance.setup_feature_tests,
    "head_to_head": ratings.head_to_head,
    "bradley_terry": ratings.bradley_terry,
    "openskill_ratings": ratings.openskill_ratings,
    "seat_rotation_check": ratings.seat_rotation_check,
    "robustness": _robustness_from_variant_column,
}

_GAME = ("game_id", "n_players", "seat")
_PARTS = tuple(f"pts_{p}" for p in ("palace", "connection", "commodity", "bonus", "special",
                                    "cards"))
_GOODS = tuple(f"goods_{g}" for g in ("rice", "tea", "spices", "jewels"))
_TILES = tuple(f"tile_won_v{k}" for k in range(1, 13))
_CHAINS = tuple(f"chain_v{k}" for k in range(1, 13))

#: Columns (or ``prefix*`` column families) each analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "win_rates": (*_GAME, "winner", "strategy"),
    "win_rates_by_strategy": (*_GAME, "winner", "strategy"),
    "win_rates_by_seat": (*_GAME, "winner"),
    "win_rates_by_player_count": (*_GAME, "winner", "strategy"),
    "seat_advantage": (*_GAME, "winner", "strategy"),
    "score_composition": ("score", *_PARTS),
    "score_part_histogram": _PARTS,
    "goods_value": (*_GAME, "winner", "strategy", *_GOODS, "n_province_tiles"),
    "goods_points": _GOODS,
    "tile_value_by_visit": (*_GAME, "winner", "strategy", "score", *_TILES),
    "goods_contest": (*_GAME, *_GOODS),
    "connection_summary": ("pts_connection",),
    "connection_distribution": ("pts_connection",),
    "chain_points_by_visit": ("n_players", *_CHAINS),
    "chain_points_by_province": (*_CHAINS, "visit_*"),
    "province_order_effects": ("game_id", "setup_id", "pts_connection", "visit_*"),
    "setup_variance_share": (*_GAME, "setup_id", "winner"),
    "setup_imbalance": (*_GAME, "setup_id", "winner"),
    "setup_feature_tests": (*_GAME, "setup_id", "winner", "visit_*", "bonus_*"),
    "head_to_head": (*_GAME, "strategy", "rank"),
    "bradley_terry": (*_GAME, "strategy", "rank"),
    "openskill_ratings": (*_GAME, "strategy", "rank"),
    "seat_rotation_check": (*_GAME, "strategy"),
    "robustness": (*_GAME, "variant", "winner", "strategy", "rank", "score", *_PARTS, *_GOODS),
}


def missing_columns(results: pd.DataFrame, name: str) -> list[str]:
    """Required columns (or ``prefix*`` families) of analysis ``name`` absent from ``results``."""
    missing = []
    for col in REQUIRED_COLUMNS.get(name, ()):
        if col.endswith("*"):
            if not any(c.startswith(col[:-1]) for c in results.columns):
                missing.append(col)
        elif col not in results.columns:
            missing.append(col)
    return missing


def _parse_entry(entry: str | Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    if isinstance(entry, str):
        return entry, entry, {}
    if isinstance(entry, Mapping) and "name" in entry:
        kwargs = {k: v for k, v in entry.items() if k not in ("name", "as")}
        for k in ("seat",):
            if kwargs.get(k) == -1:
                kwargs[k] = None
        for k in ("by", "seats", "parts", "regressors", "controls", "quantiles", "conclusions"):
            if isinstance(kwargs.get(k), list):
                kwargs[k] = tuple(kwargs[k])
        name = str(entry["name"])
        return name, str(entry.get("as", name)), kwargs
    raise UserError(f"analysis entry {entry!r} is not a name or a table with a 'name' key")


def run_analyses(
    results: pd.DataFrame, names: Sequence[str | Mapping[str, Any]]
) -> dict[str, pd.DataFrame]:
    """Run the named analyses on one results frame.

    Parameters
    ----------
    results : DataFrame
        Results frame (docs/results-schema.md).
    names : sequence of str or mapping
        Entries as in the module docstring: ``"name"`` or ``{"name": ..., "as": ..., **kwargs}``.

    Returns
    -------
    dict of str to DataFrame
        Keyed by ``as`` (default: the name), in the order given.

    Raises
    ------
    tajsim.errors.UserError
        Unknown name, bad entry, or missing columns.
    """
    out: dict[str, pd.DataFrame] = {}
    for entry in names:
        name, key, kwargs = _parse_entry(entry)
        if name not in ANALYSES:
            raise UserError(f"unknown analysis {name!r}; expected one of {', '.join(ANALYSES)}")
        missing = missing_columns(results, name)
        if missing:
            raise UserError(f"analysis {name!r} needs columns {', '.join(missing)} that the "
                            "results lack")
        func = ANALYSES[name]
        if name != "robustness":
            try:
                inspect.signature(func).bind(results, **kwargs)
            except TypeError as exc:
                raise UserError(f"analysis {name!r}: bad arguments {kwargs!r} ({exc})") from exc
        out[key] = func(results, **kwargs)
    return out
