"""``tajsim ladder``: measure a game's strategies and regenerate its strategies document."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from tajsim.cli.options import (
    Echo,
    check_writable_file,
    edition_option,
    game_option,
    given,
    on_interrupt,
    players_option,
    seed_option,
    strategies_option,
    threads_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.reporting.ladder import (
    REPO,
    LadderConfig,
    LadderData,
    check_openspiel_target,
    default_search,
    fast_strategies,
    keep_openspiel,
    ladder_document,
    load_json,
    openspiel_tables,
    render_openspiel,
    run_ladder,
    save_json,
    write_docs,
)
from tajsim.running.interrupts import check_interrupt


@click.command("ladder")
@game_option
@strategies_option(default="", help_text="Comma-separated fast strategies (default: every "
                   "registered strategy that does not search).")
@click.option("--search", default=None,
              help="Search strategy measured against the best preset (default: the game's "
                   "search strategy; '' to skip).")
@players_option()
@edition_option
@seed_option(2024)
@click.option("--random-games", type=click.IntRange(min=1), default=4000, show_default=True)
@click.option("--field-games", type=click.IntRange(min=1), default=8000, show_default=True)
@click.option("--h2h-games", type=click.IntRange(min=1), default=4000, show_default=True)
@click.option("--search-field-games", type=click.IntRange(min=1), default=200,
              show_default=True)
@click.option("--search-h2h-games", type=click.IntRange(min=1), default=400, show_default=True)
@click.option("--python-games", type=click.IntRange(min=1), default=200, show_default=True)
@click.option("--openspiel", "openspiel", multiple=True, metavar="BOT",
              help="Also play the search strategy against OpenSpiel's BOT (ismcts or mcts, "
                   "with :key=value settings) at equal iterations and (ismcts) at equal time; "
                   "repeatable; needs tajsim[interop].")
@click.option("--openspiel-games", type=click.IntRange(min=1), default=40, show_default=True)
@click.option("--openspiel-players", type=int, default=None,
              help="Players in the OpenSpiel tables (default: the game's smallest table).")
@click.option("--openspiel-iterations", type=click.IntRange(min=1), default=20,
              show_default=True, help="Iterations of both sides at equal iterations.")
@click.option("--openspiel-only", is_flag=True,
              help="Play only the OpenSpiel tables, print them and, if OUTPUT has a saved "
                   "ladder beside it (.json), put them into both.")
@threads_option("Threads for the fast tables.")
@threads_option("Threads for the search tables.", "--search-threads", 2)
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Markdown file whose ladder section is regenerated (required: e.g. "
                   "docs/strategies.md, the game's strategies document in a checkout); its "
                   "numbers go to the .json beside it.")
@click.option("--render-only", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Rewrite OUTPUT from a saved ladder JSON instead of playing.")
@verbosity_options
def command(game, strategies, search, players, edition, seed, random_games, field_games,
            h2h_games, search_field_games, search_h2h_games, python_games, openspiel,
            openspiel_games, openspiel_players, openspiel_iterations, openspiel_only, threads,
            search_threads, output, render_only, quiet, verbose) -> None:
    """Play the strength ladder and write its tables into OUTPUT (between the ladder markers);
    the numbers are also saved next to it as JSON (OUTPUT with a .json suffix). Nothing else is
    written: --output is required."""
    echo = Echo(quiet, verbose)
    spec = get_game(game)
    if output is None:
        # A document of the checkout is rewritten only when the user names it.
        raise UserError("--output is missing; expected the Markdown file to write the ladder "
                        f"into (the {spec.title} document of a checkout: "
                        f"{ladder_document(spec).relative_to(REPO)})")
    # Both files are written after every table has played: check them first.
    check_writable_file(output, "--output")
    if render_only:
        played = ("strategies", "search", "players", "edition", "seed", "random_games",
                  "field_games", "h2h_games", "search_field_games", "search_h2h_games",
                  "python_games", "openspiel", "openspiel_games", "openspiel_players",
                  "openspiel_iterations", "openspiel_only", "threads", "search_threads")
        clash = [name for name in played if given(name)]
        if clash:
            raise UserError(f"--{clash[0].replace('_', '-')} and --render-only both given; "
                            "expected one (--render-only plays nothing: it rewrites OUTPUT "
                            "from saved numbers)")
        path = _write(write_docs, load_json(render_only), output, None)
        echo.say(f"wrote {path}")
        return
    check_writable_file(output.with_suffix(".json"), "--output (its .json beside it)")
    echo.detail(f"the tables go to {output} and their numbers to {output.with_suffix('.json')}")
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    players = spec.players_or_default(players, ed)
    if openspiel_players is None:
        openspiel_players = spec.player_range(ed)[0]
    if openspiel:
        spec.check_players(openspiel_players, ed)
        check_openspiel_bots(openspiel, openspiel_iterations)
    elif openspiel_only:
        raise UserError("--openspiel-only without --openspiel BOT; expected at least one bot")
    names = tuple(s.strip() for s in strategies.split(",") if s.strip()) if strategies \
        else fast_strategies(spec)
    search = default_search(spec) if search is None else search
    parts = [f"tajsim ladder --game {spec.name}", f"--output {output}", f"--seed {seed}",
             f"--players {players}",
             f"--edition {ed}", f"--random-games {random_games}", f"--field-games {field_games}",
             f"--h2h-games {h2h_games}", f"--search-field-games {search_field_games}",
             f"--search-h2h-games {search_h2h_games}", f"--python-games {python_games}",
             f"--threads {threads}", f"--search-threads {search_threads}"]
    if strategies:
        parts.append(f"--strategies {','.join(names)}")
    if search != default_search(spec):
        parts.append(f"--search '{search}'")
    for bot in openspiel:
        parts.append(f"--openspiel {bot}")
    if openspiel:
        parts += [f"--openspiel-games {openspiel_games}",
                  f"--openspiel-players {openspiel_players}",
                  f"--openspiel-iterations {openspiel_iterations}"]
    cfg = LadderConfig(
        strategies=names, search=search, game=spec.name, n_players=players,
        edition=spec.rules_code(ed), seed=seed, random_games=random_games,
        field_games=field_games, h2h_games=h2h_games, search_field_games=search_field_games,
        search_h2h_games=search_h2h_games, python_games=python_games, threads=threads,
        search_threads=search_threads, command=" ".join(parts), openspiel=tuple(openspiel),
        openspiel_games=openspiel_games, openspiel_players=openspiel_players,
        openspiel_iterations=openspiel_iterations,
    )
    echo.detail(f"validated: {cfg.command}")
    if openspiel and cfg.openspiel_table_games() != openspiel_games and not quiet:
        rotation = 2 * cfg.openspiel_players
        click.echo(f"note: --openspiel-games {openspiel_games}: each OpenSpiel table plays "
                   f"{cfg.openspiel_table_games()} games (whole seat rotations: a multiple of "
                   f"{rotation} at {cfg.openspiel_players} players)", err=True)
    if openspiel_only:  # before any game: the saved ladder the tables go into is this one's
        check_openspiel_target(output.with_suffix(".json"), spec.name, cfg.edition)
    on_interrupt(f"nothing written ({output} and its .json are written once every table has "
                 "played)")
    if openspiel_only:
        rows = openspiel_tables(cfg, log=echo.say)
        check_interrupt()  # tables played after a Ctrl-C (searches cut short) are not kept
        click.echo("\n".join(render_openspiel(rows, spec.name)))
        saved = output.with_suffix(".json")
        if saved.is_file():  # place the tables in the saved ladder and its document
            data = load_json(saved)
            data.openspiel = rows  # replacing the saved tables of these bots, no others
            _say_kept(keep_openspiel(data, saved), echo)
            _write(save_json, data, saved, None)
            path = _write(write_docs, data, output, saved)
            echo.say(f"added the OpenSpiel tables to {path} and {saved}")
        return
    data = run_ladder(cfg, log=echo.say)  # validates the strategies before any game
    check_interrupt()  # tables played after a Ctrl-C (searches cut short) are not kept
    # The OpenSpiel tables an earlier run put into the saved ladder stay in it and its document,
    # but for the bots this run played again (a run used to write over all of them).
    _say_kept(keep_openspiel(data, output.with_suffix(".json")), echo)
    saved = _write(save_json, data, output.with_suffix(".json"), None)
    path = _write(write_docs, data, output, saved)
    echo.say(f"wrote {path} ({data.seconds:.0f} s)")


def _say_kept(kept: tuple[bool, str] | None, echo: Echo) -> None:
    """The line of :func:`keep_openspiel`: what was kept (said), or dropped (a warning)."""
    if kept is None:
        return
    if kept[0]:
        echo.say(kept[1])
    else:
        click.echo(f"warning: {kept[1]}", err=True)


def check_openspiel_bots(bots: tuple[str, ...], iterations: int) -> None:
    """Each ``--openspiel BOT`` checked before any game or compilation: OpenSpiel installed,
    a known bot with valid settings, and none of the settings the ladder gives it itself
    (``iterations``: --openspiel-iterations, at equal iterations; ``seconds``: the search's
    own time per decision, at equal time), which used to be overridden silently."""
    from tajsim.interop.openspiel.bots import parse_bot  # a missing pyspiel: one line, now

    for bot in bots:
        parse_bot(bot)
        keys = [item.partition("=")[0] for item in bot.strip().split(":")[1:]]
        for key, why in (("iterations", f"--openspiel-iterations {iterations}, the same for "
                                        "both sides, at equal iterations"),
                         ("seconds", "the search's own time per decision, at equal time")):
            if key in keys:
                raise UserError(f"--openspiel {bot!r} sets {key}, which the ladder sets "
                                f"itself ({why}); expected the bot's other settings only "
                                "(uct_c, rollouts, seed)")


def _write(writer, data: Any, path: Path, saved: Path | None) -> Path:
    """``writer(data, path)``; if the file cannot be written after all (a full disk, a file
    made read-only meanwhile), the played numbers are kept in a temporary JSON file and the
    error says how to render them."""
    try:
        return writer(data, path)
    except OSError as exc:
        keep = saved
        if keep is None and isinstance(data, LadderData):
            import tempfile

            fd, name = tempfile.mkstemp(prefix="tajsim-ladder-", suffix=".json")
            os.close(fd)
            keep = save_json(data, name)
        where = (f"; the measured numbers are kept in {keep}: render them with tajsim ladder "
                 f"--render-only {keep} --output {path}") if keep is not None else ""
        raise UserError(f"cannot write {path} ({exc.strerror or exc}){where}") from None
