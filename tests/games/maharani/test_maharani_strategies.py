"""Every registered strategy: only legal actions, no change to the state or to another seat's
stream, the same decision when what it cannot see (the bag order, the chance stream, the seeds)
is redrawn; the presets play visibly differently; greedy maximises the gold of each decision;
MCTS beats random."""

from __future__ import annotations

import numpy as np
import pytest
from maharani_helpers import MCOMP, collect_decisions

from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.invariants import redraw_hidden
from tajsim.games.maharani.play.nb import play_batch_nb
from tajsim.games.maharani.strategies.heuristic import WEIGHT_NAMES
from tajsim.games.maharani.strategies.ids import N_PARAMS
from tajsim.games.maharani.strategies.mcts import (
    WORK_SIZE,
    bag_tiles,
    determinise,
    isqrt,
    ln_q16,
    new_workspace,
)
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.registry import REGISTRY, load_presets
from tajsim.games.maharani.strategies.view import PlayerView, decode_action

STRATEGIES = [name for name in REGISTRY.names() if name != "mcts"] + [
    "mcts:iterations=30:horizon=2", "mcts:iterations=20:horizon=-1:rollout=1:width=0"]


@pytest.fixture(scope="module")
def work():
    return new_workspace()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_strategies_choose_legal_actions_and_touch_nothing_else(work, n_players):
    states = collect_decisions(n_players, seed=3 + n_players, n_states=8)
    for name in STRATEGIES:
        spec, params = REGISTRY.parse(name)
        for state, prng, player, legal in states:
            st, pr, lg = state.copy(), prng.copy(), legal.copy()
            a = choose_action_nb(spec.strategy_id, st, MCOMP, player, params, pr, lg, len(lg),
                                 work, True)
            assert a in legal.tolist(), name
            assert np.array_equal(st, state), f"{name} changed the state"
            assert np.array_equal(lg, legal), f"{name} changed the legal list"
            others = [q for q in range(E.MAX_PLAYERS) if q != player]
            assert np.array_equal(pr[others], prng[others]), f"{name} used another seat's stream"


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_decisions_ignore_what_the_seat_cannot_see(work, n_players):
    rng = np.random.default_rng(40 + n_players)
    states = collect_decisions(n_players, seed=17 + n_players, n_states=8)
    changed = 0
    for state, prng, player, legal in states:
        other = redraw_hidden(state, MCOMP, player, rng)
        changed += int(not np.array_equal(other, state))
        assert PlayerView.from_state(state, MCOMP, player) == PlayerView.from_state(
            other, MCOMP, player)
        for name in STRATEGIES:
            spec, params = REGISTRY.parse(name)
            a1 = choose_action_nb(spec.strategy_id, state.copy(), MCOMP, player, params,
                                  prng.copy(), legal.copy(), len(legal), work, True)
            a2 = choose_action_nb(spec.strategy_id, other.copy(), MCOMP, player, params,
                                  prng.copy(), legal.copy(), len(legal), work, True)
            assert a1 == a2, f"{name} changed its decision when the hidden bag order changed"
    assert changed == len(states)


def test_redraw_keeps_the_visible_state():
    rng = np.random.default_rng(1)
    for state, _, player, _ in collect_decisions(3, seed=9, n_states=5):
        other = redraw_hidden(state, MCOMP, player, rng)
        n = int(state[E.S_BAG_N])
        assert sorted(other[E.S_BAG:E.S_BAG + n]) == sorted(state[E.S_BAG:E.S_BAG + n])
        hidden = np.zeros(E.STATE_SIZE, bool)
        hidden[E.S_BAG:E.S_BAG + n] = True
        hidden[[E.S_RNG, E.S_SETUP_SEED, E.S_PLAY_SEED]] = True
        assert np.array_equal(state[~hidden], other[~hidden])


def test_determinisation_depends_only_on_the_view():
    rng = np.random.default_rng(5)
    for state, prng, player, _ in collect_decisions(4, seed=13, n_states=4):
        other = redraw_hidden(state, MCOMP, player, rng)
        a, b = np.empty_like(state), np.empty_like(state)
        p1, p2 = prng.copy(), prng.copy()
        w1, w2 = new_workspace(), new_workspace()
        determinise(state, player, p1, w1, bag_tiles(state, MCOMP, w1), a)
        determinise(other, player, p2, w2, bag_tiles(other, MCOMP, w2), b)
        same = np.ones(E.STATE_SIZE, bool)
        same[E.S_BAG:E.S_BAG + int(state[E.S_BAG_N])] = False  # the bag order, redrawn
        same[E.S_RNG] = False  # the chance stream, reseeded
        assert np.array_equal(a[same], state[same])
        assert np.array_equal(a[E.S_BAG:E.S_BAG + 64], b[E.S_BAG:E.S_BAG + 64])
        assert a[E.S_RNG] == b[E.S_RNG]


