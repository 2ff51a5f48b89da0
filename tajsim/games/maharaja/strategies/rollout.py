"""Policies that never search: the random policy and the dispatchers the search's rollouts and
the GPU use.

``choose_simple_nb`` dispatches over every strategy except the search (numba cannot compile the
recursion search -> rollout -> dispatcher -> search), so the search kernel calls this one.

The generic strategy options (:mod:`tajsim.engine.choice`) are read from the end of ``params``:

* the **temperature** (``params[-2]``, one unit = one gold of the heuristic's values, i.e.
  ``WEIGHT_ONE`` fixed-point units): above 0 the heuristic family draws among the legal actions
  from the values it left in ``work[W_VALUES:]``, ``learned`` from the softmax of its scores
  (``linear_choice``), ``random`` stays uniform;
* the **restriction mask** (``params[-1]``): ``choose_simple_nb`` removes the forbidden
  families from the legal list first (:mod:`~tajsim.games.maharaja.strategies.restrictions`);
  ``simple_choice_nb`` does not, because a search's rollouts play every seat with the
  searcher's parameters and the restriction is the searcher's alone.
"""

from __future__ import annotations

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import forbid_mask, softmax_index, temperature_units
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.strategies.heuristic import decide_nb, load_greedy_weights
from tajsim.games.maharaja.strategies.heuristic_work import load_weights
from tajsim.games.maharaja.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    W_VALUES,
    WEIGHT_ONE,
)
from tajsim.games.maharaja.strategies.learned import learned_policy_nb
from tajsim.games.maharaja.strategies.net import net_policy_nb
from tajsim.games.maharaja.strategies.restrictions import restrict_legal


@kernel
def random_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Uniform over the legal actions, from the seat's own stream ``prng[player]``."""
    return legal[below(prng, player, n_legal)]


@kernel
def simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                     heuristics=True, learned=True, net=None):
    """Ask non-search strategy ``strategy_id`` for an action among ``legal[:n_legal]`` at its
    temperature, without restrictions (the search's rollouts).

    ``work``: int64[WORK_SIZE] scratch. ``heuristics=None`` / ``learned=None`` compile a
    dispatcher without the heuristic family / the learned policy (``kernel_switches``); the
    caller must not pass their ids then. So does ``work=None`` (the GPU batch kernel's switch,
    ``GpuKernels.choose_simple``) for the heuristic family. ``net`` is None (no network: the
    GPU's default) or the ``net`` weights array (int64[...], ``kernel_switches``).
    """
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    # not ``work``: numba prunes a ``work is None`` test only on the argument itself (the GPU
    # passes None), and the heuristic's kernels borrow it themselves
    if heuristics is not None:
        if work is not None:  # nested, not `and`: numba prunes each None test on its own
            # One call site of the shared kernel: numba optimises it again at every call site.
            if strategy_id == STRATEGY_HEURISTIC or strategy_id == STRATEGY_GREEDY:
                if strategy_id == STRATEGY_HEURISTIC:
                    load_weights(params, work)
                else:
                    load_greedy_weights(work)
                action = decide_nb(state, comp, player, legal, n_legal, work)
                t_units = temperature_units(params, WEIGHT_ONE)
                if t_units > 0:  # at 0 nothing is drawn: today's choice, today's streams
                    return legal[softmax_index(work, W_VALUES, n_legal, t_units, prng,
                                             player, 0)]
                return action
            if learned is not None:
                if strategy_id == STRATEGY_LEARNED:  # calls the heuristic: the same switches
                    return learned_policy_nb(state, comp, player, params, prng, legal, n_legal,
                                             work)
            if net is not None:
                if strategy_id == STRATEGY_NET:  # its candidates are the heuristic's best
                    return net_policy_nb(state, comp, player, params, prng, legal, n_legal, net,
                                         work)
    if strategy_id == STRATEGY_RANDOM:
        return random_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[0]


@kernel(inline="always")  # into the dispatcher: one module fewer (cold compile)
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                     heuristics=True, learned=True, net=None):
    """``simple_choice_nb`` after removing the families the seat is forbidden from
    ``legal[:n_legal]`` (in place: the callers refill ``legal`` before every decision).

    The CPU dispatcher's and the GPU batch kernel's entry (``GpuKernels.choose_simple``)."""
    n = restrict_legal(state, legal, n_legal, forbid_mask(params))
    if n == 1 and n_legal > 1:  # the restriction left one action: nothing to choose
        return legal[0]
    return simple_choice_nb(strategy_id, state, comp, player, params, prng, legal, n, work,
                            heuristics, learned, net)


#: The GPU batch kernel's scratch for ``net``: none of its own (Maharaja's network works in the
#: heuristic's ``work``, int64[WORK_SIZE]).
NET_SCRATCH_SIZE = 1


@kernel(inline="always")
def choose_net_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work, net,
                  net_scratch):
    """``choose_simple_nb`` with ``net`` (int64[...], the line-up's weights sets) among the
    strategies: the GPU batch kernel's entry for a line-up with a ``net`` seat
    (``GpuKernels.choose_net``). ``net_scratch`` is unused (the network works in ``work``)."""
    return choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work,
                            True, True, net)
