"""The ``tajsim`` command group.

Each command group lives in its own module under ``tajsim.cli`` and exposes a ``click`` command
or group named ``command``; it is registered here. Errors that users can fix are raised as
``tajsim.errors.UserError`` and printed as one line with exit status 2.
"""

from __future__ import annotations

import importlib
import sys

import click

from tajsim.errors import UserError

# Modules under tajsim.cli that each define ``command``.
COMMAND_MODULES = (
    "bench",
    "board",
    "replay",
    "report",
    "simulate",
    "run",
    "strategies",
    "tune",
    "ladder",
)


class TajsimGroup(click.Group):
    """Turns ``UserError`` into one clear line and exit status 2, never a traceback."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except UserError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)


@click.group(cls=TajsimGroup)
@click.version_option(package_name="tajsim")
def cli() -> None:
    """tajsim: Monte Carlo strategy analysis for Reiner Knizia's Taj Mahal."""


for _name in COMMAND_MODULES:
    cli.add_command(importlib.import_module(f"tajsim.cli.{_name}").command)
