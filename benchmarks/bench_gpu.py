"""Games per second on a CUDA GPU against one CPU core and all cores, with compile times.

For each player count (2-5 for Taj Mahal; ``--players`` picks some) and each line-up (``random``
in every seat, and a heuristic line-up: ``balanced`` and the game's next four hand-written
strategies in registry order, cut to the table; for Taj Mahal ``balanced,greedy,commodity,
network,hoarder``), the same games are played

* on the GPU: the batch kernel (:mod:`tajsim.engine.gpu`) launched on ``--gpu-games`` games,
  best of ``--repeat`` (transfers of the inputs and records included, as the runner sees it);
* on one CPU core: ``play_batch`` (one thread);
* on every core: ``play_batch_parallel`` (numba threads);

and the GPU's records of the first ``--check-games`` games are compared with the CPU's, byte for
byte (``records`` column). The GPU compile time is the first launch of each kernel (random, and
with the heuristic family) in this process: numba-cuda typing, libNVVM and the driver's PTX load.
``--blocks`` tries other block sizes for the 4-player line-ups (occupancy against local memory).
``--coverage`` then plays every strategy the GPU plays (all but search, ``learned`` included), in
groups of up to four at each edition's largest table, and compares those records with the CPU's
too (rows ``gpu coverage``): the equality the simulator tests check, on the GPU's own arithmetic.

Without a GPU this script says so and exits 0 having measured nothing; ``--simulator`` then runs
a tiny size in numba-cuda's simulator (it re-runs itself with ``NUMBA_ENABLE_CUDASIM=1``) only to
show the path works: those rows are labelled ``simulator`` and their speeds mean nothing.

Profiling on the GPU machine (where the limit is: memory traffic, divergence, registers)::

    ncu --set full -k regex:_batch -c 2 python benchmarks/bench_gpu.py --profile
    nsys profile python benchmarks/bench_gpu.py --profile

``--profile`` makes two launches (random and heuristic, 4 players) and nothing else.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import common
import numpy as np

HEURISTIC_LINEUP = ("balanced", "greedy", "commodity", "network", "hoarder")  # Taj Mahal's
TARGETS = {("random", 4): 5_000_000, ("heuristic", 4): 250_000}  # games/s, issue 15


def lineup_arrays(spec, labels):
    ids, params = [], []
    for label in dict.fromkeys(labels):
        strategy, vec = spec.strategies.parse(label)
        ids.append(strategy.strategy_id)
        params.append(vec)
    order = list(dict.fromkeys(labels))
    return (np.asarray(ids, np.int64), np.ascontiguousarray(np.asarray(params, np.float64)),
            order)


def heuristic_lineup(spec) -> list[str]:
    """``balanced`` (where the game has it) and the next hand-written strategies of ``spec`` in
    registry order, five at most (no search, ``random``, ``learned`` or ``net``): for Taj Mahal
    :data:`HEURISTIC_LINEUP`."""
    names = [s.name for s in spec.strategies.all()
             if "search" not in s.tags and "cpu_only" not in s.tags
             and s.name not in ("random", "learned", "net")]
    names.sort(key=lambda name: name != "balanced")  # stable: balanced first, then in order
    return names[:5]


def gpu_strategy_groups(spec, seats: int) -> list[list[str]]:
    """Every strategy the GPU plays, in groups of ``seats``, the last group filled with
    ``random``."""
    names = [s.name for s in spec.strategies.all()
             if "search" not in s.tags and "cpu_only" not in s.tags]
    groups = [names[k:k + seats] for k in range(0, len(names), seats)]
    groups[-1] += ["random"] * (seats - len(groups[-1]))
    return groups


def games_of(spec, labels, players, G, first=0):
    ids, params, order = lineup_arrays(spec, labels)
    seats = [order.index(s) for s in labels]
    g = np.arange(first, first + G, dtype=np.int64)
    lineups = np.asarray([[seats[(p + k) % players] for p in range(players)]
                          for k in range(min(G, players))], np.int64)
    lineups = lineups[np.arange(G) % lineups.shape[0]]
    return g, lineups, ids, params


def play_cpu(spec, comp, players, seed, g, lineups, ids, params, threads, rules=0):
    results = np.zeros(g.shape[0] * players, spec.result_dtype)
    setups = np.zeros(g.shape[0], spec.setup_dtype)
    switches = spec.strategies.kernel_switches(ids)
    t = time.perf_counter()
    if threads > 1:
        spec.kernels.play_batch_parallel(comp, players, rules, seed, g, g, lineups, ids, params,
                                         results, setups, min(g.shape[0], threads * 8),
                                         *switches)
    else:
        spec.kernels.play_batch(comp, players, rules, seed, g, g, lineups, ids, params, results,
                                setups, *switches)
    return time.perf_counter() - t, results, setups


def play_gpu(spec, comp, players, seed, g, lineups, ids, params, block=None, rules=0):
    from tajsim.engine.gpu import line_up_switches, play_batch_gpu

    results = np.zeros(g.shape[0] * players, spec.result_dtype)
    setups = np.zeros(g.shape[0], spec.setup_dtype)
    heuristics, net = line_up_switches(spec, ids, params)  # outside the timed launch
    t = time.perf_counter()
    play_batch_gpu(spec, comp, players, rules, seed, g, g, lineups, ids, params, results, setups,
                   heuristics, block=block, net=net)
    return time.perf_counter() - t, results, setups


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=1)
    p.add_argument("--gpu-games", type=int, default=None,
                   help="games per GPU launch (default 1,048,576 random, 131,072 heuristic; "
                        "--quick: 65,536 / 16,384)")
    p.add_argument("--cpu-seconds", type=float, default=2.0,
                   help="about this long per CPU measurement (default 2 s)")
    p.add_argument("--cpu-threads", default="1,all",
                   help="the CPU rows: numba threads, comma-separated ('all': every core)")
    p.add_argument("--check-games", type=int, default=4096)
    p.add_argument("--blocks", default="64,128,256",
                   help="block sizes tried for the 4-player line-ups (comma-separated)")
    p.add_argument("--players", default=None,
                   help="player counts to measure, comma-separated (default: every count)")
    p.add_argument("--coverage", action="store_true",
                   help="also compare GPU and CPU records for every strategy the GPU plays")
    p.add_argument("--lock", type=Path, default=None,
                   help="measure while holding this file's lock (flock): several games' runs "
                        "started together compile at once, then measure one at a time")
    p.add_argument("--simulator", action="store_true",
                   help="without a GPU: a tiny run in numba-cuda's simulator (no speeds)")
    p.add_argument("--profile", action="store_true",
                   help="two launches for a profiler (ncu / nsys), nothing measured")
    args = common.parse(p, argv)

    from tajsim.engine.gpu import DEFAULT_BLOCK, check_device
    from tajsim.engine.targets import simulated
    from tajsim.errors import UserError
    from tajsim.games.registry import get_game

    spec = get_game(args.game)
    sim = simulated()
    low, high = spec.players[spec.default_edition]
    counts = list(range(low, high + 1))
    if args.players:
        asked = [int(n) for n in args.players.split(",") if n.strip()]
        wrong = [n for n in asked if n not in counts]
        if wrong:
            p.error(f"--players {args.players}: {wrong} not in {counts} ({spec.title}, "
                    f"edition {spec.default_edition})")
        counts = asked
    try:
        check_device()
    except UserError as exc:
        common.log(f"no GPU here ({exc}): GPU speeds not measured")
        if args.simulator and not sim:
            env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
            again = list(argv if argv is not None else sys.argv[1:])
            sys.exit(subprocess.run([sys.executable, __file__, *again], env=env,
                                    check=False).returncode)
        return
    comp = np.asarray(spec.components.default().packed(), np.int64)
    if args.profile:
        for labels in (["random"] * 4, heuristic_lineup(spec)[:4]):
            g, lineups, ids, params = games_of(spec, labels, 4, 65_536)
            play_gpu(spec, comp, 4, args.seed, g, lineups, ids, params)
        return
    if sim:
        common.log("SIMULATOR: numba-cuda runs the device code as Python; the rows below only "
                   "show the path works, their speeds mean nothing")
    lineups = {"random": ["random"], "heuristic": heuristic_lineup(spec) * 2}
    args.cpu_threads = sorted({common.cores() if t.strip() == "all" else int(t)
                               for t in args.cpu_threads.split(",") if t.strip()})
    # Everything is compiled before the measurements (and before the lock): the GPU kernels at
    # their first launch (typing, libNVVM, the driver's PTX load), timed; the CPU kernels (one
    # thread, each --cpu-threads count, and the coverage line-ups) untimed.
    compile_s = {}
    for kind, labels in lineups.items():
        w = games_of(spec, (labels * 4)[:4], 4, 4 if sim else DEFAULT_BLOCK)
        compile_s[kind], _, _ = play_gpu(spec, comp, 4, args.seed, *w)
        common.log(f"GPU compile + first launch ({kind}): {compile_s[kind]:.1f} s")
        for threads in {1, *args.cpu_threads}:
            play_cpu(spec, comp, 4, args.seed, *w, threads)
    if args.coverage:
        for labels in gpu_strategy_groups(spec, 4):
            play_cpu(spec, comp, 4, args.seed, *games_of(spec, labels, 4, 4), 1)
    with held(args.lock):
        rows = measure(spec, comp, args, counts, lineups, compile_s, sim)
        if args.coverage:
            rows += coverage_rows(spec, comp, args, sim)
    common.write_csv("gpu_simulator" if sim else "gpu", rows, args)
    if args.check:
        common.fail_on([f"{r['players']}p {r['lineup']} block {r['block']}: records differ"
                        for r in rows if r.get("records_identical") is False]
                       + [f"{r['edition']} {r['players']}p {r['strategies']}: records differ"
                          for r in rows if r.get("coverage_identical") is False],
                       "GPU records == CPU records")


@contextlib.contextmanager
def held(lock: Path | None) -> Iterator[None]:
    """Hold ``lock``'s exclusive ``flock`` (nothing when ``None``)."""
    if lock is None:
        yield
        return
    with open(lock, "a") as handle:
        common.log(f"waiting for {lock} ...")
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def measure(spec, comp, args, counts, lineups, compile_s, sim) -> list[dict]:
    """The GPU and CPU rows of every player count and line-up (kernels already compiled)."""
    from tajsim.engine.gpu import DEFAULT_BLOCK

    rows = []
    for players in counts:
        for kind in ("random", "heuristic"):
            labels = (lineups[kind] * players)[:players]
            if sim:
                G = 4
            else:
                default = (1 << 20) if kind == "random" else (1 << 17)
                G = args.gpu_games or (default >> 4 if args.quick else default)
            g, seating, ids, params = games_of(spec, labels, players, G)
            blocks = [None]
            if players == 4 and not sim:
                blocks += [int(b) for b in args.blocks.split(",") if b.strip()]
            for block in blocks:
                times = []
                for _ in range(max(1, args.repeat)):
                    t, results, setups = play_gpu(spec, comp, players, args.seed, g, seating,
                                                  ids, params, block)
                    times.append(t)
                best = min(times)
                n_check = min(G, args.check_games)
                _, r_cpu, s_cpu = play_cpu(spec, comp, players, args.seed, g[:n_check],
                                           seating[:n_check], ids, params, 1)
                same = (r_cpu.tobytes() == results[:n_check * players].tobytes()
                        and s_cpu.tobytes() == setups[:n_check].tobytes())
                row = {"device": "simulator" if sim else "gpu", "players": players,
                       "lineup": kind, "strategies": ",".join(labels),
                       "block": block or DEFAULT_BLOCK, "games": G, "seconds": best,
                       "games_per_s": G / best, "records_identical": same,
                       "checked_games": n_check, "compile_s": compile_s[kind],
                       "target_games_per_s": TARGETS.get((kind, players), ""),
                       "load_avg": common.load_avg()}
                common.log(f"{row['device']} {players}p {kind} block {row['block']}: "
                           f"{row['games_per_s']:,.0f} games/s, records identical: {same}")
                rows.append(row)
            # the CPU, one core and every core, on games sized to about --cpu-seconds
            per_game = 60e-6 if kind == "random" else 500e-6
            n_cpu = 8 if sim else max(200, int(args.cpu_seconds / per_game))
            gc, lc, _, _ = games_of(spec, labels, players, n_cpu)
            for threads in args.cpu_threads:
                play_cpu(spec, comp, players, args.seed, gc[:50], lc[:50], ids, params,
                         threads)  # compiled outside the timing
                t = min(play_cpu(spec, comp, players, args.seed, gc, lc, ids, params,
                                 threads)[0] for _ in range(max(1, args.repeat)))
                rows.append({"device": f"cpu x{threads}", "players": players, "lineup": kind,
                             "strategies": ",".join(labels), "games": n_cpu, "seconds": t,
                             "games_per_s": n_cpu / t, "load_avg": common.load_avg()})
                common.log(f"cpu x{threads} {players}p {kind}: {n_cpu / t:,.0f} games/s")
    return rows


def coverage_rows(spec, comp, args, sim: bool) -> list[dict]:
    """GPU against CPU records for every strategy the GPU plays, at each edition's largest
    table: ``--check-games`` games a group (8 in the simulator)."""
    rows = []
    for edition in spec.editions:
        players = min(spec.players[edition][1], 4)
        rules = spec.rules_code(edition)
        for labels in gpu_strategy_groups(spec, players):
            G = 8 if sim else args.check_games
            games = games_of(spec, labels, players, G)
            _, gpu_r, gpu_s = play_gpu(spec, comp, players, args.seed, *games, rules=rules)
            _, cpu_r, cpu_s = play_cpu(spec, comp, players, args.seed, *games, 1, rules=rules)
            same = cpu_r.tobytes() == gpu_r.tobytes() and cpu_s.tobytes() == gpu_s.tobytes()
            rows.append({"device": "simulator coverage" if sim else "gpu coverage",
                         "edition": edition, "players": players, "lineup": "coverage",
                         "strategies": ",".join(labels), "games": G,
                         "coverage_identical": same, "load_avg": common.load_avg()})
            common.log(f"coverage {edition} {players}p {','.join(labels)}: {G} games, "
                       f"records identical: {same}")
    return rows


if __name__ == "__main__":
    main()
