"""Maharaja's ``net``: the wing's part of the policy-and-value network (issue 41, section 3).

The network itself (one ReLU layer ``h = relu(W1 x + b1)``, the policy's feature weights
``theta(h) = theta0 + U h``, the value head ``wv . h + bv``, all in int64 fixed point) is the
same in every game; this module gives it Maharaja's two inputs:

* **The inputs** ``x`` (:func:`net_inputs`, int64[D_IN]) from the seat's observation
  (:func:`tajsim.games.maharaja.interop_nb.encode_observation`, the same ``int64`` array as
  ``tajsim.interop.encoding``; nothing else of the state is read, so they do not change when
  the conformance redraw redraws the others' unrevealed picks): the player count, the phase,
  the round, the Maharaja's junction, each governor's place on the track and its rank (the
  next cities visited), every seat's card, gold, palaces, pool, quarry and architect counted
  from the mover on, the mover's lead (25 gold a palace, as the search's evaluation), the
  houses of the mover and of the others on each location, the palace sites (the mover's,
  another seat's, neutral), the mover's own pick, the others' revealed picks by action kind,
  and the turn in progress (whose, its two actions, its allowances and counts, the house being
  moved).
* **The candidates** (:func:`fill_candidates`): like ``turnsearch``, which searches the
  ``candidates`` / ``step_candidates`` (6) best actions of every decision by its rollout
  heuristic, the policy weighs the base heuristic's (``hoarder``, ``params[:N_WEIGHTS]``)
  ``N_CANDIDATES`` best actions of every decision with a choice: the draft, the setup houses,
  the secret pick, each step of the turn, a moved house's destination, a replacement card. A
  candidate's features ``phi`` (int64 thousandths, ``FEATURE_NAMES``) are ``learned``'s 15
  (``learned.FEATURE_NAMES``: the heuristic's value, the pick's pair plan taken apart; here in
  integers: the same quantities, floored to thousandths; the value as its distance below the
  best candidate's, capped at ``VALUE_GAP_CAP`` gold: a softmax ignores a decision's constant,
  and uncapped, the turn's 100-gold gaps between a palace and an idle step made the fit's
  cross-entropy shrink the value's weight to nothing, the step then chosen by its kind alone),
  then what the linear ``learned``
  cannot weigh at a step of the turn, where its features are the value alone: the action's kind
  (end the turn, travel, build, the Builder's free house, move a house from / to, a palace and
  whether at the centre, a governor, a card), and the candidate's rank by value. So the state
  decides, through ``theta(h)``, which kind of step or pair to prefer now. Not which card: with
  the cards' identities as features the draft imitated the search's draft, whose labels are
  noisy (32 rollouts over 6 cards: in seat 0 it took the Wandering Monk, the heuristic's and
  the measured best card, about a third of the time), and one round's network drafted the
  Artisan in half its seat-0 games and took 25% of the games against ``hoarder`` after 55% the
  round before; the heuristic's draft model (measured win shares) orders the cards instead.

A candidate's score is ``VALUE_PRIOR x phi[0] + theta(h) . phi``; ``theta = 0`` plays the base
heuristic's order (the first of the best: its own choice).

Scratch: the policy works in ``work``'s ``learned`` block (``ids.W_LEARNED``, free while
``net`` decides: ``learned`` is not called), so the batch loops pass the same ``work`` as for
every other strategy and nothing is allocated. Everything is integer (docs/architecture.md,
"GPU-safe kernel code").
"""

from __future__ import annotations

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
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.interop_nb import encode_observation
from tajsim.games.maharaja.strategies.heuristic import decide_nb
from tajsim.games.maharaja.strategies.heuristic_features import penalty_unit
from tajsim.games.maharaja.strategies.heuristic_pick import (
    best_card_gain,
    pair_plan,
    pair_plan_inputs,
)
from tajsim.games.maharaja.strategies.heuristic_work import I_GOLD, load_weights, wt
from tajsim.games.maharaja.strategies.ids import (
    LEARNED_FEATURE_NAMES,
    N_LEARNED_FEATURES,
    NET_FP_SLOT,
    W_LEARNED,
    W_LEARNED_END,
    W_VALUES,
    WEIGHT_ONE,
    WORK_SIZE,
)

