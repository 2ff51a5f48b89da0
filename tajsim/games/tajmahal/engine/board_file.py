"""Reading Taj Mahal's board file (``data/board.toml``): provinces, neighbours, cities and
roads, each bad value reported in one line (the rules-critical checks of the built board are in
``component_files``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tajsim.engine.component_files import (
    Problems,
    check_name,
    check_provenance,
    check_unknown,
    choices,
    is_number,
    show_value,
    slug,
)
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.components import (
    _BOARD_TOP_KEYS,
    _CITY_KEYS,
    _PROVINCE_KEYS,
    BOARD_PROVENANCE_KEYS,
)


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
class BoardDoc:
    provinces: list[str]
    cities: list[str]
    city_province: list[int]
    city_xy: list[tuple[float, float]]
    city_fortress: list[bool]
    agra_city: int
    roads: list[tuple[int, int]]
    provenance: dict[str, str]


def parse_board(doc: dict[str, Any], pb: Problems) -> BoardDoc | None:
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
    return BoardDoc(names, cities, city_province, city_xy, city_fortress, agras[0], roads,
                     provenance)
