"""The Maharani components object: palace and tiles of one configuration, their names, derived
tables, description and digest (``Components``), and the error a bad component set raises."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components.packing import pack_components
from tajsim.games.maharani.engine.components.patterns import kind_of_pattern, pattern_text


class ComponentError(UserError):
    """A component file is unreadable or breaks a documented constraint (one line)."""


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
        return pack_components(self)

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
