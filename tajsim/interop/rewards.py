"""The shaped reward the environments share: a seat's normalised score margin."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["score_margin_of"]


def score_margin_of(scores: Sequence[int] | np.ndarray, seat: int, higher: bool) -> float:
    """Seat ``seat``'s normalised margin, in [-0.5, 0.5]: (its score - the best other score) /
    the largest score magnitude (at least 1), clipped to [-1, 1] and halved; ``higher`` False
    flips the sign (a lower score is better, as in No Thanks!). 0 while all scores are equal.

    Halved so that a win share (0..1) plus the margin stays above -1, the return of an
    illegal action."""
    values = np.asarray(scores, np.float64)
    others = np.delete(values, seat)
    best = others.max() if higher else others.min()
    sign = 1.0 if higher else -1.0
    scale = max(1.0, float(np.abs(values).max()))
    return 0.5 * float(np.clip(sign * (values[seat] - best) / scale, -1.0, 1.0))
