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
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
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
        guard.interrupted.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, remember_and_raise)
    _active = guard
    try:
        yield guard
    finally:
        _active = None
        signal.signal(signal.SIGINT, signal.default_int_handler)


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
    compiles, it is raised inside a ctypes callback and lost, and the command went on. Once per
    process; imports numba."""
    global _compile_listener
    if _compile_listener is not None:
        return
    from numba.core import event

    class _StopAfterCompile(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            pass

        def on_end(self, ev: event.Event) -> None:
            if threading.current_thread() is threading.main_thread():
                check_interrupt()

    _compile_listener = _StopAfterCompile()
    event.register("numba:compile", _compile_listener)
