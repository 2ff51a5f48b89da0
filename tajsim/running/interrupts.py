"""Ctrl-C, the same way in every command: what is finished is kept, one line, exit status 130.

Python raises ``KeyboardInterrupt`` wherever the main thread is when the signal's handler runs.
Raised inside a finalizer (a ``__del__`` or ``weakref`` callback that the garbage collector runs
between two lines of pandas or pyarrow) or inside a ctypes callback (numba's compiler calls back
into Python from LLVM), it is printed as "Exception ignored" and lost: a run went on to its last
chunk, and ``tajsim bench`` interrupted while compiling finished and exited 0.

:func:`interrupt_guard` therefore also *remembers* the signal (:class:`InterruptGuard`), and the
places that can stop cleanly ask it (:meth:`InterruptGuard.check`): the run loop after every
stored chunk, the end of every compilation (:func:`watch_compiles`), a command's progress
callbacks, and the command line after the command returned (``tajsim.cli.main``), which turns a
remembered Ctrl-C into the same exit status 130 as a raised one. Guards nest: a run inside a
command shares the command's guard. The module imports nothing heavy (the command line sets the
guard before any command is imported).

A search inside a compiled kernel (``ismcts:ms=2000``: seconds a decision, minutes a game) does
not see a ``KeyboardInterrupt``; a Ctrl-C also requests a stop (:mod:`tajsim.engine.stop`),
which the searches read after every iteration, so the games in hand end within moments (and are
discarded: the runner stores no chunk that finished after Ctrl-C). Python runs a signal's
handler in the main thread only between two lines of Python, never while the main thread itself
is inside a kernel; so the guard also has the signal written to a pipe at once
(``signal.set_wakeup_fd``), and a small thread reading it requests the stop.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["EXIT_INTERRUPTED", "InterruptGuard", "check_interrupt", "interrupt_guard",
           "interrupted", "watch_compiles"]

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, what a shell reports).
EXIT_INTERRUPTED = 130


class InterruptGuard:
    """What ``interrupt_guard`` yields: ``check()`` raises ``KeyboardInterrupt`` if Ctrl-C
    was pressed since the guard was set, whatever became of the exception it raised."""

    def __init__(self) -> None:
        self.interrupted = threading.Event()

    def check(self) -> None:
        if self.interrupted.is_set():
            raise KeyboardInterrupt


#: The guard whose handler is installed (None: none is).
_active: InterruptGuard | None = None


@contextmanager
def interrupt_guard() -> Iterator[InterruptGuard]:
    """Make Ctrl-C (SIGINT) stop the work for certain: while the guard is set, SIGINT raises
    ``KeyboardInterrupt`` as usual and is also remembered, so that ``check()`` raises it again
    where the first one was lost (see the module's docstring).

    The guard is set only in the main thread over Python's default handler: an ignored SIGINT
    (a background job of a script) stays ignored, a caller's own handler stays. Inside a guard
    already set (a run inside a command), the same guard is yielded.
    """
    global _active
    if _active is not None:
        yield _active
        return
    guard = InterruptGuard()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield guard
        return

    def remember_and_raise(signum: int, frame: Any) -> None:
        _ctrl_c(guard)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, remember_and_raise)
    _active = guard
    _clear_stop()  # a request left from before (a watcher thread's late one) is not this run's
    stop_watching = _watch_signals(guard)
    try:
        yield guard
    finally:
        _active = None
        signal.signal(signal.SIGINT, signal.default_int_handler)
        stop_watching()
        _clear_stop()


def _clear_stop() -> None:
    stop = sys.modules.get("tajsim.engine.stop")
    if stop is not None:
        stop.clear_stop()


def _ctrl_c(guard: InterruptGuard) -> None:
    """Remember Ctrl-C and ask the compiled searches to stop (if any was imported, hence may
    run); only while ``guard`` is set: the watcher thread may read the signal late, after its
    guard ended, and a stop requested then would cut the next run's searches short."""
    if _active is not guard:
        return
    guard.interrupted.set()
    stop = sys.modules.get("tajsim.engine.stop")
    if stop is not None:
        stop.request_stop()


def _watch_signals(guard: InterruptGuard) -> Callable[[], None]:
    """Have SIGINT written to a pipe the moment it arrives (``signal.set_wakeup_fd``) and a
    thread reading it call :func:`_ctrl_c`: it runs while the main thread is inside a kernel,
    where the signal's Python handler cannot. Returns what undoes it. Where another wakeup fd
    is set (an event loop's), that one stays and nothing is watched."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return lambda: None
    os.set_blocking(write_end, False)
    try:
        old = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except (ValueError, OSError):
        old = None
    if old != -1:  # not ours to take (or not possible)
        if old is not None:
            signal.set_wakeup_fd(old)
        os.close(read_end)
        os.close(write_end)
        return lambda: None

    def watch() -> None:
        while True:
            try:
                data = os.read(read_end, 64)
            except OSError:
                return
            if not data:  # the write end is closed: the guard is over
                return
            if signal.SIGINT in data:
                _ctrl_c(guard)

    thread = threading.Thread(target=watch, daemon=True, name="tajsim-ctrl-c")
    thread.start()

    def undo() -> None:
        signal.set_wakeup_fd(-1)
        os.close(write_end)
        thread.join(1.0)
        os.close(read_end)

    return undo


def interrupted() -> bool:
    """Whether Ctrl-C was pressed while the current guard was set."""
    return _active is not None and _active.interrupted.is_set()


def check_interrupt() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed while the current guard was set (also
    in a worker thread: a progress callback there stops its thread's work)."""
    if interrupted():
        raise KeyboardInterrupt


_compile_listener: Any = None


def watch_compiles() -> None:
    """Check for a remembered Ctrl-C at the end of every numba compilation: pressed while LLVM
    compiles, it is raised inside a ctypes callback and lost, and the command went on; and a
    compilation in a worker thread (a run's first chunk) ends with its next function instead
    of going on for a minute. Once per process; imports numba."""
    global _compile_listener
    if _compile_listener is not None:
        return
    from numba.core import event

    class _StopAfterCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            pass

        def on_end(self, ev: event.Event) -> None:
            check_interrupt()

    _compile_listener = _StopAfterCompile()
    event.register("numba:compile", _compile_listener)