__all__ = ["D_IN", "FEATURE_NAMES", "NB_CAND", "NB_SCORES", "N_CANDIDATES", "N_FEATURES",
           "OBS_OFFSETS", "OBS_SIZE", "TEMPERATURE_SCALE", "VALUE_PRIOR", "fill_candidates",
           "net_choose", "net_features_nb", "net_inputs", "net_policy_nb", "net_scores",
           "net_value_nb"]

#: The observation's field offsets (``tajsim.interop.encoding.layout("maharaja")``; a test
#: checks them equal) and its size.
OBS_OFFSETS = (0, 1, 2, 3, 4, 5, 28, 33, 38, 43, 48, 53, 58, 243, 292, 297)
OBS_SIZE = 317
O_PLAYER, O_N_PLAYERS, O_ROUND, O_PHASE, O_MAHARAJA, O_BOXES, O_CARDS, O_GOLD, O_PALACES, \
    O_POOL, O_QUARRY, O_ARCH, O_HOUSES, O_SITES, O_PICKS, O_TURN = OBS_OFFSETS
#: The observation's ``turn`` field (``interop_nb.TURN_SLOTS``): whose turn, its two actions,
#: then the allowances and counts S_T_PAL_ALLOWED .. S_T_TRAVELS, then the house being moved.
T_PLAYER = 0
T_SLOT0 = 1
T_COUNTS = 3
N_TURN_COUNTS = 16
T_MOVE_FROM = T_COUNTS + N_TURN_COUNTS
#: Gold a palace is worth in the mover's lead (the search's ``palace_value``).
LEAD_PALACE = 25

P = E.MAX_PLAYERS
# The inputs x (int64[D_IN]) in blocks (module doc); a seat's blocks are counted from the mover
# (seat player + k), so the network sees "me" and "the next seat" whichever seat it plays.
X_PLAYERS = 0
X_PHASE = X_PLAYERS + P - 1
N_PHASES = len(E.PHASE_NAMES)
X_ROUND = X_PHASE + N_PHASES
X_MAHARAJA = X_ROUND + 1
X_GOV_POS = X_MAHARAJA + E.N_JUNCTIONS
X_GOV_RANK = X_GOV_POS + E.N_CITIES
X_CARD = X_GOV_RANK + E.N_CITIES * E.N_CITIES
X_GOLD = X_CARD + P * E.N_CARDS
X_PALACES = X_GOLD + P
X_POOL = X_PALACES + P
X_QUARRY = X_POOL + P
X_ARCH = X_QUARRY + P
X_LEAD = X_ARCH + P * E.N_JUNCTIONS
X_HOUSES = X_LEAD + 1
X_SITES = X_HOUSES + 2 * E.N_LOCS
X_OWN_PICK = X_SITES + 3 * E.N_CITIES * E.N_SITES
X_REVEALED = X_OWN_PICK + E.N_PAIRS
X_TURN_MINE = X_REVEALED + E.N_ACT
X_TURN_SLOTS = X_TURN_MINE + 1
X_TURN_COUNTS = X_TURN_SLOTS + E.N_ACT
X_MOVE_FROM = X_TURN_COUNTS + N_TURN_COUNTS
D_IN = X_MOVE_FROM + E.N_LOCS

#: The candidates a decision weighs (``turnsearch``'s ``candidates`` and ``step_candidates``).
N_CANDIDATES = 6
#: The action kinds of the features (one-hot; a pick is none of them: its pair has features).
KIND_NAMES = ("done", "travel", "build", "free_build", "move_from", "move_to", "palace",
              "governor", "card")
N_KINDS = len(KIND_NAMES)
FEATURE_NAMES = LEARNED_FEATURE_NAMES + tuple(f"is_{k}" for k in KIND_NAMES) + (
    "palace_centre", "rank")
