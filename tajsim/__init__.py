"""tajsim: Monte Carlo strategy analysis for India-themed board games (Taj Mahal, and more
games registered in :mod:`tajsim.games.registry`).

The public entry points are loaded on first use so that ``import tajsim`` (and so the command
line's start) stays cheap: numba, pandas and pyarrow load, and the kernels compile or load from
numba's cache, only when a game is played. Before any kernel module is imported, numba is told
to cache each game's kernels in a folder keyed by that game's source fingerprint
(:mod:`tajsim.games.fingerprint`).
"""

from __future__ import annotations

import importlib
from typing import Any

from tajsim.games.fingerprint import use_game_keyed_numba_cache

use_game_keyed_numba_cache()

__version__ = "0.2.0"

#: Public name -> (module, attribute), loaded on first access.
_PUBLIC = {
    "Game": ("tajsim.play.games", "Game"),
    "game": ("tajsim.play.games", "game"),
    "GameRecord": ("tajsim.engine.base_game", "GameRecord"),
    "play_game": ("tajsim.play.mixed", "play_game"),
    "replay_record": ("tajsim.play.mixed", "replay_record"),
    "simulate": ("tajsim.running.simulate", "simulate"),
    "load_results": ("tajsim.running.run_reading", "load_results"),
    "get_game": ("tajsim.games.registry", "get_game"),
    "default_components": ("tajsim.games.tajmahal.engine.component_files", "default_components"),
}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        module, attribute = _PUBLIC[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'tajsim' has no attribute {name!r}")
