"""The benchmarked path against the normal path (``simulate()``) and serial against parallel, so
a fast but wrong engine cannot pass."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tajsim.running.benchmarking.batch import Batch
from tajsim.running.executors import available_cores
from tajsim.running.simulate import simulate


def finished_problems(batch: Batch, results: np.ndarray, setups: np.ndarray) -> list[str]:
    """Cheap sanity checks of one run's records (every game finished and written)."""
    n = batch.players
    problems = []
    if not np.array_equal(setups["game_id"], batch.game_ids):
        problems.append("setup records do not carry the game ids")
    if not np.array_equal(results["game_id"], np.repeat(batch.game_ids, n)):
        problems.append("result records do not carry the game ids")
    ranks = results["rank"]
    if ranks.size and (ranks.min() < 1 or ranks.max() > n):
        problems.append("a game has no final ranks (not finished)")
    winners = results["winner"].reshape(-1, n).sum(axis=1) if n else np.zeros(0)
    if winners.size and winners.min() < 1:
        problems.append("a game has no winner")
    return problems


def check_batch(batch: Batch, threads: int | None = None, modes: Sequence[str] = ("prange",
                "threads"), normal_path: bool = True) -> list[str]:
    """Compare the benchmarked runs of ``batch`` with the normal path; return the differences.

    * the direct one-core kernel call against ``simulate()`` (one worker, chunked as usual)
      for the same seed and games, record for record (the results frame);
    * every multi-core mode against the one-core run, byte for byte;
    * the sanity checks of :func:`finished_problems`.

    ``batch`` must start at game 0 for the ``simulate()`` comparison.
    """
    threads = available_cores() if threads is None else threads
    problems: list[str] = []
    results, setups = batch.run(1)
    problems += [f"one core: {p}" for p in finished_problems(batch, results, setups)]
    for mode in modes if threads > 1 else ():
        r2, s2 = batch.run(threads, mode)
        if r2.tobytes() != results.tobytes() or s2.tobytes() != setups.tobytes():
            problems.append(f"{threads} cores ({mode}) give other records than one core")
    if normal_path:
        if int(batch.game_ids[0]) != 0:
            raise ValueError("check_batch compares with simulate(): the batch must start at 0")
        cfg = batch.config
        expected = simulate(batch.games, cfg.players, list(cfg.strategies), cfg.edition,
                            cfg.seed, workers=1, rotate=cfg.seating,
                            games_per_setup=cfg.games_per_setup, progress=False, game=cfg.game,
                            options=cfg.options)
        got = batch.frame(results, setups)
        try:
            pd.testing.assert_frame_equal(got.reset_index(drop=True),
                                          expected.reset_index(drop=True), check_exact=True)
        except AssertionError as exc:
            first = str(exc).strip().splitlines()
            problems.append("direct kernel call differs from simulate(): "
                            + " ".join(first[:3]))
    return problems


def records_digest(results: np.ndarray, setups: np.ndarray) -> str:
    """Short hash of a run's records (to compare runs made in other processes)."""
    import hashlib

    h = hashlib.sha256(results.tobytes())
    h.update(setups.tobytes())
    return h.hexdigest()[:16]
