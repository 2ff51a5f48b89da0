"""Policies that never search: the random policy and the dispatchers ISMCTS's rollouts, the CPU
dispatcher and the GPU use.

``simple_choice_nb`` dispatches over every strategy except ``ismcts`` (numba cannot compile the
recursion ismcts -> rollout -> dispatcher -> ismcts), so the search kernel calls this one.

The generic strategy options (:mod:`tajsim.engine.choice`) are read from the end of ``params``:

* the **temperature** (``params[-2]``; one unit = one point of the heuristic's values, i.e.
  ``VALUE_ONE`` fixed-point units): above 0 the heuristic family (the presets and ``greedy``)
  draws among the legal actions from the values it left in ``work[WORK_VALUES:]``
  (:func:`draw_by_value`); ``learned`` draws by the softmax of its scores
  (:func:`~tajsim.games.tajmahal.strategies.learned.learned_choice`); ``random`` stays
  uniform;
* the **restriction mask** (``params[-1]``): ``choose_simple_nb`` removes the forbidden
  families from the legal list first (:mod:`~tajsim.games.tajmahal.strategies.restrictions`);
  ``simple_choice_nb`` does not, because ISMCTS's rollouts play every seat with the
  searcher's parameters and the restriction is the searcher's alone.
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import forbid_mask, softmax_index, temperature_units
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.strategies.heuristic import (
    WORK_VALUES,
    WORK_WEIGHTS,
    load_greedy_weights,
    weighted_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    VALUE_ONE,
)
from tajsim.games.tajmahal.strategies.learned import learned_choice
from tajsim.games.tajmahal.strategies.net import SCRATCH_SIZE, net_choose, net_policy_nb
from tajsim.games.tajmahal.strategies.restrictions import restrict_legal

# Fixed-point values are clamped to +-2**40 points' worth: far beyond any heuristic value, and
# a gap of two of them still fits an int64.
FIXED_LIMIT = float(1 << 50)
# Weights above 511 candidates are shifted down so that their sum stays below 2**31 (`below`).
MANY_CANDIDATES = 511
MANY_SHIFT = 3


@kernel
def fixed_value(v):
    """``floor(v * VALUE_ONE)`` as an int64 (clamped): the same integer on every device."""
    x = v * VALUE_ONE
    if x > FIXED_LIMIT:
        x = FIXED_LIMIT
    elif x < -FIXED_LIMIT:
        x = -FIXED_LIMIT
    return np.int64(math.floor(x))


@kernel
def draw_by_value(values, offset, n, t_units, prng, player):
    """Index ``i < n`` drawn by the shared integer softmax (:func:`softmax_index`) from the
    values ``values[offset:offset + n]`` (float64 points), which it turns into fixed point
    (``fixed_value``) in place; one draw from ``prng[player]``. ``t_units`` > 0
    (``temperature_units(params, VALUE_ONE)``)."""
    values = borrowed(values)
    prng = borrowed(prng)
    for i in range(n):
        values[offset + i] = fixed_value(values[offset + i])  # an integer, exact in a float64
    return softmax_index(values, offset, n, t_units, prng, player,
                         MANY_SHIFT if n > MANY_CANDIDATES else 0)


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions (each card id counts as its own action)."""
    return legal[below(prng, player, n_legal)]


# Inlined into its callers (numba IR): a separately compiled dispatcher is one more module
# in which LLVM optimises the whole heuristic again (issue 13: cold compile).
@kernel(inline="always")
def simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                     learned=True, net=None):
    """Ask non-search strategy ``strategy_id`` for an action among ``legal[:n_legal]`` at its
    temperature, without restrictions (ISMCTS's rollouts).

    ``work`` is the heuristic family's scratch (float64[HEURISTIC_WORK_SIZE]), or None to
    compile a dispatcher without the family; ``learned=None`` compiles it without the learned
    policy (``kernel_switches`` in :mod:`tajsim.games.tajmahal.strategies.ids`); ``net`` is
    None (no network: the GPU's dispatcher) or the ``net`` weights sets (int64[...]). The
    caller must not pass the ids of a family left out.
    """
    if work is not None:
        if net is not None:
            if strategy_id == STRATEGY_NET:
                return net_policy_nb(state, comp, player, params, prng, legal, n_legal, net,
                                     work)
        # One call site of the shared kernel (not heuristic_policy_nb and greedy_policy_nb,
        # the same call twice): numba optimises the whole heuristic again at every call site.
        # ``learned`` scores the values its base heuristic (``params[:N_WEIGHTS]``) leaves.
        if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY \
                or strategy_id == STRATEGY_LEARNED:
            if strategy_id == STRATEGY_GREEDY:
                load_greedy_weights(work)
            w = work[WORK_WEIGHTS:] if strategy_id == STRATEGY_GREEDY else params
            action = weighted_policy_nb(state, comp, player, w, legal, n_legal, work)
            if learned is not None:
                if strategy_id == STRATEGY_LEARNED:
                    return legal[learned_choice(state, comp, player, params, prng, legal,
                                                n_legal, work)]
            t_units = temperature_units(params, VALUE_ONE)
            if t_units > 0:  # at 0 nothing is drawn: today's choice, today's streams
                return legal[draw_by_value(work, WORK_VALUES, n_legal, t_units, prng, player)]
            return action
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]


@kernel(inline="always")
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work):
    """``simple_choice_nb`` after removing the families the seat is forbidden from
    ``legal[:n_legal]`` (in place: the callers refill ``legal`` before every decision).

    The GPU batch kernel's entry (``GpuKernels.choose_simple``)."""
    n = restrict_legal(state, comp, legal, n_legal, forbid_mask(params))
    if n == 1:  # the restriction left one action: nothing to choose
        return legal[0]
    return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n, work)


#: The GPU batch kernel's int64 scratch for ``net`` (``net_choose``'s; the CPU's
#: ``net_policy_nb`` allocates its own).
NET_SCRATCH_SIZE = SCRATCH_SIZE


@kernel(inline="always")
def choose_net_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work, net,
                  net_scratch):
    """``choose_simple_nb`` with ``net`` (int64[...], the line-up's weights sets) among the
    strategies: the GPU batch kernel's entry for a line-up with a ``net`` seat
    (``GpuKernels.choose_net``). The network decides in ``net_scratch``
    (int64[NET_SCRATCH_SIZE]) and the heuristic's ``work``, where the CPU's ``net_policy_nb``
    allocates its scratch."""
    if strategy_id == STRATEGY_NET:
        n = restrict_legal(state, comp, legal, n_legal, forbid_mask(params))
        if n == 1:  # the restriction left one action: nothing to choose
            return legal[0]
        return net_choose(state, comp, player, params, prng, legal, n, net, net_scratch, work)
    return choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work)
