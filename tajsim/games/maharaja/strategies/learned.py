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
  (``pair_plan``, whose value ``fill_pair_values`` reads: the same plan, taken apart):
  ``gold_actions`` (gold actions in the pair, 0-2), ``palaces_built`` (the palaces its plan
  builds, 0-2), ``houses_built`` (the houses it builds), ``failed_actions`` (the actions it
  cannot carry out: each costs a penalty), ``gold_left`` (the seat's gold after the pair's gold
  actions and the plan's spending, the Trader's gold included), ``palace_part`` and
  ``house_part`` (the gold value the palaces and the houses add to the pair's value),
  ``governor``, ``character`` and ``move_or_quarry`` (those actions in the pair),
  ``palaces_late`` and ``gold_late`` (palaces built and gold actions times the round / 10: the
  game's progress), ``palaces_behind`` (palaces built times how many palaces the best other seat
  has more than this one, negative when ahead).

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

from tajsim.engine.arrays import borrowed
from tajsim.engine.learned import linear_choice
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACTION_PICK,
    N_ACTIONS,
    PHASE_PICK,
    S_N_PLAYERS,
    S_PALACES,
    S_PHASE,
    S_ROUND,
)
from tajsim.games.maharaja.strategies.heuristic import decide_nb
from tajsim.games.maharaja.strategies.heuristic_features import penalty_unit
from tajsim.games.maharaja.strategies.heuristic_pick import (
    best_card_gain,
    pair_plan,
    pair_plan_inputs,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    I_GOLD,
    load_weights,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    LEARNED_FEATURE_NAMES,
    N_LEARNED_FEATURES,
    N_WEIGHTS,
    SEARCH_ROLLOUT_SLOT,
    STRATEGY_LEARNED,
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
    """The pick features of each pair ``legal[i]`` into ``out[i, 2:]``: the heuristic's plan
    for the pair (``pair_plan``, whose value ``fill_pair_values`` reads), taken apart (its
    scratch is the one ``fill_pair_values`` just filled for seat p: top houses, palace plans,
    village values)."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    out = borrowed(out)
    work = borrowed(work)
    w_gold = wt(work, I_GOLD)
    inputs = pair_plan_inputs(state, comp, p, work)
    card_gain = best_card_gain(state, comp, p, work)
    pen = penalty_unit(state, comp, work)
    progress = state[S_ROUND] / ROUND_SCALE
    best_other = 0
    for q in range(state[S_N_PLAYERS]):
        if q != p and state[S_PALACES + q] > best_other:
            best_other = state[S_PALACES + q]
    behind = np.float64(best_other - state[S_PALACES + p])
    for i in range(n_legal):
        (_, gold_actions, palaces_built, houses_built, failed, gold_left, palace_part,
         house_part, governor, character, move_or_quarry) = pair_plan(
            comp, legal[i] - ACTION_PICK, inputs, card_gain, pen, w_gold, work)
        out[i, 2] = gold_actions
        out[i, 3] = palaces_built
        out[i, 4] = houses_built
        out[i, 5] = failed
        out[i, 6] = gold_left
        out[i, 7] = palace_part / WEIGHT_ONE
        out[i, 8] = house_part / WEIGHT_ONE
        out[i, 9] = governor
        out[i, 10] = character
        out[i, 11] = move_or_quarry
        out[i, 12] = palaces_built * progress
        out[i, 13] = gold_actions * progress
        out[i, 14] = palaces_built * behind


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
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    out = borrowed(out)
    work = borrowed(work)
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
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    work = borrowed(work)
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
