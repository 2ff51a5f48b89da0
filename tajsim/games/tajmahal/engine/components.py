"""Taj Mahal's components: the board, province tiles, cards and bonus tiles.

The rulebooks leave most component facts out, so they live in two data files, each fact with its
provenance ("sourced: ..." or "reconstructed: ..."):

- ``data/board.toml``: provinces, their neighbours, cities (position, fortress, Agra) and roads;
- ``data/components.toml``: province tiles, the coloured and white influence cards, the square
  bonus tiles.

This module holds the model (:class:`Components`) and its packing into the flat array the
kernels read; :mod:`.component_files` reads and checks the files, :mod:`.alternatives` generates
plausible alternatives for robustness runs. ``docs/components.md`` describes the format.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.component_files import slug
from tajsim.games.tajmahal.engine import enums as E

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_BOARD = DATA_DIR / "board.toml"
DEFAULT_COMPONENTS = DATA_DIR / "components.toml"

#: Facts of the board file that need a provenance entry.
BOARD_PROVENANCE_KEYS = (
    "province_count",
    "province_names",
    "neighbours",
    "cities_per_province",
    "city_names",
    "city_positions",
    "agra",
    "fortress_count",
    "fortress_cities",
    "rings",
    "agra_roads",
    "inter_province_roads",
)
#: Facts of the components file that need a provenance entry.
COMPONENTS_PROVENANCE_KEYS = ("province_tiles", "white_cards", "coloured_cards", "bonus_tiles")
#: Facts fixed by the rules (not in the files), with their provenance.
BUILTIN_PROVENANCE = {
    "prestige_cards": (
        "sourced: 2018 rules (Might: one elephant; Knowledge: one Grand Mogul; Nobility: score 2; "
        "Enlightenment: colour change) and 2000 rules (Elephant, Grand Mogul, +2, Colour Change)"
    ),
    "prestige_pairs": (
        "reconstructed: two advisor pairs are sourced (General -> Elephant/Might, "
        "Princess -> +2/Nobility); Vizier -> Grand Mogul/Knowledge and Monk -> Colour "
        "Change/Enlightenment follow the 2018 card names"
    ),
    "taj_tile": "sourced: 2000 rules (the Taj Mahal +4 tile on Agra); 2018 rules (Taj Mahal token)",
}

_BOARD_TOP_KEYS = ("name", "provenance", "province", "inter_province")
_PROVINCE_KEYS = ("name", "neighbours", "cities", "roads")
_CITY_KEYS = ("name", "xy", "fortress", "agra")
_COMPONENTS_TOP_KEYS = (
    "name",
    "provenance",
    "province_tiles",
    "white_cards",
    "coloured_cards",
    "bonus_tiles",
)
_SQUARE_BONUS_NAMES = E.BONUS_NAMES[: E.BONUS.TAJ4]  # rice tea spices jewels plus2 draw
_SYMBOL_TITLES = ("Vizier", "General", "Monk", "Princess", "Grand Mogul", "Elephant")
_SYMBOL_ABBREV = ("V", "G", "M", "P", "GM", "E")
_LABEL_ORDER = (
    E.SYM.ELEPHANT, E.SYM.VIZIER, E.SYM.GENERAL, E.SYM.MONK, E.SYM.PRINCESS, E.SYM.MOGUL
)


# ---------------------------------------------------------------------------------------------
# The components object
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Components:
    """Board, tiles and cards of one game configuration (read-only arrays).

    Attributes
    ----------
    province_names : tuple of str, length 12
        Province index -> name.
    city_names : tuple of str, length n_cities (<= ``enums.MAX_CITIES``)
        City index -> name. Cities are numbered province by province.
    city_province : ndarray, int64, shape (n_cities,)
        Province of each city.
    city_xy : ndarray, float64, shape (n_cities, 2)
        Map position (about longitude, latitude) of each city; pictures only.
    city_fortress : ndarray, bool, shape (n_cities,)
        Fortress (diamond-shaped) cities, Agra included.
    agra_city, agra_province : int
        The city of Agra (Taj Mahal +4 tile) and its province (province tile 12).
    roads : ndarray, int64, shape (n_roads, 2)
        City pairs joined by a road (first the roads inside provinces, then between them).
    tile_goods : ndarray, int64, shape (12, 4)
        Goods on province tile t (tile number t + 1), columns in ``enums.Good`` order.
    bonus_tiles : ndarray, int64, shape (n_bonus,)
        ``enums.Bonus`` kinds of the square bonus tiles (not the Taj Mahal +4), sorted.
    card_colour : ndarray, int64, shape (100,)
        Colour of each card id (``enums.COLOURLESS`` for white and prestige cards).
    card_symbols : ndarray, int64, shape (100, 6)
        Symbol counts of each card id, columns in ``enums.Symbol`` order.
    provenance : dict of str to str
        Fact -> "sourced: ..." or "reconstructed: ...".
    board_path, components_path : str
        Where the board and the components came from.
    """

    province_names: tuple[str, ...]
    city_names: tuple[str, ...]
    city_province: np.ndarray
    city_xy: np.ndarray
    city_fortress: np.ndarray
    agra_city: int
    agra_province: int
    roads: np.ndarray
    tile_goods: np.ndarray
    bonus_tiles: np.ndarray
    card_colour: np.ndarray
    card_symbols: np.ndarray
    provenance: dict[str, str]
    board_path: str
    components_path: str

    def __post_init__(self) -> None:
        for field in ("city_province", "city_xy", "city_fortress", "roads", "tile_goods",
                      "bonus_tiles", "card_colour", "card_symbols"):
            getattr(self, field).flags.writeable = False

    # -- sizes and names --------------------------------------------------------------------
    @property
    def n_cities(self) -> int:
        """Number of cities."""
        return len(self.city_names)

    @property
    def n_provinces(self) -> int:
        """Number of provinces (12)."""
        return len(self.province_names)

    @property
    def n_roads(self) -> int:
        """Number of roads."""
        return int(self.roads.shape[0])

    @property
    def province_slugs(self) -> tuple[str, ...]:
        """Province slugs (``slug`` of each name), e.g. for ``visit_<province>`` columns."""
        return tuple(slug(n) for n in self.province_names)

    @property
    def city_slugs(self) -> tuple[str, ...]:
        """City slugs (``slug`` of each name), e.g. for ``bonus_<city>`` columns."""
        return tuple(slug(n) for n in self.city_names)

    @property
    def inter_province_roads(self) -> np.ndarray:
        """Mask of roads joining two provinces: bool, shape (n_roads,)."""
        return self.city_province[self.roads[:, 0]] != self.city_province[self.roads[:, 1]]

    @property
    def bonus_cities(self) -> np.ndarray:
        """Fortress cities other than Agra (where the square bonus tiles go): int64, ascending."""
        mask = self.city_fortress.copy()
        mask[self.agra_city] = False
        return np.flatnonzero(mask).astype(np.int64)

    def province_cities(self, prov: int) -> np.ndarray:
        """Cities of province ``prov``: int64, shape (k,), ascending."""
        return np.flatnonzero(self.city_province == prov).astype(np.int64)

    def card_label(self, card: int) -> str:
        """Short card name: "red E+V", "blue V+GM", "white Elephant", "Might"."""
        card = int(card)
        if not 0 <= card < E.N_CARDS:
            raise ValueError(f"card id {card} out of range 0..{E.N_CARDS - 1}")
        if card >= E.FIRST_PRESTIGE:
            return E.PRESTIGE_NAMES_2018[card - E.FIRST_PRESTIGE]
        counts = self.card_symbols[card]
        colour = E.COLOUR_NAMES[int(self.card_colour[card])]
        if card >= E.FIRST_WHITE:
            return f"{colour} " + "+".join(
                _SYMBOL_TITLES[s] for s in _LABEL_ORDER for _ in range(int(counts[s]))
            )
        return f"{colour} " + "+".join(
            _SYMBOL_ABBREV[s] for s in _LABEL_ORDER for _ in range(int(counts[s]))
        )

    def summary(self) -> str:
        """One line: provinces, cities, fortresses, roads, bonus tiles."""
        n_inter = int(self.inter_province_roads.sum())
        return (
            f"{self.n_provinces} provinces, {self.n_cities} cities "
            f"({int(self.city_fortress.sum())} fortresses), {self.n_roads} roads "
            f"({n_inter} between provinces), {len(self.bonus_tiles)} square bonus tiles"
        )

    # -- packed array for the kernels ---------------------------------------------------------
    @functools.cached_property
    def _packed(self) -> np.ndarray:
        return _pack(self)

    def packed(self) -> np.ndarray:
        """The components as the kernels see them: int64, shape (``enums.COMP_SIZE``,).

        Layout (offsets in ``tajsim.games.tajmahal.engine.enums``)::

            C_N_CITIES, C_AGRA_CITY, C_AGRA_PROVINCE, C_N_ROADS, C_N_BONUS_TILES   scalars
            C_CITY_PROVINCE  + c                 province of city c
            C_CITY_FORTRESS  + c                 1 if city c is a fortress (Agra included)
            C_PROV_N_CITIES  + p                 cities of province p
            C_PROV_CITIES    + p * MAX_CITIES_PER_PROVINCE + i
                                                 i-th city of province p (ascending), -1 padded
            C_ADJ_START      + c                 CSR start of city c's neighbours (n_cities + 1
                                                 entries; the unused tail repeats the last value)
            C_ADJ            + k                 neighbour cities, k in [start[c], start[c + 1]),
                                                 ascending; both directions of every road
            C_TILE_GOODS     + t * N_GOODS + g   goods g on province tile t (number t + 1)
            C_BONUS_TILES    + i                 Bonus kind of square tile i
            C_CARD_COLOUR    + card              colour (COLOURLESS for white and prestige)
            C_CARD_SYM       + card * N_SYMBOLS + s   symbol s count on the card
            C_COLOUR_MASK    + w * (N_COLOURS + 1) + c   mask word w (as S_LOC_MASK) of the
                                                 cards of colour c
            C_SYMBOL_MASK    + (w * N_SYMBOLS + s) * 2 + t   mask word w of the deck cards
                                                 showing symbol s more than t times (t = 0, 1)
            C_ADJ_MASK       + c                 city c's neighbours as bits (uint64 pattern)
            C_PROV_MASK      + p                 province p's cities as bits (uint64 pattern)

        Unused slots are 0 (-1 in ``C_PROV_CITIES``). Computed once; each call returns a fresh
        writable copy.
        """
        return self._packed.copy()

    def describe(self) -> str:
        """Where the components came from (one line, recorded in a run's manifest)."""
        return f"board {self.board_path}; components {self.components_path}"

    def frame_meta(self) -> dict[str, Any]:
        """Plain data the results-frame columns and setup features need (column names, the
        fortresses that hold bonus tiles, the bonus kinds); it travels in a run's task."""
        return {
            "province_slugs": list(self.province_slugs),
            "bonus_cities": [int(c) for c in self.bonus_cities],
            "bonus_city_slugs": [self.city_slugs[int(c)] for c in self.bonus_cities],
            "bonus_kinds": [int(k) for k in self.bonus_tiles],
        }

    def digest(self) -> str:
        """Short content hash (packed array, names and positions): 12 hex digits."""
        # The mask words after C_COLOUR_MASK are derived from the card tables: left out, so the
        # digest names the data, not a packing detail.
        h = hashlib.sha256(self._packed[: E.C_COLOUR_MASK].tobytes())
        h.update("\n".join(self.province_names + self.city_names).encode())
        h.update(np.ascontiguousarray(self.city_xy).tobytes())
        return h.hexdigest()[:12]


def _pack(c: Components) -> np.ndarray:
    comp = np.zeros(E.COMP_SIZE, dtype=np.int64)
    n = c.n_cities
    comp[E.C_N_CITIES] = n
    comp[E.C_AGRA_CITY] = c.agra_city
    comp[E.C_AGRA_PROVINCE] = c.agra_province
    comp[E.C_N_ROADS] = c.n_roads
    comp[E.C_N_BONUS_TILES] = len(c.bonus_tiles)
    comp[E.C_CITY_PROVINCE : E.C_CITY_PROVINCE + n] = c.city_province
    comp[E.C_CITY_FORTRESS : E.C_CITY_FORTRESS + n] = c.city_fortress
    comp[E.C_PROV_CITIES : E.C_PROV_CITIES + E.N_PROVINCES * E.MAX_CITIES_PER_PROVINCE] = -1
    for p in range(E.N_PROVINCES):
        cities = c.province_cities(p)
        comp[E.C_PROV_N_CITIES + p] = len(cities)
        base = E.C_PROV_CITIES + p * E.MAX_CITIES_PER_PROVINCE
        comp[base : base + len(cities)] = cities
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for a, b in c.roads:
        neighbours[int(a)].append(int(b))
        neighbours[int(b)].append(int(a))
    k = 0
    for city in range(E.MAX_CITIES + 1):
        comp[E.C_ADJ_START + city] = k
        if city < n:
            for nb in sorted(neighbours[city]):
                comp[E.C_ADJ + k] = nb
                k += 1
    comp[E.C_TILE_GOODS : E.C_TILE_GOODS + E.N_PROVINCES * E.N_GOODS] = c.tile_goods.ravel()
    comp[E.C_BONUS_TILES : E.C_BONUS_TILES + len(c.bonus_tiles)] = c.bonus_tiles
    comp[E.C_CARD_COLOUR : E.C_CARD_COLOUR + E.N_CARDS] = c.card_colour
    comp[E.C_CARD_SYM : E.C_CARD_SYM + E.N_CARDS * E.N_SYMBOLS] = c.card_symbols.ravel()
    for card in range(E.N_CARDS):
        word = card // E.CARDS_PER_COLOUR if card < E.N_COLOURED else E.N_MASK_WORDS - 1
        bit = 1 << (card % E.CARDS_PER_COLOUR if card < E.N_COLOURED else card - E.N_COLOURED)
        comp[E.C_COLOUR_MASK + word * (E.N_COLOURS + 1) + c.card_colour[card]] |= bit
        if card < E.N_DECK_CARDS:
            for s in range(E.N_SYMBOLS):
                for at_least in (1, 2):
                    if c.card_symbols[card, s] >= at_least:
                        comp[E.C_SYMBOL_MASK + (word * E.N_SYMBOLS + s) * 2 + at_least - 1] |= bit
    # City sets as 64-bit words for the road search (connected_from): bit 63 is a city too, so
    # the words are written as uint64 bit patterns.
    bits = comp.view(np.uint64)
    for city in range(n):
        for nb in neighbours[city]:
            bits[E.C_ADJ_MASK + city] |= np.uint64(1) << np.uint64(nb)
    for p in range(E.N_PROVINCES):
        for city in c.province_cities(p):
            bits[E.C_PROV_MASK + p] |= np.uint64(1) << np.uint64(int(city))
    return comp
