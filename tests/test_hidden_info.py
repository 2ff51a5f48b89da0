"""No strategy may see hidden information.

From random mid-game states we permute, from the deciding player's point of view, the cards it
cannot see (the deck and the other players' unannounced hand cards) among their hidden places,
and change the chance stream ``S_RNG`` and the play seed. Every strategy must then take exactly
the same decision with the same policy stream, and the Python ``PlayerView`` must be identical.
"""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.play.nb import start_game_nb
from tajsim.games.tajmahal.strategies.nb import choose_action_nb
from tajsim.games.tajmahal.strategies.python_policy import PlayerView
from tajsim.games.tajmahal.strategies.registry import parse_strategy

STRATEGIES = ["random", "greedy", "balanced", "commodity", "network", "hoarder", "collector",
              "ismcts:iterations=24", "ismcts:iterations=24:horizon=-1:rollout=1",
              "ismcts:iterations=24:rollout=0"]


def hidden_positions(state: np.ndarray, player: int) -> list[tuple[str, int, int]]:
    """(kind, where, card) of every card ``player`` cannot see: deck slots and hidden hand
    places of the other players (their order is irrelevant for a hand)."""
    out = []
    for i in range(int(state[E.S_DECK_TOP]), int(state[E.S_DECK_LEN])):
        out.append(("deck", i, int(state[E.S_DECK + i])))
    n = int(state[E.S_N_PLAYERS])
    for q in range(n):
        if q == player:
            continue
        for card in range(E.N_DECK_CARDS):
            if (state[E.S_CARD_LOC + card] == E.LOC_HAND + q
                    and state[E.S_CARD_PUBLIC + card] == 0):
                out.append(("hand", q, card))
    return out


def permute_hidden(state: np.ndarray, player: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with the cards hidden from ``player`` dealt again at random to the
    same hidden places (deck order and which hidden card is in which hand), new chance seeds."""
    out = state.copy()
    places = hidden_positions(state, player)
    cards = np.array([c for _, _, c in places], np.int64)
    shuffled = rng.permutation(cards)
    relabel = {int(a): int(b) for a, b in zip(cards, shuffled)}
    # Deck slots already drawn keep stale ids; relabel them too so that they tell nothing.
    for i in range(int(state[E.S_DECK_TOP])):
        out[E.S_DECK + i] = relabel.get(int(state[E.S_DECK + i]), int(state[E.S_DECK + i]))
    for (kind, where, _), card in zip(places, shuffled):
        if kind == "deck":
            out[E.S_DECK + where] = card
            out[E.S_CARD_LOC + card] = E.LOC_DECK
        else:
            out[E.S_CARD_LOC + card] = E.LOC_HAND + where
        out[E.S_CARD_PUBLIC + card] = 0
    # Derived per-location masks follow the new hands, so a policy reading them is caught too.
    nb.rebuild_card_masks_nb(out)
    out[E.S_RNG] = int(rng.integers(1, 2**62))
    out[E.S_PLAY_SEED] = int(rng.integers(1, 2**62))
    return out


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


@pytest.mark.parametrize("n_players,edition", [(4, 0), (2, 0), (3, 1), (5, 0)])
def test_decisions_ignore_hidden_cards(comp, n_players, edition):
    rng = np.random.default_rng(100 + n_players)
    states = _mid_game_states(comp, n_players, edition, seed=7 + n_players, n_states=14)
    specs = [parse_strategy(s) for s in STRATEGIES]
    n_changed = 0
    for state, prng, player, legal in states:
        other = permute_hidden(state, player, rng)
        if not np.array_equal(other, state):
            n_changed += 1
        assert nb.legal_actions_nb(other, comp, np.empty(E.N_ACTIONS, np.int64)) == len(legal)
        for name, (spec, params) in zip(STRATEGIES, specs):
            buf = legal.copy()
            a1 = choose_action_nb(spec.strategy_id, state.copy(), comp, player, params,
                                  prng.copy(), buf, len(buf))
            a2 = choose_action_nb(spec.strategy_id, other.copy(), comp, player, params,
                                  prng.copy(), legal.copy(), len(legal))
            assert a1 == a2, (f"{name} changed its decision when hidden cards moved "
                              f"(players={n_players}, phase {E.PHASE_NAMES[state[E.S_PHASE]]})")
        assert PlayerView.from_state(state, comp, player) == PlayerView.from_state(
            other, comp, player)
    assert n_changed >= len(states) - 1  # the permutation really moved hidden cards


def test_permutation_keeps_the_visible_state(comp):
    """The test's own permutation changes only hidden facts (sanity of the harness)."""
    rng = np.random.default_rng(3)
    for state, _, player, _ in _mid_game_states(comp, 4, 0, seed=11, n_states=6):
        other = permute_hidden(state, player, rng)
        mine = E.LOC_HAND + player
        loc_a = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        loc_b = other[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        assert np.array_equal(loc_a == mine, loc_b == mine)
        pub = state[E.S_CARD_PUBLIC:E.S_CARD_PUBLIC + E.N_CARDS] == 1
        assert np.array_equal(loc_a[pub], loc_b[pub])
        assert np.array_equal(state[E.S_HAND_N:E.S_HAND_N + E.MAX_PLAYERS],
                              other[E.S_HAND_N:E.S_HAND_N + E.MAX_PLAYERS])
        for q in range(4):  # hidden hand sizes are kept
            assert (loc_a == E.LOC_HAND + q).sum() == (loc_b == E.LOC_HAND + q).sum()


def test_ismcts_determinisation_depends_only_on_the_view(comp):
    """Two states that differ only in hidden cards give the same determinised copy."""
    from tajsim.games.tajmahal.strategies.ismcts import determinise

    rng = np.random.default_rng(5)
    for state, prng, player, _ in _mid_game_states(comp, 4, 0, seed=13, n_states=4):
        other = permute_hidden(state, player, rng)
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
