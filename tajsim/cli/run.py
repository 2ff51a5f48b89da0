"""``tajsim run``: run an experiment file (simulations + analyses + report)."""

from __future__ import annotations

from pathlib import Path

import click

from tajsim.cli.options import Echo, check_workers, on_interrupt
from tajsim.cli.simulate import catch_warnings, echo_warnings, run_options
from tajsim.errors import UserError


@click.command("run")
@click.argument("experiment", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output directory (default: reports/<experiment name>, or "
                   "reports/<game>/<name> for a game other than Taj Mahal). It must be empty "
                   "or this experiment's own earlier output (see --force).")
@click.option("--scale", type=float, default=1.0, show_default=True,
              help="Multiply every run's number of games (e.g. 0.1 for a quick look, with "
                   "--out DIR: a quick look never replaces the experiment's own report).")
@click.option("--restart", is_flag=True,
              help="Delete this experiment's stored runs and play them again (after updating "
                   "tajsim: runs made by other engine code cannot be resumed).")
@click.option("--force", is_flag=True,
              help="Write into --out even if it holds other files or another experiment's "
                   "output (files of the same names are replaced).")
@click.option("--only", multiple=True, metavar="RUN",
              help="Play only the run RUN of the file (repeatable) and write no report: a run "
                   "of hours marked keep = true, played over several sittings (docs/running.md).")
@click.option("--status", is_flag=True,
              help="Play nothing: say how much of each run of the file is stored in --out.")
@run_options
def command(experiment, out, scale, restart, force, only, status, device, scheduler, workers,
            quiet, verbose) -> None:
    """Run EXPERIMENT (a TOML file such as experiments/default.toml) into reports/NAME/
    (reports/GAME/NAME/ for a game other than Taj Mahal).

    Each simulation is stored chunk by chunk under reports/NAME/runs/; running the same
    command again after an interruption finishes only what is missing (--restart plays
    everything again). The output folder is marked as this experiment's
    (.tajsim-output.json): a folder holding anything else is refused, never overwritten,
    unless --force. With --only, the named runs alone are played (resumed) and no report is
    written.
    """
    from tajsim.reporting.experiments import experiment_status, run_experiment

    echo = Echo(quiet, verbose)
    if status:
        for line in experiment_status(experiment, out, scale):
            echo.say(line)
        return
    progress_lines = Echo(quiet, verbose, err=True)  # "run NAME: N games" on stderr
    workers = check_workers(workers)
    if scheduler is not None and workers is not None:
        raise UserError("--scheduler and --workers both given; expected one (with --scheduler "
                        "the cluster's workers play)")
    on_interrupt("finished chunks are kept; run the same command again to finish")
    with catch_warnings() as caught:
        try:
            path = run_experiment(experiment, out, workers=workers, scheduler=scheduler,
                                  progress=False if quiet else None, scale=scale,
                                  echo=progress_lines.say,
                                  restart=restart, log=echo.log, device=device, force=force,
                                  only=only or None)
        except (KeyboardInterrupt, UserError):  # tajsim.cli.main prints the line
            echo_warnings(caught, echo)
            raise
    echo_warnings(caught, echo)
    if path is None:
        echo.say(f"played {', '.join(only)}; no report written (run {experiment} without --only "
                 "for it)")
        return
    echo.say(f"report: {path}")
