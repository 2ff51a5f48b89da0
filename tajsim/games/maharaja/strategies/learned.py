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
* the pick's pair (0 at other decisions): ``gold_actions`` (gold actions in the pair, 0-2),
  ``palaces`` (palace and palace+house actions), ``houses`` (houses the pair builds: house 1,
  two houses 2, palace+house 1), ``governor``, ``character``, ``move_or_quarry``, ``repeated``
  (the pair repeats one action), ``palaces_late`` and ``gold_late`` (those counts times the
  round / 10: the game's progress), ``palaces_short`` (palace actions while the seat's gold,
  the Trader's included, is short of a palace's price), ``palaces_behind`` (palace actions
  times how many palaces the best other seat has more than this one, negative when ahead).

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
    C_TRADER_GOLD,
    CARD,
    N_ACTIONS,
    PAIR_A,
    PAIR_B,
    PHASE_PICK,
    S_GOLD,
    S_N_PLAYERS,
    S_PALACES,
    S_PHASE,
    S_ROUND,
)
from tajsim.games.maharaja.engine.nb import holds, palace_cost
from tajsim.games.maharaja.strategies.heuristic import decide_nb
from tajsim.games.maharaja.strategies.heuristic_work import load_weights
from tajsim.games.maharaja.strategies.ids import (
    LEARNED_FEATURE_NAMES,
    N_LEARNED_FEATURES,
    N_WEIGHTS,
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
    progress = state[S_ROUND] / ROUND_SCALE
    gold = state[S_GOLD + player]
    if holds(state, player, CARD.TRADER):
        gold += comp[C_TRADER_GOLD]
    short = 1.0 if gold < palace_cost(state, comp, player) else 0.0
    best_other = 0
    for q in range(state[S_N_PLAYERS]):
        if q != player and state[S_PALACES + q] > best_other:
            best_other = state[S_PALACES + q]
    behind = np.float64(best_other - state[S_PALACES + player])
    floor = np.int64(VALUE_FLOOR * WEIGHT_ONE)
    for i in range(n_legal):
        v = work[W_VALUES + i]
        if v < floor:
            v = floor
        value = v / WEIGHT_ONE  # exact: a power-of-two scale
        out[i, 0] = value
        for j in range(1, N_LEARNED_FEATURES):
            out[i, j] = 0.0
        if not pick:
            out[i, 1] = value
            continue
        k = legal[i] - ACTION_PICK
        gold_n = 0.0
        palaces = 0.0
        houses = 0.0
        for side in range(2):
            a = PAIR_A[k] if side == 0 else PAIR_B[k]
            if a == ACT.GOLD:
                gold_n += 1.0
            elif a == ACT.HOUSE:
                houses += 1.0
            elif a == ACT.TWO_HOUSES:
                houses += 2.0
            elif a == ACT.PALACE:
                palaces += 1.0
            elif a == ACT.PALACE_HOUSE:
                palaces += 1.0
                houses += 1.0
            elif a == ACT.GOVERNOR:
                out[i, 5] += 1.0
            elif a == ACT.CHARACTER:
                out[i, 6] += 1.0
            else:  # move a house, the quarry
                out[i, 7] += 1.0
        out[i, 2] = gold_n
        out[i, 3] = palaces
        out[i, 4] = houses
        out[i, 8] = 1.0 if PAIR_A[k] == PAIR_B[k] else 0.0
        out[i, 9] = palaces * progress
        out[i, 10] = gold_n * progress
        out[i, 11] = palaces * short
        out[i, 12] = palaces * behind


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
    from tajsim.games.maharaja.strategies.search import I_ROLLOUT

    out = np.array(expert_params, np.float64, copy=True)
    learned = np.asarray(learned_params, np.float64)
    out[I_ROLLOUT] = STRATEGY_LEARNED
    out[N_WEIGHTS:2 * N_WEIGHTS] = learned[:N_WEIGHTS]
    rollout_theta = 2 * N_WEIGHTS  # the rollouts read theta at WEIGHT_OFFSET of params[16:]
    out[rollout_theta:rollout_theta + N_LEARNED_FEATURES] = \
        learned[WEIGHT_OFFSET:WEIGHT_OFFSET + N_LEARNED_FEATURES]
    return out
