"""Every registered Maharaja strategy: legal actions only; it never changes the state or
another seat's stream; its decision does not change when ``redraw_hidden`` redraws what the
seat cannot see; the registry parses names and parameters; the presets play differently."""

from __future__ import annotations

import numpy as np
import pytest
from maharaja_helpers import COMP, collect_states

from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.invariants import redraw_hidden
from tajsim.games.maharaja.play.nb import play_batch_nb
from tajsim.games.maharaja.strategies.ids import (
    SEARCH_ROLLOUT_SLOT,
    STRATEGY_LEARNED,
    WORK_SIZE,
    kernel_switches,
)
from tajsim.games.maharaja.strategies.nb import choose_action_nb, choose_action_work_nb
from tajsim.games.maharaja.strategies.registry import REGISTRY, load_presets
from tajsim.games.maharaja.strategies.view import PlayerView

SMALL_SEARCH = "search:iterations=12:candidates=3:horizon=0"
SMALL_TURNSEARCH = "turnsearch:iterations=6:candidates=3:step_candidates=3:step_horizon=1"
NAMES = [n for n in REGISTRY.names() if n not in ("search", "turnsearch")] + [SMALL_SEARCH,
                                                                           SMALL_TURNSEARCH]


@pytest.fixture(scope="module")
def states():
    """States from games between a mix of strategies, every phase represented."""
    return collect_states(["random", "balanced", "tollroad", "rusher", "hoarder"], n_games=6,
                             seed=21, keep_share=0.2, rng_seed=11)


def test_states_cover_every_decision_phase(states):
    phases = {int(s[E.S_PHASE]) for s in states}
    assert {E.PHASE_DRAFT, E.PHASE_SETUP_HOUSE, E.PHASE_PICK, E.PHASE_TURN} <= phases


@pytest.mark.parametrize("name", NAMES)
def test_strategy_is_legal_pure_and_blind(name, states):
    spec, params = REGISTRY.parse(name)
    buf = np.empty(E.N_ACTIONS, np.int64)
    rng = np.random.default_rng(5)
    hidden_seen = 0
    for i, state in enumerate(states):
        k = nb.legal_actions_nb(state, COMP, buf)
        legal = buf[:k].copy()
        p = int(state[E.S_CUR])
        prng = np.array([1000 + 17 * i + q for q in range(E.MAX_PLAYERS)], np.int64)
        before, prng_before = state.copy(), prng.copy()
        a = choose_action_nb(spec.strategy_id, state, COMP, p, params, prng, legal, k)
        assert a in legal.tolist(), f"{name} chose illegal {a}"
        assert state.tobytes() == before.tobytes(), f"{name} changed the state"
        others = [q for q in range(E.MAX_PLAYERS) if q != p]
        assert (prng[others] == prng_before[others]).all(), f"{name} used another stream"
        # what p cannot see, redrawn: the same decision from the same stream
        if nb.hidden_pick_count(state, p) > 0:
            hidden_seen += 1
        for _ in range(2):
            other = redraw_hidden(state, COMP, p, rng)
            prng2 = prng_before.copy()
            a2 = choose_action_nb(spec.strategy_id, other, COMP, p, params, prng2, legal, k)
            assert a2 == a, f"{name} decided {a2} != {a} after a hidden redraw"
            assert PlayerView.of(other, COMP, p) == PlayerView.of(state, COMP, p)
    assert hidden_seen > 0  # some states had hidden picks to redraw


def test_work_scratch_does_not_carry_decisions(states):
    """A reused scratch array gives the same decisions as a fresh one (play_out reuses one)."""
    spec, params = REGISTRY.parse("balanced")
    work = np.full(WORK_SIZE, 12345, np.int64)
    buf = np.empty(E.N_ACTIONS, np.int64)
    for state in states:
        k = nb.legal_actions_nb(state, COMP, buf)
        p = int(state[E.S_CUR])
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        a1 = choose_action_work_nb(spec.strategy_id, state, COMP, p, params, prng.copy(), buf,
                                   k, work)
        a2 = choose_action_nb(spec.strategy_id, state, COMP, p, params, prng.copy(), buf, k)
        assert a1 == a2


