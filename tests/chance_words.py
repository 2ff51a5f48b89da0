"""The words of each game's state that hold its chance stream (its splitmix64 state and
seeds). ``redraw_hidden`` rewrites them at every call, so a test that asks "did the redraw
change something the seat cannot see?" must look past them: a redraw that changed only these
words moved no hidden card, pick or bag order (Maharaja's ``S_RNG`` is not even read after
setup)."""

from __future__ import annotations

import numpy as np

from tajsim.games.maharaja.engine import enums as MJ
from tajsim.games.maharani.engine import enums as MR
from tajsim.games.nothanks.engine import enums as NT
from tajsim.games.tajmahal.engine import enums as TM

CHANCE_WORDS: dict[str, tuple[int, ...]] = {
    "tajmahal": (TM.S_RNG, TM.S_SETUP_SEED, TM.S_PLAY_SEED),
    "maharaja": (MJ.S_RNG, MJ.S_SETUP_SEED, MJ.S_PLAY_SEED),
    "maharani": (MR.S_RNG, MR.S_SETUP_SEED, MR.S_PLAY_SEED),
    "nothanks": (NT.S_RNG,),
}


def hidden_changed(game: str, state: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``other`` differs from ``state`` in a word other than the chance stream's."""
    keep = np.ones(len(state), bool)
    keep[list(CHANCE_WORDS[game])] = False
    return not np.array_equal(np.asarray(state)[keep], np.asarray(other)[keep])
