"""Benchmark library shared by ``tajsim bench`` and the ``benchmarks/`` scripts.

Everything here times the *same* compiled kernels the runner uses (``play_batch_nb`` and
``play_batch_parallel_nb`` of the game's kernels) on inputs built the way the runner builds them
(:class:`~tajsim.running.config.RunConfig`, ``lineup_codes``), with compilation and
warm-up excluded and fixed seeds, so a figure can be reproduced and checked:

* :func:`make_batch` / :class:`Batch`: the kernel inputs of ``games`` games of a run;
* :func:`time_batch`: wall time of repeated runs (one core, numba threads or Python threads);
* :func:`check_batch`: the benchmarked path against the normal path (``simulate()``), serial
  against parallel, so a fast but wrong engine cannot pass;
* :func:`profile_batch`: where a game's time goes (setup, legal actions by phase, applying
  actions, the policy, the records), from compiled harness kernels timed by difference;
* :func:`machine_info`: CPU, cores, memory and library versions, for the result tables.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from tajsim.games.tajmahal.engine.enums import (
    N_ACTIONS,
    PHASE_GAME_OVER,
    S_CUR,
    S_PHASE,
    S_SCORE,
    STATE_SIZE,
)
from tajsim.games.tajmahal.engine.nb import apply_action_nb, legal_actions_nb
from tajsim.games.tajmahal.play.nb import play_out_nb, start_game_nb, write_records_nb

MAX_PLAYERS = 5
N_PHASES = 4  # decision phases: bid, palace, crown, display
PHASE_LABELS = ("bid", "palace", "crown", "display")
#: Room for the actions of one game in the profiling harness (a 5-player random game takes
#: about 300; a longer game is an error, never a silent truncation).
MAX_GAME_ACTIONS = 4096


# ---------------------------------------------------------------------------------------------
# Kernel inputs
# ---------------------------------------------------------------------------------------------
@dataclass
class Batch:
    """The inputs of ``play_batch_nb`` for games ``start .. start + games - 1`` of a run.

    Attributes
    ----------
    config : RunConfig
        The run the games belong to (validated like ``simulate``'s arguments).
    game_ids, setup_ids : int64[G]
    lineups : int64[G, players]
    """

    config: Any
    task: dict
    comp: np.ndarray
    edition: int
    game_ids: np.ndarray
    setup_ids: np.ndarray
    lineups: np.ndarray
    lineup_ids: np.ndarray
    lineup_params: np.ndarray

    @property
    def games(self) -> int:
        return int(self.game_ids.shape[0])

    @property
    def players(self) -> int:
        return int(self.config.players)

    @property
    def seed(self) -> int:
        return int(self.config.seed)

    @property
    def label(self) -> str:
        return ",".join(self.config.strategies)

    def outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """Fresh ``(results, setups)`` record arrays for one run of the batch."""
        from tajsim.games.tajmahal.engine.enums import RESULT_DTYPE, SETUP_DTYPE

        return (np.zeros(self.games * self.players, RESULT_DTYPE),
                np.zeros(self.games, SETUP_DTYPE))

    def slice(self, start: int, stop: int) -> Batch:
        """The games ``start .. stop - 1`` of this batch (positions, not ids)."""
        return Batch(self.config, self.task, self.comp, self.edition,
                     self.game_ids[start:stop], self.setup_ids[start:stop],
                     self.lineups[start:stop], self.lineup_ids, self.lineup_params)

    def args(self) -> tuple:
        """Leading arguments shared by the batch kernels (up to ``lineup_params``)."""
        return (self.comp, self.players, self.edition, self.seed, self.game_ids, self.setup_ids,
                self.lineups, self.lineup_ids, self.lineup_params)

    def switches(self) -> tuple[bool | None, bool | None]:
        """The kernels' ``search`` / ``heuristics`` arguments, as the runner passes them."""
        from tajsim.games.tajmahal.strategies.ids import kernel_switches

        return kernel_switches(self.lineup_ids)

    def run(self, threads: int = 1, mode: str = "prange",
            out: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Play the batch; return ``(results, setups)``.

        ``threads == 1``: ``play_batch_nb`` on this thread. ``mode="prange"``:
        ``play_batch_parallel_nb`` on ``threads`` numba threads (``threads * 8`` blocks, as the
        runner does). ``mode="threads"``: ``threads`` Python threads each running
        ``play_batch_nb`` (which releases the GIL) on ``4 * threads`` contiguous slices.
        """
        from tajsim.games.tajmahal.play.nb import play_batch_nb, play_batch_parallel_nb

        results, setups = self.outputs() if out is None else out
        if threads <= 1:
            play_batch_nb(*self.args(), results, setups, *self.switches())
        elif mode == "prange":
            import numba

            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            play_batch_parallel_nb(*self.args(), results, setups, min(self.games, threads * 8),
                                   *self.switches())
        elif mode == "threads":
            from concurrent.futures import ThreadPoolExecutor

            n = self.players
            parts = min(self.games, 4 * threads)
            bounds = [self.games * k // parts for k in range(parts + 1)]

            def play(k: int) -> None:
                a, b = bounds[k], bounds[k + 1]
                part = self.slice(a, b)
                play_batch_nb(*part.args(), results[a * n:b * n], setups[a:b], *self.switches())

            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(play, range(parts)))
        else:
            raise ValueError(f"unknown mode {mode!r}; expected 'prange' or 'threads'")
        return results, setups

    def frame(self, results: np.ndarray, setups: np.ndarray):
        """The results frame (``docs/results-schema.md``) of one run of this batch."""
        from tajsim.running.records import results_frame

        return results_frame(self.task, results, setups, self.lineups)


def make_batch(games: int, players: int = 4, strategies: str | Sequence[str] = "random",
               edition: str = "2018", seed: int = 0, start: int = 0,
               rotate: bool | str = "auto", games_per_setup: int = 1) -> Batch:
    """Kernel inputs for games ``start .. start + games - 1`` of the run ``simulate(start +
    games, players, strategies, edition, seed, rotate=rotate, games_per_setup=...)``."""
    from tajsim.games.tajmahal.engine import enums as E
    from tajsim.running.config import RunConfig, lineup_codes

    config = RunConfig.make(games=start + games, players=players, strategies=strategies,
                            edition=edition, seed=seed, rotate=rotate,
                            games_per_setup=games_per_setup, chunk_size=start + games)
    task = config.task()
    game_ids = np.arange(start, start + games, dtype=np.int64)
    return Batch(
        config=config,
        task=task,
        comp=np.asarray(config.components.packed, np.int64),
        edition=E.EDITION_NAMES.index(config.edition),
        game_ids=game_ids,
        setup_ids=game_ids // int(config.games_per_setup),
        lineups=np.ascontiguousarray(lineup_codes(config.seating, config.seat_entries, players,
                                                  game_ids)),
        lineup_ids=np.asarray(config.lineup_ids, np.int64),
        lineup_params=np.ascontiguousarray(np.asarray(config.lineup_params, np.float64)),
    )


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------
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
    if setups.size and setups["n_turns"].min() < 12 * n:
        problems.append("a game took fewer turns than one withdrawal per player per visit")
    winners = results["winner"].reshape(-1, n).sum(axis=1) if n else np.zeros(0)
    if winners.size and winners.min() < 1:
        problems.append("a game has no winner")
    return problems


# ---------------------------------------------------------------------------------------------
# Checking: the benchmarked path against the normal path
# ---------------------------------------------------------------------------------------------
def check_batch(batch: Batch, threads: int | None = None, modes: Sequence[str] = ("prange",
                "threads"), normal_path: bool = True) -> list[str]:
    """Compare the benchmarked runs of ``batch`` with the normal path; return the differences.

    * the direct one-core kernel call against ``simulate()`` (one worker, chunked as usual)
      for the same seed and games, record for record (the results frame);
    * every multi-core mode against the one-core run, byte for byte;
    * the sanity checks of :func:`finished_problems`.

    ``batch`` must start at game 0 for the ``simulate()`` comparison.
    """
    import pandas as pd

    from tajsim.running.executors import available_cores

    threads = available_cores() if threads is None else threads
    problems: list[str] = []
    results, setups = batch.run(1)
    problems += [f"one core: {p}" for p in finished_problems(batch, results, setups)]
    for mode in modes if threads > 1 else ():
        r2, s2 = batch.run(threads, mode)
        if r2.tobytes() != results.tobytes() or s2.tobytes() != setups.tobytes():
            problems.append(f"{threads} cores ({mode}) give other records than one core")
    if normal_path:
        from tajsim.running.simulate import simulate

        if int(batch.game_ids[0]) != 0:
            raise ValueError("check_batch compares with simulate(): the batch must start at 0")
        cfg = batch.config
        expected = simulate(batch.games, cfg.players, list(cfg.strategies), cfg.edition,
                            cfg.seed, workers=1, rotate=cfg.seating,
                            games_per_setup=cfg.games_per_setup, progress=False)
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


# ---------------------------------------------------------------------------------------------
# Profiling harness: compiled kernels timed by difference
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _seat_tables(n_players, lineup, lineup_ids, lineup_params):
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for p in range(n_players):
        seat_ids[p] = lineup_ids[lineup[p]]
        seat_params[p, :] = lineup_params[lineup[p], :]
    return seat_ids, seat_params


@njit(cache=True, nogil=True)
def record_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                    lineup_ids, lineup_params, actions, n_actions, search=True, heuristics=True):
    """Play the games as ``play_batch_nb`` does (same ``start_game_nb`` + ``play_out_nb``),
    recording each game's actions in ``actions[g]`` and their number in ``n_actions[g]``."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    for g in range(game_ids.shape[0]):
        seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        n_actions[g] = play_out_nb(comp, state, seat_ids, seat_params, prng, legal, actions[g],
                                   search, heuristics)


@njit(cache=True, nogil=True)
def play_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                 lineup_ids, lineup_params, search=True, heuristics=True):
    """``play_batch_nb`` without writing records; returns a checksum of the scores."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    none = np.empty(0, np.int64)
    check = 0
    for g in range(game_ids.shape[0]):
        seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_out_nb(comp, state, seat_ids, seat_params, prng, legal, none, search, heuristics)
        check += state[S_SCORE]
    return check


@njit(cache=True, nogil=True)
def setup_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params):
    """Only the game setups (and the per-game seat tables) of the batch; returns a checksum."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    check = 0
    for g in range(game_ids.shape[0]):
        seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        check += state[S_CUR] + seat_ids[0]
    return check


@njit(cache=True, nogil=True)
def replay_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions, n_actions,
              legal_mask, stats):
    """Replay recorded games: setup, then each recorded action applied with
    ``apply_action_nb``; ``legal_actions_nb`` is called before an action whose phase bit is in
    ``legal_mask`` (bit k = phase k). No policy runs.

    ``stats`` (int64[MAX_PLAYERS + 1, N_PHASES, 3], added to): per seat (row ``MAX_PLAYERS`` =
    all seats) and phase, the decisions, the decisions with more than one legal action (the
    policy's) and the legal actions listed (counted only where ``legal_actions_nb`` ran).
    Returns a checksum of the final scores.
    """
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    check = 0
    for g in range(game_ids.shape[0]):
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        for i in range(n_actions[g]):
            phase = state[S_PHASE]
            if (legal_mask >> phase) & 1:
                n = legal_actions_nb(state, comp, legal)
                p = state[S_CUR]
                stats[p, phase, 0] += 1
                stats[MAX_PLAYERS, phase, 0] += 1
                if n > 1:
                    stats[p, phase, 1] += 1
                    stats[MAX_PLAYERS, phase, 1] += 1
                stats[p, phase, 2] += n
                stats[MAX_PLAYERS, phase, 2] += n
                check += legal[n - 1]
            apply_action_nb(state, comp, actions[g, i])
        if state[S_PHASE] != PHASE_GAME_OVER:
            check -= 1_000_000_000  # the replay diverged from the recorded game
        check += state[S_SCORE]
    return check


