"""The parametric heuristic family and ``greedy``: one compiled policy, behaviour set by weights.

Every decision scores each legal action by its immediate effect, in fixed-point gold (weights
become integers ``w * WEIGHT_ONE``; no float is compared, so a GPU takes the same decisions):

* **Pick** (the secret pair). Each of the nine actions is valued for this round from what the
  seat can see: the best palace city it can reach and afford (palace weight, the centre, the
  presence points it adds where the Maharaja goes soon, minus the tolls on the cheapest route),
  the best houses (a city house by the gold its presence point earns at the city's next scoring,
  a village house by the traffic of its road and the access it gives), the best house move,
  the quarry while the pool is low, the gold action, the best governor move (a city where the
  seat would earn more than the others, brought forward), the best character card. A pair's
  value adds its two actions under the gold budget of the turn (the gold action and the Trader
  pay first; a two-houses action's city house pays the tolls to the nearest city unless a
  palace takes the architect to one); an action that cannot be carried out costs the penalty it
  gives the others (the penalty times the other seats, at least two).
* **Turn.** Each legal step is scored: a palace, a house (and the Builder's free house), a
  move, the governor, a card, a road towards the best city to be in (what can be built there,
  the architect's presence point in the Maharaja's city, minus the tolls on the way). A step
  that carries out a chosen action also saves the penalty, and a step that spends the gold or
  takes the house a chosen action still needs pays it (``pending_penalty``: a journey's tolls,
  a palace, the Builder's free house). ``done`` scores 0, so the turn ends when nothing is
  worth doing.
* **Setup.** The draft values each card by its expected win share among the cards the table
  will likely hold (``likely_draft``: every later seat takes the card with the best share among
  the cards held by then), from a measured model of the cards (``DRAFT_STRENGTH``: a strength
  per card and a factor for the first to act), plus the preset's liking for the card; the
  initial houses go where the village value is highest.

``greedy`` is this kernel with fixed raw-gold weights; the presets (balanced, rusher, tollroad,
hoarder, character) are weight vectors in ``presets.toml``. Weight names: ``WEIGHT_NAMES``.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.targets import kernel
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
    C_GOLD_ACTION,
    C_GOLD_TABLE,
    C_HOUSE_COST,
    C_JUNC_NROADS,
    C_JUNC_ROADS,
    C_LONE_BONUS,
    C_N_ROADS,
    C_PENALTY,
    C_PTS_ARCHITECT,
    C_PTS_CENTRE,
    C_PTS_HOUSE,
    C_PTS_OUTER,
    C_PTS_SADHU_OUTER,
    C_QUARRY_TAKE,
    C_ROAD_A,
    C_ROAD_B,
    C_ROAD_NV,
    C_ROAD_TRAFFIC,
    C_ROAD_VIL,
    C_TOLL,
    C_TRADER_GOLD,
    C_VILLAGE_ROAD,
    CARD,
    LOC_CITY,
    MAX_DEGREE,
    MAX_PLAYERS,
    MAX_ROAD_VILLAGES,
    MAX_ROADS,
    N_CARDS,
    N_CITIES,
    N_GOVERNORS,
    N_JUNCTIONS,
    N_LOCS,
    N_PAIRS,
    N_SITES,
    N_VILLAGES,
    OPT_NO_LONE_BONUS,
    PAIR_A,
    PAIR_B,
    PHASE_DRAFT,
    PHASE_MOVE_TO,
    PHASE_PICK,
    PHASE_REPLACE,
    PHASE_SETUP_HOUSE,
    PHASE_TURN,
    S_ACTED,
    S_ARCH,
    S_CARD_OF,
    S_GOLD,
    S_GOV_POS,
    S_HOUSES,
    S_LOC_TOTAL,
    S_MAHARAJA,
    S_N_PLAYERS,
    S_PHASE,
    S_POOL,
    S_QUARRY,
    S_SITE,
    S_T_BUILDER_USED,
    S_T_CHAR_DONE,
    S_T_CITY_BUILT,
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
    S_T_VILLAGE_BUILT,
    SITE_CENTRE,
    START,
)
from tajsim.games.maharaja.engine.nb import (
    governor_can_move,
    holds,
    houses_of,
    option_on,
    palace_cost,
    palace_sites_at,
    performed_mask_of,
    village_cap,
)
from tajsim.games.maharaja.strategies.ids import (
    HEUR_SIZE,
    N_WEIGHTS,
    W_HEUR,
    W_VALUES,
    WEIGHT_ONE,
)

P = MAX_PLAYERS
WEIGHT_NAMES = (
    "palace",  # value of a palace, in gold
    "centre",  # extra for the central site
    "city",  # multiplier of the gold a presence point earns in a city
    "village",  # multiplier of a village house's expected tolls
    "access",  # value of a house that opens a road or frees it for the seat
    "gold",  # value of one gold held
    "governor",  # multiplier of a governor move's value
    "card",  # multiplier of the character values below
    "mogul",
    "trader",
    "sadhu",
    "monk",
    "builder",
    "artisan",
    "toll",  # aversion to gold paid in tolls (multiplier)
    "penalty",  # aversion to leaving an action unperformed (multiplier)
)
I_PALACE, I_CENTRE, I_CITY, I_VILLAGE, I_ACCESS, I_GOLD, I_GOVERNOR, I_CARD = range(8)
I_CARD0 = 8  # per-card weights I_CARD0 + card
I_TOLL, I_PENALTY = 14, 15
# greedy: raw gold, no archetype bias
GREEDY_WEIGHTS = np.array([24.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0,
                           1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], np.float64)
INF = 1 << 40
NEG = -(1 << 50)

# The draft's model of the cards (measured, see ``draft_share``): what each card is worth in a
# game of this heuristic, as a Bradley-Terry strength (int64[N_CARDS], x 1024, the Wandering
# Monk = 1024), and the factor (x 1024) of the first seat to act, the holder of the lowest card
# held. Fitted by maximum likelihood to 10,080 four-player games of 4 x ``balanced`` (this
# heuristic, its draft replaced by a uniformly random one; master seed 11): the win share of
# card c among the cards S held is w(c, S) / the sum over S of w, w = strength x (the first
# factor if c is the lowest card of S). Measured win rates of the cards in those games: Monk
# 43.7%, Mogul 32.4%, Builder 24.4%, Trader 24.0%, Sadhu 12.9%, Artisan 12.8% (n about 6,700
# each); the Trader wins 38.7% where it acts first, 14.3% behind the Mogul.
DRAFT_STRENGTH = np.array([171, 255, 210, 1024, 502, 249], np.int64)
DRAFT_FIRST = 3614
DRAFT_ONE = 1024
DRAFT_WIN_GOLD = 100  # gold a whole win is worth in the draft's values (0.1 of a win: 10 gold)

# heuristic scratch (offsets inside work[W_HEUR:W_HEUR + HEUR_SIZE])
H_W = 0  # [N_WEIGHTS] integer weights
H_DIST = H_W + N_WEIGHTS  # [N_JUNCTIONS] cheapest gold route from the architect (open roads)
H_VIA = H_DIST + N_JUNCTIONS  # [N_JUNCTIONS] first road of that route
H_ODIST = H_VIA + N_JUNCTIONS  # [N_JUNCTIONS] the same if p may open empty villages
H_OPRED = H_ODIST + N_JUNCTIONS  # [N_JUNCTIONS] last road of that route
H_NOPEN = H_OPRED + N_JUNCTIONS  # [N_JUNCTIONS] empty villages that route opens
H_CITYV = H_NOPEN + N_JUNCTIONS  # [N_CITIES] value of one presence point in each city
H_PAIRV = H_CITYV + N_CITIES  # [N_PAIRS] pair values (pick)
H_TOP = H_PAIRV + N_PAIRS  # [4] best house values (pick)
H_OPENING = H_TOP + 4  # bit mask of the empty villages worth opening this turn
H_OPEN_BONUS = H_OPENING + 1  # value of opening each of them
H_PTS = H_OPEN_BONUS + 1  # [N_CITIES * P] presence points of every seat in every city
H_RTOLL = H_PTS + N_CITIES * P  # [MAX_ROADS] toll p pays on each road's occupied villages
H_REMPTY = H_RTOLL + MAX_ROADS  # [MAX_ROADS] empty villages on each road
H_VILV = H_REMPTY + MAX_ROADS  # [N_VILLAGES] value of a new house of p in each village
H_SAVE = H_VILV + N_VILLAGES  # [6] penalty saved by one more palace / city house / village
#                               house / move / governor move / card take this turn
H_PALV = H_SAVE + 6  # [N_CITIES] value of a palace plan in each city (pick), NEG none
H_PALC = H_PALV + N_CITIES  # [N_CITIES] its gold cost (price, tolls, opening houses)
H_PALO = H_PALC + N_CITIES  # [N_CITIES] the empty villages it opens
H_BESTV = H_PALO + N_CITIES  # [4] the two best villages for a new house: value, village, ...
H_ROWN = H_BESTV + 4  # [MAX_ROADS] 1 if p owns a house in one of the road's villages
H_END = H_ROWN + MAX_ROADS
assert H_END <= HEUR_SIZE


@kernel
def load_weights(params, work):
    """Integer weights ``params[i] * WEIGHT_ONE`` (exact: a power-of-two scale) into work."""
    for i in range(N_WEIGHTS):
        work[W_HEUR + H_W + i] = np.int64(params[i] * WEIGHT_ONE)


@kernel(inline="always")
def wt(work, i):
    return work[W_HEUR + H_W + i]


# ---------------------------------------------------------------------------------------------
# Features (what a seat can see: the board, the track, cards, gold; never unrevealed picks)
# ---------------------------------------------------------------------------------------------
@kernel
def cheapest_routes(state, comp, p, work, with_open):
    """Cheapest gold routes from p's architect (Dijkstra over the 8 junctions, tolls as p would
    pay them, none for the Monk; ties to the lower junction and road): over the open roads
    (work[H_DIST..], first road in work[H_VIA..], -1 for the architect's own or an unreachable
    junction), and if ``with_open`` letting p open empty villages with a house for
    ``C_HOUSE_COST`` each, fewest openings on equal cost (work[H_ODIST..], last road in
    work[H_OPRED..], villages opened in work[H_NOPEN..]; all INF without ``with_open``)."""
    src = state[S_ARCH + p]
    monk = holds(state, p, CARD.MONK)
    work[W_HEUR + H_OPENING] = 0
    work[W_HEUR + H_OPEN_BONUS] = 0
    for j in range(N_JUNCTIONS):
        work[W_HEUR + H_DIST + j] = INF
        work[W_HEUR + H_VIA + j] = -1
        work[W_HEUR + H_ODIST + j] = INF
        work[W_HEUR + H_OPRED + j] = -1
        work[W_HEUR + H_NOPEN + j] = 0
    work[W_HEUR + H_DIST + src] = 0
    for r in range(comp[C_N_ROADS]):
        toll = 0
        empty = 0
        own = 0
        for i in range(comp[C_ROAD_NV + r]):
            v = comp[C_ROAD_VIL + r * MAX_ROAD_VILLAGES + i]
            total = state[S_LOC_TOTAL + v]
            mine = houses_of(state, v, p)
            if mine > 0:
                own = 1
            if total == 0:
                empty += 1
            elif not monk and mine == 0:
                toll += total * comp[C_TOLL]
        work[W_HEUR + H_RTOLL + r] = toll
        work[W_HEUR + H_REMPTY + r] = empty
        work[W_HEUR + H_ROWN + r] = own
    # over the open roads
    done = 0
    for _ in range(N_JUNCTIONS):
        a = -1
        best = INF
        for j in range(N_JUNCTIONS):
            if (done >> j) & 1 == 0 and work[W_HEUR + H_DIST + j] < best:
                best = work[W_HEUR + H_DIST + j]
                a = j
        if a < 0:
            break
        done |= 1 << a
        for i in range(comp[C_JUNC_NROADS + a]):
            r = comp[C_JUNC_ROADS + a * MAX_DEGREE + i]
            if work[W_HEUR + H_REMPTY + r] != 0:
                continue
            b = comp[C_ROAD_B + r] if comp[C_ROAD_A + r] == a else comp[C_ROAD_A + r]
            d = best + work[W_HEUR + H_RTOLL + r]
            if d < work[W_HEUR + H_DIST + b]:
                work[W_HEUR + H_DIST + b] = d
                work[W_HEUR + H_VIA + b] = r if a == src else work[W_HEUR + H_VIA + a]
    if with_open:
        open_routes(state, comp, p, work)


@kernel
def open_routes(state, comp, p, work):
    """The cheapest routes that open empty villages (see ``cheapest_routes``), from the
    per-road tables it filled."""
    src = state[S_ARCH + p]
    house = comp[C_HOUSE_COST]
    # opening empty villages: cost, then fewest openings
    work[W_HEUR + H_ODIST + src] = 0
    done = 0
    for _ in range(N_JUNCTIONS):
        a = -1
        best = INF
        best_open = 0
        for j in range(N_JUNCTIONS):
            dj = work[W_HEUR + H_ODIST + j]
            if (done >> j) & 1 == 0 and (dj < best or (
                    dj == best and dj < INF and work[W_HEUR + H_NOPEN + j] < best_open)):
                best = dj
                best_open = work[W_HEUR + H_NOPEN + j]
                a = j
        if a < 0:
            break
        done |= 1 << a
        for i in range(comp[C_JUNC_NROADS + a]):
            r = comp[C_JUNC_ROADS + a * MAX_DEGREE + i]
            empty = work[W_HEUR + H_REMPTY + r]
            b = comp[C_ROAD_B + r] if comp[C_ROAD_A + r] == a else comp[C_ROAD_A + r]
            d = best + work[W_HEUR + H_RTOLL + r] + empty * house
            n_open = best_open + empty
            ob = work[W_HEUR + H_ODIST + b]
            if d < ob or (d == ob and n_open < work[W_HEUR + H_NOPEN + b]):
                work[W_HEUR + H_ODIST + b] = d
                work[W_HEUR + H_OPRED + b] = r
                work[W_HEUR + H_NOPEN + b] = n_open


@kernel(inline="always")
def route_cost(work, junction):
    return work[W_HEUR + H_DIST + junction]


@kernel(inline="always")
def soon(state, city):
    """8 for the city scored this round, 7 for next round's ... 1 for the last of the track."""
    if state[S_MAHARAJA] == city:
        return 8
    below_it = 0
    pos = state[S_GOV_POS + city]
    for g in range(N_GOVERNORS):
        if state[S_GOV_POS + g] < pos:
            below_it += 1
    return 7 - below_it


