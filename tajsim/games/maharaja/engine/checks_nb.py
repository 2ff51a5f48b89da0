"""A compiled twin of :func:`invariants.check_state`, for runs of 10^5+ games.

``check_state_nb(state, comp)`` returns 0 if every invariant holds, else the code of the first
one broken (``CHECK_NAMES[code]``). It checks the same invariants as the Python
``check_state`` (``tests/games/maharaja/test_maharaja_checks.py`` holds the two together on
valid states and on corrupted ones); the Python one stays the reference that names the broken
value, and ``check_many.py`` runs it on a sample of games and on any state flagged here.

It imports nothing but constants from the rules module: its option test and its ranking (R40 as
written) are its own, so a wrong rules helper (a score that forgets the palaces) shows as a
broken invariant.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.compensation import compensation_high, compensation_low
from tajsim.games.maharaja.engine.enums import (
    ACT,
    C_HOUSES_PER_COLOUR,
    C_PALACES_PER_PLAYER,
    C_PENALTY,
    C_ROUND_BOXES,
    C_START_GOLD,
    C_VILLAGE_CAP,
    C_VILLAGE_CAP_2P,
    EDITION_BASIC,
    END_NONE,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TRAVELS_PER_TURN,
    MIN_PLAYERS,
    N_ACT,
    N_CARDS,
    N_CITIES,
    N_GOVERNORS,
    N_JUNCTIONS,
    N_LOCS,
    N_PAIRS,
    N_PARTS,
    N_SITES,
    N_VILLAGES,
    OPT_FREE_PALACE_SITE,
    OPT_PENALTY_PER_TURN,
    OPT_RANDOM_DRAFT,
    OPT_REVERSED_DRAFT,
    OPT_SEVERAL_PALACES,
    OPT_TEN_ROUNDS,
    OPT_UNLIMITED_HOUSES,
    PAIR_A,
    PAIR_B,
    PALACE_POINTS,
    PART_BUILD_SPENT,
    PART_PALACES,
    PART_PENALTIES_IN,
    PART_START,
    PART_TOLLS_IN,
    PART_TOLLS_OUT,
    PHASE_DRAFT,
    PHASE_GAME_OVER,
    PHASE_MOVE_TO,
    PHASE_PICK,
    PHASE_REPLACE,
    PHASE_SETUP_HOUSE,
    PHASE_TURN,
    RULES_EDITION_MASK,
    S_ACTED,
    S_ARCH,
    S_BOX,
    S_CARD_OF,
    S_CARD_OWNER,
    S_CENTRAL,
    S_CHOSEN,
    S_COUNTER,
    S_CUR,
    S_DRAFT_SEAT,
    S_END_CAUSE,
    S_END_ROUND,
    S_GOLD,
    S_GOV_POS,
    S_GOV_TOP,
    S_HOUSES,
    S_HOUSES_BUILT,
    S_LOC_TOTAL,
    S_MAHARAJA,
    S_MONK_TOLLS,
    S_MOVE_FROM,
    S_N_PLAYERS,
    S_N_TURNS,
    S_PALACE_ROUND,
    S_PALACES,
    S_PARTS,
    S_PEN_BY_ACT,
    S_PEN_COUNT,
    S_PHASE,
    S_PICK,
    S_POOL,
    S_QUARRY,
    S_RANK,
    S_REVEALED,
    S_ROUND,
    S_ROUND_BOX,
    S_RULES,
    S_SITE,
    S_T_CHAR_ALLOWED,
    S_T_CHAR_DONE,
    S_T_CITY_BUILT,
    S_T_GOV_ALLOWED,
    S_T_GOV_DONE,
    S_T_HOUSES_ALLOWED,
    S_T_MIN_CITY,
    S_T_MOVES_ALLOWED,
    S_T_MOVES_DONE,
    S_T_PAL_ALLOWED,
    S_T_PAL_BUILT,
    S_T_SLOT0,
    S_T_SLOT1,
    S_T_TRAVELS,
    S_T_VILLAGE_BUILT,
    S_TOLL_BY_VILLAGE,
    S_TURN_PLAYER,
    S_VISIT_CITY,
    S_WINNER,
    SITE_CENTRE,
    SITE_EMPTY,
    SITE_NEUTRAL,
    START,
    TRACK_SIZE,
    TRACK_START_BOXES,
)

P = MAX_PLAYERS
CHECK_NAMES = (
    "ok",
    "players, phase, seat to move or round out of range",
    "character cards inconsistent",
    "gold differs from the sum of its parts, or a part has the wrong sign",
    "tolls not conserved (received = paid + bank for the Monk = by village)",
    "penalties inconsistent with the actions left unperformed",
    "houses: location totals, village caps, or 20 per colour",
    "palaces: counts, one per seat per city, centre first, neutral palaces or rounds",
    "governor track inconsistent",
    "Maharaja or an architect off the board",
    "picks, reveals or the turn's allowances inconsistent",
    "a house lifted for a move is not there",
    "revealed actions do not match the turns played",
    "ranks, winners or the end cause inconsistent",
)


@njit(cache=True)
def option_set(state, bit):
    """Whether rule option ``bit`` is on in the state's rules code."""
    return (state[S_RULES] >> bit) & 1 == 1


