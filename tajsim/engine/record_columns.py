"""Helpers of the wings' ``frame_columns``: the game's own columns of a chunk's frame, built as
blocks ``[columns, rows]`` so that each column is a contiguous row handed to Arrow without
another copy (issue 42)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

__all__ = ["category_dtype", "per_game_block"]


@lru_cache(maxsize=64)
def category_dtype(labels: tuple[str, ...]) -> pd.CategoricalDtype:
    """The categorical type of ``labels``, made once a run (pandas builds a categories index
    each time it is given the labels: 0.1 ms a column, many columns a chunk)."""
    return pd.CategoricalDtype(list(labels))


def per_game_block(per_game: np.ndarray, n_players: int,
                   dtype: np.typing.DTypeLike | None = None) -> np.ndarray:
    """``[K, G * n_players]``: ``per_game`` (``[G, K]``, one value a game and column)
    transposed into ``dtype`` (default its own) in one copy, each game's value on its
    ``n_players`` rows (game-major, the frame's order)."""
    return np.repeat(np.ascontiguousarray(per_game.T, dtype=dtype), n_players, axis=1)
