"""Determinised Monte Carlo tree search over the hidden bag (single-observer ISMCTS).

The bag order is the only hidden information of Maharani, and it is hidden from every seat.
Each iteration:

1. **Determinise.** Copy the state and redraw the bag: the tiles in the bag, collected in tile-id
   order from the public tile locations (so the result depends only on what the seat may see),
   are shuffled with the seat's own policy stream ``prng[player]``.
2. **Select / expand.** Walk the tree from the root. At each decision the candidate actions are
   the ``width`` best legal actions by the heuristic value of the rollout weights (all when
   ``width`` is 0); candidates that are already children compete by UCB1 with availability
   counts, the first untried candidate (drawn with ``prng[player]``) is expanded. Children are
   keyed by (seat to move, action), so the opponents' decisions are in the tree too, each
   maximising its own reward. Decisions with one legal action take no node.
3. **Roll out** with a fast compiled policy (``rollout``: 0 random, 1 greedy, 2 the heuristic
   with the weights in ``params[N_WEIGHTS:]``, 3 ``learned`` with its base weights there and its
   theta after them, ``params[2 * N_WEIGHTS:]``: expert iteration's later rounds) for
   ``horizon`` turns (< 0: to the end), then
   evaluate each seat: gold, plus ``artisan_value`` x (what its artisans would earn if each
   unscored quarter were scored now x the share of the quarter filled).
4. **Back up** an integer reward in 0..1000 for every seat: 500 + 500 x (seat's value - best
   other value) / ``margin`` clipped to [-1, 1]; at the true end of the game half of it is the
   win (1000 shared among the winners).

The search runs ``iterations`` iterations, or with ``ms`` > 0 as many as fit in ``ms``
milliseconds of the thread's CPU time (:mod:`tajsim.engine.clock`): a game played with ``ms`` then
depends on the machine's speed and is not reproducible from its seed; without it (the default)
it is. The root's candidates and the bag's tiles are the same at every iteration: computed once.
So are a node's candidates while no tile has been drawn since the root: they are kept in the
workspace (at most ``CAND_CACHE`` a node) and reused.

The chosen action is the most visited root child (ties: the better total reward, then the
first; above temperature 0, a draw from the seat's stream among the children tied on both).

Generic options (:mod:`tajsim.engine.choice`). The rollouts play at the searcher's temperature
(the last slots of ``params[N_WEIGHTS:]`` are the searcher's), so above 0 they draw a softmax
of the heuristic's values from the rollout streams. A restriction (``forbid=``) removes the
searcher's forbidden actions from its root decision (the caller's ``legal_root``, already
restricted by the dispatcher), and from its own later decisions in the tree and the rollouts
(its later turns are played as it will play them); the other seats play unrestricted.

Every quantity compared is an integer (fixed-point UCB: an integer natural logarithm and an
integer square root), so a GPU takes the same decisions.

The tree lives in a caller-provided ``int64`` workspace (``WORK_SIZE``; ``new_workspace()``),
so the policy allocates nothing per decision; the batch kernels allocate one per batch. The
tree holds at most ``MAX_NODES`` nodes: beyond that, iterations roll out from the frontier.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.choice import forbid_mask, temperature_units
from tajsim.engine.clock import thread_time_ns
from tajsim.engine.intmath import isqrt
from tajsim.engine.rng import below, derive_seed, next_u64, shuffle_slice
from tajsim.engine.stop import stop_requested
from tajsim.games.maharani.engine.enums import (
    C_N_TILES,
    C_QUARTER_MASK,
    C_QUARTER_SIZE,
    LOC_BAG,
    MAX_PLAYERS,
    MAX_SCORED_ARTISANS,
    N_ACTIONS,
    N_ARTISAN_COLOURS,
    N_QUARTERS,
    PHASE_GAME_OVER,
    S_ARTISAN_MASK,
    S_BAG,
    S_BAG_N,
    S_CUR,
    S_FILLED,
    S_N_PLAYERS,
    S_PHASE,
    S_RNG,
    S_SCORED,
    S_TILE_LOC,
    S_TURN,
    S_WINNER,
    STATE_SIZE,
)
from tajsim.games.maharani.engine.nb import (
    QUARTER_GOLD_TABLE,
    apply_action_nb,
    colour_owner,
    legal_actions_nb,
    popcount,
    score_of,
)
from tajsim.games.maharani.strategies.heuristic import (
    NEG_INF,
    value_scan,
    weighted_choice_nb,
    weights_of,
)
from tajsim.games.maharani.strategies.ids import (
    CAND_CACHE,
    LN_CACHE,
    MAX_NODES,
    MAX_PATH,
    MCTS_ROLLOUT_LEARNED,
    MCTS_ROLLOUT_NET,
    MCTS_ROLLOUT_SLOT,
    N_WEIGHTS,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    TEMPERATURE_SCALE,
    W_AVAIL,
    W_BAG_TILES,
    W_CAND,
    W_CHILD,
    W_DET,
    W_HAS,
    W_KEY,
    W_LEGAL,
    W_LN,
    W_LN_N,
    W_MARK,
    W_MOVER,
    W_NODE_CAND,
    W_NODE_NCAND,
    W_PATH,
    W_REP,
    W_REWARD,
    W_REWARDS,
    W_ROOT_CAND,
    W_RPRNG,
    W_SIBLING,
    W_STAMP,
    W_VALS,
    W_VALUES,
    W_VISITS,
    WORK_SIZE,
    new_workspace,
)
from tajsim.games.maharani.strategies.restrictions import restrict_legal
from tajsim.games.maharani.strategies.rollout import simple_choice_nb

# The workspace's layout lives in ids (constants only); re-exported for the callers of old.
__all__ = ["MCTS_PARAM_NAMES", "WORK_SIZE", "bag_tiles", "determinise", "isqrt", "ln_q16",
           "mcts_policy_nb", "mcts_search", "new_workspace"]

P = MAX_PLAYERS

# Parameter slots (names in ``MCTS_PARAM_NAMES``).
I_ITERATIONS = 0
I_EXPLORATION = 1
I_ROLLOUT = MCTS_ROLLOUT_SLOT  # the rollout policy (0 random, 1 greedy, 2 heuristic, 3 learned)
I_HORIZON = 3  # turns rolled out before evaluating; < 0: to the end of the game
I_WIDTH = 4  # candidate actions per decision (best by the heuristic); 0: every legal action
I_MARGIN = 5  # gold margin at which the reward saturates
I_ARTISAN_VALUE = 6  # weight of the artisans' pending quarter gold at a truncated evaluation
I_MS = 7  # > 0: search for this many ms of thread CPU time a decision instead of `iterations`
MCTS_PARAM_NAMES = ("iterations", "exploration", "rollout", "horizon", "width", "margin",
                    "artisan_value", "ms")
SALT_ROLLOUT = 0xD37E
#: The ``rollout`` setting that plays ``learned`` (its strategy id, 4, would collide with
#: nothing, but 3 keeps the setting's values contiguous: 3 is mcts's own id, never a rollout).
ROLLOUT_LEARNED = MCTS_ROLLOUT_LEARNED
#: The ``rollout`` setting that plays ``net`` (the network-guided search: balanced's weights in
#: ``params[N_WEIGHTS:]``, the weights set's fingerprint at ``params[N_WEIGHTS + NET_FP_SLOT]``;
#: ``registry.expert_with_net_rollout`` builds the vector, the parameter check allows 0..3).
ROLLOUT_NET = MCTS_ROLLOUT_NET

LN2_Q16 = 45426  # ln(2) * 2**16


# ---------------------------------------------------------------------------
# Integer arithmetic
# ---------------------------------------------------------------------------
@njit(cache=True)
def ln_q16(x):
    """Natural logarithm of an integer x >= 1 as a Q16 fixed-point integer (log2 by repeated
    squaring, times ln 2)."""
    ip = 0
    v = x
    while v >= 2:
        v >>= 1
        ip += 1
    y = (x << 16) >> ip  # mantissa in [1, 2), Q16
    frac = 0
    for i in range(1, 17):
        y = (y * y) >> 16
        if y >= (2 << 16):
            y >>= 1
            frac |= 1 << (16 - i)
    return (((ip << 16) | frac) * LN2_Q16) >> 16


@njit(cache=True, inline="always")
def ln_avail(work, a):
    """``ln_q16(a)`` for an availability count ``a`` >= 1, from the workspace's table of the
    values computed so far (``W_LN``; ``work[W_LN_N]`` of them, filled on demand up to
    ``LN_CACHE``): a UCB score reads one per child at every step, and the table's values,
    pure functions of ``a``, outlive the search."""
    if a >= LN_CACHE:
        return ln_q16(a)
    if a > work[W_LN_N]:
        for x in range(work[W_LN_N] + 1, a + 1):
            work[W_LN + x] = ln_q16(x)
        work[W_LN_N] = a
    return work[W_LN + a]


# ---------------------------------------------------------------------------
# Determinisation and evaluation
# ---------------------------------------------------------------------------
@njit(cache=True)
def bag_tiles(state, comp, work):
    """The tiles in the bag, in tile-id order (public: every tile not on the board, the
    turntable or out of play), into work[W_BAG_TILES:]; returns their number. The same for
    every iteration of a search, so a search lists them once."""
    k = 0
    for t in range(comp[C_N_TILES]):
        if state[S_TILE_LOC + t] == LOC_BAG:
            work[W_BAG_TILES + k] = t
            k += 1
    return k


@njit(cache=True)
def determinise(state, player, prng, work, n_bag, det):
    """Write into ``det`` a copy of ``state`` with the bag redrawn from ``player``'s view: the
    bag's tiles (``bag_tiles``) shuffled with ``prng[player]``; the chance stream reseeded from
    it too."""
    state = borrowed(state)
    prng = borrowed(prng)
    det = borrowed(det)
    for i in range(S_BAG):
        det[i] = state[i]
    for k in range(n_bag):
        det[S_BAG + k] = work[W_BAG_TILES + k]
    for i in range(S_BAG + n_bag, STATE_SIZE):
        det[i] = state[i]
    shuffle_slice(det, S_BAG, S_BAG + n_bag, prng, player)
    det[S_RNG] = np.int64(next_u64(prng, player))


@njit(cache=True)
def evaluate(det, comp, n, final, artisan_value, values):
    """Per-seat value in thousandths of gold: the gold, plus at a truncated evaluation
    ``artisan_value`` (thousandths) x the quarter gold of its artisans x the share filled."""
    det = borrowed(det)
    comp = borrowed(comp)
    values = borrowed(values)
    for q in range(n):
        values[q] = score_of(det, q) * 1000
    if final:
        return
    for quarter in range(N_QUARTERS):
        if (det[S_SCORED] >> quarter) & 1:
            continue
        qmask = comp[C_QUARTER_MASK + quarter]
        filled = popcount(det[S_FILLED] & qmask)
        size = comp[C_QUARTER_SIZE + quarter]
        for a in range(N_ARTISAN_COLOURS):
            count = popcount(det[S_ARTISAN_MASK + a] & qmask)
            if count > 0:
                gold = QUARTER_GOLD_TABLE[min(count, MAX_SCORED_ARTISANS)]
                values[colour_owner(n, a)] += artisan_value * gold * filled // size


@njit(cache=True)
def rewards_from(det, comp, n, final, margin, artisan_value, values, rewards):
    """Rewards 0..1000 per seat (module doc, step 4)."""
    det = borrowed(det)
    comp = borrowed(comp)
    values = borrowed(values)
    rewards = borrowed(rewards)
    evaluate(det, comp, n, final, artisan_value, values)
    n_win = 0
    if final:
        for q in range(n):
            n_win += det[S_WINNER + q]
    for q in range(n):
        best_other = NEG_INF
        for o in range(n):
            if o != q and values[o] > best_other:
                best_other = values[o]
        diff = values[q] - best_other
        if diff > margin:
            diff = margin
        elif diff < -margin:
            diff = -margin
        r = 500 + 500 * diff // margin
        if final and n_win > 0:
            r = (r + (1000 // n_win if det[S_WINNER + q] == 1 else 0)) // 2
        rewards[q] = r


@njit(cache=True)
def candidates(det, comp, mover, wt, work, n_leg, width):
    """The candidate actions of a decision into work[W_CAND:]: the ``width`` best legal actions
    (work[W_LEGAL:]) by the heuristic value (ties: the earlier action), or all of them."""
    det = borrowed(det)
    comp = borrowed(comp)
    work = borrowed(work)
    if width <= 0 or n_leg <= width:
        for i in range(n_leg):
            work[W_CAND + i] = work[W_LEGAL + i]
        return n_leg
    # the values through the heuristic's value_scan, which the rollouts' softmax shares (one
    # inlined copy of memo_value fewer); non-literal arguments (``width > 0`` is True here), as
    # numba compiles a kernel anew for each literal argument value
    value_scan(det, comp, mover, wt, work[W_RPRNG:W_RPRNG + P], work[W_LEGAL:W_LEGAL + N_ACTIONS],
               n_leg, np.int64(0), work[W_VALUES:W_VALUES + N_ACTIONS], width > 0)
    for j in range(width):
        best = -1
        best_value = NEG_INF - 1
        for i in range(n_leg):
            if work[W_VALUES + i] > best_value:
                best_value = work[W_VALUES + i]
                best = i
        work[W_CAND + j] = work[W_LEGAL + best]
        work[W_VALUES + best] = NEG_INF - 2  # taken
    return width


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------
@njit(cache=True)
def mcts_search(state, comp, player, params, prng, legal_root, n_root, work, learned=True,
                net=None):
    """Run the search (module doc) and return the chosen action of ``legal_root[:n_root]``.

    Parameters
    ----------
    state : int64[STATE_SIZE] (not modified); comp : int64[COMP_SIZE]
    params : float64[N_PARAMS]: settings in ``MCTS_PARAM_NAMES`` order, rollout weights from
        ``N_WEIGHTS`` on
    prng : int64[MAX_PLAYERS]; only ``prng[player]`` advances
    work : int64[WORK_SIZE] scratch (``new_workspace``)
    learned, net : the kernel switches of the learned and network rollouts (``rollout`` 3 and
        ``ROLLOUT_NET``; None leaves them out)
    """
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal_root = borrowed(legal_root)
    work = borrowed(work)
    n = state[S_N_PLAYERS]
    iterations = max(1, int(params[I_ITERATIONS]))
    # A time budget replaces the iteration count (records then depend on the machine's speed).
    budget_ns = int(np.floor(params[I_MS] * 1e6 + 0.5)) if params[I_MS] > 0 else 0
    start_ns = thread_time_ns() if budget_ns > 0 else 0
    c_explore = int(np.floor(params[I_EXPLORATION] * 1000.0 + 0.5))
    rollout_id = int(params[I_ROLLOUT])
    if rollout_id == ROLLOUT_LEARNED:
        if learned is None:  # kernel_switches saw no learned rollout
            raise ValueError("mcts rolls out with learned, but the kernel has learned=None")
        rollout_id = STRATEGY_LEARNED
    elif rollout_id == ROLLOUT_NET:
        if net is None:  # kernel_switches saw no network rollout
            raise ValueError("mcts rolls out with net, but the kernel has net=None")
        rollout_id = STRATEGY_NET
    horizon = int(params[I_HORIZON])
    width = int(params[I_WIDTH])
    margin = max(1, int(np.floor(params[I_MARGIN] * 1000.0 + 0.5)))
    artisan_value = int(np.floor(params[I_ARTISAN_VALUE] * 1000.0 + 0.5))
    rparams = params[N_WEIGHTS:]
    wt = weights_of(rparams, np.bool_(False))
    t_units = temperature_units(params, TEMPERATURE_SCALE)
    mask = forbid_mask(params)
    restricted = mask != 0
    stop_turn = state[S_TURN] + horizon if horizon >= 0 else 1 << 40
    det = work[W_DET:W_DET + STATE_SIZE]
    legal = work[W_LEGAL:W_LEGAL + N_ACTIONS]
    values = work[W_VALS:W_VALS + P]
    rewards = work[W_REWARDS:W_REWARDS + P]
    rprng = work[W_RPRNG:W_RPRNG + P]
    base_seed = np.int64(next_u64(prng, player))
    for q in range(P):
        rprng[q] = derive_seed(base_seed, q, SALT_ROLLOUT)
    stamp = work[W_STAMP]
    # the root
    work[W_KEY] = -1
    work[W_MOVER] = player
    work[W_CHILD] = -1
    work[W_SIBLING] = -1
    work[W_VISITS] = 0
    work[W_AVAIL] = 0
    work[W_REWARD] = 0
    work[W_NODE_NCAND] = 0  # a forced first move leaves the root's decision to a later step
    n_nodes = 1
    n_bag = bag_tiles(state, comp, work)
    bag_n_root = state[S_BAG_N]
    # The root decision is the same at every iteration (the bag, which the rules' legal list and
    # the heuristic never read, aside): its candidates are computed once, at the first visit.
    root_n_leg = -1
    root_n_cand = 0
    done = 0
    while True:
        determinise(state, player, prng, work, n_bag, det)
        node = 0
        path_len = 0
        in_tree = True
        at_root = True
        while det[S_PHASE] != PHASE_GAME_OVER and det[S_TURN] < stop_turn:
            legal_fresh = False
            if at_root and root_n_leg > 0:
                n_leg = root_n_leg
                n_cand = root_n_cand
                for i in range(n_cand):
                    work[W_CAND + i] = work[W_ROOT_CAND + i]
                mover = det[S_CUR]
            else:
                if at_root and restricted:  # the searcher's own decision: the dispatcher's list
                    n_leg = n_root
                    for i in range(n_root):
                        legal[i] = legal_root[i]
                else:
                    n_leg = legal_actions_nb(det, comp, legal)
                    if restricted and det[S_CUR] == player:  # its own later decisions too
                        n_leg = restrict_legal(det, comp, legal, n_leg, mask)
                legal_fresh = True
                if n_leg == 1:
                    apply_action_nb(det, comp, legal[0])
                    at_root = False
                    continue
                mover = det[S_CUR]
                if not in_tree:
                    if rollout_id == STRATEGY_HEURISTIC:  # the weights converted once
                        action = weighted_choice_nb(det, comp, mover, wt, rprng, legal, n_leg,
                                                    t_units)
                    else:
                        action = simple_choice_nb(rollout_id, det, comp, mover, rparams, rprng,
                                                  legal, n_leg, True, learned, net)
                    apply_action_nb(det, comp, action)
                    continue
                # No tile drawn since the root: this node's state, and so its candidates, are
                # the same at every iteration that reaches it (the bag order aside, which the
                # legal list and the heuristic never read).
                undrawn = det[S_BAG_N] == bag_n_root
                if not at_root and undrawn and work[W_NODE_NCAND + node] > 0:
                    n_cand = work[W_NODE_NCAND + node]
                    for i in range(n_cand):
                        work[W_CAND + i] = work[W_NODE_CAND + node * CAND_CACHE + i]
                else:
                    n_cand = candidates(det, comp, mover, wt, work, n_leg, width)
                    if not at_root and undrawn and n_cand <= CAND_CACHE:
                        work[W_NODE_NCAND + node] = n_cand
                        for i in range(n_cand):
                            work[W_NODE_CAND + node * CAND_CACHE + i] = work[W_CAND + i]
                if at_root:
                    root_n_leg = n_leg
                    root_n_cand = n_cand
                    for i in range(n_cand):
                        work[W_ROOT_CAND + i] = work[W_CAND + i]
            at_root = False
            stamp += 1
            base = mover * N_ACTIONS
            for i in range(n_cand):
                a = work[W_CAND + i]
                work[W_MARK + base + a] = stamp
                work[W_REP + base + a] = a
            best = -1
            best_ucb = NEG_INF
            child = work[W_CHILD + node]
            while child >= 0:
                key = work[W_KEY + child]
                if work[W_MARK + key] == stamp:
                    work[W_HAS + key] = stamp
                    work[W_AVAIL + child] += 1
                    v = max(work[W_VISITS + child], 1)
                    mean = work[W_REWARD + child] // v
                    explore = c_explore * isqrt((ln_avail(work, work[W_AVAIL + child]) << 16)
                                                // v) >> 16
                    ucb = mean + explore
                    if ucb > best_ucb:
                        best_ucb = ucb
                        best = child
                child = work[W_SIBLING + child]
            n_untried = 0
            for i in range(n_cand):
                if work[W_HAS + base + work[W_CAND + i]] != stamp:
                    n_untried += 1
            if n_untried > 0 and n_nodes < MAX_NODES:
                pick = below(prng, player, n_untried)
                chosen = -1
                for i in range(n_cand):
                    key = base + work[W_CAND + i]
                    if work[W_HAS + key] != stamp:
                        if pick == 0:
                            chosen = key
                            break
                        pick -= 1
                new = n_nodes
                n_nodes += 1
                work[W_KEY + new] = chosen
                work[W_MOVER + new] = mover
                work[W_CHILD + new] = -1
                work[W_VISITS + new] = 0
                work[W_AVAIL + new] = 1
                work[W_REWARD + new] = 0
                work[W_NODE_NCAND + new] = 0
                work[W_SIBLING + new] = work[W_CHILD + node]
                work[W_CHILD + node] = new
                apply_action_nb(det, comp, work[W_REP + chosen])
                if path_len < MAX_PATH:
                    work[W_PATH + path_len] = new
                    path_len += 1
                node = new
                in_tree = False
            elif best >= 0:
                apply_action_nb(det, comp, work[W_REP + work[W_KEY + best]])
                if path_len < MAX_PATH:
                    work[W_PATH + path_len] = best
                    path_len += 1
                node = best
            else:  # tree full: finish with the rollout policy
                in_tree = False
                if not legal_fresh:
                    n_all = legal_actions_nb(det, comp, legal)
                    if restricted and mover == player:  # the root's list, as the dispatcher's
                        restrict_legal(det, comp, legal, n_all, mask)
                action = simple_choice_nb(rollout_id, det, comp, mover, rparams, rprng, legal,
                                          n_leg, True, learned, net)
                apply_action_nb(det, comp, action)
        final = det[S_PHASE] == PHASE_GAME_OVER
        rewards_from(det, comp, n, final, margin, artisan_value, values, rewards)
        for j in range(path_len):
            nd = work[W_PATH + j]
            work[W_VISITS + nd] += 1
            work[W_REWARD + nd] += rewards[work[W_MOVER + nd]]
        done += 1
        if stop_requested():  # Ctrl-C (tajsim.engine.stop): the run discards this game
            break
        if budget_ns > 0:
            if thread_time_ns() - start_ns >= budget_ns:
                break
        elif done >= iterations:
            break
    work[W_STAMP] = stamp
    best_action = legal_root[0]
    best_visits = -1
    best_total = -1
    n_tied = 0
    for i in range(n_root):
        visits, total = root_child_stats(work, player, legal_root[i])
        if visits > best_visits or (visits == best_visits and total > best_total):
            best_visits = visits
            best_total = total
            best_action = legal_root[i]
            n_tied = 1
        elif visits == best_visits and total == best_total:
            n_tied += 1
    if t_units > 0 and n_tied > 1:
        # above temperature 0, exact ties on visits and reward are drawn from the seat's
        # stream instead of going to the first
        r = below(prng, player, n_tied)
        for i in range(n_root):
            visits, total = root_child_stats(work, player, legal_root[i])
            if visits == best_visits and total == best_total:
                if r == 0:
                    return legal_root[i]
                r -= 1
    return best_action


@njit(cache=True)
def root_child_stats(work, player, action):
    """(visits, reward sum) of the root's child for ``player``'s ``action`` ((0, 0) if none)."""
    key = player * N_ACTIONS + action
    child = work[W_CHILD]
    while child >= 0:
        if work[W_KEY + child] == key:
            return work[W_VISITS + child], work[W_REWARD + child]
        child = work[W_SIBLING + child]
    return 0, 0


@njit(cache=True)
def mcts_policy_nb(state, comp, player, params, prng, legal, n_legal, work, learned=True,
                   net=None):
    """Determinised MCTS (module doc); ``params`` slots in ``MCTS_PARAM_NAMES``; ``work`` is
    the int64[WORK_SIZE] workspace; ``learned=None`` compiles the rollouts without the learned
    policy, ``net`` is None or the network's weights array (``kernel_switches``)."""
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal = borrowed(legal)
    return mcts_search(state, comp, player, params, prng, legal, n_legal, work, learned, net)
