"""Game components: the board, province tiles, cards and bonus tiles, loaded from TOML files.

The rulebooks leave most component facts out, so they live in two data files, each fact with its
provenance ("sourced: ..." or "reconstructed: ..."):

- ``data/board.toml``: provinces, their neighbours, cities (position, fortress, Agra) and roads;
- ``data/components.toml``: province tiles, the coloured and white influence cards, the square
  bonus tiles.

An owner of the game corrects them by passing edited copies (``--board`` / ``--components``);
``docs/components.md`` describes the format. Every load validates both files and raises
``ComponentError`` (one line: file, key, bad value, expected) on the first problem;
``validate_files`` returns all problems.

The kernels see the components only as one flat ``int64`` array, ``Components.packed()``, laid
out by the ``C_*`` offsets of ``tajsim.games.tajmahal.engine.enums``.

What is checked (rules-critical, always fails): 12 provinces; 4..``MAX_CITIES_PER_PROVINCE``
cities per province; exactly one Agra city, a fortress (province tile 12 lies on its province);
fortress cities other than Agra == square bonus tiles; every province's cities connected by its
own roads; the whole road graph connected; roads join two distinct existing cities, no
duplicates; roads between provinces only between declared neighbours (declared symmetrically,
each declared pair joined by at least one road); size limits; 12 province tiles of 1-2 known
goods; 84 coloured cards (21 per colour, 2 symbols each) and 12 white cards (1 symbol each);
unknown keys and names. What is *not* checked: the reconstructed distributions (which symbols
the coloured cards carry, the bonus-tile mix, which cities are fortresses), so an owner can
correct them freely.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E

__all__ = [
    "BOARD_PROVENANCE_KEYS",
    "COMPONENTS_PROVENANCE_KEYS",
    "ComponentError",
    "Components",
    "DEFAULT_BOARD",
    "DEFAULT_COMPONENTS",
    "alternative_components",
    "check_components",
    "default_components",
    "detect_kind",
    "load_components",
    "read_toml",
    "slug",
    "validate_files",
]

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
_PROVENANCE_PREFIXES = ("sourced:", "reconstructed:")


class ComponentError(UserError):
    """A component file is unreadable or breaks a documented constraint.

    The message is one line naming the file, the key, the bad value and what was expected.
    """


def slug(name: str) -> str:
    """Column-safe name: lower case, every non-letter replaced by ``_`` ("Dera Ismail Khan" ->
    "dera_ismail_khan")."""
    return re.sub(r"[^a-z]", "_", name.lower())


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

        Unused slots are 0 (-1 in ``C_PROV_CITIES``). Computed once; each call returns a fresh
        writable copy.
        """
        return self._packed.copy()

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
    return comp


# ---------------------------------------------------------------------------------------------
# Reading and checking the files
# ---------------------------------------------------------------------------------------------
class _Problems:
    """Collects one-line problems of one file: "<file>: <where>: <what>"."""

    def __init__(self, label: str, out: list[str]) -> None:
        self.label = label
        self.out = out
        self.start = len(out)

    def add(self, where: str, what: str) -> None:
        line = f"{self.label}: {where}: {what}" if where else f"{self.label}: {what}"
        self.out.append(" ".join(line.split()))

    @property
    def clean(self) -> bool:
        return len(self.out) == self.start


def _show(value: Any) -> str:
    """A value as it would read in TOML, kept short and on one line."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value + '"'
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(_show(v) for v in value) + "]"
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def _choices(names: Iterable[str]) -> str:
    return "one of " + ", ".join(names)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)


def _read_toml(path: Path, label: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        problems.append(f"{label}: file not found")
    except IsADirectoryError:
        problems.append(f"{label}: is a directory, expected a TOML file")
    except OSError as exc:
        problems.append(f"{label}: cannot read: {exc.strerror or exc}")
    except tomllib.TOMLDecodeError as exc:
        problems.append(" ".join(f"{label}: not valid TOML: {exc}".split()))
    except UnicodeDecodeError:
        problems.append(f"{label}: not valid TOML: not UTF-8 text")
    return None


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file; raises ``ComponentError`` (one line) when it cannot be read."""
    problems: list[str] = []
    doc = _read_toml(Path(path), str(path), problems)
    if doc is None:
        raise ComponentError(problems[0])
    return doc


def detect_kind(doc: dict[str, Any]) -> str | None:
    """What a parsed file is, from its top-level keys: "board", "components" or None."""
    keys = set(doc)
    board = len(keys & {"province", "inter_province"})
    comps = len(keys & {"province_tiles", "white_cards", "coloured_cards", "bonus_tiles"})
    if board and not comps:
        return "board"
    if comps and not board:
        return "components"
    return None


def _check_unknown(
    pb: _Problems, where: str, table: dict[str, Any], allowed: Sequence[str]
) -> None:
    for key in table:
        if key not in allowed:
            pb.add(where, f"unknown key {_show(key)}, expected {_choices(allowed)}")


