"""Every core busy: the runner's default local mode against what the machine itself allows.

For each line-up (cheap, heuristic, search) and with and without records:

1. **lone**: one process plays a fixed batch on one core (the game's ``play_batch``), alone;
2. **machine**: ``W`` independent single-core processes play the same batch at the same moment
   (a shared start time): the sum of their rates is what the machine allows with W busy cores
   (a VM's shared hardware, turbo and memory bandwidth make it less than W x lone); ``machine /
   (W x lone)`` is the machine's own efficiency;
3. **tajsim**: ``run_simulation`` with ``W`` workers in the default local mode (threads), records
   written to a run directory (``--records``) or aggregates only, timed after a warm-up run that
   loads the kernels; chunks sized by the runner's default (by the line-up's expected cost).

``efficiency = tajsim / machine`` is the figure the goal is set on (at least 0.95): how much of
what the machine allows the runner gets. The independent processes play without records, so
``efficiency`` with records also charges the runner for building and writing the rows.

``--check`` verifies that the W-worker run gives the same records (or aggregates) as one worker.

``--alternate ROUNDS [--modes threads processes]`` (issue 42) measures instead, in rounds: the
machine, then the runner with records off and on in each mode, one after the other, so that a
changing load weighs on every variant alike; each row's ``efficiency`` is against its own
round's machine (``scaling_records.csv``), and the log ends with each variant's median.
Works on any number of cores (2 here; the issue's table came from 16).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common

#: name -> (strategies, players, seconds of one core per timed run per worker), Taj Mahal's
LINEUPS = {
    "random": ("random", 4, 2.0),
    "heuristic": ("balanced,greedy,commodity,random", 4, 2.0),
    "search": ("ismcts:iterations=60,balanced,balanced,balanced", 4, 4.0),
}
#: The other games' heuristic line-ups (issue 42's: four hand-written strategies each)
HEURISTICS = {"maharaja": "balanced,greedy,rusher,tollroad",
              "maharani": "balanced,greedy,zones,artisans"}


def lineup(game: str, name: str) -> tuple[str, int, float]:
    """``LINEUPS[name]`` for ``game``: its own heuristic line-up (``HEURISTICS``)."""
    strategies, players, seconds = LINEUPS[name]
    if name == "heuristic":
        strategies = HEURISTICS.get(game, strategies)
    return strategies, players, seconds

CHILD = r"""
import json, sys, time
from tajsim.running.benchmarking import make_batch
game, strategies, players, games, seed, start_at = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                                                   int(sys.argv[4]), int(sys.argv[5]),
                                                   float(sys.argv[6]))
batch = make_batch(games, players, strategies, seed=seed, game=game)
batch.slice(0, min(2, games)).run(1)  # load the kernels
out = batch.outputs()
while time.time() < start_at:
    time.sleep(0.001)
t0, c0 = time.perf_counter(), time.process_time()
batch.run(1, out=out)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"rate": games / wall, "wall": wall, "cpu": cpu}))
"""


def _independent(game: str, strategies: str, players: int, games: int, seed: int,
                 processes: int) -> list[dict]:
    """Rates of ``processes`` single-core processes started together on the same batch."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(common.REPO),
                                                       os.environ.get("PYTHONPATH", "")]),
               NUMBA_NUM_THREADS="1")
    # after every child has loaded the kernels (from the cache, all at once: 16 take ~5 s)
    start_at = time.time() + 6.0 + 0.75 * processes
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, game, strategies, str(players),
                               str(games), str(seed + k), str(start_at)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k in range(processes)]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=1800)
        if proc.returncode != 0:
            raise SystemExit(f"independent process failed:\n{stderr[-2000:]}")
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def _tajsim(game: str, strategies: str, players: int, games: int, seed: int, workers: int,
            records: bool, out_root: Path, mode: str | None = None) -> tuple[float, object]:
    from tajsim.running.simulate import run_simulation

    out = out_root / f"run-{records}-{workers}-{time.monotonic_ns()}" if records else None
    t0 = time.perf_counter()
    result = run_simulation(games, players, strategies, seed=seed, game=game, workers=workers,
                            out=out, records=records, load_records=False, progress=False,
                            mode=mode)
    return time.perf_counter() - t0, result


