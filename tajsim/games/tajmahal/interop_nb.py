"""The observation of one seat encoded straight from the state vector in one compiled call: the
same ``int64`` array as ``tajsim.interop.encoding`` makes from :func:`strategies.view.view`
(a test checks them equal), without building the Python view (the batched environment's and
``SeatEnv``'s per-step cost).

``FIELDS`` names the view's encoded fields in layout order; ``encode_observation`` writes field
``FIELDS[i]`` at ``out[offsets[i]:]`` (the offsets of ``tajsim.interop.encoding.layout``).
"""

from __future__ import annotations

from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.nb import score_of

FIELDS = ("player", "n_players", "edition", "visit", "province", "phase", "pending",
          "first_player", "hand", "hand_sizes", "known_cards", "rows", "row_symbols",
          "row_colours", "withdrawn", "display", "unrest", "discard", "deck_size", "court",
          "token_supply", "tokens", "goods", "scores", "score_parts", "palaces", "bonus_at",
          "crown_city", "province_tile", "tile_owner", "prestige_holder", "card_colour_table",
          "card_symbol_table")

#: The value of an empty slot (``tajsim.interop.encoding.PAD``).
PAD = -1


@kernel
def _cards_at(state, where, out, at):
    """The cards at location ``where``, ascending, into ``out[at:]``."""
    k = 0
    for c in range(E.N_CARDS):
        if state[E.S_CARD_LOC + c] == where:
            out[at + k] = c
            k += 1


@kernel
def _copy(state, src, count, out, at):
    """``state[src:src + count]`` into ``out[at:]``."""
    for k in range(count):
        out[at + k] = state[src + k]


@kernel
def encode_observation(state, comp, player, offsets, out):
    """Seat ``player``'s observation of ``state`` (int64[state_size]) into ``out``
    (int64[layout size]); ``offsets`` int64[len(FIELDS)]."""
    for i in range(out.shape[0]):
        out[i] = PAD
    n = state[E.S_N_PLAYERS]
    cities = comp[E.C_N_CITIES]
    out[offsets[0]] = player
    out[offsets[1]] = n
    out[offsets[2]] = state[E.S_EDITION]  # the index in EDITION_NAMES
    out[offsets[3]] = state[E.S_VISIT]
    out[offsets[4]] = state[E.S_PROVINCE]
    out[offsets[5]] = state[E.S_PHASE]  # the index in PHASE_NAMES
    out[offsets[6]] = state[E.S_PENDING]
    out[offsets[7]] = state[E.S_FIRST]
    _cards_at(state, E.LOC_HAND + player, out, offsets[8])
    _copy(state, E.S_HAND_N, n, out, offsets[9])
    for q in range(n):
        # the public cards of each hand (taken from the display), ascending
        k = 0
        for c in range(E.N_CARDS):
            if state[E.S_CARD_LOC + c] == E.LOC_HAND + q and state[E.S_CARD_PUBLIC + c] == 1:
                out[offsets[10] + q * E.N_CARDS + k] = c
                k += 1
        _cards_at(state, E.LOC_ROW + q, out, offsets[11] + q * E.N_CARDS)
        _copy(state, E.S_ROW_SYM + q * E.N_SYMBOLS, E.N_SYMBOLS, out,
              offsets[12] + q * E.N_SYMBOLS)
        out[offsets[13] + q] = state[E.S_ROW_COLOUR + q]
        out[offsets[14] + q] = 1 if state[E.S_WITHDRAWN + q] != 0 else 0
    _cards_at(state, E.LOC_DISPLAY, out, offsets[15])
    _cards_at(state, E.LOC_UNREST, out, offsets[16])
    _cards_at(state, E.LOC_DISCARD, out, offsets[17])
    out[offsets[18]] = state[E.S_DECK_LEN] - state[E.S_DECK_TOP]
    _copy(state, E.S_SEAT, E.N_SYMBOLS, out, offsets[19])
    _copy(state, E.S_TOKEN_SUPPLY, E.N_ADVISORS, out, offsets[20])
    for q in range(n):
        _copy(state, E.S_TOKENS + q * E.N_ADVISORS, E.N_ADVISORS, out,
              offsets[21] + q * E.N_ADVISORS)
        _copy(state, E.S_GOODS + q * E.N_GOODS, E.N_GOODS, out, offsets[22] + q * E.N_GOODS)
        # score_of by name, not nb.score_of: a device function (targets.device_function)
        # rebinds the kernels its globals name, so the observation encodes on the GPU (net)
        out[offsets[23] + q] = score_of(state, q)
        _copy(state, E.S_SCORE + q * E.N_PARTS, E.N_PARTS, out, offsets[24] + q * E.N_PARTS)
    for c in range(cities):
        _copy(state, E.S_PALACES + c * E.MAX_PLAYERS, n, out, offsets[25] + c * E.MAX_PLAYERS)
    _copy(state, E.S_BONUS_AT, cities, out, offsets[26])
    out[offsets[27]] = state[E.S_CROWN_CITY]
    _copy(state, E.S_PROVINCE_TILE, E.N_PROVINCES, out, offsets[28])
    _copy(state, E.S_TILE_OWNER, E.N_PROVINCES, out, offsets[29])
    for i in range(E.N_CARDS - E.FIRST_PRESTIGE):  # the seat holding each prestige card
        where = state[E.S_CARD_LOC + E.FIRST_PRESTIGE + i]
        if E.LOC_HAND <= where < E.LOC_HAND + E.MAX_PLAYERS:
            out[offsets[30] + i] = where - E.LOC_HAND
        elif E.LOC_ROW <= where < E.LOC_ROW + E.MAX_PLAYERS:
            out[offsets[30] + i] = where - E.LOC_ROW
    for c in range(E.N_CARDS):
        out[offsets[31] + c] = comp[E.C_CARD_COLOUR + c]
        for s in range(E.N_SYMBOLS):
            out[offsets[32] + c * E.N_SYMBOLS + s] = comp[E.C_CARD_SYM + c * E.N_SYMBOLS + s]
