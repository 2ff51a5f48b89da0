"""The ``tajsim`` command group.

Each command group lives in its own module under ``tajsim.cli`` and exposes a ``click`` command
or group named ``command``; it is registered here. Errors that users can fix are raised as
``tajsim.errors.UserError`` and printed as one line with exit status 2.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from tajsim.errors import UserError

# Modules under tajsim.cli that each define ``command``, a click command of the same name.
COMMAND_MODULES = (
    "bench",
    "board",
    "compare",
    "replay",
    "report",
    "simulate",
    "run",
    "strategies",
    "tune",
    "train",
    "ladder",
    "chain",
    "profile",
    "balance",
)


class TajsimGroup(click.Group):
    """Imports a command's module only when that command runs (a quick start: ``simulate``
    does not load matplotlib), and turns ``UserError`` into one clear line and exit status 2,
    never a traceback. A closed output pipe (``tajsim replay | head -1``) is a normal end:
    exit status 0, nothing printed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMAND_MODULES:
            return None
        return importlib.import_module(f"tajsim.cli.{name}").command

    def invoke(self, ctx: click.Context):
        from tajsim.running.interrupts import interrupt_guard

        # Ctrl-C, the same in every command (tajsim.running.interrupts): what is finished is
        # kept, one line, exit status 130 (not click's "Aborted!" and 1). A Ctrl-C that Python
        # lost (pressed while numba compiled: raised in a ctypes callback and dropped) is
        # remembered, and stops the command all the same once it returns.
        with interrupt_guard() as guard:
            try:
                result = super().invoke(ctx)
                guard.check()
                return result
            except (KeyboardInterrupt, click.Abort):
                _say_interrupted(ctx)
            except UserError as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(2)
            except click.UsageError as exc:  # a bad option value: one line, not click's usage
                click.echo(f"error: {exc.format_message()}", err=True)
                sys.exit(2)
            except BrokenPipeError:
                _quiet_stdout()
                sys.exit(0)


def _say_interrupted(ctx: click.Context) -> None:
    """The one line of a command stopped by Ctrl-C (what it keeps: ``options.on_interrupt``),
    then exit status 130."""
    from tajsim.cli.options import INTERRUPT_NOTE
    from tajsim.running.interrupts import EXIT_INTERRUPTED

    note = ctx.meta.get(INTERRUPT_NOTE, "stopped before the end; nothing was written")
    try:
        click.echo(f"interrupted: {note}", err=True)
    finally:
        sys.exit(EXIT_INTERRUPTED)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that Python's final flush into the closed pipe does not
    print an error of its own."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (e.g. under a test runner)
        pass


@click.group(cls=TajsimGroup)
@click.version_option(package_name="tajsim")
def cli() -> None:
    """tajsim: Monte Carlo strategy analysis for India-themed board games (Taj Mahal, ...).

    Every command that plays or reads games takes --game (default: tajmahal)."""

