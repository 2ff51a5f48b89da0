"""``tajsim replay``: play one game between named strategies and print it turn by turn."""

from __future__ import annotations

import click

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine.components import load_components
from tajsim.games.tajmahal.engine.game import Game, GameRecord, check_players, play_game


def _print_action(game: Game, player: int, action: int) -> None:
    if game.phase == "bid" and _is_visit_start(game):
        click.echo("")
        click.echo(str(game))
    click.echo(f"  V{game.visit:02d} P{player} [{game.phase}] {game.action_label(action)}")


def _is_visit_start(game: Game) -> bool:
    # No card played or withdrawal yet in this visit.
    from tajsim.games.tajmahal.engine import enums as E

    n = game.n_players
    return all(game.state[E.S_ROW_N + p] == 0 for p in range(n)) and not any(
        game.state[E.S_WITHDRAWN + p] for p in range(n)
    )


@click.command("replay")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="Players (2-5).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed.")
@click.option("--game-id", type=int, default=0, show_default=True, help="Game index in the run.")
@click.option("--setup-id", type=int, default=None, help="Setup index (default: the game id).")
@click.option("--edition", type=click.Choice(["2018", "2000"]), default="2018", show_default=True)
@click.option(
    "--strategies",
    default="random",
    show_default=True,
    help="Comma-separated strategy per seat; a single name fills every seat.",
)
@click.option("--board", type=click.Path(dir_okay=False), default=None,
              help="Board file (TOML) instead of the shipped one.")
@click.option("--components", "components_file", type=click.Path(dir_okay=False), default=None,
              help="Component file (TOML) instead of the shipped one.")
@click.option("--record", "record_in", type=click.Path(dir_okay=False), default=None,
              help="Replay a saved game record (JSON) instead of playing.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (setup + actions) as JSON.")
def command(players, seed, game_id, setup_id, edition, strategies, board, components_file,
            record_in, save) -> None:
    """Play one game and print every decision, with the state at the start of each visit."""
    if record_in:
        try:
            record = GameRecord.load(record_in)
        except OSError as exc:
            raise UserError(f"cannot read game record {record_in!r}: {exc.strerror}") from None
        shadow = record.replay(upto=0)  # same board and components as the recorded game
        for action in record.actions:
            _print_action(shadow, shadow.current_player, action)
            shadow.apply(action)
        game = shadow
    else:
        names = [s for s in strategies.split(",") if s.strip()]
        if len(names) == 1:
            names = names * players
        check_players(players, edition)
        if len(names) != players:
            raise UserError(
                f"--strategies lists {len(names)} strategies for {players} players; "
                f"expected 1 or {players}"
            )
        comps = load_components(board, components_file) if (board or components_file) else None
        game = play_game(
            names, edition=edition, seed=seed, game_id=game_id, setup_id=setup_id,
            components=comps,
            on_action=_print_action,
        )
    click.echo("")
    click.echo(str(game))
    click.echo(f"Province order: {', '.join(game.province_order())}")
    if save:
        game.record().save(save)
        click.echo(f"record written to {save}")
