"""``tajsim simulate``: play many games and print the summary (results written as Parquet)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from tajsim.cli.options import (
    Echo,
    check_workers,
    compensation_option,
    edition_option,
    game_option,
    on_interrupt,
    players_option,
    seed_option,
    strategies_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.running.config import merge_compensation
from tajsim.running.simulate import run_simulation

_FILE = click.Path(dir_okay=False, path_type=Path)


def run_options(func):
    """Options shared by ``simulate`` and ``run``: where the games are played."""
    func = click.option("--device", type=click.Choice(["cpu", "gpu"]), default=None,
                        help="Play on the CPU (default) or on a CUDA GPU (random, greedy, "
                             "the heuristic presets, learned and net; not the searches; pip "
                             "install 'tajsim[gpu]'). The results are the same.")(func)
    func = click.option("--scheduler", metavar="ADDRESS", default=None,
                        help="Send the chunks to this Dask scheduler (tcp://host:8786) instead "
                             "of the local cores.")(func)
    func = click.option("--workers", "-w", type=int, default=None, metavar="W",
                        help="Local cores to use (default: all).")(func)
    return verbosity_options(func)


def parse_options(items: tuple[str, ...], compensation: str | None = None
                  ) -> dict[str, Any] | None:
    """``--option name=on`` values as a dict (on/off, true/false, yes/no, 1/0), with the seat
    compensation ``--compensation 0,1,2`` under ``"compensation"``. The same option given twice
    must say the same: ``x=on`` then ``x=off`` is refused, not the last taken."""
    if compensation is not None:
        return merge_compensation(parse_options(items) or {}, compensation)
    if not items:
        return None
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        text = value.strip().lower()
        if not sep or not key.strip() or text not in ("on", "off", "true", "false", "yes",
                                                         "no", "1", "0"):
            raise UserError(f"--option {item!r} is not NAME=on or NAME=off")
        name, on = key.strip(), text in ("on", "true", "yes", "1")
        if out.get(name, on) != on:
            raise UserError(f"--option {name} given both on and off ({item!r} contradicts an "
                            "earlier --option); expected one value for each option")
        out[name] = on
    return out


def option_option(func):
    return click.option("--option", "rule_options", multiple=True, metavar="NAME=on|off",
                        help="Switch one of the game's rule options (repeatable; see "
                             "docs/games/<game>/rules.md).")(func)


def echo_warnings(caught, echo: Echo | None = None) -> None:
    """Print the warnings caught while a command ran, one line each: the library's own
    (``UserWarning``: a bad chunk played again, an incomplete run...) always, the others
    (numpy's ``RuntimeWarning`` for a statistic of too few games...) only with ``--verbose``."""
    for w in caught:
        if issubclass(w.category, UserWarning):
            click.echo(f"warning: {w.message}", err=True)
        elif echo is not None and echo.verbose:
            where = f" ({Path(w.filename).name}:{w.lineno})" if w.filename else ""
            click.echo(f"  {w.category.__name__}: {w.message}{where}", err=True)


@contextmanager
def catch_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Record the warnings of a command's work (``echo_warnings`` prints them afterwards)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        warnings.simplefilter("always", RuntimeWarning)
        yield caught


@click.command("simulate")
@game_option
@click.option("--games", "-n", type=int, default=1000, show_default=True, help="Games to play.")
@players_option()
@strategies_option(help_text="Comma-separated strategies, 'name' or 'name:key=value': one per "
                             "seat, or fewer for a field with seats rotated.")
@edition_option
@option_option
@compensation_option
@seed_option()
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory for the Parquet results (chunk by chunk; rerun to resume).")
@click.option("--no-records", is_flag=True,
              help="Keep only the aggregates (bounded memory and disk), no per-game rows.")
@click.option("--chunk-size", type=int, default=None,
              help="Games per chunk (default: 1/64 of the run, so 64 chunks, kept between "
                   "0.05 (0.2 with records) and 2 s of one core and at most 10,000 games: a "
                   "20,000-game random run has 5 chunks, 19 chunks with --no-records).")
@click.option("--games-per-setup", type=int, default=1, show_default=True,
              help="Games played on each setup (Taj Mahal: province order + bonus tiles).")
@click.option("--setups", type=click.Choice(["random", "enumerated"]), default="random",
              show_default=True,
              help="random: each setup drawn from its id; enumerated: every setup the game "
                   "lists, in turn (Maharaja: the 5,040 governor orders).")
@click.option("--board", type=_FILE, default=None, help="Board file (TOML).")
@click.option("--components", type=_FILE, default=None,
              help="Second component file (TOML): Taj Mahal's components, Maharaja's numbers, "
                   "Maharani's tiles.")
@click.option("--alternative", type=int, default=None, metavar="SEED",
              help="Play on the alternative board and bonus mix of this seed.")
@click.option("--rotate/--fixed-seats", default=None,
              help="Rotate the strategies over the seats (default: fixed seats when there is "
                   "one strategy per seat, rotated when fewer).")
@click.option("--round-robin", is_flag=True,
              help="More strategies than seats: every combination at the table, rotated.")
@click.option("--parallel", type=click.Choice(["threads", "prange", "processes"]), default=None,
              help="Local parallel mode (default: threads, the fastest measured).")
@click.option("--restart", is_flag=True,
              help="Delete the run stored in --out and play it again (instead of resuming).")
@run_options
def command(game, games, players, strategies, edition, rule_options, compensation, seed, out,
            no_records,
            chunk_size, games_per_setup, setups, board, components, alternative, rotate,
            round_robin, parallel, restart, device, scheduler, workers, quiet, verbose) -> None:
    """Play GAMES games and print win rates and scores by strategy and seat (95% CIs).

    \b
    Examples:
      tajsim simulate --games 100000 --players 4 --strategies random --out runs/r4
      tajsim simulate -n 20000 -s balanced,random,random,random --rotate
      tajsim simulate -n 1000000 -s balanced,random --no-records --scheduler tcp://host:8786
      tajsim simulate --game maharaja -n 10000 -p 4 -s greedy,random
      tajsim simulate -n 1000000 -s balanced,random --device gpu --out runs/gpu
      tajsim simulate --game maharani -n 4000 -p 4 -s balanced --compensation 0,1,2,3
    """

    echo = Echo(quiet, verbose)
    workers = check_workers(workers)
    if scheduler is not None and (workers is not None or parallel is not None):
        raise UserError(f"--scheduler and {'--workers' if workers is not None else '--parallel'}"
                        " both given; expected one (with --scheduler the cluster's workers "
                        "play)")
    if device == "gpu" and parallel is not None:
        raise UserError(f"--device gpu and --parallel {parallel} both given; expected one "
                        "(--parallel picks how the CPU plays)")
    seating = "round-robin" if round_robin else ("auto" if rotate is None else rotate)
    if round_robin and rotate is not None:
        raise UserError(f"--round-robin and {'--rotate' if rotate else '--fixed-seats'} both "
                        "given; expected one seating")
    comps = None
    if board is not None or components is not None or alternative is not None:
        comps = {"board": None if board is None else str(board),
                 "components": None if components is None else str(components),
                 "alternative": alternative}
    records = not no_records and out is not None
    where = f" are kept in {out}; run the same command again to finish" if out else \
        " are lost (no --out)"
    on_interrupt(f"the finished chunks{where}")
    with catch_warnings() as caught:
        try:
            result = run_simulation(
                games, players, strategies, edition, seed, game=game,
                options=parse_options(rule_options, compensation), workers=workers, out=out,
                records=records, chunk_size=chunk_size, rotate=seating,
                games_per_setup=games_per_setup, setups=setups, components=comps,
                scheduler=scheduler,
                progress=False if quiet else None, load_records=False, mode=parallel,
                restart=restart, log=echo.log, device=device or "cpu",
            )
        except (KeyboardInterrupt, UserError):  # tajsim.cli.main prints the line
            echo_warnings(caught, echo)
            raise
    echo_warnings(caught, echo)
    if quiet:
        return
    click.echo(result.summary_text())
    from tajsim.games.registry import get_game
    from tajsim.running.repeats import repeat_note_for_config

    note = repeat_note_for_config(result.config, get_game(result.config.game))
    if note is not None:
        click.echo(f"\nnote: {note}", err=True)
    if out is not None:
        what = "results and aggregates" if records else "aggregates"
        click.echo(f"\n{what}: {out} ({result.config.n_chunks} chunks, "
                   f"{result.chunks_run} played now)", err=True)
