"""Where a chunk's records cost goes: CPU seconds (thread time, best of the repeats) of playing a
chunk and of each step of building its outputs, old path against new (issue 42, section 3).

For each (line-up, chunk size): ``play`` (the game's ``play_batch``), ``aggregates``
(``Aggregates.from_records``), the table by the old path (``records.results_columns``: one NumPy
expression a column, then Arrow) and by the new one (``records.results_table``: the record
fields gathered by one compiled pass into one buffer, Arrow's arrays over it), and the Parquet
file in each codec. ``records_share`` = (aggregates + table + Parquet) / play: the rate a core
loses to records is about ``1 / (1 + records_share)``. CPU time, so a loaded machine changes
the figures less than it changes wall-clock rates.

    python benchmarks/bench_records.py [--quick]
"""

from __future__ import annotations

import io
import time

import common

CASES = [("random", "random", 10_000), ("random", "random", 2_000),
         ("heuristic", "balanced,greedy,commodity,random", 197),
         ("heuristic", "balanced,greedy,commodity,random", 1_000)]
CODECS = ("zstd", "snappy", "lz4", "none")


def _best(f, repeat: int):
    best, out = float("inf"), None
    for _ in range(repeat):
        c = time.thread_time()
        out = f()
        best = min(best, time.thread_time() - c)
    return best, out


def measure(args, name: str, strategies: str, games: int) -> dict:
    """One line-up and chunk size: the row of the CSV."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from tajsim.running.aggregates import Aggregates
    from tajsim.running.chunk import play_chunk_arrays
    from tajsim.running.config import RunConfig
    from tajsim.running.records import _arrow, results_columns, results_table

    config = RunConfig.make(game=args.game, games=2 * games, players=4, strategies=strategies,
                            seed=args.seed, chunk_size=games)
    task = config.task()
    play_chunk_arrays(task, 1)  # the kernels loaded
    play, (res, st, lu) = _best(lambda: play_chunk_arrays(task, 0), max(1, args.repeat // 3))
    agg, _ = _best(lambda: Aggregates.from_records(task, res, st, lu), args.repeat)
    old, _ = _best(lambda: pa.table({k: _arrow(v) for k, v in results_columns(
        task, res, st, lu).items()}), args.repeat)
    new, table = _best(lambda: results_table(task, res, st, lu), args.repeat)
    row = {"game": args.game, "lineup": name, "strategies": strategies, "chunk_games": games,
           "play_s": play, "aggregates_s": agg, "table_old_s": old, "table_new_s": new}

    def write(codec: str) -> bytes:
        buf = io.BytesIO()
        pq.write_table(table, buf, compression=codec)
        return buf.getvalue()

    for codec in CODECS:
        seconds, data = _best(lambda c=codec: write(c), args.repeat)
        row[f"parquet_{codec}_s"] = seconds
        row[f"parquet_{codec}_bytes"] = len(data)
    row["records_share_old"] = (agg + old + row["parquet_zstd_s"]) / play
    row["records_share_new"] = (agg + new + row["parquet_snappy_s"]) / play
    row["load_avg"] = common.load_avg()
    return row


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=9, quick_repeat=3)
    args = common.parse(p, argv)
    rows = []
    for name, strategies, games in CASES:
        row = measure(args, name, strategies, games)
        rows.append(row)
        common.log(f"{name} {games:,} games: play {row['play_s']:.4f} s, aggregates "
                   f"{row['aggregates_s']:.4f}, table old {row['table_old_s']:.4f} new "
                   f"{row['table_new_s']:.4f}, Parquet " + ", ".join(
                       f"{c} {row[f'parquet_{c}_s']:.4f} ({row[f'parquet_{c}_bytes'] / 1e3:,.0f}"
                       " kB)" for c in CODECS)
                   + f"; records / play: old {row['records_share_old']:.2f}, new "
                   f"{row['records_share_new']:.2f}")
    common.write_csv("records", rows, args)


if __name__ == "__main__":
    main()
