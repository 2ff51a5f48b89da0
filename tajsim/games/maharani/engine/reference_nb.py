"""The rules of Maharani written again for checking, from the rules text and not from the rules
module (``nb.py``): plain loops over spaces and rotations, no bit masks or fit tables.

``expected_legal_nb`` lists the legal actions, ``artisan_options_ref`` the artisan options of R8
option by option, ``bfs_size`` a zone's or group's size by a breadth-first search, ``gold_of``
a seat's gold, ``put_artisan`` an artisan placed or moved on a board. ``invariants_nb`` compares
the rules module's results against them; being written apart, they disagree when it is wrong
(``tests/games/maharani/test_maharani_invariants.py`` breaks a rules helper on purpose).
"""

from __future__ import annotations

from numba import njit

from tajsim.games.maharani.engine.enums import (
    ACTION_ARTISAN,
    ACTION_REFRESH,
    ACTION_STOP,
    ART_MOVE_A,
    ART_MOVE_B,
    ART_NEW_A,
    ART_NEW_B,
    C_N_SPACES,
    C_NEIGH,
    C_SLOT_QUARTER,
    C_SPACE_MARKS,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    C_TILE_MARKS,
    MAX_PLAYERS,
    MAX_SPACES,
    N_PARTS,
    N_QUARTERS,
    N_SLOTS,
    OPT_FREE_REFRESH,
    OPT_TARGET_MARKER,
    PHASE_ARTISAN,
    PHASE_FIRST,
    PHASE_GAME_OVER,
    S_CUR,
    S_FACING,
    S_LAST_SPACE,
    S_MARKER,
    S_N_PLAYERS,
    S_PHASE,
    S_RESERVE,
    S_RULES,
    S_SCORE,
    S_SLOT,
    S_SPACE_ARTISAN,
    S_SPACE_TILE,
)

P = MAX_PLAYERS


@njit(cache=True)
def rotate_marks(marks, turns):
    """Column pattern turned clockwise (edge bit d -> (d + turns) % 4), written as a loop."""
    out = marks & 16
    for d in range(4):
        if (marks >> d) & 1:
            out |= 1 << ((d + turns) % 4)
    return out


@njit(cache=True)
def gold_of(state, p):
    """Seat ``p``'s gold: zones + groups + quarters + second-tile payments (its score parts)."""
    gold = 0
    for part in range(N_PARTS):
        gold += state[S_SCORE + p * N_PARTS + part]
    return gold


@njit(cache=True)
def seat_colour(n_players, p, second):
    """Artisan colour of seat ``p``: one colour each, two each (2p, 2p + 1) with 2 players."""
    if n_players == 2:
        return 2 * p + (1 if second else 0)
    return p


@njit(cache=True)
def same_colour_artisan(state, comp, s, colour):
    """The space of an artisan of ``colour`` on another tile of the colour of the tile on space
    ``s``, in ``s``'s quarter (the one a move takes), or -1."""
    tile_colour = comp[C_TILE_COLOUR + state[S_SPACE_TILE + s]]
    for x in range(comp[C_N_SPACES]):
        if (x != s and state[S_SPACE_ARTISAN + x] == colour
                and comp[C_SPACE_QUARTER + x] == comp[C_SPACE_QUARTER + s]
                and comp[C_TILE_COLOUR + state[S_SPACE_TILE + x]] == tile_colour):
            return x
    return -1


@njit(cache=True)
def artisan_options_ref(state, comp, p, s):
    """The artisan options (bit ``ART_*``) of seat ``p`` for the tile on space ``s``, option by
    option from R8: an artisan of one of its colours already on a tile of that colour in the
    quarter is moved, otherwise a new one comes from the reserve while it has one."""
    n = state[S_N_PLAYERS]
    options = 0
    for second in range(2 if n == 2 else 1):
        colour = seat_colour(n, p, second == 1)
        if same_colour_artisan(state, comp, s, colour) >= 0:
            options |= 1 << (ART_MOVE_B if second else ART_MOVE_A)
        elif state[S_RESERVE + colour] > 0:
            options |= 1 << (ART_NEW_B if second else ART_NEW_A)
    return options


@njit(cache=True)
def put_artisan(board, comp, p, option, s):
    """Place (or move) seat ``p``'s artisan of ``option`` on space ``s`` of ``board`` (only the
    board: tiles and artisans, what ``bfs_size`` reads)."""
    second = option == ART_NEW_B or option == ART_MOVE_B
    colour = seat_colour(board[S_N_PLAYERS], p, second)
    if option == ART_MOVE_A or option == ART_MOVE_B:
        board[S_SPACE_ARTISAN + same_colour_artisan(board, comp, s, colour)] = -1
    board[S_SPACE_ARTISAN + s] = colour


@njit(cache=True)
def expected_legal_nb(state, comp, out):
    """The legal actions by plain loops (``invariants.expected_legal`` compiled)."""
    phase = state[S_PHASE]
    if phase == PHASE_GAME_OVER:
        return 0
    p = state[S_CUR]
    k = 0
    if phase == PHASE_ARTISAN:
        options = artisan_options_ref(state, comp, p, state[S_LAST_SPACE])
        for option in range(4):
            if (options >> option) & 1:
                out[k] = ACTION_ARTISAN + option
                k += 1
        return k
    facing = state[S_FACING]
    target_rule = (state[S_RULES] & OPT_TARGET_MARKER) != 0
    for slot in range(N_SLOTS):
        t = state[S_SLOT + slot]
        if t < 0:
            continue
        q_src = comp[C_SLOT_QUARTER + facing * 4 + slot]
        for s in range(comp[C_N_SPACES]):
            if state[S_SPACE_TILE + s] >= 0:
                continue
            q = comp[C_SPACE_QUARTER + s]
            if q != q_src:
                marker = q if target_rule else q_src
                if state[S_MARKER + p * N_QUARTERS + marker] != 1:
                    continue
            for arrow in range(4):
                if rotate_marks(comp[C_TILE_MARKS + t], arrow) == comp[C_SPACE_MARKS + s]:
                    out[k] = (slot * MAX_SPACES + s) * 4 + arrow
                    k += 1
    if phase == PHASE_FIRST:
        down = False
        for q in range(N_QUARTERS):
            if state[S_MARKER + p * N_QUARTERS + q] == 0:
                down = True
        if k == 0 or down or (state[S_RULES] & OPT_FREE_REFRESH) != 0:
            out[k] = ACTION_REFRESH
            k += 1
    else:
        out[k] = ACTION_STOP
        k += 1
    return k


@njit(cache=True)
def bfs_size(state, comp, start, by_artisan, queue, seen):
    """Size of the zone (tile colour) or group (artisan colour) of space ``start``, by a
    breadth-first search over the neighbour table."""
    n_spaces = comp[C_N_SPACES]
    for s in range(n_spaces):
        seen[s] = 0
    if by_artisan:
        key = state[S_SPACE_ARTISAN + start]
    else:
        key = comp[C_TILE_COLOUR + state[S_SPACE_TILE + start]]
    head = 0
    tail = 1
    queue[0] = start
    seen[start] = 1
    while head < tail:
        s = queue[head]
        head += 1
        for d in range(4):
            t = comp[C_NEIGH + s * 4 + d]
            if t < 0 or seen[t] == 1 or state[S_SPACE_TILE + t] < 0:
                continue
            if by_artisan:
                same = state[S_SPACE_ARTISAN + t] == key
            else:
                same = comp[C_TILE_COLOUR + state[S_SPACE_TILE + t]] == key
            if same:
                seen[t] = 1
                queue[tail] = t
                tail += 1
    return tail