def _check_provenance(pb: _Problems, doc: dict[str, Any], required: Sequence[str]) -> dict:
    prov = doc.get("provenance")
    if not isinstance(prov, dict):
        pb.add("provenance", f"missing [provenance] table, expected keys {', '.join(required)}")
        return {}
    _check_unknown(pb, "provenance", prov, required)
    out = {}
    for key in required:
        value = prov.get(key)
        if value is None:
            pb.add("provenance", f"missing key {key}, expected \"sourced: ...\" or "
                   "\"reconstructed: ...\"")
        elif not isinstance(value, str) or not value.startswith(_PROVENANCE_PREFIXES):
            pb.add(f"provenance.{key}", f"got {_show(value)}, expected a string starting "
                   "with \"sourced:\" or \"reconstructed:\"")
        else:
            out[key] = " ".join(value.split())
    return out


def _check_name(pb: _Problems, where: str, value: Any) -> bool:
    if not isinstance(value, str) or not value.strip():
        pb.add(where, f"name = {_show(value)}, expected a non-empty string")
        return False
    if not re.search(r"[A-Za-z]", value):
        pb.add(where, f"name = {_show(value)}, expected at least one letter")
        return False
    return True


def _check_pairs(pb: _Problems, where: str, value: Any) -> list[tuple[str, str]]:
    """A list of [city, city] pairs."""
    if not isinstance(value, list):
        pb.add(where, f"got {_show(value)}, expected a list of [city, city] pairs")
        return []
    out = []
    for i, pair in enumerate(value):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            pb.add(f"{where}[{i}]", f"got {_show(pair)}, expected a pair of city names "
                   "[\"A\", \"B\"]")
        else:
            out.append((pair[0], pair[1]))
    return out


@dataclass
class _BoardDoc:
    provinces: list[str]
    cities: list[str]
    city_province: list[int]
    city_xy: list[tuple[float, float]]
    city_fortress: list[bool]
    agra_city: int
    roads: list[tuple[int, int]]
    provenance: dict[str, str]


@dataclass
class _PartsDoc:
    tile_goods: np.ndarray
    bonus_tiles: np.ndarray
    card_colour: np.ndarray
    card_symbols: np.ndarray
    white_total: int
    colour_totals: list[int]
    provenance: dict[str, str]


