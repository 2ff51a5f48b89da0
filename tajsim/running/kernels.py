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


@njit(cache=True, nogil=True, boundscheck=False)
def gather_fields_nb(results, setups, n_players, source, offset, width, seat_step, start, out):
    """Copy record fields into preallocated columns, in one pass that releases the GIL.

    The records are read as bytes, so one compiled function serves every game's
    ``result_dtype`` and ``setup_dtype``: column ``c`` is the ``width[c]`` bytes at
    ``offset[c]`` of each record of ``results`` (``source[c] == 0``: one row per record) or of
    ``setups`` (``source[c] == 1``: game ``g``'s record for each of its ``n_players`` rows, seat
    ``p``'s value at ``offset[c] + p * seat_step[c]``: 0 for a per-game field, the item's size
    for a per-seat one such as the score trajectory's round ``k``), written to
    ``out[start[c] : start[c] + rows * width[c]]`` (the column's values, row after row, in the
    field's own type).

    Parameters
    ----------
    results : uint8[rows, result itemsize]; setups : uint8[games, setup itemsize]
    n_players : int
    source, offset, width, seat_step, start : int64[C]
    out : uint8[...] the columns' buffer
    """
    # record after record, each column's value written to its place: a record is read once,
    # in order (a column at a time read a setup record of 800 bytes a value: 2-3x slower)
    for i in range(2):
        src = results if i == 0 else setups
        rep = 1 if i == 0 else n_players
        for r in range(src.shape[0]):
            for c in range(source.shape[0]):
                if source[c] != i:
                    continue
                w = width[c]
                off = offset[c]
                step = seat_step[c]
                d = start[c] + r * rep * w
                for _ in range(rep):
                    if w == 1:
                        out[d] = src[r, off]
                    elif w == 2:
                        out[d] = src[r, off]
                        out[d + 1] = src[r, off + 1]
                    else:
                        for b in range(w):
                            out[d + b] = src[r, off + b]
                    d += w
                    off += step
