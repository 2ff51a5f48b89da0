"""Policies that never search: ``random`` and the dispatcher used inside MCTS rollouts.

``choose_simple_nb`` dispatches over every strategy except MCTS (numba cannot compile the
recursion mcts -> rollout -> dispatcher -> mcts), so the search kernel calls this one.
"""

from __future__ import annotations

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharani.strategies.heuristic import weighted_policy_nb
from tajsim.games.maharani.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
)


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each tile, space and arrow direction its own action)."""
    return legal[below(prng, player, n_legal)]


# Inlined into its callers (numba IR): a separately compiled dispatcher is one more module
# in which LLVM optimises the whole heuristic again (issue 13: cold compile).
@kernel(inline="always")
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     heuristics=True):
    """Ask non-search strategy ``strategy_id`` for one of ``legal[:n_legal]``.

    ``heuristics=None`` compiles a dispatcher without the heuristic family; the caller must not
    pass its ids then (an unknown id plays ``legal[0]``).
    """
    if heuristics is not None:
        # One call site of the shared kernel: numba optimises it again at every call site.
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
            return weighted_policy_nb(state, comp, player, params, prng, legal, n_legal,
                                      strategy_id == STRATEGY_GREEDY)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]
