"""The rules of Maharaja as Numba kernels over flat ``int64`` arrays.

Two arrays carry everything:

* ``comp``: int64[COMP_SIZE], the packed components (board, gold table, costs); read only.
* ``state``: int64[STATE_SIZE], one game; layout in :mod:`tajsim.games.maharaja.engine.enums`.

The game is a state machine of decisions (``PHASE_*``): ``legal_actions_nb`` lists the legal
actions of the seat to decide (``state[S_CUR]``) and ``apply_action_nb`` applies one. Everything
that needs no decision (moving the Maharaja and the governor, revealing the pair, the gold and
quarry actions, the Trader's gold, penalties, city scoring, the end) happens inside
``apply_action_nb``. The only chance is the setup's governor order, so a game is a pure function
of its seeds and its actions. No kernel allocates; every kernel also runs uncompiled
(``NUMBA_DISABLE_JIT=1``).

Rule numbers (R1 ...) cite ``docs/games/maharaja/rules.md``.
"""

from __future__ import annotations

from tajsim.engine.arrays import borrowed
from tajsim.engine.compensation import seat_compensation
from tajsim.engine.ranking import rank_seats, ranking_key
from tajsim.engine.rng import below, game_seeds, seed_policy_streams
from tajsim.engine.targets import into_play_loop, kernel
from tajsim.games.maharaja.engine.enums import (
    ACT,
    ACTION_BUILD,
    ACTION_CARD,
    ACTION_DONE,
    ACTION_FREE_BUILD,
    ACTION_GOVERNOR,
    ACTION_MOVE_FROM,
    ACTION_MOVE_TO,
    ACTION_PALACE,
    ACTION_PICK,
    ACTION_TRAVEL,
    C_ARTISAN_COST,
    C_GOLD_ACTION,
    C_GOLD_TABLE,
    C_GOVERNOR_STEP,
    C_HOUSE_COST,
    C_HOUSES_PER_COLOUR,
    C_JUNC_NROADS,
    C_JUNC_ROADS,
    C_LONE_BONUS,
    C_PALACE_COST,
    C_PALACES_PER_PLAYER,
    C_PENALTY,
    C_PTS_ARCHITECT,
    C_PTS_CENTRE,
    C_PTS_HOUSE,
    C_PTS_OUTER,
    C_PTS_SADHU_OUTER,
    C_QUARRY_GIFT,
    C_QUARRY_TAKE,
    C_ROAD_A,
    C_ROAD_B,
    C_ROAD_NV,
    C_ROAD_VIL,
    C_ROAD_VMASK,
    C_ROUND_BOXES,
    C_START_GOLD,
    C_START_HOUSES,
    C_TOLL,
    C_TRADER_GOLD,
    C_VILLAGE_CAP,
    C_VILLAGE_CAP_2P,
    CARD,
    END_BOTH,
    END_NONE,
    END_PALACES,
    END_ROUND_CAP,
    END_TRACK,
    ENUM_SETUP_BASE,
    LOC_CITY,
    LOWER_SCORE_WINS,
    MAX_DEGREE,
    MAX_PLAYERS,
    MAX_ROAD_VILLAGES,
    MAX_ROUNDS,
    MAX_TRAVELS_PER_TURN,
    N_ACT,
    N_CARDS,
    N_CITIES,
    N_GOVERNORS,
    N_LOCS,
    N_ORDERS,
    N_PAIRS,
    N_PARTS,
    N_SITES,
    N_VILLAGES,
    OPT_FREE_PALACE_SITE,
    OPT_HALF_MONK,
    OPT_NO_LONE_BONUS,
    OPT_PENALTY_PER_TURN,
    OPT_RANDOM_DRAFT,
    OPT_REVERSED_DRAFT,
    OPT_SEVERAL_PALACES,
    OPT_STATIC_ORDER,
    OPT_TEN_ROUNDS,
    OPT_UNLIMITED_HOUSES,
    PAIR_A,
    PAIR_B,
    PALACE_POINTS,
    PART_BUILD_SPENT,
    PART_CITY,
    PART_GOLD_ACTION,
    PART_LONE,
    PART_PALACES,
    PART_PENALTIES_IN,
    PART_START,
    PART_TOLLS_IN,
    PART_TOLLS_OUT,
    PART_TRADER,
    PHASE_DRAFT,
    PHASE_GAME_OVER,
    PHASE_MOVE_TO,
    PHASE_PICK,
    PHASE_REPLACE,
    PHASE_SETUP_HOUSE,
    PHASE_TURN,
    S_ACTED,
    S_ARCH,
    S_BOX,
    S_CARD_BY_ROUND,
    S_CARD_OF,
    S_CARD_OWNER,
    S_CENTRAL,
    S_CHOSEN,
    S_COUNTER,
    S_CUR,
    S_DRAFT_SEAT,
    S_END_CAUSE,
    S_END_ROUND,
    S_FIRST_CARD,
    S_GOLD,
    S_GOV_MOVES,
    S_GOV_ORDER0,
    S_GOV_POS,
    S_GOV_TOP,
    S_HOUSE_MOVES,
    S_HOUSES,
    S_HOUSES_BUILT,
    S_LOC_TOTAL,
    S_MAHARAJA,
    S_MONK_TOLLS,
    S_MOVE_FROM,
    S_N_PLAYERS,
    S_N_TURNS,
    S_ORDER,
    S_ORDER_INDEX,
    S_PALACE_ROUND,
    S_PALACES,
    S_PARTS,
    S_PEN_BY_ACT,
    S_PEN_COUNT,
    S_PHASE,
    S_PICK,
    S_PLAY_SEED,
    S_POOL,
    S_QUARRY,
    S_RANK,
    S_REVEALED,
    S_RNG,
    S_ROUND,
    S_ROUND_BOX,
    S_RULES,
    S_SETUP_SEED,
    S_SITE,
    S_STEP,
    S_T_BUILDER_USED,
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
    S_T_QUARRY_SHORT,
    S_T_SLOT0,
    S_T_SLOT1,
    S_T_TRADER_PAID,
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
    STATE_SIZE,
    TRACK_SIZE,
    TRACK_START_BOXES,
)