def test_registry_names_and_parameters():
    assert REGISTRY.names()[:2] == ["random", "greedy"]
    assert {"balanced", "rusher", "tollroad", "hoarder", "character", "search"} <= \
        set(REGISTRY.names())
    spec, vec = REGISTRY.parse("rusher:palace=60")
    assert vec[0] == 60.0 and vec.shape == (50,)  # 48 own slots + temperature, forbid
    spec, vec = REGISTRY.parse("search:iterations=7:r_palace=20")
    assert vec[0] == 7 and vec[16] == 20.0
    with pytest.raises(UserError, match="unknown Maharaja strategy 'nope'"):
        REGISTRY.parse("nope")
    with pytest.raises(UserError, match="has no parameter 'zzz'"):
        REGISTRY.parse("balanced:zzz=1")
    with pytest.raises(UserError, match="expected key=number"):
        REGISTRY.parse("balanced:palace")
    assert kernel_switches([0]) == (None, None, None)
    assert kernel_switches([0, 2]) == (None, True, None)
    assert kernel_switches([3]) == (True, True, True)  # without params: any rollout policy
    search = REGISTRY.parse("search")[1]
    assert kernel_switches([3, 0], [search, search]) == (True, True, None)
    learned_rollout = search.copy()
    learned_rollout[SEARCH_ROLLOUT_SLOT] = STRATEGY_LEARNED
    assert kernel_switches([3], [learned_rollout]) == (True, True, True)


def test_bad_presets_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text("[presets.balanced]\npalace = 1\n")
    with pytest.raises(UserError, match="misses weights"):
        load_presets(path)
    path.write_text("[presets.balanced]\n" + "\n".join(
        f"{k} = 1" for k in REGISTRY.get("balanced").param_names) + "\n[presets.x]\nfoo = 2\n")
    with pytest.raises(UserError, match="unknown weight 'foo'"):
        load_presets(path)


def batch(lineup, n_games=160, n_players=4, seed=3):
    specs = [REGISTRY.parse(s) for s in lineup]
    ids = np.array([s.strategy_id for s, _ in specs], np.int64)
    params = np.stack([v for _, v in specs])
    G = n_games
    gids = np.arange(G, dtype=np.int64)
    lineups = (np.arange(G)[:, None] + np.arange(n_players)[None, :]) % len(lineup)
    res = np.zeros(G * n_players, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(COMP, n_players, 0, seed, gids, gids, lineups.astype(np.int64), ids, params,
                  res, setups, *kernel_switches(ids))
    names = np.array(lineup)[lineups.reshape(-1)]
    return res, setups, names


def test_presets_play_visibly_differently():
    res, _, names = batch(["balanced", "rusher", "tollroad", "hoarder", "character"])

    def mean(field, who):
        return float(res[field][names == who].mean())

    others = ["balanced", "rusher", "tollroad", "hoarder", "character"]

    def most(field, who):
        return all(mean(field, who) > mean(field, o) for o in others if o != who)

    assert most("houses_village", "tollroad") and most("tolls_received", "tollroad")
    assert most("gold", "hoarder") and most("chose_gold", "hoarder")
    assert most("chose_character", "character")
    assert mean("houses_board", "rusher") < mean("houses_board", "balanced")
    assert mean("chose_palace", "rusher") > mean("chose_palace", "balanced")


def test_heuristics_beat_random():
    res, _, names = batch(["balanced", "random"], n_games=100)
    win_b = res["winner"][names == "balanced"].mean()
    win_r = res["winner"][names == "random"].mean()
    assert win_b > 0.4 and win_r < 0.1


def test_search_time_budget_replaces_the_iteration_count():
    """``ms=`` searches a pick for that much thread CPU time whatever ``iterations`` says;
    without it the parameter vector is the one the records were made with (slot 7 was unused,
    0). Iterations are counted, not timed: the searcher's bandit pulls add up to them."""
    from maharaja_helpers import setup

    from tajsim.games.maharaja.strategies.ids import MAX_CANDIDATES, MAX_ITERATIONS, W_SEARCH_N
    from tajsim.games.maharaja.strategies.search import I_MS, search_pick

    assert REGISTRY.parse("search")[1][I_MS] == 0.0
    state = setup(2)
    player = int(state[E.S_CUR])
    legal = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(state, COMP, legal)
    assert n > 1
    work = np.zeros(WORK_SIZE, np.int64)

    def iterations_of(text):
        prng = np.arange(1, E.MAX_PLAYERS + 1, dtype=np.int64)
        action = search_pick(state, COMP, player, REGISTRY.parse(text)[1], prng, legal, n, work)
        assert action in legal[:n]
        base = W_SEARCH_N + player * MAX_CANDIDATES
        return int(work[base:base + MAX_CANDIDATES].sum())

    assert iterations_of("search:iterations=30") == 30
    short = iterations_of("search:iterations=1:ms=2")
    long = iterations_of("search:iterations=1:ms=50")
    assert 1 < short < long / 4
    # a budget stops a search whose iteration count alone would take a while (and beyond the
    # log table's end it keeps going)
    assert iterations_of(f"search:iterations={MAX_ITERATIONS}:ms=1") < MAX_ITERATIONS
