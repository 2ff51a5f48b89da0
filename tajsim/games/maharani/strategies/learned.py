"""``learned``: a linear policy over per-action features, fitted by ``tajsim train`` to imitate
``mcts`` (expert iteration; :mod:`tajsim.engine.learned`, ``docs/games/maharani/strategies.md``,
"Learned policy").

The policy scores an action ``a`` as ``VALUE_PRIOR x value(a) + theta . phi(state, a)`` (a
fixed prior on the heuristic's value, see ``VALUE_PRIOR``). The first feature is
``balanced``'s own value of the action (the heuristic's decision loop, with the base weights in
``params[:N_WEIGHTS]``), the second whether the action is one of the ``N_CANDIDATES`` best by
that value (mcts's candidates: its tree never looks at the others), the rest cheap facts of the
action a strong player weighs (``FEATURE_NAMES``, ``FEATURE_DOCS``).

**Which actions it weighs.** Like the search it imitates, the policy chooses among the
candidates only: a first pass over the legal list is ``balanced``'s own decision loop (its
choice and its tie draws from the seat's stream) keeping the six best actions by value; a
second scores those and ``balanced``'s choice and takes the best score (a tie goes to
``balanced``'s choice, then to the earlier action). So theta = (1, 0, ..., 0) takes
``balanced``'s action with ``balanced``'s draws (the same records at temperature 0), any theta
costs one heuristic pass plus seven feature rows, and the trainer's matrix
(:func:`learned_features_nb`, every legal action) says which rows were candidates. Above
temperature 0 a candidate is drawn with the heuristic's integer softmax of the scores in
thousandths of gold (one unit of temperature = one gold); this is not ``balanced``'s
softmax, which spans every action.

Every feature is an integer in thousandths (of gold, or of a unit for a count or a flag), and
theta is rounded to millionths once per decision, so a score is an exact integer (1e-9 gold)
on the CPU and the GPU alike (no fused multiply-add can change a decision), and a decision
needs no scratch. :func:`tajsim.engine.learned.linear_choice` is not used: its first-of-equal
rule and its feature matrix would not replay ``balanced``'s stream draws.

Everything read is public (the bag's size, not its order): the features of two states that
differ only in hidden facts are equal (``tests/games/maharani/test_learned_maharani.py``).
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import temperature_units
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    ACTION_REFRESH,
    C_ALL_SPACES,
    C_N_TILES,
    C_QUARTER_MASK,
    C_QUARTER_SIZE,
    C_SPACE_QUARTER,
    C_TILE_COLOUR,
    N_PLACE_ACTIONS,
    N_QUARTERS,
    N_SLOTS,
    PHASE_SECOND,
    S_BAG_N,
    S_COLOUR_MASK,
    S_FACING,
    S_FILLED,
    S_MARKER,
    S_N_PLAYERS,
    S_PENDING,
    S_PHASE,
    S_SCORED,
    S_SLOT,
)
from tajsim.games.maharani.engine.nb import (
    artisan_options_for,
    decode_place,
    popcount,
    seat_side,
    slot_quarter,
)
from tajsim.games.maharani.strategies.heuristic import (
    EMPTY_MEMO,
    NEG_INF,
    flood_around,
    keep_best,
    memo_value,
    softmax_draw,
    weights_of,
)
from tajsim.games.maharani.strategies.ids import LEARNED_OFFSET, TEMPERATURE_SCALE

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES", "learned_features_nb",
           "learned_policy_nb"]

#: The features ``phi(state, a)``, in order (theta's order too).
FEATURE_NAMES = ("value", "candidate", "zone", "marker", "second", "artisan", "completes",
                 "leaves_one", "quarter_fill", "refresh", "refresh_down", "late_second",
                 "late_artisan", "marker_scarce", "feed_risk")
#: One line per feature (the docs' table).
FEATURE_DOCS = {
    "value": "balanced's value of the action, in gold (the heuristic's decision loop)",
    "candidate": "1 if the action is one of the 6 best by that value (the first of equal "
                 "values first): mcts's candidates, the only actions the policy weighs",
    "zone": "size of the zone the tile makes (its zone gold)",
    "marker": "1 if laying the tile turns an action marker face down",
    "second": "1 for a second tile (it costs 2 gold)",
    "artisan": "1 if the tile's arrow points at the player and an artisan can go on it",
    "completes": "1 if the tile completes its quarter (scored at the end of the turn)",
    "leaves_one": "1 if the tile leaves its unscored quarter one space short (the next "
                  "player may complete it)",
    "quarter_fill": "share of the tile's quarter filled once it is laid (0..1)",
    "refresh": "1 for refreshing the action markers",
    "refresh_down": "face-down markers refreshing turns up (0 for other actions)",
    "late_second": "second x the share of the tiles already out of the bag (game progress)",
    "late_artisan": "artisan x the game progress",
    "marker_scarce": "marker x the share of the player's markers already face down",
    "feed_risk": "1 if the zone made touches an empty space and another tile of its colour "
                 "waits on the turntable",
}
N_FEATURES = len(FEATURE_NAMES)
assert tuple(FEATURE_DOCS) == FEATURE_NAMES
# One unit of a flag or count, in the features' fixed point (thousandths).
ONE = 1000
# theta's fixed point: millionths (a score is then in 1e-9 gold; THETA_ONE of them per gold
# value unit).
THETA_ONE = 1_000_000
# A place action's extra features in parts, memoised per (place, space) as the heuristic's
# value is: (place, space, colour, quarter the place faces, another tile of the colour waiting,
# zone, marker, completes, leaves_one, quarter_fill, feed_risk, artisan options exist).
EMPTY_EXTRA = (-1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#: The weight of ``balanced``'s value the policy adds to theta . phi (theta's units): the
#: fitted corrections ride on the heuristic's ranking. The conditional logit reads the
#: search's choices among its candidates as noisy in that value (it gives it about 0.3), and
#: the argmax of such a fit leaves ``balanced``'s ranking too easily: with the first fit of
#: ``tajsim train --seed 1`` the value weighted 2 more took 0.53 of the wins against
#: ``balanced`` where the bare fit took 0.43 (2,000 games, 2 players). theta = (1, 0, ...)
#: and theta = 0 both still play ``balanced``.
VALUE_PRIOR = 2.0
VALUE_PRIOR_MILLIONTHS = int(VALUE_PRIOR * THETA_ONE)
#: The actions the policy weighs: the best by the heuristic's value, as many as mcts's default
#: ``width`` (the search's tree never looks further, so neither does its imitation).
N_CANDIDATES = 6
# insert_top's empty tuple: six (value, index) slots below every value.
EMPTY_TOP = (NEG_INF - 1, NEG_INF - 1, NEG_INF - 1, NEG_INF - 1, NEG_INF - 1, NEG_INF - 1,
             -1, -1, -1, -1, -1, -1)


@kernel
def fixed_theta(x):
    """A feature weight in millionths, rounded half away from zero."""
    if x >= 0:
        return np.int64(math.floor(x * 1e6 + 0.5))
    return -np.int64(math.floor(-x * 1e6 + 0.5))


@kernel
def theta_of(params):
    """theta = ``params[LEARNED_OFFSET:LEARNED_OFFSET + N_FEATURES]`` as a tuple of int64
    millionths (once per decision)."""
    o = LEARNED_OFFSET
    return (fixed_theta(params[o]), fixed_theta(params[o + 1]), fixed_theta(params[o + 2]),
            fixed_theta(params[o + 3]), fixed_theta(params[o + 4]), fixed_theta(params[o + 5]),
            fixed_theta(params[o + 6]), fixed_theta(params[o + 7]), fixed_theta(params[o + 8]),
            fixed_theta(params[o + 9]), fixed_theta(params[o + 10]),
            fixed_theta(params[o + 11]), fixed_theta(params[o + 12]),
            fixed_theta(params[o + 13]), fixed_theta(params[o + 14]))


@kernel(inline="always")
def insert_top(top, value, i):
    """``top`` = (v0..v5, i0..i5), the N_CANDIDATES best (value, index) pairs so far, best
    first, with action ``i`` of ``value`` inserted where it belongs. The actions come in index
    order, so an equal value stays behind the earlier action (mcts's ``candidates`` rule)."""
    v0, v1, v2, v3, v4, v5, i0, i1, i2, i3, i4, i5 = top
    if value <= v5:
        return top
    if value <= v4:
        return (v0, v1, v2, v3, v4, value, i0, i1, i2, i3, i4, i)
    if value <= v3:
        return (v0, v1, v2, v3, value, v4, i0, i1, i2, i3, i, i4)
    if value <= v2:
        return (v0, v1, v2, value, v3, v4, i0, i1, i2, i, i3, i4)
    if value <= v1:
        return (v0, v1, value, v2, v3, v4, i0, i1, i, i2, i3, i4)
    if value <= v0:
        return (v0, value, v1, v2, v3, v4, i0, i, i1, i2, i3, i4)
    return (value, v0, v1, v2, v3, v4, i, i0, i1, i2, i3, i4)


@kernel(inline="always")
def top_entry(top, k):
    """(value, index) of the k-th best candidate of ``top`` (index -1: fewer candidates than
    k + 1)."""
    if k == 0:
        return top[0], top[6]
    if k == 1:
        return top[1], top[7]
    if k == 2:
        return top[2], top[8]
    if k == 3:
        return top[3], top[9]
    if k == 4:
        return top[4], top[10]
    return top[5], top[11]


@kernel(inline="always")
def is_candidate(top, i):
    """1 if action ``i`` is one of ``top``'s candidates, else 0."""
    candidate = 0
    for k in range(N_CANDIDATES):
        if top_entry(top, k)[1] == i:
            candidate = 1
    return candidate


@kernel(inline="always")
def decision_context(state, comp, player):
    """What every action of a decision shares: (the seat's board side, its face-down markers,
    the game progress in thousandths: the share of the tiles out of the bag)."""
    down = 0
    for q in range(N_QUARTERS):
        down += 1 - state[S_MARKER + player * N_QUARTERS + q]
    n_tiles = comp[C_N_TILES]
    progress = ONE - ONE * state[S_BAG_N] // n_tiles if n_tiles > 0 else 0
    return seat_side(comp, state[S_N_PLAYERS], player), down, progress


@kernel(inline="always")
def place_extras(state, comp, player, slot, s, extra):
    """A place action's (place, space) part of the extra features (``EMPTY_EXTRA``'s layout),
    recomputed only when the place or the space changes (the legal list holds them side by
    side)."""
    m_slot, m_s, colour, q_src, waiting = extra[0], extra[1], extra[2], extra[3], extra[4]
    if slot == m_slot and s == m_s:
        return extra
    if slot != m_slot:
        colour = comp[C_TILE_COLOUR + state[S_SLOT + slot]]
        q_src = slot_quarter(comp, state[S_FACING], slot)
        waiting = 0
        for k in range(N_SLOTS):
            other = state[S_SLOT + k]
            if k != slot and other >= 0 and comp[C_TILE_COLOUR + other] == colour:
                waiting = 1
    q = comp[C_SPACE_QUARTER + s]
    bit = np.int64(1) << s
    zone_mask, around = flood_around(comp, bit, state[S_COLOUR_MASK + colour] | bit)
    zone = popcount(zone_mask)
    marker = 1 if q != q_src else 0
    qmask = comp[C_QUARTER_MASK + q]
    size = comp[C_QUARTER_SIZE + q]
    filled = popcount((state[S_FILLED] | bit) & qmask)
    done = ((state[S_SCORED] | state[S_PENDING]) >> q) & 1
    completes = 1 if done == 0 and filled == size else 0
    leaves_one = 1 if done == 0 and filled == size - 1 else 0
    fill = ONE * filled // size
    empty = comp[C_ALL_SPACES] & ~(state[S_FILLED] | bit)
    feed_risk = 1 if waiting == 1 and (around & empty) != 0 else 0
    has_opts = 1 if artisan_options_for(state, comp, player, s, colour) != 0 else 0
    return (slot, s, colour, q_src, waiting, zone, marker, completes, leaves_one, fill,
            feed_risk, has_opts)


@kernel(inline="always")
def action_features(state, comp, player, action, value, candidate, context, extra):
    """(phi(state, action) as a tuple of N_FEATURES int64 thousandths, the extras' memo).
    ``value`` is the heuristic's value of the action (thousandths), ``candidate`` 1 if it is
    one of the N_CANDIDATES best; ``context`` is ``decision_context``; ``extra`` starts as
    ``EMPTY_EXTRA``."""
    side, down, progress = context
    c = ONE * candidate
    if action >= N_PLACE_ACTIONS:
        if action == ACTION_REFRESH:
            return (value, c, 0, 0, 0, 0, 0, 0, 0, ONE, ONE * down, 0, 0, 0, 0), extra
        return (value, c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), extra
    slot, s, arrow = decode_place(action)
    extra = place_extras(state, comp, player, slot, s, extra)
    marker = extra[6]
    second = 1 if state[S_PHASE] == PHASE_SECOND else 0
    artisan = 1 if arrow == side and extra[11] == 1 else 0
    return (value, c, ONE * extra[5], ONE * marker, ONE * second, ONE * artisan,
            ONE * extra[7], ONE * extra[8], extra[9], 0, 0, second * progress,
            artisan * progress, marker * down * (ONE // N_QUARTERS), ONE * extra[10]), extra


@kernel(inline="always")
def linear_score_of(theta, f):
    """``VALUE_PRIOR`` x value + theta . phi in 1e-9 gold (theta in millionths, phi in
    thousandths): an exact integer."""
    return (VALUE_PRIOR_MILLIONTHS * f[0] + theta[0] * f[0] + theta[1] * f[1]
            + theta[2] * f[2] + theta[3] * f[3]
            + theta[4] * f[4] + theta[5] * f[5] + theta[6] * f[6] + theta[7] * f[7]
            + theta[8] * f[8] + theta[9] * f[9] + theta[10] * f[10] + theta[11] * f[11]
            + theta[12] * f[12] + theta[13] * f[13] + theta[14] * f[14])


@kernel(inline="always")
def top_candidates(state, comp, player, wt, legal, n_legal, side):
    """The N_CANDIDATES best of ``legal[:n_legal]`` by the heuristic's value (``insert_top``'s
    tuple; ties: the earlier action, as mcts's ``candidates``)."""
    memo = EMPTY_MEMO
    top = EMPTY_TOP
    for i in range(n_legal):
        v, memo = memo_value(state, comp, player, legal[i], wt, side, memo)
        top = insert_top(top, v, i)
    return top


@kernel
def learned_features_nb(state, comp, player, params, legal, n_legal, out):
    """phi(state, legal[i]) into ``out[i, :N_FEATURES]`` for ``i < n_legal`` (the training
    path of ``tajsim train``; the policy scores only the candidates, without this matrix).

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]; player : int, the seat to move
    params : float64[N_PARAMS], ``learned``'s vector (the base weights in its first slots)
    legal : int64[>= n_legal]
    out : float64[>= n_legal, >= N_FEATURES] (out), in gold and units (``FEATURE_DOCS``)
    """
    wt = weights_of(params, np.bool_(False))
    context = decision_context(state, comp, player)
    top = top_candidates(state, comp, player, wt, legal, n_legal, context[0])
    memo = EMPTY_MEMO
    extra = EMPTY_EXTRA
    for i in range(n_legal):
        v, memo = memo_value(state, comp, player, legal[i], wt, context[0], memo)
        f, extra = action_features(state, comp, player, legal[i], v, is_candidate(top, i),
                                   context, extra)
        for j in range(N_FEATURES):
            out[i, j] = f[j] / 1000.0


@kernel
def learned_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """The best of ``legal[:n_legal]`` by ``theta . phi`` among the candidates (module doc).

    At temperature 0 (``params[-2]``) a first pass is ``balanced``'s own decision loop (its
    choice, its tie draws from ``prng[player]``) that also keeps the N_CANDIDATES best actions
    by value; the second scores them and ``balanced``'s choice (with ``candidate`` 0 when it
    is not one of them) and takes the best score, a tie going to ``balanced``'s choice, then
    to the earlier action. So the stream advances as ``balanced``'s does, and theta =
    (1, 0, ..., 0) takes ``balanced``'s action. Above 0 (one unit = one gold) a candidate is
    drawn with the heuristic's integer softmax of the scores in thousandths of gold.
    ``params``: float64[N_PARAMS] (base weights first, theta at ``LEARNED_OFFSET``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    wt = weights_of(params, np.bool_(False))
    theta = theta_of(params)
    context = decision_context(state, comp, player)
    side = context[0]
    t_units = temperature_units(params, TEMPERATURE_SCALE)
    memo = EMPTY_MEMO
    top = EMPTY_TOP
    pick = 0  # balanced's choice (temperature 0)
    pick_value = NEG_INF
    ties = 0
    for i in range(n_legal):
        v, memo = memo_value(state, comp, player, legal[i], wt, side, memo)
        top = insert_top(top, v, i)
        if t_units == 0:
            pick_value, pick, ties = keep_best(prng, player, v, i, pick_value, pick, ties)
    # Scores, with one inlined copy of the features (numba types and LLVM optimises an inlined
    # call once per site: four sites were half of a learned line-up's cold compile). At
    # temperature 0: balanced's choice (k = -1) first, then the candidates; the best score,
    # a tie going to balanced's choice, then to the earlier action. Above 0: two passes over
    # the candidates, the best score in thousandths of gold, then the heuristic's weighted
    # reservoir draw.
    extra = EMPTY_EXTRA
    passes = 2 if t_units > 0 else 1
    first = 0 if t_units > 0 else -1
    best = pick
    best_score = np.int64(0)
    best_value = NEG_INF
    chosen = legal[top_entry(top, 0)[1]]
    total = np.int64(0)
    for step in range(passes):
        for k in range(first, N_CANDIDATES):
            if k < 0:
                value, i, candidate = pick_value, pick, is_candidate(top, pick)
            else:
                value, i = top_entry(top, k)
                candidate = 1
                if i < 0 or (t_units == 0 and i == pick):
                    continue
            f, extra = action_features(state, comp, player, legal[i], value, candidate, context,
                                       extra)
            score = linear_score_of(theta, f)
            if t_units > 0:
                v = score // THETA_ONE
                if step == 0:
                    best_value = max(best_value, v)
                else:
                    total, chosen = softmax_draw(prng, player, best_value - v, t_units, legal[i],
                                                 total, chosen)
            elif k < 0:
                best_score = score
            elif score > best_score or (score == best_score and best != pick and i < best):
                best_score = score
                best = i
    if t_units > 0:
        return chosen
    return legal[best]