P = MAX_PLAYERS
# A quarry that never runs out (OPT_UNLIMITED_HOUSES) is a quarry this large.
UNLIMITED_QUARRY = 1 << 30


# ---------------------------------------------------------------------------------------------
# Small accessors
# ---------------------------------------------------------------------------------------------
@kernel(inline="always")
def option_on(state, bit):
    """Whether rule option ``bit`` (an ``OPT_*``) is switched on in this game's rules code."""
    return (state[S_RULES] >> bit) & 1 == 1


@kernel(inline="always")
def village_cap(state, comp):
    """Houses allowed in one village: 2, or 1 with two players (R5)."""
    if state[S_N_PLAYERS] == 2:
        return comp[C_VILLAGE_CAP_2P]
    return comp[C_VILLAGE_CAP]


@kernel(inline="always")
def houses_of(state, loc, p):
    return state[S_HOUSES + loc * P + p]


@kernel(inline="always")
def holds(state, p, card):
    return state[S_CARD_OF + p] == card


@kernel
def score_of(state, p):
    """Total score of seat ``p``: the sum of its parts (PALACE_POINTS * palaces + gold)."""
    total = 0
    for k in range(N_PARTS):
        total += state[S_PARTS + p * N_PARTS + k]
    return total


@kernel(inline="always")
def palace_cost(state, comp, p):
    """12 gold, 9 for the Artisan (R38)."""
    if holds(state, p, CARD.ARTISAN):
        return comp[C_ARTISAN_COST]
    return comp[C_PALACE_COST]


@kernel(inline="always")
def road_other_end(comp, road, junction):
    a = comp[C_ROAD_A + road]
    return comp[C_ROAD_B + road] if a == junction else a


@kernel(inline="always")
def monk_share(state, toll):
    """The part of a road's ``toll`` the Wandering Monk pays himself: nothing (R10), or under
    OPT_HALF_MONK (V3, a variant) half, rounded down; the bank pays the rest."""
    if option_on(state, OPT_HALF_MONK):
        return toll // 2
    return 0


@kernel(inline="always")
def road_toll(state, comp, p, road):
    """Gold ``p`` owes for passing road ``road``'s villages, or -1 if a village on it has no
    house (R8). A village holding one of p's houses is free; otherwise each other player's
    house there costs ``C_TOLL``."""
    toll = 0
    for i in range(comp[C_ROAD_NV + road]):
        v = comp[C_ROAD_VIL + road * MAX_ROAD_VILLAGES + i]
        if state[S_LOC_TOTAL + v] == 0:
            return -1
        if houses_of(state, v, p) == 0:
            toll += state[S_LOC_TOTAL + v] * comp[C_TOLL]
    return toll


@kernel(inline="always")
def can_place_at(state, comp, p, loc):
    """Location rule for a house arriving at ``loc`` (R19): a village below its cap, or the city
    where p's architect stands."""
    if loc < N_VILLAGES:
        return state[S_LOC_TOTAL + loc] < village_cap(state, comp)
    return state[S_ARCH + p] == loc - LOC_CITY


@kernel(inline="always")
def has_own_palace(state, city, p):
    for s in range(N_SITES):
        if state[S_SITE + city * N_SITES + s] == p:
            return True
    return False


@kernel(inline="always")
def palace_sites(state, comp, p):
    """Bit mask of the palace sites p may take now, where its architect stands (R21-R22)."""
    return palace_sites_at(state, comp, p, state[S_ARCH + p])


@kernel(inline="always")
def palace_sites_at(state, comp, p, city):
    """Bit mask of the palace sites p could take in junction ``city``: 1 the centre, 2 an outer
    site (R21-R22).

    0 unless ``city`` is a city where p may build (own palaces left, no own palace there unless
    OPT_SEVERAL_PALACES) and a site is free. By default the first palace of a city takes the
    centre.
    """
    if city >= START or state[S_PALACES + p] >= comp[C_PALACES_PER_PLAYER]:
        return 0
    if not option_on(state, OPT_SEVERAL_PALACES) and has_own_palace(state, city, p):
        return 0
    centre_free = state[S_SITE + city * N_SITES + SITE_CENTRE] == SITE_EMPTY
    outer_free = False
    for s in range(1, N_SITES):
        if state[S_SITE + city * N_SITES + s] == SITE_EMPTY:
            outer_free = True
            break
    mask = 0
    if centre_free:
        mask |= 1
    if outer_free and (not centre_free or option_on(state, OPT_FREE_PALACE_SITE)):
        mask |= 2
    return mask


@kernel
def city_points(state, comp, city, p):
    """Presence points of p in ``city`` (R30): architect 1, each house 1, each outer palace 1
    (2 for the Sadhu), the central palace 3."""
    pts = 0
    if state[S_ARCH + p] == city:
        pts += comp[C_PTS_ARCHITECT]
    pts += houses_of(state, LOC_CITY + city, p) * comp[C_PTS_HOUSE]
    outer = comp[C_PTS_SADHU_OUTER] if holds(state, p, CARD.SADHU) else comp[C_PTS_OUTER]
    for s in range(N_SITES):
        if state[S_SITE + city * N_SITES + s] == p:
            pts += comp[C_PTS_CENTRE] if s == SITE_CENTRE else outer
    return pts


@kernel(inline="always")
def add_gold(state, p, amount, part):
    state[S_GOLD + p] += amount
    state[S_PARTS + p * N_PARTS + part] += amount


