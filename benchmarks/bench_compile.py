"""Cold compile time and warm start time of ``tajsim simulate`` for a small run.

``python -m tajsim simulate --games 1000`` is run as a child process with ``NUMBA_CACHE_DIR``
pointing at a new, empty temporary directory (so your own numba cache is neither used nor
touched): the first run compiles every kernel (**cold**), the next ones load them from that
cache (**warm**, best of ``--repeat``). The time of ``python -c "import tajsim.cli.main"``
(interpreter start and imports, nothing compiled) is given for reference. Times are elapsed
(wall) times of the whole command, as a user sees them, and the child's CPU time (user +
system, every thread; on a shared machine it shows the cost apart from waiting for a core).

A run compiles only the strategy families its lineup uses (``kernel_switches``), so the cold
time depends on the lineup: ``--also`` measures further lineups, each with its own empty cache
(default ``greedy`` and ``balanced``; the goal applies to the first command).

**First batch** (issue 13's measure): for each of ``--first`` (default ``random``, ``balanced``
and an ``ismcts`` seat), ``tajsim simulate --games 4 --workers 1`` in a fresh process with its
own empty cache: the time until the first batch of 4 games is finished, which is almost all
compile time.

``--check``: the cold and warm runs must print the same summary (a cached kernel gives the same
games as a freshly compiled one).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import common

TARGETS = {"cold": 30.0, "warm": 2.0}
#: Lineups of the first-batch measure (issue 13): a cold ``random`` run, a heuristic and a search.
FIRST_BATCH = ("random", "balanced", "ismcts:iterations=10,random")


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of ``cmd`` run as a child process."""
    r = common.run_child(cmd, env)
    return r["wall"], r["cpu"], r["stdout"]


def cache_size(path: Path) -> tuple[int, float]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files) / 2**20


def _prime_bench_cache(cache: Path) -> None:
    """Copy the freshly compiled kernels into this process's numba cache folders (the same
    fingerprinted ``numba-<game>-<fingerprint>`` layout under another base), so the next scripts
    need not compile them again. Files already there are kept."""
    import shutil

    target = common.bench_cache_dir()
    if target != cache:
        for src in cache.rglob("*"):
            if src.is_file():
                dst = target / src.relative_to(cache)
                if not dst.exists():
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, dst)


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=2)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--strategies", default="random")
    p.add_argument("--workers", type=int, default=None,
                   help="--workers of the simulate run (default: all cores, as a user runs it)")
    p.add_argument("--also", action="append", default=None, metavar="STRATEGIES",
                   help="another lineup whose cold compile is measured (repeatable; default "
                        "greedy and balanced; 'none' for no other)")
    p.add_argument("--first", action="append", default=None, metavar="STRATEGIES",
                   help="a lineup whose first batch of 4 games is timed from an empty cache "
                        "(repeatable; default random, balanced and ismcts:iterations=10,random; "
                        "'none' for no other)")
    args = common.parse(p, argv)

    def simulate_cmd(strategies: str) -> list[str]:
        cmd = [sys.executable, "-m", "tajsim", "simulate", "--games", str(args.games),
               "--strategies", strategies, "--seed", str(args.seed)]
        return cmd + (["--workers", str(args.workers)] if args.workers else [])

    cmd = simulate_cmd(args.strategies)
    also = [a for a in (args.also or ["greedy", "balanced"]) if a != "none"]
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="tajsim-numba-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        env.pop("NUMBA_DISABLE_JIT", None)
        imports = [timed([sys.executable, "-c", "import tajsim.cli.main"], env)
                   for _ in range(max(1, args.repeat))]
        imp, imp_cpu, _ = min(imports)
        common.log(f"import only: {imp:.2f} s ({imp_cpu:.2f} s CPU)")
        common.log(f"cold run (empty cache {cache}) ...")
        cold, cold_cpu, cold_out = timed(cmd, env)
        n_files, mib = cache_size(Path(cache))
        _prime_bench_cache(Path(cache))
        common.log(f"cold: {cold:.1f} s ({cold_cpu:.1f} s CPU; {n_files} cache files, "
                   f"{mib:.1f} MiB)")
        warms = []
        for _ in range(max(1, args.repeat)):
            w, c, out = timed(cmd, env)
            warms.append((w, c))
            if args.check and out != cold_out:
                problems.append("a warm run printed another summary than the cold run")
        warm, warm_cpu = min(warms)
        common.log(f"warm: {warm:.2f} s ({warm_cpu:.2f} s CPU; best of {len(warms)}: "
                   + ", ".join(f"{t:.2f}" for t, _ in warms) + ")")
    others = []
    for strategies in also:
        with tempfile.TemporaryDirectory(prefix="tajsim-numba-cold-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env.pop("NUMBA_DISABLE_JIT", None)
            common.log(f"cold run, --strategies {strategies} (empty cache) ...")
            wall, cpu, _ = timed(simulate_cmd(strategies), env)
            n_other, mib_other = cache_size(Path(cache))
            common.log(f"cold ({strategies}): {wall:.1f} s ({cpu:.1f} s CPU)")
            others.append((strategies, wall, cpu, n_other, mib_other))
    firsts = []
    for strategies in [a for a in (args.first or FIRST_BATCH) if a != "none"]:
        with tempfile.TemporaryDirectory(prefix="tajsim-numba-cold-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env.pop("NUMBA_DISABLE_JIT", None)
            first_cmd = [sys.executable, "-m", "tajsim", "simulate", "--games", "4",
                         "--workers", "1", "--strategies", strategies, "--seed", str(args.seed),
                         "-q"]
            wall, cpu, _ = timed(first_cmd, env)
            common.log(f"first batch of 4 games ({strategies}, empty cache): {wall:.1f} s "
                       f"({cpu:.1f} s CPU)")
            firsts.append((" ".join(["tajsim", *first_cmd[3:]]), wall, cpu))
    command = " ".join(["tajsim", *cmd[3:]])
    base = {"command": command, "games": args.games, "load_avg": common.load_avg()}
    rows.append({"phase": "import only", "seconds": imp, "cpu_seconds": imp_cpu, "target_s": "",
                 **base})
    rows.append({"phase": "cold (empty cache)", "seconds": cold, "cpu_seconds": cold_cpu,
                 "target_s": TARGETS["cold"], "cache_files": n_files, "cache_mib": mib, **base})
    rows.append({"phase": "warm (cached)", "seconds": warm, "cpu_seconds": warm_cpu,
                 "target_s": TARGETS["warm"],
                 "seconds_median": sorted(w for w, _ in warms)[len(warms) // 2], **base})
    for strategies, wall, cpu, n_other, mib_other in others:
        rows.append({"phase": "cold, other lineup", "seconds": wall, "cpu_seconds": cpu,
                     "target_s": "", "cache_files": n_other, "cache_mib": mib_other, **base,
                     "command": " ".join(["tajsim", *simulate_cmd(strategies)[3:]])})
    for first_command, wall, cpu in firsts:
        rows.append({"phase": "first batch, cold", "seconds": wall, "cpu_seconds": cpu,
                     "target_s": TARGETS["cold"], **base, "games": 4,
                     "command": first_command})
    common.write_csv("compile", rows, args)
    if args.check:
        common.fail_on(problems, "cold run == warm run")


if __name__ == "__main__":
    main()
