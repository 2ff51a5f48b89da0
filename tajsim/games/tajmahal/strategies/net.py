"""``net``: Taj Mahal's policy-and-value network over the seat's observation (issue 41, section
3; docs/net.md). The forward pass is game-independent (:mod:`tajsim.engine.net_nb`); this module
brings Taj Mahal's inputs, its candidates and the choice.

* **Inputs** (:func:`net_inputs`, ``D_IN`` integers): from the seat's observation
  (:func:`tajsim.games.tajmahal.interop_nb.encode_observation`, the same ``int64`` array as
  ``tajsim.interop.encoding``) only: the hand's cards by colour and its symbols, every seat's
  hand size, public cards by colour, row symbols, row colour and withdrawal counted from the
  mover (seat ``player + k``), the display and the unrest cards, the deck's size, the court,
  the advisor tokens and goods, the scores and the mover's lead, the visit, the province, the
  phase, the player count, the edition, the first player, the palaces (the mover's and the
  others' on each city), the bonus tiles left, the province tiles' owners and the prestige
  cards' holders (the mover or another).
* **Candidates**: the base heuristic's (``tuned``'s, ``params[:N_WEIGHTS]``) ``N_CANDIDATES``
  best actions by its value (a tie: the earlier in ``legal``), each with ``learned``'s
  per-action features (``learned.FEATURE_NAMES``) in thousandths (:func:`fixed_feature`).
  A candidate's score is ``VALUE_PRIOR x value + theta(h) . phi``; ``net`` plays the best
  score (a tie: the better by value), at a temperature above 0 the shared integer softmax of
  the scores (one unit of temperature = one point, as the heuristic's).

Everything read is public: the observation and the candidates' features, which ``learned``
already reads (the conformance redraw checks it).

The heuristic's scratch (``work``, float64[HEURISTIC_WORK_SIZE]) holds its values; after the
candidates are chosen its values area holds their values, then their float features
(``fill_features``), so the policy's own scratch is int64 only (``SCRATCH_SIZE``).
"""

from __future__ import annotations

import math

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import softmax_index, temperature_units
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
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.interop_nb import encode_observation
from tajsim.games.tajmahal.strategies.heuristic import (
    HEURISTIC_WORK_SIZE,
    WORK_FEATURES,
    WORK_VALUES,
    weighted_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import N_WEIGHTS, VALUE_ONE
from tajsim.games.tajmahal.strategies.learned import N_FEATURES, fill_features

__all__ = ["D_IN", "N_CANDIDATES", "NET_FP_SLOT", "OBS_OFFSETS", "OBS_SIZE", "SCRATCH_SIZE",
           "VALUE_PRIOR", "net_choose", "net_features_nb", "net_inputs", "net_policy_nb",
           "net_scores", "net_value_nb"]

#: Where ``net`` reads its weights set's fingerprint (the slot after the base weights; the
#: rollouts' slice ``params[N_WEIGHTS:]`` of a network-guided ismcts has it there too).
NET_FP_SLOT = N_WEIGHTS
#: The candidates the network weighs: the base heuristic's best by value (as ``learned``'s
#: fit found, the search's choice is nearly always among them).
N_CANDIDATES = 6
#: The weight of the base heuristic's value (``phi[0]``) in every score: with ``theta`` = 0
#: the network plays the base heuristic's order.
VALUE_PRIOR = 1.0
VALUE_PRIOR_FIXED = value_prior_fixed(VALUE_PRIOR)
#: A feature in thousandths is clamped to +-PHI_LIMIT (16,777 points: beyond any value), so a
#: score stays far inside int64.
PHI_LIMIT = 1 << 24

#: The observation's field offsets (``tajsim.interop.encoding.layout("tajmahal")``; a test
#: checks them equal) and its size.
OBS_OFFSETS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 108, 113, 613, 1113, 1143, 1148, 1153, 1253, 1353,
               1453, 1454, 1460, 1464, 1484, 1504, 1509, 1539, 1859, 1923, 1924, 1936, 1948,
               1952, 2052)
