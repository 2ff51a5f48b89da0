"""The registered games, by name: the one place that imports every game's spec.

The generic layers look a game up here (``get_game("maharaja")``); ``--game`` on the command
line and ``game = "..."`` in experiment files name one. A new game adds its package to
``GAME_PACKAGES`` (``tajsim/games/__init__.py``) and its spec below.
"""

from __future__ import annotations

from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games import DEFAULT_GAME, GAME_PACKAGES
from tajsim.games.maharaja.spec import SPEC as MAHARAJA
from tajsim.games.maharani.spec import SPEC as MAHARANI
from tajsim.games.nothanks.spec import SPEC as NOTHANKS
from tajsim.games.tajmahal.spec import SPEC as TAJMAHAL

__all__ = ["DEFAULT_GAME", "GAMES", "game_names", "get_game"]

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (TAJMAHAL, MAHARAJA, MAHARANI,
                                                                 NOTHANKS)}
if tuple(GAMES) != GAME_PACKAGES:  # the fingerprint reads GAME_PACKAGES: they must agree
    raise RuntimeError(f"registered games {tuple(GAMES)} differ from GAME_PACKAGES "
                       f"{GAME_PACKAGES}")


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