@kernel
def fill_points(state, comp, work):
    """Lasting presence points of every seat in every city into work[H_PTS..] (R30): houses
    and palaces, not the architects, which move; except in the Maharaja's city this round,
    where the architects of seats that have already acted stay for the scoring."""
    n = state[S_N_PLAYERS]
    m = state[S_MAHARAJA]
    pts_house = comp[C_PTS_HOUSE]
    for c in range(N_CITIES):
        row = W_HEUR + H_PTS + c * P
        for q in range(n):
            work[row + q] = state[S_HOUSES + (LOC_CITY + c) * P + q] * pts_house
            if c == m and state[S_ARCH + q] == c and state[S_ACTED + q] == 1:
                work[row + q] += comp[C_PTS_ARCHITECT]
        for site in range(N_SITES):
            q = state[S_SITE + c * N_SITES + site]
            if q < 0:
                continue
            if site == SITE_CENTRE:
                work[row + q] += comp[C_PTS_CENTRE]
            elif holds(state, q, CARD.SADHU):
                work[row + q] += comp[C_PTS_SADHU_OUTER]
            else:
                work[row + q] += comp[C_PTS_OUTER]


@kernel(inline="always")
def pts_of(work, city, q):
    return work[W_HEUR + H_PTS + city * P + q]