def _parse_board(doc: dict[str, Any], pb: _Problems) -> _BoardDoc | None:
    _check_unknown(pb, "", doc, _BOARD_TOP_KEYS)
    if "name" in doc and not isinstance(doc["name"], str):
        pb.add("name", f"got {_show(doc['name'])}, expected a string")
    provenance = _check_provenance(pb, doc, BOARD_PROVENANCE_KEYS)
    provs = doc.get("province")
    if not isinstance(provs, list) or not all(isinstance(p, dict) for p in provs):
        pb.add("province", "missing [[province]] tables, expected 12 of them")
        return None
    if len(provs) != E.N_PROVINCES:
        pb.add("province", f"{len(provs)} [[province]] tables, expected {E.N_PROVINCES}")
    names: list[str] = []
    for i, p in enumerate(provs):
        where = f"province[{i}]"
        _check_unknown(pb, where, p, _PROVINCE_KEYS)
        name = p.get("name")
        if _check_name(pb, where, name):
            if name in names:
                pb.add(where, f"name = {_show(name)} repeats an earlier province, expected "
                       "unique province names")
            names.append(name)
        else:
            names.append(f"#{i}")
    if len({slug(n) for n in names}) < len(set(names)):
        pb.add("province", "two province names give the same slug (lower case, non-letters "
               "-> _), expected distinct slugs")

    # Cities.
    cities: list[str] = []
    city_province: list[int] = []
    city_xy: list[tuple[float, float]] = []
    city_fortress: list[bool] = []
    agras: list[int] = []
    for pi, p in enumerate(provs):
        where = f"province {_show(names[pi])}"
        plist = p.get("cities")
        if not isinstance(plist, list):
            pb.add(where, f"cities = {_show(plist)}, expected a list of "
                   "{ name = ..., xy = [x, y], fortress = true/false } tables")
            continue
        for ci, c in enumerate(plist):
            cw = f"{where}: cities[{ci}]"
            if not isinstance(c, dict):
                pb.add(cw, f"got {_show(c)}, expected {{ name = ..., xy = [x, y] }}")
                continue
            _check_unknown(pb, cw, c, _CITY_KEYS)
            cname = c.get("name")
            if not _check_name(pb, cw, cname):
                continue
            cw = f"{where}: city {_show(cname)}"
            if cname in cities:
                pb.add(cw, "repeats an earlier city name, expected unique city names")
                continue
            xy = c.get("xy")
            if not (isinstance(xy, list) and len(xy) == 2 and all(_is_number(v) for v in xy)):
                pb.add(cw, f"xy = {_show(xy)}, expected two numbers [x, y]")
                xy = [0.0, 0.0]
            fortress = c.get("fortress", False)
            if not isinstance(fortress, bool):
                pb.add(cw, f"fortress = {_show(fortress)}, expected true or false")
                fortress = False
            agra = c.get("agra", False)
            if not isinstance(agra, bool):
                pb.add(cw, f"agra = {_show(agra)}, expected true or false")
                agra = False
            if agra:
                agras.append(len(cities))
            cities.append(cname)
            city_province.append(pi)
            city_xy.append((float(xy[0]), float(xy[1])))
            city_fortress.append(fortress)
    if len({slug(n) for n in cities}) < len(cities):
        seen: dict[str, str] = {}
        for n in cities:
            if slug(n) in seen:
                pb.add(f"city {_show(n)}", f"slug {slug(n)} equals the slug of "
                       f"{_show(seen[slug(n)])}, expected distinct city slugs")
            seen.setdefault(slug(n), n)
    if len(agras) != 1:
        got = ", ".join(cities[a] for a in agras) or "none"
        pb.add("cities", f"cities with agra = true: {got}; expected exactly one (the city of "
               "Agra)")
    index = {n: i for i, n in enumerate(cities)}

    # Neighbours.
    declared: set[tuple[int, int]] = set()
    pindex = {n: i for i, n in enumerate(names)}
    for pi, p in enumerate(provs):
        where = f"province {_show(names[pi])}"
        nbs = p.get("neighbours", [])
        if not isinstance(nbs, list) or not all(isinstance(x, str) for x in nbs):
            pb.add(where, f"neighbours = {_show(nbs)}, expected a list of province names")
            continue
        for nb in nbs:
            if nb not in pindex:
                pb.add(where, f"neighbours: unknown province {_show(nb)}, expected "
                       f"{_choices(names)}")
            elif pindex[nb] == pi:
                pb.add(where, f"neighbours: {_show(nb)} is the province itself, expected "
                       "other provinces")
            elif (pi, pindex[nb]) in declared:
                pb.add(where, f"neighbours: {_show(nb)} listed twice, expected each once")
            else:
                declared.add((pi, pindex[nb]))
    for a, b in sorted(declared):
        if (b, a) not in declared:
            pb.add(f"province {_show(names[b])}", f"neighbours lacks {_show(names[a])}, "
                   f"expected it since {names[a]} lists {names[b]} (neighbours are symmetric)")

    # Roads.
    roads: list[tuple[int, int]] = []
    seen_roads: dict[frozenset[int], str] = {}
    joined: set[tuple[int, int]] = set()

    def add_road(where: str, a: str, b: str, inside: int | None) -> None:
        for x in (a, b):
            if x not in index:
                pb.add(where, f"unknown city {_show(x)}, expected a city of the board")
                return
        ia, ib = index[a], index[b]
        if ia == ib:
            pb.add(where, f"[{_show(a)}, {_show(b)}] joins a city to itself, expected two "
                   "different cities")
            return
        pa, pb_ = city_province[ia], city_province[ib]
        if inside is not None and (pa != inside or pb_ != inside):
            other = a if pa != inside else b
            pb.add(where, f"[{_show(a)}, {_show(b)}]: {_show(other)} is in province "
                   f"{_show(names[city_province[index[other]]])}, expected two cities of "
                   f"{_show(names[inside])} (roads between provinces go in "
                   "[inter_province] roads)")
            return
        if inside is None:
            if pa == pb_:
                pb.add(where, f"[{_show(a)}, {_show(b)}] joins two cities of "
                       f"{_show(names[pa])}, expected cities of two provinces (roads inside a "
                       "province go in its own roads list)")
                return
            if (pa, pb_) not in declared:
                pb.add(where, f"[{_show(a)}, {_show(b)}] joins {names[pa]} and {names[pb_]}, "
                       "which are not declared neighbours; expected neighbouring provinces")
                return
            joined.add((min(pa, pb_), max(pa, pb_)))
        key = frozenset((ia, ib))
        if key in seen_roads:
            pb.add(where, f"[{_show(a)}, {_show(b)}] duplicates the road at "
                   f"{seen_roads[key]}, expected each road once")
            return
        seen_roads[key] = where
        roads.append((ia, ib))

    for pi, p in enumerate(provs):
        where = f"province {_show(names[pi])}: roads"
        for i, (a, b) in enumerate(_check_pairs(pb, where, p.get("roads", []))):
            add_road(f"{where}[{i}]", a, b, pi)
    inter = doc.get("inter_province", {})
    if not isinstance(inter, dict):
        pb.add("inter_province", f"got {_show(inter)}, expected a table with a roads list")
        inter = {}
    _check_unknown(pb, "inter_province", inter, ("roads",))
    where = "inter_province.roads"
    for i, (a, b) in enumerate(_check_pairs(pb, where, inter.get("roads", []))):
        add_road(f"{where}[{i}]", a, b, None)
    for a, b in sorted(declared):
        if a < b and (b, a) in declared and (a, b) not in joined:
            pb.add("inter_province.roads", f"no road joins {names[a]} and {names[b]}, expected "
                   "at least one between declared neighbours")

    if not pb.clean or len(provs) != E.N_PROVINCES:
        return None
    return _BoardDoc(names, cities, city_province, city_xy, city_fortress, agras[0], roads,
                     provenance)


