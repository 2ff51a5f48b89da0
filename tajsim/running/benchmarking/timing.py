"""Timing compiled batches: thread or wall clock, best of repeated runs, interleaved rivals, one
core, numba threads or Python threads."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tajsim.running.benchmarking.batch import Batch
from tajsim.running.benchmarking.checking import finished_problems


@dataclass
class Timing:
    """Times (seconds) of ``len(wall)`` timed runs of ``work`` units each.

    ``wall``: elapsed time; ``cpu``: CPU time of this process (every thread); ``thread``: CPU
    time of the calling thread. On a shared machine the CPU times show what the work costs when
    it has a core to itself; ``utilisation`` shows how much of the wall time it got.
    """

    work: int
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    thread: list[float] = field(default_factory=list)

    def best(self, clock: str = "wall") -> float:
        return min(getattr(self, clock))

    def median(self, clock: str = "wall") -> float:
        return statistics.median(getattr(self, clock))

    def rate(self, clock: str = "wall", which: str = "best") -> float:
        """Units per second from the best (default) or the median time of ``clock``."""
        t = self.best(clock) if which == "best" else self.median(clock)
        return self.work / t if t > 0 else float("inf")

    def spread(self, clock: str = "wall") -> float:
        """(max - min) / min of the times: how noisy the measurement was."""
        times = getattr(self, clock)
        return (max(times) - min(times)) / min(times) if min(times) > 0 else 0.0

    def utilisation(self, threads: int = 1) -> float:
        """CPU time / (wall time x threads), summed over the runs (1.0 = cores never lost)."""
        wall = sum(self.wall)
        return sum(self.cpu) / (wall * threads) if wall > 0 else 0.0


class _Clock:
    """Wall, process CPU and thread CPU time of a ``with`` block, appended to a Timing."""

    def __init__(self, timing: Timing | None) -> None:
        self.timing = timing

    def __enter__(self) -> _Clock:
        self.t = (time.perf_counter(), time.process_time(), time.thread_time())
        return self

    def __exit__(self, *exc: object) -> None:
        w, c, t = time.perf_counter(), time.process_time(), time.thread_time()
        self.elapsed = w - self.t[0]
        if self.timing is not None:
            self.timing.wall.append(self.elapsed)
            self.timing.cpu.append(c - self.t[1])
            self.timing.thread.append(t - self.t[2])


def time_call(func: Callable[[], Any], work: int, repeat: int = 5, warmup: int = 1) -> Timing:
    """Call ``func`` ``warmup`` times untimed, then ``repeat`` times timed."""
    for _ in range(max(0, warmup)):
        func()
    timing = Timing(work)
    for _ in range(max(1, repeat)):
        with _Clock(timing):
            func()
    return timing


def time_interleaved(funcs: dict[str, Callable[[], Any]], work: int, repeat: int = 5,
                     warmup: int = 1) -> dict[str, Timing]:
    """Time several functions round-robin (each round calls every function once), so a burst
    of load from other processes hits them alike; ratios of their best times are then fair."""
    for _ in range(max(0, warmup)):
        for func in funcs.values():
            func()
    timings = {name: Timing(work) for name in funcs}
    for _ in range(max(1, repeat)):
        for name, func in funcs.items():
            with _Clock(timings[name]):
                func()
    return timings


def compile_batch(batch: Batch, threads: int = 1, mode: str = "prange") -> float:
    """Make sure the kernels are compiled (or loaded from the cache) by playing one game of
    ``batch``; return the seconds it took (compilation or cache load included)."""
    t0 = time.perf_counter()
    batch.slice(0, min(batch.games, max(1, threads))).run(threads, mode)
    return time.perf_counter() - t0


def time_batch(batch: Batch, threads: int = 1, mode: str = "prange", repeat: int = 5,
               warmup: int = 1, verify: bool = True) -> Timing:
    """Time ``batch.run(threads, mode)`` (games per run = ``batch.games``).

    The outputs are allocated before each run, outside the timed region; with ``verify`` every
    timed run is checked to have finished every game (all ranks set, game ids in place), so a
    kernel that skips work fails instead of looking fast.
    """
    compile_batch(batch, threads, mode)
    timing = Timing(batch.games)
    for k in range(max(0, warmup) + max(1, repeat)):
        out = batch.outputs()  # fresh zeros: every record must be written by the timed run
        with _Clock(timing if k >= warmup else None):
            batch.run(threads, mode, out)
        if verify:
            problems = finished_problems(batch, *out)
            if problems:
                raise AssertionError(f"benchmark run {k} is wrong: {problems[0]}")
    return timing


def time_modes(batch: Batch, threads: int, modes: Sequence[str] = ("serial", "prange",
               "threads"), repeat: int = 5, warmup: int = 1,
               verify: bool = True) -> dict[str, Timing]:
    """Time ``batch`` on one core (``"serial"``) and on ``threads`` cores in each parallel
    ``mode``, round-robin (one run of each per round), so load from other processes affects
    them alike and their ratios are fair. Runs are verified like :func:`time_batch`.

    ``"prange"`` is timed after the other modes, never between them: once numba's OpenMP
    pool has run, its idle threads keep spinning on the other cores and slowed the one-core
    and Python-thread runs that followed by 25-30 % on a 2-vCPU VM (which made the scaling
    look better than it is).
    """
    clean = [m for m in modes if m != "prange"]
    pooled = [m for m in modes if m == "prange"]
    timings = {mode: Timing(batch.games) for mode in modes}
    for group in (clean, pooled):
        for mode in group:
            compile_batch(batch, 1 if mode == "serial" else threads, mode)
        for k in range(max(0, warmup) + max(1, repeat)):
            for mode in group:
                out = batch.outputs()
                with _Clock(timings[mode] if k >= warmup else None):
                    batch.run(1 if mode == "serial" else threads,
                              "prange" if mode == "serial" else mode, out)
                if verify:
                    problems = finished_problems(batch, *out)
                    if problems:
                        raise AssertionError(f"benchmark run ({mode}) is wrong: {problems[0]}")
    return timings


def estimate_game_seconds(batch: Batch, games: int = 20) -> float:
    """Rough seconds per game on one core (after compiling), to size a benchmark."""
    small = batch.slice(0, min(games, batch.games))
    compile_batch(small)
    with _Clock(None) as clock:
        small.run(1)
    return clock.elapsed / max(1, small.games)