@njit(cache=True, nogil=True)
def records_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                    lineup_ids, lineup_params, actions, n_actions, results, setups, reps):
    """Replay each game once, then write its records ``reps`` times (for the cost of
    ``write_records_nb`` by difference)."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    for g in range(game_ids.shape[0]):
        seat_ids, _ = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        for i in range(n_actions[g]):
            apply_action_nb(state, comp, actions[g, i])
        for _ in range(reps):
            write_records_nb(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                             g * n_players, setups, g)


RECORD_REPS = 8

#: Kinds of action for the per-kind cost of ``apply_action_nb``.
APPLY_KINDS = ("play cards", "withdraw", "palace", "crown", "take display card")


@njit(cache=True)
def snapshot_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions, n_actions,
                states, kinds, acts):
    """Replay the recorded games, copying the state before each action into ``states[k]``
    (with the action in ``acts[k]`` and its kind, an index into ``APPLY_KINDS``, in
    ``kinds[k]``) while there is room; returns the number of snapshots."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    k = 0
    for g in range(game_ids.shape[0]):
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        for i in range(n_actions[g]):
            if k < states.shape[0]:
                states[k, :] = state
                acts[k] = actions[g, i]
                phase = state[S_PHASE]
                if phase == 0:
                    kinds[k] = 1 if actions[g, i] == 0 else 0
                else:
                    kinds[k] = phase + 1
                k += 1
            apply_action_nb(state, comp, actions[g, i])
    return k


