"""``net``: a small policy-and-value network over the seat's observation, in integer arithmetic.

The network reads the seat's observation (:func:`tajsim.games.maharani.interop_nb.
encode_observation`, the same ``int64`` array as ``tajsim.interop.encoding``), turns it into
``D_IN`` integer inputs (:func:`net_inputs`: one-hot tile colours and artisans of the board and
the turntable, the seats' gold and face-up markers relative to the mover, the phase, the player
count, the bag's size), and computes one hidden layer ``h = relu(W1 x + b1)`` of ``H`` units.

* **Policy head.** Like ``learned`` (and the search it imitates) the policy weighs the
  ``N_CANDIDATES`` best actions by ``balanced``'s value only. Each candidate ``a`` has
  ``learned``'s per-action features ``phi(a)`` (``learned.FEATURE_NAMES``, thousandths), and the
  network gives the feature weights of this position: ``theta(h) = theta0 + U h``. A
  candidate's score is ``VALUE_PRIOR x value(a) + theta(h) . phi(a)``; the policy plays the best
  score (a tie: the earlier candidate, the better by value). So the state decides which action
  facts matter now, the actions are compared by what they do.
* **Value head.** ``v = wv . h + bv``: the mover's expected result (1 a win, 0 a loss), trained
  on the games' outcomes; :func:`net_value_nb` gives it (the training reports it; a search may
  use it).

**Integer arithmetic and the weights array**: :mod:`tajsim.engine.net_nb` (the
game-independent forward pass this module calls; a ``net`` seat names its set by the
fingerprint in ``params[NET_FP_SLOT]``). This module brings Maharani's inputs, its candidates
(``balanced``'s best ``N_CANDIDATES`` with ``learned``'s features) and the choice.

Everything read is public: the observation (the bag's contents, never its order) and the
candidates' features, which ``learned`` already reads (the conformance redraw checks it).
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import temperature_units
from tajsim.engine.net_nb import (
    MAX_HIDDEN,
    SHIFT,
    THETA_SHIFT,
    best_candidate,
    candidate_score,
    fingerprint_at,
    net_forward,
    net_hidden,
    net_set_offset_checked,
    net_value_of,
    value_prior_fixed,
)
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.interop_nb import encode_observation
from tajsim.games.maharani.strategies.heuristic import (
    EMPTY_MEMO,
    NEG_INF,
    memo_value,
    softmax_draw,
    weights_of,
)
from tajsim.games.maharani.strategies.ids import NET_FP_SLOT, TEMPERATURE_SCALE
from tajsim.games.maharani.strategies.learned import (
    EMPTY_EXTRA,
    EMPTY_TOP,
    N_CANDIDATES,
    N_FEATURES,
    VALUE_PRIOR,
    action_features,
    decision_context,
    insert_top,
    top_entry,
)

__all__ = ["D_IN", "OBS_OFFSETS", "OBS_SIZE", "SCRATCH_SIZE", "net_choose", "net_features_nb",
           "net_inputs", "net_policy_nb", "net_scores", "net_value_nb"]

#: The observation's field offsets (``tajsim.interop.encoding.layout("maharani")``; a test
#: checks them equal) and its size.
OBS_OFFSETS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 194, 258, 322, 338, 342, 358, 359)
OBS_SIZE = 360
O_N_PLAYERS = OBS_OFFSETS[1]
O_PHASE = OBS_OFFSETS[4]
O_TILES_THIS_TURN = OBS_OFFSETS[7]
O_TURNTABLE = OBS_OFFSETS[10]
O_BOARD = OBS_OFFSETS[11]
O_BAG = OBS_OFFSETS[12]
O_MARKERS = OBS_OFFSETS[14]
O_RESERVES = OBS_OFFSETS[15]
O_GOLD = OBS_OFFSETS[16]

# The inputs x (int64[D_IN]) in blocks: tile colour one-hot per board space, the mover's and
# the others' artisans per space, the turntable's colours, each seat's gold and face-up markers
# from the mover on (seat player + k), the mover's lead over the best other seat, the phase, the
# player count, the bag's size, the tiles laid this turn and the mover's artisans in reserve.
X_COLOUR = 0
X_ARTISAN = X_COLOUR + E.N_COLOURS * E.MAX_SPACES
X_TURNTABLE = X_ARTISAN + 2 * E.MAX_SPACES
X_GOLD = X_TURNTABLE + E.N_COLOURS * E.N_SLOTS
X_UP = X_GOLD + E.MAX_PLAYERS
X_LEAD = X_UP + E.MAX_PLAYERS
X_PHASE = X_LEAD + 1
X_PLAYERS = X_PHASE + 3
X_BAG = X_PLAYERS + 3
X_TILES_THIS_TURN = X_BAG + 1
X_RESERVE = X_TILES_THIS_TURN + 1
D_IN = X_RESERVE + 1

#: The value prior in theta's units (``learned.VALUE_PRIOR`` gold per gold of value).
VALUE_PRIOR_FIXED = value_prior_fixed(VALUE_PRIOR)
#: The policy's scratch: the observation, the inputs, the hidden units, theta, the candidates'
#: scores and their indices into ``legal``.
S_OBS = 0
S_X = S_OBS + OBS_SIZE
S_H = S_X + D_IN
S_THETA = S_H + MAX_HIDDEN
S_SCORES = S_THETA + N_FEATURES
S_CAND = S_SCORES + N_CANDIDATES
SCRATCH_SIZE = S_CAND + N_CANDIDATES


@kernel
def fingerprint_of(params):
    """The set a ``net`` seat plays: ``params[NET_FP_SLOT]`` (-1 for none)."""
    return fingerprint_at(params, NET_FP_SLOT)


@kernel
def net_inputs(obs, comp, player, x):
    """The network's inputs ``x`` (int64[D_IN], out) from seat ``player``'s observation
    ``obs`` (int64[OBS_SIZE]) and the public components ``comp`` (a tile's colour)."""
    for i in range(D_IN):
        x[i] = 0
    n = obs[O_N_PLAYERS]
    for s in range(E.MAX_SPACES):
        tile = obs[O_BOARD + 3 * s]
        if tile >= 0:
            x[X_COLOUR + E.N_COLOURS * s + comp[E.C_TILE_COLOUR + tile]] = 1
        artisan = obs[O_BOARD + 3 * s + 2]
        if artisan >= 0:
            owner = artisan // 2 if n == 2 else artisan
            x[X_ARTISAN + 2 * s + (0 if owner == player else 1)] = 1
    for k in range(E.N_SLOTS):
        tile = obs[O_TURNTABLE + k]
        if tile >= 0:
            x[X_TURNTABLE + E.N_COLOURS * k + comp[E.C_TILE_COLOUR + tile]] = 1
    mine = np.int64(0)
    best_other = np.int64(NEG_INF)
    for k in range(n):
        p = (player + k) % n
        gold = np.int64(0)
        for j in range(E.N_PARTS):
            gold += obs[O_GOLD + E.N_PARTS * p + j]
        up = np.int64(0)
        for q in range(E.N_QUARTERS):
            up += obs[O_MARKERS + E.N_QUARTERS * p + q]
        x[X_GOLD + k] = gold
        x[X_UP + k] = up
        if k == 0:
            mine = gold
        elif gold > best_other:
            best_other = gold
    if n > 1:
        x[X_LEAD] = mine - best_other
    phase = obs[O_PHASE]
    if 0 <= phase < 3:
        x[X_PHASE + phase] = 1
    if 2 <= n <= 4:
        x[X_PLAYERS + n - 2] = 1
    bag = 0
    for t in range(E.MAX_TILES):
        if obs[O_BAG + t] >= 0:
            bag += 1
    x[X_BAG] = bag
    x[X_TILES_THIS_TURN] = obs[O_TILES_THIS_TURN]
    if n == 2:
        x[X_RESERVE] = obs[O_RESERVES + 2 * player] + obs[O_RESERVES + 2 * player + 1]
    else:
        x[X_RESERVE] = obs[O_RESERVES + player]


@kernel
def net_scores(state, comp, player, params, legal, n_legal, net, scratch):
    """Score the candidates of ``legal[:n_legal]``: returns how many (``scratch[S_CAND:]``
    their indices into ``legal``, best by value first; ``scratch[S_SCORES:]`` their scores), or
    -1 when ``net`` holds no set for the seat's fingerprint.

    ``params``: float64[N_PARAMS] (``balanced``'s weights first: the candidates' values, and
    the fingerprint at ``NET_FP_SLOT``); ``net``: int64[...] (module doc); ``scratch``:
    int64[>= SCRATCH_SIZE], written before it is read."""
    base = net_set_offset_checked(net, fingerprint_of(params), D_IN, N_FEATURES)
    if base < 0:
        return np.int64(-1)
    obs = scratch[S_OBS:S_OBS + OBS_SIZE]
    x = scratch[S_X:S_X + D_IN]
    h = scratch[S_H:S_H + MAX_HIDDEN]
    theta = scratch[S_THETA:S_THETA + N_FEATURES]
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, comp, player, x)
    net_forward(net, base, x, h, theta)
    wt = weights_of(params, np.bool_(False))
    context = decision_context(state, comp, player)
    memo = EMPTY_MEMO
    top = EMPTY_TOP
    for i in range(n_legal):
        v, memo = memo_value(state, comp, player, legal[i], wt, context[0], memo)
        top = insert_top(top, v, i)
    extra = EMPTY_EXTRA
    n_cand = 0
    for k in range(N_CANDIDATES):
        value, i = top_entry(top, k)
        if i < 0:
            break
        f, extra = action_features(state, comp, player, legal[i], value, 1, context, extra)
        scratch[S_SCORES + n_cand] = candidate_score(theta, f, N_FEATURES, VALUE_PRIOR_FIXED)
        scratch[S_CAND + n_cand] = i
        n_cand += 1
    return np.int64(n_cand)


