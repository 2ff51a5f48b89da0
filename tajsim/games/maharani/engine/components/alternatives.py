"""Alternative Maharani component sets for robustness runs: other seatings, and random palaces
and tile tables within the sourced constraints."""

from __future__ import annotations

import dataclasses

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components.model import ComponentError, Components
from tajsim.games.maharani.engine.components.patterns import (
    kind_of_pattern,
    rotate_pattern,
)
from tajsim.games.maharani.engine.components.toml_files import (
    SIDE_KEYS,
    check_components,
    default_components,
    is_int,
)

#: Alternative seeds ``SEATING_SEED_BASE + k`` (k = 1 .. len(SEATINGS)) name the seating
#: alternatives (:func:`seating_alternative`); the other seeds of the block
#: ``SEATING_SEED_BASE .. SEATING_SEED_BASE + 999`` are refused.
SEATING_SEED_BASE = 1000

#: The other plausible sides of the seats with 2 and 3 players (docs/games/maharani/
#: components.md, "Seatings"). The shipped file seats 2 players face to face (south, north)
#: and 3 players with the empty side after seat 2 (south, west, north). The palace is the same
#: from every side (its quarters are quarter turns of each other, and the turntable turns with
#: the arrow), so up to a turn of the table the other seatings are: with 2 players side by
#: side, the second player to the first one's left or to its right; with 3 players the empty
#: side after seat 0 or after seat 1. A run has one player count, so each alternative changes
#: both counts; 4 players keep the sourced sides.
SEATINGS: tuple[dict[int, tuple[str, ...]], ...] = (
    {2: ("south", "west"), 3: ("south", "north", "east")},
    {2: ("south", "east"), 3: ("south", "west", "east")},
)


def seating_alternative(k: int, base: Components | None = None) -> Components:
    """``base`` (default: the shipped set) with seating ``k`` (1-based index into
    :data:`SEATINGS`) for 2 and 3 players; 4 players, the palace and the tiles unchanged.

    The same as ``alternative_components(SEATING_SEED_BASE + k, base)``; ``board_path`` says
    "alternative seed=<seed> (seating k) of <base path>", and the ``positions`` provenance line
    is marked reconstructed with the sides.
    """
    if not (is_int(k) or isinstance(k, np.integer)) or not 1 <= int(k) <= len(SEATINGS):
        raise ComponentError(f"seating alternative {k!r}, expected 1 to {len(SEATINGS)}")
    base = default_components() if base is None else base
    k = int(k)
    seed = SEATING_SEED_BASE + k
    sides = dict(base.seat_sides)
    sides.update({n: tuple(SIDE_KEYS.index(x) for x in row) for n, row in SEATINGS[k - 1].items()})
    prov = dict(base.provenance)
    prov["positions"] = (
        f"reconstructed: alternative_components(seed={seed}), seating {k}: "
        + "; ".join(f"{n} players {', '.join(SEATINGS[k - 1][n])}" for n in (2, 3))
        + "; 4 players as the base (sourced: each player at a side, play clockwise)")
    alt = dataclasses.replace(base, seat_sides=sides, provenance=prov,
                              board_path=f"alternative seed={seed} (seating {k}) of "
                                         f"{base.board_path}")
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in SEATINGS, not a user error
        raise RuntimeError(f"seating alternative {k} is invalid: {problems[0]}")
    return alt


