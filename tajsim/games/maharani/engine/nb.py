"""The rules of Maharani as numba kernels over flat ``int64`` arrays.

Two arrays carry everything:

* ``comp``: int64[COMP_SIZE], the packed components (palace, tiles); read only.
* ``state``: int64[STATE_SIZE], one game; layout in :mod:`tajsim.games.maharani.engine.enums`.

The game is a state machine of decisions (``PHASE_*``): :func:`legal_actions_nb` lists the legal
actions of the seat to move (``state[S_CUR]``) and :func:`apply_action_nb` applies one. The only
chance is the bag: its order is fixed at setup from the chance stream ``state[S_RNG]`` and tiles
are drawn from its end. Sets of spaces are bit masks in one int64 (bit s = space s, s < 60), so
zones and groups are flood fills over masks: no kernel here allocates, recurses or raises. Every
kernel also runs uncompiled (``NUMBA_DISABLE_JIT=1``).

Rule numbers (R...) refer to ``docs/games/maharani/rules.md``.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.compensation import seat_compensation
from tajsim.engine.ranking import rank_seats, ranking_key
from tajsim.engine.rng import game_seeds, seed_policy_streams, shuffle_slice
from tajsim.engine.targets import into_play_loop, kernel
from tajsim.games.maharani.engine.enums import (
    ACTION_ARTISAN,
    ACTION_REFRESH,
    ACTION_STOP,
    ART_MOVE_A,
    ART_MOVE_B,
    ART_NEW_A,
    ART_NEW_B,
    ARTISANS_PER_COLOUR,
    C_ALL_SPACES,
    C_CENTRAL_MASK,
    C_FIT,
    C_N_TILES,
    C_NEIGH_MASK,
    C_PATTERN_SPACES,
    C_QUARTER_MASK,
    C_SEAT_SIDE,
    C_SLOT_QUARTER,
    C_SPACE_MARKS,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    C_TILE_KIND,
    C_TILE_MARKS,
    END_COMPLETE,
    END_ROUND,
    END_STALLED,
    END_STUCK,
    KIND,
    LOC_BAG,
    LOC_BOARD,
    LOC_REMOVED,
    LOC_SLOT,
    LOWER_SCORE_WINS,
    MAX_PLAYERS,
    MAX_SCORED_ARTISANS,
    MAX_SPACES,
    MAX_TILES,
    N_ARTISAN_COLOURS,
    N_COLOURS,
    N_DIRS,
    N_PARTS,
    N_PATTERNS,
    N_PLACE_ACTIONS,
    N_QUARTERS,
    N_SLOTS,
    OPT_FREE_REFRESH,
    OPT_ROUND_END,
    OPT_TARGET_MARKER,
    PART_GROUPS,
    PART_QUARTERS,
    PART_SECOND,
    PART_ZONES,
    PHASE_ARTISAN,
    PHASE_FIRST,
    PHASE_GAME_OVER,
    PHASE_SECOND,
    QUARTER_GOLD,
    S_ARTISAN_MASK,
    S_ARTISAN_OPTS,
    S_ARTISANS_MOVED,
    S_ARTISANS_NEW,
    S_BAG,
    S_BAG_N,
    S_BEST_ZONE,
    S_CENTRAL_OUT,
    S_COLOUR_MASK,
    S_COMPLETED,
    S_CUR,
    S_END_REASON,
    S_FACING,
    S_FILLED,
    S_IDLE_TURNS,
    S_LAST_SPACE,
    S_MARKER,
    S_MARKER_TURNS,
    S_N_PLAYERS,
    S_N_REFRESHES,
    S_N_REMOVED,
    S_OPENING,
    S_PENDING,
    S_PHASE,
    S_PLAY_SEED,
    S_Q_ARTISANS,
    S_Q_COMPLETED_BY,
    S_Q_GOLD,
    S_Q_SCORED_TURN,
    S_RANK,
    S_REFRESHES,
    S_RESERVE,
    S_RNG,
    S_RULES,
    S_SCORE,
    S_SCORED,
    S_SECOND_BOUGHT,
    S_SETUP_SEED,
    S_SLOT,
    S_SPACE_ARROW,
    S_SPACE_ARTISAN,
    S_SPACE_BY,
    S_SPACE_GOLD,
    S_SPACE_TILE,
    S_STEP,
    S_TILE_LOC,
    S_TILE_SPACE,
    S_TILES_PLACED,
    S_TILES_THIS_TURN,
    S_TURN,
    S_WINNER,
    S_ZONE_BY_COLOUR,
    SECOND_TILE_COST,
    STALL_ROUNDS,
    STATE_SIZE,
)

P = MAX_PLAYERS
ALL_QUARTERS = (1 << N_QUARTERS) - 1
QUARTER_GOLD_TABLE = np.array(QUARTER_GOLD, np.int64)  # frozen as a constant by numba
ARTISANS_TABLE = np.array(ARTISANS_PER_COLOUR, np.int64)
SPACE_ACTIONS = MAX_SPACES * N_DIRS  # place actions per turntable place


# ---------------------------------------------------------------------------
# Bit masks over spaces
# ---------------------------------------------------------------------------
@kernel(inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64 below 2**62 (SWAR; no overflow)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


# De Bruijn multiplication: the top 6 bits of (power of two x DEBRUIJN) are distinct for the 64
# powers, so one multiply and one table read find a bit's index with no branch to mispredict.
DEBRUIJN = 0x03F79D71B4CB0A89
DEBRUIJN_INDEX = np.array([
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51, 43, 22,
    45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6], np.int64)


def bit_index_python(low):
    """``bit_index`` uncompiled: Python integers do not wrap, so the product is reduced."""
    return int(DEBRUIJN_INDEX[(int(low) * DEBRUIJN % (1 << 64)) >> 58])


@kernel(python=bit_index_python, inline="always")
def bit_index(low):
    """Index of ``low``, a power of two below 2**62: the top 6 bits of the int64 product with
    ``DEBRUIJN`` (which wraps; the arithmetic shift's sign bits are masked off)."""
    return DEBRUIJN_INDEX[((low * DEBRUIJN) >> 58) & 63]


@kernel(inline="always")
def flood(comp, seed, allowed):
    """The spaces of ``allowed`` connected to ``seed`` (masks) by adjacency, ``seed`` included:
    the zone of a tile (allowed = its colour) or the group of an artisan (allowed = its colour's
    artisans). Adjacency crosses quarter borders (R7, "Cas particulier")."""
    region = seed
    frontier = seed
    while frontier != 0:
        low = frontier & -frontier
        frontier ^= low
        grow = comp[C_NEIGH_MASK + bit_index(low)] & allowed & ~region
        region |= grow
        frontier |= grow
    return region


# ---------------------------------------------------------------------------
# Small accessors
# ---------------------------------------------------------------------------
@kernel(inline="always")
def score_of(state, p):
    """Gold of seat ``p`` (the sum of its parts)."""
    total = 0
    for k in range(N_PARTS):
        total += state[S_SCORE + p * N_PARTS + k]
    return total


@kernel(inline="always")
def seat_side(comp, n_players, p):
    """Board side of seat ``p`` (where its position marker sits)."""
    return comp[C_SEAT_SIDE + n_players * P + p]


@kernel(inline="always")
def slot_quarter(comp, facing, slot):
    """Quarter under turntable place ``slot`` with the arrow pointing to side ``facing``."""
    return comp[C_SLOT_QUARTER + facing * N_SLOTS + slot]


@kernel(inline="always")
def colour_a(n_players, p):
    """Seat p's (first) artisan colour."""
    return 2 * p if n_players == 2 else p


@kernel(inline="always")
def colour_owner(n_players, a):
    """Seat playing artisan colour ``a``."""
    return a // 2 if n_players == 2 else a


@kernel(inline="always")
def tile_colour_at(state, comp, s):
    return comp[C_TILE_COLOUR + state[S_SPACE_TILE + s]]


@kernel(inline="always")
def is_rules(state, option):
    return (state[S_RULES] & option) != 0


@kernel(inline="always")
def decode_place(action):
    """(turntable place, space, arrow direction) of a place action."""
    slot = action // SPACE_ACTIONS
    rem = action - slot * SPACE_ACTIONS
    return slot, rem // N_DIRS, rem % N_DIRS


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------
@kernel
def init_state_nb(comp, n_players, rules, setup_seed, play_seed, state):
    """Set up a game in ``state`` (int64[STATE_SIZE]).

    The setup stream (``setup_seed``) shuffles the 60 tiles and deals the last four to turntable
    places 1-4 in order (S1); the chance stream (``play_seed``, kept in ``S_RNG``) then shuffles
    the tiles left in the bag. So the opening tiles depend on the setup only, the bag order on
    both seeds, and games may share a setup.
    """
    for i in range(STATE_SIZE):
        state[i] = 0
    n_tiles = comp[C_N_TILES]
    state[S_N_PLAYERS] = n_players
    state[S_RULES] = rules
    state[S_SETUP_SEED] = setup_seed
    state[S_PLAY_SEED] = play_seed
    for s in range(MAX_SPACES):
        state[S_SPACE_TILE + s] = -1
        state[S_SPACE_ARROW + s] = -1
        state[S_SPACE_ARTISAN + s] = -1
        state[S_SPACE_BY + s] = -1
    for t in range(MAX_TILES):
        state[S_TILE_SPACE + t] = -1
        state[S_BAG + t] = t if t < n_tiles else -1
        state[S_TILE_LOC + t] = LOC_BAG if t < n_tiles else LOC_REMOVED
    for q in range(N_QUARTERS):
        state[S_Q_COMPLETED_BY + q] = -1
        state[S_Q_SCORED_TURN + q] = -1
    # The setup stream runs in the S_RNG slot first, then S_RNG becomes the chance stream.
    state[S_RNG] = setup_seed
    shuffle_slice(state, S_BAG, S_BAG + n_tiles, state, S_RNG)
    state[S_BAG_N] = n_tiles
    for k in range(N_SLOTS):
        state[S_SLOT + k] = -1
    refill(state, comp)
    for k in range(N_SLOTS):
        state[S_OPENING + k] = state[S_SLOT + k]
    state[S_RNG] = play_seed
    shuffle_slice(state, S_BAG, S_BAG + state[S_BAG_N], state, S_RNG)
    for p in range(n_players):
        for q in range(N_QUARTERS):
            state[S_MARKER + p * N_QUARTERS + q] = 1
        # The seat-compensation variant (not the rules): starting gold, counted in the
        # quarters part; 0 by default.
        state[S_SCORE + p * N_PARTS + PART_QUARTERS] += seat_compensation(rules, p, play_seed)
    for a in range(N_ARTISAN_COLOURS):
        if colour_owner(n_players, a) < n_players:
            state[S_RESERVE + a] = ARTISANS_TABLE[n_players]
    for p in range(P):
        state[S_RANK + p] = 0
    state[S_CUR] = 0  # S3: seat 0 plays first
    state[S_FACING] = seat_side(comp, n_players, 0)
    state[S_PHASE] = PHASE_FIRST
    state[S_LAST_SPACE] = -1
    if not any_tile_fits(state, comp):  # only with component sets that break the validator
        finish_game(state, comp, np.int64(END_STUCK))


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------
@kernel(inline="always")
def place_targets(state, comp, p, slot):
    """Mask of the empty spaces the tile on turntable place ``slot`` may go to for seat ``p``,
    counting the markers (R6) but not the columns."""
    q_src = slot_quarter(comp, state[S_FACING], slot)
    own = comp[C_QUARTER_MASK + q_src]
    empty = comp[C_ALL_SPACES] & ~state[S_FILLED]
    if is_rules(state, OPT_TARGET_MARKER):
        allowed = own
        for q in range(N_QUARTERS):
            if state[S_MARKER + p * N_QUARTERS + q] == 1:
                allowed |= comp[C_QUARTER_MASK + q]
        return empty & allowed
    if state[S_MARKER + p * N_QUARTERS + q_src] == 1:
        return empty
    return empty & own


@kernel(inline="always")
def place_actions_nb(state, comp, legal, k):
    """Append every legal place action of the seat to move to ``legal[k:]``; return the new
    count. Order: turntable place, space, arrow direction (ascending)."""
    p = state[S_CUR]
    for slot in range(N_SLOTS):
        t = state[S_SLOT + slot]
        if t < 0:
            continue
        tmarks = comp[C_TILE_MARKS + t]
        cand = place_targets(state, comp, p, slot) & comp[C_PATTERN_SPACES + tmarks]
        while cand != 0:
            low = cand & -cand
            cand ^= low
            s = bit_index(low)
            fit = comp[C_FIT + tmarks * N_PATTERNS + comp[C_SPACE_MARKS + s]]
            first = (slot * MAX_SPACES + s) * N_DIRS
            while fit != 0:
                low = fit & -fit
                fit ^= low
                legal[k] = first + (low >> 1) - (low >> 3)  # the direction of low (1, 2, 4, 8)
                k += 1
    return k


@kernel(inline="always")
def any_marker_down(state, p):
    for q in range(N_QUARTERS):
        if state[S_MARKER + p * N_QUARTERS + q] == 0:
            return True
    return False


@kernel(inline=into_play_loop)
def legal_actions_nb(state, comp, legal):
    """Write the legal actions of the seat to move into ``legal[:n]`` and return n.

    Parameters
    ----------
    state : int64[STATE_SIZE]
    comp : int64[COMP_SIZE]
    legal : int64[N_ACTIONS] (scratch, written)

    Returns
    -------
    int
        n >= 1 while the game is on, 0 when it is over.
    """
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    phase = state[S_PHASE]
    if phase == PHASE_FIRST:
        k = place_actions_nb(state, comp, legal, 0)
        # R9b: refreshing turns face-down markers up; with all of them up it would be a pass,
        # which the text does not offer (unless OPT_FREE_REFRESH, or nothing can be laid).
        p = state[S_CUR]
        if k == 0 or any_marker_down(state, p) or is_rules(state, OPT_FREE_REFRESH):
            legal[k] = ACTION_REFRESH
            k += 1
        return k
    if phase == PHASE_SECOND:
        k = place_actions_nb(state, comp, legal, 0)
        legal[k] = ACTION_STOP
        return k + 1
    if phase == PHASE_ARTISAN:
        k = 0
        opts = state[S_ARTISAN_OPTS]
        for option in range(4):
            if (opts >> option) & 1:
                legal[k] = ACTION_ARTISAN + option
                k += 1
        return k
    return 0


# ---------------------------------------------------------------------------
# Artisan options
# ---------------------------------------------------------------------------
@kernel(inline="always")
def other_same_colour(state, comp, s, colour):
    """Mask of the other tiles of ``colour`` in space ``s``'s quarter."""
    q = comp[C_SPACE_QUARTER + s]
    return comp[C_QUARTER_MASK + q] & state[S_COLOUR_MASK + colour] & ~(np.int64(1) << s)


@kernel(inline="always")
def artisan_options_for(state, comp, p, s, colour):
    """Mask of the ART_* options of seat ``p`` for a tile of ``colour`` on space ``s`` whose
    arrow points at it (R8, R8b); the tile may be laid already or about to be. 0: no artisan
    (the reserve is empty)."""
    n = state[S_N_PLAYERS]
    others = other_same_colour(state, comp, s, colour)
    a = colour_a(n, p)
    has_a = (state[S_ARTISAN_MASK + a] & others) != 0
    if n != 2:
        if has_a:
            return 1 << ART_MOVE_A
        return (1 << ART_NEW_A) if state[S_RESERVE + a] > 0 else 0
    b = a + 1
    has_b = (state[S_ARTISAN_MASK + b] & others) != 0
    new_a = (1 << ART_NEW_A) if state[S_RESERVE + a] > 0 else 0
    new_b = (1 << ART_NEW_B) if state[S_RESERVE + b] > 0 else 0
    if has_a and has_b:
        return (1 << ART_MOVE_A) | (1 << ART_MOVE_B)
    if has_a:
        return (1 << ART_MOVE_A) | new_b
    if has_b:
        return (1 << ART_MOVE_B) | new_a
    return new_a | new_b


@kernel(inline="always")
def artisan_options(state, comp, p, s):
    """``artisan_options_for`` the tile laid on space ``s``."""
    return artisan_options_for(state, comp, p, s, tile_colour_at(state, comp, s))


@kernel(inline="always")
def artisan_source(state, comp, s, a):
    """Space of artisan colour ``a`` on another tile of the colour of space ``s``'s tile in its
    quarter (the one a move takes), -1 none."""
    there = state[S_ARTISAN_MASK + a] & other_same_colour(state, comp, s,
                                                          tile_colour_at(state, comp, s))
    if there == 0:
        return -1
    return bit_index(there & -there)


# ---------------------------------------------------------------------------
# Applying actions
# ---------------------------------------------------------------------------
@kernel(inline="always")
def apply_artisan(state, comp, p, option, s):
    """Carry out artisan option ``option`` of seat ``p`` on space ``s`` and pay the group's
    gold (R8)."""
    n = state[S_N_PLAYERS]
    a = colour_a(n, p)
    if option == ART_NEW_B or option == ART_MOVE_B:
        a += 1
    src = -1
    if option == ART_MOVE_A or option == ART_MOVE_B:
        src = artisan_source(state, comp, s, a)
        state[S_ARTISAN_MASK + a] &= ~(np.int64(1) << src)
        state[S_SPACE_ARTISAN + src] = -1
        state[S_ARTISANS_MOVED + p] += 1
    else:
        state[S_RESERVE + a] -= 1
        state[S_ARTISANS_NEW + p] += 1
    bit = np.int64(1) << s
    state[S_ARTISAN_MASK + a] |= bit
    state[S_SPACE_ARTISAN + s] = a
    gold = popcount(flood(comp, bit, state[S_ARTISAN_MASK + a]))
    state[S_SCORE + p * N_PARTS + PART_GROUPS] += gold
    state[S_SPACE_GOLD + s] += gold


@kernel(inline="always")
def lay_tile(state, comp, p, action):
    """Lay a tile (R6, R6b), pay its zone (R7), note a completed quarter (R10) and resolve the
    artisan (R8). Returns True when a 2-player artisan choice is pending."""
    slot, s, arrow = decode_place(action)
    t = state[S_SLOT + slot]
    state[S_SLOT + slot] = -1
    q_src = slot_quarter(comp, state[S_FACING], slot)
    q = comp[C_SPACE_QUARTER + s]
    if q != q_src:  # R6: another quarter costs an action marker
        m = q if is_rules(state, OPT_TARGET_MARKER) else q_src
        state[S_MARKER + p * N_QUARTERS + m] = 0
        state[S_MARKER_TURNS + p] += 1
    bit = np.int64(1) << s
    colour = comp[C_TILE_COLOUR + t]
    state[S_SPACE_TILE + s] = t
    state[S_SPACE_ARROW + s] = arrow
    state[S_SPACE_BY + s] = p
    state[S_TILE_LOC + t] = LOC_BOARD
    state[S_TILE_SPACE + t] = s
    state[S_FILLED] |= bit
    state[S_COLOUR_MASK + colour] |= bit
    zone = popcount(flood(comp, bit, state[S_COLOUR_MASK + colour]))
    state[S_SCORE + p * N_PARTS + PART_ZONES] += zone
    state[S_ZONE_BY_COLOUR + p * N_COLOURS + colour] += zone
    state[S_SPACE_GOLD + s] += zone
    if zone > state[S_BEST_ZONE + p]:
        state[S_BEST_ZONE + p] = zone
    state[S_TILES_PLACED + p] += 1
    state[S_TILES_THIS_TURN] += 1
    state[S_LAST_SPACE] = s
    qmask = comp[C_QUARTER_MASK + q]
    done = (state[S_SCORED] | state[S_PENDING]) >> q & 1
    if (state[S_FILLED] & qmask) == qmask and done == 0:
        state[S_PENDING] |= 1 << q  # R10: scored when this turn ends
        state[S_Q_COMPLETED_BY + q] = p
        state[S_COMPLETED + p] += 1
    n = state[S_N_PLAYERS]
    if arrow == seat_side(comp, n, p):  # R8: the arrow points at the player
        opts = artisan_options(state, comp, p, s)
        if n == 2 and popcount(opts) >= 2:
            state[S_ARTISAN_OPTS] = opts
            state[S_PHASE] = PHASE_ARTISAN
            return True
        if opts != 0:
            apply_artisan(state, comp, p, bit_index(opts & -opts), s)
    return False


@kernel(inline="always")
def after_tile(state, comp):
    if state[S_TILES_THIS_TURN] == 1:
        state[S_PHASE] = PHASE_SECOND
    else:
        end_turn(state, comp)


@kernel(inline=into_play_loop)
def apply_action_nb(state, comp, action):
    """Apply a legal ``action`` for the seat to move (``state[S_CUR]``).

    Parameters
    ----------
    state : int64[STATE_SIZE] (updated in place)
    comp : int64[COMP_SIZE]
    action : int, one of ``legal_actions_nb``'s list (not checked here: the Python ``Game``
        checks; the batch kernels only apply listed actions)
    """
    state = borrowed(state)
    comp = borrowed(comp)
    state[S_STEP] += 1
    p = state[S_CUR]
    if action < N_PLACE_ACTIONS:
        if not lay_tile(state, comp, p, action):
            after_tile(state, comp)
    elif action == ACTION_REFRESH:  # R9b
        for q in range(N_QUARTERS):
            state[S_MARKER + p * N_QUARTERS + q] = 1
        state[S_REFRESHES + p] += 1
        state[S_N_REFRESHES] += 1
        end_turn(state, comp)
    elif action == ACTION_STOP:
        end_turn(state, comp)
    else:  # 2 players: the artisan choice (R8b)
        apply_artisan(state, comp, p, action - ACTION_ARTISAN, state[S_LAST_SPACE])
        state[S_ARTISAN_OPTS] = 0
        after_tile(state, comp)


@kernel
def score_quarter(state, comp, q):
    """R10: each artisan colour's artisans in quarter ``q`` earn QUARTER_GOLD[count] for their
    owner (2 players: each colour separately), then go back to their reserves."""
    n = state[S_N_PLAYERS]
    qmask = comp[C_QUARTER_MASK + q]
    for a in range(N_ARTISAN_COLOURS):
        here = state[S_ARTISAN_MASK + a] & qmask
        if here == 0:
            continue
        count = popcount(here)
        owner = colour_owner(n, a)
        gold = QUARTER_GOLD_TABLE[min(count, MAX_SCORED_ARTISANS)]
        state[S_SCORE + owner * N_PARTS + PART_QUARTERS] += gold
        state[S_Q_ARTISANS + q * P + owner] += count
        state[S_Q_GOLD + q * P + owner] += gold
        state[S_RESERVE + a] += count
        state[S_ARTISAN_MASK + a] &= ~qmask
        while here != 0:
            low = here & -here
            here ^= low
            state[S_SPACE_ARTISAN + bit_index(low)] = -1
    state[S_SCORED] |= 1 << q
    state[S_Q_SCORED_TURN + q] = state[S_TURN]


@kernel
def refill(state, comp):
    """Fill the empty turntable places in order 1-4 from the end of the bag (R9c); once the
    central spaces are full, a central tile drawn leaves play and another is drawn (R11)."""
    for k in range(N_SLOTS):
        while state[S_SLOT + k] < 0 and state[S_BAG_N] > 0:
            i = state[S_BAG_N] - 1
            t = state[S_BAG + i]
            state[S_BAG + i] = -1
            state[S_BAG_N] = i
            if state[S_CENTRAL_OUT] == 1 and comp[C_TILE_KIND + t] == KIND.CENTRAL:
                state[S_TILE_LOC + t] = LOC_REMOVED
                state[S_N_REMOVED] += 1
                continue
            state[S_SLOT + k] = t
            state[S_TILE_LOC + t] = LOC_SLOT + k


@kernel
def any_tile_fits(state, comp):
    """Whether some tile on the turntable fits some empty space (markers aside)."""
    empty = comp[C_ALL_SPACES] & ~state[S_FILLED]
    for k in range(N_SLOTS):
        t = state[S_SLOT + k]
        if t >= 0 and (comp[C_PATTERN_SPACES + comp[C_TILE_MARKS + t]] & empty) != 0:
            return True
    return False


@kernel
def finish_game(state, comp, reason):
    """Score the quarters never scored (R12b), then ranks: a seat's rank is 1 + the number of
    seats with more gold; every seat of rank 1 wins (shared wins, R13)."""
    state = borrowed(state)
    comp = borrowed(comp)
    for q in range(N_QUARTERS):
        if ((state[S_SCORED] >> q) & 1) == 0:
            score_quarter(state, comp, q)
    n = state[S_N_PLAYERS]
    for p in range(n):
        state[S_RANK + p] = ranking_key(score_of(state, p), 0, LOWER_SCORE_WINS)
    rank_seats(state, n, S_RANK, S_WINNER)
    state[S_PHASE] = PHASE_GAME_OVER
    state[S_CUR] = -1
    state[S_END_REASON] = reason
    state[S_LAST_SPACE] = -1


@kernel
def end_turn(state, comp):
    """R9: pay for a second tile, score the quarters filled this turn (R10), take surplus
    central tiles off the turntable (R11), refill it (R9c), end the game (R12) or pass the
    turn clockwise, turning the turntable toward the next player (R5)."""
    state = borrowed(state)
    comp = borrowed(comp)
    p = state[S_CUR]
    n = state[S_N_PLAYERS]
    if state[S_TILES_THIS_TURN] == 2:
        state[S_SCORE + p * N_PARTS + PART_SECOND] -= SECOND_TILE_COST
        state[S_SECOND_BOUGHT + p] += 1
    if state[S_TILES_THIS_TURN] == 0:
        state[S_IDLE_TURNS] += 1
    else:
        state[S_IDLE_TURNS] = 0
    pending = state[S_PENDING]
    for q in range(N_QUARTERS):
        if (pending >> q) & 1:
            score_quarter(state, comp, q)
    state[S_PENDING] = 0
    central = comp[C_CENTRAL_MASK]
    if state[S_CENTRAL_OUT] == 0 and (state[S_FILLED] & central) == central:
        state[S_CENTRAL_OUT] = 1
        for k in range(N_SLOTS):
            t = state[S_SLOT + k]
            if t >= 0 and comp[C_TILE_KIND + t] == KIND.CENTRAL:
                state[S_SLOT + k] = -1
                state[S_TILE_LOC + t] = LOC_REMOVED
                state[S_N_REMOVED] += 1
    refill(state, comp)
    state[S_TILES_THIS_TURN] = 0
    state[S_LAST_SPACE] = -1
    if state[S_SCORED] == ALL_QUARTERS:
        finish_game(state, comp, np.int64(END_COMPLETE))
        return
    if not any_tile_fits(state, comp):
        finish_game(state, comp, np.int64(END_STUCK))
        return
    if is_rules(state, OPT_FREE_REFRESH) and state[S_IDLE_TURNS] >= STALL_ROUNDS * n:
        finish_game(state, comp, np.int64(END_STALLED))
        return
    # V1 (OPT_ROUND_END, a variant): once the bag is empty (R12a's moment) the game ends when
    # the round does, after the last seat's turn, so every seat has had as many turns. The ends
    # above come first: a full board or a turntable that fits nowhere cannot be played on.
    if is_rules(state, OPT_ROUND_END) and state[S_BAG_N] == 0 and p == n - 1:
        finish_game(state, comp, np.int64(END_ROUND))
        return
    nxt = (p + 1) % n
    state[S_CUR] = nxt
    state[S_FACING] = seat_side(comp, n, nxt)
    state[S_PHASE] = PHASE_FIRST
    state[S_TURN] += 1


@kernel
def rebuild_masks_nb(state, comp):
    """Recompute the derived masks (S_FILLED, S_COLOUR_MASK, S_ARTISAN_MASK) from the per-space
    blocks; used by tests and the invariant checks."""
    state[S_FILLED] = 0
    for c in range(N_COLOURS):
        state[S_COLOUR_MASK + c] = 0
    for a in range(N_ARTISAN_COLOURS):
        state[S_ARTISAN_MASK + a] = 0
    for s in range(MAX_SPACES):
        t = state[S_SPACE_TILE + s]
        if t >= 0:
            bit = np.int64(1) << s
            state[S_FILLED] |= bit
            state[S_COLOUR_MASK + comp[C_TILE_COLOUR + t]] |= bit
            a = state[S_SPACE_ARTISAN + s]
            if a >= 0:
                state[S_ARTISAN_MASK + a] |= bit


@kernel
def start_game_nb(comp, n_players, edition, master_seed, game_id, setup_id, state, prng):
    """Set up game ``game_id`` in ``state`` (int64[STATE_SIZE]) and seed the seats' policy
    streams in ``prng`` (int64[MAX_PLAYERS]). ``edition`` is the rules code."""
    setup_seed, play_seed = game_seeds(master_seed, game_id, setup_id)
    init_state_nb(comp, n_players, edition, setup_seed, play_seed, state)
    seed_policy_streams(play_seed, prng)


@kernel
def current_player_nb(state):
    """Seat to decide, -1 when the game is over."""
    return -1 if state[S_PHASE] == PHASE_GAME_OVER else state[S_CUR]


@kernel
def phase_nb(state):
    """The decision phase (``PHASE_*``)."""
    return state[S_PHASE]
