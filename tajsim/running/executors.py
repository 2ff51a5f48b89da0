"""Where chunks run: in this process (one thread or numba threads), in a process pool, or on a
Dask cluster. Every executor runs the same ``run_chunk`` on the same plain ``task``; they differ
only in where, so results are byte-identical whichever is used.

Each executor is an iterator factory: ``executor.run(task, indices)`` yields ``ChunkResult``
objects as chunks finish (in any order); the caller writes each one once.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tajsim.errors import UserError
from tajsim.running.chunk import ChunkResult, CodeMismatchError, run_chunk
from tajsim.running.interrupts import InterruptGuard, interrupt_guard  # noqa: F401 - re-exported

if TYPE_CHECKING:  # the pools are imported when a run starts
    from concurrent.futures import Executor

    from tajsim.running.config import RunTask

#: Local modes, each with ``workers`` cores busy:
#:
#: * ``threads``: a pool of Python threads, each playing whole chunks with the GIL released
#:   (``play_batch_nb`` is ``nogil``); building one chunk's rows overlaps other chunks' games;
#: * ``prange``: chunks one after the other, each spread over numba threads
#:   (``play_batch_parallel_nb``);
#: * ``processes``: a pool of spawned worker processes, one chunk each.
#:
#: The default is the one measured fastest (docs/running.md); ``$TAJSIM_PARALLEL`` overrides it.
LOCAL_MODES = ("threads", "prange", "processes")
DEFAULT_MODE = "threads"


class ExecutorLostError(RuntimeError):
    """The executor cannot go on (the Dask scheduler was lost); the chunks already yielded are
    complete. The message says what was lost, in one line."""


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class SerialExecutor:
    """Chunks one after the other in this process; ``threads > 1`` uses numba threads."""

    def __init__(self, threads: int = 1) -> None:
        self.threads = max(1, int(threads))
        self.workers = self.threads

    def run(self, task: RunTask, indices: Sequence[int]) -> Iterator[ChunkResult]:
        for index in indices:
            yield run_chunk(task, index, self.threads)

    def close(self) -> None:
        pass


class ThreadExecutor:
    """A pool of ``workers`` Python threads, each playing whole chunks (the kernel releases the
    GIL)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, int(workers))
        self._pool: Executor | None = None

    def run(self, task: RunTask, indices: Sequence[int]) -> Iterator[ChunkResult]:
        from concurrent.futures import ThreadPoolExecutor

        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="tajsim")
        yield from _bounded(self._pool, task, indices, 2 * self.workers)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _bounded(pool: Any, task: RunTask, indices: Sequence[int],
             limit: int, submitted: list[Any] | None = None) -> Iterator[ChunkResult]:
    """Submit ``run_chunk`` for ``indices`` to ``pool`` with at most ``limit`` in flight
    (each future also appended to ``submitted`` when given)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    todo = list(indices)
    todo.reverse()
    pending: set = set()
    try:
        while todo or pending:
            while todo and len(pending) < limit:
                fut = pool.submit(run_chunk, task, todo.pop(), 1)
                pending.add(fut)
                if submitted is not None:
                    submitted[:] = [f for f in submitted if not f.done()]
                    submitted.append(fut)
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
    finally:
        for fut in pending:
            fut.cancel()


def _ignore_sigint() -> None:  # pool initialiser: Ctrl-C is handled by the driver alone
    signal.signal(signal.SIGINT, signal.SIG_IGN)


#: The process pools kept warm between runs of this process, by worker count and the game's
#: code fingerprint (a worker keeps the code it imported: edited code gets a new pool): a
#: spawned worker takes seconds to import tajsim and load a game's kernels (20 s on the loaded
#: 2-core VM), which a fresh pool a run paid in every run (0.07-0.08 of the machine on 16
#: cores in issue 42's measurement).
_WARM_POOLS: dict[tuple[int, str], Executor] = {}


def _shutdown_warm_pools() -> None:
    while _WARM_POOLS:
        _, pool = _WARM_POOLS.popitem()
        pool.shutdown(wait=True, cancel_futures=True)


class ProcessExecutor:
    """A pool of ``workers`` processes (spawned), each playing whole chunks on one thread.

    The pool outlives the executor: the next run in this process with as many workers finds
    its processes started and their kernels loaded. ``close()`` waits for the chunks in flight
    (as a pool's shutdown did); a pool whose worker died is shut down and not reused.
    """

    def __init__(self, workers: int) -> None:
        self.workers = max(1, int(workers))
        self._pool: Executor | None = None
        self._key = (self.workers, "")
        self._futures: list[Any] = []

    def run(self, task: RunTask, indices: Sequence[int]) -> Iterator[ChunkResult]:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        if self._pool is not None and self._key != (self.workers, task.code):
            self.close()
        if self._pool is None:
            self._key = (self.workers, task.code)
            pool = _WARM_POOLS.pop(self._key, None)
            if pool is None or getattr(pool, "_broken", False):
                if pool is None and not _WARM_POOLS:
                    import atexit

                    atexit.unregister(_shutdown_warm_pools)
                    atexit.register(_shutdown_warm_pools)
                pool = ProcessPoolExecutor(
                    self.workers, mp_context=mp.get_context("spawn"),
                    initializer=_ignore_sigint)
            self._pool = pool
        yield from _bounded(self._pool, task, indices, 2 * self.workers, self._futures)

    def close(self) -> None:
        if self._pool is not None:
            from concurrent.futures import wait

            pool, self._pool = self._pool, None
            for fut in self._futures:
                fut.cancel()
            wait(self._futures)
            self._futures = []
            if getattr(pool, "_broken", False):
                pool.shutdown(wait=True, cancel_futures=True)
                return
            _shutdown_warm_pools()  # one warm pool at most: the latest
            _WARM_POOLS[self._key] = pool


class DaskExecutor:
    """Chunks as tasks on a Dask cluster (``distributed.Client``).

    The task is scattered once to every worker; each chunk is one ``run_chunk`` task with
    ``retries`` (an exception is retried; a dead worker's tasks are rescheduled by Dask). At
    most ``2 x worker threads + 2`` chunks are in flight, so memory stays bounded. A scheduler
    lost mid-run raises ``ExecutorLostError`` (one line) instead of Dask's own tracebacks, and
    a worker running other tajsim code a ``UserError``.
    """

    def __init__(self, scheduler: Any, timeout: float = 5.0, retries: int = 2,
                 fault: dict[str, Any] | None = None) -> None:
        self.retries = retries
        self._fault = fault
        self.client, self._own = connect(scheduler, timeout)
        self.address = str(getattr(self.client.scheduler, "address", scheduler))
        self.workers = max(1, sum(self.client.nthreads().values()))
        # Dask logs every failed reconnection with a traceback; the run says it in one line.
        self._client_log = logging.getLogger("distributed.client")
        self._client_level = self._client_log.level
        self._client_log.setLevel(logging.CRITICAL)

    def run(self, task: RunTask, indices: Sequence[int]) -> Iterator[ChunkResult]:
        from distributed import as_completed

        client = self.client
        try:
            [task_future] = client.scatter([task], broadcast=True, hash=False)
        except Exception as exc:  # noqa: BLE001 - lost before the first chunk
            raise self._lost(exc) from None
        todo = list(indices)
        limit = 2 * max(1, sum(client.nthreads().values())) + 2
        prefix = f"tajsim-{task.fingerprint}-{os.getpid()}"

        live: dict[str, Any] = {}

        def submit(index: int):
            fut = client.submit(run_chunk, task_future, index, 1, self._fault,
                                key=f"{prefix}-{index}", retries=self.retries, pure=False)
            live[fut.key] = fut
            return fut

        queue = as_completed([submit(todo.pop(0)) for _ in range(min(limit, len(todo)))],
                             loop=client.loop)
        try:
            for fut in queue:
                try:
                    result = fut.result()
                except CodeMismatchError as exc:
                    raise UserError(str(exc)) from None
                except Exception as exc:  # noqa: BLE001 - sorted below
                    if self._is_lost(exc):
                        raise self._lost(exc) from None
                    raise
                live.pop(fut.key, None)
                fut.release()
                if todo:
                    queue.add(submit(todo.pop(0)))
                yield result
        finally:
            for fut in live.values():
                try:
                    fut.cancel()
                except Exception:  # noqa: BLE001, S110 - the scheduler may be gone
                    pass
            try:
                task_future.release()
            except Exception:  # noqa: BLE001, S110
                pass

    def _is_lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` means the scheduler is gone (not that a chunk failed)."""
        from asyncio import CancelledError as AsyncCancelled
        from concurrent.futures import CancelledError

        from distributed.comm.core import CommClosedError

        if isinstance(exc, (CancelledError, AsyncCancelled, CommClosedError)):
            return True
        return getattr(self.client, "status", "running") != "running"

    def _lost(self, exc: BaseException) -> ExecutorLostError:
        reason = getattr(exc, "reason", None) or (str(exc).splitlines()[0] if str(exc) else
                                                   type(exc).__name__)
        return ExecutorLostError(f"lost the Dask scheduler {self.address} ({reason})")

    def close(self) -> None:
        try:
            if self._own:
                self.client.close(timeout=2)
        except Exception:  # noqa: BLE001, S110 - a lost scheduler cannot be told goodbye
            pass
        finally:
            self._client_log.setLevel(self._client_level)


def _check_address(address: str, timeout: float) -> None:
    """Refuse a malformed address, an unknown scheme, or a TCP address nobody listens on,
    before a ``Client`` is made (a failed ``Client`` hangs 10 s in its destructor)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    def refuse(reason: str) -> UserError:
        return UserError(f"cannot reach the Dask scheduler {address!r} ({reason}); expected "
                         "the address of a running `dask scheduler`, e.g. tcp://host:8786")

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme not in ("tcp", "tls"):
            return
        host, port = parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise refuse(str(exc).splitlines()[0] if str(exc) else "malformed address") from None
    if port is None:
        raise refuse("no port number")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise refuse(exc.strerror or str(exc) or type(exc).__name__) from None


def connect(scheduler: Any, timeout: float = 5.0):
    """A ``distributed.Client`` for ``scheduler`` (an address or a Client): ``(client, own)``.

    An unreachable or malformed address raises a one-line ``UserError``.
    """
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is a dependency
        raise UserError("--scheduler needs dask.distributed; pip install 'dask[distributed]'")\
            from None
    if isinstance(scheduler, Client):
        return scheduler, False
    address = str(scheduler)
    _check_address(address, timeout)
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError, ...
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(
            f"cannot reach the Dask scheduler {address!r} ({reason}); expected the address of "
            "a running `dask scheduler`, e.g. tcp://host:8786"
        ) from None
    return client, True


def check_workers(workers: Any) -> int | None:
    """``workers`` if it is None (all cores) or a whole number >= 1; else a ``UserError``."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise UserError(f"worker count {workers!r} is not allowed; expected 1 or more")
    return workers


def make_executor(workers: int | None = None, scheduler: Any = None,
                  mode: str | None = None) -> Any:
    """The executor for ``workers`` local cores (default: all) or a Dask ``scheduler``."""
    if scheduler is not None:
        return DaskExecutor(scheduler)
    workers = check_workers(workers)
    if workers is None:
        workers = available_cores()
    mode = mode or os.environ.get("TAJSIM_PARALLEL", DEFAULT_MODE)
    if mode not in LOCAL_MODES:
        raise UserError(f"unknown parallel mode {mode!r}; expected one of: "
                        f"{', '.join(LOCAL_MODES)}")
    if workers == 1 or mode == "prange":
        return SerialExecutor(threads=workers)
    if mode == "threads":
        return ThreadExecutor(workers)
    return ProcessExecutor(workers)
