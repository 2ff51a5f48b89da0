"""Kernels that play whole Maharaja games between compiled strategies and write result records.

A game is a pure function of (master seed, game id, setup id, line-up, configuration): its setup
stream is derived from (master seed, setup id), its chance stream from (master seed, game id)
and each seat's policy stream from the chance seed (:mod:`tajsim.engine.rng`), so results never
depend on threads, chunking or machines. A setup id ``ENUM_SETUP_BASE + k`` (k < 5040) names
governor order k exactly instead of drawing it (``tajsim.games.maharaja.engine.setups``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACT_SLUGS,
    LOC_CITY,
    MAX_PLAYERS,
    MAX_ROUNDS,
    N_ACT,
    N_ACTIONS,
    N_CITIES,
    N_GOVERNORS,
    N_LOCS,
    N_PARTS,
    N_VILLAGES,
    PART_NAMES,
    PART_TOLLS_IN,
    PART_TOLLS_OUT,
    PHASE_GAME_OVER,
    S_CARD_BY_ROUND,
    S_CARD_OF,
    S_CENTRAL,
    S_CHOSEN,
    S_CUR,
    S_END_CAUSE,
    S_END_ROUND,
    S_FIRST_CARD,
    S_GOLD,
    S_GOV_MOVES,
    S_GOV_ORDER0,
    S_HOUSE_MOVES,
    S_HOUSES,
    S_HOUSES_BUILT,
    S_LOC_TOTAL,
    S_MONK_TOLLS,
    S_ORDER_INDEX,
    S_PALACE_ROUND,
    S_PALACES,
    S_PARTS,
    S_PEN_BY_ACT,
    S_PEN_COUNT,
    S_PHASE,
    S_RANK,
    S_STEP,
    S_TOLL_BY_VILLAGE,
    S_VISIT_CITY,
    S_WINNER,
    STATE_SIZE,
)
from tajsim.games.maharaja.engine.nb import apply_action_nb, legal_actions_nb, start_game_nb
from tajsim.games.maharaja.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
    STRATEGY_SEARCH,
    WORK_SIZE,
)
from tajsim.games.maharaja.strategies.nb import choose_action_work_nb

P = MAX_PLAYERS
assert PART_NAMES[PART_TOLLS_IN] == "tolls_in" and PART_NAMES[PART_TOLLS_OUT] == "tolls_out"
assert ACT_SLUGS == ("gold", "house", "two_houses", "move_house", "quarry", "palace",
                    "palace_house", "governor", "character")


@njit(cache=True)
def play_out_work_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, work,
                     search=True, heuristics=True):
    """``play_out_nb`` with the policies' scratch ``work`` (int64[WORK_SIZE]) passed in."""
    n_done = 0
    while state[S_PHASE] != PHASE_GAME_OVER:
        n = legal_actions_nb(state, comp, legal)
        p = state[S_CUR]
        if n == 1:
            action = legal[0]
        elif seat_ids[p] == STRATEGY_RANDOM and seat_params[p, seat_params.shape[1] - 1] == 0:
            # the same draw as random_policy_nb, without the dispatch (half a random game's
            # time); a restricted random seat (forbid=, the last slot) goes to the dispatcher
            action = legal[below(prng, p, n)]
        else:
            action = choose_action_work_nb(seat_ids[p], state, comp, p, seat_params[p], prng,
                                           legal, n, work, search, heuristics)
        if n_done < actions_out.shape[0]:
            actions_out[n_done] = action
        apply_action_nb(state, comp, action)
        n_done += 1
    return n_done


@njit(cache=True)
def play_out_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search=True,
                heuristics=True):
    """Play ``state`` to the end with strategy ``seat_ids[p]`` (params ``seat_params[p]``) at
    each seat. A decision with a single legal action is taken without asking the policy.

    Parameters
    ----------
    seat_ids : int64[n_players]
    seat_params : float64[n_players, N_PARAMS]
    prng : int64[MAX_PLAYERS] policy streams
    legal : int64[N_ACTIONS] scratch
    actions_out : int64[k]; the actions are recorded while they fit (k = 0 records nothing)
    search, heuristics : True, or None to compile without the search / the heuristic family

    Returns
    -------
    int : number of actions applied
    """
    work = np.zeros(WORK_SIZE, np.int64)  # once per game, not per decision
    return play_out_work_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, work,
                            search, heuristics)