def alternative_components(seed: int, base: Components | None = None, *, columns: bool = True,
                           tiles: bool = True, turntable: bool = True) -> Components:
    """A valid alternative palace and tile table, random within the sourced constraints; or,
    for the seeds ``SEATING_SEED_BASE + k``, another seating (:func:`seating_alternative`).

    Kept from ``base`` (default: the shipped set): the shape (spaces, quarters, adjacency,
    walls), the number of central spaces per quarter, the tile colours and the number of tiles
    of each colour, the seats for 2, 3 and 4 players.

    Randomised (each flag on by default, each from its own stream):

    - ``columns``: which spaces are central (the same count per quarter) and the half columns:
      every space without a central column gets one or two half columns on edges it shares
      with other non-central spaces (or against a wall when it has no such edge), drawn so that
      both halves of every column match;
    - ``tiles``: the tile table: as many central tiles as ``base`` (at least the central
      spaces) and one tile per non-central space, with its kind; kinds dealt to the colours
      round robin in random order; the arrow's direction relative to the columns uniform;
    - ``turntable``: the sense in which places 1-4 run (clockwise or counter-clockwise) and
      which quarter place 1 lies over, for a turntable that turns with the arrow.

    Parameters
    ----------
    seed : int
        Non-negative; the result is a deterministic function of (seed, base, flags). Seeds
        ``SEATING_SEED_BASE + k`` (1001, 1002) give seating ``k`` of :data:`SEATINGS` (the
        flags do not apply); the rest of that block (1000-1999) is refused.

    Returns
    -------
    Components
        Valid components (checked like loaded files); ``board_path`` / ``components_path`` say
        "alternative seed=<seed> of <base path>".
    """
    if not (is_int(seed) or isinstance(seed, np.integer)) or int(seed) < 0:
        raise ComponentError(f"alternative_components: seed {seed!r}, expected an integer >= 0")
    if SEATING_SEED_BASE <= int(seed) < SEATING_SEED_BASE + 1000:
        k = int(seed) - SEATING_SEED_BASE
        if not 1 <= k <= len(SEATINGS):
            raise ComponentError(
                f"alternative_components: seed {int(seed)} is in the block "
                f"{SEATING_SEED_BASE}-{SEATING_SEED_BASE + 999} kept for the seatings, expected "
                f"{SEATING_SEED_BASE + 1} to {SEATING_SEED_BASE + len(SEATINGS)} (a seating) or "
                "a seed outside the block (a random palace and tile table)")
        return seating_alternative(k, base)
    base = default_components() if base is None else base
    ss = np.random.SeedSequence(int(seed))
    rng_cols, rng_tiles, rng_tt = (np.random.default_rng(s) for s in ss.spawn(3))
    tag = f"alternative_components(seed={int(seed)})"
    prov = dict(base.provenance)
    marks = base.space_marks
    board_path, tiles_path = base.board_path, base.components_path
    slot_quarter = base.slot_quarter
    if columns:
        marks = _random_columns(base, rng_cols)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        prov["columns"] = (f"reconstructed: {tag}: central spaces and half columns drawn at "
                           "random, the base's central spaces per quarter kept")
    tile_colour, tile_marks, tile_ids = base.tile_colour, base.tile_marks, base.tile_ids
    if tiles or columns:
        tile_colour, tile_marks, tile_ids = _random_tiles(base, marks, rng_tiles)
        tiles_path = f"alternative seed={int(seed)} of {base.components_path}"
        prov["arrows"] = (f"reconstructed: {tag}: one tile per non-central space with its kind, "
                          "kinds dealt to colours round robin, arrows uniform")
    if turntable:
        slot_quarter = _random_turntable(base, rng_tt)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        prov["turntable"] = f"reconstructed: {tag}: turntable sense and place 1 drawn at random"
    alt = dataclasses.replace(
        base, space_marks=np.array(marks, np.int64), tile_colour=np.array(tile_colour, np.int64),
        tile_marks=np.array(tile_marks, np.int64), tile_ids=tuple(tile_ids),
        slot_quarter=np.array(slot_quarter, np.int64), provenance=prov, board_path=board_path,
        components_path=tiles_path, space_quarter=base.space_quarter.copy(),
        space_row=base.space_row.copy(), space_col=base.space_col.copy(),
    )
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in the generator, not a user error
        raise RuntimeError(f"alternative_components produced invalid components: {problems[0]}")
    return alt


