"""Whether a hidden-information redraw moved a hidden fact: each game's spec names the words of
its state that hold its chance stream (``GameSpec.chance_words``, its splitmix64 state and
seeds). ``redraw_hidden`` rewrites them at every call, so a test that asks "did the redraw
change something the seat cannot see?" must look past them: a redraw that changed only these
words moved no hidden card, pick or bag order (Maharaja's ``S_RNG`` is not even read after
setup)."""

from __future__ import annotations

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.conformance import hidden_changed as differs_past_chance


def hidden_changed(game: str, state: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``other`` differs from ``state`` in a word other than the chance stream's."""
    return differs_past_chance(np.asarray(state), np.asarray(other),
                               get_game(game).chance_words)
