"""``tajsim board``: draw the board and check component files."""

from __future__ import annotations

from pathlib import Path

import click

from tajsim.errors import UserError

_FILE = click.Path(dir_okay=False, path_type=Path)


@click.group("board")
def command() -> None:
    """Show the board and validate board / components files (see docs/components.md)."""


@command.command("show")
@click.option("--board", "board", type=_FILE, default=None,
              help="Board file (TOML); default the built-in reconstructed board.")
@click.option("--components", "components", type=_FILE, default=None,
              help="Components file (TOML); default the built-in one.")
@click.option("--out", type=_FILE, default=Path("board.png"), show_default=True,
              help="Picture to write (.png, .svg, .pdf).")
@click.option("--alternative", type=click.IntRange(min=0), default=None, metavar="SEED",
              help="Draw the randomly generated alternative board of this seed instead.")
@click.option("--labels", type=click.Choice(["fortress", "all", "none"]), default="fortress",
              show_default=True, help="Which city names to write.")
@click.option("--dpi", type=click.IntRange(min=30, max=600), default=120, show_default=True)
def show(board: Path | None, components: Path | None, out: Path, alternative: int | None,
         labels: str, dpi: int) -> None:
    """Draw the board (provinces, roads, cities, fortresses, Agra) to a picture."""
    from tajsim.games.tajmahal.engine.alternatives import alternative_components
    from tajsim.games.tajmahal.engine.component_files import load_components
    from tajsim.games.tajmahal.report.board_plot import plot_board

    comps = load_components(board, components)
    if alternative is not None:
        comps = alternative_components(alternative, comps)
    import matplotlib.pyplot as plt

    fig = plot_board(comps, show_bonus=True, label_cities=labels,
                     title=None if alternative is None else
                     f"Alternative board (seed {alternative}): {comps.summary()}")
    suffix = out.suffix.lower().lstrip(".")
    supported = fig.canvas.get_supported_filetypes()
    if suffix not in supported:
        plt.close(fig)
        raise UserError(f"--out {out}: unknown picture type {suffix or '(none)'!r}, expected "
                        f"one of {', '.join(sorted(supported))}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, dpi=dpi)
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    click.echo(f"{out}: {comps.summary()}")


@command.command("validate")
@click.argument("file", type=_FILE)
@click.option("--kind", type=click.Choice(["board", "components"]), default=None,
              help="What FILE is; default: detected from its top-level keys.")
@click.option("--other", type=_FILE, default=None,
              help="The other file of the pair, for the cross-file checks (fortress cities "
                   "vs. square bonus tiles); default the built-in one.")
@click.pass_context
def validate(ctx: click.Context, file: Path, kind: str | None, other: Path | None) -> None:
    """Check a board or components FILE against every documented constraint.

    Prints "OK: ..." or one line per problem (file, key, bad value, expected) and exits 2.
    """
    from tajsim.games.tajmahal.engine.component_files import (
        ComponentError,
        detect_kind,
        load_components,
        read_toml,
        validate_files,
    )

    if kind is None:
        try:
            kind = detect_kind(read_toml(file))
        except ComponentError:
            kind = "board"  # validate_files reports the read error
        if kind is None:
            raise UserError(f"{file}: cannot tell whether this is a board file ([[province]] "
                            "tables) or a components file ([province_tiles], [coloured_cards], "
                            "...); pass --kind board or --kind components")
    pair = (file, other) if kind == "board" else (other, file)
    problems = validate_files(*pair)
    if problems:
        for line in problems:
            click.echo(line)
        click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found.")
        ctx.exit(2)
    comps = load_components(*pair)
    partner = other if other is not None else "the built-in " + (
        "components" if kind == "board" else "board") + " file"
    click.echo(f"OK: {file} is a valid {kind} file (with {partner}): {comps.summary()}")