@kernel
def write_records_nb(state, comp, game_id, setup_id, seat_ids, results, row, setups, g):
    """Write the finished game's per-seat rows ``results[row:row + n]`` and ``setups[g]``."""
    n = seat_ids.shape[0]
    for p in range(n):
        r = results[row + p]
        r["game_id"] = game_id
        r["seat"] = p
        r["strategy_id"] = seat_ids[p]
        total = 0
        for k in range(N_PARTS):
            total += state[S_PARTS + p * N_PARTS + k]
        r["score"] = total
        r["rank"] = state[S_RANK + p]
        r["winner"] = state[S_WINNER + p] == 1
        base = S_PARTS + p * N_PARTS
        r["pts_palaces"] = state[base + 0]
        r["pts_start"] = state[base + 1]
        r["pts_city"] = state[base + 2]
        r["pts_lone"] = state[base + 3]
        r["pts_tolls_in"] = state[base + 4]
        r["pts_gold_action"] = state[base + 5]
        r["pts_trader"] = state[base + 6]
        r["pts_penalties_in"] = state[base + 7]
        r["pts_build_spent"] = state[base + 8]
        r["pts_tolls_out"] = state[base + 9]
        r["palaces"] = state[S_PALACES + p]
        r["palaces_central"] = state[S_CENTRAL + p]
        r["palaces_outer"] = state[S_PALACES + p] - state[S_CENTRAL + p]
        r["gold"] = state[S_GOLD + p]
        city = 0
        village = 0
        for loc in range(N_LOCS):
            h = state[S_HOUSES + loc * P + p]
            if loc >= LOC_CITY:
                city += h
            else:
                village += h
        r["houses_board"] = city + village
        r["houses_city"] = city
        r["houses_village"] = village
        r["houses_built"] = state[S_HOUSES_BUILT + p]
        r["house_moves"] = state[S_HOUSE_MOVES + p]
        r["tolls_paid"] = -state[base + PART_TOLLS_OUT]
        r["tolls_received"] = state[base + PART_TOLLS_IN]
        r["penalties"] = state[S_PEN_COUNT + p]
        r["governor_moves"] = state[S_GOV_MOVES + p]
        r["card_first"] = state[S_FIRST_CARD + p]
        r["card_final"] = state[S_CARD_OF + p]
        r["chose_gold"] = state[S_CHOSEN + p * N_ACT + 0]
        r["chose_house"] = state[S_CHOSEN + p * N_ACT + 1]
        r["chose_two_houses"] = state[S_CHOSEN + p * N_ACT + 2]
        r["chose_move_house"] = state[S_CHOSEN + p * N_ACT + 3]
        r["chose_quarry"] = state[S_CHOSEN + p * N_ACT + 4]
        r["chose_palace"] = state[S_CHOSEN + p * N_ACT + 5]
        r["chose_palace_house"] = state[S_CHOSEN + p * N_ACT + 6]
        r["chose_governor"] = state[S_CHOSEN + p * N_ACT + 7]
        r["chose_character"] = state[S_CHOSEN + p * N_ACT + 8]
        r["missed_gold"] = state[S_PEN_BY_ACT + p * N_ACT + 0]
        r["missed_house"] = state[S_PEN_BY_ACT + p * N_ACT + 1]
        r["missed_two_houses"] = state[S_PEN_BY_ACT + p * N_ACT + 2]
        r["missed_move_house"] = state[S_PEN_BY_ACT + p * N_ACT + 3]
        r["missed_quarry"] = state[S_PEN_BY_ACT + p * N_ACT + 4]
        r["missed_palace"] = state[S_PEN_BY_ACT + p * N_ACT + 5]
        r["missed_palace_house"] = state[S_PEN_BY_ACT + p * N_ACT + 6]
        r["missed_governor"] = state[S_PEN_BY_ACT + p * N_ACT + 7]
        r["missed_character"] = state[S_PEN_BY_ACT + p * N_ACT + 8]
    s = setups[g]
    s["game_id"] = game_id
    s["setup_id"] = setup_id
    s["n_rounds"] = state[S_END_ROUND]
    s["end_cause"] = state[S_END_CAUSE]
    s["n_actions"] = state[S_STEP]
    s["order_index"] = state[S_ORDER_INDEX]
    s["monk_tolls"] = state[S_MONK_TOLLS]
    for k in range(N_GOVERNORS):
        s["governor_order"][k] = state[S_GOV_ORDER0 + k]
    for rnd in range(MAX_ROUNDS):
        s["visit_city"][rnd] = state[S_VISIT_CITY + rnd]
        for p in range(P):
            s["card_by_round"][rnd, p] = state[S_CARD_BY_ROUND + rnd * P + p] if p < n else -1
    for p in range(P):
        for k in range(N_CITIES):
            s["palace_round"][p, k] = state[S_PALACE_ROUND + p * N_CITIES + k] if p < n else 0
    for v in range(N_VILLAGES):
        s["tolls_by_village"][v] = state[S_TOLL_BY_VILLAGE + v]
    for v in range(N_VILLAGES):
        s["village_houses"][v] = state[S_LOC_TOTAL + v]


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics):
    """Refuse a line-up that needs a strategy family the kernel was compiled without."""
    for i in range(lineup_ids.shape[0]):
        if search is None and lineup_ids[i] == STRATEGY_SEARCH:
            raise ValueError("line-up has the search but the kernel was compiled with "
                             "search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC):
            raise ValueError("line-up has a heuristic but the kernel has heuristics=None")


@njit(cache=True, nogil=True)
def play_batch_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results, setups, search=True, heuristics=True):
    """Play ``len(game_ids)`` games on one thread; game ``g`` has seat p taken by line-up entry
    ``lineups[g, p]`` and writes rows ``results[g * n_players:(g + 1) * n_players]`` and
    ``setups[g]``.

    Parameters
    ----------
    comp : int64[COMP_SIZE]
    n_players : int; edition : int, the rules code
    game_ids, setup_ids : int64[G]
    lineups : int64[G, n_players], index into the line-up table for each seat of each game
    lineup_ids : int64[L] strategy ids; lineup_params : float64[L, N_PARAMS]
    results : RESULT_DTYPE[G * n_players] (out); setups : SETUP_DTYPE[G] (out)
    search, heuristics : True, or None to compile without the search / the heuristic family

    Releases the GIL; allocates its scratch once per batch.
    """
    check_switches_nb(lineup_ids, search, heuristics)
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(P, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    work = np.zeros(WORK_SIZE, np.int64)
    no_actions = np.empty(0, np.int64)
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for g in range(game_ids.shape[0]):
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
            seat_params[p, :] = lineup_params[lineups[g, p], :]
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_out_work_nb(comp, state, seat_ids, seat_params, prng, legal, no_actions, work,
                         search, heuristics)
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
