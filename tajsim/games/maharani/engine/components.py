"""Maharani components: the palace (quarters, spaces, column marks, turntable, seats) and the
60 mosaic tiles, loaded from two TOML files.

The rules text lost its illustrations and no public source gives the palace geometry or the tile
table, so both are reconstructed and ship as data files, every fact marked ``sourced: <where>``
or ``reconstructed: <how>`` in their ``[provenance]`` tables:

- ``data/board.toml``: four ``[[quarter]]`` tables (name, spaces with grid row/col and column
  marks), optional ``walls`` (pairs of grid neighbours that are not adjacent), ``[turntable]``
  (quarter under each turntable place for each side the arrow points to) and ``[positions]``
  (the side of each seat for 2, 3 and 4 players);
- ``data/tiles.toml``: the six colour names and the tiles (id, colour, columns relative to the
  arrow).

A user passes corrected copies (``load_components(board=..., tiles=...)``); every load validates
both files and raises :class:`ComponentError`, one line naming the file, the key, the bad value
and what was expected; :func:`validate_file` / :func:`validate_files` list every problem.

Checked (each breaks a rule or makes a tile or space unusable): known keys and provenance lines;
exactly 4 quarters with unique names and at least one space each; unique space ids, grid
positions in 0..7 and unique; column marks N/E/S/W/C, at least one, a central column alone, no
repeats; a half column on an edge shared with an adjacent space matched by that space's half
column (else a half column is always created); each quarter's spaces connected; walls between
grid neighbours; the turntable giving each side a permutation of the quarters; 2/3/4 distinct
sides for 2/3/4 players; 6 distinct colour names; unique tile ids; tile columns ``centre`` alone
or one or two distinct half columns; every tile pattern fits some space and every space pattern
some tile (else an orientation that can never be legal); tiles and spaces equal in number for
each kind of half-column pattern, and at least as many central tiles as central spaces (the
surplus leaves play, R11); size limits. Not checked: the reconstructed choices themselves (which
space has which columns, arrows, colours of the kinds), so an owner can correct them freely.

The kernels see the components only as ``Components.packed()``, laid out by the ``C_*`` offsets
of :mod:`tajsim.games.maharani.engine.enums`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E

__all__ = [
    "BOARD_PROVENANCE_KEYS",
    "DEFAULT_BOARD",
    "DEFAULT_TILES",
    "TILES_PROVENANCE_KEYS",
    "SEATINGS",
    "SEATING_SEED_BASE",
    "ComponentError",
    "Components",
    "alternative_components",
    "default_components",
    "fit_directions",
    "kind_of_pattern",
    "load_components",
    "rotate_pattern",
    "seating_alternative",
    "validate_file",
    "validate_files",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
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


class ComponentError(UserError):
    """A component file is unreadable or breaks a documented constraint (one line)."""


# ---------------------------------------------------------------------------------------------
# Column patterns
# ---------------------------------------------------------------------------------------------
def rotate_pattern(marks: int, turns: int) -> int:
    """``marks`` turned clockwise by ``turns`` quarter turns (edge bit d -> bit (d + turns) % 4;
    the central bit stays)."""
    edges = marks & E.EDGE_MASK
    t = turns % 4
    edges = ((edges << t) | (edges >> (4 - t))) & E.EDGE_MASK
    return edges | (marks & E.MARK_CENTRE)


def fit_directions(tile_marks: int, space_marks: int) -> int:
    """Bit mask of the arrow directions a (board frame) in which a tile of pattern
    ``tile_marks`` (tile frame) covers exactly the columns ``space_marks`` of a space (R6b)."""
    out = 0
    for a in range(E.N_DIRS):
        if rotate_pattern(tile_marks, a) == space_marks:
            out |= 1 << a
    return out


def kind_of_pattern(marks: int) -> int:
    """``Kind`` of a column pattern; -1 for a pattern no tile may have (none, several central,
    central with halves, three or four halves)."""
    if marks == E.MARK_CENTRE:
        return E.KIND.CENTRAL
    if marks & E.MARK_CENTRE or marks == 0:
        return -1
    n = bin(marks).count("1")
    if n == 1:
        return E.KIND.HALF
    if n == 2:
        return E.KIND.STRAIGHT if marks in (5, 10) else E.KIND.CORNER
    return -1


def pattern_text(marks: int, tile: bool = False) -> str:
    """"N+E" (board frame) or "ahead+right" (tile frame), "C"/"centre" for a central column."""
    if marks & E.MARK_CENTRE:
        return "centre" if tile else "C"
    names = E.TILE_EDGE_NAMES if tile else E.DIR_LETTERS
    return "+".join(names[d] for d in range(4) if marks >> d & 1) or "none"


# ---------------------------------------------------------------------------------------------
# The components object
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Components:
    """Palace and tiles of one game configuration (read-only arrays).

    Attributes
    ----------
    quarter_names : tuple of str, length 4
        Quarter index -> name (file order; quarter k is "quarter k + 1" in texts).
    space_ids : tuple of str, length n_spaces (<= ``MAX_SPACES``)
    space_quarter, space_row, space_col, space_marks : ndarray, int64, shape (n_spaces,)
        Quarter, grid row (0 = north), grid column (0 = west) and column pattern (board frame:
        bit d = half column on edge d, bit 4 = central column) of each space.
    walls : tuple of (int, int)
        Grid-neighbour spaces that are not adjacent.
    slot_quarter : ndarray, int64, shape (4, 4)
        ``slot_quarter[side, k]``: quarter under turntable place k when the arrow points to
        ``side`` (``enums.DIR`` order).
    seat_sides : dict of int to tuple of int
        Side of each seat for 2, 3 and 4 players.
    colour_names : tuple of str, length 6
    tile_ids : tuple of str, length n_tiles (<= ``MAX_TILES``)
    tile_colour, tile_marks : ndarray, int64, shape (n_tiles,)
        Colour index and column pattern (tile frame: bit 0 ahead of the arrow, 1 right, 2
        behind, 3 left, 4 central) of each tile.
    provenance : dict of str to str
    board_path, components_path : str
        Where the palace and the tiles came from (``components_path`` is the tiles file; the
        name is the one :class:`tajsim.engine.base_game.BaseGame` reads).
    """

    board_name: str
    tiles_name: str
    quarter_names: tuple[str, ...]
    space_ids: tuple[str, ...]
    space_quarter: np.ndarray
    space_row: np.ndarray
    space_col: np.ndarray
    space_marks: np.ndarray
    walls: tuple[tuple[int, int], ...]
    slot_quarter: np.ndarray
    seat_sides: dict[int, tuple[int, ...]]
    colour_names: tuple[str, ...]
    tile_ids: tuple[str, ...]
    tile_colour: np.ndarray
    tile_marks: np.ndarray
    provenance: dict[str, str]
    board_path: str
    components_path: str

    def __post_init__(self) -> None:
        for name in ("space_quarter", "space_row", "space_col", "space_marks", "slot_quarter",
                     "tile_colour", "tile_marks"):
            getattr(self, name).flags.writeable = False

    # -- sizes, names and derived tables --------------------------------------------------------
    @property
    def n_spaces(self) -> int:
        return len(self.space_ids)

    @property
    def n_tiles(self) -> int:
        return len(self.tile_ids)

    @property
    def tiles_path(self) -> str:
        return self.components_path

    @functools.cached_property
    def neighbours(self) -> np.ndarray:
        """``neighbours[s, d]``: the space adjacent to s in direction d, -1 none: int64 (n, 4)."""
        at = {(int(r), int(c)): s for s, (r, c) in enumerate(zip(self.space_row, self.space_col))}
        walls = {frozenset(w) for w in self.walls}
        out = np.full((self.n_spaces, 4), -1, np.int64)
        for s in range(self.n_spaces):
            for d in range(4):
                t = at.get((int(self.space_row[s]) + E.DIR_DR[d],
                            int(self.space_col[s]) + E.DIR_DC[d]))
                if t is not None and frozenset((s, t)) not in walls:
                    out[s, d] = t
        out.flags.writeable = False
        return out

    def space_kind(self, s: int) -> int:
        return kind_of_pattern(int(self.space_marks[s]))

    def tile_kind(self, t: int) -> int:
        return kind_of_pattern(int(self.tile_marks[t]))

    def quarter_spaces(self, q: int) -> np.ndarray:
        """Spaces of quarter q: int64, ascending."""
        return np.flatnonzero(self.space_quarter == q).astype(np.int64)

    def quarter_label(self, q: int) -> str:
        return f"quarter {q + 1} ({self.quarter_names[q]})"

    def tile_label(self, t: int) -> str:
        """"blue-03 (blue, half column behind)"."""
        marks = int(self.tile_marks[t])
        kind = E.KIND_NAMES[kind_of_pattern(marks)]
        cols = pattern_text(marks, tile=True)
        where = "" if kind == "central" else f" {cols}"
        return f"{self.tile_ids[t]} ({self.colour_names[int(self.tile_colour[t])]}, {kind}{where})"

    def tile_short(self, t: int) -> str:
        return self.tile_ids[t]

    def summary(self) -> str:
        kinds_s = np.bincount([self.space_kind(s) for s in range(self.n_spaces)], minlength=4)
        kinds_t = np.bincount([self.tile_kind(t) for t in range(self.n_tiles)], minlength=4)
        return (f"{self.n_spaces} spaces in 4 quarters "
                f"({', '.join(str(len(self.quarter_spaces(q))) for q in range(4))}), "
                f"{self.n_tiles} tiles in {len(self.colour_names)} colours; spaces/tiles by "
                "kind: " + ", ".join(f"{E.KIND_NAMES[k]} {kinds_s[k]}/{kinds_t[k]}"
                                     for k in range(E.N_KINDS)))

    def describe(self) -> str:
        """A few lines: files, counts, the palace grid of quarters and kinds, the turntable."""
        lines = [f"board: {self.board_name} ({self.board_path})",
                 f"tiles: {self.tiles_name} ({self.components_path})",
                 self.summary(), f"digest: {self.digest()}"]
        grid = [["  .  " for _ in range(E.GRID)] for _ in range(E.GRID)]
        for s in range(self.n_spaces):
            mark = pattern_text(int(self.space_marks[s]))
            grid[int(self.space_row[s])][int(self.space_col[s])] = \
                f"{self.quarter_names[int(self.space_quarter[s])][0]}{mark:<4}"
        lines += ["palace (quarter initial + column marks, north up):"]
        lines += ["  " + " ".join(row) for row in grid]
        for side in range(4):
            names = [self.quarter_names[int(q)] for q in self.slot_quarter[side]]
            lines.append(f"turntable toward {E.DIR_NAMES[side]}: places 1-4 over "
                         + ", ".join(names))
        for n in (2, 3, 4):
            lines.append(f"{n} players sit at: "
                         + ", ".join(E.DIR_NAMES[d] for d in self.seat_sides[n]))
        return "\n".join(lines)

    def frame_meta(self) -> dict[str, Any]:
        """Plain data the results-frame helpers read (picklable, JSON-friendly)."""
        return {
            "game": "maharani",
            "digest": self.digest(),
            "colour_names": list(self.colour_names),
            "quarter_names": list(self.quarter_names),
            "tile_ids": list(self.tile_ids),
            "tile_colour": [int(x) for x in self.tile_colour],
            "tile_kind": [self.tile_kind(t) for t in range(self.n_tiles)],
            "space_ids": list(self.space_ids),
            "space_quarter": [int(x) for x in self.space_quarter],
            "space_row": [int(x) for x in self.space_row],
            "space_col": [int(x) for x in self.space_col],
            "slot_quarter": [[int(x) for x in row] for row in self.slot_quarter],
            "seat_sides": {str(n): list(v) for n, v in self.seat_sides.items()},
        }

    # -- packed array for the kernels -------------------------------------------------------------
    @functools.cached_property
    def _packed(self) -> np.ndarray:
        return _pack(self)

    def packed(self) -> np.ndarray:
        """The components as the kernels see them: int64, shape (``enums.COMP_SIZE``,).

        Layout (offsets in ``enums``)::

            C_N_SPACES, C_N_TILES, C_N_CENTRAL_SPACES    scalars
            C_ALL_SPACES, C_CENTRAL_MASK                 space masks (bit s = space s)
            C_SPACE_QUARTER/MARKS/ROW/COL + s            per space
            C_NEIGH + s * 4 + d                          neighbour in direction d, -1 none
            C_NEIGH_MASK + s                             mask of the neighbours
            C_QUARTER_MASK + q, C_QUARTER_SIZE + q       spaces of quarter q
            C_TILE_COLOUR/MARKS/KIND + t                 per tile
            C_FIT + tile_pattern * 32 + space_pattern    mask of fitting arrow directions
            C_PATTERN_SPACES + tile_pattern              mask of the spaces it fits
            C_SLOT_QUARTER + side * 4 + k                quarter under turntable place k
            C_SEAT_SIDE + n * 4 + p, C_SIDE_SEAT + n * 4 + d   seats and sides (-1 none)

        Unused slots are 0 (-1 in the neighbour and seat tables). Computed once; each call
        returns a fresh writable copy.
        """
        return self._packed.copy()

    def digest(self) -> str:
        """Short content hash of the packed array and the names: 12 hex digits."""
        h = hashlib.sha256(self._packed.tobytes())
        h.update("\n".join(self.quarter_names + self.space_ids + self.colour_names
                           + self.tile_ids).encode())
        return h.hexdigest()[:12]


def _pack(c: Components) -> np.ndarray:
    comp = np.zeros(E.COMP_SIZE, dtype=np.int64)
    n, t = c.n_spaces, c.n_tiles
    comp[E.C_N_SPACES] = n
    comp[E.C_N_TILES] = t
    central = [s for s in range(n) if int(c.space_marks[s]) == E.MARK_CENTRE]
    comp[E.C_N_CENTRAL_SPACES] = len(central)
    comp[E.C_ALL_SPACES] = (1 << n) - 1
    comp[E.C_CENTRAL_MASK] = sum(1 << s for s in central)
    comp[E.C_SPACE_QUARTER:E.C_SPACE_QUARTER + n] = c.space_quarter
    comp[E.C_SPACE_MARKS:E.C_SPACE_MARKS + n] = c.space_marks
    comp[E.C_SPACE_ROW:E.C_SPACE_ROW + n] = c.space_row
    comp[E.C_SPACE_COL:E.C_SPACE_COL + n] = c.space_col
    comp[E.C_NEIGH:E.C_NEIGH + E.MAX_SPACES * 4] = -1
    nb = c.neighbours
    for s in range(n):
        mask = 0
        for d in range(4):
            comp[E.C_NEIGH + s * 4 + d] = nb[s, d]
            if nb[s, d] >= 0:
                mask |= 1 << int(nb[s, d])
        comp[E.C_NEIGH_MASK + s] = mask
    for q in range(E.N_QUARTERS):
        spaces = c.quarter_spaces(q)
        comp[E.C_QUARTER_MASK + q] = sum(1 << int(s) for s in spaces)
        comp[E.C_QUARTER_SIZE + q] = len(spaces)
    comp[E.C_TILE_COLOUR:E.C_TILE_COLOUR + t] = c.tile_colour
    comp[E.C_TILE_MARKS:E.C_TILE_MARKS + t] = c.tile_marks
    comp[E.C_TILE_KIND:E.C_TILE_KIND + t] = [c.tile_kind(i) for i in range(t)]
    for tp in range(E.N_PATTERNS):
        spaces_mask = 0
        for sp in range(E.N_PATTERNS):
            fit = fit_directions(tp, sp)
            comp[E.C_FIT + tp * E.N_PATTERNS + sp] = fit
        for s in range(n):
            if fit_directions(tp, int(c.space_marks[s])):
                spaces_mask |= 1 << s
        comp[E.C_PATTERN_SPACES + tp] = spaces_mask
    comp[E.C_SLOT_QUARTER:E.C_SLOT_QUARTER + 16] = c.slot_quarter.ravel()
    comp[E.C_SEAT_SIDE:E.C_SEAT_SIDE + (E.MAX_PLAYERS + 1) * E.MAX_PLAYERS] = -1
    comp[E.C_SIDE_SEAT:E.C_SIDE_SEAT + (E.MAX_PLAYERS + 1) * E.N_DIRS] = -1
    for np_, sides in c.seat_sides.items():
        for p, side in enumerate(sides):
            comp[E.C_SEAT_SIDE + np_ * E.MAX_PLAYERS + p] = side
            comp[E.C_SIDE_SEAT + np_ * E.N_DIRS + side] = p
    return comp


# ---------------------------------------------------------------------------------------------
# Reading and checking the files
# ---------------------------------------------------------------------------------------------
class _Problems:
    """One-line problems of one file: "<file>: <where>: <what>"."""

    def __init__(self, label: str, out: list[str]) -> None:
        self.label = label
        self.out = out

    def add(self, where: str, what: str) -> None:
        line = f"{self.label}: {where}: {what}" if where else f"{self.label}: {what}"
        self.out.append(" ".join(line.split()))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(v: Any) -> bool:
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
        pb.add(where, f"{_show(table)} is not a table, expected a table")
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
            pb.add(f"provenance.{key}", f"{_show(value)}, expected a string starting with "
                   "'sourced:' or 'reconstructed:'")
    for key, value in prov.items():
        if isinstance(value, str):
            out[key] = value
            if key not in required and not value.startswith(_PREFIXES):
                pb.add(f"provenance.{key}", f"{_show(value)}, expected a string starting "
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
        pb.add(where, f"{_show(value)}, expected a non-empty list: {expected}")
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
        pb.add(where, f"{_show(value)} mixes a central column with half columns, expected "
               f"{expected}")
        return None
    if bin(marks & E.EDGE_MASK).count("1") > 2:
        pb.add(where, f"{_show(value)} has {bin(marks).count('1')} half columns, expected "
               f"{expected} (no tile shows more than two)")
        return None
    return marks


def _parse_board(doc: dict[str, Any], pb: _Problems) -> _BoardDoc | None:
    start = len(pb.out)
    _check_keys(pb, "", doc, _BOARD_TOP)
    prov = _check_provenance(pb, doc, BOARD_PROVENANCE_KEYS)
    name = doc.get("name", "")
    if not isinstance(name, str):
        pb.add("name", f"{_show(name)}, expected a string")
        name = ""
    quarters = doc.get("quarter")
    if not isinstance(quarters, list) or len(quarters) != E.N_QUARTERS:
        n = len(quarters) if isinstance(quarters, list) else _show(quarters)
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
            pb.add(f"{where_q}.name", f"{_show(qname)}, expected a non-empty string")
            qname = f"#{qi}"
        elif qname in qnames:
            pb.add(f"{where_q}.name", f"duplicate quarter name {qname!r}, expected unique names")
        qnames.append(qname)
        spaces = q.get("spaces")
        if not isinstance(spaces, list) or not spaces:
            pb.add(f"{where_q}.spaces", f"{_show(spaces)}, expected a non-empty list of "
                   "{ id, row, col, columns } tables")
            continue
        for si, sp in enumerate(spaces):
            where = f"{where_q}.spaces[{si}]"
            if not _check_keys(pb, where, sp, _SPACE_KEYS):
                continue
            sid = sp.get("id")
            if not isinstance(sid, str) or not sid.strip():
                pb.add(f"{where}.id", f"{_show(sid)}, expected a non-empty string")
                continue
            where = f"space {sid}"
            if sid in ids:
                pb.add(where, f"duplicate space id {sid!r}, expected unique ids")
                continue
            r, c = sp.get("row"), sp.get("col")
            bad = False
            for key, v in (("row", r), ("col", c)):
                if not _is_int(v) or not 0 <= v < E.GRID:
                    pb.add(f"{where}.{key}", f"{_show(v)}, expected an integer 0..{E.GRID - 1}")
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
        pb.add("walls", f"{_show(raw_walls)}, expected a list of [space id, space id] pairs")
        raw_walls = []
    for wi, w in enumerate(raw_walls):
        if (not isinstance(w, list) or len(w) != 2 or not all(isinstance(x, str) for x in w)):
            pb.add(f"walls[{wi}]", f"{_show(w)}, expected a pair of space ids")
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
                pb.add(f"turntable.{side}", f"{_show(row)}, expected {expected}")
                continue
            unknown = [x for x in row if x not in qnames]
            if unknown:
                pb.add(f"turntable.{side}", f"unknown quarter {unknown[0]!r}, expected {expected}")
            elif len(set(row)) != 4:
                pb.add(f"turntable.{side}", f"{_show(row)} names a quarter twice, expected "
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
                pb.add(f"positions.{key}", f"{_show(row)}, expected {expected}")
            elif len(set(row)) != n:
                pb.add(f"positions.{key}", f"{_show(row)} repeats a side, expected {expected}")
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
        pb.add("name", f"{_show(name)}, expected a string")
        name = ""
    colours = doc.get("colours")
    if (not isinstance(colours, list) or len(colours) != E.N_COLOURS
            or not all(isinstance(c, str) and c.strip() for c in colours)):
        pb.add("colours", f"{_show(colours)}, expected a list of {E.N_COLOURS} colour names")
        return None
    if len(set(colours)) != E.N_COLOURS:
        dup = next(c for c in colours if colours.count(c) > 1)
        pb.add("colours", f"duplicate colour {dup!r}, expected {E.N_COLOURS} distinct names")
        return None
    tiles = doc.get("tiles")
    if not isinstance(tiles, list) or not tiles:
        pb.add("tiles", f"{_show(tiles)}, expected a list of {{ id, colour, columns }} tables")
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
            pb.add(f"{where}.id", f"{_show(tid)}, expected a non-empty string")
            continue
        where = f"tile {tid}"
        if tid in ids:
            pb.add(where, f"duplicate tile id {tid!r}, expected unique ids")
            continue
        colour = tile.get("colour")
        if colour not in colours:
            pb.add(f"{where}.colour", f"{_show(colour)}, expected one of {', '.join(colours)}")
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


# ---------------------------------------------------------------------------------------------
# Alternative component sets for robustness runs
# ---------------------------------------------------------------------------------------------
#: Alternative seeds ``SEATING_SEED_BASE + k`` (k = 1 .. len(SEATINGS)) name the seating
#: alternatives (:func:`seating_alternative`); the other seeds of the block
#: ``SEATING_SEED_BASE .. SEATING_SEED_BASE + 999`` are refused.
SEATING_SEED_BASE = 1000

#: The other plausible sides of the seats with 2 and 3 players (docs/games/maharani/
#: components.md, "Seatings"). The shipped file seats 2 players face to face (south, north)
#: and 3 players with the empty side after seat 2 (south, west, north). The palace is the same
#: from every side (its quarters are quarter turns of each other, and the turntable turns with
#: the arrow), so up to a turn of the table the other seatings are: with 2 players side by
#: side, the second player to the first one's left or to its right; with 3 players the empty
#: side after seat 0 or after seat 1. A run has one player count, so each alternative changes
#: both counts; 4 players keep the sourced sides.
SEATINGS: tuple[dict[int, tuple[str, ...]], ...] = (
    {2: ("south", "west"), 3: ("south", "north", "east")},
    {2: ("south", "east"), 3: ("south", "west", "east")},
)


def seating_alternative(k: int, base: Components | None = None) -> Components:
    """``base`` (default: the shipped set) with seating ``k`` (1-based index into
    :data:`SEATINGS`) for 2 and 3 players; 4 players, the palace and the tiles unchanged.

    The same as ``alternative_components(SEATING_SEED_BASE + k, base)``; ``board_path`` says
    "alternative seed=<seed> (seating k) of <base path>", and the ``positions`` provenance line
    is marked reconstructed with the sides.
    """
    if not (_is_int(k) or isinstance(k, np.integer)) or not 1 <= int(k) <= len(SEATINGS):
        raise ComponentError(f"seating alternative {k!r}, expected 1 to {len(SEATINGS)}")
    base = default_components() if base is None else base
    k = int(k)
    seed = SEATING_SEED_BASE + k
    sides = dict(base.seat_sides)
    sides.update({n: tuple(SIDE_KEYS.index(x) for x in row) for n, row in SEATINGS[k - 1].items()})
    prov = dict(base.provenance)
    prov["positions"] = (
        f"reconstructed: alternative_components(seed={seed}), seating {k}: "
        + "; ".join(f"{n} players {', '.join(SEATINGS[k - 1][n])}" for n in (2, 3))
        + "; 4 players as the base (sourced: each player at a side, play clockwise)")
    alt = dataclasses.replace(base, seat_sides=sides, provenance=prov,
                              board_path=f"alternative seed={seed} (seating {k}) of "
                                         f"{base.board_path}")
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in SEATINGS, not a user error
        raise RuntimeError(f"seating alternative {k} is invalid: {problems[0]}")
    return alt


def alternative_components(seed: int, base: Components | None = None, *, columns: bool = True,
                           tiles: bool = True, turntable: bool = True) -> Components:
    """A valid alternative palace and tile table, random within the sourced constraints; or,
    for the seeds ``SEATING_SEED_BASE + k``, another seating (:func:`seating_alternative`).

    Kept from ``base`` (default: the shipped set): the shape (spaces, quarters, adjacency,
    walls), the number of central spaces per quarter, the tile colours and the number of tiles
    of each colour, the seats for 2, 3 and 4 players.

    Randomised (each flag on by default, each from its own stream):

    - ``columns``: which spaces are central (the same count per quarter) and the half columns:
      every space without a central column gets one or two half columns on edges it shares
      with other non-central spaces (or against a wall when it has no such edge), drawn so that
      both halves of every column match;
    - ``tiles``: the tile table: as many central tiles as ``base`` (at least the central
      spaces) and one tile per non-central space, with its kind; kinds dealt to the colours
      round robin in random order; the arrow's direction relative to the columns uniform;
    - ``turntable``: the sense in which places 1-4 run (clockwise or counter-clockwise) and
      which quarter place 1 lies over, for a turntable that turns with the arrow.

    Parameters
    ----------
    seed : int
        Non-negative; the result is a deterministic function of (seed, base, flags). Seeds
        ``SEATING_SEED_BASE + k`` (1001, 1002) give seating ``k`` of :data:`SEATINGS` (the
        flags do not apply); the rest of that block (1000-1999) is refused.

    Returns
    -------
    Components
        Valid components (checked like loaded files); ``board_path`` / ``components_path`` say
        "alternative seed=<seed> of <base path>".
    """
    if not (_is_int(seed) or isinstance(seed, np.integer)) or int(seed) < 0:
        raise ComponentError(f"alternative_components: seed {seed!r}, expected an integer >= 0")
    if SEATING_SEED_BASE <= int(seed) < SEATING_SEED_BASE + 1000:
        k = int(seed) - SEATING_SEED_BASE
        if not 1 <= k <= len(SEATINGS):
            raise ComponentError(
                f"alternative_components: seed {int(seed)} is in the block "
                f"{SEATING_SEED_BASE}-{SEATING_SEED_BASE + 999} kept for the seatings, expected "
                f"{SEATING_SEED_BASE + 1} to {SEATING_SEED_BASE + len(SEATINGS)} (a seating) or "
                "a seed outside the block (a random palace and tile table)")
        return seating_alternative(k, base)
    base = default_components() if base is None else base
    ss = np.random.SeedSequence(int(seed))
    rng_cols, rng_tiles, rng_tt = (np.random.default_rng(s) for s in ss.spawn(3))
    tag = f"alternative_components(seed={int(seed)})"
    prov = dict(base.provenance)
    marks = base.space_marks
    board_path, tiles_path = base.board_path, base.components_path
    slot_quarter = base.slot_quarter
    if columns:
        marks = _random_columns(base, rng_cols)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        prov["columns"] = (f"reconstructed: {tag}: central spaces and half columns drawn at "
                           "random, the base's central spaces per quarter kept")
    tile_colour, tile_marks, tile_ids = base.tile_colour, base.tile_marks, base.tile_ids
    if tiles or columns:
        tile_colour, tile_marks, tile_ids = _random_tiles(base, marks, rng_tiles)
        tiles_path = f"alternative seed={int(seed)} of {base.components_path}"
        prov["arrows"] = (f"reconstructed: {tag}: one tile per non-central space with its kind, "
                          "kinds dealt to colours round robin, arrows uniform")
    if turntable:
        slot_quarter = _random_turntable(base, rng_tt)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        prov["turntable"] = f"reconstructed: {tag}: turntable sense and place 1 drawn at random"
    alt = dataclasses.replace(
        base, space_marks=np.array(marks, np.int64), tile_colour=np.array(tile_colour, np.int64),
        tile_marks=np.array(tile_marks, np.int64), tile_ids=tuple(tile_ids),
        slot_quarter=np.array(slot_quarter, np.int64), provenance=prov, board_path=board_path,
        components_path=tiles_path, space_quarter=base.space_quarter.copy(),
        space_row=base.space_row.copy(), space_col=base.space_col.copy(),
    )
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in the generator, not a user error
        raise RuntimeError(f"alternative_components produced invalid components: {problems[0]}")
    return alt


def _random_columns(base: Components, rng: np.random.Generator) -> np.ndarray:
    n = base.n_spaces
    nb = base.neighbours
    for _attempt in range(1000):
        central = np.zeros(n, bool)
        for q in range(E.N_QUARTERS):
            spaces = base.quarter_spaces(q)
            k = sum(1 for s in spaces if int(base.space_marks[s]) == E.MARK_CENTRE)
            central[rng.choice(spaces, size=k, replace=False)] = True
        marks = np.where(central, E.MARK_CENTRE, 0).astype(np.int64)
        order = rng.permutation(n)
        ok = True
        for s in order:
            if central[s] or marks[s]:
                continue
            options = [d for d in range(4) if nb[s, d] >= 0 and not central[nb[s, d]]
                       and bin(int(marks[nb[s, d]])).count("1") < 2]
            if options:
                d = int(rng.choice(options))
                marks[s] |= 1 << d
                marks[nb[s, d]] |= 1 << ((d + 2) % 4)
            else:
                walls = [d for d in range(4) if nb[s, d] < 0]
                if not walls:
                    ok = False
                    break
                marks[s] |= 1 << int(rng.choice(walls))
        if not ok:
            continue
        # Second half columns on about half of the spaces that can still take one.
        for s in rng.permutation(n):
            if central[s] or bin(int(marks[s])).count("1") >= 2 or rng.random() < 0.5:
                continue
            options = [d for d in range(4) if not marks[s] >> d & 1 and nb[s, d] >= 0
                       and not central[nb[s, d]] and bin(int(marks[nb[s, d]])).count("1") < 2]
            if options:
                d = int(rng.choice(options))
                marks[s] |= 1 << d
                marks[nb[s, d]] |= 1 << ((d + 2) % 4)
        return marks
    raise RuntimeError("could not draw alternative columns")  # pragma: no cover


def _random_tiles(base: Components, marks: np.ndarray, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    n_central_tiles = int(sum(1 for t in range(base.n_tiles) if base.tile_kind(t) == 0))
    n_central_spaces = int(np.sum(marks == E.MARK_CENTRE))
    patterns = [E.MARK_CENTRE] * max(n_central_tiles, n_central_spaces)
    patterns += [int(m) for m in marks if m != E.MARK_CENTRE]
    # each tile gets a canonical pattern of its space's kind turned at random (arrow uniform)
    patterns = [p if p == E.MARK_CENTRE else rotate_pattern(p, int(rng.integers(4)))
                for p in patterns]
    by_kind = sorted(range(len(patterns)), key=lambda i: (kind_of_pattern(patterns[i]),
                                                          rng.random()))
    colour_count = np.bincount(base.tile_colour, minlength=E.N_COLOURS)
    # deal round robin over the colours (in random order), as many per colour as in base
    order = list(rng.permutation(E.N_COLOURS))
    colours: list[int] = []
    remaining = colour_count.copy()
    while len(colours) < len(patterns):
        for c in order:
            if len(colours) == len(patterns):
                break
            if remaining[c] > 0 or remaining.sum() <= 0:
                colours.append(int(c))
                remaining[c] -= 1
    tile_colour = np.empty(len(patterns), np.int64)
    tile_marks = np.empty(len(patterns), np.int64)
    for slot, i in enumerate(by_kind):
        tile_colour[slot] = colours[slot]
        tile_marks[slot] = patterns[i]
    order_by_colour = np.lexsort((np.arange(len(patterns)), tile_colour))
    tile_colour, tile_marks = tile_colour[order_by_colour], tile_marks[order_by_colour]
    counts = [0] * E.N_COLOURS
    ids = []
    for c in tile_colour:
        counts[int(c)] += 1
        ids.append(f"{base.colour_names[int(c)]}-{counts[int(c)]:02d}")
    return tile_colour, tile_marks, ids


def _random_turntable(base: Components, rng: np.random.Generator) -> np.ndarray:
    # The quarters in clockwise order around the centre, by the angle of their mean position.
    centre = (E.GRID - 1) / 2
    angles = []
    for q in range(E.N_QUARTERS):
        s = base.quarter_spaces(q)
        angles.append(np.arctan2(base.space_col[s].mean() - centre,
                                 -(base.space_row[s].mean() - centre)))
    clockwise = [int(q) for q in np.argsort(angles)]
    # Turning the arrow a side clockwise turns every place a quarter clockwise, whichever sense
    # the places are numbered in.
    sense = 1 if rng.random() < 0.5 else -1
    start = int(rng.integers(4))
    out = np.empty((4, 4), np.int64)
    for side in range(4):
        for k in range(4):
            out[side, k] = clockwise[(start + side + sense * k) % 4]
    return out
