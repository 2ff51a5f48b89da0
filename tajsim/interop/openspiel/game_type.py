"""The OpenSpiel face of a tajsim game: its ``pyspiel`` name, game type and parameters, and
``load_game`` by tajsim name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.interop import require

pyspiel = require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")

if TYPE_CHECKING:
    from tajsim.interop.openspiel.game import TajsimGame


#: Upper bound on a game's actions that OpenSpiel's ``max_game_length`` reports: random 5-player
#: games take about 300-400 actions; the bound is loose, never hit.
MAX_GAME_LENGTH = 4096

#: How many deals (game ids) the chance node at the start chooses from, by default.
DEFAULT_DEALS = 4096


def openspiel_name(spec: GameSpec) -> str:
    """The name a tajsim game is registered under in ``pyspiel``: ``tajsim_<name>``."""
    return f"tajsim_{spec.name}"


def default_players(spec: GameSpec) -> int:
    low, high = spec.players[spec.default_edition]
    return 2 if low <= 2 <= high else low


def edition_param(spec: GameSpec, edition: str) -> int | str:
    """An edition as OpenSpiel's parameter: a number when every edition name is one (Taj
    Mahal's 2018 and 2000: OpenSpiel reads ``edition=2018`` in a game string as an integer)."""
    return int(edition) if all(e.isdigit() for e in spec.editions) else edition


def game_type(spec: GameSpec) -> Any:
    low = min(lo for lo, _ in spec.players.values())
    high = max(hi for _, hi in spec.players.values())
    params: dict[str, Any] = {"players": default_players(spec),
                              "edition": edition_param(spec, spec.default_edition),
                              "seed": 0, "deals": DEFAULT_DEALS}
    params.update({o.name: bool(o.default) for o in spec.options})
    return pyspiel.GameType(
        short_name=openspiel_name(spec),
        long_name=f"{spec.title} (tajsim)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def load_game(game: str | GameSpec, players: int | None = None, edition: str | None = None,
              seed: int = 0, options: Mapping[str, bool] | None = None) -> TajsimGame:
    """``pyspiel.load_game`` of a tajsim game by its tajsim name (or spec)."""
    spec = get_game(game)
    params: dict[str, Any] = {"seed": int(seed)}
    if players is not None:
        params["players"] = int(players)
    if edition is not None:
        params["edition"] = edition_param(spec, spec.editions[spec.edition_index(edition)])
    params.update({k: bool(v) for k, v in (options or {}).items()})
    unknown = sorted(set(options or {}) - {o.name for o in spec.options})
    if unknown:
        raise UserError(f"unknown rule option {unknown[0]!r} of {spec.title}; expected one of: "
                        f"{', '.join(o.name for o in spec.options) or '(none)'}")
    return pyspiel.load_game(openspiel_name(spec), params)
