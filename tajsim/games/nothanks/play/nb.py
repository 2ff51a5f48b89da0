"""Kernels that play whole No Thanks! games between compiled strategies and write the records
(the ``GameKernels`` batch loop, as every wing has it)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tajsim.engine.targets import kernel
from tajsim.games.nothanks.engine import enums as E
from tajsim.games.nothanks.engine.nb import (
    apply_action_nb,
    card_points_nb,
    legal_actions_nb,
    start_game_nb,
)
from tajsim.games.nothanks.strategies.nb import choose_action_nb


@njit(cache=True)
def play_out_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out):
    """Play ``state`` to the end with strategy ``seat_ids[p]`` (params ``seat_params[p]``,
    float64[n_players, N_PARAMS]) at each seat; records the actions while they fit in
    ``actions_out`` (int64[k]). Returns the number of actions applied."""
    n_done = 0
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        n = legal_actions_nb(state, comp, legal)
        p = state[E.S_CUR]
        action = legal[0] if n == 1 else choose_action_nb(
            seat_ids[p], state, comp, p, seat_params[p], prng, legal, n)
        if n_done < actions_out.shape[0]:
            actions_out[n_done] = action
        apply_action_nb(state, comp, action)
        n_done += 1
    return n_done


@kernel
def write_records_nb(state, comp, game_id, setup_id, seat_ids, results, row, setups, g):
    """Write the finished game's per-seat rows ``results[row:row + n]`` and ``setups[g]``."""
    n = seat_ids.shape[0]
    for p in range(n):
        r = results[row + p]
        points = card_points_nb(state, p)
        chips = state[E.S_CHIPS + p]
        cards = 0
        runs = 0
        for k in range(E.N_CARDS):
            if state[E.S_OWNER + k] == p:
                cards += 1
                if k == 0 or state[E.S_OWNER + k - 1] != p:
                    runs += 1
        r["game_id"] = game_id
        r["seat"] = p
        r["strategy_id"] = seat_ids[p]
        r["score"] = points - chips
        r["rank"] = state[E.S_RANK + p]
        r["winner"] = state[E.S_RANK + p] == 1
        r["pts_cards"] = points
        r["pts_chips"] = -chips
        r["cards"] = cards
        r["runs"] = runs
        r["chips"] = chips
        r["passes"] = state[E.S_PASSES + p]
    s = setups[g]
    s["game_id"] = game_id
    s["setup_id"] = setup_id
    s["n_actions"] = state[E.S_STEP]
    for k in range(E.N_REMOVED):
        s["removed"][k] = state[E.S_DECK + E.N_PLAYED + k]


@njit(cache=True, nogil=True)
def play_batch_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results, setups):
    """Play ``len(game_ids)`` games on one thread; game ``g`` has seat p taken by line-up entry
    ``lineups[g, p]`` and writes ``results[g * n_players:(g + 1) * n_players]`` and
    ``setups[g]``.

    Parameters
    ----------
    comp : int64[COMP_SIZE]; n_players : int; edition : int, the rules code
    game_ids, setup_ids : int64[G]; lineups : int64[G, n_players]
    lineup_ids : int64[L] strategy ids; lineup_params : float64[L, N_PARAMS]
    results : RESULT_DTYPE[G * n_players] (out); setups : SETUP_DTYPE[G] (out)
    """
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    no_actions = np.empty(0, np.int64)
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for g in range(game_ids.shape[0]):
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
            seat_params[p, :] = lineup_params[lineups[g, p], :]
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_out_nb(comp, state, seat_ids, seat_params, prng, legal, no_actions)
        write_records_nb(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                         g * n_players, setups, g)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_parallel_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                           lineup_ids, lineup_params, results, setups, n_blocks):
    """``play_batch_nb`` over ``n_blocks`` contiguous blocks of games run on numba threads."""
    G = game_ids.shape[0]
    n = n_players
    for b in prange(n_blocks):
        lo, hi = b * G // n_blocks, (b + 1) * G // n_blocks
        play_batch_nb(comp, n_players, edition, master_seed, game_ids[lo:hi], setup_ids[lo:hi],
                      lineups[lo:hi], lineup_ids, lineup_params, results[lo * n:hi * n],
                      setups[lo:hi])

