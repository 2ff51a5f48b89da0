"""Play many random Maharani games through the invariant checks after every action.

Usage (from the repository root)::

    PYTHONPATH=. python tests/games/maharani/maharani_check_many.py   # 10^5 per count
    PYTHONPATH=. python tests/games/maharani/maharani_check_many.py --games 2000 --python-sample 50

For each player count (2, 3, 4) and rule code, ``--games`` random games (the ``random``
strategy: the same games as the batch runner's) go through the compiled checks of
``engine.invariants_nb`` after every action: every invariant of ``check_state``, the legal list
against a loop reference, zone and group gold against flood fills, gold never falling but for a
second tile. The first ``--python-sample`` games of each count are also checked step by step by
the pure-Python reference (``tajsim.play.conformance.check_kernel_game`` with the spec's
``check_state``, ``check_legal`` = ``expected_legal``, ``check_step``: breadth-first flood
fills), which the compiled twin is tested against. Prints the games checked, the violations by
invariant, and the time; exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.engine.invariants_nb import INVARIANT_NAMES, check_games_nb
from tajsim.games.registry import get_game
from tajsim.play.conformance import check_kernel_game

RULES = {"default": 0, "target_marker": E.OPT_TARGET_MARKER, "free_refresh": E.OPT_FREE_REFRESH,
         "round_end": E.OPT_ROUND_END}
SPEC = get_game("maharani")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per player count")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--rules", default="default", help=f"one of {', '.join(RULES)}")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--python-sample", type=int, default=200,
                        help="games per player count also checked by the Python reference")
    parser.add_argument("--chunk", type=int, default=10_000)
    args = parser.parse_args(argv)
    comp = default_components().packed()
    rules = RULES[args.rules]
    total_bad = 0
    check_games_nb(comp, 2, rules, 0, np.arange(1, dtype=np.int64), np.zeros(1, np.int64),
                   np.zeros(1, np.int64))  # compile before timing
    print(f"maharani check_many: {args.games} random games per player count, rules "
          f"{args.rules}, seed {args.seed}")
    for n in (int(x) for x in args.players.split(",")):
        codes = np.zeros(args.games, np.int64)
        steps = np.zeros(args.games, np.int64)
        t0 = time.perf_counter()
        for lo in range(0, args.games, args.chunk):
            hi = min(lo + args.chunk, args.games)
            check_games_nb(comp, n, rules, args.seed, np.arange(lo, hi, dtype=np.int64),
                           codes[lo:hi], steps[lo:hi])
        dt = time.perf_counter() - t0
        bad = np.flatnonzero(codes)
        total_bad += bad.size
        print(f"  {n} players: {args.games} games, {int(steps.sum())} actions checked, "
              f"{bad.size} violations, {dt:.1f} s ({args.games / dt:,.0f} games/s)")
        for code in sorted(set(codes[bad].tolist())):
            first = bad[codes[bad] == code][0]
            print(f"    {np.sum(codes == code)} x {INVARIANT_NAMES[code]} (first: game "
                  f"{first}, step {steps[first]})")
        t0 = time.perf_counter()
        py_bad = 0
        for g in range(min(args.python_sample, args.games)):
            try:
                options = {args.rules: True} if rules else None
                check_kernel_game(SPEC, n, None, args.seed, g, "random", comp, options=options)
            except AssertionError as exc:
                py_bad += 1
                print(f"    python reference: {exc}")
        total_bad += py_bad
        dt = time.perf_counter() - t0
        print(f"  {n} players: first {min(args.python_sample, args.games)} games also through "
              f"the Python reference: {py_bad} violations, {dt:.1f} s")
    print(f"total violations: {total_bad}")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