@kernel
def prepare(state, comp, p, work, with_open):
    """Every feature a decision of seat p reads: points, routes (``with_open``: also the routes
    that open empty villages), the value of a point."""
    fill_points(state, comp, work)
    cheapest_routes(state, comp, p, work, with_open)
    fill_city_values(state, comp, p, work)


@kernel(inline="always")
def gold_for_points(state, comp, city, p, pts_p, work):
    """Gold p would get at a scoring of ``city`` now if it had ``pts_p`` points and the others
    their points in the table (R30-R31)."""
    n = state[S_N_PLAYERS]
    if pts_p <= 0:
        return 0
    better = 0
    scorers = 1
    for q in range(n):
        if q == p:
            continue
        pts = pts_of(work, city, q)
        if pts <= 0:
            continue
        scorers += 1
        if pts > pts_p or (pts == pts_p and state[S_CARD_OF + q] < state[S_CARD_OF + p]):
            better += 1
    gold = comp[C_GOLD_TABLE + n * P + better]
    if scorers == 1 and not option_on(state, OPT_NO_LONE_BONUS):
        gold += comp[C_LONE_BONUS]
    return gold


@kernel(inline="always")
def point_gain(state, comp, city, p, extra, work):
    """Gold gained at a scoring of ``city`` now from ``extra`` more points (one pass over the
    other seats: ``gold_for_points`` at p's points and at ``extra`` more)."""
    n = state[S_N_PLAYERS]
    pts = pts_of(work, city, p)
    new = pts + extra
    mine = state[S_CARD_OF + p]
    better0 = 0
    better1 = 0
    others = 0
    for q in range(n):
        if q == p:
            continue
        o = pts_of(work, city, q)
        if o <= 0:
            continue
        others += 1
        lower = state[S_CARD_OF + q] < mine
        if o > pts or (o == pts and lower):
            better0 += 1
        if o > new or (o == new and lower):
            better1 += 1
    lone = 0
    if others == 0 and not option_on(state, OPT_NO_LONE_BONUS):
        lone = comp[C_LONE_BONUS]
    g0 = comp[C_GOLD_TABLE + n * P + better0] + lone if pts > 0 else 0
    g1 = comp[C_GOLD_TABLE + n * P + better1] + lone if new > 0 else 0
    return g1 - g0


@kernel
def fill_city_values(state, comp, p, work):
    """Value of one more presence point in each city: the gold it earns at that city's scoring
    (exact for the city scored this round, discounted by how soon the others come)."""
    w_city = wt(work, I_CITY)
    for c in range(N_CITIES):
        gain = point_gain(state, comp, c, p, 1, work)
        s = soon(state, c)
        if s == 8:
            v = w_city * gain + w_city // 2
        else:
            v = w_city * s * (gain + 1) // 8
        work[W_HEUR + H_CITYV + c] = v


@kernel(inline="always")
def city_value(work, city):
    return work[W_HEUR + H_CITYV + city]


