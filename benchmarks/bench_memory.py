"""Peak memory of a run with and without raw records, and whether it stays flat as the run grows.

Each measurement is a fresh child process (its peak resident set size, ``ru_maxrss`` from
``wait4``, covers the interpreter, the imports, the compiled kernels and the run):

* ``no records``: ``tajsim simulate --games N --no-records`` (only the mergeable aggregates);
* ``records on disk``: ``tajsim simulate --games N --out DIR`` (Parquet written chunk by chunk;
  the largest size only, except with ``--quick``);
* ``records in memory``: ``simulate(N)`` in Python, returning the whole results frame.

Every run uses the same chunk size (``--chunk-size``, default 10000: the runner's default for
runs of 320,000 games or more), so the sizes differ only in the number of games. Memory that
does not grow from 10^5 to 10^6 games is bounded; the figure for 10^8 games is an extrapolation
(a 10^8 run takes hours on this machine), stated as such in the table, its time from the CPU
time of the 10^6 run spread over every core. The elapsed time of each run gives the end-to-end
rate (CLI, chunking, aggregates included).

``--check``: the no-records run must print the same summary as the run of the same games with
records on disk.
"""

from __future__ import annotations

import os
import sys
import tempfile

import common


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=1, quick_repeat=1)
    p.add_argument("--sizes", type=int, nargs="+", default=None,
                   help="games of the no-records and on-disk runs (default 100000 1000000; "
                        "quick 10000 100000)")
    p.add_argument("--memory-sizes", type=int, nargs="+", default=None,
                   help="games of the in-memory runs (default 10000 100000; quick 10000)")
    p.add_argument("--strategies", default="random")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--chunk-size", type=int, default=10_000,
                   help="games per chunk of every run (default 10000, the runner's default for "
                        "runs of 320,000 games or more), so sizes differ only in game count")
    args = common.parse(p, argv)
    sizes = args.sizes or ([10_000, 100_000] if args.quick else [100_000, 1_000_000])
    mem_sizes = args.memory_sizes or ([10_000] if args.quick else [10_000, 100_000])
    py = sys.executable
    common_args = ["--players", str(args.players), "--strategies", args.strategies,
                   "--seed", str(args.seed), "--chunk-size", str(args.chunk_size)]
    rows, problems = [], []
    outputs: dict[tuple[str, int], str] = {}

    def record(kind: str, games: int, cmd: list[str]) -> None:
        common.log(f"{kind}: {games:,} games ...")
        best = None
        for _ in range(max(1, args.repeat)):
            r = common.run_child(cmd)
            best = r if best is None or r["peak_rss_mib"] < best["peak_rss_mib"] else best
        outputs[(kind, games)] = best["stdout"]
        rows.append({"kind": kind, "games": games, "players": args.players,
                     "strategy": args.strategies, "seed": args.seed,
                     "chunk_size": args.chunk_size, "peak_rss_mib": best["peak_rss_mib"],
                     "seconds": best["wall"], "cpu_seconds": best["cpu"],
                     "games_per_s_end_to_end": games / best["wall"],
                     "load_avg": common.load_avg()})
        common.log(f"  peak {best['peak_rss_mib']:,.0f} MiB, {best['wall']:.1f} s "
                   f"({best['cpu']:.1f} s CPU)")

    # baseline: the interpreter with tajsim's run path imported and its kernels loaded
    record("baseline (1 game)", 1,
           [py, "-m", "tajsim", "simulate", "--games", "1", "--no-records", *common_args])
    for games in sizes:
        record("no records", games, [py, "-m", "tajsim", "simulate", "--games", str(games),
                                      "--no-records", *common_args])
    with tempfile.TemporaryDirectory(prefix="tajsim-bench-mem-") as tmp:
        for games in sizes if args.quick else sizes[-1:]:
            out = os.path.join(tmp, f"run{games}")
            record("records on disk", games, [py, "-m", "tajsim", "simulate", "--games",
                                              str(games), "--out", out, *common_args])
    for games in mem_sizes:
        code = ("import sys; from tajsim.running.simulate import simulate; "
                f"df = simulate({games}, {args.players}, {args.strategies!r}, seed={args.seed},"
                f" chunk_size={args.chunk_size}, progress=False); "
                "print(len(df), df.memory_usage(deep=True).sum())")
        record("records in memory", games, [py, "-c", code])
    small = sizes[0] if args.quick else sizes[-1]
    if args.check:
        if outputs[("no records", small)] != outputs[("records on disk", small)]:
            problems.append(f"{small} games: the --no-records summary differs from the summary "
                            "of the run with records")
    # 10^8 games without records: extrapolated (flagged as such) from the two largest runs
    flat = [r for r in rows if r["kind"] == "no records"]
    if len(flat) >= 2:
        a, b = flat[-2], flat[-1]
        growth = (b["peak_rss_mib"] - a["peak_rss_mib"]) / (b["games"] - a["games"])
        # within 2 % of the peak: no growth with the game count (allocator noise)
        bounded = abs(b["peak_rss_mib"] - a["peak_rss_mib"]) <= 0.02 * b["peak_rss_mib"]
        per_game = 0.0 if bounded else max(0.0, growth)
        rate = b["games"] / b["cpu_seconds"] * common.cores()  # all cores busy, by CPU time
        rows.append({"kind": "no records (extrapolated)", "games": 10**8,
                     "players": args.players, "strategy": args.strategies, "seed": args.seed,
                     "chunk_size": args.chunk_size,
                     "peak_rss_mib": b["peak_rss_mib"] + per_game * (10**8 - b["games"]),
                     "seconds": 10**8 / rate, "games_per_s_end_to_end": rate,
                     "extrapolated": True, "bounded": bounded,
                     "mib_per_million_games": growth * 1e6, "load_avg": common.load_avg()})
    inmem = [r for r in rows if r["kind"] == "records in memory"]
    if len(inmem) >= 2 and inmem[-1]["games"] < max(sizes):
        a, b = inmem[-2], inmem[-1]
        slope = (b["peak_rss_mib"] - a["peak_rss_mib"]) / (b["games"] - a["games"])
        target = max(sizes)
        rows.append({"kind": "records in memory (extrapolated)", "games": target,
                     "players": args.players, "strategy": args.strategies, "seed": args.seed,
                     "chunk_size": args.chunk_size,
                     "peak_rss_mib": b["peak_rss_mib"] + slope * (target - b["games"]),
                     "seconds": b["seconds"] * target / b["games"],
                     "games_per_s_end_to_end": b["games_per_s_end_to_end"],
                     "extrapolated": True, "mib_per_million_games": slope * 1e6,
                     "load_avg": common.load_avg()})
    common.write_csv("memory", rows, args)
    if args.check:
        common.fail_on(problems, "no-records aggregates == aggregates with records")


if __name__ == "__main__":
    main()
