"""Games played step by step, for any registered game: each seat a registered compiled strategy
(``name`` or ``name:key=value``), a pure-Python plug-in (``py:path/to/file.py``) or a policy
object. An all-compiled table gives exactly the game of the batch runner for the same (seed,
game id, setup id); the kernels decide, this loop only asks the seats.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError, shown
from tajsim.games.registry import get_game
from tajsim.strategies.python_policy import load_policy_file

__all__ = ["play_game", "play_mixed_game", "play_python_games", "register_seat_resolver",
           "replay_record", "resolve_seat"]

#: Seat prefixes served by plug-ins of upper layers (``prefix:rest``), imported by name when a
#: seat first names them so that this layer never imports them itself.
SEAT_PLUGINS: dict[str, str] = {"openspiel": "tajsim.interop.openspiel"}
_SEAT_RESOLVERS: dict[str, Callable[[GameSpec, str], Any]] = {}


def register_seat_resolver(prefix: str, resolver: Callable[[GameSpec, str], Any]) -> None:
    """Serve seats ``prefix:rest`` with ``resolver(spec, rest)``, which returns a policy
    object: ``choose(view, options)`` like a Python policy, or ``choose_in_game(game, player,
    options)`` for a seat that searches on the game itself (it must read only what ``player``
    may see; OpenSpiel's bots reach hidden facts only through ``redraw_hidden``)."""
    _SEAT_RESOLVERS[prefix] = resolver


def resolve_seat(spec: GameSpec, seat: Any) -> tuple[str, Any]:
    """``("py", policy)`` for ``py:path`` or a policy object, ``("nb", (strategy, params))``
    for a registered compiled strategy of ``spec`` (with ``:key=value`` overrides)."""
    if isinstance(seat, str):
        prefix, sep, rest = seat.partition(":")
        if sep and prefix in SEAT_PLUGINS and prefix not in _SEAT_RESOLVERS:
            importlib.import_module(SEAT_PLUGINS[prefix])  # registers its resolver
        if seat.startswith("py:"):
            policy = load_policy_file(seat[3:])
        elif sep and prefix in _SEAT_RESOLVERS:
            policy = _SEAT_RESOLVERS[prefix](spec, rest)
        else:
            return "nb", spec.strategies.parse(seat)
    elif hasattr(seat, "choose"):
        policy = seat
    else:
        raise UserError(f"not a strategy: {seat!r}; expected a strategy name, py:FILE or a "
                        "policy object")
    game = getattr(policy, "game", "")
    if game and game != spec.name:
        raise UserError(f"strategy {getattr(policy, 'name', policy)!r} plays {game!r}, not "
                        f"{spec.name!r}")
    return "py", policy


def _seat_label(kind: str, obj: Any) -> str:
    if kind == "py":
        return getattr(obj, "label", f"py:{obj.name}")
    return obj[0].name


def play_mixed_game(spec: GameSpec, seats: Sequence[Any], edition: str | None = None,
                    seed: int = 0, game_id: int = 0, setup_id: int | None = None,
                    components: Any = None, _resolved: list | None = None,
                    on_action: Callable[[BaseGame, int, int], None] | None = None,
                    options: Mapping[str, bool] | None = None,
                    timing: np.ndarray | None = None) -> BaseGame:
    """Play one game of ``spec`` where each seat is a compiled strategy name, ``py:path``, a
    plug-in seat (``openspiel:BOT``, see :func:`register_seat_resolver`) or a policy object;
    returns the finished game (``spec.game_class``).

    ``on_action`` (optional) is called as ``on_action(game, player, action)`` before each
    action is applied. A decision with a single legal action does not ask the seat.
    ``options`` switches the game's rule options (``GameSpec.options``) by name.
    ``timing`` (optional, float64[2, n_seats]) accumulates per seat the seconds spent choosing
    (row 0) and the decisions asked (row 1).
    """
    resolved = _resolved if _resolved is not None else [resolve_seat(spec, s) for s in seats]
    game = spec.game_class(len(resolved), edition, seed, game_id, setup_id, components,
                           options)
    game.strategies = [_seat_label(k, o) for k, o in resolved]
    for p, (kind, obj) in enumerate(resolved):
        if kind == "py":
            obj.reset(game.n_players, p)
    k = spec.kernels
    legal = np.empty(spec.n_actions, np.int64)
    compiled = [o for kind, o in resolved if kind == "nb"]
    switches = spec.strategies.kernel_switches([strategy.strategy_id for strategy, _ in compiled],
                                               [params for _, params in compiled])
    state, comp, prng = game.state, game.comp, game.prng
    while (p := spec.current_player(state)) >= 0:
        n = k.legal_actions(state, comp, legal)
        if n == 1:
            action = int(legal[0])
        else:
            kind, obj = resolved[p]
            t0 = time.perf_counter() if timing is not None else 0.0
            if kind == "nb":
                strategy, params = obj
                action = int(k.choose_action(strategy.strategy_id, state, comp, p, params, prng,
                                             legal, n, *switches))
            else:
                choices = [int(a) for a in legal[:n]]
                if hasattr(obj, "choose_in_game"):
                    action = obj.choose_in_game(game, p, choices)
                else:
                    action = obj.choose(spec.view(state, comp, p, game.components), choices)
                if action not in choices:
                    raise UserError(
                        f"python strategy {obj.name!r} returned {action!r}, not one of the "
                        f"{n} legal actions"
                    )
                action = int(action)
            if timing is not None:
                timing[0, p] += time.perf_counter() - t0
                timing[1, p] += 1
        if on_action is not None:
            on_action(game, p, action)
        k.apply_action(state, comp, action)
        game.actions.append(action)
    return game


def play_game(strategies: Sequence[Any], edition: str | None = None, seed: int = 0,
              game_id: int = 0, setup_id: int | None = None, components: Any = None,
              on_action: Callable[[BaseGame, int, int], None] | None = None,
              game: str | GameSpec | None = None,
              options: Mapping[str, bool] | None = None) -> BaseGame:
    """Play a whole game of ``game`` (default Taj Mahal), one strategy per seat: a registered
    name (with optional ``:key=value`` parameters), ``py:path/to/file.py`` or a policy object.

    Gives the same game as the batch runner for the same (seed, game_id, setup_id).
    ``strategies`` may also be one comma-separated text (``"balanced,random,random"``), as
    ``simulate`` takes it.
    """
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",")]
    if not isinstance(strategies, Sequence):
        raise UserError(f"strategies {strategies!r} is not a list of seats; expected one "
                        "strategy per seat: a name, py:FILE or a policy object")
    spec = get_game(game)
    played = play_mixed_game(spec, list(strategies), edition, seed, game_id, setup_id,
                             components, on_action=on_action, options=options)
    played.strategies = [s if isinstance(s, str) else f"py:{s.name}" for s in strategies]
    return played


