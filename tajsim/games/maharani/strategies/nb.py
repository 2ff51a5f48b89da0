"""Compiled policies and the dispatcher that selects one by integer id.

Every policy has the signature ``policy(state, comp, player, params, prng, legal, n_legal) ->
action`` (MCTS takes its workspace too) and may read only what ``player`` may see: the whole
state except the bag order (``S_BAG``), the chance stream ``S_RNG`` and the seeds
(``S_SETUP_SEED``, ``S_PLAY_SEED``). Which tiles are in the bag is public (every tile not on the
board, the turntable or out of play); their order is hidden from every seat.

* ``state``: int64[STATE_SIZE]; ``comp``: int64[COMP_SIZE];
* ``params``: float64[N_PARAMS], the strategy's parameters;
* ``prng``: int64[MAX_PLAYERS], the per-seat policy streams (a policy advances only its own);
* ``legal``: int64[>= n_legal], the legal actions from ``legal_actions_nb``; a restricted
  strategy (``forbid=``, the last slot of ``params``) removes its forbidden families from it in
  place in ``choose_action_inplace_nb`` (the play loop refills it before every decision);
  ``choose_action_nb`` leaves the caller's list alone.

Strategies are selected by id inside compiled code: passing jitted functions as arguments would
defeat numba's cache.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.choice import forbid_mask
from tajsim.games.maharani.strategies.heuristic import weighted_policy_nb
from tajsim.games.maharani.strategies.ids import (
    N_PARAMS,
    N_STRATEGY_IDS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_MCTS,
    STRATEGY_RANDOM,
    kernel_switches,
)
from tajsim.games.maharani.strategies.mcts import mcts_policy_nb
from tajsim.games.maharani.strategies.restrictions import restrict_legal
from tajsim.games.maharani.strategies.rollout import choose_simple_nb, random_policy_nb

__all__ = [
    "N_PARAMS",
    "N_STRATEGY_IDS",
    "N_WEIGHTS",
    "STRATEGY_GREEDY",
    "STRATEGY_HEURISTIC",
    "STRATEGY_MCTS",
    "STRATEGY_RANDOM",
    "choose_action_inplace_nb",
    "choose_action_nb",
    "kernel_switches",
    "mcts_policy_nb",
    "random_policy_nb",
    "weighted_policy_nb",
]


# Inlined into play_out_nb (numba IR): one module fewer in which LLVM optimises every strategy
# again (issue 13: cold compile).
@njit(cache=True, inline="always")
def choose_action_inplace_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                             search=None, heuristics=True, learned=True, net=None):
    """Ask strategy ``strategy_id`` for an action among ``legal[:n_legal]``; a restricted
    strategy filters ``legal`` in place (the play loop refills it before every decision).

    ``search`` is None (a dispatcher compiled without MCTS) or the MCTS workspace,
    int64[WORK_SIZE] (``kernel_switches`` makes one); ``heuristics=None`` / ``learned=None``
    compile without the heuristic family / the learned policy (here and in MCTS's rollouts);
    ``net`` is None (no network) or the ``net`` weights array. The caller must not pass the ids
    of a family switched off (they play ``legal[0]``).
    """
    if search is not None:
        if strategy_id == STRATEGY_MCTS:
            n = restrict_legal(state, comp, legal, n_legal, forbid_mask(params))
            if n == 1 and n_legal > 1:  # the restriction left one action
                return legal[0]
            return mcts_policy_nb(state, comp, player, params, prng, legal, n, search, learned,
                                  net)
    return choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                            heuristics, learned, net)


@njit(cache=True)
def choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal,
                     search=None, heuristics=True, learned=True, net=None):
    """``choose_action_inplace_nb`` that leaves the caller's ``legal`` as it was (the
    ``GameKernels.choose_action`` contract): a restricted strategy works on a copy of it, an
    unrestricted one allocates nothing."""
    own = legal if forbid_mask(params) == 0 else legal[:n_legal].copy()
    return choose_action_inplace_nb(strategy_id, state, comp, player, params, prng, own,
                                    n_legal, search, heuristics, learned, net)
