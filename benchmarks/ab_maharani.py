"""Maharani before/after: this tree against another tree (issue 20), alternating the two.

For each of ``--rounds`` rounds, each tree in turn (base first, then this one):

* ``tajsim bench --game maharani -p 4 -s random -w 1`` and ``-s balanced``: games/s by the
  thread's CPU time (the machine may be shared: CPU time is what the work costs);
* ``mcts`` iterations per CPU second at equal settings (``--mcts``, default the registered
  ``mcts``: 300 iterations), over the same decisions (``--decisions`` states of 4-player games
  between ``balanced`` seats, fixed seeds): the same search in both trees.

Then the ratio after/before of the best of each tree. ``--compile``: also the cold compile
(a fresh, empty ``NUMBA_CACHE_DIR``) of ``tajsim simulate --games 4 -w 1`` with ``random`` and
with an ``mcts`` seat, once per tree.

    git archive 8f391ba tajsim | tar -x -C /tmp/p-mr-base
    python benchmarks/ab_maharani.py --base /tmp/p-mr-base --rounds 3 --compile
    python benchmarks/ab_maharani.py --curve 1,4,16,64 --curve-games 200,200,200,100

Each tree runs in its own processes (``PYTHONPATH`` = the tree) with its own numba cache (the
fingerprint differs), so the first round also compiles: the timed runs exclude compilation.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import common

HERE = Path(__file__).resolve()
RATE = re.compile(r"1 core\s.*CPU\s+([\d,]+) games/s")


def tree_env(tree: Path, cache_dir: str | None = None) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    env.pop("NUMBA_CACHE_DIR", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    return env


def run_in(tree: Path, cmd: list[str], cache_dir: str | None = None) -> dict:
    """``common.run_child`` with the working directory set to ``tree``: ``python -m`` puts the
    working directory first on the path, so from this checkout it would import this tree."""
    saved = common.REPO
    common.REPO = tree
    try:
        return common.run_child(cmd, tree_env(tree, cache_dir))
    finally:
        common.REPO = saved


def bench_rate(tree: Path, strategy: str, games: int) -> float:
    """One-core CPU games/s of ``tajsim bench`` (best of its 3 runs) in ``tree``."""
    cmd = [sys.executable, "-m", "tajsim", "bench", "--game", "maharani", "-p", "4", "-s",
           strategy, "-w", "1", "-n", str(games), "--repeat", "3"]
    out = run_in(tree, cmd)["stdout"]
    match = RATE.search(out)
    if match is None:
        raise SystemExit(f"no one-core rate in the output of {' '.join(cmd)}:\n{out}")
    return float(match.group(1).replace(",", ""))


def mcts_probe(strategy: str, n_decisions: int) -> None:
    """Print the iterations per CPU second of ``strategy`` (an mcts text) over fixed decisions,
    and a checksum of the actions chosen (equal settings must choose the same)."""
    # common put this checkout first on the path: the probe must import the tree it measures
    sys.path.insert(0, os.environ["PYTHONPATH"])
    import numpy as np

    from tajsim.games.maharani.engine import enums as E
    from tajsim.games.maharani.engine.components import default_components
    from tajsim.games.maharani.engine.nb import apply_action_nb, legal_actions_nb
    from tajsim.games.maharani.play.nb import start_game_nb
    from tajsim.games.maharani.strategies.mcts import mcts_policy_nb, new_workspace
    from tajsim.games.maharani.strategies.nb import choose_action_nb
    from tajsim.games.maharani.strategies.registry import REGISTRY

    comp = default_components().packed()
    _, heuristic = REGISTRY.parse("balanced")
    _, params = REGISTRY.parse(strategy)
    legal = np.empty(E.N_ACTIONS, np.int64)
    decisions = []
    game = 0
    while len(decisions) < n_decisions:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(comp, 4, 0, 7, game, game, state, prng)
        step = 0
        while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(decisions) < n_decisions:
            n = legal_actions_nb(state, comp, legal)
            p = int(state[E.S_CUR])
            if n > 1 and step % 9 == 4:
                decisions.append((state.copy(), prng.copy(), p, legal[:n].copy()))
            a = legal[0] if n == 1 else choose_action_nb(2, state, comp, p, heuristic, prng,
                                                         legal, n, None, True)
            apply_action_nb(state, comp, a)
            step += 1
        game += 1
    work = new_workspace()
    s, prng, p, leg = decisions[0]  # compile
    mcts_policy_nb(s, comp, p, params, prng.copy(), leg, leg.shape[0], work)
    t0 = time.thread_time()
    checksum = 0
    for s, prng, p, leg in decisions:
        checksum = (checksum * 1_000_003 + int(mcts_policy_nb(s, comp, p, params, prng.copy(),
                                                              leg, leg.shape[0], work))) % 2**61
    cpu = time.thread_time() - t0
    import tajsim
    assert Path(tajsim.__file__).is_relative_to(os.environ["PYTHONPATH"]), tajsim.__file__
    print(f"iterations/s {len(decisions) * params[0] / cpu:.1f} checksum {checksum}")


def mcts_rate(tree: Path, strategy: str, n_decisions: int) -> tuple[float, int]:
    cmd = [sys.executable, str(HERE), "--probe", strategy, "--decisions", str(n_decisions)]
    out = run_in(tree, cmd)["stdout"]
    match = re.search(r"iterations/s ([\d.]+) checksum (\d+)", out)
    if match is None:
        raise SystemExit(f"no rate in the output of {' '.join(cmd)}:\n{out}")
    return float(match.group(1)), int(match.group(2))


def cold_compile(tree: Path, strategies: str) -> tuple[float, float]:
    """(wall s, CPU s) of ``tajsim simulate --games 4 -w 1`` from an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        cmd = [sys.executable, "-m", "tajsim", "simulate", "--game", "maharani", "-p", "4",
               "-s", strategies, "-n", "4", "-w", "1", "-q"]
        r = run_in(tree, cmd, cache)
    return r["wall"], r["cpu"]


