"""``tajsim tune``: optimise a heuristic preset's weights against a field of strategies."""

from __future__ import annotations

import click

from tajsim.games.tajmahal.engine.game import check_players, parse_edition


@click.command("tune")
@click.option("--start", default="balanced", show_default=True,
              help="Heuristic preset to start from.")
@click.option("--field", "field_", default="balanced,commodity,network,collector,hoarder",
              show_default=True, help="Comma-separated opponents (registered strategies).")
@click.option("--players", "-p", type=int, default=4, show_default=True)
@click.option("--edition", type=click.Choice(["2018", "2000"]), default="2018", show_default=True)
@click.option("--method", type=click.Choice(["cmaes", "de"]), default="cmaes", show_default=True,
              help="CMA-ES (numpy) or scipy's differential evolution.")
@click.option("--generations", type=int, default=25, show_default=True)
@click.option("--popsize", type=int, default=12, show_default=True,
              help="Candidates per generation.")
@click.option("--games", type=int, default=400, show_default=True,
              help="Games per candidate per generation (same games for every candidate).")
@click.option("--heldout", type=int, default=8000, show_default=True,
              help="Fresh games for the held-out evaluation.")
@click.option("--seed", "-s", type=int, default=1, show_default=True)
@click.option("--threads", type=int, default=1, show_default=True,
              help="Python threads running game batches (the kernel releases the GIL).")
@click.option("--name", default="tuned", show_default=True, help="Preset name to write.")
@click.option("--write/--no-write", default=False, show_default=True,
              help="Write the weights to presets.toml as [presets.NAME].")
def command(start, field_, players, edition, method, generations, popsize, games, heldout, seed,
            threads, name, write) -> None:
    """Tune START's weights against FIELD and report a held-out evaluation.

    Every candidate of a generation plays the same games (common random numbers); the held-out
    evaluation uses game ids never seen during the search: the result against START head to
    head (half the seats each, seats rotated) and both against the field.
    """
    from tajsim.games.tajmahal.strategies.registry import reload_presets
    from tajsim.play.tuning import tune, write_preset

    check_players(players, edition)
    names = [s.strip() for s in field_.split(",") if s.strip()]
    result = tune(start, names, n_players=players, edition=parse_edition(edition),
                  generations=generations, popsize=popsize, games=games, heldout_games=heldout,
                  seed=seed, method=method, threads=threads, log=click.echo)
    h = result.heldout
    lo, hi = h["head_to_head_ci"]
    click.echo(f"tuned weights: {result.weights_dict()}")
    click.echo(
        f"held out ({h['games']} games): tuned takes {h['head_to_head_share']:.3f} "
        f"[{lo:.3f}, {hi:.3f}] of the wins against {start} (parity {h['parity']:.2f}); "
        f"one seat against the field: tuned {h['field_win_tuned']:.3f}, {start} "
        f"{h['field_win_start']:.3f}"
    )
    click.echo(f"{result.seconds:.0f} s")
    if write:
        path = write_preset(result, name)
        reload_presets()
        click.echo(f"wrote [presets.{name}] to {path}")