OBS_SIZE = 2652
O_N_PLAYERS = OBS_OFFSETS[1]
O_EDITION = OBS_OFFSETS[2]
O_VISIT = OBS_OFFSETS[3]
O_PROVINCE = OBS_OFFSETS[4]
O_PHASE = OBS_OFFSETS[5]
O_FIRST = OBS_OFFSETS[7]
O_HAND = OBS_OFFSETS[8]
O_HAND_SIZES = OBS_OFFSETS[9]
O_KNOWN = OBS_OFFSETS[10]
O_ROW_SYMBOLS = OBS_OFFSETS[12]
O_ROW_COLOURS = OBS_OFFSETS[13]
O_WITHDRAWN = OBS_OFFSETS[14]
O_DISPLAY = OBS_OFFSETS[15]
O_UNREST = OBS_OFFSETS[16]
O_DECK_SIZE = OBS_OFFSETS[18]
O_COURT = OBS_OFFSETS[19]
O_TOKEN_SUPPLY = OBS_OFFSETS[20]
O_TOKENS = OBS_OFFSETS[21]
O_GOODS = OBS_OFFSETS[22]
O_SCORES = OBS_OFFSETS[23]
O_PALACES = OBS_OFFSETS[25]
O_BONUS_AT = OBS_OFFSETS[26]
O_TILE_OWNER = OBS_OFFSETS[29]
O_PRESTIGE = OBS_OFFSETS[30]
O_COLOUR_TABLE = OBS_OFFSETS[31]
O_SYMBOL_TABLE = OBS_OFFSETS[32]

P = E.MAX_PLAYERS
N_CARD_COLOURS = E.N_COLOURS + 1  # the four colours and colourless
N_PRESTIGE = E.N_CARDS - E.FIRST_PRESTIGE
# The inputs x (int64[D_IN]) in blocks; "per seat" blocks count from the mover (seat
# player + k at k).
X_HAND_COL = 0  # the hand's cards by colour
X_HAND_SYM = X_HAND_COL + N_CARD_COLOURS  # the hand's symbols
X_HAND_N = X_HAND_SYM + E.N_SYMBOLS  # hand sizes, per seat
X_KNOWN = X_HAND_N + P  # public cards in each hand by colour, per seat
X_ROW_SYM = X_KNOWN + P * N_CARD_COLOURS  # row symbols, per seat
X_ROW_COL = X_ROW_SYM + P * E.N_SYMBOLS  # the row's colour one-hot, per seat
X_WITHDRAWN = X_ROW_COL + P * E.N_COLOURS  # withdrawn from this visit, per seat
X_DISPLAY = X_WITHDRAWN + P  # the display's cards by colour
X_UNREST_SYM = X_DISPLAY + N_CARD_COLOURS  # the unrest cards' symbols
X_DECK = X_UNREST_SYM + E.N_SYMBOLS  # cards left in the deck
X_COURT = X_DECK + 1  # each symbol's seat: claimed, present, set aside
X_SUPPLY = X_COURT + 3 * E.N_SYMBOLS  # the advisor tokens left
X_TOKENS = X_SUPPLY + E.N_ADVISORS  # advisor tokens, per seat
X_GOODS = X_TOKENS + P * E.N_ADVISORS  # goods, per seat
X_SCORE = X_GOODS + P * E.N_GOODS  # scores, per seat
X_LEAD = X_SCORE + P  # the mover's score minus the best other's
X_VISIT = X_LEAD + 1  # the visit one-hot
X_PROVINCE = X_VISIT + E.N_VISITS  # the province one-hot
X_PHASE = X_PROVINCE + E.N_PROVINCES  # bid, palace, crown, display
X_PLAYERS = X_PHASE + 4  # 2..5 players one-hot
X_EDITION = X_PLAYERS + 4
X_FIRST = X_EDITION + 2  # the visit's first player, from the mover
X_PALACE = X_FIRST + P  # per city: the mover's palace, the others' palaces
X_BONUS = X_PALACE + 2 * E.MAX_CITIES  # per city: a bonus tile still there
X_TILE = X_BONUS + E.MAX_CITIES  # per province: its tile the mover's, another's
X_PRESTIGE = X_TILE + 2 * E.N_PROVINCES  # per prestige card: the mover's, another's
D_IN = X_PRESTIGE + 2 * N_PRESTIGE

