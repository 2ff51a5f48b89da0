"""Benchmark library shared by ``tajsim bench`` and the ``benchmarks/`` scripts, for any game.

Everything here times the *same* compiled kernels the runner uses (the game's ``play_batch`` and
``play_batch_parallel``) on inputs built the way the runner builds them
(:class:`~tajsim.running.config.RunConfig`, ``lineup_codes``), with compilation and
warm-up excluded and fixed seeds, so a figure can be reproduced and checked:

* :func:`make_batch` / :class:`Batch`: the kernel inputs of ``games`` games of a run;
* :func:`time_batch`: wall time of repeated runs (one core, numba threads or Python threads);
* :func:`check_batch`: the benchmarked path against the normal path (``simulate()``), serial
  against parallel, so a fast but wrong engine cannot pass;
* :func:`profile_batch`: where a game's time goes (setup, legal actions by phase, applying
  actions, the policy, the records), from compiled harness kernels timed by difference (made
  for each game from its kernels by :func:`profile_kernels`);
* the machine description lives in :mod:`tajsim.running.machine`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from types import SimpleNamespace
from typing import Any

import numba
import numpy as np
import pandas as pd
from numba import njit

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.running.config import RunConfig, RunTask, lineup_codes, setup_ids_for
from tajsim.running.executors import available_cores
from tajsim.running.records import results_frame
from tajsim.running.simulate import simulate

#: Room for the actions of one game in the profiling harness (a 5-player random Taj Mahal game
#: takes about 300; a longer game is an error, never a silent truncation).
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
    task: RunTask
    comp: np.ndarray
    edition: int  # the rules code the kernels receive
    game_ids: np.ndarray
    setup_ids: np.ndarray
    lineups: np.ndarray
    lineup_ids: np.ndarray
    lineup_params: np.ndarray

    @property
    def spec(self) -> GameSpec:
        return get_game(self.config.game)

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
        spec = self.spec
        return (np.zeros(self.games * self.players, spec.result_dtype),
                np.zeros(self.games, spec.setup_dtype))

    def slice(self, start: int, stop: int) -> Batch:
        """The games ``start .. stop - 1`` of this batch (positions, not ids)."""
        return Batch(self.config, self.task, self.comp, self.edition,
                     self.game_ids[start:stop], self.setup_ids[start:stop],
                     self.lineups[start:stop], self.lineup_ids, self.lineup_params)

    def args(self) -> tuple:
        """Leading arguments shared by the batch kernels (up to ``lineup_params``)."""
        return (self.comp, self.players, self.edition, self.seed, self.game_ids, self.setup_ids,
                self.lineups, self.lineup_ids, self.lineup_params)

    def switches(self) -> tuple:
        """The kernels' strategy-family switches, as the runner passes them."""
        return self.spec.strategies.kernel_switches(self.lineup_ids)

    def run(self, threads: int = 1, mode: str = "prange",
            out: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Play the batch; return ``(results, setups)``.

        ``threads == 1``: ``play_batch`` on this thread. ``mode="prange"``:
        ``play_batch_parallel`` on ``threads`` numba threads (``threads * 8`` blocks, as the
        runner does). ``mode="threads"``: ``threads`` Python threads each running
        ``play_batch`` (which releases the GIL) on ``4 * threads`` contiguous slices.
        """
        kernels = self.spec.kernels
        results, setups = self.outputs() if out is None else out
        if threads <= 1:
            kernels.play_batch(*self.args(), results, setups, *self.switches())
        elif mode == "prange":
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            kernels.play_batch_parallel(*self.args(), results, setups,
                                        min(self.games, threads * 8), *self.switches())
        elif mode == "threads":
            n = self.players
            parts = min(self.games, 4 * threads)
            bounds = [self.games * k // parts for k in range(parts + 1)]

            def play(k: int) -> None:
                a, b = bounds[k], bounds[k + 1]
                part = self.slice(a, b)
                kernels.play_batch(*part.args(), results[a * n:b * n], setups[a:b],
                                   *self.switches())

            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(play, range(parts)))
        else:
            raise ValueError(f"unknown mode {mode!r}; expected 'prange' or 'threads'")
        return results, setups

    def frame(self, results: np.ndarray, setups: np.ndarray):
        """The results frame (``docs/results-schema.md``) of one run of this batch."""
        return results_frame(self.task, results, setups, self.lineups)


def make_batch(games: int, players: int = 4, strategies: str | Sequence[str] = "random",
               edition: str | None = None, seed: int = 0, start: int = 0,
               rotate: bool | str = "auto", games_per_setup: int = 1,
               game: str | GameSpec | None = None,
               options: dict[str, bool] | None = None) -> Batch:
    """Kernel inputs for games ``start .. start + games - 1`` of the run ``simulate(start +
    games, players, strategies, edition, seed, rotate=rotate, games_per_setup=..., game=...)``.
    """
    config = RunConfig.make(games=start + games, players=players, strategies=strategies,
                            edition=edition, seed=seed, rotate=rotate,
                            games_per_setup=games_per_setup, chunk_size=start + games,
                            game=game, options=options)
    task = config.task()
    game_ids = np.arange(start, start + games, dtype=np.int64)
    return Batch(
        config=config,
        task=task,
        comp=np.asarray(config.components.packed, np.int64),
        edition=config.rules,
        game_ids=game_ids,
        setup_ids=setup_ids_for(get_game(config.game), config.setups, config.games_per_setup,
                                game_ids),
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


# ---------------------------------------------------------------------------------------------
# Profiling harness: compiled kernels timed by difference, made for each game from its kernels
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _seat_tables(n_players, lineup, lineup_ids, lineup_params):
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for p in range(n_players):
        seat_ids[p] = lineup_ids[lineup[p]]
        seat_params[p, :] = lineup_params[lineup[p], :]
    return seat_ids, seat_params


_HARNESS: dict[str, SimpleNamespace] = {}


def profile_kernels(spec: GameSpec) -> SimpleNamespace:
    """The profiling harness of ``spec``: compiled kernels built around the game's own
    (``start_game``, ``play_out``, ``legal_actions``, ``apply_action``, ``write_records``,
    ``current_player``, ``phase``). They are closures over those kernels, compiled on first use
    in each process (numba cannot reuse a cached closure), which costs only their loops: the
    game's kernels themselves load from the cache."""
    if spec.name in _HARNESS:
        return _HARNESS[spec.name]
    k = spec.kernels
    start_game, play_out, legal_actions = k.start_game, k.play_out, k.legal_actions
    apply_action, write_records = k.apply_action, k.write_records
    current_player, phase_of = k.current_player, k.phase
    STATE_SIZE, N_ACTIONS, MAX_PLAYERS = spec.state_size, spec.n_actions, spec.max_players

    @njit(nogil=True)
    def record_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                        lineup_ids, lineup_params, actions, n_actions, *switches):
        """Play the games as ``play_batch`` does (same ``start_game`` + ``play_out``),
        recording each game's actions in ``actions[g]`` and their number in ``n_actions[g]``."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            n_actions[g] = play_out(comp, state, seat_ids, seat_params, prng, legal, actions[g],
                                    *switches)

    @njit(nogil=True)
    def play_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                     lineup_ids, lineup_params, *switches):
        """``play_batch`` without writing records; returns the number of actions."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        none = np.empty(0, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            check += play_out(comp, state, seat_ids, seat_params, prng, legal, none, *switches)
        return check

    @njit(nogil=True)
    def setup_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                      lineup_ids, lineup_params):
        """Only the game setups (and the per-game seat tables) of the batch; a checksum."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            check += current_player(state) + seat_ids[0]
        return check

    @njit(nogil=True)
    def replay_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions,
                  n_actions, legal_mask, stats):
        """Replay recorded games: setup, then each recorded action applied with
        ``apply_action``; ``legal_actions`` is called before an action whose phase bit is in
        ``legal_mask`` (bit k = phase k). No policy runs.

        ``stats`` (int64[MAX_PLAYERS + 1, n_phases, 3], added to): per seat (row
        ``MAX_PLAYERS`` = all seats) and phase, the decisions, the decisions with more than one
        legal action (the policy's) and the legal actions listed (counted only where
        ``legal_actions`` ran). Returns a checksum; -10**9 for a replay that diverged.
        """
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                phase = phase_of(state)
                if (legal_mask >> phase) & 1:
                    n = legal_actions(state, comp, legal)
                    p = current_player(state)
                    stats[p, phase, 0] += 1
                    stats[MAX_PLAYERS, phase, 0] += 1
                    if n > 1:
                        stats[p, phase, 1] += 1
                        stats[MAX_PLAYERS, phase, 1] += 1
                    stats[p, phase, 2] += n
                    stats[MAX_PLAYERS, phase, 2] += n
                    check += legal[n - 1]
                apply_action(state, comp, actions[g, i])
            if current_player(state) != -1:
                check -= 1_000_000_000  # the replay diverged from the recorded game
        return check

    @njit(nogil=True)
    def records_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                        lineup_ids, lineup_params, actions, n_actions, results, setups, reps):
        """Replay each game once, then write its records ``reps`` times (for the cost of
        ``write_records`` by difference)."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        for g in range(game_ids.shape[0]):
            seat_ids, _ = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                apply_action(state, comp, actions[g, i])
            for _ in range(reps):
                write_records(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                              g * n_players, setups, g)

    @njit
    def snapshot_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions,
                    n_actions, states, kinds, acts):
        """Replay the recorded games, copying the state before each action into ``states[k]``
        (its action in ``acts[k]``, its phase in ``kinds[k]``) while there is room; returns the
        number of snapshots."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        k = 0
        for g in range(game_ids.shape[0]):
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                if k < states.shape[0]:
                    states[k, :] = state
                    acts[k] = actions[g, i]
                    kinds[k] = phase_of(state)
                    k += 1
                apply_action(state, comp, actions[g, i])
        return k

    @njit
    def apply_snapshots_nb(comp, states, kinds, acts, n, kind, apply, reps, saved, scratch):
        """For each snapshot of ``kind``: copy it into ``saved`` (once), then ``reps`` times
        copy ``saved`` into ``scratch`` (cache-hot) and, with ``apply``, apply the action."""
        check = 0
        for k in range(n):
            if kinds[k] == kind:
                saved[:] = states[k]
                for _ in range(reps):
                    scratch[:] = saved
                    if apply:
                        apply_action(scratch, comp, acts[k])
                    check += scratch[0]
        return check

    harness = SimpleNamespace(
        record_games=record_games_nb, play_only=play_only_nb, setup_only=setup_only_nb,
        replay=replay_nb, records_only=records_only_nb, snapshot=snapshot_nb,
        apply_snapshots=apply_snapshots_nb)
    _HARNESS[spec.name] = harness
    return harness


RECORD_REPS = 8


def apply_costs(batch: Batch, rec: Recording, max_snapshots: int = 4000, repeat: int = 5,
                clock: str = "thread") -> dict[str, tuple[float, float]]:
    """Cost of ``apply_action`` by decision phase: ``{phase: (ns per call, calls per game)}``,
    from state snapshots: each is applied 16 times to a cache-hot copy; the cost is (copy +
    apply) minus (copy only), best of ``repeat``. Indicative: the sum over phases need not
    match the replayed total exactly (different cache state)."""
    spec = batch.spec
    h = profile_kernels(spec)
    total = int(rec.n_actions.sum())
    cap = min(total, max_snapshots)
    states = np.zeros((cap, spec.state_size), np.int64)
    kinds = np.zeros(cap, np.int64)
    acts = np.zeros(cap, np.int64)
    n = h.snapshot(batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
                   batch.setup_ids, rec.actions, rec.n_actions, states, kinds, acts)
    # games whose every action was captured (for calls per game)
    done = np.searchsorted(np.cumsum(rec.n_actions), n, side="right")
    scratch = np.zeros(spec.state_size, np.int64)
    saved = np.zeros(spec.state_size, np.int64)
    reps = 16
    out = {}
    for kind, name in enumerate(spec.phase_names):
        count = int((kinds[:n] == kind).sum())
        if count == 0:
            out[name] = (0.0, 0.0)
            continue
        funcs: dict[str, Callable[[], Any]] = {
            "copy": partial(h.apply_snapshots, batch.comp, states, kinds, acts, n, kind, False,
                            reps, saved, scratch),
            "apply": partial(h.apply_snapshots, batch.comp, states, kinds, acts, n, kind, True,
                             reps, saved, scratch),
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
    profile_kernels(batch.spec).record_games(*batch.args(), actions, n_actions,
                                             *batch.switches())
    seconds = time.perf_counter() - t0
    if batch.games and n_actions.max() > MAX_GAME_ACTIONS:
        raise RuntimeError(f"a game took {n_actions.max()} actions; the profiling harness "
                           f"records at most {MAX_GAME_ACTIONS}")
    return Recording(actions, n_actions, seconds)


def decision_stats(batch: Batch, rec: Recording) -> np.ndarray:
    """int64[max_players + 1, n_phases, 3] decision counts of the recorded games (see the
    harness's ``replay``)."""
    spec = batch.spec
    n_phases = len(spec.phase_names)
    stats = np.zeros((spec.max_players + 1, n_phases, 3), np.int64)
    check = profile_kernels(spec).replay(
        batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids, batch.setup_ids,
        rec.actions, rec.n_actions, (1 << n_phases) - 1, stats)
    if check < -500_000_000:
        raise AssertionError("replaying the recorded actions did not end the games")
    return stats


def profile_batch(batch: Batch, repeat: int = 5, warmup: int = 1,
                  clock: str = "thread") -> dict[str, Any]:
    """Where the time of ``batch`` goes, per game (microseconds), on one core.

    Components, differences of the best of ``repeat`` runs of harness kernels timed
    round-robin (``clock="thread"``: CPU time of this thread, robust to other processes):

    * ``setup``: ``start_game`` (deal, shuffles) and the seat tables;
    * ``apply``: every recorded action replayed with ``apply_action`` (minus setup);
    * ``legal_<phase>``: ``legal_actions`` at the decisions of that phase (replay with
      legal actions listed in that phase only, minus the replay without);
    * ``policy``: the full play (``start_game`` + ``play_out``) minus the replay with
      every legal list: the strategies' decisions plus the play loop;
    * ``records``: ``write_records`` (replayed games whose records are written
      ``RECORD_REPS`` times, minus none, divided by ``RECORD_REPS``).

    The parts are differences of noisy times: on a busy machine a small part can come out
    slightly negative; the total (``play_batch``) is measured directly.

    Also counts decisions per game by phase and the mean number of legal actions.
    """
    spec = batch.spec
    h = profile_kernels(spec)
    phases = spec.phase_names
    n_phases = len(phases)
    rec = record_batch(batch)
    stats = decision_stats(batch, rec)
    args = batch.args()
    base = (batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
            batch.setup_ids, rec.actions, rec.n_actions)
    scratch = np.zeros((spec.max_players + 1, n_phases, 3), np.int64)
    out = batch.outputs()
    G = batch.games
    funcs: dict[str, Callable[[], Any]] = {
        "setup": lambda: h.setup_only(*args),
        "replay": lambda: h.replay(*base, 0, scratch),
        "replay_legal": lambda: h.replay(*base, (1 << n_phases) - 1, scratch),
        # the kernels compiled for the line-up's strategy families, as the runner runs them
        "play": lambda: h.play_only(*args, *batch.switches()),
        "batch": lambda: spec.kernels.play_batch(*args, *out, *batch.switches()),
        "records_0": lambda: h.records_only(*args, rec.actions, rec.n_actions, *out, 0),
        f"records_{RECORD_REPS}": lambda: h.records_only(*args, rec.actions, rec.n_actions,
                                                         *out, RECORD_REPS),
    }
    for k, name in enumerate(phases):
        funcs[f"replay_legal_{name}"] = partial(h.replay, *base, 1 << k, scratch)
    timings = time_interleaved(funcs, G, repeat, warmup)
    problems = finished_problems(batch, *out)
    if problems:
        raise AssertionError(f"profiled batch is wrong: {problems[0]}")
    us = {key: 1e6 * t.best(clock) / G for key, t in timings.items()}
    parts = {
        "setup": us["setup"],
        "apply": us["replay"] - us["setup"],
        **{f"legal_{name}": us[f"replay_legal_{name}"] - us["replay"] for name in phases},
        "policy": us["play"] - us["replay_legal"],
        "records": (us[f"records_{RECORD_REPS}"] - us["records_0"]) / RECORD_REPS,
    }
    all_seats = stats[spec.max_players]
    per_game = {
        "actions": float(rec.n_actions.mean()),
        "decisions": float(all_seats[:, 0].sum()) / G,
        "policy_decisions": float(all_seats[:, 1].sum()) / G,
    }
    for k, name in enumerate(phases):
        per_game[f"decisions_{name}"] = float(all_seats[k, 0]) / G
        per_game[f"legal_per_decision_{name}"] = (
            float(all_seats[k, 2]) / all_seats[k, 0] if all_seats[k, 0] else 0.0)
    apply_kinds = apply_costs(batch, rec, repeat=repeat, clock=clock)
    return {"us_per_game": us["batch"], "parts_us": parts, "raw_us": us,
            "per_game": per_game, "stats": stats, "apply_kinds": apply_kinds,
            "spread": {key: t.spread(clock) for key, t in timings.items()}}