def _parse_count_table(
    pb: _Problems, where: str, table: Any, allowed: Sequence[str], hint: str = ""
) -> dict[str, int] | None:
    if table is None:
        pb.add(where, f"missing [{where}] table, expected name = count lines")
        return None
    if not isinstance(table, dict):
        pb.add(where, f"got {_show(table)}, expected a table of name = count")
        return None
    out: dict[str, int] = {}
    for key, value in table.items():
        if key not in allowed:
            pb.add(where, f"unknown name {_show(key)}, expected {_choices(allowed)}{hint}")
        elif not _is_int(value) or value < 0:
            pb.add(f"{where}.{key}", f"got {_show(value)}, expected a count (integer >= 0)")
        else:
            out[key] = value
    return out


def _parse_parts(doc: dict[str, Any], pb: _Problems) -> _PartsDoc | None:
    _check_unknown(pb, "", doc, _COMPONENTS_TOP_KEYS)
    if "name" in doc and not isinstance(doc["name"], str):
        pb.add("name", f"got {_show(doc['name'])}, expected a string")
    provenance = _check_provenance(pb, doc, COMPONENTS_PROVENANCE_KEYS)

    # Province tiles.
    tile_goods = np.zeros((E.N_PROVINCES, E.N_GOODS), dtype=np.int64)
    tiles = doc.get("province_tiles")
    numbers = [str(t) for t in range(1, E.N_PROVINCES + 1)]
    if not isinstance(tiles, dict):
        what = "missing [province_tiles] table" if tiles is None else f"got {_show(tiles)}"
        pb.add("province_tiles", f"{what}, expected a table of tile number (1..12) = [goods]")
    else:
        for key, goods in tiles.items():
            where = f"province_tiles.{key}"
            if key not in numbers:
                pb.add("province_tiles", f"unknown tile number {_show(key)}, expected 1..12")
                continue
            if (
                not isinstance(goods, list)
                or not 1 <= len(goods) <= 2
                or not all(isinstance(g, str) for g in goods)
            ):
                pb.add(where, f"got {_show(goods)}, expected a list of 1 or 2 goods "
                       f"({', '.join(E.GOOD_NAMES)})")
                continue
            if len(set(goods)) != len(goods):
                pb.add(where, f"got {_show(goods)}, expected different goods")
                continue
            for g in goods:
                if g not in E.GOOD_NAMES:
                    pb.add(where, f"unknown good {_show(g)}, expected {_choices(E.GOOD_NAMES)}")
                else:
                    tile_goods[int(key) - 1, E.GOOD_NAMES.index(g)] = 1
        missing = [n for n in numbers if n not in tiles]
        if missing:
            pb.add("province_tiles", f"missing tile {', '.join(missing)}, expected the 12 tiles "
                   "1..12")

    # White cards.
    card_colour = np.full(E.N_CARDS, E.COLOURLESS, dtype=np.int64)
    card_symbols = np.zeros((E.N_CARDS, E.N_SYMBOLS), dtype=np.int64)
    whites = _parse_count_table(pb, "white_cards", doc.get("white_cards"), E.SYMBOL_NAMES)
    white_total = 0
    if whites is not None:
        white_total = sum(whites.values())
        if white_total != E.N_DECK_CARDS - E.N_COLOURED:
            pb.add("white_cards", f"{white_total} cards, expected "
                   f"{E.N_DECK_CARDS - E.N_COLOURED} (96 deck cards minus 84 coloured)")
        else:
            card = E.FIRST_WHITE
            for s, sname in enumerate(E.SYMBOL_NAMES):
                for _ in range(whites.get(sname, 0)):
                    card_symbols[card, s] = 1
                    card += 1

    # Coloured cards.
    coloured = doc.get("coloured_cards")
    colour_totals = [0] * E.N_COLOURS
    colour_names = E.COLOUR_NAMES[: E.N_COLOURS]
    if not isinstance(coloured, dict):
        what = "missing table" if coloured is None else f"got {_show(coloured)}"
        pb.add("coloured_cards", f"{what}, expected [coloured_cards.<colour>] tables for "
               f"{', '.join(colour_names)}")
    else:
        for key in coloured:
            if key not in colour_names:
                pb.add("coloured_cards", f"unknown colour {_show(key)}, expected "
                       f"{_choices(colour_names)}")
        for ci, colour in enumerate(colour_names):
            where = f"coloured_cards.{colour}"
            table = coloured.get(colour)
            if table is None:
                pb.add("coloured_cards", f"missing colour {colour}, expected the four colours "
                       f"{', '.join(colour_names)}")
                continue
            if not isinstance(table, dict):
                pb.add(where, f"got {_show(table)}, expected a table of "
                       "\"symbol+symbol\" = count")
                continue
            cards: list[tuple[int, int]] = []
            for key, count in table.items():
                parts = key.split("+")
                bad = [x for x in parts if x not in E.SYMBOL_NAMES]
                if len(parts) != 2 or bad:
                    pb.add(where, f"card {_show(key)}, expected two symbols joined by + "
                           f"(symbols: {', '.join(E.SYMBOL_NAMES)})")
                    continue
                if not _is_int(count) or count < 0:
                    pb.add(f"{where}.\"{key}\"", f"got {_show(count)}, expected a count "
                           "(integer >= 0)")
                    continue
                a, b = (E.SYMBOL_NAMES.index(x) for x in parts)
                cards.extend([(a, b)] * count)
            colour_totals[ci] = len(cards)
            if len(cards) != E.CARDS_PER_COLOUR:
                pb.add(where, f"{len(cards)} cards, expected {E.CARDS_PER_COLOUR}")
                continue
            for k, (a, b) in enumerate(cards):
                card = ci * E.CARDS_PER_COLOUR + k
                card_colour[card] = ci
                card_symbols[card, a] += 1
                card_symbols[card, b] += 1

    # Prestige cards (fixed by the rules).
    card_symbols[E.PRESTIGE_MIGHT, E.SYM.ELEPHANT] = 1
    card_symbols[E.PRESTIGE_KNOWLEDGE, E.SYM.MOGUL] = 1

    # Square bonus tiles.
    bonus = _parse_count_table(pb, "bonus_tiles", doc.get("bonus_tiles"), _SQUARE_BONUS_NAMES,
                               hint=" (the Taj Mahal +4 tile on Agra is fixed, not listed)")
    bonus_tiles = np.zeros(0, dtype=np.int64)
    if bonus is not None:
        kinds = [
            E.BONUS_NAMES.index(k) for k in _SQUARE_BONUS_NAMES for _ in range(bonus.get(k, 0))
        ]
        bonus_tiles = np.array(kinds, dtype=np.int64)
        if len(bonus_tiles) > E.MAX_BONUS_TILES:
            pb.add("bonus_tiles", f"{len(bonus_tiles)} tiles, expected at most "
                   f"{E.MAX_BONUS_TILES}")

    if not pb.clean:
        return None
    return _PartsDoc(tile_goods, bonus_tiles, card_colour, card_symbols, white_total,
                     colour_totals, provenance)


