"""Where a chunk's records cost goes: CPU seconds (thread time, best of the repeats) of playing a
chunk and of building its outputs, with records and without (issue 42, section 3).

For each line-up (``random`` and the game's heuristic line-up of ``bench_scaling.py``) and each
chunk size (the runner's default before issue 42's change, 0.05 s of one core, and its
default for a run that keeps its rows, ``config.MIN_CHUNK_SECONDS_RECORDS``): ``play`` (the
game's ``play_batch``), ``off`` (``chunk.build_chunk`` without records: the aggregates and their
file), ``on`` (with records: also the rows' table and its Parquet file) and the Parquet file
written the old way (every column nullable, dictionaries, statistics) against the runner's
(``records.to_parquet``), seconds and bytes. ``bound_on = play / (play + on)``: the most of the
machine's rate a run keeping its rows can reach when every core plays (``bound_off`` without);
CPU time, so a loaded machine changes the figures less than it changes wall-clock rates.

    python benchmarks/bench_records.py --game maharaja [--quick] [--encodings]

``--encodings`` also writes ``records_encodings_<game>.csv``: the CPU (process time) and bytes
of the runner's chunk file with its integer columns in each Parquet encoding and codec
(``ENCODINGS``), at the chunk size of a run that keeps its rows: the measurement behind
``records.PARQUET_COMPRESSION``.
"""

from __future__ import annotations

import io
import time
from dataclasses import replace

import common
from bench_scaling import lineup


def _best(f, repeat: int, clock=time.thread_time):
    best, out = float("inf"), None
    for _ in range(repeat):
        c = clock()
        out = f()
        best = min(best, clock() - c)
    return best, out


#: (integer encoding, codec) pairs ``--encodings`` measures.
ENCODINGS = [("DELTA_BINARY_PACKED", "snappy"), ("DELTA_BINARY_PACKED", "none"),
             ("BYTE_STREAM_SPLIT", "lz4"), ("BYTE_STREAM_SPLIT", "snappy"),
             ("BYTE_STREAM_SPLIT", "zstd"), ("PLAIN", "lz4")]


def _chunk(args, name: str, chunk_seconds: float):
    """The task of a two-chunk run whose chunks last about ``chunk_seconds`` of one core, and
    its line-up's strategies."""
    from tajsim.running.chunk import play_chunk_arrays
    from tajsim.running.config import RunConfig

    strategies, players, _ = lineup(args.game, name)
    probe = RunConfig.make(game=args.game, games=64, players=players, strategies=strategies,
                           seed=args.seed, chunk_size=32).task()
    play_chunk_arrays(probe, 0)  # the kernels loaded
    per_game = _best(lambda: play_chunk_arrays(probe, 1), 3)[0] / 32
    games = max(8, min(10_000, int(chunk_seconds / per_game)))
    config = RunConfig.make(game=args.game, games=2 * games, players=players,
                            strategies=strategies, seed=args.seed, chunk_size=games)
    return config.task(), strategies, games


def encodings(args, name: str, chunk_seconds: float) -> list[dict]:
    """The runner's chunk file of one line-up in each of ``ENCODINGS``: rows of the CSV."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tajsim.running.chunk import play_chunk_arrays
    from tajsim.running.records import parquet_options, parquet_table, results_table

    task, strategies, games = _chunk(args, name, chunk_seconds)
    table = parquet_table(results_table(task, *play_chunk_arrays(task, 0)))
    rows = []
    for encoding, codec in ENCODINGS:
        options = parquet_options(table.schema)
        options["compression"] = codec
        options["column_encoding"] = {f.name: encoding for f in table.schema
                                      if pa.types.is_integer(f.type)}

        def write(options: dict = options) -> bytes:
            buf = io.BytesIO()
            pq.write_table(table, buf, **options)
            return buf.getvalue()

        seconds, data = _best(write, args.repeat, clock=time.process_time)
        rows.append({"game": args.game, "lineup": name, "strategies": strategies,
                     "chunk_games": games, "rows": table.num_rows, "columns": table.num_columns,
                     "encoding": encoding, "codec": codec, "seconds": seconds,
                     "bytes": len(data), "load_avg": common.load_avg()})
        common.log(f"{args.game} {name}, {games:,} games: {encoding} {codec} "
                   f"{seconds * 1e3:.1f} ms, {len(data) / 1e3:,.0f} kB")
    return rows


def measure(args, name: str, chunk_seconds: float) -> dict:
    """One line-up and chunk size: the row of the CSV."""
    import pyarrow.parquet as pq

    from tajsim.running.chunk import build_chunk, play_chunk_arrays
    from tajsim.running.records import PARQUET_COMPRESSION, results_table, to_parquet

    task, strategies, games = _chunk(args, name, chunk_seconds)
    play, (res, st, lu) = _best(lambda: play_chunk_arrays(task, 0), max(1, args.repeat // 3))
    off, _ = _best(lambda: build_chunk(replace(task, records=False), 0, res, st, lu),
                   args.repeat)
    on, _ = _best(lambda: build_chunk(replace(task, records=True), 0, res, st, lu),
                  args.repeat)
    table = results_table(task, res, st, lu)

    def old_parquet() -> bytes:
        buf = io.BytesIO()
        pq.write_table(table, buf, compression=PARQUET_COMPRESSION)
        return buf.getvalue()

    old_s, old_bytes = _best(old_parquet, args.repeat)
    new_s, new_bytes = _best(lambda: to_parquet(table), args.repeat)
    return {"game": args.game, "lineup": name, "strategies": strategies,
            "chunk_seconds": chunk_seconds, "chunk_games": games, "columns": table.num_columns,
            "play_s": play, "outputs_off_s": off, "outputs_on_s": on,
            "parquet_old_s": old_s, "parquet_old_bytes": len(old_bytes),
            "parquet_new_s": new_s, "parquet_new_bytes": len(new_bytes),
            "bound_off": play / (play + off), "bound_on": play / (play + on),
            "load_avg": common.load_avg()}


def main(argv: list[str] | None = None) -> None:
    from tajsim.running import config

    smallest = [config.MIN_CHUNK_SECONDS]
    if hasattr(config, "MIN_CHUNK_SECONDS_RECORDS"):  # a tree before issue 42's chunks: one
        smallest.append(config.MIN_CHUNK_SECONDS_RECORDS)

    p = common.parser(__doc__.splitlines()[0], repeat=5, quick_repeat=3)
    p.add_argument("--lineups", nargs="+", default=["random", "heuristic"])
    p.add_argument("--encodings", action="store_true",
                   help="also measure the chunk file in each integer encoding and codec")
    args = common.parse(p, argv)
    rows = []
    for name in args.lineups:
        for seconds in smallest:
            row = measure(args, name, seconds)
            rows.append(row)
            common.log(f"{args.game} {name}, {row['chunk_games']:,} games ({seconds} s): play "
                       f"{row['play_s']:.4f} s, outputs off {row['outputs_off_s']:.4f} on "
                       f"{row['outputs_on_s']:.4f}; Parquet old {row['parquet_old_s']:.4f} s "
                       f"({row['parquet_old_bytes'] / 1e3:,.0f} kB) new "
                       f"{row['parquet_new_s']:.4f} s ({row['parquet_new_bytes'] / 1e3:,.0f} "
                       f"kB); bound off {row['bound_off']:.3f} on {row['bound_on']:.3f}")
    common.write_csv(f"records_{args.game}", rows, args)
    if args.encodings:
        common.write_csv(f"records_encodings_{args.game}",
                         [row for name in args.lineups
                          for row in encodings(args, name, smallest[-1])], args)


if __name__ == "__main__":
    main()