@njit(cache=True)
def ranks_above(state, o, q):
    """Whether seat ``o`` finishes above seat ``q`` by R40 as written: more palaces, then more
    gold, then the lower character card (not through the rules module's combined score)."""
    if state[S_PALACES + o] != state[S_PALACES + q]:
        return state[S_PALACES + o] > state[S_PALACES + q]
    if state[S_GOLD + o] != state[S_GOLD + q]:
        return state[S_GOLD + o] > state[S_GOLD + q]
    return state[S_CARD_OF + o] < state[S_CARD_OF + q]


@njit(cache=True)
def draft_position(state, n, q):
    """When seat ``q`` drafts (0 = first), -1 if it never does."""
    for k in range(n):
        if state[S_DRAFT_SEAT + k] == q:
            return k
    return -1


@njit(cache=True)
def draft_order_ok(state, n):
    """R3 and the variants V1/V2: the draft order is a permutation of the seats, seat order by
    default, reversed under OPT_REVERSED_DRAFT alone, and the current seat drafts now."""
    seen = 0
    for k in range(P):
        q = state[S_DRAFT_SEAT + k]
        if k >= n:
            if q != -1:
                return False
            continue
        if q < 0 or q >= n or (seen >> q) & 1:
            return False
        seen |= 1 << q
        if not (state[S_RULES] >> OPT_RANDOM_DRAFT) & 1:
            want = n - 1 - k if (state[S_RULES] >> OPT_REVERSED_DRAFT) & 1 else k
            if q != want:
                return False
    if state[S_PHASE] == PHASE_DRAFT and state[S_CUR] != state[S_DRAFT_SEAT + state[S_COUNTER]]:
        return False
    return True


@njit(cache=True)
def _cards(state, n, phase, cur):
    for k in range(N_CARDS):
        q = state[S_CARD_OWNER + k]
        if q < -1 or q >= n or (q >= 0 and state[S_CARD_OF + q] != k):
            return False
    if not draft_order_ok(state, n):
        return False
    for q in range(n):
        k = state[S_CARD_OF + q]
        if k >= 0:
            if state[S_CARD_OWNER + k] != q:
                return False
        elif phase == PHASE_DRAFT:
            if draft_position(state, n, q) < state[S_COUNTER]:
                return False
        elif not (phase == PHASE_REPLACE and q == cur):
            return False
    for q in range(n, P):
        if state[S_CARD_OF + q] != -1 or state[S_GOLD + q] != 0:
            return False
    return True


