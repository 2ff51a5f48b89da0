"""Maharani's restriction families (restricted play, ``balanced:forbid=second_tiles``).

Each family is something a player chooses (``docs/games/maharani/rules.md``);
``RESTRICTIONS`` declares them (the spec and the registry carry the same tuple) and
:func:`restrict_legal` removes a mask of them from a legal list before a strategy chooses:

* ``second_tiles``: no second tile (R6d, R9): after the first tile the seat always stops;
* ``refresh``: no refreshing the action markers (R9b) while a tile can be laid;
* ``markers``: no action marker spent (R6): every tile goes into the quarter its turntable
  place faces (under ``target_marker`` the same tiles: a tile laid in another quarter);
* ``artisans``: no tile laid with its arrow at the player (R8), so no artisan placed or moved
  by the seat: no group gold and no share of a quarter's scoring.

A restriction never leaves a seat without an action: when every legal action of a decision
belongs to a forbidden family, the restriction is lifted for that decision (the whole list is
kept). ``second_tiles`` is never lifted (``stop`` is always legal then); ``refresh`` is lifted
when refreshing is the only action (no tile can be laid: the rules force it), ``markers`` and
``artisans`` when every tile the seat can lay needs a marker (or points at it) and refreshing
is not legal. How often each is lifted is counted in ``docs/games/maharani/strategies.md``.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.game_options import Restriction
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    ACTION_REFRESH,
    C_SPACE_QUARTER,
    N_PLACE_ACTIONS,
    PHASE_FIRST,
    PHASE_SECOND,
    S_CUR,
    S_FACING,
    S_N_PLAYERS,
    S_PHASE,
)
from tajsim.games.maharani.engine.nb import decode_place, seat_side, slot_quarter

__all__ = ["RESTRICTIONS", "forbidden", "lifted", "restrict_legal"]

F_SECOND_TILES = 0
F_REFRESH = 1
F_MARKERS = 2
F_ARTISANS = 3
RESTRICTIONS = (
    Restriction("second_tiles", F_SECOND_TILES,
                "no second tile: the seat stops after its first tile (never lifted)"),
    Restriction("refresh", F_REFRESH,
                "no refreshing the action markers while a tile can be laid"),
    Restriction("markers", F_MARKERS,
                "no action marker spent: every tile goes into the quarter its turntable place "
                "faces"),
    Restriction("artisans", F_ARTISANS,
                "no tile laid with its arrow at the player: no artisan placed or moved, so no "
                "group gold and no quarter scoring"),
)


@kernel
def forbidden(state, comp, action, mask):
    """Whether ``action`` of the seat to move belongs to a family of ``mask`` (int64, bit
    ``F_*`` per family)."""
    state = borrowed(state)
    comp = borrowed(comp)
    phase = state[S_PHASE]
    if action < N_PLACE_ACTIONS:
        if phase == PHASE_SECOND and (mask >> F_SECOND_TILES) & 1:
            return True
        slot, s, arrow = decode_place(action)
        if (mask >> F_MARKERS) & 1:
            if comp[C_SPACE_QUARTER + s] != slot_quarter(comp, state[S_FACING], slot):
                return True
        if (mask >> F_ARTISANS) & 1:
            if arrow == seat_side(comp, state[S_N_PLAYERS], state[S_CUR]):
                return True
        return False
    if action == ACTION_REFRESH and phase == PHASE_FIRST and (mask >> F_REFRESH) & 1:
        return True
    return False


@kernel
def restrict_legal(state, comp, legal, n_legal, mask):
    """Move the actions no family of ``mask`` forbids to the front of ``legal[:n_legal]`` (in
    their order) and return how many there are; when there are none, the list is left as it
    was (the restriction is lifted for this decision) and ``n_legal`` returned.

    One pass: an allowed action swaps with the first slot not yet kept, so nothing moves until
    an allowed action is found. ``legal``: int64[>= n_legal], the caller's buffer (refilled
    before each decision; past the returned count it holds the forbidden actions).
    """
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    if mask == 0:
        return n_legal
    kept = 0
    for i in range(n_legal):
        action = legal[i]
        if not forbidden(state, comp, action, mask):
            legal[i] = legal[kept]
            legal[kept] = action
            kept += 1
    return kept if kept > 0 else n_legal


@njit(cache=True)
def lifted(state, comp, legal, n_legal, mask):
    """Whether the restriction ``mask`` is lifted at this decision: every legal action is
    forbidden (a single forced action included, which the play loop takes without asking the
    strategy). What the tests and the docs' count of lifts read."""
    if mask == 0 or not n_legal > 0:
        return False
    for i in range(n_legal):
        if not forbidden(state, comp, legal[i], mask):
            return False
    return True
