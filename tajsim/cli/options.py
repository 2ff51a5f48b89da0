"""Options shared by the commands, so that a flag means the same everywhere.

``--game/-g`` (default: Taj Mahal), ``--players/-p``, ``--strategies/-s``, ``--edition/-e``,
``--games/-n``, ``--seed`` (no short flag: ``-s`` is always ``--strategies``), ``--workers/-w``,
``--out/-o``, ``--quiet/-q`` and ``--verbose/-v``. Values are checked by the library (one-line
``UserError``), not by click, so the messages name the game's own ranges.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from tajsim.games import DEFAULT_GAME

F = Callable[..., Any]


def game_option(func: F) -> F:
    from tajsim.games import GAME_PACKAGES

    return click.option("--game", "-g", default=DEFAULT_GAME, show_default=True,
                        metavar="GAME",
                        help=f"The game: {', '.join(GAME_PACKAGES)}.")(func)


def players_option(default: int | None = 4) -> Callable[[F], F]:
    return click.option("--players", "-p", type=int, default=default,
                        show_default=default is not None,
                        help="Players per game (the game's range; Taj Mahal 2018: 2-5).")


def strategies_option(default: str = "random", help_text: str | None = None) -> Callable[[F], F]:
    return click.option("--strategies", "-s", default=default, show_default=True,
                        metavar="LIST",
                        help=help_text or "Comma-separated strategies, 'name' or "
                                          "'name:key=value' (tajsim strategies --game GAME).")


def edition_option(func: F) -> F:
    return click.option("--edition", "-e", default=None, metavar="EDITION",
                        help="The game's edition (Taj Mahal: 2018, the default, or 2000).")(func)


def seed_option(default: int = 0) -> Callable[[F], F]:
    return click.option("--seed", default=default, show_default=True,
                        type=click.IntRange(min=0, max=2**63 - 1),
                        help="Master seed (0 .. 2**63 - 1).")


def verbosity_options(func: F) -> F:
    func = click.option("--verbose", "-v", is_flag=True,
                        help="Say more: every step of the work, with timings.")(func)
    func = click.option("--quiet", "-q", is_flag=True,
                        help="Print nothing but errors.")(func)
    return func
