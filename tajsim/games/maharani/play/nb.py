"""Kernels that play whole Maharani games between compiled strategies and write result records,
with the signatures of :class:`tajsim.engine.game_kernels.GameKernels`.

A game is a pure function of (master seed, game id, setup id, line-up, configuration): the setup
stream (the opening tiles) is derived from (master seed, setup id), the chance stream (the bag
order) from (master seed, game id) and each seat's policy stream from the chance seed, exactly
as Taj Mahal's ``start_game_nb`` derives them, so results never depend on threads, chunking or
machines.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    MAX_PLAYERS,
    MAX_SPACES,
    N_ACTIONS,
    N_COLOURS,
    N_PARTS,
    N_QUARTERS,
    N_SLOTS,
    PART_GROUPS,
    PART_QUARTERS,
    PART_SECOND,
    PART_ZONES,
    PHASE_GAME_OVER,
    S_ARTISANS_MOVED,
    S_ARTISANS_NEW,
    S_BEST_ZONE,
    S_COMPLETED,
    S_CUR,
    S_END_REASON,
    S_MARKER_TURNS,
    S_N_REFRESHES,
    S_N_REMOVED,
    S_OPENING,
    S_PHASE,
    S_PLAY_SEED,
    S_Q_ARTISANS,
    S_Q_COMPLETED_BY,
    S_Q_GOLD,
    S_Q_SCORED_TURN,
    S_RANK,
    S_REFRESHES,
    S_SCORE,
    S_SECOND_BOUGHT,
    S_SPACE_GOLD,
    S_SPACE_TILE,
    S_TILES_PLACED,
    S_TURN,
    S_WINNER,
    S_ZONE_BY_COLOUR,
    STATE_SIZE,
)
from tajsim.games.maharani.engine.nb import (
    apply_action_nb,
    legal_actions_nb,
    score_of,
    start_game_nb,
)
from tajsim.games.maharani.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_MCTS,
    STRATEGY_RANDOM,
)
from tajsim.games.maharani.strategies.nb import choose_action_inplace_nb

P = MAX_PLAYERS


# Inlined into the batch kernel (numba IR): one module fewer in which LLVM optimises the rules
# and every strategy again (issue 13: cold compile).
@njit(cache=True, inline="always")
def play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search=None,
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
    search : None, or the MCTS workspace int64[WORK_SIZE] (``kernel_switches``)
    heuristics : True, or None to compile without the heuristic family

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
        elif seat_ids[p] == STRATEGY_RANDOM and seat_params[p, seat_params.shape[1] - 1] == 0:
            # the same draw as random_policy_nb without the dispatch: a random decision costs
            # about 120 ns, and the dispatcher's restriction step alone made random games 30%
            # slower; a restricted random seat (forbid=, the last slot) goes to the dispatcher
            action = legal[below(prng, p, n)]
        else:
            action = choose_action_inplace_nb(seat_ids[p], state, comp, p, seat_params[p],
                                              prng, legal, n, search, heuristics)
        if n_actions < actions_out.shape[0]:
            actions_out[n_actions] = action
        apply_action_nb(state, comp, action)
        n_actions += 1
    return n_actions


@njit(cache=True)
def play_out_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search=None,
                heuristics=True):
    """``play_to_end_nb`` as an entry point of its own (``GameKernels.play_out``: the tests and
    the benchmarks' harness call it, with ``*switches``, which an inlined function cannot take).
    """
    return play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, actions_out, search,
                          heuristics)


@kernel
def write_records_nb(state, comp, game_id, setup_id, seat_ids, results, row, setups, g):
    """Write the finished game's per-seat rows ``results[row:row + n]`` and ``setups[g]``."""
    n = seat_ids.shape[0]
    for p in range(n):
        r = results[row + p]
        base = S_SCORE + p * N_PARTS
        r["game_id"] = game_id
        r["seat"] = p
        r["strategy_id"] = seat_ids[p]
        r["score"] = score_of(state, p)
        r["rank"] = state[S_RANK + p]
        r["winner"] = state[S_WINNER + p] == 1
        r["pts_zones"] = state[base + PART_ZONES]
        r["pts_groups"] = state[base + PART_GROUPS]
        r["pts_quarters"] = state[base + PART_QUARTERS]
        r["pts_second"] = state[base + PART_SECOND]
        r["tiles_placed"] = state[S_TILES_PLACED + p]
        r["second_tiles"] = state[S_SECOND_BOUGHT + p]
        r["marker_turns"] = state[S_MARKER_TURNS + p]
        r["refresh_turns"] = state[S_REFRESHES + p]
        r["artisans_placed"] = state[S_ARTISANS_NEW + p]
        r["artisans_moved"] = state[S_ARTISANS_MOVED + p]
        r["quarters_completed"] = state[S_COMPLETED + p]
        r["best_zone"] = state[S_BEST_ZONE + p]
        r["artisans_q1"] = state[S_Q_ARTISANS + 0 * P + p]
        r["artisans_q2"] = state[S_Q_ARTISANS + 1 * P + p]
        r["artisans_q3"] = state[S_Q_ARTISANS + 2 * P + p]
        r["artisans_q4"] = state[S_Q_ARTISANS + 3 * P + p]
        r["gold_q1"] = state[S_Q_GOLD + 0 * P + p]
        r["gold_q2"] = state[S_Q_GOLD + 1 * P + p]
        r["gold_q3"] = state[S_Q_GOLD + 2 * P + p]
        r["gold_q4"] = state[S_Q_GOLD + 3 * P + p]
        r["zones_c1"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 0]
        r["zones_c2"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 1]
        r["zones_c3"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 2]
        r["zones_c4"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 3]
        r["zones_c5"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 4]
        r["zones_c6"] = state[S_ZONE_BY_COLOUR + p * N_COLOURS + 5]
    s = setups[g]
    s["game_id"] = game_id
    s["setup_id"] = setup_id
    s["n_turns"] = state[S_TURN] + 1
    s["n_refreshes"] = state[S_N_REFRESHES]
    s["end_reason"] = state[S_END_REASON]
    s["central_removed"] = state[S_N_REMOVED]
    s["bag_seed"] = state[S_PLAY_SEED]
    for k in range(N_SLOTS):
        s["opening"][k] = state[S_OPENING + k]
    for q in range(N_QUARTERS):
        s["completed_by"][q] = state[S_Q_COMPLETED_BY + q]
        s["scored_turn"][q] = state[S_Q_SCORED_TURN + q]
    for sp in range(MAX_SPACES):
        s["space_tile"][sp] = state[S_SPACE_TILE + sp]
        s["space_gold"][sp] = state[S_SPACE_GOLD + sp]


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics):
    """Refuse a line-up that needs a strategy family the kernel was compiled without."""
    for i in range(lineup_ids.shape[0]):
        if search is None and lineup_ids[i] == STRATEGY_MCTS:
            raise ValueError("line-up has mcts but the kernel was compiled with search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC):
            raise ValueError("line-up has a heuristic but the kernel has heuristics=None")


@njit(cache=True, nogil=True)
def play_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results, setups, work, heuristics):
    """The game loop of ``play_batch_nb`` (scratch allocated once here, per batch)."""
    state = np.zeros(STATE_SIZE, np.int64)
    prng = np.zeros(P, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    no_actions = np.empty(0, np.int64)
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for g in range(game_ids.shape[0]):
        for p in range(n_players):
            seat_ids[p] = lineup_ids[lineups[g, p]]
            seat_params[p, :] = lineup_params[lineups[g, p], :]
        start_game_nb(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                      prng)
        play_to_end_nb(comp, state, seat_ids, seat_params, prng, legal, no_actions, work,
                    heuristics)
        write_records_nb(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                         g * n_players, setups, g)


@njit(cache=True, nogil=True)
def play_batch_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                  lineup_ids, lineup_params, results, setups, search=None, heuristics=True):
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
    search, heuristics : ``kernel_switches(lineup_ids)``; the MCTS workspace is copied here, so
        parallel batches never share one

    Releases the GIL: Python threads can run batches side by side.
    """
    check_switches_nb(lineup_ids, search, heuristics)
    if search is not None:
        work = np.zeros(search.shape[0], np.int64)
        play_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                      lineup_ids, lineup_params, results, setups, work, heuristics)
    else:
        play_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                      lineup_ids, lineup_params, results, setups, None, heuristics)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_parallel_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                           lineup_ids, lineup_params, results, setups, n_blocks, search=None,
                           heuristics=True):
    """``play_batch_nb`` over ``n_blocks`` contiguous blocks of games run on numba threads."""
    G = game_ids.shape[0]
    n = n_players
    for b in prange(n_blocks):
        lo, hi = b * G // n_blocks, (b + 1) * G // n_blocks
        play_batch_nb(comp, n_players, edition, master_seed, game_ids[lo:hi], setup_ids[lo:hi],
                      lineups[lo:hi], lineup_ids, lineup_params, results[lo * n:hi * n],
                      setups[lo:hi], search, heuristics)