@kernel
def fill_village_values(state, comp, p, work):
    """The value of a new house of p in every village with room for one, into work[H_VILV..]
    (NEG for a full village: no house can arrive there), after ``prepare``: expected tolls
    (the road's traffic share times ``village``), access (``access`` for a house that opens the
    road, half that while another of its villages stays empty, twice next to p's architect;
    ``access`` more if the house frees a road next to the architect for p) and the bonus of a
    village on this turn's planned route (``H_OPENING``)."""
    cap = village_cap(state, comp)
    here = state[S_ARCH + p]
    w_access = wt(work, I_ACCESS)
    w_village = wt(work, I_VILLAGE)
    opening_mask = work[W_HEUR + H_OPENING]
    bonus = work[W_HEUR + H_OPEN_BONUS]
    for r in range(comp[C_N_ROADS]):
        base = w_village * comp[C_ROAD_TRAFFIC + r] // 60
        near = comp[C_ROAD_A + r] == here or comp[C_ROAD_B + r] == here
        if near and work[W_HEUR + H_ROWN + r] == 0:
            base += w_access
        empty = work[W_HEUR + H_REMPTY + r]
        opening = w_access if empty == 1 else w_access // 2  # for an empty village on it
        if near:
            opening *= 2
        for i in range(comp[C_ROAD_NV + r]):
            v = comp[C_ROAD_VIL + r * MAX_ROAD_VILLAGES + i]
            total = state[S_LOC_TOTAL + v]
            if total >= cap:
                work[W_HEUR + H_VILV + v] = NEG
                continue
            value = base
            if total == 0:
                value += opening
                if (opening_mask >> v) & 1:
                    value += bonus
            work[W_HEUR + H_VILV + v] = value


@kernel(inline="always")
def vil_value(work, v):
    return work[W_HEUR + H_VILV + v]


@kernel
def house_value(state, comp, p, loc, work):
    """A new house of p at ``loc`` (village value, or one presence point in the city)."""
    if loc < N_VILLAGES:
        return vil_value(work, loc)
    return city_value(work, loc - LOC_CITY)


@kernel
def kept_house_value(state, comp, p, loc, work):
    """What p loses by taking a house away from ``loc``."""
    if loc < N_VILLAGES:
        value = wt(work, I_VILLAGE) * comp[C_ROAD_TRAFFIC + comp[C_VILLAGE_ROAD + loc]] // 60
        if state[S_LOC_TOTAL + loc] == 1:
            value += wt(work, I_ACCESS)  # the road would close
        return value
    return city_value(work, loc - LOC_CITY)


@kernel
def palace_value(state, comp, p, city, centre, work):
    """A palace of p in ``city`` (before its price): the palace weight, the centre bonus and its
    presence points."""
    if centre:
        pts = comp[C_PTS_CENTRE]
        extra = wt(work, I_CENTRE)
    else:
        pts = comp[C_PTS_SADHU_OUTER] if holds(state, p, CARD.SADHU) else comp[C_PTS_OUTER]
        extra = 0
    return wt(work, I_PALACE) + extra + pts * city_value(work, city)


@kernel
def card_value(state, comp, p, card, in_turn, work):
    """How much p wants to hold ``card``: its weight plus what it would give this round (in a
    turn: what it gives now; at the pick: what it gives to a seat that plans to build), both
    times the ``card`` multiplier."""
    value = wt(work, I_CARD0 + card)
    w_gold = wt(work, I_GOLD)
    m = state[S_MAHARAJA]
    if m >= START:  # the draft: no city to score yet
        return wt(work, I_CARD) * value // WEIGHT_ONE
    if card == CARD.ARTISAN:
        if not in_turn or state[S_T_PAL_BUILT] < state[S_T_PAL_ALLOWED]:
            value += 3 * w_gold
    elif card == CARD.TRADER:
        if not in_turn or state[S_T_TRADER_PAID] == 0:
            value += comp[C_TRADER_GOLD] * w_gold
    elif card == CARD.BUILDER:
        if state[S_POOL + p] > 0 and (not in_turn or state[S_T_BUILDER_USED] == 0):
            value += city_value(work, m)
    elif card == CARD.SADHU:
        outer = 0
        for s in range(1, N_SITES):
            if state[S_SITE + m * N_SITES + s] == p:
                outer += 1
        value += outer * city_value(work, m)
    elif card == CARD.MONK:
        d = route_cost(work, m)
        if not in_turn and d < INF:
            value += w_gold * d // 2
    return wt(work, I_CARD) * value // WEIGHT_ONE


@kernel(inline="always")
def draft_weight(card, held):
    """Bradley-Terry weight of ``card`` among the cards of bit mask ``held`` (it included)."""
    w = DRAFT_STRENGTH[card]
    if held & ((np.int64(1) << card) - 1) == 0:  # the lowest card acts first every round
        w = w * DRAFT_FIRST // DRAFT_ONE
    return w


@kernel
def draft_share(card, held):
    """Expected win share of ``card`` among the cards of bit mask ``held``, in fixed-point
    gold (``DRAFT_WIN_GOLD`` gold a whole win)."""
    total = 0
    for k in range(N_CARDS):
        if (held >> k) & 1:
            total += draft_weight(k, held)
    return draft_weight(card, held) * WEIGHT_ONE * DRAFT_WIN_GOLD // total


@kernel
def likely_draft(state, p, card):
    """The cards (bit mask) held after the draft if p takes ``card`` now: the cards the seats
    before p took, and for each seat after p, in seat order (R7), the card with the best
    ``draft_share`` among the cards held by then (what the others will likely take)."""
    n = state[S_N_PLAYERS]
    held = np.int64(1) << card
    for q in range(p):
        held |= np.int64(1) << state[S_CARD_OF + q]
    for _ in range(p + 1, n):
        best_k = 0
        best = -1
        for k in range(N_CARDS):
            if (held >> k) & 1 == 0:
                share = draft_share(k, held | (np.int64(1) << k))
                if share > best:
                    best = share
                    best_k = k
        held |= np.int64(1) << best_k
    return held


@kernel
def draft_value(state, comp, p, card, work):
    """What ``card`` is worth to p at the draft: its win share among the cards the table will
    likely hold (``likely_draft``), plus the preset's liking for it (``card`` x its weight)."""
    share = draft_share(card, likely_draft(state, p, card))
    return share + wt(work, I_CARD) * wt(work, I_CARD0 + card) // WEIGHT_ONE


