"""The ``learned`` strategy: a linear policy over per-action features, fitted to imitate ISMCTS
(``tajsim train``; :mod:`tajsim.engine.learned`).

Each legal action ``a`` scores ``theta . phi(state, a)`` and the best is taken (the first of
equal scores), or one is drawn by the softmax of the scores at a temperature.
``phi[0]`` is the value the base heuristic (``tuned``; its weights are ``params[:N_WEIGHTS]``)
gives the action in its own decision loop, so ``theta = (1, 0, ..., 0)`` plays exactly like
it; the other features are parts of that value and facts a strong player weighs, which let
the fit correct the heuristic where the search decides otherwise (``FEATURE_NAMES``;
``docs/strategies.md`` describes each one).

Every feature reads only what the player may see: its own hand, the rows, the court, the board,
the display, hand sizes, and the heuristic's estimates built from those (the threat tables use
the unseen-card counts, never another hand). ``params[LEARNED_OFFSET:LEARNED_OFFSET +
N_FEATURES]`` is ``theta``.

The policy computes one action's features at a time into a row of the heuristic's scratch
(``WORK_FEATURES``) and keeps its score where the heuristic left the action's value
(``WORK_VALUES + i``); its choice is :func:`tajsim.engine.learned.linear_choice`'s (the same
argmax, the same fixed-point softmax at a temperature) without a ``MAX_LEGAL x n_features``
matrix in every GPU thread's memory. :func:`learned_features_nb` fills that matrix for the
trainer.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import softmax_index, temperature_units
from tajsim.engine.learned import SCORE_LIMIT, linear_score
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    ACTION_BID,
    ACTION_CITY,
    ACTION_TAKE,
    ACTION_WITHDRAW,
    C_CARD_COLOUR,
    COLOURLESS,
    EDITION_2018,
    FIRST_PRESTIGE,
    N_SYMBOLS,
    N_VISITS,
    PHASE_BID,
    PHASE_CROWN,
    PHASE_DISPLAY,
    PHASE_PALACE,
    S_EDITION,
    S_HAND_N,
    S_N_PLAYERS,
    S_PHASE,
    S_PROTEST_DONE,
    S_ROW_SYM,
    S_SEAT,
    S_UNREST_SYM,
    S_VISIT,
    SEAT_PRESENT,
)
from tajsim.games.tajmahal.engine.nb import bid_cards, bid_symbols, palace_cities
from tajsim.games.tajmahal.strategies.features import (
    V_MY_COL,
    city_bonus_kind,
    city_links,
    future_roads,
    is_active,
)
from tajsim.games.tajmahal.strategies.heuristic import (
    AT_HOLD,
    AT_KEEP,
    AT_SEAT_V,
    HEURISTIC_WORK_SIZE,
    MAX_PLAY_SYMBOLS,
    WORK_BID,
    WORK_FEATURES,
    WORK_LINKS,
    WORK_VALUES,
    WORK_VIEW,
    weighted_policy_nb,
)
from tajsim.games.tajmahal.strategies.ids import LEARNED_OFFSET, N_LEARNED_SLOTS, VALUE_ONE

#: The features phi, in order (theta's names are ``w_<feature>``). Bid features are 0 for a
#: withdrawal and the withdrawal features 0 for a bid; city features are 0 outside the palace
#: and crown decisions. ``value`` is the base heuristic's own value of the action.
FEATURE_NAMES = (
    "value",  # the base heuristic's value of the action (its decision loop's)
    "withdraw",  # 1 for withdrawing from the visit
    "withdraw_late",  # withdrawing x progress of the game (visit / 11)
    "bid_cost",  # what the cards a bid spends are worth in hand (the heuristic's keep values)
    "bid_extra",  # 1 for a bid that adds a second card (colourless or prestige)
    "bid_prestige",  # 1 for a bid whose second card is a prestige card
    "bid_seat_gain",  # a bid's expected seat value: hold chance x seat value, summed
    "bid_leads",  # seats a bid would lead outright on the rows as they stand
    "bid_rivals",  # a bid x share of the rivals still in the visit
    "bid_hand_left",  # a bid x cards left in hand after it (/ 10)
    "city_links",  # provinces a palace (crown) city connects to the current one
    "city_roads",  # roads from the city to provinces still to be visited
    "city_bonus",  # 1 for a city still holding a bonus tile
    "take_white",  # 1 for taking a colourless card from the display
    "take_fit",  # cards of the taken card's colour in the player's hand (/ 10)
)
N_FEATURES = len(FEATURE_NAMES)
assert N_FEATURES <= N_LEARNED_SLOTS


@kernel(inline="always")
def bid_leads(state, player, add_sym, s, n, unrest_live):
    """1 if the player would show strictly more of symbol ``s`` (``add_sym`` more than now)
    than every rival still in the visit and (2 players, 2018) the unrest cards."""
    mine = state[S_ROW_SYM + player * N_SYMBOLS + s] + add_sym
    if mine == 0:
        return 0.0
    for q in range(n):
        if q != player and is_active(state, q) \
                and state[S_ROW_SYM + q * N_SYMBOLS + s] >= mine:
            return 0.0
    if unrest_live and state[S_UNREST_SYM + s] >= mine:
        return 0.0
    return 1.0


@kernel(inline="always")
def fill_features(state, comp, player, params, legal, n_legal, work, feats, one_row):
    """The features of ``legal[:n_legal]`` after the base heuristic decided (its values in
    ``work[WORK_VALUES:]``, its bid tables in ``work[WORK_BID:]``).

    ``one_row`` False: ``feats[i, :N_FEATURES]`` gets action i's features (the trainer's
    matrix). True: ``feats`` is one row (float64[1, >= N_FEATURES]) rewritten for each action,
    whose score ``theta . phi`` replaces its value in ``work[WORK_VALUES + i]`` (the policy).
    """
    phase = state[S_PHASE]
    n = state[S_N_PLAYERS]
    progress = state[S_VISIT] / (N_VISITS - 1.0)
    n_rivals = 0
    unrest_live = False
    mine = np.uint64(0)
    if phase == PHASE_BID:
        for q in range(n):
            if q != player and is_active(state, q):
                n_rivals += 1
        unrest_live = (n == 2 and state[S_EDITION] == EDITION_2018
                       and state[S_PROTEST_DONE] == 0)
    elif phase == PHASE_PALACE or phase == PHASE_CROWN:
        mine = palace_cities(state, comp, player)
    rival_share = n_rivals / (n - 1.0) if n > 1 else 0.0
    hand = state[S_HAND_N + player]
    for i in range(n_legal):
        r = 0 if one_row else i
        for j in range(N_FEATURES):
            feats[r, j] = 0.0
        feats[r, 0] = work[WORK_VALUES + i]
        action = legal[i]
        if phase == PHASE_BID:
            if action == ACTION_WITHDRAW:
                feats[r, 1] = 1.0
                feats[r, 2] = progress
            elif action >= ACTION_BID and action < ACTION_CITY:
                card, extra = bid_cards(action)
                cost = work[WORK_BID + AT_KEEP + comp[C_CARD_COLOUR + card]]
                if extra >= 0:
                    feats[r, 4] = 1.0
                    if extra >= FIRST_PRESTIGE:
                        feats[r, 5] = 1.0
                    else:
                        cost += work[WORK_BID + AT_KEEP + comp[C_CARD_COLOUR + extra]]
                gain = 0.0
                leads = 0.0
                for s in range(N_SYMBOLS):
                    add = bid_symbols(comp, card, extra, s)
                    if state[S_SEAT + s] != SEAT_PRESENT \
                            or state[S_ROW_SYM + player * N_SYMBOLS + s] + add == 0:
                        continue
                    h = work[WORK_BID + AT_HOLD + s * (MAX_PLAY_SYMBOLS + 1) + add]
                    gain += h * work[WORK_BID + AT_SEAT_V + s]
                    if add > 0:
                        leads += bid_leads(state, player, add, s, n, unrest_live)
                feats[r, 3] = cost
                feats[r, 6] = gain
                feats[r, 7] = leads
                feats[r, 8] = rival_share
                feats[r, 9] = (hand - 1.0 - feats[r, 4]) / 10.0
        elif (phase == PHASE_PALACE or phase == PHASE_CROWN) and action >= ACTION_CITY \
                and action < ACTION_TAKE:
            city = action - ACTION_CITY
            feats[r, 10] = city_links(state, comp, mine, player, work[WORK_LINKS:], city)
            feats[r, 11] = future_roads(state, comp, city)
            if city_bonus_kind(state, city) >= 0:
                feats[r, 12] = 1.0
        elif phase == PHASE_DISPLAY and action >= ACTION_TAKE:
            col = comp[C_CARD_COLOUR + action - ACTION_TAKE]
            if col == COLOURLESS:
                feats[r, 13] = 1.0
            # decide_display counted the player's hand by colour into the view
            feats[r, 14] = work[WORK_VIEW + V_MY_COL + col] / 10.0
        if one_row:
            work[WORK_VALUES + i] = linear_score(feats, 0, N_FEATURES, params, LEARNED_OFFSET)


@kernel
def learned_choice(state, comp, player, params, prng, legal, n_legal, work):
    """Index (< n_legal) of the learned policy's action, after ``weighted_policy_nb`` with
    the base weights (``params[:N_WEIGHTS]``) left its values in ``work``: the argmax of
    ``theta . phi`` (the first of equal scores) at temperature 0, else the fixed-point softmax
    of :func:`tajsim.engine.learned.linear_choice` (scale ``VALUE_ONE``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    work = borrowed(work)
    row = work[WORK_FEATURES:WORK_FEATURES + N_LEARNED_SLOTS].reshape((1, N_LEARNED_SLOTS))
    fill_features(state, comp, player, params, legal, n_legal, work, row, True)
    t_units = temperature_units(params, VALUE_ONE)
    if t_units == 0:
        best = 0
        best_score = work[WORK_VALUES]
        for i in range(1, n_legal):
            if work[WORK_VALUES + i] > best_score:
                best_score = work[WORK_VALUES + i]
                best = i
        return best
    for i in range(n_legal):
        # math.floor, clamped as linear_choice does: numba-cuda has no np.floor in device code
        x = work[WORK_VALUES + i] * VALUE_ONE
        if x > SCORE_LIMIT:
            x = SCORE_LIMIT
        elif x < -SCORE_LIMIT:
            x = -SCORE_LIMIT
        work[WORK_VALUES + i] = math.floor(x)
    shift = 0 if n_legal <= 511 else 3
    return softmax_index(work, WORK_VALUES, n_legal, t_units, prng, player, shift)


@njit(cache=True)
def learned_features_nb(state, comp, player, params, legal, n_legal, out):
    """phi of every legal action: ``out[i, :N_FEATURES]`` (float64[>= n_legal, >=
    N_FEATURES]) for ``legal[i]``, ``i < n_legal``; ``params`` the ``learned`` vector (the
    base weights in ``params[:N_WEIGHTS]``). Reads only what ``player`` may see. Allocates its
    scratch (the trainer calls it from Python; the policy reuses the game's)."""
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
    weighted_policy_nb(state, comp, player, params, legal, n_legal, work)
    fill_features(state, comp, player, params, legal, n_legal, work, out, False)


@njit(cache=True)
def learned_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """The learned policy as a CPU entry point (allocates its scratch): the action it takes
    among ``legal[:n_legal]`` (the dispatcher's path, ``simple_choice_nb``, reuses the
    game's scratch)."""
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
    weighted_policy_nb(state, comp, player, params, legal, n_legal, work)
    return legal[learned_choice(state, comp, player, params, prng, legal, n_legal, work)]