#: The policy's int64 scratch: the observation, the inputs, the hidden units, theta, the
#: candidates' scores, their indices into ``legal``, their actions, their features and the
#: softmax's values.
S_OBS = 0
S_X = S_OBS + OBS_SIZE
S_H = S_X + D_IN
S_THETA = S_H + MAX_HIDDEN
S_SCORES = S_THETA + N_FEATURES
S_CAND = S_SCORES + N_CANDIDATES
S_ACTIONS = S_CAND + N_CANDIDATES
S_PHI = S_ACTIONS + N_CANDIDATES
S_SOFT = S_PHI + N_CANDIDATES * N_FEATURES
SCRATCH_SIZE = S_SOFT + N_CANDIDATES
#: Where the candidates' float features sit in the heuristic's scratch (after their values).
WORK_PHI = WORK_VALUES + N_CANDIDATES
assert N_CANDIDATES <= E.MAX_LEGAL and N_CANDIDATES + N_CANDIDATES * N_FEATURES <= E.MAX_LEGAL


@kernel
def fingerprint_of(params):
    """The set a ``net`` seat plays: ``params[NET_FP_SLOT]`` (-1 for none)."""
    return fingerprint_at(params, NET_FP_SLOT)


@kernel
def fixed_feature(v):
    """A float feature in thousandths, ``floor(v x 1000)`` clamped to +-PHI_LIMIT (NaN: 0): the
    same integer on every device (docs/architecture.md, "GPU-safe kernel code")."""
    if not v == v:
        return np.int64(0)
    x = v * 1000.0
    if x > PHI_LIMIT:
        x = float(PHI_LIMIT)
    elif x < -PHI_LIMIT:
        x = -float(PHI_LIMIT)
    return np.int64(math.floor(x))


@kernel
def net_inputs(obs, player, x):
    """The network's inputs ``x`` (int64[D_IN], out) from seat ``player``'s observation ``obs``
    (int64[OBS_SIZE]; the cards' colours and symbols from its own tables)."""
    for i in range(D_IN):
        x[i] = 0
    n = obs[O_N_PLAYERS]
    for k in range(E.N_CARDS):
        card = obs[O_HAND + k]
        if card < 0:
            break
        x[X_HAND_COL + obs[O_COLOUR_TABLE + card]] += 1
        for s in range(E.N_SYMBOLS):
            x[X_HAND_SYM + s] += obs[O_SYMBOL_TABLE + card * E.N_SYMBOLS + s]
    mine = np.int64(0)
    best_other = np.int64(-(1 << 40))
    for k in range(n):
        q = (player + k) % n
        x[X_HAND_N + k] = obs[O_HAND_SIZES + q]
        for i in range(E.N_CARDS):
            card = obs[O_KNOWN + q * E.N_CARDS + i]
            if card < 0:
                break
            x[X_KNOWN + N_CARD_COLOURS * k + obs[O_COLOUR_TABLE + card]] += 1
        for s in range(E.N_SYMBOLS):
            x[X_ROW_SYM + E.N_SYMBOLS * k + s] = obs[O_ROW_SYMBOLS + q * E.N_SYMBOLS + s]
        col = obs[O_ROW_COLOURS + q]
        if 0 <= col < E.N_COLOURS:
            x[X_ROW_COL + E.N_COLOURS * k + col] = 1
        x[X_WITHDRAWN + k] = obs[O_WITHDRAWN + q]
        for a in range(E.N_ADVISORS):
            x[X_TOKENS + E.N_ADVISORS * k + a] = obs[O_TOKENS + q * E.N_ADVISORS + a]
        for g in range(E.N_GOODS):
            x[X_GOODS + E.N_GOODS * k + g] = obs[O_GOODS + q * E.N_GOODS + g]
        score = obs[O_SCORES + q]
        x[X_SCORE + k] = score
        if k == 0:
            mine = score
        elif score > best_other:
            best_other = score
    if n > 1:
        x[X_LEAD] = mine - best_other
    for k in range(E.N_CARDS):
        card = obs[O_DISPLAY + k]
        if card < 0:
            break
        x[X_DISPLAY + obs[O_COLOUR_TABLE + card]] += 1
    for k in range(E.N_CARDS):
        card = obs[O_UNREST + k]
        if card < 0:
            break
        for s in range(E.N_SYMBOLS):
            x[X_UNREST_SYM + s] += obs[O_SYMBOL_TABLE + card * E.N_SYMBOLS + s]
    x[X_DECK] = obs[O_DECK_SIZE]
    for s in range(E.N_SYMBOLS):
        seat = obs[O_COURT + s]
        if 0 <= seat < 3:
            x[X_COURT + 3 * s + seat] = 1
    for a in range(E.N_ADVISORS):
        x[X_SUPPLY + a] = obs[O_TOKEN_SUPPLY + a]
    visit = obs[O_VISIT]
    if 0 <= visit < E.N_VISITS:
        x[X_VISIT + visit] = 1
    province = obs[O_PROVINCE]
    if 0 <= province < E.N_PROVINCES:
        x[X_PROVINCE + province] = 1
    phase = obs[O_PHASE]
    if 0 <= phase < 4:
        x[X_PHASE + phase] = 1
    if 2 <= n <= 5:
        x[X_PLAYERS + n - 2] = 1
    edition = obs[O_EDITION]
    if 0 <= edition < 2:
        x[X_EDITION + edition] = 1
    first = obs[O_FIRST]
    if 0 <= first < n:
        x[X_FIRST + (first - player + n) % n] = 1
    for c in range(E.MAX_CITIES):
        others = np.int64(0)
        for q in range(n):
            held = obs[O_PALACES + c * P + q]
            if held > 0:
                if q == player:
                    x[X_PALACE + 2 * c] = 1
                else:
                    others += 1
        x[X_PALACE + 2 * c + 1] = others
        if obs[O_BONUS_AT + c] >= 0:
            x[X_BONUS + c] = 1
    for t in range(E.N_PROVINCES):
        owner = obs[O_TILE_OWNER + t]
        if owner >= 0:
            x[X_TILE + 2 * t + (0 if owner == player else 1)] = 1
    for i in range(N_PRESTIGE):
        holder = obs[O_PRESTIGE + i]
        if holder >= 0:
            x[X_PRESTIGE + 2 * i + (0 if holder == player else 1)] = 1


