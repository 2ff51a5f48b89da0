"""Compiled No Thanks! policies and the dispatcher that selects one by integer id.

A policy reads only what ``player`` sees: the face-up card, the chips on it, every seat's
cards, its own chips (other seats' chips are kept hidden, but every change is public, so they
are known too; no policy here uses them). It never reads the deck below the face-up card.
Signature: ``policy(state, comp, player, params, prng, legal, n_legal) -> action``.
"""

from __future__ import annotations

from tajsim.engine.rng import below
from tajsim.engine.targets import kernel
from tajsim.games.nothanks.engine import enums as E

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
N_PARAMS = 1  # greedy's threshold


@kernel
def owns(state, player, card):
    """Whether ``player`` holds ``card`` (False outside 3..35)."""
    if card < E.LOW_CARD or card > E.HIGH_CARD:
        return False
    return state[E.S_OWNER + card - E.LOW_CARD] == player


@kernel
def take_cost(state, player):
    """What taking the face-up card changes ``player``'s score by: the card points it adds
    (none when it extends a run upwards; it replaces the lowest card of a run it extends
    downwards) minus the chips on it."""
    card = state[E.S_DECK + state[E.S_TURNED]]
    below_owned = owns(state, player, card - 1)
    above_owned = owns(state, player, card + 1)
    if below_owned and above_owned:  # joins two runs: the upper run's lowest card stops counting
        points = -(card + 1)
    elif below_owned:
        points = 0
    elif above_owned:
        points = -1
    else:
        points = card
    return points - state[E.S_POT]


@kernel
def greedy_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """Take the card when taking costs at most ``params[0]`` points, else say "no thanks"."""
    if n_legal == 1:
        return legal[0]
    return E.ACT_TAKE if take_cost(state, player) <= params[0] else E.ACT_PASS


@kernel
def choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal):
    """Ask strategy ``strategy_id`` for one of ``legal[:n_legal]`` (``GameKernels``)."""
    if strategy_id == STRATEGY_GREEDY:
        return greedy_policy_nb(state, comp, player, params, prng, legal, n_legal)
    return legal[below(prng, player, n_legal)]


@kernel
def choose_simple_nb(strategy_id, state, comp, player, params, prng, legal, n_legal, work):
    """``choose_action_nb`` with the GPU batch kernel's scratch argument (unused: no policy
    here needs scratch)."""
    return choose_action_nb(strategy_id, state, comp, player, params, prng, legal, n_legal)
