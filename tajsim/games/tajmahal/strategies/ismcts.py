"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) with determinisation.

Each iteration:

1. **Determinise.** Copy the state and deal the cards the player cannot see (the deck and the
   unannounced cards of the other hands) back to the same hidden positions in a random order
   drawn from the player's own policy stream; reseed the copy's chance stream ``S_RNG`` from
   that stream too, so the copy cannot know future reshuffles. Every determinisation is
   consistent with what the player has seen (hand sizes, public cards, its own hand).
2. **Select / expand.** Walk the tree from the root: at each decision the children available in
   this determinisation compete by UCB1 with availability counts (each child's exploration term
   uses how often it was *available*, not the parent's visits); the first untried available
   action is expanded. Decisions with a single legal action are applied without a node.
   Actions are grouped by equivalence before they become children: two cards with the same
   colour and the same symbols are the same move, so "play a red vizier+elephant card" shares
   its statistics whichever red vizier+elephant card it is (prestige cards stay distinct).
   Children are keyed by (player to move, grouped action), so the opponents' decisions are in
   the tree as well, each maximising its own reward.
3. **Roll out** with a fast compiled policy (``rollout``: random, greedy, the heuristic with
   the weights in ``params[N_WEIGHTS:]``, or the learned policy with those weights and its
   theta after them) to the end of the game, or for ``horizon`` visit ends
   and then evaluate each player by score plus ``card_value`` per card in hand.
4. **Back up** a reward in [0, 1] for every player: 0.5 + 0.5 tanh(margin / ``reward_scale``),
   the margin being the player's value minus the best other player's value (a win at the end
   of the game adds ``win_bonus``, shared between tied winners).

The chosen action is the most visited child of the root (ties: the first legal action; above
temperature 0, a draw from the seat's stream among the tied ones). The tree lives in flat arrays
preallocated for ``iterations`` nodes.

The search runs ``iterations`` iterations, or with ``ms`` > 0 as many as fit in ``ms``
milliseconds of the thread's CPU time (:mod:`tajsim.engine.clock`, checked after every
iteration): a game played with ``ms`` then depends on the machine's speed and is not
reproducible from its seed; without it (the default) it is. With a budget the tree is
preallocated for ``ms`` x ``NODES_PER_MS`` nodes (at least ``iterations``, at most
``MAX_BUDGET_NODES``); once it is full, iterations roll out from its frontier.

Generic options (:mod:`tajsim.engine.choice`). The rollouts play at the searcher's temperature
(the last slots of ``params[N_WEIGHTS:]`` are the searcher's). A restriction (``forbid=``)
removes the searcher's forbidden actions from all its own decisions: the root, in the tree as
in its choice, and its later decisions in the tree and the rollouts (its later turns are played
as it will play them); the other seats play unrestricted.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed, copy_into
from tajsim.engine.choice import forbid_mask, temperature_units
from tajsim.engine.clock import thread_time_ns
from tajsim.engine.rng import below, derive_seed, next_u64, shuffle_slice
from tajsim.engine.stop import stop_requested
from tajsim.games.tajmahal.engine.enums import (
    ACTION_BID,
    ACTION_CITY,
    ACTION_TAKE,
    BID_EXTRA,
    C_CARD_COLOUR,
    C_CARD_SYM,
    FIRST_PRESTIGE,
    FIRST_WHITE,
    LOC_DECK,
    LOC_HAND,
    MASK_DECK,
    MASK_HAND,
    MASK_PUBLIC,
    MAX_PLAYERS,
    N_ACTIONS,
    N_CARDS,
    N_DECK_CARDS,
    N_MASK_WORDS,
    N_SYMBOLS,
    PHASE_GAME_OVER,
    S_CARD_LOC,
    S_CARD_PUBLIC,
    S_CUR,
    S_DECK,
    S_DECK_LEN,
    S_DECK_TOP,
    S_HAND_N,
    S_LOC_MASK,
    S_N_PLAYERS,
    S_PHASE,
    S_RNG,
    S_VISIT,
    S_WINNER,
)
from tajsim.games.tajmahal.engine.nb import (
    apply_action_nb,
    bid_cards,
    card_bit,
    card_word,
    legal_actions_nb,
    mask_loc,
    score_of,
)
from tajsim.games.tajmahal.strategies.features import is_unseen
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import (
    ISMCTS_ROLLOUT_SLOT,
    N_WEIGHTS,
    ROLLOUT_LEARNED,
    ROLLOUT_NET,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    VALUE_ONE,
)
from tajsim.games.tajmahal.strategies.restrictions import restrict_legal
from tajsim.games.tajmahal.strategies.rollout import simple_choice_nb

P = MAX_PLAYERS

# Parameter slots (names in ``ISMCTS_PARAM_NAMES``).
I_ITERATIONS = 0
I_EXPLORATION = 1
# the rollout policy: a strategy id (0 random, 1 greedy, 2 heuristic), or ROLLOUT_LEARNED (3)
# for the learned policy (STRATEGY_LEARNED; 3 is ismcts's own id)
I_ROLLOUT = ISMCTS_ROLLOUT_SLOT
I_HORIZON = 3  # visit ends to roll out before evaluating; < 0: to the end of the game
I_REWARD_SCALE = 4
I_CARD_VALUE = 5  # evaluation: points per card in hand at a truncated rollout
I_WIN_BONUS = 6
I_GROUP = 7  # 1: group equivalent cards into one action
I_MS = 8  # > 0: search for this many ms of thread CPU time a decision instead of `iterations`
ISMCTS_PARAM_NAMES = (
    "iterations", "exploration", "rollout", "horizon", "reward_scale", "card_value",
    "win_bonus", "group", "ms",
)
# Tree capacity under a time budget: about 400 iterations a CPU ms with 2 players on the
# project's VM (fewer with more players), so 1,000 a ms leaves room for faster machines; the
# cap bounds the memory (7 arrays x 8 bytes a node: 56 MB).
NODES_PER_MS = 1000
MAX_BUDGET_NODES = 1 << 20
SALT_DETERMINISE = 0xD37E


@njit(cache=True)
def canonical_cards(comp, canon):
    """``canon[card]``: the smallest card id with the same colour and symbols (int64[N_CARDS]).

    Prestige cards keep their own id: their effects differ even when their symbols agree.
    """
    for card in range(N_CARDS):
        canon[card] = card
        if card >= FIRST_PRESTIGE:
            continue
        for other in range(card):
            if comp[C_CARD_COLOUR + other] != comp[C_CARD_COLOUR + card]:
                continue
            same = True
            for s in range(N_SYMBOLS):
                mine = comp[C_CARD_SYM + card * N_SYMBOLS + s]
                if comp[C_CARD_SYM + other * N_SYMBOLS + s] != mine:
                    same = False
                    break
            if same:
                canon[card] = canon[other]
                break


@njit(cache=True)
def action_key(action, canon):
    """The grouped action: the same action with each card replaced by its canonical card."""
    canon = borrowed(canon)  # no reference counting inside (engine.arrays.borrowed)
    if action >= ACTION_BID and action < ACTION_CITY:
        card, extra = bid_cards(action)
        extra_slot = canon[extra] - FIRST_WHITE + 1 if extra >= 0 else 0
        return ACTION_BID + canon[card] * BID_EXTRA + extra_slot
    if action >= ACTION_TAKE:
        return ACTION_TAKE + canon[action - ACTION_TAKE]
    return action


@njit(cache=True)
def collect_unseen(state, player, unseen, hidden):
    """The cards ``player`` cannot see, in card-id order, into ``unseen`` (int64[N_DECK_CARDS]);
    return their number. ``hidden`` (int64[P]) receives how many of them each hand holds.

    They are the same at every iteration of a search, so the search collects them once."""
    k = 0
    for q in range(P):
        hidden[q] = 0
    for card in range(N_DECK_CARDS):
        if is_unseen(state, player, card):
            unseen[k] = card
            k += 1
            loc = state[S_CARD_LOC + card]
            if loc != LOC_DECK:
                hidden[loc - LOC_HAND] += 1
    return k


@njit(cache=True)
def deal_unseen(state, player, prng, unseen, k, hidden, pool, out):
    """Write into ``out`` a copy of ``state`` with the ``k`` cards of ``unseen``
    (``collect_unseen``) shuffled with ``prng[player]`` and dealt to the deck slots, then to the
    other hands' unannounced places; reseed the chance stream from ``prng[player]``.

    Only the moved cards' location-mask bits are updated: every unseen card leaves the deck's or
    another hand's block (and the public block: a dealt card is not public) and joins the block
    of its new place. ``rebuild_card_masks_nb`` on ``out`` gives the same masks (a test checks
    it); walking all cards costs a third of a determinisation."""
    copy_into(out, state)
    for i in range(k):
        pool[i] = unseen[i]
    shuffle_slice(pool, 0, k, prng, player)
    for i in range(k):
        card = pool[i]
        word = S_LOC_MASK + card_word(card)
        bit = card_bit(card)
        out[word + mask_loc(state[S_CARD_LOC + card]) * N_MASK_WORDS] &= ~bit
        out[word + MASK_PUBLIC * N_MASK_WORDS] &= ~bit
    i = 0
    for d in range(state[S_DECK_TOP], state[S_DECK_LEN]):
        card = pool[i]
        i += 1
        out[S_DECK + d] = card
        out[S_CARD_LOC + card] = LOC_DECK
        out[S_CARD_PUBLIC + card] = 0
        out[S_LOC_MASK + MASK_DECK * N_MASK_WORDS + card_word(card)] |= card_bit(card)
    for q in range(state[S_N_PLAYERS]):
        for _ in range(hidden[q]):
            card = pool[i]
            i += 1
            out[S_CARD_LOC + card] = LOC_HAND + q
            out[S_CARD_PUBLIC + card] = 0
            out[S_LOC_MASK + (MASK_HAND + q) * N_MASK_WORDS + card_word(card)] |= card_bit(card)
    out[S_RNG] = np.int64(next_u64(prng, player))


@njit(cache=True)
def determinise(state, comp, player, prng, out, pool):
    """Write into ``out`` a copy of ``state`` with the cards unseen by ``player`` redealt
    (``collect_unseen`` then ``deal_unseen``; ``pool``: int64[N_DECK_CARDS] scratch).

    The unseen cards (collected in card-id order, so the result depends only on the multiset)
    are shuffled with ``prng[player]`` and dealt to the deck slots and to the other players'
    unannounced hand places; the chance stream is reseeded from ``prng[player]``.

    Simplification: after a reshuffle the new deck is the old discard pile, which everybody saw,
    so a careful player could tell deck cards from the opponents' older hidden cards. Pooling
    them all loses that information (it never uses hidden information).
    """
    unseen = np.empty(N_DECK_CARDS, np.int64)
    hidden = np.zeros(P, np.int64)
    k = collect_unseen(state, player, unseen, hidden)
    deal_unseen(state, player, prng, unseen, k, hidden, pool, out)


@njit(cache=True)
def evaluate(det, n, final, params, values):
    """Per-player value of a finished or truncated game: score (+ cards in hand if truncated)."""
    for q in range(n):
        values[q] = score_of(det, q)
        if not final:
            values[q] += params[I_CARD_VALUE] * det[S_HAND_N + q]


@njit(cache=True)
def rewards_from(det, n, final, params, values, rewards):
    det = borrowed(det)
    params = borrowed(params)
    values = borrowed(values)
    rewards = borrowed(rewards)
    evaluate(det, n, final, params, values)
    scale = max(params[I_REWARD_SCALE], 1e-6)
    n_win = 0
    if final:
        for q in range(n):
            n_win += det[S_WINNER + q]
    for q in range(n):
        best_other = -1e18
        for o in range(n):
            if o != q and values[o] > best_other:
                best_other = values[o]
        r = 0.5 + 0.5 * math.tanh((values[q] - best_other) / scale)
        if final and n_win > 0 and det[S_WINNER + q] == 1:
            r += params[I_WIN_BONUS] / n_win
        rewards[q] = r / (1.0 + params[I_WIN_BONUS])


@njit(cache=True)
def ismcts_search(state, comp, player, params, prng, legal_root, n_root, visits_out,
                  learned=True, net=None):
    """Run the search; return the chosen action and write root child visits per root action
    into ``visits_out`` (float64[n_root]). ``learned=None`` compiles the rollouts without the
    learned policy (``kernel_switches``): a learned rollout then raises. ``net``: the weights
    sets (int64[...], ``kernel_switches``) when the rollouts play ``net`` (``rollout`` =
    ``ROLLOUT_NET``, the network-guided search), else None (such a rollout then raises)."""
    state = borrowed(state)
    comp = borrowed(comp)
    params = borrowed(params)
    prng = borrowed(prng)
    legal_root = borrowed(legal_root)
    visits_out = borrowed(visits_out)
    n = state[S_N_PLAYERS]
    iterations = max(1, int(params[I_ITERATIONS]))
    # A time budget replaces the iteration count (records then depend on the machine's speed).
    budget_ns = int(np.floor(params[I_MS] * 1e6 + 0.5)) if params[I_MS] > 0 else 0
    start_ns = thread_time_ns() if budget_ns > 0 else 0
    c_explore = params[I_EXPLORATION]
    rollout_id = int(params[I_ROLLOUT])
    if rollout_id == ROLLOUT_LEARNED:  # the setting's values run 0..3; learned's id is 4
        if learned is None:
            raise ValueError("ismcts rolls out with learned, but the kernel has learned=None")
        rollout_id = STRATEGY_LEARNED
    elif rollout_id == ROLLOUT_NET:  # built by registry.expert_with_net_rollout, never parsed
        if net is None:
            raise ValueError("ismcts rolls out with net, but the kernel has net=None")
        rollout_id = STRATEGY_NET
    horizon = int(params[I_HORIZON])
    group = params[I_GROUP] > 0.5
    rparams = params[N_WEIGHTS:]
    mask = forbid_mask(params)
    start_visit = state[S_VISIT]
    stop_visit = start_visit + horizon + 1 if horizon >= 0 else 1 << 30

    canon = np.empty(N_CARDS, np.int64)
    if group:
        canonical_cards(comp, canon)
    else:
        for c in range(N_CARDS):
            canon[c] = c

    max_nodes = iterations + 2
    if budget_ns > 0 and not stop_requested():  # stopped: no room for a budget's tree
        budget_nodes = int(min(params[I_MS] * NODES_PER_MS, MAX_BUDGET_NODES))
        max_nodes = max(iterations, budget_nodes) + 2
    node_key = np.zeros(max_nodes, np.int64)
    node_mover = np.zeros(max_nodes, np.int64)
    node_child = np.full(max_nodes, -1, np.int64)
    node_sibling = np.full(max_nodes, -1, np.int64)
    node_visits = np.zeros(max_nodes, np.float64)
    node_avail = np.zeros(max_nodes, np.float64)
    node_reward = np.zeros(max_nodes, np.float64)
    n_nodes = 1  # node 0: root

    n_keys_total = P * N_ACTIONS
    mark = np.zeros(n_keys_total, np.int64)  # stamp: key legal in the current step
    has_child = np.zeros(n_keys_total, np.int64)  # stamp: key already a child of this node
    rep_of = np.zeros(n_keys_total, np.int64)  # a concrete legal action for the key
    keys = np.empty(N_ACTIONS, np.int64)
    legal = np.empty(N_ACTIONS, np.int64)
    det = np.empty_like(state)
    pool = np.empty(N_DECK_CARDS, np.int64)
    unseen = np.empty(N_DECK_CARDS, np.int64)
    hidden = np.zeros(P, np.int64)
    n_unseen = collect_unseen(state, player, unseen, hidden)
    path = np.empty(4096, np.int64)
    values = np.zeros(P, np.float64)
    rewards = np.zeros(P, np.float64)
    rprng = np.empty(P, np.int64)
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)  # the rollout policy's scratch
    base_seed = np.int64(next_u64(prng, player))
    for q in range(P):
        rprng[q] = derive_seed(base_seed, q, SALT_DETERMINISE)
    stamp = 0

    done = 0
    while True:
        deal_unseen(state, player, prng, unseen, n_unseen, hidden, pool, det)
        node = 0
        path_len = 0
        in_tree = True
        while det[S_PHASE] != PHASE_GAME_OVER and det[S_VISIT] < stop_visit:
            n_leg = legal_actions_nb(det, comp, legal)
            if mask != 0 and det[S_CUR] == player:  # its own decisions: root, tree, rollouts
                n_leg = restrict_legal(det, comp, legal, n_leg, mask)
            if n_leg == 1:
                apply_action_nb(det, comp, legal[0])
                continue
            mover = det[S_CUR]
            if not in_tree:
                action = simple_choice_nb(rollout_id, det, comp, mover, rparams, rprng, legal,
                                          n_leg, work, learned, net)
                apply_action_nb(det, comp, action)
                continue
            stamp += 1
            n_keys = 0
            for i in range(n_leg):
                k = mover * N_ACTIONS + action_key(legal[i], canon)
                if mark[k] != stamp:
                    mark[k] = stamp
                    rep_of[k] = legal[i]
                    keys[n_keys] = k
                    n_keys += 1
            # Children available here: count availability, note which keys are tried.
            best = -1
            best_ucb = -1e18
            child = node_child[node]
            while child >= 0:
                k = node_key[child]
                if mark[k] == stamp:
                    has_child[k] = stamp
                    node_avail[child] += 1.0
                    v = node_visits[child]
                    ucb = node_reward[child] / v + c_explore * math.sqrt(
                        math.log(node_avail[child]) / v)
                    if ucb > best_ucb:
                        best_ucb = ucb
                        best = child
                child = node_sibling[child]
            n_untried = 0
            for j in range(n_keys):
                if has_child[keys[j]] != stamp:
                    n_untried += 1
            if n_untried > 0 and n_nodes < max_nodes:
                pick = below(prng, player, n_untried)
                chosen = -1
                for j in range(n_keys):
                    if has_child[keys[j]] != stamp:
                        if pick == 0:
                            chosen = keys[j]
                            break
                        pick -= 1
                new = n_nodes
                n_nodes += 1
                node_key[new] = chosen
                node_mover[new] = mover
                node_avail[new] = 1.0
                node_sibling[new] = node_child[node]
                node_child[node] = new
                apply_action_nb(det, comp, rep_of[chosen])
                if path_len < path.shape[0]:
                    path[path_len] = new
                    path_len += 1
                node = new
                in_tree = False
            elif best >= 0:
                apply_action_nb(det, comp, rep_of[node_key[best]])
                if path_len < path.shape[0]:
                    path[path_len] = best
                    path_len += 1
                node = best
            else:  # tree full: finish with the rollout policy
                in_tree = False
                action = simple_choice_nb(rollout_id, det, comp, mover, rparams, rprng, legal,
                                          n_leg, work, learned, net)
                apply_action_nb(det, comp, action)
        final = det[S_PHASE] == PHASE_GAME_OVER
        rewards_from(det, n, final, params, values, rewards)
        for j in range(path_len):
            nd = path[j]
            node_visits[nd] += 1.0
            node_reward[nd] += rewards[node_mover[nd]]
        done += 1
        if stop_requested():  # Ctrl-C (tajsim.engine.stop): the run discards this game
            break
        if budget_ns > 0:
            if thread_time_ns() - start_ns >= budget_ns:
                break
        elif done >= iterations:
            break
    # The most visited root child among the real legal actions.
    best_action = legal_root[0]
    best_visits = -1.0
    for i in range(n_root):
        k = player * N_ACTIONS + action_key(legal_root[i], canon)
        visits = 0.0
        child = node_child[0]
        while child >= 0:
            if node_key[child] == k:
                visits = node_visits[child]
                break
            child = node_sibling[child]
        visits_out[i] = visits
        if visits > best_visits:
            best_visits = visits
            best_action = legal_root[i]
    if temperature_units(params, VALUE_ONE) > 0:
        # above temperature 0, ties on visits are drawn from the seat's stream instead of
        # going to the first legal action
        tied = 0
        for i in range(n_root):
            if visits_out[i] == best_visits:
                tied += 1
        if tied > 1:
            r = below(prng, player, tied)
            for i in range(n_root):
                if visits_out[i] == best_visits:
                    if r == 0:
                        best_action = legal_root[i]
                        break
                    r -= 1
    return best_action


# Inlined into the dispatcher: as a kernel of its own it would be one more module in which
# LLVM optimises and compiles the whole search again (cold compile).
@njit(cache=True, inline="always")
def ismcts_policy_nb(state, comp, player, params, prng, legal, n_legal, learned=True,
                     net=None):
    """SO-ISMCTS (see the module docstring); ``params`` slots in ``ISMCTS_PARAM_NAMES``;
    ``learned`` and ``net`` the kernel switches of ``ismcts_search``."""
    visits = np.empty(n_legal, np.float64)
    return ismcts_search(state, comp, player, params, prng, legal, n_legal, visits, learned,
                         net)
