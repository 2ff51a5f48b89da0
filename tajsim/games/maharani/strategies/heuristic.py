"""The parametric heuristic family and ``greedy``: one compiled policy, behaviour set by weights.

Every decision scores each legal action with a weight vector and takes the best (ties broken
with the seat's policy stream). Weights arrive as ``float64`` parameters and are turned into
fixed-point integers (thousandths) once per decision; every value below is an integer in
thousandths of a gold piece, so a GPU takes exactly the same decisions.

Value of laying a tile (place, space, arrow):

* ``zone`` x the zone gold the tile makes (R7);
* with the arrow at the player, the best artisan option (R8): ``group`` x the group gold; for a
  new artisan also ``artisan`` x the quarter-table step it adds (4, 2, 3, 4, 5, 6 for the 1st..6th
  artisan of a colour), plus ``soon`` x that step x the share of the quarter filled, minus
  ``reserve`` x (empty spaces left in the quarter) / (artisans left in reserve + 1): an artisan
  is locked in its quarter until it is scored;
* completing a quarter: ``complete`` x the player's gold at its scoring minus ``deny`` x the best
  opponent's gold there;
* ``marker`` per action marker turned face down; 2 gold + ``second`` for a second tile;
* ``feed``: minus ``feed`` x (zone size + 1) when the zone made has an empty neighbour and another
  tile of its colour waits on the turntable (the next player can extend it).

Refreshing is worth ``refresh`` x the face-down markers; stopping is worth 0.

**Temperature** (the generic option, ``params[-2]``; :mod:`tajsim.engine.choice`): one unit is
one gold of these values (``TEMPERATURE_SCALE`` thousandths). At 0 the policy takes its best
action as above; above 0 it draws action ``i`` with weight ``EXP_TABLE``-softmax of its gap
to the best, ``exp(-gap / T)`` in integers, from the seat's stream (two passes over the legal
list: the best value, then a weighted reservoir draw, so no value buffer is needed on a GPU).

``greedy`` is the same kernel with fixed weights counting gold won this turn only (zone, group,
the scoring of a quarter completed this turn, the 2 gold of a second tile): it maximises the gold
of each decision. The presets (``presets.toml``) are weight vectors.
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import softmax_weight, temperature_units
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    ACTION_ARTISAN,
    ACTION_REFRESH,
    ACTION_STOP,
    ART_MOVE_A,
    ART_MOVE_B,
    ART_NEW_B,
    C_ALL_SPACES,
    C_NEIGH_MASK,
    C_QUARTER_MASK,
    C_QUARTER_SIZE,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    MAX_SCORED_ARTISANS,
    N_PLACE_ACTIONS,
    N_QUARTERS,
    N_SLOTS,
    PHASE_ARTISAN,
    PHASE_SECOND,
    S_ARTISAN_MASK,
    S_ARTISAN_OPTS,
    S_COLOUR_MASK,
    S_FACING,
    S_FILLED,
    S_LAST_SPACE,
    S_MARKER,
    S_N_PLAYERS,
    S_PENDING,
    S_PHASE,
    S_RESERVE,
    S_SCORED,
    S_SLOT,
    S_SPACE_TILE,
    SECOND_TILE_COST,
)
from tajsim.games.maharani.engine.nb import (
    QUARTER_GOLD_TABLE,
    artisan_options_for,
    bit_index,
    colour_a,
    decode_place,
    flood,
    other_same_colour,
    popcount,
    seat_side,
    slot_quarter,
)
from tajsim.games.maharani.strategies.ids import TEMPERATURE_SCALE

# Weight slots (names in ``WEIGHT_NAMES``; documented in docs/games/maharani/strategies.md).
W_ZONE = 0
W_GROUP = 1
W_ARTISAN = 2
W_SOON = 3
W_RESERVE = 4
W_COMPLETE = 5
W_DENY = 6
W_MARKER = 7
W_REFRESH = 8
W_SECOND = 9
W_FEED = 10
WEIGHT_NAMES = ("zone", "group", "artisan", "soon", "reserve", "complete", "deny", "marker",
                "refresh", "second", "feed")
N_USED_WEIGHTS = len(WEIGHT_NAMES)
# greedy: gold won by this decision, nothing else (documentation; the kernel uses GREEDY_W).
GREEDY_WEIGHTS = {"zone": 1.0, "group": 1.0, "artisan": 0.0, "soon": 0.0, "reserve": 0.0,
                  "complete": 1.0, "deny": 0.0, "marker": 0.0, "refresh": 0.0, "second": 0.0,
                  "feed": 0.0}
GREEDY_W = tuple(int(round(GREEDY_WEIGHTS[k] * 1000)) for k in WEIGHT_NAMES)
NEG_INF = -(1 << 60)
# softmax weights (at most EXP_ONE = 2**22 each) are shifted down by this much before they are
# summed, so that the 966 actions' total stays below the 2**31 of ``below``
SOFTMAX_SHIFT = 2


@kernel
def fixed(x):
    """A weight in thousandths, rounded half away from zero (an exact IEEE operation;
    ``math.floor``: numba-cuda has no ``np.floor`` for scalars)."""
    if x >= 0:
        return np.int64(math.floor(x * 1000.0 + 0.5))
    return -np.int64(math.floor(-x * 1000.0 + 0.5))


@kernel
def weights_of(params, greedy):
    """The 11 weights as a tuple of int64 thousandths."""
    params = borrowed(params)
    if greedy:
        return GREEDY_W
    return (fixed(params[0]), fixed(params[1]), fixed(params[2]), fixed(params[3]),
            fixed(params[4]), fixed(params[5]), fixed(params[6]), fixed(params[7]),
            fixed(params[8]), fixed(params[9]), fixed(params[10]))


@kernel(inline="always")
def option_value(state, comp, p, s, colour, option, completes, wt):
    """Value (thousandths) of artisan ``option`` on space ``s`` (tile of ``colour``), without
    the quarter scoring when the tile completes the quarter (see ``completion_value``)."""
    n = state[S_N_PLAYERS]
    a = colour_a(n, p)
    if option == ART_NEW_B or option == ART_MOVE_B:
        a += 1
    bit = np.int64(1) << s
    mask = state[S_ARTISAN_MASK + a] | bit
    moving = option == ART_MOVE_A or option == ART_MOVE_B
    if moving:
        there = state[S_ARTISAN_MASK + a] & other_same_colour(state, comp, s, colour)
        mask &= ~there
    value = wt[W_GROUP] * popcount(flood(comp, bit, mask))
    if moving or completes:
        return value
    q = comp[C_SPACE_QUARTER + s]
    qmask = comp[C_QUARTER_MASK + q]
    count = popcount(state[S_ARTISAN_MASK + a] & qmask) + 1
    if count > MAX_SCORED_ARTISANS:
        count = MAX_SCORED_ARTISANS
    step = QUARTER_GOLD_TABLE[count] - QUARTER_GOLD_TABLE[count - 1]
    size = comp[C_QUARTER_SIZE + q]
    filled = popcount((state[S_FILLED] | bit) & qmask)
    value += wt[W_ARTISAN] * step + wt[W_SOON] * step * filled // size
    value -= wt[W_RESERVE] * (size - filled) // (state[S_RESERVE + a])  # reserve >= 1 here
    return value


@kernel
def quarter_gold_of(state, comp, p, q, extra_colour):
    """Gold seat ``p`` would get if quarter ``q`` were scored now, with one more artisan of
    colour ``extra_colour`` (-1 none)."""
    n = state[S_N_PLAYERS]
    qmask = comp[C_QUARTER_MASK + q]
    a = colour_a(n, p)
    k = 2 if n == 2 else 1
    gold = 0
    for j in range(k):
        count = popcount(state[S_ARTISAN_MASK + a + j] & qmask)
        if a + j == extra_colour:
            count += 1
        gold += QUARTER_GOLD_TABLE[min(count, MAX_SCORED_ARTISANS)]
    return gold


@kernel
def completion_value(state, comp, p, q, extra_colour, wt):
    """``complete`` x the player's scoring gold - ``deny`` x the best opponent's."""
    n = state[S_N_PLAYERS]
    mine = quarter_gold_of(state, comp, p, q, extra_colour)
    best_other = 0
    for o in range(n):
        if o != p:
            g = quarter_gold_of(state, comp, o, q, np.int64(-1))
            if g > best_other:
                best_other = g
    return wt[W_COMPLETE] * mine - wt[W_DENY] * best_other


@kernel(inline="always")
def new_colour_of(state, p, option):
    """Artisan colour a new-artisan option adds (-1 for a move)."""
    if option == ART_MOVE_A or option == ART_MOVE_B:
        return -1
    a = colour_a(state[S_N_PLAYERS], p)
    return a + 1 if option == ART_NEW_B else a


@kernel(inline="always")
def flood_around(comp, seed, allowed):
    """``flood`` that also returns the union of the region's spaces' neighbours (the flood reads
    each of them anyway; the feed weight asks whether the zone touches an empty space)."""
    region = seed
    around = 0
    frontier = seed
    while frontier != 0:
        low = frontier & -frontier
        frontier ^= low
        neighbours = comp[C_NEIGH_MASK + bit_index(low)]
        around |= neighbours
        grow = neighbours & allowed & ~region
        region |= grow
        frontier |= grow
    return region, around


@kernel(inline="always")
def slot_part(state, comp, slot, wt):
    """What a place action's value needs of its turntable place alone: (the tile's colour, the
    quarter the place faces, whether another tile of that colour waits on the turntable: only
    asked when the ``feed`` weight counts)."""
    colour = comp[C_TILE_COLOUR + state[S_SLOT + slot]]
    waiting = 0
    if wt[W_FEED] != 0:
        for k in range(N_SLOTS):
            other = state[S_SLOT + k]
            if k != slot and other >= 0 and comp[C_TILE_COLOUR + other] == colour:
                waiting = 1
    return colour, slot_quarter(comp, state[S_FACING], slot), waiting


@kernel(inline="always")
def place_common(state, comp, s, colour, q_src, waiting, wt):
    """The part of a place action's value (thousandths) that all its arrow directions share:
    zone, marker, second tile and feed, given its place's ``slot_part``. Returns (that value,
    whether the tile completes its quarter)."""
    q = comp[C_SPACE_QUARTER + s]
    bit = np.int64(1) << s
    zone_mask, around = flood_around(comp, bit, state[S_COLOUR_MASK + colour] | bit)
    zone = popcount(zone_mask)
    value = wt[W_ZONE] * zone
    if q != q_src:
        value -= wt[W_MARKER]
    if state[S_PHASE] == PHASE_SECOND:
        value -= SECOND_TILE_COST * 1000 + wt[W_SECOND]
    qmask = comp[C_QUARTER_MASK + q]
    done = ((state[S_SCORED] | state[S_PENDING]) >> q) & 1
    completes = done == 0 and ((state[S_FILLED] | bit) & qmask) == qmask
    if waiting == 1:
        empty = comp[C_ALL_SPACES] & ~(state[S_FILLED] | bit)
        if around & empty != 0:
            value -= wt[W_FEED] * (zone + 1)
    return value, completes


@kernel(inline="always")
def place_arrow_part(state, comp, p, s, colour, completes, to_player, wt):
    """The part of a place action's value that depends on its arrow: with the arrow at the
    player (``to_player``) the best artisan option with the quarter's scoring when the tile
    completes it, else that scoring alone."""
    q = comp[C_SPACE_QUARTER + s]
    if to_player:
        opts = artisan_options_for(state, comp, p, s, colour)
        best = NEG_INF
        while opts != 0:
            low = opts & -opts
            opts ^= low
            option = bit_index(low)
            v = option_value(state, comp, p, s, colour, option, completes, wt)
            if completes:
                v += completion_value(state, comp, p, q, new_colour_of(state, p, option), wt)
            if v > best:
                best = v
        if best > NEG_INF:
            return best
    if completes:
        return completion_value(state, comp, p, q, np.int64(-1), wt)
    return 0


@kernel
def place_value(state, comp, p, action, wt):
    """Value (thousandths) of place action ``action`` for seat ``p`` (see the module doc)."""
    slot, s, arrow = decode_place(action)
    colour, q_src, waiting = slot_part(state, comp, slot, wt)
    common, completes = place_common(state, comp, s, colour, q_src, waiting, wt)
    to_player = arrow == seat_side(comp, state[S_N_PLAYERS], p)
    return common + place_arrow_part(state, comp, p, s, colour, completes, to_player, wt)


@kernel
def other_action_value(state, comp, p, action, wt):
    """Value (thousandths of gold) of a legal action that lays no tile."""
    state = borrowed(state)
    comp = borrowed(comp)
    if action == ACTION_REFRESH:
        down = 0
        for q in range(N_QUARTERS):
            down += 1 - state[S_MARKER + p * N_QUARTERS + q]
        return wt[W_REFRESH] * down
    if action == ACTION_STOP:
        return 0
    option = action - ACTION_ARTISAN
    if state[S_PHASE] == PHASE_ARTISAN and (state[S_ARTISAN_OPTS] >> option) & 1:
        return artisan_choice_value(state, comp, p, option, wt)
    return NEG_INF


# A place action's value in parts: (slot, space, shared part, colour, completes, arrow-at-player
# part, arrow-elsewhere part, the quarter the slot faces, another tile of the colour waiting),
# the arrow parts NO_PART until computed. The legal list holds a place's spaces, and a space's
# arrow directions, side by side, so a decision computes the place's part once per place, the
# shared part once per (place, space) and each arrow part at most once.
NO_PART = -(1 << 62)
EMPTY_MEMO = (-1, -1, 0, 0, 0, NO_PART, NO_PART, 0, 0)


@kernel(inline="always")
def memo_value(state, comp, p, action, wt, side, memo):
    """(value of ``action`` for seat ``p``, the updated memo): the same integer as
    ``action_value``, reusing the parts of the previous action's (place, space). ``side`` is
    the seat's board side; ``memo`` starts as ``EMPTY_MEMO``."""
    if action >= N_PLACE_ACTIONS:
        return other_action_value(state, comp, p, action, wt), memo
    slot, s, arrow = decode_place(action)
    m_slot, m_s, common, colour, completes, to_me, elsewhere, q_src, waiting = memo
    if slot != m_slot:
        colour, q_src, waiting = slot_part(state, comp, slot, wt)
    if slot != m_slot or s != m_s:
        common, done = place_common(state, comp, s, colour, q_src, waiting, wt)
        completes = 1 if done else 0
        to_me = NO_PART
        elsewhere = NO_PART
    if arrow == side:
        if to_me == NO_PART:
            to_me = place_arrow_part(state, comp, p, s, colour, completes == 1, True, wt)
        part = to_me
    else:
        if elsewhere == NO_PART:
            # place_arrow_part(..., False) without inlining its artisan options a second time:
            # the quarter's scoring alone
            elsewhere = 0
            if completes == 1:
                elsewhere = completion_value(state, comp, p, comp[C_SPACE_QUARTER + s],
                                             np.int64(-1), wt)
        part = elsewhere
    return common + part, (slot, s, common, colour, completes, to_me, elsewhere, q_src, waiting)


