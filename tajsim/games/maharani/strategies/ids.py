"""Strategy ids and the size of the parameter vector, shared by every Maharani strategy kernel.

Kept apart from :mod:`tajsim.games.maharani.strategies.nb` (the dispatcher) so that the search
kernel can import them without importing the dispatcher that calls it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

# Every policy receives ``params``: float64[N_PARAMS]. The heuristic family reads the first
# ``N_WEIGHTS`` slots (turned into fixed-point integers once per decision); MCTS reads its
# settings from the first slots and passes ``params[N_WEIGHTS:]`` to its rollout policy.
N_PARAMS = 32
N_WEIGHTS = 16

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2
STRATEGY_MCTS = 3
N_STRATEGY_IDS = 4


def kernel_switches(strategy_ids: Iterable[int]) -> tuple[np.ndarray | None, bool | None]:
    """The ``search`` and ``heuristics`` arguments of the game kernels for these strategy ids.

    ``search`` is None for a line-up without MCTS (numba then drops the search code: a smaller,
    faster-compiling kernel), else a fresh MCTS workspace (int64[WORK_SIZE], about 2 MB): the
    batch kernels copy it once per batch (each thread its own), ``play_out`` and
    ``choose_action`` use it as their scratch. ``heuristics`` is None for a line-up without
    ``greedy``, the presets or MCTS (whose rollouts use them), else True.
    """
    from tajsim.games.maharani.strategies.mcts import new_workspace

    ids = {int(i) for i in strategy_ids}
    search = new_workspace() if STRATEGY_MCTS in ids else None
    heuristics = True if ids & {STRATEGY_GREEDY, STRATEGY_HEURISTIC} or search is not None \
        else None
    return search, heuristics
