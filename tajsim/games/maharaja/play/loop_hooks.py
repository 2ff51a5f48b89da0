"""What Maharaja's batch loop (the generated ``play/nb.py``, see
``tajsim.play.generate_batch``) takes from the game: its kernel switches, the policies' scratch,
the decision (with the random seat's fast path) and the result records."""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACT_SLUGS,
    LOC_CITY,
    MAX_PLAYERS,
    MAX_ROUNDS,
    N_ACT,
    N_CITIES,
    N_GOVERNORS,
    N_LOCS,
    N_PARTS,
    N_VILLAGES,
    PART_NAMES,
    PART_TOLLS_IN,
    PART_TOLLS_OUT,
    S_CARD_BY_ROUND,
    S_CARD_OF,
    S_CENTRAL,
    S_CHOSEN,
    S_DRAFT_SEAT,
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
    S_N_PLAYERS,
    S_ORDER,
    S_ORDER_INDEX,
    S_PALACE_ROUND,
    S_PALACES,
    S_PARTS,
    S_PEN_BY_ACT,
    S_PEN_COUNT,
    S_RANK,
    S_ROUND,
    S_STEP,
    S_TOLL_BY_VILLAGE,
    S_VISIT_CITY,
    S_WINNER,
)
from tajsim.games.maharaja.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,  # noqa: F401 - the generated loop's RANDOM_FAST_PATH reads it here
    STRATEGY_SEARCH,
    STRATEGY_TURNSEARCH,
    WORK_SIZE,
)
from tajsim.games.maharaja.strategies.nb import choose_action_work_nb

P = MAX_PLAYERS
#: The kernel switches with their defaults (``kernel_switches``: None leaves the search / the
#: heuristic family / the learned policy out of the compiled kernel; ``net`` is None, no
#: network, or the ``net`` weights array).
SWITCHES = (("search", True), ("heuristics", True), ("learned", True), ("net", None))
#: The generated loop draws an unrestricted random seat's action itself (half a random game's
#: time went to the dispatch); ``STRATEGY_RANDOM`` below is the id it checks.
RANDOM_FAST_PATH = True
#: The loop records each seat's score and turn place after every round (``round_of_nb``,
#: ``record_round_nb``; the setup records' ``score_by_round``, ``turn_by_round`` and
#: ``draft_pos_by_seat``).
TRACK_ROUNDS = True
#: ``score_by_round`` / ``turn_by_round`` of a round not played or a seat not at the table.
NOT_PLAYED = -1
assert PART_NAMES[PART_TOLLS_IN] == "tolls_in" and PART_NAMES[PART_TOLLS_OUT] == "tolls_out"
assert ACT_SLUGS == ("gold", "house", "two_houses", "move_house", "quarry", "palace",
                    "palace_house", "governor", "character")


@njit(cache=True, inline="always")
def new_work_nb(search, heuristics, learned, net):
    """The policies' scratch, int64[WORK_SIZE], reused by every decision of a batch."""
    return np.zeros(WORK_SIZE, np.int64)


@njit(cache=True, inline="always")
def decide_nb(seat_id, state, comp, player, seat_params, prng, legal, n_legal, work, search,
              heuristics, learned, net):
    """The action of strategy ``seat_id`` at this decision (``choose_action_work_nb``)."""
    return choose_action_work_nb(seat_id, state, comp, player, seat_params[player], prng, legal,
                                 n_legal, work, search, heuristics, learned, net)


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


@kernel(inline="always")
def round_of_nb(state):
    """The round in progress, from 0 (-1 during the setup draft)."""
    return state[S_ROUND] - 1


@kernel
def record_round_nb(state, comp, n_players, rnd, last, setups, g):
    """Write round ``rnd``'s line of ``setups[g]``: each seat's score (``PALACE_POINTS *
    palaces + gold``, the rank key of R40) after the round into ``score_by_round[rnd]``, and
    its place in the round's reveal order (``S_ORDER``: the seats by the character cards they
    held at the reveal, R15; a card changing hands during the round may reorder the later
    turns, which the record does not follow) into ``turn_by_round[rnd]``. Each seat's place in
    the setup draft goes to ``draft_pos_by_seat``. ``last`` (the game is over) also marks the
    rounds after ``rnd`` and the seats not at the table ``NOT_PLAYED``."""
    s = setups[g]
    k = min(rnd, MAX_ROUNDS - 1)
    for p in range(n_players):
        total = 0
        for part in range(N_PARTS):
            total += state[S_PARTS + p * N_PARTS + part]
        s["score_by_round"][k, p] = total
    for i in range(n_players):
        s["turn_by_round"][k, state[S_ORDER + i]] = i
    for i in range(P):
        s["draft_pos_by_seat"][i] = NOT_PLAYED
    for i in range(state[S_N_PLAYERS]):
        q = state[S_DRAFT_SEAT + i]
        if q >= 0:
            s["draft_pos_by_seat"][q] = i
    if last:
        for r in range(MAX_ROUNDS):
            for p in range(P):
                if r > k or p >= n_players:
                    s["score_by_round"][r, p] = NOT_PLAYED
                    s["turn_by_round"][r, p] = NOT_PLAYED


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics, learned, net):
    """Refuse a line-up that needs a strategy family the kernel was compiled without (the
    search refuses a learned or net rollout itself: the line-up's ids do not show it)."""
    for i in range(lineup_ids.shape[0]):
        if net is None and lineup_ids[i] == STRATEGY_NET:
            raise ValueError("line-up has net but the kernel was compiled with net=None")
        if learned is None and lineup_ids[i] == STRATEGY_LEARNED:
            raise ValueError("line-up has learned but the kernel was compiled with "
                             "learned=None")
        if search is None and (lineup_ids[i] == STRATEGY_SEARCH
                               or lineup_ids[i] == STRATEGY_TURNSEARCH):
            raise ValueError("line-up has the search but the kernel was compiled with "
                             "search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC
                                   or lineup_ids[i] == STRATEGY_LEARNED
                                   or lineup_ids[i] == STRATEGY_NET):
            raise ValueError("line-up has a heuristic but the kernel has heuristics=None")
