"""Policies that never search: the random policy and the dispatcher used inside ISMCTS rollouts.

``choose_simple_nb`` dispatches over every strategy except ``ismcts`` (numba cannot compile the
recursion ismcts -> rollout -> dispatcher -> ismcts), so the search kernel calls this one.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.rng import below
from tajsim.games.tajmahal.strategies.heuristic import GREEDY_WEIGHTS, weighted_policy_nb
from tajsim.games.tajmahal.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
)


@njit(cache=True)
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each card id counts as its own action)."""
    return legal[below(prng, player, n_legal)]


@njit(cache=True)
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     heuristics=True):
    """Ask non-search strategy ``strategy_id`` for an action among ``legal[:n_legal]``.

    ``heuristics=None`` compiles a dispatcher without the heuristic family (``kernel_switches``
    in :mod:`tajsim.games.tajmahal.strategies.ids`); the caller must not pass their ids then.
    """
    if heuristics is not None:
        # One call site of the shared kernel (not heuristic_policy_nb and greedy_policy_nb,
        # the same call twice): numba optimises the whole heuristic again at every call site.
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
            w = params if strategy_id == STRATEGY_HEURISTIC else GREEDY_WEIGHTS.copy()
            return weighted_policy_nb(state, comp, player, w, legal, n_legal)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]