def _random_columns(base: Components, rng: np.random.Generator) -> np.ndarray:
    n = base.n_spaces
    nb = base.neighbours
    for _attempt in range(1000):
        central = np.zeros(n, bool)
        for q in range(E.N_QUARTERS):
            spaces = base.quarter_spaces(q)
            k = sum(1 for s in spaces if int(base.space_marks[s]) == E.MARK_CENTRE)
            central[rng.choice(spaces, size=k, replace=False)] = True
        marks = np.where(central, E.MARK_CENTRE, 0).astype(np.int64)
        order = rng.permutation(n)
        ok = True
        for s in order:
            if central[s] or marks[s]:
                continue
            options = [d for d in range(4) if nb[s, d] >= 0 and not central[nb[s, d]]
                       and bin(int(marks[nb[s, d]])).count("1") < 2]
            if options:
                d = int(rng.choice(options))
                marks[s] |= 1 << d
                marks[nb[s, d]] |= 1 << ((d + 2) % 4)
            else:
                walls = [d for d in range(4) if nb[s, d] < 0]
                if not walls:
                    ok = False
                    break
                marks[s] |= 1 << int(rng.choice(walls))
        if not ok:
            continue
        # Second half columns on about half of the spaces that can still take one.
        for s in rng.permutation(n):
            if central[s] or bin(int(marks[s])).count("1") >= 2 or rng.random() < 0.5:
                continue
            options = [d for d in range(4) if not marks[s] >> d & 1 and nb[s, d] >= 0
                       and not central[nb[s, d]] and bin(int(marks[nb[s, d]])).count("1") < 2]
            if options:
                d = int(rng.choice(options))
                marks[s] |= 1 << d
                marks[nb[s, d]] |= 1 << ((d + 2) % 4)
        return marks
    raise RuntimeError("could not draw alternative columns")  # pragma: no cover


def _random_tiles(base: Components, marks: np.ndarray, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    n_central_tiles = int(sum(1 for t in range(base.n_tiles) if base.tile_kind(t) == 0))
    n_central_spaces = int(np.sum(marks == E.MARK_CENTRE))
    patterns = [E.MARK_CENTRE] * max(n_central_tiles, n_central_spaces)
    patterns += [int(m) for m in marks if m != E.MARK_CENTRE]
    # each tile gets a canonical pattern of its space's kind turned at random (arrow uniform)
    patterns = [p if p == E.MARK_CENTRE else rotate_pattern(p, int(rng.integers(4)))
                for p in patterns]
    by_kind = sorted(range(len(patterns)), key=lambda i: (kind_of_pattern(patterns[i]),
                                                          rng.random()))
    colour_count = np.bincount(base.tile_colour, minlength=E.N_COLOURS)
    # deal round robin over the colours (in random order), as many per colour as in base
    order = list(rng.permutation(E.N_COLOURS))
    colours: list[int] = []
    remaining = colour_count.copy()
    while len(colours) < len(patterns):
        for c in order:
            if len(colours) == len(patterns):
                break
            if remaining[c] > 0 or remaining.sum() <= 0:
                colours.append(int(c))
                remaining[c] -= 1
    tile_colour = np.empty(len(patterns), np.int64)
    tile_marks = np.empty(len(patterns), np.int64)
    for slot, i in enumerate(by_kind):
        tile_colour[slot] = colours[slot]
        tile_marks[slot] = patterns[i]
    order_by_colour = np.lexsort((np.arange(len(patterns)), tile_colour))
    tile_colour, tile_marks = tile_colour[order_by_colour], tile_marks[order_by_colour]
    counts = [0] * E.N_COLOURS
    ids = []
    for c in tile_colour:
        counts[int(c)] += 1
        ids.append(f"{base.colour_names[int(c)]}-{counts[int(c)]:02d}")
    return tile_colour, tile_marks, ids


def _random_turntable(base: Components, rng: np.random.Generator) -> np.ndarray:
    # The quarters in clockwise order around the centre, by the angle of their mean position.
    centre = (E.GRID - 1) / 2
    angles = []
    for q in range(E.N_QUARTERS):
        s = base.quarter_spaces(q)
        angles.append(np.arctan2(base.space_col[s].mean() - centre,
                                 -(base.space_row[s].mean() - centre)))
    clockwise = [int(q) for q in np.argsort(angles)]
    # Turning the arrow a side clockwise turns every place a quarter clockwise, whichever sense
    # the places are numbered in.
    sense = 1 if rng.random() < 0.5 else -1
    start = int(rng.integers(4))
    out = np.empty((4, 4), np.int64)
    for side in range(4):
        for k in range(4):
            out[side, k] = clockwise[(start + side + sense * k) % 4]
    return out
