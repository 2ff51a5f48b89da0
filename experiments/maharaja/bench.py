"""Games per second of Maharaja's batch kernel on one core (warm, after compilation).

Usage (from the repository root)::

    PYTHONPATH=. python experiments/maharaja/bench.py [--players 4] [--repeat 3]
        [--games random=20000,balanced=2000,greedy=2000,hoarder=2000,search=20] [--check]

Each line-up is one strategy in every seat, played by ``play_batch_nb`` (the single-thread,
``nogil`` batch kernel) after a warm-up batch that compiles it; the best of ``--repeat`` runs
is reported, by the CPU time of this process (``time.process_time``: on a shared machine the
wall clock also counts the time other processes held the core) and by the wall clock.
``--check`` verifies that the games are real: every
game ended, scores equal the sum of their parts, one winner per game, and the same seed gives
the same records twice.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

import numba
import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.play.nb import play_batch_nb
from tajsim.games.maharaja.strategies.ids import kernel_switches
from tajsim.games.maharaja.strategies.registry import REGISTRY


def batch(comp, name: str, n_players: int, games: int, seed: int, first: int = 0):
    spec, params = REGISTRY.parse(name)
    ids = np.array([spec.strategy_id], np.int64)
    gids = np.arange(first, first + games, dtype=np.int64)
    res = np.zeros(games * n_players, E.RESULT_DTYPE)
    setups = np.zeros(games, E.SETUP_DTYPE)
    t, c = time.perf_counter(), time.process_time()
    play_batch_nb(comp, n_players, 0, seed, gids, gids, np.zeros((games, n_players), np.int64),
                  ids, params[None, :], res, setups, *kernel_switches(ids))
    return (time.perf_counter() - t, time.process_time() - c), res, setups


def check(res: np.ndarray, setups: np.ndarray, n_players: int) -> None:
    parts = np.stack([res[f"pts_{k}"] for k in E.PART_NAMES], axis=1)
    assert (parts.sum(axis=1) == res["score"]).all(), "score != sum of parts"
    assert (setups["end_cause"] != E.END_NONE).all(), "a game did not end"
    wins = res["winner"].reshape(-1, n_players).sum(axis=1)
    assert (wins == 1).all(), "not one winner per game"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", default="random=20000,greedy=2000,balanced=2000,"
                        "hoarder=2000,search=20")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    comp = default_components().packed()
    n = args.players
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numba {numba.__version__}; {n} players; one thread; best of {args.repeat}")
    for item in args.games.split(","):
        name, count = item.split("=")
        games = int(count)
        t0 = time.perf_counter()
        batch(comp, name, n, 2, args.seed, first=10**9)  # compile (or load from the cache)
        warm = time.perf_counter() - t0
        wall = cpu = float("inf")
        for _ in range(args.repeat):
            (dt, dc), res, setups = batch(comp, name, n, games, args.seed)
            wall, cpu = min(wall, dt), min(cpu, dc)
        if args.check:
            check(res, setups, n)
            _, res2, setups2 = batch(comp, name, n, min(games, 200), args.seed)
            assert res2.tobytes() == res[:res2.shape[0]].tobytes(), "not reproducible"
        rounds = float(setups["n_rounds"].mean())
        actions = float(setups["n_actions"].mean())
        print(f"{name:>10s}: {games / cpu:9.0f} games/s of CPU time, {games / wall:9.0f} by the "
              f"wall clock ({games} games; {rounds:.1f} rounds, {actions:.0f} actions a game; "
              f"compile/load {warm:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
