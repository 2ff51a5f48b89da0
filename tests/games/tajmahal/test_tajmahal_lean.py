"""Taj Mahal's lean paths (issue 20) against the full computations they replace.

* ``build_count_view`` (palace, crown and display decisions) against ``build_view`` on the slots
  it fills;
* ``hand_scoring_points`` (popcounts) against a walk over the cards;
* ``palace_cities`` (the ``S_PALACE_BITS`` index) against a walk over ``S_PALACES``;
* the links memo (``province_links`` and ``city_links``, one memo for every game and seat)
  against ``links_if`` computed afresh;
* ISMCTS's determinisation, which updates only the moved cards' location-mask bits, against
  ``rebuild_card_masks_nb`` (a walk over every card) on its output.

Every decision of whole games, every seat, reshuffles and protests included.
"""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.nb import (
    apply_action_nb,
    hand_scoring_points,
    legal_actions_nb,
    palace_cities,
    rebuild_card_masks_nb,
)
from tajsim.games.tajmahal.play.nb import start_game_nb
from tajsim.games.tajmahal.strategies.features import (
    LINK_MEMO_SIZE,
    V_COL_N,
    V_MY_BEST,
    V_MY_COL,
    V_UNSEEN,
    VIEW_SIZE,
    build_count_view,
    build_view,
    city_links,
    links_if,
    province_city,
    province_links,
    province_n_cities,
)
from tajsim.games.tajmahal.strategies.ids import N_PARAMS
from tajsim.games.tajmahal.strategies.ismcts import determinise
from tajsim.games.tajmahal.strategies.nb import choose_action_nb

COUNT_SLOTS = [V_UNSEEN, V_MY_BEST, *range(V_COL_N, V_COL_N + E.N_COLOURS + 1),
               *range(V_MY_COL, V_MY_COL + E.N_COLOURS + 1)]
HAND_SLOTS = [V_MY_BEST, *range(V_MY_COL, V_MY_COL + E.N_COLOURS + 1)]


def _hand_points_by_walk(state, comp, p: int) -> int:
    counts = [0] * (E.N_COLOURS + 1)
    for card in range(E.N_CARDS):
        if state[E.S_CARD_LOC + card] == E.LOC_HAND + p:
            counts[int(comp[E.C_CARD_COLOUR + card])] += 1
    return counts[E.COLOURLESS] + max(counts[:E.N_COLOURS])


def _palace_cities_by_walk(state, p: int) -> int:
    return sum(1 << c for c in range(E.MAX_CITIES)
               if state[E.S_PALACES + c * E.MAX_PLAYERS + p] > 0)


@pytest.mark.parametrize("n_players,edition", [(2, E.EDITION_2018), (4, E.EDITION_2018),
                                               (5, E.EDITION_2000)])
