"""``tajsim ladder``: measure a game's strategies and regenerate its strategies document."""

from __future__ import annotations

from pathlib import Path

import click

from tajsim.cli.options import (
    edition_option,
    game_option,
    players_option,
    seed_option,
    strategies_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.reporting.ladder import (
    LadderConfig,
    default_search,
    fast_strategies,
    ladder_document,
    load_json,
    run_ladder,
    save_json,
    write_docs,
)


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
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="Threads for the fast tables.")
@click.option("--search-threads", type=click.IntRange(min=1), default=2, show_default=True,
              help="Threads for the search tables.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Markdown file whose ladder section is regenerated (default: the game's "
                   "strategies document in this checkout).")
@click.option("--render-only", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Rewrite OUTPUT from a saved ladder JSON instead of playing.")
@verbosity_options
def command(game, strategies, search, players, edition, seed, random_games, field_games,
            h2h_games, search_field_games, search_h2h_games, python_games, threads,
            search_threads, output, render_only, quiet, verbose) -> None:
    """Play the strength ladder and write its tables into OUTPUT (between the ladder markers);
    the numbers are also saved next to it as JSON (OUTPUT with a .json suffix)."""
    spec = get_game(game)
    output = Path(output) if output is not None else ladder_document(spec)
    if not output.parent.is_dir():
        raise UserError(f"--output {str(output)!r}: the folder {str(output.parent)!r} does not "
                        "exist; expected a path in an existing folder")
    say = (lambda _m: None) if quiet else click.echo
    if render_only:
        path = write_docs(load_json(render_only), output)
        say(f"wrote {path}")
        return
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    spec.check_players(players, ed)
    names = tuple(s.strip() for s in strategies.split(",") if s.strip()) if strategies \
        else fast_strategies(spec)
    search = default_search(spec) if search is None else search
    parts = [f"tajsim ladder --game {spec.name}", f"--seed {seed}", f"--players {players}",
             f"--edition {ed}", f"--random-games {random_games}", f"--field-games {field_games}",
             f"--h2h-games {h2h_games}", f"--search-field-games {search_field_games}",
             f"--search-h2h-games {search_h2h_games}", f"--python-games {python_games}",
             f"--threads {threads}", f"--search-threads {search_threads}"]
    if strategies:
        parts.append(f"--strategies {','.join(names)}")
    if search != default_search(spec):
        parts.append(f"--search '{search}'")
    cfg = LadderConfig(
        strategies=names, search=search, game=spec.name, n_players=players,
        edition=spec.rules_code(ed), seed=seed, random_games=random_games,
        field_games=field_games, h2h_games=h2h_games, search_field_games=search_field_games,
        search_h2h_games=search_h2h_games, python_games=python_games, threads=threads,
        search_threads=search_threads, command=" ".join(parts),
    )
    data = run_ladder(cfg, log=say)  # validates the strategies before any game
    save_json(data, output.with_suffix(".json"))
    path = write_docs(data, output)
    say(f"wrote {path} ({data.seconds:.0f} s)")