def test_greedy_takes_the_most_gold_of_each_decision():
    spec, params = REGISTRY.parse("greedy")
    checked = 0
    for state, prng, player, legal in collect_decisions(3, seed=21, n_states=30):
        if state[E.S_PHASE] == E.PHASE_ARTISAN:
            continue
        gains = {}
        for a in legal.tolist():
            if a >= E.N_PLACE_ACTIONS:
                gains[a] = 0
                continue
            mid = state.copy()
            nb.lay_tile(mid, MCOMP, player, a)
            gain = sum(int(mid[E.S_SCORE + player * 4 + k]) - int(state[E.S_SCORE + player * 4
                                                                          + k])
                       for k in (E.PART_ZONES, E.PART_GROUPS))
            newly = int(mid[E.S_PENDING]) & ~int(state[E.S_PENDING])
            for q in range(4):
                if newly >> q & 1:
                    qmask = int(MCOMP[E.C_QUARTER_MASK + q])
                    count = bin(int(mid[E.S_ARTISAN_MASK + player]) & qmask).count("1")
                    gain += E.QUARTER_GOLD[count]
            if state[E.S_PHASE] == E.PHASE_SECOND:
                gain -= 2
            gains[a] = gain
        a = choose_action_nb(spec.strategy_id, state, MCOMP, player, params, prng.copy(),
                             legal, len(legal), None, True)
        assert gains[int(a)] == max(gains.values())
        checked += 1
    assert checked >= 20


