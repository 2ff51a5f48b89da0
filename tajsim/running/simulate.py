"""``simulate``: many games between compiled strategies, on every core or on a Dask cluster.

Importing this module is cheap: the kernels are compiled (or loaded from numba's cache) on the
first game, pyarrow and dask are imported when needed.
"""

from __future__ import annotations

import io
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.engine.targets import simulated
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.aggregates import Aggregates, format_summary
from tajsim.running.chunk_check import describe_bad_chunks
from tajsim.running.compiling import announce_unless_told, stderr_line
from tajsim.running.config import RunConfig, RunTask, bool_value, expected_game_seconds
from tajsim.running.executors import (
    ExecutorLostError,
    available_cores,
    check_workers,
    interrupt_guard,
    make_executor,
)
from tajsim.running.gpu import GpuExecutor, check_device_name, check_gpu_run
from tajsim.running.records import read_parquet_files
from tajsim.running.run_files import chunk_name
from tajsim.running.store import RunStore, discard_run

__all__ = ["RunResult", "run_simulation", "simulate"]


@dataclass
class RunResult:
    """What a run produced.

    Attributes
    ----------
    config : RunConfig
    aggregates : Aggregates
        Merged over every chunk of the run (finished earlier or now).
    out : Path or None
        The run directory, if any.
    chunks_run : int
        Chunks played by this call (the others were already on disk).
    records : pandas.DataFrame or None
        The results frame (``docs/results-schema.md``) when it was asked for.
    """

    config: RunConfig
    aggregates: Aggregates
    out: Path | None = None
    chunks_run: int = 0
    records: pd.DataFrame | None = None

    def summary(self) -> pd.DataFrame:
        """Win rate and mean score (and parts) by strategy, by seat and overall, with 95% CIs
        (``Aggregates.summary``)."""
        return self.aggregates.summary()

    def summary_text(self) -> str:
        return format_summary(self.summary(), self.aggregates.games,
                              get_game(self.aggregates.game).score_display,
                              get_game(self.aggregates.game).better_score)


#: Periodic progress lines (stderr not a terminal: a log file, a pipe, CI): none in the first
#: ``PROGRESS_QUIET_S`` seconds (a short run stays quiet), then one for every further tenth of
#: the chunks but no two within ``PROGRESS_GAP_S`` seconds (chunks finished in a burst, e.g.
#: after a compilation, give one line), at least every ``PROGRESS_LINE_S`` seconds, and the
#: last state at the end.
PROGRESS_QUIET_S = 10.0
PROGRESS_GAP_S = 5.0
PROGRESS_LINE_S = 30.0


def _in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (notebook, lab, VS Code): tqdm.auto then draws a
    notebook bar, although stderr is no terminal."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001 - any failure means: not a notebook we can draw in
        return False
    return type(shell).__name__ == "ZMQInteractiveShell"


def progress_mode(progress: bool | None) -> str:
    """How a run shows its progress: ``"bar"`` (tqdm: a terminal, a Jupyter notebook, or
    ``progress=True``), ``"lines"`` (periodic one-line reports on stderr, :class:`LineProgress`:
    ``progress=None`` and stderr a log file or a pipe) or ``"off"`` (``progress=False``)."""
    if progress is not None:
        return "bar" if progress else "off"
    if _in_notebook():
        return "bar"
    try:
        return "bar" if sys.stderr.isatty() else "lines"
    except (AttributeError, ValueError):
        return "lines"