N_FEATURES = len(FEATURE_NAMES)
F_KIND = N_LEARNED_FEATURES
F_CENTRE = F_KIND + N_KINDS
F_RANK = F_CENTRE + 1
#: The weight of the value feature in every score: ``theta = 0`` plays the heuristic's order
#: (a power of two, exact in fixed point: 4 gold of the heuristic's value a nat of the softmax;
#: 1/16 and 1/4 imitated the search equally well on the first round's data).
VALUE_PRIOR = 1.0 / 4.0
#: The value feature's cap, in the heuristic's gold below the best candidate (the module doc):
#: 10, 16 and 30 imitated the search equally well on held-out decisions of the first round,
#: uncapped worse.
VALUE_GAP_CAP = 16
VALUE_PRIOR_FIXED = value_prior_fixed(VALUE_PRIOR)
#: Score units (after ``>> THETA_SHIFT``: thousandths of the trained softmax's units) per unit
#: of temperature: temperature 1 draws from the softmax the training fitted.
TEMPERATURE_SCALE = 1000
assert WEIGHT_ONE == 1 << 10  # thousandths of a fixed-point value: (v x 1000) >> 10
ONE_SHIFT = 10

# The policy's block of ``work`` (from ``W_LEARNED``): the observation, the inputs, the
# candidates' features (N_CANDIDATES x N_FEATURES, candidate-major), their values, their
# indices into ``legal``, their scores (and those scores in the temperature's units), the
# hidden units and theta.
NB_OBS = W_LEARNED
NB_X = NB_OBS + OBS_SIZE
NB_PHI = NB_X + D_IN
NB_VALUE = NB_PHI + N_CANDIDATES * N_FEATURES
NB_CAND = NB_VALUE + N_CANDIDATES
NB_SCORES = NB_CAND + N_CANDIDATES
NB_DRAW = NB_SCORES + N_CANDIDATES
NB_H = NB_DRAW + N_CANDIDATES
NB_THETA = NB_H + MAX_HIDDEN
NB_END = NB_THETA + N_FEATURES
assert NB_END <= W_LEARNED_END


@kernel
def net_inputs(obs, player, x):
    """The network's inputs ``x`` (int64[D_IN], out) from seat ``player``'s observation ``obs``
    (int64[OBS_SIZE], ``encode_observation``'s; empty slots are -1)."""
    for i in range(D_IN):
        x[i] = 0
    n = obs[O_N_PLAYERS]
    if 2 <= n <= P:
        x[X_PLAYERS + n - 2] = 1
    phase = obs[O_PHASE]
    if 0 <= phase < N_PHASES:
        x[X_PHASE + phase] = 1
    x[X_ROUND] = obs[O_ROUND]
    mj = obs[O_MAHARAJA]
    if 0 <= mj < E.N_JUNCTIONS:
        x[X_MAHARAJA + mj] = 1
    # each governor's place (1 the bottom start box), then its rank among them: the Maharaja
    # visits the lowest governor's city next
    for k in range(E.TRACK_SIZE - 1):
        city = obs[O_BOXES + k]
        if 0 <= city < E.N_CITIES:
            x[X_GOV_POS + city] = k + 1
    for c in range(E.N_CITIES):
        pos = x[X_GOV_POS + c]
        if pos > 0:
            rank = 0
            for d in range(E.N_CITIES):
                if 0 < x[X_GOV_POS + d] < pos:
                    rank += 1
            x[X_GOV_RANK + E.N_CITIES * c + rank] = 1
    mine = np.int64(0)
    best_other = np.int64(-(1 << 40))
    for k in range(n):
        q = (player + k) % n
        card = obs[O_CARDS + q]
        if 0 <= card < E.N_CARDS:
            x[X_CARD + E.N_CARDS * k + card] = 1
        x[X_GOLD + k] = obs[O_GOLD + q]
        x[X_PALACES + k] = obs[O_PALACES + q]
        x[X_POOL + k] = obs[O_POOL + q]
        x[X_QUARRY + k] = obs[O_QUARRY + q]
        arch = obs[O_ARCH + q]
        if 0 <= arch < E.N_JUNCTIONS:
            x[X_ARCH + E.N_JUNCTIONS * k + arch] = 1
        score = LEAD_PALACE * obs[O_PALACES + q] + obs[O_GOLD + q]
        if k == 0:
            mine = score
        elif score > best_other:
            best_other = score
    if n > 1:
        x[X_LEAD] = mine - best_other
    for loc in range(E.N_LOCS):
        others = np.int64(0)
        for q in range(n):
            h = obs[O_HOUSES + loc * P + q]
            if q == player:
                x[X_HOUSES + 2 * loc] = h
            elif h > 0:
                others += h
        x[X_HOUSES + 2 * loc + 1] = others
    for s in range(E.N_CITIES * E.N_SITES):
        owner = obs[O_SITES + s]
        if owner == player:
            x[X_SITES + 3 * s] = 1
        elif owner >= 0:
            x[X_SITES + 3 * s + 1] = 1
        elif owner == E.SITE_NEUTRAL:
            x[X_SITES + 3 * s + 2] = 1
    for q in range(n):  # the observation holds the own pick and the revealed ones only
        pick = obs[O_PICKS + q]
        if 0 <= pick < E.N_PAIRS:
            if q == player:
                x[X_OWN_PICK + pick] = 1
            else:
                x[X_REVEALED + E.PAIR_A[pick]] += 1
                x[X_REVEALED + E.PAIR_B[pick]] += 1
    if obs[O_TURN + T_PLAYER] >= 0:  # a turn in progress (else the field is empty)
        x[X_TURN_MINE] = 1 if obs[O_TURN + T_PLAYER] == player else 0
        for j in range(2):
            act = obs[O_TURN + T_SLOT0 + j]
            if 0 <= act < E.N_ACT:
                x[X_TURN_SLOTS + act] += 1
        for j in range(N_TURN_COUNTS):
            x[X_TURN_COUNTS + j] = obs[O_TURN + T_COUNTS + j]
        loc = obs[O_TURN + T_MOVE_FROM]
        if 0 <= loc < E.N_LOCS:
            x[X_MOVE_FROM + loc] = 1


