"""Properties of whole games (hypothesis over seeds, player counts and rule options).

Each example plays a game through the kernels and checks at every step
(``tajsim.play.conformance.check_kernel_game`` with the spec's ``check_state``, ``check_legal``
and ``check_step``): every invariant of ``check_state`` (tiles conserved, masks, artisans
conserved, gold parts), the kernel's legal list equal to the independent ``expected_legal``, the
zone gold of each tile and the group gold of each artisan equal to breadth-first flood fills
done independently, gold never falling except the 2 gold of a second tile. Whole-game
properties: the score is the sum of its parts in the records, the same seed gives the same
game, and a record replays exactly.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from maharani_helpers import MCOMP

from tajsim.engine.base_game import GameRecord
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.game import Game
from tajsim.games.maharani.engine.invariants import (
    check_state,
    groups_by_flood_fill,
    zones_by_flood_fill,
)
from tajsim.games.maharani.play.nb import (
    play_batch_nb,
    play_batch_parallel_nb,
    play_out_nb,
    start_game_nb,
    write_records_nb,
)
from tajsim.games.maharani.strategies.ids import N_PARAMS
from tajsim.games.maharani.strategies.registry import REGISTRY
from tajsim.games.registry import get_game
from tajsim.play.conformance import check_kernel_game

SPEC = get_game("maharani")

RULES = [0, E.OPT_TARGET_MARKER, E.OPT_FREE_REFRESH, E.OPT_TARGET_MARKER | E.OPT_FREE_REFRESH]
seeds = st.integers(min_value=0, max_value=2**63 - 1)
game_ids = st.integers(min_value=0, max_value=10**6)
players = st.sampled_from([2, 3, 4])
rules = st.sampled_from(RULES)
fast = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fast
@given(n=players, rules=rules, seed=seeds, game_id=game_ids)
def test_random_games_keep_every_invariant(n, rules, seed, game_id):
    options = {o.name: bool(rules >> o.bit & 1) for o in SPEC.options}
    state, _ = check_kernel_game(SPEC, n, None, seed, game_id, "random", MCOMP, options=options)
    assert state[E.S_END_REASON] == E.END_COMPLETE


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=players, seed=seeds, game_id=game_ids, name=st.sampled_from(
    ["greedy", "balanced", "zones", "artisans", "thrifty"]))
def test_heuristic_games_keep_every_invariant(n, seed, game_id, name):
    check_kernel_game(SPEC, n, None, seed, game_id, name, MCOMP)


def play(n, rules, seed, game_id, sid=0):
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(MCOMP, n, rules, seed, game_id, game_id, state, prng)
    actions = np.full(400, -1, np.int64)
    k = play_out_nb(MCOMP, state, np.full(n, sid, np.int64), np.zeros((n, N_PARAMS)), prng,
                    np.empty(E.N_ACTIONS, np.int64), actions, *REGISTRY.kernel_switches([sid]))
    return state, actions[:k]


@settings(max_examples=15, deadline=None)
@given(n=players, rules=rules, seed=seeds, game_id=game_ids)
def test_same_seed_same_game(n, rules, seed, game_id):
    a_state, a_actions = play(n, rules, seed, game_id)
    b_state, b_actions = play(n, rules, seed, game_id)
    assert np.array_equal(a_actions, b_actions) and np.array_equal(a_state, b_state)


@settings(max_examples=12, deadline=None)
@given(n=players, rules=st.sampled_from([0, E.OPT_TARGET_MARKER]), seed=seeds,
       game_id=game_ids)
def test_records_replay_exactly(n, rules, seed, game_id):
    state, actions = play(n, rules, seed, game_id)
    options = {"target_marker": bool(rules & E.OPT_TARGET_MARKER)}
    record = GameRecord(game="maharani", n_players=n, seed=seed, game_id=game_id, setup_id=game_id,
                        actions=[int(a) for a in actions], options=options)
    again = Game.replay(GameRecord.from_json(record.to_json()))
    assert np.array_equal(again.state, state)
    res_a = np.zeros(n, E.RESULT_DTYPE)
    res_b = np.zeros(n, E.RESULT_DTYPE)
    set_a = np.zeros(1, E.SETUP_DTYPE)
    set_b = np.zeros(1, E.SETUP_DTYPE)
    ids = np.zeros(n, np.int64)
    write_records_nb(state, MCOMP, game_id, game_id, ids, res_a, 0, set_a, 0)
    write_records_nb(again.state, MCOMP, game_id, game_id, ids, res_b, 0, set_b, 0)
    assert res_a.tobytes() == res_b.tobytes() and set_a.tobytes() == set_b.tobytes()


@settings(max_examples=10, deadline=None)
@given(n=players, seed=seeds)
def test_records_score_is_the_sum_of_its_parts(n, seed):
    G = 40
    ids = np.arange(G, dtype=np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    lineups = np.array([[(g + p) % 2 for p in range(n)] for g in range(G)], np.int64)
    spec, params = REGISTRY.parse("balanced")
    lineup_ids = np.array([0, spec.strategy_id], np.int64)
    lineup_params = np.stack([np.zeros(N_PARAMS), params])
    play_batch_nb(MCOMP, n, 0, seed, ids, ids, lineups, lineup_ids, lineup_params, res, setups,
                  *REGISTRY.kernel_switches(lineup_ids))
    parts = sum(res[f"pts_{p}"].astype(int) for p in E.PART_NAMES)
    assert np.array_equal(parts, res["score"])
    assert np.all(res["pts_second"] == -2 * res["second_tiles"])
    by_colour = sum(res[f"zones_c{c}"].astype(int) for c in range(1, 7))
    assert np.array_equal(by_colour, res["pts_zones"])
    quarters = sum(res[f"gold_q{q}"].astype(int) for q in range(1, 5))
    assert np.array_equal(quarters, res["pts_quarters"])
    assert np.all(setups["end_reason"] == E.END_COMPLETE)
    # every seat's tiles add up to the 56 spaces; winners are the best scores
    tiles = res["tiles_placed"].astype(int).reshape(G, n).sum(axis=1)
    assert np.all(tiles == 56)
    scores = res["score"].reshape(G, n)
    assert np.array_equal(res["winner"].reshape(G, n), scores == scores.max(axis=1,
                                                                              keepdims=True))
    assert np.all(setups["space_tile"][:, :56] >= 0)
    assert np.all(setups["space_gold"][:, :56].sum(axis=1)
                  == (res["pts_zones"].astype(int) + res["pts_groups"]).reshape(G, n).sum(axis=1))


def test_parallel_batches_equal_the_serial_batch():
    n, G = 3, 90
    ids = np.arange(G, dtype=np.int64)
    lineups = np.array([[(g + p) % 3 for p in range(n)] for g in range(G)], np.int64)
    names = ["random", "greedy", "balanced"]
    parsed = [REGISTRY.parse(x) for x in names]
    lineup_ids = np.array([s.strategy_id for s, _ in parsed], np.int64)
    lineup_params = np.stack([p for _, p in parsed])
    out = []
    for blocks in (None, 1, 4, 7):
        res = np.zeros(G * n, E.RESULT_DTYPE)
        setups = np.zeros(G, E.SETUP_DTYPE)
        if blocks is None:
            play_batch_nb(MCOMP, n, 0, 11, ids, ids, lineups, lineup_ids, lineup_params, res,
                          setups, *REGISTRY.kernel_switches(lineup_ids))
        else:
            play_batch_parallel_nb(MCOMP, n, 0, 11, ids, ids, lineups, lineup_ids,
                                   lineup_params, res, setups, blocks,
                                   *REGISTRY.kernel_switches(lineup_ids))
        out.append((res.tobytes(), setups.tobytes()))
    assert all(o == out[0] for o in out)


def test_flood_fill_cross_check_on_a_full_board():
    state, _ = play(4, 0, 5, 5)
    check_state(state, MCOMP)
    zones = zones_by_flood_fill(state, MCOMP)
    assert len(zones) == 56 and sum(zones.values()) >= 56
    assert groups_by_flood_fill(state, MCOMP) == {}  # every quarter scored: artisans home