def duration_text(seconds: float) -> str:
    """``seconds`` as a reader counts them: ``48 s``, ``12 min``, ``3 h 05 min``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


class LineProgress:
    """Progress for logs, where a bar's carriage returns would pile up: one line such as
    ``simulating: played 12 of 64 chunks (18,750 of 100,000 games), 41 s, about 3 min left``
    (see ``PROGRESS_QUIET_S``; the time left at the pace of the games played so far in this
    process, games read back from a stored run not counted). The same ``update(games)`` /
    ``close()`` calls as a tqdm bar, one ``update`` per finished chunk."""

    def __init__(self, chunks: int, games: int, chunks_done: int = 0, games_done: int = 0,
                 write: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.chunks, self.games = chunks, games
        self.chunks_done, self.games_done = chunks_done, games_done
        self._games_at_start = games_done
        self._write = write or (lambda line: print(line, file=sys.stderr, flush=True))
        self._clock = clock
        self._start = self._last = clock()
        self._tenth = self._tenth_of(chunks_done)
        self._printed_at: int | None = None  # chunks_done at the last line

    def _tenth_of(self, chunks_done: int) -> int:
        return chunks_done * 10 // max(1, self.chunks)

    def _line(self, now: float) -> str:
        elapsed = now - self._start
        played = self.games_done - self._games_at_start
        left = ""
        if 0 < played and self.games_done < self.games and elapsed > 0:
            pace = elapsed / played
            left = f", about {duration_text((self.games - self.games_done) * pace)} left"
        return (f"simulating: played {self.chunks_done:,} of {self.chunks:,} chunks "
                f"({self.games_done:,} of {self.games:,} games), {elapsed:.0f} s{left}")

    def update(self, games: int) -> None:
        self.chunks_done += 1
        self.games_done += games
        now = self._clock()
        tenth = self._tenth_of(self.chunks_done)
        since = now - self._last
        due = (tenth > self._tenth and since >= PROGRESS_GAP_S) or since >= PROGRESS_LINE_S
        if now - self._start >= PROGRESS_QUIET_S and due:
            self._write(self._line(now))
            self._printed_at, self._last, self._tenth = self.chunks_done, now, tenth

    def close(self) -> None:
        """The last state, where earlier lines were printed and none said it yet."""
        if self._printed_at is not None and self._printed_at != self.chunks_done:
            self._write(self._line(self._clock()))
            self._printed_at = self.chunks_done


def run_simulation(
    games: int,
    players: int | None = None,
    strategies: str | Sequence[str] = ("random",),
    edition: str | int | None = None,
    seed: int = 0,
    *,
    game: str | None = None,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    records: bool = True,
    chunk_size: int | None = None,
    rotate: bool | str = "auto",
    games_per_setup: int = 1,
    setups: str = "random",
    components: Any = None,
    scheduler: Any = None,
    progress: bool | None = None,
    load_records: bool = True,
    on_chunk: Callable[[int], None] | None = None,
    mode: str | None = None,
    executor: Any = None,
    restart: bool = False,
    log: Callable[[str], None] | None = None,
    device: str = "cpu",
) -> RunResult:
    """Run (or resume) a simulation; see :func:`simulate` for the arguments.

    ``load_records=False`` leaves the rows on disk (``RunResult.records`` is None), which is
    what the command line does. ``on_chunk(index)`` is called after each chunk is stored.
    ``mode`` picks the local parallel mode ("threads" or "processes"; default: the measured
    faster one, or ``$TAJSIM_PARALLEL``). ``executor`` replaces the executor chosen from
    ``workers`` / ``scheduler`` / ``mode`` (an object of ``tajsim.running.executors``; it is
    closed at the end). ``restart=True`` deletes the run stored in ``out`` (after the
    arguments are validated) and plays it again (``store.discard_run``). ``log(message)``
    receives the details ``--verbose`` prints: what was validated, what the run directory
    held, each chunk with its timing, where the files go.

    Stored chunks are verified before a run resumes; a bad one is played again, with one
    ``UserWarning`` naming it. A lost Dask scheduler or a failed write is a one-line
    ``UserError`` saying how many chunks are kept and how to resume.

    ``device="gpu"`` plays the games on a CUDA GPU (``pip install tajsim[gpu]``), ``workers``
    threads building the rows; the records are the same as the CPU's, so the device is not part
    of the run (a run may be resumed on the other device).
    """
    say = log or (lambda _m: None)
    # Flags are bools: records="no" would otherwise be taken as true. The counts, the
    # strategies and the rest are checked by RunConfig.make, all before anything is allocated.
    for what, flag in (("records", records), ("load_records", load_records),
                       ("restart", restart)):
        bool_value(flag, what)
    if progress is not None:
        bool_value(progress, "progress")
    check_workers(workers)
    device = check_device_name(device)
    if device == "gpu" and scheduler is not None:
        raise UserError("--device gpu and --scheduler both given; expected one (a Dask cluster "
                        "plays on its workers' CPUs)")
    config = RunConfig.make(
        games=games, players=players, strategies=strategies, edition=edition, seed=seed,
        chunk_size=chunk_size, games_per_setup=games_per_setup, rotate=rotate,
        records=records, components=components, game=game, options=options, setups=setups,
    )
    if progress_mode(progress) != "off":
        note = long_game_note(config)
        if note is not None:
            stderr_line(f"note: {note}")
    say(f"validated: {config.game} {config.edition}, {config.players} players, "
        f"strategies {','.join(config.strategies)} ({config.seating} seats), seed {config.seed}, "
        f"{config.games:,} games in {config.n_chunks} chunk{'s' if config.n_chunks != 1 else ''}"
        f" of {config.chunk_size:,}; components: {config.components.description}")
    if restart:
        if out is None:
            raise UserError("restart needs an output directory (--out): there is no stored "
                            "run to play again")
        if discard_run(out):
            say(f"{out}: the stored run was deleted (--restart)")
    task = config.task()
    if device == "gpu" and executor is None:
        check_gpu_run(config)
        executor = GpuExecutor(check_workers(workers) or available_cores())
        say("device: gpu (numba-cuda"
            + (", simulated" if simulated() else "") + ")")
    if executor is None:
        executor = make_executor(workers, scheduler, mode)
    say(f"workers: {_describe_executor(executor)}")
    # A notebook or a script is told about a compilation too, where a progress display is on.
    stop_notices = announce_unless_told(stderr_line) if progress_mode(progress) != "off" \
        else (lambda: None)
    store = RunStore(out) if out is not None else None
    in_memory: dict[int, bytes] = {}
    stored = 0
    try:
        done = store.open(config) if store is not None else set()
        if store is not None:
            say(f"{out}: {len(done)} of {config.n_chunks} chunks finished and verified"
                + (" (read-only folder: nothing to write)" if store.read_only else ""))
            bad = store.scan_result.bad
            if bad:
                again = "it is" if len(bad) == 1 else "they are"
                warnings.warn(f"{out}: {describe_bad_chunks(bad)}; {again} played again",
                              UserWarning, stacklevel=2)
        to_play = config.n_chunks - len(done)
        total = (store.scan_result.aggregates if store is not None else None) or \
            Aggregates.from_task(task)
        stored = len(done)
        bar = _progress(progress, config, len(done), total.games)
        start = last = time.perf_counter()
        try:
            # Ctrl-C stops the run after the chunk in hand, even where Python loses its
            # KeyboardInterrupt (executors.interrupt_guard).
            with interrupt_guard() as guard, _closed_on_interrupt(executor):
                for result in _play_missing(executor, task, config.n_chunks, done):
                    # a chunk finished after Ctrl-C may hold games whose searches were cut
                    # short (tajsim.engine.stop): never kept
                    guard.check()
                    if store is not None:
                        try:
                            store.write(result)
                        except OSError as exc:
                            raise UserError(
                                f"cannot write {chunk_name(result.index)} to {str(out)!r} "
                                f"({exc.strerror or exc}); the {stored} finished chunks are kept: "
                                "make room or fix the folder, then run the same command again"
                            ) from None
                    elif result.records is not None:
                        in_memory[result.index] = result.records
                    stored += 1
                    total.merge(result.aggregates)
                    bar.update(result.games)
                    now = time.perf_counter()
                    first, stop = config.chunk_games(result.index)
                    say(f"{chunk_name(result.index)}: games {first:,}-{stop - 1:,} stored after "
                        f"{now - last:.2f} s ({stored}/{config.n_chunks} chunks, "
                        f"{now - start:.1f} s in all)")
                    last = now
                    if on_chunk is not None:
                        on_chunk(result.index)
                    guard.check()
        except ExecutorLostError as exc:
            kept = (f"the {stored} finished chunks of {config.n_chunks} are kept in "
                    f"{str(out)!r}; run the same command again to resume") if store is not None \
                else "the finished chunks are lost (no --out to keep them in)"
            raise UserError(f"{exc}; {kept}") from None
        finally:
            bar.close()
        if store is not None:
            try:
                store.write_summary(total.summary())
            except OSError as exc:
                raise UserError(f"cannot write the summary to {str(out)!r} "
                                f"({exc.strerror or exc}); every chunk is kept: fix the folder "
                                "and run the same command again") from None
            say(f"{out}: rows in chunks/, sums in aggregates/, summary.csv"
                if config.records else f"{out}: sums in aggregates/, summary.csv")
        frame = None
        if records and load_records:
            if store is not None:
                frame = store.read_records(range(config.n_chunks))
            else:
                frame = read_parquet_files([io.BytesIO(in_memory[k]) for k in sorted(in_memory)])
        return RunResult(config=config, aggregates=total, out=Path(out) if out else None,
                         chunks_run=to_play, records=frame)
    finally:
        stop_notices()
        executor.close()
        if store is not None:
            store.close()


@contextmanager
def _closed_on_interrupt(executor: Any) -> Iterator[None]:
    """On Ctrl-C, wait for the chunks in flight (``executor.close()``) before the guard around
    this is left: they end early only while the stop flag is set (:mod:`tajsim.engine.stop`),
    and leaving the guard clears it."""
    try:
        yield
    except KeyboardInterrupt:
        executor.close()
        raise


#: A game expected to cost more than this many seconds of one core is said before a run starts.
LONG_GAME_S = 600.0


def _duration(seconds: float) -> str:
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:,.0f} days"
    if seconds >= 7200:
        return f"{seconds / 3600:,.1f} hours"
    return f"{seconds / 60:,.0f} minutes"


def long_game_note(config: RunConfig) -> str | None:
    """What a run says before it starts when one of its games is expected to take more than
    ``LONG_GAME_S`` of one core (a search's time budget times its decisions in a game:
    ``ismcts:ms=60000`` makes a 4-player Taj Mahal game about 4 hours), else None. The
    expectation is the chunk sizing's (``expected_game_seconds``): rough, but never off by
    the factor that matters here."""
    spec = get_game(config.game)
    parsed = [spec.strategies.parse(text) for text in config.strategies]
    seconds = expected_game_seconds(spec, config.players, parsed)
    if seconds < LONG_GAME_S:
        return None
    total = "" if config.games == 1 else \
        f", {config.games:,} games about {_duration(seconds * config.games)}"
    return (f"one game of {spec.title} with {', '.join(config.strategies)} at {config.players} "
            f"players takes about {_duration(seconds)} of one core{total}: a smaller time "
            "budget (ms=) or fewer iterations for a quicker run")


#: Chunk indices handed to the executor at a time. A run may have up to ``MAX_CHUNKS`` chunks;
#: listing them all up front took memory in proportion to the games (``simulate -n 10**22``
#: grew to 15 GB before the game count was bounded), a window keeps it flat. A run of fewer
#: chunks (every run of up to 40 million games in default chunks) is one window, as before.
CHUNK_WINDOW = 4096


def _play_missing(executor: Any, task: RunTask, n_chunks: int,
                  done: set[int]) -> Iterator[Any]:
    """The executor's results for every chunk of ``range(n_chunks)`` not in ``done``, asked
    for ``CHUNK_WINDOW`` indices at a time (in order)."""
    for start in range(0, n_chunks, CHUNK_WINDOW):
        window = [k for k in range(start, min(start + CHUNK_WINDOW, n_chunks)) if k not in done]
        if window:
            yield from executor.run(task, window)


def _describe_executor(executor: Any) -> str:
    name = type(executor).__name__.replace("Executor", "").lower()
    workers = getattr(executor, "workers", "?")
    return f"{workers} ({name})"


def _progress(progress: bool | None, config: RunConfig, chunks_done: int, games_done: int):
    """The run's progress display (``progress_mode``): a tqdm bar in games, periodic lines, or
    a disabled bar."""
    mode = progress_mode(progress)
    if mode == "lines":
        return LineProgress(config.n_chunks, config.games, chunks_done, games_done)
    from tqdm.auto import tqdm

    return tqdm(total=config.games, initial=games_done, unit=" games", unit_scale=True,
                disable=mode == "off", file=sys.stderr, dynamic_ncols=True,
                desc="simulating", smoothing=0.1)


def simulate(
    games: int,
    players: int | None = None,
    strategies: str | Sequence[str] = ("random",),
    edition: str | int | None = None,
    seed: int = 0,
    *,
    game: str | None = None,
    options: dict[str, Any] | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    records: bool = True,
    chunk_size: int | None = None,
    rotate: bool | str = "auto",
    games_per_setup: int = 1,
    setups: str = "random",
    components: Any = None,
    scheduler: Any = None,
    progress: bool | None = None,
    device: str = "cpu",
) -> pd.DataFrame:
    """Play ``games`` games and return one row per player per game (``docs/results-schema.md``).

    Parameters
    ----------
    games : int
        Number of games; game ids are ``0 .. games - 1``.
    players : int, optional
        Within the game's range (Taj Mahal: 2-5 in the 2018 edition, 3-5 in the 2000 one);
        None: the game's default table size (``GameSpec.default_players``).
    strategies : str or sequence of str
        Registered strategy names, optionally with parameters (``"name:key=value:key=value"``);
        as a list or a comma-separated string. One per seat (fixed seats), fewer than the
        seats (a field, seats rotated so each strategy sits in each seat equally often), or
        more than the seats with ``rotate="round-robin"``. The ``strategy`` column holds the
        text as given.
    edition : str, optional
        One of the game's editions (Taj Mahal: "2018", the default, or "2000").
    seed : int
        Master seed (0 .. 2**63 - 1). The same seed and configuration give byte-identical
        results whatever ``workers``, chunking of the work or Dask cluster.
    workers : int, optional
        Local cores to use (default: all). Ignored with ``scheduler``.
    out : path, optional
        Run directory: results are written chunk by chunk as Parquet
        (``out/chunks/chunk-000000.parquet`` ...); calling again with the same arguments
        resumes an interrupted run and plays only the missing chunks.
    records : bool
        False: keep no rows, only the mergeable aggregates; the return value is then the
        summary frame (``RunResult.summary``: win rates and scores by strategy and by seat).
    chunk_size : int, optional
        Games per chunk (default: 1/64 of the run, kept between 0.05 (0.2 with records) and
        2 s of one core by the line-up's expected cost and at most 10,000 games:
        ``default_chunk_size`` of
        :mod:`tajsim.running.config`). Part of the run's configuration (the chunk files), not
        of the results.
    rotate : True, False, "auto" or "round-robin"
        Seating: "auto" = fixed seats if there is one strategy per seat, a rotated field if
        fewer; True = rotate even with one per seat; "round-robin" = more strategies than
        seats, tables cycling through every combination (each in every rotation).
    games_per_setup : int
        Games played on each setup (Taj Mahal: province order + bonus tiles): ``setup_id =
        game_id // games_per_setup``.
    setups : {"random", "enumerated"}
        "random": each setup drawn from its id; "enumerated": every setup the game lists
        (``GameSpec.enumerated_setups``, e.g. Maharaja's 5,040 governor orders) in turn,
        ``games_per_setup`` games each.
    components : optional
        ``None`` (the shipped board and components), a ``Components`` object, a
        ``(board_path, components_path)`` pair (either may be None), a dict with ``board`` /
        ``components`` / ``alternative`` keys, or ``"alternative:SEED"``.
    scheduler : str or distributed.Client, optional
        Address of a Dask scheduler (``tcp://host:8786``) to run the chunks on.
    game : str, optional
        A registered game (``tajsim.games.registry``): "tajmahal" (the default), ...
    options : dict of str to bool, optional
        The game's rule options (``GameSpec.options``) switched on or off.
    progress : bool, optional
        True: a progress bar with games per second; False: nothing. Default: a bar in a
        terminal and in a Jupyter notebook (tqdm's notebook bar), and where stderr is a log
        file or a pipe (CI, ``nohup``) one line now and then, such as ``simulating: played 12
        of 64 chunks (18,750 of 100,000 games), 41 s`` (after 10 s, then every tenth of the
        chunks or 30 s).
    device : "cpu" or "gpu"
        Where the games are played. "gpu" needs a CUDA GPU and ``pip install tajsim[gpu]``;
        it plays ``random``, ``greedy`` and the heuristic presets (not search strategies) and
        gives the same results as the CPU.

    Returns
    -------
    pandas.DataFrame
        The results (one row per player per game, in game order), or the summary table when
        ``records=False``.
    """
    result = run_simulation(
        games, players, strategies, edition, seed, game=game, options=options, workers=workers,
        out=out, records=records,
        chunk_size=chunk_size, rotate=rotate, games_per_setup=games_per_setup, setups=setups,
        components=components, scheduler=scheduler, progress=progress, device=device,
    )
    if not records:
        return result.summary()
    return result.records
