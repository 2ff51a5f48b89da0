"""Compiled policies and the dispatcher that selects one by integer id.

Every policy has the signature ``policy(state, comp, player, params, prng, legal, n_legal) ->
action`` and may read only what ``player`` may see (see ``docs/strategies.md``): its own hand, the
rows, the display, unrest, the court, the board, scores, hand sizes, the cards whose location is
public (``state[S_CARD_PUBLIC + card] == 1``). It must never read another hand or the deck order.

* ``state``: int64[STATE_SIZE]; ``comp``: int64[COMP_SIZE];
* ``params``: float64[N_PARAMS], the strategy's parameters (weights);
* ``prng``: int64[MAX_PLAYERS], the per-seat policy streams (the policy uses slot ``player``);
* ``legal``: int64[>= n_legal], the legal actions from ``legal_actions_nb``.

Strategies are selected by id inside compiled code: passing jitted functions as arguments would
defeat numba's cache and make every worker compile again.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.rng import below

N_PARAMS = 16

STRATEGY_RANDOM = 0


@njit(cache=True)
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each card id counts as its own action)."""
    return legal[below(prng, player, n_legal)]


@njit(cache=True)
def choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal):
    """Ask strategy ``strategy_id`` for an action among ``legal[:n_legal]``."""
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]
