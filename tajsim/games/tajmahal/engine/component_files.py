"""Reading and checking Taj Mahal's component files (``data/board.toml``, ``data/components.toml``).

The rulebooks leave most component facts out, so they live in two data files, each fact with its
provenance ("sourced: ..." or "reconstructed: ..."):

- ``data/board.toml``: provinces, their neighbours, cities (position, fortress, Agra) and roads;
- ``data/components.toml``: province tiles, the coloured and white influence cards, the square
  bonus tiles.

An owner of the game corrects them by passing edited copies (``--board`` / ``--components``);
``docs/components.md`` describes the format. Every load validates both files and raises
``ComponentError`` (one line: file, key, bad value, expected) on the first problem;
``validate_files`` returns all problems. ``board_file`` reads the board file, ``parts_file`` the
components file; this module builds the ``Components`` from both, checks the result and loads.

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
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.component_files import (
    ComponentError,
    Problems,
    connected_groups,
    read_toml,
    read_toml_into,
    show_value,
)
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.board_file import BoardDoc, parse_board
from tajsim.games.tajmahal.engine.components import (
    BUILTIN_PROVENANCE,
    DEFAULT_BOARD,
    DEFAULT_COMPONENTS,
    Components,
)
from tajsim.games.tajmahal.engine.parts_file import PartsDoc, parse_parts

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


def _components_from(board: BoardDoc, parts: PartsDoc, board_label: str,
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
            bparsed = parse_board(bdoc, pboard)
    if cdoc is not None:
        if detect_kind(cdoc) == "board":
            pparts.add("", "is a board file, expected a components file ([province_tiles], "
                       "[white_cards], [coloured_cards], [bonus_tiles])")
        else:
            pparsed = parse_parts(cdoc, pparts)
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
