"""Shared plumbing of the benchmark scripts: options, CSV output, logging.

Every script takes the same options (``--repeat``, ``--warmup``, ``--check``, ``--quick``,
``--results``) and writes one CSV under ``benchmarks/results/`` (one row per measurement, the
options and the machine load in every row). ``run_all.py`` runs them all and renders the tables
of ``benchmarks/README.md`` from the CSVs (:mod:`render`).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"
if str(REPO) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(REPO))


# Importing tajsim makes numba cache each game's kernels in a folder keyed by that game's source
# fingerprint (tajsim.games.fingerprint): every script compiles into, or loads from, the cache of
# the sources as they are, and never loads a kernel compiled before an edit.


def bench_cache_dir() -> Path:
    """The base of this process's numba cache folders (``numba-<game>-<fingerprint>`` ...:
    ``~/.cache/tajsim``, or ``NUMBA_CACHE_DIR`` when the caller set it)."""
    from tajsim.games.fingerprint import numba_cache_base

    return numba_cache_base()


def code_of(game: str | None) -> str:
    """The code fingerprint of ``game`` (a registered name; "" for none or another name): what
    the measurement ran, recorded in every row."""
    from tajsim.games import GAME_PACKAGES
    from tajsim.games.fingerprint import game_fingerprint

    return game_fingerprint(game) if game in GAME_PACKAGES else ""


def parser(description: str, repeat: int = 5, quick_repeat: int = 3) -> argparse.ArgumentParser:
    """The options every benchmark script takes."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--repeat", type=int, default=None,
                   help=f"timed runs per measurement (default {repeat}; --quick {quick_repeat}); "
                        "the best is reported, the spread is kept in the CSV")
    p.add_argument("--warmup", type=int, default=1,
                   help="untimed runs before the timed ones (after compiling), default 1")
    p.add_argument("--check", action="store_true",
                   help="also verify that the benchmarked runs give the same records as the "
                        "normal path (simulate()); exit status 1 on any difference")
    p.add_argument("--quick", action="store_true",
                   help="small sizes (a smoke run, figures only indicative)")
    p.add_argument("--results", type=Path, default=RESULTS,
                   help="directory of the CSV files (default benchmarks/results)")
    p.add_argument("--seed", type=int, default=0, help="master seed of every run (default 0)")
    p.add_argument("--game", default="tajmahal",
                   help="the game (a registered name; default tajmahal)")
    p.set_defaults(_repeat=repeat, _quick_repeat=quick_repeat)
    return p


def parse(p: argparse.ArgumentParser, argv: list[str] | None = None) -> argparse.Namespace:
    args = p.parse_args(argv)
    if args.repeat is None:
        args.repeat = args._quick_repeat if args.quick else args._repeat
    return args


def log(*parts: Any) -> None:
    print(*parts, file=sys.stderr, flush=True)


def cores() -> int:
    from tajsim.running.executors import available_cores

    return available_cores()


def load_avg() -> float:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover
        return float("nan")


def write_csv(name: str, rows: Iterable[dict[str, Any]], args: argparse.Namespace) -> Path:
    """Write ``rows`` to ``<results>/<name>.csv`` (columns from the first row, plus the run's
    options, the time and the code fingerprint of the row's game, or else of ``--game``)."""
    rows = list(rows)
    stamp = dt.datetime.now().isoformat(timespec="seconds")
    for row in rows:
        row.setdefault("code", code_of(row.get("game") or getattr(args, "game", None)))
        row.setdefault("quick", bool(args.quick))
        row.setdefault("repeat", args.repeat)
        row.setdefault("warmup", args.warmup)
        row.setdefault("checked", bool(args.check))
        row.setdefault("measured_at", stamp)
    args.results.mkdir(parents=True, exist_ok=True)
    path = args.results / f"{name}.csv"
    fields: list[str] = []
    for row in rows:
        fields += [k for k in row if k not in fields]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _fmt(v) for k, v in row.items()})
    log(f"wrote {path}")
    return path


def _fmt(value: Any) -> Any:
    if isinstance(value, float):
        return f"{value:.6g}"
    return value


def fail_on(problems: list[str], what: str) -> None:
    """Print the problems of a ``--check`` and exit with status 1 if there are any."""
    if problems:
        for p in problems:
            log(f"CHECK FAILED ({what}): {p}")
        sys.exit(1)
    log(f"check passed: {what}")


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``cmd`` in a child process (cwd: the repository) and measure it with ``wait4``:
    ``{"wall": s, "cpu": user + system s, "peak_rss_mib": MiB, "stdout": str}``. Exit status
    other than 0 raises ``SystemExit`` with the child's stderr."""
    import subprocess
    import tempfile
    import time

    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, cwd=REPO, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{stderr}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "peak_rss_mib": usage.ru_maxrss / 1024,  # KiB on Linux
            "stdout": stdout}


def size_games(seconds_per_game: float, target_seconds: float, low: int, high: int) -> int:
    """Games for one timed run of about ``target_seconds`` (a multiple of 10 in [low, high])."""
    games = int(target_seconds / max(seconds_per_game, 1e-9))
    return max(low, min(high, (games // 10) * 10 or low))