@kernel(inline="always")
def thousandths(v):
    """A fixed-point value (units 1 / WEIGHT_ONE) in thousandths, rounded down (a shift: the
    same on every device)."""
    return (v * 1000) >> ONE_SHIFT


@kernel
def action_kind_features(action, phi, at):
    """The kind features of a step's ``action`` into ``phi[at + F_KIND:]`` (thousandths; the
    caller zeroed them): its kind, a palace at the centre."""
    kind = -1
    if action == E.ACTION_DONE:
        kind = 0
    elif E.ACTION_TRAVEL <= action < E.ACTION_BUILD:
        kind = 1
    elif E.ACTION_BUILD <= action < E.ACTION_FREE_BUILD:
        kind = 2
    elif E.ACTION_FREE_BUILD <= action < E.ACTION_MOVE_FROM:
        kind = 3
    elif E.ACTION_MOVE_FROM <= action < E.ACTION_MOVE_TO:
        kind = 4
    elif E.ACTION_MOVE_TO <= action < E.ACTION_PALACE:
        kind = 5
    elif E.ACTION_PALACE <= action < E.ACTION_GOVERNOR:
        kind = 6
        if action == E.ACTION_PALACE:
            phi[at + F_CENTRE] = 1000
    elif E.ACTION_GOVERNOR <= action < E.ACTION_CARD:
        kind = 7
    elif E.ACTION_CARD <= action < E.N_ACTIONS:
        kind = 8
    if kind >= 0:
        phi[at + F_KIND + kind] = 1000


@kernel
def pick_features(state, comp, p, pair, phi, at, work):
    """``learned``'s pick features of pair ``pair`` for seat ``p`` into ``phi[at + 2:at +
    N_LEARNED_FEATURES]`` (int64 thousandths; ``learned.fill_pick_features``'s quantities, in
    integers): the heuristic's plan for the pair, from the scratch ``decide_nb`` just filled
    for ``p`` at this pick."""
    w_gold = wt(work, I_GOLD)
    inputs = pair_plan_inputs(state, comp, p, work)
    card_gain = best_card_gain(state, comp, p, work)
    pen = penalty_unit(state, comp, work)
    best_other = 0
    for q in range(state[E.S_N_PLAYERS]):
        if q != p and state[E.S_PALACES + q] > best_other:
            best_other = state[E.S_PALACES + q]
    behind = best_other - state[E.S_PALACES + p]
    rnd = state[E.S_ROUND]
    (_, gold_actions, palaces_built, houses_built, failed, gold_left, palace_part, house_part,
     governor, character, move_or_quarry) = pair_plan(comp, pair, inputs, card_gain, pen,
                                                      w_gold, work)
    phi[at + 2] = 1000 * gold_actions
    phi[at + 3] = 1000 * palaces_built
    phi[at + 4] = 1000 * houses_built
    phi[at + 5] = 1000 * failed
    phi[at + 6] = 1000 * gold_left
    phi[at + 7] = thousandths(palace_part)
    phi[at + 8] = thousandths(house_part)
    phi[at + 9] = 1000 * governor
    phi[at + 10] = 1000 * character
    phi[at + 11] = 1000 * move_or_quarry
    phi[at + 12] = 100 * palaces_built * rnd  # x round / 10, the game's progress
    phi[at + 13] = 100 * gold_actions * rnd
    phi[at + 14] = 1000 * palaces_built * behind