def replay_record(record: GameRecord | str, upto: int | None = None) -> BaseGame:
    """The game of ``record`` (any registered game) with its first ``upto`` actions applied.

    ``record`` is a :class:`GameRecord` (``GameRecord.load(path)`` reads a saved one,
    ``GameRecord.from_json(text)`` parses one) or the JSON text of one (what
    ``game.record().to_json()`` gives); anything else is a one-line ``UserError``."""
    bad = shown(record)
    if isinstance(record, (str, bytes)):
        text = record.decode(errors="replace") if isinstance(record, bytes) else record
        try:
            record = GameRecord.from_json(text)
        except UserError as exc:
            reason = str(exc).removeprefix("not a tajsim game record: ")
            raise UserError(f"replay_record({bad}): not a game record ({reason}); expected a "
                            "GameRecord or the JSON text of one (GameRecord.from_json(text) "
                            "parses it, GameRecord.load(path) reads a saved one)") from None
    if not isinstance(record, GameRecord):
        raise UserError(f"replay_record({bad}): not a game record; expected a GameRecord "
                        "(GameRecord.from_json(text) parses the JSON text of one, "
                        "GameRecord.load(path) reads a saved one)")
    if upto is not None and (not isinstance(upto, (int, np.integer)) or isinstance(upto, bool)
                             or upto < 0):
        raise UserError(f"upto {upto!r} is not allowed; expected None (every action) or a "
                        "whole number >= 0")
    return get_game(record.game).game_class.replay(record, upto)


def play_python_games(spec: GameSpec, seats: Sequence[Any], n_games: int, seed: int = 0,
                      edition: str | None = None, first_game: int = 0, rotate: bool = True,
                      components: Any = None, options: Mapping[str, bool] | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``n_games`` mixed games (seat list rotated by the game index when ``rotate``) and
    return ``(results, setups, lineups)``: the game's result / setup records as the batch
    runner writes them (``strategy_id`` is the compiled id, -1 for Python seats) and
    int64[n_games, n] lineups (index into ``seats`` of each seat)."""
    resolved = [resolve_seat(spec, s) for s in seats]
    n = len(resolved)
    results = np.zeros(n_games * n, spec.result_dtype)
    setups = np.zeros(n_games, spec.setup_dtype)
    lineups = np.zeros((n_games, n), np.int64)
    for i in range(n_games):
        g = first_game + i
        order = [(s + (g if rotate else 0)) % n for s in range(n)]
        lineups[i] = order
        game = play_mixed_game(spec, [None] * n, edition, seed, g, None, components,
                               _resolved=[resolved[j] for j in order], options=options)
        seat_ids = np.array(
            [resolved[j][1][0].strategy_id if resolved[j][0] == "nb" else -1 for j in order],
            np.int64,
        )
        spec.kernels.write_records(game.state, game.comp, g, g, seat_ids, results, i * n,
                                   setups, i)
    return results, setups, lineups
