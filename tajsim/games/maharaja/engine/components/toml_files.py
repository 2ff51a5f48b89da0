"""Reading and checking Maharaja's component files (``board.toml``, ``components.toml``): one line
per problem naming the file, the key, the bad value and what was expected; loading a valid pair
into :class:`Components` (the package docstring lists the board constraints)."""

from __future__ import annotations

import functools
import itertools
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components.model import ComponentError, Components
from tajsim.games.maharaja.engine.components.roads import adjacency, bfs

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_BOARD = DATA_DIR / "board.toml"
DEFAULT_COMPONENTS = DATA_DIR / "components.toml"

BOARD_PROVENANCE_KEYS = ("junction_count", "villages_per_road", "roads_per_junction",
                         "start_position", "city_names", "city_positions", "start_name", "roads",
                         "village_names")
COMPONENTS_PROVENANCE_KEYS = ("gold_table", "start", "supply", "costs", "actions", "points",
                              "villages", "track", "characters")
_PROVENANCE_PREFIXES = ("sourced:", "reconstructed:")
_BOARD_KEYS = ("name", "provenance", "start", "city", "road")
_COMPONENT_TABLES: dict[str, tuple[str, ...]] = {
    "gold_table": tuple(f"players_{n}" for n in range(E.MIN_PLAYERS, E.MAX_PLAYERS + 1)),
    "start": ("gold", "houses", "quarry_gift"),
    "supply": ("houses_per_colour", "palaces_per_player"),
    "costs": ("house", "palace", "artisan_palace", "toll_per_house"),
    "actions": ("gold", "quarry", "trader", "penalty", "lone_bonus", "governor_step"),
    "points": ("architect", "house", "outer_palace", "central_palace", "sadhu_outer_palace"),
    "villages": ("cap", "cap_two_players"),
    "track": ("round_boxes",),
    "characters": ("names",),
}
# (table, key) -> (low, high) for the integer numbers
_NUMBER_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("start", "gold"): (0, 1000),
    ("start", "houses"): (0, 10),
    ("start", "quarry_gift"): (0, 20),
    ("supply", "houses_per_colour"): (1, 100),
    ("supply", "palaces_per_player"): (1, E.N_CITIES),
    ("costs", "house"): (0, 100),
    ("costs", "palace"): (0, 1000),
    ("costs", "artisan_palace"): (0, 1000),
    ("costs", "toll_per_house"): (0, 100),
    ("actions", "gold"): (0, 100),
    ("actions", "quarry"): (0, 20),
    ("actions", "trader"): (0, 100),
    ("actions", "penalty"): (0, 100),
    ("actions", "lone_bonus"): (0, 100),
    ("actions", "governor_step"): (1, E.N_GOVERNORS - 1),
    ("points", "architect"): (0, 100),
    ("points", "house"): (0, 100),
    ("points", "outer_palace"): (0, 100),
    ("points", "central_palace"): (0, 100),
    ("points", "sadhu_outer_palace"): (0, 100),
    ("villages", "cap"): (1, 10),
    ("villages", "cap_two_players"): (1, 10),
    ("track", "round_boxes"): (1, E.MAX_ROUND_BOXES),
}


def read_toml(path: str | Path) -> dict[str, Any]:
    file = Path(path)
    try:
        return tomllib.loads(file.read_text())
    except OSError as exc:
        raise ComponentError(f"cannot read component file {str(path)!r}: {exc.strerror}") \
            from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        msg = str(exc).splitlines()[0]
        raise ComponentError(f"{file.name}: not valid TOML: {msg}") from None


def _is_xy(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value))


def _check_provenance(data: dict, keys: tuple[str, ...], where: str, out: list[str]) -> None:
    prov = data.get("provenance")
    if not isinstance(prov, dict):
        out.append(f"{where}: [provenance] is missing; expected a table with keys "
                   f"{', '.join(keys)}")
        return
    for key in keys:
        value = prov.get(key)
        if not isinstance(value, str) or not value.startswith(_PROVENANCE_PREFIXES):
            out.append(f"{where}: provenance.{key} = {value!r}; expected a text starting with "
                       "'sourced:' or 'reconstructed:'")
    for key in prov:
        if key not in keys:
            out.append(f"{where}: unknown provenance key {key!r}; expected one of "
                       f"{', '.join(keys)}")


def _segments_cross(p1, p2, p3, p4) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0


def _point_on_segment(q, a, b, tol: float = 1e-6) -> bool:
    ab = np.subtract(b, a)
    t = float(np.dot(np.subtract(q, a), ab) / max(np.dot(ab, ab), 1e-12))
    if not 0.0 < t < 1.0:
        return False
    closest = np.add(a, t * ab)
    return float(np.hypot(*(np.subtract(q, closest)))) < tol * (1.0 + float(np.hypot(*ab)))