def _components_from(board: _BoardDoc, parts: _PartsDoc, board_label: str,
                     parts_label: str) -> Components:
    provenance = {**board.provenance, **parts.provenance, **BUILTIN_PROVENANCE}
    roads = np.array(board.roads, dtype=np.int64).reshape(-1, 2)
    return Components(
        province_names=tuple(board.provinces),
        city_names=tuple(board.cities),
        city_province=np.array(board.city_province, dtype=np.int64),
        city_xy=np.array(board.city_xy, dtype=np.float64).reshape(-1, 2),
        city_fortress=np.array(board.city_fortress, dtype=bool),
        agra_city=board.agra_city,
        agra_province=board.city_province[board.agra_city],
        roads=roads,
        tile_goods=parts.tile_goods,
        bonus_tiles=parts.bonus_tiles,
        card_colour=parts.card_colour,
        card_symbols=parts.card_symbols,
        provenance=provenance,
        board_path=board_label,
        components_path=parts_label,
    )


def _check_built(c: Components, pboard: _Problems, pparts: _Problems) -> None:
    """Checks of the built components (the rules-critical constraints), one line each."""
    names, cities = c.province_names, c.city_names
    n = c.n_cities
    if n > E.MAX_CITIES:
        pboard.add("cities", f"{n} cities, expected at most {E.MAX_CITIES}")
    if c.n_roads > E.MAX_ROADS:
        pboard.add("roads", f"{c.n_roads} roads, expected at most {E.MAX_ROADS}")
    for p in range(c.n_provinces):
        k = len(c.province_cities(p))
        if not 4 <= k <= E.MAX_CITIES_PER_PROVINCE:
            pboard.add(f"province {_show(names[p])}", f"{k} cities, expected 4 to "
                       f"{E.MAX_CITIES_PER_PROVINCE} (so every advisor token can place a "
                       "palace)")
    if not c.city_fortress[c.agra_city]:
        pboard.add(f"city {_show(cities[c.agra_city])}", "fortress = false, expected true "
                   "(the city of Agra is a fortress)")
    n_bonus_cities = len(c.bonus_cities)
    if n_bonus_cities != len(c.bonus_tiles):
        pboard.add("fortress", f"{n_bonus_cities} fortress cities besides Agra, but "
                   f"{c.components_path} has {len(c.bonus_tiles)} square bonus tiles; expected "
                   "equal numbers (one tile on each)")
    if n <= E.MAX_CITIES and c.n_roads <= E.MAX_ROADS:
        # Connectivity, inside each province and overall.
        for p in range(c.n_provinces):
            members = set(c.province_cities(p).tolist())
            inside = [(a, b) for a, b in c.roads.tolist() if a in members and b in members]
            comps = _connected_groups(members, inside)
            if len(comps) > 1:
                cut = ", ".join(cities[x] for comp in comps[1:] for x in sorted(comp))
                pboard.add(f"province {_show(names[p])}: roads", f"{cut} not connected to the "
                           "province's other cities by its own roads, expected every city of "
                           "a province connected inside it")
        comps = _connected_groups(set(range(n)), c.roads.tolist())
        if len(comps) > 1:
            small = min(comps, key=len)
            pboard.add("roads", "road network not connected: "
                       f"{', '.join(cities[x] for x in sorted(small))} cut off from the rest, "
                       "expected every city reachable")
    # Cards (re-checked on the arrays so that generated components are covered too).
    cc, cs = c.card_colour, c.card_symbols
    for card in range(E.N_COLOURED):
        if cc[card] != card // E.CARDS_PER_COLOUR or cs[card].sum() != 2:
            pparts.add("coloured_cards", f"card {card} is {c.card_label(card)}, expected a "
                       f"{E.COLOUR_NAMES[card // E.CARDS_PER_COLOUR]} card with 2 symbols")
            break
    for card in range(E.FIRST_WHITE, E.FIRST_PRESTIGE):
        if cc[card] != E.COLOURLESS or cs[card].sum() != 1:
            pparts.add("white_cards", f"card {card} has {int(cs[card].sum())} symbols, expected "
                       "a colourless card with 1 symbol")
            break
    fixed = np.zeros((4, E.N_SYMBOLS), dtype=np.int64)
    fixed[0, E.SYM.ELEPHANT] = fixed[1, E.SYM.MOGUL] = 1
    if not (np.array_equal(cs[E.FIRST_PRESTIGE:], fixed)
            and np.all(cc[E.FIRST_PRESTIGE:] == E.COLOURLESS)):
        pparts.add("prestige cards", "changed, expected the fixed prestige cards")
    tg = c.tile_goods
    if tg.shape != (E.N_PROVINCES, E.N_GOODS) or not np.all((tg.sum(1) >= 1) & (tg.sum(1) <= 2)):
        pparts.add("province_tiles", "expected 12 tiles of 1 or 2 goods")
    if len(c.bonus_tiles) > E.MAX_BONUS_TILES:
        pparts.add("bonus_tiles", f"{len(c.bonus_tiles)} tiles, expected at most "
                   f"{E.MAX_BONUS_TILES}")


