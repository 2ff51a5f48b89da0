"""The Maharaja heuristic's turn: the value of every legal step (palace, house, move, governor,
card, road), the penalties a step saves or causes (see ``heuristic``)."""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACTION_BUILD,
    ACTION_CARD,
    ACTION_DONE,
    ACTION_FREE_BUILD,
    ACTION_GOVERNOR,
    ACTION_MOVE_FROM,
    ACTION_MOVE_TO,
    ACTION_PALACE,
    ACTION_TRAVEL,
    C_HOUSE_COST,
    C_PTS_ARCHITECT,
    C_ROAD_A,
    C_ROAD_B,
    C_ROAD_NV,
    C_ROAD_VIL,
    CARD,
    LOC_CITY,
    MAX_ROAD_VILLAGES,
    N_CITIES,
    N_JUNCTIONS,
    N_VILLAGES,
    S_ARCH,
    S_CARD_OF,
    S_GOLD,
    S_LOC_TOTAL,
    S_MAHARAJA,
    S_POOL,
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
    S_T_VILLAGE_BUILT,
    START,
)
from tajsim.games.maharaja.engine.nb import (
    holds,
    palace_cost,
    palace_sites_at,
    performed_mask_of,
    village_cap,
)
from tajsim.games.maharaja.strategies.heuristic_features import (
    card_value,
    city_value,
    fill_village_values,
    governor_value,
    house_value,
    kept_house_value,
    open_routes,
    palace_value,
    penalty_unit,
    point_gain,
    prepare,
    route_cost,
    vil_value,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    H_BESTV,
    H_NOPEN,
    H_ODIST,
    H_OPEN_BONUS,
    H_OPENING,
    H_OPRED,
    H_SAVE,
    H_VIA,
    I_CITY,
    I_GOLD,
    I_TOLL,
    INF,
    NEG,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    W_HEUR,
    W_VALUES,
)


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
    state = borrowed(state)
    work = borrowed(work)
    # non-literal 0 and 1: numba compiled unperformed_after once per literal tuple (eight
    # signatures, pending_penalty five; docs/architecture.md, "Compile time")
    o = np.int64(0)
    i = np.int64(1)
    base = unperformed_after(state, o, o, o, o, o, o)
    save = W_HEUR + H_SAVE
    work[save + 0] = (base - unperformed_after(state, i, o, o, o, o, o)) * pen
    work[save + 1] = (base - unperformed_after(state, o, i, o, o, o, o)) * pen
    work[save + 2] = (base - unperformed_after(state, o, o, i, o, o, o)) * pen
    work[save + 3] = (base - unperformed_after(state, o, o, o, i, o, o)) * pen
    work[save + 4] = (base - unperformed_after(state, o, o, o, o, i, o)) * pen
    work[save + 5] = (base - unperformed_after(state, o, o, o, o, o, i)) * pen


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
    state = borrowed(state)
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
    o = np.int64(0)
    return unperformed_after(state, d_pal, d_city, d_village, o, o, o)


@kernel
def value_at(state, comp, p, city, d, work):
    """What standing in ``city`` is worth to p this turn, reached for ``d`` gold: the palace
    and the city house it could still build there, the architect's presence point where the
    Maharaja is, minus the gold on the way."""
    if d >= INF:
        return NEG
    pen = penalty_unit(state, comp, work)
    before = pending_penalty(state, comp, p, state[S_GOLD + p], state[S_POOL + p], np.int64(0),
                             np.int64(0), np.int64(0))
    return value_at_given(state, comp, p, city, d, pen, before, work)


@kernel
def value_at_given(state, comp, p, city, d, pen, before, work):
    """``value_at`` with the penalty unit ``pen`` and p's pending penalty now (``before``,
    ``pending_penalty`` at p's gold and pool) given: they are the same for every city of a
    decision, so the turn computes them once."""
    state = borrowed(state)
    comp = borrowed(comp)
    work = borrowed(work)
    if d >= INF:
        return NEG
    monk = holds(state, p, CARD.MONK)
    gold = state[S_GOLD + p] - (0 if monk else d)
    if gold < 0:
        return NEG
    pool = state[S_POOL + p]
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
    value += pen * (before - pending_penalty(state, comp, p, gold, pool, d_pal, d_city,
                                                    np.int64(0)))
    if city == state[S_MAHARAJA]:
        value += wt(work, I_CITY) * architect_gain(state, comp, p, city, work)
    return value


