"""Strategy ids, the parameter vector and the scratch layout shared by the strategy kernels.

Kept apart from :mod:`tajsim.games.maharaja.strategies.nb` (the dispatcher) so that the search
kernel can import them without importing the dispatcher that calls it.

Scratch. Policies never allocate: they work in ``work``, an int64[WORK_SIZE] array the caller
owns (the batch kernel allocates one per batch, ``play_out_nb`` one per game, the public
``choose_action_nb`` one per call). The heuristic uses ``work[W_HEUR:W_HEUR + HEUR_SIZE]``; the
search keeps its own block after it, because its rollouts call the heuristic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tajsim.engine.learned import learned_switch
from tajsim.engine.net_switch import line_up_net_switch
from tajsim.engine.net_switch import net_rollout_rows as shared_rollout_rows
from tajsim.games.maharaja.engine.enums import MAX_PLAYERS, N_ACTIONS, N_PAIRS, STATE_SIZE

# params: float64[N_PARAMS]. The heuristic family reads the first N_WEIGHTS slots; ``learned``
# reads the heuristic's weights there and its feature weights theta from N_WEIGHTS (at most
# MAX_FEATURES of them); the search reads its settings from the first slots and gives
# params[N_WEIGHTS:] to its rollout policy (16 rollout weights, then the rollout theta when
# the rollouts play ``learned``). The last two slots are the generic options, temperature and
# the restriction mask (tajsim.engine.choice: read from the end, so the rollouts' slice keeps
# them). Three blocks of 16 since ``learned`` (34 before: the kernels read the same slots, so
# every other strategy's records are unchanged).
N_WEIGHTS = 16
MAX_FEATURES = 16
N_OWN_PARAMS = 2 * N_WEIGHTS + MAX_FEATURES
N_PARAMS = N_OWN_PARAMS + 2

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2
STRATEGY_SEARCH = 3
STRATEGY_LEARNED = 4
#: ``turnsearch`` (strategies/turnsearch.py): the search's settings and more, in the same slots
STRATEGY_TURNSEARCH = 5
#: ``net`` (strategies/net.py): the policy-and-value network; also the search's ``rollout`` value
#: that rolls out with it (the network-guided search, ``registry.expert_with_net_rollout``)
STRATEGY_NET = 6
N_STRATEGY_IDS = 7
#: Where ``net`` reads the fingerprint of its weights set (its base heuristic's weights, the
#: candidates' values, in ``params[:N_WEIGHTS]``); in a search's vector the rollouts' slice
#: ``params[N_WEIGHTS:]`` holds it at the same place.
NET_FP_SLOT = N_WEIGHTS
#: The search's parameter slot naming its rollout policy's strategy id (here, not in the search
#: module, so that ``learned`` can set it without importing the search that imports it).
SEARCH_ROLLOUT_SLOT = 5

# Fixed point: weights become integers w * WEIGHT_ONE (a power of two, so exact), and every
# decision compares integers (bit-identical on CPU and GPU).
WEIGHT_ONE = 1024

# Search limits (the tree is one simultaneous node: one bandit per seat over its candidates).
MAX_CANDIDATES = 12
MAX_ITERATIONS = 4096

# Scratch layout (int64 slots)
HEUR_SIZE = 320
W_HEUR = 0
W_SEARCH_STATE = W_HEUR + HEUR_SIZE  # the rollout's copy of the state
W_SEARCH_LEGAL = W_SEARCH_STATE + STATE_SIZE  # its legal-action buffer
W_SEARCH_PRNG = W_SEARCH_LEGAL + N_ACTIONS  # rollout policy streams
W_SEARCH_CAND = W_SEARCH_PRNG + MAX_PLAYERS  # [P * MAX_CANDIDATES] candidate pairs per seat
W_SEARCH_N = W_SEARCH_CAND + MAX_PLAYERS * MAX_CANDIDATES  # visits per candidate
W_SEARCH_SUM = W_SEARCH_N + MAX_PLAYERS * MAX_CANDIDATES  # summed rewards per candidate
W_SEARCH_NCAND = W_SEARCH_SUM + MAX_PLAYERS * MAX_CANDIDATES  # [P] candidates per seat
W_SEARCH_CHOICE = W_SEARCH_NCAND + MAX_PLAYERS  # [P] this iteration's candidate per seat
W_SEARCH_PAIRV = W_SEARCH_CHOICE + MAX_PLAYERS  # [N_PAIRS] pair values of one seat
W_SEARCH_EVAL = W_SEARCH_PAIRV + N_PAIRS  # [P] evaluations at the horizon
# [N_ACTIONS] the heuristic's value of each legal action of its last decision (the temperature
# draws from them)
W_VALUES = W_SEARCH_EVAL + MAX_PLAYERS
# ``learned``'s float64 block, held in int64 slots (viewed as float64): the feature matrix
# [N_ACTIONS, N_LEARNED_FEATURES] of a decision's legal actions, then N_ACTIONS scores for the
# temperature draw
LEARNED_FEATURE_NAMES = ("value", "value_not_pick", "gold_actions", "palaces_built",
                         "houses_built", "failed_actions", "gold_left", "palace_part",
                         "house_part", "governor", "character", "move_or_quarry",
                         "palaces_late", "gold_late", "palaces_behind")
N_LEARNED_FEATURES = len(LEARNED_FEATURE_NAMES)
W_LEARNED = W_VALUES + N_ACTIONS
W_LEARNED_END = W_LEARNED + N_ACTIONS * (N_LEARNED_FEATURES + 1)
WORK_SIZE = W_LEARNED_END


def kernel_switches(strategy_ids: Iterable[int], params: Any = None) -> tuple[Any, ...]:
    """The ``search``, ``heuristics``, ``learned`` (and ``net``) arguments of the game kernels for
    these strategy ids (``params``: their parameter rows, float64[len(ids), N_PARAMS], or None).

    numba drops the code behind ``if search is not None`` when ``search`` is ``None``, so a run
    without the search strategy (``None`` for ``search``), without the heuristic family
    (``None`` for ``heuristics``: ``greedy``, the presets, ``learned`` and ``net``) or without the
    learned policy (``None`` for ``learned``) compiles a smaller kernel. ``learned`` is kept
    for a ``learned`` seat and for a search seat that rolls out with it; without ``params``
    for any search seat.

    ``net`` is the int64 array of the weights sets the line-up's ``net`` seats and the search
    seats rolling out with ``net`` name (:func:`tajsim.engine.net_switch.net_switch`; a ``net``
    seat without ``params``: every set loaded). It is appended only when the line-up has one:
    the kernels' ``net`` argument defaults to None (no network compiled in), so every other
    line-up passes the same three switches as before ``net``.
    """
    ids = [int(i) for i in strategy_ids]
    id_set = set(ids)
    # ``turnsearch`` shares the search's switch (it calls the search's pick) and its rollout
    # slot: for the learned switch it counts as a search seat
    search = True if id_set & {STRATEGY_SEARCH, STRATEGY_TURNSEARCH} else None
    search_ids = [STRATEGY_SEARCH if i == STRATEGY_TURNSEARCH else i for i in ids]
    # The search's rollouts use the heuristic, so search keeps the heuristics too; so do
    # ``learned``, whose first feature is the heuristic's value, and ``net``, whose candidates
    # are the heuristic's best.
    heuristics = True if id_set & {STRATEGY_GREEDY, STRATEGY_HEURISTIC, STRATEGY_LEARNED,
                                   STRATEGY_NET} or search else None
    learned = learned_switch(search_ids, params, STRATEGY_LEARNED, STRATEGY_SEARCH,
                             SEARCH_ROLLOUT_SLOT, STRATEGY_LEARNED)
    net = line_up_net_switch(ids, params, STRATEGY_NET, net_rollout_rows(ids, params),
                             NET_FP_SLOT)
    if net is None:
        return search, heuristics, learned
    return search, heuristics, learned, net


def net_rollout_rows(ids: list[int], params: Any) -> list[Any]:
    """The rollouts' parameter slices (``row[N_WEIGHTS:]``: the base heuristic's weights, then
    the fingerprint at ``NET_FP_SLOT``) of the search seats whose ``params`` row rolls out with
    ``net`` (none without ``params``)."""
    return shared_rollout_rows(ids, params, (STRATEGY_SEARCH, STRATEGY_TURNSEARCH),
                               SEARCH_ROLLOUT_SLOT, STRATEGY_NET, N_WEIGHTS)