@njit(cache=True)
def _gold(state, comp, n):
    for q in range(n):
        base = S_PARTS + q * N_PARTS
        total = 0
        for k in range(1, N_PARTS):
            v = state[base + k]
            total += v
            if k == PART_BUILD_SPENT or k == PART_TOLLS_OUT:
                if v > 0:
                    return False
            elif v < 0:
                return False
        if state[S_GOLD + q] < 0 or state[S_GOLD + q] != total:
            return False
        start = state[base + PART_START] - comp[C_START_GOLD]
        if not (compensation_low(state[S_RULES], q) <= start
                <= compensation_high(state[S_RULES], q)):
            return False
        if state[base + PART_PALACES] != PALACE_POINTS * state[S_PALACES + q]:
            return False
    return True


@njit(cache=True)
def _tolls(state, n):
    t_in = 0
    t_out = 0
    for q in range(n):
        t_in += state[S_PARTS + q * N_PARTS + PART_TOLLS_IN]
        t_out -= state[S_PARTS + q * N_PARTS + PART_TOLLS_OUT]
    by_village = 0
    for v in range(N_VILLAGES):
        by_village += state[S_TOLL_BY_VILLAGE + v]
    return t_in == t_out + state[S_MONK_TOLLS] and by_village == t_in


@njit(cache=True)
def _penalties(state, comp, n):
    missed = 0
    for q in range(n):
        missed += state[S_PEN_COUNT + q]
    by_act = 0
    for q in range(P):
        for a in range(N_ACT):
            v = state[S_PEN_BY_ACT + q * N_ACT + a]
            if (q >= n and v != 0) or (a == ACT.GOLD and v != 0):
                return False
            by_act += v
        if q < n:
            own = 0
            for a in range(N_ACT):
                own += state[S_PEN_BY_ACT + q * N_ACT + a]
            if own != state[S_PEN_COUNT + q]:
                return False
    if missed != by_act:
        return False
    if not option_set(state, OPT_PENALTY_PER_TURN):
        got = 0
        for q in range(n):
            got += state[S_PARTS + q * N_PARTS + PART_PENALTIES_IN]
        if got != comp[C_PENALTY] * (n - 1) * missed:
            return False
    return True


@njit(cache=True)
def _houses(state, comp, n):
    cap = comp[C_VILLAGE_CAP_2P] if n == 2 else comp[C_VILLAGE_CAP]
    limited = not option_set(state, OPT_UNLIMITED_HOUSES)
    for q in range(P):
        on_board = 0
        for loc in range(N_LOCS):
            h = state[S_HOUSES + loc * P + q]
            if h < 0 or (q >= n and h != 0):
                return False
            on_board += h
        if q >= n:
            continue
        if state[S_POOL + q] < 0 or state[S_QUARRY + q] < 0:
            return False
        if limited and state[S_POOL + q] + state[S_QUARRY + q] + on_board != \
                comp[C_HOUSES_PER_COLOUR]:
            return False
        if state[S_HOUSES_BUILT + q] != on_board:
            return False
    for loc in range(N_LOCS):
        total = 0
        for q in range(P):
            total += state[S_HOUSES + loc * P + q]
        if total != state[S_LOC_TOTAL + loc] or (loc < N_VILLAGES and total > cap):
            return False
    return True


@njit(cache=True)
def _palaces(state, comp, n, rnd):
    several = option_set(state, OPT_SEVERAL_PALACES)
    free_site = option_set(state, OPT_FREE_PALACE_SITE)
    for c in range(N_CITIES):
        base = S_SITE + c * N_SITES
        outer_owned = False
        seen = 0
        for s in range(N_SITES):
            x = state[base + s]
            if 1 <= s <= P - n:
                if x != SITE_NEUTRAL:
                    return False
                continue
            if not (x == SITE_EMPTY or 0 <= x < n):
                return False
            if x >= 0:
                if not several and (seen >> x) & 1:
                    return False
                seen |= 1 << x
                if s != SITE_CENTRE:
                    outer_owned = True
        if not free_site and outer_owned and state[base + SITE_CENTRE] < 0:
            return False
    for q in range(n):
        count = 0
        central = 0
        for c in range(N_CITIES):
            for s in range(N_SITES):
                if state[S_SITE + c * N_SITES + s] == q:
                    count += 1
                    if s == SITE_CENTRE:
                        central += 1
        if count != state[S_PALACES + q] or count > comp[C_PALACES_PER_PLAYER]:
            return False
        if central != state[S_CENTRAL + q]:
            return False
        dated = 0
        prev = 0
        for k in range(N_CITIES):
            r = state[S_PALACE_ROUND + q * N_CITIES + k]
            if r > 0:
                dated += 1
                if k < count and r < prev:
                    return False
                prev = r
            if r > rnd:
                return False
        if dated != count:
            return False
    return True