@kernel
def artisan_choice_value(state, comp, p, option, wt):
    """Value of a 2-player artisan option for the tile just laid (PHASE_ARTISAN); the tile is on
    the board already, which ``option_value`` allows for."""
    state = borrowed(state)
    comp = borrowed(comp)
    s = state[S_LAST_SPACE]
    colour = comp[C_TILE_COLOUR + state[S_SPACE_TILE + s]]
    q = comp[C_SPACE_QUARTER + s]
    completes = ((state[S_PENDING] >> q) & 1) == 1
    value = option_value(state, comp, p, s, colour, option, completes, wt)
    if completes:
        value += completion_value(state, comp, p, q, new_colour_of(state, p, option), wt)
    return value


@kernel
def action_value(state, comp, p, action, wt):
    """Value (thousandths of gold) of any legal ``action`` for seat ``p`` (module doc)."""
    if action < N_PLACE_ACTIONS:
        return place_value(state, comp, p, action, wt)
    return other_action_value(state, comp, p, action, wt)


@kernel
def weighted_policy_nb(state, comp, player, params, prng, legal, n_legal, greedy):
    """Best of ``legal[:n_legal]`` by the weighted value (module doc); ties broken uniformly
    with ``prng[player]``.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]
    params : float64[N_PARAMS], weights in the first slots (``WEIGHT_NAMES``); ignored when
        ``greedy``
    prng : int64[MAX_PLAYERS]; legal : int64[>= n_legal]
    greedy : bool, use the fixed greedy weights (the temperature, the last but one slot of
        ``params``, is read all the same)
    """
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    return weighted_choice_nb(state, comp, player, weights_of(params, greedy), prng, legal,
                              n_legal, temperature_units(params, TEMPERATURE_SCALE))


