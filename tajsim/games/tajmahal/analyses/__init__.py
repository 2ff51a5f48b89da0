"""Taj Mahal's own analyses: what goods, province tiles and connections are worth.

Registered for experiment files and reports through :data:`ANALYSES` (name -> function of a
results frame), :data:`REQUIRED_COLUMNS` (the columns each reads) and :data:`CONCLUSIONS` (the
robustness conclusions only this game has); ``tajsim.analysis.registry`` reads them through the
game spec's ``analyses_module``.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from tajsim.analysis.robustness import (
    DEFAULT_OPTIONS,
    ConclusionOptions,
    Finding,
    argmax_finding,
    fmt_estimate,
    order_finding,
)
from tajsim.analysis.stats.verdicts import tested_order
from tajsim.games.tajmahal.analyses import commodities, connections, shortage
from tajsim.games.tajmahal.analyses.commodities import goods_coefficient_covariance, goods_value
from tajsim.games.tajmahal.engine.enums import GOOD_NAMES, N_VISITS

__all__ = ["ANALYSES", "CONCLUSIONS", "REQUIRED_COLUMNS"]

#: name -> function(results, **kwargs) -> DataFrame
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "goods_value": commodities.goods_value,
    "goods_points": commodities.goods_points,
    "tile_value_by_visit": commodities.tile_value_by_visit,
    "goods_contest": commodities.goods_contest,
    "connection_summary": connections.connection_summary,
    "connection_distribution": connections.connection_distribution,
    "chain_points_by_visit": connections.chain_points_by_visit,
    "chain_points_by_province": connections.chain_points_by_province,
    "province_order_effects": connections.province_order_effects,
    "card_shortage": shortage.card_shortage,
}

_GAME = ("game_id", "n_players", "seat")
_GOODS = tuple(f"goods_{g}" for g in GOOD_NAMES)
_TILES = tuple(f"tile_won_v{k}" for k in range(1, N_VISITS + 1))
_CHAINS = tuple(f"chain_v{k}" for k in range(1, N_VISITS + 1))

#: Columns (or ``prefix*`` column families) each analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "goods_value": (*_GAME, "winner", "strategy", *_GOODS, "n_province_tiles"),
    "goods_points": _GOODS,
    "tile_value_by_visit": (*_GAME, "winner", "strategy", "score", *_TILES),
    "goods_contest": (*_GAME, *_GOODS),
    "connection_summary": ("pts_connection",),
    "connection_distribution": ("pts_connection",),
    "chain_points_by_visit": ("n_players", *_CHAINS),
    "chain_points_by_province": (*_CHAINS, "visit_*"),
    "province_order_effects": ("game_id", "setup_id", "pts_connection", "visit_*"),
    "card_shortage": (*_GAME, "exhausted_visit", "n_short_deals", "display_cards_missed",
                      "deck_cards_missed"),
}


def goods_value_ranking(results: pd.DataFrame,
                        options: ConclusionOptions = DEFAULT_OPTIONS) -> list[Finding]:
    """Order of the goods by their value for winning (conditional-logit coefficients, every
    pair tested with the coefficients' covariance clustered by game, Holm; braces around goods
    not told apart), and the most valuable good (the first tier: ``"{rice, spices}"`` when
    the first goods are not told apart)."""
    table = goods_value(results, include_tiles=False)
    table = table.sort_values("coef", ascending=False).reset_index(drop=True)
    goods, coef, cov = goods_coefficient_covariance(results)
    order = tested_order(goods, coef, cov=cov, alpha=options.alpha)
    detail = ("win probability per good " + "; ".join(
        f"{r.good} {fmt_estimate(r.win_prob_change, r.ci_low, r.ci_high)}"
        for r in table.itertuples()) + f" (n = {int(table['n_games'].iloc[0]):,} games)")
    return [
        order_finding("goods_value_ranking", order, detail),
        argmax_finding("most_valuable_good", order, detail),
    ]


#: Robustness conclusions of Taj Mahal (besides the generic ones).
CONCLUSIONS: dict[str, Callable[..., list[Finding]]] = {
    "goods_value_ranking": goods_value_ranking,
}
