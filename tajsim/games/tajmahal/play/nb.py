"""Kernels that play whole games between compiled strategies and write result records.

A game is a pure function of (master seed, game id, setup id, lineup, configuration): its setup
stream is derived from (master seed, setup id), its play stream from (master seed, game id) and
each seat's policy stream from the play seed, so results never depend on threads, chunking or
machines.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    MAX_CITIES,
    MAX_PLAYERS,
    N_ACTIONS,
    N_BONUS_KINDS,
    N_GOODS,
    N_PARTS,
    N_PROVINCES,
    N_VISITS,
    PHASE_GAME_OVER,
    S_BONUS_HELD,
    S_BONUS_START,
    S_CONN_BY_VISIT,
    S_CUR,
    S_DECK_MISSED,
    S_DISPLAY_MISSED,
    S_DISPLAY_SHORT,
    S_EXHAUSTED_VISIT,
    S_GOODS,
    S_HAND_N,
    S_N_PROTESTS,
    S_N_RESHUFFLES,
    S_PHASE,
    S_PRESTIGE_GAINS,
    S_RANK,
    S_SCORE,
    S_SHORT_DEALS,
    S_TILE_OWNER,
    S_TURNS,
    S_WINNER,
    STATE_SIZE,
)
from tajsim.games.tajmahal.engine.nb import (
    apply_action_nb,
    legal_actions_nb,
    n_palaces_of,
    province_of_visit,
    start_game_nb,
)
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_ISMCTS,
)
from tajsim.games.tajmahal.strategies.nb import choose_action_nb

P = MAX_PLAYERS


# Inlined into the batch kernel (numba IR): one module fewer in which LLVM optimises the rules
# and every strategy again (issue 13: cold compile).
@njit(cache=True, inline="always")
def play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search=True,
                   heuristics=True, work=None):
    """Play ``state`` to the end with strategy ``seat_ids[p]`` (params ``seat_params[p]``) at
    each seat. A decision with a single legal action is taken without asking the policy.

    Parameters
    ----------
    seat_ids : int64[n_players]
    seat_params : float64[n_players, N_PARAMS]
    prng : int64[MAX_PLAYERS] policy streams
    legal : int64[N_ACTIONS] scratch
    actions_out : int64[k]; the actions are recorded while they fit (k = 0 records nothing)
    search, heuristics : True, or None to compile without ISMCTS / the heuristic family
        (``tajsim.games.tajmahal.strategies.ids.kernel_switches``)
    work : float64[HEURISTIC_WORK_SIZE], the heuristic family's scratch for every decision of
        the game (allocated once by the caller), or None (with ``heuristics=None``)

    Returns
    -------
    int : number of actions applied
    """
    n_actions = 0
    while state[S_PHASE] != PHASE_GAME_OVER:
        n = legal_actions_nb(state, comp, legal)
        p = state[S_CUR]
        if n == 1:
            action = legal[0]
        else:
            action = choose_action_nb(seat_ids[p], state, comp, p, seat_params[p], prng, legal, n,
                                      search, heuristics, work)
        if n_actions < actions_out.shape[0]:
            actions_out[n_actions] = action
        apply_action_nb(state, comp, action)
        n_actions += 1
    return n_actions


@njit(cache=True)
def play_out_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search=True,
                heuristics=True):
    """``play_to_end_nb`` as an entry point of its own (``GameKernels.play_out``: the tests and
    the benchmarks' harness call it, with ``*switches``, which an inlined function cannot take).
    """
    work = np.empty(HEURISTIC_WORK_SIZE if heuristics is not None else 0, np.float64)
    return play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search,
                          heuristics, work)


@kernel
def write_records_nb(state, comp, game_id, setup_id, seat_ids, results, row, setups, g):
    """Write the finished game's per-player rows ``results[row:row + n]`` and ``setups[g]``."""
    n = seat_ids.shape[0]
    for p in range(n):
        r = results[row + p]
        r["game_id"] = game_id
        r["seat"] = p
        r["strategy_id"] = seat_ids[p]
        total = 0
        for k in range(N_PARTS):
            total += state[S_SCORE + p * N_PARTS + k]
        r["score"] = total
        r["rank"] = state[S_RANK + p]
        r["winner"] = state[S_WINNER + p] == 1
        r["pts_palace"] = state[S_SCORE + p * N_PARTS + 0]
        r["pts_connection"] = state[S_SCORE + p * N_PARTS + 1]
        r["pts_commodity"] = state[S_SCORE + p * N_PARTS + 2]
        r["pts_bonus"] = state[S_SCORE + p * N_PARTS + 3]
        r["pts_special"] = state[S_SCORE + p * N_PARTS + 4]
        r["pts_cards"] = state[S_SCORE + p * N_PARTS + 5]
        r["goods_rice"] = state[S_GOODS + p * N_GOODS + 0]
        r["goods_tea"] = state[S_GOODS + p * N_GOODS + 1]
        r["goods_spices"] = state[S_GOODS + p * N_GOODS + 2]
        r["goods_jewels"] = state[S_GOODS + p * N_GOODS + 3]
        r["n_palaces"] = n_palaces_of(state, comp, p)
        tiles = 0
        for t in range(N_PROVINCES):
            if state[S_TILE_OWNER + t] == p:
                tiles += 1
        r["n_province_tiles"] = tiles
        bonus = 0
        for k in range(N_BONUS_KINDS):
            bonus += state[S_BONUS_HELD + p * N_BONUS_KINDS + k]
        r["n_bonus_tiles"] = bonus
        r["n_prestige"] = state[S_PRESTIGE_GAINS + p]
        r["hand_end"] = state[S_HAND_N + p]
        r["display_cards_missed"] = state[S_DISPLAY_MISSED + p]
        r["deck_cards_missed"] = state[S_DECK_MISSED + p]
    s = setups[g]
    s["game_id"] = game_id
    s["setup_id"] = setup_id
    s["n_turns"] = state[S_TURNS]
    s["n_reshuffles"] = state[S_N_RESHUFFLES]
    s["n_protests"] = state[S_N_PROTESTS]
    s["n_short_deals"] = state[S_SHORT_DEALS]
    s["display_cards_short"] = state[S_DISPLAY_SHORT]
    s["exhausted_visit"] = state[S_EXHAUSTED_VISIT]
    for v in range(N_VISITS):
        s["province_order"][v] = province_of_visit(state, v)
        s["tile_owner"][v] = state[S_TILE_OWNER + v] if state[S_TILE_OWNER + v] >= 0 else -1
        for p in range(P):
            s["conn_by_visit"][v, p] = state[S_CONN_BY_VISIT + v * P + p] if p < n else 0
    for c in range(MAX_CITIES):
        s["bonus_at"][c] = state[S_BONUS_START + c]


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics):
    """Refuse a lineup that needs a strategy family the kernel was compiled without."""
    for i in range(lineup_ids.shape[0]):
        if search is None and lineup_ids[i] == STRATEGY_ISMCTS:
            raise ValueError("lineup has ismcts but the kernel was compiled with search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC):
            raise ValueError("lineup has a heuristic but the kernel has heuristics=None")


@njit(cache=True, nogil=True)
def play_batch_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results, setups, search=True, heuristics=True):
    """Play ``len(game_ids)`` games on one thread; game ``g`` has seat p taken by lineup entry
    ``lineups[g, p]`` and writes rows ``results[g * n_players:(g + 1) * n_players]`` and
    ``setups[g]``.

    Parameters
    ----------
    comp : int64[COMP_SIZE]
    game_ids, setup_ids : int64[G]
    lineups : int64[G, n_players], index into the lineup table for each seat of each game
    lineup_ids : int64[L] strategy ids; lineup_params : float64[L, N_PARAMS]
    results : RESULT_DTYPE[G * n_players] (out); setups : SETUP_DTYPE[G] (out)
    search, heuristics : True, or None to compile without ISMCTS / the heuristic family;
        ``kernel_switches(lineup_ids)`` gives the smallest kernel for a lineup table

    Releases the GIL: Python threads can run batches side by side.
    """
    check_switches_nb(lineup_ids, search, heuristics)
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(P, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    no_actions = np.empty(0, np.int64)
    # The heuristic's scratch, once for the whole batch (no value in it outlives a decision).
    work = np.empty(HEURISTIC_WORK_SIZE if heuristics is not None else 0, np.float64)
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for g in range(game_ids.shape[0]):
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
            seat_params[p, :] = lineup_params[lineups[g, p], :]
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, no_actions, search,
                       heuristics, work)
        write_records_nb(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                         g * n_players, setups, g)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_parallel_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                           lineup_ids, lineup_params, results, setups, n_blocks, search=True,
                           heuristics=True):
    """``play_batch_nb`` over ``n_blocks`` contiguous blocks of games run on numba threads."""
    G = game_ids.shape[0]
    n = n_players
    for b in prange(n_blocks):
        lo, hi = b * G // n_blocks, (b + 1) * G // n_blocks
        play_batch_nb(comp, n_players, edition, master_seed, game_ids[lo:hi], setup_ids[lo:hi],
                      lineups[lo:hi], lineup_ids, lineup_params, results[lo * n:hi * n],
                      setups[lo:hi], search, heuristics)
