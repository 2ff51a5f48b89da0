"""Options shared by the commands, so that a flag means the same everywhere.

``--game/-g`` (default: Taj Mahal), ``--players/-p``, ``--strategies/-s``, ``--edition/-e``,
``--games/-n``, ``--seed`` (no short flag: ``-s`` is always ``--strategies``), ``--workers/-w``,
``--out/-o``, ``--compensation``, ``--quiet/-q`` and ``--verbose/-v``. Values are checked by
the library (one-line ``UserError``), not by click, so the messages name the game's own
ranges. ``Echo`` prints by ``-q``/``-v``; ``given``, ``check_workers`` and
``check_writable_file`` are the checks several commands make before any work.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tajsim.games import DEFAULT_GAME

F = Callable[..., Any]


def game_option(func: F) -> F:
    from tajsim.games import GAME_PACKAGES

    return click.option("--game", "-g", default=DEFAULT_GAME, show_default=True,
                        metavar="GAME",
                        help=f"The game: {', '.join(GAME_PACKAGES)}.")(func)


def players_option() -> Callable[[F], F]:
    """``--players/-p``; left out, the command plays the game's own default table size
    (``GameSpec.default_players``, clipped to the edition's range), which ``tajsim strategies
    --game GAME`` shows."""
    return click.option("--players", "-p", type=int, default=None,
                        help="Players per game, in the game's range (default: the game's usual "
                             "table; tajsim strategies --game GAME shows both).")


def strategies_option(default: str = "random", help_text: str | None = None) -> Callable[[F], F]:
    return click.option("--strategies", "-s", default=default, show_default=True,
                        metavar="LIST",
                        help=help_text or "Comma-separated strategies, 'name' or "
                                          "'name:key=value' (tajsim strategies --game GAME).")


def edition_option(func: F) -> F:
    return click.option("--edition", "-e", default=None, metavar="EDITION",
                        help="The game's edition (Taj Mahal: 2018, the default, or 2000).")(func)


def seed_option(default: int = 0) -> Callable[[F], F]:
    return click.option("--seed", default=default, show_default=True,
                        type=click.IntRange(min=0, max=2**63 - 1),
                        help="Master seed (0 .. 2**63 - 1).")


def compensation_option(func: F) -> F:
    """``--compensation 0,1,2,3``: the seat-compensation variant (not the rules), one amount of
    the game's currency a seat, given at setup (:mod:`tajsim.engine.compensation`)."""
    return click.option("--compensation", default=None, metavar="A0,A1,...",
                        help="A VARIANT, not the rules: extra starting gold or points, one "
                             "amount a seat (Taj Mahal: points; Maharaja, Maharani: gold).")(func)


def threads_option(help_text: str, name: str = "--threads", default: int = 1
                   ) -> Callable[[F], F]:
    """A count of Python threads playing game batches (the kernels release the GIL; no
    result depends on it)."""
    return click.option(name, type=click.IntRange(min=1), default=default, show_default=True,
                        help=help_text)


def verbosity_options(func: F) -> F:
    func = click.option("--verbose", "-v", is_flag=True,
                        help="Say more: every step of the work, with timings.")(func)
    func = click.option("--quiet", "-q", is_flag=True,
                        help="Print nothing but errors.")(func)
    return func


class Echo:
    """What a command prints, by ``--quiet`` / ``--verbose``: ``say`` the normal lines (nothing
    with ``-q``), ``detail`` the ``-v`` lines (each step, with timings; to stderr, so the
    output stays a command's result). ``-q`` with ``-v`` is refused: they contradict.

    Making one also decides the compile notices (:mod:`tajsim.running.compiling`): a line on
    stderr when kernels are about to compile, unless ``-q``. Every command that may run kernels
    makes its ``Echo`` before any work, so this is the one place that switches them."""

    def __init__(self, quiet: bool = False, verbose: bool = False, err: bool = False) -> None:
        if quiet and verbose:
            from tajsim.errors import UserError

            raise UserError("--quiet and --verbose both given; expected at most one")
        from tajsim.running.compiling import announce_compiles, stderr_line
        from tajsim.running.interrupts import watch_compiles

        watch_compiles()  # a Ctrl-C pressed while numba compiles stops the command after it
        self.quiet = quiet
        self.verbose = verbose
        self._err = err
        announce_compiles(None if quiet else stderr_line)

    def say(self, message: str) -> None:
        if not self.quiet:
            click.echo(message, err=self._err)

    def detail(self, message: str) -> None:
        if self.verbose:
            click.echo(f"  {message}", err=True)

    @property
    def log(self) -> Callable[[str], None] | None:
        """``detail`` for library functions that take a ``log`` callback (None unless -v)."""
        return self.detail if self.verbose else None


#: The key of ``click.Context.meta`` under which a command says what Ctrl-C keeps.
INTERRUPT_NOTE = "tajsim.interrupt_note"


def on_interrupt(note: str) -> None:
    """What the line of a command stopped by Ctrl-C says after ``interrupted: `` (what is
    kept, how to go on); replaces what the command said before. ``tajsim.cli.main`` prints it
    and exits with status 130; without a note it says that nothing was written."""
    click.get_current_context().meta[INTERRUPT_NOTE] = note


def given(name: str) -> bool:
    """Whether option ``name`` (the parameter name) was given on the command line or through
    the environment, not left at its default."""
    ctx = click.get_current_context()
    source = ctx.get_parameter_source(name)
    return source in (click.core.ParameterSource.COMMANDLINE,
                      click.core.ParameterSource.ENVIRONMENT)


def check_workers(workers: int | None, option: str = "--workers") -> int | None:
    """``workers`` if it is None (all cores) or 1 .. the cores this process may use."""
    from tajsim.errors import UserError
    from tajsim.running.executors import available_cores

    if workers is None:
        return None
    cores = available_cores()
    if workers < 1 or workers > cores:
        raise UserError(f"{option} {workers} is not allowed; expected 1 to {cores} (the cores "
                        "this machine lets tajsim use)")
    return workers


def check_writable_file(path: str | Path, option: str) -> Path:
    """Refuse, before any work, a file that could not be written at the end: a missing or
    unwritable folder, a directory, a read-only file. Creates nothing (a probe file is
    removed at once)."""
    import os
    import tempfile

    from tajsim.errors import UserError

    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    if file.is_dir():
        raise UserError(f"{option} {str(file)!r} is a directory; expected a file name")
    if not folder.is_dir():
        raise UserError(f"{option} {str(file)!r}: the folder {str(folder)!r} does not exist; "
                        "expected a path in an existing folder")
    try:
        if file.exists():
            with open(file, "r+b"):
                pass
        else:
            fd, probe = tempfile.mkstemp(prefix=".tajsim-probe-", dir=folder)
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise UserError(f"{option} {str(file)!r} cannot be written ({exc.strerror or exc}); "
                        "expected a file in a folder you can write to") from None
    return file
