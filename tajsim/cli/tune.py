"""``tajsim tune``: optimise a preset's weights against a field of strategies."""

from __future__ import annotations

import click

from tajsim.cli.options import (
    edition_option,
    game_option,
    players_option,
    seed_option,
    verbosity_options,
)
from tajsim.games.registry import get_game
from tajsim.play.tuning import tune, write_preset


@click.command("tune")
@game_option
@click.option("--start", default="balanced", show_default=True,
              help="Preset of the tuned family to start from.")
@click.option("--field", "field_", default="balanced,commodity,network,collector,hoarder",
              show_default=True, help="Comma-separated opponents (registered strategies).")
@players_option()
@edition_option
@click.option("--method", type=click.Choice(["cmaes", "de"]), default="cmaes", show_default=True,
              help="CMA-ES or scipy's differential evolution.")
@click.option("--generations", type=click.IntRange(min=1), default=25, show_default=True)
@click.option("--popsize", type=click.IntRange(min=2), default=12, show_default=True,
              help="Candidates per generation.")
@click.option("--games", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games per candidate per generation (same games for every candidate).")
@click.option("--heldout", type=click.IntRange(min=1), default=8000, show_default=True,
              help="Fresh games for the held-out evaluation.")
@seed_option(1)
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True,
              help="Python threads running game batches (the kernel releases the GIL).")
@click.option("--name", default="tuned", show_default=True, help="Preset name to write.")
@click.option("--write/--no-write", default=False, show_default=True,
              help="Write the weights to the game's presets file as [presets.NAME].")
@verbosity_options
def command(game, start, field_, players, edition, method, generations, popsize, games,
            heldout, seed, threads, name, write, quiet, verbose) -> None:
    """Tune START's weights against FIELD and report a held-out evaluation.

    Every candidate of a generation plays the same games (common random numbers); the held-out
    evaluation uses game ids never seen during the search: the result against START head to
    head (half the seats each, seats rotated) and both against the field.
    """
    spec = get_game(game)
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    spec.check_players(players, ed)
    names = [s.strip() for s in field_.split(",") if s.strip()]
    for text in [start, *names]:
        spec.strategies.parse(text)  # every name is checked before any game
    say = (lambda _m: None) if quiet else click.echo
    result = tune(start, names, game=spec, n_players=players, edition=spec.rules_code(ed),
                  generations=generations, popsize=popsize, games=games, heldout_games=heldout,
                  seed=seed, method=method, threads=threads, log=say)
    h = result.heldout
    lo, hi = h["head_to_head_ci"]
    say(f"tuned weights: {result.weights_dict()}")
    say(f"held out ({h['games']} games): tuned takes {h['head_to_head_share']:.3f} "
        f"[{lo:.3f}, {hi:.3f}] of the wins against {start} (parity {h['parity']:.2f}); "
        f"one seat against the field: tuned {h['field_win_tuned']:.3f}, {start} "
        f"{h['field_win_start']:.3f}")
    say(f"{result.seconds:.0f} s")
    if write:
        path = write_preset(result, name)
        spec.tuning.reload()
        say(f"wrote [presets.{name}] to {path}")