@njit(cache=True)
def _track(state, comp):
    last = TRACK_START_BOXES + comp[C_ROUND_BOXES]
    top = 0
    for g in range(N_GOVERNORS):
        pos = state[S_GOV_POS + g]
        if pos < 1 or pos > last or state[S_BOX + pos] != g:
            return False
        if pos > top:
            top = pos
    occupied = 0
    for pos in range(1, TRACK_SIZE):
        g = state[S_BOX + pos]
        if g >= 0:
            if g >= N_GOVERNORS or state[S_GOV_POS + g] != pos:
                return False
            occupied += 1
        elif g != -1:
            return False
    return occupied == N_GOVERNORS and state[S_GOV_TOP] == top


@njit(cache=True)
def _board(state, comp, n, setup, rnd):
    m = state[S_MAHARAJA]
    if setup:
        if m != START:
            return False
    else:
        if m < 0 or m >= N_CITIES or state[S_VISIT_CITY + rnd - 1] != m:
            return False
        if state[S_ROUND_BOX] < 1 or state[S_ROUND_BOX] > comp[C_ROUND_BOXES]:
            return False
    for q in range(n):
        a = state[S_ARCH + q]
        if a < 0 or a >= N_JUNCTIONS:
            return False
    return True


@njit(cache=True)
def _allowance_of(kind, which):
    """Allowance ``which`` (0 palaces, 1 houses, 2 city houses, 3 moves, 4 governor, 5 card)
    that one action of ``kind`` gives."""
    if which == 0:
        return 1 if kind == ACT.PALACE or kind == ACT.PALACE_HOUSE else 0
    if which == 1:
        if kind == ACT.TWO_HOUSES:
            return 2
        return 1 if kind == ACT.HOUSE or kind == ACT.PALACE_HOUSE else 0
    if which == 2:
        return 1 if kind == ACT.TWO_HOUSES else 0
    if which == 3:
        return 1 if kind == ACT.MOVE_HOUSE else 0
    if which == 4:
        return 1 if kind == ACT.GOVERNOR else 0
    return 1 if kind == ACT.CHARACTER else 0


