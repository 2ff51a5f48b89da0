"""Maharaja's own analyses: pandas over a results frame (the generic columns plus the wing's
``frame_columns``). Each returns a DataFrame with its sample size ``n`` and 95% intervals
(``ci_low``, ``ci_high``).

=====================  ==========================================================================
``income_by_source``   gold per player-game by source (city scoring, lone bonus, tolls, gold
                       action, Trader, penalties received), by spending (builds, tolls paid) and
                       the final gold
``village_value``      per village: tolls earned there per game, how often it holds houses at the
                       end, and tolls per house standing there at the end
``road_value``         the same per road (its villages together)
``card_value``         win rate and final gold by the character held at the end and drafted at
                       setup
``palace_tempo``       rounds of the first and last palace and palaces built, per strategy; win
                       rate by the round of the first palace
``game_ends``          how games end (7th palace, round 10, both, the round cap): share and round
``game_length``        the share of games ending after each round, by end cause
``penalties``          actions left unperformed per player-game, by kind (the penalties' causes)
``central_vs_outer``   win rate by central palaces, central and outer palaces per strategy, and a
                       central palace against an outer one within games
``governor_value``     win rate by how often the governor action was chosen, and one more choice
                       of it within games
``order_balance``      win rate of each seat by the city the governor order scores first, and
                       whether the run played every order equally often (exact over the orders)
``seat_cards``         the share of each seat's games with each card, and its win rate within
                       each card and standardised to the cards' mix (module ``seat_cards``)
``seat_card_table``    the win rate of each seat given its drafted card (forced drafts:
                       ``draft=<card>``), with the margins (module ``seat_and_card``)
``seat_card_model``    win ~ seat + card (game-clustered): each seat's card-adjusted rate with
                       its equivalence verdict, each card's seat-adjusted rate and order, the
                       joint tests (module ``seat_and_card``)
=====================  ==========================================================================

Conventions. Games are told apart by the generic game key
(:func:`tajsim.analysis.frames.game_index`: ``run_id``, ``seed``, ... and ``game_id``), so the
games of several runs in one frame are never merged; a shared win counts ``1/k`` for each of
``k`` winners (:func:`~tajsim.analysis.frames.win_value`), so the rate of equal players is
``1/n_players`` (the ``baseline`` column). Means over player-games have t intervals clustered by
game (the players of one game are not independent; with one row per group and game, as for each
strategy of a rotated line-up, this is the plain t interval); means over games have plain t
intervals; rates have Wilson intervals. The comparisons of a seat's own choices (cards, palace
sites, the governor action) are associations in simulated play, not causal effects: strategies
choose their actions when they pay.

This package holds the registry: ``ANALYSES`` maps names to functions ``(results, **kwargs) ->
DataFrame``; ``REQUIRED_COLUMNS`` names the columns (or ``prefix*`` families) each reads;
``CONCLUSIONS`` (module ``conclusions``) adds Maharaja's key conclusions to the robustness
analysis. The analyses themselves are one module a family: ``income``, ``tolls`` (villages and
roads), ``cards``, ``palaces``, ``game_ends``, ``penalties``, ``governor``, ``seat_cards``,
``seat_and_card``;
``helpers`` holds what they share.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from tajsim.games.maharaja.analyses.cards import card_value
from tajsim.games.maharaja.analyses.conclusions import CONCLUSIONS
from tajsim.games.maharaja.analyses.game_ends import game_ends, game_length
from tajsim.games.maharaja.analyses.governor import governor_value, order_balance
from tajsim.games.maharaja.analyses.helpers import clustered_mean
from tajsim.games.maharaja.analyses.income import GOLD_SOURCES, GOLD_SPENDING, income_by_source
from tajsim.games.maharaja.analyses.palaces import central_vs_outer, palace_tempo
from tajsim.games.maharaja.analyses.penalties import penalties
from tajsim.games.maharaja.analyses.seat_and_card import seat_card_model, seat_card_table
from tajsim.games.maharaja.analyses.seat_cards import seat_cards
from tajsim.games.maharaja.analyses.tolls import road_value, village_value
from tajsim.games.maharaja.engine.enums import ACT_SLUGS

__all__ = ["ANALYSES", "CONCLUSIONS", "REQUIRED_COLUMNS", "card_value", "central_vs_outer",
           "clustered_mean", "game_ends", "game_length", "governor_value", "income_by_source",
           "order_balance", "palace_tempo", "penalties", "road_value", "seat_card_model",
           "seat_card_table", "seat_cards", "village_value"]

#: name -> function(results, **kwargs) -> DataFrame
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "income_by_source": income_by_source,
    "village_value": village_value,
    "road_value": road_value,
    "card_value": card_value,
    "palace_tempo": palace_tempo,
    "game_ends": game_ends,
    "game_length": game_length,
    "penalties": penalties,
    "central_vs_outer": central_vs_outer,
    "governor_value": governor_value,
    "order_balance": order_balance,
    "seat_cards": seat_cards,
    "seat_card_table": seat_card_table,
    "seat_card_model": seat_card_model,
}

_GAME = ("game_id", "n_players", "seat")

#: Columns (or ``prefix*`` families) each analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "income_by_source": (*_GAME, "strategy", "gold",
                         *(f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING)),
    "village_value": ("game_id", "tolls_*", "houses_*"),
    "road_value": ("game_id", "tolls_*", "houses_*"),
    "card_value": (*_GAME, "card_final", "card_first", "winner", "gold"),
    "palace_tempo": (*_GAME, "strategy", "first_palace_round", "last_palace_round", "palaces",
                     "winner"),
    "game_ends": ("game_id", "end_cause", "n_rounds"),
    "game_length": ("game_id", "end_cause", "n_rounds"),
    "penalties": (*_GAME, "strategy", "penalties",
                  *(f"missed_{a}" for a in ACT_SLUGS)),
    "central_vs_outer": (*_GAME, "strategy", "palaces_central", "palaces_outer", "palaces",
                         "winner", "gold"),
    "governor_value": (*_GAME, "chose_governor", "winner", "gold"),
    "order_balance": (*_GAME, "first_city", "order_index", "winner"),
    "seat_cards": (*_GAME, "card_final", "card_first", "winner"),
    "seat_card_table": (*_GAME, "card_first", "winner", "strategy"),
    "seat_card_model": (*_GAME, "card_first", "winner", "strategy"),
}
