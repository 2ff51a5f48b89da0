"""Compiled helpers of the runner that know no game: the aggregates of a chunk, summed in one
pass that releases the GIL (so the worker threads' bookkeeping never queues behind each other).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def accumulate_nb(cell, seat, values, n_players, feature_rows, game_values, n, sums, sumsqs,
                  game_sum, game_sumsq, feat_n, feat_sum, feat_sumsq):
    """Add one chunk into the aggregates, in place (exact int64 sums).

    Parameters
    ----------
    cell : int64[N] strategy * P + seat of each player row (N = G * n_players, game-major)
    seat : int64[N]
    values : int64[M, N] each metric's values over the rows (metric-major: a metric's pass
        reads one contiguous row); its first K metrics (K = feat_sum.shape[2]) are the setup
        metrics (win, shared win, score)
    n_players : int
    feature_rows : int64[F, G] the aggregate row of each game's value of each setup feature
        (-1: none; feature-major)
    game_values : int64[G, GM] per-game metrics
    n : int64[S * P]; sums, sumsqs : int64[S * P, M]
    game_sum, game_sumsq : int64[GM]
    feat_n : int64[R, P]; feat_sum, feat_sumsq : int64[R, P, K]
    """
    K = feat_sum.shape[2]
    N = cell.shape[0]
    for i in range(N):
        n[cell[i]] += 1
    for j in range(values.shape[0]):
        row = values[j]
        for i in range(N):
            v = row[i]
            sums[cell[i], j] += v
            sumsqs[cell[i], j] += v * v
    # the row's setup metrics and their squares read once, for its every feature
    setup_values = np.empty(K, np.int64)
    setup_squares = np.empty(K, np.int64)
    for i in range(N):
        g = i // n_players
        p = seat[i]
        for k in range(K):
            setup_values[k] = values[k, i]
            setup_squares[k] = values[k, i] * values[k, i]
        for f in range(feature_rows.shape[0]):
            r = feature_rows[f, g]
            if r >= 0:
                feat_n[r, p] += 1
                for k in range(K):
                    feat_sum[r, p, k] += setup_values[k]
                    feat_sumsq[r, p, k] += setup_squares[k]
    for g in range(game_values.shape[0]):
        for j in range(game_values.shape[1]):
            v = game_values[g, j]
            game_sum[j] += v
            game_sumsq[j] += v * v


@njit(cache=True, nogil=True)
def gather_by_seat_nb(by_round, n_players, out):
    """Spread a per-seat, per-round record field over one column a round, each row its seat's
    value, without the GIL.

    Parameters
    ----------
    by_round : [G, R, P] the field of each game's setup record (any integer type; a strided
        view of the records), P >= n_players
    n_players : int
    out : [R, G * n_players], the same type: round k's column is ``out[k]`` (rows game-major)
    """
    # game after game: each game's block is read in order, each round's column written in order
    for g in range(by_round.shape[0]):
        row = g * n_players
        for k in range(by_round.shape[1]):
            for p in range(n_players):
                out[k, row + p] = by_round[g, k, p]
