"""Reading and checking Taj Mahal's component files (``data/board.toml``, ``data/components.toml``).

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

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.component_files import (
    ComponentError,
    Problems,
    check_name,
    check_provenance,
    check_unknown,
    choices,
    connected_groups,
    is_int,
    is_number,
    read_toml,
    read_toml_into,
    show_value,
    slug,
)
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.components import (
    _BOARD_TOP_KEYS,
    _CITY_KEYS,
    _COMPONENTS_TOP_KEYS,
    _PROVINCE_KEYS,
    _SQUARE_BONUS_NAMES,
    BOARD_PROVENANCE_KEYS,
    BUILTIN_PROVENANCE,
    COMPONENTS_PROVENANCE_KEYS,
    DEFAULT_BOARD,
    DEFAULT_COMPONENTS,
    Components,
)

__all__ = [
    "ComponentError",
    "check_components",
    "default_components",
    "detect_kind",
    "load_components",
    "read_toml",
    "validate_files",
]


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


def _check_pairs(pb: Problems, where: str, value: Any) -> list[tuple[str, str]]:
    """A list of [city, city] pairs."""
    if not isinstance(value, list):
        pb.add(where, f"got {show_value(value)}, expected a list of [city, city] pairs")
        return []
    out = []
    for i, pair in enumerate(value):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            pb.add(f"{where}[{i}]", f"got {show_value(pair)}, expected a pair of city names "
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


def _parse_board(doc: dict[str, Any], pb: Problems) -> _BoardDoc | None:
    check_unknown(pb, "", doc, _BOARD_TOP_KEYS)
    if "name" in doc and not isinstance(doc["name"], str):
        pb.add("name", f"got {show_value(doc['name'])}, expected a string")
    provenance = check_provenance(pb, doc, BOARD_PROVENANCE_KEYS)
    provs = doc.get("province")
    if not isinstance(provs, list) or not all(isinstance(p, dict) for p in provs):
        pb.add("province", "missing [[province]] tables, expected 12 of them")
        return None
    if len(provs) != E.N_PROVINCES:
        pb.add("province", f"{len(provs)} [[province]] tables, expected {E.N_PROVINCES}")
    names: list[str] = []
    for i, p in enumerate(provs):
        where = f"province[{i}]"
        check_unknown(pb, where, p, _PROVINCE_KEYS)
        name = p.get("name")
        if check_name(pb, where, name):
            if name in names:
                pb.add(where, f"name = {show_value(name)} repeats an earlier province, expected "
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
        where = f"province {show_value(names[pi])}"
        plist = p.get("cities")
        if not isinstance(plist, list):
            pb.add(where, f"cities = {show_value(plist)}, expected a list of "
                   "{ name = ..., xy = [x, y], fortress = true/false } tables")
            continue
        for ci, c in enumerate(plist):
            cw = f"{where}: cities[{ci}]"
            if not isinstance(c, dict):
                pb.add(cw, f"got {show_value(c)}, expected {{ name = ..., xy = [x, y] }}")
                continue
            check_unknown(pb, cw, c, _CITY_KEYS)
            cname = c.get("name")
            if not check_name(pb, cw, cname):
                continue
            cw = f"{where}: city {show_value(cname)}"
            if cname in cities:
                pb.add(cw, "repeats an earlier city name, expected unique city names")
                continue
            xy = c.get("xy")
            if not (isinstance(xy, list) and len(xy) == 2 and all(is_number(v) for v in xy)):
                pb.add(cw, f"xy = {show_value(xy)}, expected two numbers [x, y]")
                xy = [0.0, 0.0]
            fortress = c.get("fortress", False)
            if not isinstance(fortress, bool):
                pb.add(cw, f"fortress = {show_value(fortress)}, expected true or false")
                fortress = False
            agra = c.get("agra", False)
            if not isinstance(agra, bool):
                pb.add(cw, f"agra = {show_value(agra)}, expected true or false")
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
                pb.add(f"city {show_value(n)}", f"slug {slug(n)} equals the slug of "
                       f"{show_value(seen[slug(n)])}, expected distinct city slugs")
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
        where = f"province {show_value(names[pi])}"
        nbs = p.get("neighbours", [])
        if not isinstance(nbs, list) or not all(isinstance(x, str) for x in nbs):
            pb.add(where, f"neighbours = {show_value(nbs)}, expected a list of province names")
            continue
        for nb in nbs:
            if nb not in pindex:
                pb.add(where, f"neighbours: unknown province {show_value(nb)}, expected "
                       f"{choices(names)}")
            elif pindex[nb] == pi:
                pb.add(where, f"neighbours: {show_value(nb)} is the province itself, expected "
                       "other provinces")
            elif (pi, pindex[nb]) in declared:
                pb.add(where, f"neighbours: {show_value(nb)} listed twice, expected each once")
            else:
                declared.add((pi, pindex[nb]))
    for a, b in sorted(declared):
        if (b, a) not in declared:
            pb.add(f"province {show_value(names[b])}", f"neighbours lacks {show_value(names[a])}, "
                   f"expected it since {names[a]} lists {names[b]} (neighbours are symmetric)")

    # Roads.
    roads: list[tuple[int, int]] = []
    seen_roads: dict[frozenset[int], str] = {}
    joined: set[tuple[int, int]] = set()

    def add_road(where: str, a: str, b: str, inside: int | None) -> None:
        for x in (a, b):
            if x not in index:
                pb.add(where, f"unknown city {show_value(x)}, expected a city of the board")
                return
        ia, ib = index[a], index[b]
        if ia == ib:
            pb.add(where, f"[{show_value(a)}, {show_value(b)}] joins a city to itself, "
                   "expected two different cities")
            return
        pa, pb_ = city_province[ia], city_province[ib]
        if inside is not None and (pa != inside or pb_ != inside):
            other = a if pa != inside else b
            pb.add(where, f"[{show_value(a)}, {show_value(b)}]: {show_value(other)} is in province "
                   f"{show_value(names[city_province[index[other]]])}, expected two cities of "
                   f"{show_value(names[inside])} (roads between provinces go in "
                   "[inter_province] roads)")
            return
        if inside is None:
            if pa == pb_:
                pb.add(where, f"[{show_value(a)}, {show_value(b)}] joins two cities of "
                       f"{show_value(names[pa])}, expected cities of two provinces (roads inside a "
                       "province go in its own roads list)")
                return
            if (pa, pb_) not in declared:
                pb.add(where, f"[{show_value(a)}, {show_value(b)}] joins {names[pa]} and "
                       f"{names[pb_]}, which are not declared neighbours; expected neighbouring "
                       "provinces")
                return
            joined.add((min(pa, pb_), max(pa, pb_)))
        key = frozenset((ia, ib))
        if key in seen_roads:
            pb.add(where, f"[{show_value(a)}, {show_value(b)}] duplicates the road at "
                   f"{seen_roads[key]}, expected each road once")
            return
        seen_roads[key] = where
        roads.append((ia, ib))

    for pi, p in enumerate(provs):
        where = f"province {show_value(names[pi])}: roads"
        for i, (a, b) in enumerate(_check_pairs(pb, where, p.get("roads", []))):
            add_road(f"{where}[{i}]", a, b, pi)
    inter = doc.get("inter_province", {})
    if not isinstance(inter, dict):
        pb.add("inter_province", f"got {show_value(inter)}, expected a table with a roads list")
        inter = {}
    check_unknown(pb, "inter_province", inter, ("roads",))
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
    pb: Problems, where: str, table: Any, allowed: Sequence[str], hint: str = ""
) -> dict[str, int] | None:
    if table is None:
        pb.add(where, f"missing [{where}] table, expected name = count lines")
        return None
    if not isinstance(table, dict):
        pb.add(where, f"got {show_value(table)}, expected a table of name = count")
        return None
    out: dict[str, int] = {}
    for key, value in table.items():
        if key not in allowed:
            pb.add(where, f"unknown name {show_value(key)}, expected {choices(allowed)}{hint}")
        elif not is_int(value) or value < 0:
            pb.add(f"{where}.{key}", f"got {show_value(value)}, expected a count (integer >= 0)")
        else:
            out[key] = value
    return out


def _parse_parts(doc: dict[str, Any], pb: Problems) -> _PartsDoc | None:
    check_unknown(pb, "", doc, _COMPONENTS_TOP_KEYS)
    if "name" in doc and not isinstance(doc["name"], str):
        pb.add("name", f"got {show_value(doc['name'])}, expected a string")
    provenance = check_provenance(pb, doc, COMPONENTS_PROVENANCE_KEYS)

    # Province tiles.
    tile_goods = np.zeros((E.N_PROVINCES, E.N_GOODS), dtype=np.int64)
    tiles = doc.get("province_tiles")
    numbers = [str(t) for t in range(1, E.N_PROVINCES + 1)]
    if not isinstance(tiles, dict):
        what = "missing [province_tiles] table" if tiles is None else f"got {show_value(tiles)}"
        pb.add("province_tiles", f"{what}, expected a table of tile number (1..12) = [goods]")
    else:
        for key, goods in tiles.items():
            where = f"province_tiles.{key}"
            if key not in numbers:
                pb.add("province_tiles", f"unknown tile number {show_value(key)}, expected 1..12")
                continue
            if (
                not isinstance(goods, list)
                or not 1 <= len(goods) <= 2
                or not all(isinstance(g, str) for g in goods)
            ):
                pb.add(where, f"got {show_value(goods)}, expected a list of 1 or 2 goods "
                       f"({', '.join(E.GOOD_NAMES)})")
                continue
            if len(set(goods)) != len(goods):
                pb.add(where, f"got {show_value(goods)}, expected different goods")
                continue
            for g in goods:
                if g not in E.GOOD_NAMES:
                    pb.add(where, f"unknown good {show_value(g)}, expected {choices(E.GOOD_NAMES)}")
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
        what = "missing table" if coloured is None else f"got {show_value(coloured)}"
        pb.add("coloured_cards", f"{what}, expected [coloured_cards.<colour>] tables for "
               f"{', '.join(colour_names)}")
    else:
        for key in coloured:
            if key not in colour_names:
                pb.add("coloured_cards", f"unknown colour {show_value(key)}, expected "
                       f"{choices(colour_names)}")
        for ci, colour in enumerate(colour_names):
            where = f"coloured_cards.{colour}"
            table = coloured.get(colour)
            if table is None:
                pb.add("coloured_cards", f"missing colour {colour}, expected the four colours "
                       f"{', '.join(colour_names)}")
                continue
            if not isinstance(table, dict):
                pb.add(where, f"got {show_value(table)}, expected a table of "
                       "\"symbol+symbol\" = count")
                continue
            cards: list[tuple[int, int]] = []
            for key, count in table.items():
                parts = key.split("+")
                bad = [x for x in parts if x not in E.SYMBOL_NAMES]
                if len(parts) != 2 or bad:
                    pb.add(where, f"card {show_value(key)}, expected two symbols joined by + "
                           f"(symbols: {', '.join(E.SYMBOL_NAMES)})")
                    continue
                if not is_int(count) or count < 0:
                    pb.add(f"{where}.\"{key}\"", f"got {show_value(count)}, expected a count "
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


def _check_built(c: Components, pboard: Problems, pparts: Problems) -> None:
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
            pboard.add(f"province {show_value(names[p])}", f"{k} cities, expected 4 to "
                       f"{E.MAX_CITIES_PER_PROVINCE} (so every advisor token can place a "
                       "palace)")
    if not c.city_fortress[c.agra_city]:
        pboard.add(f"city {show_value(cities[c.agra_city])}", "fortress = false, expected true "
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
            comps = connected_groups(members, inside)
            if len(comps) > 1:
                cut = ", ".join(cities[x] for comp in comps[1:] for x in sorted(comp))
                pboard.add(f"province {show_value(names[p])}: roads", f"{cut} not connected to the "
                           "province's other cities by its own roads, expected every city of "
                           "a province connected inside it")
        comps = connected_groups(set(range(n)), c.roads.tolist())
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
    _check_built(c, Problems(c.board_path, problems), Problems(c.components_path, problems))
    return problems


def _resolve(path: str | Path | None, default: Path) -> tuple[Path, str]:
    if path is None:
        return default, str(default)
    return Path(path), str(path)


def _load(board: str | Path | None, components: str | Path | None
          ) -> tuple[Components | None, list[str]]:
    problems: list[str] = []
    bpath, blabel = _resolve(board, DEFAULT_BOARD)
    cpath, clabel = _resolve(components, DEFAULT_COMPONENTS)
    bdoc = read_toml_into(bpath, blabel, problems)
    cdoc = read_toml_into(cpath, clabel, problems)
    pboard, pparts = Problems(blabel, problems), Problems(clabel, problems)
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
