"""Compiled policies and the dispatcher that selects one by integer id.

Every policy reads only what ``player`` may see (see ``docs/games/maharaja/strategies.md``):
the whole board, the governor track, every seat's character card, gold, pool and quarry (every
gold change is public), the picks already revealed. It never reads another seat's unrevealed
pick (``state[S_PICK + q]`` while ``state[S_REVEALED + q] == 0``).

* ``state``: int64[STATE_SIZE]; ``comp``: int64[COMP_SIZE];
* ``params``: float64[N_PARAMS], the strategy's parameters;
* ``prng``: int64[MAX_PLAYERS], the per-seat policy streams (a policy advances slot ``player``);
* ``legal``: int64[>= n_legal], the legal actions from ``legal_actions_nb``; a restricted
  strategy (``forbid=``) removes its forbidden families from it in place (callers refill it
  before every decision; ``choose_action_nb`` works on a copy);
* ``work``: int64[WORK_SIZE] scratch (``choose_action_work_nb``; the public ``choose_action_nb``
  allocates one per call for callers that decide one action at a time).

Strategies are selected by id inside compiled code: passing jitted functions as arguments would
defeat numba's cache and make every worker compile again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.choice import forbid_mask
from tajsim.games.maharaja.strategies.ids import (
    N_PARAMS,
    N_STRATEGY_IDS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    STRATEGY_SEARCH,
    STRATEGY_TURNSEARCH,
    WORK_SIZE,
)
from tajsim.games.maharaja.strategies.restrictions import restrict_legal
from tajsim.games.maharaja.strategies.rollout import choose_simple_nb, random_policy_nb
from tajsim.games.maharaja.strategies.search import search_policy_nb
from tajsim.games.maharaja.strategies.turnsearch import turn_search_policy_nb

__all__ = [
    "N_PARAMS",
    "N_STRATEGY_IDS",
    "N_WEIGHTS",
    "STRATEGY_GREEDY",
    "STRATEGY_HEURISTIC",
    "STRATEGY_LEARNED",
    "STRATEGY_NET",
    "STRATEGY_RANDOM",
    "STRATEGY_SEARCH",
    "STRATEGY_TURNSEARCH",
    "WORK_SIZE",
    "choose_action_nb",
    "choose_action_work_nb",
    "random_policy_nb",
]


# Inlined into the batch kernel and choose_action_nb (numba IR): as a kernel of its own it
# would be one more module in which LLVM optimises every strategy again (cold compile).
@njit(cache=True, inline="always")
def choose_action_work_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                          search=True, heuristics=True, learned=True, net=None):
    """Ask strategy ``strategy_id`` for an action among ``legal[:n_legal]``, in scratch
    ``work`` (int64[WORK_SIZE]); allocates nothing.

    ``search=None`` / ``heuristics=None`` / ``learned=None`` compile a dispatcher without the
    search / the heuristic family / the learned policy, here and in the search's rollouts
    (``kernel_switches``); the caller must not pass their ids then. ``net`` is None (no
    network compiled in) or the ``net`` weights array (int64[...]) of the line-up's sets.
    """
    if search is not None:
        if strategy_id == STRATEGY_SEARCH:
            n = restrict_legal(state, legal, n_legal, forbid_mask(params))
            if n == 1 and n_legal > 1:  # the restriction left one action
                return legal[0]
            return search_policy_nb(state, comp, player, params, prng, legal, n, work,
                                    heuristics, learned, net)
        if strategy_id == STRATEGY_TURNSEARCH:
            n = restrict_legal(state, legal, n_legal, forbid_mask(params))
            if n == 1 and n_legal > 1:  # the restriction left one action
                return legal[0]
            return turn_search_policy_nb(state, comp, player, params, prng, legal, n, work,
                                         heuristics, learned, net)
    return choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                            work, heuristics, learned, net)


@njit(cache=True)
def choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     search=True, heuristics=True, learned=True, net=None):
    """``choose_action_work_nb`` with its own scratch: the ``GameKernels.choose_action``
    signature, for callers that decide one action at a time."""
    work = np.zeros(WORK_SIZE, np.int64)
    own = legal[:n_legal].copy()  # a restriction filters in place: the caller's list stays
    return choose_action_work_nb(strategy_id, state, comp, player, params, prng, own,
                                 n_legal, work, search, heuristics, learned, net)
