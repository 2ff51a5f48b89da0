"""``tajsim tune``: optimise a preset's weights against a field of strategies."""

from __future__ import annotations

import re
from pathlib import Path

import click

from tajsim.cli.options import (
    Echo,
    check_writable_file,
    edition_option,
    game_option,
    given,
    players_option,
    seed_option,
    threads_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.tuning import default_field, default_start, tune, tuning_space, write_preset
from tajsim.running.interrupts import check_interrupt

_PRESET_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: The standard CMA-ES needs at least this many candidates per generation (it samples 4 when
#: asked for fewer, so a smaller --popsize would silently be 4).
CMAES_MIN_POPSIZE = 4


@click.command("tune")
@game_option
@click.option("--start", default=None,
              help="Preset of the tuned family to start from (default: the game's own; Taj "
                   "Mahal: balanced).")
@click.option("--field", "field_", default=None,
              help="Comma-separated opponents (registered strategies; default: the game's own; "
                   "Taj Mahal: balanced,commodity,network,collector,hoarder).")
@players_option()
@edition_option
@click.option("--method", type=click.Choice(["cmaes", "de"]), default="cmaes", show_default=True,
              help="CMA-ES or scipy's differential evolution.")
@click.option("--generations", type=click.IntRange(min=1), default=25, show_default=True)
@click.option("--popsize", type=click.IntRange(min=1), default=12, show_default=True,
              help="Candidates per generation (CMA-ES: 4 or more; differential evolution: a "
                   "multiple of the tuned weights, default one per weight).")
@click.option("--games", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games per candidate per generation (same games for every candidate).")
@click.option("--heldout", type=click.IntRange(min=1), default=8000, show_default=True,
              help="Fresh games for the held-out evaluation (a multiple of the players).")
@seed_option(1)
@threads_option("Python threads running game batches (the kernel releases the GIL).")
@click.option("--name", default="tuned", show_default=True, help="Preset name to write.")
@click.option("--write", "write_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="FILE",
              help="Write the weights as [presets.NAME] into FILE, a presets TOML file (if "
                   "missing, created as a copy of the game's presets; its other presets are "
                   "kept). Nothing is written without it; name "
                   "the game's presets file (tajsim/games/GAME/strategies/presets.toml in a "
                   "checkout) to register the preset as a strategy.")
@click.option("--forbid", default=None,
              help="Tune a restricted seat: restriction families joined by + (tajsim strategies "
                   "--game G lists them); every candidate and the held-out seats play under it "
                   "(its best response). Prints the re-tuned seat as a strategy text.")
@verbosity_options
def command(game, start, field_, players, edition, method, generations, popsize, games,
            heldout, seed, threads, name, write_path, forbid, quiet, verbose) -> None:
    """Tune START's weights against FIELD and report a held-out evaluation.

    Every candidate of a generation plays the same games (common random numbers); the held-out
    evaluation uses game ids never seen during the search: the result against START head to
    head (half the seats each, seats rotated) and both against the field.
    """
    echo = Echo(quiet, verbose)
    spec = get_game(game)
    write = write_path is not None
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    players = spec.players_or_default(players, ed)
    if spec.tuning is None and (start is None or not spec.restrictions):
        raise UserError(f"{spec.title} has nothing to tune" + (
            "; expected a game with a tuning space" if not spec.restrictions else
            " by default (no declared tuning space); expected --start PRESET, whose weights "
            "are tuned in a space derived from them (nothing written)"))
    start = start if start is not None else default_start(spec)
    tuning = tuning_space(spec, spec.strategies.parse(start)[0])
    if spec.tuning is None and write:
        raise UserError(f"--write with {spec.title}, which declares no presets file to tune "
                        "into; expected no --write (the tuned weights are printed)")
    if field_ is None:
        field_ = ",".join(default_field(spec, spec.strategies.parse(start)[0].name)) \
            if spec.tuning is not None else start
    names = [s.strip() for s in field_.split(",") if s.strip()]
    if not names:
        raise UserError(f"--field {field_!r} names no strategy; expected comma-separated "
                        "registered strategies")
    for text in [start, *names]:
        spec.strategies.parse(text)  # every name is checked before any game
    n_weights = len(tuning.names)
    # The held-out games rotate the seats over whole tables; the search needs a population
    # its method really uses (no silent rounding of either).
    if heldout < players or heldout % players:
        raise UserError(f"--heldout {heldout} is not allowed; expected a multiple of the "
                        f"{players} players (e.g. {max(players, heldout - heldout % players)})")
    if method == "cmaes" and popsize < CMAES_MIN_POPSIZE:
        raise UserError(f"--popsize {popsize} is not allowed with CMA-ES; expected at least "
                        f"{CMAES_MIN_POPSIZE}")
    if method == "de":
        # scipy's population is a whole number of candidates per weight: the default is one
        # per weight (what --popsize 12 gave before), a given size must be such a multiple.
        if not given("popsize"):
            popsize = n_weights
        elif popsize < n_weights or popsize % n_weights:
            raise UserError(f"--popsize {popsize} is not allowed with differential evolution; "
                            f"expected a multiple of the {n_weights} tuned weights")
    if write:
        if not _PRESET_NAME.match(name):
            raise UserError(f"--name {name!r} is not a preset name; expected letters, digits "
                            "and '_', not starting with a digit")
        if name in spec.strategies and \
                spec.strategies.get(name).strategy_id != tuning.strategy_id:
            raise UserError(f"--name {name!r} is a {spec.title} strategy of another family; "
                            "expected a new preset name or a preset of the tuned family")
        check_writable_file(write_path, "--write")
        if write_path.exists():
            tuning.check_presets(write_path)  # a valid presets file before hours of tuning
        if forbid is not None:
            raise UserError(f"--forbid {forbid} with --write: a preset stores weights, not a "
                            "restriction; expected one of them (use the printed strategy text)")
    elif given("name"):
        raise UserError("--name without --write; expected --write to store the preset "
                        "(or no --name)")
    total = generations * popsize * games + 3 * heldout
    echo.detail(f"validated: tune {start} ({n_weights} weights) against {','.join(names)}, "
                f"{players} players, {spec.title} {ed}, {method}: {generations} generations x "
                f"{popsize} candidates x {games} games + held out {heldout} x 3 = {total:,} "
                f"games, {threads} thread{'s' if threads != 1 else ''}, seed {seed}")
    if forbid is not None:
        spec.strategies.parse(f"{start}:forbid={forbid}")  # a one-line error before any game
    result = tune(start, names, game=spec, n_players=players, edition=spec.rules_code(ed),
                  generations=generations, popsize=popsize, games=games, heldout_games=heldout,
                  seed=seed, method=method, threads=threads, log=echo.say, forbid=forbid)
    check_interrupt()  # games played after a Ctrl-C (searches cut short) tune nothing
    h = result.heldout
    lo, hi = h["head_to_head_ci"]
    echo.say(f"tuned weights: {result.weights_dict()}")
    echo.say(f"held out ({h['games']} games): tuned takes {h['head_to_head_share']:.3f} "
             f"[{lo:.3f}, {hi:.3f}] of the wins against {start} (parity {h['parity']:.2f}); "
             f"one seat against the field: tuned {h['field_win_tuned']:.3f}, {start} "
             f"{h['field_win_start']:.3f}")
    if forbid is not None:  # the options after forbid= are the restricted seat's own
        weights = ":".join(f"{k}={v:g}" for k, v in result.weights_dict().items())
        echo.say(f"re-tuned restricted seat: {start}:forbid={forbid}:{weights}")
    echo.say(f"{result.seconds:.0f} s")
    if write:
        try:
            path = write_preset(result, name, write_path)
        except OSError as exc:
            raise UserError(f"cannot write [presets.{name}] to {str(write_path)!r} "
                            f"({exc.strerror or exc}); the tuned weights are "
                            f"{result.weights_dict()}") from None
        if write_path.resolve() == tuning.presets_path().resolve():
            tuning.reload()  # the registered presets changed
        echo.say(f"wrote [presets.{name}] to {path}")
