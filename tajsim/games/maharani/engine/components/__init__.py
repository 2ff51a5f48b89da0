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

from tajsim.games.maharani.engine.components.alternatives import (
    SEATING_SEED_BASE,
    SEATINGS,
    alternative_components,
    seating_alternative,
)
from tajsim.games.maharani.engine.components.model import ComponentError, Components
from tajsim.games.maharani.engine.components.patterns import (
    fit_directions,
    kind_of_pattern,
    pattern_text,
    rotate_pattern,
)
from tajsim.games.maharani.engine.components.toml_files import (
    BOARD_PROVENANCE_KEYS,
    DEFAULT_BOARD,
    DEFAULT_TILES,
    TILES_PROVENANCE_KEYS,
    check_components,
    default_components,
    detect_kind,
    load_components,
    validate_file,
    validate_files,
)

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
    "check_components",
    "default_components",
    "detect_kind",
    "fit_directions",
    "kind_of_pattern",
    "load_components",
    "pattern_text",
    "rotate_pattern",
    "seating_alternative",
    "validate_file",
    "validate_files",
]
