"""What the Maharaja heuristic sees and values, shared by every decision: cheapest routes,
presence points, the value of a point in a city, of a village house, a palace, a character card,
a governor move and the penalty unit (see ``heuristic``)."""

from __future__ import annotations

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
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
    MAX_ROAD_VILLAGES,
    N_CITIES,
    N_GOVERNORS,
    N_JUNCTIONS,
    N_SITES,
    N_VILLAGES,
    OPT_NO_LONE_BONUS,
    S_ACTED,
    S_ARCH,
    S_CARD_OF,
    S_GOV_POS,
    S_HOUSES,
    S_LOC_TOTAL,
    S_MAHARAJA,
    S_N_PLAYERS,
    S_POOL,
    S_SITE,
    S_T_BUILDER_USED,
    S_T_PAL_ALLOWED,
    S_T_PAL_BUILT,
    S_T_TRADER_PAID,
    SITE_CENTRE,
    START,
)
from tajsim.games.maharaja.engine.nb import (
    holds,
    houses_of,
    option_on,
    village_cap,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    H_CITYV,
    H_DIST,
    H_NOPEN,
    H_ODIST,
    H_OPEN_BONUS,
    H_OPENING,
    H_OPRED,
    H_PTS,
    H_REMPTY,
    H_ROWN,
    H_RTOLL,
    H_VIA,
    H_VILV,
    I_ACCESS,
    I_CARD,
    I_CARD0,
    I_CENTRE,
    I_CITY,
    I_GOLD,
    I_GOVERNOR,
    I_PALACE,
    I_PENALTY,
    I_VILLAGE,
    INF,
    NEG,
    P,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    W_HEUR,
    WEIGHT_ONE,
)


@kernel(inline="always")
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


@kernel(inline="always")
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
    state = borrowed(state)
    comp = borrowed(comp)
    work = borrowed(work)
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


@kernel(inline="always")
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


@kernel(inline="always")
def house_value(state, comp, p, loc, work):
    """A new house of p at ``loc`` (village value, or one presence point in the city)."""
    if loc < N_VILLAGES:
        return vil_value(work, loc)
    return city_value(work, loc - LOC_CITY)


@kernel(inline="always")
def kept_house_value(state, comp, p, loc, work):
    """What p loses by taking a house away from ``loc``."""
    if loc < N_VILLAGES:
        value = wt(work, I_VILLAGE) * comp[C_ROAD_TRAFFIC + comp[C_VILLAGE_ROAD + loc]] // 60
        if state[S_LOC_TOTAL + loc] == 1:
            value += wt(work, I_ACCESS)  # the road would close
        return value
    return city_value(work, loc - LOC_CITY)


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
def penalty_unit(state, comp, work):
    """What leaving one action unperformed costs p: every other seat gains the penalty (R17),
    so p falls behind each of them by it; at least twice the penalty (2 and 3 players)."""
    others = max(state[S_N_PLAYERS] - 1, 2)
    return wt(work, I_PENALTY) * comp[C_PENALTY] * others