@kernel
def governor_value(state, comp, p, city, work):
    """Moving ``city``'s governor 2 boxes down brings its scoring forward: worth the gold p
    would earn there over the best other seat's."""
    n = state[S_N_PLAYERS]
    mine = gold_for_points(state, comp, city, p, pts_of(work, city, p), work)
    best_other = 0
    for q in range(n):
        if q != p:
            g = gold_for_points(state, comp, city, q, pts_of(work, city, q), work)
            if g > best_other:
                best_other = g
    return wt(work, I_GOVERNOR) * (mine - best_other) // 2


@kernel
def penalty_unit(state, comp, work):
    """What leaving one action unperformed costs p: every other seat gains the penalty (R17),
    so p falls behind each of them by it; at least twice the penalty (2 and 3 players)."""
    others = max(state[S_N_PLAYERS] - 1, 2)
    return wt(work, I_PENALTY) * comp[C_PENALTY] * others


# ---------------------------------------------------------------------------------------------
# Pick: the value of every pair
# ---------------------------------------------------------------------------------------------
@kernel
def fill_palace_plans(state, comp, p, work):
    """For each city, the palace p could build there this turn (pick): its value (NEG if
    none), its gold cost (price + tolls on the cheapest route, opening houses included) and the
    empty villages the route opens."""
    price = palace_cost(state, comp, p)
    here = state[S_ARCH + p]
    for c in range(N_CITIES):
        work[W_HEUR + H_PALV + c] = NEG
        d = route_cost(work, c)
        n_open = 0
        if d >= INF:
            n_open = work[W_HEUR + H_NOPEN + c]
            d = work[W_HEUR + H_ODIST + c]
            if d >= INF:
                continue
        sites = palace_sites_at(state, comp, p, c)
        if sites == 0:
            continue
        v = palace_value(state, comp, p, c, (sites & 1) == 1, work)
        v -= wt(work, I_GOLD) * price + wt(work, I_TOLL) * d
        if c == here:
            v += 1  # prefer not to move on ties
        work[W_HEUR + H_PALV + c] = v
        work[W_HEUR + H_PALC + c] = price + d
        work[W_HEUR + H_PALO + c] = n_open


@kernel
def best_palace_plan(budget, exclude, max_open, work):
    """(value, cost, villages opened, city) of the best palace plan (``fill_palace_plans``)
    that ``budget`` gold affords, opening at most ``max_open`` villages, not in city
    ``exclude``; value NEG (city -1) if none."""
    best_v = NEG
    best_cost = 0
    best_open = 0
    best_c = -1
    for c in range(N_CITIES):
        v = work[W_HEUR + H_PALV + c]
        if (c == exclude or v == NEG or work[W_HEUR + H_PALC + c] > budget
                or work[W_HEUR + H_PALO + c] > max_open):
            continue
        if v > best_v:
            best_v = v
            best_cost = work[W_HEUR + H_PALC + c]
            best_open = work[W_HEUR + H_PALO + c]
            best_c = c
    return best_v, best_cost, best_open, best_c


@kernel
def fill_top_houses(state, comp, p, work):
    """The 4 best new-house values (villages with room, the cities reachable), descending."""
    top = W_HEUR + H_TOP
    for i in range(4):
        work[top + i] = NEG
    cap = village_cap(state, comp)
    for loc in range(N_LOCS):
        if loc < N_VILLAGES:
            if state[S_LOC_TOTAL + loc] >= cap:
                continue
            v = vil_value(work, loc)
        else:
            c = loc - LOC_CITY
            d = route_cost(work, c)
            if d >= INF:
                continue
            v = city_value(work, c) - wt(work, I_TOLL) * d // 2
        for i in range(4):
            if v > work[top + i]:
                for k in range(3, i, -1):
                    work[top + k] = work[top + k - 1]
                work[top + i] = v
                break


@kernel
def best_city_house(state, comp, p, work):
    """Value of the best house in a city p's architect can reach (tolls counted)."""
    best = NEG
    for c in range(N_CITIES):
        d = route_cost(work, c)
        if d >= INF:
            continue
        v = city_value(work, c) - wt(work, I_TOLL) * d
        if v > best:
            best = v
    return best


@kernel
def best_move_gain(state, comp, p, work):
    """Best gain from moving one of p's houses to a free village or the architect's city."""
    worst_kept = INF
    for loc in range(N_LOCS):
        if houses_of(state, loc, p) > 0:
            v = kept_house_value(state, comp, p, loc, work)
            if v < worst_kept:
                worst_kept = v
    if worst_kept >= INF:
        return NEG
    best_dest = NEG
    cap = village_cap(state, comp)
    for v_ in range(N_VILLAGES):
        if state[S_LOC_TOTAL + v_] < cap:
            val = vil_value(work, v_)
            if val > best_dest:
                best_dest = val
    here = state[S_ARCH + p]
    if here < START and city_value(work, here) > best_dest:
        best_dest = city_value(work, here)
    return best_dest - worst_kept


@kernel
def best_card_gain(state, comp, p, work):
    mine = state[S_CARD_OF + p]
    base = card_value(state, comp, p, mine, False, work)
    best = NEG
    for k in range(N_CARDS):
        if k != mine:
            v = card_value(state, comp, p, k, False, work) - base
            if v > best:
                best = v
    return best


@kernel
def best_governor(state, comp, p, work, skip):
    best = NEG
    for c in range(N_GOVERNORS):
        if c != skip and governor_can_move(state, comp, c):
            v = governor_value(state, comp, p, c, work)
            if v > best:
                best = v
    return best


