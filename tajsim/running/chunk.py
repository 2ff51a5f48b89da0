"""Play one chunk of a run: the unit of work of every executor (in-process, processes, Dask).

``run_chunk(task, index)`` is a plain top-level function of plain data (``RunConfig.task()``,
a frozen :class:`~tajsim.running.config.RunTask`),
so a process pool or a Dask worker imports it by name: workers compile the kernels once (numba
``cache=True`` writes them next to the sources) and never receive pickled compiled functions.
Its output depends only on (task, index): the same bytes whoever runs it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from tajsim.engine.gpu import line_up_switches, play_batch_gpu
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.running.aggregates import Aggregates
from tajsim.running.config import (
    RunTask,
    chunk_bounds,
    code_fingerprint,
    lineup_codes,
    setup_ids_for,
)
from tajsim.running.records import results_table, to_parquet
from tajsim.running.run_files import data_digest


@dataclass
class ChunkResult:
    """What one chunk produced: the Parquet bytes of its rows (None without records) and its
    aggregates."""

    index: int
    games: int
    records: bytes | None
    aggregates: Aggregates
    #: ``aggregates.to_bytes()`` and the SHA-256 digests of the two files (``run_files.
    #: data_digest``), made where the chunk was built (a worker thread or process) so that the
    #: run loop, which stores every chunk one after the other, only writes them (issue 42: 1.6
    #: ms of zip a chunk, the heuristics' chunks finishing every 3.6 ms on 16 cores). None:
    #: made when stored.
    aggregates_bytes: bytes | None = None
    digests: dict[str, Any] | None = None


class CodeMismatchError(RuntimeError):
    """A worker runs other engine code than the driver: its games would differ."""


_COMP_CACHE: dict[str, np.ndarray] = {}


def _comp_of(task: RunTask, spec: GameSpec) -> np.ndarray:
    key = task.fingerprint
    comp = _COMP_CACHE.get(key)
    if comp is None:
        comp = np.asarray(task.components.packed, np.int64)
        if comp.shape != (spec.comp_size,):
            raise ValueError(f"packed components of size {comp.shape}, expected "
                             f"{spec.comp_size}")
        _COMP_CACHE.clear()
        _COMP_CACHE[key] = comp
    return comp


def chunk_games(task: RunTask, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Chunk ``index``'s game ids, setup ids (int64[G]) and line-ups (int64[G, players])."""
    spec = get_game(task.game)
    n = task.players
    start, stop = chunk_bounds(task.games, task.chunk_size, index)
    if not 0 <= start < stop:
        raise IndexError(f"chunk {index} is outside the run")
    game_ids = np.arange(start, stop, dtype=np.int64)
    setup_ids = setup_ids_for(spec, task.setups, task.games_per_setup,
                              game_ids)
    lineups = lineup_codes(task.seating, task.seat_entries, n, game_ids)
    return game_ids, setup_ids, lineups


def lineup_table(task: RunTask) -> tuple[np.ndarray, np.ndarray]:
    """The run's line-up table: strategy ids (int64[L]) and parameters (float64[L, n_params])."""
    lineup_ids = np.asarray(task.lineup_ids, np.int64)
    lineup_params = np.ascontiguousarray(np.asarray(task.lineup_params, np.float64))
    return lineup_ids, lineup_params


def play_chunk_arrays(task: RunTask, index: int, threads: int = 1):
    """Play chunk ``index``: returns ``(results, setups, lineups)`` record arrays.

    ``threads > 1`` spreads the chunk over numba threads (the game's ``play_batch_parallel``);
    the records are the same either way.
    """
    spec = get_game(task.game)
    n = task.players
    game_ids, setup_ids, lineups = chunk_games(task, index)
    lineup_ids, lineup_params = lineup_table(task)
    G = game_ids.shape[0]
    results = np.zeros(G * n, spec.result_dtype)
    setups = np.zeros(G, spec.setup_dtype)
    rules = task.rules
    comp = _comp_of(task, spec)
    switches = spec.strategies.kernel_switches(lineup_ids, lineup_params)
    if threads > 1:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        spec.kernels.play_batch_parallel(comp, n, rules, task.seed, game_ids, setup_ids,
                                         lineups, lineup_ids, lineup_params, results, setups,
                                         min(G, threads * 8), *switches)
    else:
        spec.kernels.play_batch(comp, n, rules, task.seed, game_ids, setup_ids, lineups,
                                lineup_ids, lineup_params, results, setups, *switches)
    return results, setups, lineups


def play_chunks_gpu(task: RunTask, indices: list[int]):
    """Play chunks ``indices`` in one launch of the game's GPU batch kernel
    (:mod:`tajsim.engine.gpu`); returns ``(results, setups, lineups)`` of each chunk, in order,
    the same arrays ``play_chunk_arrays`` returns for it."""
    spec = get_game(task.game)
    n = task.players
    parts = [chunk_games(task, index) for index in indices]
    game_ids = np.concatenate([p[0] for p in parts])
    setup_ids = np.concatenate([p[1] for p in parts])
    lineups = np.concatenate([p[2] for p in parts])
    lineup_ids, lineup_params = lineup_table(task)
    G = game_ids.shape[0]
    results = np.zeros(G * n, spec.result_dtype)
    setups = np.zeros(G, spec.setup_dtype)
    heuristics, net = line_up_switches(spec, lineup_ids, lineup_params)
    play_batch_gpu(spec, _comp_of(task, spec), n, task.rules, task.seed,
                   game_ids, setup_ids, lineups, lineup_ids, lineup_params, results, setups,
                   heuristics, net=net)
    out, start = [], 0
    for part in parts:
        stop = start + part[0].shape[0]
        out.append((results[start * n:stop * n].copy(), setups[start:stop].copy(), part[2]))
        start = stop
    return out


def build_chunk(task: RunTask, index: int, results: np.ndarray, setups: np.ndarray,
                lineups: np.ndarray) -> ChunkResult:
    """A played chunk's outputs: its aggregates and (when the run keeps rows) Parquet bytes."""
    aggregates = Aggregates.from_records(task, results, setups, lineups)
    records = None
    if task.records:
        records = to_parquet(results_table(task, results, setups, lineups))
    packed = aggregates.to_bytes()
    return ChunkResult(index=index, games=int(setups.shape[0]), records=records,
                       aggregates=aggregates, aggregates_bytes=packed,
                       digests={"records": None if records is None else data_digest(records),
                                "aggregates": data_digest(packed)})


def run_chunk(task: RunTask, index: int, threads: int = 1,
              _fault: dict[str, Any] | None = None) -> ChunkResult:
    """Play chunk ``index`` of the run described by ``task`` and build its outputs.

    ``_fault`` is for tests of the retry logic only: ``{"marker": path, "chunk": k, "mode":
    "raise" | "exit"}`` makes the first attempt at chunk k (the marker file does not exist yet)
    create the marker and fail.
    """
    code = code_fingerprint(task.game)
    if task.code != code:
        raise CodeMismatchError(
            f"this worker runs {task.game} code {code}, the driver {task.code}; "
            "install the same tajsim version on every worker"
        )
    if _fault is not None and _fault.get("chunk") == index:
        marker = _fault["marker"]
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            if _fault.get("mode") == "exit":
                os._exit(3)
            raise RuntimeError(f"injected fault in chunk {index}")
    results, setups, lineups = play_chunk_arrays(task, index, threads)
    return build_chunk(task, index, results, setups, lineups)
