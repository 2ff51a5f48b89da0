"""Compiled helpers of the runner that know no game."""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def group_sum_nb(cell, values, out):
    """``out[cell[i], :] += values[i, :]`` for every row i (int64; the aggregates' sums)."""
    for i in range(cell.shape[0]):
        for j in range(values.shape[1]):
            out[cell[i], j] += values[i, j]
