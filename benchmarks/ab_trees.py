"""Two source trees against each other, alternated in one run: games/s and cold compile.

A before/after figure measured on a shared machine is only fair when both trees run under the
same load, so this script alternates them: in each of ``--rounds`` rounds it times tree A, then
tree B (``A B A B ...``), each in a fresh child process that imports that tree
(``PYTHONPATH=<tree>``, started outside both trees so neither shadows the other). A child
compiles (or loads from its tree's own numba cache, keyed by the tree's source fingerprint),
plays ``--warmup`` untimed runs, then ``--repeat`` timed runs of the runner's one-core kernel
(``tajsim.running.benchmarking``, as ``tajsim bench`` does) and reports the best rate by the
calling thread's CPU time (what the work costs with a core to itself; wall-clock rates on a
loaded machine measure the load) and a digest of its records: the two trees must give the same
records, or the script exits 1.

``--compile`` instead times a cold compile: ``python -m tajsim simulate --games 4 --workers 1``
with an empty ``NUMBA_CACHE_DIR`` per run, alternated the same way; the child's CPU time
(user + system) is reported beside the wall time.

``--in-process`` runs both trees in this one process instead, for differences of a few per
cent that this VM's slow spells (a child process can run 1.5 x slower than the next) hide: each
tree is copied into a temporary folder as a renamed package (``tajsim_ab_a``, ``tajsim_ab_b``:
every ``tajsim.`` import in its sources renamed), both compile (once, into the copies' own
cache), and then ``--rounds`` rounds alternate one timed run of each (A B, then B A), so both
see the same machine within seconds. It reports the median of the per-round ratios with their
range, and the records' digests, which must agree.

Examples::

    git archive <base commit> tajsim | tar -x -C /tmp/base
    python benchmarks/ab_trees.py /tmp/base . -p 4 -s random
    python benchmarks/ab_trees.py /tmp/base . -p 4 -s balanced --games 300
    python benchmarks/ab_trees.py /tmp/base . --compile -s random
    python benchmarks/ab_trees.py /tmp/base . --compile -s "ismcts:iterations=10,random"
    python benchmarks/ab_trees.py /tmp/base . -s balanced -n 300 --in-process --rounds 20
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run by the child (PYTHONPATH = the tree): one core, the runner's batch kernel.
CHILD = r"""
import json, sys
from tajsim.running.benchmarking import make_batch, records_digest, time_batch
args = json.loads(sys.argv[1])
batch = make_batch(args["games"], args["players"], args["strategies"], args["edition"],
                   seed=args["seed"], game=args["game"])
timing = time_batch(batch, 1, "serial", repeat=args["repeat"], warmup=args["warmup"])
out = batch.outputs()
batch.run(1, "serial", out)
print(json.dumps({"thread_rate": timing.rate("thread"), "wall_rate": timing.rate("wall"),
                  "spread": timing.spread("thread"), "digest": records_digest(*out)}))
"""


def run(cmd: list[str], tree: Path, extra_env: dict[str, str] | None = None
        ) -> tuple[float, float, str]:
    """(wall s, CPU s of the child: user + system from ``wait4``, stdout) of ``cmd`` run with
    ``tree`` on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()), **(extra_env or {}))
    with tempfile.TemporaryDirectory() as cwd, tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(cmd)} with {tree} failed:\n{err.read()}")
        return wall, usage.ru_utime + usage.ru_stime, out.read()


RENAMES = ((re.compile(r"\btajsim\."), "{name}."),
           (re.compile(r"\bfrom tajsim import\b"), "from {name} import"),
           (re.compile(r"^import tajsim$", re.M), "import {name}"))


def renamed_copy(tree: Path, name: str, into: Path) -> None:
    """Copy ``tree/tajsim`` to ``into/name`` with every ``tajsim`` import renamed to ``name``."""
    dest = into / name
    shutil.copytree(tree / "tajsim", dest, ignore=shutil.ignore_patterns("__pycache__"))
    for path in dest.rglob("*.py"):
        text = path.read_text()
        for pattern, repl in RENAMES:
            text = pattern.sub(repl.format(name=name), text)
        path.write_text(text)


