"""``tajsim profile``: a game's skill profile. Its skill levels (random, greedy, the reference
preset, the search at two budgets; :func:`tajsim.analysis.skill_profile.profile_levels`) play
each other head to head in every seating, and each plays itself; the report's
``skill_profile`` section writes the win-rate matrix with Wilson intervals and the first seat's
rate (:func:`tajsim.analysis.skill_profile.play_profile`)."""

from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import click

from tajsim.cli.options import (
    Echo,
    check_workers,
    edition_option,
    game_option,
    on_interrupt,
    players_option,
    seed_option,
    verbosity_options,
)
from tajsim.errors import UserError

#: Games per match at most (the whole profile is kept in memory).
MAX_GAMES = 100_000


def parse_budgets(text: str | None) -> list[float] | None:
    """``"75,300"`` -> ``[75.0, 300.0]`` (None: the default budgets); one-line ``UserError``."""
    if text is None:
        return None
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or any(v <= 0 for v in values):
        raise UserError(f"--search-budgets {text!r}; expected budgets above 0 separated by "
                        "commas, such as 75,300")
    return values


@click.command("profile")
@game_option
@players_option()
@click.option("--games", "-n", type=int, default=1000, show_default=True,
              help="Games per pair of levels (and per mirror), rounded up to whole seatings.")
@click.option("--levels", default=None, metavar="LIST",
              help="Comma-separated levels, weakest first (default: random, greedy, the "
                   "reference preset and the search at two budgets).")
@click.option("--search-budgets", default=None, metavar="A,B",
              help="The search's iteration budgets for the default levels (default: a quarter "
                   "of its default and its default).")
@click.option("--no-mirrors", is_flag=True, help="Leave out each level against itself.")
@edition_option
@seed_option()
@click.option("--workers", "-w", type=int, default=None, metavar="W",
              help="Local cores to use (default: all).")
@click.option("--out", "-o", default=None, metavar="DIR",
              help="Report folder (default: reports/<game>/profile_<N>p; "
                   "reports/profile_<N>p for Taj Mahal).")
@click.option("--force", is_flag=True, help="Write into a folder that holds other files.")
@verbosity_options
def command(game: str, players: int | None, games: int, levels: str | None,
            search_budgets: str | None, no_mirrors: bool, edition: str | None, seed: int,
            workers: int | None, out: str | None, force: bool, quiet: bool,
            verbose: bool) -> None:
    """Skill profile: the win-rate matrix of the game's skill levels, each pair head to head
    in every seating, with Wilson 95% intervals, n and the first seat's rate (the profile the
    TAG balancing competition scores variants by). Writes a report (report.md, report.html,
    the matrix as CSV, a heat map).

    \b
    Examples:
      tajsim profile --game maharani -p 2 --games 1000
      tajsim profile --game tajmahal -p 4 --search-budgets 100,400
    """
    from tajsim.analysis.skill_profile import play_profile, profile_levels
    from tajsim.games.registry import get_game
    from tajsim.reporting.experiments import report_dir
    from tajsim.reporting.outputs import Owner, check_output_folder, claim_output_folder
    from tajsim.reporting.report import build_report

    echo = Echo(quiet, verbose)
    workers = check_workers(workers)
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games} is not allowed; expected 1 to {MAX_GAMES:,} games per "
                        "pair")
    spec = get_game(game)
    players = spec.players_or_default(players, edition)
    if levels is not None and search_budgets is not None:
        raise UserError("--levels and --search-budgets both given; expected one (the budgets "
                        "make the default levels)")
    chosen = ([t.strip() for t in levels.split(",") if t.strip()] if levels is not None
              else profile_levels(spec, parse_budgets(search_budgets)))
    if len(chosen) < 3 or len(set(chosen)) != len(chosen):
        raise UserError(f"levels {', '.join(chosen) or '(none)'}; expected three or more "
                        f"different strategies ({spec.title}'s registry gives "
                        f"{', '.join(profile_levels(spec))})")
    for text in chosen:
        spec.strategies.parse(text)  # a bad strategy: one line, before any game
    folder = Path(out) if out is not None else report_dir(spec.name, f"profile_{players}p")
    owner = Owner("report", f"skill profile {players}p seed {seed}", spec.name)
    check_output_folder(folder, owner, force=force)
    pairs = len(chosen) * (len(chosen) - 1) // 2 + (0 if no_mirrors else len(chosen))
    echo.say(f"skill profile of {spec.title}, {players} players: {', '.join(chosen)}; "
             f"{pairs} matches of {games:,} games, seed {seed}")
    on_interrupt("nothing is kept (the profile is written when every match is played)")
    started = time.perf_counter()
    results = play_profile(spec.name, players, chosen, games=games, seed=seed, edition=edition,
                           mirrors=not no_mirrors, workers=workers,
                           progress=False if quiet else None, log=echo.log,
                           on_match=lambda a, b: echo.say(f"match: {a} against {b}"))
    wall_s = time.perf_counter() - started
    claim_output_folder(folder, owner, force=force)
    made_with = (f"tajsim profile --game {spec.name} -p {players} --games {games} --levels "
                 f"{','.join(chosen)} --seed {seed} --out {folder}"
                 + (" --no-mirrors" if no_mirrors else ""))
    config = {"name": f"skill profile ({players} players)", "seed": seed, "game": spec.name,
              "command": made_with}
    report = build_report(results, folder, title=f"Skill profile: {spec.title}, {players} "
                          "players", config=config, sections=["overview", "skill_profile"],
                          game=spec.name)
    # what a game's default report reads (its skill_profile section, [report] profiles): the
    # command and the cost beside the table
    write_provenance(folder, {"game": spec.name, "players": players, "levels": chosen,
                              "games_per_match": games, "seed": seed, "mirrors": not no_mirrors,
                              "command": made_with, "wall_s": round(wall_s, 1),
                              "cpu_s": round(cpu_seconds(), 1), "workers": workers})
    echo.say(f"report: {report} (made with: {made_with}; {wall_s:.0f} s wall)")


#: The profile's provenance beside its table (read by the ``skill_profile`` section).
PROVENANCE_FILE = "profile.json"


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def write_provenance(folder: Path, info: dict[str, object]) -> None:
    """``folder/profile.json``: how the profile was made (command, levels, games, seed, wall and
    CPU seconds), whole or not at all."""
    from tajsim.running.run_files import atomic_write

    atomic_write(folder / PROVENANCE_FILE, (json.dumps(info, indent=1) + "\n").encode())
