"""Say on stderr when numba is about to compile kernels, so that a first run is never silent.

The first call of a game's kernels after an install or an update (a new fingerprint of the game,
:mod:`tajsim.games.fingerprint`) compiles them: 20-45 s with no output otherwise. numba
broadcasts a ``"numba:compile"`` event only for a real compilation, never when a kernel is
already compiled in this process or loaded from its on-disk cache, so a listener on that event
announces exactly the compilations that happen, in every command and on every path (replay's
step kernels, the runner's batch kernels, a strategy family compiled later), at no cost when
nothing compiles. Compilations in other processes (``--parallel processes``, Dask workers) are
not seen.

:func:`announce_compiles` switches the notices on (a ``say`` callback, one line each) or off
(``None``); the command line switches them on for every command and off with ``--quiet``.
:func:`announce_unless_told` is the library's: ``tajsim.simulate`` in a notebook or a script
says so too while it runs, unless a command already decided.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from numba.core import event

__all__ = ["BURST_GAP_S", "announce_compiles", "announce_unless_told", "compile_message",
           "stderr_line"]

#: Compilations less than this many seconds apart belong to one burst, announced once per game:
#: replay's step kernels compile one after the other, a batch kernel compiles its callees.
BURST_GAP_S = 5.0


def compile_message(game_title: str | None) -> str:
    """The notice for a compilation of ``game_title``'s kernels (None: tajsim's generic ones)."""
    if game_title is None:
        return "compiling tajsim's kernels (first run after an install or update) ..."
    return (f"compiling {game_title}'s kernels (first run after an install or update: up to a "
            "minute; cached afterwards) ...")


def stderr_line(message: str) -> None:
    """Write ``message`` as a line on stderr, keeping a progress bar already drawn whole (tqdm
    clears it, writes the line and draws it again below)."""
    from tqdm.auto import tqdm

    tqdm.write(message, file=sys.stderr)


def _game_title(module: str) -> str | None:
    """The title of the game whose wing defines ``module`` (None: a generic module)."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["tajsim", "games"]:
        from tajsim.games.registry import GAMES

        spec = GAMES.get(parts[2])
        if spec is not None:
            return spec.title
    return None


class _CompileListener(event.Listener):
    """Announces the first compilation of each game in a burst (see ``BURST_GAP_S``); nested
    compilations (a kernel's callees) belong to the outermost one."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self._depth = threading.local()
        self._lock = threading.Lock()
        self._last_activity = float("-inf")
        self._announced: set[str | None] = set()

    def on_start(self, ev: event.Event) -> None:
        depth = getattr(self._depth, "value", 0)
        self._depth.value = depth + 1
        if depth:
            return
        dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        title = _game_title(module)
        with self._lock:
            now = time.monotonic()
            if now - self._last_activity > BURST_GAP_S:
                self._announced = set()
            self._last_activity = now
            # A generic helper compiled inside a game's burst is part of that game's notice.
            if title in self._announced or (title is None and self._announced):
                return
            self._announced.add(title)
        self.say(compile_message(title))

    def on_end(self, ev: event.Event) -> None:
        self._depth.value = max(0, getattr(self._depth, "value", 1) - 1)
        with self._lock:
            self._last_activity = time.monotonic()


_listener: _CompileListener | None = None
#: Whether a command decided (its ``Echo``: on, or off with ``-q``); the library then defers.
_decided_by_command = False


def _install(say: Callable[[str], None] | None) -> None:
    global _listener
    if _listener is not None:
        event.unregister("numba:compile", _listener)
        _listener = None
    if say is not None:
        _listener = _CompileListener(say)
        event.register("numba:compile", _listener)


def announce_compiles(say: Callable[[str], None] | None) -> None:
    """Call ``say(line)`` when a compilation starts (see the module's docstring), replacing
    any earlier callback; ``None`` switches the notices off. What a command decides this way
    holds for the rest of the process."""
    global _decided_by_command
    _decided_by_command = True
    _install(say)


def announce_unless_told(say: Callable[[str], None]) -> Callable[[], None]:
    """The library's notices (``tajsim.simulate`` in a notebook or a script): switch them on
    with ``say`` unless a command decided (:func:`announce_compiles`); returns what switches
    them off again (nothing, where a command decided)."""
    if _decided_by_command:
        return lambda: None
    _install(say)
    return lambda: _install(None)