@kernel(inline="always")
def pay_gold(state, p, amount, part):
    """p pays ``amount`` (recorded as a negative ``part``)."""
    state[S_GOLD + p] -= amount
    state[S_PARTS + p * N_PARTS + part] -= amount


@kernel(inline="always")
def put_house(state, p, loc, delta):
    state[S_HOUSES + loc * P + p] += delta
    state[S_LOC_TOTAL + loc] += delta


# ---------------------------------------------------------------------------------------------
# Governor track (R2, R25-R27)
# ---------------------------------------------------------------------------------------------
@kernel(inline="always")
def bottom_governor_pos(state):
    pos = 1
    while state[S_BOX + pos] < 0:
        pos += 1
    return pos


@kernel(inline="always")
def refresh_top(state):
    pos = state[S_GOV_TOP]
    while pos > 1 and state[S_BOX + pos] < 0:
        pos -= 1
    state[S_GOV_TOP] = pos


@kernel(inline="always")
def governor_can_move(state, comp, city):
    """A governor moves exactly ``C_GOVERNOR_STEP`` (2) boxes down; it needs that many boxes of
    track below it (R26)."""
    return state[S_GOV_POS + city] - comp[C_GOVERNOR_STEP] >= 1


@kernel(inline="always")
def move_governor(state, comp, city):
    """Move ``city``'s governor 2 boxes down; each governor in a box it passes moves 1 box up
    (R25): the one just below takes the vacated box, the one below that the next, and so on."""
    step = comp[C_GOVERNOR_STEP]
    pos = state[S_GOV_POS + city]
    for k in range(1, step + 1):
        g = state[S_BOX + pos - k]
        state[S_BOX + pos - k + 1] = g
        if g >= 0:
            state[S_GOV_POS + g] = pos - k + 1
    state[S_BOX + pos - step] = city
    state[S_GOV_POS + city] = pos - step
    refresh_top(state)


@kernel
def decode_order(index, state):
    """Write governor order ``index`` (0..5039, the Lehmer code) into the start boxes: the k-th
    digit (factorial base, most significant first) picks the k-th unused city in index order
    for box k + 1."""
    used = 0
    rest = index
    fact = 720  # 6!
    for k in range(N_GOVERNORS):
        digit = rest // fact
        rest = rest % fact
        if k < N_GOVERNORS - 1:
            fact = fact // (N_GOVERNORS - 1 - k)
        c = 0
        while True:
            if (used >> c) & 1 == 0:
                if digit == 0:
                    break
                digit -= 1
            c += 1
        used |= 1 << c
        state[S_BOX + 1 + k] = c
        state[S_GOV_POS + c] = 1 + k
        state[S_GOV_ORDER0 + k] = c


# ---------------------------------------------------------------------------------------------
# Setup (R3-R7)
# ---------------------------------------------------------------------------------------------
@kernel
def init_state_nb(comp, n_players, rules, setup_seed, play_seed, order_index, state):
    """Set up a game in ``state`` (int64[STATE_SIZE]) up to the character draft.

    Parameters
    ----------
    comp : int64[COMP_SIZE]
    n_players : int, 2..5
    rules : int, the rules code (edition + option bits)
    setup_seed, play_seed : int64, the setup and chance streams' seeds
    order_index : int, the governor order (0..5039), or -1 to draw it from the setup stream
    state : int64[STATE_SIZE], overwritten
    """
    for i in range(STATE_SIZE):
        state[i] = 0
    state[S_N_PLAYERS] = n_players
    state[S_RULES] = rules
    state[S_SETUP_SEED] = setup_seed
    state[S_PLAY_SEED] = play_seed
    state[S_RNG] = setup_seed
    if order_index < 0:
        order_index = below(state, S_RNG, 5040)
    # R3: the draft runs seat 0, 1, ...; V1 reverses it, V2 draws it from the setup stream
    # (after the governor order), so it is a function of the setup alone.
    for k in range(P):
        state[S_DRAFT_SEAT + k] = k if k < n_players else -1
    if option_on(state, OPT_RANDOM_DRAFT):
        for k in range(n_players - 1, 0, -1):
            j = below(state, S_RNG, k + 1)
            tmp = state[S_DRAFT_SEAT + k]
            state[S_DRAFT_SEAT + k] = state[S_DRAFT_SEAT + j]
            state[S_DRAFT_SEAT + j] = tmp
    elif option_on(state, OPT_REVERSED_DRAFT):
        for k in range(n_players):
            state[S_DRAFT_SEAT + k] = n_players - 1 - k
    state[S_RNG] = play_seed
    state[S_ORDER_INDEX] = order_index
    state[S_MAHARAJA] = START
    state[S_MOVE_FROM] = -1
    state[S_TURN_PLAYER] = -1
    for pos in range(TRACK_SIZE):
        state[S_BOX + pos] = -1
    decode_order(order_index, state)
    state[S_GOV_TOP] = TRACK_START_BOXES
    for k in range(N_CARDS):
        state[S_CARD_OWNER + k] = -1
    unlimited = option_on(state, OPT_UNLIMITED_HOUSES)
    for p in range(P):
        state[S_CARD_OF + p] = -1
        state[S_FIRST_CARD + p] = -1
        state[S_PICK + p] = -1
        if p >= n_players:
            continue
        state[S_ARCH + p] = START
        add_gold(state, p, comp[C_START_GOLD], PART_START)
        # The seat-compensation variant (not the rules): extra starting gold, 0 by default.
        add_gold(state, p, seat_compensation(rules, p, play_seed), PART_START)
        state[S_POOL + p] = comp[C_START_HOUSES]
        if unlimited:
            state[S_QUARRY + p] = UNLIMITED_QUARRY
        else:
            state[S_QUARRY + p] = comp[C_HOUSES_PER_COLOUR] - comp[C_START_HOUSES]
    # R4: one outer palace of every unused colour in every city
    for c in range(N_CITIES):
        for s in range(N_SITES):
            state[S_SITE + c * N_SITES + s] = SITE_EMPTY
        for s in range(1, 1 + P - n_players):
            state[S_SITE + c * N_SITES + s] = SITE_NEUTRAL
    for r in range(MAX_ROUNDS):
        state[S_VISIT_CITY + r] = -1
        for p in range(P):
            state[S_CARD_BY_ROUND + r * P + p] = -1
    state[S_PHASE] = PHASE_DRAFT
    state[S_CUR] = state[S_DRAFT_SEAT]