@kernel
def candidates(state, comp, player, params, legal, n_legal, work, scratch):
    """The base heuristic's ``N_CANDIDATES`` best of ``legal[:n_legal]`` with their features:
    returns how many (``scratch[S_CAND:]`` their indices into ``legal``, best by value first,
    a tie the earlier; ``scratch[S_ACTIONS:]`` the actions; ``scratch[S_PHI + k *
    N_FEATURES:]`` candidate k's features in thousandths). ``work``: the heuristic's scratch
    (float64[HEURISTIC_WORK_SIZE]), written before it is read; ``params[:N_WEIGHTS]`` the base
    heuristic's weights."""
    weighted_policy_nb(state, comp, player, params, legal, n_legal, work)
    # the candidates in order of (value descending, index ascending): each pass takes the
    # best of those that come after the previous pick in that order
    n_cand = 0
    prev_v = 0.0
    prev_i = -1
    for k in range(N_CANDIDATES):
        best = -1
        best_v = 0.0
        for i in range(n_legal):
            v = work[WORK_VALUES + i]
            if k > 0 and not (v < prev_v or (v == prev_v and i > prev_i)):
                continue
            if best < 0 or v > best_v:
                best = i
                best_v = v
        if best < 0:
            break
        scratch[S_CAND + k] = best
        scratch[S_ACTIONS + k] = legal[best]
        work[WORK_FEATURES + k] = best_v  # held here: the values area is rewritten below
        prev_v = best_v
        prev_i = best
        n_cand += 1
    # learned's features of the candidates alone: their values first in the values area, the
    # feature rows after them (the other actions' values are no longer needed)
    for k in range(n_cand):
        work[WORK_VALUES + k] = work[WORK_FEATURES + k]
    feats = work[WORK_PHI:WORK_PHI + N_CANDIDATES * N_FEATURES].reshape(
        (N_CANDIDATES, N_FEATURES))
    fill_features(state, comp, player, params, scratch[S_ACTIONS:S_ACTIONS + N_CANDIDATES],
                  n_cand, work, feats, False)
    for k in range(n_cand):
        for j in range(N_FEATURES):
            scratch[S_PHI + k * N_FEATURES + j] = fixed_feature(feats[k, j])
    return n_cand


