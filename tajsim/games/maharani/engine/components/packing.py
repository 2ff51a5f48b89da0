"""Maharani's components packed for the kernels: one int64 array laid out by the ``C_*`` offsets
of :mod:`tajsim.games.maharani.engine.enums` (``Components.packed()`` documents the layout)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components.patterns import fit_directions

if TYPE_CHECKING:
    from tajsim.games.maharani.engine.components.model import Components


def pack_components(c: Components) -> np.ndarray:
    comp = np.zeros(E.COMP_SIZE, dtype=np.int64)
    n, t = c.n_spaces, c.n_tiles
    comp[E.C_N_SPACES] = n
    comp[E.C_N_TILES] = t
    central = [s for s in range(n) if int(c.space_marks[s]) == E.MARK_CENTRE]
    comp[E.C_N_CENTRAL_SPACES] = len(central)
    comp[E.C_ALL_SPACES] = (1 << n) - 1
    comp[E.C_CENTRAL_MASK] = sum(1 << s for s in central)
    comp[E.C_SPACE_QUARTER:E.C_SPACE_QUARTER + n] = c.space_quarter
    comp[E.C_SPACE_MARKS:E.C_SPACE_MARKS + n] = c.space_marks
    comp[E.C_SPACE_ROW:E.C_SPACE_ROW + n] = c.space_row
    comp[E.C_SPACE_COL:E.C_SPACE_COL + n] = c.space_col
    comp[E.C_NEIGH:E.C_NEIGH + E.MAX_SPACES * 4] = -1
    nb = c.neighbours
    for s in range(n):
        mask = 0
        for d in range(4):
            comp[E.C_NEIGH + s * 4 + d] = nb[s, d]
            if nb[s, d] >= 0:
                mask |= 1 << int(nb[s, d])
        comp[E.C_NEIGH_MASK + s] = mask
    for q in range(E.N_QUARTERS):
        spaces = c.quarter_spaces(q)
        comp[E.C_QUARTER_MASK + q] = sum(1 << int(s) for s in spaces)
        comp[E.C_QUARTER_SIZE + q] = len(spaces)
    comp[E.C_TILE_COLOUR:E.C_TILE_COLOUR + t] = c.tile_colour
    comp[E.C_TILE_MARKS:E.C_TILE_MARKS + t] = c.tile_marks
    comp[E.C_TILE_KIND:E.C_TILE_KIND + t] = [c.tile_kind(i) for i in range(t)]
    for tp in range(E.N_PATTERNS):
        spaces_mask = 0
        for sp in range(E.N_PATTERNS):
            fit = fit_directions(tp, sp)
            comp[E.C_FIT + tp * E.N_PATTERNS + sp] = fit
        for s in range(n):
            if fit_directions(tp, int(c.space_marks[s])):
                spaces_mask |= 1 << s
        comp[E.C_PATTERN_SPACES + tp] = spaces_mask
    comp[E.C_SLOT_QUARTER:E.C_SLOT_QUARTER + 16] = c.slot_quarter.ravel()
    comp[E.C_SEAT_SIDE:E.C_SEAT_SIDE + (E.MAX_PLAYERS + 1) * E.MAX_PLAYERS] = -1
    comp[E.C_SIDE_SEAT:E.C_SIDE_SEAT + (E.MAX_PLAYERS + 1) * E.N_DIRS] = -1
    for np_, sides in c.seat_sides.items():
        for p, side in enumerate(sides):
            comp[E.C_SEAT_SIDE + np_ * E.MAX_PLAYERS + p] = side
            comp[E.C_SIDE_SEAT + np_ * E.N_DIRS + side] = p
    return comp
