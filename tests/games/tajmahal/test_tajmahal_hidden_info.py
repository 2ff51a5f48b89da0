"""Taj Mahal's hidden-information harness and ISMCTS determinisation.

The conformance suite (``tests/test_conformance.py``) requires every registered strategy to take
the same decision when ``redraw_hidden`` deals again the cards a seat cannot see. These tests
check the harness itself (it changes only hidden facts) and that ISMCTS's determinisation
depends only on the deciding seat's view.
"""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.invariants import redraw_hidden
from tajsim.games.tajmahal.play.nb import start_game_nb
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.nb import choose_action_nb
from tajsim.games.tajmahal.strategies.registry import parse_strategy
from tajsim.play import conformance as C

#: ISMCTS settings beyond its defaults (the conformance suite covers every registered strategy
#: at its defaults): another rollout policy, no rollout horizon, random rollouts.
ISMCTS_VARIANTS = ["ismcts:iterations=24:horizon=-1:rollout=1", "ismcts:iterations=24:rollout=0"]


def _mid_game_states(comp, n_players, edition, seed, n_states):
    """Decision points (state, prng, player, legal) sampled from random-policy games."""
    rng = np.random.default_rng(seed)
    legal = np.empty(E.N_ACTIONS, np.int64)
    out = []
    game = 0
    policy, params = parse_strategy("balanced")
    while len(out) < n_states:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(comp, n_players, edition, seed, game, game, state, prng)
        stops = set(rng.integers(5, 250, size=3).tolist())
        step = 0
        while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(out) < n_states:
            n = nb.legal_actions_nb(state, comp, legal)
            p = int(state[E.S_CUR])
            if n > 1 and step in stops:
                out.append((state.copy(), prng.copy(), p, legal[:n].copy()))
            # a mix of sensible and random play reaches varied states
            sid = policy.strategy_id if rng.random() < 0.7 else 0
            action = legal[0] if n == 1 else choose_action_nb(sid, state, comp, p, params, prng,
                                                              legal, n)
            nb.apply_action_nb(state, comp, action)
            step += 1
        game += 1
    return out


def test_permutation_keeps_the_visible_state(comp):
    """The test's own permutation changes only hidden facts (sanity of the harness)."""
    rng = np.random.default_rng(3)
    moved = 0
    for state, _, player, _ in _mid_game_states(comp, 4, 0, seed=11, n_states=6):
        other = redraw_hidden(state, comp, player, rng)
        mine = E.LOC_HAND + player
        loc_a = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        loc_b = other[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        moved += not np.array_equal(loc_a, loc_b)
        assert np.array_equal(loc_a == mine, loc_b == mine)
        pub = state[E.S_CARD_PUBLIC:E.S_CARD_PUBLIC + E.N_CARDS] == 1
        assert np.array_equal(loc_a[pub], loc_b[pub])
        assert np.array_equal(state[E.S_HAND_N:E.S_HAND_N + E.MAX_PLAYERS],
                              other[E.S_HAND_N:E.S_HAND_N + E.MAX_PLAYERS])
        for q in range(4):  # hidden hand sizes are kept
            assert (loc_a == E.LOC_HAND + q).sum() == (loc_b == E.LOC_HAND + q).sum()
    assert moved >= 4  # and hidden cards did move


def test_ismcts_determinisation_depends_only_on_the_view(comp):
    """Two states that differ only in hidden cards give the same determinised copy."""
    from tajsim.games.tajmahal.strategies.ismcts import determinise

    rng = np.random.default_rng(5)
    moved = 0
    for state, prng, player, _ in _mid_game_states(comp, 4, 0, seed=13, n_states=4):
        other = redraw_hidden(state, comp, player, rng)
        moved += not np.array_equal(state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS],
                                    other[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS])
        out1 = np.empty_like(state)
        out2 = np.empty_like(state)
        pool = np.empty(E.N_DECK_CARDS, np.int64)
        p1, p2 = prng.copy(), prng.copy()
        determinise(state, comp, player, p1, out1, pool)
        determinise(other, comp, player, p2, out2, pool)
        deck = slice(E.S_DECK + int(state[E.S_DECK_TOP]), E.S_DECK + int(state[E.S_DECK_LEN]))
        assert np.array_equal(out1[deck], out2[deck])
        assert np.array_equal(out1[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS],
                              out2[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS])
        assert out1[E.S_RNG] == out2[E.S_RNG]
    assert moved >= 2  # the two states did differ in hidden cards


@pytest.mark.parametrize("strategy", ISMCTS_VARIANTS)
@pytest.mark.parametrize("n_players,edition", [(4, "2018"), (2, "2018"), (3, "2000")])
def test_ismcts_variants_ignore_hidden_information(strategy, n_players, edition):
    assert C.check_hidden_information(SPEC, strategy, n_players, n_states=8, edition=edition,
                                      seed=7 + n_players) >= 4