def board_problems(data: dict, where: str) -> tuple[list[str], dict[str, Any]]:
    """Every problem of a board table, and the parsed board (meaningful only without
    problems)."""
    out: list[str] = []
    for key in data:
        if key not in _BOARD_KEYS:
            out.append(f"{where}: unknown key {key!r}; expected {', '.join(_BOARD_KEYS)}")
    _check_provenance(data, BOARD_PROVENANCE_KEYS, where, out)
    start = data.get("start")
    if not isinstance(start, dict) or not isinstance(start.get("name"), str) \
            or not _is_xy(start.get("xy")):
        out.append(f"{where}: [start] = {start!r:.80}; expected a table with name and xy = [x, y]")
        start = {"name": "?start", "xy": [0.0, 0.0]}
    cities = data.get("city")
    if not isinstance(cities, list) or len(cities) != E.N_CITIES:
        count = len(cities) if isinstance(cities, list) else cities
        out.append(f"{where}: {count!r} [[city]] tables; expected exactly {E.N_CITIES}")
        return out, {}
    names: list[str] = []
    xy: list[list[float]] = []
    for i, city in enumerate(cities):
        if not isinstance(city, dict) or not isinstance(city.get("name"), str) \
                or not _is_xy(city.get("xy")):
            out.append(f"{where}: city {i + 1} = {city!r:.80}; expected name and xy = [x, y]")
            return out, {}
        extra = set(city) - {"name", "xy"}
        if extra:
            out.append(f"{where}: city {city['name']!r} has unknown key {sorted(extra)[0]!r}; "
                       "expected name, xy")
        names.append(city["name"])
        xy.append([float(v) for v in city["xy"]])
    names.append(start["name"])
    xy.append([float(v) for v in start["xy"]])
    seen: set[str] = set()
    for name in names:
        if name in seen:
            out.append(f"{where}: duplicate junction name {name!r}; expected unique city and "
                       "start names")
        seen.add(name)
    index = {name: j for j, name in enumerate(names)}
    roads_in = data.get("road")
    if not isinstance(roads_in, list) or not roads_in:
        out.append(f"{where}: [[road]] tables are missing; expected the roads of the map")
        return out, {}
    roads: list[tuple[int, int]] = []
    road_villages: list[list[str]] = []
    pairs: set[frozenset[int]] = set()
    village_names: list[str] = []
    for i, road in enumerate(roads_in):
        label = f"road {i + 1}"
        if not isinstance(road, dict):
            out.append(f"{where}: {label} = {road!r:.60}; expected a table with between and "
                       "villages")
            continue
        extra = set(road) - {"between", "villages"}
        if extra:
            out.append(f"{where}: {label} has unknown key {sorted(extra)[0]!r}; expected "
                       "between, villages")
        between = road.get("between")
        if not (isinstance(between, list) and len(between) == 2
                and all(isinstance(x, str) for x in between)):
            out.append(f"{where}: {label} between = {between!r}; expected two junction names")
            continue
        unknown = [x for x in between if x not in index]
        if unknown:
            out.append(f"{where}: {label} between names unknown junction {unknown[0]!r}; "
                       f"expected one of {', '.join(names)}")
            continue
        a, b = index[between[0]], index[between[1]]
        label = f"road {between[0]}-{between[1]}"
        if a == b:
            out.append(f"{where}: {label} joins {between[0]!r} to itself; expected two "
                       "different junctions")
            continue
        if frozenset((a, b)) in pairs:
            out.append(f"{where}: duplicate {label}; expected at most one road per pair of "
                       "junctions")
            continue
        pairs.add(frozenset((a, b)))
        vil = road.get("villages")
        if not (isinstance(vil, list) and all(isinstance(v, str) for v in vil)):
            out.append(f"{where}: {label} villages = {vil!r}; expected a list of village names")
            continue
        if not 1 <= len(vil) <= E.MAX_ROAD_VILLAGES:
            out.append(f"{where}: {label} has {len(vil)} villages {vil}; expected 1 or 2")
            continue
        for v in vil:
            if v in village_names or v in index:
                out.append(f"{where}: duplicate village name {v!r} on {label}; expected names "
                           "unique among villages, cities and the start")
            village_names.append(v)
        roads.append((a, b))
        road_villages.append(vil)
    if out:
        return out, {}
    road_arr = np.array(roads, np.int64)
    reach = bfs(adjacency(road_arr), E.START)
    for j in range(E.N_JUNCTIONS):
        if reach[j] < 0:
            out.append(f"{where}: city {names[j]!r} is unreachable from {names[E.START]!r}; "
                       "expected every city joined to the start by roads")
    if len(village_names) != E.N_VILLAGES:
        out.append(f"{where}: {len(village_names)} villages on the roads; expected "
                   f"{E.N_VILLAGES}")
    degree = np.zeros(E.N_JUNCTIONS, np.int64)
    for a, b in roads:
        degree[a] += 1
        degree[b] += 1
    for j in range(E.N_JUNCTIONS):
        if not E.MIN_DEGREE <= degree[j] <= E.MAX_DEGREE:
            out.append(f"{where}: junction {names[j]!r} has {int(degree[j])} roads; expected "
                       f"{E.MIN_DEGREE} to {E.MAX_DEGREE}")
    for (a, b), (c, d) in itertools.combinations(roads, 2):
        if len({a, b, c, d}) == 4 and _segments_cross(xy[a], xy[b], xy[c], xy[d]):
            out.append(f"{where}: road {names[a]}-{names[b]} crosses road {names[c]}-{names[d]};"
                       " expected a planar map (roads drawn straight between the xy positions)")
    for a, b in roads:
        for j in range(E.N_JUNCTIONS):
            if j not in (a, b) and _point_on_segment(xy[j], xy[a], xy[b]):
                out.append(f"{where}: road {names[a]}-{names[b]} runs through {names[j]!r}; "
                           "expected roads to meet only at their ends")
    parsed = {"names": names, "xy": np.array(xy, np.float64), "roads": road_arr,
              "road_villages": road_villages, "village_names": village_names,
              "name": str(data.get("name", "")), "provenance": dict(data.get("provenance", {}))}
    return out, parsed


