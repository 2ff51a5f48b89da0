"""The results rows built by the compiled column path (``records.results_table``: record fields
gathered into one buffer of columns without the GIL, handed to Arrow without copies) equal the
old path's (``records.results_columns``, one NumPy expression a column), frame for frame, for
every registered game, including each game's own ``frame_columns``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from tajsim.games.registry import GAMES, get_game
from tajsim.running.chunk import play_chunk_arrays
from tajsim.running.config import RunConfig
from tajsim.running.records import (
    PARQUET_COMPRESSION,
    PARQUET_INTEGER_ENCODING,
    _arrow,
    results_columns,
    results_table,
    round_columns,
    to_parquet,
)


def old_parquet(table: pa.Table) -> bytes:
    """A chunk file as the runner wrote it before issue 42's encoding (every column nullable,
    dictionaries, statistics)."""
    import io

    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(table, buf, compression=PARQUET_COMPRESSION)
    return buf.getvalue()


def old_table(task, results, setups, lineups) -> pa.Table:
    """The rows as the runner built them before the compiled path."""
    cols = results_columns(task, results, setups, lineups)
    return pa.table({name: _arrow(values) for name, values in cols.items()})


def _cases():
    for game in sorted(GAMES):
        spec = get_game(game)
        edition = spec.editions[0]
        high = spec.player_range(edition)[1]
        yield pytest.param(game, None, id=f"{game}-default")
        if high != spec.default_player_count(edition):
            yield pytest.param(game, high, id=f"{game}-{high}")


@pytest.mark.parametrize("game,players", list(_cases()))
def test_compiled_rows_equal_the_old_path(game, players):
    spec = get_game(game)
    names = [s for s in ("random", "balanced", "greedy") if s in spec.strategies.names()]
    config = RunConfig.make(game=game, games=60, players=players, strategies=",".join(names),
                            seed=11, chunk_size=30, rotate=True)
    task = config.task()
    for index in range(config.n_chunks):
        results, setups, lineups = play_chunk_arrays(task, index)
        old, new = old_table(task, results, setups, lineups), \
            results_table(task, results, setups, lineups)
        assert new.schema.equals(old.schema), (new.schema, old.schema)
        assert new.equals(old)
        pd.testing.assert_frame_equal(new.to_pandas(), old.to_pandas(), check_exact=True)
        assert to_parquet(new) == to_parquet(old)


def test_rows_equal_on_alternative_components_and_a_strided_batch():
    config = RunConfig.make(game="tajmahal", games=40, players=5, strategies="random",
                            seed=3, chunk_size=40, components="alternative:7")
    task = config.task()
    results, setups, lineups = play_chunk_arrays(task, 0)
    # a batch cut out of a larger one (the GPU path hands slices on)
    for r, s, l in ((results, setups, lineups),
                    (results[5 * 5:], setups[5:], lineups[5:]),
                    (results[:0], setups[:0], lineups[:0])):
        assert results_table(task, r, s, l).equals(old_table(task, r, s, l))


def test_the_columns_share_one_buffer():
    """The record-field columns are views of the gathered buffer, not copies (zero-copy)."""
    config = RunConfig.make(game="tajmahal", games=20, players=4, strategies="random", seed=1)
    task = config.task()
    results, setups, lineups = play_chunk_arrays(task, 0)
    table = results_table(task, results, setups, lineups)
    score = table.column("score").chunk(0)
    game_id = table.column("game_id").chunk(0)
    assert score.buffers()[1].address != 0
    gap = abs(score.buffers()[1].address - game_id.buffers()[1].address)
    assert gap < table.num_rows * 8 * 64  # both lie in the one buffer of columns
    assert np.array_equal(game_id.to_numpy(), results["game_id"])


def _previous_writer(table: pa.Table, path) -> None:
    """A chunk file as the runner wrote it from 2026-11-29 until the byte streams: integers
    ``DELTA_BINARY_PACKED``, snappy."""
    import pyarrow.parquet as pq

    from tajsim.running.records import parquet_options, parquet_table

    table = parquet_table(table)
    options = parquet_options(table.schema)
    options["compression"] = "snappy"
    options["column_encoding"] = {f.name: "DELTA_BINARY_PACKED" for f in table.schema
                                  if pa.types.is_integer(f.type)}
    pq.write_table(table, path, **options)


@pytest.mark.parametrize("old", ["zstd", "delta-snappy"])
def test_a_run_with_old_chunks_reads_the_same(tmp_path, old):
    """Chunks written before the codec and encoding changed (zstd with dictionaries; delta
    and snappy) verify and read back beside new ones."""
    import json

    import pyarrow.parquet as pq

    from tajsim.running.records import PARQUET_COMPRESSION
    from tajsim.running.run_files import data_digest
    from tajsim.running.run_reading import load_results
    from tajsim.running.simulate import run_simulation

    out = tmp_path / "run"
    run_simulation(40, 4, "random", seed=2, chunk_size=20, workers=1, out=out, progress=False,
                   load_records=False)
    new = load_results(out)
    chunk = out / "chunks" / "chunk-000000.parquet"
    assert pq.ParquetFile(chunk).metadata.row_group(0).column(0).compression.lower() == \
        PARQUET_COMPRESSION
    if old == "zstd":
        pq.write_table(pq.read_table(chunk), chunk, compression="zstd")
    else:
        _previous_writer(pq.read_table(chunk), chunk)
        meta = pq.ParquetFile(chunk).metadata.row_group(0).column(0)
        assert "DELTA_BINARY_PACKED" in meta.encodings
    check = out / "aggregates" / "chunk-000000.check.json"
    data = json.loads(check.read_text())
    data["records"] = data_digest(chunk.read_bytes())
    check.write_text(json.dumps(data))
    old = load_results(out)
    assert old.attrs["run_status"]["complete"]
    pd.testing.assert_frame_equal(old, new, check_exact=True)


def _lineups():
    """Several line-ups of every registered game: ``random``, its hand-written strategies
    (heuristics), and a mixed field seated in rotation."""
    for game in sorted(GAMES):
        spec = get_game(game)
        names = [s.name for s in spec.strategies.all()
                 if "search" not in s.tags and s.name not in ("random", "learned")]
        yield pytest.param(game, "random", id=f"{game}-random")
        if names:
            yield pytest.param(game, ",".join(names[:2]), id=f"{game}-heuristics")
            yield pytest.param(game, ",".join(["random", *names[2:4]]), id=f"{game}-mixed")


@pytest.mark.parametrize("game,strategies", list(_lineups()))
def test_compiled_trajectory_and_stored_frame_equal_the_old_path(game, strategies):
    """The trajectory columns (``score_r<k>``, Maharaja's ``turn_r<k>`` and ``draft_pos``,
    ``arc_rounds``) gathered by the compiled pass equal ``round_columns``' NumPy path, and the
    frame read back from the chunk file (the new encoding) equals the old path's, frame for
    frame, as does one read from a file written the old way."""
    import io

    import pyarrow.parquet as pq

    spec = get_game(game)
    config = RunConfig.make(game=game, games=24, strategies=strategies, seed=5, chunk_size=12,
                            rotate=True)
    task = config.task()
    for index in range(config.n_chunks):
        results, setups, lineups = play_chunk_arrays(task, index)
        new = results_table(task, results, setups, lineups)
        old = old_table(task, results, setups, lineups)
        trajectory = round_columns(spec.setup_dtype, setups, task.players)
        if "score_by_round" in (spec.setup_dtype.names or ()):
            assert "score_r1" in trajectory and "arc_rounds" in trajectory
        if game == "maharaja":
            assert "turn_r1" in trajectory and "draft_pos" in trajectory
        for name, values in trajectory.items():
            column = new.column(name).to_numpy()
            assert column.dtype == values.dtype, name
            assert np.array_equal(column, values), name
        assert new.equals(old)
        expected = old.to_pandas()
        stored = pq.read_table(io.BytesIO(to_parquet(new))).to_pandas()
        pd.testing.assert_frame_equal(stored, expected, check_exact=True)
        before = pq.read_table(io.BytesIO(old_parquet(old))).to_pandas()
        pd.testing.assert_frame_equal(before, expected, check_exact=True)


def test_chunk_files_are_written_as_chosen():
    """Integer columns in byte streams, categories dictionary-encoded, required columns but the
    categories, statistics for ``game_id`` (the integrity check's range) and no other."""
    import io

    import pyarrow.parquet as pq

    config = RunConfig.make(game="maharaja", games=20, strategies="random", seed=1)
    task = config.task()
    table = results_table(task, *play_chunk_arrays(task, 0))
    meta = pq.ParquetFile(io.BytesIO(to_parquet(table))).metadata
    schema = meta.schema.to_arrow_schema()
    group = meta.row_group(0)
    for j, field in enumerate(schema):
        column = group.column(j)
        assert column.compression.lower() == PARQUET_COMPRESSION
        if pa.types.is_dictionary(field.type):
            assert field.nullable and "RLE_DICTIONARY" in column.encodings
        else:
            assert not field.nullable, field.name
        if pa.types.is_integer(field.type):
            assert PARQUET_INTEGER_ENCODING in column.encodings, field.name
        assert column.is_stats_set == (field.name == "game_id"), field.name