@kernel
def fill_pair_values(state, comp, p, work, out, out_off):
    """Value of each of the 45 pairs for seat p into ``out[out_off:out_off + 45]`` (weights
    already loaded into ``work``)."""
    prepare(state, comp, p, work, True)
    fill_village_values(state, comp, p, work)
    fill_top_houses(state, comp, p, work)
    fill_palace_plans(state, comp, p, work)
    pen = penalty_unit(state, comp, work)
    w_gold = wt(work, I_GOLD)
    gold = state[S_GOLD + p]
    if holds(state, p, CARD.TRADER):
        gold += comp[C_TRADER_GOLD]
    pool = state[S_POOL + p]
    move_gain = best_move_gain(state, comp, p, work)
    card_gain = best_card_gain(state, comp, p, work)
    gov1 = best_governor(state, comp, p, work, -1)
    city_house = best_city_house(state, comp, p, work)
    # gold to reach the nearest city for a two-houses action's city house (the Monk's tolls
    # are the bank's): the house is not affordable without the journey
    city_trip = INF
    monk = holds(state, p, CARD.MONK)
    for c in range(N_CITIES):
        d = route_cost(work, c)
        if d < INF:
            city_trip = min(city_trip, 0 if monk else d)
    quarry_room = state[S_QUARRY + p] >= comp[C_QUARRY_TAKE]
    house_cost = comp[C_HOUSE_COST]
    builder = 1 if holds(state, p, CARD.BUILDER) else 0
    for k in range(N_PAIRS):
        a = PAIR_A[k]
        b = PAIR_B[k]
        value = 0
        budget = gold
        houses = 0
        city_houses = 0
        palaces = 0
        pool_now = pool
        for i in range(2):
            kind = a if i == 0 else b
            second = i == 1 and a == b
            if kind == ACT.GOLD:
                value += comp[C_GOLD_ACTION] * w_gold
                budget += comp[C_GOLD_ACTION]
            elif kind == ACT.HOUSE:
                houses += 1
            elif kind == ACT.TWO_HOUSES:
                houses += 2
                city_houses += 1
            elif kind == ACT.MOVE_HOUSE:
                if move_gain == NEG:
                    value -= pen
                elif not second:
                    value += max(move_gain, 0)
            elif kind == ACT.QUARRY:
                if not quarry_room:
                    value -= pen
                else:
                    pool_now += comp[C_QUARRY_TAKE]
                    if pool < 3:
                        value += w_gold * comp[C_QUARRY_TAKE] // 2
            elif kind == ACT.PALACE:
                palaces += 1
            elif kind == ACT.PALACE_HOUSE:
                palaces += 1
                houses += 1
            elif kind == ACT.GOVERNOR:
                if gov1 == NEG:
                    value -= pen
                elif not second:
                    value += max(gov1, 0)
            else:
                if not second:
                    value += max(card_gain, 0)
        trip = city_trip  # the city houses stand in the palace's city when there is one
        if palaces > 0:
            # houses that may stand in a village can open the road to the palace city
            max_open = houses - city_houses + builder
            if pool_now < max_open:
                max_open = pool_now
            v1, cost1, opened, city1 = best_palace_plan(budget, -1, max_open, work)
            if v1 == NEG:
                value -= pen * palaces
            else:
                value += v1
                budget -= cost1
                trip = 0
                # the opening houses are paid in cost1 and count as built
                paid_open = opened - builder if opened > builder else 0
                houses -= paid_open
                pool_now -= opened
                if palaces == 2:
                    # one palace a city (R21): the second goes elsewhere
                    v2, cost2, _, _ = best_palace_plan(budget, city1, 0, work)
                    if v2 == NEG:
                        value -= pen
                    else:
                        value += v2 // 2
                        budget -= cost2
        # houses: the city houses first, then the best others
        for h in range(houses):
            cost = house_cost
            if h == 0 and city_houses > 0:
                cost += trip  # INF when no city is in reach: the action fails
            if pool_now <= 0 or budget < cost:
                value -= pen
                continue
            budget -= cost - house_cost
            pool_now -= 1
            budget -= house_cost
            if h < city_houses:
                hv = city_house
            else:
                hv = work[W_HEUR + H_TOP + min(h - city_houses, 3)]
            if hv == NEG:
                value -= pen
            else:
                value += hv - w_gold * house_cost
        out[out_off + k] = value


# ---------------------------------------------------------------------------------------------
# Turn: the value of every step
# ---------------------------------------------------------------------------------------------
@kernel
def unperformed_after(state, d_pal, d_city, d_village, d_move, d_gov, d_char):
    mask = performed_mask_of(state[S_T_SLOT0], state[S_T_SLOT1],
                             state[S_T_PAL_BUILT] + d_pal, state[S_T_CITY_BUILT] + d_city,
                             state[S_T_VILLAGE_BUILT] + d_village,
                             state[S_T_MOVES_DONE] + d_move, state[S_T_GOV_DONE] + d_gov,
                             state[S_T_CHAR_DONE] + d_char, state[S_T_QUARRY_SHORT])
    return 2 - (mask & 1) - ((mask >> 1) & 1)


@kernel
def fill_savings(state, work, pen):
    """Penalty saved by one more step of each kind (H_SAVE: palace, city house, village house,
    move, governor move, card take)."""
    base = unperformed_after(state, 0, 0, 0, 0, 0, 0)
    save = W_HEUR + H_SAVE
    work[save + 0] = (base - unperformed_after(state, 1, 0, 0, 0, 0, 0)) * pen
    work[save + 1] = (base - unperformed_after(state, 0, 1, 0, 0, 0, 0)) * pen
    work[save + 2] = (base - unperformed_after(state, 0, 0, 1, 0, 0, 0)) * pen
    work[save + 3] = (base - unperformed_after(state, 0, 0, 0, 1, 0, 0)) * pen
    work[save + 4] = (base - unperformed_after(state, 0, 0, 0, 0, 1, 0)) * pen
    work[save + 5] = (base - unperformed_after(state, 0, 0, 0, 0, 0, 1)) * pen


@kernel(inline="always")
def saving(work, kind):
    return work[W_HEUR + H_SAVE + kind]