@kernel
def plan_openings(state, comp, p, best_value, work):
    """If a city behind empty villages is worth more than ``best_value`` (the best city p can
    reach now) and p can still build that many village houses this turn, mark the empty
    villages on the route (``H_OPENING``) with the gain per village (``H_OPEN_BONUS``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    work = borrowed(work)
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
    pen = penalty_unit(state, comp, work)
    before = pending_penalty(state, comp, p, state[S_GOLD + p], state[S_POOL + p], np.int64(0),
                             np.int64(0), np.int64(0))
    for c in range(N_CITIES):
        n_open = work[W_HEUR + H_NOPEN + c]
        if n_open == 0 or n_open > can or route_cost(work, c) < INF:
            continue
        v = value_at_given(state, comp, p, c, work[W_HEUR + H_ODIST + c], pen, before, work)
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


@kernel(inline="always")
def architect_gain(state, comp, p, city, work):
    """Gold the architect's presence point earns at ``city``'s scoring now (the table holds
    p's lasting points only)."""
    return point_gain(state, comp, city, p, comp[C_PTS_ARCHITECT], work)


@kernel
def turn_values_best(state, comp, p, legal, n_legal, work):
    """Index (into legal) of the best-valued step of p's turn."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    work = borrowed(work)
    # village values are needed only if a house may be built or moved (legal is sorted)
    villages = False
    for i in range(n_legal):
        if ACTION_BUILD <= legal[i] < ACTION_MOVE_TO:
            villages = True
            break
    # plan_openings adds the opening routes if useful; np.bool_: one compiled prepare (as in
    # fill_pair_values)
    prepare(state, comp, p, work, np.bool_(False))
    pen = penalty_unit(state, comp, work)
    w_gold = wt(work, I_GOLD)
    fill_savings(state, work, pen)
    gold = state[S_GOLD + p]
    pool = state[S_POOL + p]
    pending = pending_penalty(state, comp, p, gold, pool, np.int64(0), np.int64(0),
                              np.int64(0))
    here = state[S_ARCH + p]
    # the best city to be in (for travel), and villages worth opening to reach a better one
    target = here
    here_value = value_at_given(state, comp, p, here, np.int64(0), pen, pending, work) \
        if here < START else NEG
    best_target_v = here_value
    # with nothing left to build, only the Maharaja's city can be worth a journey
    builds_left = (state[S_T_PAL_BUILT] < state[S_T_PAL_ALLOWED]
                   or state[S_T_CITY_BUILT] + state[S_T_VILLAGE_BUILT]
                   < state[S_T_HOUSES_ALLOWED])
    for c in range(N_CITIES):
        if c == here or (not builds_left and c != state[S_MAHARAJA]):
            continue
        v = value_at_given(state, comp, p, c, route_cost(work, c), pen, pending, work)
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
    # the projected penalty after a build is the same for every village (every city, every
    # free house, both palace sites): computed at the first such action (-1: not yet)
    after_village = -1
    after_city = -1
    after_free = -1
    after_palace = -1
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
            if in_city == 1:
                if after_city < 0:
                    after_city = pending_penalty(state, comp, p, gold - comp[C_HOUSE_COST],
                                                 pool - 1, np.int64(0), np.int64(1),
                                                 np.int64(0))
                v += pen * (pending - after_city)
            else:
                if after_village < 0:
                    after_village = pending_penalty(state, comp, p, gold - comp[C_HOUSE_COST],
                                                    pool - 1, np.int64(0), np.int64(0),
                                                    np.int64(1))
                v += pen * (pending - after_village)
        elif a < ACTION_MOVE_FROM:
            # the Builder's house is free, but it takes a house the pair may need
            v = house_value(state, comp, p, a - ACTION_FREE_BUILD, work)
            if after_free < 0:
                after_free = pending_penalty(state, comp, p, gold, pool - 1, np.int64(0),
                                             np.int64(0), np.int64(0))
            v += pen * (pending - after_free)
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
            if after_palace < 0:
                after_palace = pending_penalty(state, comp, p, gold - price, pool, np.int64(1),
                                               np.int64(0), np.int64(0))
            v += pen * (pending - after_palace)
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


@kernel(inline="always")
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


@kernel(inline="always")
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