def alternate(args, workers: int, modes: list[str], rounds: int) -> list[dict]:
    """Records on and off, in every mode, alternated in rounds in this process: each round
    measures the machine (``workers`` independent processes) and then each (mode, records)
    run once, so a load that changes during the measurement weighs on every variant alike.
    Returns one row per (line-up, round, mode, records): its rate against the round's machine.
    """
    from tajsim.running.benchmarking import estimate_game_seconds, make_batch

    rows = []
    with tempfile.TemporaryDirectory(prefix="tajsim-scaling-") as tmp:
        for name in args.lineups:
            strategies, players, seconds = lineup(args.game, name)
            if args.quick:
                seconds /= 4
            probe = make_batch(8, players, strategies, seed=args.seed, game=args.game)
            per_process = max(8, int(seconds / estimate_game_seconds(probe, 8)))
            games = per_process * workers
            for mode in modes:  # warm-up: kernels loaded
                _tajsim(args.game, strategies, players, min(games, 4 * workers), args.seed,
                        workers, True, Path(tmp), mode)
            for k in range(rounds):
                machine = sum(r["rate"] for r in _independent(
                    args.game, strategies, players, per_process, args.seed, workers))
                for mode in modes:
                    for records in (False, True):
                        wall, result = _tajsim(args.game, strategies, players, games, args.seed,
                                               workers, records, Path(tmp), mode)
                        row = {"game": args.game, "lineup": name, "strategies": strategies,
                               "players": players, "workers": workers, "round": k,
                               "mode": mode, "records": records, "games": games,
                               "chunk_size": result.config.chunk_size,
                               "machine_games_per_s": machine,
                               "tajsim_games_per_s": games / wall,
                               "efficiency": games / wall / machine,
                               "load_avg": common.load_avg()}
                        rows.append(row)
                        common.log(f"{name} round {k} {mode} records={records}: "
                                   f"{games / wall:,.0f} games/s, machine {machine:,.0f}, "
                                   f"efficiency {row['efficiency']:.2f} (load "
                                   f"{row['load_avg']:.1f})")
    for name in args.lineups:
        for mode in modes:
            for records in (False, True):
                eff = sorted(r["efficiency"] for r in rows if r["lineup"] == name
                             and r["mode"] == mode and r["records"] == records)
                common.log(f"{name} {mode} records={records}: efficiency median "
                           f"{eff[len(eff) // 2]:.2f} (range {eff[0]:.2f}-{eff[-1]:.2f}, "
                           f"{len(eff)} rounds)")
    return rows


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=2, quick_repeat=1)
    p.add_argument("--lineups", nargs="+", choices=list(LINEUPS), default=list(LINEUPS))
    p.add_argument("--workers", type=int, default=None, help="cores (default: all)")
    p.add_argument("--records", choices=("both", "on", "off"), default="both")
    p.add_argument("--alternate", type=int, default=0, metavar="ROUNDS",
                   help="instead: ROUNDS rounds of the machine, then records off and on in "
                        "each --modes, alternated (ratios against each round's machine)")
    p.add_argument("--modes", nargs="+", default=["threads"],
                   help="local parallel modes for --alternate (default: threads)")
    args = common.parse(p, argv)
    from tajsim.running.benchmarking import estimate_game_seconds, make_batch

    workers = args.workers or common.cores()
    if args.alternate:
        common.write_csv("scaling_records", alternate(args, workers, args.modes,
                                                      args.alternate), args)
        return
    modes = {"both": (False, True), "on": (True,), "off": (False,)}[args.records]
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="tajsim-scaling-") as tmp:
        for name in args.lineups:
            strategies, players, seconds = lineup(args.game, name)
            if args.quick:
                seconds /= 4
            probe = make_batch(8, players, strategies, seed=args.seed, game=args.game)
            per_game = estimate_game_seconds(probe, 8)
            per_process = max(8, int(seconds / per_game))
            common.log(f"{name}: {per_game * 1e3:.2f} ms a game; {per_process} games a "
                       f"process, {workers} workers ...")
            lone = _independent(args.game, strategies, players, per_process, args.seed, 1)[0]
            machine = _independent(args.game, strategies, players, per_process, args.seed,
                                   workers)
            machine_rate = sum(r["rate"] for r in machine)
            games = per_process * workers
            for records in modes:
                _tajsim(args.game, strategies, players, min(games, 4 * workers), args.seed,
                        workers, records, Path(tmp))  # warm-up: kernels loaded, pools made
                best = None
                for _ in range(max(1, args.repeat)):
                    wall, result = _tajsim(args.game, strategies, players, games, args.seed,
                                           workers, records, Path(tmp))
                    best = (wall, result) if best is None or wall < best[0] else best
                wall, result = best
                rate = games / wall
                row = {
                    "game": args.game, "lineup": name, "strategies": strategies,
                    "players": players, "workers": workers, "records": records,
                    "games": games, "chunk_size": result.config.chunk_size,
                    "chunks": result.config.n_chunks, "lone_games_per_s": lone["rate"],
                    "machine_games_per_s": machine_rate,
                    "machine_efficiency": machine_rate / (workers * lone["rate"]),
                    "tajsim_games_per_s": rate, "efficiency": rate / machine_rate,
                    "scaling": rate / (workers * lone["rate"]),
                    "load_avg": common.load_avg(),
                }
                rows.append(row)
                common.log(f"  records={records}: tajsim {rate:,.0f} games/s, machine "
                           f"{machine_rate:,.0f} ({row['machine_efficiency']:.2f} of "
                           f"{workers} x lone {lone['rate']:,.0f}); efficiency "
                           f"{row['efficiency']:.2f}")
                if args.check:
                    _, one = _tajsim(args.game, strategies, players, games, args.seed, 1,
                                     records, Path(tmp))
                    if one.aggregates.to_bytes() != result.aggregates.to_bytes():
                        problems.append(f"{name} records={records}: {workers} workers differ "
                                        "from one worker")
    common.write_csv("scaling", rows, args)
    if args.check:
        common.fail_on(problems, f"{workers} workers == one worker")


if __name__ == "__main__":
    main()