@kernel
def fill_candidates(state, comp, player, params, legal, n_legal, work):
    """The decision's candidates and their features, in ``work`` (module doc); returns how many
    (``min(N_CANDIDATES, n_legal)``).

    The base heuristic (weights ``params[:N_WEIGHTS]``, float64) values every legal action
    (``decide_nb``); the ``N_CANDIDATES`` best, best first (ties: the earlier action, as the
    heuristic decides), go to ``work[NB_CAND + k]`` (their indices into ``legal``), their
    values to ``work[NB_VALUE + k]`` and their features to ``work[NB_PHI + k * N_FEATURES:]``
    (int64 thousandths, ``FEATURE_NAMES``). ``work``: int64[WORK_SIZE]; the heuristic's block,
    ``W_VALUES`` and the block from ``NB_PHI`` to ``NB_END`` are overwritten."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    work = borrowed(work)
    load_weights(params, work)
    decide_nb(state, comp, player, legal, n_legal, work)  # every value into W_VALUES + i
    pick = state[E.S_PHASE] == E.PHASE_PICK
    cap = np.int64(VALUE_GAP_CAP * WEIGHT_ONE)
    n_cand = 0
    for k in range(min(N_CANDIDATES, n_legal)):
        best = -1
        for i in range(n_legal):
            taken = False
            for j in range(k):
                if work[NB_CAND + j] == i:
                    taken = True
            if taken:
                continue
            if best < 0 or work[W_VALUES + i] > work[W_VALUES + best]:
                best = i
        work[NB_CAND + k] = best
        v = work[W_VALUES + best]
        work[NB_VALUE + k] = v
        at = NB_PHI + k * N_FEATURES
        for f in range(N_FEATURES):
            work[at + f] = 0
        # the distance below the best (k = 0: the first), capped (module doc)
        work[at] = -thousandths(min(work[NB_VALUE] - v, cap))
        work[at + 1] = 0 if pick else work[at]
        work[at + F_RANK] = 1000 * k
        if pick:
            pick_features(state, comp, player, legal[best] - E.ACTION_PICK, work, at, work)
        else:
            action_kind_features(legal[best], work, at)
        n_cand += 1
    return n_cand


@kernel
def observe(state, comp, player, work):
    """Seat ``player``'s observation into ``work[NB_OBS:]`` and the network's inputs into
    ``work[NB_X:NB_X + D_IN]``."""
    obs = work[NB_OBS:NB_OBS + OBS_SIZE]
    encode_observation(state, comp, player, OBS_OFFSETS, obs)
    net_inputs(obs, player, work[NB_X:NB_X + D_IN])


@kernel
def net_features_nb(state, comp, player, params, legal, n_legal, x_out, phi_out, cand_out):
    """The training data of one decision: the inputs into ``x_out`` (int64[D_IN]), the
    candidates' features into ``phi_out[k, :N_FEATURES]`` (int64 thousandths, best by value
    first) and their indices into ``legal`` into ``cand_out[k]`` (int64[N_CANDIDATES]);
    returns how many candidates. The same candidates, order and features as the policy's.
    ``params``: float64[>= N_WEIGHTS], the base heuristic's weights first."""
    work = np.zeros(WORK_SIZE, np.int64)
    observe(state, comp, player, work)
    for i in range(D_IN):
        x_out[i] = work[NB_X + i]
    n_cand = fill_candidates(state, comp, player, params, legal, n_legal, work)
    for k in range(n_cand):
        for f in range(N_FEATURES):
            phi_out[k, f] = work[NB_PHI + k * N_FEATURES + f]
        cand_out[k] = work[NB_CAND + k]
    return n_cand


