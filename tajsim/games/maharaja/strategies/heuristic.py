"""The parametric heuristic family and ``greedy``: one compiled policy, behaviour set by weights.

Every decision scores each legal action by its immediate effect, in fixed-point gold (weights
become integers ``w * WEIGHT_ONE``; no float is compared, so a GPU takes the same decisions):

* **Pick** (the secret pair). Each of the nine actions is valued for this round from what the
  seat can see: the best palace city it can reach and afford (palace weight, the centre, the
  presence points it adds where the Maharaja goes soon, minus the tolls on the cheapest route),
  the best houses (a city house by the gold its presence point earns at the city's next scoring,
  a village house by the traffic of its road and the access it gives), the best house move,
  the quarry while the pool is low, the gold action, the best governor move (a city where the
  seat would earn more than the others, brought forward), the best character card. A pair's
  value adds its two actions under the gold budget of the turn (the gold action and the Trader
  pay first; a two-houses action's city house pays the tolls to the nearest city unless a
  palace takes the architect to one); an action that cannot be carried out costs the penalty it
  gives the others (the penalty times the other seats, at least two).
* **Turn.** Each legal step is scored: a palace, a house (and the Builder's free house), a
  move, the governor, a card, a road towards the best city to be in (what can be built there,
  the architect's presence point in the Maharaja's city, minus the tolls on the way). A step
  that carries out a chosen action also saves the penalty, and a step that spends the gold or
  takes the house a chosen action still needs pays it (``pending_penalty``: a journey's tolls,
  a palace, the Builder's free house). ``done`` scores 0, so the turn ends when nothing is
  worth doing.
* **Setup.** The draft values each card by its expected win share among the cards the table
  will likely hold (``likely_draft``: every later seat takes the card with the best share among
  the cards held by then), from a measured model of the cards (``DRAFT_STRENGTH``: a strength
  per card and a factor for the first to act), plus the preset's liking for the card; the
  initial houses go where the village value is highest.

``greedy`` is this kernel with fixed raw-gold weights; the presets (balanced, rusher, tollroad,
hoarder, character) are weight vectors in ``presets.toml``. Weight names: ``WEIGHT_NAMES``.

One module a decision kind: ``heuristic_pick``, ``heuristic_turn``, ``heuristic_draft``; the
values they share in ``heuristic_features``, the weights and scratch layout in
``heuristic_work``; this module holds the policy that dispatches them.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACTION_BUILD,
    ACTION_CARD,
    ACTION_MOVE_TO,
    ACTION_PICK,
    PHASE_DRAFT,
    PHASE_MOVE_TO,
    PHASE_PICK,
    PHASE_REPLACE,
    PHASE_SETUP_HOUSE,
    PHASE_TURN,
    S_PHASE,
)
from tajsim.games.maharaja.strategies.heuristic_draft import (
    draft_value,
)
from tajsim.games.maharaja.strategies.heuristic_features import (
    card_value,
    fill_village_values,
    house_value,
    prepare,
    vil_value,
)
from tajsim.games.maharaja.strategies.heuristic_pick import (
    fill_pair_values,
)
from tajsim.games.maharaja.strategies.heuristic_turn import (
    fill_best_villages,
    turn_values_best,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    GREEDY_WEIGHTS,
    H_PAIRV,
    H_W,
    NEG,
    load_weights,
)
from tajsim.games.maharaja.strategies.ids import (
    N_WEIGHTS,
    W_HEUR,
    W_VALUES,
    WEIGHT_ONE,
)


@kernel
def load_greedy_weights(work):
    """``GREEDY_WEIGHTS`` as integers into work (no array argument: no copy, no allocation)."""
    for i in range(N_WEIGHTS):
        work[W_HEUR + H_W + i] = np.int64(GREEDY_WEIGHTS[i] * WEIGHT_ONE)


@kernel
def weighted_policy_nb(state, comp, player, params, legal, n_legal, work):
    """Choose among ``legal[:n_legal]`` with weights ``params[:N_WEIGHTS]``.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]
    player : int, the seat deciding
    params : float64[>= N_WEIGHTS]
    legal : int64[>= n_legal]
    work : int64[WORK_SIZE] scratch (the heuristic block is overwritten)
    """
    load_weights(params, work)
    return decide_nb(state, comp, player, legal, n_legal, work)


@kernel
def decide_nb(state, comp, player, legal, n_legal, work):
    """The heuristic decision with the weights already in ``work`` (see the module doc).

    Every candidate's value is left in ``work[W_VALUES + i]`` (int64, fixed-point gold, for
    ``legal[i]``): the dispatcher's temperature draws from them."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    work = borrowed(work)
    phase = state[S_PHASE]
    p = player
    if phase == PHASE_PICK:
        fill_pair_values(state, comp, p, work, work, W_HEUR + H_PAIRV)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = work[W_HEUR + H_PAIRV + legal[i] - ACTION_PICK]
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_TURN:
        return legal[turn_values_best(state, comp, p, legal, n_legal, work)]
    if phase == PHASE_MOVE_TO:
        prepare(state, comp, p, work, np.bool_(False))
        fill_village_values(state, comp, p, work)
        fill_best_villages(state, comp, work)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = house_value(state, comp, p, legal[i] - ACTION_MOVE_TO, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_SETUP_HOUSE:
        prepare(state, comp, p, work, np.bool_(False))
        fill_village_values(state, comp, p, work)
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = vil_value(work, legal[i] - ACTION_BUILD)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_DRAFT:
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = draft_value(state, comp, p, legal[i] - ACTION_CARD, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    if phase == PHASE_REPLACE:
        prepare(state, comp, p, work, np.bool_(False))
        best_i = 0
        best_v = NEG
        for i in range(n_legal):
            v = card_value(state, comp, p, legal[i] - ACTION_CARD, False, work)
            work[W_VALUES + i] = v  # hook: the temperature draws from every value
            if v > best_v:
                best_v = v
                best_i = i
        return legal[best_i]
    return legal[0]
