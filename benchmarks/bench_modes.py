"""Measure the local parallel modes: ``python benchmarks/bench_modes.py``.

Plays the same run with 1 worker and with each parallel mode (numba ``prange`` threads, a pool
of Python threads over the ``nogil`` kernel, a pool of processes) and prints games per second
(best of ``--repeat`` interleaved rounds, after a warm-up that loads the compiled kernels) as
CSV. With ``--check``
it also asserts that every mode gives the same results as one worker. CPU seconds (this
process's threads and the pool's processes) and "cores busy" (CPU / (wall x workers)) show how
much of the machine a run got: below 1.00 the cores were shared with other work.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import common  # noqa: F401 - puts the checkout on sys.path

from tajsim.running.executors import available_cores
from tajsim.running.simulate import run_simulation


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python benchmarks/bench_modes.py", description=__doc__)
    ap.add_argument("--game", default="tajmahal")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategies", default="balanced,greedy,commodity,random")
    ap.add_argument("--workers", type=int, default=available_cores())
    ap.add_argument("--chunk-size", type=int, default=None)
    ap.add_argument("--records", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modes", default="threads,prange,processes")
    ap.add_argument("--check", action="store_true", help="compare every mode's aggregates")
    args = ap.parse_args(argv)

    settings = dict(games=args.games, players=args.players, strategies=args.strategies,
                    seed=1, chunk_size=args.chunk_size, records=args.records,
                    load_records=False, progress=False, game=args.game)
    run_simulation(**{**settings, "games": 64}, workers=1)  # warm-up: load the kernels
    plans = [("serial", 1)] + [(m, args.workers) for m in args.modes.split(",") if m]
    best = {plan: float("inf") for plan in plans}
    cpu = {plan: float("inf") for plan in plans}
    reference = None
    # Interleaved rounds, so every mode sees the same machine load; prange's rounds come last
    # because an OpenMP pool that has run keeps spinning on the other cores and slowed the runs
    # that followed it (25-30 % on a 2-vCPU VM), which flattered every speed-up.
    clean = [plan for plan in plans if plan[0] != "prange"]
    pooled = [plan for plan in plans if plan[0] == "prange"]
    rounds = [clean] * args.repeat + [pooled] * args.repeat
    for group in rounds:
        for mode, workers in group:
            t0, c0 = time.perf_counter(), _cpu()
            res = run_simulation(**settings, workers=workers,
                                 mode=None if mode == "serial" else mode)
            best[mode, workers] = min(best[mode, workers], time.perf_counter() - t0)
            cpu[mode, workers] = min(cpu[mode, workers], _cpu() - c0)
            if args.check:
                data = res.aggregates.to_bytes()
                reference = reference or data
                if data != reference:
                    print(f"MISMATCH: mode {mode} differs from one worker", file=sys.stderr)
                    return 1
    print("mode,workers,games,records,seconds,games_per_s,speedup,cpu_s,cpu_us_per_game,"
          "cores_busy")
    one = best[plans[0]]
    for (mode, workers), sec in best.items():
        c = cpu[mode, workers]
        print(f"{mode},{workers},{args.games},{args.records},{sec:.3f},{args.games / sec:.0f},"
              f"{one / sec:.2f},{c:.3f},{1e6 * c / args.games:.0f},{c / (sec * workers):.2f}")
    return 0


def _cpu() -> float:
    """CPU seconds of this process (all threads) and of its finished child processes."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    sys.exit(main())
