"""Strategy ids, the parameter vector's layout and the MCTS workspace's, shared by every Maharani
strategy kernel.

Constants only: this module imports no strategy module, so the dispatcher
(:mod:`~tajsim.games.maharani.strategies.nb`), the search
(:mod:`~tajsim.games.maharani.strategies.mcts`) and the registry all import it without an
import circle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from tajsim.engine.learned import learned_switch
from tajsim.engine.net_switch import line_up_net_switch
from tajsim.engine.net_switch import net_rollout_rows as shared_rollout_rows
from tajsim.games.maharani.engine.enums import MAX_PLAYERS, MAX_TILES, N_ACTIONS, STATE_SIZE

# Every policy receives ``params``: float64[N_PARAMS]. The heuristic family reads the first
# ``N_WEIGHTS`` slots (turned into fixed-point integers once per decision); ``learned`` reads
# its base heuristic's weights there too and its feature weights (theta) in the next
# ``N_THETA_SLOTS``; MCTS reads its settings from the first slots and passes
# ``params[N_WEIGHTS:]`` to its rollout policy (its 16 rollout weights, then a learned
# rollout's theta: the layout of ``learned``'s own vector). The last two slots are the generic
# options, temperature and the restriction mask (tajsim.engine.choice: read from the end, so
# the rollouts' slice keeps them). N_THETA_SLOTS was added for ``learned`` (34 -> 50 slots):
# every other strategy reads the same slots as before, so its records are unchanged.
N_WEIGHTS = 16
N_THETA_SLOTS = 16
N_OWN_PARAMS = 2 * N_WEIGHTS + N_THETA_SLOTS
N_PARAMS = N_OWN_PARAMS + 2
#: Value units of the heuristic per unit of temperature: its values are thousandths of gold, so
#: one unit of temperature is one gold.
TEMPERATURE_SCALE = 1000

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2
STRATEGY_MCTS = 3
STRATEGY_LEARNED = 4
STRATEGY_NET = 5
N_STRATEGY_IDS = 6
#: Where ``learned`` reads its feature weights: ``params[LEARNED_OFFSET:LEARNED_OFFSET +
#: n_features]`` (its base heuristic's weights in ``params[:N_WEIGHTS]``).
LEARNED_OFFSET = N_WEIGHTS
#: MCTS's parameter slot naming its rollout policy, and the value there that names ``learned``
#: (here, not in the search module, so that ``kernel_switches`` reads them).
MCTS_ROLLOUT_SLOT = 2
MCTS_ROLLOUT_LEARNED = 3
#: The ``rollout`` value that names ``net`` (the network-guided search).
MCTS_ROLLOUT_NET = 4
#: Where ``net`` reads the fingerprint of its weights set (``net.py``; ``balanced``'s weights,
#: its candidates' values, in ``params[:N_WEIGHTS]``).
NET_FP_SLOT = N_WEIGHTS

# The MCTS workspace (int64 slots; ``new_workspace``): the tree and the search's scratch.
MAX_NODES = 1 << 15
MAX_PATH = 512
P = MAX_PLAYERS
W_STAMP = 0
W_LN_N = 1  # how many entries of the W_LN table are filled
W_DET = 8
W_LEGAL = W_DET + STATE_SIZE
W_VALUES = W_LEGAL + N_ACTIONS
W_CAND = W_VALUES + N_ACTIONS
W_MARK = W_CAND + N_ACTIONS
W_HAS = W_MARK + P * N_ACTIONS
W_REP = W_HAS + P * N_ACTIONS
W_PATH = W_REP + P * N_ACTIONS
W_RPRNG = W_PATH + MAX_PATH
W_VALS = W_RPRNG + P
W_REWARDS = W_VALS + P
W_ROOT_CAND = W_REWARDS + P  # the root's candidates, the same at every iteration
W_BAG_TILES = W_ROOT_CAND + N_ACTIONS  # the tiles in the bag, in tile-id order
W_KEY = W_BAG_TILES + MAX_TILES
W_MOVER = W_KEY + MAX_NODES
W_CHILD = W_MOVER + MAX_NODES
W_SIBLING = W_CHILD + MAX_NODES
W_VISITS = W_SIBLING + MAX_NODES
W_AVAIL = W_VISITS + MAX_NODES
W_REWARD = W_AVAIL + MAX_NODES
# ln_q16 of the availability counts 1..work[W_LN_N] (mcts.ln_avail): filled on demand, kept
# across searches (a new, zeroed workspace has none)
LN_CACHE = 1 << 12
W_LN = W_REWARD + MAX_NODES
# A node's candidates, kept when they are reached without a bag draw since the root (the
# state there is then the same at every iteration that reaches it): how many (0: none kept)
# and at most CAND_CACHE candidates
CAND_CACHE = 8
W_NODE_NCAND = W_LN + LN_CACHE
W_NODE_CAND = W_NODE_NCAND + MAX_NODES
WORK_SIZE = W_NODE_CAND + MAX_NODES * CAND_CACHE


def new_workspace() -> np.ndarray:
    """A zeroed MCTS workspace: int64[WORK_SIZE] (one per thread; reusable across decisions)."""
    return np.zeros(WORK_SIZE, np.int64)


def kernel_switches(strategy_ids: Iterable[int], params: Any = None
                    ) -> tuple[np.ndarray | None, bool | None, bool | None, np.ndarray | None]:
    """The ``search``, ``heuristics``, ``learned`` and ``net`` arguments of the game kernels for
    these strategy ids (``params``: their parameter rows, float64[len(ids), N_PARAMS], or None).

    ``search`` is None for a line-up without MCTS (numba then drops the search code: a smaller,
    faster-compiling kernel), else a fresh MCTS workspace (int64[WORK_SIZE], about 4.4 MB): the
    batch kernels copy it once per batch (each thread its own), ``play_out`` and
    ``choose_action`` use it as their scratch. ``heuristics`` is None for a line-up without
    ``greedy``, the presets, ``learned`` (whose first feature is the heuristic's value) or MCTS
    (whose rollouts use them), else True. ``learned`` is True for a ``learned`` seat and for an
    MCTS seat that rolls out with it (without ``params``, for any MCTS seat), else None.
    ``net`` is None without a ``net`` seat or an MCTS seat whose ``params`` row rolls out with
    it (``MCTS_ROLLOUT_NET``), else the int64 array of the weights sets they name
    (``tajsim.engine.net_switch.net_switch``; a ``net`` seat without ``params``: every set
    loaded).
    """
    ids = [int(i) for i in strategy_ids]
    id_set = set(ids)
    search = new_workspace() if STRATEGY_MCTS in id_set else None
    heuristics = True if id_set & {STRATEGY_GREEDY, STRATEGY_HEURISTIC, STRATEGY_LEARNED,
                                   STRATEGY_NET} or search is not None else None
    learned = learned_switch(ids, params, STRATEGY_LEARNED, STRATEGY_MCTS, MCTS_ROLLOUT_SLOT,
                             MCTS_ROLLOUT_LEARNED)
    net = line_up_net_switch(ids, params, STRATEGY_NET, net_rollout_rows(ids, params),
                             NET_FP_SLOT)
    return search, heuristics, learned, net


def net_rollout_rows(ids: list[int], params: Any) -> list[Any]:
    """The rollouts' parameter slices (``row[N_WEIGHTS:]``: balanced's weights, then the
    fingerprint at ``NET_FP_SLOT``) of the MCTS seats that roll out with ``net``."""
    return shared_rollout_rows(ids, params, (STRATEGY_MCTS,), MCTS_ROLLOUT_SLOT,
                               MCTS_ROLLOUT_NET, N_WEIGHTS)