@njit(cache=True)
def apply_snapshots_nb(comp, states, kinds, acts, n, kind, apply, reps, saved, scratch):
    """For each snapshot of ``kind``: copy it into ``saved`` (once), then ``reps`` times copy
    ``saved`` into ``scratch`` (cache-hot) and, with ``apply``, apply the action."""
    check = 0
    for k in range(n):
        if kinds[k] == kind:
            saved[:] = states[k]
            for _ in range(reps):
                scratch[:] = saved
                if apply:
                    apply_action_nb(scratch, comp, acts[k])
                check += scratch[S_CUR]
    return check


def apply_costs(batch: Batch, rec: Recording, max_snapshots: int = 4000, repeat: int = 5,
                clock: str = "thread") -> dict[str, tuple[float, float]]:
    """Cost of ``apply_action_nb`` by kind of action: ``{kind: (ns per call, calls per
    game)}``, from state snapshots: each is applied 16 times to a cache-hot copy; the cost is
    (copy + apply) minus (copy only), best of ``repeat``. Indicative: the sum over kinds
    need not match the replayed total exactly (different cache state)."""
    total = int(rec.n_actions.sum())
    cap = min(total, max_snapshots)
    states = np.zeros((cap, STATE_SIZE), np.int64)
    kinds = np.zeros(cap, np.int64)
    acts = np.zeros(cap, np.int64)
    n = snapshot_nb(batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
                    batch.setup_ids, rec.actions, rec.n_actions, states, kinds, acts)
    # games whose every action was captured (for calls per game)
    done = np.searchsorted(np.cumsum(rec.n_actions), n, side="right")
    scratch = np.zeros(STATE_SIZE, np.int64)
    saved = np.zeros(STATE_SIZE, np.int64)
    reps = 16
    out = {}
    for kind, name in enumerate(APPLY_KINDS):
        count = int((kinds[:n] == kind).sum())
        if count == 0:
            out[name] = (0.0, 0.0)
            continue
        funcs = {
            "copy": lambda kind=kind: apply_snapshots_nb(batch.comp, states, kinds, acts, n,
                                                         kind, False, reps, saved, scratch),
            "apply": lambda kind=kind: apply_snapshots_nb(batch.comp, states, kinds, acts, n,
                                                          kind, True, reps, saved, scratch),
        }
        t = time_interleaved(funcs, count * reps, repeat, 1)
        ns = 1e9 * (t["apply"].best(clock) - t["copy"].best(clock)) / (count * reps)
        per_game = count / max(1, done) if done else float("nan")
        out[name] = (ns, per_game)
    return out