@kernel
def net_base(net, params):
    """Where the seat's weights set (``params[NET_FP_SLOT]``'s fingerprint) starts in ``net``,
    or -1: none, or a set of other dimensions (another game's: its layout would be misread)."""
    return net_set_offset_checked(net, fingerprint_at(params, NET_FP_SLOT), D_IN, N_FEATURES)


@kernel
def net_scores(state, comp, player, params, legal, n_legal, net, work):
    """Score the candidates of ``legal[:n_legal]``: returns how many (``work[NB_CAND:]`` their
    indices into ``legal``, best by value first; ``work[NB_SCORES:]`` their scores, int64 in
    2**-THETA_SHIFT thousandths), or -1 when ``net`` holds no set of this game for the seat's
    fingerprint.

    ``params``: float64[N_PARAMS] (the base heuristic's weights first, the fingerprint at
    ``NET_FP_SLOT``); ``net``: int64[...] (:mod:`tajsim.engine.net_nb`); ``work``:
    int64[WORK_SIZE] scratch (the heuristic's block, ``W_VALUES`` and this module's block)."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    work = borrowed(work)
    base = net_base(net, params)
    if base < 0:
        return np.int64(-1)
    observe(state, comp, player, work)
    net_forward(net, base, work[NB_X:NB_X + D_IN], work[NB_H:NB_H + MAX_HIDDEN],
                work[NB_THETA:NB_THETA + N_FEATURES])
    n_cand = fill_candidates(state, comp, player, params, legal, n_legal, work)
    for k in range(n_cand):
        at = NB_PHI + k * N_FEATURES
        work[NB_SCORES + k] = candidate_score(work[NB_THETA:NB_THETA + N_FEATURES],
                                              work[at:at + N_FEATURES], N_FEATURES,
                                              VALUE_PRIOR_FIXED)
    return n_cand


@kernel
def net_choose(state, comp, player, params, prng, legal, n_legal, net, work):
    """``net``'s action among ``legal[:n_legal]`` (module doc), in the caller's ``work``
    (int64[WORK_SIZE]). At temperature 0 (``params[-2]``) the best score, a tie going to the
    better candidate by value, with no draw; above 0 (``TEMPERATURE_SCALE``) the integer
    softmax of the scores, drawn from ``prng[player]``. A seat whose set is not in ``net``
    plays ``legal[0]`` (``kernel_switches`` packs every set a line-up names)."""
    n_cand = net_scores(state, comp, player, params, legal, n_legal, net, work)
    if n_cand <= 0:
        return legal[0]
    t_units = temperature_units(params, TEMPERATURE_SCALE)
    if t_units == 0:
        return legal[work[NB_CAND + best_candidate(work, NB_SCORES, n_cand)]]
    for k in range(n_cand):
        work[NB_DRAW + k] = work[NB_SCORES + k] >> THETA_SHIFT
    k = softmax_index(work, NB_DRAW, n_cand, t_units, prng, player, 0)
    return legal[work[NB_CAND + k]]


# Inlined into the dispatcher, as the other policies (one module fewer on a cold compile).
@kernel(inline="always")
def net_policy_nb(state, comp, player, params, prng, legal, n_legal, net, work):
    """The ``net`` strategy (``net_choose``): the dispatcher's entry."""
    return net_choose(state, comp, player, params, prng, legal, n_legal, net, work)


@kernel
def net_value_nb(state, comp, player, params, net):
    """The value head's estimate of the mover's result at ``state`` (float: 1 a win), or NaN
    when ``net`` holds no set of this game for the seat's fingerprint."""
    base = net_base(net, params)
    if base < 0:
        return np.nan
    work = np.zeros(WORK_SIZE, np.int64)
    observe(state, comp, player, work)
    h = work[NB_H:NB_H + MAX_HIDDEN]
    net_hidden(net, base, work[NB_X:NB_X + D_IN], h)
    return net_value_of(net, base, h) / float(1 << (2 * SHIFT))
