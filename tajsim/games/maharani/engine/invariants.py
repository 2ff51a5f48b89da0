"""Invariants, an independent reference of the legal actions, and the hidden-information redraw.

* :func:`check_state`: every invariant of one state vector; ``AssertionError`` naming the one
  broken (plain ``if``/``raise``, so it runs under ``python -O``).
* :func:`expected_legal`: the legal actions computed slowly in pure Python from the per-space
  and per-tile blocks (no bit masks, no kernel helpers), to compare with ``legal_actions_nb``.
* :func:`redraw_hidden`: a copy of a state with everything a seat cannot see redrawn.
* :func:`zones_by_flood_fill` / :func:`groups_by_flood_fill`: breadth-first flood fills over the
  grid, independent of the kernels' bit-mask fills (the property tests compare them).
* :func:`check_step`: what one action may change (gold, the space, flood-filled zone and group
  gold); the conformance suite (``tajsim.play.conformance.check_kernel_game``) runs all of these
  at every step of a game.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from tajsim.engine.compensation import CODE_MASK as COMPENSATION_MASK
from tajsim.engine.compensation import drawn_range
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import rotate_pattern

__all__ = [
    "check_legal_list",
    "check_state",
    "check_step",
    "expected_legal",
    "groups_by_flood_fill",
    "hidden_slots",
    "redraw_hidden",
    "zones_by_flood_fill",
]

P = E.MAX_PLAYERS
# The seat-compensation variant's amounts ride in the rules code's high bits.
KNOWN_OPTIONS = E.OPT_FREE_REFRESH | E.OPT_TARGET_MARKER | E.OPT_ROUND_END | COMPENSATION_MASK


def _require(cond: object, what: str, where: str = "") -> None:
    if not cond:
        raise AssertionError(f"{where}: {what}" if where else what)


def _owner(n: int, a: int) -> int:
    return a // 2 if n == 2 else a


def _seat_colours(n: int, p: int) -> list[int]:
    return [2 * p, 2 * p + 1] if n == 2 else [p]


def _neighbours(comp: np.ndarray, s: int) -> list[int]:
    out = []
    for d in range(4):
        t = int(comp[E.C_NEIGH + s * 4 + d])
        if t >= 0:
            out.append(t)
    return out


def _bfs(comp: np.ndarray, start: int, member) -> set[int]:
    seen = {start}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        for t in _neighbours(comp, s):
            if t not in seen and member(t):
                seen.add(t)
                todo.append(t)
    return seen


def zones_by_flood_fill(state: np.ndarray, comp: np.ndarray) -> dict[int, int]:
    """Size of the zone (same-colour tiles connected by edges) of every laid tile, by space."""
    n_spaces = int(comp[E.C_N_SPACES])
    colour = {s: int(comp[E.C_TILE_COLOUR + int(state[E.S_SPACE_TILE + s])])
              for s in range(n_spaces) if state[E.S_SPACE_TILE + s] >= 0}
    return {s: len(_bfs(comp, s, lambda t, c=c: colour.get(t) == c)) for s, c in colour.items()}


def groups_by_flood_fill(state: np.ndarray, comp: np.ndarray) -> dict[int, int]:
    """Size of the group (same artisan colour, on edge-adjacent tiles) of every artisan."""
    n_spaces = int(comp[E.C_N_SPACES])
    art = {s: int(state[E.S_SPACE_ARTISAN + s]) for s in range(n_spaces)
           if state[E.S_SPACE_ARTISAN + s] >= 0}
    return {s: len(_bfs(comp, s, lambda t, a=a: art.get(t) == a)) for s, a in art.items()}


def check_state(state: np.ndarray, comp: np.ndarray, where: str = "") -> None:
    """Every invariant a reachable state satisfies.

    * the array is ``int64[STATE_SIZE]``; player count 2-4; a known rules code; phase, seat,
      turntable direction (the seat's side) and the tiles laid this turn agree;
    * tiles are conserved: each tile has exactly one location (bag, turntable place, board,
      out of play), the bag slice holds exactly the bag tiles (the rest of the block -1), the
      turntable and board blocks agree with the locations; only central tiles leave play, and
      only once the central spaces are full; the turntable is full at the start of a turn
      unless the bag is empty, and no central tile waits on it once they leave play;
    * every laid tile covers exactly its space's column marks with its arrow as recorded (R6b);
    * the bit masks (filled spaces, colours, artisans) match the per-space blocks;
    * artisans: only on laid tiles, never in a scored quarter; reserve + board = the colour's
      artisans (7/10/8); absent seats' colours hold none; never two artisans of one colour on
      tiles of one colour in one quarter (the rules' "Important" case cannot arise);
    * markers are 0/1, absent seats' 0;
    * gold: zones >= tiles laid, groups >= artisans placed and moved, quarter gold = the sum of
      the seat's recorded quarter scorings (3-4 players: the table value of its artisans),
      second-tile part = -2 per second tile, the gold made on spaces = zones + groups; no score
      is negative;
    * quarters: a full quarter is pending (this turn) or scored; a scored quarter has its turn;
      ``completed_by`` matches the seats' counts; pending quarters are full;
    * game over: every quarter scored, an end reason, ranks and winners from the scores.
    """
    w = where
    _require(state.dtype == np.int64 and state.shape == (E.STATE_SIZE,),
             f"state is not int64[{E.STATE_SIZE}] (got {state.dtype}{state.shape})", w)
    st = [int(x) for x in state]
    n = st[E.S_N_PLAYERS]
    _require(E.MIN_PLAYERS <= n <= E.MAX_PLAYERS, f"bad player count {n}", w)
    rules = st[E.S_RULES]
    _require(rules & E.EDITION_MASK == 0 and rules & ~(E.EDITION_MASK | KNOWN_OPTIONS) == 0,
             f"bad rules code {rules}", w)
    phase = st[E.S_PHASE]
    over = phase == E.PHASE_GAME_OVER
    _require(0 <= phase <= E.PHASE_GAME_OVER, f"bad phase {phase}", w)
    n_spaces = int(comp[E.C_N_SPACES])
    n_tiles = int(comp[E.C_N_TILES])
    tiles_now = st[E.S_TILES_THIS_TURN]
    if over:
        _require(st[E.S_CUR] == -1, "current seat set after the game", w)
        _require(st[E.S_END_REASON] in (E.END_COMPLETE, E.END_STUCK, E.END_STALLED,
                                         E.END_ROUND),
                 f"game over with end reason {st[E.S_END_REASON]}", w)
        if st[E.S_END_REASON] == E.END_ROUND:  # V1: only with the option, bag empty, round over
            _require(bool(rules & E.OPT_ROUND_END) and st[E.S_BAG_N] == 0
                     and (st[E.S_TURN] + 1) % n == 0,
                     f"round end with the bag at {st[E.S_BAG_N]} after turn {st[E.S_TURN]}", w)
        _require(st[E.S_SCORED] == 15, "game over with a quarter never scored", w)
    else:
        cur = st[E.S_CUR]
        _require(0 <= cur < n, f"bad current seat {cur}", w)
        _require(st[E.S_END_REASON] == E.END_NONE, "end reason set while playing", w)
        side = int(comp[E.C_SEAT_SIDE + n * P + cur])
        _require(st[E.S_FACING] == side, f"turntable points {st[E.S_FACING]}, seat {cur} sits "
                 f"at {side}", w)
        expected_tiles = {E.PHASE_FIRST: (0,), E.PHASE_SECOND: (1,), E.PHASE_ARTISAN: (1, 2)}
        _require(tiles_now in expected_tiles[phase],
                 f"{tiles_now} tiles laid this turn in phase {E.PHASE_NAMES[phase]}", w)
        if phase == E.PHASE_ARTISAN:
            _require(n == 2, "artisan decision outside a 2-player game", w)
            opts = st[E.S_ARTISAN_OPTS]
            _require(bin(opts).count("1") >= 2 and opts < 16, f"artisan options {opts}", w)
            last = st[E.S_LAST_SPACE]
            _require(0 <= last < n_spaces and st[E.S_SPACE_TILE + last] >= 0,
                     f"artisan decision without a laid tile (space {last})", w)
            _require(st[E.S_SPACE_ARROW + last] == side, "artisan decision for a tile whose "
                     "arrow does not point at the seat", w)
        else:
            _require(st[E.S_ARTISAN_OPTS] == 0, "artisan options outside the artisan phase", w)

    # --- tiles ------------------------------------------------------------------------------
    loc = st[E.S_TILE_LOC:E.S_TILE_LOC + E.MAX_TILES]
    bag_n = st[E.S_BAG_N]
    _require(0 <= bag_n <= n_tiles, f"bag count {bag_n}", w)
    bag = st[E.S_BAG:E.S_BAG + bag_n]
    _require(all(x == -1 for x in st[E.S_BAG + bag_n:E.S_BAG + E.MAX_TILES]),
             "stale tile ids after the bag slice", w)
    in_bag = sorted(t for t in range(n_tiles) if loc[t] == E.LOC_BAG)
    _require(sorted(bag) == in_bag, f"bag slice {sorted(bag)} != bag tiles {in_bag}", w)
    counts = {"bag": 0, "slot": 0, "board": 0, "removed": 0}
    central_out = st[E.S_CENTRAL_OUT]
    for t in range(E.MAX_TILES):
        if t >= n_tiles:
            _require(loc[t] == E.LOC_REMOVED and st[E.S_TILE_SPACE + t] == -1,
                     f"tile {t} beyond the tile table is in play", w)
            continue
        kind = int(comp[E.C_TILE_KIND + t])
        if loc[t] == E.LOC_BAG:
            counts["bag"] += 1
        elif loc[t] == E.LOC_REMOVED:
            counts["removed"] += 1
            _require(kind == E.KIND.CENTRAL and central_out,
                     f"tile {t} out of play (kind {kind}, central out {central_out})", w)
        elif loc[t] == E.LOC_BOARD:
            counts["board"] += 1
            s = st[E.S_TILE_SPACE + t]
            _require(0 <= s < n_spaces and st[E.S_SPACE_TILE + s] == t,
                     f"tile {t} on the board at space {s} which holds another", w)
        elif E.LOC_SLOT <= loc[t] < E.LOC_SLOT + E.N_SLOTS:
            counts["slot"] += 1
            _require(st[E.S_SLOT + loc[t] - E.LOC_SLOT] == t, f"tile {t} not on its place", w)
        else:
            raise AssertionError(f"{w}: tile {t} has location {loc[t]}")
        if loc[t] != E.LOC_BOARD:
            _require(st[E.S_TILE_SPACE + t] == -1, f"tile {t} off the board has a space", w)
    _require(sum(counts.values()) == n_tiles, f"tiles not conserved: {counts}", w)
    _require(counts["removed"] == st[E.S_N_REMOVED], "removed count", w)
    for k in range(E.N_SLOTS):
        t = st[E.S_SLOT + k]
        _require(t == -1 or (0 <= t < n_tiles and loc[t] == E.LOC_SLOT + k),
                 f"turntable place {k} holds {t}", w)
    empty_slots = sum(1 for k in range(E.N_SLOTS) if st[E.S_SLOT + k] < 0)
    if not over and bag_n > 0:
        _require(empty_slots == tiles_now, f"{empty_slots} empty turntable places with "
                 f"{tiles_now} tiles laid and {bag_n} in the bag", w)
    if not over and tiles_now == 0 and central_out:
        _require(all(st[E.S_SLOT + k] < 0
                     or int(comp[E.C_TILE_KIND + st[E.S_SLOT + k]]) != E.KIND.CENTRAL
                     for k in range(E.N_SLOTS)), "central tile on the turntable after the "
                 "central spaces filled", w)
    central_mask = int(comp[E.C_CENTRAL_MASK])
    filled_central = all(st[E.S_SPACE_TILE + s] >= 0 for s in range(n_spaces)
                         if central_mask >> s & 1)
    _require(not central_out or filled_central, "central tiles out with a central space free",
             w)
    # --- board --------------------------------------------------------------------------------
    for s in range(E.MAX_SPACES):
        t = st[E.S_SPACE_TILE + s]
        if s >= n_spaces:
            _require(t == -1 and st[E.S_SPACE_ARTISAN + s] == -1, f"space {s} off the board "
                     "used", w)
            continue
        if t < 0:
            _require(st[E.S_SPACE_ARROW + s] == -1 and st[E.S_SPACE_ARTISAN + s] == -1
                     and st[E.S_SPACE_BY + s] == -1 and st[E.S_SPACE_GOLD + s] == 0,
                     f"empty space {s} has an arrow, artisan, layer or gold", w)
            continue
        _require(loc[t] == E.LOC_BOARD and st[E.S_TILE_SPACE + t] == s,
                 f"space {s} holds tile {t} located elsewhere", w)
        arrow = st[E.S_SPACE_ARROW + s]
        _require(0 <= arrow < 4 and rotate_pattern(int(comp[E.C_TILE_MARKS + t]), arrow)
                 == int(comp[E.C_SPACE_MARKS + s]), f"tile {t} on space {s} with arrow {arrow} "
                 "does not cover the space's columns", w)
        _require(0 <= st[E.S_SPACE_BY + s] < n, f"space {s} laid by {st[E.S_SPACE_BY + s]}",
                 w)
    masks = state.copy()
    nb.rebuild_masks_nb(masks, comp)
    for name, lo, size in (("filled", E.S_FILLED, 1), ("colour", E.S_COLOUR_MASK, E.N_COLOURS),
                           ("artisan", E.S_ARTISAN_MASK, E.N_ARTISAN_COLOURS)):
        _require(np.array_equal(masks[lo:lo + size], state[lo:lo + size]),
                 f"{name} masks do not match the board", w)
    # --- artisans -----------------------------------------------------------------------------
    scored = st[E.S_SCORED]
    total = E.ARTISANS_PER_COLOUR[n]
    for a in range(E.N_ARTISAN_COLOURS):
        on_board = [s for s in range(n_spaces) if st[E.S_SPACE_ARTISAN + s] == a]
        if _owner(n, a) >= n:
            _require(not on_board and st[E.S_RESERVE + a] == 0,
                     f"artisan colour {a} of an absent seat in play", w)
            continue
        _require(st[E.S_RESERVE + a] >= 0 and st[E.S_RESERVE + a] + len(on_board) == total,
                 f"artisan colour {a}: reserve {st[E.S_RESERVE + a]} + board {len(on_board)} "
                 f"!= {total}", w)
        seen: set[tuple[int, int]] = set()
        for s in on_board:
            q = int(comp[E.C_SPACE_QUARTER + s])
            _require(not scored >> q & 1, f"artisan on space {s} of scored quarter {q}", w)
            key = (q, int(comp[E.C_TILE_COLOUR + st[E.S_SPACE_TILE + s]]))
            _require(key not in seen, f"two artisans of colour {a} on {key[1]}-coloured tiles "
                     f"in quarter {q}", w)
            seen.add(key)
    for p in range(P):
        for q in range(E.N_QUARTERS):
            m = st[E.S_MARKER + p * E.N_QUARTERS + q]
            _require(m in (0, 1) and (p < n or m == 0), f"marker of seat {p} quarter {q} = {m}",
                     w)
    # --- gold -----------------------------------------------------------------------------------
    space_gold = sum(st[E.S_SPACE_GOLD + s] for s in range(n_spaces))
    made = 0
    for p in range(P):
        base = E.S_SCORE + p * E.N_PARTS
        zones, groups, quarters, second = (st[base + k] for k in range(E.N_PARTS))
        if p >= n:
            _require(zones == groups == quarters == second == 0, f"gold of absent seat {p}", w)
            continue
        made += zones + groups
        laid = sum(1 for s in range(n_spaces) if st[E.S_SPACE_BY + s] == p)
        _require(st[E.S_TILES_PLACED + p] == laid, f"seat {p}: {st[E.S_TILES_PLACED + p]} "
                 f"tiles counted, {laid} on the board", w)
        _require(zones >= laid, f"seat {p}: zone gold {zones} < tiles laid {laid}", w)
        by_colour = st[E.S_ZONE_BY_COLOUR + p * E.N_COLOURS:E.S_ZONE_BY_COLOUR
                       + (p + 1) * E.N_COLOURS]
        _require(sum(by_colour) == zones and min(by_colour) >= 0,
                 f"seat {p}: zone gold by colour {by_colour} does not add up to {zones}", w)
        _require(groups >= st[E.S_ARTISANS_NEW + p] + st[E.S_ARTISANS_MOVED + p],
                 f"seat {p}: group gold {groups} < artisans placed and moved", w)
        recorded = sum(st[E.S_Q_GOLD + q * P + p] for q in range(E.N_QUARTERS))
        low, high = drawn_range(rules, p)  # the seat's compensation (a variant), 0 by default
        _require(recorded + low <= quarters <= recorded + high, f"seat {p}: quarter gold "
                 f"{quarters} != recorded {recorded} + compensation {low} to {high}", w)
        if n > 2:
            for q in range(E.N_QUARTERS):
                k = st[E.S_Q_ARTISANS + q * P + p]
                _require(st[E.S_Q_GOLD + q * P + p] == E.QUARTER_GOLD[min(k, 6)],
                         f"seat {p} quarter {q}: {k} artisans but {st[E.S_Q_GOLD + q * P + p]} "
                         "gold", w)
        _require(second == -E.SECOND_TILE_COST * st[E.S_SECOND_BOUGHT + p],
                 f"seat {p}: second-tile part {second} for {st[E.S_SECOND_BOUGHT + p]} tiles", w)
        _require(zones + groups + quarters + second >= 0, f"seat {p} has negative gold", w)
        _require(st[E.S_COMPLETED + p] == sum(
            1 for q in range(E.N_QUARTERS) if st[E.S_Q_COMPLETED_BY + q] == p),
            f"seat {p}: completed count", w)
    _require(made == space_gold, f"gold made on spaces {space_gold} != zones + groups {made}", w)
    # --- quarters -----------------------------------------------------------------------------
    pending = st[E.S_PENDING]
    for q in range(E.N_QUARTERS):
        spaces = [s for s in range(n_spaces) if int(comp[E.C_SPACE_QUARTER + s]) == q]
        full = all(st[E.S_SPACE_TILE + s] >= 0 for s in spaces)
        is_scored, is_pending = bool(scored >> q & 1), bool(pending >> q & 1)
        _require(not (is_scored and is_pending), f"quarter {q} scored and pending", w)
        if full and not over:
            _require(is_scored or is_pending, f"full quarter {q} neither scored nor pending", w)
        if is_pending:
            _require(full and st[E.S_Q_COMPLETED_BY + q] >= 0 and tiles_now > 0,
                     f"pending quarter {q}", w)
        _require(is_scored == (st[E.S_Q_SCORED_TURN + q] >= 0), f"quarter {q} scoring turn", w)
        if st[E.S_Q_COMPLETED_BY + q] >= 0:
            _require(full, f"quarter {q} completed but not full", w)
    # --- the end --------------------------------------------------------------------------------
    if over:
        scores = [sum(st[E.S_SCORE + p * E.N_PARTS + k] for k in range(E.N_PARTS))
                  for p in range(n)]
        for p in range(n):
            rank = 1 + sum(1 for o in range(n) if scores[o] > scores[p])
            _require(st[E.S_RANK + p] == rank, f"seat {p} rank {st[E.S_RANK + p]} != {rank}", w)
            _require(st[E.S_WINNER + p] == (1 if rank == 1 else 0), f"seat {p} winner flag", w)
    else:
        _require(all(st[E.S_RANK + p] == 0 and st[E.S_WINNER + p] == 0 for p in range(P)),
                 "ranks set while playing", w)


def expected_legal(state: np.ndarray, comp: np.ndarray) -> list[int]:
    """The legal actions, computed independently of ``legal_actions_nb`` (plain loops over the
    spaces and the four rotations; no masks, no kernel helpers), in the kernel's order."""
    st = [int(x) for x in state]
    phase = st[E.S_PHASE]
    if phase == E.PHASE_GAME_OVER:
        return []
    n = st[E.S_N_PLAYERS]
    p = st[E.S_CUR]
    if phase == E.PHASE_ARTISAN:
        s = st[E.S_LAST_SPACE]
        q = int(comp[E.C_SPACE_QUARTER + s])
        colour = int(comp[E.C_TILE_COLOUR + st[E.S_SPACE_TILE + s]])
        mine = _seat_colours(n, p)
        on_same = {}
        for x in range(int(comp[E.C_N_SPACES])):
            a = st[E.S_SPACE_ARTISAN + x]
            if (x != s and a in mine and int(comp[E.C_SPACE_QUARTER + x]) == q
                    and st[E.S_SPACE_TILE + x] >= 0
                    and int(comp[E.C_TILE_COLOUR + st[E.S_SPACE_TILE + x]]) == colour):
                on_same[a] = x
        a_col, b_col = mine
        reserve_a, reserve_b = st[E.S_RESERVE + a_col], st[E.S_RESERVE + b_col]
        if a_col in on_same and b_col in on_same:
            options = [E.ART_MOVE_A, E.ART_MOVE_B]
        elif a_col in on_same:
            options = [E.ART_MOVE_A] + ([E.ART_NEW_B] if reserve_b > 0 else [])
        elif b_col in on_same:
            options = [E.ART_MOVE_B] + ([E.ART_NEW_A] if reserve_a > 0 else [])
        else:
            options = ([E.ART_NEW_A] if reserve_a > 0 else []) + (
                [E.ART_NEW_B] if reserve_b > 0 else [])
        return sorted(E.ACTION_ARTISAN + k for k in options)
    facing = st[E.S_FACING]
    target_rule = bool(st[E.S_RULES] & E.OPT_TARGET_MARKER)
    out = []
    for slot in range(E.N_SLOTS):
        t = st[E.S_SLOT + slot]
        if t < 0:
            continue
        q_src = int(comp[E.C_SLOT_QUARTER + facing * 4 + slot])
        tmarks = int(comp[E.C_TILE_MARKS + t])
        for s in range(int(comp[E.C_N_SPACES])):
            if st[E.S_SPACE_TILE + s] >= 0:
                continue
            q = int(comp[E.C_SPACE_QUARTER + s])
            if q != q_src:
                marker = q if target_rule else q_src
                if st[E.S_MARKER + p * E.N_QUARTERS + marker] != 1:
                    continue
            for arrow in range(4):
                if rotate_pattern(tmarks, arrow) == int(comp[E.C_SPACE_MARKS + s]):
                    out.append((slot * E.MAX_SPACES + s) * 4 + arrow)
    if phase == E.PHASE_FIRST:
        down = any(st[E.S_MARKER + p * E.N_QUARTERS + q] == 0 for q in range(E.N_QUARTERS))
        if not out or down or st[E.S_RULES] & E.OPT_FREE_REFRESH:
            out.append(E.ACTION_REFRESH)
    else:
        out.append(E.ACTION_STOP)
    return out


def check_legal_list(state: np.ndarray, comp: np.ndarray, legal, where: str = "") -> None:
    """The kernel's legal list equals :func:`expected_legal` (same actions, same order)."""
    want = expected_legal(state, comp)
    got = [int(a) for a in legal]
    if got != want:
        extra = sorted(set(got) - set(want))[:5]
        missing = sorted(set(want) - set(got))[:5]
        raise AssertionError(f"{where}: legal list differs from the rules: extra {extra}, "
                             f"missing {missing} (phase {E.PHASE_NAMES[int(state[E.S_PHASE])]})")


def hidden_slots(state: np.ndarray) -> slice:
    """The bag slice (its order is hidden from every seat)."""
    return slice(E.S_BAG, E.S_BAG + int(state[E.S_BAG_N]))


def redraw_hidden(state: np.ndarray, comp: np.ndarray, player: int,
                  rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with everything ``player`` cannot see redrawn consistently: the bag
    order (the tiles in the bag stay the same set), the chance stream and both seeds. The bag
    order is hidden from every seat, so ``player`` only says whose view is kept."""
    out = state.copy()
    sl = hidden_slots(state)
    out[sl] = rng.permutation(state[sl])
    out[E.S_RNG] = int(rng.integers(1, 2**62))
    out[E.S_SETUP_SEED] = int(rng.integers(1, 2**62))
    out[E.S_PLAY_SEED] = int(rng.integers(1, 2**62))
    return out


def check_step(before: np.ndarray, action: int, after: np.ndarray, comp: np.ndarray,
               where: str = "", flood_check: bool = True) -> None:
    """What one action may change (``GameSpec.check_step``): no seat loses gold except the
    mover's 2 gold for a second tile; a tile goes on an empty space; the zone gold of the tile
    and the group gold of an artisan equal breadth-first flood fills (``flood_check``)."""
    n = int(before[E.S_N_PLAYERS])
    p = int(before[E.S_CUR])
    for o in range(n):
        gained = sum(int(after[E.S_SCORE + o * E.N_PARTS + k]) - int(
            before[E.S_SCORE + o * E.N_PARTS + k]) for k in range(3))
        _require(gained >= 0, f"seat {o} lost gold outside the second-tile payment", where)
        paid = int(after[E.S_SCORE + o * E.N_PARTS + E.PART_SECOND]) - int(
            before[E.S_SCORE + o * E.N_PARTS + E.PART_SECOND])
        _require(paid in (0, -E.SECOND_TILE_COST) and (paid == 0 or o == p),
                 f"seat {o} second-tile payment {paid}", where)
    if not flood_check:
        return
    mid = before.copy()
    if action < E.N_PLACE_ACTIONS:
        slot, s, _ = (int(x) for x in nb.decode_place(action))
        _require(before[E.S_SPACE_TILE + s] == -1, f"tile laid on occupied space {s}", where)
        nb.lay_tile(mid, comp, p, action)
        zones = zones_by_flood_fill(mid, comp)
        got = int(mid[E.S_SCORE + p * E.N_PARTS + E.PART_ZONES]) - int(
            before[E.S_SCORE + p * E.N_PARTS + E.PART_ZONES])
        _require(got == zones[s], f"zone gold {got} != flood fill {zones[s]} at space {s}",
                 where)
    elif E.ACTION_ARTISAN <= action < E.N_ACTIONS:
        s = int(before[E.S_LAST_SPACE])
        nb.apply_artisan(mid, comp, p, action - E.ACTION_ARTISAN, s)
    else:
        return
    g = int(mid[E.S_SCORE + p * E.N_PARTS + E.PART_GROUPS]) - int(
        before[E.S_SCORE + p * E.N_PARTS + E.PART_GROUPS])
    if g:
        groups = groups_by_flood_fill(mid, comp)
        _require(g == groups[s], f"group gold {g} != flood fill {groups[s]} at space {s}", where)
