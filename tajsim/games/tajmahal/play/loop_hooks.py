"""What Taj Mahal's batch loop (the generated ``play/nb.py``, see
``tajsim.play.generate_batch``) takes from the game: its kernel switches, the heuristic family's
scratch, the decision and the result records."""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    MAX_CITIES,
    MAX_PLAYERS,
    N_BONUS_KINDS,
    N_GOODS,
    N_PARTS,
    N_PROVINCES,
    N_VISITS,
    S_BONUS_HELD,
    S_BONUS_START,
    S_CONN_BY_VISIT,
    S_DECK_MISSED,
    S_DISPLAY_MISSED,
    S_DISPLAY_SHORT,
    S_EXHAUSTED_VISIT,
    S_GOODS,
    S_HAND_N,
    S_N_PROTESTS,
    S_N_RESHUFFLES,
    S_PRESTIGE_GAINS,
    S_RANK,
    S_SCORE,
    S_SHORT_DEALS,
    S_TILE_OWNER,
    S_TURNS,
    S_VISIT,
    S_WINNER,
)
from tajsim.games.tajmahal.engine.nb import n_palaces_of, province_of_visit
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import (
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_ISMCTS,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,  # noqa: F401 - the generated loop's RANDOM_FAST_PATH reads it here
)
from tajsim.games.tajmahal.strategies.nb import choose_action_nb

P = MAX_PLAYERS
#: The kernel switches with their defaults (``kernel_switches``: None leaves ISMCTS / the
#: heuristic family / the learned policy / the network out of the compiled kernel; ``net`` is
#: otherwise the int64 array of the line-up's weights sets).
SWITCHES = (("search", True), ("heuristics", True), ("learned", True), ("net", None))
#: The generated loop draws an unrestricted random seat's action itself (``random_policy_nb``'s
#: draw): through the dispatcher, the restriction step alone made a random game 25% slower.
RANDOM_FAST_PATH = True
#: ... and counts the legal actions and decodes the one drawn (count_legal_nb, nth_legal_nb)
#: without writing the list: a random game spent a third of its time listing actions.
RANDOM_WITHOUT_LIST = True
#: The loop records each seat's score after every visit (``round_of_nb``, ``record_round_nb``;
#: the setup records' ``score_by_round``).
TRACK_ROUNDS = True
#: ``score_by_round`` of a visit not played, or of a seat not at the table.
NOT_PLAYED = -1


@njit(cache=True, inline="always")
def new_work_nb(search, heuristics, learned, net):
    """The heuristic family's scratch, float64[HEURISTIC_WORK_SIZE], reused by every decision
    of a batch (no value in it outlives a decision); empty without the family."""
    return np.zeros(HEURISTIC_WORK_SIZE if heuristics is not None else 0, np.float64)


@njit(cache=True, inline="always")
def decide_nb(seat_id, state, comp, player, seat_params, prng, legal, n_legal, work, search,
              heuristics, learned, net):
    """The action of strategy ``seat_id`` at this decision (``choose_action_nb``)."""
    return choose_action_nb(seat_id, state, comp, player, seat_params[player], prng, legal,
                            n_legal, search, heuristics, learned, net, work)


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


@kernel(inline="always")
def round_of_nb(state):
    """The round in progress: the visit (0..11; 12 once the game is over)."""
    return state[S_VISIT]


@kernel
def record_round_nb(state, comp, n_players, rnd, last, setups, g):
    """Write each seat's score (the sum of its parts) after visit ``rnd`` into
    ``setups[g]["score_by_round"][rnd]``; ``last`` (the game is over: the scores are final)
    also marks the visits after ``rnd`` and the seats not at the table ``NOT_PLAYED``."""
    s = setups[g]
    k = min(rnd, N_VISITS - 1)
    for p in range(n_players):
        total = 0
        for part in range(N_PARTS):
            total += state[S_SCORE + p * N_PARTS + part]
        s["score_by_round"][k, p] = total
    if last:
        for r in range(N_VISITS):
            for p in range(P):
                if r > k or p >= n_players:
                    s["score_by_round"][r, p] = NOT_PLAYED


@njit(cache=True)
def check_switches_nb(lineup_ids, search, heuristics, learned, net):
    """Refuse a lineup that needs a strategy family the kernel was compiled without (ISMCTS
    refuses a learned rollout itself: the line-up's ids do not show it)."""
    for i in range(lineup_ids.shape[0]):
        if learned is None and lineup_ids[i] == STRATEGY_LEARNED:
            raise ValueError("lineup has learned but the kernel was compiled with learned=None")
        if net is None and lineup_ids[i] == STRATEGY_NET:
            raise ValueError("lineup has net but the kernel was compiled with net=None")
        if search is None and lineup_ids[i] == STRATEGY_ISMCTS:
            raise ValueError("lineup has ismcts but the kernel was compiled with search=None")
        if heuristics is None and (lineup_ids[i] == STRATEGY_GREEDY
                                   or lineup_ids[i] == STRATEGY_HEURISTIC
                                   or lineup_ids[i] == STRATEGY_LEARNED
                                   or lineup_ids[i] == STRATEGY_NET):
            raise ValueError("lineup has a heuristic but the kernel has heuristics=None")
