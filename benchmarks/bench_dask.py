"""Throughput through a Dask ``LocalCluster`` against the local runner, for the same run.

A ``LocalCluster`` with one single-threaded worker process per core runs ``run_simulation(...,
scheduler=client, records=False)``; the local runner runs the same games with ``workers=cores``
(its default mode, Python threads; and its process pool). Cluster start-up and a warm-up run
(workers load the compiled kernels) are measured apart and excluded; the timed runs are
interleaved (one of each per round), best of ``--repeat``, elapsed time.

``--check``: every path must give the same aggregates (the summary table) as the one-worker
local run.
"""

from __future__ import annotations

import time

import common


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=2)
    p.add_argument("--games", type=int, default=None, help="games per run (default 60000; "
                                                             "quick 6000)")
    p.add_argument("--strategies", default="random")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--workers", type=int, default=None, help="cores (default: all)")
    args = common.parse(p, argv)
    games = args.games or (6_000 if args.quick else 60_000)
    cores = args.workers or common.cores()

    import logging

    from distributed import Client, LocalCluster

    from tajsim.running.simulate import run_simulation

    def run(**kw):
        return run_simulation(games, args.players, args.strategies, seed=args.seed,
                              records=False, progress=False, **kw)

    common.log(f"local warm-up, then a LocalCluster of {cores} workers ...")
    run_simulation(200, args.players, args.strategies, seed=args.seed, records=False,
                   progress=False, workers=1)
    t0 = time.perf_counter()
    cluster = LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster, set_as_default=False)
    startup = time.perf_counter() - t0
    t0 = time.perf_counter()
    run_simulation(20 * cores, args.players, args.strategies, seed=args.seed, records=False,
                   progress=False, scheduler=client, chunk_size=10)
    warm = time.perf_counter() - t0
    common.log(f"  cluster up in {startup:.1f} s, workers warm in {warm:.1f} s")
    paths = {
        "local threads": dict(workers=cores, mode="threads"),
        "local processes": dict(workers=cores, mode="processes"),
        "dask LocalCluster": dict(scheduler=client),
    }
    times: dict[str, list[float]] = {k: [] for k in paths}
    summaries: dict[str, object] = {}
    try:
        for k in range(max(0, args.warmup) + max(1, args.repeat)):
            for name, kw in paths.items():
                t0 = time.perf_counter()
                result = run(**kw)
                dt = time.perf_counter() - t0
                if k >= args.warmup:
                    times[name].append(dt)
                summaries[name] = result.summary()
    finally:
        client.close()
        cluster.close()
    rows, problems = [], []
    local = min(times["local threads"])
    for name, ts in times.items():
        best = min(ts)
        rows.append({"path": name, "games": games, "players": args.players,
                     "strategy": args.strategies, "seed": args.seed, "cores": cores,
                     "seconds": best, "games_per_s": games / best,
                     "relative_to_local_threads": local / best,
                     "spread": (max(ts) - best) / best,
                     "cluster_startup_s": startup if "dask" in name else "",
                     "worker_warmup_s": warm if "dask" in name else "",
                     "load_avg": common.load_avg()})
        common.log(f"  {name:>18}: {games / best:10,.0f} games/s ({local / best:.2f} x local "
                   "threads)")
    if args.check:
        import pandas as pd

        ref = run(workers=1).summary()
        for name, summary in summaries.items():
            try:
                pd.testing.assert_frame_equal(summary, ref)
            except AssertionError as exc:
                problems.append(f"{name}: summary differs from one worker: "
                                f"{str(exc).splitlines()[0]}")
    common.write_csv("dask", rows, args)
    if args.check:
        common.fail_on(problems, "dask and local runner aggregates == one-worker run")


if __name__ == "__main__":
    main()
