"""Where a cold compile goes: numba's compile events of a small ``tajsim simulate``, by kernel.

Runs ``tajsim simulate --games 4 --workers 1`` in this process with ``NUMBA_CACHE_DIR`` set to a
new, empty folder (so every kernel the line-up needs compiles) and a listener on numba's
``numba:compile`` events. It prints the process's CPU time and, for the kernels that took
longest, the seconds of their compile (inclusive: a kernel's compile contains the compiles of
the kernels it calls, the first time it calls them, so the figures nest and do not add up), the
number of times each was compiled and its depth in the call tree.

Then every tajsim kernel compiled for more than one signature, with the signatures: numba
compiles a kernel once per tuple of argument types, and a constant argument has a literal type
(``f(x, True)`` and ``f(x, False)`` are two compiles). A large kernel listed there is compiled
again for nothing; pass it non-literal arguments (``np.bool_(True)``, ``np.int64(K)``), as
``docs/architecture.md`` ("Compile time") says.

    python benchmarks/compile_profile.py --game maharani -s "mcts:iterations=10,random"
    python benchmarks/compile_profile.py --game maharaja -s balanced --top 15

Measure before and after a change with ``ab_trees.py --compile`` (two trees, alternated,
each in a fresh process): one process's compile time swings by 10-20% on a shared machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="tajmahal")
    p.add_argument("-p", "--players", type=int, default=4)
    p.add_argument("-s", "--strategies", default="ismcts:iterations=10,random")
    p.add_argument("--top", type=int, default=25, help="kernels listed by compile time")
    a = p.parse_args(argv)
    # Before numba reads its configuration: an empty cache, so everything compiles.
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tajsim-compile-profile-")
    from click.testing import CliRunner
    from numba.core import event
    from numba.core.registry import CPUDispatcher

    from tajsim.cli.main import cli

    class Listener(event.Listener):
        """(depth, kernel name, seconds) of every finished compile."""

        def __init__(self) -> None:
            self.open: list[float] = []
            self.done: list[tuple[int, str, float]] = []

        def on_start(self, ev: Any) -> None:
            self.open.append(time.perf_counter())

        def on_end(self, ev: Any) -> None:
            start = self.open.pop()
            func = getattr((ev.data or {}).get("dispatcher"), "py_func", None)
            name = f"{func.__module__}.{func.__qualname__}" if func else "?"
            self.done.append((len(self.open), name, time.perf_counter() - start))

    listener = Listener()
    event.register("numba:compile", listener)
    cpu = time.process_time()
    result = CliRunner().invoke(cli, ["simulate", "--game", a.game, "--games", "4",
                                      "--workers", "1", "-p", str(a.players),
                                      "-s", a.strategies, "--quiet"])
    cpu = time.process_time() - cpu
    if result.exit_code != 0:
        print(result.output.strip(), file=sys.stderr)
        return result.exit_code
    print(f"{a.game}, {a.players} players, {a.strategies}: {cpu:.1f} s CPU "
          "(4 games, empty numba cache)")
    seconds_of: dict[str, float] = defaultdict(float)
    times_of: dict[str, int] = defaultdict(int)
    depth_of: dict[str, int] = {}
    for depth, name, seconds in listener.done:
        seconds_of[name] += seconds
        times_of[name] += 1
        depth_of[name] = min(depth_of.get(name, depth), depth)
    print(f"\n{'seconds':>8}  {'times':>5}  {'depth':>5}  kernel (inclusive compile time)")
    for name in sorted(seconds_of, key=lambda k: -seconds_of[k])[:a.top]:
        print(f"{seconds_of[name]:8.2f}  {times_of[name]:5d}  {depth_of[name]:5d}  {name}")
    multi = [d for d in gc.get_objects() if isinstance(d, CPUDispatcher)
             and d.py_func.__module__.startswith("tajsim") and len(d.signatures) > 1]
    print(f"\ntajsim kernels compiled for more than one signature: {len(multi)}")
    for d in sorted(multi, key=lambda d: (d.py_func.__module__, d.py_func.__qualname__)):
        print(f"  {d.py_func.__module__}.{d.py_func.__qualname__}: {len(d.signatures)}")
        for sig in d.signatures:
            print("      (" + ", ".join(_short(t) for t in sig) + ")")
    return 0


def _short(t: Any) -> str:
    """A signature's type in a few characters: arrays as ``int64[:]``, literals as
    ``Literal(value)``."""
    from numba.core import types
    if isinstance(t, types.Array):
        return f"{t.dtype}[{', '.join(':' * t.ndim)}]"
    if isinstance(t, types.Literal):
        return f"Literal({t.literal_value!r})"
    return str(t)


if __name__ == "__main__":
    sys.exit(main())
