"""Policies that never search: the random policy and the dispatcher used inside ISMCTS rollouts.

``choose_simple_nb`` dispatches over every strategy except ``ismcts`` (numba cannot compile the
recursion ismcts -> rollout -> dispatcher -> ismcts), so the search kernel calls this one.
"""

from __future__ import annotations

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.strategies.heuristic import (
    WORK_WEIGHTS,
    load_greedy_weights,
    weighted_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
)


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each card id counts as its own action)."""
    return legal[below(prng, player, n_legal)]


# Inlined into its callers (numba IR): a separately compiled dispatcher is one more module
# in which LLVM optimises the whole heuristic again (issue 13: cold compile).
@kernel(inline="always")
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work):
    """Ask non-search strategy ``strategy_id`` for an action among ``legal[:n_legal]``.

    ``work`` is the heuristic family's scratch (float64[HEURISTIC_WORK_SIZE]), or None to
    compile a dispatcher without the family (``kernel_switches`` in
    :mod:`tajsim.games.tajmahal.strategies.ids`); the caller must not pass their ids then.
    """
    if work is not None:
        # One call site of the shared kernel (not heuristic_policy_nb and greedy_policy_nb,
        # the same call twice): numba optimises the whole heuristic again at every call site.
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
            if strategy_id == STRATEGY_GREEDY:
                load_greedy_weights(work)
            w = params if strategy_id == STRATEGY_HEURISTIC else work[WORK_WEIGHTS:]
            return weighted_policy_nb(state, comp, player, w, legal, n_legal, work)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]
