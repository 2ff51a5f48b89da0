"""The Maharaja components object: board and printed numbers of one configuration, their names,
derived tables (hops, road traffic), description and digest (``Components``), and the error a bad
component set raises."""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components.packing import pack_components
from tajsim.games.maharaja.engine.components.roads import adjacency, bfs, shortest_paths


class ComponentError(UserError):
    """A component file is unreadable or breaks a documented constraint (one line: file, key,
    bad value, what was expected)."""


@dataclass(frozen=True, eq=False)
class Components:
    """Board and numbers of one game configuration (read-only arrays).

    Attributes
    ----------
    name : str
        The board file's ``name`` (what ``describe`` prints first).
    city_names : tuple of str, length 7
        City index (= governor index = junction index) -> name.
    start_name : str
        Name of the start location (junction ``enums.START``).
    village_names : tuple of str, length 30
        Village index -> name; villages are numbered road by road in file order.
    junction_xy : ndarray, float64, shape (8, 2)
        Map position of each junction (cities, then the start).
    village_xy : ndarray, float64, shape (30, 2)
        Map position of each village, spaced evenly along its road.
    roads : ndarray, int64, shape (n_roads, 2)
        The two junctions of each road.
    road_villages : ndarray, int64, shape (n_roads, 2)
        Villages of each road in order from ``roads[r, 0]``; -1 pads a 1-village road.
    numbers : dict of str to int
        The printed numbers, keyed ``table.key`` (``costs.palace`` ...).
    gold_table : dict of int to tuple of int
        Gold by rank for each player count.
    card_names : tuple of str, length 6
    provenance : dict of str to str
        Fact -> "sourced: ..." or "reconstructed: ...", board and components together.
    board_path, components_path : str
        Where the two files came from.
    """

    name: str
    city_names: tuple[str, ...]
    start_name: str
    village_names: tuple[str, ...]
    junction_xy: np.ndarray
    village_xy: np.ndarray
    roads: np.ndarray
    road_villages: np.ndarray
    numbers: dict[str, int]
    gold_table: dict[int, tuple[int, ...]]
    card_names: tuple[str, ...]
    provenance: dict[str, str]
    board_path: str
    components_path: str
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for name in ("junction_xy", "village_xy", "roads", "road_villages"):
            getattr(self, name).flags.writeable = False

    # -- names --------------------------------------------------------------------------------
    @property
    def n_roads(self) -> int:
        return int(self.roads.shape[0])

    @property
    def junction_names(self) -> tuple[str, ...]:
        return (*self.city_names, self.start_name)

    def location_name(self, loc: int) -> str:
        """Village or city name of a house location (villages 0..29, then the cities)."""
        if loc < E.N_VILLAGES:
            return self.village_names[loc]
        return self.city_names[loc - E.LOC_CITY]

    def road_label(self, road: int) -> str:
        a, b = (self.junction_names[int(j)] for j in self.roads[road])
        vil = ", ".join(self.village_names[int(v)] for v in self.road_villages[road] if v >= 0)
        return f"{a}-{b} ({vil})"

    def road_of_village(self, village: int) -> int:
        return int(np.flatnonzero((self.road_villages == village).any(axis=1))[0])

    # -- packing ------------------------------------------------------------------------------
    def hop_distances(self) -> np.ndarray:
        """int64[8, 8]: fewest roads between two junctions."""
        if "hops" not in self._cache:
            adj = adjacency(self.roads)
            hops = np.full((E.N_JUNCTIONS, E.N_JUNCTIONS), -1, np.int64)
            for j in range(E.N_JUNCTIONS):
                hops[j] = bfs(adj, j)
            self._cache["hops"] = hops
        return self._cache["hops"]

    def road_traffic(self) -> np.ndarray:
        """int64[n_roads]: how much city-to-city traffic a road carries if travellers take a
        shortest route (each pair of cities shares 60 units among its shortest routes); a
        feature for the heuristics, not a rule."""
        if "traffic" not in self._cache:
            traffic = np.zeros(self.n_roads, np.int64)
            for a, b in itertools.combinations(range(E.N_CITIES), 2):
                paths = shortest_paths(self.roads, a, b)
                for path in paths:
                    for road in path:
                        traffic[road] += 60 // len(paths)
            self._cache["traffic"] = traffic
        return self._cache["traffic"]

    def packed(self) -> np.ndarray:
        """The int64[COMP_SIZE] array the kernels read (a fresh copy)."""
        if "packed" not in self._cache:
            self._cache["packed"] = pack_components(self)
        return self._cache["packed"].copy()

    def digest(self) -> str:
        """Short fingerprint of the data the kernels see and the names (12 hex digits)."""
        # The words from C_ROAD_VMASK on are derived from those before: left out, so the
        # digest names the data, not a packing detail.
        h = hashlib.sha256(self.packed()[:E.C_ROAD_VMASK].tobytes())
        h.update("|".join((*self.junction_names, *self.village_names,
                           *self.card_names)).encode())
        return h.hexdigest()[:12]

    def summary(self) -> str:
        """One line, as the other games' (``tajsim board show`` / ``validate``): cities, the
        starting location, villages and roads, characters."""
        per_road = (self.road_villages >= 0).sum(axis=1)
        counts = ", ".join(f"{int((per_road == k).sum())} with {k}"
                           for k in sorted(set(per_road.tolist()), reverse=True))
        return (f"{len(self.city_names)} cities and the starting location ({self.start_name}), "
                f"{len(self.village_names)} villages on {self.n_roads} roads ({counts}), "
                f"{len(self.card_names)} characters")

    def describe(self) -> str:
        """Readable summary: board, numbers and where each fact comes from."""
        lines = [self.name, f"board: {self.board_path}", f"components: {self.components_path}",
                 f"digest: {self.digest()}", f"start: {self.start_name}",
                 "cities: " + ", ".join(self.city_names), f"roads ({self.n_roads}):"]
        lines += [f"  {r:2d} {self.road_label(r)}" for r in range(self.n_roads)]
        lines.append("gold table: " + "; ".join(
            f"{n}p {'/'.join(map(str, row))}" for n, row in sorted(self.gold_table.items())))
        lines.append("numbers: " + ", ".join(f"{k}={v}" for k, v in self.numbers.items()))
        lines.append("characters: " + ", ".join(
            f"{i + 1} {name}" for i, name in enumerate(self.card_names)))
        lines.append("provenance:")
        lines += [f"  {k}: {v}" for k, v in self.provenance.items()]
        return "\n".join(lines)

    def frame_meta(self) -> dict[str, Any]:
        """Plain data that ``frame_columns`` and ``setup_features`` read from a run's task."""
        return {
            "city_names": list(self.city_names),
            "village_names": list(self.village_names),
            "card_names": list(self.card_names),
            "action_names": list(E.ACT_NAMES),
            "road_villages": self.road_villages.tolist(),
            "roads": self.roads.tolist(),
            "digest": self.digest(),
        }
