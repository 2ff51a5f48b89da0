"""The shipped palace and tiles, the validator's one-line errors, the packed layout and the
seeded alternative generator."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from maharani_helpers import MCOMP, MCOMPONENTS

from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import (
    DEFAULT_BOARD,
    DEFAULT_TILES,
    ComponentError,
    alternative_components,
    check_components,
    fit_directions,
    kind_of_pattern,
    load_components,
    rotate_pattern,
    validate_file,
    validate_files,
)

BOARD = DEFAULT_BOARD.read_text()
TILES = DEFAULT_TILES.read_text()


# ------------------------------------------------------------------------------------------
# The shipped data: the sourced facts hold
# ------------------------------------------------------------------------------------------
def test_sourced_counts():
    c = MCOMPONENTS
    assert c.n_spaces == 56 and [len(c.quarter_spaces(q)) for q in range(4)] == [14] * 4
    assert c.n_tiles == 60
    assert np.bincount(c.tile_colour, minlength=6).tolist() == [10] * 6
    assert all(int(m) != 0 for m in c.space_marks)  # every space has a column mark
    kinds_t = np.bincount([c.tile_kind(t) for t in range(60)], minlength=4)
    kinds_s = np.bincount([c.space_kind(s) for s in range(56)], minlength=4)
    assert kinds_t[E.KIND.CENTRAL] == 12 and kinds_s[E.KIND.CENTRAL] == 8
    assert kinds_t[1:].tolist() == kinds_s[1:].tolist()
    assert {"blue", "orange"} <= set(c.colour_names)


def test_every_fact_has_provenance():
    prov = MCOMPONENTS.provenance
    for key in ("quarters", "quarter_animals", "shape", "adjacency", "columns", "turntable",
                "positions", "count", "colours", "column_kinds", "arrows", "quarter_gold",
                "artisans", "second_tile_cost"):
        assert prov[key].startswith(("sourced:", "reconstructed:")), key
    assert validate_files() == []


def test_half_columns_are_matched_across_every_shared_edge():
    c = MCOMPONENTS
    nb = c.neighbours
    for s in range(c.n_spaces):
        for d in range(4):
            t = nb[s, d]
            if t >= 0:
                assert (c.space_marks[s] >> d & 1) == (c.space_marks[t] >> ((d + 2) % 4) & 1)


def test_adjacency_crosses_quarter_borders():
    c = MCOMPONENTS
    nb = c.neighbours
    cross = {(int(c.space_quarter[s]), int(c.space_quarter[t])) for s in range(56)
             for t in nb[s] if t >= 0 and c.space_quarter[s] != c.space_quarter[t]}
    assert cross == {(0, 1), (1, 0), (0, 2), (2, 0), (1, 3), (3, 1), (2, 3), (3, 2)}


def test_patterns_rotate_and_fit():
    assert rotate_pattern(0b0001, 1) == 0b0010 and rotate_pattern(0b1000, 1) == 0b0001
    assert rotate_pattern(E.MARK_CENTRE, 3) == E.MARK_CENTRE
    assert fit_directions(E.MARK_CENTRE, E.MARK_CENTRE) == 0b1111
    assert fit_directions(0b0101, 0b1010) == 0b1010  # straight: two arrows
    assert fit_directions(0b0001, 0b0100) == 0b0100  # half ahead on a south mark: arrow south
    assert kind_of_pattern(0b0011) == E.KIND.CORNER and kind_of_pattern(0b0111) == -1


def test_packed_layout():
    comp = MCOMP
    c = MCOMPONENTS
    assert comp.shape == (E.COMP_SIZE,) and comp.dtype == np.int64
    assert comp[E.C_N_SPACES] == 56 and comp[E.C_N_TILES] == 60
    assert comp[E.C_ALL_SPACES] == (1 << 56) - 1
    assert bin(int(comp[E.C_CENTRAL_MASK])).count("1") == 8
    s = c.space_ids.index("L03")
    east = int(comp[E.C_NEIGH + s * 4 + E.DIR.E])
    assert c.space_ids[east] == "M01"
    assert comp[E.C_SLOT_QUARTER + E.DIR.S * 4 + 1] == 0  # place 2 over quarter 1 facing south
    assert comp[E.C_SEAT_SIDE + 4 * 4 + 1] == E.DIR.W
    assert comp[E.C_SIDE_SEAT + 2 * 4 + E.DIR.E] == -1


def test_digest_and_meta_are_stable():
    a = load_components()
    assert a.digest() == MCOMPONENTS.digest() and len(a.digest()) == 12
    meta = MCOMPONENTS.frame_meta()
    assert json.loads(json.dumps(meta)) == meta
    assert "palace" in MCOMPONENTS.describe()


# ------------------------------------------------------------------------------------------
# Bad files: one line naming the value and what was expected
# ------------------------------------------------------------------------------------------
def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def one_line_error(board=None, tiles=None) -> str:
    with pytest.raises(ComponentError) as info:
        load_components(board, tiles)
    msg = str(info.value)
    assert "\n" not in msg
    assert isinstance(info.value, UserError)
    return msg


BAD_BOARDS = [
    ('id = "L02"', 'id = "L01"', r"duplicate space id 'L01', expected unique ids"),
    ('{ id = "L01", row = 0, col = 1, columns = ["E"] }',
     '{ id = "L01", row = 0, col = 1, columns = ["N"] }',
     r"space L02.columns: half column on the west edge but the adjacent space L01 has none"),
    ('columns = ["E", "W"] }', 'columns = ["E", "W", "C"] }',
     r"mixes a central column with half columns"),
    ('row = 0, col = 1,', 'row = 9, col = 1,', r"L01.row: 9, expected an integer 0..7"),
    ('south = ["Peacock", "Lion", "Monkey", "Elephant"]',
     'south = ["Peacock", "Lion", "Lion", "Elephant"]', r"turntable.south: .* names a quarter "
     "twice"),
    ('three = ["south", "west", "north"]', 'three = ["south", "west"]',
     r"positions.three: .*expected 3 distinct sides"),
    ('name = "Monkey"', 'name = "Lion"', r"duplicate quarter name 'Lion'"),
    ('[turntable]', 'colour = "red"\n[turntable]', r"unknown key 'colour'"),
]


@pytest.mark.parametrize("old, new, pattern", BAD_BOARDS)
def test_bad_board_files(tmp_path, old, new, pattern):
    assert old in BOARD
    msg = one_line_error(board=write(tmp_path, "board.toml", BOARD.replace(old, new, 1)))
    assert re.search(pattern, msg), msg
    assert "board.toml" in msg


BAD_TILES = [
    ('id = "blue-02"', 'id = "blue-01"', r"duplicate tile id 'blue-01', expected unique ids"),
    ('{ id = "blue-03", colour = "blue", columns = ["ahead"] },\n', "",
     r"23 half tiles for 24 half spaces on the board, expected equal counts"),
    ('columns = ["ahead", "behind"] }', 'columns = ["ahead", "behind", "left"] }',
     r"has 3 half columns"),
    ('colour = "blue", columns = ["centre"]', 'colour = "cyan", columns = ["centre"]',
     r"colour: 'cyan', expected one of blue"),
    ('columns = ["ahead"] }', 'columns = ["forward"] }', r"unknown column 'forward'"),
]


@pytest.mark.parametrize("old, new, pattern", BAD_TILES)
def test_bad_tile_files(tmp_path, old, new, pattern):
    assert old in TILES
    msg = one_line_error(tiles=write(tmp_path, "tiles.toml", TILES.replace(old, new, 1)))
    assert re.search(pattern, msg), msg


def tiny_board(extra_space: str = "") -> str:
    """A minimal valid board: one central space per quarter (and ``extra_space``)."""
    prov = "\n".join(f'{k} = "reconstructed: test"' for k in (
        "quarters", "quarter_animals", "shape", "adjacency", "columns", "turntable",
        "positions"))
    quarters = ""
    for name, (r, c) in zip(("A", "B", "C", "D"), ((0, 0), (0, 7), (7, 0), (7, 7))):
        more = extra_space if name == "A" else ""
        quarters += (f'[[quarter]]\nname = "{name}"\nspaces = [{{ id = "{name}1", row = {r}, '
                     f'col = {c}, columns = ["C"] }}{more}]\n')
    return (f'name = "tiny"\n[provenance]\n{prov}\n{quarters}[turntable]\n'
            'north = ["A", "B", "D", "C"]\neast = ["B", "D", "C", "A"]\n'
            'south = ["D", "C", "A", "B"]\nwest = ["C", "A", "B", "D"]\n'
            '[positions]\ntwo = ["south", "north"]\nthree = ["south", "west", "north"]\n'
            'four = ["south", "west", "north", "east"]\n')


def tiny_tiles(extra: str = "") -> str:
    prov = "\n".join(f'{k} = "reconstructed: test"' for k in (
        "count", "colours", "column_kinds", "arrows"))
    tiles = ", ".join(f'{{ id = "t{i}", colour = "blue", columns = ["centre"] }}'
                      for i in range(4))
    return (f'name = "tiny"\ncolours = ["blue", "orange", "green", "purple", "red", '
            f'"yellow"]\ntiles = [{tiles}{extra}]\n[provenance]\n{prov}\n')


def test_tiny_files_are_valid(tmp_path):
    comps = load_components(write(tmp_path, "b.toml", tiny_board()),
                            write(tmp_path, "t.toml", tiny_tiles()))
    assert comps.n_spaces == 4 and comps.n_tiles == 4


def test_orientation_that_can_never_be_legal(tmp_path):
    """A tile whose columns cover no space of the board in any orientation."""
    msg = one_line_error(write(tmp_path, "b.toml", tiny_board()), write(
        tmp_path, "t.toml", tiny_tiles(', { id = "odd", colour = "red", columns = ["ahead"] }')))
    assert re.search(r"tile odd.columns: \[ahead\] fits no space of the board in any "
                     r"orientation \(an orientation that can never be legal\)", msg), msg
    assert "more problems" in msg  # the count of half tiles differs too


def test_space_covered_by_no_tile(tmp_path):
    board = tiny_board(', { id = "A2", row = 1, col = 0, columns = ["W"] }')
    problems = validate_files(write(tmp_path, "b.toml", board),
                              write(tmp_path, "t.toml", tiny_tiles()))
    assert any(re.search(r"space A2.columns: \[W\] is covered by no tile", p) for p in problems)
    assert any("0 half tiles for 1 half spaces" in p for p in problems)


def test_every_problem_listed_and_kinds_detected(tmp_path):
    bad = BOARD.replace('id = "L02"', 'id = "L01"', 1).replace("row = 0, col = 3,",
                                                               "row = 0, col = 3, x = 1,", 1)
    problems = validate_file(write(tmp_path, "b.toml", bad))
    assert len(problems) >= 2 and all("\n" not in p for p in problems)
    assert validate_file(DEFAULT_TILES) == [] and validate_file(DEFAULT_BOARD) == []
    swapped = one_line_error(board=DEFAULT_TILES)
    assert "is a tiles file, expected a board file" in swapped
    not_toml = one_line_error(board=write(tmp_path, "x.toml", "this is = = not toml"))
    assert "not valid TOML" in not_toml
    assert "cannot read" in one_line_error(tiles=tmp_path / "missing.toml")
    neither = validate_file(write(tmp_path, "n.toml", 'name = "x"'))
    assert neither and "neither a board file" in neither[0]


def test_provenance_required(tmp_path):
    bad = BOARD.replace('shape = "reconstructed:', 'shape = "guessed:', 1)
    msg = one_line_error(board=write(tmp_path, "b.toml", bad))
    assert "provenance.shape" in msg and "'sourced:' or 'reconstructed:'" in msg


def test_user_files_load_and_play(tmp_path):
    """A corrected copy loads with its path kept (records carry it)."""
    from tajsim.games.maharani.engine.game import Game

    board = write(tmp_path, "board.toml", BOARD.replace(
        'two = ["south", "north"]', 'two = ["west", "east"]'))
    comps = load_components(board, None)
    assert comps.board_path == str(board) and comps.seat_sides[2] == (E.DIR.W, E.DIR.E)
    game = Game(2, components=comps)
    assert game.state[E.S_FACING] == E.DIR.W
    assert game.record().board == str(board)


# ------------------------------------------------------------------------------------------
# Alternatives
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_alternatives_are_valid_and_seeded(seed):
    alt = alternative_components(seed)
    assert check_components(alt) == []
    again = alternative_components(seed)
    assert alt.digest() == again.digest()
    assert alt.digest() != MCOMPONENTS.digest()
    assert alt.n_spaces == 56 and alt.n_tiles == 60
    assert np.array_equal(alt.space_quarter, MCOMPONENTS.space_quarter)
    assert sum(1 for s in range(56) if alt.space_marks[s] == E.MARK_CENTRE) == 8
    assert np.bincount(alt.tile_colour, minlength=6).tolist() == [10] * 6
    assert "alternative seed=" in alt.board_path


def test_alternatives_differ_and_play():
    from tajsim.games.registry import get_game
    from tajsim.play.conformance import check_kernel_game

    digests = {alternative_components(s).digest() for s in range(6)}
    assert len(digests) == 6
    for s in range(3):
        check_kernel_game(get_game("maharani"), 3, seed=s, game_id=s,
                          comp=alternative_components(s).packed())


def test_alternative_flags_and_bad_seed():
    only_tt = alternative_components(3, columns=False, tiles=False)
    assert np.array_equal(only_tt.space_marks, MCOMPONENTS.space_marks)
    assert only_tt.tile_ids == MCOMPONENTS.tile_ids
    with pytest.raises(ComponentError, match="seed -1, expected an integer >= 0"):
        alternative_components(-1)