def _components_problems(data: dict, where: str) -> tuple[list[str], dict[str, Any]]:
    out: list[str] = []
    allowed = ("name", "provenance", *_COMPONENT_TABLES)
    for key in data:
        if key not in allowed:
            out.append(f"{where}: unknown key {key!r}; expected {', '.join(allowed)}")
    _check_provenance(data, COMPONENTS_PROVENANCE_KEYS, where, out)
    numbers: dict[str, int] = {}
    gold: dict[int, tuple[int, ...]] = {}
    names: tuple[str, ...] = ()
    for table, keys in _COMPONENT_TABLES.items():
        tab = data.get(table)
        if not isinstance(tab, dict):
            out.append(f"{where}: [{table}] is missing; expected a table with "
                       f"{', '.join(keys)}")
            continue
        for key in tab:
            if key not in keys:
                out.append(f"{where}: unknown key {table}.{key}; expected one of "
                           f"{', '.join(keys)}")
        for key in keys:
            value = tab.get(key)
            full = f"{table}.{key}"
            if table == "gold_table":
                n = int(key.split("_")[1])
                if not (isinstance(value, list) and len(value) == n
                        and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 1000
                                for x in value)):
                    out.append(f"{where}: {full} = {value!r}; expected {n} whole numbers of gold"
                               " (0 to 1000), one per rank")
                elif any(a < b for a, b in itertools.pairwise(value)):
                    out.append(f"{where}: {full} = {value!r}; expected gold that never rises "
                               "with the rank")
                else:
                    gold[n] = tuple(value)
            elif table == "characters":
                if not (isinstance(value, list) and len(value) == E.N_CARDS
                        and all(isinstance(x, str) and x for x in value)
                        and len(set(value)) == E.N_CARDS):
                    out.append(f"{where}: {full} = {value!r}; expected {E.N_CARDS} different "
                               "names (cards 1 to 6)")
                else:
                    names = tuple(value)
            else:
                low, high = _NUMBER_RANGES[(table, key)]
                if not (isinstance(value, int) and not isinstance(value, bool)
                        and low <= value <= high):
                    out.append(f"{where}: {full} = {value!r}; expected a whole number from "
                               f"{low} to {high}")
                else:
                    numbers[full] = value
    if not out:
        if numbers["costs.artisan_palace"] > numbers["costs.palace"]:
            out.append(f"{where}: costs.artisan_palace = {numbers['costs.artisan_palace']}; "
                       f"expected at most costs.palace ({numbers['costs.palace']})")
        need = numbers["start.houses"] + numbers["start.quarry_gift"]
        if numbers["supply.houses_per_colour"] < need:
            out.append(f"{where}: supply.houses_per_colour = "
                       f"{numbers['supply.houses_per_colour']}; expected at least start.houses "
                       f"+ start.quarry_gift ({need})")
        cap2 = numbers["villages.cap_two_players"]
        if cap2 * E.N_VILLAGES < 2 * numbers["start.houses"] or \
                numbers["villages.cap"] * E.N_VILLAGES < E.MAX_PLAYERS * numbers["start.houses"]:
            out.append(f"{where}: villages.cap = {numbers['villages.cap']}; expected room in the "
                       f"{E.N_VILLAGES} villages for every player's start.houses")
    parsed = {"numbers": numbers, "gold": gold, "names": names,
              "name": str(data.get("name", "")), "provenance": dict(data.get("provenance", {}))}
    return out, parsed


