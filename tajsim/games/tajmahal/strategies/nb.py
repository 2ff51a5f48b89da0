"""Compiled policies and the dispatcher that selects one by integer id.

Every policy has the signature ``policy(state, comp, player, params, prng, legal, n_legal) ->
action`` and may read only what ``player`` may see (see ``docs/strategies.md``): its own hand, the
rows, the display, unrest, the court, the board, scores, hand sizes, the cards whose location is
public (``state[S_CARD_PUBLIC + card] == 1``). It must never read another hand or the deck order.

* ``state``: int64[STATE_SIZE]; ``comp``: int64[COMP_SIZE];
* ``params``: float64[N_PARAMS], the strategy's parameters (weights);
* ``prng``: int64[MAX_PLAYERS], the per-seat policy streams (the policy uses slot ``player``);
* ``legal``: int64[>= n_legal], the legal actions from ``legal_actions_nb`` (left as it is: a
  restricted strategy, ``forbid=``, filters a copy).

The generic options (``temperature``, ``forbid``) sit in the last two slots of ``params``
(:mod:`tajsim.engine.choice`; :mod:`~tajsim.games.tajmahal.strategies.rollout` says how each
strategy reads them).

Strategies are selected by id inside compiled code: passing jitted functions as arguments would
defeat numba's cache and make every worker compile again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.choice import forbid_mask
from tajsim.games.tajmahal.strategies.heuristic import (
    HEURISTIC_WORK_SIZE,
    greedy_policy_nb,
    heuristic_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import (
    N_PARAMS,
    N_STRATEGY_IDS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_ISMCTS,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
)
from tajsim.games.tajmahal.strategies.ismcts import ismcts_policy_nb
from tajsim.games.tajmahal.strategies.restrictions import restrict_legal
from tajsim.games.tajmahal.strategies.rollout import random_policy_nb, simple_choice_nb

__all__ = [
    "N_PARAMS",
    "N_STRATEGY_IDS",
    "N_WEIGHTS",
    "STRATEGY_GREEDY",
    "STRATEGY_HEURISTIC",
    "STRATEGY_ISMCTS",
    "STRATEGY_LEARNED",
    "STRATEGY_NET",
    "STRATEGY_RANDOM",
    "choose_action_nb",
    "greedy_policy_nb",
    "heuristic_policy_nb",
    "ismcts_policy_nb",
    "random_policy_nb",
]


# Inlined into play_out_nb (numba IR; still compiled on its own when Python calls it): one
# module fewer in which LLVM optimises every strategy again (issue 13: cold compile).
@njit(cache=True, inline="always")
def choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     search=True, heuristics=True, learned=True, net=None, work=None):
    """Ask strategy ``strategy_id`` for an action among ``legal[:n_legal]``.

    A restricted strategy (``forbid=``, the last slot of ``params``) chooses among a copy of
    the list without its forbidden families (the whole list where that would leave nothing).
    Search strategies are dispatched here; the others through ``simple_choice_nb``, the
    dispatcher rollouts use (it cannot reach ISMCTS, so numba sees no recursion).
    ``search=None`` / ``heuristics=None`` / ``learned=None`` compile a dispatcher without
    ISMCTS / the heuristic family / the learned policy, in the dispatcher and in ISMCTS's
    rollouts (see ``kernel_switches``); the caller must not pass their ids then. ``net`` is
    None (no network) or the ``net`` weights sets (int64[...]) of the line-up's ``net`` seats
    and network-guided searches.
    ``work`` is the heuristic's scratch, float64[HEURISTIC_WORK_SIZE], allocated once by a
    caller that decides many times (the batch kernels); None allocates it for this decision.
    """
    mask = forbid_mask(params)
    if mask != 0:  # an allocation for restricted seats only: the caller's list stays whole
        legal = legal[:n_legal].copy()
        n_legal = restrict_legal(state, comp, legal, n_legal, mask)
        if n_legal == 1:
            return legal[0]
    if search is not None:
        if strategy_id == STRATEGY_ISMCTS:
            return ismcts_policy_nb(state, comp, player, params, prng, legal, n_legal, learned,
                                    net)
    if heuristics is not None:
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY \
                or strategy_id == STRATEGY_LEARNED or strategy_id == STRATEGY_NET:
            if work is None:
                scratch = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
                return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal,
                                        n_legal, scratch, learned, net)
            return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal,
                                    n_legal, work, learned, net)
    return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                            None, None)