@dataclass
class Recording:
    """The actions of every game of a batch (from :func:`record_batch`)."""

    actions: np.ndarray  # int64[G, MAX_GAME_ACTIONS]
    n_actions: np.ndarray  # int64[G]
    seconds: float  # wall time of the recording run (a full play of the batch)


def record_batch(batch: Batch) -> Recording:
    """Play ``batch`` once on this thread, recording the actions of every game."""
    actions = np.zeros((batch.games, MAX_GAME_ACTIONS), np.int64)
    n_actions = np.zeros(batch.games, np.int64)
    t0 = time.perf_counter()
    record_games_nb(*batch.args(), actions, n_actions, *batch.switches())
    seconds = time.perf_counter() - t0
    if batch.games and n_actions.max() > MAX_GAME_ACTIONS:
        raise RuntimeError(f"a game took {n_actions.max()} actions; the profiling harness "
                           f"records at most {MAX_GAME_ACTIONS}")
    return Recording(actions, n_actions, seconds)


def decision_stats(batch: Batch, rec: Recording) -> np.ndarray:
    """int64[MAX_PLAYERS + 1, N_PHASES, 3] decision counts of the recorded games (see
    :func:`replay_nb`)."""
    stats = np.zeros((MAX_PLAYERS + 1, N_PHASES, 3), np.int64)
    replay_nb(batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
              batch.setup_ids, rec.actions, rec.n_actions, (1 << N_PHASES) - 1, stats)
    return stats