def check_components(c: Components) -> list[str]:
    """The rules-critical checks of ``load_components`` run on a built ``Components`` object
    (e.g. one made with ``dataclasses.replace``): one line per problem, [] when valid."""
    problems: list[str] = []
    _check_built(c, _Problems(c.board_path, problems), _Problems(c.components_path, problems))
    return problems


def _connected_groups(nodes: set[int], edges: Iterable[Sequence[int]]) -> list[set[int]]:
    """Connected components of an undirected graph, largest first."""
    parent = {x: x for x in nodes}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    groups: dict[int, set[int]] = {}
    for x in nodes:
        groups.setdefault(find(x), set()).add(x)
    return sorted(groups.values(), key=lambda g: (-len(g), min(g)))


def _resolve(path: str | Path | None, default: Path) -> tuple[Path, str]:
    if path is None:
        return default, str(default)
    return Path(path), str(path)


def _load(board: str | Path | None, components: str | Path | None
          ) -> tuple[Components | None, list[str]]:
    problems: list[str] = []
    bpath, blabel = _resolve(board, DEFAULT_BOARD)
    cpath, clabel = _resolve(components, DEFAULT_COMPONENTS)
    bdoc = _read_toml(bpath, blabel, problems)
    cdoc = _read_toml(cpath, clabel, problems)
    pboard, pparts = _Problems(blabel, problems), _Problems(clabel, problems)
    bparsed = pparsed = None
    if bdoc is not None:
        if detect_kind(bdoc) == "components":
            pboard.add("", "is a components file, expected a board file ([[province]] tables)")
        else:
            bparsed = _parse_board(bdoc, pboard)
    if cdoc is not None:
        if detect_kind(cdoc) == "board":
            pparts.add("", "is a board file, expected a components file ([province_tiles], "
                       "[white_cards], [coloured_cards], [bonus_tiles])")
        else:
            pparsed = _parse_parts(cdoc, pparts)
    if bparsed is None or pparsed is None or problems:
        return None, problems
    comp = _components_from(bparsed, pparsed, blabel, clabel)
    _check_built(comp, pboard, pparts)
    return (None if problems else comp), problems