@kernel
def seat_by_card_rank(state, k):
    """The seat holding the k-th lowest character card."""
    state = borrowed(state)
    n = state[S_N_PLAYERS]
    for card in range(N_CARDS):
        q = state[S_CARD_OWNER + card]
        if q >= 0:
            if k == 0:
                return q
            k -= 1
    return n - 1  # unreachable: every seat holds a card


# ---------------------------------------------------------------------------------------------
# Rounds and turns
# ---------------------------------------------------------------------------------------------
@kernel
def start_round(state, comp):
    """Phases 1-2 (R1-R2): the Maharaja goes to the city of the lowest governor, which moves
    above the topmost one; then the secret choice begins."""
    state[S_ROUND] += 1
    bottom = bottom_governor_pos(state)
    city = state[S_BOX + bottom]
    state[S_MAHARAJA] = city
    state[S_BOX + bottom] = -1
    top = state[S_GOV_TOP] + 1
    state[S_BOX + top] = city
    state[S_GOV_POS + city] = top
    state[S_GOV_TOP] = top
    state[S_ROUND_BOX] = top - TRACK_START_BOXES
    state[S_VISIT_CITY + state[S_ROUND] - 1] = city
    n = state[S_N_PLAYERS]
    for p in range(n):
        state[S_PICK + p] = -1
        state[S_REVEALED + p] = 0
        state[S_ACTED + p] = 0
    state[S_COUNTER] = 0
    state[S_PHASE] = PHASE_PICK
    state[S_CUR] = 0
    state[S_TURN_PLAYER] = -1


@kernel
def next_turn_player(state):
    """Who acts next (R14-R15): the seat that has not acted with the lowest card now held, or
    (OPT_STATIC_ORDER) the next seat of the order fixed at the reveal; -1 when all acted."""
    n = state[S_N_PLAYERS]
    if option_on(state, OPT_STATIC_ORDER):
        for i in range(n):
            q = state[S_ORDER + i]
            if state[S_ACTED + q] == 0:
                return q
        return -1
    best = -1
    best_card = N_CARDS
    for q in range(n):
        if state[S_ACTED + q] == 0 and state[S_CARD_OF + q] < best_card:
            best_card = state[S_CARD_OF + q]
            best = q
    return best


@kernel
def begin_turns(state, comp):
    """Every pick is made: fix the reveal order (R15) and start the first turn."""
    state = borrowed(state)
    comp = borrowed(comp)
    for i in range(state[S_N_PLAYERS]):
        state[S_ORDER + i] = seat_by_card_rank(state, i)
    start_turn(state, comp, next_turn_player(state))


@kernel
def start_turn(state, comp, p):
    """Reveal p's pair and do what needs no decision (R12-R13, R34): the gold action, the
    quarry action and the Trader's gold; set the turn's allowances."""
    state = borrowed(state)
    comp = borrowed(comp)
    state[S_TURN_PLAYER] = p
    state[S_REVEALED + p] = 1
    pair = state[S_PICK + p]
    state[S_T_SLOT0] = PAIR_A[pair]
    state[S_T_SLOT1] = PAIR_B[pair]
    for k in range(S_T_PAL_ALLOWED, S_T_TRAVELS + 1):
        state[k] = 0
    for i in range(2):
        kind = state[S_T_SLOT0 + i]
        state[S_CHOSEN + p * N_ACT + kind] += 1
        if kind == ACT.GOLD:
            add_gold(state, p, comp[C_GOLD_ACTION], PART_GOLD_ACTION)
        elif kind == ACT.HOUSE:
            state[S_T_HOUSES_ALLOWED] += 1
        elif kind == ACT.TWO_HOUSES:
            state[S_T_HOUSES_ALLOWED] += 2
            state[S_T_MIN_CITY] += 1
        elif kind == ACT.MOVE_HOUSE:
            state[S_T_MOVES_ALLOWED] += 1
        elif kind == ACT.QUARRY:
            take = comp[C_QUARRY_TAKE]
            if state[S_QUARRY + p] < take:
                take = state[S_QUARRY + p]
                state[S_T_QUARRY_SHORT] += 1
            if not option_on(state, OPT_UNLIMITED_HOUSES):
                state[S_QUARRY + p] -= take
            state[S_POOL + p] += take
        elif kind == ACT.PALACE:
            state[S_T_PAL_ALLOWED] += 1
        elif kind == ACT.PALACE_HOUSE:
            state[S_T_PAL_ALLOWED] += 1
            state[S_T_HOUSES_ALLOWED] += 1
        elif kind == ACT.GOVERNOR:
            state[S_T_GOV_ALLOWED] += 1
        else:
            state[S_T_CHAR_ALLOWED] += 1
    if holds(state, p, CARD.TRADER):
        add_gold(state, p, comp[C_TRADER_GOLD], PART_TRADER)
        state[S_T_TRADER_PAID] = 1
    state[S_PHASE] = PHASE_TURN
    state[S_CUR] = p


