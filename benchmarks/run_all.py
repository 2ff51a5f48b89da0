"""Run every benchmark (each in its own process), then render the tables of
``benchmarks/README.md`` from the CSVs.

    python benchmarks/run_all.py            # full sizes (about 10 minutes on 2 cores)
    python benchmarks/run_all.py --quick    # smoke run (small sizes; compiling takes its time)
    python benchmarks/run_all.py --check    # also verify every benchmarked path (exit 1 if not)
    python benchmarks/run_all.py --only throughput profile

Every script shares one numba cache keyed by a hash of the sources (``common.bench_cache_dir``),
so the first script after an edit compiles (outside the timed regions) and the others load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import common

SCRIPTS = ("compile", "throughput", "scaling", "profile", "nojit", "ismcts", "memory", "dask",
           "gpu")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes")
    p.add_argument("--check", action="store_true",
                   help="pass --check to every script; exit 1 if any check fails")
    p.add_argument("--repeat", type=int, default=None, help="override every script's --repeat")
    p.add_argument("--warmup", type=int, default=None)
    p.add_argument("--only", nargs="+", choices=SCRIPTS, default=None)
    p.add_argument("--skip", nargs="+", choices=SCRIPTS, default=())
    p.add_argument("--results", type=Path, default=common.RESULTS)
    p.add_argument("--note", default="",
                   help="conditions to state under the machine description (e.g. other jobs)")
    p.add_argument("--no-render", action="store_true", help="do not update README.md")
    args = p.parse_args(argv)

    from tajsim.running.machine import machine_info

    scripts = [s for s in (args.only or SCRIPTS) if s not in args.skip]
    extra = []
    if args.quick:
        extra.append("--quick")
    if args.check:
        extra.append("--check")
    if args.repeat is not None:
        extra += ["--repeat", str(args.repeat)]
    if args.warmup is not None:
        extra += ["--warmup", str(args.warmup)]
    extra += ["--results", str(args.results)]
    # tajsim's cache locators (NUMBA_CACHE_LOCATOR_CLASSES, set by importing tajsim above): every
    # script shares the per-game fingerprinted cache folders
    env = dict(os.environ)
    common.log(f"numba cache: {common.bench_cache_dir()} (a folder per game and fingerprint)")
    info = machine_info()
    started = time.perf_counter()
    failed = []
    for name in scripts:
        cmd = [sys.executable, str(common.HERE / f"bench_{name}.py"), *extra]
        common.log(f"\n=== {name}: {' '.join(cmd[1:])}")
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, env=env, cwd=common.REPO, check=False).returncode
        common.log(f"=== {name}: {time.perf_counter() - t0:.0f} s, exit {rc}")
        if rc != 0:
            failed.append(name)
    duration = time.perf_counter() - started
    if args.only is None or len(scripts) == len(SCRIPTS):
        info.update({
            "command": "python benchmarks/run_all.py" + "".join(
                f" {a}" for a in (argv if argv is not None else sys.argv[1:])),
            "duration_s": duration,
            "load_avg_end": common.load_avg(),
            "note": args.note,
        })
        info.pop("executable", None)
        ns = argparse.Namespace(quick=args.quick, repeat="per script", warmup=args.warmup or 1,
                                check=args.check, results=args.results)
        common.write_csv("machine", [info], ns)
    if not args.no_render:
        import render

        render.update_readme(common.HERE / "README.md", args.results)
    common.log(f"\nall done in {duration:.0f} s" + (f"; FAILED: {', '.join(failed)}"
                                                     if failed else ""))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
