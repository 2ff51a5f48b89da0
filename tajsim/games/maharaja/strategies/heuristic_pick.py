"""The Maharaja heuristic's pick: the value of each of the nine action pairs this round (see
``heuristic``)."""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACT,
    C_GOLD_ACTION,
    C_HOUSE_COST,
    C_QUARRY_TAKE,
    C_TRADER_GOLD,
    CARD,
    LOC_CITY,
    N_CARDS,
    N_CITIES,
    N_GOVERNORS,
    N_LOCS,
    N_PAIRS,
    N_VILLAGES,
    PAIR_A,
    PAIR_B,
    S_ARCH,
    S_CARD_OF,
    S_GOLD,
    S_LOC_TOTAL,
    S_POOL,
    S_QUARRY,
    START,
)
from tajsim.games.maharaja.engine.nb import (
    governor_can_move,
    holds,
    houses_of,
    palace_cost,
    palace_sites_at,
    village_cap,
)
from tajsim.games.maharaja.strategies.heuristic_features import (
    card_value,
    city_value,
    fill_village_values,
    governor_value,
    kept_house_value,
    palace_value,
    penalty_unit,
    prepare,
    route_cost,
    vil_value,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    H_NOPEN,
    H_ODIST,
    H_PALC,
    H_PALO,
    H_PALV,
    H_TOP,
    I_GOLD,
    I_TOLL,
    INF,
    NEG,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    W_HEUR,
)


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
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


@kernel(inline="always")
def best_governor(state, comp, p, work, skip):
    best = NEG
    for c in range(N_GOVERNORS):
        if c != skip and governor_can_move(state, comp, c):
            v = governor_value(state, comp, p, c, work)
            if v > best:
                best = v
    return best


@kernel(inline="always")
def pair_plan_inputs(state, comp, p, work):
    """What every pair's plan for seat p starts from (the scratch ``fill_pair_values`` fills
    for p: top houses, palace plans, village values): (gold, the Trader's included; houses in
    the pool; ``best_move_gain``; ``best_governor``; ``best_city_house``; gold to reach the
    nearest city; whether the quarry has room; a house's cost; 1 with the Builder, else 0)."""
    gold = state[S_GOLD + p]
    if holds(state, p, CARD.TRADER):
        gold += comp[C_TRADER_GOLD]
    pool = state[S_POOL + p]
    move_gain = best_move_gain(state, comp, p, work)
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
    return (gold, pool, move_gain, gov1, city_house, city_trip, quarry_room, house_cost,
            builder)


@kernel(inline="always")
def pair_plan(comp, k, inputs, card_gain, pen, w_gold, work):
    """Pair ``k``'s plan for seat p: its two actions, then the palaces and houses they build
    with the gold and houses at hand (``inputs``: ``pair_plan_inputs``; ``card_gain``:
    ``best_card_gain``; ``pen``: ``penalty_unit``; ``w_gold``: the gold weight).

    Returns (value, the pair's value in the heuristic's units; gold actions in the pair;
    palaces built; houses built; actions it cannot carry out (each costs ``pen``); the gold
    left; what the palaces and what the houses add to the value; governor actions; character
    actions; move-house and quarry actions), all int64. ``fill_pair_values`` reads the value,
    the ``learned`` strategy the parts."""
    gold, pool, move_gain, gov1, city_house, city_trip, quarry_room, house_cost, builder = \
        inputs
    a = PAIR_A[k]
    b = PAIR_B[k]
    value = 0
    budget = gold
    houses = 0
    city_houses = 0
    palaces = 0
    pool_now = pool
    gold_actions = 0
    failed = 0
    palaces_built = 0
    houses_built = 0
    palace_part = 0
    house_part = 0
    governor = 0
    character = 0
    move_or_quarry = 0
    for i in range(2):
        kind = a if i == 0 else b
        second = i == 1 and a == b
        if kind == ACT.GOLD:
            gold_actions += 1
            value += comp[C_GOLD_ACTION] * w_gold
            budget += comp[C_GOLD_ACTION]
        elif kind == ACT.HOUSE:
            houses += 1
        elif kind == ACT.TWO_HOUSES:
            houses += 2
            city_houses += 1
        elif kind == ACT.MOVE_HOUSE:
            move_or_quarry += 1
            if move_gain == NEG:
                value -= pen
                failed += 1
            elif not second:
                value += max(move_gain, 0)
        elif kind == ACT.QUARRY:
            move_or_quarry += 1
            if not quarry_room:
                value -= pen
                failed += 1
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
            governor += 1
            if gov1 == NEG:
                value -= pen
                failed += 1
            elif not second:
                value += max(gov1, 0)
        else:
            character += 1
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
            failed += palaces
        else:
            value += v1
            palaces_built += 1
            palace_part += v1
            budget -= cost1
            trip = 0
            # the opening houses are paid in cost1 and count as built
            paid_open = opened - builder if opened > builder else 0
            houses -= paid_open
            houses_built += opened
            pool_now -= opened
            if palaces == 2:
                # one palace a city (R21): the second goes elsewhere
                v2, cost2, _, _ = best_palace_plan(budget, city1, 0, work)
                if v2 == NEG:
                    value -= pen
                    failed += 1
                else:
                    value += v2 // 2
                    palaces_built += 1
                    palace_part += v2 // 2
                    budget -= cost2
    # houses: the city houses first, then the best others
    for h in range(houses):
        cost = house_cost
        if h == 0 and city_houses > 0:
            cost += trip  # INF when no city is in reach: the action fails
        if pool_now <= 0 or budget < cost:
            value -= pen
            failed += 1
            continue
        budget -= cost
        pool_now -= 1
        if h < city_houses:
            hv = city_house
        else:
            hv = work[W_HEUR + H_TOP + min(h - city_houses, 3)]
        if hv == NEG:
            value -= pen
            failed += 1
        else:
            value += hv - w_gold * house_cost
            houses_built += 1
            house_part += hv - w_gold * house_cost
    return (value, gold_actions, palaces_built, houses_built, failed, budget, palace_part,
            house_part, governor, character, move_or_quarry)


@kernel
def fill_pair_values(state, comp, p, work, out, out_off):
    """Value of each of the 45 pairs for seat p into ``out[out_off:out_off + 45]`` (weights
    already loaded into ``work``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    work = borrowed(work)
    out = borrowed(out)
    prepare(state, comp, p, work, np.bool_(True))  # non-literal: one compiled prepare
    fill_village_values(state, comp, p, work)
    fill_top_houses(state, comp, p, work)
    fill_palace_plans(state, comp, p, work)
    pen = penalty_unit(state, comp, work)
    w_gold = wt(work, I_GOLD)
    inputs = pair_plan_inputs(state, comp, p, work)
    card_gain = best_card_gain(state, comp, p, work)
    for k in range(N_PAIRS):
        out[out_off + k] = pair_plan(comp, k, inputs, card_gain, pen, w_gold, work)[0]
