"""The component files: the shipped board and numbers, every documented constraint with its
one-line error, ``validate_file``, alternative boards and the packed layout."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
import tomli_w

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import (
    DEFAULT_BOARD,
    DEFAULT_COMPONENTS,
    ComponentError,
    alternative_components,
    default_components,
    load_components,
    validate_file,
)
from tajsim.games.maharaja.engine.invariants import check_state
from tajsim.games.maharaja.play.nb import play_batch_nb


def board_data() -> dict:
    return tomllib.loads(DEFAULT_BOARD.read_text())


def parts_data() -> dict:
    return tomllib.loads(DEFAULT_COMPONENTS.read_text())


def write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_text(tomli_w.dumps(data))
    return path


def board_error(tmp_path: Path, data: dict) -> str:
    path = write(tmp_path, "board.toml", data)
    with pytest.raises(ComponentError) as info:
        load_components(path, None)
    message = str(info.value)
    assert "\n" not in message
    assert validate_file(path), "validate_file found nothing"
    return message


def parts_error(tmp_path: Path, data: dict) -> str:
    path = write(tmp_path, "mine.toml", data)  # not the shipped file's name
    with pytest.raises(ComponentError) as info:
        load_components(None, path)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_shipped_files_are_valid_and_complete():
    comps = default_components()
    assert validate_file(DEFAULT_BOARD) == [] and validate_file(DEFAULT_COMPONENTS) == []
    assert len(comps.city_names) == 7 and len(comps.village_names) == 30
    assert comps.n_roads == 16
    nv = (comps.road_villages >= 0).sum(axis=1)
    assert set(nv.tolist()) == {1, 2} and nv.sum() == 30
    degree = np.bincount(comps.roads.ravel(), minlength=8)
    assert degree.min() >= 3 and degree.max() <= 5
    assert comps.gold_table == {2: (10, 5), 3: (11, 7, 3), 4: (12, 9, 6, 3),
                                5: (13, 10, 7, 4, 1)}
    for value in comps.provenance.values():
        assert value.startswith(("sourced:", "reconstructed:"))
    assert "digest" in comps.describe() and comps.start_name in comps.describe()


def test_packed_layout():
    comps = default_components()
    comp = comps.packed()
    assert comp.dtype == np.int64 and comp.shape == (E.COMP_SIZE,)
    assert comp[E.C_PALACE_COST] == 12 and comp[E.C_ARTISAN_COST] == 9
    assert comp[E.C_GOLD_TABLE + 4 * E.MAX_PLAYERS + 0] == 12
    for r in range(comps.n_roads):
        a, b = comps.roads[r]
        for j in (a, b):
            roads_here = comp[E.C_JUNC_ROADS + j * E.MAX_DEGREE:
                              E.C_JUNC_ROADS + j * E.MAX_DEGREE + comp[E.C_JUNC_NROADS + j]]
            assert r in roads_here.tolist()
        for v in comps.road_villages[r]:
            if v >= 0:
                assert comp[E.C_VILLAGE_ROAD + v] == r
        assert comp[E.C_ROAD_VMASK + r] == sum(1 << int(v) for v in comps.road_villages[r]
                                               if v >= 0)
    hops = comp[E.C_HOPS:E.C_HOPS + 64].reshape(8, 8)
    assert (hops == hops.T).all() and (np.diag(hops) == 0).all() and (hops >= 0).all()
    assert comps.packed() is not comps.packed()  # a fresh copy each time
    assert comps.digest() == default_components().digest()


def test_road_with_three_villages(tmp_path):
    data = board_data()
    data["road"][0]["villages"] = ["Gurgaon", "Alwar", "Rewari"]
    msg = board_error(tmp_path, data)
    assert "road Delhi-Jaipur has 3 villages" in msg and "expected 1 or 2" in msg


def test_unreachable_city(tmp_path):
    data = board_data()
    # cut Jodhpur off: drop its three roads (their villages with them)
    data["road"] = [r for r in data["road"] if "Jodhpur" not in r["between"]]
    msg = board_error(tmp_path, data)
    assert msg == ("board.toml: city 'Jodhpur' is unreachable from 'Camp'; expected every "
                   "city joined to the start by roads")


def test_unreachable_city_message(tmp_path):
    data = board_data()
    problems = None
    data["road"] = [r for r in data["road"] if "Jodhpur" not in r["between"]]
    path = write(tmp_path, "b.toml", data)
    problems = validate_file(path)
    assert any("city 'Jodhpur' is unreachable from 'Camp'" in p for p in problems)


def test_duplicate_ids(tmp_path):
    data = board_data()
    data["city"][1]["name"] = "Delhi"
    msg = board_error(tmp_path, data)
    assert "duplicate junction name 'Delhi'" in msg
    data = board_data()
    data["road"][1]["villages"] = ["Gurgaon"]
    msg = board_error(tmp_path, data)
    assert "duplicate village name 'Gurgaon'" in msg


def test_unknown_junction_and_self_road(tmp_path):
    data = board_data()
    data["road"][0]["between"] = ["Delhi", "Atlantis"]
    assert "unknown junction 'Atlantis'" in board_error(tmp_path, data)
    data = board_data()
    data["road"][0]["between"] = ["Delhi", "Delhi"]
    assert "joins 'Delhi' to itself" in board_error(tmp_path, data)


def test_duplicate_road(tmp_path):
    data = board_data()
    data["road"].append({"between": ["Jaipur", "Delhi"], "villages": ["Rewari"]})
    assert "duplicate road Jaipur-Delhi" in board_error(tmp_path, data)


def test_wrong_number_of_cities_and_villages(tmp_path):
    data = board_data()
    data["city"] = data["city"][:6]
    assert "expected exactly 7" in board_error(tmp_path, data)
    data = board_data()
    data["road"][1]["villages"] = ["Mathura", "Vrindavan"]
    assert "31 villages on the roads; expected 30" in board_error(tmp_path, data)


def test_degree_limits(tmp_path):
    data = board_data()
    # a sixth road at Jaipur (and a village taken from a two-village road)
    data["road"][0]["villages"] = ["Gurgaon"]
    data["road"].append({"between": ["Jaipur", "Lucknow"], "villages": ["Alwar"]})
    msgs = validate_file(write(tmp_path, "b.toml", data))
    assert any("junction 'Jaipur' has 6 roads; expected 3 to 5" in m for m in msgs)


def test_crossing_roads(tmp_path):
    data = board_data()
    # Jodhpur-Agra crosses Delhi-Jaipur
    data["road"][0]["villages"] = ["Gurgaon"]
    data["road"].append({"between": ["Jodhpur", "Agra"], "villages": ["Alwar"]})
    msgs = validate_file(write(tmp_path, "b.toml", data))
    assert any("crosses road" in m and "planar" in m for m in msgs)


def test_missing_provenance_and_unknown_keys(tmp_path):
    data = board_data()
    del data["provenance"]["roads"]
    assert "provenance.roads" in board_error(tmp_path, data)
    data = board_data()
    data["colour"] = "red"
    assert "unknown key 'colour'" in board_error(tmp_path, data)


def test_unreadable_files(tmp_path):
    with pytest.raises(ComponentError, match="cannot read component file"):
        load_components(tmp_path / "nope.toml", None)
    bad = tmp_path / "bad.toml"
    bad.write_text("[[city]\nname=")
    with pytest.raises(ComponentError, match="not valid TOML"):
        load_components(bad, None)
    other = write(tmp_path, "other.toml", {"x": 1})
    assert "neither a board file" in validate_file(other)[0]


@pytest.mark.parametrize("table,key,value,expected", [
    ("gold_table", "players_4", [12, 9, 6], "expected 4 whole numbers"),
    ("gold_table", "players_3", [3, 7, 11], "never rises"),
    ("costs", "palace", -1, "costs.palace = -1; expected a whole number from 0 to 1000"),
    ("costs", "artisan_palace", 13, "expected at most costs.palace"),
    ("track", "round_boxes", 40, "track.round_boxes = 40"),
    ("supply", "houses_per_colour", 5, "expected at least start.houses"),
    ("characters", "names", ["a", "b"], "expected 6 different names"),
    ("actions", "governor_step", 9, "actions.governor_step = 9"),
])
def test_bad_numbers(tmp_path, table, key, value, expected):
    data = parts_data()
    data[table][key] = value
    msg = parts_error(tmp_path, data)
    assert expected in msg and msg.startswith("mine.toml")


def test_user_numbers_reach_the_kernels(tmp_path):
    data = parts_data()
    data["costs"]["palace"] = 15
    data["start"]["gold"] = 20
    comps = load_components(None, write(tmp_path, "c.toml", data))
    comp = comps.packed()
    assert comp[E.C_PALACE_COST] == 15 and comp[E.C_START_GOLD] == 20
    assert comps.digest() != default_components().digest()


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_alternative_boards_are_valid(tmp_path, seed):
    comps = alternative_components(seed)
    degree = np.bincount(comps.roads.ravel(), minlength=8)
    assert degree.min() >= 3 and degree.max() <= 5
    assert (comps.road_villages >= 0).sum() == 30
    # written back as a board file, it passes every check
    data = {
        "name": comps.name,
        "provenance": {k.split(".", 1)[1]: v for k, v in comps.provenance.items()
                       if k.startswith("board.")},
        "start": {"name": comps.start_name, "xy": comps.junction_xy[E.START].tolist()},
        "city": [{"name": n, "xy": comps.junction_xy[c].tolist()}
                 for c, n in enumerate(comps.city_names)],
        "road": [{"between": [comps.junction_names[a] for a in comps.roads[r]],
                  "villages": [comps.village_names[v] for v in comps.road_villages[r] if v >= 0]}
                 for r in range(comps.n_roads)],
    }
    assert validate_file(write(tmp_path, "alt.toml", data)) == []


def test_alternative_boards_are_seeded_and_differ():
    a, b, c = alternative_components(7), alternative_components(7), alternative_components(8)
    assert a.digest() == b.digest()
    assert a.digest() != c.digest() and a.digest() != default_components().digest()


def test_games_run_on_alternative_boards():
    comps = alternative_components(3)
    comp = comps.packed()
    G, n = 20, 4
    ids = np.arange(G, dtype=np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    st = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(comp, n, 0, 5, ids, ids, np.zeros((G, n), np.int64), np.zeros(1, np.int64),
                  np.zeros((1, 32)), res, st, None, None)
    assert (st["n_rounds"] > 0).all()
    from tajsim.games.maharaja.spec import SPEC  # binds the Game class to its spec

    game = SPEC.game_class(4, seed=5, components=comps)
    check_state(game.state, comp, "alternative board start")
