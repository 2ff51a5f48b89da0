"""The CPU batch loop: whole games between compiled strategies, written to result records,
with the signatures of :class:`tajsim.engine.game_kernels.GameKernels` (wing ``tajmahal``).

Generated from tajsim/play/batch_loop.py.tmpl and this wing's play/loop_hooks.py; do not edit.
Regenerate with: python -m tajsim.play.generate_batch

A game is a pure function of (master seed, game id, setup id, line-up, configuration):
``start_game_nb`` derives its setup, chance and policy streams from them, so results never
depend on threads, chunking or machines. What differs between games (the decision, its scratch,
the kernel switches, the records) is the wing's ``play/loop_hooks.py``.

The loop records the seats' scores after every round (the wing's ``TRACK_ROUNDS``:
``track_round_nb`` below) into the setup records.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tajsim.engine.arrays import borrowed, copy_into
from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    MAX_PLAYERS,
    N_ACTIONS,
    PHASE_GAME_OVER,
    S_CUR,
    S_PHASE,
    SETUP_DTYPE,
    STATE_SIZE,
)
from tajsim.games.tajmahal.engine.nb import (
    apply_action_nb,
    count_legal_nb,
    legal_actions_nb,
    nth_legal_nb,
    start_game_nb,
)
from tajsim.games.tajmahal.play.loop_hooks import (
    STRATEGY_RANDOM,
    check_switches_nb,
    decide_nb,
    new_work_nb,
    record_round_nb,
    round_of_nb,
    write_records_nb,
)

__all__ = ["play_batch_nb", "play_batch_parallel_nb", "play_out_nb", "play_to_end_nb",
           "start_game_nb", "track_round_nb", "write_records_nb"]


@kernel(inline="always")
def track_round_nb(state, comp, n_players, rnd, setups, g):
    """After an action: record round ``rnd`` (the one that was in progress) into ``setups[g]``
    when the round counter has moved on, or the final scores into it when the game is over;
    returns the round now in progress. A round's snapshot is taken when the next one begins,
    so it holds every point scored in the round; the last round's, after the end scoring.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]; n_players : int
    rnd : int, the round in progress before the action (``round_of_nb``)
    setups : SETUP_DTYPE[k] (out, row g)
    """
    if state[S_PHASE] == PHASE_GAME_OVER:
        record_round_nb(state, comp, n_players, max(rnd, 0), True, setups, g)
        return rnd
    now = round_of_nb(state)
    if now != rnd and rnd >= 0:
        record_round_nb(state, comp, n_players, rnd, False, setups, g)
    return now


# Inlined into the batch kernel (numba IR): one module fewer in which LLVM optimises
# the rules and every strategy again (issue 13: cold compile).
@njit(cache=True, inline="always")
def play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out,
                   work, setups, g, search, heuristics, learned, net):
    """Play ``state`` to the end with strategy ``seat_ids[p]`` (params ``seat_params[p]``) at
    each seat. A decision with a single legal action is taken without asking the policy.

    Parameters
    ----------
    seat_ids : int64[n_players]
    seat_params : float64[n_players, N_PARAMS]
    prng : int64[MAX_PLAYERS] policy streams
    legal : int64[N_ACTIONS] scratch
    actions_out : int64[k]; the actions are recorded while they fit (k = 0 records nothing)
    work : the policies' scratch (``new_work_nb``), reused by every decision
    setups : SETUP_DTYPE[k], g : int; the round snapshots go to ``setups[g]`` (``track_round_nb``)
    search, heuristics, learned, net : the kernel switches (``kernel_switches(ids, params)``)

    Returns
    -------
    int : number of actions applied
    """
    # Borrowed views (engine.arrays.borrowed): numba counts no references to them in the loop.
    # Where this function is inlined into play_batch_nb, they are the batch's own arrays,
    # allocated once and used in every game, so they outlive every view.
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    prng = borrowed(prng)
    n_done = 0
    rnd = round_of_nb(state)
    while state[S_PHASE] != PHASE_GAME_OVER:
        p = state[S_CUR]
        if seat_ids[p] == STRATEGY_RANDOM and seat_params[p, seat_params.shape[1] - 1] == 0:
            # the random policy's own draw without the dispatch (RANDOM_FAST_PATH) and
            # without the list (RANDOM_WITHOUT_LIST); a restricted random seat (forbid=,
            # the last slot) goes to decide_nb
            n = count_legal_nb(state, comp)
            action = nth_legal_nb(state, comp, 0 if n == 1 else below(prng, p, n))
        else:
            n = legal_actions_nb(state, comp, legal)
            if n == 1:
                action = legal[0]
            else:
                action = decide_nb(seat_ids[p], state, comp, p, seat_params, prng, legal, n,
                                   work, search, heuristics, learned, net)
        if n_done < actions_out.shape[0]:
            actions_out[n_done] = action
        apply_action_nb(state, comp, action)
        n_done += 1
        rnd = track_round_nb(state, comp, seat_ids.shape[0], rnd, setups, g)
    return n_done


@njit(cache=True)
def play_out_nb(comp, state, seat_ids, seat_params, prng, legal,
                actions_out, search=True, heuristics=True, learned=True, net=None):
    """``play_to_end_nb`` with scratch of its own, as an entry point (``GameKernels.play_out``:
    the tests and the benchmarks' harness call it with ``*switches``, which an inlined function
    cannot take)."""
    work = new_work_nb(search, heuristics, learned, net)
    setups = np.zeros(1, SETUP_DTYPE)  # the rounds it plays are recorded here, unread
    return play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out,
                          work, setups, 0, search, heuristics, learned, net)


@njit(cache=True, nogil=True)
def play_batch_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results,
                  setups, search=True, heuristics=True, learned=True, net=None):
    """Play ``len(game_ids)`` games on one thread; game ``g`` has seat p taken by line-up entry
    ``lineups[g, p]`` and writes rows ``results[g * n_players:(g + 1) * n_players]`` and
    ``setups[g]``.

    Parameters
    ----------
    comp : int64[COMP_SIZE]
    n_players : int; edition : int, the rules code (``GameSpec.rules_code``)
    master_seed : int
    game_ids, setup_ids : int64[G]
    lineups : int64[G, n_players], index into the line-up table for each seat of each game
    lineup_ids : int64[L] strategy ids; lineup_params : float64[L, N_PARAMS]
    results : RESULT_DTYPE[G * n_players] (out); setups : SETUP_DTYPE[G] (out)
    search, heuristics, learned, net : the kernel switches (``kernel_switches(ids, params)``)

    Releases the GIL: Python threads can run batches side by side. Allocates its scratch once
    per batch (so parallel blocks never share any).
    """
    check_switches_nb(lineup_ids, search, heuristics, learned, net)
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(MAX_PLAYERS, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    no_actions = np.empty(0, np.int64)
    work = new_work_nb(search, heuristics, learned, net)
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for g in range(game_ids.shape[0]):
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
            copy_into(seat_params[p], lineup_params[lineups[g, p]])
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, no_actions,
                       work, setups, g, search, heuristics, learned, net)
        write_records_nb(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                         g * n_players, setups, g)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_parallel_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                           lineup_ids, lineup_params, results, setups,
                           n_blocks, search=True, heuristics=True, learned=True, net=None):
    """``play_batch_nb`` over ``n_blocks`` contiguous blocks of games run on numba threads."""
    G = game_ids.shape[0]
    n = n_players
    for b in prange(n_blocks):
        lo, hi = b * G // n_blocks, (b + 1) * G // n_blocks
        play_batch_nb(comp, n_players, edition, master_seed, game_ids[lo:hi], setup_ids[lo:hi],
                      lineups[lo:hi], lineup_ids, lineup_params, results[lo * n:hi * n],
                      setups[lo:hi], search, heuristics, learned, net)
