"""The Maharaja heuristic's weights and work array: weight names and the greedy weights, the
offsets of its scratch inside ``work`` and loading the integer weights (see ``heuristic``)."""

from __future__ import annotations

import numpy as np

from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    MAX_PLAYERS,
    MAX_ROADS,
    N_CITIES,
    N_JUNCTIONS,
    N_PAIRS,
    N_VILLAGES,
)
from tajsim.games.maharaja.strategies.ids import (
    HEUR_SIZE,
    N_WEIGHTS,
    W_HEUR,
    WEIGHT_ONE,
)

P = MAX_PLAYERS
WEIGHT_NAMES = (
    "palace",  # value of a palace, in gold
    "centre",  # extra for the central site
    "city",  # multiplier of the gold a presence point earns in a city
    "village",  # multiplier of a village house's expected tolls
    "access",  # value of a house that opens a road or frees it for the seat
    "gold",  # value of one gold held
    "governor",  # multiplier of a governor move's value
    "card",  # multiplier of the character values below
    "mogul",
    "trader",
    "sadhu",
    "monk",
    "builder",
    "artisan",
    "toll",  # aversion to gold paid in tolls (multiplier)
    "penalty",  # aversion to leaving an action unperformed (multiplier)
)
I_PALACE, I_CENTRE, I_CITY, I_VILLAGE, I_ACCESS, I_GOLD, I_GOVERNOR, I_CARD = range(8)
I_CARD0 = 8  # per-card weights I_CARD0 + card
I_TOLL, I_PENALTY = 14, 15
# greedy: raw gold, no archetype bias
GREEDY_WEIGHTS = np.array([24.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0,
                           1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], np.float64)
INF = 1 << 40
NEG = -(1 << 50)

# heuristic scratch (offsets inside work[W_HEUR:W_HEUR + HEUR_SIZE])
H_W = 0  # [N_WEIGHTS] integer weights
H_DIST = H_W + N_WEIGHTS  # [N_JUNCTIONS] cheapest gold route from the architect (open roads)
H_VIA = H_DIST + N_JUNCTIONS  # [N_JUNCTIONS] first road of that route
H_ODIST = H_VIA + N_JUNCTIONS  # [N_JUNCTIONS] the same if p may open empty villages
H_OPRED = H_ODIST + N_JUNCTIONS  # [N_JUNCTIONS] last road of that route
H_NOPEN = H_OPRED + N_JUNCTIONS  # [N_JUNCTIONS] empty villages that route opens
H_CITYV = H_NOPEN + N_JUNCTIONS  # [N_CITIES] value of one presence point in each city
H_PAIRV = H_CITYV + N_CITIES  # [N_PAIRS] pair values (pick)
H_TOP = H_PAIRV + N_PAIRS  # [4] best house values (pick)
H_OPENING = H_TOP + 4  # bit mask of the empty villages worth opening this turn
H_OPEN_BONUS = H_OPENING + 1  # value of opening each of them
H_PTS = H_OPEN_BONUS + 1  # [N_CITIES * P] presence points of every seat in every city
H_RTOLL = H_PTS + N_CITIES * P  # [MAX_ROADS] toll p pays on each road's occupied villages
H_REMPTY = H_RTOLL + MAX_ROADS  # [MAX_ROADS] empty villages on each road
H_VILV = H_REMPTY + MAX_ROADS  # [N_VILLAGES] value of a new house of p in each village
H_SAVE = H_VILV + N_VILLAGES  # [6] penalty saved by one more palace / city house / village
#                               house / move / governor move / card take this turn
H_PALV = H_SAVE + 6  # [N_CITIES] value of a palace plan in each city (pick), NEG none
H_PALC = H_PALV + N_CITIES  # [N_CITIES] its gold cost (price, tolls, opening houses)
H_PALO = H_PALC + N_CITIES  # [N_CITIES] the empty villages it opens
H_BESTV = H_PALO + N_CITIES  # [4] the two best villages for a new house: value, village, ...
H_ROWN = H_BESTV + 4  # [MAX_ROADS] 1 if p owns a house in one of the road's villages
H_END = H_ROWN + MAX_ROADS
assert H_END <= HEUR_SIZE


@kernel
def load_weights(params, work):
    """Integer weights ``params[i] * WEIGHT_ONE`` (exact: a power-of-two scale) into work."""
    for i in range(N_WEIGHTS):
        work[W_HEUR + H_W + i] = np.int64(params[i] * WEIGHT_ONE)


@kernel(inline="always")
def wt(work, i):
    return work[W_HEUR + H_W + i]