@kernel
def pending_penalty(state, comp, p, gold, pool, d_pal, d_city, d_village):
    """Chosen actions (0..2) of the turn player p that would stay unperformed if, after
    ``d_pal`` more palaces, ``d_city`` city and ``d_village`` village houses, p spent its
    ``gold`` and ``pool`` houses on what the pair still needs: the palaces still allowed first
    (the price each; the tolls to a free site are the journey's own cost), then the paid houses
    (the city houses a two-houses action needs first).

    A projection, not a plan: it is what p could still carry out. A step's value adds the
    projection's change (times the penalty unit) to the penalty the step saves itself, so a
    journey, a palace or a free house that spends the gold or takes the house a chosen action
    still needs pays that action's penalty (R17)."""
    price = palace_cost(state, comp, p)
    house_cost = comp[C_HOUSE_COST]
    pal_left = state[S_T_PAL_ALLOWED] - state[S_T_PAL_BUILT] - d_pal
    while pal_left > 0 and gold >= price:
        gold -= price
        d_pal += 1
        pal_left -= 1
    left = (state[S_T_HOUSES_ALLOWED] - state[S_T_CITY_BUILT] - state[S_T_VILLAGE_BUILT]
            - d_city - d_village)
    affordable = min(left, pool, gold // house_cost)
    if affordable > 0:
        need_city = max(state[S_T_MIN_CITY] - state[S_T_CITY_BUILT] - d_city, 0)
        city_more = min(need_city, affordable)
        d_city += city_more
        d_village += affordable - city_more
    return unperformed_after(state, d_pal, d_city, d_village, 0, 0, 0)


@kernel
def value_at(state, comp, p, city, d, work):
    """What standing in ``city`` is worth to p this turn, reached for ``d`` gold: the palace
    and the city house it could still build there, the architect's presence point where the
    Maharaja is, minus the gold on the way."""
    if d >= INF:
        return NEG
    monk = holds(state, p, CARD.MONK)
    gold = state[S_GOLD + p] - (0 if monk else d)
    if gold < 0:
        return NEG
    pool = state[S_POOL + p]
    pen = penalty_unit(state, comp, work)
    before = pending_penalty(state, comp, p, state[S_GOLD + p], pool, 0, 0, 0)
    value = -wt(work, I_TOLL) * d
    d_pal = 0
    if state[S_T_PAL_BUILT] < state[S_T_PAL_ALLOWED]:
        price = palace_cost(state, comp, p)
        if gold >= price:
            sites = palace_sites_at(state, comp, p, city)
            if sites != 0:
                value += palace_value(state, comp, p, city, (sites & 1) == 1, work)
                value += saving(work, 0)
                value -= wt(work, I_GOLD) * price
                gold -= price
                d_pal = 1
    d_city = 0
    built = state[S_T_CITY_BUILT] + state[S_T_VILLAGE_BUILT]
    if built < state[S_T_HOUSES_ALLOWED] and pool > 0 and gold >= comp[C_HOUSE_COST]:
        v = city_value(work, city) - wt(work, I_GOLD) * comp[C_HOUSE_COST]
        v += saving(work, 1)
        if v > 0:
            value += v
            gold -= comp[C_HOUSE_COST]
            pool -= 1
            d_city = 1
    # the tolls on the way and what is built here, against what the pair still needs: a
    # journey that leaves too little gold for the chosen houses costs their penalty
    value += pen * (before - pending_penalty(state, comp, p, gold, pool, d_pal, d_city, 0))
    if city == state[S_MAHARAJA]:
        value += wt(work, I_CITY) * architect_gain(state, comp, p, city, work)
    return value


@kernel
def plan_openings(state, comp, p, best_value, work):
    """If a city behind empty villages is worth more than ``best_value`` (the best city p can
    reach now) and p can still build that many village houses this turn, mark the empty
    villages on the route (``H_OPENING``) with the gain per village (``H_OPEN_BONUS``)."""
    can = 0
    if state[S_POOL + p] > 0:
        room = state[S_T_HOUSES_ALLOWED] - state[S_T_MIN_CITY] - state[S_T_VILLAGE_BUILT]
        built = state[S_T_CITY_BUILT] + state[S_T_VILLAGE_BUILT]
        left = state[S_T_HOUSES_ALLOWED] - built
        can = min(room, left)
        if holds(state, p, CARD.BUILDER) and state[S_T_BUILDER_USED] == 0:
            can += 1
        can = min(can, state[S_POOL + p])
    if can <= 0:
        return
    closed = False  # a city out of reach over the open roads
    for c in range(N_CITIES):
        if route_cost(work, c) >= INF:
            closed = True
    if not closed:
        return
    open_routes(state, comp, p, work)
    best_c = -1
    best_v = best_value
    for c in range(N_CITIES):
        n_open = work[W_HEUR + H_NOPEN + c]
        if n_open == 0 or n_open > can or route_cost(work, c) < INF:
            continue
        v = value_at(state, comp, p, c, work[W_HEUR + H_ODIST + c], work)
        if v > best_v:
            best_v = v
            best_c = c
    if best_c < 0:
        return
    n_open = work[W_HEUR + H_NOPEN + best_c]
    mask = 0
    j = best_c
    src = state[S_ARCH + p]
    for _ in range(N_JUNCTIONS):
        if j == src:
            break
        r = work[W_HEUR + H_OPRED + j]
        for i in range(comp[C_ROAD_NV + r]):
            u = comp[C_ROAD_VIL + r * MAX_ROAD_VILLAGES + i]
            if state[S_LOC_TOTAL + u] == 0:
                mask |= np.int64(1) << u
        j = comp[C_ROAD_A + r] if comp[C_ROAD_B + r] == j else comp[C_ROAD_B + r]
    work[W_HEUR + H_OPENING] = mask
    gain = best_v - (best_value if best_value != NEG else 0)
    work[W_HEUR + H_OPEN_BONUS] = gain // n_open + wt(work, I_GOLD) * comp[C_HOUSE_COST]


@kernel
def architect_gain(state, comp, p, city, work):
    """Gold the architect's presence point earns at ``city``'s scoring now (the table holds
    p's lasting points only)."""
    return point_gain(state, comp, city, p, comp[C_PTS_ARCHITECT], work)


@kernel
def turn_values_best(state, comp, p, legal, n_legal, work):
    """Index (into legal) of the best-valued step of p's turn."""
    # village values are needed only if a house may be built or moved (legal is sorted)
    villages = False
    for i in range(n_legal):
        if ACTION_BUILD <= legal[i] < ACTION_MOVE_TO:
            villages = True
            break
    prepare(state, comp, p, work, False)  # plan_openings adds the opening routes if useful
    pen = penalty_unit(state, comp, work)
    w_gold = wt(work, I_GOLD)
    fill_savings(state, work, pen)
    here = state[S_ARCH + p]
    # the best city to be in (for travel), and villages worth opening to reach a better one
    target = here
    here_value = value_at(state, comp, p, here, 0, work) if here < START else NEG
    best_target_v = here_value
    # with nothing left to build, only the Maharaja's city can be worth a journey
    builds_left = (state[S_T_PAL_BUILT] < state[S_T_PAL_ALLOWED]
                   or state[S_T_CITY_BUILT] + state[S_T_VILLAGE_BUILT]
                   < state[S_T_HOUSES_ALLOWED])
    for c in range(N_CITIES):
        if c == here or (not builds_left and c != state[S_MAHARAJA]):
            continue
        v = value_at(state, comp, p, c, route_cost(work, c), work)
        if v > best_target_v:
            best_target_v = v
            target = c
    travel_gain = best_target_v - (here_value if here_value != NEG else 0)
    if villages:
        plan_openings(state, comp, p, best_target_v, work)
        fill_village_values(state, comp, p, work)
        fill_best_villages(state, comp, work)
    mine = state[S_CARD_OF + p]
    mine_value = card_value(state, comp, p, mine, True, work)
    gold = state[S_GOLD + p]
    pool = state[S_POOL + p]
    pending = pending_penalty(state, comp, p, gold, pool, 0, 0, 0)
    best_i = 0
    best_v = NEG
    for i in range(n_legal):
        a = legal[i]
        if a == ACTION_DONE:
            v = 0
        elif a < ACTION_BUILD:
            road = a - ACTION_TRAVEL
            v = NEG
            if target != here and work[W_HEUR + H_VIA + target] == road:
                v = travel_gain
        elif a < ACTION_FREE_BUILD:
            loc = a - ACTION_BUILD
            in_city = 1 if loc >= N_VILLAGES else 0
            v = house_value(state, comp, p, loc, work) - w_gold * comp[C_HOUSE_COST]
            v += saving(work, 2 - in_city)
            v += pen * (pending - pending_penalty(state, comp, p, gold - comp[C_HOUSE_COST],
                                                  pool - 1, 0, in_city, 1 - in_city))
        elif a < ACTION_MOVE_FROM:
            # the Builder's house is free, but it takes a house the pair may need
            v = house_value(state, comp, p, a - ACTION_FREE_BUILD, work)
            v += pen * (pending - pending_penalty(state, comp, p, gold, pool - 1, 0, 0, 0))
        elif a < ACTION_MOVE_TO:
            loc = a - ACTION_MOVE_FROM
            v = best_destination(state, comp, p, loc, work) - \
                kept_house_value(state, comp, p, loc, work)
            if state[S_T_MOVES_DONE] < state[S_T_MOVES_ALLOWED]:
                v += saving(work, 3)
        elif a < ACTION_GOVERNOR:
            price = palace_cost(state, comp, p)
            v = palace_value(state, comp, p, here, a == ACTION_PALACE, work)
            v -= w_gold * price
            v += saving(work, 0)
            v += pen * (pending - pending_penalty(state, comp, p, gold - price, pool, 1, 0, 0))
        elif a < ACTION_CARD:
            v = governor_value(state, comp, p, a - ACTION_GOVERNOR, work)
            v += saving(work, 4)
        else:
            v = card_value(state, comp, p, a - ACTION_CARD, True, work) - mine_value
            v += saving(work, 5)
        work[W_VALUES + i] = v  # hook: the temperature draws from every value
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@kernel
def fill_best_villages(state, comp, work):
    """The two best villages with room for a new house (after ``fill_village_values``):
    work[H_BESTV..] = value 1, village 1, value 2, village 2 (NEG / -1 if none)."""
    cap = village_cap(state, comp)
    b1 = NEG
    i1 = -1
    b2 = NEG
    i2 = -1
    for v in range(N_VILLAGES):
        if state[S_LOC_TOTAL + v] < cap:
            val = vil_value(work, v)
            if val > b1:
                b2, i2 = b1, i1
                b1, i1 = val, v
            elif val > b2:
                b2, i2 = val, v
    work[W_HEUR + H_BESTV] = b1
    work[W_HEUR + H_BESTV + 1] = i1
    work[W_HEUR + H_BESTV + 2] = b2
    work[W_HEUR + H_BESTV + 3] = i2


@kernel
def best_destination(state, comp, p, src, work):
    """Best value of a house of p arriving somewhere other than ``src`` (after
    ``fill_best_villages``)."""
    if work[W_HEUR + H_BESTV + 1] != src:
        best = work[W_HEUR + H_BESTV]
    else:
        best = work[W_HEUR + H_BESTV + 2]
    here = state[S_ARCH + p]
    if here < START and LOC_CITY + here != src:
        val = city_value(work, here)
        if val > best:
            best = val
    return best


# ---------------------------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------------------------
@kernel
def load_greedy_weights(work):
    """``GREEDY_WEIGHTS`` as integers into work (no array argument: no copy, no allocation)."""
    for i in range(N_WEIGHTS):
        work[W_HEUR + H_W + i] = np.int64(GREEDY_WEIGHTS[i] * WEIGHT_ONE)


@kernel
def weighted_policy_nb(state, comp, player, params, legal, n_legal, work):
    """Choose among ``legal[:n_legal]`` with weights ``params[:N_WEIGHTS]``.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]
    player : int, the seat deciding
    params : float64[>= N_WEIGHTS]
    legal : int64[>= n_legal]
    work : int64[WORK_SIZE] scratch (the heuristic block is overwritten)
    """
    load_weights(params, work)
    return decide_nb(state, comp, player, legal, n_legal, work)


@kernel
def decide_nb(state, comp, player, legal, n_legal, work):
    """The heuristic decision with the weights already in ``work`` (see the module doc).

    Every candidate's value is left in ``work[W_VALUES + i]`` (int64, fixed-point gold, for
    ``legal[i]``): the dispatcher's temperature draws from them."""
    phase = state[S_PHASE]
    p = player
    if phase == PHASE_PICK:
        fill_pair_values(state, comp, p, work, work, W_HEUR + H_PAIRV)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = work[W_HEUR + H_PAIRV + legal[i] - ACTION_PICK]
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_TURN:
        return legal[turn_values_best(state, comp, p, legal, n_legal, work)]
    if phase == PHASE_MOVE_TO:
        prepare(state, comp, p, work, False)
        fill_village_values(state, comp, p, work)
        fill_best_villages(state, comp, work)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = house_value(state, comp, p, legal[i] - ACTION_MOVE_TO, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_SETUP_HOUSE:
        prepare(state, comp, p, work, False)
        fill_village_values(state, comp, p, work)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = vil_value(work, legal[i] - ACTION_BUILD)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_DRAFT:
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = draft_value(state, comp, p, legal[i] - ACTION_CARD, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_REPLACE:
        prepare(state, comp, p, work, False)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = card_value(state, comp, p, legal[i] - ACTION_CARD, False, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    return legal[0]

