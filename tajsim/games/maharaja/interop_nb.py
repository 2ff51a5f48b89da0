"""The observation of one seat encoded straight from the state vector in one compiled call: the
same ``int64`` array as ``tajsim.interop.encoding`` makes from :func:`strategies.view.view`
(a test checks them equal), without building the Python view (the batched environment's and
``SeatEnv``'s per-step cost).

``FIELDS`` names the view's encoded fields in layout order; ``encode_observation`` writes field
``FIELDS[i]`` at ``out[offsets[i]:]`` (the offsets of ``tajsim.interop.encoding.layout``).
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine import enums as E

FIELDS = ("player", "n_players", "round", "phase", "maharaja", "governor_boxes", "cards", "gold",
          "palaces", "pool", "quarry", "architects", "houses", "sites", "picks", "turn")

#: The value of an empty slot (``tajsim.interop.encoding.PAD``).
PAD = -1

#: The state slots of the view's ``turn`` dict, in its order (shown during a turn only).
TURN_SLOTS = np.array([E.S_TURN_PLAYER, E.S_T_SLOT0, E.S_T_SLOT1, E.S_T_PAL_ALLOWED,
                       E.S_T_PAL_BUILT, E.S_T_HOUSES_ALLOWED, E.S_T_MIN_CITY, E.S_T_CITY_BUILT,
                       E.S_T_VILLAGE_BUILT, E.S_T_MOVES_ALLOWED, E.S_T_MOVES_DONE,
                       E.S_T_GOV_ALLOWED, E.S_T_GOV_DONE, E.S_T_CHAR_ALLOWED, E.S_T_CHAR_DONE,
                       E.S_T_QUARRY_SHORT, E.S_T_BUILDER_USED, E.S_T_TRADER_PAID,
                       E.S_T_TRAVELS, E.S_MOVE_FROM], np.int64)


@kernel
def encode_observation(state, comp, player, offsets, out):
    """Seat ``player``'s observation of ``state`` (int64[state_size]) into ``out``
    (int64[layout size]); ``offsets`` int64[len(FIELDS)]."""
    for i in range(out.shape[0]):
        out[i] = PAD
    n = state[E.S_N_PLAYERS]
    phase = state[E.S_PHASE]
    out[offsets[0]] = player
    out[offsets[1]] = n
    out[offsets[2]] = state[E.S_ROUND]
    out[offsets[3]] = phase  # the index in PHASE_NAMES
    out[offsets[4]] = state[E.S_MAHARAJA]
    for k in range(E.TRACK_SIZE - 1):
        out[offsets[5] + k] = state[E.S_BOX + 1 + k]
    for q in range(n):
        out[offsets[6] + q] = state[E.S_CARD_OF + q]
        out[offsets[7] + q] = state[E.S_GOLD + q]
        out[offsets[8] + q] = state[E.S_PALACES + q]
        out[offsets[9] + q] = state[E.S_POOL + q]
        out[offsets[10] + q] = state[E.S_QUARRY + q]
        out[offsets[11] + q] = state[E.S_ARCH + q]
    for loc in range(E.N_LOCS):
        for q in range(n):
            out[offsets[12] + loc * E.MAX_PLAYERS + q] = state[E.S_HOUSES + loc * E.MAX_PLAYERS
                                                               + q]
    for c in range(E.N_CITIES):
        for k in range(E.N_SITES):
            out[offsets[13] + c * E.N_SITES + k] = state[E.S_SITE + c * E.N_SITES + k]
    for q in range(n):  # own pick; the others' once revealed
        pick = state[E.S_PICK + q]
        if pick >= 0 and (q == player or state[E.S_REVEALED + q] != 0):
            out[offsets[14] + q] = pick
    if phase == E.PHASE_TURN or phase == E.PHASE_MOVE_TO or phase == E.PHASE_REPLACE:
        for k in range(TURN_SLOTS.shape[0]):
            out[offsets[15] + k] = state[TURN_SLOTS[k]]
