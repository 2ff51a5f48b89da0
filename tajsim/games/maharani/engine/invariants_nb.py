"""A compiled twin of :func:`..invariants.check_state`, for checking very many games.

``check_state_nb(state, comp, scratch)`` tests the same invariants as the Python
``check_state`` and returns 0, or the code of the first one broken (``INVARIANT_NAMES[code]``).
``check_games_nb`` plays random games checking, after every action, the invariants, the legal
list against ``reference_nb.expected_legal_nb``, the zone and group gold against breadth-first
flood fills, and that gold never falls except by a second tile's 2 gold.

The checks are written from the rules text, not from the rules module: they call only the
entry points under test (``start_game_nb``, ``legal_actions_nb``, ``apply_action_nb``) and
``reference_nb`` (gold sum, artisan options, legal list, flood fills) and decode actions and
update boards themselves, so a wrong rules helper shows as a broken invariant instead of
agreeing with itself.

The Python versions stay the reference (readable, with messages); the tests run both on the same
states, including deliberately corrupted ones, so the twin cannot drift silently.
``tests/games/maharani/maharani_check_many.py`` uses it for 10^5 games per player count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.compensation import CODE_MASK as COMPENSATION_MASK
from tajsim.engine.compensation import compensation_high, compensation_low
from tajsim.engine.rng import below
from tajsim.games.maharani.engine.enums import (
    ACTION_ARTISAN,
    ARTISANS_PER_COLOUR,
    C_CENTRAL_MASK,
    C_N_SPACES,
    C_N_TILES,
    C_SEAT_SIDE,
    C_SPACE_MARKS,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    C_TILE_KIND,
    C_TILE_MARKS,
    EDITION_MASK,
    END_COMPLETE,
    END_NONE,
    END_ROUND,
    KIND,
    LOC_BAG,
    LOC_BOARD,
    LOC_REMOVED,
    LOC_SLOT,
    MAX_PLAYERS,
    MAX_SPACES,
    MAX_TILES,
    N_ACTIONS,
    N_ARTISAN_COLOURS,
    N_COLOURS,
    N_PARTS,
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
    S_CENTRAL_OUT,
    S_COLOUR_MASK,
    S_COMPLETED,
    S_CUR,
    S_END_REASON,
    S_FACING,
    S_FILLED,
    S_LAST_SPACE,
    S_MARKER,
    S_N_PLAYERS,
    S_N_REMOVED,
    S_PENDING,
    S_PHASE,
    S_Q_ARTISANS,
    S_Q_COMPLETED_BY,
    S_Q_GOLD,
    S_Q_SCORED_TURN,
    S_RANK,
    S_RESERVE,
    S_RULES,
    S_SCORE,
    S_SCORED,
    S_SECOND_BOUGHT,
    S_SLOT,
    S_SPACE_ARROW,
    S_SPACE_ARTISAN,
    S_SPACE_BY,
    S_SPACE_GOLD,
    S_SPACE_TILE,
    S_TILE_LOC,
    S_TILE_SPACE,
    S_TILES_PLACED,
    S_TILES_THIS_TURN,
    S_TURN,
    S_WINNER,
    S_ZONE_BY_COLOUR,
    SECOND_TILE_COST,
    STATE_SIZE,
)

# Only the entry points under test: the checks below use none of the rules' helpers (scores,
# artisan choices, action decoding, laying a tile), so a wrong helper cannot agree with itself.
from tajsim.games.maharani.engine.nb import apply_action_nb, legal_actions_nb, start_game_nb
from tajsim.games.maharani.engine.reference_nb import (
    artisan_options_ref,
    bfs_size,
    expected_legal_nb,
    gold_of,
    put_artisan,
    rotate_marks,
)

P = MAX_PLAYERS
# The seat-compensation variant's amounts ride in the rules code's high bits.
KNOWN_OPTIONS = OPT_FREE_REFRESH | OPT_TARGET_MARKER | OPT_ROUND_END | COMPENSATION_MASK
QUARTER_GOLD_T = np.array(QUARTER_GOLD, np.int64)
ARTISANS_T = np.array(ARTISANS_PER_COLOUR, np.int64)

#: Invariant codes of ``check_state_nb`` and ``check_games_nb`` (0 = none broken).
INVARIANT_NAMES = (
    "ok",
    "player count or rules code",  # 1
    "seat, phase, turntable direction or tiles laid this turn",  # 2
    "artisan decision",  # 3
    "tile locations (conservation, bag slice, turntable, board)",  # 4
    "turntable not full at the start of a turn with tiles in the bag",  # 5
    "central tiles out of play",  # 6
    "a laid tile does not cover its space's columns",  # 7
    "bit masks do not match the board",  # 8
    "artisans (conservation, scored quarter, absent seat)",  # 9
    "two artisans of one colour on tiles of one colour in one quarter",  # 10
    "action markers",  # 11
    "gold parts (zones, groups, quarters, second tiles, negative gold)",  # 12
    "gold made on spaces != zone + group gold",  # 13
    "quarters (full, pending, scored, completed counts)",  # 14
    "the end of the game (ranks, winners, quarters)",  # 15
    "legal list differs from the loop reference",  # 16
    "zone gold differs from a flood fill",  # 17
    "group gold differs from a flood fill",  # 18
    "gold fell outside a second-tile payment",  # 19
    "no legal action while the game is on",  # 20
)

# Scratch layout for check_state_nb (int64): BFS queue and seen flags, plus the legal buffers.
SCRATCH_SIZE = 2 * MAX_SPACES + 2 * N_ACTIONS + STATE_SIZE


@njit(cache=True)
def check_state_nb(state, comp, scratch):
    """0 if every invariant of ``check_state`` holds, else the first broken code."""
    n = state[S_N_PLAYERS]
    rules = state[S_RULES]
    if n < 2 or n > P or (rules & EDITION_MASK) != 0 or (rules & ~(EDITION_MASK
                                                                    | KNOWN_OPTIONS)) != 0:
        return 1
    phase = state[S_PHASE]
    over = phase == PHASE_GAME_OVER
    n_spaces = comp[C_N_SPACES]
    n_tiles = comp[C_N_TILES]
    tiles_now = state[S_TILES_THIS_TURN]
    if phase < 0 or phase > PHASE_GAME_OVER:
        return 2
    if over:
        if state[S_CUR] != -1 or state[S_SCORED] != 15:
            return 15
        if state[S_END_REASON] < END_COMPLETE or state[S_END_REASON] > END_ROUND:
            return 15
        if state[S_END_REASON] == END_ROUND and (
                (state[S_RULES] & OPT_ROUND_END) == 0 or state[S_BAG_N] != 0
                or (state[S_TURN] + 1) % n != 0):
            return 15
    else:
        cur = state[S_CUR]
        if cur < 0 or cur >= n or state[S_END_REASON] != END_NONE:
            return 2
        if state[S_FACING] != comp[C_SEAT_SIDE + n * P + cur]:
            return 2
        if phase == PHASE_FIRST and tiles_now != 0:
            return 2
        if phase == PHASE_SECOND and tiles_now != 1:
            return 2
        if phase == PHASE_ARTISAN:
            if tiles_now < 1 or tiles_now > 2 or n != 2:
                return 3
            opts = state[S_ARTISAN_OPTS]
            bits = 0
            for k in range(4):
                bits += (opts >> k) & 1
            last = state[S_LAST_SPACE]
            if bits < 2 or opts >= 16 or last < 0 or last >= n_spaces:
                return 3
            if state[S_SPACE_TILE + last] < 0 or state[S_SPACE_ARROW + last] != state[S_FACING]:
                return 3
        elif state[S_ARTISAN_OPTS] != 0:
            return 3
    # --- tiles -----------------------------------------------------------------------------
    bag_n = state[S_BAG_N]
    if bag_n < 0 or bag_n > n_tiles:
        return 4
    for i in range(bag_n, MAX_TILES):
        if state[S_BAG + i] != -1:
            return 4
    seen = scratch[MAX_SPACES:MAX_SPACES + MAX_TILES]
    for t in range(MAX_TILES):
        seen[t] = 0
    for i in range(bag_n):
        t = state[S_BAG + i]
        if t < 0 or t >= n_tiles or seen[t] != 0 or state[S_TILE_LOC + t] != LOC_BAG:
            return 4
        seen[t] = 1
    central_out = state[S_CENTRAL_OUT]
    removed = 0
    n_bag = 0
    for t in range(MAX_TILES):
        loc = state[S_TILE_LOC + t]
        if t >= n_tiles:
            if loc != LOC_REMOVED or state[S_TILE_SPACE + t] != -1:
                return 4
            continue
        if loc == LOC_BAG:
            n_bag += 1
        elif loc == LOC_REMOVED:
            removed += 1
            if comp[C_TILE_KIND + t] != KIND.CENTRAL or central_out == 0:
                return 6
        elif loc == LOC_BOARD:
            s = state[S_TILE_SPACE + t]
            if s < 0 or s >= n_spaces or state[S_SPACE_TILE + s] != t:
                return 4
        elif LOC_SLOT <= loc < LOC_SLOT + N_SLOTS:
            if state[S_SLOT + loc - LOC_SLOT] != t:
                return 4
        else:
            return 4
        if loc != LOC_BOARD and state[S_TILE_SPACE + t] != -1:
            return 4
    if n_bag != bag_n or removed != state[S_N_REMOVED]:
        return 4
    empty_slots = 0
    for k in range(N_SLOTS):
        t = state[S_SLOT + k]
        if t == -1:
            empty_slots += 1
        elif t < 0 or t >= n_tiles or state[S_TILE_LOC + t] != LOC_SLOT + k:
            return 4
        elif not over and tiles_now == 0 and central_out == 1 \
                and comp[C_TILE_KIND + t] == KIND.CENTRAL:
            return 6
    if not over and bag_n > 0 and empty_slots != tiles_now:
        return 5
    if central_out == 1:
        for s in range(n_spaces):
            if (comp[C_CENTRAL_MASK] >> s) & 1 and state[S_SPACE_TILE + s] < 0:
                return 6
    # --- board and masks -------------------------------------------------------------------
    filled = 0
    for c in range(N_COLOURS):
        scratch[c] = 0
    for a in range(N_ARTISAN_COLOURS):
        scratch[N_COLOURS + a] = 0
    for s in range(MAX_SPACES):
        t = state[S_SPACE_TILE + s]
        if s >= n_spaces:
            if t != -1 or state[S_SPACE_ARTISAN + s] != -1:
                return 4
            continue
        if t < 0:
            if (state[S_SPACE_ARROW + s] != -1 or state[S_SPACE_ARTISAN + s] != -1
                    or state[S_SPACE_BY + s] != -1 or state[S_SPACE_GOLD + s] != 0):
                return 4
            continue
        if t >= n_tiles or state[S_TILE_LOC + t] != LOC_BOARD or state[S_TILE_SPACE + t] != s:
            return 4
        arrow = state[S_SPACE_ARROW + s]
        if arrow < 0 or arrow > 3:
            return 7
        if rotate_marks(comp[C_TILE_MARKS + t], arrow) != comp[C_SPACE_MARKS + s]:
            return 7
        by = state[S_SPACE_BY + s]
        if by < 0 or by >= n:
            return 4
        bit = np.int64(1) << s
        filled |= bit
        scratch[comp[C_TILE_COLOUR + t]] |= bit
        a = state[S_SPACE_ARTISAN + s]
        if a >= 0:
            scratch[N_COLOURS + a] |= bit
    if filled != state[S_FILLED]:
        return 8
    for c in range(N_COLOURS):
        if scratch[c] != state[S_COLOUR_MASK + c]:
            return 8
    for a in range(N_ARTISAN_COLOURS):
        if scratch[N_COLOURS + a] != state[S_ARTISAN_MASK + a]:
            return 8
    # --- artisans --------------------------------------------------------------------------
    scored = state[S_SCORED]
    for a in range(N_ARTISAN_COLOURS):
        owner = a // 2 if n == 2 else a
        on_board = 0
        used = 0  # bit q * 6 + colour: a tile colour of a quarter already holding artisan a
        for s in range(n_spaces):
            if state[S_SPACE_ARTISAN + s] != a:
                continue
            on_board += 1
            q = comp[C_SPACE_QUARTER + s]
            if (scored >> q) & 1:
                return 9
            key = q * N_COLOURS + comp[C_TILE_COLOUR + state[S_SPACE_TILE + s]]
            if (used >> key) & 1:
                return 10
            used |= np.int64(1) << key
        if owner >= n:
            if on_board != 0 or state[S_RESERVE + a] != 0:
                return 9
            continue
        if state[S_RESERVE + a] < 0 or state[S_RESERVE + a] + on_board != ARTISANS_T[n]:
            return 9
    for p in range(P):
        for q in range(N_QUARTERS):
            m = state[S_MARKER + p * N_QUARTERS + q]
            if m < 0 or m > 1 or (p >= n and m != 0):
                return 11
    # --- gold ------------------------------------------------------------------------------
    space_gold = 0
    for s in range(n_spaces):
        space_gold += state[S_SPACE_GOLD + s]
    made = 0
    for p in range(P):
        base = S_SCORE + p * N_PARTS
        zones = state[base + PART_ZONES]
        groups = state[base + PART_GROUPS]
        quarters = state[base + PART_QUARTERS]
        second = state[base + PART_SECOND]
        if p >= n:
            if zones != 0 or groups != 0 or quarters != 0 or second != 0:
                return 12
            continue
        made += zones + groups
        laid = 0
        for s in range(n_spaces):
            if state[S_SPACE_BY + s] == p:
                laid += 1
        if state[S_TILES_PLACED + p] != laid or zones < laid:
            return 12
        by_colour = 0
        for c in range(N_COLOURS):
            if state[S_ZONE_BY_COLOUR + p * N_COLOURS + c] < 0:
                return 12
            by_colour += state[S_ZONE_BY_COLOUR + p * N_COLOURS + c]
        if by_colour != zones:
            return 12
        if groups < state[S_ARTISANS_NEW + p] + state[S_ARTISANS_MOVED + p]:
            return 12
        recorded = 0
        for q in range(N_QUARTERS):
            recorded += state[S_Q_GOLD + q * P + p]
            if n > 2:
                k = state[S_Q_ARTISANS + q * P + p]
                if state[S_Q_GOLD + q * P + p] != QUARTER_GOLD_T[min(k, 6)]:
                    return 12
        # the seat's compensation (a variant, 0 by default) is counted in its quarters part
        if not (recorded + compensation_low(rules, p) <= quarters
                <= recorded + compensation_high(rules, p)) \
                or second != -SECOND_TILE_COST * state[S_SECOND_BOUGHT + p]:
            return 12
        if zones + groups + quarters + second < 0:
            return 12
        done = 0
        for q in range(N_QUARTERS):
            if state[S_Q_COMPLETED_BY + q] == p:
                done += 1
        if done != state[S_COMPLETED + p]:
            return 14
    if made != space_gold:
        return 13
    # --- quarters --------------------------------------------------------------------------
    pending = state[S_PENDING]
    for q in range(N_QUARTERS):
        full = True
        for s in range(n_spaces):
            if comp[C_SPACE_QUARTER + s] == q and state[S_SPACE_TILE + s] < 0:
                full = False
        is_scored = (scored >> q) & 1
        is_pending = (pending >> q) & 1
        if is_scored and is_pending:
            return 14
        if full and not over and not is_scored and not is_pending:
            return 14
        if is_pending and (not full or state[S_Q_COMPLETED_BY + q] < 0 or tiles_now == 0):
            return 14
        if (is_scored == 1) != (state[S_Q_SCORED_TURN + q] >= 0):
            return 14
        if state[S_Q_COMPLETED_BY + q] >= 0 and not full:
            return 14
    # --- the end ---------------------------------------------------------------------------
    if over:
        for p in range(n):
            better = 0
            for o in range(n):
                if gold_of(state, o) > gold_of(state, p):
                    better += 1
            if state[S_RANK + p] != 1 + better or state[S_WINNER + p] != (1 if better == 0
                                                                          else 0):
                return 15
    else:
        for p in range(P):
            if state[S_RANK + p] != 0 or state[S_WINNER + p] != 0:
                return 15
    return 0


@njit(cache=True)
def check_step_nb(before, state, comp, action, mid, queue, seen):
    """The flood-fill and gold checks of one applied action (``before`` -> ``state``)."""
    n = before[S_N_PLAYERS]
    p = before[S_CUR]
    for o in range(n):
        gained = 0
        for k in range(3):
            gained += state[S_SCORE + o * N_PARTS + k] - before[S_SCORE + o * N_PARTS + k]
        paid = (state[S_SCORE + o * N_PARTS + PART_SECOND]
                - before[S_SCORE + o * N_PARTS + PART_SECOND])
        if gained < 0 or not (paid == 0 or (paid == -SECOND_TILE_COST and o == p)):
            return 19
    for i in range(STATE_SIZE):
        mid[i] = before[i]
    if action < N_PLACE_ACTIONS:
        # the board after laying the tile, by hand: action = (place * MAX_SPACES + space) * 4
        # + arrow direction
        s = (action // 4) % MAX_SPACES
        mid[S_SPACE_TILE + s] = before[S_SLOT + action // (4 * MAX_SPACES)]
        zone = state[S_SCORE + p * N_PARTS + PART_ZONES] - before[S_SCORE + p * N_PARTS
                                                                  + PART_ZONES]
        if zone != bfs_size(mid, comp, s, False, queue, seen):
            return 17
        # R8: an arrow pointing at the player brings an artisan, at once when there is exactly
        # one way to take it (otherwise a choice follows, or there is none)
        option = -1
        if action % 4 == comp[C_SEAT_SIDE + n * P + p]:
            options = artisan_options_ref(mid, comp, p, s)
            for k in range(4):
                if options == 1 << k:
                    option = k
    elif action >= ACTION_ARTISAN:
        s = before[S_LAST_SPACE]
        option = action - ACTION_ARTISAN
    else:
        return 0
    group = state[S_SCORE + p * N_PARTS + PART_GROUPS] - before[S_SCORE + p * N_PARTS
                                                                + PART_GROUPS]
    if (group != 0) != (option >= 0):
        return 18
    if option < 0:
        return 0
    put_artisan(mid, comp, p, option, s)
    if group != bfs_size(mid, comp, s, True, queue, seen):
        return 18
    return 0


@njit(cache=True)
def check_games_nb(comp, n_players, rules, master_seed, game_ids, codes, steps):
    """Play random games (the ``random`` strategy, the same games as ``play_batch_nb``) and
    check every step (module doc). ``codes[g]`` gets 0 or the first broken invariant's code,
    ``steps[g]`` the actions played (or the failing step)."""
    state = np.zeros(STATE_SIZE, np.int64)
    before = np.zeros(STATE_SIZE, np.int64)
    mid = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(P, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    ref = np.empty(N_ACTIONS, np.int64)
    scratch = np.zeros(SCRATCH_SIZE, np.int64)
    queue = np.zeros(MAX_SPACES, np.int64)
    seen = np.zeros(MAX_SPACES, np.int64)
    for g in range(game_ids.shape[0]):
        start_game_nb(comp, n_players, rules, master_seed, game_ids[g], game_ids[g], state,
                      prng)
        code = check_state_nb(state, comp, scratch)
        step = 0
        while code == 0 and state[S_PHASE] != PHASE_GAME_OVER:
            k = legal_actions_nb(state, comp, legal)
            if k < 1:
                code = 20
                break
            k2 = expected_legal_nb(state, comp, ref)
            if k2 != k:
                code = 16
                break
            for i in range(k):
                if legal[i] != ref[i]:
                    code = 16
            if code != 0:
                break
            p = state[S_CUR]
            action = legal[0] if k == 1 else legal[below(prng, p, k)]
            for i in range(STATE_SIZE):
                before[i] = state[i]
            apply_action_nb(state, comp, action)
            code = check_state_nb(state, comp, scratch)
            if code == 0:
                code = check_step_nb(before, state, comp, action, mid, queue, seen)
            step += 1
        codes[g] = code
        steps[g] = step
