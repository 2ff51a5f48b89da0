"""Games per second of the Maharani batch kernel on one core (warm, after compilation).

Usage (from the repository root)::

    PYTHONPATH=. python experiments/maharani/bench.py [--games 20000] [--repeat 3] [--csv out.csv]

For each player count and line-up (every seat ``random``; every seat ``greedy``; every seat the
heuristic preset ``balanced``; optionally ``mcts``), the batch kernel ``play_batch_nb`` (one
thread) plays ``--games`` games ``--repeat`` times after a warm-up call; the best and the median
rate are reported, by wall clock and by the process's CPU time (``time.process_time``: games per
CPU-second, which does not count time spent waiting for a core on a shared machine). Taj Mahal's
kernel is timed the same way in the same run for comparison (random and greedy, when its modules
are importable).
"""

from __future__ import annotations

import argparse
import csv
import platform
import statistics
import sys
import time

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.play.nb import play_batch_nb
from tajsim.games.maharani.strategies.registry import REGISTRY


def time_maharani(name: str, n: int, games: int, repeat: int,
                  seed: int = 1) -> list[tuple[float, float]]:
    comp = default_components().packed()
    spec, params = REGISTRY.parse(name)
    ids = np.array([spec.strategy_id], np.int64)
    switches = REGISTRY.kernel_switches(ids)
    lineups = np.zeros((games, n), np.int64)
    gids = np.arange(games, dtype=np.int64)
    res = np.zeros(games * n, E.RESULT_DTYPE)
    setups = np.zeros(games, E.SETUP_DTYPE)
    play_batch_nb(comp, n, 0, seed, gids[:4], gids[:4], lineups[:4], ids, params[None, :],
                  res[:4 * n], setups[:4], *switches)  # compile / warm
    rates = []
    for r in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        play_batch_nb(comp, n, 0, seed + r, gids, gids, lineups, ids, params[None, :], res,
                      setups, *switches)
        rates.append((games / (time.perf_counter() - t0), games / (time.process_time() - c0)))
    return rates


def time_tajmahal(name: str, n: int, games: int, repeat: int,
                  seed: int = 1) -> list[tuple[float, float]]:
    from tajsim.engine import enums as TE
    from tajsim.engine.components import default_components as taj_components
    from tajsim.running.nb import play_batch_nb as taj_batch
    from tajsim.strategies.ids import kernel_switches
    from tajsim.strategies.registry import parse_strategy

    comp = taj_components().packed()
    spec, params = parse_strategy(name)
    ids = np.array([spec.strategy_id], np.int64)
    switches = kernel_switches(ids)
    lineups = np.zeros((games, n), np.int64)
    gids = np.arange(games, dtype=np.int64)
    res = np.zeros(games * n, TE.RESULT_DTYPE)
    setups = np.zeros(games, TE.SETUP_DTYPE)
    taj_batch(comp, n, 0, seed, gids[:4], gids[:4], lineups[:4], ids, params[None, :],
              res[:4 * n], setups[:4], *switches)
    rates = []
    for r in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        taj_batch(comp, n, 0, seed + r, gids, gids, lineups, ids, params[None, :], res, setups,
                  *switches)
        rates.append((games / (time.perf_counter() - t0), games / (time.process_time() - c0)))
    return rates


def report(rows: list, game: str, name: str, n: int, games: int,
           rates: list[tuple[float, float]]) -> None:
    wall = [w for w, _ in rates]
    cpu = [c for _, c in rates]
    rows.append((game, name, n, games, max(wall), statistics.median(wall), max(cpu),
                 statistics.median(cpu)))
    print(f"{game:<9} {n}p {name:>9}: wall {max(wall):>9,.0f} best {statistics.median(wall):>9,.0f}"
          f" median | cpu {max(cpu):>9,.0f} best {statistics.median(cpu):>9,.0f} median games/s"
          f" ({games} games)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="random games per timing")
    parser.add_argument("--heuristic-games", type=int, default=4_000)
    parser.add_argument("--mcts-games", type=int, default=0, help="0: skip mcts")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--no-tajmahal", action="store_true")
    parser.add_argument("--csv", default=None)
    args = parser.parse_args(argv)
    rows: list = []
    print(f"machine: {platform.processor() or platform.machine()}, python "
          f"{platform.python_version()}; one thread (play_batch_nb), best and median of "
          f"{args.repeat}; load average {open('/proc/loadavg').read().split()[0]}")
    plan = [("random", args.games), ("greedy", args.heuristic_games),
            ("balanced", args.heuristic_games)]
    if args.mcts_games:
        plan.append(("mcts", args.mcts_games))
    for n in (int(x) for x in args.players.split(",")):
        for name, games in plan:
            report(rows, "maharani", name, n, games, time_maharani(name, n, games, args.repeat))
    if not args.no_tajmahal:
        try:
            for name, games in (("random", args.games), ("greedy", args.heuristic_games)):
                report(rows, "tajmahal", name, 4, games,
                       time_tajmahal(name, 4, games, args.repeat))
        except ImportError as exc:  # the main tree moved its modules
            print(f"(Taj Mahal not timed: {exc})")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "strategy", "players", "games", "wall_best_per_s",
                        "wall_median_per_s", "cpu_best_per_s", "cpu_median_per_s"])
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
