"""What Maharani's batch loop (the generated ``play/nb.py``, see
``tajsim.play.generate_batch``) takes from the game: its kernel switches, the MCTS workspace,
the decision and the result records."""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.targets import kernel
from tajsim.games.maharani.engine.enums import (
    MAX_PLAYERS,
    MAX_SPACES,
    MAX_TILES,
    N_COLOURS,
    N_PARTS,
    N_QUARTERS,
    N_SLOTS,
    PART_GROUPS,
    PART_QUARTERS,
    PART_SECOND,
    PART_ZONES,
    S_ARTISANS_MOVED,
    S_ARTISANS_NEW,
    S_BEST_ZONE,
    S_COMPLETED,
    S_END_REASON,
    S_MARKER_TURNS,
    S_N_PLAYERS,
    S_N_REFRESHES,
    S_N_REMOVED,
    S_OPENING,
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
)
from tajsim.games.maharani.engine.nb import score_of
from tajsim.games.maharani.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_MCTS,
    STRATEGY_NET,
    STRATEGY_RANDOM,  # noqa: F401 - the generated loop's RANDOM_FAST_PATH reads it here
)
from tajsim.games.maharani.strategies.nb import choose_action_inplace_nb

P = MAX_PLAYERS
#: The kernel switches with their defaults (``kernel_switches``): ``search`` is None (no MCTS in
#: the compiled kernel) or an MCTS workspace; ``heuristics`` / ``learned`` None leave the
#: heuristic family / the learned policy out; ``net`` is None (no network) or the ``net``
#: weights array.
SWITCHES = (("search", None), ("heuristics", True), ("learned", True), ("net", None))
#: The generated loop draws an unrestricted random seat's action itself: a random decision costs
#: about 120 ns, and the dispatcher's restriction step alone made random games 30% slower.
RANDOM_FAST_PATH = True
#: The loop records each seat's gold after every round of turns (``round_of_nb``,
#: ``record_round_nb``; the setup records' ``score_by_round``).
TRACK_ROUNDS = True
#: Rounds the record holds (``SETUP_DTYPE``'s ``score_by_round``): later ones fold into the last.
ROUNDS_RECORDED = MAX_TILES // 2
#: ``score_by_round`` of a round not played, or of a seat not at the table.
NOT_PLAYED = -1


@njit(cache=True, inline="always")
def new_work_nb(search, heuristics, learned, net):
    """The MCTS workspace of a batch: a zeroed int64 array the size of ``search`` (so parallel
    batches never share one), or None without MCTS (numba types the result from ``search``)."""
    if search is None:
        return None
    return np.zeros(search.shape[0], np.int64)


@njit(cache=True, inline="always")
def decide_nb(seat_id, state, comp, player, seat_params, prng, legal, n_legal, work, search,
              heuristics, learned, net):
    """The action of strategy ``seat_id`` at this decision (``choose_action_inplace_nb``: a
    restricted seat filters ``legal`` in place, the loop refills it before every decision; MCTS
    works in ``work``, the batch's own copy of the ``search`` workspace)."""
    return choose_action_inplace_nb(seat_id, state, comp, player, seat_params[player], prng,
                                    legal, n_legal, work, heuristics, learned, net)


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


@kernel(inline="always")
def round_of_nb(state):
    """The round of turns in progress (seat 0 plays first, S3): turns begun // players."""
    return state[S_TURN] // state[S_N_PLAYERS]


@kernel
def record_round_nb(state, comp, n_players, rnd, last, setups, g):
    """Write each seat's gold (``score_of``) after round ``rnd`` into
    ``setups[g]["score_by_round"][min(rnd, ROUNDS_RECORDED - 1)]`` (a longer game's later
    rounds fold into the last, so it holds the final score); ``last`` (the game is over) also
    marks the rounds after it and the seats not at the table ``NOT_PLAYED``."""
    s = setups[g]
    k = min(rnd, ROUNDS_RECORDED - 1)
    for p in range(n_players):
        s["score_by_round"][k, p] = score_of(state, p)
    if last:
        for r in range(ROUNDS_RECORDED):
            for p in range(P):
                if r > k or p >= n_players:
                    s["score_by_round"][r, p] = NOT_PLAYED


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics, learned, net):
    """Refuse a line-up that needs a strategy family the kernel was compiled without (MCTS
    refuses a learned rollout itself: the line-up's ids do not show it)."""
    for i in range(lineup_ids.shape[0]):
        if learned is None and lineup_ids[i] == STRATEGY_LEARNED:
            raise ValueError("line-up has learned but the kernel was compiled with "
                             "learned=None")
        if net is None and lineup_ids[i] == STRATEGY_NET:
            raise ValueError("line-up has net but the kernel was compiled with net=None")
        if search is None and lineup_ids[i] == STRATEGY_MCTS:
            raise ValueError("line-up has mcts but the kernel was compiled with search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC
                                   or lineup_ids[i] == STRATEGY_LEARNED
                                   or lineup_ids[i] == STRATEGY_NET):
            raise ValueError("line-up has a heuristic but the kernel has heuristics=None")