def validate_files(board: str | Path | None = None,
                   components: str | Path | None = None) -> list[str]:
    """Every problem of a board file and a components file, one line each ([] when valid).

    Parameters
    ----------
    board, components : path or None
        The files to check; None means the built-in default. Cross-file constraints (fortresses
        vs. square bonus tiles) are checked against the pair.

    Returns
    -------
    list of str
        "<file>: <key>: <bad value>, expected <what>" lines.
    """
    return _load(board, components)[1]


def load_components(board: str | Path | None = None,
                    components: str | Path | None = None) -> Components:
    """Load and validate a board file and a components file (None: the built-in defaults).

    Raises
    ------
    ComponentError
        One line naming the file, the key, the bad value and what was expected (the first
        problem; ``validate_files`` lists all).
    """
    comp, problems = _load(board, components)
    if comp is None:
        more = f" (and {len(problems) - 1} more problems; `tajsim board validate FILE` lists "
        more += "them)"
        raise ComponentError(problems[0] + (more if len(problems) > 1 else ""))
    return comp


@functools.lru_cache(maxsize=1)
def default_components() -> Components:
    """The built-in components (``data/board.toml`` + ``data/components.toml``), loaded once."""
    return load_components()


# ---------------------------------------------------------------------------------------------
# Alternative boards for robustness analyses
# ---------------------------------------------------------------------------------------------
N_NEAREST = 5  # road endpoints are drawn among the N_NEAREST closest city pairs


def alternative_components(
    seed: int,
    base: Components | None = None,
    *,
    board: bool = True,
    bonus_mix: bool = True,
) -> Components:
    """A plausible alternative board and bonus-tile mix, random within the sourced constraints.

    Kept from ``base`` (default: ``default_components()``): provinces, cities and their
    positions, the roads inside provinces (rings, Agra's roads), which provinces are joined and
    by how many roads, Agra, the number of fortresses per province (as a multiset), the number
    of square bonus tiles and how many of them are commodities, the province tiles and cards.

    Randomised:

    - ``board``: the cities each road between two provinces joins: drawn without replacement
      among the ``N_NEAREST`` (5) closest city pairs of the two provinces, avoiding pairs whose
      road would cross an already drawn road on the map (province pairs in random order; the
      city of Agra only if it had such roads in ``base``); which provinces have how many
      fortresses (the per-province counts shuffled over the provinces other than Agra's) and
      which of their cities (uniformly, never Agra).
    - ``bonus_mix``: the commodity tiles split randomly over the four goods (a uniformly drawn
      composition, each good at least one tile when there are at least four), the others split
      between +2 and draw (each at least one when there are at least two).

    Parameters
    ----------
    seed : int
        Non-negative; the result is a deterministic function of (seed, base, flags). The board
        and the bonus mix use independent streams, so the bonus mix of a seed does not depend on
        ``board``.

    Returns
    -------
    Components
        Valid components (checked like a loaded file); ``board_path`` / ``components_path`` say
        "alternative seed=<seed> of <base path>".
    """
    if not _is_int(seed) and not isinstance(seed, np.integer):
        raise ComponentError(f"alternative_components: seed {seed!r}, expected an integer >= 0")
    if seed < 0:
        raise ComponentError(f"alternative_components: seed {seed}, expected an integer >= 0")
    base = default_components() if base is None else base
    ss = np.random.SeedSequence(int(seed))
    rng_roads, rng_forts, rng_bonus = (np.random.default_rng(s) for s in ss.spawn(3))
    provenance = dict(base.provenance)
    roads, fortress, bonus = base.roads, base.city_fortress, base.bonus_tiles
    board_path, components_path = base.board_path, base.components_path
    tag = f"alternative_components(seed={int(seed)})"
    if board:
        roads = _random_roads(base, rng_roads)
        fortress = _random_fortresses(base, rng_forts)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        provenance["inter_province_roads"] = (
            f"reconstructed: {tag}: each road between two provinces drawn among the "
            f"{N_NEAREST} closest city pairs; same province pairs and road counts as the base "
            "board"
        )
        provenance["fortress_cities"] = (
            f"reconstructed: {tag}: the base board's fortress counts per province shuffled over "
            "the provinces other than Agra's, cities drawn uniformly"
        )
    if bonus_mix:
        bonus = _random_bonus(base, rng_bonus)
        components_path = f"alternative seed={int(seed)} of {base.components_path}"
        provenance["bonus_tiles"] = (
            f"reconstructed: {tag}: the base mix's commodity tiles split randomly over the four "
            "goods (each at least one), the others between +2 and draw (each at least one)"
        )
    alt = dataclasses.replace(
        base,
        roads=roads,
        city_fortress=fortress,
        bonus_tiles=bonus,
        provenance=provenance,
        board_path=board_path,
        components_path=components_path,
        # The arrays we keep are read-only already; copies keep the new object independent.
        city_province=base.city_province.copy(),
        city_xy=base.city_xy.copy(),
        tile_goods=base.tile_goods.copy(),
        card_colour=base.card_colour.copy(),
        card_symbols=base.card_symbols.copy(),
    )
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in the generator, not a user error
        raise RuntimeError(f"alternative_components produced invalid components: {problems[0]}")
    return alt