@kernel(inline="always")
def assign_build(kind, r0, r1, r2):
    """Assign built items to one build-type action if they suffice (R18).

    ``r0, r1, r2`` are the palaces, city houses and village houses still unassigned. A house
    that may stand anywhere takes a village house first, which never hurts another action
    (only city houses serve the two-houses action's city house). Returns ``(ok, r0, r1, r2)``.
    """
    if kind == ACT.HOUSE:
        if r2 > 0:
            return 1, r0, r1, r2 - 1
        if r1 > 0:
            return 1, r0, r1 - 1, r2
    elif kind == ACT.TWO_HOUSES:
        if r1 >= 1 and r1 - 1 + r2 >= 1:
            if r2 > 0:
                return 1, r0, r1 - 1, r2 - 1
            return 1, r0, r1 - 2, r2
    elif kind == ACT.PALACE:
        if r0 > 0:
            return 1, r0 - 1, r1, r2
    elif kind == ACT.PALACE_HOUSE:
        if r0 > 0 and r1 + r2 > 0:
            if r2 > 0:
                return 1, r0 - 1, r1, r2 - 1
            return 1, r0 - 1, r1 - 1, r2
    return 0, r0, r1, r2


@kernel(inline="always")
def is_build_kind(kind):
    return (kind == ACT.HOUSE or kind == ACT.TWO_HOUSES or kind == ACT.PALACE
            or kind == ACT.PALACE_HOUSE)


@kernel
def performed_mask_of(k0, k1, pb, cb, vb, moves, govs, chars, short):
    """Bit i set if the action of kind ``k0`` (i = 0) / ``k1`` (i = 1) counts as carried out
    (R17-R18), given the palaces ``pb``, city houses ``cb`` and village houses ``vb`` paid for,
    the moves, governor moves and card takes done and the quarry actions ``short`` of houses.

    Builds are assigned to the two actions in the order that completes most of them. Moves,
    governor moves and card takes count against the actions of their kind; the quarry is
    carried out unless it gave fewer than 2 houses; the gold action always is."""
    # builds: try slot 0 first, then slot 1 first; keep the better
    best_mask = 0
    best_n = -1
    for first in range(2):
        r0 = pb
        r1 = cb
        r2 = vb
        mask = 0
        for j in range(2):
            slot = first if j == 0 else 1 - first
            kind = k0 if slot == 0 else k1
            if not is_build_kind(kind):
                continue
            ok, r0, r1, r2 = assign_build(kind, r0, r1, r2)
            if ok:
                mask |= 1 << slot
        n_ok = (mask & 1) + (mask >> 1)
        if n_ok > best_n:
            best_n = n_ok
            best_mask = mask
    mask = best_mask
    for slot in range(2):
        kind = k0 if slot == 0 else k1
        if kind == ACT.GOLD:
            mask |= 1 << slot
        elif kind == ACT.QUARRY:
            if short > 0:
                short -= 1
            else:
                mask |= 1 << slot
        elif kind == ACT.MOVE_HOUSE:
            if moves > 0:
                moves -= 1
                mask |= 1 << slot
        elif kind == ACT.GOVERNOR:
            if govs > 0:
                govs -= 1
                mask |= 1 << slot
        elif kind == ACT.CHARACTER:
            if chars > 0:
                chars -= 1
                mask |= 1 << slot
    return mask


@kernel
def performed_mask(state):
    """``performed_mask_of`` for the turn player's actions and what the turn did so far."""
    return performed_mask_of(state[S_T_SLOT0], state[S_T_SLOT1], state[S_T_PAL_BUILT],
                             state[S_T_CITY_BUILT], state[S_T_VILLAGE_BUILT],
                             state[S_T_MOVES_DONE], state[S_T_GOV_DONE], state[S_T_CHAR_DONE],
                             state[S_T_QUARRY_SHORT])


@kernel
def end_turn(state, comp):
    """The turn player is done (R16-R17): every action not carried out pays each other player
    ``C_PENALTY`` gold from the bank (once per turn with OPT_PENALTY_PER_TURN); then the next
    seat acts, or the round is scored."""
    state = borrowed(state)
    comp = borrowed(comp)
    p = state[S_TURN_PLAYER]
    n = state[S_N_PLAYERS]
    mask = performed_mask(state)
    missed = 0
    for slot in range(2):
        if (mask >> slot) & 1 == 0:
            missed += 1
            state[S_PEN_BY_ACT + p * N_ACT + state[S_T_SLOT0 + slot]] += 1
    state[S_PEN_COUNT + p] += missed
    payments = missed
    if missed > 0 and option_on(state, OPT_PENALTY_PER_TURN):
        payments = 1
    for q in range(n):
        if q != p:
            add_gold(state, q, payments * comp[C_PENALTY], PART_PENALTIES_IN)
    state[S_ACTED + p] = 1
    state[S_N_TURNS] += 1
    nxt = next_turn_player(state)
    if nxt >= 0:
        start_turn(state, comp, nxt)
    else:
        score_round(state, comp)