@kernel
def net_scores(state, comp, player, params, legal, n_legal, net, scratch, work):
    """Score the candidates of ``legal[:n_legal]``: returns how many (``scratch[S_CAND:]``
    their indices into ``legal``, best by value first; ``scratch[S_SCORES:]`` their scores), or
    -1 when ``net`` holds no set for the seat's fingerprint.

    ``params``: float64[N_PARAMS] (the base heuristic's weights first, the fingerprint at
    ``NET_FP_SLOT``); ``net``: int64[...] (:mod:`tajsim.engine.net_nb`); ``scratch``:
    int64[>= SCRATCH_SIZE] and ``work``: float64[HEURISTIC_WORK_SIZE], written before read."""
    base = net_set_offset_checked(net, fingerprint_of(params), D_IN, N_FEATURES)
    if base < 0:
        return np.int64(-1)
    obs = scratch[S_OBS:S_OBS + OBS_SIZE]
    x = scratch[S_X:S_X + D_IN]
    h = scratch[S_H:S_H + MAX_HIDDEN]
    theta = scratch[S_THETA:S_THETA + N_FEATURES]
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, player, x)
    net_forward(net, base, x, h, theta)
    n_cand = candidates(state, comp, player, params, legal, n_legal, work, scratch)
    for k in range(n_cand):
        scratch[S_SCORES + k] = candidate_score(
            theta, scratch[S_PHI + k * N_FEATURES:S_PHI + (k + 1) * N_FEATURES], N_FEATURES,
            VALUE_PRIOR_FIXED)
    return np.int64(n_cand)


@kernel
def net_choose(state, comp, player, params, prng, legal, n_legal, net, scratch, work):
    """``net``'s action among ``legal[:n_legal]`` (module doc), with the caller's scratch
    (int64[>= SCRATCH_SIZE]) and the heuristic's (float64[HEURISTIC_WORK_SIZE]). At temperature
    0 (``params[-2]``) the best score, a tie going to the better candidate by value, with no
    draw; above 0 (one unit = one point) the shared integer softmax of the scores in
    ``VALUE_ONE`` units, one draw from ``prng[player]``. A seat whose set is not in ``net``
    plays ``legal[0]`` (``kernel_switches`` packs every set a line-up names)."""
    n_cand = net_scores(state, comp, player, params, legal, n_legal, net, scratch, work)
    if n_cand <= 0:
        return legal[0]
    best = best_candidate(scratch, S_SCORES, n_cand)
    t_units = temperature_units(params, VALUE_ONE)
    if t_units == 0:
        return legal[scratch[S_CAND + best]]
    # a score is in 2**-THETA_SHIFT thousandths of a point: the gap to the best in VALUE_ONE
    # units, floored (non-negative integers divide alike on every device)
    for k in range(n_cand):
        gap = scratch[S_SCORES + best] - scratch[S_SCORES + k]
        scratch[S_SOFT + k] = -((gap >> THETA_SHIFT) * VALUE_ONE // 1000)
    return legal[scratch[S_CAND + softmax_index(scratch, S_SOFT, n_cand, t_units, prng, player,
                                                0)]]


@kernel
def net_policy_nb(state, comp, player, params, prng, legal, n_legal, net, work):
    """``net_choose`` with int64 scratch of its own and the heuristic's ``work`` (the CPU
    dispatcher's entry)."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    return net_choose(state, comp, player, params, prng, legal, n_legal, net, scratch, work)


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
    net_inputs(obs, player, x)
    net_hidden(net, base, x, h)
    return net_value_of(net, base, h) / float(1 << (2 * SHIFT))


@kernel
def net_features_nb(state, comp, player, params, legal, n_legal, x_out, phi_out, cand_out):
    """The training data of one decision: the inputs into ``x_out`` (int64[D_IN]), the
    candidates' features into ``phi_out[k, :N_FEATURES]`` (int64 thousandths, best by value
    first) and their indices into ``legal`` into ``cand_out[k]``; returns how many candidates.
    The same candidates, order and features as the policy's."""
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
    obs = scratch[S_OBS:S_OBS + OBS_SIZE]
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, player, x_out)
    n_cand = candidates(state, comp, player, params, legal, n_legal, work, scratch)
    for k in range(n_cand):
        cand_out[k] = scratch[S_CAND + k]
        for j in range(N_FEATURES):
            phi_out[k, j] = scratch[S_PHI + k * N_FEATURES + j]
    return n_cand
