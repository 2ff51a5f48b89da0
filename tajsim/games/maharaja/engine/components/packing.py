"""Maharaja's components packed for the kernels: one ``int64[COMP_SIZE]`` array."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components.roads import adjacency

if TYPE_CHECKING:
    from tajsim.games.maharaja.engine.components.model import Components


def pack_components(c: Components) -> np.ndarray:
    """The int64[COMP_SIZE] array the kernels read, laid out by the ``C_*`` offsets of
    :mod:`tajsim.games.maharaja.engine.enums`."""
    comp = np.zeros(E.COMP_SIZE, np.int64)
    num = c.numbers
    scalars = {
        E.C_START_GOLD: "start.gold", E.C_START_HOUSES: "start.houses",
        E.C_QUARRY_GIFT: "start.quarry_gift", E.C_HOUSES_PER_COLOUR: "supply.houses_per_colour",
        E.C_PALACES_PER_PLAYER: "supply.palaces_per_player", E.C_HOUSE_COST: "costs.house",
        E.C_PALACE_COST: "costs.palace", E.C_ARTISAN_COST: "costs.artisan_palace",
        E.C_TOLL: "costs.toll_per_house", E.C_GOLD_ACTION: "actions.gold",
        E.C_QUARRY_TAKE: "actions.quarry", E.C_TRADER_GOLD: "actions.trader",
        E.C_PENALTY: "actions.penalty", E.C_LONE_BONUS: "actions.lone_bonus",
        E.C_GOVERNOR_STEP: "actions.governor_step", E.C_PTS_ARCHITECT: "points.architect",
        E.C_PTS_HOUSE: "points.house", E.C_PTS_OUTER: "points.outer_palace",
        E.C_PTS_CENTRE: "points.central_palace",
        E.C_PTS_SADHU_OUTER: "points.sadhu_outer_palace", E.C_VILLAGE_CAP: "villages.cap",
        E.C_VILLAGE_CAP_2P: "villages.cap_two_players", E.C_ROUND_BOXES: "track.round_boxes",
    }
    for slot, key in scalars.items():
        comp[slot] = num[key]
    for n, row in c.gold_table.items():
        for rank, gold in enumerate(row):
            comp[E.C_GOLD_TABLE + n * E.MAX_PLAYERS + rank] = gold
    comp[E.C_N_ROADS] = c.n_roads
    for r in range(c.n_roads):
        comp[E.C_ROAD_A + r] = c.roads[r, 0]
        comp[E.C_ROAD_B + r] = c.roads[r, 1]
        vil = [int(v) for v in c.road_villages[r] if v >= 0]
        comp[E.C_ROAD_NV + r] = len(vil)
        for i in range(E.MAX_ROAD_VILLAGES):
            comp[E.C_ROAD_VIL + r * E.MAX_ROAD_VILLAGES + i] = vil[i] if i < len(vil) else -1
            if i < len(vil):
                comp[E.C_VILLAGE_ROAD + vil[i]] = r
                comp[E.C_ROAD_VMASK + r] |= 1 << vil[i]
    comp[E.C_ROAD_TRAFFIC:E.C_ROAD_TRAFFIC + c.n_roads] = c.road_traffic()
    adj = adjacency(c.roads)
    for j in range(E.N_JUNCTIONS):
        roads_here = sorted(r for _, r in adj[j])
        comp[E.C_JUNC_NROADS + j] = len(roads_here)
        for i, r in enumerate(roads_here):
            comp[E.C_JUNC_ROADS + j * E.MAX_DEGREE + i] = r
    comp[E.C_HOPS:E.C_HOPS + E.N_JUNCTIONS ** 2] = c.hop_distances().ravel()
    return comp