def test_lean_paths_equal_full_ones(comp, n_players, edition):
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    full, counts = np.empty(VIEW_SIZE), np.full(VIEW_SIZE, np.nan)
    params = np.zeros(N_PARAMS)
    memo = np.zeros(LINK_MEMO_SIZE)  # shared by every game and seat, as a batch's scratch is
    det, rebuilt = np.empty_like(state), np.empty_like(state)
    pool, det_prng = np.empty(E.N_DECK_CARDS, np.int64), np.arange(E.MAX_PLAYERS, dtype=np.int64)
    cards = slice(E.S_CARD_LOC, E.S_CARD_LOC + E.N_DECK_CARDS)
    decisions = bids_with_extras = memo_rows_checked = hidden_hands = protests = 0
    phases = set()
    for game_id in range(4):
        start_game_nb(comp, n_players, edition, 5, game_id, game_id, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            n = legal_actions_nb(state, comp, legal)
            phases.add(int(state[E.S_PHASE]))
            bids_with_extras += any(a >= E.ACTION_BID and (a - E.ACTION_BID) % E.BID_EXTRA
                                    for a in legal[:n])
            for p in range(n_players):
                build_view(state, comp, p, full)
                build_count_view(state, comp, p, counts, False)
                assert np.array_equal(counts[HAND_SLOTS], full[HAND_SLOTS])
                build_count_view(state, comp, p, counts, True)
                assert np.array_equal(counts[COUNT_SLOTS], full[COUNT_SLOTS])
                assert hand_scoring_points(state, comp, p) == \
                    _hand_points_by_walk(state, comp, p)
                mine = np.uint64(palace_cities(state, comp, p))  # compiled: a Python int
                assert int(mine) == _palace_cities_by_walk(state, p)
                at = province_links(state, comp, mine, p, memo)
                prov = int(state[E.S_PROVINCE])
                for i in range(province_n_cities(comp, prov)):
                    city = province_city(comp, prov, i)
                    assert memo[at + i] == links_if(state, comp, mine, city)
                    assert city_links(state, comp, mine, p, memo, city) == memo[at + i]
                memo_rows_checked += mine != 0
                determinise(state, comp, p, det_prng, det, pool)
                rebuilt[:] = det
                rebuild_card_masks_nb(rebuilt)
                assert np.array_equal(det, rebuilt), (game_id, int(state[E.S_STEP]), p)
                before, after = state[cards], det[cards]
                hidden_hands += bool(np.any((before != after) & (before != E.LOC_DECK)))
            decisions += 1
            mover = int(state[E.S_CUR])
            strategy = 1 if game_id % 2 else 0  # greedy keeps cards, random spends them
            action = legal[0] if n == 1 else choose_action_nb(strategy, state, comp, mover,
                                                              params, prng, legal, n)
            apply_action_nb(state, comp, action)
        protests += int(state[E.S_N_PROTESTS])
    assert decisions > 300
    assert protests > 0 or n_players > 2  # unrest and protests are the 2-player rules
    assert memo_rows_checked > 100  # palaces were built, so the rows held real road searches
    assert hidden_hands > 100  # determinisations moved cards out of the others' hands
    assert bids_with_extras > 0
    assert phases == {E.PHASE_BID, E.PHASE_PALACE, E.PHASE_CROWN, E.PHASE_DISPLAY}


def test_threat_table_equals_its_formula_per_opponent(comp):
    """``threat_table`` (frequencies cached per row colour, the three products run side by
    side) equals its formula written per opponent with ``p_any``, bit for bit, for every seat
    at sampled decisions of 2- to 5-player games (players without a row colour, colourless
    cards and known cards included)."""
    from tajsim.games.registry import get_game
    from tajsim.games.tajmahal.strategies import features as F
    from tajsim.play.conformance import decision_states

    spec = get_game("tajmahal")
    P, S, NC = E.MAX_PLAYERS, E.N_SYMBOLS, F.N_COLS
    view = np.empty(F.VIEW_SIZE)
    scratch = np.empty(F.THREAT_SCRATCH)
    a, b = np.empty((P, S)), np.empty((P, S))
    checked = no_row = known = 0
    states = [st for n, ed in ((2, "2018"), (4, "2018"), (5, "2000"))
              for st in decision_states(spec, n, 12, ed, seed=21)]
    for state, _prng, _player, _legal in states:
        for p in range(int(state[E.S_N_PLAYERS])):
            F.build_view(state, comp, p, view)
            F.threat_table(state, comp, view, p, a, b, scratch)
            u = view[F.V_UNSEEN]
            for q in range(P):
                if q == p or not F.is_active(state, q):
                    assert not a[q].any() and not b[q].any()
                    continue
                h = view[F.V_HIDDEN_N + q]
                col = int(state[E.S_ROW_COLOUR + q])
                colours = [col] if col >= 0 else list(range(E.N_COLOURS))
                no_row += col < 0
                for s in range(S):
                    f1 = f2 = 0.0
                    if u > 0 and col >= 0:
                        f1 = view[F.V_COL_SYM + col * S + s] / u
                        f2 = view[F.V_COL_SYM2 + col * S + s] / u
                    elif u > 0:
                        for k in colours:
                            f1 += view[F.V_COL_SYM + k * S + s] / u
                            f2 += view[F.V_COL_SYM2 + k * S + s] / u
                    fw = view[F.V_COL_SYM + E.COLOURLESS * S + s] / u if u > 0 else 0.0
                    p_col = F.p_any(1.0 - f1, f1, h)
                    p_two = F.p_any(1.0 - f2, f2, h)
                    p_white = F.p_any(1.0 - fw, fw, h)
                    if sum(view[F.V_KNOWN_SYM + (q * NC + k) * S + s] for k in colours) > 0:
                        p_col, known = 1.0, known + 1
                    if view[F.V_KNOWN_SYM + (q * NC + E.COLOURLESS) * S + s] > 0:
                        p_white = 1.0
                    assert a[q, s] == 1.0 - (1.0 - p_col) * (1.0 - p_white)
                    assert b[q, s] == min(1.0, p_two + p_col * p_white * (1.0 - p_two))
                    checked += 1
    assert checked > 1000 and no_row > 0 and known > 0


def test_side_by_side_products_equal_p_any():
    """``threat_table``'s running products (``p_any_from``) give ``p_any`` bit for bit."""
    from tajsim.games.tajmahal.strategies.features import p_any, p_any_from

    rng = np.random.default_rng(3)
    fracs = np.concatenate([[0.0, 1.0, 1.5, -0.1], rng.random(40)])
    for frac in fracs:
        for n_draws in (0.0, 1.0, 2.0, 5.0, 13.0):
            keep = 1.0
            for _ in range(int(n_draws)):
                keep *= 1.0 - frac
            assert p_any_from(keep, frac, n_draws) == p_any(1.0 - frac, frac, n_draws)


def test_listless_random_draw_matches_the_list(comp):
    """``count_legal_nb`` and ``nth_legal_nb`` (the loop's random draw without a list) give
    the list's length and entries at every decision of random games: every player count and
    edition, so off-colour Enlightenment bids, palaces, crowns and display takes all occur."""
    from tajsim.games.tajmahal.engine.nb import (
        apply_action_nb,
        count_legal_nb,
        legal_actions_nb,
        nth_legal_nb,
    )

    rng = np.random.default_rng(20)
    legal = np.empty(E.N_ACTIONS, np.int64)
    phases = set()
    checked = off_colour = 0
    for edition in (E.EDITION_2018, E.EDITION_2000):
        for n_players in range(2 if edition == E.EDITION_2018 else 3, E.MAX_PLAYERS + 1):
            for g in range(3):
                state = np.zeros(E.STATE_SIZE, np.int64)
                prng = np.zeros(E.MAX_PLAYERS, np.int64)
                start_game_nb(comp, n_players, edition, 7, g, g, state, prng)
                while state[E.S_PHASE] != E.PHASE_GAME_OVER:
                    n = legal_actions_nb(state, comp, legal)
                    assert count_legal_nb(state, comp) == n
                    for k in range(n):
                        assert nth_legal_nb(state, comp, k) == legal[k]
                    phases.add(int(state[E.S_PHASE]))
                    if state[E.S_PHASE] == E.PHASE_BID:
                        row = state[E.S_ROW_COLOUR + state[E.S_CUR]]
                        off_colour += any(
                            row >= 0 and a > 0 and (a - E.ACTION_BID) // E.BID_EXTRA // 21 != row
                            for a in legal[:n] if a < E.ACTION_CITY)
                    checked += 1
                    apply_action_nb(state, comp, legal[rng.integers(n)])
    assert phases == {E.PHASE_BID, E.PHASE_PALACE, E.PHASE_CROWN, E.PHASE_DISPLAY}
    assert checked > 3000 and off_colour > 20  # off-colour bids with Enlightenment (R5)


def _provinces_reached_by_walk(components, mine: set[int], prov: int) -> int:
    """R12 by a plain breadth-first walk over the road list."""
    start = [c for c in mine if components.city_province[c] == prov]
    reached, frontier = set(start), list(start)
    while frontier:
        city = frontier.pop()
        for a, b in components.roads:
            for here, there in ((int(a), int(b)), (int(b), int(a))):
                if here == city and there in mine and there not in reached:
                    reached.add(there)
                    frontier.append(there)
    return len({int(components.city_province[c]) for c in reached} - {prov})


def test_road_search_reaches_city_63(comp):
    """The bit words hold a city 63 (the top bit of the uint64 pattern stored as int64): a board
    of 64 cities is allowed (MAX_CITIES), though the shipped one has fewer."""
    from tajsim.games.tajmahal.engine.nb import connected_from

    board = comp.copy()
    bits = board.view(np.uint64)
    top = np.uint64(1) << np.uint64(63)
    bits[E.C_PROV_MASK:E.C_PROV_MASK + E.N_PROVINCES] = 0
    bits[E.C_ADJ_MASK:E.C_ADJ_MASK + E.MAX_CITIES] = 0
    bits[E.C_PROV_MASK + 0] = np.uint64(1)  # city 0 in province 0
    bits[E.C_PROV_MASK + 5] = top  # city 63 in province 5
    bits[E.C_ADJ_MASK + 0] = top  # one road: 0 - 63
    bits[E.C_ADJ_MASK + 63] = np.uint64(1)
    both = np.uint64(1) | top
    assert connected_from(board, both, 0) == 1 and connected_from(board, both, 5) == 1
    assert connected_from(board, np.uint64(1), 0) == 0
    assert connected_from(board, top, 5) == 0


def test_road_search_on_bit_words_matches_a_walk(components, comp):
    """``connected_from`` (neighbour and province bit words) against a walk over the roads,
    for random palace sets from sparse to nearly full."""
    from tajsim.games.tajmahal.engine.nb import connected_from

    rng = np.random.default_rng(12)
    n = components.n_cities
    for trial in range(400):
        mine = {c for c in range(n) if rng.random() < (trial % 10 + 1) / 11}
        bits = np.uint64(sum(1 << c for c in mine))
        prov = int(rng.integers(E.N_PROVINCES))
        assert connected_from(comp, bits, prov) == _provinces_reached_by_walk(components, mine,
                                                                             prov)
