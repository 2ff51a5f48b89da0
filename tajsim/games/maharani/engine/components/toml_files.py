"""Reading and checking Maharani's component files (``board.toml``, ``tiles.toml``): every
problem in one line naming the file, the key, the bad value and what was expected; loading a
valid pair into :class:`Components` (the package docstring lists what is checked)."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.errors import shown
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components.model import ComponentError, Components
from tajsim.games.maharani.engine.components.patterns import (
    fit_directions,
    kind_of_pattern,
    pattern_text,
)

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_BOARD = DATA_DIR / "board.toml"
DEFAULT_TILES = DATA_DIR / "tiles.toml"

#: Facts of the board file that need a provenance entry.
BOARD_PROVENANCE_KEYS = ("quarters", "quarter_animals", "shape", "adjacency", "columns",
                         "turntable", "positions")
#: Facts of the tiles file that need a provenance entry.
TILES_PROVENANCE_KEYS = ("count", "colours", "column_kinds", "arrows")
#: Facts fixed by the rules (in code, not in the files), with their provenance.
BUILTIN_PROVENANCE = {
    "quarter_gold": "sourced: French rules, Évaluation d'un quartier: 4/6/9/13/18/24 gold for "
                    "1-6 artisans",
    "artisans": "sourced: French rules, Mise en place: 8 artisans with 4 players, 10 with 3, "
                "2 x 7 with 2",
    "second_tile_cost": "sourced: French rules: a second tile costs 2 gold",
}

SIDE_KEYS = ("north", "east", "south", "west")  # = enums.DIR order
POSITION_KEYS = {"two": 2, "three": 3, "four": 4}
_BOARD_TOP = ("name", "provenance", "quarter", "walls", "turntable", "positions")
_QUARTER_KEYS = ("name", "spaces")
_SPACE_KEYS = ("id", "row", "col", "columns")
_TILES_TOP = ("name", "provenance", "colours", "tiles")
_TILE_KEYS = ("id", "colour", "columns")
_BOARD_MARKS = {"N": 1, "E": 2, "S": 4, "W": 8, "C": E.MARK_CENTRE}
_TILE_MARKS = {"ahead": 1, "right": 2, "behind": 4, "left": 8, "centre": E.MARK_CENTRE}
_PREFIXES = ("sourced:", "reconstructed:")



class _Problems:
    """One-line problems of one file: "<file>: <where>: <what>"."""

    def __init__(self, label: str, out: list[str]) -> None:
        self.label = label
        self.out = out

    def add(self, where: str, what: str) -> None:
        line = f"{self.label}: {where}: {what}" if where else f"{self.label}: {what}"
        self.out.append(" ".join(line.split()))


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_toml(path: Path, label: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{label}: cannot read: {exc.__class__.__name__}: "
                        f"{getattr(exc, 'strerror', None) or exc}")
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{label}: not valid TOML: {' '.join(str(exc).split())}")
        return None


def detect_kind(doc: dict[str, Any]) -> str | None:
    """"board" (has [[quarter]]), "tiles" (has tiles = [...]) or None."""
    if "quarter" in doc:
        return "board"
    if "tiles" in doc:
        return "tiles"
    return None


def _check_keys(pb: _Problems, where: str, table: Any, allowed: Iterable[str]) -> bool:
    if not isinstance(table, dict):
        pb.add(where, f"{shown(table)} is not a table, expected a table")
        return False
    allowed = tuple(allowed)
    for key in table:
        if key not in allowed:
            pb.add(where, f"unknown key {key!r}, expected one of {', '.join(allowed)}")
    return True


def _check_provenance(pb: _Problems, doc: dict[str, Any], required: Iterable[str]) -> dict:
    prov = doc.get("provenance")
    out: dict[str, str] = {}
    if not isinstance(prov, dict):
        pb.add("provenance", "missing [provenance] table, expected one "
               "'sourced: ...' or 'reconstructed: ...' line per fact")
        return out
    for key in required:
        value = prov.get(key)
        if not isinstance(value, str) or not value.startswith(_PREFIXES):
            pb.add(f"provenance.{key}", f"{shown(value)}, expected a string starting with "
                   "'sourced:' or 'reconstructed:'")
    for key, value in prov.items():
        if isinstance(value, str):
            out[key] = value
            if key not in required and not value.startswith(_PREFIXES):
                pb.add(f"provenance.{key}", f"{shown(value)}, expected a string starting "
                       "with 'sourced:' or 'reconstructed:'")
    return out


@dataclass
class _BoardDoc:
    name: str
    quarter_names: list[str]
    space_ids: list[str]
    space_quarter: list[int]
    space_row: list[int]
    space_col: list[int]
    space_marks: list[int]
    walls: list[tuple[int, int]]
    slot_quarter: list[list[int]]
    seat_sides: dict[int, tuple[int, ...]]
    provenance: dict[str, str]


@dataclass
class _TilesDoc:
    name: str
    colour_names: list[str]
    tile_ids: list[str]
    tile_colour: list[int]
    tile_marks: list[int]
    provenance: dict[str, str]


def _parse_marks(pb: _Problems, where: str, value: Any, words: dict[str, int],
                 central: str) -> int | None:
    """A column list -> pattern; None (and a problem) when it is not a valid list."""
    expected = f"{central!r} alone or one or two of " + ", ".join(
        repr(w) for w in words if w != central)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        pb.add(where, f"{shown(value)}, expected a non-empty list: {expected}")
        return None
    marks = 0
    for v in value:
        if v not in words:
            pb.add(where, f"unknown column {v!r}, expected {expected}")
            return None
        if marks & words[v]:
            pb.add(where, f"column {v!r} given twice, expected {expected}")
            return None
        marks |= words[v]
    if marks & E.MARK_CENTRE and marks != E.MARK_CENTRE:
        pb.add(where, f"{shown(value)} mixes a central column with half columns, expected "
               f"{expected}")
        return None
    if bin(marks & E.EDGE_MASK).count("1") > 2:
        pb.add(where, f"{shown(value)} has {bin(marks).count('1')} half columns, expected "
               f"{expected} (no tile shows more than two)")
        return None
    return marks


def _parse_board(doc: dict[str, Any], pb: _Problems) -> _BoardDoc | None:
    start = len(pb.out)
    _check_keys(pb, "", doc, _BOARD_TOP)
    prov = _check_provenance(pb, doc, BOARD_PROVENANCE_KEYS)
    name = doc.get("name", "")
    if not isinstance(name, str):
        pb.add("name", f"{shown(name)}, expected a string")
        name = ""
    quarters = doc.get("quarter")
    if not isinstance(quarters, list) or len(quarters) != E.N_QUARTERS:
        n = len(quarters) if isinstance(quarters, list) else shown(quarters)
        pb.add("quarter", f"{n} [[quarter]] tables, expected exactly {E.N_QUARTERS}")
        return None
    qnames: list[str] = []
    ids: list[str] = []
    squarter: list[int] = []
    rows: list[int] = []
    cols: list[int] = []
    marks: list[int] = []
    seen_pos: dict[tuple[int, int], str] = {}
    for qi, q in enumerate(quarters):
        where_q = f"quarter[{qi}]"
        if not _check_keys(pb, where_q, q, _QUARTER_KEYS):
            continue
        qname = q.get("name")
        if not isinstance(qname, str) or not qname.strip():
            pb.add(f"{where_q}.name", f"{shown(qname)}, expected a non-empty string")
            qname = f"#{qi}"
        elif qname in qnames:
            pb.add(f"{where_q}.name", f"duplicate quarter name {qname!r}, expected unique names")
        qnames.append(qname)
        spaces = q.get("spaces")
        if not isinstance(spaces, list) or not spaces:
            pb.add(f"{where_q}.spaces", f"{shown(spaces)}, expected a non-empty list of "
                   "{ id, row, col, columns } tables")
            continue
        for si, sp in enumerate(spaces):
            where = f"{where_q}.spaces[{si}]"
            if not _check_keys(pb, where, sp, _SPACE_KEYS):
                continue
            sid = sp.get("id")
            if not isinstance(sid, str) or not sid.strip():
                pb.add(f"{where}.id", f"{shown(sid)}, expected a non-empty string")
                continue
            where = f"space {sid}"
            if sid in ids:
                pb.add(where, f"duplicate space id {sid!r}, expected unique ids")
                continue
            r, c = sp.get("row"), sp.get("col")
            bad = False
            for key, v in (("row", r), ("col", c)):
                if not is_int(v) or not 0 <= v < E.GRID:
                    pb.add(f"{where}.{key}", f"{shown(v)}, expected an integer 0..{E.GRID - 1}")
                    bad = True
            if bad:
                continue
            if (r, c) in seen_pos:
                pb.add(where, f"grid position ({r}, {c}) already used by space "
                       f"{seen_pos[(r, c)]}, expected one space per grid square")
                continue
            m = _parse_marks(pb, f"{where}.columns", sp.get("columns"), _BOARD_MARKS, "C")
            if m is None:
                continue
            seen_pos[(r, c)] = sid
            ids.append(sid)
            squarter.append(qi)
            rows.append(r)
            cols.append(c)
            marks.append(m)
    if len(ids) > E.MAX_SPACES:
        pb.add("quarter", f"{len(ids)} spaces, expected at most {E.MAX_SPACES}")
    index = {sid: i for i, sid in enumerate(ids)}
    at = {(rows[i], cols[i]): i for i in range(len(ids))}
    walls: list[tuple[int, int]] = []
    raw_walls = doc.get("walls", [])
    if not isinstance(raw_walls, list):
        pb.add("walls", f"{shown(raw_walls)}, expected a list of [space id, space id] pairs")
        raw_walls = []
    for wi, w in enumerate(raw_walls):
        if (not isinstance(w, list) or len(w) != 2 or not all(isinstance(x, str) for x in w)):
            pb.add(f"walls[{wi}]", f"{shown(w)}, expected a pair of space ids")
            continue
        if w[0] not in index or w[1] not in index:
            bad_id = w[0] if w[0] not in index else w[1]
            pb.add(f"walls[{wi}]", f"unknown space id {bad_id!r}, expected a space of the board")
            continue
        a, b = index[w[0]], index[w[1]]
        if abs(rows[a] - rows[b]) + abs(cols[a] - cols[b]) != 1:
            pb.add(f"walls[{wi}]", f"{w[0]} and {w[1]} are not grid neighbours, expected a wall "
                   "between two spaces that share an edge")
            continue
        walls.append((a, b))
    wallset = {frozenset(w) for w in walls}
    # Column marks on shared edges must be matched by the neighbour (R6b: no half column).
    for i in range(len(ids)):
        for d in range(4):
            j = at.get((rows[i] + E.DIR_DR[d], cols[i] + E.DIR_DC[d]))
            if j is None or frozenset((i, j)) in wallset:
                continue
            mine = marks[i] >> d & 1
            theirs = marks[j] >> ((d + 2) % 4) & 1
            if mine and not theirs:
                pb.add(f"space {ids[i]}.columns", f"half column on the {E.DIR_NAMES[d]} edge but "
                       f"the adjacent space {ids[j]} has none on its "
                       f"{E.DIR_NAMES[(d + 2) % 4]} edge, expected both halves of the column "
                       "(else every tile laid there makes a half column)")
    # Each quarter's spaces connected.
    for qi in range(min(len(qnames), E.N_QUARTERS)):
        members = [i for i in range(len(ids)) if squarter[i] == qi]
        if not members:
            continue
        seen = {members[0]}
        stack = [members[0]]
        while stack:
            i = stack.pop()
            for d in range(4):
                j = at.get((rows[i] + E.DIR_DR[d], cols[i] + E.DIR_DC[d]))
                if j is not None and squarter[j] == qi and j not in seen \
                        and frozenset((i, j)) not in wallset:
                    seen.add(j)
                    stack.append(j)
        if len(seen) != len(members):
            apart = sorted(ids[i] for i in members if i not in seen)
            pb.add(f"quarter {qnames[qi]}", f"spaces {', '.join(apart[:4])} are cut off from "
                   f"space {ids[members[0]]}, expected the spaces of a quarter to be connected")
    # Turntable.
    slot_quarter = [[0] * 4 for _ in range(4)]
    tt = doc.get("turntable")
    if _check_keys(pb, "turntable", tt, SIDE_KEYS):
        for d, side in enumerate(SIDE_KEYS):
            row = tt.get(side)
            expected = f"the 4 quarter names in some order ({', '.join(qnames)})"
            if not isinstance(row, list) or len(row) != 4 or not all(
                    isinstance(x, str) for x in row):
                pb.add(f"turntable.{side}", f"{shown(row)}, expected {expected}")
                continue
            unknown = [x for x in row if x not in qnames]
            if unknown:
                pb.add(f"turntable.{side}", f"unknown quarter {unknown[0]!r}, expected {expected}")
            elif len(set(row)) != 4:
                pb.add(f"turntable.{side}", f"{shown(row)} names a quarter twice, expected "
                       f"{expected}")
            else:
                slot_quarter[d] = [qnames.index(x) for x in row]
    # Positions.
    seat_sides: dict[int, tuple[int, ...]] = {}
    pos = doc.get("positions")
    if _check_keys(pb, "positions", pos, POSITION_KEYS):
        for key, n in POSITION_KEYS.items():
            row = pos.get(key)
            expected = f"{n} distinct sides among {', '.join(SIDE_KEYS)}"
            if not isinstance(row, list) or len(row) != n or not all(
                    isinstance(x, str) and x in SIDE_KEYS for x in row):
                pb.add(f"positions.{key}", f"{shown(row)}, expected {expected}")
            elif len(set(row)) != n:
                pb.add(f"positions.{key}", f"{shown(row)} repeats a side, expected {expected}")
            else:
                seat_sides[n] = tuple(SIDE_KEYS.index(x) for x in row)
    if len(pb.out) > start:
        return None
    return _BoardDoc(name, qnames, ids, squarter, rows, cols, marks, walls, slot_quarter,
                     seat_sides, prov)


def _parse_tiles(doc: dict[str, Any], pb: _Problems) -> _TilesDoc | None:
    start = len(pb.out)
    _check_keys(pb, "", doc, _TILES_TOP)
    prov = _check_provenance(pb, doc, TILES_PROVENANCE_KEYS)
    name = doc.get("name", "")
    if not isinstance(name, str):
        pb.add("name", f"{shown(name)}, expected a string")
        name = ""
    colours = doc.get("colours")
    if (not isinstance(colours, list) or len(colours) != E.N_COLOURS
            or not all(isinstance(c, str) and c.strip() for c in colours)):
        pb.add("colours", f"{shown(colours)}, expected a list of {E.N_COLOURS} colour names")
        return None
    if len(set(colours)) != E.N_COLOURS:
        dup = next(c for c in colours if colours.count(c) > 1)
        pb.add("colours", f"duplicate colour {dup!r}, expected {E.N_COLOURS} distinct names")
        return None
    tiles = doc.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        pb.add("tiles", f"{shown(tiles)}, expected a list of {{ id, colour, columns }} tables")
        return None
    if len(tiles) > E.MAX_TILES:
        pb.add("tiles", f"{len(tiles)} tiles, expected at most {E.MAX_TILES}")
        return None
    ids: list[str] = []
    tcol: list[int] = []
    tmarks: list[int] = []
    for ti, tile in enumerate(tiles):
        where = f"tiles[{ti}]"
        if not _check_keys(pb, where, tile, _TILE_KEYS):
            continue
        tid = tile.get("id")
        if not isinstance(tid, str) or not tid.strip():
            pb.add(f"{where}.id", f"{shown(tid)}, expected a non-empty string")
            continue
        where = f"tile {tid}"
        if tid in ids:
            pb.add(where, f"duplicate tile id {tid!r}, expected unique ids")
            continue
        colour = tile.get("colour")
        if colour not in colours:
            pb.add(f"{where}.colour", f"{shown(colour)}, expected one of {', '.join(colours)}")
            continue
        m = _parse_marks(pb, f"{where}.columns", tile.get("columns"), _TILE_MARKS, "centre")
        if m is None:
            continue
        ids.append(tid)
        tcol.append(colours.index(colour))
        tmarks.append(m)
    if len(pb.out) > start:
        return None
    return _TilesDoc(name, list(colours), ids, tcol, tmarks, prov)


def _check_pair(board: _BoardDoc, tiles: _TilesDoc, pb_board: _Problems,
                pb_tiles: _Problems) -> None:
    """Cross-file constraints: every tile and space usable, counts by kind."""
    space_patterns = sorted(set(board.space_marks))
    tile_patterns = sorted(set(tiles.tile_marks))
    for i, tid in enumerate(tiles.tile_ids):
        m = tiles.tile_marks[i]
        if not any(fit_directions(m, sp) for sp in space_patterns):
            pb_tiles.add(f"tile {tid}.columns",
                         f"[{pattern_text(m, tile=True)}] fits no space of the board in any "
                         "orientation (an orientation that can never be legal), expected a "
                         "pattern the board has: " + ", ".join(
                             pattern_text(sp) for sp in space_patterns))
    for i, sid in enumerate(board.space_ids):
        m = board.space_marks[i]
        if not any(fit_directions(tp, m) for tp in tile_patterns):
            pb_board.add(f"space {sid}.columns",
                         f"[{pattern_text(m)}] is covered by no tile in any orientation, "
                         "expected a pattern some tile has")
    n_space = np.bincount([kind_of_pattern(m) for m in board.space_marks], minlength=4)
    n_tile = np.bincount([kind_of_pattern(m) for m in tiles.tile_marks], minlength=4)
    for k in range(E.N_KINDS):
        name = E.KIND_NAMES[k]
        if k == E.KIND.CENTRAL:
            if n_tile[k] < n_space[k]:
                pb_tiles.add("tiles", f"{n_tile[k]} central tiles for {n_space[k]} central "
                             "spaces, expected at least as many tiles as spaces")
        elif n_tile[k] != n_space[k]:
            pb_tiles.add("tiles", f"{n_tile[k]} {name} tiles for {n_space[k]} {name} spaces on "
                         "the board, expected equal counts of tiles and spaces of each kind")


def _components_from(board: _BoardDoc, tiles: _TilesDoc, board_label: str,
                     tiles_label: str) -> Components:
    prov = dict(board.provenance)
    prov.update(tiles.provenance)
    prov.update(BUILTIN_PROVENANCE)
    arr = functools.partial(np.array, dtype=np.int64)
    return Components(
        board_name=board.name, tiles_name=tiles.name,
        quarter_names=tuple(board.quarter_names), space_ids=tuple(board.space_ids),
        space_quarter=arr(board.space_quarter), space_row=arr(board.space_row),
        space_col=arr(board.space_col), space_marks=arr(board.space_marks),
        walls=tuple(board.walls), slot_quarter=arr(board.slot_quarter),
        seat_sides=dict(board.seat_sides), colour_names=tuple(tiles.colour_names),
        tile_ids=tuple(tiles.tile_ids), tile_colour=arr(tiles.tile_colour),
        tile_marks=arr(tiles.tile_marks), provenance=prov, board_path=board_label,
        components_path=tiles_label,
    )


def _resolve(path: str | Path | None, default: Path) -> tuple[Path, str]:
    if path is None:
        return default, str(default)
    return Path(path), str(path)


def _load(board: str | Path | None, tiles: str | Path | None
          ) -> tuple[Components | None, list[str]]:
    problems: list[str] = []
    bpath, blabel = _resolve(board, DEFAULT_BOARD)
    tpath, tlabel = _resolve(tiles, DEFAULT_TILES)
    bdoc = _read_toml(bpath, blabel, problems)
    tdoc = _read_toml(tpath, tlabel, problems)
    pb, pt = _Problems(blabel, problems), _Problems(tlabel, problems)
    bparsed = tparsed = None
    if bdoc is not None:
        if detect_kind(bdoc) == "tiles":
            pb.add("", "is a tiles file, expected a board file ([[quarter]] tables)")
        else:
            bparsed = _parse_board(bdoc, pb)
    if tdoc is not None:
        if detect_kind(tdoc) == "board":
            pt.add("", "is a board file, expected a tiles file (colours = [...], tiles = [...])")
        else:
            tparsed = _parse_tiles(tdoc, pt)
    if bparsed is None or tparsed is None or problems:
        return None, problems
    _check_pair(bparsed, tparsed, pb, pt)
    if problems:
        return None, problems
    return _components_from(bparsed, tparsed, blabel, tlabel), problems


def validate_files(board: str | Path | None = None, tiles: str | Path | None = None
                   ) -> list[str]:
    """Every problem of a board file and a tiles file, one line each ([] when valid).

    ``None`` stands for the shipped default of that kind; cross-file constraints (counts by
    kind, every pattern usable) are checked against the pair.
    """
    return _load(board, tiles)[1]


def validate_file(path: str | Path) -> list[str]:
    """Every problem of one component file (board or tiles, detected from its content), checked
    together with the shipped file of the other kind; [] when valid."""
    problems: list[str] = []
    doc = _read_toml(Path(path), str(path), problems)
    if doc is None:
        return problems
    kind = detect_kind(doc)
    if kind == "tiles":
        return validate_files(None, path)
    if kind == "board":
        return validate_files(path, None)
    return [f"{path}: neither a board file ([[quarter]] tables) nor a tiles file "
            "(tiles = [...]), expected one of them"]


def load_components(board: str | Path | None = None, tiles: str | Path | None = None
                    ) -> Components:
    """Load and validate a board file and a tiles file (None: the shipped defaults).

    Raises
    ------
    ComponentError
        One line naming the file, the key, the bad value and what was expected (the first
        problem; ``validate_files`` lists all).
    """
    comp, problems = _load(board, tiles)
    if comp is None:
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise ComponentError(problems[0] + more)
    return comp


@functools.lru_cache(maxsize=1)
def default_components() -> Components:
    """The shipped components (``data/board.toml`` + ``data/tiles.toml``), loaded once."""
    return load_components()


def check_components(c: Components) -> list[str]:
    """Problems of a built ``Components`` (the generator's self-check): the same rules as the
    files, on the object."""
    problems: list[str] = []
    board = _BoardDoc(c.board_name, list(c.quarter_names), list(c.space_ids),
                      [int(x) for x in c.space_quarter], [int(x) for x in c.space_row],
                      [int(x) for x in c.space_col], [int(x) for x in c.space_marks],
                      list(c.walls), [[int(x) for x in r] for r in c.slot_quarter],
                      dict(c.seat_sides), {})
    tiles = _TilesDoc(c.tiles_name, list(c.colour_names), list(c.tile_ids),
                      [int(x) for x in c.tile_colour], [int(x) for x in c.tile_marks], {})
    pb, pt = _Problems(c.board_path, problems), _Problems(c.components_path, problems)
    _check_pair(board, tiles, pb, pt)
    nb = c.neighbours
    for s in range(c.n_spaces):
        for d in range(4):
            t = nb[s, d]
            if t >= 0 and (c.space_marks[s] >> d & 1) != (c.space_marks[t] >> ((d + 2) % 4) & 1):
                pb.add(f"space {c.space_ids[s]}", "unmatched half column")
    return problems
