"""``learned``: a linear policy over per-action features, fitted by ``tajsim train`` to imitate
``mcts`` (expert iteration; :mod:`tajsim.engine.learned`, ``docs/games/maharani/strategies.md``,
"Learned policy").

The policy scores each legal action ``a`` as ``theta . phi(state, a)`` and takes the best. The
first feature is ``balanced``'s own value of the action (the heuristic's decision loop, with the
base weights in ``params[:N_WEIGHTS]``), so ``theta = (1, 0, ..., 0)`` *is* ``balanced``; the
others are cheap facts of the action a strong player weighs, which let the fit correct the
heuristic where the search decides otherwise (``FEATURE_NAMES``, ``FEATURE_DOCS``).

Every feature is an integer in thousandths (of gold, or of a unit for a count or a flag), and
theta is rounded to millionths once per decision, so a score is an exact integer (1e-9 gold) on
the CPU and the GPU alike (no fused multiply-add can change a decision). The choice follows the
heuristic's own rules, not :func:`tajsim.engine.learned.linear_choice`'s: at temperature 0 the
best score, exact ties drawn uniformly from the seat's stream; above 0 the heuristic's integer
softmax over the scores in thousandths of gold (one unit of temperature = one gold). So theta =
(1, 0, ..., 0) replays ``balanced``'s records at every temperature (``balanced`` draws its ties
from the stream, which linear_choice's first-of-equal rule would not), and a decision needs no
feature matrix: the score is summed action by action (no scratch on the GPU). Only the
training path (:func:`learned_features_nb`) fills the matrix.

Everything read is public (the bag's size, not its order): the features of two states that
differ only in hidden facts are equal (``tests/test_learned_maharani.py``).
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.choice import softmax_weight, temperature_units
from tajsim.engine.rng import below
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
    SOFTMAX_SHIFT,
    flood_around,
    memo_value,
    weights_of,
)
from tajsim.games.maharani.strategies.ids import LEARNED_OFFSET, TEMPERATURE_SCALE

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES", "learned_features_nb",
           "learned_policy_nb"]

#: The features ``phi(state, a)``, in order (theta's order too).
FEATURE_NAMES = ("value", "zone", "marker", "second", "artisan", "completes", "leaves_one",
                 "quarter_fill", "refresh", "refresh_down", "late_second", "late_artisan",
                 "marker_scarce", "feed_risk")
#: One line per feature (the docs' table).
FEATURE_DOCS = {
    "value": "balanced's value of the action, in gold (the heuristic's decision loop)",
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
# Below every score (|theta| <= 1e6 in millionths x a feature <= 1e5 thousandths, 14 terms).
SCORE_FLOOR = -(1 << 62)


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
            fixed_theta(params[o + 13]))


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
def action_features(state, comp, player, action, wt, context, memo, extra):
    """(phi(state, action) as a tuple of N_FEATURES int64 thousandths, the heuristic's memo,
    the extras' memo). ``context`` is ``decision_context``; ``memo`` starts as the heuristic's
    ``EMPTY_MEMO``, ``extra`` as ``EMPTY_EXTRA``."""
    side, down, progress = context
    value, memo = memo_value(state, comp, player, action, wt, side, memo)
    if action >= N_PLACE_ACTIONS:
        if action == ACTION_REFRESH:
            return (value, 0, 0, 0, 0, 0, 0, 0, ONE, ONE * down, 0, 0, 0, 0), memo, extra
        return (value, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), memo, extra
    slot, s, arrow = decode_place(action)
    extra = place_extras(state, comp, player, slot, s, extra)
    marker = extra[6]
    second = 1 if state[S_PHASE] == PHASE_SECOND else 0
    artisan = 1 if arrow == side and extra[11] == 1 else 0
    return (value, ONE * extra[5], ONE * marker, ONE * second, ONE * artisan, ONE * extra[7],
            ONE * extra[8], extra[9], 0, 0, second * progress, artisan * progress,
            marker * down * (ONE // N_QUARTERS), ONE * extra[10]), memo, extra


@kernel(inline="always")
def linear_score_of(theta, f):
    """theta . phi in 1e-9 gold (theta in millionths, phi in thousandths): an exact integer."""
    return (theta[0] * f[0] + theta[1] * f[1] + theta[2] * f[2] + theta[3] * f[3]
            + theta[4] * f[4] + theta[5] * f[5] + theta[6] * f[6] + theta[7] * f[7]
            + theta[8] * f[8] + theta[9] * f[9] + theta[10] * f[10] + theta[11] * f[11]
            + theta[12] * f[12] + theta[13] * f[13])


@kernel
def learned_features_nb(state, comp, player, params, legal, n_legal, out):
    """phi(state, legal[i]) into ``out[i, :N_FEATURES]`` for ``i < n_legal`` (the training
    path of ``tajsim train``; the policy sums the scores without this matrix).

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]; player : int, the seat to move
    params : float64[N_PARAMS], ``learned``'s vector (the base weights in its first slots)
    legal : int64[>= n_legal]
    out : float64[>= n_legal, >= N_FEATURES] (out), in gold and units (``FEATURE_DOCS``)
    """
    wt = weights_of(params, False)
    context = decision_context(state, comp, player)
    memo = EMPTY_MEMO
    extra = EMPTY_EXTRA
    for i in range(n_legal):
        f, memo, extra = action_features(state, comp, player, legal[i], wt, context, memo,
                                         extra)
        out[i, 0] = f[0] / 1000.0
        out[i, 1] = f[1] / 1000.0
        out[i, 2] = f[2] / 1000.0
        out[i, 3] = f[3] / 1000.0
        out[i, 4] = f[4] / 1000.0
        out[i, 5] = f[5] / 1000.0
        out[i, 6] = f[6] / 1000.0
        out[i, 7] = f[7] / 1000.0
        out[i, 8] = f[8] / 1000.0
        out[i, 9] = f[9] / 1000.0
        out[i, 10] = f[10] / 1000.0
        out[i, 11] = f[11] / 1000.0
        out[i, 12] = f[12] / 1000.0
        out[i, 13] = f[13] / 1000.0


@kernel
def learned_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """The best of ``legal[:n_legal]`` by ``theta . phi`` (module doc), ties drawn uniformly
    from ``prng[player]``; above temperature 0 (``params[-2]``, one unit = one gold) the
    heuristic's integer softmax of the scores in thousandths of gold, drawn from the same
    stream. ``params``: float64[N_PARAMS] (base weights first, theta at ``LEARNED_OFFSET``)."""
    wt = weights_of(params, False)
    theta = theta_of(params)
    context = decision_context(state, comp, player)
    t_units = temperature_units(params, TEMPERATURE_SCALE)
    memo = EMPTY_MEMO
    extra = EMPTY_EXTRA
    if t_units > 0:
        # two passes, as the heuristic's softmax_choice: the best score, then a weighted
        # reservoir draw (no buffer of scores)
        best_value = NEG_INF
        for i in range(n_legal):
            f, memo, extra = action_features(state, comp, player, legal[i], wt, context, memo,
                                             extra)
            v = linear_score_of(theta, f) // THETA_ONE
            if v > best_value:
                best_value = v
        memo = EMPTY_MEMO
        extra = EMPTY_EXTRA
        chosen = legal[0]
        total = np.int64(0)
        for i in range(n_legal):
            f, memo, extra = action_features(state, comp, player, legal[i], wt, context, memo,
                                             extra)
            v = linear_score_of(theta, f) // THETA_ONE
            w = softmax_weight(best_value - v, t_units) >> SOFTMAX_SHIFT
            if w > 0:
                total += w
                if below(prng, player, total) < w:
                    chosen = legal[i]
        return chosen
    best = legal[0]
    best_score = SCORE_FLOOR
    ties = 0
    for i in range(n_legal):
        f, memo, extra = action_features(state, comp, player, legal[i], wt, context, memo,
                                         extra)
        score = linear_score_of(theta, f)
        if score > best_score:
            best_score = score
            best = legal[i]
            ties = 1
        elif score == best_score:
            ties += 1
            if below(prng, player, ties) == 0:
                best = legal[i]
    return best
