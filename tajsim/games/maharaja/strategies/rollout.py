"""Policies that never search: the random policy and the dispatcher the search's rollouts use.

``choose_simple_nb`` dispatches over every strategy except the search (numba cannot compile the
recursion search -> rollout -> dispatcher -> search), so the search kernel calls this one.
"""

from __future__ import annotations

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.strategies.heuristic import (
    decide_nb,
    load_greedy_weights,
    load_weights,
)
from tajsim.games.maharaja.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
)


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions, from the seat's own stream ``prng[player]``."""
    return legal[below(prng, player, n_legal)]


@kernel
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                     heuristics=True):
    """Ask non-search strategy ``strategy_id`` for an action among ``legal[:n_legal]``.

    ``work``: int64[WORK_SIZE] scratch. ``heuristics=None`` compiles a dispatcher without the
    heuristic family (``kernel_switches``); the caller must not pass their ids then. So does
    ``work=None`` (the GPU batch kernel's switch, ``GpuKernels.choose_simple``).
    """
    if heuristics is not None:
        if work is not None:  # nested, not `and`: numba prunes each None test on its own
            # One call site of the shared kernel: numba optimises it again at every call site.
            if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
                if strategy_id == STRATEGY_HEURISTIC:
                    load_weights(params, work)
                else:
                    load_greedy_weights(work)
                return decide_nb(state, comp, player, legal, n_legal, work)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]
