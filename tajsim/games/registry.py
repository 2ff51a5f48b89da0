"""The registered games, by name: the one place that loads every game's spec.

The generic layers look a game up here (``get_game("maharaja")``); ``--game`` on the command
line and ``game = "..."`` in experiment files name one. A new game adds its package's name to
``GAME_PACKAGES`` (``tajsim/games/__init__.py``): that one line registers it. This module loads
``tajsim.games.<name>.spec`` for each name, only a wing's lower half (rules, strategies, play
kernels, spec); the analysis and reporting layers load a wing's ``analyses`` and ``report`` by
the module names its spec declares, so nothing below them imports a wing's upper half.
"""

from __future__ import annotations

import importlib

from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games import DEFAULT_GAME, GAME_PACKAGES

__all__ = ["DEFAULT_GAME", "GAMES", "game_names", "get_game"]


def _load_spec(package: str) -> GameSpec:
    spec = importlib.import_module(f"tajsim.games.{package}.spec").SPEC
    if not isinstance(spec, GameSpec) or spec.name != package:
        # the fingerprint and numba's cache folders are keyed by package name: they must agree
        raise RuntimeError(f"tajsim.games.{package}.spec.SPEC must be the GameSpec named "
                           f"{package!r}; got {getattr(spec, 'name', spec)!r}")
    return spec


GAMES: dict[str, GameSpec] = {package: _load_spec(package) for package in GAME_PACKAGES}


def game_names() -> list[str]:
    return list(GAMES)


def get_game(game: str | GameSpec | None = None) -> GameSpec:
    """The spec of ``game`` (a name, a spec, or None for the default, Taj Mahal); a one-line
    ``UserError`` naming the registered games for an unknown name."""
    if isinstance(game, GameSpec):
        return game
    name = DEFAULT_GAME if game is None else str(game)
    try:
        return GAMES[name]
    except KeyError:
        raise UserError(f"unknown game {name!r}; expected one of: {', '.join(GAMES)}") from None
