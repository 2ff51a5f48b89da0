"""Component files: defaults, packing, every validation rule, alternative boards, board CLI."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tomli_w
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajsim.cli.board import command as board_command
from tajsim.engine.component_files import slug
from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.alternatives import alternative_components
from tajsim.games.tajmahal.engine.component_files import (
    ComponentError,
    check_components,
    default_components,
    load_components,
    read_toml,
    validate_files,
)
from tajsim.games.tajmahal.engine.components import DEFAULT_BOARD, DEFAULT_COMPONENTS, Components

BOARD_DOC = read_toml(DEFAULT_BOARD)
PARTS_DOC = read_toml(DEFAULT_COMPONENTS)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, doc: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(tomli_w.dumps(doc))
    return path


def _board(tmp_path: Path, mutate: Callable[[dict[str, Any]], None]) -> Path:
    doc = copy.deepcopy(BOARD_DOC)
    mutate(doc)
    return _write(tmp_path, "myboard.toml", doc)


def _parts(tmp_path: Path, mutate: Callable[[dict[str, Any]], None]) -> Path:
    doc = copy.deepcopy(PARTS_DOC)
    mutate(doc)
    return _write(tmp_path, "myparts.toml", doc)


def _prov(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in doc["province"] if p["name"] == name)


def _city(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for p in doc["province"] for c in p["cities"] if c["name"] == name)


def _error(board: Path | None = None, parts: Path | None = None) -> str:
    with pytest.raises(ComponentError) as info:
        load_components(board, parts)
    message = str(info.value)
    assert "\n" not in message
    assert isinstance(info.value, UserError)
    # validate_files reports the same first problem
    assert validate_files(board, parts)[0] in message
    return message


def _expect(message: str, *parts: str) -> None:
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"


# ---------------------------------------------------------------------------------------------
# defaults
# ---------------------------------------------------------------------------------------------
def test_defaults_load_and_validate() -> None:
    c = default_components()
    assert validate_files() == []
    assert default_components() is c
    assert c.n_provinces == 12 and len(c.province_names) == 12
    assert c.n_cities == 49
    assert int(c.city_fortress.sum()) == 16
    assert c.city_names[c.agra_city] == "Agra"
    assert c.province_names[c.agra_province] == "Agra"
    assert c.city_fortress[c.agra_city]
    for p in range(12):
        assert len(c.province_cities(p)) == (5 if p == c.agra_province else 4)
    assert c.city_xy.shape == (49, 2) and c.city_xy.dtype == np.float64
    for arr in (c.city_province, c.roads, c.tile_goods, c.bonus_tiles, c.card_colour,
                c.card_symbols):
        assert arr.dtype == np.int64
    assert c.city_fortress.dtype == np.bool_


def test_default_fortresses_per_province() -> None:
    c = default_components()
    per = [int(c.city_fortress[c.province_cities(p)].sum()) for p in range(12)]
    assert per[c.agra_province] == 1
    others = sorted(per[p] for p in range(12) if p != c.agra_province)
    assert others == [1] * 7 + [2] * 4


def test_default_roads() -> None:
    c = default_components()
    inter = c.inter_province_roads
    assert c.n_roads == 78
    assert int(inter.sum()) == 28
    agra_roads = [r for r in c.roads.tolist() if c.agra_city in r]
    assert len(agra_roads) == 2
    assert all(c.city_province[x] == c.agra_province for r in agra_roads for x in r)
    # every province's 4 ring cities form one cycle of 4 roads
    for p in range(12):
        ring = set(c.province_cities(p).tolist()) - {c.agra_city}
        inside = [r for r in c.roads.tolist() if set(r) <= ring]
        assert len(ring) == 4 and len(inside) == 4
        degree = Counter(x for r in inside for x in r)
        assert set(degree.values()) == {2}
    # neighbour pairs: 23, two roads for each of Agra's 5 neighbours
    pairs = Counter(
        tuple(sorted((int(c.city_province[a]), int(c.city_province[b]))))
        for a, b in c.roads[inter].tolist()
    )
    assert len(pairs) == 23
    agra_pairs = {k: v for k, v in pairs.items() if c.agra_province in k}
    assert len(agra_pairs) == 5 and set(agra_pairs.values()) == {2}
    assert set(v for k, v in pairs.items() if c.agra_province not in k) == {1}
    # Agra's city has no road out of its province
    assert not np.any(c.roads[inter] == c.agra_city)


def test_default_province_tiles() -> None:
    c = default_components()
    R, T, S, J = range(4)
    expected = [[R], [J, T], [S, J], [R, T], [S, T], [R, J], [R, S], [R, J], [S, T], [S, J],
                [R, T], [R, S]]
    for t, goods in enumerate(expected):
        row = np.zeros(4, dtype=np.int64)
        row[goods] = 1
        assert np.array_equal(c.tile_goods[t], row), t + 1


def test_default_cards() -> None:
    c = default_components()
    S = E.SYM
    for colour in range(4):
        ids = slice(colour * 21, colour * 21 + 21)
        assert np.all(c.card_colour[ids] == colour)
        assert np.all(c.card_symbols[ids].sum(1) == 2)
        totals = c.card_symbols[ids].sum(0)
        assert totals[S.ELEPHANT] == 18 and totals[S.MOGUL] == 4
        assert all(totals[a] == 5 for a in range(E.N_ADVISORS))
        # 2 double elephants, 14 elephant + other, 5 mixed forming a cycle (each symbol twice)
        cards = c.card_symbols[ids]
        assert int(np.sum(cards[:, S.ELEPHANT] == 2)) == 2
        assert int(np.sum(cards[:, S.ELEPHANT] == 1)) == 14
        mixed = cards[cards[:, S.ELEPHANT] == 0]
        assert len(mixed) == 5 and np.all(mixed.max(1) == 1)
        assert np.all(mixed.sum(0)[:5] == 2)
    cycles = {
        frozenset(tuple(np.flatnonzero(row)) for row in c.card_symbols[k * 21: k * 21 + 21]
                  if row[S.ELEPHANT] == 0)
        for k in range(4)
    }
    assert len(cycles) == 4  # a different cycle in each colour
    whites = c.card_symbols[E.FIRST_WHITE:E.FIRST_PRESTIGE]
    assert np.all(c.card_colour[E.FIRST_WHITE:] == E.COLOURLESS)
    assert np.all(whites.sum(1) == 1)
    assert whites.sum(0).tolist() == [1, 1, 1, 1, 1, 7]
    assert c.card_symbols[E.PRESTIGE_MIGHT].tolist() == [0, 0, 0, 0, 0, 1]
    assert c.card_symbols[E.PRESTIGE_KNOWLEDGE].tolist() == [0, 0, 0, 0, 1, 0]
    assert c.card_symbols[E.PRESTIGE_NOBILITY].sum() == 0
    assert c.card_symbols[E.PRESTIGE_ENLIGHTENMENT].sum() == 0


def test_default_bonus_tiles() -> None:
    c = default_components()
    counts = np.bincount(c.bonus_tiles, minlength=E.N_BONUS_KINDS).tolist()
    assert counts == [2, 2, 2, 2, 4, 3, 0]
    assert len(c.bonus_cities) == len(c.bonus_tiles) == 15


def test_card_labels_and_slugs() -> None:
    c = default_components()
    assert c.card_label(0) == "red E+E"
    assert c.card_label(2) == "red E+V"
    assert c.card_label(21) == "yellow E+E"
    assert c.card_label(E.FIRST_WHITE) == "white Vizier"
    assert c.card_label(E.FIRST_PRESTIGE - 1) == "white Elephant"
    assert [c.card_label(k) for k in range(96, 100)] == list(E.PRESTIGE_NAMES_2018)
    assert "GM" in c.card_label(20)
    with pytest.raises(ValueError):
        c.card_label(100)
    assert slug("Dera Ismail Khan") == "dera_ismail_khan"
    assert "dera_ismail_khan" in c.city_slugs
    assert c.province_slugs[c.agra_province] == "agra"
    assert len(set(c.city_slugs)) == c.n_cities


def test_provenance_every_fact() -> None:
    c = default_components()
    assert len(c.provenance) >= 15
    for key, text in c.provenance.items():
        assert text.startswith(("sourced:", "reconstructed:")), key
    assert c.provenance["province_tiles"].startswith("sourced:")
    assert c.provenance["white_cards"].startswith("sourced:")
    assert c.provenance["coloured_cards"].startswith("reconstructed:")
    assert c.provenance["inter_province_roads"].startswith("reconstructed:")


def test_arrays_read_only() -> None:
    c = default_components()
    with pytest.raises(ValueError):
        c.city_province[0] = 3


def test_check_components_on_built_objects() -> None:
    import dataclasses

    c = default_components()
    assert check_components(c) == []
    fort = c.city_fortress.copy()
    fort[c.agra_city] = False
    broken = dataclasses.replace(c, city_fortress=fort)
    problems = check_components(broken)
    assert any('city "Agra": fortress = false' in p for p in problems)


# ---------------------------------------------------------------------------------------------
# packed layout
# ---------------------------------------------------------------------------------------------
def _unpack_roads(comp: np.ndarray) -> set[frozenset[int]]:
    n = int(comp[E.C_N_CITIES])
    out = set()
    for city in range(n):
        lo, hi = comp[E.C_ADJ_START + city], comp[E.C_ADJ_START + city + 1]
        for k in range(lo, hi):
            out.add(frozenset((city, int(comp[E.C_ADJ + k]))))
    return out


@pytest.mark.parametrize("seed", [None, 3])
def test_packed_round_trip(seed: int | None) -> None:
    c = default_components() if seed is None else alternative_components(seed)
    comp = c.packed()
    assert comp.dtype == np.int64 and comp.shape == (E.COMP_SIZE,)
    n = c.n_cities
    assert comp[E.C_N_CITIES] == n
    assert comp[E.C_AGRA_CITY] == c.agra_city
    assert comp[E.C_AGRA_PROVINCE] == c.agra_province
    assert comp[E.C_N_ROADS] == c.n_roads
    assert comp[E.C_N_BONUS_TILES] == len(c.bonus_tiles)
    assert np.array_equal(comp[E.C_CITY_PROVINCE:E.C_CITY_PROVINCE + n], c.city_province)
    assert np.all(comp[E.C_CITY_PROVINCE + n:E.C_CITY_FORTRESS] == 0)
    assert np.array_equal(comp[E.C_CITY_FORTRESS:E.C_CITY_FORTRESS + n], c.city_fortress)
    assert np.all(comp[E.C_CITY_FORTRESS + n:E.C_PROV_N_CITIES] == 0)
    for p in range(E.N_PROVINCES):
        k = int(comp[E.C_PROV_N_CITIES + p])
        base = E.C_PROV_CITIES + p * E.MAX_CITIES_PER_PROVINCE
        block = comp[base:base + E.MAX_CITIES_PER_PROVINCE]
        assert np.array_equal(block[:k], c.province_cities(p))
        assert np.all(np.diff(block[:k]) > 0)
        assert np.all(block[k:] == -1)
    # CSR adjacency: both directions of every road, ascending per city, tail = last value
    starts = comp[E.C_ADJ_START:E.C_ADJ_START + E.MAX_CITIES + 1]
    assert starts[0] == 0 and np.all(np.diff(starts) >= 0)
    assert np.all(starts[n:] == 2 * c.n_roads)
    for city in range(n):
        nbs = comp[E.C_ADJ + starts[city]:E.C_ADJ + starts[city + 1]]
        assert np.all(np.diff(nbs) > 0)
    assert _unpack_roads(comp) == {frozenset(r) for r in c.roads.tolist()}
    assert np.all(comp[E.C_ADJ + 2 * c.n_roads:E.C_TILE_GOODS] == 0)
    goods = comp[E.C_TILE_GOODS:E.C_TILE_GOODS + 48].reshape(12, 4)
    assert np.array_equal(goods, c.tile_goods)
    nb = len(c.bonus_tiles)
    assert np.array_equal(comp[E.C_BONUS_TILES:E.C_BONUS_TILES + nb], c.bonus_tiles)
    assert np.all(comp[E.C_BONUS_TILES + nb:E.C_CARD_COLOUR] == 0)
    assert np.array_equal(comp[E.C_CARD_COLOUR:E.C_CARD_COLOUR + 100], c.card_colour)
    sym = comp[E.C_CARD_SYM:E.C_CARD_SYM + 600].reshape(100, 6)
    assert np.array_equal(sym, c.card_symbols)
    # The mask words are the card tables as location-mask bits.
    for card in range(E.N_CARDS):
        word = card // 21 if card < E.N_COLOURED else 4
        bit = 1 << (card % 21 if card < E.N_COLOURED else card - E.N_COLOURED)
        for col in range(E.N_COLOURS + 1):
            has = bool(comp[E.C_COLOUR_MASK + word * (E.N_COLOURS + 1) + col] & bit)
            assert has == (c.card_colour[card] == col)
        for s in range(E.N_SYMBOLS):
            for t in (0, 1):
                has = bool(comp[E.C_SYMBOL_MASK + (word * E.N_SYMBOLS + s) * 2 + t] & bit)
                assert has == (card < E.N_DECK_CARDS and c.card_symbols[card, s] > t)
    assert E.C_SYMBOL_MASK + 5 * E.N_SYMBOLS * 2 == E.C_ADJ_MASK
    # The road search's bit words: each city's neighbours, each province's cities.
    bits = comp.view(np.uint64)
    for city in range(E.MAX_CITIES):
        neighbours = {int(b) for a, b in c.roads.tolist() if a == city} | {
            int(a) for a, b in c.roads.tolist() if b == city}
        expected = sum(1 << nb for nb in neighbours)
        assert int(bits[E.C_ADJ_MASK + city]) == expected
    for prov in range(E.N_PROVINCES):
        expected = sum(1 << city for city in range(n) if c.city_province[city] == prov)
        assert int(bits[E.C_PROV_MASK + prov]) == expected
    assert E.C_PROV_MASK + E.N_PROVINCES == E.COMP_SIZE


def test_packed_returns_independent_copies() -> None:
    c = default_components()
    a = c.packed()
    a[:] = -7
    assert c.packed()[E.C_N_CITIES] == 49
    assert c.packed().flags.writeable


# ---------------------------------------------------------------------------------------------
# validation: every rule gives a one-line ComponentError naming the bad value
# ---------------------------------------------------------------------------------------------
def test_province_count(tmp_path: Path) -> None:
    def drop_awadh(doc: dict[str, Any]) -> None:
        doc["province"] = [p for p in doc["province"] if p["name"] != "Awadh"]

    msg = _error(_board(tmp_path, drop_awadh))
    _expect(msg, "myboard.toml", "11 [[province]] tables", "expected 12")


def test_province_too_few_cities(tmp_path: Path) -> None:
    def shrink(doc: dict[str, Any]) -> None:
        kabul = _prov(doc, "Kabul")
        kabul["cities"] = [c for c in kabul["cities"] if c["name"] != "Kabul"]
        kabul["roads"] = [r for r in kabul["roads"] if "Kabul" not in r]
        kabul["roads"].append(["Ghazni", "Jalalabad"])

    msg = _error(_board(tmp_path, shrink))
    _expect(msg, "myboard.toml", 'province "Kabul"', "3 cities", "expected 4 to 8")


def test_province_too_many_cities(tmp_path: Path) -> None:
    def grow(doc: dict[str, Any]) -> None:
        kabul = _prov(doc, "Kabul")
        for k in range(5):
            name = f"Extra {'abcde'[k]}"
            kabul["cities"].append({"name": name, "xy": [69.0, 33.0 + k / 10]})
            kabul["roads"].append(["Kabul", name])

    msg = _error(_board(tmp_path, grow))
    _expect(msg, 'province "Kabul"', "9 cities", "expected 4 to 8")


def test_no_agra(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Agra").pop("agra")))
    _expect(msg, "myboard.toml", "agra = true: none", "expected exactly one")


def test_two_agras(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Delhi").update(agra=True)))
    _expect(msg, "Delhi, Agra", "expected exactly one")


def test_agra_not_fortress(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Agra").update(fortress=False)))
    _expect(msg, 'city "Agra"', "fortress = false", "expected true")


def test_fortresses_must_match_bonus_tiles(tmp_path: Path) -> None:
    board = _board(tmp_path, lambda d: _city(d, "Peshawar").update(fortress=False))
    msg = _error(board)
    _expect(msg, "myboard.toml", "14 fortress cities besides Agra", "15 square bonus tiles",
            "components.toml")
    # fixed by also removing a bonus tile
    parts = _parts(tmp_path, lambda d: d["bonus_tiles"].update(plus2=3))
    assert validate_files(board, parts) == []
    assert len(load_components(board, parts).bonus_tiles) == 14


def test_province_not_connected(tmp_path: Path) -> None:
    def cut(doc: dict[str, Any]) -> None:
        kabul = _prov(doc, "Kabul")
        kabul["roads"] = [r for r in kabul["roads"] if "Kabul" not in r]

    msg = _error(_board(tmp_path, cut))
    _expect(msg, 'province "Kabul": roads: Kabul not connected')


def test_graph_not_connected(tmp_path: Path) -> None:
    def isolate_kashmir(doc: dict[str, Any]) -> None:
        for p in doc["province"]:
            p["neighbours"] = [n for n in p["neighbours"] if n != "Kashmir"]
        _prov(doc, "Kashmir")["neighbours"] = []
        kashmir = {c["name"] for c in _prov(doc, "Kashmir")["cities"]}
        doc["inter_province"]["roads"] = [
            r for r in doc["inter_province"]["roads"] if not set(r) & kashmir
        ]

    msg = _error(_board(tmp_path, isolate_kashmir))
    _expect(msg, "road network not connected", "Srinagar", "cut off")


def test_road_unknown_city(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: d["inter_province"]["roads"].append(
        ["Peshawar", "Atlantis"])))
    _expect(msg, "inter_province.roads[28]", 'unknown city "Atlantis"')


def test_road_to_itself(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kabul")["roads"].append(
        ["Ghazni", "Ghazni"])))
    _expect(msg, '"Ghazni"', "joins a city to itself")


def test_duplicate_road(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kabul")["roads"].append(
        ["Jalalabad", "Kabul"])))
    _expect(msg, '["Jalalabad", "Kabul"]', "duplicates the road")


def test_inter_road_between_non_neighbours(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: d["inter_province"]["roads"].append(
        ["Peshawar", "Gwalior"])))
    _expect(msg, '["Peshawar", "Gwalior"]', "Kabul and Agra", "not declared neighbours")


def test_inter_road_inside_one_province(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: d["inter_province"]["roads"].append(
        ["Kabul", "Peshawar"])))
    _expect(msg, "joins two cities of", "Kabul")


def test_province_road_leaving_province(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kabul")["roads"].append(
        ["Kabul", "Srinagar"])))
    _expect(msg, '"Srinagar" is in province "Kashmir"', "inter_province")


def test_neighbours_not_symmetric(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kashmir")["neighbours"].remove("Kabul")))
    _expect(msg, 'province "Kashmir"', 'lacks "Kabul"', "symmetric")


def test_neighbour_unknown(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kabul")["neighbours"].append("Bengal")))
    _expect(msg, 'unknown province "Bengal"')


def test_declared_neighbours_need_a_road(tmp_path: Path) -> None:
    def declare(doc: dict[str, Any]) -> None:
        _prov(doc, "Kabul")["neighbours"].append("Thatta")
        _prov(doc, "Thatta")["neighbours"].append("Kabul")

    msg = _error(_board(tmp_path, declare))
    _expect(msg, "no road joins Kabul and Thatta")


def test_duplicate_city_name(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Ghazni").update(name="Kabul")))
    _expect(msg, 'city "Kabul"', "repeats an earlier city name")


def test_city_slug_collision(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Ghazni").update(name="KABUL")))
    _expect(msg, "slug kabul", "distinct city slugs")


def test_city_bad_xy_and_fortress(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: _city(d, "Ghazni").update(xy=[1.0])))
    _expect(msg, 'city "Ghazni"', "xy = [1.0]", "expected two numbers")
    msg = _error(_board(tmp_path, lambda d: _city(d, "Ghazni").update(fortress="yes")))
    _expect(msg, 'fortress = "yes"', "expected true or false")


def test_unknown_keys(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: d.update(rivers=["Indus"])))
    _expect(msg, 'unknown key "rivers"')
    msg = _error(_board(tmp_path, lambda d: _city(d, "Ghazni").update(population=5)))
    _expect(msg, 'cities[3]', 'unknown key "population"')
    msg = _error(_board(tmp_path, lambda d: _prov(d, "Kabul").update(colour="ochre")))
    _expect(msg, "province[0]", 'unknown key "colour"')
    msg = _error(None, _parts(tmp_path, lambda d: d.update(prestige_cards={"might": 1})))
    _expect(msg, "myparts.toml", 'unknown key "prestige_cards"')


def test_provenance_required(tmp_path: Path) -> None:
    msg = _error(_board(tmp_path, lambda d: d["provenance"].pop("rings")))
    _expect(msg, "provenance", "missing key rings")
    msg = _error(_board(tmp_path, lambda d: d["provenance"].update(rings="my copy")))
    _expect(msg, "provenance.rings", '"my copy"', '"sourced:"')
    msg = _error(None, _parts(tmp_path, lambda d: d.pop("provenance")))
    _expect(msg, "myparts.toml", "missing [provenance] table")


def test_size_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def grow(doc: dict[str, Any]) -> None:  # 2 more cities in each province: 73 > 64
        for p in doc["province"]:
            first = p["cities"][0]
            for k in range(2):
                name = f"{p['name']} Extra {'ab'[k]}"
                p["cities"].append({"name": name, "xy": first["xy"]})
                p["roads"].append([first["name"], name])

    msg = _error(_board(tmp_path, grow))
    _expect(msg, "73 cities", f"at most {E.MAX_CITIES}")
    monkeypatch.setattr(E, "MAX_ROADS", 70)
    _expect(_error(), "78 roads", "at most 70")
    monkeypatch.setattr(E, "MAX_BONUS_TILES", 10)
    assert any("15 tiles, expected at most 10" in p for p in validate_files())


def test_province_tiles_rules(tmp_path: Path) -> None:
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].pop("12")))
    _expect(msg, "myparts.toml", "missing tile 12")
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].update(
        {"3": ["rice", "tea", "spices"]})))
    _expect(msg, "province_tiles.3", '["rice", "tea", "spices"]', "1 or 2 goods")
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].update({"3": []})))
    _expect(msg, "province_tiles.3", "got []")
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].update(
        {"3": ["rice", "gold"]})))
    _expect(msg, 'unknown good "gold"')
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].update(
        {"3": ["tea", "tea"]})))
    _expect(msg, "province_tiles.3", "different goods")
    msg = _error(None, _parts(tmp_path, lambda d: d["province_tiles"].update({"13": ["tea"]})))
    _expect(msg, 'unknown tile number "13"')


def test_coloured_card_rules(tmp_path: Path) -> None:
    msg = _error(None, _parts(tmp_path, lambda d: d["coloured_cards"]["red"].update(
        {"elephant+elephant": 1})))
    _expect(msg, "coloured_cards.red", "20 cards", "expected 21")
    msg = _error(None, _parts(tmp_path, lambda d: d["coloured_cards"]["green"].update(
        {"elephant+vizier+monk": 1})))
    _expect(msg, '"elephant+vizier+monk"', "two symbols")
    msg = _error(None, _parts(tmp_path, lambda d: d["coloured_cards"]["green"].update(
        {"elephant+tiger": 1})))
    _expect(msg, '"elephant+tiger"')
    msg = _error(None, _parts(tmp_path, lambda d: d["coloured_cards"].update(
        violet=d["coloured_cards"].pop("blue"))))
    _expect(msg, 'unknown colour "violet"')
    msg = _error(None, _parts(tmp_path, lambda d: d["coloured_cards"]["red"].update(
        {"elephant+monk": -1})))
    _expect(msg, "got -1", "integer >= 0")


def test_white_card_rules(tmp_path: Path) -> None:
    msg = _error(None, _parts(tmp_path, lambda d: d["white_cards"].update(elephant=6)))
    _expect(msg, "white_cards", "11 cards", "expected 12")
    msg = _error(None, _parts(tmp_path, lambda d: d["white_cards"].update(tiger=1)))
    _expect(msg, 'unknown name "tiger"')


def test_bonus_tile_rules(tmp_path: Path) -> None:
    msg = _error(None, _parts(tmp_path, lambda d: d["bonus_tiles"].update(taj4=1)))
    _expect(msg, 'unknown name "taj4"', "Taj Mahal +4 tile on Agra is fixed")
    msg = _error(None, _parts(tmp_path, lambda d: d["bonus_tiles"].update(rice=2.5)))
    _expect(msg, "bonus_tiles.rice", "got 2.5")


def test_reconstructed_distributions_not_enforced(tmp_path: Path) -> None:
    def swap(doc: dict[str, Any]) -> None:
        red = doc["coloured_cards"]["red"]
        red["elephant+elephant"] = 0
        red["vizier+vizier"] = 2
        doc["bonus_tiles"].update(rice=5, tea=1, spices=1, jewels=1, plus2=6, draw=1)

    c = load_components(None, _parts(tmp_path, swap))
    assert c.card_symbols[:21].sum(0)[E.SYM.VIZIER] == 9


def test_file_problems(tmp_path: Path) -> None:
    _expect(_error(tmp_path / "missing.toml"), "missing.toml", "file not found")
    bad = tmp_path / "bad.toml"
    bad.write_text("[province\nname = 1\n")
    _expect(_error(bad), "bad.toml", "not valid TOML")
    _expect(_error(DEFAULT_COMPONENTS, DEFAULT_COMPONENTS), "is a components file",
            "expected a board file")
    _expect(_error(DEFAULT_BOARD, DEFAULT_BOARD), "is a board file")


def test_all_problems_listed(tmp_path: Path) -> None:
    def break_two(doc: dict[str, Any]) -> None:
        _prov(doc, "Kabul")["neighbours"].append("Bengal")
        _city(doc, "Ghazni")["population"] = 1

    problems = validate_files(_board(tmp_path, break_two))
    assert len(problems) == 2
    assert all("\n" not in p and "myboard.toml" in p for p in problems)
    with pytest.raises(ComponentError, match="and 1 more problems"):
        load_components(_board(tmp_path, break_two))


def test_edited_valid_board_loads(tmp_path: Path) -> None:
    def move_fortress(doc: dict[str, Any]) -> None:
        _city(doc, "Peshawar")["fortress"] = False
        _city(doc, "Kabul")["fortress"] = True
        doc["provenance"]["fortress_cities"] = "sourced: my own copy of the board"

    c = load_components(_board(tmp_path, move_fortress))
    assert c.city_fortress[c.city_names.index("Kabul")]
    assert c.provenance["fortress_cities"] == "sourced: my own copy of the board"
    assert c.board_path.endswith("myboard.toml")


# ---------------------------------------------------------------------------------------------
# alternative components
# ---------------------------------------------------------------------------------------------
def _same(a: Components, b: Components) -> bool:
    return (
        np.array_equal(a.roads, b.roads)
        and np.array_equal(a.city_fortress, b.city_fortress)
        and np.array_equal(a.bonus_tiles, b.bonus_tiles)
    )


def _check_alternative(alt: Components) -> None:
    base = default_components()
    assert check_components(alt) == []
    # sourced facts kept
    assert alt.city_names == base.city_names and alt.province_names == base.province_names
    assert np.array_equal(alt.city_province, base.city_province)
    assert np.array_equal(alt.tile_goods, base.tile_goods)
    assert np.array_equal(alt.card_symbols, base.card_symbols)
    assert alt.agra_city == base.agra_city and alt.city_fortress[alt.agra_city]
    assert int(alt.city_fortress.sum()) == 16
    per = sorted(int(alt.city_fortress[alt.province_cities(p)].sum()) for p in range(12)
                 if p != alt.agra_province)
    assert per == [1] * 7 + [2] * 4
    assert int(alt.city_fortress[alt.province_cities(alt.agra_province)].sum()) == 1
    inter_b, inter_a = base.inter_province_roads, alt.inter_province_roads
    assert {frozenset(r) for r in alt.roads[~inter_a].tolist()} == {
        frozenset(r) for r in base.roads[~inter_b].tolist()}

    def pair_counts(c: Components) -> Counter:
        return Counter(tuple(sorted((int(c.city_province[a]), int(c.city_province[b]))))
                       for a, b in c.roads[c.inter_province_roads].tolist())

    assert pair_counts(alt) == pair_counts(base)
    assert len({frozenset(r) for r in alt.roads.tolist()}) == alt.n_roads
    assert not np.any(alt.roads[inter_a] == alt.agra_city)
    counts = np.bincount(alt.bonus_tiles, minlength=E.N_BONUS_KINDS)
    assert len(alt.bonus_tiles) == 15 and counts[:4].sum() == 8 and np.all(counts[:6] >= 1)
    assert counts[E.BONUS.TAJ4] == 0
    assert np.all(np.diff(alt.bonus_tiles) >= 0)
    for key in ("inter_province_roads", "fortress_cities", "bonus_tiles"):
        assert alt.provenance[key].startswith("reconstructed: alternative_components")


def test_alternative_deterministic_and_different() -> None:
    a, b = alternative_components(11), alternative_components(11)
    assert _same(a, b) and a.digest() == b.digest()
    assert np.array_equal(a.packed(), b.packed())
    others = [alternative_components(s) for s in range(5)]
    assert all(not _same(a, o) for o in others)
    assert len({o.digest() for o in others}) == 5
    assert not _same(a, default_components())
    assert "alternative seed=11" in a.board_path and "alternative seed=11" in a.components_path


def test_alternative_flags() -> None:
    base = default_components()
    only_bonus = alternative_components(4, board=False)
    assert np.array_equal(only_bonus.roads, base.roads)
    assert np.array_equal(only_bonus.city_fortress, base.city_fortress)
    assert np.array_equal(only_bonus.bonus_tiles, alternative_components(4).bonus_tiles)
    only_board = alternative_components(4, bonus_mix=False)
    assert np.array_equal(only_board.bonus_tiles, base.bonus_tiles)
    assert np.array_equal(only_board.roads, alternative_components(4).roads)
    with pytest.raises(UserError):
        alternative_components(-1)


def test_alternative_of_alternative_is_valid() -> None:
    alt = alternative_components(2, alternative_components(1))
    _check_alternative(alt)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_alternative_always_valid(seed: int) -> None:
    _check_alternative(alternative_components(seed))


# ---------------------------------------------------------------------------------------------
# board CLI
# ---------------------------------------------------------------------------------------------
def test_cli_show(tmp_path: Path) -> None:
    out = tmp_path / "pics" / "board.png"
    result = CliRunner().invoke(board_command, ["show", "--out", str(out), "--dpi", "40"])
    assert result.exit_code == 0, result.output
    assert out.exists() and out.read_bytes()[:4] == b"\x89PNG"
    assert str(out) in result.output
    assert "49 cities (16 fortresses), 78 roads" in result.output


def test_cli_show_alternative_and_custom_files(tmp_path: Path) -> None:
    out = tmp_path / "alt.png"
    board = _board(tmp_path, lambda d: None)
    result = CliRunner().invoke(board_command, ["show", "--board", str(board), "--components",
                                                str(DEFAULT_COMPONENTS), "--out", str(out),
                                                "--dpi", "40"])
    assert result.exit_code == 0, result.output
    assert out.exists()
    out.unlink()
    result = CliRunner().invoke(board_command, ["show", "--alternative", "3", "--out", str(out),
                                                "--dpi", "40"])
    assert result.exit_code == 0, result.output
    assert out.exists()
    # An alternative is generated from the shipped files: a custom file as well is an error,
    # not silently half-used.
    result = CliRunner().invoke(board_command, ["show", "--board", str(board), "--alternative",
                                                "3", "--out", str(out)])
    assert isinstance(result.exception, UserError)
    assert "both given" in str(result.exception)


def test_cli_show_errors(tmp_path: Path) -> None:
    bad = _board(tmp_path, lambda d: _city(d, "Agra").update(fortress=False))
    result = CliRunner().invoke(board_command, ["show", "--board", str(bad), "--out",
                                                str(tmp_path / "x.png")])
    assert isinstance(result.exception, ComponentError)
    result = CliRunner().invoke(board_command, ["show", "--out", str(tmp_path / "x.docx")])
    assert isinstance(result.exception, UserError)
    assert "unknown picture type" in str(result.exception)


def test_cli_validate_ok() -> None:
    runner = CliRunner()
    for path, kind in ((DEFAULT_BOARD, "board"), (DEFAULT_COMPONENTS, "components")):
        result = runner.invoke(board_command, ["validate", str(path)])
        assert result.exit_code == 0, result.output
        assert result.output.startswith(f"OK: {path} is a valid {kind} file")


def test_cli_validate_problems(tmp_path: Path) -> None:
    bad = _parts(tmp_path, lambda d: d["province_tiles"].update({"3": ["gold"]}))
    result = CliRunner().invoke(board_command, ["validate", str(bad)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert 'unknown good "gold"' in lines[0] and "myparts.toml" in lines[0]
    assert lines[-1] == "1 problem found."


def test_cli_validate_pair_and_kind(tmp_path: Path) -> None:
    board = _board(tmp_path, lambda d: _city(d, "Peshawar").update(fortress=False))
    parts = _parts(tmp_path, lambda d: d["bonus_tiles"].update(draw=2))
    runner = CliRunner()
    alone = runner.invoke(board_command, ["validate", str(board)])
    assert alone.exit_code == 2 and "14 fortress cities besides Agra" in alone.output
    paired = runner.invoke(board_command, ["validate", str(board), "--other", str(parts)])
    assert paired.exit_code == 0, paired.output
    paired = runner.invoke(board_command, ["validate", str(parts), "--other", str(board),
                                           "--kind", "components"])
    assert paired.exit_code == 0, paired.output


def test_cli_validate_unknown_kind(tmp_path: Path) -> None:
    odd = tmp_path / "odd.toml"
    odd.write_text('name = "nothing here"\n')
    result = CliRunner().invoke(board_command, ["validate", str(odd)])
    assert isinstance(result.exception, UserError)
    assert "--kind" in str(result.exception)
    result = CliRunner().invoke(board_command, ["validate", str(odd), "--kind", "board"])
    assert result.exit_code == 2 and "missing [[province]] tables" in result.output
    missing = CliRunner().invoke(board_command, ["validate", str(tmp_path / "nope.toml")])
    assert missing.exit_code == 2 and "file not found" in missing.output


def test_cli_through_main_group(tmp_path: Path) -> None:
    from tajsim.cli import main
    bad = _board(tmp_path, lambda d: _city(d, "Agra").update(fortress=False))
    result = CliRunner().invoke(main.cli, ["board", "show", "--board", str(bad)])
    assert result.exit_code == 2
    assert "error:" in result.output and "fortress = false" in result.output


# ---------------------------------------------------------------------------------------------
# board picture
# ---------------------------------------------------------------------------------------------
def test_plot_board_overlays() -> None:
    import matplotlib.pyplot as plt

    from tajsim.games.tajmahal.report.board_plot import plot_board

    c = default_components()
    at = np.full(E.MAX_CITIES, -1)
    at[c.bonus_cities] = c.bonus_tiles
    fig = plot_board(c, city_values=np.arange(c.n_cities, dtype=float),
                     province_values={"agra": 3.0, "Kabul": 1.0, 2: 2.0},
                     setup_bonus_at=at, value_label="points", title="test")
    try:
        assert len(fig.axes) == 3  # the map and two colour bars
        assert fig.axes[0].get_title() == "test"
        texts = {t.get_text() for t in fig.axes[0].texts}
        assert {"KABUL", "AGRA", "Taj +4", "+2", "Peshawar"} <= texts
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="unknown key"):
        plot_board(c, province_values={"atlantis": 1.0})
    plt.close("all")