def _first(problems: list[str]) -> None:
    if problems:
        raise ComponentError(problems[0])


def _village_xy(xy: np.ndarray, roads: np.ndarray, road_villages: list[list[int]]) -> np.ndarray:
    out = np.zeros((E.N_VILLAGES, 2), np.float64)
    for r, vil in enumerate(road_villages):
        a, b = xy[roads[r, 0]], xy[roads[r, 1]]
        for i, v in enumerate(vil):
            t = (i + 1) / (len(vil) + 1)
            out[v] = a + t * (b - a)
    return out


def build(board: dict, parts: dict, board_path: str, comp_path: str) -> Components:
    village_names = board["village_names"]
    vindex = {name: i for i, name in enumerate(village_names)}
    rv = [[vindex[name] for name in vil] for vil in board["road_villages"]]
    road_villages = np.full((len(rv), E.MAX_ROAD_VILLAGES), -1, np.int64)
    for r, vil in enumerate(rv):
        road_villages[r, :len(vil)] = vil
    prov = {f"board.{k}": v for k, v in board["provenance"].items()}
    prov.update({f"components.{k}": v for k, v in parts["provenance"].items()})
    return Components(
        name=board["name"], city_names=tuple(board["names"][:E.N_CITIES]),
        start_name=board["names"][E.START], village_names=tuple(village_names),
        junction_xy=board["xy"], village_xy=_village_xy(board["xy"], board["roads"], rv),
        roads=board["roads"], road_villages=road_villages, numbers=parts["numbers"],
        gold_table=parts["gold"], card_names=parts["names"], provenance=prov,
        board_path=board_path, components_path=comp_path,
    )


def load_components(board: str | Path | None = None,
                    components: str | Path | None = None) -> Components:
    """Load and validate a board file and a components file (None: the shipped ones).

    Raises :class:`ComponentError` (one line) on the first problem.
    """
    board_path = Path(board) if board is not None else DEFAULT_BOARD
    comp_path = Path(components) if components is not None else DEFAULT_COMPONENTS
    problems, parsed_board = board_problems(read_toml(board_path), board_path.name)
    _first(problems)
    problems, parsed_parts = _components_problems(read_toml(comp_path), comp_path.name)
    _first(problems)
    return build(parsed_board, parsed_parts, str(board_path), str(comp_path))


@functools.cache
def default_components() -> Components:
    """The shipped board and components (cached)."""
    return load_components()


def detect_kind(doc: dict[str, Any]) -> str | None:
    """What a parsed file is, from its top-level keys: "board" ([[city]], [[road]]),
    "components" ([gold_table], [costs]) or None."""
    board = "city" in doc or "road" in doc
    parts = "gold_table" in doc or "costs" in doc
    if board and not parts:
        return "board"
    if parts and not board:
        return "components"
    return None


def validate_files(board: str | Path | None = None,
                   components: str | Path | None = None) -> list[str]:
    """Every problem of a board file and a components file, one line each ([] when valid);
    None stands for the shipped file of that kind."""
    problems: list[str] = []
    for path, default, check in ((board, DEFAULT_BOARD, board_problems),
                                 (components, DEFAULT_COMPONENTS, _components_problems)):
        file = Path(path) if path is not None else default
        try:
            data = read_toml(file)
        except ComponentError as exc:
            problems.append(str(exc))
            continue
        problems += check(data, file.name)[0]
    return problems


def validate_file(path: str | Path) -> list[str]:
    """Every problem of one component file (a board file has [[city]] tables, a components
    file a [gold_table]); an empty list if it is valid."""
    file = Path(path)
    try:
        data = read_toml(file)
    except ComponentError as exc:
        return [str(exc)]
    kind = detect_kind(data)
    if kind == "components":
        return _components_problems(data, file.name)[0]
    if kind == "board":
        return board_problems(data, file.name)[0]
    return [f"{file.name}: neither a board file ([[city]], [[road]]) nor a components file "
            "([gold_table], [costs]); expected one of them"]
