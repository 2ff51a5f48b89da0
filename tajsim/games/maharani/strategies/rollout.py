"""Policies that never search: ``random`` and the dispatchers used inside MCTS rollouts and on
the GPU.

``choose_simple_nb`` dispatches over every strategy except MCTS (numba cannot compile the
recursion mcts -> rollout -> dispatcher -> mcts), so the search kernel calls this one.

The generic strategy options (:mod:`tajsim.engine.choice`) are read from the end of ``params``:

* the **temperature** (``params[-2]``, one unit = one gold of the heuristic's values): above 0
  the heuristic family and ``greedy`` draw a softmax of their values
  (:func:`~tajsim.games.maharani.strategies.heuristic.weighted_policy_nb`), ``random`` stays
  uniform;
* the **restriction mask** (``params[-1]``): ``choose_simple_nb`` removes the forbidden
  families from the legal list first (:mod:`~tajsim.games.maharani.strategies.restrictions`);
  ``simple_choice_nb`` does not, because MCTS rollouts play every seat with the searcher's
  rollout parameters and the restriction is the searcher's alone.
"""

from __future__ import annotations

from tajsim.engine.choice import forbid_mask
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharani.strategies.heuristic import weighted_policy_nb
from tajsim.games.maharani.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
)
from tajsim.games.maharani.strategies.learned import learned_policy_nb
from tajsim.games.maharani.strategies.net import SCRATCH_SIZE, net_choose, net_policy_nb
from tajsim.games.maharani.strategies.restrictions import restrict_legal


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each tile, space and arrow direction its own action)."""
    return legal[below(prng, player, n_legal)]


# Inlined into its callers (numba IR): a separately compiled dispatcher is one more module
# in which LLVM optimises the whole heuristic again (issue 13: cold compile).
@kernel(inline="always")
def simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     heuristics=True, learned=True, net=None):
    """Ask non-search strategy ``strategy_id`` for one of ``legal[:n_legal]`` at its
    temperature, without restrictions (MCTS rollouts).

    ``heuristics=None`` compiles a dispatcher without the heuristic family (``greedy``, the
    presets, ``learned`` and ``net``, which call the heuristic), ``learned=None`` one without
    the learned policy; ``net`` is None (no network) or the ``net`` weights array
    (``kernel_switches``); the caller must not pass the ids left out (an unknown id plays
    ``legal[0]``).
    """
    if heuristics is not None:
        # One call site of the shared kernel: numba optimises it again at every call site.
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
            return weighted_policy_nb(state, comp, player, params, prng, legal, n_legal,
                                      strategy_id == STRATEGY_GREEDY)
        if learned is not None:
            if strategy_id == STRATEGY_LEARNED:  # its first feature is the heuristic's value
                return learned_policy_nb(state, comp, player, params, prng, legal, n_legal)
        if net is not None:
            if strategy_id == STRATEGY_NET:  # its candidates are the heuristic's best
                return net_policy_nb(state, comp, player, params, prng, legal, n_legal, net)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]


@kernel(inline="always")
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     heuristics=True, learned=True, net=None):
    """``simple_choice_nb`` after removing the families the seat is forbidden from
    ``legal[:n_legal]`` (in place: the callers refill ``legal`` before every decision).

    The CPU dispatcher's and the GPU batch kernel's entry (``GpuKernels.choose_simple``)."""
    n = restrict_legal(state, comp, legal, n_legal, forbid_mask(params))
    if n == 1 and n_legal > 1:  # the restriction left one action: nothing to choose
        return legal[0]
    return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n,
                            heuristics, learned, net)


#: The GPU batch kernel's int64 scratch for ``net`` (``net_choose``'s; the CPU's
#: ``net_policy_nb`` allocates its own).
NET_SCRATCH_SIZE = SCRATCH_SIZE


@kernel(inline="always")
def choose_net_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work, net,
                  net_scratch):
    """``choose_simple_nb`` with ``net`` (int64[...], the line-up's weights sets) among the
    strategies: the GPU batch kernel's entry for a line-up with a ``net`` seat
    (``GpuKernels.choose_net``). The network decides in ``net_scratch``
    (int64[NET_SCRATCH_SIZE]) where the CPU's ``net_policy_nb`` allocates; ``work`` switches the
    heuristic family on, as in the batch kernel's call of ``choose_simple_nb``."""
    if strategy_id == STRATEGY_NET:
        n = restrict_legal(state, comp, legal, n_legal, forbid_mask(params))
        if n == 1 and n_legal > 1:  # the restriction left one action: nothing to choose
            return legal[0]
        return net_choose(state, comp, player, params, prng, legal, n, net, net_scratch)
    return choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work)
