"""Maharaja's ``learned`` strategy: a linear policy over per-action features, fitted to imitate
the search (``tajsim train --game maharaja``; :mod:`tajsim.engine.learned`).

Each legal action ``a`` is scored ``theta . phi(state, a)`` (``linear_choice``: the best score,
the first of equal ones; above temperature 0 a softmax draw). ``phi`` (``FEATURE_NAMES``):

* ``value`` - what the base heuristic (``hoarder``'s weights, ``params[:N_WEIGHTS]``) gives the
  action, in gold, as its decision loop computes it (``decide_nb``'s per-action values; below
  ``VALUE_FLOOR`` gold held at the floor, so that the fit sees no 2^40-gold "impossible"
  values). ``theta = (1, 0, ..., 0)`` plays exactly like the base heuristic.
* ``value_not_pick`` - the same value at every decision but the secret pick (0 at the pick):
  the search decides only the pick and plays the base heuristic elsewhere, so the fit can
  weigh the value of the turn's steps apart from that of the pairs.
* the pick's pair (0 at other decisions), from the heuristic's own pair valuation
  (``fill_pair_values``: the same plan, taken apart): ``gold_actions`` (gold actions in the
  pair, 0-2), ``palaces_built`` (the palaces its plan builds, 0-2), ``houses_built`` (the houses
  it builds), ``failed_actions`` (the actions it cannot carry out: each costs a penalty),
  ``gold_left`` (the seat's gold after the pair's gold actions and the plan's spending, the
  Trader's gold included), ``palace_part`` and ``house_part`` (the gold value the palaces and
  the houses add to the pair's value), ``governor``, ``character`` and ``move_or_quarry`` (those
  actions in the pair), ``palaces_late`` and ``gold_late`` (palaces built and gold actions times
  the round / 10: the game's progress), ``palaces_behind`` (palaces built times how many
  palaces the best other seat has more than this one, negative when ahead).

The search's evaluation at the end of the round (palaces at 25 gold, plus gold, against the
best other seat) is what the pick features let the fit approach: what the pair builds and
what gold it leaves, beside the heuristic's long-term values.

Everything read is public or the seat's own (the base heuristic's values read only what the
seat may see), so the features do not change when ``redraw_hidden`` redraws the others'
unrevealed picks.

Scratch: the policy keeps the feature matrix and the temperature's scores in the float64 block
``work[W_LEARNED:W_LEARNED_END]`` (int64 slots viewed as float64), so the batch loops and the
GPU pass the same int64 ``work`` as for the heuristic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.learned import linear_choice
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACT,
    ACTION_PICK,
    C_GOLD_ACTION,
    C_HOUSE_COST,
    C_QUARRY_TAKE,
    C_TRADER_GOLD,
    CARD,
    N_ACTIONS,
    N_CITIES,
    PAIR_A,
    PAIR_B,
    PHASE_PICK,
    S_GOLD,
    S_N_PLAYERS,
    S_PALACES,
    S_PHASE,
    S_POOL,
    S_QUARRY,
    S_ROUND,
)
from tajsim.games.maharaja.engine.nb import holds
from tajsim.games.maharaja.strategies.heuristic import decide_nb
from tajsim.games.maharaja.strategies.heuristic_features import route_cost
from tajsim.games.maharaja.strategies.heuristic_pick import (
    best_city_house,
    best_governor,
    best_move_gain,
    best_palace_plan,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    H_TOP,
    I_GOLD,
    INF,
    NEG,
    load_weights,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    LEARNED_FEATURE_NAMES,
    N_LEARNED_FEATURES,
    N_WEIGHTS,
    SEARCH_ROLLOUT_SLOT,
    STRATEGY_LEARNED,
    W_HEUR,
    W_LEARNED,
    W_LEARNED_END,
    W_VALUES,
    WEIGHT_ONE,
    WORK_SIZE,
)

__all__ = ["FEATURE_NAMES", "VALUE_FLOOR", "WEIGHT_OFFSET", "expert_with_rollout",
           "fill_learned_features", "learned_features_nb", "learned_policy_nb"]

FEATURE_NAMES = LEARNED_FEATURE_NAMES
#: theta sits at params[WEIGHT_OFFSET:WEIGHT_OFFSET + N_LEARNED_FEATURES], after the base
#: heuristic's weights
WEIGHT_OFFSET = N_WEIGHTS
#: Lowest ``value`` feature, in gold (the heuristic's "impossible" values are about -2^40 gold;
#: no decision has all its actions below this, so the best action stays the heuristic's).
VALUE_FLOOR = -1000
ROUND_SCALE = 10.0  # the governor track's ten rounds (R27): round / 10 is the game's progress


@kernel
def fill_pick_features(state, comp, p, legal, n_legal, out, work):
    """The pick features of each pair ``legal[i]`` into ``out[i, 2:]``: the plan of the
    heuristic's ``fill_pair_values`` for the pair, taken apart (its scratch is the one
    ``fill_pair_values`` just filled for seat p: top houses, palace plans, village values)."""
    w_gold = wt(work, I_GOLD)
    gold = state[S_GOLD + p]
    if holds(state, p, CARD.TRADER):
        gold += comp[C_TRADER_GOLD]
    pool = state[S_POOL + p]
    move_gain = best_move_gain(state, comp, p, work)
    gov1 = best_governor(state, comp, p, work, -1)
    city_house = best_city_house(state, comp, p, work)
    city_trip = INF
    monk = holds(state, p, CARD.MONK)
    for c in range(N_CITIES):
        d = route_cost(work, c)
        if d < INF:
            city_trip = min(city_trip, 0 if monk else d)
    quarry_room = state[S_QUARRY + p] >= comp[C_QUARRY_TAKE]
    house_cost = comp[C_HOUSE_COST]
    builder = 1 if holds(state, p, CARD.BUILDER) else 0
    progress = state[S_ROUND] / ROUND_SCALE
    best_other = 0
    for q in range(state[S_N_PLAYERS]):
        if q != p and state[S_PALACES + q] > best_other:
            best_other = state[S_PALACES + q]
    behind = np.float64(best_other - state[S_PALACES + p])
    for i in range(n_legal):
        k = legal[i] - ACTION_PICK
        a = PAIR_A[k]
        b = PAIR_B[k]
        budget = gold
        houses = 0
        city_houses = 0
        palaces = 0
        pool_now = pool
        gold_n = 0
        failed = 0
        built_pal = 0
        built_houses = 0
        pal_part = 0
        house_part = 0
        governor = 0
        character = 0
        other = 0
        for side in range(2):
            kind = a if side == 0 else b
            if kind == ACT.GOLD:
                gold_n += 1
                budget += comp[C_GOLD_ACTION]
            elif kind == ACT.HOUSE:
                houses += 1
            elif kind == ACT.TWO_HOUSES:
                houses += 2
                city_houses += 1
            elif kind == ACT.MOVE_HOUSE:
                other += 1
                if move_gain == NEG:
                    failed += 1
            elif kind == ACT.QUARRY:
                other += 1
                if not quarry_room:
                    failed += 1
                else:
                    pool_now += comp[C_QUARRY_TAKE]
            elif kind == ACT.PALACE:
                palaces += 1
            elif kind == ACT.PALACE_HOUSE:
                palaces += 1
                houses += 1
            elif kind == ACT.GOVERNOR:
                governor += 1
                if gov1 == NEG:
                    failed += 1
            else:
                character += 1
        trip = city_trip
        if palaces > 0:
            max_open = houses - city_houses + builder
            if pool_now < max_open:
                max_open = pool_now
            v1, cost1, opened, city1 = best_palace_plan(budget, -1, max_open, work)
            if v1 == NEG:
                failed += palaces
            else:
                built_pal += 1
                pal_part += v1
                budget -= cost1
                trip = 0
                paid_open = opened - builder if opened > builder else 0
                houses -= paid_open
                built_houses += opened
                pool_now -= opened
                if palaces == 2:
                    v2, cost2, _, _ = best_palace_plan(budget, city1, 0, work)
                    if v2 == NEG:
                        failed += 1
                    else:
                        built_pal += 1
                        pal_part += v2 // 2
                        budget -= cost2
        for h in range(houses):
            cost = house_cost
            if h == 0 and city_houses > 0:
                cost += trip
            if pool_now <= 0 or budget < cost:
                failed += 1
                continue
            budget -= cost
            pool_now -= 1
            if h < city_houses:
                hv = city_house
            else:
                hv = work[W_HEUR + H_TOP + min(h - city_houses, 3)]
            if hv == NEG:
                failed += 1
            else:
                built_houses += 1
                house_part += hv - w_gold * house_cost
        out[i, 2] = gold_n
        out[i, 3] = built_pal
        out[i, 4] = built_houses
        out[i, 5] = failed
        out[i, 6] = budget
        out[i, 7] = pal_part / WEIGHT_ONE
        out[i, 8] = house_part / WEIGHT_ONE
        out[i, 9] = governor
        out[i, 10] = character
        out[i, 11] = other
        out[i, 12] = built_pal * progress
        out[i, 13] = gold_n * progress
        out[i, 14] = built_pal * behind


@kernel
def fill_learned_features(state, comp, player, params, legal, n_legal, out, work):
    """``phi(state, legal[i])`` into ``out[i, :N_LEARNED_FEATURES]`` for ``i < n_legal``.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]; player : int, the seat deciding
    params : float64[>= N_WEIGHTS], the base heuristic's weights first
    legal : int64[>= n_legal]
    out : float64[>= n_legal, >= N_LEARNED_FEATURES] (out)
    work : int64[WORK_SIZE] scratch (the heuristic block and ``work[W_VALUES:]`` overwritten)
    """
    load_weights(params, work)
    decide_nb(state, comp, player, legal, n_legal, work)  # every value into work[W_VALUES + i]
    pick = state[S_PHASE] == PHASE_PICK
    floor = np.int64(VALUE_FLOOR * WEIGHT_ONE)
    for i in range(n_legal):
        v = work[W_VALUES + i]
        if v < floor:
            v = floor
        value = v / WEIGHT_ONE  # exact: a power-of-two scale
        out[i, 0] = value
        out[i, 1] = 0.0 if pick else value
        for j in range(2, N_LEARNED_FEATURES):
            out[i, j] = 0.0
    if pick:
        fill_pick_features(state, comp, player, legal, n_legal, out, work)


@njit(cache=True)
def learned_features_nb(state, comp, player, params, legal, n_legal, out):
    """``fill_learned_features`` with scratch of its own (``LearnedPolicy.features``: the
    trainer calls it from Python at the expert's decisions)."""
    work = np.zeros(WORK_SIZE, np.int64)
    fill_learned_features(state, comp, player, params, legal, n_legal, out, work)


@kernel
def learned_policy_nb(state, comp, player, params, prng, legal, n_legal, work):
    """The ``learned`` strategy: ``linear_choice`` over ``fill_learned_features``.

    Parameters
    ----------
    params : float64[>= WEIGHT_OFFSET + N_LEARNED_FEATURES + 2]: the base heuristic's weights,
        theta at ``WEIGHT_OFFSET``, the generic options in the last two slots
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances, and only at a temperature
    work : int64[WORK_SIZE] scratch; the features live in its float64 block
    """
    block = work[W_LEARNED:W_LEARNED_END].view(np.float64)
    feats = block[:N_ACTIONS * N_LEARNED_FEATURES].reshape((N_ACTIONS, N_LEARNED_FEATURES))
    scores = block[N_ACTIONS * N_LEARNED_FEATURES:]
    fill_learned_features(state, comp, player, params, legal, n_legal, feats, work)
    i = linear_choice(feats, n_legal, N_LEARNED_FEATURES, params, WEIGHT_OFFSET, prng, player,
                      scores, WEIGHT_ONE)
    return legal[i]


def expert_with_rollout(expert_params: np.ndarray, learned_params: np.ndarray) -> np.ndarray:
    """The search's parameter vector ``expert_params`` (float64[N_PARAMS]) with the learned
    policy ``learned_params`` (float64[N_PARAMS], ``learned``'s vector) as its rollout policy:
    rollout = 4, the rollout weights (``r_*``) the learned policy's base weights and the rollout
    theta (``r_w_*``) its theta. The search's own settings and generic options stay."""
    out = np.array(expert_params, np.float64, copy=True)
    learned = np.asarray(learned_params, np.float64)
    out[SEARCH_ROLLOUT_SLOT] = STRATEGY_LEARNED
    out[N_WEIGHTS:2 * N_WEIGHTS] = learned[:N_WEIGHTS]
    rollout_theta = 2 * N_WEIGHTS  # the rollouts read theta at WEIGHT_OFFSET of params[16:]
    out[rollout_theta:rollout_theta + N_LEARNED_FEATURES] = \
        learned[WEIGHT_OFFSET:WEIGHT_OFFSET + N_LEARNED_FEATURES]
    return out
