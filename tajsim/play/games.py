"""Step-by-step games of every registered game from the public facade: ``tajsim.game("maharani",
3, seed=7)`` and ``tajsim.Game(3, game="maharani", seed=7)`` return that game's class instance
(``GameSpec.game_class``, a :class:`~tajsim.engine.base_game.BaseGame`); without ``game`` it is
Taj Mahal, as ``tajsim.Game`` has always been."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tajsim.engine.base_game import BaseGame
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game

__all__ = ["Game", "game"]


def game(name: str | GameSpec | None = None, n_players: int | None = None,
         edition: str | int | None = None, seed: int = 0, game_id: int = 0,
         setup_id: int | None = None, components: Any = None,
         options: Mapping[str, bool] | None = None) -> BaseGame:
    """A new game of ``name`` ("tajmahal", the default, "maharaja", "maharani"), set up and
    ready for its first action: ``game.legal_actions()``, ``game.apply(action)``,
    ``print(game)``, ``game.record()``.

    The arguments are those of the game's class (``BaseGame``): ``n_players`` within the
    game's range, ``edition`` (default: its first), the master ``seed``, ``game_id`` and
    ``setup_id`` (the batch runner's game of the same ids), ``components`` (default: the
    shipped ones) and the rule ``options`` by name. An unknown game is a one-line
    ``UserError`` naming the registered ones.
    """
    return get_game(name).game_class(n_players, edition, seed, game_id, setup_id, components,
                                     options)


class _GameFacade(type):
    """``tajsim.Game``: calling it makes a game (``game=`` picks which, Taj Mahal by default);
    its attributes are Taj Mahal's ``Game`` class's (``tajsim.Game.replay(record)``), and every
    game's instance is an instance of it."""

    def __call__(cls, *args: Any, game: str | GameSpec | None = None, **kwargs: Any) -> BaseGame:
        return get_game(game).game_class(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        return getattr(get_game(None).game_class, name)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, BaseGame)


class Game(metaclass=_GameFacade):
    """A game played step by step: ``tajsim.Game(n_players, edition, seed, ..., game=NAME)``.

    Without ``game`` it is Taj Mahal (``tajsim.games.tajmahal.engine.game.Game``); with
    ``game="maharaja"`` or ``"maharani"`` that game's class. The positional and keyword
    arguments are the game class's (see :func:`game`).
    """