@kernel
def score_round(state, comp):
    """Phase 5 (R30-R32): score the Maharaja's city, then end the game or start a round."""
    state = borrowed(state)
    comp = borrowed(comp)
    n = state[S_N_PLAYERS]
    city = state[S_MAHARAJA]
    rnd = state[S_ROUND]
    for p in range(n):
        state[S_CARD_BY_ROUND + (rnd - 1) * P + p] = state[S_CARD_OF + p]
    # rank the scorers: points down, ties to the lower card; a selection over <= 5 seats
    taken = 0
    n_scorers = 0
    for p in range(n):
        if city_points(state, comp, city, p) > 0:
            n_scorers += 1
    for r in range(n_scorers):
        best = -1
        best_pts = 0
        for p in range(n):
            if (taken >> p) & 1:
                continue
            pts = city_points(state, comp, city, p)
            if pts <= 0:
                continue
            if (best < 0 or pts > best_pts
                    or (pts == best_pts and state[S_CARD_OF + p] < state[S_CARD_OF + best])):
                best = p
                best_pts = pts
        taken |= 1 << best
        add_gold(state, best, comp[C_GOLD_TABLE + n * P + r], PART_CITY)
        if n_scorers == 1 and not option_on(state, OPT_NO_LONE_BONUS):
            add_gold(state, best, comp[C_LONE_BONUS], PART_LONE)
    # R39: end after this scoring if a 7th palace stands or the governor reached the last box;
    # with OPT_TEN_ROUNDS after round 10 (as many rounds as round boxes) whatever the track
    # shows. The round box never runs ahead of the round (R27 only lowers the top), so the
    # option can only end a game sooner, never later.
    seventh = False
    for p in range(n):
        if state[S_PALACES + p] >= comp[C_PALACES_PER_PLAYER]:
            seventh = True
    track = state[S_ROUND_BOX] >= comp[C_ROUND_BOXES] or (
        option_on(state, OPT_TEN_ROUNDS) and rnd >= comp[C_ROUND_BOXES])
    cause = END_NONE
    if seventh and track:
        cause = END_BOTH
    elif seventh:
        cause = END_PALACES
    elif track:
        cause = END_TRACK
    elif rnd >= MAX_ROUNDS:
        cause = END_ROUND_CAP
    if cause != END_NONE:
        finish_game(state, cause)
    else:
        start_round(state, comp)


@kernel
def finish_game(state, cause):
    """Ranks (R40): most palaces, then most gold, then the lower character card."""
    n = state[S_N_PLAYERS]
    state[S_END_CAUSE] = cause
    state[S_END_ROUND] = state[S_ROUND]
    for p in range(n):
        lower_card = N_CARDS - state[S_CARD_OF + p]
        state[S_RANK + p] = ranking_key(score_of(state, p), lower_card, LOWER_SCORE_WINS)
    rank_seats(state, n, S_RANK, S_WINNER)
    state[S_PHASE] = PHASE_GAME_OVER
    state[S_CUR] = -1
    state[S_TURN_PLAYER] = -1


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------
@kernel(inline="always")
def can_move_house(state, p):
    """A move allowance left: a move-house action, else the Builder's bonus (R20, R37)."""
    if state[S_T_MOVES_DONE] < state[S_T_MOVES_ALLOWED]:
        return True
    return holds(state, p, CARD.BUILDER) and state[S_T_BUILDER_USED] == 0


@kernel(inline="always")
def legal_turn(state, comp, p, legal):
    n_leg = 0
    legal[n_leg] = ACTION_DONE
    n_leg += 1
    # One pass over the villages: those with room (a bit each, for the build and move
    # listings below) and the empty ones, which close the roads through them (R8).
    cap = village_cap(state, comp)
    free = 0
    free_villages = 0
    empty = 0
    for v in range(N_VILLAGES):
        total = state[S_LOC_TOTAL + v]
        if total < cap:
            free |= 1 << v
            free_villages += 1
        if total == 0:
            empty |= 1 << v
    # travel (R8-R9)
    here = state[S_ARCH + p]
    if state[S_T_TRAVELS] < MAX_TRAVELS_PER_TURN:
        monk = holds(state, p, CARD.MONK)
        half_monk = option_on(state, OPT_HALF_MONK)
        gold = state[S_GOLD + p]
        for i in range(comp[C_JUNC_NROADS + here]):
            road = comp[C_JUNC_ROADS + here * MAX_DEGREE + i]
            if comp[C_ROAD_VMASK + road] & empty:
                continue  # a village on it has no house
            # The toll is at most C_TOLL for every house its villages can hold (no village
            # holds more than its cap: checks_nb), so it is counted only when that much
            # could exceed the gold.
            if gold < comp[C_ROAD_NV + road] * cap * comp[C_TOLL]:
                if not monk:
                    if road_toll(state, comp, p, road) > gold:
                        continue
                elif half_monk and monk_share(state, road_toll(state, comp, p, road)) > gold:
                    continue
            legal[n_leg] = ACTION_TRAVEL + road
            n_leg += 1
    # paid houses (R18-R19) and the Builder's free house (R37)
    city_loc = LOC_CITY + here if here < START else -1
    if state[S_POOL + p] > 0:
        built = state[S_T_CITY_BUILT] + state[S_T_VILLAGE_BUILT]
        if built < state[S_T_HOUSES_ALLOWED] and state[S_GOLD + p] >= comp[C_HOUSE_COST]:
            room = state[S_T_HOUSES_ALLOWED] - state[S_T_MIN_CITY]
            if state[S_T_VILLAGE_BUILT] < room:
                for v in range(N_VILLAGES):
                    if (free >> v) & 1:
                        legal[n_leg] = ACTION_BUILD + v
                        n_leg += 1
            if city_loc >= 0:
                legal[n_leg] = ACTION_BUILD + city_loc
                n_leg += 1
        if holds(state, p, CARD.BUILDER) and state[S_T_BUILDER_USED] == 0:
            for v in range(N_VILLAGES):
                if (free >> v) & 1:
                    legal[n_leg] = ACTION_FREE_BUILD + v
                    n_leg += 1
            if city_loc >= 0:
                legal[n_leg] = ACTION_FREE_BUILD + city_loc
                n_leg += 1
    # moving a house: a source with a possible destination (R20)
    if can_move_house(state, p):
        for loc in range(N_LOCS):
            if state[S_HOUSES + loc * P + p] == 0:
                continue
            dests = free_villages
            if loc < N_VILLAGES and (free >> loc) & 1:
                dests -= 1  # not back into the same village
            if city_loc >= 0 and city_loc != loc:
                dests += 1
            if dests > 0:
                legal[n_leg] = ACTION_MOVE_FROM + loc
                n_leg += 1
    # palace (R21-R23)
    if (state[S_T_PAL_BUILT] < state[S_T_PAL_ALLOWED]
            and state[S_GOLD + p] >= palace_cost(state, comp, p)):
        sites = palace_sites(state, comp, p)
        if sites & 1:
            legal[n_leg] = ACTION_PALACE
            n_leg += 1
        if sites & 2:
            legal[n_leg] = ACTION_PALACE + 1
            n_leg += 1
    # governor (R25-R26)
    if state[S_T_GOV_DONE] < state[S_T_GOV_ALLOWED]:
        for c in range(N_GOVERNORS):
            if governor_can_move(state, comp, c):
                legal[n_leg] = ACTION_GOVERNOR + c
                n_leg += 1
    # character (R28)
    if state[S_T_CHAR_DONE] < state[S_T_CHAR_ALLOWED]:
        mine = state[S_CARD_OF + p]
        for k in range(N_CARDS):
            if k != mine:
                legal[n_leg] = ACTION_CARD + k
                n_leg += 1
    return n_leg


