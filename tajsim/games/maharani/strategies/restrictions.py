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

Surgical families (issue 39: one option or one decision kind each; ``Restriction.surgical``):
``second_tiles``, ``refresh`` and ``markers`` above, and

* ``complete_quarter``: quarter scoring without touching artisans: no tile laid on the last
  empty space of a quarter (R10), so the seat never triggers a quarter's scoring (it still
  places artisans and is scored when another seat completes the quarter);
* ``central_tiles``: no tile laid on a space with a central column (R6b, R11);
* ``artisan_moves``: no artisan moved (R8): no tile laid with its arrow at the player where
  the only artisan option is a move (its artisan of that colour already stands on a tile of
  the colour in the quarter), and with two players no move chosen at the artisan step (R8b).

A restriction never leaves a seat without an action: when every legal action of a decision
belongs to a forbidden family, the restriction is lifted for that decision (the whole list is
kept). ``second_tiles`` is never lifted (``stop`` is always legal then); ``refresh`` is lifted
when refreshing is the only action (no tile can be laid: the rules force it), ``markers`` and
``artisans`` when every tile the seat can lay needs a marker (or points at it) and refreshing
is not legal; ``complete_quarter``, ``central_tiles`` and ``artisan_moves`` likewise when every
tile the seat can lay is forbidden and neither refreshing nor stopping is legal. How often each
is lifted is counted in ``docs/games/maharani/strategies.md``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.game_options import Restriction
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    ACTION_ARTISAN,
    ACTION_REFRESH,
    ART_MOVE_A,
    ART_MOVE_B,
    ART_NEW_A,
    ART_NEW_B,
    C_CENTRAL_MASK,
    C_QUARTER_MASK,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    N_PLACE_ACTIONS,
    PHASE_FIRST,
    PHASE_SECOND,
    S_CUR,
    S_FACING,
    S_FILLED,
    S_N_PLAYERS,
    S_PHASE,
    S_SLOT,
)
from tajsim.games.maharani.engine.nb import (
    artisan_options_for,
    decode_place,
    seat_side,
    slot_quarter,
)

__all__ = ["RESTRICTIONS", "count_allowed", "forbidden", "is_forbidden", "lifted",
           "restrict_legal"]

F_SECOND_TILES = 0
F_REFRESH = 1
F_MARKERS = 2
F_ARTISANS = 3
F_COMPLETE_QUARTER = 4
F_CENTRAL_TILES = 5
F_ARTISAN_MOVES = 6
#: The artisan options that place a new artisan (the others move one).
NEW_ARTISAN = (1 << ART_NEW_A) | (1 << ART_NEW_B)
RESTRICTIONS = (
    Restriction("second_tiles", F_SECOND_TILES,
                "no second tile: the seat stops after its first tile (never lifted)",
                "decision", True),
    Restriction("refresh", F_REFRESH,
                "no refreshing the action markers while a tile can be laid", "decision", True),
    Restriction("markers", F_MARKERS,
                "no action marker spent: every tile goes into the quarter its turntable place "
                "faces", "option", True),
    Restriction("artisans", F_ARTISANS,
                "no tile laid with its arrow at the player: no artisan placed or moved, so no "
                "group gold and no quarter scoring"),
    Restriction("complete_quarter", F_COMPLETE_QUARTER,
                "no tile on the last empty space of a quarter: never triggers a quarter's "
                "scoring (artisans untouched)", "option", True),
    Restriction("central_tiles", F_CENTRAL_TILES,
                "no tile laid on a space with a central column", "option", True),
    Restriction("artisan_moves", F_ARTISAN_MOVES,
                "no artisan moved: no tile whose arrow at the player would move its artisan "
                "(new artisans stay)", "option", True),
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
        at_player = arrow == seat_side(comp, state[S_N_PLAYERS], state[S_CUR])
        if (mask >> F_ARTISANS) & 1 and at_player:
            return True
        bit = np.int64(1) << s
        if (mask >> F_COMPLETE_QUARTER) & 1:
            q = comp[C_SPACE_QUARTER + s]
            if comp[C_QUARTER_MASK + q] & ~state[S_FILLED] == bit:  # its last empty space
                return True
        if (mask >> F_CENTRAL_TILES) & 1 and comp[C_CENTRAL_MASK] & bit != 0:
            return True
        if (mask >> F_ARTISAN_MOVES) & 1 and at_player:
            colour = comp[C_TILE_COLOUR + state[S_SLOT + slot]]
            options = artisan_options_for(state, comp, state[S_CUR], s, colour)
            if options != 0 and options & NEW_ARTISAN == 0:  # only a move
                return True
        return False
    if action == ACTION_REFRESH and phase == PHASE_FIRST and (mask >> F_REFRESH) & 1:
        return True
    if (mask >> F_ARTISAN_MOVES) & 1 and (action == ACTION_ARTISAN + ART_MOVE_A
                                          or action == ACTION_ARTISAN + ART_MOVE_B):
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


@njit(cache=True)
def count_allowed(state, comp, legal, n_legal, mask):
    """How many of ``legal[:n_legal]`` no family of ``mask`` forbids (0: every one is, the
    restriction is lifted): the footprint's count (:mod:`tajsim.play.footprint`)."""
    allowed = 0
    for i in range(n_legal):
        if not forbidden(state, comp, legal[i], mask):
            allowed += 1
    return allowed


@njit(cache=True)
def is_forbidden(state, comp, action, mask):
    """``forbidden`` with the signature every wing shares (:mod:`tajsim.play.footprint`)."""
    return forbidden(state, comp, action, mask)
