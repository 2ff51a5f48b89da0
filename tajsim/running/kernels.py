"""Compiled helpers of the runner that know no game: the aggregates of a chunk, summed in one
pass that releases the GIL (so the worker threads' bookkeeping never queues behind each other).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def accumulate_nb(cell, seat, values, n_players, feature_rows, game_values, n, sums, sumsqs,
                  game_sum, game_sumsq, feat_n, feat_sum, feat_sumsq):
    """Add one chunk into the aggregates, in place (exact int64 sums).

    Parameters
    ----------
    cell : int64[N] strategy * P + seat of each player row (N = G * n_players, game-major)
    seat : int64[N]
    values : int64[N, M] the metrics of each row; its first K columns (K = feat_sum.shape[2])
        are the setup metrics (win, shared win, score)
    n_players : int
    feature_rows : int64[G, F] the aggregate row of each game's value of each setup feature
        (-1: none)
    game_values : int64[G, GM] per-game metrics
    n : int64[S * P]; sums, sumsqs : int64[S * P, M]
    game_sum, game_sumsq : int64[GM]
    feat_n : int64[R, P]; feat_sum, feat_sumsq : int64[R, P, K]
    """
    K = feat_sum.shape[2]
    for i in range(cell.shape[0]):
        c = cell[i]
        n[c] += 1
        for j in range(values.shape[1]):
            v = values[i, j]
            sums[c, j] += v
            sumsqs[c, j] += v * v
        g = i // n_players
        p = seat[i]
        for f in range(feature_rows.shape[1]):
            r = feature_rows[g, f]
            if r >= 0:
                feat_n[r, p] += 1
                for k in range(K):
                    v = values[i, k]
                    feat_sum[r, p, k] += v
                    feat_sumsq[r, p, k] += v * v
    for g in range(game_values.shape[0]):
        for j in range(game_values.shape[1]):
            v = game_values[g, j]
            game_sum[j] += v
            game_sumsq[j] += v * v
