"""``tajsim board``: draw a game's board and check its component files."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any

import click

from tajsim.cli.options import Echo, game_option, verbosity_options
from tajsim.engine.component_files import ComponentError, read_toml
from tajsim.errors import UserError
from tajsim.games.registry import get_game

_FILE = click.Path(dir_okay=False, path_type=Path)


def _summary(comps: Any) -> str:
    summary = getattr(comps, "summary", None)
    return summary() if callable(summary) else comps.describe()


@click.group("board")
def command() -> None:
    """Show a game's board and validate its component files (docs/components.md,
    docs/games/<game>/components.md)."""


@command.command("show")
@game_option
@click.option("--board", "board", type=_FILE, default=None,
              help="Board file (TOML); default the built-in reconstructed board.")
@click.option("--components", "components", type=_FILE, default=None,
              help="Second component file (TOML; Maharaja: numbers, Maharani: tiles) "
                   "instead of the shipped one.")
@click.option("--out", "-o", type=_FILE, default=Path("board.png"), show_default=True,
              help="Picture to write (.png, .svg, .pdf).")
@click.option("--alternative", type=click.IntRange(min=0), default=None, metavar="SEED",
              help="Draw the randomly generated alternative board of this seed instead.")
@click.option("--labels", type=click.Choice(["fortress", "all", "none"]), default=None,
              help="Which names to write (Taj Mahal: city names; default: the game's).")
@click.option("--dpi", type=click.IntRange(min=30, max=600), default=120, show_default=True)
@verbosity_options
def show(game: str, board: Path | None, components: Path | None, out: Path,
         alternative: int | None, labels: str | None, dpi: int, quiet: bool,
         verbose: bool) -> None:
    """Draw the board to a picture."""
    import matplotlib.pyplot as plt

    echo = Echo(quiet, verbose)
    spec = get_game(game)
    if not spec.board_picture:
        raise UserError(f"{spec.title} has no board picture; expected a game with one")
    if alternative is not None and (board is not None or components is not None):
        raise UserError(f"--alternative {alternative} and a component file both given; "
                        "expected one (an alternative is generated from the shipped files)")
    comps = spec.components.load(board, components) if (board or components) \
        else spec.components.default()
    if alternative is not None:
        if spec.components.alternative is None:
            raise UserError(f"{spec.title} has no alternative boards; expected no "
                            "--alternative")
        comps = spec.components.alternative(alternative, comps)
    module, _, name = spec.board_picture.partition(":")
    draw = getattr(importlib.import_module(module), name)
    accepted = inspect.signature(draw).parameters
    options: dict[str, Any] = {}
    if "title" in accepted and alternative is not None:
        options["title"] = f"Alternative board (seed {alternative}): {_summary(comps)}"
    if "label_cities" in accepted and labels is not None:
        options["label_cities"] = labels
    if "show_bonus" in accepted:
        options["show_bonus"] = True
    fig = draw(comps, **options)
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
    echo.detail(f"{spec.title} components: {comps.describe()}; {dpi} dpi")
    echo.say(f"{out}: {_summary(comps)}")


@command.command("validate")
@game_option
@click.argument("file", type=_FILE)
@click.option("--kind", default=None,
              help="What FILE is (Taj Mahal: board or components); default: detected from its "
                   "top-level keys.")
@click.option("--other", type=_FILE, default=None,
              help="The other file of the pair, for the cross-file checks; default the "
                   "built-in one.")
@verbosity_options
@click.pass_context
def validate(ctx: click.Context, game: str, file: Path, kind: str | None,
             other: Path | None, quiet: bool, verbose: bool) -> None:
    """Check a component FILE of a game against every documented constraint.

    Prints "OK: ..." or one line per problem (file, key, bad value, expected) and exits 2.
    """
    echo = Echo(quiet, verbose)
    spec = get_game(game)
    kinds = spec.components.file_kinds
    if not kinds:
        raise UserError(f"{spec.title} has no component files; expected a game that reads some "
                        "(--game)")
    if kind is not None and kind not in kinds:
        raise UserError(f"--kind {kind!r} is not a {spec.title} file kind; expected one of "
                        f"{', '.join(kinds)}")
    if kind is None:
        if len(kinds) == 1:
            kind = kinds[0]
        else:
            detected = None
            if spec.components.detect_kind is not None:
                try:
                    detected = spec.components.detect_kind(read_toml(file))
                except ComponentError:
                    detected = kinds[0]  # the validator reports the read error
            if detected is None:
                raise UserError(f"{file}: cannot tell which {spec.title} file this is; pass "
                                f"--kind ({' or '.join(kinds)})")
            kind = detected
    files: list[Path | None] = [None] * len(kinds)
    files[kinds.index(kind)] = file
    if other is not None and len(kinds) > 1:
        files[1 - kinds.index(kind) if len(kinds) == 2 else 0] = other
    echo.detail(f"{file} read as a {spec.title} {kind} file, checked with "
                + ", ".join(f"{k}: {f if f is not None else 'built-in'}"
                            for k, f in zip(kinds, files)))
    problems = spec.components.validate(*files)
    if problems:
        for line in problems:
            click.echo(line)
        click.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} found.")
        ctx.exit(2)
    comps = spec.components.load(*files)
    partner = "" if len(kinds) == 1 else (
        f" (with {other})" if other is not None else " (with the built-in other file)")
    echo.say(f"OK: {file} is a valid {kind} file of {spec.title}{partner}: "
             f"{_summary(comps)}")