def profile_batch(batch: Batch, repeat: int = 5, warmup: int = 1,
                  clock: str = "thread") -> dict[str, Any]:
    """Where the time of ``batch`` goes, per game (microseconds), on one core.

    Components, differences of the best of ``repeat`` runs of harness kernels timed
    round-robin (``clock="thread"``: CPU time of this thread, robust to other processes):

    * ``setup``: ``start_game_nb`` (deal, shuffles) and the seat tables;
    * ``apply``: every recorded action replayed with ``apply_action_nb`` (minus setup);
    * ``legal_<phase>``: ``legal_actions_nb`` at the decisions of that phase (replay with
      legal actions listed in that phase only, minus the replay without);
    * ``policy``: the full play (``start_game_nb`` + ``play_out_nb``) minus the replay with
      every legal list: the strategies' decisions plus the play loop;
    * ``records``: ``write_records_nb`` (replayed games whose records are written
      ``RECORD_REPS`` times, minus none, divided by ``RECORD_REPS``).

    The parts are differences of noisy times: on a busy machine a small part can come out
    slightly negative; the total (``play_batch_nb``) is measured directly.

    Also counts decisions per game by phase and the mean number of legal actions.
    """
    from tajsim.games.tajmahal.play.nb import play_batch_nb

    rec = record_batch(batch)
    stats = decision_stats(batch, rec)
    args = batch.args()
    base = (batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
            batch.setup_ids, rec.actions, rec.n_actions)
    scratch = np.zeros((MAX_PLAYERS + 1, N_PHASES, 3), np.int64)
    out = batch.outputs()
    G = batch.games
    funcs: dict[str, Callable[[], Any]] = {
        "setup": lambda: setup_only_nb(*args),
        "replay": lambda: replay_nb(*base, 0, scratch),
        "replay_legal": lambda: replay_nb(*base, (1 << N_PHASES) - 1, scratch),
        # the kernels compiled for the line-up's strategy families, as the runner runs them
        "play": lambda: play_only_nb(*args, *batch.switches()),
        "batch": lambda: play_batch_nb(*args, *out, *batch.switches()),
        "records_0": lambda: records_only_nb(*args, rec.actions, rec.n_actions, *out, 0),
        f"records_{RECORD_REPS}": lambda: records_only_nb(*args, rec.actions, rec.n_actions,
                                                          *out, RECORD_REPS),
    }
    for k, name in enumerate(PHASE_LABELS):
        funcs[f"replay_legal_{name}"] = lambda k=k: replay_nb(*base, 1 << k, scratch)
    timings = time_interleaved(funcs, G, repeat, warmup)
    problems = finished_problems(batch, *out)
    if problems:
        raise AssertionError(f"profiled batch is wrong: {problems[0]}")
    us = {key: 1e6 * t.best(clock) / G for key, t in timings.items()}
    parts = {
        "setup": us["setup"],
        "apply": us["replay"] - us["setup"],
        **{f"legal_{name}": us[f"replay_legal_{name}"] - us["replay"] for name in PHASE_LABELS},
        "policy": us["play"] - us["replay_legal"],
        "records": (us[f"records_{RECORD_REPS}"] - us["records_0"]) / RECORD_REPS,
    }
    all_seats = stats[MAX_PLAYERS]
    per_game = {
        "actions": float(rec.n_actions.mean()),
        "decisions": float(all_seats[:, 0].sum()) / G,
        "policy_decisions": float(all_seats[:, 1].sum()) / G,
    }
    for k, name in enumerate(PHASE_LABELS):
        per_game[f"decisions_{name}"] = float(all_seats[k, 0]) / G
        per_game[f"legal_per_decision_{name}"] = (
            float(all_seats[k, 2]) / all_seats[k, 0] if all_seats[k, 0] else 0.0)
    apply_kinds = apply_costs(batch, rec, repeat=repeat, clock=clock)
    return {"us_per_game": us["batch"], "parts_us": parts, "raw_us": us,
            "per_game": per_game, "stats": stats, "apply_kinds": apply_kinds,
            "spread": {key: t.spread(clock) for key, t in timings.items()}}