def strength_curve(budgets: list[float], games: list[int], opponent: str, seed: int) -> None:
    """``mcts:ms=X`` against ``opponent``, 2 players, both seatings (``rotate=True``): the
    share of the wins (a shared win counts 1/k) with its Wilson interval, and the CPU seconds
    per game. Budgets are thread CPU time, so a shared machine slows the run, not the search."""
    import tajsim
    from tajsim.analysis.stats import wilson_interval

    print("| ms a decision | games | mcts share | 95% interval | CPU s / game |")
    print("|---:|---:|---:|---|---:|")
    for ms, n in zip(budgets, games, strict=True):
        t0 = time.process_time()
        frame = tajsim.simulate(game="maharani", games=n, players=2,
                                strategies=[f"mcts:ms={ms:g}", opponent], seed=seed,
                                rotate=True, workers=1, progress=False)
        cpu = time.process_time() - t0
        winners = frame.groupby("game_id")["winner"].transform("sum")
        mine = frame["strategy"].str.startswith("mcts")
        share = float((frame["winner"][mine] / winners[mine]).sum())
        low, high = wilson_interval(share, n)
        print(f"| {ms:g} | {n} | {share / n:.3f} | [{float(low):.3f}, {float(high):.3f}] | "
              f"{cpu / n:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, help="root of the tree before the change")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", type=int, default=2000, help="games per bench run (random)")
    ap.add_argument("--mcts", default="mcts", help="the search setting compared")
    ap.add_argument("--decisions", type=int, default=12)
    ap.add_argument("--compile", action="store_true", help="also the cold compile times")
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    ap.add_argument("--curve", help="strength per second instead: ms budgets, e.g. 1,4,16,64")
    ap.add_argument("--curve-games", default="200",
                    help="games per budget (one number, or one per budget)")
    ap.add_argument("--opponent", default="balanced")
    ap.add_argument("--seed", type=int, default=2020)
    args = ap.parse_args()
    if args.curve:
        budgets = [float(x) for x in args.curve.split(",")]
        games = [int(x) for x in args.curve_games.split(",")]
        strength_curve(budgets, games * len(budgets) if len(games) == 1 else games,
                       args.opponent, args.seed)
        return
    if args.probe:
        mcts_probe(args.probe, args.decisions)
        return
    if args.base is None or not (args.base / "tajsim").is_dir():
        raise SystemExit(f"--base {args.base}: expected a folder holding a tajsim package")
    trees = {"before": args.base.resolve(), "after": common.REPO}
    # balanced costs about 7x a random game: a tenth of the games keeps the runs alike.
    measures = {"random": lambda t: bench_rate(t, "random", args.games),
                "balanced": lambda t: bench_rate(t, "balanced", max(10, args.games // 10)),
                "mcts it/s": lambda t: mcts_rate(t, args.mcts, args.decisions)}
    results: dict[str, dict[str, list[float]]] = {m: {k: [] for k in trees} for m in measures}
    checksums: dict[str, set[int]] = {k: set() for k in trees}
    for r in range(args.rounds):
        for name, tree in trees.items():
            for measure, run in measures.items():
                value = run(tree)
                if isinstance(value, tuple):
                    value, checksum = value
                    checksums[name].add(checksum)
                results[measure][name].append(value)
                print(f"round {r + 1} {name:<6} {measure:<10} {value:12,.1f}", flush=True)
    print(f"\n{'measure':<10} {'before':>12} {'after':>12} {'ratio':>7}  (best of "
          f"{args.rounds} rounds; CPU time; median ratio in brackets)")
    for measure, by_tree in results.items():
        b, a = max(by_tree["before"]), max(by_tree["after"])
        med = statistics.median(by_tree["after"]) / statistics.median(by_tree["before"])
        print(f"{measure:<10} {b:12,.1f} {a:12,.1f} {a / b:7.2f}  ({med:.2f})")
    if checksums["before"] != checksums["after"]:
        print(f"mcts decisions DIFFER: {checksums}")
    else:
        print("mcts decisions identical in both trees")
    if args.compile:
        for strategies in ("random", "mcts:iterations=10,random"):
            for name, tree in trees.items():
                wall, cpu = cold_compile(tree, strategies)
                print(f"cold compile {strategies:<28} {name:<6} {wall:6.1f} s wall "
                      f"{cpu:6.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
