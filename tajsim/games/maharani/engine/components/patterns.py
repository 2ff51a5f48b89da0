"""Column patterns of Maharani's spaces and tiles: turning them, the arrow directions in which
a tile fits a space (R6b), their kinds and their names in texts."""

from __future__ import annotations

from tajsim.games.maharani.engine import enums as E


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
