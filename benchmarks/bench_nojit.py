"""Compiled against uncompiled: the same engine and strategies with ``NUMBA_DISABLE_JIT=1``.

A child process with ``NUMBA_DISABLE_JIT=1`` plays a small sample of games through
``play_batch_nb`` (the kernels run as plain Python/numpy; best of ``--repeat``); this process
plays the same games compiled (best of 30 runs). The ratio of seconds per game (CPU time of the
playing thread) is the speed-up of compilation. The records of the sample are hashed in both
processes: ``--check`` fails unless they are identical (the interpreter is an independent check
of the compiled code, not only of its speed).

The uncompiled run passes the record arrays as ``numpy.recarray`` views: ``write_records_nb``
sets fields as attributes, which plain structured-array elements do not support outside numba.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import common

SAMPLES = {"random": 20, "greedy": 4, "balanced": 4}
QUICK_SAMPLES = {"random": 4, "greedy": 1, "balanced": 1}


def child(strategy: str, players: int, games: int, seed: int, repeat: int,
          game: str = "tajmahal") -> None:
    """Run in the NUMBA_DISABLE_JIT=1 process: time the sample, print JSON."""
    import time

    import numpy as np

    from tajsim.running.benchmarking import make_batch, records_digest

    batch = make_batch(games, players, strategy, seed=seed, game=game)
    make_batch(1, players, strategy, seed=seed, game=game)  # warm the imports
    play_batch = batch.spec.kernels.play_batch
    best_wall = best_cpu = float("inf")
    digest = ""
    for _ in range(repeat):
        results, setups = batch.outputs()
        w0, c0 = time.perf_counter(), time.thread_time()
        play_batch(*batch.args(), results.view(np.recarray), setups.view(np.recarray),
                   *batch.switches())
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.thread_time() - c0)
        digest = records_digest(results, setups)
    print(json.dumps({"wall": best_wall, "cpu": best_cpu, "digest": digest,
                      "jit_disabled": os.environ.get("NUMBA_DISABLE_JIT") == "1"}))


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--strategies", nargs="+", default=list(SAMPLES))
    p.add_argument("--child", nargs=4, metavar=("STRATEGY", "PLAYERS", "GAMES", "SEED"),
                   help=argparse_hidden())
    args = common.parse(p, argv)
    if args.child:
        s, n, g, seed = args.child
        child(s, int(n), int(g), int(seed), args.repeat, args.game)
        return

    from tajsim.running.benchmarking import make_batch, records_digest, time_batch

    samples = QUICK_SAMPLES if args.quick else SAMPLES
    rows, problems = [], []
    for strategy in args.strategies:
        games = samples.get(strategy, 2)
        common.log(f"{strategy} x{args.players}: {games} games uncompiled ...")
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        cmd = [sys.executable, __file__, "--child", strategy, str(args.players), str(games),
               str(args.seed), "--repeat", str(args.repeat), "--game", args.game]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if out.returncode != 0:
            raise SystemExit(f"uncompiled run failed:\n{out.stderr}")
        nojit = json.loads(out.stdout.strip().splitlines()[-1])
        if not nojit["jit_disabled"]:
            raise SystemExit("the child process did not run with NUMBA_DISABLE_JIT=1")
        # compiled: the same games, many short timed runs (the best is the least disturbed)
        sample = make_batch(games, args.players, strategy, seed=args.seed, game=args.game)
        digest = records_digest(*sample.run(1))
        t = time_batch(sample, 1, repeat=30 if not args.quick else 5, warmup=args.warmup)
        jit_cpu = t.best("thread") / sample.games
        jit_wall = t.best("wall") / sample.games
        ratio = nojit["cpu"] / games / jit_cpu
        same = digest == nojit["digest"]
        if not same:
            problems.append(f"{strategy}: uncompiled records {nojit['digest']} != compiled "
                            f"{digest}")
        rows.append({
            "players": args.players, "strategy": strategy, "games_uncompiled": games,
            "compiled_runs": len(t.wall), "seed": args.seed,
            "s_per_game_uncompiled": nojit["cpu"] / games,
            "s_per_game_compiled": jit_cpu,
            "speedup": ratio,
            "speedup_wall": (nojit["wall"] / games) / jit_wall,
            "same_records": same, "target": 200, "load_avg": common.load_avg(),
        })
        common.log(f"  uncompiled {1e3 * nojit['cpu'] / games:.1f} ms/game, compiled "
                   f"{1e6 * jit_cpu:.1f} us/game: x{ratio:,.0f}; records "
                   f"{'identical' if same else 'DIFFERENT'}")
    common.write_csv("nojit", rows, args)
    if args.check:
        common.fail_on(problems, "uncompiled records == compiled records")


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    main()
