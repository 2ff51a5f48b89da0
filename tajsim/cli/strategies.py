"""``tajsim strategies``: list the registered strategies with their parameters."""

from __future__ import annotations

from pathlib import Path

import click

from tajsim.cli.options import Echo, game_option, given
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.strategies.python_policy import load_policy_file
from tajsim.strategies.spec import TEMPERATURE_RANGE, is_internal


def _wrap(items: list[str], indent: str = "      ", width: int = 96) -> list[str]:
    lines, line = [], indent
    for item in items:
        if len(line) + len(item) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def _names(names: tuple[str, ...]) -> str:
    """Parameter names sharing a range: all of them if few, else the first and last."""
    return ", ".join(names) if len(names) <= 3 else f"{names[0]} .. {names[-1]} ({len(names)})"


@click.command("strategies")
@game_option
@click.option("--params/--no-params", default=True, show_default=True,
              help="Show each strategy's parameters and defaults.")
@click.option("--plugins", type=click.Path(file_okay=False), default="strategies",
              show_default=True,
              help="Folder of pure-Python strategy files to list as py:PATH (if it exists).")
def command(game: str, params: bool, plugins: str) -> None:
    """List every registered strategy of a game: id, name, description and parameters.

    Presets of the heuristic share one id and differ by their weights; override any parameter
    with NAME:KEY=VALUE (e.g. balanced:connect=2, ismcts:iterations=200). Pure-Python
    strategies are files used as py:PATH (see docs/strategies.md); those found in --plugins
    are listed last. A game with the generic options lists them and its restriction families
    after the strategies (balanced:temperature=1, balanced:forbid=governor).
    """
    Echo()  # compile notices on, as in every command (listing compiles nothing today)
    game_spec = get_game(game)
    if not Path(plugins).is_dir() and given("plugins"):
        raise UserError(f"--plugins {plugins!r} is not a folder; expected a folder of "
                        "pure-Python strategy files")
    click.echo(f"{'id':>2}  {'name':<10} description" + (
        "; below it, its parameters = defaults (override one: NAME:KEY=VALUE)" if params
        else ""))
    for spec in game_spec.strategies.all():
        click.echo(f"{spec.strategy_id:>2}  {spec.name:<10} {spec.description}")
        if params and spec.param_names:
            shown = [f"{name}={value:g}" for name, value in spec.named_params().items()
                     if not is_internal(name)]
            for line in _wrap(shown):
                click.echo(line)
            # What each may be (refused otherwise): one entry per distinct range.
            ranges = [f"{_names(names)}: {declared.expected(why=False)};"
                      for names, declared in spec.range_groups()]
            if ranges:  # none when every slot is internal (net: its weights file decides)
                ranges[-1] = ranges[-1].rstrip(";")
                for line in _wrap(["ranges:", *ranges]):
                    click.echo(line)
    registry = game_spec.strategies
    if getattr(registry, "generic_options", False):
        click.echo("\nEvery compiled strategy above also takes (docs/strategies.md):")
        click.echo(f"    temperature: {TEMPERATURE_RANGE.expected(why=False)}; 0 (the default) "
                   "is its own choice, above 0 a softmax of value / temperature")
        click.echo("    forbid: restriction families joined by + (none by default); kind: what "
                   "one removes (card, option, decision: surgical; broad: a large share of the "
                   "game):")
        width = max((len(r.name) for r in game_spec.restrictions), default=0)
        for restriction in game_spec.restrictions:
            kind = restriction.kind + (" (surgical)" if restriction.surgical else "")
            click.echo(f"      {restriction.name:<{width}}  {kind:<19} {restriction.text}")
    folder = Path(plugins)
    listed = []
    for file in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        try:
            policy = load_policy_file(file)
            if getattr(policy, "game", "") not in ("", game_spec.name):
                continue
            text = f"{policy.name}: {getattr(policy, 'description', '')}"
        except UserError as exc:
            text = f"cannot load: {exc}"
        listed.append(f" -  py:{file}  {text}")
    if listed:
        click.echo(f"pure-Python strategies in {folder} (use as py:PATH; docs/strategies.md):")
        for line in listed:
            click.echo(line)
    tables = ", ".join(f"{low}-{high}" + (f" ({ed})" if len(game_spec.editions) > 1 else "")
                       for ed, (low, high) in game_spec.players.items())
    click.echo(f"\n{game_spec.title}: {tables} players; {game_spec.default_player_count()} when "
               "--players is left out.")
