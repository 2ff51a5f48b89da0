"""``tajsim replay``: play one game between named strategies (or a saved record) and print it
turn by turn, as a referee would follow it."""

from __future__ import annotations

import click
import numpy as np

from tajsim.cli.options import (
    Echo,
    check_writable_file,
    edition_option,
    game_option,
    given,
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


def _identity(game: BaseGame, strategies: list[str]) -> str:
    """The line that says which game this is and who played it: the game and edition, the
    seed, game and setup ids (all a replay needs), and each seat's strategy as given (P0 is
    seat 0)."""
    who = ", ".join(f"P{seat} {name}" for seat, name in enumerate(strategies)) \
        or "strategies not recorded"
    edition = f" {game.edition}" if len(game.spec.editions) > 1 else ""
    return (f"{game.spec.title}{edition}, {game.n_players} players, seed {game.seed}, game "
            f"{game.game_id}, setup {game.setup_id}: {who}")


class _Printer:
    """Prints the game's identity (before the first action: the seats are resolved by then),
    each action with the events it caused, and the game's checkpoints."""

    def __init__(self, strategies: list[str]) -> None:
        self.strategies = strategies
        self.pending: tuple[BaseGame, int, np.ndarray] | None = None

    def before(self, game: BaseGame, player: int, action: int) -> None:
        self.flush()
        if not game.actions:
            click.echo(_identity(game, self.strategies))
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
              help="Second component file (TOML; Maharaja: numbers, Maharani: tiles) "
                   "instead of the shipped one.")
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
    echo = Echo(quiet, verbose)
    if save:
        check_writable_file(save, "--save")
    spec = get_game(game)
    if record_in:
        # A record holds its own game, players, seed, setup and components: an option that
        # would change them cannot apply, so it is refused rather than ignored.
        options = ("game", "players", "seed", "game_id", "setup_id", "edition", "strategies",
                   "board", "components_file", "rule_options")
        clash = [name for name in options if given(name)]
        if clash:
            flag = "--" + {"components_file": "components", "rule_options": "option"}.get(
                clash[0], clash[0].replace("_", "-"))
            raise UserError(f"{flag} and --record both given; expected one (a record replays "
                            "its own game, players, seed and setup)")
        record = GameRecord.load(record_in)
        spec = get_game(record.game)
        strategies_in = record.strategies or []
        if strategies_in and (not isinstance(strategies_in, list)
                              or len(strategies_in) != record.n_players
                              or not all(isinstance(s, str) and s for s in strategies_in)):
            raise UserError(f"record {record_in!r}: 'strategies' {strategies_in!r} for "
                            f"{record.n_players} players; expected {record.n_players} strategy "
                            "texts, one a seat (or none)")
        # The whole record is checked before anything is printed: every action legal, the
        # game over exactly at its last action.
        whole = spec.game_class.replay(record)
        if not whole.is_over:
            what = "no actions" if not record.actions else f"{len(record.actions)} actions"
            raise UserError(f"record {record_in!r} has {what} and ends before the game is "
                            "over; expected a whole game's record")
        echo.detail(f"record {record_in}: {spec.title}, {record.n_players} players, seed "
                    f"{record.seed}, game {record.game_id}, setup {whole.setup_id}, "
                    f"{len(record.actions)} actions, every one legal")
        if quiet:
            played = whole
        else:
            record_printer = _Printer(list(record.strategies))
            shadow = spec.game_class.replay(record, upto=0)  # same board and components
            for action in record.actions:
                record_printer.before(shadow, shadow.current_player, action)
                shadow.apply(action)
            record_printer.flush()
            played = shadow
    else:
        names = [s.strip() for s in strategies.split(",")]
        if any(not s for s in names):  # as simulate says it (split_strategies)
            raise UserError(f"bad strategy list {strategies!r}; expected comma-separated "
                            "strategy names")
        players = spec.players_or_default(players, edition)
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise UserError(
                f"--strategies lists {len(names)} strategies for {players} players; "
                f"expected 1 or {players}"
            )
        comps = spec.components.load(board, components_file) if (board or components_file) \
            else None
        echo.detail(f"{spec.title}, {players} players, strategies {','.join(names)}, seed "
                    f"{seed}, game {game_id}, setup {game_id if setup_id is None else setup_id}"
                    f", components: {'shipped' if comps is None else comps.describe()}")
        printer = _Printer(names) if not quiet else None
        played = play_game(names, edition=edition, seed=seed, game_id=game_id,
                           setup_id=setup_id, components=comps,
                           on_action=printer.before if printer else None, game=spec,
                           options=parse_options(rule_options))
        if printer is not None:
            printer.flush()
    if not quiet:
        click.echo("")
        click.echo(str(played))
        for line in played.final_summary():
            click.echo(line)
        click.echo(_identity(played, played.strategies))
    if save:
        try:
            played.record().save(save)
        except OSError as exc:
            raise UserError(f"--save {save!r} cannot be written ({exc.strerror or exc}); "
                            "expected a file in a folder you can write to") from None
        echo.say(f"record written to {save}")