@kernel(inline=into_play_loop)
def legal_actions_nb(state, comp, legal):
    """Write the legal actions of the seat to decide into ``legal[:n]`` and return ``n``.

    Parameters
    ----------
    state : int64[STATE_SIZE]
    comp : int64[COMP_SIZE]
    legal : int64[N_ACTIONS], scratch (out)

    Returns
    -------
    int : the number of legal actions, in increasing action order; 0 when the game is over.
    """
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    phase = state[S_PHASE]
    n_leg = 0
    if phase == PHASE_PICK:
        for k in range(N_PAIRS):
            legal[k] = ACTION_PICK + k
        return N_PAIRS
    if phase == PHASE_TURN:
        return legal_turn(state, comp, state[S_CUR], legal)
    if phase == PHASE_MOVE_TO:
        p = state[S_CUR]
        src = state[S_MOVE_FROM]
        for loc in range(N_LOCS):
            if loc != src and can_place_at(state, comp, p, loc):
                legal[n_leg] = ACTION_MOVE_TO + loc
                n_leg += 1
        return n_leg
    if phase == PHASE_DRAFT or phase == PHASE_REPLACE:
        for k in range(N_CARDS):
            if state[S_CARD_OWNER + k] < 0:
                legal[n_leg] = ACTION_CARD + k
                n_leg += 1
        return n_leg
    if phase == PHASE_SETUP_HOUSE:
        cap = village_cap(state, comp)
        for v in range(N_VILLAGES):
            if state[S_LOC_TOTAL + v] < cap:
                legal[n_leg] = ACTION_BUILD + v
                n_leg += 1
        return n_leg
    return 0


# ---------------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------------
@kernel(inline="always")
def travel(state, comp, p, road):
    """Move p's architect along ``road`` (R8-R10): each village passed that holds none of p's
    houses pays its owners ``C_TOLL`` per house; the bank pays for the Wandering Monk."""
    monk = holds(state, p, CARD.MONK)
    toll = comp[C_TOLL]
    road_total = 0
    for i in range(comp[C_ROAD_NV + road]):
        v = comp[C_ROAD_VIL + road * MAX_ROAD_VILLAGES + i]
        if houses_of(state, v, p) > 0:
            continue
        for q in range(state[S_N_PLAYERS]):
            h = houses_of(state, v, q)
            if q == p or h == 0:
                continue
            amount = h * toll
            add_gold(state, q, amount, PART_TOLLS_IN)
            state[S_TOLL_BY_VILLAGE + v] += amount
            road_total += amount
    if monk:
        # V3 (OPT_HALF_MONK): the Monk pays half of the road's tolls, rounded down
        own = monk_share(state, road_total)
        state[S_MONK_TOLLS] += road_total - own
        if own > 0:
            pay_gold(state, p, own, PART_TOLLS_OUT)
    elif road_total > 0:
        pay_gold(state, p, road_total, PART_TOLLS_OUT)
    state[S_ARCH + p] = road_other_end(comp, road, state[S_ARCH + p])
    state[S_T_TRAVELS] += 1


@kernel(inline="always")
def build_palace(state, comp, p, site_kind):
    city = state[S_ARCH + p]
    site = SITE_CENTRE
    if site_kind == 1:
        site = 1
        while state[S_SITE + city * N_SITES + site] != SITE_EMPTY:
            site += 1
    state[S_SITE + city * N_SITES + site] = p
    cost = palace_cost(state, comp, p)
    pay_gold(state, p, cost, PART_BUILD_SPENT)
    state[S_PALACE_ROUND + p * N_CITIES + state[S_PALACES + p]] = state[S_ROUND]
    state[S_PALACES + p] += 1
    state[S_PARTS + p * N_PARTS + PART_PALACES] += PALACE_POINTS
    if site == SITE_CENTRE:
        state[S_CENTRAL + p] += 1
    state[S_T_PAL_BUILT] += 1


@kernel(inline="always")
def take_card(state, comp, p, card):
    """The character action (R28): p takes ``card`` from the bank or from its holder; p's card
    returns to the bank; a robbed holder picks a new card from the bank next (PHASE_REPLACE).
    A Trader taken mid-turn pays its gold at once, once per turn (R34)."""
    old = state[S_CARD_OF + p]
    state[S_CARD_OWNER + old] = -1
    victim = state[S_CARD_OWNER + card]
    state[S_CARD_OWNER + card] = p
    state[S_CARD_OF + p] = card
    state[S_T_CHAR_DONE] += 1
    if card == CARD.TRADER and state[S_T_TRADER_PAID] == 0:
        add_gold(state, p, comp[C_TRADER_GOLD], PART_TRADER)
        state[S_T_TRADER_PAID] = 1
    if victim >= 0:
        state[S_CARD_OF + victim] = -1
        state[S_PHASE] = PHASE_REPLACE
        state[S_CUR] = victim


