"""``tajsim ladder``: measure the strategies and regenerate docs/strategies.md."""

from __future__ import annotations

import click

from tajsim.games.tajmahal.engine.game import check_players, parse_edition


@click.command("ladder")
@click.option("--strategies", default=None,
              help="Comma-separated fast strategies (default: every built-in except ismcts).")
@click.option("--search", default="ismcts", show_default=True,
              help="Search strategy measured against the best preset ('' to skip).")
@click.option("--players", "-p", type=int, default=4, show_default=True)
@click.option("--edition", type=click.Choice(["2018", "2000"]), default="2018", show_default=True)
@click.option("--seed", "-s", type=int, default=2024, show_default=True)
@click.option("--random-games", type=int, default=4000, show_default=True)
@click.option("--field-games", type=int, default=8000, show_default=True)
@click.option("--h2h-games", type=int, default=4000, show_default=True)
@click.option("--search-field-games", type=int, default=200, show_default=True)
@click.option("--search-h2h-games", type=int, default=400, show_default=True)
@click.option("--python-games", type=int, default=200, show_default=True)
@click.option("--threads", type=int, default=1, show_default=True,
              help="Threads for the fast tables.")
@click.option("--search-threads", type=int, default=2, show_default=True,
              help="Threads for the search tables.")
@click.option("--output", type=click.Path(dir_okay=False), default="docs/strategies.md",
              show_default=True, help="Markdown file whose ladder section is regenerated.")
@click.option("--render-only", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Rewrite OUTPUT from a saved ladder JSON instead of playing.")
def command(strategies, search, players, edition, seed, random_games, field_games, h2h_games,
            search_field_games, search_h2h_games, python_games, threads, search_threads,
            output, render_only) -> None:
    """Play the strength ladder and write its tables into OUTPUT (between the ladder markers);
    the numbers are also saved next to it as JSON (OUTPUT with a .json suffix)."""
    from pathlib import Path

    from tajsim.reporting.ladder import (
        FAST,
        LadderConfig,
        load_json,
        run_ladder,
        save_json,
        write_docs,
    )

    if render_only:
        path = write_docs(load_json(render_only), output)
        click.echo(f"wrote {path}")
        return

    check_players(players, edition)
    names = tuple(s.strip() for s in strategies.split(",")) if strategies else FAST
    parts = ["tajsim ladder", f"--seed {seed}", f"--players {players}", f"--edition {edition}",
             f"--random-games {random_games}", f"--field-games {field_games}",
             f"--h2h-games {h2h_games}", f"--search-field-games {search_field_games}",
             f"--search-h2h-games {search_h2h_games}", f"--python-games {python_games}",
             f"--threads {threads}", f"--search-threads {search_threads}"]
    if strategies:
        parts.append(f"--strategies {strategies}")
    if search != "ismcts":
        parts.append(f"--search '{search}'")
    cfg = LadderConfig(
        strategies=names, search=search, n_players=players, edition=parse_edition(edition),
        seed=seed, random_games=random_games, field_games=field_games, h2h_games=h2h_games,
        search_field_games=search_field_games, search_h2h_games=search_h2h_games,
        python_games=python_games, threads=threads, search_threads=search_threads,
        command=" ".join(parts),
    )
    data = run_ladder(cfg, log=click.echo)
    save_json(data, Path(output).with_suffix(".json"))
    path = write_docs(data, output)
    click.echo(f"wrote {path} ({data.seconds:.0f} s)")
