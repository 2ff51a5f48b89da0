"""Full games per second: 2-5 players, `random`, `greedy` and a heuristic preset, on one core
and on all cores (numba threads, ``prange``, and Python threads, the runner's default).

Each configuration is one batch of games with fixed seeds (game ids 0..G-1 of seed ``--seed``),
timed round-robin over the modes (one run of each mode per round) after compiling and
``--warmup`` untimed runs; every timed run is verified to have finished and recorded every game.
G is sized so that one single-core run takes about ``--seconds`` (``--games`` fixes it).

Columns: ``games_per_s`` from the best wall time; ``games_per_s_cpu`` from the best CPU time
(the calling thread's on one core, the process's divided by the threads on all cores: what the
work costs with the cores to itself); ``utilisation`` = CPU / (wall x threads) over the runs
(below 1: the cores were shared with other processes); ``scaling`` = all-core rate / (cores x
one-core rate), from wall times measured in the same rounds.

``--check`` also compares, for every configuration, the direct kernel call with ``simulate()``
(same seed and games, record for record) and the multi-core runs with the one-core run.
"""

from __future__ import annotations

import common

TARGETS = {"random": 100_000, "greedy": 25_000}  # 4 players, games per second per core
STRATEGIES = ("random", "greedy", "balanced")
PLAYERS = (2, 3, 4, 5)


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0])
    p.add_argument("--players", type=int, nargs="+", default=list(PLAYERS))
    p.add_argument("--strategies", nargs="+", default=list(STRATEGIES),
                   help="registered strategy names (one strategy in every seat)")
    p.add_argument("--seconds", type=float, default=None,
                   help="target seconds of one single-core timed run (default 0.4; quick 0.1)")
    p.add_argument("--games", type=int, default=None, help="games per run (overrides sizing)")
    p.add_argument("--check-games", type=int, default=None,
                   help="games compared with simulate() by --check (default 200; quick 40)")
    p.add_argument("--threads", type=int, default=None, help="cores for the all-core runs")
    args = common.parse(p, argv)
    seconds = args.seconds or (0.1 if args.quick else 0.4)
    check_games = args.check_games or (40 if args.quick else 200)

    from tajsim.running.benchmarking import (
        check_batch,
        estimate_game_seconds,
        make_batch,
        time_modes,
    )

    threads = args.threads or common.cores()
    modes = ("serial", "prange", "threads") if threads > 1 else ("serial",)
    rows = []
    problems: list[str] = []
    for strategy in args.strategies:
        for players in args.players:
            probe = make_batch(50, players, strategy, seed=args.seed, game=args.game)
            per_game = estimate_game_seconds(probe, 10 if args.quick else 30)
            games = args.games or common.size_games(per_game, seconds, 20, 200_000)
            # at least a few games per block of the parallel runs
            games = max(games, 16 * threads)
            batch = make_batch(games, players, strategy, seed=args.seed, game=args.game)
            common.log(f"{strategy} x{players}: {games} games per run ...")
            timings = time_modes(batch, threads, modes, args.repeat, args.warmup)
            one = timings["serial"]
            target = TARGETS.get(strategy) if players == 4 else None
            for mode, t in timings.items():
                n = 1 if mode == "serial" else threads
                clock = "thread" if n == 1 else "cpu"
                cpu_rate = t.work / (t.best(clock) / n)
                row = {
                    "players": players, "strategy": strategy, "cores": n,
                    "mode": "one core" if mode == "serial" else mode, "games": games,
                    "seed": args.seed,
                    "games_per_s": t.rate("wall"),
                    "games_per_s_median": t.rate("wall", "median"),
                    "games_per_s_per_core": t.rate("wall") / n,
                    "games_per_s_cpu": cpu_rate,
                    "us_per_game_per_core": 1e6 * n / t.rate("wall"),
                    "utilisation": t.utilisation(n),
                    "spread": t.spread("wall"),
                    "scaling": (t.rate("wall") / (n * one.rate("wall"))) if n > 1 else 1.0,
                    "scaling_cpu": (cpu_rate / (n * one.rate("thread"))) if n > 1 else 1.0,
                    "target_per_core": target or "",
                    "load_avg": common.load_avg(),
                }
                rows.append(row)
                common.log(f"  {row['mode']:>9}: {row['games_per_s']:10,.0f} games/s "
                           f"({row['games_per_s_cpu']:10,.0f} by CPU time), utilisation "
                           f"{row['utilisation']:.2f}, scaling {row['scaling']:.2f}")
            if args.check:
                small = make_batch(min(games, check_games), players, strategy, seed=args.seed)
                found = check_batch(small, threads)
                problems += [f"{strategy} x{players}: {x}" for x in found]
                common.log(f"  check {'FAILED' if found else 'ok'} ({small.games} games "
                           "against simulate() and serial vs parallel)")
    common.write_csv("throughput", rows, args)
    if args.check:
        common.fail_on(problems, "throughput runs == simulate()")


if __name__ == "__main__":
    main()