@kernel(inline=into_play_loop)
def apply_action_nb(state, comp, action):
    """Apply legal ``action`` for the seat to decide (``state[S_CUR]``), then everything that
    follows without a decision.

    Parameters
    ----------
    state : int64[STATE_SIZE] (changed in place)
    comp : int64[COMP_SIZE]
    action : int, one of ``legal_actions_nb``'s list (not checked here)
    """
    state = borrowed(state)
    comp = borrowed(comp)
    phase = state[S_PHASE]
    p = state[S_CUR]
    n = state[S_N_PLAYERS]
    state[S_STEP] += 1
    if phase == PHASE_PICK:
        state[S_PICK + p] = action - ACTION_PICK
        state[S_COUNTER] += 1
        if state[S_COUNTER] < n:
            state[S_CUR] = state[S_COUNTER]
            return
        begin_turns(state, comp)
        return
    if phase == PHASE_TURN:
        if action == ACTION_DONE:
            end_turn(state, comp)
        elif action < ACTION_BUILD:
            travel(state, comp, p, action - ACTION_TRAVEL)
        elif action < ACTION_FREE_BUILD:
            loc = action - ACTION_BUILD
            pay_gold(state, p, comp[C_HOUSE_COST], PART_BUILD_SPENT)
            state[S_POOL + p] -= 1
            put_house(state, p, loc, 1)
            state[S_HOUSES_BUILT + p] += 1
            if loc < N_VILLAGES:
                state[S_T_VILLAGE_BUILT] += 1
            else:
                state[S_T_CITY_BUILT] += 1
        elif action < ACTION_MOVE_FROM:
            state[S_POOL + p] -= 1
            put_house(state, p, action - ACTION_FREE_BUILD, 1)
            state[S_HOUSES_BUILT + p] += 1
            state[S_T_BUILDER_USED] = 1
        elif action < ACTION_MOVE_TO:
            state[S_MOVE_FROM] = action - ACTION_MOVE_FROM
            state[S_PHASE] = PHASE_MOVE_TO
        elif action < ACTION_GOVERNOR:
            build_palace(state, comp, p, action - ACTION_PALACE)
        elif action < ACTION_CARD:
            move_governor(state, comp, action - ACTION_GOVERNOR)
            state[S_T_GOV_DONE] += 1
            state[S_GOV_MOVES + p] += 1
        else:
            take_card(state, comp, p, action - ACTION_CARD)
        return
    if phase == PHASE_MOVE_TO:
        put_house(state, p, state[S_MOVE_FROM], -1)
        put_house(state, p, action - ACTION_MOVE_TO, 1)
        state[S_MOVE_FROM] = -1
        state[S_HOUSE_MOVES + p] += 1
        if state[S_T_MOVES_DONE] < state[S_T_MOVES_ALLOWED]:
            state[S_T_MOVES_DONE] += 1
        else:
            state[S_T_BUILDER_USED] = 1
        state[S_PHASE] = PHASE_TURN
        return
    if phase == PHASE_REPLACE:
        card = action - ACTION_CARD
        state[S_CARD_OWNER + card] = p
        state[S_CARD_OF + p] = card
        state[S_PHASE] = PHASE_TURN
        state[S_CUR] = state[S_TURN_PLAYER]
        return
    if phase == PHASE_DRAFT:
        card = action - ACTION_CARD
        state[S_CARD_OWNER + card] = p
        state[S_CARD_OF + p] = card
        state[S_FIRST_CARD + p] = card
        state[S_COUNTER] += 1
        if state[S_COUNTER] < n:
            state[S_CUR] = state[S_DRAFT_SEAT + state[S_COUNTER]]
        else:
            state[S_COUNTER] = 0
            state[S_PHASE] = PHASE_SETUP_HOUSE
            state[S_CUR] = seat_by_card_rank(state, 0)
        return
    if phase == PHASE_SETUP_HOUSE:
        put_house(state, p, action - ACTION_BUILD, 1)
        state[S_POOL + p] -= 1
        state[S_HOUSES_BUILT + p] += 1
        state[S_COUNTER] += 1
        if state[S_COUNTER] < n * comp[C_START_HOUSES]:
            state[S_CUR] = seat_by_card_rank(state, state[S_COUNTER] % n)
            return
        unlimited = option_on(state, OPT_UNLIMITED_HOUSES)
        for q in range(n):  # R7: six more houses from the quarry
            state[S_POOL + q] += comp[C_QUARRY_GIFT]
            if not unlimited:
                state[S_QUARRY + q] -= comp[C_QUARRY_GIFT]
        start_round(state, comp)
        return


@kernel
def hidden_pick_count(state, player):
    """How many other seats hold a pick that ``player`` cannot see yet."""
    count = 0
    for q in range(state[S_N_PLAYERS]):
        if q != player and state[S_PICK + q] >= 0 and state[S_REVEALED + q] == 0:
            count += 1
    return count


@kernel
def start_game_nb(comp, n_players, edition, master_seed, game_id, setup_id, state, prng):
    """Set up game ``game_id`` in ``state`` and seed the seats' policy streams in ``prng``.

    ``edition`` is the rules code (edition index + option bits). The governor order is drawn
    from the setup stream of (master_seed, setup_id), unless ``setup_id`` is
    ``ENUM_SETUP_BASE + k`` (k < 5040), which names order k.
    """
    setup_seed, play_seed = game_seeds(master_seed, game_id, setup_id)
    order = setup_id - ENUM_SETUP_BASE
    if order < 0 or order >= N_ORDERS:
        order = -1
    init_state_nb(comp, n_players, edition, setup_seed, play_seed, order, state)
    seed_policy_streams(play_seed, prng)


@kernel
def current_player_nb(state):
    """Seat to decide, -1 when the game is over."""
    return -1 if state[S_PHASE] == PHASE_GAME_OVER else state[S_CUR]


@kernel
def phase_nb(state):
    """The decision phase (``PHASE_*``)."""
    return state[S_PHASE]
