"""Search for the simultaneous secret choice: decoupled bandits over the seats' pairs.

The secret pick is a simultaneous move: every seat chooses a pair without seeing the others.
At its pick the searching seat treats all picks as simultaneous (the ones already made are
hidden from it, so it never reads them) and runs a decoupled bandit search at that one node
(decoupled UCT for simultaneous moves):

1. **Candidates.** Each seat's candidate pairs are its ``candidates`` best pairs by the
   heuristic's pair values with the rollout weights (``params[N_WEIGHTS:]``), computed from
   what everyone can see.
2. **Iterations.** Every seat picks one of its candidates with its own UCB1 bandit (integer
   fixed point: mean reward plus ``exploration * sqrt(ln N / n_i)`` from an integer log table
   and an integer square root), the state copy gets those picks, the round is played out with
   the rollout policy, then ``horizon`` more rounds (picks included), and every seat's bandit
   is rewarded with its own value minus the best other value: palaces at ``palace_value`` gold
   each, plus gold, plus ``win_bonus`` for the winner of a finished game.
3. **Decision.** The searching seat takes its most visited candidate (ties: higher reward sum,
   then the better heuristic rank; above temperature 0, a draw from the seat's stream among
   the candidates tied on visits and reward sum).

Generic options (:mod:`tajsim.engine.choice`). The rollouts play at the searcher's temperature
(the last slots of ``params[N_WEIGHTS:]`` are the searcher's), so above 0 they draw from the
rollout streams. A restriction (``forbid=``) removes the searcher's own forbidden pairs from its
candidates and its forbidden actions from its decisions outside the pick, and its rollouts
restrict its own seat's later decisions too (its later turns are played as it will play them);
the other seats play unrestricted.

The search runs ``iterations`` iterations, or with ``ms`` > 0 as many as fit in ``ms``
milliseconds of the thread's CPU time (:mod:`tajsim.engine.clock`, checked after every
iteration): a game played with ``ms`` then depends on the machine's speed and is not
reproducible from its seed; without it (the default) it is. Beyond ``MAX_ITERATIONS``
iterations the bandits' log term stays at the table's last entry (slightly less exploration).

Decisions after the pick (the turn's steps, the draft, setup houses) use the rollout policy.
Everything is integer, the rollouts' randomness comes from the seat's own stream, and nothing
hidden is read, so the decision does not change when ``redraw_hidden`` redraws the others'
unrevealed picks.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed, copy_into
from tajsim.engine.choice import forbid_mask, temperature_units
from tajsim.engine.clock import thread_time_ns
from tajsim.engine.intmath import isqrt
from tajsim.engine.rng import below, derive_seed, next_u64
from tajsim.engine.stop import stop_requested
from tajsim.games.maharaja.engine.enums import (
    ACTION_DONE,
    ACTION_PICK,
    MAX_PLAYERS,
    N_PAIRS,
    PHASE_GAME_OVER,
    PHASE_PICK,
    S_COUNTER,
    S_CUR,
    S_GOLD,
    S_N_PLAYERS,
    S_PALACES,
    S_PHASE,
    S_PICK,
    S_ROUND,
    S_WINNER,
    STATE_SIZE,
)
from tajsim.games.maharaja.engine.nb import apply_action_nb, begin_turns, legal_actions_nb
from tajsim.games.maharaja.strategies.heuristic_pick import fill_pair_values
from tajsim.games.maharaja.strategies.heuristic_work import load_weights
from tajsim.games.maharaja.strategies.ids import (
    MAX_CANDIDATES,
    MAX_ITERATIONS,
    N_WEIGHTS,
    SEARCH_ROLLOUT_SLOT,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_SEARCH,
    STRATEGY_TURNSEARCH,
    W_SEARCH_CAND,
    W_SEARCH_CHOICE,
    W_SEARCH_EVAL,
    W_SEARCH_LEGAL,
    W_SEARCH_N,
    W_SEARCH_NCAND,
    W_SEARCH_PAIRV,
    W_SEARCH_PRNG,
    W_SEARCH_STATE,
    W_SEARCH_SUM,
    WEIGHT_ONE,
)
from tajsim.games.maharaja.strategies.restrictions import restrict_legal
from tajsim.games.maharaja.strategies.rollout import simple_choice_nb

P = MAX_PLAYERS
# Parameter slots (names in SEARCH_PARAM_NAMES).
I_ITERATIONS = 0
I_CANDIDATES = 1
I_HORIZON = 2  # further rounds played after the current one
I_EXPLORATION = 3  # gold
I_PALACE_VALUE = 4  # gold per palace in the evaluation
# the rollout policy's strategy id (0 random, 1 greedy, 2 heuristic, 4 learned, 6 net)
I_ROLLOUT = SEARCH_ROLLOUT_SLOT
I_WIN_BONUS = 6  # gold for the winner of a finished game
I_MS = 7  # > 0: search for this many ms of thread CPU time a pick instead of `iterations`
SEARCH_PARAM_NAMES = ("iterations", "candidates", "horizon", "exploration", "palace_value",
                      "rollout", "win_bonus", "ms")
SALT_ROLLOUT = 0x5EA2
LN_ONE = 4096  # fixed point of the log table
# LN_TABLE[n] = round(ln(n) * 4096): integer constants, the same on every device
LN_TABLE = np.array([0] + [round(math.log(n) * LN_ONE) for n in range(1, MAX_ITERATIONS + 2)],
                    np.int64)


@njit(cache=True)
def clamp_int(x, low, high):
    v = np.int64(x)
    return low if v < low else (high if v > high else v)


ALL_PAIRS = (np.int64(1) << N_PAIRS) - 1


@njit(cache=True)
def fill_candidates(state, comp, seat, k, work, allowed=ALL_PAIRS):
    """Seat's ``k`` best pairs by the heuristic pair values (weights already loaded), among the
    pairs whose bit is set in ``allowed`` (int64: a restricted searcher's own pairs); fewer if
    fewer are allowed."""
    state = borrowed(state)
    comp = borrowed(comp)
    work = borrowed(work)
    # np.int64: a non-literal offset, as the heuristic passes (numba compiles a kernel anew for
    # each literal argument value: a second fill_pair_values cost 12 s of a cold compile)
    fill_pair_values(state, comp, seat, work, work, np.int64(W_SEARCH_PAIRV))
    base = W_SEARCH_CAND + seat * MAX_CANDIDATES
    chosen = 0
    n_cand = 0
    for i in range(k):
        best = -1
        for pair in range(N_PAIRS):
            if (chosen >> pair) & 1 or not (allowed >> pair) & 1:
                continue
            if best < 0 or work[W_SEARCH_PAIRV + pair] > work[W_SEARCH_PAIRV + best]:
                best = pair
        if best < 0:
            break
        chosen |= np.int64(1) << best
        work[base + i] = best
        n_cand += 1
    work[W_SEARCH_NCAND + seat] = n_cand


@njit(cache=True)
def select_ucb(seat, total, c_explore, work):
    """Candidate index of seat's bandit: an untried one first, else the best integer UCB1."""
    return select_ucb_at(seat * MAX_CANDIDATES, work[W_SEARCH_NCAND + seat], total, c_explore,
                         work)


@njit(cache=True)
def select_ucb_at(base, k, total, c_explore, work):
    """Candidate index of the bandit of ``k`` candidates whose visit counts and sums start at
    ``work[W_SEARCH_N + base]`` and ``work[W_SEARCH_SUM + base]``: an untried one first (in
    their order), else the best integer UCB1 after ``total`` iterations."""
    for i in range(k):
        if work[W_SEARCH_N + base + i] == 0:
            return i
    ln = LN_TABLE[min(total, MAX_ITERATIONS + 1)]
    best_i = 0
    best_score = np.int64(-(1 << 60))
    for i in range(k):
        n_i = work[W_SEARCH_N + base + i]
        score = work[W_SEARCH_SUM + base + i] * 64 // n_i + c_explore * isqrt(ln // n_i)
        if score > best_score:
            best_score = score
            best_i = i
    return best_i


@njit(cache=True)
def roll_out(det, comp, player, last_round, mask, rollout_id, rparams, rprng, legal, work,
             heuristics, learned, net=None):
    """Play the copy ``det`` on with the rollout policy until the game ends or a pick of a round
    after ``last_round`` begins; the searching seat's own decisions keep its restriction
    (``mask``). ``legal`` (int64[N_ACTIONS]) is scratch."""
    while det[S_PHASE] != PHASE_GAME_OVER:
        if det[S_PHASE] == PHASE_PICK and det[S_ROUND] > last_round:
            break
        n_leg = legal_actions_nb(det, comp, legal)
        if mask != 0 and det[S_CUR] == player:  # its own later decisions, restricted too
            n_leg = restrict_legal(det, legal, n_leg, mask)
        if n_leg == 1:
            action = legal[0]
        else:
            action = simple_choice_nb(rollout_id, det, comp, det[S_CUR], rparams, rprng,
                                      legal, n_leg, work, heuristics, learned, net)
        apply_action_nb(det, comp, action)


@njit(cache=True)
def most_visited(base, k, draw_ties, prng, player, work):
    """The bandit at ``base``'s answer among its ``k`` candidates: the most visited, then the
    larger reward sum, then the better heuristic rank; with ``draw_ties`` (above temperature 0)
    exact ties on visits and sum are drawn from ``prng[player]`` instead."""
    best_i = 0
    for i in range(1, k):
        n_i = work[W_SEARCH_N + base + i]
        n_b = work[W_SEARCH_N + base + best_i]
        if n_i > n_b or (n_i == n_b and work[W_SEARCH_SUM + base + i] >
                         work[W_SEARCH_SUM + base + best_i]):
            best_i = i
    if draw_ties:
        n_b = work[W_SEARCH_N + base + best_i]
        sum_b = work[W_SEARCH_SUM + base + best_i]
        tied = 0
        for i in range(k):
            if work[W_SEARCH_N + base + i] == n_b and work[W_SEARCH_SUM + base + i] == sum_b:
                tied += 1
        if tied > 1:
            r = below(prng, player, tied)
            for i in range(k):
                if work[W_SEARCH_N + base + i] == n_b and \
                        work[W_SEARCH_SUM + base + i] == sum_b:
                    if r == 0:
                        return i
                    r -= 1
    return best_i


@njit(cache=True)
def rollout_policy_id(params):
    """The rollout policy's strategy id from ``params[I_ROLLOUT]``: 0 random, 1 greedy, 2 the
    heuristic (``r_*`` weights), 4 ``learned`` (``r_*`` weights and ``r_w_*`` theta), 6 ``net``
    (``r_*`` weights, the weights set's fingerprint in the first ``r_w_*`` slot: built by
    ``registry.expert_with_net_rollout``, the parameter check keeps users' values at 0..4); 3
    and 5 (the searches themselves) are the heuristic, as before ``learned`` existed."""
    rollout_id = clamp_int(params[I_ROLLOUT], 0, STRATEGY_NET)
    if rollout_id == STRATEGY_SEARCH or rollout_id == STRATEGY_TURNSEARCH:
        return STRATEGY_HEURISTIC
    return rollout_id


@njit(cache=True)
def check_rollout_switches(rollout_id, learned, net):
    """Refuse a rollout policy the kernel was compiled without (one line, not another policy
    played silently)."""
    if learned is None and rollout_id == STRATEGY_LEARNED:
        raise ValueError("the search rolls out with learned, but the kernel has learned=None")
    if net is None and rollout_id == STRATEGY_NET:
        raise ValueError("the search rolls out with net, but the kernel has net=None")


@njit(cache=True)
def evaluate(det, n, palace_value, win_bonus, work):
    for q in range(n):
        v = det[S_PALACES + q] * palace_value + det[S_GOLD + q]
        if det[S_PHASE] == PHASE_GAME_OVER and det[S_WINNER + q] == 1:
            v += win_bonus
        work[W_SEARCH_EVAL + q] = v


@njit(cache=True)
def search_pick(state, comp, player, params, prng, legal, n_legal, work, heuristics=True,
                learned=True, net=None):
    """The searching seat's pick (an ``ACTION_PICK + pair`` action) among ``legal[:n_legal]``
    when a restriction shortened it; see the module doc."""
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    work = borrowed(work)
    n = state[S_N_PLAYERS]
    iterations = clamp_int(params[I_ITERATIONS], 1, MAX_ITERATIONS)
    # A time budget replaces the iteration count (records then depend on the machine's speed).
    budget_ns = int(np.floor(params[I_MS] * 1e6 + 0.5)) if params[I_MS] > 0 else 0
    start_ns = thread_time_ns() if budget_ns > 0 else 0
    k = clamp_int(params[I_CANDIDATES], 1, MAX_CANDIDATES)
    horizon = clamp_int(params[I_HORIZON], 0, 100)
    c_explore = clamp_int(params[I_EXPLORATION], 0, 1000)
    palace_value = clamp_int(params[I_PALACE_VALUE], 0, 100000)
    rollout_id = rollout_policy_id(params)
    check_rollout_switches(rollout_id, learned, net)
    win_bonus = clamp_int(params[I_WIN_BONUS], 0, 100000)
    rparams = params[N_WEIGHTS:]
    load_weights(rparams, work)
    own = ALL_PAIRS
    mask = forbid_mask(params)
    if mask != 0:  # unrestricted: every pair, as before restrictions existed
        own = np.int64(0)
        for i in range(n_legal):
            if legal[i] < ACTION_DONE:
                own |= np.int64(1) << (legal[i] - ACTION_PICK)
    for q in range(n):
        fill_candidates(state, comp, q, k, work, own if q == player else ALL_PAIRS)
        for i in range(MAX_CANDIDATES):
            work[W_SEARCH_N + q * MAX_CANDIDATES + i] = 0
            work[W_SEARCH_SUM + q * MAX_CANDIDATES + i] = 0
    det = work[W_SEARCH_STATE:W_SEARCH_STATE + STATE_SIZE]
    legal = work[W_SEARCH_LEGAL:W_SEARCH_PRNG]
    rprng = work[W_SEARCH_PRNG:W_SEARCH_PRNG + P]
    base_seed = np.int64(next_u64(prng, player))
    for q in range(P):
        rprng[q] = derive_seed(base_seed, q, SALT_ROLLOUT)
    last_round = state[S_ROUND] + horizon
    it = 0
    while True:
        copy_into(det, state)
        for q in range(n):
            i = select_ucb(q, it, c_explore, work)
            work[W_SEARCH_CHOICE + q] = i
            det[S_PICK + q] = work[W_SEARCH_CAND + q * MAX_CANDIDATES + i]
        det[S_COUNTER] = n
        begin_turns(det, comp)
        roll_out(det, comp, player, last_round, mask, rollout_id, rparams, rprng, legal, work,
                 heuristics, learned, net)
        evaluate(det, n, palace_value, win_bonus, work)
        for q in range(n):
            best_other = np.int64(-(1 << 60))
            for o in range(n):
                if o != q and work[W_SEARCH_EVAL + o] > best_other:
                    best_other = work[W_SEARCH_EVAL + o]
            slot = q * MAX_CANDIDATES + work[W_SEARCH_CHOICE + q]
            work[W_SEARCH_N + slot] += 1
            work[W_SEARCH_SUM + slot] += work[W_SEARCH_EVAL + q] - best_other
        it += 1
        if stop_requested():  # Ctrl-C (tajsim.engine.stop): the run discards this game
            break
        if budget_ns > 0:
            if thread_time_ns() - start_ns >= budget_ns:
                break
        elif it >= iterations:
            break
    base = player * MAX_CANDIDATES
    best_i = most_visited(base, work[W_SEARCH_NCAND + player],
                          temperature_units(params, WEIGHT_ONE) > 0, prng, player, work)
    return ACTION_PICK + work[W_SEARCH_CAND + base + best_i]


# Inlined into the dispatcher: as a kernel of its own it would be one more module in which
# LLVM optimises and compiles the whole search again (cold compile).
@njit(cache=True, inline="always")
def search_policy_nb(state, comp, player, params, prng, legal, n_legal, work, heuristics=True,
                     learned=True, net=None):
    """The search strategy: ``search_pick`` at the secret choice, the rollout policy elsewhere.

    Parameters
    ----------
    params : float64[N_PARAMS]; slots ``SEARCH_PARAM_NAMES``, rollout weights from N_WEIGHTS
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances
    work : int64[WORK_SIZE] scratch
    """
    if state[S_PHASE] == PHASE_PICK and n_legal > 1:
        return search_pick(state, comp, player, params, prng, legal, n_legal, work, heuristics,
                           learned, net)
    rollout_id = rollout_policy_id(params)
    check_rollout_switches(rollout_id, learned, net)
    return simple_choice_nb(rollout_id, state, comp, player, params[N_WEIGHTS:], prng, legal,
                            n_legal, work, heuristics, learned, net)