def _segments_cross(p: np.ndarray, q: np.ndarray, r: np.ndarray, s: np.ndarray) -> bool:
    def orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return (orient(p, q, r) * orient(p, q, s) < 0) and (orient(r, s, p) * orient(r, s, q) < 0)


def _random_roads(base: Components, rng: np.random.Generator) -> np.ndarray:
    prov, xy = base.city_province, base.city_xy
    inter = base.inter_province_roads
    kept = [tuple(r) for r in base.roads[~inter].tolist()]
    agra_linked = bool(np.any(base.roads[inter] == base.agra_city))
    need: dict[tuple[int, int], int] = {}
    for a, b in base.roads[inter].tolist():
        key = (min(prov[a], prov[b]), max(prov[a], prov[b]))
        need[key] = need.get(key, 0) + 1
    pairs = sorted(need)
    order = rng.permutation(len(pairs))
    drawn: list[tuple[int, int]] = []
    for i in order:
        p, q = pairs[i]
        cands = [
            (a, b)
            for a in base.province_cities(p).tolist()
            for b in base.province_cities(q).tolist()
            if agra_linked or base.agra_city not in (a, b)
        ]
        cands.sort(key=lambda ab: (float(np.hypot(*(xy[ab[0]] - xy[ab[1]]))), ab))
        pool = cands[: max(N_NEAREST, need[(p, q)])]
        for _ in range(need[(p, q)]):
            free = [
                ab for ab in pool
                if not any(
                    len({*ab, *cd}) == 4 and _segments_cross(xy[ab[0]], xy[ab[1]], xy[cd[0]],
                                                              xy[cd[1]])
                    for cd in itertools.chain(kept, drawn)
                )
            ]
            choice = free or pool
            ab = choice[int(rng.integers(len(choice)))]
            pool.remove(ab)
            drawn.append(ab)
    return np.array(kept + drawn, dtype=np.int64).reshape(-1, 2)


def _random_fortresses(base: Components, rng: np.random.Generator) -> np.ndarray:
    fort = base.city_fortress.copy()
    fort[base.agra_city] = False
    others = [p for p in range(base.n_provinces) if p != base.agra_province]
    counts = [int(fort[base.province_cities(p)].sum()) for p in others]
    free = {p: [c for c in base.province_cities(p).tolist() if c != base.agra_city]
            for p in range(base.n_provinces)}
    for _ in range(1000):
        shuffled = [counts[i] for i in rng.permutation(len(counts))]
        if all(k <= len(free[p]) for p, k in zip(others, shuffled)):
            break
    else:  # pragma: no cover - only for boards with very uneven provinces
        shuffled = counts
    new = np.zeros(base.n_cities, dtype=bool)
    new[base.agra_city] = True
    plan = list(zip(others, shuffled)) + [
        (base.agra_province, int(fort[base.province_cities(base.agra_province)].sum()))
    ]
    for p, k in plan:
        if k:
            new[rng.choice(free[p], size=k, replace=False)] = True
    return new


def _composition(rng: np.random.Generator, total: int, parts: int, minimum: int) -> list[int]:
    """A uniformly drawn split of ``total`` into ``parts`` counts, each >= ``minimum``."""
    rest = total - parts * minimum
    cuts = np.sort(rng.choice(rest + parts - 1, size=parts - 1, replace=False))
    bounds = np.concatenate([[-1], cuts, [rest + parts - 1]])
    return [int(x) + minimum for x in np.diff(bounds) - 1]


def _random_bonus(base: Components, rng: np.random.Generator) -> np.ndarray:
    tiles = base.bonus_tiles
    n_goods = int(np.sum(tiles < E.N_GOODS))
    n_other = len(tiles) - n_goods
    goods = _composition(rng, n_goods, E.N_GOODS, 1 if n_goods >= E.N_GOODS else 0)
    other = _composition(rng, n_other, 2, 1 if n_other >= 2 else 0)
    counts = goods + other  # rice tea spices jewels plus2 draw
    return np.array([k for k, n in enumerate(counts) for _ in range(n)], dtype=np.int64)