def test_presets_play_visibly_differently():
    n, G = 4, 240
    names = ["balanced", "zones", "artisans", "thrifty"]
    parsed = [REGISTRY.parse(x) for x in names]
    ids = np.arange(G, dtype=np.int64)
    lineups = np.array([[(g + p) % 4 for p in range(n)] for g in range(G)], np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(MCOMP, n, 0, 3, ids, ids, lineups,
                  np.array([s.strategy_id for s, _ in parsed], np.int64),
                  np.stack([p for _, p in parsed]), res, setups, None, True)
    label = lineups.reshape(-1)

    def mean(field, k):
        return float(res[field][label == k].astype(float).mean())

    assert mean("marker_turns", 3) < 0.6 * min(mean("marker_turns", k) for k in (0, 1, 2))
    assert mean("artisans_placed", 2) > 1.2 * mean("artisans_placed", 1)
    zone_share = [mean("pts_zones", k) / max(mean("score", k), 1) for k in range(4)]
    assert zone_share[1] > zone_share[2]


def test_mcts_beats_random():
    n, G = 2, 12
    spec, params = REGISTRY.parse("mcts:iterations=60:horizon=3")
    ids = np.arange(G, dtype=np.int64)
    lineups = np.array([[(g + p) % 2 for p in range(n)] for g in range(G)], np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(MCOMP, n, 0, 5, ids, ids, lineups, np.array([0, spec.strategy_id], np.int64),
                  np.stack([np.zeros(N_PARAMS), params]), res, setups,
                  *REGISTRY.kernel_switches([0, spec.strategy_id]))
    mcts = lineups.reshape(-1) == 1
    assert res["winner"][mcts].mean() >= 0.9


def test_kernel_switches_and_missing_family():
    search, heur, learned, net = REGISTRY.kernel_switches([0])
    assert search is None and heur is None and learned is None and net is None
    search, heur, learned, net = REGISTRY.kernel_switches([3])  # without params: any rollout
    assert search.shape == (WORK_SIZE,) and heur is True and learned is True and net is None
    mcts = REGISTRY.parse("mcts")[1]
    assert REGISTRY.kernel_switches([3], [mcts])[2] is None
    assert REGISTRY.kernel_switches([4], [mcts])[1:] == (True, True, None)
    ids = np.zeros(1, np.int64)
    with pytest.raises(ValueError, match="compiled with search=None"):
        play_batch_nb(MCOMP, 2, 0, 1, ids, ids, np.zeros((1, 2), np.int64),
                      np.array([3], np.int64), np.zeros((1, N_PARAMS)), np.zeros(2, E.RESULT_DTYPE),
                      np.zeros(1, E.SETUP_DTYPE), None, True)


def test_registry_names_params_and_errors(tmp_path):
    assert {"random", "greedy", "balanced", "zones", "artisans", "thrifty", "mcts"} <= set(
        REGISTRY.names())
    spec, params = REGISTRY.parse("zones:marker=2.5")
    assert params[WEIGHT_NAMES.index("marker")] == 2.5 and params.shape == (N_PARAMS,)
    with pytest.raises(UserError, match="unknown Maharani strategy 'nope'"):
        REGISTRY.parse("nope")
    with pytest.raises(UserError, match="has no parameter 'speed'"):
        REGISTRY.parse("balanced:speed=2")
    bad = tmp_path / "presets.toml"
    bad.write_text('[presets.balanced]\nzone = 1\n[presets.x]\nzoom = 2\n')
    with pytest.raises(UserError) as info:
        load_presets(bad)
    assert "\n" not in str(info.value)


def test_integer_search_arithmetic():
    for x in (1, 2, 3, 10, 1000, 65537):
        assert abs(ln_q16(x) / 65536 - np.log(x)) < 1e-3
    for n in (0, 1, 2, 15, 16, 17, 10**9):
        assert isqrt(n) == int(np.floor(np.sqrt(n)))


def test_the_log_table_gives_ln_q16_and_outlives_a_search():
    """The UCB's logarithms come from the workspace's table (filled on demand, kept across
    searches) or, past its end, from ln_q16 itself: the same integers either way."""
    from tajsim.games.maharani.strategies.ids import LN_CACHE, W_LN, W_LN_N
    from tajsim.games.maharani.strategies.mcts import ln_avail

    work = new_workspace()
    assert ln_avail(work, 5) == ln_q16(5)
    assert work[W_LN_N] == 5
    assert [ln_avail(work, a) for a in (3, 1, 200)] == [ln_q16(a) for a in (3, 1, 200)]
    assert work[W_LN_N] == 200
    assert list(work[W_LN + 1:W_LN + 201]) == [ln_q16(a) for a in range(1, 201)]
    assert ln_avail(work, LN_CACHE + 3) == ln_q16(LN_CACHE + 3)
    assert work[W_LN_N] == 200  # past the table: computed, not stored
    # a search fills it too, and a second search on the same workspace decides the same way
    spec, params = REGISTRY.parse("mcts:iterations=40:horizon=2")
    fresh = new_workspace()
    for state, prng, player, legal in collect_decisions(4, seed=3, n_states=3):
        a = choose_action_nb(spec.strategy_id, state, MCOMP, player, params, prng.copy(),
                             legal, legal.shape[0], new_workspace())
        b = choose_action_nb(spec.strategy_id, state, MCOMP, player, params, prng.copy(),
                             legal, legal.shape[0], fresh)
        assert a == b
    assert fresh[W_LN_N] >= 2


def test_decode_action_round_trip():
    assert decode_action((2 * E.MAX_SPACES + 17) * 4 + 3) == ("place", 2, 17, 3)
    assert decode_action(E.ACTION_REFRESH) == ("refresh",)
    assert decode_action(E.ACTION_ARTISAN + 3) == ("artisan", 3)
    with pytest.raises(ValueError):
        decode_action(E.N_ACTIONS)


def test_mcts_time_budget_replaces_the_iteration_count():
    """``ms=`` searches for that much thread CPU time (whatever ``iterations`` says); without it
    the parameter vector is the one the records were made with (slot 7 was unused, 0)."""
    import time

    from tajsim.games.maharani.strategies.mcts import I_MS, mcts_policy_nb

    _, default = REGISTRY.parse("mcts")
    assert default[I_MS] == 0.0
    state, prng, player, legal = collect_decisions(2, seed=3, n_states=1)[0]
    work = new_workspace()
    spent = {}
    for text in ("mcts:iterations=1", "mcts:iterations=1:ms=20"):
        _, params = REGISTRY.parse(text)
        mcts_policy_nb(state, MCOMP, player, params, prng.copy(), legal, legal.shape[0], work)
        t0 = time.thread_time()
        action = mcts_policy_nb(state, MCOMP, player, params, prng.copy(), legal, legal.shape[0],
                                work)
        spent[text] = time.thread_time() - t0
        assert action in legal
    assert spent["mcts:iterations=1:ms=20"] >= 0.020
    assert spent["mcts:iterations=1"] < 0.010