# ---------------------------------------------------------------------------------------------
# Machine description
# ---------------------------------------------------------------------------------------------
def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _physical_cores() -> int | None:
    try:
        import psutil

        return psutil.cpu_count(logical=False)
    except Exception:  # noqa: BLE001 - optional
        return None


def _memory_gib() -> float | None:
    try:
        import psutil

        return psutil.virtual_memory().total / 2**30
    except Exception:  # noqa: BLE001 - optional
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
        except (ValueError, OSError, AttributeError):
            return None


def machine_info() -> dict[str, Any]:
    """CPU model, cores, memory, load and library versions of this machine."""
    import numba

    from tajsim.running.executors import available_cores

    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover - not Unix
        load = (float("nan"),) * 3
    mem = _memory_gib()
    return {
        "cpu": _cpu_model(),
        "cores_usable": available_cores(),
        "cores_logical": os.cpu_count(),
        "cores_physical": _physical_cores(),
        "memory_gib": round(mem, 1) if mem is not None else None,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": _threading_layer(),
        "load_avg_1m": round(load[0], 2),
        "executable": sys.executable,
    }


def _threading_layer() -> str:
    import numba

    try:
        return str(numba.threading_layer())
    except ValueError:  # no parallel kernel has run yet
        return str(numba.config.THREADING_LAYER)


def describe_machine(info: dict[str, Any] | None = None) -> str:
    """One line: ``AMD EPYC, 2 cores (2 logical), 23.4 GiB, Python 3.11.7, numba 0.61.2 ...``."""
    info = machine_info() if info is None else info
    cores = f"{info['cores_usable']} usable cores ({info['cores_logical']} logical"
    if info.get("cores_physical"):
        cores += f", {info['cores_physical']} physical"
    cores += ")"
    return (f"{info['cpu']}, {cores}, {info['memory_gib']} GiB RAM, {info['os']}, "
            f"Python {info['python']}, numba {info['numba']}, numpy {info['numpy']}")
