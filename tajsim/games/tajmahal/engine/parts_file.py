"""Reading Taj Mahal's components file (``data/components.toml``): province tiles, coloured and
white influence cards, square bonus tiles, each bad value reported in one line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tajsim.engine.component_files import (
    Problems,
    check_provenance,
    check_unknown,
    choices,
    is_int,
    show_value,
)
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.components import (
    _COMPONENTS_TOP_KEYS,
    _SQUARE_BONUS_NAMES,
    COMPONENTS_PROVENANCE_KEYS,
)


@dataclass
class PartsDoc:
    tile_goods: np.ndarray
    bonus_tiles: np.ndarray
    card_colour: np.ndarray
    card_symbols: np.ndarray
    white_total: int
    colour_totals: list[int]
    provenance: dict[str, str]


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


def parse_parts(doc: dict[str, Any], pb: Problems) -> PartsDoc | None:
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
    return PartsDoc(tile_goods, bonus_tiles, card_colour, card_symbols, white_total,
                     colour_totals, provenance)