@kernel
def weighted_choice_nb(state, comp, player, wt, prng, legal, n_legal, t_units):
    """``weighted_policy_nb`` with the weights already in thousandths (``weights_of``) and the
    temperature in thousandths of gold (``t_units``, 0: the best action): a search converts its
    rollout weights once, not at every decision."""
    state = borrowed(state)
    comp = borrowed(comp)
    prng = borrowed(prng)
    legal = borrowed(legal)
    if t_units > 0:  # ``n_legal < 0``: False, but not a literal (see value_scan)
        return value_scan(state, comp, player, wt, prng, legal, n_legal, t_units, legal,
                          n_legal < 0)
    side = seat_side(comp, state[S_N_PLAYERS], player)
    memo = EMPTY_MEMO
    best = legal[0]
    best_value = NEG_INF
    ties = 0
    for i in range(n_legal):
        action = legal[i]
        v, memo = memo_value(state, comp, player, action, wt, side, memo)
        best_value, best, ties = keep_best(prng, player, v, action, best_value, best, ties)
    return best


@kernel
def value_scan(state, comp, player, wt, prng, legal, n_legal, t_units, values, store):
    """The heuristic's loop over ``legal[:n_legal]`` for what is not the plain best action
    (``weighted_choice_nb``'s own loop): with ``store``, each action's value into
    ``values[:n_legal]``, returning -1 (a search's candidates); else the softmax draw at
    temperature ``t_units`` > 0 in two passes, the best value, then a weighted reservoir draw
    (``softmax_draw``), ``values`` unused.

    One loop for both, so that the heuristic and the search have two call sites of
    ``memo_value`` (this one and ``weighted_choice_nb``'s) where they had four: numba types an
    inlined call site anew and LLVM optimises it anew, and those copies were most of a search's
    cold compile (``learned`` has its own, compiled only for line-ups that play it).

    Parameters
    ----------
    wt : the 11 weights in thousandths (``weights_of``); t_units : int, the temperature
    prng : int64[MAX_PLAYERS], only ``prng[player]`` advances (not when ``store``)
    legal : int64[>= n_legal]; values : int64[>= n_legal] when ``store`` (any int64 array else)
    store : bool; pass it (and ``t_units``) as non-literals: numba compiles a kernel anew for
        each literal argument value
    """
    state = borrowed(state)
    comp = borrowed(comp)
    prng = borrowed(prng)
    legal = borrowed(legal)
    values = borrowed(values)
    side = seat_side(comp, state[S_N_PLAYERS], player)
    memo = EMPTY_MEMO
    chosen = legal[0]
    best_value = NEG_INF
    total = np.int64(0)
    n_steps = n_legal if store else 2 * n_legal
    for j in range(n_steps):
        second = j >= n_legal
        i = j - n_legal if second else j
        action = legal[i]
        v, memo = memo_value(state, comp, player, action, wt, side, memo)
        if store:
            values[i] = v
        elif not second:
            if v > best_value:
                best_value = v
        else:
            total, chosen = softmax_draw(prng, player, best_value - v, t_units, action, total,
                                         chosen)
    return -1 if store else chosen