@njit(cache=True)
def _turns(state, n, phase, cur):
    if phase == PHASE_PICK:
        k = state[S_COUNTER]
        if cur != k:
            return False
        for q in range(n):
            if (state[S_PICK + q] >= 0) != (q < k):
                return False
            if state[S_REVEALED + q] != 0 or state[S_ACTED + q] != 0:
                return False
    if phase == PHASE_TURN or phase == PHASE_MOVE_TO or phase == PHASE_REPLACE:
        tp = state[S_TURN_PLAYER]
        if tp < 0 or tp >= n or state[S_REVEALED + tp] != 1 or state[S_ACTED + tp] != 0:
            return False
        if phase != PHASE_REPLACE and cur != tp:
            return False
        for q in range(n):
            if state[S_PICK + q] < 0 or state[S_PICK + q] >= N_PAIRS:
                return False
            if state[S_ACTED + q] == 1 and state[S_REVEALED + q] != 1:
                return False
        pair = state[S_PICK + tp]
        k0 = state[S_T_SLOT0]
        k1 = state[S_T_SLOT1]
        if k0 != PAIR_A[pair] or k1 != PAIR_B[pair]:
            return False
        slots = (S_T_PAL_ALLOWED, S_T_HOUSES_ALLOWED, S_T_MIN_CITY, S_T_MOVES_ALLOWED,
                 S_T_GOV_ALLOWED, S_T_CHAR_ALLOWED)
        for which in range(6):
            if state[slots[which]] != _allowance_of(k0, which) + _allowance_of(k1, which):
                return False
        cb = state[S_T_CITY_BUILT]
        vb = state[S_T_VILLAGE_BUILT]
        allowed = state[S_T_HOUSES_ALLOWED]
        if cb < 0 or vb < 0 or cb + vb > allowed or vb > allowed - state[S_T_MIN_CITY]:
            return False
        if not (0 <= state[S_T_PAL_BUILT] <= state[S_T_PAL_ALLOWED]):
            return False
        if not (0 <= state[S_T_MOVES_DONE] <= state[S_T_MOVES_ALLOWED]):
            return False
        if not (0 <= state[S_T_GOV_DONE] <= state[S_T_GOV_ALLOWED]):
            return False
        if not (0 <= state[S_T_CHAR_DONE] <= state[S_T_CHAR_ALLOWED]):
            return False
        if not (0 <= state[S_T_TRAVELS] <= MAX_TRAVELS_PER_TURN):
            return False
    return True


@njit(cache=True)
def check_state_nb(state, comp):
    """0 if every invariant of ``state`` (int64[STATE_SIZE]) holds, else the code
    (``CHECK_NAMES``) of the first one broken; the invariants of ``invariants.check_state``."""
    n = state[S_N_PLAYERS]
    phase = state[S_PHASE]
    cur = state[S_CUR]
    rnd = state[S_ROUND]
    if n < MIN_PLAYERS or n > P or (state[S_RULES] & RULES_EDITION_MASK) != EDITION_BASIC:
        return 1
    if phase < 0 or phase > PHASE_GAME_OVER:
        return 1
    over = phase == PHASE_GAME_OVER
    if (over and cur != -1) or (not over and (cur < 0 or cur >= n)):
        return 1
    setup = phase == PHASE_DRAFT or phase == PHASE_SETUP_HOUSE
    if (setup and rnd != 0) or (not setup and (rnd < 1 or rnd > MAX_ROUNDS)):
        return 1
    if (state[S_RULES] >> OPT_TEN_ROUNDS) & 1 and rnd > comp[C_ROUND_BOXES]:
        return 1
    if not _cards(state, n, phase, cur):
        return 2
    if not _gold(state, comp, n):
        return 3
    if not _tolls(state, n):
        return 4
    if not _penalties(state, comp, n):
        return 5
    if not _houses(state, comp, n):
        return 6
    if not _palaces(state, comp, n, rnd):
        return 7
    if not _track(state, comp):
        return 8
    if not _board(state, comp, n, setup, rnd):
        return 9
    if not _turns(state, n, phase, cur):
        return 10
    mf = state[S_MOVE_FROM]
    if phase == PHASE_MOVE_TO:
        if mf < 0 or mf >= N_LOCS or state[S_HOUSES + mf * P + cur] <= 0:
            return 11
    elif mf != -1:
        return 11
    chosen = 0
    in_turn = 0
    for q in range(n):
        for a in range(N_ACT):
            chosen += state[S_CHOSEN + q * N_ACT + a]
        if state[S_REVEALED + q] == 1 and state[S_ACTED + q] == 0:
            in_turn += 1
    if chosen != 2 * (state[S_N_TURNS] + in_turn):
        return 12
    if over:
        for q in range(n):
            rank = 1
            for o in range(n):
                if o != q and ranks_above(state, o, q):
                    rank += 1
            if state[S_RANK + q] != rank or state[S_WINNER + q] != (1 if rank == 1 else 0):
                return 13
        if state[S_END_CAUSE] == END_NONE or state[S_END_ROUND] != rnd:
            return 13
    elif state[S_END_CAUSE] != END_NONE:
        return 13
    return 0

