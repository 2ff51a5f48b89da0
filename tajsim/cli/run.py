"""``tajsim run``: run an experiment file (simulations + analyses + report)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import click

from tajsim.cli.simulate import echo_warnings, run_options


@click.command("run")
@click.argument("experiment", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: reports/<experiment name>).")
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Multiply every run's number of games (e.g. 0.1 for a quick look).")
@click.option("--restart", is_flag=True,
              help="Delete this experiment's stored runs and play them again (after updating "
                   "tajsim: runs made by other engine code cannot be resumed).")
@run_options
def command(experiment, out, scale, restart, scheduler, workers, quiet, verbose) -> None:
    """Run EXPERIMENT (a TOML file such as experiments/default.toml) into reports/NAME/.

    Each simulation is stored chunk by chunk under reports/NAME/runs/; running the same
    command again after an interruption finishes only what is missing (--restart plays
    everything again).
    """
    from tajsim.reporting.experiments import run_experiment

    echo = (lambda _m: None) if quiet else (lambda m: click.echo(m, err=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            path = run_experiment(experiment, out, workers=workers, scheduler=scheduler,
                                  progress=False if quiet else None, scale=scale, echo=echo,
                                  restart=restart)
        except KeyboardInterrupt:
            echo_warnings(caught)
            click.echo("interrupted: finished chunks are kept; run the same command again to "
                       "finish", err=True)
            sys.exit(130)
    echo_warnings(caught)
    if not quiet:
        click.echo(f"report: {path}")
