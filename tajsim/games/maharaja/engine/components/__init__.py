"""Maharaja's components: the board and the printed numbers, loaded from two TOML files.

- ``data/board.toml``: the 7 cities, the start location, the roads and their 30 villages (the
  published board is public nowhere: reconstructed within the sourced constraints);
- ``data/components.toml``: the gold table, starting material, costs, action amounts, presence
  points, village capacity, the governor track's round boxes and the character names.

Every fact carries its provenance ("sourced: ..." or "reconstructed: ..."). An owner of the game
corrects them by passing edited copies (``--board`` / ``--components``);
``docs/games/maharaja/components.md`` describes the format. Loading validates both files and
raises :class:`ComponentError` (one line: file, key, bad value, what was expected) on the first
problem; :func:`validate_file` returns every problem of one file.

Board constraints checked: exactly 7 cities and one start location; names unique (cities, the
start and villages together); every road joins two different known junctions, at most one road
per pair; 1 or 2 villages per road, 30 villages in all; 3 to 5 roads at every junction; every
junction reachable from the start; the map planar when roads are drawn straight between the
junctions' positions (no two roads cross, no road runs through a junction).

The kernels see the components only as ``Components.packed()``, an ``int64[COMP_SIZE]`` array
laid out by the ``C_*`` offsets of :mod:`tajsim.games.maharaja.engine.enums`.
"""

from __future__ import annotations

from tajsim.games.maharaja.engine.components.alternatives import alternative_components
from tajsim.games.maharaja.engine.components.model import ComponentError, Components
from tajsim.games.maharaja.engine.components.toml_files import (
    BOARD_PROVENANCE_KEYS,
    COMPONENTS_PROVENANCE_KEYS,
    DEFAULT_BOARD,
    DEFAULT_COMPONENTS,
    default_components,
    detect_kind,
    load_components,
    validate_file,
    validate_files,
)

__all__ = [
    "BOARD_PROVENANCE_KEYS",
    "COMPONENTS_PROVENANCE_KEYS",
    "ComponentError",
    "Components",
    "DEFAULT_BOARD",
    "DEFAULT_COMPONENTS",
    "alternative_components",
    "detect_kind",
    "default_components",
    "load_components",
    "validate_file",
    "validate_files",
]