def in_process(a: argparse.Namespace, trees: dict[str, Path]) -> int:
    """Both trees as renamed packages in this process, timed alternately (``--in-process``)."""
    with tempfile.TemporaryDirectory() as tmp:
        batches = {}
        for label, tree in trees.items():
            name = f"tajsim_ab_{label.lower()}"
            renamed_copy(tree, name, Path(tmp))
            sys.path.insert(0, tmp)
            bench = importlib.import_module(f"{name}.running.benchmarking")
            batch = bench.make_batch(a.games, a.players, a.strategies, a.edition, seed=a.seed,
                                     game=a.game)
            for _ in range(max(1, a.warmup)):  # compiles, then warms the caches
                out = batch.outputs()
                batch.run(1, "serial", out)
            batches[label] = (batch, bench.records_digest(*out), bench.records_digest)
            print(f"{label}: compiled, digest {batches[label][1]}", flush=True)
        rates: dict[str, list[float]] = {"A": [], "B": []}
        for r in range(a.rounds):
            for label in ("A", "B") if r % 2 == 0 else ("B", "A"):
                batch, first, digest = batches[label]
                out = batch.outputs()
                t0 = time.thread_time()
                batch.run(1, "serial", out)
                rates[label].append(a.games / (time.thread_time() - t0))
                if digest(*out) != first:
                    raise SystemExit(f"tree {label}: a timed run's records differ from its first")
    ratios = sorted(b / x for x, b in zip(rates["A"], rates["B"]))
    print(f"games/s by thread CPU time, best: A {max(rates['A']):.0f}, B {max(rates['B']):.0f}; "
          f"B/A median of {a.rounds} rounds {statistics.median(ratios):.3f} "
          f"(range {ratios[0]:.2f}-{ratios[-1]:.2f}), best/best "
          f"{max(rates['B']) / max(rates['A']):.3f}")
    if batches["A"][1] != batches["B"][1]:
        print(f"RECORDS DIFFER between the trees: {batches['A'][1]} {batches['B'][1]}")
        return 1
    print("records identical")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("tree_a", type=Path, help="the tree before (a folder holding tajsim/)")
    p.add_argument("tree_b", type=Path, help="the tree after")
    p.add_argument("--game", default="tajmahal")
    p.add_argument("-p", "--players", type=int, default=4)
    p.add_argument("-s", "--strategies", default="random")
    p.add_argument("-e", "--edition", default=None)
    p.add_argument("-n", "--games", type=int, default=2000, help="games per timed run")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per child (best kept)")
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3, help="A B alternations")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--compile", action="store_true",
                   help="time a cold compile of a 4-game simulate instead")
    p.add_argument("--in-process", action="store_true",
                   help="both trees in this process, alternated run by run (see above)")
    a = p.parse_args(argv)
    trees = {"A": a.tree_a, "B": a.tree_b}
    for name, tree in trees.items():
        if not (tree / "tajsim" / "__init__.py").is_file():
            raise SystemExit(f"tree {name} = {tree}: expected a folder holding tajsim/")
    print(f"A = {a.tree_a}, B = {a.tree_b}; {a.game}, {a.players} players, "
          f"strategies {a.strategies}, {a.rounds} rounds", flush=True)
    if a.in_process:
        return in_process(a, trees)
    rows: dict[str, list[dict[str, Any]]] = {"A": [], "B": []}
    for r in range(a.rounds):
        for name, tree in trees.items():
            if a.compile:
                with tempfile.TemporaryDirectory() as cache:
                    cmd = [sys.executable, "-m", "tajsim", "simulate", "--game", a.game,
                           "--games", "4", "--workers", "1", "-p", str(a.players),
                           "-s", a.strategies, "--quiet"]
                    wall, cpu, _ = run(cmd, tree, {"NUMBA_CACHE_DIR": cache})
                row = {"wall_s": wall, "cpu_s": cpu}
            else:
                args = {"games": a.games, "players": a.players, "strategies": a.strategies,
                        "edition": a.edition, "seed": a.seed, "game": a.game,
                        "repeat": a.repeat, "warmup": a.warmup}
                _, _, stdout = run([sys.executable, "-c", CHILD, json.dumps(args)], tree)
                row = json.loads(stdout.strip().splitlines()[-1])
            rows[name].append(row)
            print(f"round {r + 1} {name}: " + ", ".join(
                f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()),
                flush=True)
    if a.compile:
        for key in ("cpu_s", "wall_s"):
            med = {n: statistics.median(x[key] for x in rows[n]) for n in rows}
            print(f"cold compile, median {key}: A {med['A']:.1f}, B {med['B']:.1f}, "
                  f"B/A {med['B'] / med['A']:.2f}")
        return 0
    digests = {x["digest"] for n in rows for x in rows[n]}
    best = {n: max(x["thread_rate"] for x in rows[n]) for n in rows}
    ratios = [b["thread_rate"] / aa["thread_rate"] for aa, b in zip(rows["A"], rows["B"])]
    print(f"games/s by thread CPU time, best: A {best['A']:.0f}, B {best['B']:.0f}, "
          f"B/A {best['B'] / best['A']:.2f}; per round B/A "
          + " ".join(f"{x:.2f}" for x in ratios))
    if len(digests) != 1:
        print(f"RECORDS DIFFER between the trees: {sorted(digests)}")
        return 1
    print("records identical in every run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
