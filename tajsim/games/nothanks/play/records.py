"""No Thanks!'s own results-frame column and setup feature: whether card 35 was put away (the
most expensive card out of the game changes what taking a high card risks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.engine.game_notes import SetupFeature
from tajsim.games.nothanks.engine.enums import HIGH_CARD

FEATURE = "removed_35"
LABELS = ("in_play", "removed")


def _removed_35(setups: np.ndarray) -> np.ndarray:
    """int64[G]: 1 where card 35 is among the cards put away."""
    return (setups["removed"] == HIGH_CARD).any(axis=1).astype(np.int64)


def frame_columns(meta: Mapping[str, Any], results: np.ndarray,
                  setups: np.ndarray) -> dict[str, Any]:
    """``removed_35`` (categorical), one value per (game, seat) row."""
    G = setups.shape[0]
    n = results.shape[0] // G if G else 0
    codes = _removed_35(setups).repeat(n)
    return {FEATURE: pd.Categorical.from_codes(codes, categories=list(LABELS))}


def setup_features(meta: Mapping[str, Any], setups: np.ndarray | None) -> list[SetupFeature]:
    """``GameSpec.setup_features``: one feature, ``removed_35``."""
    return [SetupFeature(FEATURE, None if setups is None else _removed_35(setups), LABELS)]


def setup_feature_columns(columns: Sequence[str]) -> list[str]:
    """The results-frame columns that hold setup features."""
    return [c for c in columns if c == FEATURE]
