"""``turnsearch``: a search of every decision of the game, not only the secret pick.

The old ``search`` (:mod:`~tajsim.games.maharaja.strategies.search`) searches the secret pick
and plays the draft, the setup houses and every step of the turn with its rollout policy
(``hoarder``); its strength does not grow with its budget (issue 41). This strategy searches
them all:

* **The secret pick**: the same decoupled bandit search over the seats' candidate pairs
  (``search_pick``, with this strategy's settings: ``horizon`` is the pick's, as there).
* **Every other decision with more than one legal action** (the draft, the setup houses, each
  step of the turn, a moved house's destination, a replacement card): a UCB1 bandit over the
  ``step_candidates`` best legal actions by the rollout heuristic's values (``r_*`` weights;
  the heuristic's own choice first). An iteration copies the state, **redraws what the seat
  cannot see** (every other seat's unrevealed pick becomes one of that seat's ``guess`` best
  pairs by the heuristic's pair values, computed from the public state, drawn from the
  searcher's rollout stream), plays the candidate, plays on with the rollout policy to the end
  of the round plus ``step_horizon`` rounds (100: to the game's end), and rewards the candidate with
  the seat's value minus the best other value (palaces at ``palace_value`` gold, plus gold,
  plus ``win_bonus`` for the winner of a finished game). The decision is the most visited
  candidate (ties: the higher reward sum, then the better heuristic rank; above temperature 0
  ties are drawn from the seat's stream). This is policy improvement by rollouts (Tesauro and
  Galperin 1996) with determinized hidden information (Cowling, Powley and Whitehouse 2012).
* **When nothing is hidden** at a decision (no unrevealed pick of another seat) and the
  rollouts draw no chance (a deterministic rollout policy at temperature 0), a rollout of a
  candidate is a function of the candidate: the search rolls out each candidate once, in the
  heuristic's order, until the budget is spent or every candidate is tried; more budget then
  means more candidates compared, up to ``step_candidates``.

Budget: ``iterations`` rollouts a decision, or with ``ms`` > 0 as many as fit in ``ms``
milliseconds of the thread's CPU time a decision (:mod:`tajsim.engine.clock`, checked after
every rollout; a game played with ``ms`` depends on the machine's speed and is not reproducible
from its seed, without it it is). The first rollout is always played, so a decision is never
left without one. :func:`tajsim.engine.stop.stop_requested` (Ctrl-C) ends the search after the
current rollout.

Restriction (``forbid=``): the dispatcher has removed the seat's forbidden actions from
``legal`` already; in the rollouts the seat's own later decisions are restricted too (it plays
them as it will), the other seats play unrestricted (as in ``search``).

Everything is integer (the same integer log table and square root as ``search``), the
rollouts' randomness comes from the seat's own stream, and nothing hidden is read: the other
seats' unrevealed picks are overwritten in the copy before any rollout reads it, so the
decision does not change when ``redraw_hidden`` redraws them. CPU only (the GPU plays no
search).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed, copy_into
from tajsim.engine.choice import forbid_mask, temperature_units
from tajsim.engine.clock import thread_time_ns
from tajsim.engine.rng import below, derive_seed, next_u64
from tajsim.engine.stop import stop_requested
from tajsim.games.maharaja.engine.enums import (
    MAX_PLAYERS,
    PHASE_PICK,
    S_N_PLAYERS,
    S_PHASE,
    S_PICK,
    S_REVEALED,
    S_ROUND,
    STATE_SIZE,
)
from tajsim.games.maharaja.engine.nb import apply_action_nb
from tajsim.games.maharaja.strategies.heuristic import decide_nb
from tajsim.games.maharaja.strategies.heuristic_work import load_weights
from tajsim.games.maharaja.strategies.ids import (
    MAX_CANDIDATES,
    MAX_ITERATIONS,
    N_WEIGHTS,
    STRATEGY_RANDOM,
    W_SEARCH_CAND,
    W_SEARCH_EVAL,
    W_SEARCH_LEGAL,
    W_SEARCH_N,
    W_SEARCH_NCAND,
    W_SEARCH_PRNG,
    W_SEARCH_STATE,
    W_SEARCH_SUM,
    W_VALUES,
    WEIGHT_ONE,
)
from tajsim.games.maharaja.strategies.search import (
    ALL_PAIRS,
    I_EXPLORATION,
    I_ITERATIONS,
    I_MS,
    I_PALACE_VALUE,
    I_WIN_BONUS,
    SEARCH_PARAM_NAMES,
    check_rollout_switches,
    clamp_int,
    evaluate,
    fill_candidates,
    most_visited,
    roll_out,
    rollout_policy_id,
    search_pick,
    select_ucb_at,
)

P = MAX_PLAYERS
# Parameter slots after the search's own (SEARCH_PARAM_NAMES: the same meaning here).
I_STEP_CANDIDATES = len(SEARCH_PARAM_NAMES)  # actions searched at a decision other than a pick
I_GUESS = I_STEP_CANDIDATES + 1  # a hidden pick is redrawn among the seat's best this many
I_STEP_HORIZON = I_GUESS + 1  # rounds a step's rollouts play after the current one
TURN_SEARCH_PARAM_NAMES = SEARCH_PARAM_NAMES + ("step_candidates", "guess", "step_horizon")
assert len(TURN_SEARCH_PARAM_NAMES) <= N_WEIGHTS
SALT_STEP = 0x7A5C  # the step search's rollout streams (not the pick search's SALT_ROLLOUT)
NEG_VALUE = np.int64(-(1 << 62))


@njit(cache=True)
def fill_step_candidates(state, comp, player, legal, n_legal, k, work):
    """The ``k`` best of ``legal[:n_legal]`` by the rollout heuristic's values (its weights
    already loaded into ``work``; ties: the earlier action, as the heuristic decides) into the
    player's candidate block ``work[W_SEARCH_CAND + player * MAX_CANDIDATES:][:k]``; returns how
    many (``min(k, n_legal)``).

    ``legal``: int64[>= n_legal]; ``work``: int64[WORK_SIZE] (the heuristic's block and
    ``W_VALUES`` are overwritten)."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    work = borrowed(work)
    decide_nb(state, comp, player, legal, n_legal, work)  # leaves every value in W_VALUES
    base = W_SEARCH_CAND + player * MAX_CANDIDATES
    n_cand = 0
    for _ in range(min(k, n_legal)):
        best = -1
        for i in range(n_legal):
            if work[W_VALUES + i] == NEG_VALUE:  # taken already
                continue
            if best < 0 or work[W_VALUES + i] > work[W_VALUES + best]:
                best = i
        if best < 0:
            break
        work[base + n_cand] = legal[best]
        work[W_VALUES + best] = NEG_VALUE
        n_cand += 1
    return n_cand