@kernel
def net_choose(state, comp, player, params, prng, legal, n_legal, net, scratch):
    """``net``'s action among ``legal[:n_legal]`` (module doc), with the caller's scratch
    (int64[>= SCRATCH_SIZE]). At temperature 0 (``params[-2]``) the best score, a tie going to
    the better candidate by value, with no draw; above 0 (one unit = one gold) the heuristic's
    integer softmax of the scores in thousandths of gold, drawn from ``prng[player]``. A seat
    whose set is not in ``net`` plays ``legal[0]`` (``kernel_switches`` packs every set a
    line-up names)."""
    n_cand = net_scores(state, comp, player, params, legal, n_legal, net, scratch)
    if n_cand <= 0:
        return legal[0]
    t_units = temperature_units(params, TEMPERATURE_SCALE)
    best = best_candidate(scratch, S_SCORES, n_cand)
    if t_units == 0:
        return legal[scratch[S_CAND + best]]
    top = scratch[S_SCORES + best] >> THETA_SHIFT
    total = np.int64(0)
    chosen = legal[scratch[S_CAND + best]]
    for k in range(n_cand):
        below_best = top - (scratch[S_SCORES + k] >> THETA_SHIFT)
        total, chosen = softmax_draw(prng, player, below_best, t_units,
                                     legal[scratch[S_CAND + k]], total, chosen)
    return chosen


