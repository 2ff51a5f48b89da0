"""From the kernels' record arrays to the results frame of ``docs/results-schema.md``.

``results_table`` joins a game's result records (one row per player) and setup records (one
row per game) into one row per player per game, column for column as the schema says, as an
Arrow table built straight from the NumPy arrays (no pandas on the way: the worker threads
build their chunks' rows side by side, mostly outside the GIL); ``to_parquet`` writes it as
Parquet bytes the same way everywhere (the chunk files are byte-identical whichever process or
machine made them, for the same library versions); ``results_frame`` is the same rows as a
pandas frame.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from tajsim.games.registry import get_game
from tajsim.running.kernels import gather_by_seat_nb

if TYPE_CHECKING:
    from tajsim.running.config import RunTask

#: The chunk files' codec and integer encoding, chosen by measurement (issue 42; CPU seconds,
#: process time, to write a chunk's table of 0.2 s of play, and its size, best of 5; the 2-core
#: VM at load 3.9; ``python benchmarks/bench_records.py --game GAME --encodings``,
#: benchmarks/results/records_encodings_<game>.csv):
#:
#: ===============================  ==================  =================  ==================
#: integers, codec                  Taj Mahal random     Maharaja random    Maharani random
#: ===============================  ==================  =================  ==================
#: DELTA_BINARY_PACKED, snappy      19.9 ms, 1.04 MB     30.1 ms, 1.99 MB   34.3 ms, 1.58 MB
#: DELTA_BINARY_PACKED, none        18.3 ms, 1.17 MB     26.7 ms, 2.33 MB   29.6 ms, 2.23 MB
#: BYTE_STREAM_SPLIT, lz4 (chosen)  15.4 ms, 1.29 MB     19.6 ms, 2.07 MB   19.9 ms, 2.23 MB
#: BYTE_STREAM_SPLIT, snappy        15.2 ms, 1.48 MB     19.1 ms, 2.59 MB   21.7 ms, 2.73 MB
#: BYTE_STREAM_SPLIT, zstd          20.9 ms, 675 kB      30.9 ms, 1.17 MB   30.9 ms, 1.21 MB
#: PLAIN, lz4                       20.7 ms, 2.56 MB     25.2 ms, 3.49 MB   25.4 ms, 3.46 MB
#: ===============================  ==================  =================  ==================
#:
#: The heuristics' chunks alike (delta+snappy -> chosen: Taj Mahal 4.3 -> 3.6 ms, Maharaja 5.6
#: -> 4.3, Maharani 12.8 -> 8.4). Parquet widens every int8 and int16 to INT32;
#: BYTE_STREAM_SPLIT writes the value's bytes as separate streams (the high bytes, mostly 0 or
#: 0xff, in runs lz4 skips at memory speed), so the encoder does no arithmetic a value:
#: 0.6-0.85 of the delta encoding's CPU, files 4-55 % larger (lz4: snappy's speed, files 2-20 %
#: smaller). Chunks written before (zstd or snappy, delta or dictionaries) read back the same
#: frame.
PARQUET_COMPRESSION = "lz4"
#: The encoding of the integer columns (``parquet_options``); see ``PARQUET_COMPRESSION``.
PARQUET_INTEGER_ENCODING = "BYTE_STREAM_SPLIT"


#: The trajectory's setup-record fields (shape (rounds, max_players)) and the prefix of their
#: columns ``<prefix>_r1 .. <prefix>_r<rounds>``; then the per-seat fields (shape
#: (max_players,)) and their column: each row its own seat's values (``round_columns``).
BY_ROUND = {"score_by_round": "score", "turn_by_round": "turn"}
BY_SEAT = {"draft_pos_by_seat": "draft_pos"}
#: The value of a round the game did not reach (and of a seat not at the table) in the
#: trajectory fields (the wings' ``NOT_PLAYED``).
NOT_PLAYED = -1


def round_columns(setup_dtype: np.dtype, setups: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """The per-round trajectory columns of one batch of games (``docs/results-schema.md``,
    "Score trajectories"), one value per player row (game-major), in the records' own types:

    * ``score_r<k>`` (the seat's score after round k) and, where the records keep it,
      ``turn_r<k>`` (its place in round k's turn order): ``NOT_PLAYED`` (-1) after the game's
      last round (:data:`BY_ROUND`);
    * ``draft_pos`` where the records keep it (Maharaja; :data:`BY_SEAT`);
    * ``arc_rounds`` (int8): the rounds recorded (the game's last round: its final scores).

    Empty for a game whose records keep no trajectory (no ``score_by_round`` field).

    Parameters
    ----------
    setup_dtype : the game's setup record type
    setups : setup_dtype[G]
    n : players a game
    """
    names = setup_dtype.names or ()
    if "score_by_round" not in names:
        return {}
    G = setups.shape[0]
    cols: dict[str, np.ndarray] = {}
    for name, prefix in BY_ROUND.items():
        if name in names:
            block = np.asarray(setups[name])[:, :, :n]  # [G, rounds, n]
            per_row = block.transpose(0, 2, 1).reshape(G * n, block.shape[1])
            for k in range(block.shape[1]):
                cols[f"{prefix}_r{k + 1}"] = np.ascontiguousarray(per_row[:, k])
    for name, column in BY_SEAT.items():
        if name in names:
            cols[column] = np.ascontiguousarray(np.asarray(setups[name])[:, :n].reshape(G * n))
    played = (np.asarray(setups["score_by_round"])[:, :, 0] != NOT_PLAYED).sum(axis=1)
    cols["arc_rounds"] = played.astype(np.int8).repeat(n)
    return cols


def results_columns(task: RunTask, results: np.ndarray, setups: np.ndarray,
                    lineups: np.ndarray) -> dict[str, Any]:
    """The columns of the results of one batch of games (one row per player per game,
    game-major): NumPy arrays, and ``pandas.Categorical`` for the categorical ones.

    Columns: ``game_id, seed, edition, n_players, seat, strategy, score, rank, winner``, then
    every other field of the game's result records (the ``pts_<part>`` score parts first),
    ``setup_id``, the game's own columns (``GameSpec.frame_columns``), the per-game metrics
    of its setup records and the score trajectory (:func:`round_columns`).

    Parameters
    ----------
    task : RunTask
        ``RunConfig.task()``.
    results : result_dtype[G * n_players]
    setups : setup_dtype[G]
    lineups : int64[G, n_players], label index (``task.labels``) of each seat
    """
    spec = get_game(task.game)
    n = task.players
    G = setups.shape[0]
    rows = G * n
    editions = list(spec.editions)
    cols: dict[str, Any] = {
        "game_id": results["game_id"].astype(np.int64),
        "seed": np.full(rows, task.seed, np.int64),
        "edition": pd.Categorical.from_codes(
            np.full(rows, editions.index(task.edition), np.int8), categories=editions),
        "n_players": np.full(rows, n, np.int8),
        "seat": results["seat"].astype(np.int8),
        "strategy": pd.Categorical.from_codes(
            np.asarray(lineups, np.int64).reshape(-1), categories=list(task.labels)),
        "score": results["score"],
        "rank": results["rank"],
        "winner": results["winner"],
    }
    for name in (*spec.part_columns, *spec.result_metrics):
        cols[name] = results[name]
    per_game = np.arange(G).repeat(n)
    cols["setup_id"] = setups["setup_id"][per_game].astype(np.int64)
    cols.update(spec.frame_columns(task.components.meta, results, setups))
    for name in spec.game_metrics:
        # a column the game derives itself (a category instead of a code, say) is kept
        if name not in cols:
            cols[name] = setups[name][per_game]
    cols.update(round_columns(spec.setup_dtype, setups, n))
    return cols


def _arrow(values: Any) -> pa.Array:
    if isinstance(values, pd.Categorical):
        codes = np.asarray(values.codes)
        return pa.DictionaryArray.from_arrays(
            pa.array(codes, mask=codes < 0) if (codes < 0).any() else pa.array(codes),
            _dictionary(tuple(str(c) for c in values.categories)))
    return pa.array(np.ascontiguousarray(values))


#: The generic columns' types where the records may hold another one (``results_columns``).
_CAST: dict[str, np.dtype] = {"game_id": np.dtype(np.int64), "seat": np.dtype(np.int8),
         "setup_id": np.dtype(np.int64)}

#: Where a column of ``_FieldPlan`` is read: a result field (one value a row), a setup field
#: (one value a game, repeated on its rows), or one round (or the seats) of a per-seat setup
#: field (each row its seat's value).
RESULT, PER_GAME, PER_SEAT = 0, 1, 2


@dataclass(frozen=True)
class _FieldPlan:
    """Where each record-field column of a game's results lies in one buffer of columns."""

    names: tuple[str, ...]       # the columns, in the buffer's order (widest first: aligned)
    dtypes: tuple[np.dtype, ...]  # each one's type in the frame (the field's own; int64 ids)
    fields: tuple[str, ...]      # the record field each is read from
    source: tuple[int, ...]      # RESULT, PER_GAME or PER_SEAT
    round: tuple[int, ...]       # PER_SEAT: the field's round (-1: a field of seats alone)
    start: tuple[int, ...]       # the column's first byte in the buffer, per row of the batch
    row_bytes: int               # bytes of one row over every column
    trajectory: tuple[str, ...]  # the trajectory's columns (``round_columns``) in its order


@lru_cache(maxsize=32)
def _field_plan(result_dtype: np.dtype, setup_dtype: np.dtype, result_fields: tuple[str, ...],
                setup_fields: tuple[str, ...]) -> _FieldPlan:
    # (column, frame type, field, source, round)
    entries: list[tuple[str, np.dtype, str, int, int]] = []
    for src, dtype, fields in ((RESULT, result_dtype, result_fields),
                               (PER_GAME, setup_dtype, setup_fields)):
        for name in fields:
            ftype = dtype.fields[name][0]  # type: ignore[index]
            if ftype.shape or ftype.kind not in "biuf":
                raise TypeError(f"record field {name!r} ({ftype}) is not a scalar number")
            entries.append((name, _CAST.get(name, ftype), name, src, -1))
    # the score trajectory (round_columns' columns but arc_rounds): each row its seat's value
    trajectory: list[str] = []
    names = setup_dtype.names or ()
    if "score_by_round" in names:
        for field, prefix in BY_ROUND.items():
            if field in names:
                ftype = setup_dtype.fields[field][0]  # type: ignore[index]
                for k in range(ftype.shape[0]):  # [rounds, max_players]
                    trajectory.append(f"{prefix}_r{k + 1}")
                    entries.append((trajectory[-1], ftype.base, field, PER_SEAT, k))
        for field, column in BY_SEAT.items():
            if field in names:
                ftype = setup_dtype.fields[field][0]  # type: ignore[index]
                trajectory.append(column)
                entries.append((column, ftype.base, field, PER_SEAT, -1))
    entries.sort(key=lambda e: -e[1].itemsize)  # stable: same-width fields keep their order
    # a trajectory field's rounds side by side, in order (``_gather_fields`` fills them at once)
    for field in BY_ROUND:
        at = [i for i, e in enumerate(entries) if e[3] == PER_SEAT and e[2] == field]
        rounds = [entries[i][4] for i in at]
        if at and (at != list(range(at[0], at[0] + len(at))) or rounds != list(range(len(at)))):
            raise AssertionError(f"the rounds of {field!r} are not side by side")
    widths = [e[1].itemsize for e in entries]
    return _FieldPlan(
        names=tuple(e[0] for e in entries), dtypes=tuple(e[1] for e in entries),
        fields=tuple(e[2] for e in entries), source=tuple(e[3] for e in entries),
        round=tuple(e[4] for e in entries),
        start=tuple(int(x) for x in np.concatenate(([0], np.cumsum(widths)[:-1]))),
        row_bytes=sum(widths), trajectory=tuple(trajectory))


def _gather_fields(plan: _FieldPlan, results: np.ndarray, setups: np.ndarray,
                   n: int) -> dict[str, np.ndarray]:
    """The plan's columns of one batch, each a view of one new buffer (widest first, so
    aligned) in the column's frame type, filled by one NumPy strided copy a column (the copy
    itself runs without the GIL; it reads only the field's bytes: 2.5x faster than a compiled
    pass over whole records of 50-1,100 bytes, issue 42), the trajectory's rounds of a field
    by one compiled pass (:func:`~tajsim.running.kernels.gather_by_seat_nb`)."""
    G = setups.shape[0]
    rows = G * n
    buf = np.empty(plan.row_bytes * rows, np.uint8)
    out: dict[str, np.ndarray] = {}
    for name, dtype, field, source, k, start in zip(plan.names, plan.dtypes, plan.fields,
                                                   plan.source, plan.round, plan.start):
        column = buf[start * rows:(start + dtype.itemsize) * rows].view(dtype)
        out[name] = column
        if source == RESULT:
            column[:] = results[field]
        elif source == PER_GAME:
            column.reshape(G, n)[:] = setups[field][:, None]
        elif k == 0 and rows:
            # a trajectory field's rounds lie side by side in the buffer (same width, kept in
            # order): all of them in one compiled pass (a NumPy copy a round iterates over
            # the n seats innermost: 2-3x slower)
            block = setups[field]
            whole = buf[start * rows:(start + dtype.itemsize * block.shape[1]) * rows]
            gather_by_seat_nb(block, n, whole.view(dtype).reshape(block.shape[1], rows))
        elif k < 0:
            column.reshape(G, n)[:] = setups[field][:, :n]
    return out


@lru_cache(maxsize=64)
def _dictionary(categories: tuple[str, ...]) -> pa.Array:
    return pa.array(list(categories), pa.string())


def _codes(codes: np.ndarray, n_categories: int) -> np.ndarray:
    """Category codes in the type pandas gives them (``Categorical.from_codes``)."""
    for kind in (np.int8, np.int16, np.int32):
        if n_categories < np.iinfo(kind).max:
            return codes.astype(kind, copy=False)
    return codes.astype(np.int64, copy=False)


def _dict_column(codes: np.ndarray, categories: Sequence[str]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(_codes(codes, len(categories))),
                                          _dictionary(tuple(categories)))


def results_table(task: RunTask, results: np.ndarray, setups: np.ndarray,
                  lineups: np.ndarray) -> pa.Table:
    """The results of one batch of games as an Arrow table: the rows and columns of
    :func:`results_columns`, built without it.

    Every column read from a record field (the result fields, ``setup_id``, the per-game
    metrics repeated for each player, the score trajectory ``score_r<k>``, ``turn_r<k>`` and
    ``draft_pos`` each row its seat's value) is copied into one preallocated buffer, a column
    after the other in its frame type, by one NumPy strided copy a column that runs without the
    GIL (:func:`_gather_fields`), and handed to Arrow without a copy (Arrow's arrays over the
    buffer's NumPy views; booleans alone are packed into bits). The constant
    columns, the strategies' codes and the game's own ``frame_columns`` are added as
    :func:`results_columns` makes them. ``tests/test_records_columns.py`` checks that both
    give the same frame, for every game.
    """
    spec = get_game(task.game)
    n = task.players
    G = setups.shape[0]
    rows = G * n
    if results.shape[0] != rows:
        raise ValueError(f"{results.shape[0]} result records for {G} games of {n} players")
    result_fields = ("game_id", "seat", "score", "rank", "winner", *spec.part_columns,
                     *spec.result_metrics)
    setup_fields = ("setup_id", *spec.game_metrics)
    plan = _field_plan(spec.result_dtype, spec.setup_dtype, result_fields, setup_fields)
    field = _gather_fields(plan, results, setups, n)
    editions = list(spec.editions)
    cols: dict[str, pa.Array] = {
        "game_id": pa.array(field["game_id"]),
        "seed": pa.array(np.full(rows, task.seed, np.int64)),
        "edition": _dict_column(np.full(rows, editions.index(task.edition), np.int8), editions),
        "n_players": pa.array(np.full(rows, n, np.int8)),
        "seat": pa.array(field["seat"]),
        "strategy": _dict_column(np.asarray(lineups, np.int64).reshape(-1), task.labels),
    }
    for name in ("score", "rank", "winner", *spec.part_columns, *spec.result_metrics,
                 "setup_id"):
        cols[name] = pa.array(field[name])
    for name, values in spec.frame_columns(task.components.meta, results, setups).items():
        cols[name] = _arrow(values)
    for name in spec.game_metrics:
        if name not in cols:
            cols[name] = pa.array(field[name])
    for name in plan.trajectory:
        cols[name] = pa.array(field[name])
    if plan.trajectory:
        played = (np.asarray(setups["score_by_round"])[:, :, 0] != NOT_PLAYED).sum(axis=1)
        cols["arc_rounds"] = pa.array(played.astype(np.int8).repeat(n))
    return pa.Table.from_arrays(list(cols.values()), names=list(cols))


def results_frame(task: RunTask, results: np.ndarray, setups: np.ndarray,
                  lineups: np.ndarray) -> pd.DataFrame:
    """The results frame of one batch of games (see :func:`results_columns`)."""
    return results_table(task, results, setups, lineups).to_pandas()


def parquet_table(table: pa.Table) -> pa.Table:
    """``table`` with the schema its chunk file is written with: every column that cannot hold
    a missing value (all but the dictionary-encoded categories, and a column that holds one)
    marked required, so Parquet writes no definition level a value (the same values and
    frame; 15-20 % of the file's encoding time)."""
    fields = [f.with_nullable(pa.types.is_dictionary(f.type) or col.null_count > 0)
              for f, col in zip(table.schema, table.columns)]
    if all(f.nullable == g.nullable for f, g in zip(fields, table.schema)):
        return table
    return pa.Table.from_arrays(table.columns, schema=pa.schema(fields, table.schema.metadata))


def parquet_options(schema: pa.Schema) -> dict[str, Any]:
    """``pyarrow.parquet.write_table``'s options for a chunk file of ``schema`` (chosen by
    measurement: ``PARQUET_COMPRESSION``): the categories dictionary-encoded, the integer
    columns ``PARQUET_INTEGER_ENCODING`` (byte streams: no arithmetic a value), statistics for
    ``game_id`` alone (the integrity check reads its range; the others cost 10 % of the
    encoding and are read by nothing)."""
    names = schema.names
    return {
        "compression": PARQUET_COMPRESSION,
        "use_dictionary": [f.name for f in schema if pa.types.is_dictionary(f.type)],
        "column_encoding": {f.name: PARQUET_INTEGER_ENCODING for f in schema
                            if pa.types.is_integer(f.type)},
        "write_statistics": [name for name in ("game_id",) if name in names],
    }


def to_parquet(table: pa.Table | pd.DataFrame) -> bytes:
    """A results table (or frame) as Parquet bytes (pyarrow, :func:`parquet_table`'s schema,
    :func:`parquet_options`, no index)."""
    if isinstance(table, pd.DataFrame):
        table = pa.Table.from_pandas(table, preserve_index=False)
    table = parquet_table(table)
    buf = io.BytesIO()
    pq.write_table(table, buf, **parquet_options(table.schema))
    return buf.getvalue()


def read_parquet_files(paths: Sequence[Any]) -> pd.DataFrame:
    """Concatenate Parquet files (in the given order) into one frame with a fresh index.

    Files of one run share their columns; files of several runs may not (other boards have
    other ``bonus_<city>`` columns): those are joined with :func:`concat_results`.
    """
    tables = [pq.read_table(p) for p in paths]
    if not tables:
        return pd.DataFrame()
    groups: list[list[Any]] = [[tables[0]]]
    for t in tables[1:]:
        if t.schema.remove_metadata().equals(groups[-1][0].schema.remove_metadata()):
            groups[-1].append(t)
        else:
            groups.append([t])
    frames = [(pa.concat_tables(g) if len(g) > 1 else g[0]).to_pandas() for g in groups]
    return frames[0] if len(frames) == 1 else concat_results(frames)


def concat_results(frames: Sequence[pd.DataFrame], run_ids: Sequence[str] | None = None,
                   variants: Sequence[str | None] | None = None) -> pd.DataFrame:
    """Concatenate results frames of several runs, keeping categorical columns categorical
    (union of the categories) and adding ``run_id`` / ``variant`` columns when given."""
    frames = [f.copy() for f in frames]
    for i, f in enumerate(frames):
        if run_ids is not None:
            f.insert(0, "run_id", run_ids[i])
        if variants is not None:
            f.insert(0, "variant", variants[i] if variants[i] is not None else "default")
    if len(frames) == 1:
        out = frames[0]
        for col in ("run_id", "variant"):
            if col in out.columns:
                out[col] = out[col].astype("category")
        return out
    categorical = {c for f in frames for c in f.columns
                   if isinstance(f[c].dtype, pd.CategoricalDtype) or c in ("run_id", "variant")}
    for col in categorical:
        cats: list[Any] = []
        for f in frames:
            if col in f.columns:
                values = (f[col].cat.categories if isinstance(f[col].dtype, pd.CategoricalDtype)
                          else pd.unique(f[col].dropna()))
                cats.extend(v for v in values if v not in cats)
        for f in frames:
            if col in f.columns:
                f[col] = pd.Categorical(f[col].astype(object), categories=cats)
            else:
                f[col] = pd.Categorical([None] * len(f), categories=cats)
    columns: list[str] = []
    for f in frames:
        columns.extend(c for c in f.columns if c not in columns)
    return pd.concat([f.reindex(columns=columns) for f in frames], ignore_index=True)
