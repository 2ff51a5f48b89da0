"""The observation of one seat encoded straight from the state vector in one compiled call: the
same ``int64`` array as ``tajsim.interop.encoding`` makes from :func:`strategies.view.view`
(a test checks them equal), without building the Python view (the batched environment's and
``SeatEnv``'s per-step cost).

``FIELDS`` names the view's encoded fields in layout order; ``encode_observation`` writes field
``FIELDS[i]`` at ``out[offsets[i]:]`` (the offsets of ``tajsim.interop.encoding.layout``).
"""

from __future__ import annotations

from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine import enums as E

FIELDS = ("player", "n_players", "rules", "turn", "phase", "current", "facing",
          "tiles_this_turn", "last_space", "artisan_options", "turntable", "board", "bag",
          "out_of_play", "markers", "reserves", "gold_parts", "scored", "pending")

#: The value of an empty slot (``tajsim.interop.encoding.PAD``).
PAD = -1


@kernel
def encode_observation(state, comp, player, offsets, out):
    """Seat ``player``'s observation of ``state`` (int64[state_size]) into ``out``
    (int64[layout size]); ``offsets`` int64[len(FIELDS)]."""
    for i in range(out.shape[0]):
        out[i] = PAD
    n = state[E.S_N_PLAYERS]
    n_spaces = comp[E.C_N_SPACES]
    n_tiles = comp[E.C_N_TILES]
    out[offsets[0]] = player
    out[offsets[1]] = n
    out[offsets[2]] = state[E.S_RULES]
    out[offsets[3]] = state[E.S_TURN]
    out[offsets[4]] = state[E.S_PHASE]
    out[offsets[5]] = state[E.S_CUR]
    out[offsets[6]] = state[E.S_FACING]
    out[offsets[7]] = state[E.S_TILES_THIS_TURN]
    out[offsets[8]] = state[E.S_LAST_SPACE]
    out[offsets[9]] = state[E.S_ARTISAN_OPTS]
    for k in range(E.N_SLOTS):
        out[offsets[10] + k] = state[E.S_SLOT + k]
    for s in range(n_spaces):
        out[offsets[11] + 3 * s] = state[E.S_SPACE_TILE + s]
        out[offsets[11] + 3 * s + 1] = state[E.S_SPACE_ARROW + s]
        out[offsets[11] + 3 * s + 2] = state[E.S_SPACE_ARTISAN + s]
    in_bag = 0
    removed = 0
    for t in range(n_tiles):  # ascending tile ids, as the view lists them
        where = state[E.S_TILE_LOC + t]
        if where == E.LOC_BAG:
            out[offsets[12] + in_bag] = t
            in_bag += 1
        elif where == E.LOC_REMOVED:
            out[offsets[13] + removed] = t
            removed += 1
    for p in range(n):
        for k in range(4):
            out[offsets[14] + 4 * p + k] = state[E.S_MARKER + 4 * p + k]
    for k in range(E.N_ARTISAN_COLOURS):
        out[offsets[15] + k] = state[E.S_RESERVE + k]
    for p in range(n):
        for k in range(E.N_PARTS):
            out[offsets[16] + E.N_PARTS * p + k] = state[E.S_SCORE + E.N_PARTS * p + k]
    out[offsets[17]] = state[E.S_SCORED]
    out[offsets[18]] = state[E.S_PENDING]
