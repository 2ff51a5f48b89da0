"""The OpenSpiel face of a tajsim game: its ``pyspiel`` name, game type and parameters, and
``load_game`` by tajsim name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.interop import require

pyspiel = require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")

if TYPE_CHECKING:
    from tajsim.interop.openspiel.game import TajsimGame


#: The largest value of an integer parameter: OpenSpiel's ``GameParameter`` holds a C++ int.
MAX_INT_PARAM = 2**31 - 1

#: How many deals (game ids) the chance node at the start chooses from, by default.
DEFAULT_DEALS = 4096


def openspiel_name(spec: GameSpec) -> str:
    """The name a tajsim game is registered under in ``pyspiel``: ``tajsim_<name>``."""
    return f"tajsim_{spec.name}"


def max_game_length(spec: GameSpec) -> int:
    """OpenSpiel's ``max_game_length``: the game's own bound on its actions
    (``GameSpec.max_game_length``) plus the deal."""
    return int(spec.max_game_length) + 1


def edition_param(spec: GameSpec, edition: str) -> int | str:
    """An edition as OpenSpiel's parameter: a number when every edition name is one (Taj
    Mahal's 2018 and 2000: OpenSpiel reads ``edition=2018`` in a game string as an integer)."""
    return int(edition) if all(e.isdigit() for e in spec.editions) else edition


def game_type(spec: GameSpec) -> Any:
    low = min(lo for lo, _ in spec.players.values())
    high = max(hi for _, hi in spec.players.values())
    params: dict[str, Any] = {"players": spec.default_player_count(),
                              "edition": edition_param(spec, spec.default_edition),
                              "seed": 0, "master_seed": "", "deals": DEFAULT_DEALS}
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
    """``pyspiel.load_game`` of a tajsim game by its tajsim name (or spec); ``seed`` any of
    0 .. 2**63 - 1 (from 2**31 up it travels as the ``master_seed`` text parameter)."""
    spec = get_game(game)
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) \
            or not 0 <= int(seed) <= 2**63 - 1:
        raise UserError(f"seed {seed!r} is out of range; expected 0 to 2**63 - 1")
    params: dict[str, Any] = ({"seed": int(seed)} if seed <= MAX_INT_PARAM
                              else {"master_seed": hex(int(seed))})
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
