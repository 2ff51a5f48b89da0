"""From the kernels' record arrays to the results frame of ``docs/results-schema.md``.

``results_table`` joins a game's result records (one row per player) and setup records (one
row per game) into one row per player per game, column for column as the schema says, as an
Arrow table built straight from the NumPy arrays (no pandas on the way: the worker threads
build their chunks' rows side by side, mostly outside the GIL). A chunk file stores it as two
tables (``chunk_tables``: the players' columns, and the per-game ones once a game), which every
reader joins back (``read_chunk_table``, ``read_parquet_files``); ``to_parquet`` writes each as
Parquet bytes the same way everywhere (the chunk files are byte-identical whichever process or
machine made them, for the same library versions); ``results_frame`` is the same rows as a
pandas frame.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.kernels import gather_by_seat_nb
from tajsim.running.run_files import (
    COLUMNS_KEY,
    GAMES_SUFFIX,
    LAYOUT_GAMES,
    LAYOUT_KEY,
    LAYOUT_SPLIT,
)

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


#: The columns every game's results hold once a game (``chunk_tables``): the run's constants and
#: the setup records' scalar fields (``GameSpec.game_metrics``), ``setup_id`` and ``arc_rounds``;
#: the game's own per-game columns are the wing's declaration (``GameSpec.game_columns``).
GENERIC_GAME_COLUMNS = ("seed", "edition", "n_players", "setup_id", "arc_rounds")


def is_game_column(spec: Any, name: str) -> bool:
    """Whether column ``name`` of ``spec``'s results holds one value a game (the same on each
    seat's row): the generic ones, the setup records' scalar fields, and the game's own
    columns the wing declares (``GameSpec.game_columns``, ``fnmatch`` patterns); never a
    result record's field (one a seat: Maharaja's ``houses_board`` is no ``houses_<village>``)."""
    return _is_game_column(spec.name, name)


@lru_cache(maxsize=8192)
def _is_game_column(game: str, name: str) -> bool:
    # once a column a game: the patterns and ``game_metrics`` cost 2 ms a chunk's 136 columns
    spec = get_game(game)
    if name in (spec.result_dtype.names or ()):
        return False
    return (name in GENERIC_GAME_COLUMNS or name in spec.game_metrics
            or any(fnmatchcase(name, pattern) for pattern in spec.game_columns))


def chunk_tables(task: RunTask, results: np.ndarray, setups: np.ndarray,
                 lineups: np.ndarray) -> tuple[pa.Table, pa.Table]:
    """The results of one batch of games as two Arrow tables, joined by ``game_id``
    (:func:`join_tables` gives :func:`results_table`):

    * the players' table: one row per player per game (``game_id``, then every column that
      differs between seats), its schema metadata the layout (``LAYOUT_KEY``) and the whole
      frame's column order (``COLUMNS_KEY``);
    * the games' table: one row per game (``game_id``, then every per-game column,
      :func:`is_game_column`).

    Every column read from a record field (the result fields; the score trajectory
    ``score_r<k>``, ``turn_r<k>`` and ``draft_pos`` each row its seat's value) is copied into
    one preallocated buffer, a column after the other in its frame type, by one NumPy strided
    copy a column that runs without the GIL (:func:`_gather_fields`), and handed to Arrow
    without a copy (booleans alone are packed into bits); the per-game fields are copied once a
    game. The game's own ``frame_columns`` declared per game keep one row a game (every n-th
    value). ``tests/test_records_columns.py`` checks that the join gives
    :func:`results_columns`' frame, for every game.
    """
    spec = get_game(task.game)
    n = task.players
    G = setups.shape[0]
    rows = G * n
    if results.shape[0] != rows:
        raise ValueError(f"{results.shape[0]} result records for {G} games of {n} players")
    result_fields = ("game_id", "seat", "score", "rank", "winner", *spec.part_columns,
                     *spec.result_metrics)
    plan = _field_plan(spec.result_dtype, spec.setup_dtype, result_fields, ())
    field = _gather_fields(plan, results, setups, n)
    editions = list(spec.editions)
    game_ids = np.ascontiguousarray(field["game_id"][::n]) if n else field["game_id"]
    seats: dict[str, pa.Array] = {"game_id": pa.array(field["game_id"])}
    games: dict[str, pa.Array] = {
        "game_id": pa.array(game_ids),
        "seed": pa.array(np.full(G, task.seed, np.int64)),
        "edition": _dict_column(np.full(G, editions.index(task.edition), np.int8), editions),
        "n_players": pa.array(np.full(G, n, np.int8)),
    }
    order = ["game_id", "seed", "edition", "n_players"]
    seats["seat"] = pa.array(field["seat"])
    seats["strategy"] = _dict_column(np.asarray(lineups, np.int64).reshape(-1), task.labels)
    order += ["seat", "strategy"]
    for name in ("score", "rank", "winner", *spec.part_columns, *spec.result_metrics):
        seats[name] = pa.array(field[name])
        order.append(name)
    games["setup_id"] = pa.array(np.asarray(setups["setup_id"], np.int64))
    order.append("setup_id")
    for name, values in spec.frame_columns(task.components.meta, results, setups).items():
        if is_game_column(spec, name):
            games[name] = _arrow(values[::n] if n else values)
        else:
            seats[name] = _arrow(values)
        order.append(name)
    for name in spec.game_metrics:
        if name not in games and name not in seats:
            games[name] = pa.array(np.array(setups[name]))
            order.append(name)
    for name in plan.trajectory:
        seats[name] = pa.array(field[name])
        order.append(name)
    if plan.trajectory:
        played = (np.asarray(setups["score_by_round"])[:, :, 0] != NOT_PLAYED).sum(axis=1)
        games["arc_rounds"] = pa.array(played.astype(np.int8))
        order.append("arc_rounds")
    meta = {LAYOUT_KEY: LAYOUT_SPLIT, COLUMNS_KEY: json.dumps(order).encode()}
    return (pa.Table.from_arrays(list(seats.values()), names=list(seats)).replace_schema_metadata(
                meta),
            pa.Table.from_arrays(list(games.values()), names=list(games)).replace_schema_metadata(
                {LAYOUT_KEY: LAYOUT_GAMES}))


def join_tables(players: pa.Table, games: pa.Table, where: str = "the chunk") -> pa.Table:
    """The one-row-per-player table of a players' table and its games' table
    (:func:`chunk_tables`): each game's values on each of its players' rows, the columns in the
    frame's order (``COLUMNS_KEY``), no schema metadata.

    Raises
    ------
    UserError
        The two tables do not belong together (a game of one missing from the other, games out
        of order, columns missing); ``where`` names the file.
    """
    meta = players.schema.metadata or {}
    try:
        order = json.loads(meta[COLUMNS_KEY])
    except (KeyError, ValueError):
        raise UserError(f"{where}: its players' table records no column order "
                        f"({COLUMNS_KEY.decode()}); expected a chunk file tajsim wrote") from None
    if (games.schema.metadata or {}).get(LAYOUT_KEY) != LAYOUT_GAMES:
        raise UserError(f"{where}: its per-game table is not a games table (layout "
                        f"{(games.schema.metadata or {}).get(LAYOUT_KEY)!r}); expected "
                        f"{LAYOUT_GAMES.decode()}")
    try:
        ids = players.column("game_id").to_numpy()
        game_ids = games.column("game_id").to_numpy()
    except KeyError:
        raise UserError(f"{where}: a table has no game_id column; expected both tables keyed "
                        "by game_id") from None
    at = np.searchsorted(game_ids, ids)
    found = at < len(game_ids)
    found[found] = game_ids[at[found]] == ids[found]
    used = np.zeros(len(game_ids), bool)
    used[at[found]] = True
    if not found.all() or not used.all() or (np.diff(game_ids) <= 0).any():
        raise UserError(f"{where}: its players' rows and its per-game table hold other games "
                        f"({len(np.unique(ids)):,} and {len(game_ids):,} game ids); expected the "
                        "same games, in order")
    index = pa.array(at)
    # names looked up once: a table's column_names and schema are built anew at each access
    # (a 200-column chunk's join took 30 ms of Python doing so)
    in_games = {n: i for i, n in enumerate(games.column_names) if n != "game_id"}
    in_players = {n: i for i, n in enumerate(players.column_names)}
    game_schema, player_schema = games.schema, players.schema
    arrays, fields = [], []
    for name in order:
        if name in in_games:
            arrays.append(games.column(in_games[name]).take(index))
            fields.append(game_schema.field(in_games[name]))
        elif name in in_players:
            arrays.append(players.column(in_players[name]))
            fields.append(player_schema.field(in_players[name]))
        else:
            raise UserError(f"{where}: column {name!r} is in neither table; expected every "
                            "column of the players' table's column order")
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def results_table(task: RunTask, results: np.ndarray, setups: np.ndarray,
                  lineups: np.ndarray) -> pa.Table:
    """The results of one batch of games as one Arrow table (one row per player per game,
    column for column :func:`results_columns`): :func:`chunk_tables` joined."""
    return join_tables(*chunk_tables(task, results, setups, lineups))


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
    """A results table (or frame, or one of :func:`chunk_tables`) as Parquet bytes (pyarrow,
    :func:`parquet_table`'s schema, :func:`parquet_options`, no index)."""
    if isinstance(table, pd.DataFrame):
        table = pa.Table.from_pandas(table, preserve_index=False)
    table = parquet_table(table)
    buf = io.BytesIO()
    pq.write_table(table, buf, **parquet_options(table.schema))
    return buf.getvalue()


def games_path(path: Path) -> Path:
    """The per-game companion of a players' chunk file (``GAMES_SUFFIX``)."""
    return path.with_name(path.name[:-len(".parquet")] + GAMES_SUFFIX) \
        if path.name.endswith(".parquet") else path.with_name(path.name + GAMES_SUFFIX)


def is_games_file(path: Path) -> bool:
    """Whether ``path`` is a per-game companion file (read with its players' file, never
    alone)."""
    return path.name.endswith(GAMES_SUFFIX)


def read_chunk_table(source: Any, games: Any = None) -> pa.Table:
    """One results file as one table, whichever layout it has: a one-table file as it is; a
    players' table (``LAYOUT_SPLIT``) joined with its per-game table (:func:`join_tables`),
    read from ``games`` or, for a path, from its companion file (:func:`games_path`).

    Raises
    ------
    UserError
        The companion file is missing or unreadable, or does not belong to the players' file.
    """
    table = pq.read_table(source)
    meta = table.schema.metadata or {}
    if meta.get(LAYOUT_KEY) == LAYOUT_GAMES:
        raise UserError(f"{_name(source)} is a per-game table, read with its players' file; "
                        "expected a players' results file")
    if meta.get(LAYOUT_KEY) != LAYOUT_SPLIT:
        return table
    if games is None:
        if not isinstance(source, (str, Path)):
            raise UserError(f"{_name(source)}: its per-game table was not given; expected the "
                            "two tables of a chunk")
        games = games_path(Path(source))
        if not games.is_file():
            raise UserError(f"{source}: its per-game table {games.name} is missing; expected "
                            "the companion file written with it (docs/results-schema.md)")
    try:
        game_table = pq.read_table(games)
    except (OSError, pa.ArrowException) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"{_name(games)}: the per-game table of {_name(source)} cannot be read "
                        f"({first}); expected the companion file written with it") from None
    return join_tables(table, game_table, _name(source))


def _name(source: Any) -> str:
    return str(source) if isinstance(source, (str, Path)) else "the chunk in memory"


def read_parquet_files(paths: Sequence[Any]) -> pd.DataFrame:
    """Concatenate results files (in the given order) into one frame with a fresh index.

    Each item is a path (a two-table chunk is joined with its companion file, which is
    skipped when listed itself), a file-like object of a one-table file, or a pair (players,
    games) of a two-table chunk (:func:`read_chunk_table`). Files of one run share their
    columns; files of several runs may not (other boards have other ``bonus_<city>``
    columns): those are joined with :func:`concat_results`.
    """
    tables = [read_chunk_table(*p) if isinstance(p, tuple) else read_chunk_table(p)
              for p in paths if not (isinstance(p, (str, Path)) and is_games_file(Path(p)))]
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
