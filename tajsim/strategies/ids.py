"""Strategy ids and the size of the parameter vector, shared by every strategy kernel.

Kept apart from :mod:`tajsim.strategies.nb` (the dispatcher) so that the search kernels can
import them without importing the dispatcher that calls them back.
"""

from __future__ import annotations

# Every policy receives ``params``: float64[N_PARAMS]. The heuristic family uses the first
# ``N_WEIGHTS`` slots; ISMCTS uses its first slots for its own settings and passes the second
# half (``params[N_WEIGHTS:]``) to its rollout policy as that policy's weights.
N_PARAMS = 32
N_WEIGHTS = 16

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2
STRATEGY_ISMCTS = 3
N_STRATEGY_IDS = 4