@kernel
def net_policy_nb(state, comp, player, params, prng, legal, n_legal, net):
    """``net_choose`` with scratch of its own (the CPU dispatcher's entry; the GPU would pass
    the batch kernel's local scratch to ``net_choose``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    return net_choose(state, comp, player, params, prng, legal, n_legal, net, scratch)


@kernel
def net_value_nb(state, comp, player, params, net):
    """The value head's estimate of the mover's result at ``state`` (float: units of 1, a win),
    or NaN when ``net`` holds no set for the seat's fingerprint."""
    base = net_set_offset_checked(net, fingerprint_of(params), D_IN, N_FEATURES)
    if base < 0:
        return np.nan
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    obs = scratch[S_OBS:S_OBS + OBS_SIZE]
    x = scratch[S_X:S_X + D_IN]
    h = scratch[S_H:S_H + MAX_HIDDEN]
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, comp, player, x)
    net_hidden(net, base, x, h)
    return net_value_of(net, base, h) / float(1 << (2 * SHIFT))


@kernel
def net_features_nb(state, comp, player, params, legal, n_legal, x_out, phi_out, cand_out):
    """The training data of one decision: the inputs into ``x_out`` (int64[D_IN]), the
    candidates' features into ``phi_out[k, :N_FEATURES]`` (int64 thousandths, best by value
    first) and their indices into ``legal`` into ``cand_out[k]``; returns how many candidates.
    The same candidates, order and features as the policy's."""
    obs = np.empty(OBS_SIZE, np.int64)
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, comp, player, x_out)
    wt = weights_of(params, np.bool_(False))
    context = decision_context(state, comp, player)
    memo = EMPTY_MEMO
    top = EMPTY_TOP
    for i in range(n_legal):
        v, memo = memo_value(state, comp, player, legal[i], wt, context[0], memo)
        top = insert_top(top, v, i)
    extra = EMPTY_EXTRA
    n_cand = 0
    for k in range(N_CANDIDATES):
        value, i = top_entry(top, k)
        if i < 0:
            break
        f, extra = action_features(state, comp, player, legal[i], value, 1, context, extra)
        for j in range(N_FEATURES):
            phi_out[n_cand, j] = f[j]
        cand_out[n_cand] = i
        n_cand += 1
    return n_cand
