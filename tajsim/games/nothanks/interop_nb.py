"""The observation of one seat encoded straight from the state vector in one compiled call: the
same ``int64`` array as ``tajsim.interop.encoding`` makes from :func:`strategies.view.view`
(a test checks them equal), without building the Python view (the batched environment's and
``SeatEnv``'s per-step cost).

``FIELDS`` names the view's encoded fields in layout order; ``encode_observation`` writes field
``FIELDS[i]`` at ``out[offsets[i]:]`` (the offsets of ``tajsim.interop.encoding.layout``).
"""

from __future__ import annotations

from tajsim.engine.targets import kernel
from tajsim.games.nothanks.engine import enums as E

FIELDS = ("player", "n_players", "phase", "card", "pot", "to_come", "chips", "holder")

#: The value of an empty slot (``tajsim.interop.encoding.PAD``).
PAD = -1


@kernel
def encode_observation(state, comp, player, offsets, out):
    """Seat ``player``'s observation of ``state`` (int64[state_size]) into ``out``
    (int64[layout size]); ``offsets`` int64[len(FIELDS)]."""
    for i in range(out.shape[0]):
        out[i] = PAD
    n = state[E.S_N_PLAYERS]
    turned = state[E.S_TURNED]
    out[offsets[0]] = player
    out[offsets[1]] = n
    out[offsets[2]] = state[E.S_PHASE]  # the index in PHASE_NAMES
    out[offsets[3]] = -1 if turned >= E.N_PLAYED else state[E.S_DECK + turned]
    out[offsets[4]] = state[E.S_POT]
    out[offsets[5]] = max(0, E.N_PLAYED - turned - 1)
    for q in range(n):
        out[offsets[6] + q] = state[E.S_CHIPS + q]
    for k in range(E.N_CARDS):
        out[offsets[7] + k] = state[E.S_OWNER + k]
