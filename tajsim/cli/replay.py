"""``tajsim replay``: play one game between named strategies (or a saved record) and print it
turn by turn, as a referee would follow it."""

from __future__ import annotations

import click

from tajsim.cli.options import (
    edition_option,
    game_option,
    players_option,
    seed_option,
    strategies_option,
    verbosity_options,
)
from tajsim.cli.simulate import option_option, parse_options
from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.mixed import play_game


class _Printer:
    """Prints each action with the events it caused, and the game's checkpoints."""

    def __init__(self) -> None:
        self.pending: tuple[BaseGame, int, object] | None = None

    def before(self, game: BaseGame, player: int, action: int) -> None:
        self.flush()
        checkpoint = game.replay_checkpoint()
        if checkpoint:
            click.echo("")
            click.echo(checkpoint)
        click.echo(game.describe_action(player, action))
        self.pending = (game, action, game.state.copy())

    def flush(self) -> None:
        if self.pending is not None:
            game, action, before = self.pending
            for line in game.replay_events(before, action, game.state):
                click.echo(f"      {line}")
            self.pending = None


@click.command("replay")
@game_option
@players_option()
@seed_option()
@click.option("--game-id", type=click.IntRange(min=0), default=0, show_default=True,
              help="Game index in the run.")
@click.option("--setup-id", type=click.IntRange(min=0), default=None,
              help="Setup index (default: the game id).")
@edition_option
@strategies_option(help_text="Comma-separated strategy per seat; a single name fills every "
                             "seat.")
@click.option("--board", type=click.Path(dir_okay=False), default=None,
              help="Board file (TOML) instead of the shipped one.")
@click.option("--components", "components_file", type=click.Path(dir_okay=False), default=None,
              help="Component file (TOML) instead of the shipped one.")
@option_option
@click.option("--record", "record_in", type=click.Path(dir_okay=False), default=None,
              help="Replay a saved game record (JSON) instead of playing.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (setup + actions) as JSON.")
@verbosity_options
def command(game, players, seed, game_id, setup_id, edition, strategies, board,
            components_file, rule_options, record_in, save, quiet, verbose) -> None:
    """Play one game and print every decision and every event, with the state at each
    checkpoint (Taj Mahal: the start of each visit; Maharani: each turn, and the palace at
    each quarter scoring)."""
    spec = get_game(game)
    printer = _Printer()
    if record_in:
        record = GameRecord.load(record_in)
        spec = get_game(record.game)
        shadow = spec.game_class.replay(record, upto=0)  # same board and components
        for i, action in enumerate(record.actions):
            if shadow.is_over:
                raise UserError(f"record action {i + 1} of {len(record.actions)}: the game is "
                                "already over")
            printer.before(shadow, shadow.current_player, action)
            shadow.apply(action)
        printer.flush()
        played = shadow
        if not played.is_over:
            raise UserError(f"record {record_in!r} ends after {len(record.actions)} actions, "
                            "before the game is over; expected a whole game's record")
    else:
        names = [s for s in strategies.split(",") if s.strip()]
        if len(names) == 1:
            names = names * players
        spec.check_players(players, edition)
        if len(names) != players:
            raise UserError(
                f"--strategies lists {len(names)} strategies for {players} players; "
                f"expected 1 or {players}"
            )
        comps = spec.components.load(board, components_file) if (board or components_file) \
            else None
        played = play_game(names, edition=edition, seed=seed, game_id=game_id,
                           setup_id=setup_id, components=comps, on_action=printer.before,
                           game=spec, options=parse_options(rule_options))
        printer.flush()
    click.echo("")
    click.echo(str(played))
    for line in played.final_summary():
        click.echo(line)
    if save:
        played.record().save(save)
        click.echo(f"record written to {save}")
