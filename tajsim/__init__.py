"""tajsim: Monte Carlo strategy analysis for Reiner Knizia's Taj Mahal.

The public entry points are imported lazily so that ``import tajsim`` stays cheap (the numba
kernels compile, or load from cache, on first use).
"""

from __future__ import annotations

from typing import Any

from tajsim.engine.fingerprint import use_source_keyed_numba_cache

use_source_keyed_numba_cache()

__version__ = "0.1.0"
__all__ = ["Game", "GameRecord", "play_game", "simulate", "default_components"]


def __getattr__(name: str) -> Any:
    if name in ("Game", "GameRecord", "play_game"):
        from tajsim.games.tajmahal.engine import game

        return getattr(game, name)
    if name == "simulate":
        from tajsim.running.simulate import simulate

        return simulate
    if name == "default_components":
        from tajsim.games.tajmahal.engine.component_files import default_components

        return default_components
    raise AttributeError(f"module 'tajsim' has no attribute {name!r}")
