"""Write the shipped Maharani component files (``tajsim/games/maharani/engine/data``).

The palace geometry, the column marks, the tile table, the turntable mapping and the seats for 2
and 3 players are public nowhere; this script is how the shipped reconstruction was made, so that
it can be reviewed and re-run. Usage (from the repository root)::

    PYTHONPATH=. python experiments/maharani/make_default_components.py [--check]

Design (every choice is a ``reconstructed:`` entry of the files' ``[provenance]`` tables):

* The palace is an 8 x 8 grid without its four corner squares and the central 2 x 2 square under
  the turntable: 56 spaces, four 4 x 4 quarters of 14 spaces (sourced: 4 quarters of 14).
* Columns stand on the edges between two spaces (each space shows a half column) or in the middle
  of a space (a central column). The pattern of quarter 1 (north-west) below is repeated in the
  other quarters by quarter turns about the centre of the board, so the four quarters are alike;
  it was drawn at random (seed 1) among patterns with 2 central spaces, 6 spaces with one half
  column, 3 with two half columns at a corner and 3 with two opposite half columns per quarter,
  keeping the one with every column between two spaces (none against a wall).
* Tiles: per colour 2 central tiles, 4 with one half column (the arrow ahead of, right of, behind
  and left of the column), 2 with two half columns at a corner and 2 with two opposite half
  columns: 12 + 24 + 12 + 12 = 60, the same counts by kind as the spaces (8 central spaces for 12
  central tiles, sourced).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "tajsim" / "games" / "maharani" / "engine" / "data"

# Quarter 1 (north-west), grid (row, col) -> column marks; "C" = central column.
NW_PATTERN = {
    (0, 1): "E", (0, 2): "EW", (0, 3): "W",
    (1, 0): "ES", (1, 1): "EW", (1, 2): "SW", (1, 3): "C",
    (2, 0): "NS", (2, 1): "C", (2, 2): "N", (2, 3): "E",
    (3, 0): "EN", (3, 1): "W", (3, 2): "S",
}
ROTATE = {"N": "E", "E": "S", "S": "W", "W": "N", "C": "C"}
# Quarters in file order: (name, letter, quarter turns clockwise from the north-west quarter)
QUARTERS = (("Lion", "L", 0), ("Monkey", "M", 1), ("Peacock", "P", 3), ("Elephant", "E", 2))
COLOURS = ("blue", "orange", "green", "purple", "red", "yellow")
CORNERS = (("ahead", "right"), ("right", "behind"), ("behind", "left"), ("left", "ahead"))


def rotate_cell(row: int, col: int, turns: int) -> tuple[int, int]:
    for _ in range(turns):
        row, col = col, 7 - row
    return row, col


def rotate_marks(marks: str, turns: int) -> str:
    for _ in range(turns):
        marks = "".join(ROTATE[m] for m in marks)
    return "".join(sorted(marks, key="NESWC".index))


def board_text() -> str:
    lines = [
        "# The palace of Maharani: quarters, spaces, column marks, turntable and seats.",
        "# Written by experiments/maharani/make_default_components.py; docs/games/maharani/",
        "# components.md explains every fact and how to pass a corrected copy (--board).",
        "# Grid: row 0 is the north side, column 0 the west side. Column marks: N E S W = a half",
        "# column on that edge of the space, C = a central column.",
        'name = "Maharani palace (reconstructed)"',
        "",
        "[provenance]",
        'quarters = "sourced: 4 quarters of 14 spaces, 56 spaces for 60 tiles (Dale Yu, '
        'opinionatedgamers.com, 2013-07-16; spielkult.de: four equal rooms with the same number '
        'of spaces); quarter numbers 1-4 sourced (French rules, setup illustration labels)"',
        'quarter_animals = "reconstructed: each quarter has an animal symbol (lion, monkey, '
        'peacock, elephant: brettspiele.digital, poeppelkiste.de); which quarter has which is '
        'not public"',
        'shape = "reconstructed: an 8 x 8 grid without its four corners and the central 2 x 2 '
        'square under the turntable; each quarter a 4 x 4 block without its outer corner and '
        'its inner corner"',
        'adjacency = "reconstructed: spaces sharing an edge of the grid are adjacent, across '
        'quarter borders too (sourced: zones and groups are not limited by quarter borders, '
        'French rules, Cas particulier); no walls"',
        'columns = "reconstructed: every space carries at least one column mark (sourced, Dale '
        'Yu); 8 central spaces (sourced, French rules: 8 spaces for the 12 central tiles); the '
        'half columns of quarter 1 drawn at random (seed 1) with 6 spaces of one half column, '
        '3 of two at a corner and 3 of two opposite per quarter, every column between two '
        'spaces; the other quarters are quarter turns of quarter 1"',
        'turntable = "reconstructed: places 1-4 run clockwise; with the arrow toward a side, '
        'place 1 lies over the quarter at the near left of the player on that side"',
        'positions = "sourced: with 4 players each sits at one side, play runs clockwise '
        '(French rules); reconstructed: 2 players at the south and north sides, 3 players at '
        'south, west and north"',
        "",
    ]
    for name, letter, turns in QUARTERS:
        lines.append("[[quarter]]")
        lines.append(f'name = "{name}"')
        lines.append("spaces = [")
        cells = sorted((rotate_cell(r, c, turns), rotate_marks(m, turns))
                       for (r, c), m in NW_PATTERN.items())
        for i, ((row, col), marks) in enumerate(cells):
            cols = ", ".join(f'"{m}"' for m in marks)
            lines.append(f'  {{ id = "{letter}{i + 1:02d}", row = {row}, col = {col}, '
                         f'columns = [{cols}] }},')
        lines.append("]")
        lines.append("")
    lines += [
        "# Quarter under turntable places 1, 2, 3, 4 when the arrow points to each side.",
        "[turntable]",
        'south = ["Peacock", "Lion", "Monkey", "Elephant"]',
        'west = ["Lion", "Monkey", "Elephant", "Peacock"]',
        'north = ["Monkey", "Elephant", "Peacock", "Lion"]',
        'east = ["Elephant", "Peacock", "Lion", "Monkey"]',
        "",
        "# The side of each seat (seat 0 plays first; play runs clockwise), by player count.",
        "[positions]",
        'two = ["south", "north"]',
        'three = ["south", "west", "north"]',
        'four = ["south", "west", "north", "east"]',
        "",
    ]
    return "\n".join(lines)


def tiles_text() -> str:
    lines = [
        "# The 60 mosaic tiles of Maharani: colour and columns relative to the tile's arrow.",
        "# Written by experiments/maharani/make_default_components.py; docs/games/maharani/",
        "# components.md explains every fact and how to pass a corrected copy (--components).",
        "# columns: \"centre\" (a central column) or one or two half columns on the edges ahead,",
        "# right, behind or left of the arrow.",
        'name = "Maharani mosaic tiles (reconstructed)"',
        f"colours = [{', '.join(chr(34) + c + chr(34) for c in COLOURS)}]",
        "",
        "[provenance]",
        'count = "sourced: 60 mosaic tiles, 10 in each of 6 colours (French rules, Accessoires)"',
        'colours = "sourced: blue and orange tiles (French rules, examples); reconstructed: the '
        'other four colour names"',
        'column_kinds = "sourced: tiles show a central column, one half column or two half '
        'columns (spiele-offensive.de review); 12 central tiles (French rules); reconstructed: '
        'per colour 2 central, 4 one half, 2 two halves at a corner, 2 two opposite halves"',
        'arrows = "reconstructed: the one-half tiles of a colour have the arrow ahead of, right '
        'of, behind and left of the column; corner tiles cycle through the four corners; of the '
        'two opposite-halves tiles one points along the columns, one across"',
        "",
    ]
    body = []
    for ci, colour in enumerate(COLOURS):
        patterns: list[tuple[str, ...]] = [("centre",), ("centre",)]
        patterns += [("ahead",), ("right",), ("behind",), ("left",)]
        patterns += [CORNERS[(2 * ci) % 4], CORNERS[(2 * ci + 1) % 4]]
        patterns += [("ahead", "behind"), ("left", "right")]
        for i, cols in enumerate(patterns):
            text = ", ".join(f'"{c}"' for c in cols)
            body.append(f'  {{ id = "{colour}-{i + 1:02d}", colour = "{colour}", '
                        f"columns = [{text}] }},")
    # The tile list is a top-level key: it must come before the [provenance] table.
    at = lines.index("[provenance]")
    lines[at:at] = ["tiles = ["] + body + ["]", ""]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args(argv)
    differ = 0
    for name, text in (("board.toml", board_text()), ("tiles.toml", tiles_text())):
        path = DATA / name
        old = path.read_text() if path.exists() else None
        if old == text:
            print(f"{name}: unchanged")
            continue
        differ += 1
        if args.check:
            print(f"{name}: DIFFERS")
        else:
            path.write_text(text)
            print(f"{name}: written")
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