@njit(cache=True)
def redraw_others_picks(det, player, rprng, work):
    """Overwrite every other seat's unrevealed pick in the copy ``det`` with one of that seat's
    candidate pairs (``work[W_SEARCH_CAND + q * MAX_CANDIDATES:]``, ``W_SEARCH_NCAND + q`` of
    them), drawn from the searcher's rollout stream ``rprng[player]``: the copy then holds no
    hidden value of the real state."""
    for q in range(det[S_N_PLAYERS]):
        if q != player and det[S_PICK + q] >= 0 and det[S_REVEALED + q] == 0:
            k = work[W_SEARCH_NCAND + q]
            i = below(rprng, player, k) if k > 1 else 0
            det[S_PICK + q] = work[W_SEARCH_CAND + q * MAX_CANDIDATES + i]


@njit(cache=True)
def search_step(state, comp, player, params, prng, legal, n_legal, work, heuristics=True,
                learned=True, net=None):
    """The searching seat's action among ``legal[:n_legal]`` (already restricted) at a decision
    other than the secret pick; see the module doc.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]
    params : float64[N_PARAMS]; slots ``TURN_SEARCH_PARAM_NAMES``, rollout weights from
        N_WEIGHTS
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances
    legal : int64[>= n_legal]
    work : int64[WORK_SIZE] scratch
    """
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    work = borrowed(work)
    n = state[S_N_PLAYERS]
    iterations = clamp_int(params[I_ITERATIONS], 1, MAX_ITERATIONS)
    budget_ns = int(np.floor(params[I_MS] * 1e6 + 0.5)) if params[I_MS] > 0 else 0
    start_ns = thread_time_ns() if budget_ns > 0 else 0
    k = clamp_int(params[I_STEP_CANDIDATES], 1, MAX_CANDIDATES)
    guess = clamp_int(params[I_GUESS], 1, MAX_CANDIDATES)
    horizon = clamp_int(params[I_STEP_HORIZON], 0, 100)
    c_explore = clamp_int(params[I_EXPLORATION], 0, 1000)
    palace_value = clamp_int(params[I_PALACE_VALUE], 0, 100000)
    win_bonus = clamp_int(params[I_WIN_BONUS], 0, 100000)
    rollout_id = rollout_policy_id(params)
    check_rollout_switches(rollout_id, learned, net)
    rparams = params[N_WEIGHTS:]
    mask = forbid_mask(params)
    t_units = temperature_units(params, WEIGHT_ONE)
    load_weights(rparams, work)
    n_cand = fill_step_candidates(state, comp, player, legal, n_legal, k, work)
    # the others' hidden picks are redrawn among their best pairs (public values only)
    hidden = 0
    for q in range(n):
        if q != player and state[S_PICK + q] >= 0 and state[S_REVEALED + q] == 0:
            fill_candidates(state, comp, q, guess, work, ALL_PAIRS)
            hidden += 1
    base = player * MAX_CANDIDATES
    for i in range(MAX_CANDIDATES):
        work[W_SEARCH_N + base + i] = 0
        work[W_SEARCH_SUM + base + i] = 0
    # Nothing hidden and rollouts without chance: a candidate's rollout is a function of it,
    # so each is rolled out once and the rest of the budget would repeat them.
    exact = hidden == 0 and rollout_id != STRATEGY_RANDOM and t_units == 0
    if exact and n_cand < iterations:
        iterations = n_cand
    det = work[W_SEARCH_STATE:W_SEARCH_STATE + STATE_SIZE]
    buf = work[W_SEARCH_LEGAL:W_SEARCH_PRNG]
    rprng = work[W_SEARCH_PRNG:W_SEARCH_PRNG + P]
    base_seed = np.int64(next_u64(prng, player))
    for q in range(P):
        rprng[q] = derive_seed(base_seed, q, SALT_STEP)
    last_round = state[S_ROUND] + horizon
    it = 0
    while True:
        i = select_ucb_at(base, n_cand, it, c_explore, work)
        copy_into(det, state)
        redraw_others_picks(det, player, rprng, work)
        apply_action_nb(det, comp, work[W_SEARCH_CAND + base + i])
        roll_out(det, comp, player, last_round, mask, rollout_id, rparams, rprng, buf, work,
                 heuristics, learned, net)
        evaluate(det, n, palace_value, win_bonus, work)
        best_other = np.int64(-(1 << 60))
        for o in range(n):
            if o != player and work[W_SEARCH_EVAL + o] > best_other:
                best_other = work[W_SEARCH_EVAL + o]
        work[W_SEARCH_N + base + i] += 1
        work[W_SEARCH_SUM + base + i] += work[W_SEARCH_EVAL + player] - best_other
        it += 1
        if stop_requested():  # Ctrl-C (tajsim.engine.stop): the run discards this game
            break
        if exact and it >= n_cand:  # every candidate rolled out: more would repeat them
            break
        if budget_ns > 0:
            if thread_time_ns() - start_ns >= budget_ns:
                break
        elif it >= iterations:
            break
    best_i = most_visited(base, n_cand, t_units > 0, prng, player, work)
    return work[W_SEARCH_CAND + base + best_i]


# Inlined into the dispatcher, as search_policy_nb (one module fewer on a cold compile).
@njit(cache=True, inline="always")
def turn_search_policy_nb(state, comp, player, params, prng, legal, n_legal, work,
                          heuristics=True, learned=True, net=None):
    """The ``turnsearch`` strategy: ``search_pick`` at the secret choice, ``search_step`` at
    every other decision with a choice (``legal[:n_legal]`` already restricted).

    Parameters
    ----------
    params : float64[N_PARAMS]; slots ``TURN_SEARCH_PARAM_NAMES``, rollout weights from
        N_WEIGHTS
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances
    work : int64[WORK_SIZE] scratch
    """
    if n_legal == 1:
        return legal[0]
    if state[S_PHASE] == PHASE_PICK:
        return search_pick(state, comp, player, params, prng, legal, n_legal, work, heuristics,
                           learned, net)
    return search_step(state, comp, player, params, prng, legal, n_legal, work, heuristics,
                       learned, net)