@kernel(inline="always")
def keep_best(prng, player, value, choice, best_value, best, ties):
    """One step of the decision loop: (best_value, best, ties) after ``choice`` of ``value``,
    where ``best`` is the choice so far of ``best_value`` and ``ties`` how many choices share
    that value. A higher value takes over; an equal one takes over with probability 1 / ties,
    drawn from ``prng[player]`` (a uniform choice among the equal best, one draw a tie)."""
    if value > best_value:
        return value, choice, 1
    if value == best_value:
        ties += 1
        if below(prng, player, ties) == 0:
            return best_value, choice, ties
    return best_value, best, ties


@kernel(inline="always")
def softmax_draw(prng, player, below_best, t_units, choice, total, chosen):
    """One step of the weighted reservoir draw: (total, chosen) after ``choice``, whose value
    is ``below_best`` under the best, weighs ``softmax_weight(below_best, t_units)`` (shifted
    down by ``SOFTMAX_SHIFT``; ``total`` the weights so far). A positive weight ``w`` takes
    over with probability ``w / total``, one draw from ``prng[player]``."""
    w = softmax_weight(below_best, t_units) >> SOFTMAX_SHIFT
    if w > 0:
        total += w
        if below(prng, player, total) < w:
            chosen = choice
    return total, chosen
