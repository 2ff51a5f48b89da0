"""Maharani's own results-frame columns and setup features, derived from the setup records.

The generic runner builds the common columns (game, seat, strategy, score, rank, the ``pts_*``
parts and the per-seat metrics of ``RESULT_DTYPE``); these helpers add what only Maharani knows.
``meta`` is ``Components.frame_meta()`` of the run's components (tile colours and kinds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.engine.game_notes import SetupFeature
from tajsim.engine.record_columns import per_game_block
from tajsim.games.maharani.engine import enums as E

__all__ = ["END_CATEGORIES", "SETUP_FEATURE_COLUMNS", "frame_columns", "setup_feature_columns",
           "setup_features"]

END_CATEGORIES = list(E.END_NAMES[1:])
#: The ``end_reason`` column's type, made once (pandas builds a categories index each time it is
#: given the labels)
END_DTYPE = pd.CategoricalDtype(END_CATEGORIES)
#: Results-frame columns that hold setup features (``setup_features`` names).
SETUP_FEATURE_COLUMNS = ("opening_central", "opening_pair")
OPENING_CENTRAL_LABELS = tuple(str(k) for k in range(E.N_SLOTS + 1))
OPENING_PAIR_LABELS = ("four colours", "a colour twice or more")


def _opening(meta: Mapping[str, Any], setups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game: central tiles among the opening four, and whether a colour repeats."""
    kinds = np.asarray(meta["tile_kind"], np.int64)
    colours = np.asarray(meta["tile_colour"], np.int64)
    opening = setups["opening"].astype(np.int64)  # [G, 4], -1 for an empty place
    valid = opening >= 0
    safe = np.where(valid, opening, 0)
    central = ((kinds[safe] == E.KIND.CENTRAL) & valid).sum(axis=1)
    col = np.where(valid, colours[safe], -1 - np.arange(E.N_SLOTS))  # empties never repeat
    srt = np.sort(col, axis=1)
    pair = (np.diff(srt, axis=1) == 0).any(axis=1)
    return central.astype(np.int64), pair.astype(np.int64)


def frame_columns(meta: Mapping[str, Any], results: np.ndarray, setups: np.ndarray
                  ) -> dict[str, Any]:
    """Extra results-frame columns, one value per player row (rows are game-major, as the
    batch kernels write them):

    * ``opening_central`` (int8): central tiles among the four opening tiles;
    * ``opening_pair`` (bool): a colour appears twice or more among them;
    * ``bag_seed`` (int64): the seed of the game's bag order;
    * ``n_turns``, ``n_refreshes`` (int16): turns and refresh turns of the game (all seats);
    * ``end_reason`` (category): complete / stuck / stalled;
    * ``completed_q1`` .. ``completed_q4`` (bool): this seat filled quarter k's last space;
    * ``space_gold_00`` .. ``space_gold_55`` (int16, one per space of the board): the zone and
      group gold made by laying the tile on space k (the game's, the same on each seat's row;
      spaces in the order of the board file, ``meta["space_ids"]``): where the gold is made.
    """
    G = setups.shape[0]
    if G == 0:
        n = 0
    else:
        n = results.shape[0] // G
    per_game = np.arange(G).repeat(n)
    central, pair = _opening(meta, setups)
    seats = results["seat"].astype(np.int64)
    cols: dict[str, Any] = {
        "opening_central": central[per_game].astype(np.int8),
        "opening_pair": pair[per_game].astype(bool),
        "bag_seed": setups["bag_seed"][per_game].astype(np.int64),
        "n_turns": setups["n_turns"][per_game].astype(np.int16),
        "n_refreshes": setups["n_refreshes"][per_game].astype(np.int16),
        "end_reason": pd.Categorical.from_codes(
            np.clip(setups["end_reason"][per_game].astype(np.int64) - 1, 0, None),
            dtype=END_DTYPE),
    }
    # blocks [columns, rows]: a column is a contiguous row of its block, handed on without a
    # copy (issue 42: columns cut from [rows, columns] were copied again, 7 ms a 10,000-game
    # chunk)
    completed_by = per_game_block(setups["completed_by"][:, :E.N_QUARTERS], n,
                                  np.int64)  # [4, rows]
    completed = completed_by == seats
    for q in range(E.N_QUARTERS):
        cols[f"completed_q{q + 1}"] = completed[q]
    spaces = len(meta["space_ids"])
    space_gold = per_game_block(setups["space_gold"][:, :spaces], n, np.int16)  # [spaces, rows]
    for k in range(spaces):
        cols[space_gold_column(k)] = space_gold[k]
    return cols


def space_gold_column(space: int) -> str:
    """The results-frame column of the gold made on space ``space`` (index)."""
    return f"space_gold_{space:02d}"


def setup_features(meta: Mapping[str, Any], setups: np.ndarray | None) -> list[SetupFeature]:
    """The setup features win rates are grouped by (``GameSpec.setup_features``): the central
    tiles among the four opening tiles, and whether a colour repeats among them; codes are
    int64[G], one per game (None when ``setups`` is None: the layout only)."""
    central, pair = (None, None) if setups is None else _opening(meta, setups)
    return [
        SetupFeature("opening_central", central, OPENING_CENTRAL_LABELS),
        SetupFeature("opening_pair", pair, OPENING_PAIR_LABELS),
    ]


def setup_feature_columns(columns: Sequence[str]) -> list[str]:
    """The results-frame columns among ``columns`` that hold setup features."""
    return [c for c in columns if c in SETUP_FEATURE_COLUMNS]
